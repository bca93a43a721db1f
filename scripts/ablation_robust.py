#!/usr/bin/env python3
"""Ablation of the robust mode: which change bought how much best-F1, on both halves.

    scripts/ablation_robust.py [--out results/tuning]      (after scripts/tune_robust.py)

The first six rows add one change each, up to the chosen defaults; the next three take one
change back from the defaults (taking back the anchor rule is the row before the defaults); the
last adds stemming (an option, off by default). Best F1 on half A (where parameters were chosen)
and half B (held out) of the four labelled sets; paper mode is the first row. Writes
OUT/ablation.json.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tune_robust import ROOT, evaluate, robust_flags, sets  # noqa: E402

# (label, flags or None for paper mode): (δ, τ, single_min_terms, single_similarity, clauses,
# stem, anchor_terms); anchor_terms 0 = exact term-set matching.
ROWS = [
    ("paper: equal length and 2 leading terms", None),
    ("term-set Jaccard ≥ 0.5 instead of leading terms, length ±4", (4, 0.5, 0, 1.0, False, False, 0)),
    ("+ single long sentence blocks (≥ 4 terms, Jaccard ≥ 0.5)", (4, 0.5, 4, 0.5, False, False, 0)),
    ("+ clauses: also cut at ; and :", (4, 0.5, 4, 0.5, True, False, 0)),
    ("+ τ = 0.4 and single blocks at Jaccard ≥ 0.4", (4, 0.4, 4, 0.4, True, False, 0)),
    ("+ anchor rule: share one of the 5 longest terms (the chosen defaults)",
     (4, 0.4, 4, 0.4, True, False, 5)),
    ("defaults, but no length check (δ = 35)", (35, 0.4, 4, 0.4, True, False, 5)),
    ("defaults, but no single blocks", (4, 0.4, 0, 1.0, True, False, 5)),
    ("defaults, but no clauses", (4, 0.4, 4, 0.4, False, False, 5)),
    ("defaults + stemmed terms (--stem)", (4, 0.4, 4, 0.4, True, True, 5)),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "tuning"))
    a = ap.parse_args()
    out = []
    for label, p in ROWS:
        row = {"change": label, "params": p, "A": {}, "B": {}}
        for half in ("A", "B"):
            for name, args in sets(half):
                if p is None:
                    r = evaluate(args, "slst")["slst"]
                else:
                    r = evaluate(args, "slst-robust", robust_flags(p))["slst-robust"]
                row[half][name] = r["best"]["f1"]
        print(label, row["A"], row["B"], file=sys.stderr)
        out.append(row)
    with open(os.path.join(a.out, "ablation.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
