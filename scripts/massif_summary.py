#!/usr/bin/env python3
"""Where the heap is at its peak, from a valgrind massif output file, by slst function.

Usage: massif_summary.py massif.out [SNAPSHOT]

Takes the peak snapshot (or SNAPSHOT) and attributes every allocation to the first frame of
its stack that names an slst function (slst::...), after the allocator and std/alloc/core/rayon
frames; the frame just below it (what it called: Vec growth, Box<str>, String, ...) is shown
too. Prints a Markdown table of bytes and shares, largest first.
"""
import re
import sys
from collections import defaultdict

NODE = re.compile(r"^( *)n(\d+): (\d+) (.*)$")


def frame_name(loc):
    m = re.match(r"0x[0-9A-Fa-f]+: (.*?)(?: \(in .*\)| \(.*:\d+\))?$", loc)
    return m.group(1) if m else loc


def main(path, want=None):
    snaps, cur = [], None
    lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("snapshot="):
            cur = {"n": int(line.split("=")[1]), "tree": None}
            snaps.append(cur)
        elif cur is not None and line.startswith("heap_tree="):
            cur["kind"] = line.split("=")[1]
        elif cur is not None and line.startswith("mem_heap_B="):
            cur["heap"] = int(line.split("=")[1])
        elif cur is not None and line.startswith("mem_heap_extra_B="):
            cur["extra"] = int(line.split("=")[1])
        elif cur is not None and NODE.match(line) and cur.get("kind") in ("detailed", "peak"):
            nodes = []
            while i < len(lines) and NODE.match(lines[i]):
                m = NODE.match(lines[i])
                nodes.append((len(m.group(1)), int(m.group(3)), frame_name(m.group(4))))
                i += 1
            cur["tree"] = nodes
            continue
        i += 1
    pick = [s for s in snaps if s.get("tree") and (s["n"] == want if want is not None else s.get("kind") == "peak")]
    if not pick:
        sys.exit("no such detailed snapshot")
    snap = pick[0]
    # Walk the tree: attribute each leaf's bytes (nodes without children, or the remainder of a
    # node not covered by its children) to its path.
    totals = defaultdict(int)
    stack = []
    nodes = snap["tree"]
    for k, (depth, size, name) in enumerate(nodes):
        stack = stack[:depth]
        stack.append(name)
        child_sum = 0
        for d2, s2, _ in nodes[k + 1:]:
            if d2 <= depth:
                break
            if d2 == depth + 1:
                child_sum += s2
        own = size - child_sum
        if own <= 0 or depth == 0:
            continue
        path = stack[1:]
        owner = next((j for j, f in enumerate(path) if f.startswith("slst::") or "<slst::" in f), None)
        if owner is None:
            key = ("(no slst frame) " + (path[-1] if path else "?"), path[0] if path else "")
        else:
            key = (path[owner], path[owner - 1] if owner > 0 else "")
        totals[key] += own
    heap = snap["heap"]
    print(f"Snapshot {snap['n']} ({snap.get('kind')}): useful heap {heap / 2**20:.1f} MiB, "
          f"allocator overhead {snap.get('extra', 0) / 2**20:.1f} MiB.\n")
    print("| MiB | share of useful heap | slst function | via |")
    print("|---|---|---|---|")
    for (owner, via), b in sorted(totals.items(), key=lambda kv: -kv[1]):
        if b < heap * 0.002:
            continue
        print(f"| {b / 2**20:.1f} | {100 * b / heap:.1f} % | `{owner}` | `{via}` |")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else None)
