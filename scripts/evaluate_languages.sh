#!/usr/bin/env bash
# The synthetic near-duplicate set in English, Russian and Ukrainian, built and evaluated alike:
# results/languages/ (README.md with the table, json/, manifests and truth files). One command:
#
#   scripts/evaluate_languages.sh [PATH/TO/shared/corpora]     (default: ../shared/corpora)
#
# English is evaluate.sh's reuters-s-synthetic (Reuters-21578, read from the shared corpora);
# Russian and Ukrainian are Debian's translated Linux manual pages, fetched and converted by
# scripts/fetch_language_text.py into bench-results/languages/ (run here when missing). Each set:
# slst sample (the BM25 top 150 of 6 query documents, seed 1; analyzer english for Reuters, plain
# for the others, which has no Russian or Ukrainian stemmer), then slst synth --docs 150 --seed 1
# with the language's stop list, then slst eval of every method of evaluate.sh (SL+ST in paper and
# robust mode) with --stopwords LANGUAGE and again with --stopwords auto, every edit kind positive;
# and the robust resemblance of every planted pair by slst compare, for the table by edit kind.
# METHODS, MODES as in evaluate.sh; SLST_BIN=PATH takes that binary instead of a release build.
set -euo pipefail
cd "$(dirname "$0")/.."
shared="${1:-../shared/corpora}"
methods="${METHODS:-slst,shingle,megashingle,polyhash,spotsigs,sentlen,md5}"
modes="${MODES:-paper,robust}"
if [ -n "${SLST_BIN:-}" ]; then
  bin="$SLST_BIN"
else
  cargo build --release --quiet
  bin=target/release/slst
fi
if [ ! -d "$shared/reuters21578" ]; then
  echo "evaluate_languages.sh: $shared does not hold reuters21578 (Reuters-21578 Distribution 1.0);" >&2
  echo "give the folder that holds it as the first argument" >&2
  exit 2
fi
text=bench-results/languages
for lang in ru uk; do
  [ -f "$text/$lang.jsonl" ] || python3 scripts/fetch_language_text.py --work "$text" > /dev/null
done
out=results/languages
json="$out/json"
plots=""
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rm -rf "$json"
mkdir -p "$json"
# run NAME EVAL_ARG… and synthetic_set BASE STOPWORDS SAMPLE_ARG…
source scripts/eval_common.sh

# set CODE LIST SAMPLE_ARG…: the set of one language, evaluated with its list and with auto.
set_of() {
  local code="$1" list="$2"; shift 2
  synthetic_set "$code-s" "$list" "$@"
  python3 scripts/languages_table.py kinds "$bin" "$work/$code-s-synth.trec" \
    "$out/$code-s-synth.truth.tsv" "$list" > "$out/$code-s-kinds.json"
  for stopwords in "$list" auto; do
    run "$code-synthetic-$stopwords" "$work/$code-s-synth.trec" --truth "$out/$code-s-synth.truth.tsv" \
      --positive "$synth_kinds" --stopwords "$stopwords"
  done
}
set_of en english "$shared"/reuters21578/reut2-*.sgm --format sgml --doc-tag REUTERS --id-attr NEWID \
  --text-tags TITLE,BODY
set_of ru russian "$text/ru.jsonl" --analyzer plain
set_of uk ukrainian "$text/uk.jsonl" --analyzer plain
cp "$text/sources.json" "$out/sources.json"
python3 scripts/languages_table.py "$out" > "$out/README.md"
echo "wrote $out/README.md" >&2
