"""New sentences for make_synthetic.py --kind realistic: a word trigram model, a novelty filter,
the shared component whose document frequencies do not depend on the corpus size, and (version 2)
the new words that replace rare ones so that the vocabulary keeps growing.

Standard library only; everything is deterministic for the same training sentences and seeds.
"""
import hashlib
import random
import re
from array import array
from bisect import bisect_left

# A training sentence must start as the sentence splitter expects a sentence to start and end
# as it expects one to end, so that a generated sentence is cut back out of a document whole.
STARTS = re.compile(r"[\"'(]?[A-Z0-9]")
ENDS = re.compile(r"[.!?][\"')]*$")
MIN_WORDS, MAX_WORDS = 4, 60


class TrigramModel:
    """Word trigrams of the training sentences, as one sorted array of codes
    w1 << 40 | w2 << 20 | w3 (word ids below 2^20), id 0 for the sentence's start and end.
    A walk picks each next word among the observed continuations of the last two, weighted by
    their counts, so every adjacent word pair of a generated sentence occurs inside some
    training sentence: when the training sentences are the splitter's own output (as the
    pool's are), the splitter never cuts a generated sentence, and it ends where a training
    sentence ended."""

    def __init__(self, sentences):
        vocab = {"": 0}
        codes = []
        kept = 0
        for s in sentences:
            if not (STARTS.match(s) and ENDS.search(s)):
                continue
            kept += 1
            a = b = 0
            for w in s.split() + [None]:
                c = 0 if w is None else vocab.setdefault(w, len(vocab))
                codes.append((a << 40) | (b << 20) | c)
                a, b = b, c
        if len(vocab) >= 1 << 20:
            raise ValueError("more than 2^20 distinct words")
        self.words = [w for w, _ in sorted(vocab.items(), key=lambda kv: kv[1])]
        codes.sort()
        self.codes = array("q", codes)
        self.sentences = kept
        self._link()

    def _link(self):
        """For each code (a, b, c) with c > 0: the range of codes whose context is (b, c)."""
        codes = self.codes
        n = len(codes)
        self.lo, self.hi = array("l", bytes(8 * n)), array("l", bytes(8 * n))
        mask, step = (1 << 40) - 1, 1 << 20
        last, lo, hi = -1, 0, 0
        for i, code in enumerate(codes):
            if code & 0xFFFFF == 0:
                continue
            ctx = (code & mask) << 20  # (b, c, 0)
            if ctx != last:
                lo = bisect_left(codes, ctx)
                hi = bisect_left(codes, ctx + step, lo)
                last = ctx
            self.lo[i], self.hi[i] = lo, hi
        self.start_hi = bisect_left(codes, step)  # context (0, 0): codes [0, start_hi)

    def sentence(self, seed):
        """The sentence of a walk from a seed, or None when it has more than MAX_WORDS words."""
        rnd = random.Random(seed).random
        codes, lo_of, hi_of, words = self.codes, self.lo, self.hi, self.words
        lo, hi = 0, self.start_hi
        out = []
        while True:
            i = lo + int(rnd() * (hi - lo))
            w = codes[i] & 0xFFFFF
            if w == 0:
                return " ".join(out)
            out.append(words[w])
            if len(out) > MAX_WORDS:
                return None
            lo, hi = lo_of[i], hi_of[i]


class Novelty:
    """A Bloom filter of lowercased sentences (2^28 bits, 4 probes; about 0.2 % false positives
    at 16 million sentences): a sentence seen before, or wrongly taken for one, is refused."""

    BITS = 1 << 28

    def __init__(self):
        self.bits = bytearray(self.BITS // 8)

    def _probes(self, s):
        h = hashlib.blake2b(s.lower().encode("utf-8"), digest_size=16).digest()
        return [int.from_bytes(h[k:k + 4], "little") % self.BITS for k in range(0, 16, 4)]

    def add(self, s):
        """Adds s; False when it was (probably) there already."""
        new = False
        for p in self._probes(s):
            byte, bit = p >> 3, 1 << (p & 7)
            if not self.bits[byte] & bit:
                new = True
                self.bits[byte] |= bit
        return new


def new_sentence(model, novelty, rng, tries=50):
    """(seed, text) of a walk of MIN_WORDS-MAX_WORDS words not seen before (by novelty)."""
    for _ in range(tries):
        seed = rng.getrandbits(63)
        s = model.sentence(seed)
        if s is not None and len(s.split()) >= MIN_WORDS and novelty.add(s):
            return seed, s
    raise RuntimeError("no new sentence in %d tries: the model repeats itself" % tries)


# The shared component. A shared item is one sentence (inside the body) or a passage of 2-4
# sentences (a boilerplate tail), and is held by exactly d documents, d drawn per use from a
# law that does not depend on N: uses of class d fill one item after another, so the corpus
# holds about N * rate(d) / d items of class d, each in d documents (the last one partly
# filled). Sentence pairs per document from complete items of class d <= the cap are then
# rate(d) * size * (d - 1) / 2, the same at every N.

def body_classes(share, beta=4.0, d_max=200):
    """[(d, weight)] for shared sentences in the body: items of class d in proportion to
    d^-beta (so uses in proportion to d^(1-beta)), d = 2..d_max; weights sum to share."""
    w = [(d, d ** (1.0 - beta)) for d in range(2, d_max + 1)]
    total = sum(x for _, x in w)
    return [(d, share * x / total) for d, x in w]


# Boilerplate tails: share of the documents that end with a tail of class d (relative: the
# share of documents with a tail is --boilerplate). Most tails are held by a few or a few dozen
# documents, a few by hundreds.
TAIL_CLASSES = [(3, 0.016), (10, 0.016), (30, 0.011), (100, 0.004), (300, 0.001)]

# Sentences held by thousands: share of the originals that end with one sentence of class d.
# At a million documents each class has one sentence held by about 2,000 documents, above
# `slst batch`'s default --max-df of 1000. A class above the cap costs sentence pairs only while
# its sentence is held by fewer than 1000 documents: at most 500 * rate pairs per document, at
# N = 1000 / rate (about 1.1 each at these rates, near 350,000-450,000 documents); the rates
# are kept small so that this bump stays about the size of the rest.
HEAVY_CLASSES = [(2500, 0.0022), (3500, 0.0025)]


class SharedItems:
    """Draws a class from [(d, rate)] and returns the current item of that class, starting a
    new one (from make(rng)) after every d uses."""

    def __init__(self, classes, make):
        self.classes = [d for d, _ in classes]
        acc, self.cum = 0.0, []
        for _, r in classes:
            acc += r
            self.cum.append(acc)
        self.total = acc
        self.make = make
        self.current = {}  # d -> (item, uses so far)

    def draw(self, rng):
        d = self.classes[min(bisect_left(self.cum, rng.random() * self.total), len(self.classes) - 1)]
        item, used = self.current.get(d, (None, d))
        if used >= d:
            item, used = self.make(rng), 0
        self.current[d] = (item, used + 1)
        return item


# Version 2 of the realistic kind: a vocabulary that keeps growing. A trigram walk only emits the
# pool's words, so at a million documents every rare word of the pool recurs in proportion to N,
# and the vocabulary stops growing (Heaps' beta falls towards 0; real text keeps beta near 0.5-0.6:
# new names, figures, spellings). So each token of a walk whose word is rare in the pool
# (at most RARE_COUNT occurrences) is, with probability RENAME_RATE, replaced by variant j >= 1 of
# that word: j drawn from a discrete Lomax law (survival (1 + j / VARIANT_SCALE)^-(VARIANT_ALPHA - 1)),
# whose pmf falls as j^-VARIANT_ALPHA, so that the distinct variants of a word grow as
# uses^(1 / VARIANT_ALPHA) (Heaps' beta 1 / VARIANT_ALPHA at large N). Variant j of a word is a
# fixed function of the word and j: as many syllables of the pool's rare words as the word has
# (SyllableModel; the same capitalisation), or, for a figure, the same figure shape with other digits. The
# replacements of a sentence are a function of its seed, so a copied sentence copies its new words.
# Calibration: docs/benchmarks.md ("Synthetic corpora"), scripts/runs/2026-11-29-vocabulary.
RARE_COUNT, RENAME_RATE, VARIANT_ALPHA, VARIANT_SCALE = 10, 0.75, 1.75, 1.0

TOKEN = re.compile(r"^([^0-9A-Za-z]*)([0-9A-Za-z](?:.*[0-9A-Za-z])?)([^0-9A-Za-z]*)$")
ALPHA = re.compile(r"[A-Za-z]+$")
FIGURE = re.compile(r"[0-9](?:[0-9.,]*[0-9])?$")


def core_of(token):
    """(leading punctuation, core, trailing punctuation) of a whitespace token, or None when it
    holds no letter or digit."""
    m = TOKEN.match(token)
    return m.groups() if m else None


SYLLABLE = re.compile(r"[^aeiouy]*[aeiouy]+|[^aeiouy]+$")


class SyllableModel:
    """Syllables (consonants then vowels) and final consonant clusters of a set of lowercase
    words. word(rng, n) is n syllables (at least 2): the first drawn as often as words begin
    with it, the others uniformly from the distinct inner syllables (thousands: so new words
    rarely collide; a trigram model of letters repeated 13 % of 10,000 walks), then, as often
    as the words end in a consonant, a final cluster drawn as often as words end with it."""

    def __init__(self, words):
        first, inner, codas, n = [], set(), [], 0
        for w in sorted(words):
            parts = SYLLABLE.findall(w)
            sylls = [p for p in parts if p[-1] in "aeiouy"]
            if not sylls:
                continue
            n += 1
            first.append(sylls[0])
            inner.update(sylls[1:])
            if parts[-1][-1] not in "aeiouy":
                codas.append(parts[-1])
        self.first, self.inner, self.codas = first, sorted(inner), codas
        self.coda_rate = len(codas) / n if n else 0.0

    @staticmethod
    def syllables(word):
        return sum(1 for p in SYLLABLE.findall(word) if p[-1] in "aeiouy")

    def word(self, rng, n):
        out = rng.choice(self.first) + "".join(rng.choice(self.inner) for _ in range(max(1, n - 1)))
        if self.codas and rng.random() < self.coda_rate:
            out += rng.choice(self.codas)
        return out


class NewWords:
    """Replaces rare words of a walk by their variants (see the comment above RARE_COUNT)."""

    def __init__(self, sentences, rare=RARE_COUNT, rate=RENAME_RATE, alpha=VARIANT_ALPHA, scale=VARIANT_SCALE):
        count = {}
        for s in sentences:
            for t in s.split():
                parts = core_of(t)
                if parts:
                    key = parts[1].lower()
                    count[key] = count.get(key, 0) + 1
        self.rare = {k for k, c in count.items() if c <= rare and (ALPHA.match(k) or FIGURE.match(k))}
        self.letters = SyllableModel(k for k in self.rare if ALPHA.match(k))
        self.rate, self.alpha, self.scale = rate, alpha, scale
        self.tokens = {}  # token -> (lead, core, trail) when its core is rare, else False
        self.cache = {}

    def variant_index(self, u):
        """j >= 1 from a uniform u in (0, 1]: the discrete Lomax law."""
        return int(self.scale * (u ** (-1.0 / (self.alpha - 1.0)) - 1.0)) + 1

    def variant(self, core, j):
        """Variant j of a rare core, with the core's shape (capitalisation, or digits)."""
        key = (core, j)
        v = self.cache.get(key)
        if v is None:
            h = hashlib.blake2b(f"{core.lower()}\0{j}".encode("utf-8"), digest_size=8).digest()
            rng = random.Random(int.from_bytes(h, "little"))
            if core[0].isdigit():
                v = "".join(str(rng.randrange(1 if i == 0 and c != "0" else 0, 10)) if c.isdigit() else c
                            for i, c in enumerate(core))
            else:
                w = self.letters.word(rng, self.letters.syllables(core.lower()))
                v = w.upper() if core.isupper() and len(core) > 1 else w.capitalize() if core[0].isupper() else w
            if len(self.cache) >= 1 << 20:
                self.cache.clear()
            self.cache[key] = v
        return v

    def apply(self, text, seed):
        """text with its rare tokens replaced, as a function of text and seed."""
        if text is None:
            return None
        rnd = random.Random(seed ^ 0x5EED_0F_4E57_0F_ED).random
        out = text.split(" ")
        for i, t in enumerate(out):
            parts = self.tokens.get(t)
            if parts is None:
                parts = core_of(t) or False
                if parts and parts[1].lower() not in self.rare:
                    parts = False
                if len(self.tokens) < 1 << 21:
                    self.tokens[t] = parts
            if parts and rnd() < self.rate:
                lead, core, trail = parts
                out[i] = lead + self.variant(core, self.variant_index(1.0 - rnd())) + trail
        return " ".join(out)


class RenamingModel:
    """A TrigramModel whose walks have their rare words replaced (NewWords): sentence(seed)."""

    def __init__(self, model, new_words):
        self.model, self.new_words = model, new_words
        self.sentences, self.words = model.sentences, model.words

    def sentence(self, seed):
        return self.new_words.apply(self.model.sentence(seed), seed)
