#!/usr/bin/env bash
# Evaluate every method on every labelled set and write results/RESULTS.md, results/json/ and
# results/plots/. One command:
#
#   scripts/evaluate.sh [PATH/TO/shared/corpora]     (default: ../shared/corpora)
#
# The Bible versions and the Clough & Stevenson corpus ship in corpora/ (public domain; freely
# available for research, with its citation). mini-newsgroups and Reuters-21578 are research-use
# data that the project does not redistribute: they are read from the shared corpora folder when
# it is there, and their sets are skipped, with a note, when it is not. The truth files in
# corpora/truth/ are derived by scripts/make_truth.py (rerun here when the shared corpora are
# present). METHODS=slst,shingle restricts the methods (default: all, SL+ST in both modes: its
# robust mode with its default parameters, which scripts/tune_robust.py chose on half A of the
# Bible and Clough sets). The robust mode's held-out figures and ablation come from
# results/tuning/ (scripts/tune_robust.py, scripts/ablation_robust.py; not rerun here).
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${1:-../shared/corpora}"
# The text methods and SL+ST's robust mode; the web methods (blocks-*, specialchars, slst-flat)
# read page structure that plain text has not, and are evaluated on the web sets below.
methods="${METHODS:-slst,shingle,megashingle,polyhash,spotsigs,sentlen,md5}"
# SL+ST is evaluated in each of these modes (MODES=paper for the paper's method alone).
modes="${MODES:-paper,robust}"
cargo build --release --quiet
bin=target/release/slst
if [ -d "$shared/mini-newsgroups" ] && [ -d "$shared/reuters21578" ]; then
  python3 scripts/make_truth.py "$shared" > /dev/null
  have_shared=1
else
  echo "evaluate.sh: $shared does not hold mini-newsgroups and reuters21578: their sets are skipped" >&2
  echo "(get them from the UCI KDD archive: 20 Newsgroups' mini_newsgroups, and Reuters-21578" >&2
  echo "Distribution 1.0; give their folder as the first argument)." >&2
  have_shared=0
fi
out=results
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$out/json" "$out/plots"
mkdir -p "$out/json" "$out/plots"

json="$out/json"
plots="$out/plots"
# run NAME EVAL_ARG… and synthetic_set BASE STOPWORDS SAMPLE_ARG…
source scripts/eval_common.sh

bible=corpora/bible-versions
clough=corpora/clough-short-answers/corpus-20090418

# Bible: light revisions (KJV and Webster 1833 only), then light + heavy (all three versions).
run bible-light "$bible/kjv.trec.gz" "$bible/wbt.trec.gz" \
  --truth corpora/truth/bible-pairs.tsv --positive light --ignore corpora/truth/bible-ignore.tsv
run bible-light-heavy "$bible/kjv.trec.gz" "$bible/wbt.trec.gz" "$bible/web.trec.gz" \
  --truth corpora/truth/bible-pairs.tsv --positive light,heavy --ignore corpora/truth/bible-ignore.tsv
# Clough & Stevenson: every answer against every source (listed pairs).
run clough-cut-light "$clough" --universe listed \
  --truth corpora/truth/clough-pairs.tsv --positive cut,light
run clough-cut-light-heavy "$clough" --universe listed \
  --truth corpora/truth/clough-pairs.tsv --positive cut,light,heavy

if [ "$have_shared" = 1 ]; then
  news="$shared/mini-newsgroups/mini_newsgroups"
  reuters=("$shared"/reuters21578/reut2-*.sgm)
  sgml=(--format sgml --doc-tag REUTERS --id-attr NEWID)
  # mini-newsgroups: cross-posts (exact duplicates), and quoting replies by containment.
  run newsgroups-crossposts "$news" --mail-body \
    --truth corpora/truth/newsgroups-pairs.tsv --positive crosspost --ignore corpora/truth/newsgroups-unquoted.tsv
  run newsgroups-quotes "$news" --mail-body --score containment \
    --truth corpora/truth/newsgroups-pairs.tsv --positive crosspost,quote --ignore corpora/truth/newsgroups-unquoted.tsv
  # Reuters-21578: exact-duplicate bodies. All pairs of 21,578 documents are 232 million: the
  # methods whose keys are shared by most pairs (character n-grams, spot signatures,
  # sentence-length runs) would compare nearly all of them, so they are left out of this set.
  only="${REUTERS_METHODS:-slst,shingle,megashingle,md5}"
  run reuters-exact "${reuters[@]}" "${sgml[@]}" --text-tags BODY \
    --truth corpora/truth/reuters-exact.tsv --truth-format clusters
  # An AP90-S-like subset (SL+ST paper, section 3.1): the BM25 top 150 of 6 query documents,
  # with near-duplicates planted by slst synth (every edit kind).
  synthetic_set reuters-s english "${reuters[@]}" "${sgml[@]}" --text-tags TITLE,BODY
  run reuters-s-synthetic "$work/reuters-s-synth.trec" --truth "$out/reuters-s-synth.truth.tsv" --positive "$synth_kinds"
fi

# The labelled web sets (LLVM manual pages): versions (light + heavy, identical pages ignored;
# then identical counted positive too) and mirror (two site templates), by scripts/evaluate_web.sh.
versions=(corpora/web-versions/pages corpora/truth/web-versions-pairs.tsv)
scripts/evaluate_web.sh web-versions "${versions[@]}" \
  --positive light,heavy --ignore corpora/truth/web-versions-identical.tsv > /dev/null
scripts/evaluate_web.sh web-versions-with-identical "${versions[@]}" \
  --positive identical,light,heavy > /dev/null
scripts/evaluate_web.sh web-mirror corpora/web-mirror/pages corpora/truth/web-mirror-pairs.tsv \
  --positive mirror > /dev/null

python3 scripts/results_table.py "$out/json" > "$out/RESULTS.md"
# The web sets: their state (results/web/README.md) and summaries follow.
if [ -f "$out/web/README.md" ]; then
  { echo; cat "$out/web/README.md"; } >> "$out/RESULTS.md"
  for set in web-versions web-versions-with-identical web-mirror; do
    summary="$out/web/$set/summary.md"
    [ -f "$summary" ] && { echo; sed 's/^# /### /; s/^## /#### /' "$summary"; } >> "$out/RESULTS.md"
  done
fi
echo "wrote $out/RESULTS.md" >&2
