#!/usr/bin/env python3
"""The sentence statistics of make_synthetic.py --kind realistic at sizes too large to write.

Usage:
    realistic_df_sim.py N [N ...] [--seed 1] [--boilerplate 0.05] [--shared 0.05] [--max-df 1000]

Runs make_synthetic.py's document loop (generate(), the same code, the same class draws) with
the text left out: each new sentence is a number instead of a walk of the trigram model, and
no text is written. It then prints corpus_stats.py's figures as they would be with the planted
copies (--truth) set aside.

Why that is enough: with the planted copies set aside, a new sentence is held by one document
(the generator refuses a sentence it has seen, see synthetic_text.Novelty), so only the shared
sentences (body items and tail passages) have df >= 2; the simulation counts exactly those, and
every other sentence as one occurrence of df 1. What it leaves out: sentences the splitter of
corpus_stats.py would count differently from the generator (under 4 words: none, the generator
refuses them), and exact duplicates that are not planted (none expected). Each new sentence
consumes one getrandbits(63), as a first try of synthetic_text.new_sentence does; the real run
retries when the model repeats itself, so the two runs draw the same laws but not the same
documents.
"""
import argparse
import io
import os
import random
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_synthetic  # noqa: E402
from corpus_stats import stats_of_histogram  # noqa: E402


class CountingSource(make_synthetic.RealisticSource):
    """RealisticSource with numbers for sentences: shared ones negative, new ones positive."""

    def __init__(self, shared):
        self.next_new = 0
        self.next_shared = 0
        self.start_shared(shared, self._shared)
        self.docs = []  # per document: its shared sentences, and how many sentences in all

    def new(self, rng):
        rng.getrandbits(63)
        self.next_new += 1
        return self.next_new

    def _shared(self, rng):
        rng.getrandbits(63)
        self.next_shared -= 1
        return self.next_shared

    def texts(self, sentences):
        self.docs.append((set(s for s in sentences if s < 0), len(set(sentences))))
        return []


def simulate(n, seed, boilerplate, shared):
    """(documents, {df: distinct sentences}) of the corpus with its planted copies set aside."""
    args = argparse.Namespace(n=n, boilerplate=boilerplate)
    source = CountingSource(shared)
    truth = io.StringIO()
    make_synthetic.generate(args, source, random.Random(seed), io.StringIO(), truth)
    copies = {int(line.split("\t")[1][1:]) for line in truth.getvalue().splitlines()[1:]}
    df, docs, singles = Counter(), 0, 0
    for i, (held, distinct) in enumerate(source.docs):
        if i in copies:
            continue
        docs += 1
        df.update(held)
        singles += distinct - len(held)
    hist = Counter(df.values())
    hist[1] += singles
    return docs, hist


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", type=int, nargs="+")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--boilerplate", type=float, default=make_synthetic.P_BOILER)
    ap.add_argument("--shared", type=float, default=make_synthetic.P_SHARED)
    ap.add_argument("--max-df", type=int, default=1000)
    args = ap.parse_args()
    print("| documents generated | documents (planted set aside) | share in ≥ 2 docs | mean df | "
          "sentence pairs per document | df p50 / p90 / p99 / p99.9 / max (by occurrence) | "
          f"sentences with df > {args.max_df} (share of occurrences) |")
    print("|---|---|---|---|---|---|---|")
    for n in args.n:
        docs, hist = simulate(n, args.seed, args.boilerplate, args.shared)
        s = stats_of_histogram(docs, hist, args.max_df)
        q = " / ".join(str(x) for x in s["quantiles"])
        print(f"| {n:,} | {s['documents']:,} | {s['share_ge2']:.3f} | {s['mean_df']:.2f} | "
              f"{s['pairs_per_doc']:.2f} | {q} / {s['max_df']:,} | {s['over_cap']:,} "
              f"({s['over_cap_share']:.3f}) |", flush=True)


if __name__ == "__main__":
    main()
