#!/usr/bin/env bash
# slst batch on Reuters-21578, paper mode against the robust mode, in one run, interleaved:
# wall time, CPU time (user + sys) and peak RSS of each, and the ratio robust / paper.
#
#   scripts/bench_robust.sh [--repeat N] [--corpora DIR] [--name NAME]
#
# Reads bench-results/data/reuters21578.jsonl (made by scripts/bench_peers.sh from the shared
# Reuters-21578 SGML); writes the record to scripts/runs/<date>-NAME/ (NAME: robust-speed unless given).
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=5
corpora=../shared/corpora
name=robust-speed
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) repeat="$2"; shift 2 ;;
    --corpora) corpora="$2"; shift 2 ;;
    --name) name="$2"; shift 2 ;;
    *) echo "bench_robust.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
data=bench-results/data/reuters21578.jsonl
if [ ! -f "$data" ]; then
  mkdir -p bench-results/data
  python3 scripts/peers/reuters_to_jsonl.py "$data" "$corpora"/reuters21578/reut2-*.sgm
fi
cargo build --release --quiet
bin=target/release/slst
run_dir="scripts/runs/$(date -u +%F)-$name"
work=bench-results/robust-speed
mkdir -p "$run_dir" "$work"
{ uname -srm; nproc; uptime; } > "$run_dir/machine"
{ "$bin" --version; rustc --version; git rev-parse --short HEAD; } > "$run_dir/versions"
echo "$bin batch $data --format jsonl --mode MODE --out $work/MODE.jsonl --summary $work/MODE-summary.json -q" > "$run_dir/command"
: > "$work/times.tsv"
for i in $(seq 1 "$repeat"); do
  for mode in paper robust; do
    /usr/bin/time -v "$bin" batch "$data" --format jsonl --mode "$mode" \
      --out "$work/$mode.jsonl" --summary "$work/$mode-summary.json" -q 2> "$work/$mode-time.txt"
    wall=$(grep "Elapsed (wall" "$work/$mode-time.txt" | awk '{print $NF}' | awk -F: '{print $(NF-1)*60+$NF}')
    user=$(grep "User time" "$work/$mode-time.txt" | awk '{print $NF}')
    sys=$(grep "System time" "$work/$mode-time.txt" | awk '{print $NF}')
    rss=$(grep "Maximum resident" "$work/$mode-time.txt" | awk '{print $NF}')
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$i" "$mode" "$wall" "$user" "$sys" "$rss" >> "$work/times.tsv"
  done
done
python3 - "$work" "$run_dir" <<'PY'
import json, statistics, sys
work, run_dir = sys.argv[1], sys.argv[2]
rows = [l.split("\t") for l in open(f"{work}/times.tsv").read().splitlines()]
med = {}
for mode in ("paper", "robust"):
    r = [x for x in rows if x[1] == mode]
    med[mode] = {
        "wall": statistics.median(float(x[2]) for x in r),
        "cpu": statistics.median(float(x[3]) + float(x[4]) for x in r),
        "rss_mb": statistics.median(int(x[5]) for x in r) / 1024,
    }
    s = json.load(open(f"{work}/{mode}-summary.json"))
    med[mode]["pairs"] = s["pairs_reported"]
    med[mode]["candidate_pairs"] = s.get("candidate_pairs")
out = ["| mode | wall s (median) | CPU s (user+sys, median) | peak RSS MB | pairs at J ≥ 0.5 | candidate pairs |",
       "|---|---|---|---|---|---|"]
for mode, m in med.items():
    out.append(f"| {mode} | {m['wall']:.2f} | {m['cpu']:.2f} | {m['rss_mb']:.0f} | {m['pairs']:,} | {m['candidate_pairs']} |")
out.append("")
out.append(f"robust / paper: wall {med['robust']['wall'] / med['paper']['wall']:.2f}×, "
           f"CPU {med['robust']['cpu'] / med['paper']['cpu']:.2f}× ({len(rows) // 2} interleaved runs each)")
open(f"{run_dir}/results.md", "w").write("\n".join(out) + "\n")
open(f"{run_dir}/times.tsv", "w").write(open(f"{work}/times.tsv").read())
print("\n".join(out))
PY
uptime >> "$run_dir/machine"
