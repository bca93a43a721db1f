#!/usr/bin/env bash
# Run every slst command of a fixed battery with two binaries and say, per command, whether the
# outputs are the same: the check that a refactor changes nothing it does not announce.
#
#   scripts/diff_outputs.sh OLD_BIN NEW_BIN [--corpora DIR] [--out DIR] [--quick]
#                           [--only REGEX] [--list] [--old-outputs DIR]
#
#   OLD_BIN, NEW_BIN   the two slst binaries (e.g. main's target/release/slst, copied aside, and
#                      the branch's); the same binary twice checks that the battery is
#                      deterministic
#   --corpora DIR      the shared corpora (Reuters-21578, mini-newsgroups), default
#                      ../shared/corpora; commands whose corpus is missing are skipped, with a note
#   --out DIR          where outputs go (default bench-results/diff-outputs): OUT/old/NAME/ and
#                      OUT/new/NAME/ hold each command's stdout, stderr, rc (exit code), command
#                      and files/ (output files; PNG plots as SHA-256 lines, SQLite indexes as SQL
#                      dumps); OUT/diffs/NAME.diff the full diff of each different command;
#                      OUT/report.txt the printed report; OUT/times.tsv each run's wall seconds
#   --quick            skip the slow commands (the Bible light+heavy and Reuters evaluations,
#                      SL+ST's robust mode evaluated on the Bible, anything over about 20 s on a
#                      quiet machine): about 40 % of the full battery's time, most of which goes
#                      to those evaluations
#   --only REGEX       run only the commands whose name matches (bash regex)
#   --list             print the commands (name, then arguments) and run nothing
#   --old-outputs DIR  take the old side from an earlier run's OUT/old instead of running OLD_BIN
#                      (give `-` as OLD_BIN); NEW_BIN's outputs are compared with those
#
# Prints one line per command, `same` or `DIFFERENT` (with the first lines of a unified diff),
# and a count per kind of command; exits 0 when every command is the same, 1 otherwise (2 on a
# usage error).
#
# Each side runs in its own temporary folder with the same layout (the repository's corpora/ and
# results/ linked in, the shared corpora at ../shared/corpora, generated inputs in inputs/, output
# files in o/NAME/, indexes in state/), always with relative paths, so that paths in the outputs
# are equal. Only run-dependent parts are normalised before comparing (scripts/diff_outputs.py):
# the side's temporary folder, wall-clock seconds (eval's `seconds` fields and seconds column,
# batch's `time:` line and the summary's `seconds` object, index add's run time, query --timings
# milliseconds) and the commit times that an index stores with each batch. Everything else must
# be byte-identical: stdout, stderr, exit code, every output file.
set -uo pipefail

die() { echo "diff_outputs.sh: $*" >&2; exit 2; }
abs() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$PWD/$1" ;; esac; }

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; exit 2; }
[ $# -ge 2 ] || usage
old_bin="$1"; new_bin="$2"; shift 2
corpora=""; out=""; quick=0; only=""; list=0; old_outputs=""
while [ $# -gt 0 ]; do
  case "$1" in
    --corpora) [ $# -ge 2 ] || die "--corpora needs a folder"; corpora="$(abs "$2")"; shift 2 ;;
    --out) [ $# -ge 2 ] || die "--out needs a folder"; out="$(abs "$2")"; shift 2 ;;
    --quick) quick=1; shift ;;
    --only) [ $# -ge 2 ] || die "--only needs a pattern"; only="$2"; shift 2 ;;
    --list) list=1; shift ;;
    --old-outputs) [ $# -ge 2 ] || die "--old-outputs needs a folder"; old_outputs="$(abs "$2")"; shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
if [ "$list" = 0 ]; then
  if [ -n "$old_outputs" ]; then
    [ -f "$old_outputs/WORK" ] || die "$old_outputs is not the old/ folder of an earlier run"
  else
    old_bin="$(abs "$old_bin")"
    [ -x "$old_bin" ] || die "OLD_BIN $old_bin is not an executable"
  fi
  new_bin="$(abs "$new_bin")"
  [ -x "$new_bin" ] || die "NEW_BIN $new_bin is not an executable"
fi
cd "$(dirname "$0")/.." || exit 2
repo="$PWD"
corpora="${corpora:-$(abs ../shared/corpora)}"
out="${out:-$repo/bench-results/diff-outputs}"
helper="$repo/scripts/diff_outputs.py"

# --- the two work folders ----------------------------------------------------------------------

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

make_inputs() {  # the generated inputs, byte for byte the same on both sides
  local d="$1"
  mkdir -p "$d/mixed"
  : > "$d/empty.txt"
  printf 'The central bank cut interest rates on Tuesday, and markets rallied on the news.\n' > "$d/oneline.txt"
  printf 'PK\003\004\024\000\000\000\010\000binary\000data\377\376\000\001\002\003' > "$d/binary.bin"
  printf '<DOC>\n<DOCNO>BAD-1</DOCNO>\n<TEXT>\nThis document never ends. Its TEXT is not closed.\n' > "$d/bad.trec"
  python3 - "$repo/corpora/bible/sample.trec" "$d/truncated.trec.gz" <<'EOF'
import gzip, sys
data = gzip.compress(open(sys.argv[1], "rb").read(), 9, mtime=0)
open(sys.argv[2], "wb").write(data[:len(data) // 2])
EOF
  cp "$repo/corpora/clough/orig_taskb.txt" "$d/mixed/a-source.txt"
  cp "$repo/corpora/clough/g0pA_taskb.txt" "$d/mixed/b-answer.txt"
  cp "$repo/corpora/clough/orig_taskb.txt" "$d/mixed/c-copy.txt"
  cp "$d/empty.txt" "$d/binary.bin" "$d/truncated.trec.gz" "$d/bad.trec" "$d/mixed/"
  printf 'Caf\351 cr\350me br\373l\351e is served on Sundays. The caf\351 opens at nine.\n' > "$d/mixed/d-cp1252.txt"
}

make_side() {
  local side="$1"
  mkdir -p "$tmp/$side/repo/o" "$tmp/$side/repo/state" "$tmp/$side/shared"
  ln -s "$corpora" "$tmp/$side/shared/corpora"
  ln -s "$repo/corpora" "$tmp/$side/repo/corpora"
  ln -s "$repo/results" "$tmp/$side/repo/results"
  make_inputs "$tmp/$side/repo/inputs"
}

if [ "$list" = 0 ]; then
  mkdir -p "$out" || die "cannot create $out"
  rm -rf "$out/new" "$out/diffs" "$out/times.tsv" "$out/report.txt"
  if [ -n "$old_outputs" ]; then
    old_dir="$old_outputs"
  else
    rm -rf "$out/old"
    old_dir="$out/old"
    make_side old
    mkdir -p "$old_dir"
    echo "$tmp/old/repo" > "$old_dir/WORK"
  fi
  make_side new
  mkdir -p "$out/new" "$out/diffs"
  echo "$tmp/new/repo" > "$out/new/WORK"
  : > "$out/times.tsv"
fi

say() { printf '%s\n' "$*"; [ "$list" = 1 ] || printf '%s\n' "$*" >> "$out/report.txt"; }

# --- running one command -----------------------------------------------------------------------

declare -A seen=() kind_total=() kind_diff=() missing_notes=()
total=0; n_same=0; n_diff=0; skipped_quick=0; skipped_missing=0; different=()

run_side() {  # run_side SIDE BIN NAME [DB…] -- ARGS…
  local side="$1" bin="$2" name="$3"; shift 3
  local dbs=()
  while [ "$1" != -- ]; do dbs+=("$1"); shift; done
  shift
  local w="$tmp/$side/repo" dest="$out/$side/$name" a args=()
  rm -rf "$dest"
  mkdir -p "$dest" "$w/o/$name"
  for a in "$@"; do args+=("${a//@O@/o/$name}"); done
  { printf 'slst'; printf ' %q' "${args[@]}"; printf '\n'; } > "$dest/command"
  local t0="$EPOCHREALTIME"
  (cd "$w" && exec "$bin" "${args[@]}" < /dev/null > "$dest/stdout" 2> "$dest/stderr")
  echo $? > "$dest/rc"
  awk -v s="$side" -v n="$name" -v a="$t0" -v b="$EPOCHREALTIME" \
    'BEGIN { printf "%s\t%s\t%.3f\n", s, n, b - a }' >> "$out/times.tsv"
  if [ -n "$(ls -A "$w/o/$name")" ]; then
    python3 "$helper" collect "$w/o/$name" "$dest/files"
  fi
  for a in "${dbs[@]}"; do
    python3 "$helper" dumpdb "$w/$a" "$dest/files/$(basename "$a").sql"
  done
}

# c NAME [--slow] [--needs PATH] [--db FILE] -- ARGS…   (ARGS: slst's arguments; @O@ is the
# command's own output folder o/NAME; PATH is relative to the shared corpora; FILE, an index in
# the work folder, is dumped as SQL after the command)
c() {
  local name="$1"; shift
  local slow=0 needs=() dbs=() n
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    case "$1" in
      --slow) slow=1 ;;
      --needs) needs+=("$2"); shift ;;
      --db) dbs+=("$2"); shift ;;
      *) die "command $name: unknown option $1" ;;
    esac
    shift
  done
  [ $# -gt 0 ] || die "command $name: no --"
  shift
  [ -z "${seen[$name]:-}" ] || die "two commands are named $name"
  seen[$name]=1
  if [ -n "$only" ] && ! [[ $name =~ $only ]]; then return; fi
  for n in "${needs[@]}"; do
    if [ ! -e "$corpora/$n" ]; then
      skipped_missing=$((skipped_missing + 1))
      if [ -z "${missing_notes[$n]:-}" ]; then
        missing_notes[$n]=1
        say "note: $corpora/$n is missing: the commands that read it are skipped"
      fi
      return
    fi
  done
  if [ "$slow" = 1 ] && [ "$quick" = 1 ]; then skipped_quick=$((skipped_quick + 1)); return; fi
  if [ "$list" = 1 ]; then
    printf '%s\tslst' "$name"; printf ' %s' "$@"; printf '\n'
    total=$((total + 1)); return
  fi
  local kind="${name%%/*}"
  total=$((total + 1))
  kind_total[$kind]=$(( ${kind_total[$kind]:-0} + 1 ))
  [ -n "$old_outputs" ] || run_side old "$old_bin" "$name" "${dbs[@]}" -- "$@"
  run_side new "$new_bin" "$name" "${dbs[@]}" -- "$@"
  if diff -rq "$old_dir/$name" "$out/new/$name" > /dev/null 2>&1; then
    n_same=$((n_same + 1)); say "same       $name"; return
  fi
  local report
  mkdir -p "$(dirname "$out/diffs/$name")"
  report="$(python3 "$helper" compare "$old_dir/$name" "$out/new/$name" "$out/diffs/$name.diff" \
    --work "$(cat "$old_dir/WORK")" "$tmp/new/repo" --path "REPO=$repo" --path "CORPORA=$corpora")"
  if [ $? = 0 ]; then
    n_same=$((n_same + 1)); say "same       $name"
  else
    n_diff=$((n_diff + 1)); different+=("$name")
    kind_diff[$kind]=$(( ${kind_diff[$kind]:-0} + 1 ))
    say "DIFFERENT  $name"
    say "$report"
  fi
}

# --- the battery -------------------------------------------------------------------------------

start="$EPOCHREALTIME"
SH=../shared/corpora
reuters=()
for f in "$corpora"/reuters21578/reut2-*.sgm; do
  [ -e "$f" ] && reuters+=("$SH/reuters21578/$(basename "$f")")
done
r000=("$SH/reuters21578/reut2-000.sgm")
sgml=(--format sgml --doc-tag REUTERS --id-attr NEWID)
title_body=(--text-tags TITLE,BODY)
news="$SH/mini-newsgroups/mini_newsgroups"
bible=(corpora/bible-versions/kjv.trec.gz corpora/bible-versions/wbt.trec.gz corpora/bible-versions/web.trec.gz)
clough=corpora/clough-short-answers/corpus-20090418
wv=corpora/web-versions/pages
wm=corpora/web-mirror/pages
page_a="$wv/llvm-13.0.1/CodeOfConduct.html"
page_b="$wv/llvm-16.0.6/CodeOfConduct.html"
text_methods=(slst shingle megashingle polyhash spotsigs sentlen md5)
web_methods=(slst-flat blocks-md5 blocks-shingle specialchars blocks-specialchars)
all_methods=("${text_methods[@]}" "${web_methods[@]}")
M=slst,shingle,megashingle,polyhash,spotsigs,sentlen,md5   # scripts/evaluate.sh's methods
W=md5,blocks-md5,shingle,blocks-shingle,specialchars,blocks-specialchars,slst,slst-flat  # evaluate_web.sh's

pair() {  # the compared pairs
  case "$1" in
    clough) P=(corpora/clough/g0pA_taskb.txt corpora/clough/orig_taskb.txt) ;;
    bible) P=(--doc-a KJV-01-001 --doc-b WBT-01-001 corpora/bible/sample.trec corpora/bible/sample.trec) ;;
    web) P=("$page_a" "$page_b") ;;
    empty) P=(inputs/empty.txt inputs/oneline.txt) ;;
    oneline) P=(inputs/oneline.txt inputs/oneline.txt) ;;
  esac
}
single() {  # the single documents
  case "$1" in
    clough) P=(corpora/clough/g0pA_taskb.txt) ;;
    bible) P=(--doc KJV-01-001 corpora/bible/sample.trec) ;;
    web) P=("$page_b") ;;
    empty) P=(inputs/empty.txt) ;;
    oneline) P=(inputs/oneline.txt) ;;
  esac
}

# compare: every method and `all`, paper and robust mode, with and without --containment, text
# and JSON, on five pairs.
for input in clough bible web empty oneline; do
  pair "$input"
  for method in "${all_methods[@]}" all; do
    for mode in paper robust; do
      for cont in "" 0.6; do
        for format in txt json; do
          flags=(--method "$method")
          [ "$mode" = robust ] && flags+=(--mode robust)
          [ -n "$cont" ] && flags+=(--containment "$cont")
          [ "$format" = json ] && flags+=(--json)
          c "compare/$input/$method-$mode${cont:+-c$cont}.$format" -- compare "${flags[@]}" "${P[@]}"
        done
      done
    done
  done
done
pair clough
c compare/clough/slst-match-key-length.txt -- compare --match-key length "${P[@]}"
c compare/clough/slst-match-key-length.json -- compare --match-key length --json "${P[@]}"
c compare/clough/slst-settings.json -- compare --json --min-block 3 --max-length 20 --leading-terms 3 --stopwords none --threshold 0.1 "${P[@]}"
c compare/clough/shingle-min-crc32.json -- compare --json --method shingle --sketch min --hash crc32 --measure containment "${P[@]}"
c compare/clough/all-threshold.txt -- compare --method all --threshold 0.2 "${P[@]}"
c compare/clough/robust-settings.json -- compare --json --mode robust --term-similarity 0.3 --anchor-terms 0 --no-clauses --stem "${P[@]}"
c compare/web/all-preset-8-12.json -- compare --method all --json --preset 8-12 "$page_a" "$page_b"

# profile: text and JSON on five documents.
for input in clough bible web empty oneline; do
  single "$input"
  c "profile/$input.txt" -- profile "${P[@]}"
  c "profile/$input.json" -- profile --json "${P[@]}"
done
c profile/clough-settings.json -- profile --json --stopwords none --max-length 20 --leading-terms 3 corpora/clough/g0pA_taskb.txt

# sketch: every method (and SL+ST's robust mode), text and JSON, on three documents; JSON on the
# empty file.
for input in clough bible web; do
  single "$input"
  for method in "${all_methods[@]}"; do
    c "sketch/$input/$method.txt" -- sketch --method "$method" "${P[@]}"
    c "sketch/$input/$method.json" -- sketch --method "$method" --json "${P[@]}"
  done
  c "sketch/$input/slst-robust.txt" -- sketch --method slst --mode robust "${P[@]}"
  c "sketch/$input/slst-robust.json" -- sketch --method slst --mode robust --json "${P[@]}"
done
for method in "${all_methods[@]}"; do
  c "sketch/empty/$method.json" -- sketch --method "$method" --json inputs/empty.txt
done
c sketch/clough/shingle-mod-crc32.txt -- sketch --method shingle --sketch mod --hash crc32 corpora/clough/g0pA_taskb.txt
c sketch/clough/shingle-min.json -- sketch --method shingle --sketch min --sketch-size 20 --json corpora/clough/g0pA_taskb.txt

# blocks: a web page's structural-semantic blocks.
c blocks/page.txt -- blocks "$page_b"
c blocks/page.json -- blocks --json "$page_b"
c blocks/page-8-12.txt -- blocks --preset 8-12 "$page_b"
c blocks/page-2-4.json -- blocks --preset 2-4 --json --excerpt 30 "$page_a"
c blocks/python-copy.txt -- blocks --preset 8-12 corpora/web-fixtures/python-3.11/library/copy.html

# batch on Reuters-21578 (title + body).
R=("${reuters[@]}" "${sgml[@]}" "${title_body[@]}")
files=(--out @O@/pairs.jsonl --clusters @O@/clusters.tsv --summary @O@/summary.json)
c batch/reuters/slst-q --needs reuters21578 -- batch "${R[@]}" -q
c batch/reuters/slst --needs reuters21578 -- batch "${R[@]}"
c batch/reuters/slst-files --needs reuters21578 -- batch "${R[@]}" -q "${files[@]}"
c batch/reuters/slst-blocks --needs reuters21578 -- batch "${R[@]}" -q --blocks
c batch/reuters/slst-tsv --needs reuters21578 -- batch "${R[@]}" -q --out-format tsv
c batch/reuters/slst-csv --needs reuters21578 -- batch "${R[@]}" -q --out-format csv --out @O@/pairs.csv
c batch/reuters/slst-containment --needs reuters21578 -- batch "${R[@]}" -q --containment 0.8 --summary @O@/summary.json
c batch/reuters/slst-threshold --needs reuters21578 -- batch "${R[@]}" -q --threshold 0.3
c batch/reuters/slst-threads-1 --needs reuters21578 -- batch "${R[@]}" -q --threads 1
c batch/reuters/robust-q --needs reuters21578 -- batch "${R[@]}" -q --mode robust
c batch/reuters/robust --needs reuters21578 -- batch "${R[@]}" --mode robust
c batch/reuters/robust-files --needs reuters21578 -- batch "${R[@]}" -q --mode robust --blocks "${files[@]}"
c batch/reuters/robust-containment --needs reuters21578 -- batch "${R[@]}" -q --mode robust --containment 0.8
for method in shingle megashingle md5 sentlen; do
  c "batch/reuters/$method-q" --needs reuters21578 -- batch "${R[@]}" -q --method "$method"
  c "batch/reuters/$method-files" --needs reuters21578 -- batch "${R[@]}" -q --method "$method" "${files[@]}"
done
c batch/reuters/shingle --needs reuters21578 -- batch "${R[@]}" --method shingle
c batch/reuters/shingle-blocks --needs reuters21578 -- batch "${R[@]}" -q --method shingle --blocks
c batch/reuters/megashingle-blocks --needs reuters21578 -- batch "${R[@]}" -q --method megashingle --blocks
c batch/reuters/md5-tsv --needs reuters21578 -- batch "${R[@]}" -q --method md5 --out-format tsv
c batch/reuters/shingle-containment --needs reuters21578 -- batch "${R[@]}" -q --method shingle --containment 0.8
# A small subset (reut2-000.sgm, 1,000 documents) for --candidates all and the costly methods.
R0=("${r000[@]}" "${sgml[@]}" "${title_body[@]}")
c batch/reuters-000/slst-index --needs reuters21578 -- batch "${R0[@]}" -q
c batch/reuters-000/slst-all --needs reuters21578 -- batch "${R0[@]}" -q --candidates all --summary @O@/summary.json
c batch/reuters-000/slst-all-containment --needs reuters21578 -- batch "${R0[@]}" -q --candidates all --containment 0.8
c batch/reuters-000/robust-all --needs reuters21578 -- batch "${R0[@]}" -q --mode robust --candidates all
c batch/reuters-000/shingle-all --needs reuters21578 -- batch "${R0[@]}" -q --method shingle --candidates all
for method in polyhash spotsigs slst-flat blocks-md5 blocks-shingle; do
  c "batch/reuters-000/$method" --needs reuters21578 -- batch "${R0[@]}" -q --method "$method"
done
c batch/reuters-000/spotsigs-summary --needs reuters21578 -- batch "${R0[@]}" --method spotsigs --blocks

# batch on the three Bible versions (3,234 chapters).
c batch/bible/slst-q -- batch "${bible[@]}" -q
c batch/bible/slst -- batch "${bible[@]}" --summary @O@/summary.json --clusters @O@/clusters.tsv
c batch/bible/slst-threshold-blocks -- batch "${bible[@]}" -q --threshold 0.3 --blocks
c batch/bible/robust-q -- batch "${bible[@]}" -q --mode robust
c batch/bible/robust -- batch "${bible[@]}" --mode robust --blocks --summary @O@/summary.json
for method in shingle megashingle md5 sentlen; do
  c "batch/bible/$method-q" -- batch "${bible[@]}" -q --method "$method"
done
c batch/bible/shingle -- batch "${bible[@]}" --method shingle --summary @O@/summary.json
c batch/bible/spotsigs-q --slow -- batch "${bible[@]}" -q --method spotsigs

# batch on the Clough & Stevenson answers (mixed encodings): every method.
for method in "${all_methods[@]}"; do
  c "batch/clough/$method-q" -- batch "$clough" -q --method "$method" --summary @O@/summary.json --clusters @O@/clusters.tsv
done
c batch/clough/slst -- batch "$clough"
c batch/clough/robust-q -- batch "$clough" -q --mode robust
c batch/clough/robust -- batch "$clough" --mode robust --summary @O@/summary.json
c batch/clough/slst-containment -- batch "$clough" -q --containment 0.6 --blocks
c batch/clough/robust-containment -- batch "$clough" -q --mode robust --containment 0.6 --blocks
c batch/clough/shingle-blocks -- batch "$clough" -q --method shingle --blocks --out-format tsv
c batch/clough/polyhash-csv -- batch "$clough" -q --method polyhash --out-format csv
c batch/clough/specialchars -- batch "$clough" --method specialchars

# batch on the web sets, with and without --drop-boilerplate.
for set in versions mirror; do
  src="corpora/web-$set/pages"
  for method in slst slst-flat blocks-md5 blocks-shingle specialchars blocks-specialchars md5 shingle; do
    c "batch/web-$set/$method-q" -- batch "$src" -q --method "$method" --summary @O@/summary.json
    c "batch/web-$set/$method-drop-q" -- batch "$src" -q --method "$method" --drop-boilerplate --summary @O@/summary.json
  done
  c "batch/web-$set/slst-drop" -- batch "$src" --drop-boilerplate --blocks
  c "batch/web-$set/blocks-md5-8-12" -- batch "$src" --method blocks-md5 --preset 8-12 --blocks
  c "batch/web-$set/specialchars-drop" -- batch "$src" --method specialchars --drop-boilerplate --boilerplate-pages 5
done

# batch on mini-newsgroups (mail bodies).
c batch/newsgroups/slst-q --needs mini-newsgroups -- batch "$news" -q --mail-body
c batch/newsgroups/robust --needs mini-newsgroups -- batch "$news" --mail-body --mode robust --containment 0.6

# eval, as scripts/evaluate.sh runs it (JSON and plots), SL+ST's robust mode as --method slst
# --mode robust, and the text tables.
ev() {  # ev NAME [c options] -- EVAL ARGS: the JSON with plots, and the robust mode
  local name="$1"; shift
  local opts=()
  while [ "$1" != -- ]; do opts+=("$1"); shift; done
  shift
  c "eval/$name/json" "${opts[@]}" -- eval "$@" --method "${ONLY:-$M}" --json --plots @O@/plots --title "$name"
  c "eval/$name/robust-json" "${opts[@]}" ${ROBUST_SLOW:+--slow} -- eval "$@" --method slst --mode robust --json --plots @O@/plots --title "$name"
}
ROBUST_SLOW=1 ev bible-light -- "${bible[0]}" "${bible[1]}" \
  --truth corpora/truth/bible-pairs.tsv --positive light --ignore corpora/truth/bible-ignore.tsv
ev bible-light-heavy --slow -- "${bible[@]}" \
  --truth corpora/truth/bible-pairs.tsv --positive light,heavy --ignore corpora/truth/bible-ignore.tsv
for set in cut-light cut-light-heavy; do
  case "$set" in cut-light) pos=cut,light ;; *) pos=cut,light,heavy ;; esac
  ev "clough-$set" -- "$clough" --universe listed --truth corpora/truth/clough-pairs.tsv --positive "$pos"
  c "eval/clough-$set/txt" -- eval "$clough" --universe listed --truth corpora/truth/clough-pairs.tsv --positive "$pos" --method "$M"
  c "eval/clough-$set/robust-txt" -- eval "$clough" --universe listed --truth corpora/truth/clough-pairs.tsv --positive "$pos" --method slst --mode robust
done
c eval/clough-cut-light/sweep-txt -- eval "$clough" --universe listed --truth corpora/truth/clough-pairs.tsv --positive cut,light --method "$M" --sweep
c eval/clough-cut-light/all-txt -- eval "$clough" --universe listed --truth corpora/truth/clough-pairs.tsv --positive cut,light --method all
c eval/clough-cut-light/all-json -- eval "$clough" --universe listed --truth corpora/truth/clough-pairs.tsv --positive cut,light --method all --json
c eval/clough-cut-light/containment-all-universe-txt -- eval "$clough" --truth corpora/truth/clough-pairs.tsv --positive cut,light --method "$M" --score containment --plots @O@/plots
ev newsgroups-crossposts --needs mini-newsgroups -- "$news" --mail-body \
  --truth corpora/truth/newsgroups-pairs.tsv --positive crosspost --ignore corpora/truth/newsgroups-unquoted.tsv
c eval/newsgroups-crossposts/txt --needs mini-newsgroups -- eval "$news" --mail-body \
  --truth corpora/truth/newsgroups-pairs.tsv --positive crosspost --ignore corpora/truth/newsgroups-unquoted.tsv --method "$M"
ev newsgroups-quotes --needs mini-newsgroups -- "$news" --mail-body --score containment \
  --truth corpora/truth/newsgroups-pairs.tsv --positive crosspost,quote --ignore corpora/truth/newsgroups-unquoted.tsv
c eval/newsgroups-quotes/txt --needs mini-newsgroups -- eval "$news" --mail-body --score containment \
  --truth corpora/truth/newsgroups-pairs.tsv --positive crosspost,quote --ignore corpora/truth/newsgroups-unquoted.tsv --method "$M"
ONLY=slst,shingle,megashingle,md5 ev reuters-exact --slow --needs reuters21578 -- "${reuters[@]}" "${sgml[@]}" \
  --text-tags BODY --truth corpora/truth/reuters-exact.tsv --truth-format clusters
c eval/reuters-exact/txt --slow --needs reuters21578 -- eval "${reuters[@]}" "${sgml[@]}" \
  --text-tags BODY --truth corpora/truth/reuters-exact.tsv --truth-format clusters --method slst,shingle,megashingle,md5

# sample and synth: the AP90-S-like Reuters subset rebuilt from its manifest, planted
# near-duplicates (as scripts/evaluate.sh makes reuters-s-synthetic), and small seeded runs.
c sample/reuters-s-rebuild --needs reuters21578 -- sample --rebuild results/reuters-s.manifest.json --out @O@/reuters-s.trec
kinds=last-paragraph,every-nth,delete,insert,reorder,substitute,paste,boilerplate
c synth/reuters-s --needs reuters21578 -- synth o/sample/reuters-s-rebuild/reuters-s.trec --docs 150 --seed 1 \
  --out @O@/reuters-s-synth.trec --truth @O@/reuters-s-synth.truth.tsv
ev reuters-s-synthetic --needs reuters21578 -- o/synth/reuters-s/reuters-s-synth.trec \
  --truth o/synth/reuters-s/reuters-s-synth.truth.tsv --positive "$kinds"
c synth/kjv -- synth "${bible[0]}" --docs 40 --seed 1 --out @O@/synth.trec --truth @O@/truth.tsv --log @O@/edits.jsonl
c synth/kjv-kinds -- synth "${bible[0]}" --docs 16 --seed 7 --kinds delete:0.3,paste,substitute:0.2 \
  --word-rate 0.5 --min-sentences 10 -q --out @O@/synth.trec --truth @O@/truth.tsv --log @O@/edits.jsonl
c eval/synth-kjv/json -- eval o/synth/kjv/synth.trec --truth o/synth/kjv/truth.tsv --positive "$kinds" --method "$M" --json
c eval/synth-kjv/robust-txt -- eval o/synth/kjv/synth.trec --truth o/synth/kjv/truth.tsv --positive "$kinds" --method slst --mode robust --sweep
c sample/kjv -- sample "${bible[0]}" --queries 2 --top 20 --seed 1 --out @O@/subset.trec --manifest @O@/manifest.json
c sample/kjv-ids-plain -- sample "${bible[0]}" --query-ids KJV-01-001,KJV-66-022 --top 10 --analyzer plain -q \
  --out @O@/subset.trec --manifest @O@/manifest.json
c sample/kjv-rebuild -- sample --rebuild o/sample/kjv/manifest.json --out @O@/again.trec

# eval on the web sets, as scripts/evaluate_web.sh runs it: every preset, with and without
# --drop-boilerplate; the text tables at the default preset.
for set in versions versions-with-identical mirror; do
  case "$set" in
    versions) src=$wv; truth=(--truth corpora/truth/web-versions-pairs.tsv --positive light,heavy --ignore corpora/truth/web-versions-identical.tsv) ;;
    versions-with-identical) src=$wv; truth=(--truth corpora/truth/web-versions-pairs.tsv --positive identical,light,heavy) ;;
    mirror) src=$wm; truth=(--truth corpora/truth/web-mirror-pairs.tsv --positive mirror) ;;
  esac
  for preset in 2-4 3-7 8-12; do
    c "eval/web-$set/preset-$preset.json" -- eval "$src" "${truth[0]}" "${truth[1]}" --method "$W" --json --preset "$preset" "${truth[@]:2}"
    c "eval/web-$set/preset-$preset-drop-boilerplate.json" -- eval "$src" "${truth[0]}" "${truth[1]}" --method "$W" --json --preset "$preset" --drop-boilerplate "${truth[@]:2}"
  done
  c "eval/web-$set/txt" -- eval "$src" "${truth[@]}" --method "$W"
  c "eval/web-$set/drop-boilerplate.txt" -- eval "$src" "${truth[@]}" --method "$W" --drop-boilerplate
done

# index and query: SL+ST, shingles and megashingles over Reuters (reut2-000.sgm) and the Clough
# answers; the index is dumped as SQL when created, after the last add and after a removal.
for method in slst shingle megashingle; do
  db="state/$method.db"
  c "index/$method/create" --db "$db" -- index create "$db" --method "$method"
  c "index/$method/add-reuters" --needs reuters21578 -- index add "$db" "${R0[@]}" -q
  c "index/$method/add-clough" -- index add "$db" "$clough" --batch-size 30
  c "index/$method/add-clough-no-replace" -- index add "$db" corpora/clough --no-replace
  c "index/$method/add-clough-replace" --db "$db" -- index add "$db" corpora/clough
  c "index/$method/stats.txt" -- index stats "$db"
  c "index/$method/stats.json" -- index stats --json "$db"
  c "index/$method/check.txt" -- index check "$db"
  c "index/$method/check.json" -- index check --json "$db"
  c "query/$method/clough.txt" -- query "$db" "$clough"
  c "query/$method/clough.json" -- query "$db" "$clough" --json
  c "query/$method/clough-top-1.json" -- query "$db" "$clough" --json --top 1
  c "query/$method/clough-threshold.txt" -- query "$db" "$clough" --threshold 0.3
  c "query/$method/clough-containment.json" -- query "$db" "$clough" --json --containment 0.5
  c "query/$method/clough-containment.txt" -- query "$db" corpora/clough/g0pA_taskb.txt --containment 0.5 --top 2
  c "query/$method/clough-timings" -- query "$db" corpora/clough --timings @O@/timings.tsv
  c "query/$method/reuters.json" --needs reuters21578 -- query "$db" "${R0[@]}" --json
  c "query/$method/reuters-top-3.txt" --needs reuters21578 -- query "$db" "${R0[@]}" --top 3
  c "index/$method/remove" --db "$db" -- index remove "$db" g0pA_taska.txt g0pA_taskb.txt no-such-id
  c "index/$method/check-after-remove.txt" -- index check "$db"
  c "index/$method/stats-after-remove.json" -- index stats --json "$db"
done
c index/slst-settings/create --db state/slst-settings.db -- index create state/slst-settings.db --threshold 0.3 --min-block 3 --max-length 20 --stopwords none
c index/slst-settings/add --db state/slst-settings.db -- index add state/slst-settings.db "$clough" -q
c query/slst-settings/clough.json -- query state/slst-settings.db corpora/clough --json
c index/shingle-settings/create --db state/shingle-settings.db -- index create state/shingle-settings.db --method shingle --sketch min --sketch-size 50 --shingle-threshold 0.2
c index/shingle-settings/add --db state/shingle-settings.db -- index add state/shingle-settings.db "$clough" -q
c query/shingle-settings/clough.txt -- query state/shingle-settings.db corpora/clough

# errors: stderr and exit code.
pair clough
c error/compare-missing-file -- compare inputs/no-such-file.txt corpora/clough/orig_taskb.txt
c error/compare-directory -- compare corpora/clough corpora/clough/orig_taskb.txt
c error/compare-binary -- compare inputs/binary.bin corpora/clough/orig_taskb.txt
c error/compare-threshold -- compare --threshold 1.5 "${P[@]}"
c error/compare-threshold-shingle -- compare --method shingle --threshold 1.5 "${P[@]}"
c error/compare-containment -- compare --containment 1.5 "${P[@]}"
c error/compare-unknown-method -- compare --method no-such-method "${P[@]}"
c error/compare-slst-robust-name -- compare --method slst-robust "${P[@]}"
c error/compare-unknown-mode -- compare --mode fast "${P[@]}"
c error/compare-truncated-gzip -- compare --doc-a KJV-01-001 --doc-b KJV-01-001 inputs/truncated.trec.gz corpora/bible/sample.trec
c error/compare-missing-docno -- compare --doc-a NO-SUCH-DOC --doc-b KJV-01-001 corpora/bible/sample.trec corpora/bible/sample.trec
c error/compare-malformed-sgml -- compare inputs/bad.trec corpora/clough/orig_taskb.txt
c error/compare-one-argument -- compare corpora/clough/orig_taskb.txt
c error/compare-max-bytes -- compare --max-bytes 100 "${P[@]}"
c error/compare-bad-stopwords -- compare --stopwords inputs/no-such-list.txt "${P[@]}"
c error/compare-cp1252 -- compare inputs/mixed/d-cp1252.txt inputs/oneline.txt
c error/profile-missing-file -- profile inputs/no-such-file.txt
c error/profile-binary -- profile inputs/binary.bin
c error/profile-truncated-gzip -- profile --doc KJV-01-001 inputs/truncated.trec.gz
c error/profile-max-length -- profile --max-length 99 corpora/clough/orig_taskb.txt
c error/sketch-unknown-method -- sketch --method no-such-method corpora/clough/orig_taskb.txt
c error/sketch-directory -- sketch --method shingle corpora/clough
c error/blocks-missing-file -- blocks inputs/no-such-file.html
c error/batch-threshold -- batch "$clough" -q --threshold 1.5
c error/batch-containment -- batch "$clough" -q --containment 1.5
c error/batch-unknown-method -- batch "$clough" -q --method no-such-method
c error/batch-missing-file -- batch inputs/no-such-file.txt corpora/clough/orig_taskb.txt
c error/batch-mixed-folder -- batch inputs/mixed --summary @O@/summary.json
c error/batch-mixed-folder-shingle -- batch inputs/mixed --method shingle --summary @O@/summary.json
c error/batch-truncated-gzip -- batch inputs/truncated.trec.gz
c error/batch-binary-file -- batch inputs/binary.bin
c error/eval-unknown-method -- eval "$clough" --truth corpora/truth/clough-pairs.tsv --method no-such-method
c error/eval-missing-truth -- eval "$clough" --truth inputs/no-such-truth.tsv
c error/eval-binary-truth -- eval "$clough" --truth inputs/binary.bin
c error/index-create-unknown-method -- index create state/polyhash.db --method polyhash
c error/index-create-megashingle-threshold -- index create state/mega-threshold.db --method megashingle --threshold 0.5
c error/index-check-not-an-index -- index check inputs/oneline.txt
c error/index-stats-missing -- index stats state/no-such-index.db
c error/query-missing-index -- query state/no-such-index.db corpora/clough/orig_taskb.txt
c error/synth-unknown-kind -- synth "${bible[0]}" --docs 4 --kinds no-such-kind --out @O@/s.trec --truth @O@/t.tsv
c error/sample-rebuild-missing -- sample --rebuild inputs/no-such-manifest.json --out @O@/x.trec

# --- the report --------------------------------------------------------------------------------

if [ "$list" = 1 ]; then
  echo "$total commands" >&2
  exit 0
fi
seconds="$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')"
say ""
say "per kind (commands, different):"
for kind in $(printf '%s\n' "${!kind_total[@]}" | sort); do
  say "$(printf '  %-8s %4d  %4d' "$kind" "${kind_total[$kind]}" "${kind_diff[$kind]:-0}")"
done
say "$total commands: $n_same same, $n_diff different; $skipped_quick skipped (--quick), $skipped_missing skipped (corpus missing); $seconds s"
if [ "$n_diff" -gt 0 ]; then
  say "different:"
  for name in "${different[@]}"; do say "  $name  ($out/diffs/$name.diff)"; done
  exit 1
fi
exit 0
