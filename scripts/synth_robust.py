#!/usr/bin/env python3
"""Held-out check of the robust mode on planted near-duplicates, one edit kind at a time.

    scripts/synth_robust.py [SHARED_CORPORA] [--out results/tuning] [--flags "EVAL FLAGS"]

No `slst synth` set was used to choose the robust mode's parameters (they were chosen on half A
of the Bible and Clough sets), so every kind here is held out. For each kind, `slst synth` plants
one variant of each of 150 Reuters-21578 documents (seed 7, TITLE + BODY), and `slst eval`
scores paper mode, the robust mode and 4-word shingles over all pairs: best F1 over the
threshold sweep, and the robust mode's own decision, alone and with reuse at any length
(`--min-shared-words 40`, the N chosen on PAN 2013, results/shared-passages/). Writes
OUT/synth.json.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tune_robust import BIN, ROOT, evaluate  # noqa: E402
KINDS = ["last-paragraph", "every-nth", "delete", "insert", "reorder", "substitute", "paste",
         "boilerplate", "figures"]
# Reuse at any length: the N chosen on PAN 2013's tune half (results/shared-passages/README.md).
MIN_SHARED_WORDS = 40


def decision(method):
    """The method's own decision as the eval JSON gives it: precision, recall and the counts."""
    return {k: method["decision"][k] for k in ("precision", "recall", "f1", "tp", "fp")}


def main():
    argv = sys.argv[1:]
    # Positional arguments: not a flag, nor the value of --out.
    args = [a for k, a in enumerate(argv)
            if not a.startswith("--") and (k == 0 or argv[k - 1] not in ("--out", "--flags"))]
    shared = args[0] if args else os.path.join(ROOT, "..", "shared", "corpora")
    out = os.path.join(ROOT, "results", "tuning")
    if "--out" in sys.argv:
        out = sys.argv[sys.argv.index("--out") + 1]
    # Extra eval flags, e.g. --flags "--window 0" to measure one robust setting.
    flags = sys.argv[sys.argv.index("--flags") + 1].split() if "--flags" in sys.argv else []
    reuters = sorted(glob.glob(os.path.join(shared, "reuters21578", "reut2-*.sgm")))[:3]
    sgml = ["--format", "sgml", "--doc-tag", "REUTERS", "--id-attr", "NEWID",
            "--text-tags", "TITLE,BODY"]
    result = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind in KINDS:
            corpus, truth = os.path.join(tmp, f"{kind}.trec"), os.path.join(tmp, f"{kind}.tsv")
            subprocess.run([BIN, "synth", *reuters, *sgml, "--docs", "150", "--seed", "7",
                            "--kinds", kind, "--out", corpus, "--truth", truth],
                           check=True, capture_output=True)
            r = evaluate([corpus, "--truth", truth, "--positive", kind], "slst,slst-robust,shingle",
                         flags)
            result[kind] = {name: {k: m["best"][k] for k in ("f1", "precision", "recall", "threshold")}
                            for name, m in r.items()}
            passage = evaluate([corpus, "--truth", truth, "--positive", kind], "slst-robust",
                               flags + ["--min-shared-words", str(MIN_SHARED_WORDS)])
            result[kind]["decision"] = {
                "slst-robust": decision(r["slst-robust"]),
                f"slst-robust, passages sharing {MIN_SHARED_WORDS} words": decision(passage["slst-robust"]),
            }
            print(kind, {m: round(v["f1"], 3) for m, v in result[kind].items() if "f1" in v},
                  {m: (round(v["precision"], 3), round(v["recall"], 3))
                   for m, v in result[kind]["decision"].items()}, file=sys.stderr)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "synth.json"), "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
