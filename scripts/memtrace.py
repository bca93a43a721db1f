#!/usr/bin/env python3
"""Run a command and sample the resident memory of its whole process tree over time.

Usage: memtrace.py OUT.tsv [--interval 0.1] -- COMMAND [ARG...]

Writes "seconds<TAB>rss_mb" rows (RSS summed over the command and all its descendants, from
/proc/PID/status VmRSS) every interval, and exits with the command's exit status. Wrap
`/usr/bin/time -v` inside it to get both the exact peak and the timeline:

    memtrace.py rss.tsv -- /usr/bin/time -v -o time.txt slst batch ...

With --stages SUMMARY.json (slst batch's --summary) given to `memtrace.py --report`, prints the
peak RSS within each stage window, taking the stages as back to back from the start:

    memtrace.py --report rss.tsv SUMMARY.json
"""
import json
import os
import subprocess
import sys
import time


def tree(pid):
    out, stack = [], [pid]
    while stack:
        p = stack.pop()
        out.append(p)
        try:
            with open(f"/proc/{p}/task/{p}/children") as f:
                stack.extend(int(c) for c in f.read().split())
        except OSError:
            pass
    return out


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def trace(out, interval, cmd):
    start = time.monotonic()
    proc = subprocess.Popen(cmd)
    with open(out, "w") as f:
        f.write("seconds\trss_mb\n")
        while proc.poll() is None:
            kb = sum(rss_kb(p) for p in tree(proc.pid))
            f.write(f"{time.monotonic() - start:.2f}\t{kb / 1024:.1f}\n")
            f.flush()
            time.sleep(interval)
    return proc.returncode


def report(trace_path, summary_path):
    rows = [tuple(map(float, l.split("\t"))) for l in open(trace_path).read().splitlines()[1:] if l]
    stages = json.load(open(summary_path))["seconds"]
    t = 0.0
    windows = []
    for name in ("sketch", "candidates", "verify"):
        windows.append((name, t, t + stages[name]))
        t += stages[name]
    windows.append(("output (pairs, clusters, summary)", t, float("inf")))
    print("| stage | from s | to s | peak RSS MB in window |")
    print("|---|---|---|---|")
    for name, a, b in windows:
        peak = max((r for s, r in rows if a <= s < b), default=0.0)
        end = f"{b:.1f}" if b != float("inf") else "end"
        print(f"| {name} | {a:.1f} | {end} | {peak:.0f} |")


def main(argv):
    if len(argv) == 4 and argv[1] == "--report":
        report(argv[2], argv[3])
        return 0
    if "--" not in argv or len(argv) < 4:
        sys.exit(__doc__)
    sep = argv.index("--")
    opts, cmd = argv[1:sep], argv[sep + 1:]
    out, interval = opts[0], 0.1
    if len(opts) == 3 and opts[1] == "--interval":
        interval = float(opts[2])
    return trace(out, interval, cmd)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
