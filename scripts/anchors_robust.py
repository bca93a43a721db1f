#!/usr/bin/env python3
"""Choose the robust mode's anchor count k on half A; measure what each k costs and saves.

    scripts/anchors_robust.py [--ks 0,3,4,5,6] [--repeat 3] [--out results/tuning]
                              [--corpora ../shared/corpora]

The anchor rule (matching sentences also share one of their k longest terms; `--anchor-terms`)
trades keys for a stricter predicate. At the parameters scripts/tune_robust.py chose
(OUT/chosen.json), this runs `slst eval` for every k on half A, half B and the full sets, and
keeps the smallest k whose half-A mean best-F1 is within 0.001 of exact matching (k = 0): the
rule is there for speed, so it may cost no more accuracy than that on the tuning half. Then it
times `slst batch` on Reuters-21578 for every k, interleaved with paper mode (median of
`--repeat` runs; wall and CPU seconds, peak memory, candidates and pairs reported).
Output: OUT/anchors.json.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tune_robust import BIN, ROOT, evaluate, robust_flags, sets  # noqa: E402

DATA = os.path.join(ROOT, "bench-results", "data", "reuters21578.jsonl")


def timed(args):
    """Wall and CPU seconds of one run of the binary (without /usr/bin/time: no peak memory)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([BIN, *args], check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def batch_run(mode_flags, work, name):
    summary = os.path.join(work, f"{name}-summary.json")
    out = os.path.join(work, f"{name}.jsonl")
    cmd = ["batch", DATA, "--format", "jsonl", *mode_flags, "--out", out, "--summary", summary,
           "-q"]
    if os.path.exists("/usr/bin/time"):
        t = time.perf_counter()
        r = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", BIN, *cmd], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - t
        _, user, system, peak = r.stderr.strip().splitlines()[-1].split()
        cpu, rss = float(user) + float(system), int(peak) / 1024
    else:
        wall, cpu = timed(cmd)
        rss = None
    s = json.load(open(summary))
    return {"wall": wall, "cpu": cpu, "rss_mb": rss, "candidates": s["candidate_pairs"],
            "compared": s["pairs_compared"], "reported": s["pairs_reported"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ks", default="0,3,4,5,6")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=os.path.join(ROOT, "results", "tuning"))
    ap.add_argument("--corpora", default=os.path.join(ROOT, "..", "shared", "corpora"))
    a = ap.parse_args()
    ks = [int(k) for k in a.ks.split(",")]
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "split_halves.py"),
                    os.path.join(ROOT, "bench-results", "split")],
                   check=True, stdout=subprocess.DEVNULL)
    chosen = json.load(open(os.path.join(a.out, "chosen.json")))["params"]
    base = (chosen["length_tolerance"], chosen["term_similarity"], chosen["single_min_terms"],
            chosen["single_similarity"], chosen["clauses"], chosen["stem"])
    f1 = {}
    for k in ks:
        f1[k] = {}
        for label, half in (("A", "A"), ("B", "B"), ("full", None)):
            for name, args in sets(half):
                r = evaluate(args, "slst-robust", robust_flags(base + (k,)))["slst-robust"]
                f1[k].setdefault(name, {})[label] = r["best"]["f1"]
        print(k, {n: {h: round(v, 3) for h, v in x.items()} for n, x in f1[k].items()},
              file=sys.stderr)
    mean_a = {k: statistics.mean(x["A"] for x in f1[k].values()) for k in ks}
    exact = mean_a.get(0)
    pick = None
    if exact is not None:
        within = [k for k in ks if k > 0 and mean_a[k] >= exact - 0.001]
        pick = min(within) if within else 0

    speed = None
    if not os.path.exists(DATA) and os.path.isdir(os.path.join(a.corpora, "reuters21578")):
        os.makedirs(os.path.dirname(DATA), exist_ok=True)
        with open(DATA, "w") as f:
            subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "peers",
                                                         "reuters_to_jsonl.py"),
                            os.path.join(a.corpora, "reuters21578")], check=True, stdout=f)
    if os.path.exists(DATA):
        work = os.path.join(ROOT, "bench-results", "anchors")
        os.makedirs(work, exist_ok=True)
        runs = {"paper": []} | {k: [] for k in ks}
        for _ in range(a.repeat):
            runs["paper"].append(batch_run(["--mode", "paper"], work, "paper"))
            for k in ks:
                runs[k].append(batch_run(["--mode", "robust", *robust_flags(base + (k,))], work,
                                         f"robust-{k}"))
        speed = {}
        for key, rs in runs.items():
            speed[str(key)] = {m: statistics.median(r[m] for r in rs)
                               for m in ("wall", "cpu", "rss_mb") if rs[0][m] is not None}
            speed[str(key)].update({m: rs[0][m] for m in ("candidates", "compared", "reported")})
        paper = speed["paper"]
        for k in ks:
            s = speed[str(k)]
            s["wall_ratio"] = s["wall"] / paper["wall"]
            s["cpu_ratio"] = s["cpu"] / paper["cpu"]
            print(f"k={k}: {s['wall']:.2f} s wall ({s['wall_ratio']:.1f}x paper), "
                  f"{s['candidates']} candidates, {s['reported']} pairs", file=sys.stderr)

    out = {"params": chosen, "rule": "smallest k > 0 whose half-A mean best-F1 is within 0.001 "
           "of k = 0 (exact matching)", "chosen": pick, "half_A_mean": mean_a, "f1": f1,
           "speed": speed, "repeat": a.repeat,
           "command": "scripts/anchors_robust.py --ks " + a.ks + f" --repeat {a.repeat}"}
    with open(os.path.join(a.out, "anchors.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print("chosen k:", pick, file=sys.stderr)


if __name__ == "__main__":
    main()
