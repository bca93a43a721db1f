#!/usr/bin/env python3
"""Reuse at any length on PAN 2013's text-alignment set: `slst batch --min-shared-words N`.

    scripts/pan_shared_passages.py SLST PAN_DIR OUT_DIR [N ...]   (default N: 20 30 40 60 80)

PAN_DIR is the no-obfuscation half A (susp/, src/, cases.tsv). For each N, runs

    SLST batch PAN_DIR/susp PAN_DIR/src --min-shared-words N --out OUT_DIR/pairs-N.jsonl

(the default rule beside the criterion) and, on each half of the suspicious documents — *tune*:
even positions in sorted order, *report*: odd positions, as scripts/ablation_alignment.sh splits
them — counts the suspicious–source pairs of cases.tsv reported (recall) and the other pairs
reported (a pair belongs to the half of its suspicious document, or of both; a pair of two
suspicious documents from different halves counts in neither). Also, for the run at the first
N, the same counts for `--containment 0.05` alone. Writes OUT_DIR/recall.tsv and prints it.

    scripts/pan_shared_passages.py --sample OUT_DIR/pairs-N.jsonl PAN_DIR K SEED

prints K of the pairs that are not in cases.tsv, drawn with random.Random(SEED), each with its
longest passage's text on both sides, as markdown for reading.
"""
import csv
import json
import os
import random
import subprocess
import sys


def truth_pairs(pan):
    with open(os.path.join(pan, "cases.tsv"), encoding="utf-8") as f:
        return {(r["susp"], r["src"]) for r in csv.DictReader(f, delimiter="\t")}


def halves(pan):
    susp = sorted(os.listdir(os.path.join(pan, "susp")))
    return {name: ("tune" if i % 2 == 0 else "report") for i, name in enumerate(susp)}


def half_of(pair, half):
    sides = {half[x] for x in pair if x in half}
    return sides.pop() if len(sides) == 1 else None


def counts(path, truth, half):
    """Per half: (truth pairs found, truth pairs, other pairs reported)."""
    reported = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            a, b = r["a"], r["b"]
            reported.add((a, b) if a.startswith("susp") else (b, a))
    out = {}
    for h in ("tune", "report"):
        mine = {p for p in truth if half[p[0]] == h}
        found = len(mine & reported)
        others = sum(1 for p in reported - truth if half_of(p, half) == h)
        out[h] = (found, len(mine), others)
    return out


def run(slst, pan, out_dir, ns):
    truth, half = truth_pairs(pan), halves(pan)
    rows = []
    runs = [(f"--min-shared-words {n}", ["--min-shared-words", str(n)], f"pairs-{n}.jsonl") for n in ns]
    runs.append(("--containment 0.05", ["--containment", "0.05"], "pairs-containment-0.05.jsonl"))
    for label, flags, name in runs:
        path = os.path.join(out_dir, name)
        subprocess.run([slst, "batch", os.path.join(pan, "susp"), os.path.join(pan, "src"),
                        "-qq", "--out", path, *flags], check=True)
        c = counts(path, truth, half)
        for h in ("tune", "report"):
            found, total, others = c[h]
            rows.append((label, h, found, total, f"{found / total:.4f}", others))
    with open(os.path.join(out_dir, "recall.tsv"), "w", encoding="utf-8") as f:
        f.write("run\thalf\tfound\ttruth_pairs\trecall\tother_pairs\n")
        for row in rows:
            f.write("\t".join(map(str, row)) + "\n")
    with open(os.path.join(out_dir, "recall.tsv"), encoding="utf-8") as f:
        print(f.read(), end="")


def sample(path, pan, k, seed):
    truth = truth_pairs(pan)

    def text(doc):
        folder = "susp" if doc.startswith("susp") else "src"
        with open(os.path.join(pan, folder, doc), "rb") as f:
            return f.read()

    others = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if (r["a"], r["b"]) not in truth and (r["b"], r["a"]) not in truth:
                others.append(r)
    picked = random.Random(seed).sample(others, k)
    print(f"{k} of the {len(others)} reported pairs not in cases.tsv (seed {seed}).\n")
    for i, r in enumerate(picked, 1):
        ta, tb = text(r["a"]), text(r["b"])
        p = max(r["passages"], key=lambda p: p["a_span"][1] - p["a_span"][0])
        show = lambda t, s: " ".join(t[s[0]:s[1]].decode("utf-8", "replace").split())
        print(f"### {i}. {r['a']} – {r['b']}\n")
        print(f"decided_by `{r['decided_by']}`, J {r['resemblance']:.3f}, "
              f"{len(r['passages'])} passage(s); the longest (similarity {p['similarity']:.3f}):\n")
        print(f"- a {p['a_span']}: {show(ta, p['a_span'])}")
        print(f"- b {p['b_span']}: {show(tb, p['b_span'])}\n")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--sample":
        sample(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    elif len(sys.argv) >= 4:
        run(sys.argv[1], sys.argv[2], sys.argv[3], [int(n) for n in sys.argv[4:]] or [20, 30, 40, 60, 80])
    else:
        sys.exit(__doc__)
