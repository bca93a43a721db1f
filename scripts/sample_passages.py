#!/usr/bin/env python3
"""Draw pairs kept by reuse at any length alone, for reading.

    scripts/sample_passages.py PAIRS.jsonl CORPUS.jsonl K SEED

PAIRS.jsonl is the output of `slst batch CORPUS.jsonl --min-shared-words N --out PAIRS.jsonl`;
CORPUS.jsonl its input, JSON lines with `id` and `text` (the passages' byte spans are spans of
those texts, UTF-8). Prints, as markdown, K of the pairs whose `decided_by` is `passage` (the
rule alone would not report them), drawn with random.Random(SEED), each with its passage
sharing the most words, on both sides (whitespace collapsed), for a person to judge.
Standard library only.
"""
import json
import random
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    pairs_path, corpus_path, k, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    with open(pairs_path, encoding="utf-8") as f:
        kept = [r for r in map(json.loads, f) if r.get("decided_by") == "passage"]
    picked = random.Random(seed).sample(kept, min(k, len(kept)))
    wanted = {r[side] for r in picked for side in ("a", "b")}
    texts = {}
    with open(corpus_path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d["id"] in wanted:
                texts[d["id"]] = d["text"].encode("utf-8")
    print(f"{len(picked)} of the {len(kept)} pairs kept by a shared passage alone (seed {seed}).\n")
    for i, r in enumerate(picked, 1):
        p = max(r["passages"], key=lambda p: p["shared_words"])

        def show(doc, span):
            return " ".join(texts[doc][span[0]:span[1]].decode("utf-8", "replace").split())

        print(f"### {i}. {r['a']} – {r['b']}\n")
        print(f"J {r['resemblance']:.3f}, {len(r['passages'])} passage(s); the one sharing the most "
              f"words: {p['shared_words']} words shared, similarity {p['similarity']:.3f}\n")
        print(f"- a {p['a_span']}: {show(r['a'], p['a_span'])}")
        print(f"- b {p['b_span']}: {show(r['b'], p['b_span'])}\n")


if __name__ == "__main__":
    main()
