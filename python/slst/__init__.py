"""slst: near-duplicate documents and reused text by sentence structure.

SL+ST (sentence lengths + suffix array) and the shingling baselines, from Python. The work is
done in Rust with the GIL released; the results are the same as the ``slst`` command's.

    import slst
    r = slst.compare(text_a, text_b)          # robust SL+ST, as `slst compare`
    r.duplicate, r.resemblance, r.containment_a
    [text_a[b.a] for b in r.blocks]           # the common sentence blocks
    for p in slst.pairs(docs):                # docs: any iterable of (id, text),
        print(p.a, p.b, p.resemblance)        # or an Arrow table (pyarrow, polars, ...)
    d = slst.dedup(docs, keep="longest")      # d.kept: the ids to keep; d.dropped: the rest
    slst.pairs(table).to_arrow()              # the pairs as a pyarrow.Table

Spans are ``slice`` objects over the Python strings: ``a[r.blocks[0].a]`` is the first block's
text in ``a``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable, List, Optional, Tuple, Union

from ._slst import ID_COLUMN, TEXT_COLUMN

from ._slst import (
    Block,
    Comparison,
    Dedup,
    Detector,
    Dropped,
    Pair,
    Pairs,
    Passage,
    Profile,
    Sentence,
    Sketch,
    SlstError,
    __version__,
    decide,
    decode,
    methods,
    plan_walk,
    prefix_len,
    rare_bounds,
    RARE_KEYS,
)
from ._slst import dedup as _dedup
from ._slst import profile as _profile

__all__ = [
    "Block",
    "Comparison",
    "Dedup",
    "Detector",
    "Dropped",
    "Pair",
    "Pairs",
    "Passage",
    "Profile",
    "Sentence",
    "Sketch",
    "SlstError",
    "__version__",
    "compare",
    "decide",
    "decode",
    "dedup",
    "detector",
    "keys",
    "methods",
    "pairs",
    "plan_walk",
    "prefix_len",
    "profile",
    "rare_bounds",
    "RARE_KEYS",
    "sketch",
    "verify",
]


@lru_cache(maxsize=64)
def _detector(method: str, mode: str, params: Tuple[Tuple[str, Any], ...]) -> Detector:
    return Detector(method, mode, dict(params))


def detector(method: str = "slst", mode: str = "robust", **params: Any) -> Detector:
    """The detector of ``method`` (``slst``, ``shingle``, ``megashingle``, ``polyhash``, …) in
    ``mode`` (SL+ST only: ``robust``, the default, or ``paper``, the published method), with
    settings by name as the command line spells them (``min_block=3``,
    ``term_similarity=0.5``). Built once per distinct settings and reused."""
    return _detector(method, mode, tuple(sorted(params.items())))


def compare(
    a: str,
    b: str,
    method: str = "slst",
    mode: str = "robust",
    *,
    passages: bool = True,
    **params: Any,
) -> Comparison:
    """Compare two texts: scores, the decision, the common sentence blocks and (for SL+ST)
    the reused passages, with spans as slices of ``a`` and ``b``. The same record as
    ``slst compare --json`` (``Comparison.to_json()``)."""
    return detector(method, mode, **params).compare(a, b, passages=passages)


def profile(text: str, **params: Any) -> Profile:
    """The paper's sentence profile of a text: the length string (one base-36 character per
    kept sentence) and each sentence's span, length and leading terms. Settings:
    ``max_length``, ``leading_terms``, ``stopwords``."""
    return _profile(text, params or None)


def sketch(
    text: str, method: str = "slst", mode: str = "robust", *, id: str = "doc", **params: Any
) -> Sketch:
    """What ``method`` keeps of one text: compare two with :func:`verify`, ship one with
    ``Sketch.to_bytes()``, join on :func:`keys`."""
    return detector(method, mode, **params).sketch(text, id=id)


def keys(
    doc: Union[str, Sketch],
    method: str = "slst",
    mode: str = "robust",
    *,
    duplicates: bool = True,
    **params: Any,
) -> Optional[List[int]]:
    """Join keys of a text or sketch: any two documents the method reports as near-duplicates
    share at least one (with ``duplicates=False``: any two with a score above 0), so a
    distributed join on them finds every pair. ``None`` for a method without such keys."""
    if isinstance(doc, Sketch):
        return doc.detector.keys(doc, duplicates=duplicates)
    d = detector(method, mode, **params)
    return d.keys(d.sketch(doc), duplicates=duplicates)


def verify(a: Sketch, b: Sketch, *, passages: bool = True) -> Comparison:
    """Compare two sketches made by the same detector (passages too when both sketches were
    made here, from their texts)."""
    return a.detector.verify(a, b, passages=passages)


def pairs(
    docs: Union[Iterable[Tuple[Any, Union[str, bytes]]], Any],
    method: str = "slst",
    mode: str = "robust",
    *,
    rule: str = "duplicates",
    containment: float = 0.8,
    max_df: int = 1000,
    threads: Optional[int] = None,
    group_at: float = 0.9,
    id_column: str = ID_COLUMN,
    text_column: str = TEXT_COLUMN,
    min_shared_words: Optional[int] = None,
    **params: Any,
) -> Pairs:
    """Every near-duplicate pair of a corpus. ``docs`` is any iterable of ``(id, text)``
    (a generator, a file being read): items are taken one at a time while the run goes on in
    Rust without the GIL. Or it is an Arrow table — any object with ``__arrow_c_stream__``: a
    pyarrow Table, RecordBatch or RecordBatchReader, a polars DataFrame — read a record batch
    at a time, each document's id and text from the columns ``id_column`` and ``text_column``
    (``id`` and ``text``, as ``slst batch`` reads Parquet; the id a string or an integer
    column), with no Python object per row. Returns an iterator of :class:`Pair` — every pair,
    in the order ``slst batch`` writes them (``Pair.to_json()`` is its line) — with
    ``clusters`` (lists of ids), ``groups`` (the duplicate groups: documents every two of which
    are a pair at J ≥ ``group_at``, lists of ids), ``group_records`` (their lines as ``slst
    batch --groups FILE`` writes them), ``documents`` (how many were read) and ``to_arrow()``
    (every pair as a ``pyarrow.Table``, the columns of ``slst batch``'s Parquet output).

    ``rule``: ``duplicates`` (the method's decision), ``contained`` (either containment at
    least ``containment``), ``scored`` (every pair with a score above 0) or ``templates`` (the
    duplicates, and the pairs the method refuses as templates — one text filled with other
    figures, one notice for another party — each marked with ``"template"`` in its line and
    in no cluster or group, as ``slst batch --templates report`` writes them).

    ``min_shared_words``: also every pair sharing at least this many words in one passage,
    whatever the documents' lengths (``slst batch --min-shared-words``; the slst method): each
    such pair has its ``passages`` (byte spans in the two texts), and one the rule alone would
    not keep is decided by ``passage``."""
    return detector(method, mode, **params).pairs(
        docs,
        rule=rule,
        containment=containment,
        max_df=max_df,
        threads=threads,
        group_at=group_at,
        id_column=id_column,
        text_column=text_column,
        min_shared_words=min_shared_words,
    )


def dedup(
    docs: Union[Iterable[Union[str, bytes, Tuple[Any, Union[str, bytes]]]], Any],
    method: str = "slst",
    mode: str = "robust",
    *,
    keep: str = "first",
    rule: str = "duplicates",
    containment: float = 0.8,
    max_df: int = 1000,
    threads: Optional[int] = None,
    id_column: str = ID_COLUMN,
    text_column: str = TEXT_COLUMN,
    **params: Any,
) -> Dedup:
    """The corpus without its near-duplicates, as ``slst dedup`` decides it. ``docs`` is any
    iterable of ``(id, text)``, or of texts alone (their ids are then their positions, from
    ``"0"``), or an Arrow table read from its columns ``id_column`` and ``text_column`` (as in
    :func:`pairs`). The pairs are those of :func:`pairs` with the same settings; documents are
    ranked by ``keep`` — ``first`` (input order), ``longest`` (most bytes of text) or
    ``most-sentences`` (most kept sentences), ties in input order — and walked in that order: a
    document that forms a pair with a document already kept is dropped, the others kept.

    Returns a :class:`Dedup`: ``kept`` (the kept ids, in input order), ``kept_indices``
    (their positions), ``dropped`` (a :class:`Dropped` row per dropped document: the kept
    document it copies, the pair's resemblance and containments, ``to_json()`` the line ``slst
    dedup`` writes), ``documents`` (how many were read), ``to_arrow()`` (the dropped rows as
    a ``pyarrow.Table``) and, for an Arrow table, ``kept_table()`` (its kept rows)."""
    if not hasattr(docs, "__arrow_c_stream__"):
        docs = (
            (str(i), d) if isinstance(d, (str, bytes)) else d for i, d in enumerate(docs)
        )
    return _dedup(
        detector(method, mode, **params),
        docs,
        keep=keep,
        rule=rule,
        containment=containment,
        max_df=max_df,
        threads=threads,
        id_column=id_column,
        text_column=text_column,
    )
