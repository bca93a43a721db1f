#!/usr/bin/env python3
"""Turn the JSON outputs of `slst eval` (one file per labelled set) into results/RESULTS.md."""
import json
import os
import subprocess
import sys

folder = sys.argv[1]
sets = sorted(f[:-5] for f in os.listdir(folder) if f.endswith(".json"))
rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
print("# Results\n")
print(f"Made by `scripts/evaluate.sh` at commit `{rev}`. Best pairwise F1 over the thresholds "
      "0.05, 0.10, …, 1.00 for each method on each labelled set; θ is the best threshold, P and R "
      "precision and recall there, χ² Pearson's chi-square of the 2×2 table there, time the seconds "
      "to sketch, find candidates and compare (one run, a shared 2-core machine). Plots: "
      "`results/plots/<set>/`.\n")
loaded = {}
for name in sets:
    with open(os.path.join(folder, name + ".json")) as f:
        loaded[name] = json.load(f)
methods = []
for data in loaded.values():
    for m in data["methods"]:
        if m["method"] not in methods:
            methods.append(m["method"])
print("## Best F1, set by method\n")
print("| set | " + " | ".join(methods) + " |")
print("|---|" + "---|" * len(methods))
for name in sets:
    best = {m["method"]: m["best"]["f1"] for m in loaded[name]["methods"]}
    top = max(best.values())
    cells = []
    for method in methods:
        if method not in best:
            cells.append("—")
        else:
            cell = f"{best[method]:.3f}"
            cells.append(f"**{cell}**" if best[method] == top else cell)
    print(f"| {name} | " + " | ".join(cells) + " |")
print("\n(— : not run on that set; bold: the best.)\n")
for name in sets:
    data = loaded[name]
    s = data["set"]
    print(f"## {name}\n")
    print(f"{s['documents']} documents, {s['universe']:,} pairs in the universe ({data['universe']}), "
          f"{s['positives']} positive, score: {data['score']}"
          + (f", {s['ignored']} pairs ignored" if s["ignored"] else "") + ".\n")
    print("| method | best F1 | θ | P | R | TP | FP | FN | χ² | compared | seconds |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for m in data["methods"]:
        b = m["best"]
        print(f"| {m['method']} | {b['f1']:.3f} | {b['threshold']:.2f} | {b['precision']:.3f} | "
              f"{b['recall']:.3f} | {b['tp']} | {b['fp']} | {b['fn_']} | {m['chi_square']:.0f} | "
              f"{m['pairs_compared']:,} | {m['seconds']:.2f} |")
    print()
