#!/usr/bin/env bash
# Search mode (issues 8, 56): on Reuters-21578, in one run so that the ratios hold on a shared
# machine, the CPU time (user + sys, `/usr/bin/time`) of
#   - `slst batch` over the corpus (the same input flags, the index's mode),
#   - adding the corpus to a fresh index,
#   - adding it again to that index (every document replaces itself: what a user does after an
#     interrupted add),
# each run --repeat times (default 2; the least of each is reported, every run recorded), with
# the ratios add / batch and re-add / add; then 1,000 queries (documents of the corpus, every
# 21st by insertion order) answered by one `slst query` process, with p50/p90/p99 latency per
# query (index lookup and verification, from `--timings`), and the wall time of single-query
# processes (open + query) for 20 of them.
#
#   scripts/bench_index.sh [--corpus DIR] [--mode robust|paper] [--name NAME] [--repeat N]
#
# --mode is SL+ST's mode of the index (default: robust, the index's own default).
#
# Targets (issue 56): the add within 3x the CPU of `slst batch`, the re-add within 1.5x the add,
# query p50 under 1 ms.
# Records (small, committed): scripts/runs/<date>-NAME/{command,machine,versions,results.md,
# stats.txt}. The index and the query files live in a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

CORPUS=../shared/corpora/reuters21578 NAME= MODE=robust REPEAT=2
while [ $# -gt 0 ]; do
  case "$1" in
    --corpus) CORPUS=$2; shift 2 ;;
    --mode) MODE=$2; shift 2 ;;
    --name) NAME=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    *) echo "usage: $0 [--corpus DIR] [--mode robust|paper] [--name NAME] [--repeat N]" >&2; exit 2 ;;
  esac
done

NAME=${NAME:-index-$MODE}
OUT=scripts/runs/$(date -u +%F)-$NAME
mkdir -p "$OUT"
rm -f "$OUT"/batch.time "$OUT"/add.time "$OUT"/readd.time "$OUT"/add-small.time
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

BATCH=("$BIN" batch "$CORPUS"/reut2-*.sgm "${SGML[@]}" --mode "$MODE" -q)
ADD=("$BIN" index add "$TMP/reuters.db" "$CORPUS"/reut2-*.sgm "${SGML[@]}" -q)
ADD_SMALL=("$BIN" index add "$TMP/small.db" "$CORPUS"/reut2-*.sgm "${SGML[@]}" -q --batch-size 1000)
QUERY=("$BIN" query "$TMP/reuters.db" "$TMP/queries" --timings "$TMP/timings.tsv" --json)
TIME=(/usr/bin/time -f "%U %S %e %M" -a -o)
{
  echo "$REPEAT x, in turn:"
  echo "  ${BATCH[*]} > /dev/null"
  echo "  rm -f \$TMP/reuters.db*; $BIN index create \$TMP/reuters.db --mode $MODE"
  echo "  ${ADD[*]}" | sed "s|$TMP|\$TMP|g"
  echo "  (the same add again: every document replaces itself)"
  echo "  rm -f \$TMP/small.db*; the same add to a fresh \$TMP/small.db with --batch-size 1000"
  echo "each timed with ${TIME[*]} FILE (user s, sys s, wall s, max RSS KB)"
  echo "(1,000 query files: every 21st document's stored text, into \$TMP/queries)"
  echo "${QUERY[*]}" | sed "s|$TMP|\$TMP|g"
  echo "20 x: $BIN query \$TMP/reuters.db \$TMP/queries/QUERY.txt"
} > "$OUT/command"

for _ in $(seq "$REPEAT"); do
  "${TIME[@]}" "$OUT/batch.time" "${BATCH[@]}" > /dev/null
  rm -f "$TMP"/reuters.db*
  "$BIN" index create "$TMP/reuters.db" --mode "$MODE"
  "${TIME[@]}" "$OUT/add.time" "${ADD[@]}"
  "${TIME[@]}" "$OUT/readd.time" "${ADD[@]}"
  rm -f "$TMP"/small.db*
  "$BIN" index create "$TMP/small.db" --mode "$MODE"
  "${TIME[@]}" "$OUT/add-small.time" "${ADD_SMALL[@]}"
done
rm -f "$TMP"/small.db*
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

MODE=$MODE python3 - "$TMP" "$OUT" "$check_s" "$query_s" "${single[@]}" > "$OUT/results.md" <<'PY'
import json, os, statistics, sys
tmp, out, check_s, query_s = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
single = sorted(float(x) for x in sys.argv[5:])
def runs(name):
    """(cpu s, wall s, max RSS MB) of each run, from /usr/bin/time -f '%U %S %e %M'."""
    rows = [line.split() for line in open(f"{out}/{name}.time") if line.strip()]
    return [(float(u) + float(s), float(e), int(m) / 1024) for u, s, e, m in rows]
timed = {name: runs(name) for name in ("batch", "add", "readd", "add-small")}
best = {name: min(r[0] for r in rs) for name, rs in timed.items()}
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
def each(name):
    return ", ".join(f"{c:.2f} s CPU / {w:.2f} s wall / {m:.0f} MB" for c, w, m in timed[name])
print(f"| `slst batch` over the corpus, CPU (least of {len(timed['batch'])}) | {best['batch']:.2f} s |")
print(f"| add 21,578 documents to a fresh index (one process, 10,000 per transaction: the default), CPU | {best['add']:.2f} s |")
print(f"| add them again (each replaces itself), CPU | {best['readd']:.2f} s |")
print(f"| add / batch | {best['add'] / best['batch']:.2f} |")
print(f"| re-add / add | {best['readd'] / best['add']:.2f} |")
print(f"| add to a fresh index, 1,000 per transaction, CPU (/ batch) | {best['add-small']:.2f} s ({best['add-small'] / best['batch']:.2f}) |")
for name, what in (("batch", "batch"), ("add", "add"), ("readd", "re-add"), ("add-small", "1,000-per-transaction add")):
    print(f"| every {what} run: CPU / wall / max RSS | {each(name)} |")
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
