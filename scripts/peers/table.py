#!/usr/bin/env python3
"""Side-by-side table of a benchmark run from its `/usr/bin/time -v` outputs.

Usage: table.py RUN_DIR [BASE_TOOL]

Reads RUN_DIR/timev/<corpus>__<tool>__<repetition>.txt (written by bench_peers.sh and
bench_scale.sh) and prints, per corpus, one Markdown row per tool: the median over repetitions of
wall time, CPU time (user + system) and peak RSS, and their ratios to BASE_TOOL's (default "slst"). A tool whose runs failed (non-zero exit status) is
listed as failed. Where slst's runs left summaries (RUN_DIR/out/<corpus>__<tool>__<rep>.summary.json
with `cpu_seconds`), a second table gives their CPU time per stage (the run of median CPU time),
beside the whole process's.
"""
import json
import os
import re
import statistics
import sys
from collections import defaultdict


def parse_timev(path):
    text = open(path, encoding="utf-8", errors="replace").read()

    def field(name):
        m = re.search(r"^\s*" + re.escape(name) + r":\s*(.+)$", text, re.M)
        return m.group(1).strip() if m else None

    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    secs = 0.0
    for part in wall.split(":") if wall else []:
        secs = secs * 60 + float(part)
    status = field("Exit status")
    return {
        "wall": secs,
        "cpu": float(field("User time (seconds)") or 0) + float(field("System time (seconds)") or 0),
        "rss_mb": int(field("Maximum resident set size (kbytes)") or 0) / 1024,
        "ok": wall is not None and (status is None or status == "0") and "Command exited with non-zero" not in text,
    }


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    run, base = argv[1], argv[2] if len(argv) > 2 else "slst"
    runs = defaultdict(lambda: defaultdict(list))
    order = defaultdict(list)
    for name in sorted(os.listdir(os.path.join(run, "timev"))):
        m = re.match(r"(.+?)__(.+?)__(\d+)\.txt$", name)
        if not m:
            continue
        corpus, tool, rep = m.groups()
        runs[corpus][tool].append(dict(parse_timev(os.path.join(run, "timev", name)), rep=rep))
        if tool not in order[corpus]:
            order[corpus].append(tool)
    for corpus in runs:
        med = {}
        for tool, rs in runs[corpus].items():
            good = [r for r in rs if r["ok"]]
            if good:
                med[tool] = {k: statistics.median(r[k] for r in good) for k in ("wall", "cpu", "rss_mb")}
                med[tool]["n"] = len(good)
                med[tool]["failed"] = len(rs) - len(good)
        print(f"\n### {corpus}\n")
        print(f"| tool | runs | wall s (median) | CPU s | peak RSS MB | wall / {base} | CPU / {base} | RSS / {base} |")
        print("|---|---|---|---|---|---|---|---|")
        b = med.get(base)
        tools = sorted(order[corpus], key=lambda t: (t != base, med.get(t, {}).get("wall", 1e9)))
        for tool in tools:
            if tool not in med:
                print(f"| {tool} | 0 | failed | | | | | |")
                continue
            m = med[tool]
            runs_txt = f"{m['n']}" + (f" (+{m['failed']} failed)" if m["failed"] else "")
            def ratio(k):
                return f"{m[k] / b[k]:.1f}×" if b and b[k] > 0 else "–"

            ratio_t, ratio_c, ratio_m = ratio("wall"), ratio("cpu"), ratio("rss_mb")
            print(f"| {tool} | {runs_txt} | {m['wall']:.2f} | {m['cpu']:.2f} | {m['rss_mb']:.0f} | {ratio_t} | {ratio_c} | {ratio_m} |")
        stage_table(run, corpus, {t: runs[corpus][t] for t in tools if t in med})


def stage_table(run, corpus, runs):
    """slst's CPU seconds per stage from its summaries, the run of median CPU time per tool
    (`runs`: each tool's parsed runs)."""
    rows = []
    for tool, rs in runs.items():
        sums = []
        for r in rs:
            p = os.path.join(run, "out", f"{corpus}__{tool}__{r['rep']}.summary.json")
            cpu = json.load(open(p)).get("cpu_seconds") if os.path.exists(p) else None
            if r["ok"] and cpu:
                sums.append((r["cpu"], cpu))
        if sums:
            sums.sort(key=lambda x: x[0])
            rows.append((tool, len(sums)) + sums[len(sums) // 2])
    if not rows:
        return
    print()
    print("slst's CPU seconds per stage (its summary's `cpu_seconds`, the run of median CPU time;"
          " the process's CPU also counts start-up and writing):")
    print()
    print("| tool | runs | reading and sketching | candidates | scoring | process |")
    print("|---|---|---|---|---|---|")
    for tool, n, total, cpu in rows:
        print(f"| {tool} | {n} | {cpu['sketch']:.2f} | {cpu['candidates']:.2f} | {cpu['verify']:.2f} | {total:.2f} |")


if __name__ == "__main__":
    main(sys.argv)
