#!/usr/bin/env bash
# How the default mode's join keys are shared as a corpus grows, on real news and on the
# realistic synthetic corpus side by side (examples/key_sharing.rs): for the first N documents of
# each, the witness keys per document and the document pairs sharing a key, per document. The
# join reads every key's holders, so that last figure is its work per document.
#
#   scripts/key_sharing.sh [--corpora DIR] [--name NAME] [--sizes "2500 5000 …"]
#
#   --corpora  the shared corpora (default ../shared/corpora)
#   --name     the record goes to scripts/runs/<date>-NAME (default: key-sharing)
#   --sizes    prefixes of the realistic corpus (default "2500 5000 10000 20000 100000");
#              Reuters-21578 is read at 2,500, 5,000, 10,000 and all 21,578 documents
#
# Corpora, made once into bench-results/data (ignored), as scripts/bench_peers.sh makes them:
# reuters21578.jsonl (scripts/peers/reuters_to_jsonl.py) and realistic-100000.jsonl
# (scripts/make_synthetic.py --kind realistic, seed 1; the first N documents of the
# 1,000,000-document corpus are the N-document one).
set -euo pipefail
cd "$(dirname "$0")/.."
CORPORA=../shared/corpora NAME=key-sharing SIZES="2500 5000 10000 20000 100000"
while [ $# -gt 0 ]; do
  case "$1" in
    --corpora) CORPORA=$2; shift 2 ;;
    --name) NAME=$2; shift 2 ;;
    --sizes) SIZES=$2; shift 2 ;;
    *) sed -n '2,17p' "$0"; exit 2 ;;
  esac
done
DATA=bench-results/data
REC=scripts/runs/$(date -u +%F)-$NAME
mkdir -p "$DATA" "$REC"
LARGEST=$(printf '%s\n' $SIZES | sort -n | tail -1)
REALISTIC=$DATA/realistic-$LARGEST.jsonl
[ -f "$DATA/reuters21578.jsonl" ] ||
  python3 scripts/peers/reuters_to_jsonl.py "$DATA/reuters21578.jsonl" "$CORPORA"/reuters21578/reut2-*.sgm
[ -f "$REALISTIC" ] ||
  python3 scripts/make_synthetic.py "$LARGEST" "$REALISTIC" "$DATA/realistic-$LARGEST.truth.tsv" \
    --seed 1 --kind realistic --corpora "$CORPORA"
cargo build --release -q --example key_sharing
BIN=target/release/examples/key_sharing
{
  echo "# $(basename "$REC"): how the default mode's join keys are shared as a corpus grows"
  echo
  echo "Command: \`scripts/key_sharing.sh --name $NAME --sizes \"$SIZES\"\` at git $(git rev-parse --short HEAD)."
  echo "Keys: robust SL+ST's witness keys at the default settings (examples/key_sharing.rs);"
  echo "pairs counted over the keys held by 2 to 1,000 documents (the default \`--max-df\`)."
  echo
  echo "## Reuters-21578 (all 22 files, as slst reads the SGML)"
  echo
  "$BIN" "$DATA/reuters21578.jsonl" --sizes 2500,5000,10000,21578
  echo
  echo "## Realistic synthetic corpus (the first N documents)"
  echo
  "$BIN" "$REALISTIC" --sizes "$(echo $SIZES | tr ' ' ',')"
} > "$REC/results.md"
cat "$REC/results.md"
echo "record in $REC (commit it)" >&2
