#!/usr/bin/env python3
"""How much a JSONL corpus repeats its sentences across documents.

Usage:
    corpus_stats.py CORPUS.jsonl [CORPUS.jsonl ...] [--truth TRUTH.tsv ...] [--max-df 1000]
                    [--name NAME ...]

Reads JSON lines {"id", "text"} (as `slst batch --format jsonl` reads them) and prints one
Markdown table row per corpus. Standard library only. Definitions:

- documents: the corpus's documents after two sets are put aside, in this order:
  - exact duplicates: a document whose text has the SHA-256 of an earlier document's text (the
    first one stays);
  - with --truth (one TSV per corpus, in the same order; scripts/make_synthetic.py's format,
    columns a, b, kind, ...): every document named in column b, the planted copies, whatever
    their kind. A copy of a copy is put aside too, since it is the b of its own row. "-" stands
    for no truth file.
- sentences of a document: its text cut into paragraphs at blank lines, whitespace collapsed,
  each paragraph cut with the regex of scripts/make_synthetic.py (after . ! or ?, optional
  closing quotes or brackets, whitespace, before an optional opening quote or bracket and a
  capital letter or digit); a sentence is kept when it has at least 4 whitespace-separated
  words, and is compared lowercased. A document holds a sentence at most once: repeats inside
  one document count once.
- df of a sentence: the number of documents that hold it.
- occurrences: the (document, sentence) pairs, i.e. the sum of df over distinct sentences.
- share in >= 2 docs: the share of occurrences whose sentence has df >= 2.
- mean df: the df of the sentence of a random occurrence, sum(df^2) / sum(df) over distinct
  sentences (1.0 when no sentence repeats).
- sentence pairs per document: sum over sentences with df <= MAX_DF (default 1000, as
  `slst batch --max-df`) of df * (df - 1) / 2, divided by documents. It is the number of
  document pairs sharing a sentence, counted once per shared sentence: what a sentence-keyed
  candidate join enumerates before any other filter.
- df quantiles: of the occurrence-weighted df (the df of the sentence of a random occurrence),
  p50, p90, p99, p99.9, and the largest df.
- df > MAX_DF: distinct sentences above the cap and the share of occurrences they hold.

Sentences are kept as 8-byte BLAKE2b digests (a collision merges two sentences with odds about
n^2 / 2^65), so a million documents of 16 sentences need about 2 GB; measure a prefix
(--limit N) or a sample when that is too much.
"""
import argparse
import hashlib
import json
import os
import re
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_synthetic import SPLIT  # noqa: E402

HEADER = ("| corpus | documents | set aside (exact, planted) | share in ≥ 2 docs | mean df | "
          "sentence pairs per document | df p50 / p90 / p99 / p99.9 / max (by occurrence) | "
          "sentences with df > {cap} (share of occurrences) |")


def sentences(text):
    """The lowercased sentences of >= 4 words of a text, as the docstring defines them."""
    out = []
    for para in re.split(r"\n\s*\n", text):
        para = " ".join(para.split())
        if not para:
            continue
        for s in SPLIT.split(para):
            if len(s.split()) >= 4:
                out.append(s.lower())
    return out


def planted_copies(truth):
    with open(truth, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        col = header.index("b")
        return {line.rstrip("\n").split("\t")[col] for line in f if line.strip()}


def count(path, truth=None, limit=None):
    """(documents, exact set aside, planted set aside, df Counter of sentence digests)."""
    copies = planted_copies(truth) if truth and truth != "-" else set()
    seen, df = set(), Counter()
    docs = exact = planted = 0
    with open(path, encoding="utf-8") as f:
        for k, line in enumerate(f):
            if limit is not None and k >= limit:
                break
            if not line.strip():
                continue
            doc = json.loads(line)
            text = doc.get("text") or ""
            h = hashlib.sha256(text.encode("utf-8")).digest()
            if h in seen:
                exact += 1
                continue
            seen.add(h)
            if str(doc.get("id")) in copies:
                planted += 1
                continue
            docs += 1
            held = {hashlib.blake2b(s.encode("utf-8"), digest_size=8).digest() for s in sentences(text)}
            df.update(held)
    return docs, exact, planted, df


def quantile_by_occurrence(df_hist, q):
    """The df at quantile q of occurrences, from a histogram {df: number of sentences}."""
    total = sum(d * n for d, n in df_hist.items())
    acc = 0
    for d in sorted(df_hist):
        acc += d * df_hist[d]
        if acc >= q * total:
            return d
    return 0


def stats(docs, df, max_df):
    return stats_of_histogram(docs, Counter(df.values()), max_df)


def stats_of_histogram(docs, hist, max_df):
    """The figures of the docstring from {df: number of distinct sentences with that df}."""
    occ = sum(d * n for d, n in hist.items())
    distinct = sum(hist.values())
    shared = occ - hist.get(1, 0)
    pairs = sum(n * d * (d - 1) // 2 for d, n in hist.items() if d <= max_df)
    over = [(d, n) for d, n in hist.items() if d > max_df]
    return {
        "documents": docs,
        "occurrences": occ,
        "distinct": distinct,
        "share_ge2": shared / occ if occ else 0.0,
        "mean_df": sum(d * d * n for d, n in hist.items()) / occ if occ else 0.0,
        "pairs_per_doc": pairs / docs if docs else 0.0,
        "quantiles": [quantile_by_occurrence(hist, q) for q in (0.5, 0.9, 0.99, 0.999)],
        "max_df": max(hist) if hist else 0,
        "over_cap": sum(n for _, n in over),
        "over_cap_share": sum(d * n for d, n in over) / occ if occ else 0.0,
    }


def row(name, s, exact, planted):
    q = " / ".join(str(x) for x in s["quantiles"])
    return (f"| {name} | {s['documents']:,} | {exact:,}, {planted:,} | {s['share_ge2']:.3f} | "
            f"{s['mean_df']:.2f} | {s['pairs_per_doc']:.2f} | {q} / {s['max_df']:,} | "
            f"{s['over_cap']:,} ({s['over_cap_share']:.3f}) |")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", nargs="+")
    ap.add_argument("--truth", action="append", default=[],
                    help="truth TSV of a corpus (its b column is set aside); one per corpus, in order (- for none), or none")
    ap.add_argument("--name", action="append", default=[], help="row names, in order (default: file names)")
    ap.add_argument("--max-df", type=int, default=1000)
    ap.add_argument("--limit", type=int, help="read only the first N lines of each corpus")
    ap.add_argument("--json", action="store_true", help="also print each row's figures as JSON on stderr")
    args = ap.parse_args()
    if args.truth and len(args.truth) != len(args.corpus):
        ap.error("give one --truth per corpus, or none")
    print(HEADER.format(cap=args.max_df))
    print("|" + "---|" * HEADER.count(" |"))
    for i, path in enumerate(args.corpus):
        docs, exact, planted, df = count(path, args.truth[i] if args.truth else None, args.limit)
        s = stats(docs, df, args.max_df)
        name = args.name[i] if i < len(args.name) else os.path.basename(path)
        print(row(name, s, exact, planted), flush=True)
        if args.json:
            print(json.dumps({"corpus": name, "exact": exact, "planted": planted, **s}), file=sys.stderr)


if __name__ == "__main__":
    main()
