#!/usr/bin/env bash
# slst dedup against slst batch on the same input, in one run, interleaved: wall time, CPU time
# (user + sys) and peak RSS of each (the least of the runs), and the ratios dedup / batch.
#
#   scripts/bench_dedup.sh [--repeat N] [--mode MODE] [--name NAME] [--bin SLST] INPUT...
#
# Each INPUT is a corpus file or a quoted glob ("../shared/corpora/reuters21578/reut2-*.sgm");
# writes the record to scripts/runs/<date>-NAME/ (NAME: dedup-speed unless given). Builds the
# release binary unless --bin names one.
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=3
mode=robust
name=dedup-speed
bin=
inputs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat="$2"; shift 2 ;;
    --mode) mode="$2"; shift 2 ;;
    --name) name="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    -*) echo "bench_dedup.sh: unknown argument $1" >&2; exit 2 ;;
    *) inputs+=("$1"); shift ;;
  esac
done
[ ${#inputs[@]} -gt 0 ] || { echo "bench_dedup.sh: give at least one INPUT" >&2; exit 2; }
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin=target/release/slst
fi
run_dir="scripts/runs/$(date -u +%F)-$name"
work=bench-results/dedup-speed
mkdir -p "$run_dir" "$work"
{ uname -srm; nproc; uptime; } > "$run_dir/machine"
{ "$bin" --version; rustc --version; git rev-parse --short HEAD; } > "$run_dir/versions"
{
  echo "$bin batch INPUT --mode $mode --out $work/pairs.jsonl -q"
  echo "$bin dedup INPUT --mode $mode --out $work/kept.EXT --dropped $work/dropped.tsv -q"
} > "$run_dir/command"

# One timed run: wall, CPU and peak RSS (MB) of the command, tab-separated.
timed() {
  /usr/bin/time -v "$@" 2> "$work/time.txt" > /dev/null
  local wall cpu rss
  wall=$(grep "Elapsed (wall" "$work/time.txt" | awk '{print $NF}' | awk -F: '{print $(NF-1)*60+$NF}')
  cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$work/time.txt")
  rss=$(awk -F': ' '/Maximum resident/ {print int($2 / 1024)}' "$work/time.txt")
  printf '%s\t%s\t%s\n' "$wall" "$cpu" "$rss"
}

# The least of each column over the runs in a file of `timed` lines.
least() {
  sort -n -k1,1 "$1" | head -1 | cut -f1 | tr '\n' '\t'
  sort -n -k2,2 "$1" | head -1 | cut -f2 | tr '\n' '\t'
  sort -n -k3,3 "$1" | head -1 | cut -f3
}

{
  echo "# $name: slst dedup against slst batch, $mode mode"
  echo
  echo "Least of $repeat runs each, interleaved; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| input | batch wall s | batch CPU s | batch RSS MB | dedup wall s | dedup CPU s | dedup RSS MB | dedup / batch CPU | dedup / batch wall |"
  echo "|---|---|---|---|---|---|---|---|---|"
} > "$run_dir/results.md"
for input in "${inputs[@]}"; do
  # shellcheck disable=SC2206 # a quoted glob is expanded here, on purpose
  files=($input)
  ext="${files[0]##*.}"
  [ "$ext" = gz ] && ext="jsonl.gz"
  : > "$work/batch.tsv"
  : > "$work/dedup.tsv"
  for _ in $(seq 1 "$repeat"); do
    timed "$bin" batch "${files[@]}" --mode "$mode" --out "$work/pairs.jsonl" -q >> "$work/batch.tsv"
    rm -rf "$work/kept.$ext" "$work/dropped.tsv"
    timed "$bin" dedup "${files[@]}" --mode "$mode" --out "$work/kept.$ext" \
      --dropped "$work/dropped.tsv" -q >> "$work/dedup.tsv"
  done
  read -r bw bc br < <(least "$work/batch.tsv")
  read -r dw dc dr < <(least "$work/dedup.tsv")
  awk -v i="$(basename "${files[0]}")" -v n="${#files[@]}" -v bw="$bw" -v bc="$bc" -v br="$br" \
    -v dw="$dw" -v dc="$dc" -v dr="$dr" 'BEGIN {
      name = (n > 1) ? i " (+" n - 1 " files)" : i
      printf "| %s | %.2f | %.2f | %d | %.2f | %.2f | %d | %.2f× | %.2f× |\n",
        name, bw, bc, br, dw, dc, dr, dc / bc, dw / bw
    }' >> "$run_dir/results.md"
  rm -rf "$work/kept.$ext"
done
cat "$run_dir/results.md"
