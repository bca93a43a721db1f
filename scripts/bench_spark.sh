#!/usr/bin/env bash
# The Spark job (python -m slst.spark) on local[2] against slst batch: the same pairs, and the
# job's run record (seconds per stage, shuffle bytes, peak memory).
#
#   scripts/bench_spark.sh [--corpus reuters|realistic-N|stress-N] [--mode robust|paper]
#                          [--name NAME] [--corpora DIR] [--python PY] [--partitions N]
#                          [--driver-memory M]
#
#   --corpus  reuters (Reuters-21578 as JSON lines, scripts/peers/reuters_to_jsonl.py),
#             realistic-N (scripts/make_synthetic.py N --kind realistic, seed 1: the scale
#             corpus of docs/benchmarks.md) or stress-N (--kind pool: every sentence from a
#             fixed pool, the stress corpus); default reuters
#   --python  a Python with the package and PySpark installed (pip install "./python[spark]");
#             default python3
#   --partitions, --driver-memory   passed to the job (default: its own; robust mode at 100,000
#             synthetic documents needs smaller partitions than the job's default in a 4 GB heap)
#
# Data goes to bench-results/data (ignored); the job's output to bench-results/spark/; the
# record (command, run.json, the comparison with slst batch) to scripts/runs/<date>-NAME/.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=reuters MODE=robust NAME= CORPORA=../shared/corpora PY=python3 JOB_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --corpus) CORPUS=$2; shift 2 ;;
    --mode) MODE=$2; shift 2 ;;
    --name) NAME=$2; shift 2 ;;
    --corpora) CORPORA=$2; shift 2 ;;
    --python) PY=$2; shift 2 ;;
    --partitions|--driver-memory) JOB_ARGS+=("$1" "$2"); shift 2 ;;
    *) sed -n '2,17p' "$0"; exit 2 ;;
  esac
done
NAME=${NAME:-spark-$CORPUS-$MODE}
DATA=bench-results/data
mkdir -p "$DATA"
case "$CORPUS" in
  reuters)
    INPUT=$DATA/reuters21578.jsonl
    [ -s "$INPUT" ] || python3 scripts/peers/reuters_to_jsonl.py "$INPUT" "$CORPORA"/reuters21578/reut2-*.sgm ;;
  realistic-*|stress-*)
    N=${CORPUS#*-} KIND=realistic
    [ "${CORPUS%%-*}" = stress ] && KIND=pool
    INPUT=$DATA/$CORPUS.jsonl
    [ -s "$INPUT" ] || python3 scripts/make_synthetic.py "$N" "$INPUT" "$DATA/$CORPUS.truth.tsv" --seed 1 --kind "$KIND" --corpora "$CORPORA" ;;
  *) echo "bench_spark.sh: unknown corpus $CORPUS" >&2; exit 2 ;;
esac
cargo build --release --quiet
RUN=scripts/runs/$(date +%Y-%m-%d)-$NAME
OUT=bench-results/spark/$NAME
rm -rf "$OUT"
mkdir -p "$RUN" "$OUT"
echo "scripts/bench_spark.sh --corpus $CORPUS --mode $MODE --name $NAME ${JOB_ARGS[*]}" > "$RUN/command"
/usr/bin/time -v "$PY" -m slst.spark "$INPUT" --out "$OUT" --mode "$MODE" --master 'local[2]' "${JOB_ARGS[@]}" \
  > "$OUT.log" 2> "$OUT.timev" || { tail -20 "$OUT.timev" >&2; exit 1; }
# The record names the interpreter as python, not by its path on this machine.
sed "s|$PY|python|" "$OUT.timev" > "$RUN/timev.txt"
cp "$OUT/run.json" "$RUN/run.json"
target/release/slst batch "$INPUT" --format jsonl --mode "$MODE" -qq --out "$OUT.batch.jsonl"
if diff -q <(sort "$OUT.batch.jsonl") <(cat "$OUT"/pairs.jsonl/part-* | sort) > /dev/null; then
  echo "pairs: $(wc -l < "$OUT.batch.jsonl"), the same as slst batch's" | tee "$RUN/compare.txt"
else
  echo "pairs DIFFER from slst batch's: $(wc -l < "$OUT.batch.jsonl") vs $(cat "$OUT"/pairs.jsonl/part-* | wc -l)" | tee "$RUN/compare.txt"
  exit 1
fi
# Per stage of the job: seconds, CPU (the JVM's tasks and the Python workers), shuffle.
python3 - "$RUN/run.json" <<'PY' | tee "$RUN/stages.md"
import json, sys
r = json.load(open(sys.argv[1]))
print(f"{r['documents']:,} documents, {r['candidate_pairs']:,} candidate pairs"
      + (f", {r['screened_pairs']:,} after the pair check" if "screened_pairs" in r else "")
      + f", {r['pairs']:,} pairs; shuffle written {r.get('shuffle_write_bytes_per_document', '?')} bytes a document\n")
print("| stage | seconds | CPU s (JVM + Python) | shuffle written, bytes a document |")
print("|---|---|---|---|")
for name, s in r["stages"].items():
    cpu = s.get("jvm_cpu_seconds", 0) + s["python_cpu_seconds"]
    print(f"| {name} | {s['seconds']:.1f} | {cpu:.1f} | {s.get('shuffle_write_bytes_per_document', '?')} |")
PY
