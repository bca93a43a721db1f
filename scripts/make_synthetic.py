#!/usr/bin/env python3
"""A synthetic corpus of N documents, with planted near-duplicates.

Usage:
    make_synthetic.py N OUT.jsonl TRUTH.tsv [--kind pool|realistic] [--seed 1]
                      [--corpora ../shared/corpora] [--boilerplate 0.05] [--shared 0.06]
                      [--realistic-version 2]

Deterministic: the same N, kind, seed and source corpora give the same bytes (--kind pool
writes the bytes it wrote before --kind existed).

Sentences come, at generation time, from the Bible versions (KJV, Webster, WEB; TREC files in
CORPORA/bible-versions) and from Reuters-21578 (TITLE + BODY as slst reads it, CORPORA/reuters21578)
— split with a simple regex, kept when they have 4-60 words and a lowercase letter, exact repeats
dropped: the pool, about 197,000 sentences. No corpus text is stored in the repository: only
this generator.

Two kinds of corpus:
- pool (the default here; the "stress" corpus of the benchmarks): every sentence of an
  original is drawn at random from the pool, so as N grows each sentence recurs in more and
  more unrelated documents (at 100,000 documents, 93 % of the sentence occurrences are of a
  sentence held by two documents or more; Reuters-21578: 6 %);
- realistic: every sentence of an original is new — a walk of a word trigram model trained on
  the pool's sentences (synthetic_text.TrigramModel), refused when it was seen before (a pool
  sentence or an earlier walk) — except a share (--shared, 6 %) that are shared sentences held
  by exactly d documents, d drawn from a law that does not depend on N (items of class d in
  proportion to d^-4, d = 2-200); the boilerplate tails are shared passages of 2-4 new
  sentences whose d is drawn from synthetic_text.TAIL_CLASSES (3 to 300 documents), and about
  0.5 % of the originals end with one of the few sentences held by thousands
  (synthetic_text.HEAVY_CLASSES, 2,500 and 3,500 documents). Version 2 (the default;
  --realistic-version 1 writes the first version's bytes) also replaces, in every walk, 75 % of
  the tokens whose word occurs at most 10 times in the pool by new words of the same shape
  (synthetic_text.NewWords): without it the vocabulary is the pool's and stops growing (Heaps'
  beta 0.22 from 10,000 to 20,000 documents), so the rarest words of a sentence recur in
  proportion to N; with it the vocabulary grows like Reuters-21578's (beta about 0.57;
  scripts/vocab_stats.py, docs/benchmarks.md). The
  share of sentences in >= 2 documents and the sentence pairs per document then stay near the
  same values at any N (calibration: docs/benchmarks.md). Generating it is slower: 1.6 ms of
  CPU per document (3.3 ms wall on a loaded 2-core machine), plus about half a minute to read
  the pool and train the model.

Each document is 5-60 sentences (log-normal, median about 16), in paragraphs of 1-5 sentences
separated by a blank line. Documents are, in order of generation:
- originals (about 91 %): sentences as the kind says;
- near-copies (8 %) of an earlier document (which may itself be a copy), with k edits, k drawn
  so that the edited share of sentences is uniform in 2-50 %; each edit is one of
  delete a sentence (30 %), insert a new one (25 %), substitute one (30 %), move a run of 1-3
  sentences elsewhere (15 %); a new sentence is a pool sentence (pool) or a new walk (realistic);
- exact copies (0.5 %) of an earlier document: the same text, byte for byte;
- independently of the above, 5 % of the documents (--boilerplate) end with a boilerplate
  passage of 2-4 sentences (a disclaimer-like tail shared by many documents): one of 20 fixed
  passages (pool), or a shared passage of the realistic kind's tail law.

TRUTH.tsv has a header and one row per planted pair: a (the earlier document), b, kind
(near|exact), the sentence-level resemblance |A ∩ B| / |A ∪ B| over sentence multisets, and the
edits (e.g. "del=2,ins=1,sub=3,move=0"). Copies of copies are not listed as pairs; score
against connected components when that matters.
"""
import argparse
import glob
import json
import math
import os
import random
import re
import sys
from array import array
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "peers"))
sys.path.insert(0, HERE)
from reuters_to_jsonl import read_reuters  # noqa: E402

import synthetic_text  # noqa: E402

SPLIT = re.compile(r"(?<=[.!?])[\"')]*\s+(?=[\"'(]?[A-Z0-9])")
DOC = re.compile(r"<DOC>\s*<DOCNO>(.*?)</DOCNO>\s*<TEXT>\n?(.*?)</TEXT>\s*</DOC>", re.S)

P_NEAR, P_EXACT, P_BOILER, P_SHARED = 0.08, 0.005, 0.05, 0.06
N_BOILER = 20


def sentences_of(paragraph):
    paragraph = " ".join(paragraph.split())
    for s in SPLIT.split(paragraph):
        s = s.strip()
        words = len(s.split())
        if 4 <= words <= 60 and any(c.islower() for c in s):
            yield s


def sentence_pool(corpora):
    pool, seen = [], set()

    def add(s):
        if s not in seen:
            seen.add(s)
            pool.append(s)

    bible = sorted(glob.glob(os.path.join(corpora, "bible-versions", "*.trec")))
    for path in bible:
        with open(path, encoding="utf-8") as f:
            for _, text in DOC.findall(f.read()):
                for verse in text.splitlines():
                    for s in sentences_of(verse.replace("\u00b6", " ")):
                        add(s)
    reuters = sorted(glob.glob(os.path.join(corpora, "reuters21578", "reut2-*.sgm")))
    for _, text in read_reuters(reuters):
        paragraphs = re.split(r"\n\s*\n", text)
        for para in paragraphs[1:] if len(paragraphs) > 1 else paragraphs:  # skip the TITLE
            para = re.sub(r"\s+Reuter\s*\x03?\s*$", "", para)
            for s in sentences_of(para):
                add(s)
    if not pool:
        sys.exit(f"no sentences found under {corpora} (bible-versions/*.trec, reuters21578/*.sgm)")
    return pool, len(bible), len(reuters)


def doc_length(rng):
    return max(5, min(60, int(round(math.exp(rng.gauss(math.log(16), 0.6))))))


def layout(texts, seed):
    """Text of a document: its sentences' texts in paragraphs of 1-5, from a per-document seed."""
    rng = random.Random(seed)
    out, i = [], 0
    while i < len(texts):
        k = rng.randint(1, 5)
        out.append(" ".join(texts[i:i + k]))
        i += k
    return "\n\n".join(out)


def near_copy(src, rng, new):
    """src with k edits; new() gives an inserted or substituting sentence."""
    s = list(src)
    share = rng.uniform(0.02, 0.5)
    k = max(1, int(round(share * len(s))))
    ops = Counter({"del": 0, "ins": 0, "sub": 0, "move": 0})
    for _ in range(k):
        r = rng.random()
        if r < 0.30 and len(s) > 5:
            del s[rng.randrange(len(s))]
            ops["del"] += 1
        elif r < 0.55 and len(s) < 60:
            s.insert(rng.randrange(len(s) + 1), new())
            ops["ins"] += 1
        elif r < 0.85:
            s[rng.randrange(len(s))] = new()  # new() is drawn first, as Python evaluates it first
            ops["sub"] += 1
        else:
            n = rng.randint(1, 3)
            at = rng.randrange(max(1, len(s) - n + 1))
            run = s[at:at + n]
            del s[at:at + n]
            to = rng.randrange(len(s) + 1)
            s[to:to] = run
            ops["move"] += 1
    return s, ",".join(f"{op}={ops[op]}" for op in ("del", "ins", "sub", "move"))


def resemblance(a, b):
    ca, cb = Counter(a), Counter(b)
    inter = sum((ca & cb).values())
    return inter / (len(a) + len(b) - inter)


class PoolSource:
    """--kind pool: every sentence is a pool index; 20 fixed boilerplate tails."""

    typecode = "i"

    def __init__(self, pool, rng):
        self.pool = pool
        self.boiler = [[rng.randrange(len(pool)) for _ in range(rng.randint(2, 4))] for _ in range(N_BOILER)]

    def original(self, rng):
        return [rng.randrange(len(self.pool)) for _ in range(doc_length(rng))]

    def new(self, rng):
        return rng.randrange(len(self.pool))

    def tail(self, rng):
        return self.boiler[rng.randrange(N_BOILER)]

    def texts(self, sentences):
        return [self.pool[s] for s in sentences]

    def describe(self):
        return f"sentence pool {len(self.pool)}"


class RealisticSource:
    """--kind realistic: every sentence is the seed of a walk of a trigram model trained on the
    pool, refused when seen before; a share of the body's sentences and the boilerplate tails
    are shared items whose document frequencies follow fixed laws (synthetic_text.py)."""

    typecode = "q"

    def __init__(self, pool, shared, version=2):
        self.model = synthetic_text.TrigramModel(pool)
        self.version = version
        if version >= 2:
            self.model = synthetic_text.RenamingModel(self.model, synthetic_text.NewWords(pool))
        self.novelty = synthetic_text.Novelty()
        for s in pool:
            self.novelty.add(s)
        self.cache = {}
        self.start_shared(shared, self.new)

    def start_shared(self, shared, make):
        """The shared items: body sentences and tail passages, each sentence from make(rng)."""
        self.shared = shared
        self.body_items = synthetic_text.SharedItems(synthetic_text.body_classes(shared), make)
        self.tail_items = synthetic_text.SharedItems(
            synthetic_text.TAIL_CLASSES, lambda rng: [make(rng) for _ in range(rng.randint(2, 4))])
        self.heavy_items = synthetic_text.SharedItems(synthetic_text.HEAVY_CLASSES, make)

    def original(self, rng):
        body = [self.body_items.draw(rng) if rng.random() < self.shared else self.new(rng)
                for _ in range(doc_length(rng))]
        if rng.random() < self.heavy_items.total:
            body.append(self.heavy_items.draw(rng))
        return body

    def new(self, rng):
        seed, text = synthetic_text.new_sentence(self.model, self.novelty, rng)
        if len(self.cache) >= 1 << 18:
            self.cache.clear()
        self.cache[seed] = text
        return seed

    def tail(self, rng):
        return self.tail_items.draw(rng)

    def texts(self, sentences):
        return [self.cache.get(s) or self.model.sentence(s) for s in sentences]

    def describe(self):
        return (f"version {self.version}, trigram model of {self.model.sentences} pool sentences, "
                f"{len(self.model.words) - 1} words; shared body sentences {self.shared}")


def generate(args, source, rng, out, truth):
    """Writes the documents and the truth rows; returns (kind counts, planted pairs)."""
    width = len(str(args.n - 1))
    docs = []  # per document: (sentences, layout seed); boilerplate included
    kinds = Counter()
    pairs = 0
    truth.write("a\tb\tkind\tresemblance\tedits\n")
    for i in range(args.n):
        r = rng.random() if i >= 10 else 1.0
        if r < P_EXACT:
            j = rng.randrange(i)
            sentences, seed = docs[j]
            kinds["exact"] += 1
            truth.write(f"d{j:0{width}d}\td{i:0{width}d}\texact\t1.0000\t-\n")
            pairs += 1
        else:
            if r < P_EXACT + P_NEAR:
                j = rng.randrange(i)
                body, edits = near_copy(docs[j][0], rng, lambda: source.new(rng))
                kinds["near"] += 1
            else:
                j = None
                body = source.original(rng)
                kinds["original"] += 1
            if rng.random() < args.boilerplate:
                body = body + source.tail(rng)
                kinds["with boilerplate"] += 1
            sentences, seed = array(source.typecode, body), rng.getrandbits(63)
            if j is not None:
                res = resemblance(docs[j][0], sentences)
                truth.write(f"d{j:0{width}d}\td{i:0{width}d}\tnear\t{res:.4f}\t{edits}\n")
                pairs += 1
        docs.append((sentences, seed))
        text = layout(source.texts(sentences), seed)
        out.write(json.dumps({"id": f"d{i:0{width}d}", "text": text}, ensure_ascii=False) + "\n")
    return kinds, pairs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("n", type=int)
    ap.add_argument("out")
    ap.add_argument("truth")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--corpora", default=os.path.join("..", "shared", "corpora"))
    ap.add_argument("--kind", choices=("pool", "realistic"), default="pool",
                    help="pool: sentences drawn from the pool (the stress corpus); realistic: new sentences")
    ap.add_argument("--boilerplate", type=float, default=P_BOILER, help="share of documents with a boilerplate tail")
    ap.add_argument("--shared", type=float, default=P_SHARED,
                    help="realistic: share of an original's sentences that are shared sentences")
    ap.add_argument("--realistic-version", type=int, choices=(1, 2), default=2,
                    help="realistic: 2 (default) replaces rare words by new ones (a growing vocabulary); "
                         "1 writes the corpus of the first version, the pool's words only")
    args = ap.parse_args()

    pool, nbible, nreuters = sentence_pool(args.corpora)
    rng = random.Random(args.seed)
    source = PoolSource(pool, rng) if args.kind == "pool" else RealisticSource(pool, args.shared, args.realistic_version)
    with open(args.out, "w", encoding="utf-8") as out, open(args.truth, "w", encoding="utf-8") as truth:
        kinds, pairs = generate(args, source, rng, out, truth)
    print(
        f"{args.out}: {args.n} documents ({', '.join(f'{v} {k}' for k, v in kinds.items())}); "
        f"{pairs} planted pairs in {args.truth}; {args.kind}: {source.describe()}, "
        f"from {nbible} Bible and {nreuters} Reuters files; seed {args.seed}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
