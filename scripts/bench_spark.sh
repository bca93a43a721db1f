#!/usr/bin/env bash
# The Spark job (python -m slst.spark) on local[2] against slst batch: the same pairs, and the
# job's run record (seconds per stage, shuffle bytes, peak memory).
#
#   scripts/bench_spark.sh [--corpus reuters|realistic-N|stress-N] [--mode robust|paper]
#                          [--name NAME] [--corpora DIR] [--python PY] [--partitions N]
#                          [--driver-memory M] [--peer text-dedup] [--spark-conf NAME=VALUE]...
#                          [--param NAME=VALUE]...
#
#   --corpus  reuters (Reuters-21578 as JSON lines, scripts/peers/reuters_to_jsonl.py),
#             realistic-N (scripts/make_synthetic.py N --kind realistic, seed 1: the scale
#             corpus of docs/benchmarks.md) or stress-N (--kind pool: every sentence from a
#             fixed pool, the stress corpus); default reuters
#   --python  a Python with the package and PySpark installed (pip install "./python[spark]");
#             default python3
#   --partitions, --driver-memory   passed to the job (default: its own, a 4 GB heap and
#             partitions of 4 MB of input, enough for robust mode at 100,000 realistic documents)
#   --spark-conf NAME=VALUE   a Spark setting for slst's job, passed on as --conf (repeatable;
#             e.g. spark.io.compression.codec=lz4, Spark's own codec, against the job's zstd)
#   --param NAME=VALUE   a method setting, for the job (--param) and slst batch (--NAME VALUE,
#             `-` for `_`) alike (repeatable; e.g. rare_df=10)
#   --peer text-dedup   then, in the same run, text-dedup 0.4.0's MinHash LSH job
#             (text_dedup/minhash_spark.py, its defaults: threshold 0.7, 5-grams, 250
#             permutations) on the same corpus as Parquet, local[2] and the job's driver memory;
#             installed from PyPI into bench-results/peer-venv (text-dedup --no-deps, plus the
#             packages that script imports, pinned; PySpark and py4j at --python's versions).
#             GraphFrames' JVM library comes from a Maven repository, which this does not
#             reach: its connected components are scripts/peers/graphframes_standin (slst's
#             job's). The record gets peer.md: both jobs side by side, with recall of the
#             planted pairs (scripts/planted_recall.py) on synthetic corpora.
#
# Both jobs run under scripts/reap_tree.py, so that /usr/bin/time -v counts the JVM and the
# Python workers, not the driver alone, and write a Spark event log, which
# scripts/spark_eventlog.py sums per Spark job (jobs.md, peer-jobs.md).
# Data goes to bench-results/data (ignored); the jobs' output to bench-results/spark/; the
# record (command, run.json, the comparison with slst batch) to scripts/runs/<date>-NAME/.
set -euo pipefail
cd "$(dirname "$0")/.."
CORPUS=reuters MODE=robust NAME= CORPORA=../shared/corpora PY=python3 JOB_ARGS=() PEER= SPARK_CONF=
BATCH_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --corpus) CORPUS=$2; shift 2 ;;
    --mode) MODE=$2; shift 2 ;;
    --name) NAME=$2; shift 2 ;;
    --corpora) CORPORA=$2; shift 2 ;;
    --python) PY=$2; shift 2 ;;
    --partitions|--driver-memory) JOB_ARGS+=("$1" "$2"); shift 2 ;;
    --peer) PEER=$2; shift 2 ;;
    --spark-conf) SPARK_CONF="$SPARK_CONF --conf $2"; shift 2 ;;
    --param) JOB_ARGS+=(--param "$2"); name=${2%%=*}; BATCH_ARGS+=("--${name//_/-}" "${2#*=}"); shift 2 ;;
    *) sed -n '2,36p' "$0"; exit 2 ;;
  esac
done
case "$PEER" in
  ''|text-dedup) ;;
  *) echo "bench_spark.sh: unknown peer $PEER (text-dedup)" >&2; exit 2 ;;
esac
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
echo "scripts/bench_spark.sh --corpus $CORPUS --mode $MODE --name $NAME ${JOB_ARGS[*]}${PEER:+ --peer $PEER}${SPARK_CONF//--conf/--spark-conf}" > "$RUN/command"
# The machine's load (seconds depend on it, shuffle bytes do not), before and after each job.
load() { echo "$1: $(uptime | sed 's/.*load average/load average/')" >> "$RUN/load.txt"; }
rm -f "$RUN/load.txt" && load "before slst's job"
# Spark's settings for both jobs: an event log (one file a run, uncompressed) with the
# executors' peak memory per stage, the JVM's and the Python workers' resident memory in it.
event_log_args() {
  rm -rf "$1" && mkdir -p "$1"
  echo "--conf spark.eventLog.enabled=true --conf spark.eventLog.dir=file://$PWD/$1" \
    "--conf spark.eventLog.compress=false --conf spark.eventLog.rolling.enabled=false" \
    "--conf spark.eventLog.logStageExecutorMetrics=true" \
    "--conf spark.executor.processTreeMetrics.enabled=true"
}
# A job that fails, or is stopped (its JVM sent SIGTERM, which closes the event log), still
# leaves a record: the finished Spark jobs' figures and the process tree's until then, without
# pairs; the record's notes.md, written by hand, says why it ended.
unfinished() {
  load "when slst's job ended"
  sed "s|$PY|python|g" "$OUT.timev" | tr '\r' '\n' | sed -n '/Command being timed/,$p' > "$RUN/timev.txt"
  python3 scripts/spark_eventlog.py "$OUT".events/* --documents "$(wc -l < "$INPUT")" \
    --json "$RUN/eventlog.json" > "$RUN/jobs.md" || true
  tail -20 "$OUT.timev" >&2
  echo "bench_spark.sh: slst's job did not finish; $RUN holds what it did" >&2
  exit 1
}
PYSPARK_SUBMIT_ARGS="$(event_log_args "$OUT.events")$SPARK_CONF pyspark-shell" \
  /usr/bin/time -v "$PY" scripts/reap_tree.py "$PY" -m slst.spark "$INPUT" --out "$OUT" --mode "$MODE" \
  --master 'local[2]' "${JOB_ARGS[@]}" > "$OUT.log" 2> "$OUT.timev" || unfinished
# The record names the interpreter as python, not by its path on this machine.
load "after slst's job"
sed "s|$PY|python|g" "$OUT.timev" > "$RUN/timev.txt"
cp "$OUT/run.json" "$RUN/run.json"
DOCS=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["documents"])' "$OUT/run.json")
python3 scripts/spark_eventlog.py "$OUT".events/* --documents "$DOCS" --json "$RUN/eventlog.json" > "$RUN/jobs.md"
target/release/slst batch "$INPUT" --format jsonl --mode "$MODE" "${BATCH_ARGS[@]}" -qq --out "$OUT.batch.jsonl"
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
[ -n "$PEER" ] || exit 0

# The peer: text-dedup 0.4.0's minhash_spark.py, nothing of it kept in this repository.
VENV=bench-results/peer-venv PEER_OUT=bench-results/spark/$NAME-$PEER
SPARK_VERSION=$("$PY" -c 'import pyspark; print(pyspark.__version__)')
PY4J_VERSION=$("$PY" -c 'import importlib.metadata as m; print(m.version("py4j"))')
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
# minhash_spark.py imports numpy, pyspark, xxhash, scipy and graphframes (the stand-in), and
# its package's __init__ rich (with markdown-it-py, mdurl, pygments); pyarrow converts the corpus.
"$VENV/bin/pip" install -q --no-deps text-dedup==0.4.0 "pyspark==$SPARK_VERSION" "py4j==$PY4J_VERSION" \
  numpy==2.4.6 scipy==1.17.1 xxhash==4.1.0 rich==13.9.4 markdown-it-py==3.0.0 mdurl==0.1.2 \
  pygments==2.19.2 pyarrow==26.0.1
rm -rf "$PEER_OUT"
mkdir -p "$PEER_OUT"
"$VENV/bin/python" scripts/jsonl_to_parquet.py "$INPUT" "$PEER_OUT/corpus.parquet" --row row
# The same master and driver memory as slst's job had (its event log says which).
DRIVER_MEMORY=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["settings"]["spark.driver.memory"])' "$RUN/eventlog.json")
PEER_ARGS=(--input "$PEER_OUT/corpus.parquet" --output "$PEER_OUT/output" --column text --index row
  --debug --checkpoint_dir "$PEER_OUT/checkpoints")
echo "python -m text_dedup.minhash_spark ${PEER_ARGS[*]} (threshold 0.7, ngram_size 5, min_length 5, num_perm 250: its defaults)" \
  "with PYSPARK_SUBMIT_ARGS=--master local[2] --driver-memory $DRIVER_MEMORY; text-dedup==0.4.0, pyspark==$SPARK_VERSION" \
  > "$RUN/peer-command"
PYTHONPATH=scripts/peers/graphframes_standin PYSPARK_PYTHON="$VENV/bin/python" \
  PYSPARK_SUBMIT_ARGS="--master local[2] --driver-memory $DRIVER_MEMORY $(event_log_args "$PEER_OUT.events") pyspark-shell" \
  /usr/bin/time -v "$PY" scripts/reap_tree.py "$VENV/bin/python" -m text_dedup.minhash_spark "${PEER_ARGS[@]}" \
  > "$PEER_OUT.log" 2> "$PEER_OUT.timev" || { tail -20 "$PEER_OUT.timev" >&2; exit 1; }
load "after the peer"
# Without the progress bars of its thousands of tasks, nor one warning a block at its end.
sed -e 's/\[Stage [^]]*\]//g' -e "s|$PWD/||g" -e "s|/tmp/blockmgr-[0-9a-f-]*|(spark local dir)|g" -e "s|$VENV/bin/python|python|g" -e "s|$PY|python|g" "$PEER_OUT.timev" |
  grep -av 'could not be removed as it was not found' > "$RUN/peer-timev.txt" || true
python3 scripts/spark_eventlog.py "$PEER_OUT".events/* --documents "$DOCS" --json "$RUN/peer-eventlog.json" > "$RUN/peer-jobs.md"
if [ -s "${INPUT%.jsonl}.truth.tsv" ]; then
  python3 scripts/planted_recall.py "${INPUT%.jsonl}.truth.tsv" --pairs "$OUT/pairs.jsonl/part-*" --json "$RUN/recall.json"
  "$VENV/bin/python" scripts/planted_recall.py "${INPUT%.jsonl}.truth.tsv" --clusters "$PEER_OUT/output-assignment/assignment.parquet" \
    --ids "$PEER_OUT/corpus.parquet" --index row --json "$RUN/peer-recall.json"
fi
python3 - "$RUN" "$PEER" <<'PY' | tee "$RUN/peer.md"
import json, os, re, sys
run, peer = sys.argv[1], sys.argv[2]

def load(name):
    path = os.path.join(run, name)
    return json.load(open(path)) if os.path.exists(path) else None

def timev(name):
    text = open(os.path.join(run, name)).read()
    field = lambda label: re.search(re.escape(label) + r": (.*)", text).group(1)
    h, m, s = ([0, 0] + field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":"))[-3:]
    return {"wall": int(h) * 3600 + int(m) * 60 + float(s),
            "cpu": float(field("User time (seconds)")) + float(field("System time (seconds)")),
            "rss": int(field("Maximum resident set size (kbytes)")) / 1024}

def recall(r, kind):
    if r is None:
        return "n/a (no planted pairs)"
    k = r.get(kind)
    return f"{k['recall']:.3f} ({k['recalled']}/{k['planted']})" if k else "–"

def mb(e, key):
    return f"{e[key]:,.0f}" if key in e else "–"

slst_run = load("run.json")
py_cpu = sum(s["python_cpu_seconds"] for s in slst_run["stages"].values())
rows = [("slst (python -m slst.spark, " + slst_run["mode"] + ")", timev("timev.txt"), load("eventlog.json"),
         load("recall.json"), f"{py_cpu:.1f}"),
        (f"{peer} 0.4.0 (minhash_spark.py)", timev("peer-timev.txt"), load("peer-eventlog.json"),
         load("peer-recall.json"), "not measured")]
e0 = rows[0][2]
print(f"{slst_run['documents']:,} documents, {e0['settings'].get('spark.master')}, "
      f"driver memory {e0['settings'].get('spark.driver.memory')}; {open(os.path.join(run, 'load.txt')).read().strip().replace(chr(10), '; ')}\n")
print("| job | wall s | CPU s, process tree | JVM task CPU s | Python worker CPU s (own count) "
      "| shuffle written, B a document | read, B a document | peak RSS MB, largest process "
      "| peak JVM heap+off-heap MB | peak Python workers RSS MB | recall near | recall exact |")
print("|---|" + "---|" * 11)
for name, t, e, r, pycpu in rows:
    print(f"| {name} | {t['wall']:.0f} | {t['cpu']:.0f} | {e['cpu_seconds']:.0f} | {pycpu} "
          f"| {e['shuffle_write_bytes_per_document']:,.0f} | {e['shuffle_read_bytes_per_document']:,.0f} "
          f"| {t['rss']:,.0f} | {mb(e, 'peak_jvm_memory_mb')} | {mb(e, 'peak_python_worker_rss_mb')} "
          f"| {recall(r, 'near')} | {recall(r, 'exact')} |")
readings = [(n, r["recalled_means"]) for n, _, _, r, _ in rows if r]
if readings:
    print("\nrecalled means: " + "; ".join(f"{n}: {m}" for n, m in readings))
PY
