#!/usr/bin/env python3
"""Precision and recall of Reuters-21578 pair sets against the pairs judged by reading.

    python3 scripts/score_judged_pairs.py VERDICTS PEERS OUTPUT... [--half A|B|all]

VERDICTS: results/judged-pairs/reuters/verdicts.tsv (rule and sample: RULE.md beside it).
PEERS: a comma-separated list of the MinHash tools' pair files the sample was drawn with
(`a<TAB>b` per line): a pair any of them reports is in the `peer` stratum, any other pair in the
`slst-only` stratum. Each OUTPUT is NAME=PAIRS.tsv, a pair set to score (`slst batch
--out-format tsv`).

Precision is estimated per stratum and weighted by how many of the output's pairs fall in it
(a stratified estimate): for each stratum, the share of `yes` among the judged pairs of that
stratum the output reports, times the output's pairs in the stratum (`nan` when the output has
pairs in a stratum but none of them was judged; `judged kept` shows yes/judged per stratum, so a
thin stratum shows). Recall is the share of the judged `yes`
pairs of the peer stratum that the output reports (the target: of the pairs the MinHash tools
report, those a reader calls near-duplicates). `--half` keeps the judged pairs of one half only
(A: tune, B: report); the output's own counts are always over the whole corpus.

    python3 scripts/score_judged_pairs.py --sample VERDICTS SAMPLED OUTPUT...

With --sample, VERDICTS is a uniform sample of one output (draw_judged_pairs.py --from, e.g.
results/judged-pairs/reuters-default/verdicts.tsv) and SAMPLED (NAME=PAIRS.tsv) that output
made again: each OUTPUT's precision is the share of `yes` among the judged pairs it reports, per
half and over all. The judged pairs an output reports are a uniform sample of it only when it
lies inside SAMPLED (a stricter decision of it); the last column says whether it does.
"""
import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from draw_judged_pairs import read_pairs  # noqa: E402


def wilson(k, n, z=1.96):
    """The 95% Wilson score interval of k successes in n."""
    if n == 0:
        return float("nan"), float("nan")
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    w = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - w) / d, (c + w) / d


def sample_precision(argv):
    rows = [line.rstrip("\n").split("\t") for line in open(argv[0], encoding="utf-8")][1:]
    judged = [(tuple(sorted((r[1], r[2]), key=int)), r[4], r[5] == "yes") for r in rows]
    sampled_name, _, sampled_path = argv[1].partition("=")
    sampled = read_pairs(sampled_path)
    missing = sum(1 for p, _, _ in judged if p not in sampled)
    print(f"uniform sample of {len(judged)} pairs of `{sampled_name}` ({len(sampled)} pairs; "
          f"{missing} judged pairs missing from it): precision of each output on the judged "
          "pairs it reports (95% Wilson interval)")
    print("%-28s %7s %22s %22s %22s  %s" % ("output", "pairs", "half A", "half B", "all",
                                            "inside the sampled output"))
    for spec in argv[1:]:
        name, _, path = spec.partition("=")
        out = read_pairs(path)
        cells = []
        inside = "yes" if out <= sampled else f"no ({len(out - sampled)} pairs outside)"
        for h in ("A", "B", "AB"):
            kept = [y for p, half, y in judged if half in h and p in out]
            lo, hi = wilson(sum(kept), len(kept))
            share = sum(kept) / len(kept) if kept else float("nan")
            cells.append(f"{sum(kept)}/{len(kept)}={share:.3f} ({lo:.2f}-{hi:.2f})")
        if not out <= sampled:
            # Its pairs outside the sampled output were never drawn: no estimate.
            cells = ["—"] * 3
        print("%-28s %7d %22s %22s %22s  %s" % (name, len(out), *cells, inside))
    return 0


def main(argv):
    if argv and argv[0] == "--sample":
        return sample_precision(argv[1:])
    half, pos = "all", []
    it = iter(argv)
    for a in it:
        if a == "--half":
            half = next(it)
        else:
            pos.append(a)
    if len(pos) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    rows = [line.rstrip("\n").split("\t") for line in open(pos[0], encoding="utf-8")][1:]
    judged = [(tuple(sorted((r[1], r[2]), key=int)), r[3], r[5] == "yes") for r in rows
              if half == "all" or r[4] == half]
    peers = set().union(*(read_pairs(p) for p in pos[1].split(",")))
    print(f"judged pairs: {len(judged)} (half {half}); "
          f"yes in the peer stratum: {sum(1 for _, s, y in judged if s == 'peer' and y)}")
    print("%-28s %7s %7s %10s %10s %9s %13s" % ("output", "pairs", "peer", "slst-only",
                                              "precision", "recall", "judged kept"))
    for spec in pos[2:]:
        name, _, path = spec.partition("=")
        out = read_pairs(path)
        n_peer = len(out & peers)
        n_only = len(out) - n_peer
        est, parts = 0.0, []
        for stratum, n in (("peer", n_peer), ("slst-only", n_only)):
            kept = [y for p, s, y in judged if s == stratum and p in out]
            if kept:
                est += n * sum(kept) / len(kept)
            elif n:
                est = float("nan")
            parts.append(f"{sum(kept)}/{len(kept)}")
        precision = est / len(out) if out else float("nan")
        yes_peer = [p for p, s, y in judged if s == "peer" and y]
        recall = sum(1 for p in yes_peer if p in out) / len(yes_peer) if yes_peer else float("nan")
        print("%-28s %7d %7d %10d %10.3f %9.3f %13s" % (name, len(out), n_peer, n_only, precision,
                                                      recall, " ".join(parts)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
