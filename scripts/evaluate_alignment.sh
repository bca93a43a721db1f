#!/usr/bin/env bash
# Text alignment, PAN style: `slst eval` against cases located to the character, paper and
# robust mode side by side, once with passages (the default) and once with the blocks alone.
#
#   scripts/evaluate_alignment.sh [SET] [slst eval flags …]
#
# SET is a folder in PAN's layout: susp/, src/ and cases.tsv (default: PAN 2013's
# no-obfuscation half A, ../shared/corpora/pan13-text-alignment-a). For each of passages and
# blocks it writes results/alignment/NAME/{passages,blocks}.json (`--json`: figures, sweep,
# every case and every detection), .txt (the table with the sweep) and plots-{passages,blocks}/
# (NAME: the set folder's name), then recomputes every figure of the JSON with
# scripts/pan_score.py, an independent scorer, and stops if any differs. Last, it writes
# results/alignment/NAME/ceiling.txt (scripts/truth_ceiling.py): what an aligner finding exactly
# the copied text scores against this copy's truth, and the methods against the truth with its
# offsets repaired by locating each case's text.
set -euo pipefail
cd "$(dirname "$0")/.."
set_dir="${1:-../shared/corpora/pan13-text-alignment-a}"
[ $# -gt 0 ] && shift
if [ ! -f "$set_dir/cases.tsv" ]; then
  echo "no $set_dir/cases.tsv: give a folder with susp/, src/ and cases.tsv" >&2
  sed -n '2,13p' "$0" >&2
  exit 2
fi
cargo build --release --quiet
bin=target/release/slst
name="$(basename "$(cd "$set_dir" && pwd)")"
out="results/alignment/$name"
mkdir -p "$out"
for kind in passages blocks; do
  flags=()
  if [ "$kind" = blocks ]; then flags+=(--no-passages); fi
  run=("$set_dir/susp" "$set_dir/src" --truth "$set_dir/cases.tsv" --truth-format alignment
       --mode paper,robust --title "$name, $kind" "${flags[@]}" "$@")
  echo "== $name: $kind" >&2
  "$bin" eval "${run[@]}" --json --plots "$out/plots-$kind" > "$out/$kind.json"
  "$bin" eval "${run[@]}" --sweep > "$out/$kind.txt"
  python3 scripts/pan_score.py "$set_dir/cases.tsv" "$out/$kind.json" --check >&2
  sed -n '1,/^$/d; /^$/q; p' "$out/$kind.txt"
done
python3 scripts/truth_ceiling.py "$set_dir" "$out/passages.json" > "$out/ceiling.txt"
cat "$out/ceiling.txt"
