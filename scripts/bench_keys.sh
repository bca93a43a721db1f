#!/usr/bin/env bash
# What a change of the join's keys costs in pairs and saves in time: `slst batch` with two sets of
# flags (a baseline and a trial) on the labelled and benchmark corpora, one run each, alternating;
# the pairs each finds that the other does not, candidate pairs, CPU seconds per stage and peak RSS.
#
#   scripts/bench_keys.sh --try "FLAGS" [--base "FLAGS"] [--name NAME] [--corpora DIR]
#                         [--only REGEX] [--repeat N]
#
#   --try     flags of the trial, e.g. "--pair-keys 2"
#   --base    flags of the baseline (default: "--pair-keys 0", the exact join)
#   --only    corpora whose name matches REGEX (default: all of reuters, stress-20000,
#             realistic-20000, realistic-100000, bible, clough, pan, newsgroups)
#   --repeat  runs per side and corpus, alternating (default 1); figures are medians
#
# The synthetic corpora are scripts/make_synthetic.py's, seed 1, in bench-results/data (made
# when missing). Records: scripts/runs/<date>-NAME/{command,machine,results.md,out/}.
set -uo pipefail
cd "$(dirname "$0")/.."

BASE="--pair-keys 0" TRY= NAME=keys CORPORA=../shared/corpora ONLY=. REPEAT=1
while [ $# -gt 0 ]; do
  case "$1" in
    --try) TRY=$2; shift 2 ;;
    --base) BASE=$2; shift 2 ;;
    --name) NAME=$2; shift 2 ;;
    --corpora) CORPORA=$2; shift 2 ;;
    --only) ONLY=$2; shift 2 ;;
    --repeat) REPEAT=$2; shift 2 ;;
    *) sed -n '2,16p' "$0"; exit 2 ;;
  esac
done
[ -n "$TRY" ] || { sed -n '2,16p' "$0"; exit 2; }

cargo build --release -q --bin slst || exit 1
SLST=target/release/slst
DATA=bench-results/data
REC=scripts/runs/$(date -u +%F)-$NAME
WORK=bench-results/runs/$(date -u +%F)-$NAME
mkdir -p "$REC/out" "$WORK" "$DATA"
printf '%s\n' "scripts/bench_keys.sh --try \"$TRY\" --base \"$BASE\" --name $NAME --corpora $CORPORA --only '$ONLY' --repeat $REPEAT" > "$REC/command"
{ date -u +%FT%TZ; uname -srm; echo "nproc: $(nproc)"; echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"; } > "$REC/machine"

SGML=(--format sgml --doc-tag REUTERS --id-attr NEWID --text-tags TITLE,BODY)
corpus_args() { # the inputs and flags of a corpus
  case "$1" in
    reuters) echo "$CORPORA/reuters21578/reut2-*.sgm ${SGML[*]}" ;;
    stress-*|realistic-*) echo "$DATA/$1.jsonl --format jsonl" ;;
    bible) echo "corpora/bible-versions/kjv.trec.gz corpora/bible-versions/wbt.trec.gz corpora/bible-versions/web.trec.gz" ;;
    clough) echo "corpora/clough-short-answers/corpus-20090418" ;;
    pan) echo "$CORPORA/pan13-text-alignment-a/src $CORPORA/pan13-text-alignment-a/susp --containment 0.05" ;;
    newsgroups) echo "$CORPORA/mini-newsgroups/mini_newsgroups" ;;
  esac
}
make_corpus() { # synthetic corpora on demand
  local name=$1 kind n
  case "$name" in
    stress-*) kind=pool ;; realistic-*) kind=realistic ;; *) return 0 ;;
  esac
  n=${name#*-}
  [ -s "$DATA/$name.jsonl" ] || python3 scripts/make_synthetic.py "$n" "$DATA/$name.jsonl" \
    "$DATA/$name.truth.tsv" --seed 1 --kind "$kind" --corpora "$CORPORA" || exit 1
}

CORPUS_LIST="reuters stress-20000 realistic-20000 realistic-100000 bible clough pan newsgroups"
for c in $CORPUS_LIST; do
  [[ $c =~ $ONLY ]] || continue
  make_corpus "$c"
  for rep in $(seq 1 "$REPEAT"); do
    for side in base try; do
      flags=$BASE; [ $side = try ] && flags=$TRY
      # shellcheck disable=SC2046,SC2086
      /usr/bin/time -v "$SLST" batch $(corpus_args "$c") $flags --out "$WORK/$c-$side.tsv" \
        --out-format tsv -q --summary "$REC/out/$c-$side-$rep.summary.json" \
        2> "$REC/out/$c-$side-$rep.time" || echo "slst failed on $c ($side)" >&2
    done
  done
done
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$REC/machine"

python3 - "$REC" "$WORK" "$BASE" "$TRY" "$ONLY" $CORPUS_LIST > "$REC/results.md" <<'PY'
import json, os, re, statistics, sys
rec, work, base, trial, only = sys.argv[1:6]
corpora = [c for c in sys.argv[6:] if re.search(only, c)]
def pairs(c, side):
    path = f"{work}/{c}-{side}.tsv"
    return {tuple(l.split("\t")[:2]) for l in open(path) if l.strip() and not l.startswith("a\t")} if os.path.exists(path) else set()
def runs(c, side):
    out = []
    for name in sorted(os.listdir(f"{rec}/out")):
        m = re.match(rf"{re.escape(c)}-{side}-(\d+)\.summary\.json$", name)
        if not m:
            continue
        s = json.load(open(f"{rec}/out/{name}"))
        t = open(f"{rec}/out/{c}-{side}-{m.group(1)}.time").read()
        user = float(re.search(r"User time \(seconds\): ([\d.]+)", t).group(1))
        sys_ = float(re.search(r"System time \(seconds\): ([\d.]+)", t).group(1))
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", t).group(1)) / 1024
        out.append((user + sys_, rss, s["cpu_seconds"]["candidates"], s["candidate_pairs"]))
    return out
med = lambda xs, i: statistics.median(x[i] for x in xs)
print(f"# {os.path.basename(rec)}: join keys, trial against baseline\n")
print(f"Baseline: `{base}`; trial: `{trial}`. `slst batch`, one process per run, alternating;"
      " medians over the runs. Lost: pairs of the baseline the trial does not report; new: the"
      " other way.\n")
print("| corpus | pairs (base) | lost | new | candidates base / trial | candidates stage CPU s base / trial | CPU s base / trial | trial / base CPU | peak RSS MB base / trial |")
print("|---|---|---|---|---|---|---|---|---|")
for c in corpora:
    b, t = runs(c, "base"), runs(c, "try")
    if not b or not t:
        continue
    pb, pt = pairs(c, "base"), pairs(c, "try")
    print(f"| {c} | {len(pb):,} | {len(pb - pt)} | {len(pt - pb)} | {med(b,3):,.0f} / {med(t,3):,.0f} |"
          f" {med(b,2):.2f} / {med(t,2):.2f} | {med(b,0):.2f} / {med(t,0):.2f} | {med(t,0)/med(b,0):.2f}× |"
          f" {med(b,1):,.0f} / {med(t,1):,.0f} |")
for c in corpora:
    lost = sorted(pairs(c, "base") - pairs(c, "try"))
    if lost:
        print(f"\nLost on {c} ({len(lost)}): " + ", ".join(f"{a}–{b}" for a, b in lost[:20]) + (" …" if len(lost) > 20 else ""))
PY
cat "$REC/results.md"
