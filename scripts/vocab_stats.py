#!/usr/bin/env python3
"""How a JSONL corpus grows its vocabulary, and how loaded the pairs of its rarest words are.

Usage:
    vocab_stats.py CORPUS.jsonl [--sizes 2500,5000,10000,20000] [--limit N] [--name NAME]
                   [--k 4] [--pair-sample R] [--json]

Reads JSON lines {"id", "text"} in order and, for each prefix of SIZE documents (--sizes; or the
whole corpus, or its first --limit documents), prints one Markdown table row. Standard library
only; two streaming passes over the largest prefix. Definitions:

- words: the text lowercased, cut into runs of letters and digits, a run kept whole across one
  inner period, apostrophe, comma or hyphen between letters or digits ("u.s", "don't", "1,000",
  "mid-march"): close to the Unicode word boundaries `slst` uses. tokens: word occurrences.
- distinct words V and tokens n of the prefix; hapax share: the share of tokens whose word
  occurs once in the prefix.
- Heaps' law V = K * n^beta: beta from SIZE to the next size (local: log(V2/V1) / log(n2/n1)), and
  K, beta fitted by least squares on log V against log n over all the sizes (last row's line).
- the rare-pair load, a proxy of what `slst batch`'s robust mode pays for its single keys:
  sentences as scripts/corpus_stats.py cuts them (>= 4 words); in each sentence, its distinct
  words that are not English stop words (NLTK's 179, read from src/text/data/en-nltk-179.txt),
  ranked by document frequency in the prefix (ties: the word seen first in the corpus first);
  the k (--k, 4) lowest; every unordered pair of those. df of a pair: the documents of the
  prefix that hold it in one sentence. Load per document: sum over distinct pairs of
  df * (df - 1) / 2, divided by the documents: the document pairs a join keyed on these pairs
  would enumerate.
- --pair-sample R counts only the pairs whose hash is 0 modulo R and multiplies their sum by R
  (an unbiased estimate; R = 1, the default, counts all), so that a million documents fit in
  memory. The hash is a fixed function of the two words' ids, so the same pairs are kept at
  every size.
"""
import argparse
import json
import math
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus_stats import sentences  # noqa: E402

WORD = re.compile(r"[^\W_]+(?:[.'’,\-][^\W_]+)*")
STOP_FILE = os.path.join(HERE, "..", "src", "text", "data", "en-nltk-179.txt")
MASK64 = (1 << 64) - 1

HEADER = ("| corpus | documents | tokens | distinct words | hapax share of tokens | Heaps β (to next size) | "
          "rare-pair load per document | distinct pairs (sample) |")


def stop_words(path=STOP_FILE):
    with open(path, encoding="utf-8") as f:
        return {w.strip() for w in f if w.strip()}


def words(text):
    return WORD.findall(text.lower())


def documents(path, limit):
    with open(path, encoding="utf-8") as f:
        k = 0
        for line in f:
            if limit is not None and k >= limit:
                return
            if line.strip():
                k += 1
                yield json.loads(line).get("text") or ""


def pass_words(path, sizes):
    """Word ids (first seen first), and per size: (documents, tokens, distinct, hapax tokens,
    {word id: df} of the prefix)."""
    ids, count, df = {}, Counter(), Counter()
    out, docs, tokens = {}, 0, 0
    wanted = sorted(sizes)
    for text in documents(path, wanted[-1]):
        ws = words(text)
        tokens += len(ws)
        held = set()
        for w in ws:
            i = ids.get(w)
            if i is None:
                i = ids[w] = len(ids)
            held.add(i)
        count.update(ws)
        df.update(held)
        docs += 1
        if docs in sizes:
            hapax = sum(1 for c in count.values() if c == 1)
            out[docs] = (docs, tokens, len(count), hapax, dict(df))
    if docs not in out:  # the corpus is shorter than the largest size
        hapax = sum(1 for c in count.values() if c == 1)
        out[docs] = (docs, tokens, len(count), hapax, dict(df))
    return ids, out


def pair_hash(a, b):
    return (((a << 32) | b) * 0x9E3779B97F4A7C15 & MASK64) >> 32


def pass_pairs(path, ids, dfs, stops, k, sample):
    """{size: (load estimate, distinct pairs counted)} for each size's df table."""
    stop_ids = {ids[w] for w in stops if w in ids}
    sizes = sorted(dfs)
    pair_df = {n: Counter() for n in sizes}
    docno = 0
    for text in documents(path, sizes[-1]):
        live = [n for n in sizes if docno < n]
        held = {n: set() for n in live}
        for s in sentences(text):
            distinct = {ids[w] for w in words(s) if w in ids} - stop_ids
            if len(distinct) < 2:
                continue
            for n in live:
                df = dfs[n]
                rare = sorted(distinct, key=lambda w: (df[w], w))[:k]
                for x in range(len(rare)):
                    for y in range(x + 1, len(rare)):
                        a, b = (rare[x], rare[y]) if rare[x] < rare[y] else (rare[y], rare[x])
                        if sample == 1 or pair_hash(a, b) % sample == 0:
                            held[n].add((a << 32) | b)
        for n in live:
            pair_df[n].update(held[n])
        docno += 1
    out = {}
    for n in sizes:
        load = sum(d * (d - 1) // 2 for d in pair_df[n].values()) * sample
        out[n] = (load, len(pair_df[n]))
        pair_df[n] = None
    return out


def heaps_fit(points):
    """(K, beta) of log V = log K + beta log n by least squares over [(n, V)]."""
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(v) for _, v in points]
    if len(points) < 2:
        return float("nan"), float("nan")
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    beta = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    return math.exp(my - beta * mx), beta


def measure(path, sizes, k=4, sample=1, stops=None):
    """Rows of figures, one per prefix size actually reached, and the Heaps fit."""
    ids, snaps = pass_words(path, set(sizes))
    pairs = pass_pairs(path, ids, {n: s[4] for n, s in snaps.items()}, stops or stop_words(), k, sample)
    rows = []
    order = sorted(snaps)
    for j, n in enumerate(order):
        docs, tokens, distinct, hapax, _ = snaps[n]
        beta = None
        if j + 1 < len(order):
            _, t2, v2, _, _ = snaps[order[j + 1]]
            beta = math.log(v2 / distinct) / math.log(t2 / tokens)
        load, npairs = pairs[n]
        rows.append({"documents": docs, "tokens": tokens, "distinct": distinct, "hapax_share": hapax / tokens,
                     "beta_next": beta, "pair_load": load, "pair_load_per_doc": load / docs,
                     "pairs_counted": npairs})
    K, beta = heaps_fit([(r["tokens"], r["distinct"]) for r in rows])
    return rows, K, beta


def table_row(name, r):
    beta = "–" if r["beta_next"] is None else f"{r['beta_next']:.3f}"
    return (f"| {name} | {r['documents']:,} | {r['tokens']:,} | {r['distinct']:,} | {r['hapax_share']:.4f} | "
            f"{beta} | {r['pair_load_per_doc']:.2f} | {r['pairs_counted']:,} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus")
    ap.add_argument("--sizes", help="comma-separated prefix sizes in documents (default: --limit, or all)")
    ap.add_argument("--limit", type=int, help="read at most the first N documents")
    ap.add_argument("--name", help="row name (default: the file name)")
    ap.add_argument("--k", type=int, default=4, help="rarest words per sentence whose pairs count")
    ap.add_argument("--pair-sample", type=int, default=1, help="count one pair in R, by hash")
    ap.add_argument("--header", action="store_true", help="print the table header first")
    ap.add_argument("--json", action="store_true", help="also print the figures as JSON on stderr")
    args = ap.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")] if args.sizes else [args.limit or 1 << 62]
    if args.limit:
        sizes = [min(n, args.limit) for n in sizes]
    if any(n < 1 for n in sizes) or args.k < 2 or args.pair_sample < 1:
        ap.error("sizes must be >= 1, --k >= 2, --pair-sample >= 1")
    name = args.name or os.path.basename(args.corpus)
    rows, K, beta = measure(args.corpus, sorted(set(sizes)), args.k, args.pair_sample)
    if args.header:
        print(HEADER)
        print("|" + "---|" * HEADER.count(" |"))
    for r in rows:
        print(table_row(name, r))
    print(f"<!-- {name}: Heaps fit over the rows: K = {K:.2f}, beta = {beta:.3f}; k = {args.k}, "
          f"pair sample 1/{args.pair_sample} -->", flush=True)
    if args.json:
        print(json.dumps({"corpus": name, "K": K, "beta": beta, "k": args.k, "sample": args.pair_sample,
                          "rows": rows}), file=sys.stderr)


if __name__ == "__main__":
    main()
