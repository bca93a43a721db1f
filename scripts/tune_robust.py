#!/usr/bin/env python3
"""Choose the robust mode's parameters on half A of each labelled set; report them on half B.

    scripts/tune_robust.py [--grid small|full] [--out results/tuning]

Runs scripts/split_halves.py (halves by Bible chapter and by Clough task), then for every
parameter combination of the grid `slst eval --method slst --mode robust` on half A of the four sets
(Bible light; Bible light+heavy; Clough cut+light; Clough cut+light+heavy). The combination with
the highest mean best-F1 over the four half-A sets wins (ties: the earlier in the grid, which
lists stricter settings first). Only then are half B and the full sets evaluated, with the winner
and with paper mode and 4-word shingles beside it. Output: OUT/grid-A.tsv (every combination's
half-A figures) and OUT/chosen.json (the winner and its half-B and full figures).
"""
import argparse
import itertools
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BIN = os.path.join(ROOT, "target", "release", "slst")
SPLIT = os.path.join(ROOT, "bench-results", "split")
CLOUGH = os.path.join(ROOT, "corpora", "clough-short-answers", "corpus-20090418")
BIBLE = os.path.join(ROOT, "corpora", "bible-versions")
IGNORE = os.path.join(ROOT, "corpora", "truth", "bible-ignore.tsv")

def _dedup(grid):
    """The grid without repeats, first occurrence kept."""
    seen, out = set(), []
    for p in grid:
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out


GRIDS = {
    # (δ, τ, single_min_terms, single_similarity, clauses, stem); single_min_terms 0 = no
    # single blocks. Stricter settings first (ties go to the earlier); unstemmed first.
    "small": _dedup([
        (d, t, s, max(t1, t), c, st)
        for st in (False, True)
        for c in (False, True)
        for t in (0.5, 0.4, 0.3)
        for d in (4, 35)
        for (s, t1) in ((0, 1.0), (6, 0.6), (5, 0.5), (4, 0.5), (4, 0.4))
    ]),
}



def sets(half):
    """The four labelled sets on one half (A, B) or in full (None)."""
    if half is None:
        versions = [os.path.join(BIBLE, f"{v}.trec.gz") for v in ("kjv", "wbt", "web")]
        bible_truth = os.path.join(ROOT, "corpora", "truth", "bible-pairs.tsv")
        clough_truth = os.path.join(ROOT, "corpora", "truth", "clough-pairs.tsv")
    else:
        versions = [os.path.join(SPLIT, f"bible-{v}-{half}.trec") for v in ("kjv", "wbt", "web")]
        bible_truth = os.path.join(SPLIT, f"bible-pairs-{half}.tsv")
        clough_truth = os.path.join(SPLIT, f"clough-pairs-{half}.tsv")
    bible = ["--truth", bible_truth, "--ignore", IGNORE]
    clough = [CLOUGH, "--universe", "listed", "--truth", clough_truth]
    return [
        ("bible-light", versions[:2] + bible + ["--positive", "light"]),
        ("bible-light-heavy", versions + bible + ["--positive", "light,heavy"]),
        ("clough-cut-light", clough + ["--positive", "cut,light"]),
        ("clough-cut-light-heavy", clough + ["--positive", "cut,light,heavy"]),
    ]


def robust_flags(p):
    """Flags of (δ, τ, single_min_terms, single_similarity, clauses[, stem[, anchor_terms]])."""
    d, t, s, t1, c = p[:5]
    stem = p[5] if len(p) > 5 else False
    # The grid was searched with exact term-set matching (no anchor rule); the anchor count is
    # chosen after it, at the chosen parameters (scripts/anchors_robust.py).
    anchors = p[6] if len(p) > 6 else 0
    return ["--length-tolerance", str(d), "--term-similarity", str(t),
            "--single-min-terms", str(s), "--single-similarity", str(t1),
            "--clauses" if c else "--no-clauses", "--stem" if stem else "--no-stem",
            "--anchor-terms", str(anchors)]


# The key these scripts and their results give SL+ST's robust mode (slst eval runs it as
# `--method slst --mode robust` and reports it as method "slst" with mode "robust").
ROBUST = "slst-robust"


def result_key(m):
    """A method record of `slst eval --json` → its key in these scripts' results."""
    return ROBUST if m.get("mode") == "robust" else m["method"]


def eval_flags(methods):
    """A method list that may name ROBUST → the `--method` and `--mode` flags of slst eval."""
    names = methods.split(",")
    modes = [mode for name, mode in (("slst", "paper"), (ROBUST, "robust")) if name in names]
    if ROBUST in names:
        names[names.index(ROBUST)] = "slst"
    names = [n for i, n in enumerate(names) if n not in names[:i]]
    return ["--method", ",".join(names)] + (["--mode", ",".join(modes)] if modes else [])


def evaluate(args, methods, flags=()):
    out = subprocess.run([BIN, "eval", *args, *eval_flags(methods), "--json", *flags],
                         check=True, capture_output=True, text=True).stdout
    return {result_key(m): m for m in json.loads(out)["methods"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--grid", default="small", choices=sorted(GRIDS))
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "tuning"))
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "split_halves.py"), SPLIT],
                   check=True, stdout=subprocess.DEVNULL)
    os.makedirs(a.out, exist_ok=True)
    rows, best = [], None
    names = [n for n, _ in sets("A")]
    with open(os.path.join(a.out, "grid-A.tsv"), "w") as f:
        f.write("delta\ttau\tsingle_min_terms\tsingle_similarity\tclauses\tstem\t"
                + "\t".join(names) + "\tmean\n")
        for p in GRIDS[a.grid]:
            f1 = [evaluate(args, "slst-robust", robust_flags(p))["slst-robust"]["best"]["f1"]
                  for _, args in sets("A")]
            mean = sum(f1) / len(f1)
            f.write("\t".join(map(str, p)) + "\t" + "\t".join(f"{x:.4f}" for x in f1) + f"\t{mean:.4f}\n")
            f.flush()
            print(p, [round(x, 3) for x in f1], round(mean, 4), file=sys.stderr)
            if best is None or mean > best[1]:
                best = (p, mean)
    chosen = {"params": dict(zip(("length_tolerance", "term_similarity", "single_min_terms",
                                  "single_similarity", "clauses", "stem"), best[0])),
              "half_A_mean_f1": best[1], "sets": {}}
    for label, half in (("A", "A"), ("B", "B"), ("full", None)):
        for name, args in sets(half):
            r = evaluate(args, "slst,slst-robust,shingle", robust_flags(best[0]))
            chosen["sets"].setdefault(name, {})[label] = {
                m: {k: r[m]["best"][k] for k in ("f1", "threshold", "precision", "recall")}
                for m in r}
    with open(os.path.join(a.out, "chosen.json"), "w") as f:
        json.dump(chosen, f, indent=1)
        f.write("\n")
    print(json.dumps(chosen["params"]), file=sys.stderr)


if __name__ == "__main__":
    main()
