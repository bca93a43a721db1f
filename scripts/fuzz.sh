#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer through cargo-fuzz) of every reader — plain-text decoding
# and gzip, TREC SGML, other SGML, JSON lines, HTML, WARC — and of profile, compare and the
# robust matcher (fuzz/fuzz_targets/). Each target runs for SECONDS (default 60), one at a time
# on one core (or until 10 million executions), starting from its seeds (fuzz/corpus/TARGET/, read only); what the run adds to
# the corpus goes to fuzz/scratch/TARGET/ and a crashing input to fuzz/artifacts/TARGET/ (both
# ignored by git). Prints executions, executions per second, peak RSS and the outcome per
# target; exits 1 if any target crashed, hung (10 s on one input) or ran out of memory.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]
#
# Needs the nightly toolchain (rustup toolchain install nightly) and cargo-fuzz, which is
# installed on first use (cargo install cargo-fuzz). Reproduce a crash with
# `cargo +nightly fuzz run -s none TARGET fuzz/artifacts/TARGET/crash-…` (from the root),
# shrink it with `cargo +nightly fuzz tmin -s none TARGET …`.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
if [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; then
  seconds="$1"
  shift
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(decode trec_sgml sgml_reuters jsonl html warc profile compare robust)
fi
if ! cargo +nightly --version > /dev/null 2>&1; then
  echo "fuzz.sh: needs the nightly toolchain: rustup toolchain install nightly" >&2
  exit 2
fi
if ! cargo fuzz --version > /dev/null 2>&1; then
  echo "fuzz.sh: installing cargo-fuzz (cargo install cargo-fuzz)" >&2
  cargo install cargo-fuzz --locked
fi
# Release build with debug assertions and overflow checks; no sanitizer (the code under test is
# safe Rust, and AddressSanitizer would halve the executions).
cargo +nightly fuzz build -s none
# Inputs up to 64 KiB for the readers; 4 KiB (a few dozen sentences, a small page) for the
# targets whose every execution profiles and compares texts, and 2 KiB for the robust target's
# four documents (each profiled twice), so that they run fast enough.
max_len() {
  case "$1" in
    robust) echo 2048 ;;
    html | profile | compare) echo 4096 ;;
    *) echo 65536 ;;
  esac
}
mkdir -p fuzz/scratch fuzz/logs
failed=0
printf '%-14s %12s %8s %8s %9s  %s\n' target executions exec/s seconds rss_mb outcome
for t in "${targets[@]}"; do
  mkdir -p "fuzz/scratch/$t" "fuzz/artifacts/$t"
  log="fuzz/logs/$t.log"
  start=$(date +%s)
  set +e
  cargo +nightly fuzz run -s none "$t" "fuzz/scratch/$t" "fuzz/corpus/$t" -- \
    -max_total_time="$seconds" -runs=10000000 -rss_limit_mb=2048 -timeout=10 \
    -max_len="$(max_len "$t")" \
    -print_final_stats=1 > "$log" 2>&1
  status=$?
  set -e
  elapsed=$(( $(date +%s) - start ))
  stat() { grep -m1 "^stat::$1:" "$log" | awk '{print $2}'; }
  execs=$(stat number_of_executed_units)
  speed=$(stat average_exec_per_sec)
  rss=$(stat peak_rss_mb)
  if [ "$status" -eq 0 ]; then
    outcome=ok
  else
    failed=1
    outcome="FAILED ($(grep -m1 -oE 'libFuzzer: (timeout|out-of-memory[^)]*\)|deadly signal)|panicked at [^:]*:[0-9]+' "$log" || echo "exit $status")); see $log"
  fi
  printf '%-14s %12s %8s %8s %9s  %s\n' "$t" "${execs:-?}" "${speed:-?}" "$elapsed" "${rss:-?}" "$outcome"
done
exit "$failed"
