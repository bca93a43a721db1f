# Shared by scripts/evaluate.sh and scripts/evaluate_languages.sh (sourced, not run). The caller
# sets: bin (the slst binary), out (the results folder), json (where run writes NAME.json), plots
# (where run writes NAME/*.png; empty: no plots), work (a scratch folder), methods and modes.

# The edit kinds of slst synth, every one counted positive on a synthetic set.
synth_kinds=last-paragraph,every-nth,delete,insert,reorder,substitute,paste,boilerplate

# run NAME EVAL_ARG…: slst eval of every method (or only "$only", then reset) into $json/NAME.json.
only=""
run() {
  local name="$1"; shift
  echo "== $name" >&2
  "$bin" eval "$@" --method "${only:-$methods}" --mode "$modes" --json \
    ${plots:+--plots "$plots/$name"} --title "$name" > "$json/$name.json"
  only=""
}

# synthetic_set BASE STOPWORDS SAMPLE_ARG…: an AP90-S-like subset (SL+ST paper, section 3.1: the
# BM25 top 150 of 6 query documents; slst sample with SAMPLE_ARG…, the sources and reader
# options) in $work/BASE.trec with its manifest $out/BASE.manifest.json, then 150 of its documents
# with one planted near-duplicate each (slst synth, every edit kind, STOPWORDS for substitute's
# swaps) in $work/BASE-synth.trec, truth in $out/BASE-synth.truth.tsv.
synthetic_set() {
  local base="$1" stopwords="$2"; shift 2
  "$bin" sample "$@" --queries 6 --top 150 --seed 1 \
    --out "$work/$base.trec" --manifest "$out/$base.manifest.json" 2> /dev/null
  "$bin" synth "$work/$base.trec" --docs 150 --seed 1 --stopwords "$stopwords" \
    --out "$work/$base-synth.trec" --truth "$out/$base-synth.truth.tsv" 2> /dev/null
}
