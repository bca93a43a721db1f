#!/usr/bin/env bash
# Search mode (issue 8): add Reuters-21578 to a fresh index and time it, then 1,000 queries
# (documents of the corpus, every 21st by insertion order) answered by one `slst query` process,
# with p50/p99 latency per query (index lookup and verification, from `--timings`), and the wall
# time of single-query processes (open + query) for 20 of them.
#
#   scripts/bench_index.sh [--corpus DIR] [--mode robust|paper] [--name NAME]
#
# --mode is SL+ST's mode of the index (default: robust, the index's own default).
#
# Targets from the issue: the add in well under a minute; a single query under 10 ms median.
# Records (small, committed): scripts/runs/<date>-NAME/{command,machine,versions,results.md,
# stats.txt}. The index and the query files live in a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

CORPUS=../shared/corpora/reuters21578 NAME= MODE=robust
while [ $# -gt 0 ]; do
  case "$1" in
    --corpus) CORPUS=$2; shift 2 ;;
    --mode) MODE=$2; shift 2 ;;
    --name) NAME=$2; shift 2 ;;
    *) echo "usage: $0 [--corpus DIR] [--mode robust|paper] [--name NAME]" >&2; exit 2 ;;
  esac
done

NAME=${NAME:-index-$MODE}
OUT=scripts/runs/$(date -u +%F)-$NAME
mkdir -p "$OUT"
cargo build --release --quiet
BIN=target/release/slst
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
SGML=(--format sgml --doc-tag REUTERS --id-attr NEWID --text-tags TITLE,BODY)

{
  echo "date: $(date -u +%FT%TZ)"
  uname -srm
  echo "nproc: $(nproc)"
  grep -m1 'model name' /proc/cpuinfo || true
  free -m || true
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$OUT/machine"
{
  echo "slst: $($BIN --version) (git $(git rev-parse --short HEAD))"
  rustc --version
  echo "sqlite: bundled by $(grep -A1 'name = "libsqlite3-sys"' Cargo.lock | grep version | tr -d ' "')"
  echo "rusqlite: $(grep -A1 'name = "rusqlite"' Cargo.lock | grep version | tr -d ' "')"
} > "$OUT/versions"

ADD=("$BIN" index add "$TMP/reuters.db" "$CORPUS"/reut2-*.sgm "${SGML[@]}" -q)
QUERY=("$BIN" query "$TMP/reuters.db" "$TMP/queries" --timings "$TMP/timings.tsv" --json)
{
  echo "$BIN index create \$TMP/reuters.db --mode $MODE"
  echo "${ADD[*]}" | sed "s|$TMP|\$TMP|g"
  echo "(1,000 query files: every 21st document's stored text, into \$TMP/queries)"
  echo "${QUERY[*]}" | sed "s|$TMP|\$TMP|g"
  echo "20 x: $BIN query \$TMP/reuters.db \$TMP/queries/QUERY.txt"
} > "$OUT/command"

"$BIN" index create "$TMP/reuters.db" --mode "$MODE"
start=$(date +%s.%N)
"${ADD[@]}"
add_s=$(echo "$(date +%s.%N) - $start" | bc)
"$BIN" index stats "$TMP/reuters.db" > "$OUT/stats.txt"
start=$(date +%s.%N)
"$BIN" index check "$TMP/reuters.db" > /dev/null
check_s=$(echo "$(date +%s.%N) - $start" | bc)

python3 - "$TMP" <<'PY'
import os, sqlite3, sys
tmp = sys.argv[1]
os.makedirs(f"{tmp}/queries")
con = sqlite3.connect(f"file:{tmp}/reuters.db?mode=ro", uri=True)
rows = con.execute("SELECT id, text FROM documents ORDER BY doc").fetchall()
for id_, text in rows[::21][:1000]:
    with open(f"{tmp}/queries/{int(id_):05d}.txt", "w") as f:
        f.write(text)
PY

start=$(date +%s.%N)
"${QUERY[@]}" > "$TMP/hits.jsonl"
query_s=$(echo "$(date +%s.%N) - $start" | bc)

single=()
for f in $(ls "$TMP/queries" | head -20); do
  s=$(date +%s.%N)
  "$BIN" query "$TMP/reuters.db" "$TMP/queries/$f" > /dev/null
  single+=("$(echo "($(date +%s.%N) - $s) * 1000" | bc)")
done

MODE=$MODE python3 - "$TMP" "$add_s" "$check_s" "$query_s" "${single[@]}" > "$OUT/results.md" <<'PY'
import json, os, statistics, sys
tmp, add_s, check_s, query_s = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
single = sorted(float(x) for x in sys.argv[5:])
ms, cands, hits = [], [], []
for line in open(f"{tmp}/timings.tsv"):
    _, t, c, h = line.rstrip("\n").split("\t")
    ms.append(float(t)); cands.append(int(c)); hits.append(int(h))
ms.sort()
def pct(xs, p):
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]
found_self = sum(1 for line in open(f"{tmp}/hits.jsonl")
                 if any(h["resemblance"] == 1.0 for h in json.loads(line)["hits"]))
print(f"# Search mode on Reuters-21578 ({os.environ['MODE']} mode)\n")
print("| what | figure |\n|---|---|")
print(f"| add 21,578 documents (one process, 1,000 per transaction) | {add_s:.2f} s |")
print(f"| index check | {check_s:.2f} s |")
print(f"| queries | {len(ms)} |")
print(f"| query latency p50 / p90 / p99 / max (lookup + verification) | {pct(ms,50):.3f} / {pct(ms,90):.3f} / {pct(ms,99):.3f} / {ms[-1]:.3f} ms |")
print(f"| mean latency | {statistics.mean(ms):.3f} ms |")
print(f"| 1,000 queries, whole process (reading files, JSON output) | {query_s:.2f} s |")
print(f"| single-query process, wall (open + query), median of {len(single)} | {pct(single,50):.1f} ms |")
print(f"| candidates per query, median / max | {statistics.median(cands):.0f} / {max(cands)} |")
print(f"| hits per query, mean / max | {statistics.mean(hits):.2f} / {max(hits)} |")
empty = sum(1 for line in open(f"{tmp}/hits.jsonl") if json.loads(line)["query"]["sentences"] == 0)
print(f"| queries that found their own document (J = 1) | {found_self} of {len(ms)} ({empty} have no kept sentence, so no block) |")
PY
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/machine"
cat "$OUT/results.md" "$OUT/stats.txt"
