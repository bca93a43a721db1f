#!/usr/bin/env bash
# Two builds of slst on one command, interleaved (A B A B ...): wall, CPU (user + sys) and peak
# RSS of each run, the medians, and the ratio A / B taken round by round, so that a machine whose
# speed drifts during the call still gives a meaningful ratio. For a change that should keep
# every output: the outputs of the two builds are compared at the end.
#
#   scripts/bench_pair.sh --base BIN [--repeat N] [--name NAME] -- SLST_ARGS...
#
#   --base BIN  the baseline build (B), for example a copy of target/release/slst made before
#               the change; A is this tree's target/release/slst (built here)
#   --repeat N  rounds (default 3)
#   --name      the record goes to scripts/runs/<date>-NAME/ (default: pair)
#   SLST_ARGS   slst's arguments; the word OUT stands for the output file, one per build
#
# Example (a million realistic documents, scripts/bench_scale.sh's corpus):
#   scripts/bench_pair.sh --base /path/to/slst-before --repeat 3 --name walk-tally -- \
#     batch bench-results/data/realistic-1000000.jsonl --format jsonl --out OUT --out-format tsv -q
set -euo pipefail
cd "$(dirname "$0")/.."
BASE="" REPEAT=3 NAME=pair
while [ $# -gt 0 ]; do
  case "$1" in
    --base) BASE=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    --name) NAME=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
[ -n "$BASE" ] && [ -x "$BASE" ] || { echo "--base BIN: an executable slst build is needed" >&2; exit 2; }
[ $# -gt 0 ] || { echo "slst's arguments go after --" >&2; exit 2; }
cargo build --release -q --bin slst || { echo "cargo build failed" >&2; exit 1; }
# Paths relative to the repository, so that the records name no machine's folders.
A=target/release/slst
REC=scripts/runs/$(date -u +%Y-%m-%d)-$NAME
OUTDIR=bench-results/runs/$(basename "$REC")
mkdir -p "$REC/timev" "$OUTDIR"
ln -sfn "$(cd "$(dirname "$BASE")" && pwd)/$(basename "$BASE")" "$OUTDIR/slst-base"
B=$OUTDIR/slst-base
{
  echo "scripts/bench_pair.sh --base $(basename "$BASE") --repeat $REPEAT --name $NAME -- $*"
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "A: $("$A" --version), this tree at git $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src || echo ' with its sources changed'); B: $("$B" --version), $(basename "$BASE")"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$REC/command"

run() { # BUILD LABEL ROUND
  local bin=$1 label=$2 round=$3 args=()
  for x in "${@:4}"; do
    [ "$x" = OUT ] && x=$OUTDIR/out-$label || true
    args+=("$x")
  done
  /usr/bin/time -v -o "$REC/timev/$label-$round.txt" "$bin" "${args[@]}" > /dev/null
}
for round in $(seq 1 "$REPEAT"); do
  run "$A" A "$round" "$@"
  run "$B" B "$round" "$@"
  echo "round $round done" >&2
done
python3 - "$REC" "$REPEAT" <<'EOF'
import re, statistics, sys
rec, repeat = sys.argv[1], int(sys.argv[2])
def read(label, r):
    t = open(f"{rec}/timev/{label}-{r}.txt").read()
    g = lambda k: re.search(rf"{k}: (.*)", t).group(1)
    h, m, s = ([0, 0] + g(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\)").split(":"))[-3:]
    wall = int(h) * 3600 + int(m) * 60 + float(s)
    cpu = float(g("User time \\(seconds\\)")) + float(g("System time \\(seconds\\)"))
    return wall, cpu, int(g("Maximum resident set size \\(kbytes\\)")) / 1024
runs = {l: [read(l, r) for r in range(1, repeat + 1)] for l in "AB"}
med = lambda xs: statistics.median(xs)
lines = ["| figure | A (median) | B (median) | A / B per round (min, median, max) |", "|---|---|---|---|"]
for i, name in enumerate(["wall s", "CPU s", "peak RSS MB"]):
    ratios = [a[i] / b[i] for a, b in zip(runs["A"], runs["B"])]
    lines.append(f"| {name} | {med([x[i] for x in runs['A']]):.2f} | {med([x[i] for x in runs['B']]):.2f} | "
                 f"{min(ratios):.3f}, {med(ratios):.3f}, {max(ratios):.3f} |")
open(f"{rec}/results.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
if [ ! -e "$OUTDIR/out-A" ]; then
  echo "outputs: not compared (no OUT among the arguments)" | tee -a "$REC/results.md"
elif cmp -s "$OUTDIR/out-A" "$OUTDIR/out-B"; then
  echo "outputs: the same" | tee -a "$REC/results.md"
else
  echo "outputs: DIFFER ($OUTDIR/out-A, $OUTDIR/out-B)" | tee -a "$REC/results.md"
fi
