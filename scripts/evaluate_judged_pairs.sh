#!/usr/bin/env bash
# Pair sets on Reuters-21578 scored against the 400 pairs judged by reading
# (results/judged-pairs/reuters/: RULE.md, verdicts.tsv): slst in paper mode, robust mode with
# its decision conditions (--min-weighted, --min-figures) over a small grid, and the MinHash
# peers (rensa, gaoya, datasketch at their documented settings, scripts/peers/minhash_peers.py).
#
#   scripts/evaluate_judged_pairs.sh [CORPORA]   (default ../shared/corpora)
#
# Writes results/judged-pairs/reuters/scores.txt: per half (A: tune, B: report) each output's
# pairs, its pairs inside and outside the peers' union, stratified precision, and recall of the
# judged near-duplicates among the peers' pairs (scripts/score_judged_pairs.py). The peers are
# installed, pinned, into the ignored venv .venv-peers as scripts/bench_peers.sh does.
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
"$bin" batch "$jsonl" --format jsonl --mode paper --out "$work/paper.tsv" --out-format tsv -q
outs+=("paper=$work/paper.tsv")
for w in 0 0.4 0.5; do
  for f in 0 0.5 0.7; do
    "$bin" batch "$jsonl" --format jsonl --mode robust --min-weighted "$w" --min-figures "$f" \
      --out "$work/robust-$w-$f.tsv" --out-format tsv -q
    outs+=("robust,weighted≥$w,figures≥$f=$work/robust-$w-$f.tsv")
  done
done
for p in rensa gaoya datasketch; do outs+=("$p=$work/$p.tsv"); done
out=results/judged-pairs/reuters/scores.txt
{
  echo "# scripts/evaluate_judged_pairs.sh (git $(git rev-parse --short HEAD))"
  for half in A B all; do
    echo
    python3 scripts/score_judged_pairs.py results/judged-pairs/reuters/verdicts.tsv \
      "$(IFS=,; echo "${peers[*]}")" "${outs[@]}" --half "$half"
  done
} > "$out"
cat "$out"
