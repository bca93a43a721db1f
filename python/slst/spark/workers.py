"""What runs in the Python workers, partition by partition: sketching (stage 2), the witness
join's walk plan, bound and pair check (stage 3) and verification (stage 4), each a thin loop
over the package's ``Detector``. Keys cross to Spark as signed 64-bit longs (``_signed``)."""

from __future__ import annotations

import hashlib
import resource
import zlib
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

import slst

#: Candidate pairs verified per call into Rust (the GIL released for the whole batch).
VERIFY_BATCH = 4096

#: The deflate level of the sketches the job ships (``_shipped``): the fastest, which already
#: halves a robust sketch's JSON (6.5 KB to 2.9 KB on the realistic corpus) where the shuffle's
#: own compression takes off about a third.
SKETCH_LEVEL = 1

_SIGN = 1 << 63


def _signed(key: int) -> int:
    """A 64-bit key as Spark's signed LongType."""
    return key - (1 << 64) if key >= _SIGN else key


def _shipped(sketch: Any) -> bytes:
    """A sketch's bytes as the job stores and ships them: deflated (``_unshipped`` reads them)."""
    return zlib.compress(sketch.to_bytes(), SKETCH_LEVEL)


def _unshipped(data: Any) -> bytes:
    """The bytes ``Detector.read_sketch`` reads, from a shipped sketch (``_shipped``)."""
    return zlib.decompress(data)


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


# --- stage 2: sketches -------------------------------------------------------------------


def _sketch_partition(
    rows: Iterable[Tuple[int, Optional[str], Any, Optional[str]]],
    method: str,
    mode: str,
    params: Dict[str, Any],
    duplicates: bool,
    max_bytes: int,
    witness: bool,
    words: bool,
    passages: bool = False,
) -> Iterator[tuple]:
    """(position, id, sketch, keys, witness keys, units, vocabulary, its counts per bucket,
    pair-check values, seed witness keys, seed units, a hash of the text, text, stop-word list,
    problem, worker peak RSS in MB) per document (the list's id with the stop words ``auto``
    only: ``Detector.stopwords_of``). With witness keys (robust SL+ST), those are the join's keys, each with its
    unit, and the values its candidates are screened by (``Detector.pair_check_values``); with
    ``words``, the vocabulary the word rule compares. With ``passages`` (``min_shared_words``),
    the text, and with witness keys also those of the units every seed of a passage lies in
    (``Detector.witness_keys(sketch, seeds=True)``) and their number."""
    detector = slst.detector(method, mode, **params)
    auto = detector.stopwords_of("") is not None
    for position, doc_id, text, problem in rows:
        doc_id = doc_id if doc_id is not None else f"#{position}"
        if problem is None:
            size = len(text) if isinstance(text, (bytes, bytearray)) else len(text.encode("utf-8", "surrogatepass"))
            if size > max_bytes:
                problem = f"{doc_id}: {size} bytes is more than the limit of {max_bytes} bytes"
        if problem is None and isinstance(text, (bytes, bytearray)):
            try:
                text = slst.decode(bytes(text))
            except slst.SlstError as e:
                problem = f"{doc_id}: {e}"
        if problem is not None:
            yield (position, doc_id) + (None,) * 12 + (problem, _rss_mb())
            continue
        sketch = detector.sketch(text, id=doc_id)
        kept = text if passages else None
        lists = detector.stopwords_of(text) if auto else None
        if witness:
            wkeys, units = _witnesses(detector, sketch, seeds=False)
            seeds, seed_units = _witnesses(detector, sketch, seeds=True) if passages else (None, None)
            terms = detector.vocabulary(sketch) if words else None
            vocab = None if terms is None else [_signed(t) for t in terms]
            checks = detector.pair_check_values(sketch)
            yield (
                position, doc_id, _shipped(sketch), None, wkeys, units, vocab,
                None if terms is None else _word_buckets(terms),
                None if checks is None else [_signed(v) for v in checks],
                seeds, seed_units, _content(text), kept, lists, None, _rss_mb(),
            )
            continue
        keys = detector.keys(sketch, duplicates=duplicates)
        if keys is None:
            raise ValueError(
                f"method {method} has no join keys; every pair must be compared: use slst batch"
            )
        yield (
            position, doc_id, _shipped(sketch), [_signed(k) for k in keys],
            *(None,) * 8, kept, lists, None, _rss_mb(),
        )


def _content(text: str) -> bytes:
    """A 128-bit hash of a document's text: equal texts are exact copies, which the default
    mode's join sees once (as ``slst batch`` does)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _witnesses(detector: Any, sketch: Any, seeds: bool) -> Tuple[List[tuple], int]:
    """A sketch's witness keys as Spark rows ``(key, unit, l1, l2)`` and its number of units
    (with ``seeds``, those of its seed sketch)."""
    found = detector.witness_keys(sketch, seeds=seeds)
    assert found is not None
    keys, units = found
    return [(_signed(k), u, l1, l2) for k, u, l1, l2 in keys], units


def _batched(rows: Iterable[Any], decide: Any, size: int = 65536) -> Iterator[Any]:
    """What ``decide`` yields for the rows, handed over ``size`` at a time (one call into Rust
    a batch, with the GIL released)."""
    batch: List[Any] = []
    for r in rows:
        batch.append(r)
        if len(batch) >= size:
            yield from decide(batch)
            batch = []
    if batch:
        yield from decide(batch)


def _bound_partition(
    rows: Iterable[Any], method: str, mode: str, params: Dict[str, Any], rule: str, containment: float
) -> Iterator[Tuple[Any, ...]]:
    """The rows whose witnessed units ``m`` (of ``na`` and ``nb``) could satisfy the rule (the
    corpus join's bound), each as it came."""
    detector = slst.detector(method, mode, **params)

    def decide(batch: List[Any]) -> Iterator[Tuple[Any, ...]]:
        keep = detector.may_keep_matched(
            [(r.m, r.na, r.nb) for r in batch], rule=rule, containment=containment
        )
        assert keep is not None  # the job joins on witness keys only for a method with the bound
        for r, k in zip(batch, keep):
            if k:
                yield tuple(r)

    return _batched(rows, decide)


#: Buckets of term ids whose counts bound two vocabularies' common terms (the word join). Each
#: pair past the positional filter carries one document's counts across the network: with 256
#: buckets that was 6.1 of the job's 25.7 KB a document at 100,000 realistic documents; with
#: 64 the bound lets about 1.5 times as many pairs fetch their vocabularies (few: 0.1 a
#: document at 20,000), for a quarter of the counts.
WORD_BUCKETS = 64


def _word_buckets(terms: List[int]) -> Optional[List[int]]:
    """How many of the terms (64-bit ids, hashes) fall in each of ``WORD_BUCKETS`` buckets: the
    sum over buckets of two documents' smaller counts is at least their common terms. None
    when a count passes a signed byte's 127 (a vocabulary of thousands of terms): the bound
    is then not made for that document."""
    counts = [0] * WORD_BUCKETS
    for t in terms:
        counts[t % WORD_BUCKETS] += 1
    return counts if max(counts, default=0) <= 127 else None


def _unsigned(values: List[int]) -> List[int]:
    """Spark's signed longs as the 64-bit values they stand for (``_signed`` undone; the
    order of a list as sent is kept)."""
    return [v & 0xFFFF_FFFF_FFFF_FFFF for v in values]


def _screen_partition(
    rows: Iterable[Any], method: str, mode: str, params: Dict[str, Any], rule: str, containment: float
) -> Iterator[Tuple[int, int]]:
    """The candidate pairs the method's pair check keeps (``Detector.may_keep_pairs``: what
    ``slst batch`` checks before it compares a pair), each row ``(a, b, na, va, nb, vb)``."""
    detector = slst.detector(method, mode, **params)

    def decide(batch: List[Any]) -> Iterator[Tuple[int, int]]:
        keep = detector.may_keep_pairs(
            [(r.na, _unsigned(r.va), r.nb, _unsigned(r.vb)) for r in batch],
            rule=rule,
            containment=containment,
        )
        for i, r in enumerate(batch):
            if keep is None or keep[i]:
                yield r.a, r.b

    return _batched(rows, decide)


# --- stage 4: verification ---------------------------------------------------------------


def _verify_partition(
    rows: Iterable[Any],
    method: str,
    mode: str,
    params: Dict[str, Any],
    rule: str,
    containment: float,
    min_shared_words: Optional[int] = None,
    lists: bool = False,
) -> Iterator[Tuple[int, int, str, float]]:
    """``(a, b, line, worker peak RSS in MB)`` for each candidate pair kept: by the rule
    (``Detector.verify_many``), or with ``min_shared_words`` also by a passage of that many
    words, each pair then compared unbounded and grown on its texts (rows with ``a_text`` and
    ``b_text``; ``Detector.verify_passages``). With ``lists``, rows with ``a_stopwords`` and
    ``b_stopwords``, which the lines name."""
    detector = slst.detector(method, mode, **params)
    batch: List[Tuple[int, int]] = []
    items: List[tuple] = []
    chosen: Optional[List[Tuple[str, str]]] = [] if lists else None

    def verified():
        if min_shared_words is None:
            return detector.verify_many(
                items, rule=rule, containment=containment, stopwords=chosen
            )
        return detector.verify_passages(
            items, min_shared_words, rule=rule, containment=containment, stopwords=chosen
        )

    def flush():
        for i, line in verified():
            yield batch[i][0], batch[i][1], line, _rss_mb()
        batch.clear()
        items.clear()
        if chosen is not None:
            chosen.clear()

    for r in rows:
        batch.append((r.a, r.b))
        if chosen is not None:
            chosen.append((r.a_stopwords, r.b_stopwords))
        if min_shared_words is None:
            items.append((r.a_id, _unshipped(r.a_sketch), r.b_id, _unshipped(r.b_sketch)))
        else:
            items.append(
                (r.a_id, _unshipped(r.a_sketch), r.a_text, r.b_id, _unshipped(r.b_sketch), r.b_text)
            )
        if len(items) >= VERIFY_BATCH:
            yield from flush()
    yield from flush()


def _unit_keys_partition(
    rows: Iterable[Any], fewest: List[Optional[int]]
) -> Iterator[Tuple[int, int, List[int]]]:
    """Per document some pair may keep, ``(pos, units, witness keys per unit)`` (``wunits``:
    the unit of each of its witness keys)."""
    for r in rows:
        n = r.units
        if not (0 < n < len(fewest)) or fewest[n] is None:
            continue
        keys = [0] * n
        for unit in r.wunits:
            keys[unit] += 1
        yield r.pos, n, keys


def _plan_partition(
    rows: Iterable[Any],
    max_df: int,
    fewest: List[Optional[int]],
    extra: int,
    rare: Optional[Tuple[int, int]] = None,
) -> Iterator[Tuple[int, int, List[int], int, List[int]]]:
    """Per document, the units the witness join walks: the cheapest set that holds ``extra`` + 1
    witnesses of every pair the rule could keep (with ``extra`` 0, the first walk of
    ``slst batch``), or all of them when that set costs half their cost or more; what
    walking each costs being the postings of its keys: the document's witness keys per unit
    (``keys``) and the document frequency of each key it holds with another document
    (``slots``, unit · 2³² + df) in; ``(pos, units, walked units, units assumed witnessed)``
    out, with the units' ``slst.rare_bounds`` under ``rare`` (``Detector.rare_keys``: rare_df
    and rare_budget; else none). Keys held by more than
    ``max_df`` documents are boilerplate: they witness nothing and cost nothing, and so does a
    key a unit does not look up. The units not walked are counted exactly afterwards, for the
    pairs the walk lets pass, as ``slst batch`` counts them: so the candidates do not depend on
    which units are walked, and this plan may cost a unit otherwise than batch does."""
    for r in rows:
        n = r.units
        slots = r.slots or ()
        bounds = slst.rare_bounds(n, list(slots), max_df, *rare) if rare else []
        cost = list(r.keys)  # a key held by this document alone: its one posting
        for packed in slots:
            unit, df = packed >> 32, packed & 0xFFFF_FFFF
            looked = df <= max_df and (not bounds or min(df, 255) <= bounds[unit])
            cost[unit] += df - 1 if looked else -1
        # A pair needs `fewest[n]` units in blocks; planned for `extra` fewer, the walk
        # assumes `extra` fewer units witnessed, so a pair must have `extra` + 1 of the walked
        # ones witnessed to pass.
        walked, assumed = slst.plan_walk(cost, max(1, fewest[n] - extra))
        yield r.pos, n, [u for u in range(n) if walked[u]], assumed, bounds


def _word_prefix_partition(
    rows: Iterable[Any], level: float, shared: Dict[int, int]
) -> Iterator[tuple]:
    """Per document, its vocabulary's size and prefixes under the corpus order (document
    frequency, rarest first; ties by the terms' unsigned ids), as ``slst batch`` ranks them:
    the probing prefix (J ≥ v) and the shorter indexed one (against a document at least as
    large, J ≥ v needs an overlap of 2v/(1 + v) of it). ``shared``: the document frequency of
    every term held by two documents or more; any other is held by one."""
    middle = 2.0 * level / (1.0 + level)
    for r in rows:
        ordered = sorted(r.vocab, key=lambda t: (shared.get(t, 1), t & 0xFFFF_FFFF_FFFF_FFFF))
        size = len(ordered)
        probe = slst.prefix_len(size, level)
        indexed = min(slst.prefix_len(size, middle), probe)
        terms = ordered[:probe]
        yield r.pos, size, terms, terms[:indexed]


def _word_probe_rows(
    rows: Iterable[Any], left_out: frozenset, indexed: bool = False
) -> Iterator[Tuple[int, int, int]]:
    """The probe rows of the word join, ``(x · 2³² + sx, i · 2³² + k, term)``: each term of a
    document's probing prefix not left out, at its place ``i``, with ``k`` the terms left out
    before it there; with ``indexed``, the index rows ``(y · 2³² + sy, j · 2³² + ky, term)``,
    of its indexed prefix."""
    for r in rows:
        k = 0
        head = r.pos << 32 | r.size
        for i, term in enumerate(r.indexed if indexed else r.probe):
            if term in left_out:
                k += 1
            else:
                yield head, i << 32 | k, term
