#!/usr/bin/env bash
# Run the criterion benchmarks (SL+ST's stages; every method on the same pairs) and keep the
# numbers with what produced them:
#   scripts/bench.sh            -> bench-results/<date>/{command,machine,versions,criterion.txt}
# Figures in the README and in issue notes come from such a folder. The machines are shared and
# noisy: compare ratios measured in the same run, not absolute times across runs.
set -euo pipefail
cd "$(dirname "$0")/.."
out="bench-results/$(date -u +%Y-%m-%dT%H%M%SZ)"
mkdir -p "$out"
echo "cargo bench --bench slst -- $*; cargo bench --bench methods -- $*" > "$out/command"
{ uname -a; nproc; grep -m1 'model name' /proc/cpuinfo || true; free -h | head -2; } > "$out/machine"
{ rustc --version; cargo --version; git rev-parse HEAD 2>/dev/null || true; } > "$out/versions"
{ cargo bench --bench slst -- "$@"; cargo bench --bench methods -- "$@"; } 2>&1 | tee "$out/criterion.txt"
echo "results in $out"
