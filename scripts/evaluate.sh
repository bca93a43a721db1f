#!/usr/bin/env bash
# Evaluate every method on every labelled set and write results/RESULTS.md, results/json/ and
# results/plots/. One command:
#
#   scripts/evaluate.sh [PATH/TO/shared/corpora]     (default: ../shared/corpora)
#
# The labelled sets are read from the shared corpora beside the repository (they are not all
# redistributable); the truth files are derived into corpora/truth/ by scripts/make_truth.py.
set -euo pipefail
cd "$(dirname "$0")/.."
corpora="${1:-../shared/corpora}"
if [ ! -d "$corpora/bible-versions" ]; then
  echo "evaluate.sh: $corpora does not hold the labelled corpora (bible-versions, clough-short-answers," >&2
  echo "mini-newsgroups, reuters21578); give their folder as the first argument." >&2
  exit 2
fi
methods="${METHODS:-all}"
cargo build --release --quiet
bin=target/release/slst
python3 scripts/make_truth.py "$corpora" > /dev/null
out=results
rm -rf "$out/json" "$out/plots"
mkdir -p "$out/json" "$out/plots"

run() {
  local name="$1"; shift
  echo "== $name" >&2
  "$bin" eval "$@" --method "${only:-$methods}" --json --plots "$out/plots/$name" --title "$name" > "$out/json/$name.json"
  only=""
}

bible="$corpora/bible-versions"
clough="$corpora/clough-short-answers/corpus-20090418"
news="$corpora/mini-newsgroups/mini_newsgroups"
reuters="$corpora/reuters21578"

# Bible: light revisions (KJV and Webster 1833 only), then light + heavy (all three versions).
run bible-light "$bible/kjv.trec" "$bible/wbt.trec" \
  --truth corpora/truth/bible-pairs.tsv --positive light --ignore corpora/truth/bible-ignore.tsv
run bible-light-heavy "$bible/kjv.trec" "$bible/wbt.trec" "$bible/web.trec" \
  --truth corpora/truth/bible-pairs.tsv --positive light,heavy --ignore corpora/truth/bible-ignore.tsv
# Clough & Stevenson: every answer against every source (listed pairs).
run clough-cut-light "$clough" --universe listed \
  --truth corpora/truth/clough-pairs.tsv --positive cut,light
run clough-cut-light-heavy "$clough" --universe listed \
  --truth corpora/truth/clough-pairs.tsv --positive cut,light,heavy
# mini-newsgroups: cross-posts (exact duplicates), and quoting replies by containment.
run newsgroups-crossposts "$news" --mail-body \
  --truth corpora/truth/newsgroups-pairs.tsv --positive crosspost --ignore corpora/truth/newsgroups-unquoted.tsv
run newsgroups-quotes "$news" --mail-body --score containment \
  --truth corpora/truth/newsgroups-pairs.tsv --positive crosspost,quote --ignore corpora/truth/newsgroups-unquoted.tsv
# Reuters-21578: exact-duplicate bodies. Every pair of 21,578 documents is 232 million pairs: the
# methods whose keys are shared by most pairs (character n-grams, spot signatures, sentence-length
# runs) would compare nearly all of them, so they are left out of this set.
only="${REUTERS_METHODS:-slst,shingle,megashingle,md5}"
run reuters-exact "$reuters"/reut2-*.sgm --format sgml --doc-tag REUTERS --id-attr NEWID --text-tags BODY \
  --truth corpora/truth/reuters-exact.tsv --truth-format clusters

python3 scripts/results_table.py "$out/json" > "$out/RESULTS.md"
echo "wrote $out/RESULTS.md" >&2
