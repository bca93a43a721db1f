#!/usr/bin/env bash
# The default mode with and without --rare-df on one corpus, one run after the other on the
# same machine: wall time, CPU, peak memory, the candidates stage, the pairs and the planted
# pairs recalled (docs/benchmarks.md, "Rare keys").
#
#   scripts/bench_rare_keys.sh CORPUS.jsonl TRUTH.tsv|- [RARE_DF...]
#
# CORPUS and TRUTH as scripts/make_synthetic.py writes them (bench-results/data/realistic-N.*),
# or `-` for a corpus without planted pairs (Reuters-21578 as JSON lines:
# scripts/peers/reuters_to_jsonl.py). RARE_DF defaults to 10; each value given runs in turn,
# then --rare-df 0. A value T/B runs --rare-df T --rare-budget B (T alone: the default budget). Prints each run's summary lines, GNU time's figures and the recall; then,
# for each value, the pairs of --rare-df 0 it does not report, by resemblance and by what
# decided them, with the first few listed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n '2,13p' "$0"; exit 2; }
corpus=$1 truth=$2
shift 2
[ $# -gt 0 ] || set -- 10
cargo build --release -q
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
flags() { # T or T/B
  echo "--rare-df ${1%%/*}"
  [ "${1#*/}" = "$1" ] || echo "--rare-budget ${1#*/}"
}
for r in "$@" 0; do
  f=${r//\//_}
  # shellcheck disable=SC2046 # the flags are words
  /usr/bin/time -f "wall %e s, CPU %U + %S s, peak RSS %M KB" -o "$out/time-$f" \
    target/release/slst batch "$corpus" --format jsonl --out "$out/pairs-$f.jsonl" \
    --out-format jsonl $(flags "$r") > "$out/summary-$f" 2>&1
  echo "== $(flags "$r" | tr '\n' ' ')"
  grep -E "^(candidate pairs|pairs reported|time):" "$out/summary-$f"
  cat "$out/time-$f"
  [ "$truth" = - ] || python3 scripts/planted_recall.py "$truth" --pairs "$out/pairs-$f.jsonl"
done
for r in "$@"; do
  echo "== pairs of --rare-df 0 that $(flags "$r" | tr '\n' ' ')does not report"
  python3 - "$out/pairs-0.jsonl" "$out/pairs-${r//\//_}.jsonl" <<'EOF'
import collections, json, sys

def pairs(path):
    with open(path) as f:
        return {(p["a"], p["b"]): p for p in map(json.loads, f)}

every, rare = pairs(sys.argv[1]), pairs(sys.argv[2])
lost = [every[k] for k in sorted(every) if k not in rare]
print(f"{len(lost)} of {len(every)} ({len(lost) / max(len(every), 1):.1%});"
      f" {sum(k not in every for k in rare)} reported only with it")
bands = collections.Counter(
    "J = 1" if p["resemblance"] >= 1 else "0.5 <= J < 1" if p["resemblance"] >= 0.5
    else "J < 0.5" for p in lost)
print("by resemblance:", ", ".join(f"{b} {n}" for b, n in sorted(bands.items())))
decided = collections.Counter(p.get("decided_by", "") for p in lost)
print("decided by:", ", ".join(f"{d} {n}" for d, n in sorted(decided.items())))
for p in lost[:10]:
    print(f"  {p['a']} {p['b']} J {p['resemblance']:.3f}"
          f" matched sentences {p.get('matched_sentences', '')} ({p.get('decided_by', '')})")
EOF
done
