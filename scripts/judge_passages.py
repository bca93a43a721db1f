#!/usr/bin/env python3
"""Draw the sample of passages judged by reading (results/alignment/judged/RULE.md).

    scripts/judge_passages.py [SET] [--out results/alignment/judged/sample.md] [--n 30] [--seed 15]

Runs `slst compare --mode robust --json` (release build) on every document pair of SET's
cases.tsv (default ../shared/corpora/pan13-text-alignment-a), draws N of all the passages
reported, and writes them as Markdown: both spans cut out of the files by their byte offsets,
with a `verdict:` line per passage to fill in.
"""
import json
import os
import random
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BIN = os.path.join(ROOT, "target", "release", "slst")


def option(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def main():
    argv = sys.argv[1:]
    values = {"--out", "--n", "--seed"}
    args = [a for k, a in enumerate(argv)
            if not a.startswith("--") and (k == 0 or argv[k - 1] not in values)]
    set_dir = args[0] if args else os.path.join(ROOT, "..", "shared", "corpora",
                                                "pan13-text-alignment-a")
    out = option("--out", os.path.join(ROOT, "results", "alignment", "judged", "sample.md"))
    n, seed = int(option("--n", "30")), int(option("--seed", "15"))
    with open(os.path.join(set_dir, "cases.tsv"), encoding="utf-8") as f:
        pairs = sorted({tuple(line.split("\t")[:2]) for line in f.read().splitlines()[1:]})
    passages = []
    for susp, src in pairs:
        a, b = os.path.join(set_dir, "susp", susp), os.path.join(set_dir, "src", src)
        r = subprocess.run([BIN, "compare", a, b, "--mode", "robust", "--json"],
                           capture_output=True, text=True)
        if r.returncode not in (0, 1):
            sys.exit(r.stderr)
        for p in json.loads(r.stdout).get("passages", []):
            passages.append((susp, src, a, b, p))
    sample = random.Random(seed).sample(passages, min(n, len(passages)))
    lines = [f"# {len(sample)} passages of {len(passages)}, drawn with seed {seed}",
             "", "Rule: RULE.md. Spans are byte offsets `[start, end)` into the files.", ""]
    for k, (susp, src, a, b, p) in enumerate(sample, 1):
        cut = lambda path, s: open(path, "rb").read()[s[0]:s[1]].decode("utf-8", "replace")
        lines += [f"## {k}. {susp} {p['a_span']} ~ {src} {p['b_span']} "
                  f"(similarity {p['similarity']:.3f})", "",
                  "A:", "```text", cut(a, p["a_span"]), "```",
                  "B:", "```text", cut(b, p["b_span"]), "```", "", "verdict: ", ""]
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out + ".partial", "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    os.replace(out + ".partial", out)
    print(f"{len(sample)} of {len(passages)} passages written to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
