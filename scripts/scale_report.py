#!/usr/bin/env python3
"""The tables of a scale run (scripts/bench_scale.sh) from its records.

Usage: scale_report.py RUN_DIR

Reads RUN_DIR/timev/<corpus>-<N>__{slst,floor}__<rep>.txt (/usr/bin/time -v),
RUN_DIR/out/<corpus>-<N>__slst__<rep>.summary.json (slst batch --summary) and
RUN_DIR/rss/<corpus>-<N>__slst__<rep>.tsv (memtrace.py timelines), <corpus> being realistic or
stress (syn in runs made before the realistic corpus), and prints Markdown:
1. per size: medians of slst and floor wall time, CPU time and peak RSS, and slst / floor;
2. per size: what slst found (documents, sentences, candidate pairs, pairs) and its stage times;
3. per size: peak RSS within each stage (from the timeline of the median run).
"""
import json
import os
import re
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "peers"))
from table import parse_timev  # noqa: E402


def main(run):
    timev = defaultdict(lambda: defaultdict(dict))
    corpus = {}  # size -> file name prefix
    for name in os.listdir(os.path.join(run, "timev")):
        m = re.match(r"(syn|realistic|stress)-(\d+)__(slst|floor)__(\d+)\.txt$", name)
        if m:
            corpus[int(m.group(2))] = m.group(1)
            timev[int(m.group(2))][m.group(3)][int(m.group(4))] = parse_timev(os.path.join(run, "timev", name))
    sizes = sorted(timev)

    def med(size, tool, key):
        vals = [r[key] for r in timev[size][tool].values() if r["ok"]]
        return statistics.median(vals) if vals else None

    print("| documents | runs | slst wall s | floor wall s | slst / floor (wall) | slst CPU s | floor CPU s |"
          " slst / floor (CPU) | slst peak RSS MB | RSS per 1k docs MB | slst wall per 1k docs s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n in sizes:
        sw, fw = med(n, "slst", "wall"), med(n, "floor", "wall")
        sc, fc = med(n, "slst", "cpu"), med(n, "floor", "cpu")
        rss = med(n, "slst", "rss_mb")
        runs = len([r for r in timev[n]["slst"].values() if r["ok"]])
        failed = len(timev[n]["slst"]) - runs
        if sw is None:
            print(f"| {n:,} | 0 (+{failed} failed) | failed | | | | | | | | |")
            continue
        ratio_w = f"{sw / fw:.2f}×" if fw else "–"
        ratio_c = f"{sc / fc:.2f}×" if fc else "–"
        print(f"| {n:,} | {runs}{f' (+{failed} failed)' if failed else ''} | {sw:.2f} | {fw or 0:.2f} | {ratio_w} |"
              f" {sc:.2f} | {fc or 0:.2f} | {ratio_c} | {rss:.0f} | {rss / n * 1000:.1f} | {sw / n * 1000:.4f} |")

    print()
    print("| documents | sentences kept | exact-dup groups | boilerplate runs excluded | candidate pairs |"
          " pairs reported | sketch s | candidates s | verify s | output etc. s (wall − stages) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    medians = {}
    for n in sizes:
        sums = {}
        for rep in timev[n]["slst"]:
            p = os.path.join(run, "out", f"{corpus[n]}-{n}__slst__{rep}.summary.json")
            if os.path.exists(p) and timev[n]["slst"][rep]["ok"]:
                sums[rep] = json.load(open(p))
        if not sums:
            continue
        walls = sorted(sums, key=lambda r: timev[n]["slst"][r]["wall"])
        rep = walls[len(walls) // 2]
        medians[n] = rep
        s = sums[rep]
        sec = s["seconds"]
        rest = timev[n]["slst"][rep]["wall"] - sum(sec.values())
        print(f"| {n:,} | {s['sentences']:,} | {s['exact_duplicate_groups']:,} | {s['boilerplate_runs_excluded']:,} |"
              f" {s['candidate_pairs']:,} | {s['pairs_reported']:,} | {sec['sketch']:.2f} | {sec['candidates']:.2f} |"
              f" {sec['verify']:.2f} | {rest:.2f} |")

    print()
    print("Peak RSS (MB) within each stage, median run, stages taken back to back from process start")
    print("(sampled every 0.25 s: – = stage shorter than a sample):")
    print()
    print("| documents | sketch | candidates | verify | output |")
    print("|---|---|---|---|---|")
    for n, rep in medians.items():
        tl = os.path.join(run, "rss", f"{corpus[n]}-{n}__slst__{rep}.tsv")
        if not os.path.exists(tl):
            continue
        rows = [tuple(map(float, l.split("\t"))) for l in open(tl).read().splitlines()[1:] if l]
        sec = json.load(open(os.path.join(run, "out", f"{corpus[n]}-{n}__slst__{rep}.summary.json")))["seconds"]
        edges = [0.0, sec["sketch"], sec["sketch"] + sec["candidates"], sum(sec.values()), float("inf")]
        peaks = [max((r for t, r in rows if a <= t < b), default=None) for a, b in zip(edges, edges[1:])]
        print(f"| {n:,} | " + " | ".join("–" if p is None else f"{p:.0f}" for p in peaks) + " |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
