#!/usr/bin/env bash
# timing.sh MAIN_BIN FAST_BIN OUTDIR RUNS (from the repository root): slst batch on Reuters-21578 and syn-10000 (JSONL),
# main's binary and the branch's interleaved, /usr/bin/time -v per run; pairs and clusters kept.
set -euo pipefail
main=$1 fast=$2 out=$3 runs=${4:-7}
data=bench-results/data
mkdir -p "$out"
for rep in $(seq 1 "$runs"); do
  for corpus in reuters21578 syn-10000; do
    for v in main fast; do
      bin=$main; [ "$v" = fast ] && bin=$fast
      /usr/bin/time -v -o "$out/$corpus.$v.$rep.timev" "$bin" batch "$data/$corpus.jsonl" --format jsonl \
        --out "$out/$corpus.$v.pairs.tsv" --out-format tsv --clusters "$out/$corpus.$v.clusters.tsv" \
        --summary "$out/$corpus.$v.summary.json" -q
    done
  done
done
