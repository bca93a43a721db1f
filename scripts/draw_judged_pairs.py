#!/usr/bin/env python3
"""Draw the Reuters-21578 pairs to judge by reading (rule: results/judged-pairs/reuters/RULE.md).

    python3 scripts/draw_judged_pairs.py CORPUS.jsonl OUT_DIR NAME=PAIRS.tsv ... \\
        [--peers rensa,gaoya,datasketch] [--per-stratum 200] [--seed 16] [--batch 50]
        [--from NAME]

CORPUS.jsonl: Reuters-21578 as `scripts/peers/reuters_to_jsonl.py` writes it (`id`, `text`).
Each NAME=PAIRS.tsv is one tool's pairs (`a<TAB>b` first, a header line allowed), as
`slst batch --out-format tsv` and `scripts/peers/minhash_peers.py` write them; the NAMEs listed
in --peers are the MinHash tools. The pool is the union of all pairs; two strata are drawn
uniformly, --per-stratum pairs each: pairs some peer reports, and pairs no peer reports.

Writes OUT_DIR/sample.tsv (item, a, b, stratum, half, and per tool whether it reports the pair),
and OUT_DIR/batch-K.md, the items to read, --batch per file, in a shuffled order and without
any tool's name or score: the reader sees the two texts alone. Each pair's half (A: tune, B:
report) comes from a hash of its ids, so it does not depend on the draw.

With --from NAME, one stratum only, `reported`: --per-stratum pairs drawn uniformly from that
tool's pairs (a precision sample of one output, as the targets ask for: "a random 200 of the
reported pairs"); the other tools' columns still say who else reports each pair.
"""
import hashlib
import json
import pathlib
import random
import sys

CAP = 3000


def read_pairs(path):
    out = set()
    for line in pathlib.Path(path).read_text(encoding="utf-8").splitlines():
        f = line.split("\t")
        if len(f) < 2 or not f[0].strip().isdigit():
            continue
        a, b = sorted((f[0].strip(), f[1].strip()), key=int)
        out.add((a, b))
    return out


def half(a, b):
    return "A" if hashlib.sha256(f"{a}\t{b}".encode()).digest()[0] % 2 == 0 else "B"


def shown(text):
    text = text.rstrip()
    if len(text) <= CAP:
        return text
    return text[:CAP] + f"\n[… {len(text) - CAP} more characters not shown]"


def main(argv):
    opts = {"--peers": "rensa,gaoya,datasketch", "--per-stratum": "200", "--seed": "16",
            "--batch": "50", "--from": ""}
    pos = []
    it = iter(argv)
    for a in it:
        if a in opts:
            opts[a] = next(it)
        else:
            pos.append(a)
    if len(pos) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    corpus, out_dir, tools = pos[0], pathlib.Path(pos[1]), []
    for spec in pos[2:]:
        name, _, path = spec.partition("=")
        tools.append((name, read_pairs(path)))
    peers = set(opts["--peers"].split(","))
    texts = {}
    for line in open(corpus, encoding="utf-8"):
        o = json.loads(line)
        texts[str(o["id"])] = o["text"]
    pool = set().union(*(p for _, p in tools))
    by_peer = set().union(*(p for n, p in tools if n in peers))
    order = lambda x: (int(x[0]), int(x[1]))  # noqa: E731
    if opts["--from"]:
        chosen = dict(tools)[opts["--from"]]
        strata = {"reported": sorted(chosen, key=order)}
    else:
        strata = {"peer": sorted(pool & by_peer, key=order),
                  "slst-only": sorted(pool - by_peer, key=order)}
    rng = random.Random(int(opts["--seed"]))
    n = int(opts["--per-stratum"])
    drawn = [(s, p) for s, pairs in strata.items() for p in rng.sample(pairs, min(n, len(pairs)))]
    rng.shuffle(drawn)
    out_dir.mkdir(parents=True, exist_ok=True)
    with open(out_dir / "sample.tsv", "w", encoding="utf-8") as f:
        f.write("\t".join(["item", "a", "b", "stratum", "half"] + [t for t, _ in tools]) + "\n")
        for k, (s, (a, b)) in enumerate(drawn, 1):
            flags = ["1" if (a, b) in p else "0" for _, p in tools]
            f.write("\t".join([str(k), a, b, s, half(a, b)] + flags) + "\n")
    size = int(opts["--batch"])
    for start in range(0, len(drawn), size):
        with open(out_dir / f"batch-{start // size + 1}.md", "w", encoding="utf-8") as f:
            f.write(f"# Pairs to judge, items {start + 1}–{min(start + size, len(drawn))}\n\n"
                    "Rule: RULE.md in this folder. Write one line per item into the verdicts "
                    "file: `item<TAB>verdict<TAB>reason<TAB>note`.\n\n")
            for k in range(start, min(start + size, len(drawn))):
                _, (a, b) = drawn[k]
                f.write(f"## Item {k + 1} (documents {a} and {b})\n\n")
                f.write(f"### Document {a}\n\n```text\n{shown(texts[a])}\n```\n\n")
                f.write(f"### Document {b}\n\n```text\n{shown(texts[b])}\n```\n\n")
    sizes = ", ".join(f"{name} {len(pairs)}" for name, pairs in strata.items())
    print(f"pool {len(pool)} pairs; strata: {sizes}; drew {len(drawn)} into {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
