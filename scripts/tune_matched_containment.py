#!/usr/bin/env python3
"""Choose `--matched-containment-from` (robust mode) on half A; report it on half B.

    scripts/tune_matched_containment.py [--out results/tuning/matched-containment.md]

The setting lets two documents of at least K kept sentences each, at J >= theta, meet the figure
and term conditions over the sentences they share instead of their whole texts (0: never). It
is meant for edited copies, whose added or replaced sentences bring figures and words of their
own; the risk is a template whose other figures sit in sentences no block holds.

Two sets, as `scripts/bench_peers.sh` makes them (bench-results/data/):
- the synthetic 20k corpus: recall of the planted near-duplicates, split into halves A and B by
  a hash of the pair's ids, and the share of reported pairs explained by a planted copy
  (`in_planted`, the precision proxy `scripts/peers/compare_pairs.py` prints);
- Reuters-21578: the pairs each K adds to K = 0 (the decision before the setting), with the
  verdict where a judged sample holds the pair (results/judged-pairs/, halves A and B as drawn).
K is chosen so that the decision stays as precise on Reuters-21578 as before: the smallest K
that adds no Reuters pair (on the uniform judged sample the default's precision is 0.872, and
every pair the smaller values add that a judged sample or a reading of the list below holds is
a template: another day's, party's or week's notice). Synthetic recall is reported per half.
"""
import argparse
import csv
import hashlib
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BIN = os.path.join(ROOT, "target", "release", "slst")
DATA = os.path.join(ROOT, "bench-results", "data")
JUDGED = [
    os.path.join(ROOT, "results", "judged-pairs", "reuters", "verdicts.tsv"),
    os.path.join(ROOT, "results", "judged-pairs", "reuters-default", "verdicts.tsv"),
]
VALUES = [0, 3, 4, 5, 6, 8, 10]


def pairs_of(path):
    with open(path, encoding="utf-8") as f:
        return {tuple(sorted((r["a"], r["b"]))) for r in csv.DictReader(f, delimiter="\t")}


def run(corpus, k, out):
    subprocess.run(
        [BIN, "batch", corpus, "--format", "jsonl", "--out", out, "--out-format", "tsv", "-qq",
         "--matched-containment-from", str(k)],
        check=True,
    )
    return pairs_of(out)


def half(a, b):
    return "A" if hashlib.sha256(f"{a}\t{b}".encode()).digest()[0] % 2 == 0 else "B"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "tuning", "matched-containment.md"))
    args = ap.parse_args()
    syn, reu = os.path.join(DATA, "syn-20000.jsonl"), os.path.join(DATA, "reuters21578.jsonl")
    truth_path = os.path.join(DATA, "syn-20000.truth.tsv")
    for p in (BIN, syn, reu, truth_path):
        if not os.path.exists(p):
            sys.exit(f"missing {p}: run cargo build --release and scripts/bench_peers.sh first")
    with open(truth_path, encoding="utf-8") as f:
        planted = [tuple(sorted((r["a"], r["b"]))) for r in csv.DictReader(f, delimiter="\t")]
    parent = {}

    def root(x):
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for a, b in planted:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[ra] = rb
    verdicts = {}
    for path in JUDGED:
        with open(path, encoding="utf-8") as f:
            for r in csv.DictReader(f, delimiter="\t"):
                verdicts[tuple(sorted((r["a"], r["b"])))] = f"{r['verdict']}/{r['half']}"
    titles = {}
    with open(reu, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            titles[d["id"]] = d["text"].split("\n", 1)[0][:60]
    rows, added_by_k = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        base = None
        for k in VALUES:
            s = run(syn, k, os.path.join(tmp, "s.tsv"))
            r = run(reu, k, os.path.join(tmp, "r.tsv"))
            if base is None:
                base = r
            rec = {"all": sum(p in s for p in planted) / len(planted)}
            for h in "AB":
                want = [p for p in planted if half(*p) == h]
                rec[h] = sum(p in s for p in want) / len(want)
            in_planted = sum(root(a) == root(b) for a, b in s) / len(s)
            added = sorted(r - base)
            added_by_k[k] = added
            judged_no_a = sum(verdicts.get(p) == "no/A" for p in added)
            rows.append((k, rec["all"], rec["A"], rec["B"], len(s), in_planted, len(r), len(added), judged_no_a))
    lines = [
        "# `--matched-containment-from` (robust mode)",
        "",
        f"`python3 scripts/tune_matched_containment.py` (binary: `{os.path.relpath(BIN, ROOT)}`).",
        "",
        "| K | synthetic recall | half A | half B | synthetic pairs | in_planted | Reuters pairs | added to K = 0 | judged `no` (half A) among them |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for k, rall, ra, rb, ns, ip, nr, na, no_a in rows:
        lines.append(f"| {k} | {rall:.3f} | {ra:.3f} | {rb:.3f} | {ns} | {ip:.4f} | {nr} | {na} | {no_a} |")
    lines += ["", "Reuters-21578 pairs each K adds (verdict where a judged sample holds the pair):", ""]
    for k in VALUES[1:]:
        lines.append(f"- K = {k}: {len(added_by_k[k])} pairs")
        for a, b in added_by_k[k]:
            lines.append(f"  - {a} / {b} ({verdicts.get((a, b), 'not judged')}): "
                         f"{titles[a]} | {titles[b]}")
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    tmp_out = args.out + ".partial"
    with open(tmp_out, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp_out, args.out)
    print(text)


if __name__ == "__main__":
    main()
