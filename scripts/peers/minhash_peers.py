#!/usr/bin/env python3
"""MinHash LSH near-duplicate pairs with one of the peers, the way their docs show.

Usage: minhash_peers.py datasketch|rensa|gaoya CORPUS.jsonl PAIRS.tsv

Every peer: word 5-shingles of the lowercased text, 128 permutations, Jaccard threshold 0.5,
LSH for candidates, then each candidate kept when its estimated Jaccard is at least 0.5.
Documents without any word are left out (slst leaves out documents without a sentence).
Writes "a<TAB>b" per pair, a the earlier document in corpus order, sorted; prints a JSON
object with the stage times (seconds) and counts on standard output.

- datasketch (docs: MinHash + MinHashLSH): MinHash(num_perm=128).update_batch(shingles as UTF-8
  bytes); MinHashLSH(threshold=0.5, num_perm=128), which picks its own banding for the threshold
  (25 bands x 5 rows); inserted in an insertion_session; query() per document; MinHash.jaccard.
- rensa (README: RMinHash.from_token_sets, RMinHashLSH): R-MinHash sketches built in one batch
  call with seed 42; RMinHashLSH(threshold=0.5, num_perm=128, num_bands=32) (4 rows; the band
  count must divide 128); insert_many, query_all, RMinHash.jaccard.
- gaoya (MinHashStringIndex docstring): its own Rust word analyzer, lowercase=True,
  ngram_range=(5, 5), 32-bit hashes, 32 bands x 4 rows = 128 hashes, jaccard_threshold=0.5;
  par_bulk_insert_docs and par_bulk_query (multi-threaded); query() already drops candidates
  under the threshold.
"""
import json
import sys
import time

K, PERM, THRESHOLD = 5, 128, 0.5


def shingles(text):
    w = text.lower().split()
    return {" ".join(w[i:i + K]) for i in range(max(1, len(w) - K + 1))}


def run_datasketch(texts, stamp):
    from datasketch import MinHash, MinHashLSH

    sketches = []
    for t in texts:
        m = MinHash(num_perm=PERM)
        m.update_batch([s.encode("utf-8") for s in shingles(t)])
        sketches.append(m)
    stamp("sketch")
    lsh = MinHashLSH(threshold=THRESHOLD, num_perm=PERM)
    with lsh.insertion_session() as session:
        for i, m in enumerate(sketches):
            session.insert(i, m)
    stamp("index")
    pairs = set()
    for i, m in enumerate(sketches):
        for j in lsh.query(m):
            if j != i and m.jaccard(sketches[j]) >= THRESHOLD:
                pairs.add((min(i, j), max(i, j)))
    stamp("query")
    return pairs, {"bands": lsh.b, "rows": lsh.r}


def run_rensa(texts, stamp):
    from rensa import RMinHash, RMinHashLSH

    sketches = RMinHash.from_token_sets([list(shingles(t)) for t in texts], num_perm=PERM, seed=42)
    stamp("sketch")
    lsh = RMinHashLSH(threshold=THRESHOLD, num_perm=PERM, num_bands=32)
    lsh.insert_many(sketches)
    stamp("index")
    pairs = set()
    for i, candidates in enumerate(lsh.query_all(sketches)):
        m = sketches[i]
        for j in candidates:
            if j != i and m.jaccard(sketches[j]) >= THRESHOLD:
                pairs.add((min(i, j), max(i, j)))
    stamp("query")
    return pairs, {"bands": 32, "rows": 4}


def run_gaoya(texts, stamp):
    import gaoya

    index = gaoya.minhash.MinHashStringIndex(
        hash_size=32, jaccard_threshold=THRESHOLD, num_bands=32, band_size=4, num_hashes=PERM,
        analyzer="word", lowercase=True, ngram_range=(K, K),
    )
    index.par_bulk_insert_docs(list(range(len(texts))), texts)
    stamp("index")
    pairs = set()
    for i, candidates in enumerate(index.par_bulk_query(texts)):
        for j in candidates:
            if j != i:
                pairs.add((min(i, j), max(i, j)))
    stamp("query")
    return pairs, {"bands": 32, "rows": 4}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("datasketch", "rensa", "gaoya"):
        sys.exit(__doc__)
    tool, corpus, out = sys.argv[1:]
    times, last = {}, [time.perf_counter()]

    def stamp(name):
        now = time.perf_counter()
        times[name] = round(now - last[0], 3)
        last[0] = now

    ids, texts, empty = [], [], 0
    with open(corpus, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d["text"].split():
                ids.append(str(d["id"]))
                texts.append(d["text"])
            else:
                empty += 1
    stamp("load")
    pairs, params = {"datasketch": run_datasketch, "rensa": run_rensa, "gaoya": run_gaoya}[tool](texts, stamp)
    with open(out, "w", encoding="utf-8") as f:
        for i, j in sorted(pairs):
            f.write(f"{ids[i]}\t{ids[j]}\n")
    stamp("write")
    import importlib.metadata as md

    print(json.dumps({
        "tool": tool, "version": md.version(tool), "documents": len(texts), "without_words": empty,
        "pairs": len(pairs), "shingle": K, "num_perm": PERM, "threshold": THRESHOLD, **params,
        "seconds": times,
    }))


if __name__ == "__main__":
    main()
