#!/usr/bin/env python3
"""Compare the pair sets of several tools, and score them against planted pairs if given.

Usage: compare_pairs.py [--truth TRUTH.tsv] NAME=PAIRS.tsv ...

A pairs file has "a<TAB>b[<TAB>...]" per line (a header line starting with "a<TAB>" is skipped);
pairs are unordered. The first NAME is the reference the others are compared with.
With --truth (make_synthetic.py's TSV), each tool also gets:
  recall        planted pairs found / planted pairs,
  recall by bin the same over planted pairs by their sentence-level resemblance r
                (1 = exact copies; [0.9, 1), [0.7, 0.9), [0.5, 0.7), under 0.5),
  in_planted    share of its pairs whose two documents are in one connected component of the
                planted-pair graph (copies of copies count), i.e. explained by a planted copy.
Prints a Markdown table.
"""
import sys


def load(path):
    pairs = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip() or line.startswith("a\t"):
                continue
            a, b = line.rstrip("\n").split("\t")[:2]
            pairs.add((a, b) if a < b else (b, a))
    return pairs


def main(argv):
    truth_path = None
    if len(argv) > 2 and argv[1] == "--truth":
        truth_path, argv = argv[2], argv[2:]
    tools = [arg.split("=", 1) for arg in argv[1:]]
    if not tools:
        sys.exit(__doc__)
    sets = {name: load(path) for name, path in tools}
    ref_name = tools[0][0]
    ref = sets[ref_name]
    planted, parent = set(), {}
    bins = [("exact", lambda k, r: k == "exact"), ("r>=0.9", lambda k, r: k != "exact" and r >= 0.9),
            ("0.7-0.9", lambda k, r: 0.7 <= r < 0.9), ("0.5-0.7", lambda k, r: 0.5 <= r < 0.7),
            ("r<0.5", lambda k, r: r < 0.5)]
    in_bin = {name: set() for name, _ in bins}

    def find(x):
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    if truth_path:
        with open(truth_path, encoding="utf-8") as f:
            for line in f:
                if line.startswith("a\t"):
                    continue
                a, b, kind, res = line.rstrip("\n").split("\t")[:4]
                p = (a, b) if a < b else (b, a)
                planted.add(p)
                for name, test in bins:
                    if test(kind, float(res)):
                        in_bin[name].add(p)
                parent[find(a)] = find(b)
    head = ["tool", "pairs", f"also in {ref_name}", f"not in {ref_name}", f"{ref_name} pairs missed"]
    if truth_path:
        head += [f"recall ({len(planted)} planted)"]
        head += [f"{name} ({len(in_bin[name])})" for name, _ in bins]
        head += ["in_planted"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for name, _ in tools:
        s = sets[name]
        row = [name, len(s), len(s & ref), len(s - ref), len(ref - s)]
        if truth_path:
            explained = sum(1 for a, b in s if a in parent and b in parent and find(a) == find(b))
            row += [f"{len(s & planted) / max(1, len(planted)):.3f}"]
            row += [f"{len(s & in_bin[n]) / max(1, len(in_bin[n])):.3f}" for n, _ in bins]
            row += [f"{explained / max(1, len(s)):.3f}"]
        print("| " + " | ".join(str(x) for x in row) + " |")


if __name__ == "__main__":
    main(sys.argv)
