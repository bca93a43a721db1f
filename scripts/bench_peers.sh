#!/usr/bin/env bash
# slst batch against the MinHash tools people use instead (issue 4), on the same corpora, in one
# run, side by side: wall time, CPU time and peak memory, with ratios to slst.
#
#   scripts/bench_peers.sh [--repeat N] [--corpora DIR] [--name NAME] [--only reuters|synthetic]
#                          [--corpus realistic|stress]
#
#   --repeat N     runs of every tool on every corpus, interleaved (default 3); medians reported
#   --corpora DIR  the shared corpora (default ../shared/corpora from the repository root)
#   --name NAME    the run folder is scripts/runs/<date>-NAME (default: peers)
#   --corpus       the synthetic corpus: realistic (default; make_synthetic.py --kind realistic)
#                  or stress (--kind pool, every sentence from a fixed pool of real sentences)
#
# Peers (pinned, installed into the ignored venv .venv-peers): datasketch 2.0.0, rensa 0.5.0,
# gaoya 0.2.2, each doing MinHash LSH over word 5-shingles, 128 permutations, threshold 0.5 as
# its docs show (scripts/peers/minhash_peers.py). A peer that fails to install or to run is
# reported and the others go on.
#
# Corpora, prepared once into bench-results/data (ignored):
#   reuters21578.jsonl  all 21,578 Reuters-21578 documents, text = TITLE, blank line, BODY, as
#                       slst reads the SGML (scripts/peers/reuters_to_jsonl.py);
#   realistic-20000.jsonl  20,000 synthetic documents of new sentences from a word model of
#                       real ones, with a shared component of fixed document frequencies, seed 1
#                       (scripts/make_synthetic.py --kind realistic), with its truth TSV;
#   stress-20000.jsonl  with --corpus stress instead: 20,000 documents of sentences drawn from
#                       the pool of real sentences (--kind pool), seed 1, with its truth TSV.
# Every tool reads the same JSONL; slst also reads Reuters as shipped (row "slst-sgml").
#
# Records (small, committed): scripts/runs/<date>-NAME/{command,machine,versions,results.md,
# timev/*.txt (the /usr/bin/time -v output of every run), out/*.json (slst summaries, peer stage
# times)}. Pair files go to bench-results/runs/<date>-NAME/ (ignored).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=.  # paths stay relative to the repository root, also in the records

REPEAT=3 CORPORA=../shared/corpora NAME=peers ONLY= CORPUS=realistic
while [ $# -gt 0 ]; do
  case "$1" in
    --repeat) REPEAT=$2; shift 2 ;;
    --corpora) CORPORA=$2; shift 2 ;;
    --name) NAME=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --corpus) CORPUS=$2; shift 2 ;;
    *) sed -n '2,12p' "$0"; exit 2 ;;
  esac
done
case "$CORPUS" in
  realistic) KIND=realistic ;;
  stress) KIND=pool ;;
  *) echo "--corpus must be realistic or stress" >&2; exit 2 ;;
esac
SYN=$CORPUS-20000  # the synthetic corpus's file name, and its name in the records

say() { printf '\n== %s\n' "$*" >&2; }

# --- /usr/bin/time (GNU time: -v gives peak RSS) -----------------------------------------------
if [ ! -x /usr/bin/time ]; then
  say "/usr/bin/time is missing: installing Debian's 'time' package with apt-get"
  (apt-get update -qq && apt-get install -y -qq time) >&2 || { echo "cannot install GNU time; stopping" >&2; exit 1; }
fi

# --- peers' venv -------------------------------------------------------------------------------
VENV=$ROOT/.venv-peers
PY=$VENV/bin/python
PEERS=(rensa gaoya datasketch)
declare -A PIN=([datasketch]=2.0.0 [rensa]=0.5.0 [gaoya]=0.2.2)
if [ ! -x "$PY" ]; then
  say "creating the peers' venv in .venv-peers"
  python3 -m venv "$VENV" || { echo "python3 -m venv failed: no peer can run" >&2; PEERS=(); }
fi
AVAILABLE=()
for p in "${PEERS[@]}"; do
  if ! "$PY" -c "import importlib.metadata as m, sys; sys.exit(m.version('$p') != '${PIN[$p]}')" 2>/dev/null; then
    say "installing $p==${PIN[$p]}"
    "$VENV/bin/pip" install -q "$p==${PIN[$p]}" >&2 || { echo "PEER FAILED TO INSTALL: $p==${PIN[$p]} (left out of this run)" >&2; continue; }
  fi
  AVAILABLE+=("$p")
done

# --- slst ----------------------------------------------------------------------------------------
say "building slst (release)"
cargo build --release -q || { echo "cargo build failed" >&2; exit 1; }
SLST=$ROOT/target/release/slst

# --- corpora -------------------------------------------------------------------------------------
DATA=$ROOT/bench-results/data
mkdir -p "$DATA"
if [ ! -s "$DATA/reuters21578.jsonl" ]; then
  say "converting Reuters-21578 to JSONL"
  python3 scripts/peers/reuters_to_jsonl.py "$DATA/reuters21578.jsonl" "$CORPORA"/reuters21578/reut2-*.sgm || exit 1
fi
if [ ! -s "$DATA/$SYN.jsonl" ]; then
  say "generating the 20,000-document synthetic corpus $SYN (make_synthetic.py --kind $KIND, seed 1)"
  python3 scripts/make_synthetic.py 20000 "$DATA/$SYN.jsonl" "$DATA/$SYN.truth.tsv" --seed 1 --kind "$KIND" --corpora "$CORPORA" || exit 1
fi

# --- run folder ----------------------------------------------------------------------------------
DAY=$(date -u +%Y-%m-%d)
REC=scripts/runs/$DAY-$NAME
k=2; while [ -e "$REC" ]; do REC=scripts/runs/$DAY-$NAME-$k; k=$((k + 1)); done
BIG=bench-results/runs/$(basename "$REC")
mkdir -p "$REC/timev" "$REC/out" "$BIG"
echo "scripts/bench_peers.sh --repeat $REPEAT --corpora $CORPORA --corpus $CORPUS --name $NAME${ONLY:+ --only $ONLY}" > "$REC/command"
{
  echo "date: $(date -u +%FT%TZ)"; uname -srm; echo "nproc: $(nproc)"
  grep -m1 'model name' /proc/cpuinfo; free -m | sed -n 1,2p
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$REC/machine"
{
  echo "slst: $("$SLST" --version 2>/dev/null) (git $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src Cargo.toml Cargo.lock || echo ', src modified'))"
  rustc --version; cargo --version; python3 --version
  [ -x "$PY" ] && "$PY" -m pip freeze 2>/dev/null | grep -iE '^(datasketch|rensa|gaoya|numpy|scipy)=='
  /usr/bin/time --version 2>&1 | head -1
  echo "input sha256:"; (cd "$DATA" && sha256sum reuters21578.jsonl "$SYN.jsonl" "$SYN.truth.tsv")
} > "$REC/versions"

# --- one measured run --------------------------------------------------------------------------
# measure CORPUS TOOL REP COMMAND...: /usr/bin/time -v into timev/, stdout into out/
measure() {
  local corpus=$1 tool=$2 rep=$3; shift 3
  /usr/bin/time -v -o "$REC/timev/${corpus}__${tool}__${rep}.txt" "$@" > "$REC/out/${corpus}__${tool}__${rep}.stdout" 2> "$BIG/${corpus}__${tool}__${rep}.stderr"
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "RUN FAILED: $tool on $corpus (exit $rc); stderr in $BIG/${corpus}__${tool}__${rep}.stderr:" >&2
    tail -3 "$BIG/${corpus}__${tool}__${rep}.stderr" >&2
  fi
  [ -s "$REC/out/${corpus}__${tool}__${rep}.stdout" ] || rm -f "$REC/out/${corpus}__${tool}__${rep}.stdout"
  printf '  %-12s %-10s run %s: %s\n' "$corpus" "$tool" "$rep" \
    "$(grep -E 'Elapsed|Maximum resident' "$REC/timev/${corpus}__${tool}__${rep}.txt" | sed 's/.*: //' | paste -sd' ' | sed 's/ / s, /; s/$/ KB/')" >&2
}

run_tool() { # run_tool CORPUS JSONL TOOL REP
  local corpus=$1 jsonl=$2 tool=$3 rep=$4 pairs=$BIG/${1}__${3}.tsv
  case "$tool" in
    slst) measure "$corpus" "$tool" "$rep" "$SLST" batch "$jsonl" --format jsonl --out "$pairs" --out-format tsv \
            --summary "$REC/out/${corpus}__${tool}__${rep}.summary.json" -q ;;
    slst-1thread) measure "$corpus" "$tool" "$rep" "$SLST" batch "$jsonl" --format jsonl --threads 1 --out "$pairs" \
            --out-format tsv --summary "$REC/out/${corpus}__${tool}__${rep}.summary.json" -q ;;
    slst-sgml) measure "$corpus" "$tool" "$rep" "$SLST" batch "$CORPORA"/reuters21578/reut2-*.sgm --format sgml \
            --doc-tag REUTERS --id-attr NEWID --text-tags TITLE,BODY --out "$pairs" --out-format tsv \
            --summary "$REC/out/${corpus}__${tool}__${rep}.summary.json" -q ;;
    *) measure "$corpus" "$tool" "$rep" "$PY" scripts/peers/minhash_peers.py "$tool" "$jsonl" "$pairs" ;;
  esac
}

SYNTH=$CORPUS-20k  # the synthetic corpus's name in the record files and tables
declare -A JSONL=([reuters]=$DATA/reuters21578.jsonl [$SYNTH]=$DATA/$SYN.jsonl)
CORPUS_LIST=(reuters "$SYNTH")
[ "$ONLY" = reuters ] && CORPUS_LIST=(reuters)
[ "$ONLY" = synthetic ] && CORPUS_LIST=("$SYNTH")

for corpus in "${CORPUS_LIST[@]}"; do
  tools=(slst slst-1thread "${AVAILABLE[@]}")
  [ "$corpus" = reuters ] && tools+=(slst-sgml)
  say "$corpus: ${tools[*]} x $REPEAT (interleaved, order rotated each repetition)"
  for rep in $(seq 1 "$REPEAT"); do
    n=${#tools[@]}
    for i in $(seq 0 $((n - 1))); do
      run_tool "$corpus" "${JSONL[$corpus]}" "${tools[$(((i + rep - 1) % n))]}" "$rep"
    done
  done
done

# --- results -------------------------------------------------------------------------------------
{
  echo "# $(basename "$REC"): slst batch vs MinHash LSH peers"
  echo
  echo "Command: \`$(cat "$REC/command")\`. Machine and versions: see \`machine\`, \`versions\`."
  echo "Medians over $REPEAT interleaved runs; wall and peak RSS from \`/usr/bin/time -v\` of the whole process"
  echo "(Python start-up and JSON parsing included for the peers, reading and writing for slst)."
  echo "Load average at start: $(sed -n 's/load average at start: //p' "$REC/machine"); at end: $(cut -d' ' -f1-3 /proc/loadavg)."
  python3 scripts/peers/table.py "$REC" slst
  echo
  echo "## Pair sets (last run of each tool)"
  for corpus in "${CORPUS_LIST[@]}"; do
    echo; echo "### $corpus"; echo
    args=(slst="$BIG/${corpus}__slst.tsv")
    for p in "${AVAILABLE[@]}"; do [ -s "$BIG/${corpus}__$p.tsv" ] && args+=("$p=$BIG/${corpus}__$p.tsv"); done
    if [ "$corpus" = "$SYNTH" ]; then
      python3 scripts/peers/compare_pairs.py --truth "$DATA/$SYN.truth.tsv" "${args[@]}"
    else
      python3 scripts/peers/compare_pairs.py "${args[@]}"
    fi
  done
} > "$REC/results.md"
cat "$REC/results.md"
echo >&2
echo "records in $REC (commit them); pair files in $BIG" >&2
