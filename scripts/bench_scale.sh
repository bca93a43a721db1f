#!/usr/bin/env bash
# slst batch at scale (issue 4): wall time and peak memory on 10k, 100k and 1M synthetic
# documents, and the ratio to the floor, a bare pass that only reads the same corpus and splits it
# into sentences and words (examples/floor.rs).
#
#   scripts/bench_scale.sh [--sizes "10000 100000 1000000"] [--repeat N] [--corpora DIR]
#                          [--name NAME] [--massif N] [--mode robust|paper] [--max-df N]
#
#   --sizes     corpus sizes (default "10000 100000 1000000")
#   --repeat N  runs of slst and floor per size up to 100,000 documents, interleaved (default 3);
#               larger sizes run once
#   --massif N  also profile slst batch's heap on the N-document corpus with valgrind's massif
#               (slow: about 30x; the ms_print graph and the peak heap by slst function are kept)
#   --name      the run folder is scripts/runs/<date>-NAME (default: scale)
#   --mode      SL+ST's mode (default: the command's default, robust)
#   --max-df N  slst batch --max-df N (default: the command's default, 1000)
#
# Corpora: scripts/make_synthetic.py N, seed 1, into bench-results/data (ignored; 1M documents is
# about 2.4 GB and takes a minute or two to generate). The target from the issue: 1M documents in
# under 2 minutes on 2 cores within 4 GB, within 1.5x of the floor.
#
# Records (small, committed): scripts/runs/<date>-NAME/{command,machine,versions,results.md,
# timev/ (/usr/bin/time -v), out/ (slst summaries, floor counts), rss/ (RSS timelines of the slst
# runs, memtrace.py), massif/ (ms_print graph, peak heap by function: massif_summary.py)}.
# Pairs go to bench-results/runs/<date>-NAME/.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=.  # paths stay relative to the repository root, also in the records

SIZES="10000 100000 1000000" REPEAT=3 CORPORA=../shared/corpora NAME=scale MASSIF= MODE=robust MAX_DF=
while [ $# -gt 0 ]; do
  case "$1" in
    --sizes) SIZES=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    --corpora) CORPORA=$2; shift 2 ;;
    --name) NAME=$2; shift 2 ;;
    --massif) MASSIF=$2; shift 2 ;;
    --mode) MODE=$2; shift 2 ;;
    --max-df) MAX_DF=$2; shift 2 ;;
    *) sed -n '2,16p' "$0"; exit 2 ;;
  esac
done
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
  if [ ! -s "$DATA/syn-$n.jsonl" ]; then
    say "generating syn-$n.jsonl (seed 1)"
    python3 scripts/make_synthetic.py "$n" "$DATA/syn-$n.jsonl" "$DATA/syn-$n.truth.tsv" --seed 1 --corpora "$CORPORA" || exit 1
  fi
done

DAY=$(date -u +%Y-%m-%d)
REC=scripts/runs/$DAY-$NAME
k=2; while [ -e "$REC" ]; do REC=scripts/runs/$DAY-$NAME-$k; k=$((k + 1)); done
BIG=bench-results/runs/$(basename "$REC")
mkdir -p "$REC/timev" "$REC/out" "$REC/rss" "$BIG"
echo "scripts/bench_scale.sh --sizes \"$SIZES\" --repeat $REPEAT --corpora $CORPORA --name $NAME --mode $MODE${MAX_DF:+ --max-df $MAX_DF}${MASSIF:+ --massif $MASSIF}" > "$REC/command"
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
    echo "syn-$n.jsonl $(head -c 67108864 "$DATA/syn-$n.jsonl" | sha256sum | cut -c1-16) $(stat -c %s "$DATA/syn-$n.jsonl") bytes"
  done
} > "$REC/versions"

run_slst() { # SIZE REP
  local n=$1 rep=$2
  python3 scripts/memtrace.py "$REC/rss/syn-${n}__slst__$rep.tsv" --interval 0.25 -- \
    /usr/bin/time -v -o "$REC/timev/syn-${n}__slst__$rep.txt" \
    "$SLST" batch "$DATA/syn-$n.jsonl" --format jsonl --mode "$MODE" ${MAX_DF:+--max-df "$MAX_DF"} --out "$BIG/syn-${n}__slst.tsv" --out-format tsv \
    --summary "$REC/out/syn-${n}__slst__$rep.summary.json" -q 2> "$BIG/syn-${n}__slst__$rep.stderr" \
    || { echo "RUN FAILED: slst batch on syn-$n (see $BIG/syn-${n}__slst__$rep.stderr)" >&2; tail -3 "$BIG/syn-${n}__slst__$rep.stderr" >&2; }
  printf '  syn-%-8s slst  run %s: %s\n' "$n" "$rep" "$(grep -E 'Elapsed|Maximum resident' "$REC/timev/syn-${n}__slst__$rep.txt" | sed 's/.*: //' | paste -sd' ')" >&2
}
run_floor() { # SIZE REP
  local n=$1 rep=$2
  /usr/bin/time -v -o "$REC/timev/syn-${n}__floor__$rep.txt" "$FLOOR" "$DATA/syn-$n.jsonl" \
    > "$REC/out/syn-${n}__floor__$rep.json" 2> "$BIG/syn-${n}__floor__$rep.stderr" \
    || echo "RUN FAILED: floor on syn-$n" >&2
  printf '  syn-%-8s floor run %s: %s\n' "$n" "$rep" "$(grep -E 'Elapsed|Maximum resident' "$REC/timev/syn-${n}__floor__$rep.txt" | sed 's/.*: //' | paste -sd' ')" >&2
}

for n in $SIZES; do
  reps=$REPEAT; [ "$n" -gt 100000 ] && reps=1
  say "syn-$n: slst batch and floor x $reps (interleaved)"
  for rep in $(seq 1 "$reps"); do
    if [ $((rep % 2)) -eq 1 ]; then run_slst "$n" "$rep"; run_floor "$n" "$rep"; else run_floor "$n" "$rep"; run_slst "$n" "$rep"; fi
  done
done

if [ -n "$MASSIF" ]; then
  say "massif: heap profile of slst batch on syn-$MASSIF (slow)"
  mkdir -p "$REC/massif"
  [ -s "$DATA/syn-$MASSIF.jsonl" ] || python3 scripts/make_synthetic.py "$MASSIF" "$DATA/syn-$MASSIF.jsonl" "$DATA/syn-$MASSIF.truth.tsv" --seed 1 --corpora "$CORPORA"
  valgrind --tool=massif --massif-out-file="$BIG/massif.syn-$MASSIF.out" --threshold=0.5 --depth=12 \
    "$SLST" batch "$DATA/syn-$MASSIF.jsonl" --format jsonl --mode "$MODE" --out "$BIG/massif-pairs.tsv" --out-format tsv -q \
    2> "$BIG/massif.stderr" || echo "massif run failed (see $BIG/massif.stderr)" >&2
  ms_print "$BIG/massif.syn-$MASSIF.out" > "$BIG/massif.syn-$MASSIF.txt" 2>&1
  python3 scripts/massif_summary.py "$BIG/massif.syn-$MASSIF.out" > "$REC/massif/peak-by-function.syn-$MASSIF.md"
  sed -n '1,/^Number of snapshots/p' "$BIG/massif.syn-$MASSIF.txt" > "$REC/massif/ms_print-graph.syn-$MASSIF.txt"
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
    if [ -s "$BIG/syn-${n}__slst.tsv" ] && [ -s "$DATA/syn-$n.truth.tsv" ]; then
      echo
      echo "Planted near-duplicates of syn-$n (\`scripts/make_synthetic.py\`'s truth; pairs of the last run):"
      echo
      python3 scripts/peers/compare_pairs.py --truth "$DATA/syn-$n.truth.tsv" "slst=$BIG/syn-${n}__slst.tsv"
    fi
  done
} > "$REC/results.md"
cat "$REC/results.md"
echo >&2
echo "records in $REC (commit them); pairs and raw massif output in $BIG" >&2
