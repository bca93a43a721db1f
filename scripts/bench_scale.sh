#!/usr/bin/env bash
# slst batch at scale (issue 4): wall time and peak memory on 10k, 100k and 1M synthetic
# documents, and the ratio to the floor, a bare pass that only reads the same corpus and splits it
# into sentences and words (examples/floor.rs).
#
#   scripts/bench_scale.sh [--sizes "10000 100000 1000000"] [--repeat N] [--corpora DIR]
#                          [--corpus realistic|stress] [--name NAME] [--massif N]
#                          [--mode robust|paper] [--max-df N]
#
#   --sizes     corpus sizes (default "10000 100000 1000000")
#   --repeat N  runs of slst and floor per size up to 100,000 documents, interleaved (default 3);
#               larger sizes run once
#   --massif N  also profile slst batch's heap on the N-document corpus with valgrind's massif
#               (slow: about 30x; the ms_print graph and the peak heap by slst function are kept)
#   --name      the run folder is scripts/runs/<date>-NAME (default: scale)
#   --mode      SL+ST's mode (default: the command's default, robust)
#   --max-df N  slst batch --max-df N (default: the command's default, 1000)
#   --corpus    realistic (default): make_synthetic.py --kind realistic, new sentences with a
#               shared component whose document frequencies do not grow with N, files
#               realistic-N.*; stress: --kind pool, every sentence drawn from a fixed pool of
#               real sentences, so sentences recur more as N grows, files stress-N.*
#
# Corpora: scripts/make_synthetic.py N --kind KIND, seed 1, into bench-results/data (ignored; 1M
# documents is about 2.4 GB; the stress corpus takes a minute or two to generate, the realistic
# one about 40 minutes at a million, as every sentence is a walk of a word model).
#
# Records (small, committed): scripts/runs/<date>-NAME/{command,machine,versions,results.md,
# timev/ (/usr/bin/time -v), out/ (slst summaries, floor counts), rss/ (RSS timelines of the slst
# runs, memtrace.py), massif/ (ms_print graph, peak heap by function: massif_summary.py)}.
# Pairs go to bench-results/runs/<date>-NAME/.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=.  # paths stay relative to the repository root, also in the records

SIZES="10000 100000 1000000" REPEAT=3 CORPORA=../shared/corpora NAME=scale MASSIF= MODE=robust MAX_DF= CORPUS=realistic
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) SIZES=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    --corpora) CORPORA=$2; shift 2 ;;
    --name) NAME=$2; shift 2 ;;
    --massif) MASSIF=$2; shift 2 ;;
    --mode) MODE=$2; shift 2 ;;
    --max-df) MAX_DF=$2; shift 2 ;;
    --corpus) CORPUS=$2; shift 2 ;;
    *) sed -n '2,21p' "$0"; exit 2 ;;
  esac
done
case "$CORPUS" in
  realistic) KIND=realistic ;;
  stress) KIND=pool ;;
  *) echo "--corpus must be realistic or stress" >&2; exit 2 ;;
esac
say() { printf '\n== %s\n' "$*" >&2; }

if [ ! -x /usr/bin/time ]; then
  say "/usr/bin/time is missing: installing Debian's 'time' package with apt-get"
  (apt-get update -qq && apt-get install -y -qq time) >&2 || { echo "cannot install GNU time; stopping" >&2; exit 1; }
fi
if [ -n "$MASSIF" ] && ! command -v valgrind > /dev/null; then
  say "valgrind is missing: installing Debian's 'valgrind' package with apt-get"
  (apt-get update -qq && apt-get install -y -qq valgrind) >&2 || { echo "no valgrind: skipping massif" >&2; MASSIF=; }
fi

say "building slst and examples/floor (release)"
cargo build --release -q --bin slst --example floor || { echo "cargo build failed" >&2; exit 1; }
SLST=$ROOT/target/release/slst
FLOOR=$ROOT/target/release/examples/floor

DATA=$ROOT/bench-results/data
mkdir -p "$DATA"
for n in $SIZES; do
  if [ ! -s "$DATA/$CORPUS-$n.jsonl" ]; then
    say "generating $CORPUS-$n.jsonl (make_synthetic.py --kind $KIND, seed 1)"
    python3 scripts/make_synthetic.py "$n" "$DATA/$CORPUS-$n.jsonl" "$DATA/$CORPUS-$n.truth.tsv" --seed 1 --kind "$KIND" --corpora "$CORPORA" || exit 1
  fi
done

DAY=$(date -u +%Y-%m-%d)
REC=scripts/runs/$DAY-$NAME
k=2; while [ -e "$REC" ]; do REC=scripts/runs/$DAY-$NAME-$k; k=$((k + 1)); done
BIG=bench-results/runs/$(basename "$REC")
mkdir -p "$REC/timev" "$REC/out" "$REC/rss" "$BIG"
echo "scripts/bench_scale.sh --sizes \"$SIZES\" --repeat $REPEAT --corpora $CORPORA --corpus $CORPUS --name $NAME --mode $MODE${MAX_DF:+ --max-df $MAX_DF}${MASSIF:+ --massif $MASSIF}" > "$REC/command"
{
  echo "date: $(date -u +%FT%TZ)"; uname -srm; echo "nproc: $(nproc)"
  grep -m1 'model name' /proc/cpuinfo; free -m | sed -n 1,2p
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$REC/machine"
{
  echo "slst: $("$SLST" --version) (git $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src Cargo.toml Cargo.lock examples || echo ', src or examples modified'))"
  rustc --version; cargo --version; python3 --version; /usr/bin/time --version 2>&1 | head -1
  command -v valgrind > /dev/null && valgrind --version
  echo "input sha256 (first 64 MiB) and size:"
  for n in $SIZES; do
    echo "$CORPUS-$n.jsonl $(head -c 67108864 "$DATA/$CORPUS-$n.jsonl" | sha256sum | cut -c1-16) $(stat -c %s "$DATA/$CORPUS-$n.jsonl") bytes"
  done
} > "$REC/versions"

run_slst() { # SIZE REP
  local n=$1 rep=$2
  python3 scripts/memtrace.py "$REC/rss/$CORPUS-${n}__slst__$rep.tsv" --interval 0.25 -- \
    /usr/bin/time -v -o "$REC/timev/$CORPUS-${n}__slst__$rep.txt" \
    "$SLST" batch "$DATA/$CORPUS-$n.jsonl" --format jsonl --mode "$MODE" ${MAX_DF:+--max-df "$MAX_DF"} --out "$BIG/$CORPUS-${n}__slst.tsv" --out-format tsv \
    --summary "$REC/out/$CORPUS-${n}__slst__$rep.summary.json" -q 2> "$BIG/$CORPUS-${n}__slst__$rep.stderr" \
    || { echo "RUN FAILED: slst batch on $CORPUS-$n (see $BIG/$CORPUS-${n}__slst__$rep.stderr)" >&2; tail -3 "$BIG/$CORPUS-${n}__slst__$rep.stderr" >&2; }
  printf '  %s-%-8s slst  run %s: %s\n' "$CORPUS" "$n" "$rep" "$(grep -E 'Elapsed|Maximum resident' "$REC/timev/$CORPUS-${n}__slst__$rep.txt" | sed 's/.*: //' | paste -sd' ')" >&2
}
run_floor() { # SIZE REP
  local n=$1 rep=$2
  /usr/bin/time -v -o "$REC/timev/$CORPUS-${n}__floor__$rep.txt" "$FLOOR" "$DATA/$CORPUS-$n.jsonl" \
    > "$REC/out/$CORPUS-${n}__floor__$rep.json" 2> "$BIG/$CORPUS-${n}__floor__$rep.stderr" \
    || echo "RUN FAILED: floor on $CORPUS-$n" >&2
  printf '  %s-%-8s floor run %s: %s\n' "$CORPUS" "$n" "$rep" "$(grep -E 'Elapsed|Maximum resident' "$REC/timev/$CORPUS-${n}__floor__$rep.txt" | sed 's/.*: //' | paste -sd' ')" >&2
}

for n in $SIZES; do
  reps=$REPEAT; [ "$n" -gt 100000 ] && reps=1
  say "$CORPUS-$n: slst batch and floor x $reps (interleaved)"
  for rep in $(seq 1 "$reps"); do
    if [ $((rep % 2)) -eq 1 ]; then run_slst "$n" "$rep"; run_floor "$n" "$rep"; else run_floor "$n" "$rep"; run_slst "$n" "$rep"; fi
  done
done

if [ -n "$MASSIF" ]; then
  say "massif: heap profile of slst batch on $CORPUS-$MASSIF (slow)"
  mkdir -p "$REC/massif"
  [ -s "$DATA/$CORPUS-$MASSIF.jsonl" ] || python3 scripts/make_synthetic.py "$MASSIF" "$DATA/$CORPUS-$MASSIF.jsonl" "$DATA/$CORPUS-$MASSIF.truth.tsv" --seed 1 --kind "$KIND" --corpora "$CORPORA"
  valgrind --tool=massif --massif-out-file="$BIG/massif.$CORPUS-$MASSIF.out" --threshold=0.5 --depth=12 \
    "$SLST" batch "$DATA/$CORPUS-$MASSIF.jsonl" --format jsonl --mode "$MODE" --out "$BIG/massif-pairs.tsv" --out-format tsv -q \
    2> "$BIG/massif.stderr" || echo "massif run failed (see $BIG/massif.stderr)" >&2
  ms_print "$BIG/massif.$CORPUS-$MASSIF.out" > "$BIG/massif.$CORPUS-$MASSIF.txt" 2>&1
  python3 scripts/massif_summary.py "$BIG/massif.$CORPUS-$MASSIF.out" > "$REC/massif/peak-by-function.$CORPUS-$MASSIF.md"
  sed -n '1,/^Number of snapshots/p' "$BIG/massif.$CORPUS-$MASSIF.txt" > "$REC/massif/ms_print-graph.$CORPUS-$MASSIF.txt"
fi

{
  echo "# $(basename "$REC"): slst batch at scale, and the floor"
  echo
  echo "Command: \`$(cat "$REC/command")\`. Machine and versions: see \`machine\`, \`versions\`."
  echo "Medians over the runs; wall, CPU and peak RSS from \`/usr/bin/time -v\` of the whole process;"
  echo "floor = examples/floor.rs (read the same JSONL, split sentences and words, nothing else)."
  echo "Load average at start: $(sed -n 's/load average at start: //p' "$REC/machine"); at end: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  python3 scripts/scale_report.py "$REC"
  for n in $SIZES; do
    if [ -s "$BIG/$CORPUS-${n}__slst.tsv" ] && [ -s "$DATA/$CORPUS-$n.truth.tsv" ]; then
      echo
      echo "Planted near-duplicates of $CORPUS-$n (\`scripts/make_synthetic.py\`'s truth; pairs of the last run):"
      echo
      python3 scripts/peers/compare_pairs.py --truth "$DATA/$CORPUS-$n.truth.tsv" "slst=$BIG/$CORPUS-${n}__slst.tsv"
    fi
  done
} > "$REC/results.md"
cat "$REC/results.md"
echo >&2
echo "records in $REC (commit them); pairs and raw massif output in $BIG" >&2
