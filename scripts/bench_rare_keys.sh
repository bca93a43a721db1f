#!/usr/bin/env bash
# The default mode with and without --rare-df on one corpus, one run after the other on the
# same machine: wall time, CPU, peak memory, the candidates stage, the pairs and the planted
# pairs recalled (docs/benchmarks.md, "Rare keys").
#
#   scripts/bench_rare_keys.sh CORPUS.jsonl TRUTH.tsv [RARE_DF...]
#
# CORPUS and TRUTH as scripts/make_synthetic.py writes them (bench-results/data/realistic-N.*);
# RARE_DF defaults to 10; each value given runs in turn, then --rare-df 0. Prints each run's
# summary lines, GNU time's figures and the recall.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,10p' "$0"; exit 2; }
corpus=$1 truth=$2
shift 2
[ $# -gt 0 ] || set -- 10
cargo build --release -q
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for r in "$@" 0; do
  /usr/bin/time -f "wall %e s, CPU %U + %S s, peak RSS %M KB" -o "$out/time-$r" \
    target/release/slst batch "$corpus" --format jsonl --out "$out/pairs-$r.jsonl" \
    --out-format jsonl --rare-df "$r" > "$out/summary-$r" 2>&1
  echo "== --rare-df $r"
  grep -E "^(candidate pairs|pairs reported|time):" "$out/summary-$r"
  cat "$out/time-$r"
  python3 scripts/planted_recall.py "$truth" --pairs "$out/pairs-$r.jsonl"
done
