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
def key(m):
    """A method record's column: SL+ST's robust mode is `slst-robust` (method "slst" with
    mode "robust" in `slst eval --json`; older results named it so)."""
    return "slst-robust" if m.get("mode") == "robust" else m["method"]


methods = []
for data in loaded.values():
    for m in data["methods"]:
        if key(m) not in methods:
            methods.append(key(m))
if "slst-robust" in methods:
    # The robust mode beside the paper's.
    methods.remove("slst-robust")
    methods.insert(methods.index("slst") + 1 if "slst" in methods else 0, "slst-robust")
print("## Best F1, set by method\n")
print("| set | " + " | ".join(methods) + " |")
print("|---|" + "---|" * len(methods))
for name in sets:
    best = {key(m): m["best"]["f1"] for m in loaded[name]["methods"]}
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
        print(f"| {key(m)} | {b['f1']:.3f} | {b['threshold']:.2f} | {b['precision']:.3f} | "
              f"{b['recall']:.3f} | {b['tp']} | {b['fp']} | {b['fn_']} | {m['chi_square']:.0f} | "
              f"{m['pairs_compared']:,} | {m['seconds']:.2f} |")
    print()

tuning = os.path.join(os.path.dirname(os.path.abspath(folder)), "tuning")
chosen_path = os.path.join(tuning, "chosen.json")
if os.path.exists(chosen_path):
    with open(chosen_path) as f:
        chosen = json.load(f)
    p = chosen["params"]
    print("## Robust mode: chosen on half A, reported on half B\n")
    print("`scripts/tune_robust.py` splits each labelled set in two by group (Bible chapter, Clough "
          "task; `scripts/split_halves.py`), runs its grid on half A only and keeps the combination "
          "with the best mean best-F1 over the four half-A sets: "
          f"δ = {p['length_tolerance']}, τ = {p['term_similarity']}, single blocks of ≥ "
          f"{p['single_min_terms']} terms at Jaccard ≥ {p['single_similarity']}, "
          f"clauses {'on' if p.get('clauses') else 'off'}, "
          f"stemming {'on' if p.get('stem') else 'off'} (half-A mean "
          f"{chosen['half_A_mean_f1']:.3f}; every combination in `results/tuning/grid-A.tsv`). "
          "The grid matched term sets exactly; the anchor rule is chosen after it (next "
          "section). Best F1 (θ swept on each half separately), exact matching:\n")
    print("| set | half | slst (paper) | slst-robust | shingle | robust − shingle |")
    print("|---|---|---|---|---|---|")
    for name, halves in chosen["sets"].items():
        for half in ("A", "B", "full"):
            r = halves[half]
            d = r["slst-robust"]["f1"] - r["shingle"]["f1"]
            print(f"| {name} | {half} | {r['slst']['f1']:.3f} | {r['slst-robust']['f1']:.3f} | "
                  f"{r['shingle']['f1']:.3f} | {d:+.3f} |")
    print()
anchors_path = os.path.join(tuning, "anchors.json")
if os.path.exists(anchors_path):
    with open(anchors_path) as f:
        anchors = json.load(f)
    ks = list(anchors["f1"])
    names = list(anchors["f1"][ks[0]])
    speed = anchors.get("speed") or {}
    print("## Robust mode: the anchor rule\n")
    print("`scripts/anchors_robust.py`: at the parameters above, two matching sentences must also "
          "share one of their k longest terms (a single-pair block two of them; k = 0: exact "
          "term-set matching). Kept: the " + anchors["rule"]
          + (f" — k = {anchors['chosen']}. " if anchors["chosen"] is not None
             else " — not chosen (k = 0 was not run). ")
          + "Best F1 half A / half B / full; `slst batch` on Reuters-21578 (median of "
          f"{anchors['repeat']} runs, paper mode interleaved in the same run: "
          + (f"{speed['paper']['wall']:.2f} s wall, {speed['paper']['cpu']:.2f} s CPU, "
             f"{speed['paper']['reported']:,} pairs" if "paper" in speed else "not run")
          + "):\n")
    print("| k | half-A mean | " + " | ".join(names)
          + " | Reuters wall s (× paper) | CPU s (× paper) | peak MB | candidates | pairs |")
    print("|---|---|" + "---|" * len(names) + "---|---|---|---|---|")
    for k in ks:
        cells = [" / ".join(f"{anchors['f1'][k][n][h]:.3f}" for h in ("A", "B", "full"))
                 for n in names]
        s = speed.get(k)
        tail = (f"{s['wall']:.2f} ({s['wall_ratio']:.1f}×) | {s['cpu']:.2f} ({s['cpu_ratio']:.1f}×) | "
                f"{s.get('rss_mb', 0):.0f} | {s['candidates']:,} | {s['reported']:,}"
                if s else "— | — | — | — | —")
        print(f"| {k} | {anchors['half_A_mean'][k]:.4f} | " + " | ".join(cells) + f" | {tail} |")
    print()
ablation_path = os.path.join(tuning, "ablation.json")
if os.path.exists(ablation_path):
    with open(ablation_path) as f:
        rows = json.load(f)
    names = list(rows[0]["A"])
    print("## Robust mode: ablation\n")
    print("The first rows add one change each, up to the chosen defaults; the rows after take one "
          "change back from the defaults (`scripts/ablation_robust.py`). Best F1 on half A "
          "(tuning) / half B (held out).\n")
    print("| change | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for row in rows:
        cells = [f"{row['A'][n]:.3f} / {row['B'][n]:.3f}" for n in names]
        print(f"| {row['change']} | " + " | ".join(cells) + " |")
    print()
synth_path = os.path.join(tuning, "synth.json")
if os.path.exists(synth_path):
    with open(synth_path) as f:
        synth = json.load(f)
    print("## Robust mode: held-out edit kinds (`slst synth`)\n")
    print("`scripts/synth_robust.py`: one `slst synth` set per edit kind (150 Reuters-21578 "
          "documents, one planted variant each, seed 7; all pairs scored). No synthetic set was "
          "used to choose parameters. Best F1 (recall there):\n")
    print("| kind | slst (paper) | slst-robust | shingle |")
    print("|---|---|---|---|")
    for kind, r in synth.items():
        cells = [f"{r[m]['f1']:.3f} ({r[m]['recall']:.2f})" for m in ("slst", "slst-robust", "shingle")]
        print(f"| {kind} | " + " | ".join(cells) + " |")
    print()
    decisions = [k for k in next(iter(synth.values())).get("decision", {})]
    if decisions:
        print("The robust mode at its own decision (no threshold swept), alone and with reuse at "
              "any length (`--min-shared-words`, N chosen on PAN 2013): precision / recall "
              "(false positives).\n")
        print("| kind | " + " | ".join(decisions) + " |")
        print("|---|" + "---|" * len(decisions))
        for kind, r in synth.items():
            cells = [f"{d['precision']:.3f} / {d['recall']:.3f} ({d['fp']})"
                     for d in (r["decision"][k] for k in decisions)]
            print(f"| {kind} | " + " | ".join(cells) + " |")
        print()
