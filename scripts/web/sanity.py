#!/usr/bin/env python3
"""How hard are the web sets' labels? Text similarity of positives and negatives.

Usage (from the repository root):

  python3 scripts/web/sanity.py [--top N]

For each set (corpora/web-versions, corpora/web-mirror) every page's visible text is extracted
(scripts/web/webtext.py: all text outside script/style, the title kept) and compared as sets of
word 3-shingles (Jaccard). Printed, in Markdown:
- the positives (pairs of the truth file) with the lowest Jaccard, with their difflib ratio over
  the word sequences and their label;
- the negatives (every other pair of the set's pages: the `--universe all` of `slst eval`) with
  the highest Jaccard (every pair is computed);
- a summary: quantiles of Jaccard over positives and over negatives, and how many negatives score
  above the lowest positive.
Standard library only.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from webtext import diff_ratio, jaccard, read_html, shingles, visible_text, words  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
SETS = [
    ("web-versions", "corpora/web-versions/pages", "corpora/truth/web-versions-pairs.tsv"),
    ("web-mirror", "corpora/web-mirror/pages", "corpora/truth/web-mirror-pairs.tsv"),
]


def quantiles(xs: list[float]) -> str:
    xs = sorted(xs)
    if not xs:
        return "-"
    q = lambda f: xs[min(len(xs) - 1, int(f * (len(xs) - 1) + 0.5))]  # noqa: E731
    return f"min {xs[0]:.3f}, p10 {q(0.1):.3f}, median {q(0.5):.3f}, p90 {q(0.9):.3f}, max {xs[-1]:.3f}"


def report(name: str, folder: Path, truth: Path, top: int) -> None:
    ids = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    text = {i: visible_text(read_html(folder / i)) for i in ids}
    ws = {i: words(t) for i, t in text.items()}
    sh = {i: shingles(w) for i, w in ws.items()}
    labels = {}
    for line in truth.read_text(encoding="utf-8").splitlines()[1:]:
        a, b, label = line.split("\t")
        labels[tuple(sorted((a, b)))] = label
    missing = [p for p in labels for i in p if i not in text]
    if missing:
        sys.exit(f"{truth}: ids not found under {folder}: {missing[:3]}")
    # Every pair, exactly: shingles hashed to ints so that set operations stay fast.
    hs = [frozenset(hash(x) for x in sh[i]) for i in ids]
    pos = {p: jaccard(sh[p[0]], sh[p[1]]) for p in labels}
    neg = {}
    for x in range(len(ids)):
        for y in range(x + 1, len(ids)):
            p = (ids[x], ids[y])
            if p in labels:
                continue
            a, b = hs[x], hs[y]
            inter = len(a & b)
            union = len(a) + len(b) - inter
            neg[p] = inter / union if union else 1.0
    n_pairs = len(ids) * (len(ids) - 1) // 2
    lowest_pos = min(pos.values())
    above = sum(1 for v in neg.values() if v >= lowest_pos)
    print(f"## {name}\n")
    print(f"{len(ids)} pages, {n_pairs} pairs, {len(labels)} positive "
          f"({', '.join(f'{k} {v}' for k, v in sorted(count(labels).items()))}).\n")
    print(f"- positives, Jaccard of word 3-shingles: {quantiles(list(pos.values()))}")
    print(f"- negatives, all {len(neg)} other pairs: {quantiles(list(neg.values()))}")
    print(f"- negatives at or above the lowest positive ({lowest_pos:.3f}): {above}\n")
    print(f"Lowest positives:\n\n| Jaccard | diff ratio | label | pair |\n|---|---|---|---|")
    for p, v in sorted(pos.items(), key=lambda kv: kv[1])[:top]:
        r = diff_ratio(ws[p[0]], ws[p[1]])
        print(f"| {v:.3f} | {r:.3f} | {labels[p]} | {p[0]} — {p[1]} |")
    print(f"\nHighest negatives:\n\n| Jaccard | diff ratio | pair |\n|---|---|---|")
    for p, v in sorted(neg.items(), key=lambda kv: -kv[1])[:top]:
        r = diff_ratio(ws[p[0]], ws[p[1]])
        print(f"| {v:.3f} | {r:.3f} | {p[0]} — {p[1]} |")
    print()


def count(labels: dict) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in labels.values():
        out[v] = out.get(v, 0) + 1
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", type=int, default=10)
    args = ap.parse_args()
    for name, folder, truth in SETS:
        report(name, ROOT / folder, ROOT / truth, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
