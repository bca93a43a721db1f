#!/usr/bin/env bash
# Pair sets on Reuters-21578 scored against the pairs judged by reading (rule:
# results/judged-pairs/reuters/RULE.md): slst's default (robust mode and its decision), robust
# mode with its decision conditions off (J >= θ alone), paper mode, and the MinHash peers
# (rensa, gaoya, datasketch at their documented settings, scripts/peers/minhash_peers.py).
#
#   scripts/evaluate_judged_pairs.sh [CORPORA]   (default ../shared/corpora)
#
# Writes results/judged-pairs/reuters/scores.txt: per half (A: tune, B: report) each output's
# pairs, stratified precision over the first, stratified sample, and recall of the judged
# near-duplicates among the peers' pairs (scripts/score_judged_pairs.py); then the precision of
# each output on the uniform samples of the default output (results/judged-pairs/reuters-default/,
# reuters-headlines/ and reuters-held-out/, each valid for outputs inside the sampled one). The
# peers are installed, pinned, into the ignored venv .venv-peers as scripts/bench_peers.sh does.
set -euo pipefail
cd "$(dirname "$0")/.."
corpora="${1:-../shared/corpora}"
[ -d "$corpora/reuters21578" ] || { echo "no $corpora/reuters21578" >&2; exit 2; }
cargo build --release --quiet
bin=target/release/slst
venv=.venv-peers
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q rensa==0.5.0 gaoya==0.2.2 datasketch==2.0.0
data=bench-results/data
mkdir -p "$data"
jsonl=$data/reuters21578.jsonl
[ -s "$jsonl" ] || python3 scripts/peers/reuters_to_jsonl.py "$jsonl" "$corpora"/reuters21578/reut2-*.sgm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
peers=()
for p in rensa gaoya datasketch; do
  "$venv/bin/python" scripts/peers/minhash_peers.py "$p" "$jsonl" "$work/$p.tsv" > /dev/null
  peers+=("$work/$p.tsv")
done
outs=()
run() {
  local name="$1"; shift
  "$bin" batch "$jsonl" --format jsonl --out "$work/$name.tsv" --out-format tsv -qq "$@"
  outs+=("$name=$work/$name.tsv")
}
run default
run robust,J-alone --mode robust --contained 0 --min-figure-containment 0 --min-agreement 0 \
  --min-term-containment 0 --no-flash-leads --matched-containment-from 0 --no-headline-subjects \
  --figure-swaps 0 --flash-edits 0 --vocabulary 0
# The output the uniform sample was drawn from (commit 2924ecf): today's default without the
# conditions added since (term containment, the first-word check of two headlines, the figure
# and term conditions over the blocks of edited copies, the headlines' subjects, and places
# filled with other figures, two one-line flashes that each say what the other does not).
run sampled --mode robust --min-term-containment 0 --no-flash-leads \
  --matched-containment-from 0 --no-headline-subjects --figure-swaps 0 --flash-edits 0 \
  --vocabulary 0
run no-figure-swaps --mode robust --figure-swaps 0
run figure-swaps-1 --mode robust --figure-swaps 1
run no-flash-leads --mode robust --no-flash-leads
run no-flash-edits --mode robust --flash-edits 0
run paper --mode paper
# The output the fresh sample (results/judged-pairs/reuters-headlines/) was drawn from, but for one
# pair: today's default without the two checks added since.
run headlines-sampled --mode robust --figure-swaps 0 --flash-edits 0 --vocabulary 0
# The output the held-out sample (results/judged-pairs/reuters-held-out/) was drawn from:
# today's default without the word rule, and the word rule at other levels.
run no-vocabulary --vocabulary 0
run vocabulary-0.7 --vocabulary 0.7
run vocabulary-0.9 --vocabulary 0.9
for p in rensa gaoya datasketch; do outs+=("$p=$work/$p.tsv"); done
out=results/judged-pairs/reuters/scores.txt
{
  echo "# scripts/evaluate_judged_pairs.sh (git $(git rev-parse --short HEAD))"
  for half in A B all; do
    echo
    python3 scripts/score_judged_pairs.py results/judged-pairs/reuters/verdicts.tsv \
      "$(IFS=,; echo "${peers[*]}")" "${outs[@]}" --half "$half"
  done
  echo
  echo "# precision on the uniform sample of the default output (results/judged-pairs/reuters-default/)"
  python3 scripts/score_judged_pairs.py --sample results/judged-pairs/reuters-default/verdicts.tsv \
    "sampled=$work/sampled.tsv" "${outs[@]}"
  echo
  echo "# precision on the fresh sample of the default output (results/judged-pairs/reuters-headlines/)"
  python3 scripts/score_judged_pairs.py --sample results/judged-pairs/reuters-headlines/verdicts.tsv \
    "headlines-sampled=$work/headlines-sampled.tsv" "${outs[@]}"
  echo
  echo "# precision on the held-out sample of the default output (results/judged-pairs/reuters-held-out/)"
  python3 scripts/score_judged_pairs.py --sample results/judged-pairs/reuters-held-out/verdicts.tsv \
    "no-vocabulary=$work/no-vocabulary.tsv" "${outs[@]}"
} > "$out"
cat "$out"
