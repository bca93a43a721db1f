"""Corpus discovery on Apache Spark: every near-duplicate pair and cluster of a corpus too large
for one machine, with the pairs ``slst batch`` finds.

The job, stage by stage (each a Spark stage of its own, timed in the run record):

1. **read** JSON lines (``sc.textFile``), Parquet (``id``/``text`` columns) or a folder of
   text files (``sc.binaryFiles``, decoded as ``slst batch`` decodes files). Every document
   gets its position in the input, which orders each pair as ``slst batch`` does (``a`` the
   earlier document). A record that cannot be a document (not JSON, no text field, text over
   ``--max-bytes``, binary data) is counted and written to ``bad.jsonl``, never fatal.
2. **sketch** each partition with the Python package (``mapPartitions``): the sketch as bytes
   and the method's join keys, such that any two documents the method reports share a key.
3. **candidates**: the keys exploded and joined with Spark's own shuffle (a self-join on the
   key); a key held by more than ``--max-df`` documents is boilerplate and dropped, as
   ``slst batch`` drops runs shared by more than ``--max-df`` documents. In robust mode,
   also the pairs alike in their words: each text's rarest terms (by the corpus's document
   frequencies) looked up among the documents before it, as ``slst batch`` does.
4. **verify** the candidate pairs in partitions (``Detector.verify_many``): the method's own
   comparison and decision, each kept pair written as the line ``slst batch`` writes.
5. **clusters**: connected components of the pairs, by min-label propagation with joins.

Outputs in ``--out``: ``pairs.jsonl/`` (the lines of ``slst batch``, ordered by input
position), ``pairs.parquet/``, ``clusters.jsonl/`` and ``clusters.parquet/`` (``id``,
``cluster``: the id of the cluster's earliest document), ``bad.jsonl/`` and ``run.json``
(counts, per-stage seconds, shuffle bytes, peak memory).

Run it locally::

    python -m slst.spark corpus.jsonl --out result/ --master 'local[2]'

and on a cluster with the wheel shipped to the executors (``docs/python.md``)::

    spark-submit --py-files slst-0.1.0-cp39-abi3-manylinux_2_34_x86_64.whl \\
        -m slst.spark s3://bucket/corpus.jsonl --out s3://bucket/result/
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
import urllib.request
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

import slst

#: Candidate pairs verified per call into Rust (the GIL released for the whole batch).
VERIFY_BATCH = 4096

_SIGN = 1 << 63


def _signed(key: int) -> int:
    """A 64-bit key as Spark's signed LongType."""
    return key - (1 << 64) if key >= _SIGN else key


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


# --- stage 1: documents ------------------------------------------------------------------


def _jsonl_record(
    raw: bytes, position: int, id_field: str, text_field: str, max_bytes: int
) -> Tuple[int, Optional[str], Optional[str], Optional[str]]:
    """(position, id, text, problem) of one JSON line, read as bytes: a line that is not UTF-8
    is a bad record, as in ``slst batch``, and so is a line over the size limit (not parsed)."""
    if len(raw) > max_bytes:
        return (
            position, None, None,
            f"line {position + 1}: a line of {len(raw)} bytes is more than the limit of {max_bytes} bytes",
        )
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return position, None, None, f"line {position + 1}: not valid UTF-8 (JSON must be): {e.reason} at byte {e.start}"
    # Spark's text reader hands bytes that are not UTF-8 over as U+FFFD, so a raw U+FFFD (not
    # the JSON escape \ufffd) is taken for one (slst batch, which sees the bytes, reads a line
    # with a genuine U+FFFD: the one place where the two can differ).
    if "\ufffd" in line:
        return position, None, None, f"line {position + 1}: not valid UTF-8 (JSON must be)"
    try:
        record = json.loads(line)
    except ValueError as e:
        return position, None, None, f"line {position + 1}: not JSON ({e})"
    if not isinstance(record, dict):
        return position, None, None, f"line {position + 1}: not a JSON object"
    doc_id = record.get(id_field)
    text = record.get(text_field)
    if doc_id is None:
        return position, None, None, f"line {position + 1}: no {id_field!r} field"
    doc_id = doc_id if isinstance(doc_id, str) else json.dumps(doc_id)
    if not isinstance(text, str):
        fields = ", ".join(sorted(record)) or "none"
        return (
            position,
            doc_id,
            None,
            f"line {position + 1}: no {text_field!r} text field (fields: {fields})",
        )
    return position, doc_id, text, None


def read_documents(
    spark, inputs: List[str], fmt: str, id_field: str, text_field: str, max_bytes: int = 256 << 20
):
    """An RDD of (position, id, text-or-bytes, problem) in input order."""
    sc = spark.sparkContext
    if fmt == "jsonl":
        lines = sc.textFile(",".join(inputs), use_unicode=False).zipWithIndex()
        return lines.map(lambda li: _jsonl_record(li[0], li[1], id_field, text_field, max_bytes))
    if fmt == "text":
        files = sc.binaryFiles(",".join(inputs))
        paths = sorted(files.keys().collect())
        # Ids as slst batch gives them: the path inside the folder named, or the file's name.
        roots = [i.rstrip("/") + "/" for i in inputs]

        def relative(path: str) -> str:
            bare = path.split(":", 1)[1].lstrip("/") if path.startswith("file:") else path
            for root in roots:
                r = root.split(":", 1)[1].lstrip("/") if root.startswith("file:") else root
                r = r.lstrip("/")
                if bare.lstrip("/").startswith(r):
                    return bare.lstrip("/")[len(r):]
            return os.path.basename(path)

        rank = sc.broadcast({p: i for i, p in enumerate(paths)})
        return files.map(lambda pb: (rank.value[pb[0]], relative(pb[0]), pb[1], None))
    if fmt == "parquet":
        df = spark.read.parquet(*inputs).select(id_field, text_field)
        return df.rdd.zipWithIndex().map(
            lambda ri: (
                ri[1],
                None if ri[0][0] is None else str(ri[0][0]),
                ri[0][1],
                None if isinstance(ri[0][1], (str, bytes, bytearray)) else f"row {ri[1]}: no text",
            )
        )
    raise ValueError(f"unknown format {fmt!r}; the formats are jsonl, text, parquet")


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
) -> Iterator[tuple]:
    """(position, id, sketch, keys, witness keys, units, vocabulary, problem, worker peak RSS
    in MB) per document. With witness keys (robust SL+ST), those are the join's keys, each with
    its unit; with ``words``, the vocabulary the word rule compares."""
    detector = slst.detector(method, mode, **params)
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
            yield position, doc_id, None, None, None, None, None, problem, _rss_mb()
            continue
        sketch = detector.sketch(text, id=doc_id)
        if witness:
            found = detector.witness_keys(sketch)
            assert found is not None
            wkeys, units = found
            vocab = [_signed(t) for t in detector.vocabulary(sketch) or []] if words else None
            yield (
                position, doc_id, sketch.to_bytes(), None,
                [(_signed(k), u, l1, l2) for k, u, l1, l2 in wkeys], units, vocab, None,
                _rss_mb(),
            )
            continue
        keys = detector.keys(sketch, duplicates=duplicates)
        if keys is None:
            raise ValueError(
                f"method {method} has no join keys; every pair must be compared: use slst batch"
            )
        yield (
            position, doc_id, sketch.to_bytes(), [_signed(k) for k in keys], None, None, None,
            None, _rss_mb(),
        )


def _bound_partition(
    rows: Iterable[Any], method: str, mode: str, params: Dict[str, Any], rule: str, containment: float
) -> Iterator[Tuple[int, int]]:
    """The pairs whose witnessed units could satisfy the rule (the corpus join's bound)."""
    detector = slst.detector(method, mode, **params)
    batch: List[Any] = []

    def flush():
        keep = detector.may_keep_matched(
            [(r.m, r.na, r.nb) for r in batch], rule=rule, containment=containment
        )
        for r, k in zip(batch, keep):
            if k:
                yield min(r.a, r.b), max(r.a, r.b)
        batch.clear()

    for r in rows:
        batch.append(r)
        if len(batch) >= 65536:
            yield from flush()
    yield from flush()


# --- stage 4: verification ---------------------------------------------------------------


def _verify_partition(
    rows: Iterable[Any], method: str, mode: str, params: Dict[str, Any], rule: str, containment: float
) -> Iterator[Tuple[int, int, str, float]]:
    detector = slst.detector(method, mode, **params)
    batch: List[Tuple[int, int]] = []
    items: List[Tuple[str, bytes, str, bytes]] = []

    def flush():
        for i, line in detector.verify_many(items, rule=rule, containment=containment):
            yield batch[i][0], batch[i][1], line, _rss_mb()
        batch.clear()
        items.clear()

    for r in rows:
        batch.append((r.a, r.b))
        items.append((r.a_id, bytes(r.a_sketch), r.b_id, bytes(r.b_sketch)))
        if len(items) >= VERIFY_BATCH:
            yield from flush()
    yield from flush()


# --- stage 5: clusters -------------------------------------------------------------------


def connected_components(spark, edges):
    """Connected components of an undirected graph of (a, b) long pairs, as (vertex, label)
    with the label the smallest vertex of the component: min-label propagation, one join per
    round, until no label changes (rounds grow with the diameter, small for near-duplicate
    clusters)."""
    from pyspark.sql import functions as F

    both = edges.select(F.col("a").alias("src"), F.col("b").alias("dst")).union(
        edges.select(F.col("b").alias("src"), F.col("a").alias("dst"))
    ).cache()
    labels = both.select(F.col("src").alias("v")).distinct().withColumn("label", F.col("v"))
    rounds = 0
    while True:
        rounds += 1
        proposed = (
            both.join(labels, both.src == labels.v)
            .groupBy("dst")
            .agg(F.min("label").alias("proposed"))
        )
        updated = (
            labels.join(proposed, labels.v == proposed.dst, "left")
            .select("v", F.least("label", F.coalesce("proposed", "label")).alias("label"))
            .localCheckpoint()
        )
        changed = updated.join(labels.withColumnRenamed("label", "old"), "v").where(
            F.col("label") != F.col("old")
        ).count()
        labels = updated
        if changed == 0:
            return labels, rounds


# --- the job -----------------------------------------------------------------------------


def _rest(spark, endpoint: str) -> Optional[list]:
    """One of the application's endpoints of Spark's REST API (None when the UI is off)."""
    url = spark.sparkContext.uiWebUrl
    if not url:
        return None
    app = spark.sparkContext.applicationId
    try:
        with urllib.request.urlopen(f"{url}/api/v1/applications/{app}/{endpoint}", timeout=10) as r:
            return json.load(r)
    except OSError:
        return None


def _shuffle_bytes(spark) -> Optional[Dict[str, int]]:
    """Shuffle bytes written and read over the application."""
    stages = _rest(spark, "stages")
    if stages is None:
        return None
    return {
        "shuffle_write_bytes": sum(s.get("shuffleWriteBytes", 0) for s in stages),
        "shuffle_read_bytes": sum(s.get("shuffleReadBytes", 0) for s in stages),
    }


def _jvm_peak_mb(spark) -> Optional[float]:
    """The largest peak JVM memory (heap and off-heap) of the executors (in local mode, the
    driver's)."""
    executors = _rest(spark, "executors")
    if not executors:
        return None
    peaks = [
        (e.get("peakMemoryMetrics") or {}).get("JVMHeapMemory", 0)
        + (e.get("peakMemoryMetrics") or {}).get("JVMOffHeapMemory", 0)
        for e in executors
    ]
    return max(peaks) / 2**20 if peaks else None


def _plan_partition(
    rows: Iterable[Any], max_df: int, fewest: List[Optional[int]]
) -> Iterator[Tuple[int, List[int], int]]:
    """Per document, the units the witness join walks (``slst batch``'s own plan): the
    document's slots with each key's document frequency in, ``(pos, walked units, units
    assumed witnessed)`` out; nothing for a document no pair can keep. Keys held by more than
    ``max_df`` documents are boilerplate: they witness nothing and cost nothing."""
    for r in rows:
        n = r.units
        least = fewest[n] if 0 < n < len(fewest) else None
        if least is None:
            continue
        cost = [0] * n
        for unit, df in r.slots:
            if df <= max_df:
                cost[unit] += df
        walked, assumed = slst.plan_walk(cost, least)
        yield r.pos, [u for u in range(n) if walked[u]], assumed


def _word_prefix_partition(rows: Iterable[Any], level: float) -> Iterator[tuple]:
    """Per document, its vocabulary's size and prefixes under the corpus order (document
    frequency, rarest first; ties by the terms' unsigned ids), as ``slst batch`` ranks them:
    the probing prefix (J ≥ v) and the shorter indexed one (against a document at least as
    large, J ≥ v needs an overlap of 2v/(1 + v) of it)."""
    middle = 2.0 * level / (1.0 + level)
    for r in rows:
        ordered = sorted(r.terms, key=lambda t: (t.df, t.term & 0xFFFF_FFFF_FFFF_FFFF))
        size = len(ordered)
        probe = slst.prefix_len(size, level)
        indexed = min(slst.prefix_len(size, middle), probe)
        terms = [t.term for t in ordered[:probe]]
        yield r.pos, size, terms, terms[:indexed]


def _word_candidates(spark, good, level: float, cap: int):
    """Pairs (a, b), a < b, that may be duplicates on their words, as ``slst batch`` finds
    them: each document looks its prefix terms up among the indexed prefixes of the documents
    before it in (vocabulary size, position) order whose sizes fit, a term indexed by more
    than ``cap`` documents left out (and counted); of the pairs met, those whose vocabularies
    have a Jaccard coefficient of at least ``level``. Returns the pairs and the count of terms
    left out."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import ArrayType, IntegerType, LongType, StructField, StructType

    # Every document's terms count in the document frequencies, as in slst batch; only those
    # with a kept unit can have a block, so a pair on words.
    df = (
        good.select(F.explode("vocab").alias("term"))
        .groupBy("term")
        .agg(F.count("*").alias("df"))
    )
    docs = good.where((F.col("units") > 0) & (F.size("vocab") > 0)).select("pos", "vocab")
    terms = docs.select("pos", F.explode("vocab").alias("term"))
    schema = StructType(
        [
            StructField("pos", LongType(), False),
            StructField("size", IntegerType(), False),
            StructField("probe", ArrayType(LongType()), False),
            StructField("indexed", ArrayType(LongType()), False),
        ]
    )
    prefixes = spark.createDataFrame(
        terms.join(df, "term")
        .groupBy("pos")
        .agg(F.collect_list(F.struct("df", "term")).alias("terms"))
        .rdd.mapPartitions(lambda rows: _word_prefix_partition(rows, level)),
        schema,
    ).persist()
    index = prefixes.select(
        F.col("pos").alias("y"), F.col("size").alias("sy"), F.explode("indexed").alias("term")
    )
    held = index.groupBy("term").agg(F.count("*").alias("n"))
    capped = held.where(F.col("n") > cap).count()
    looked_up = held.where(F.col("n") <= cap).select("term")
    probes = prefixes.select(
        F.col("pos").alias("x"), F.col("size").alias("sx"), F.explode("probe").alias("term")
    ).join(looked_up, "term")
    met = (
        probes.join(index, "term")
        # Documents before x in (size, position) order whose sizes could fit.
        .where((F.col("sy") < F.col("sx")) | ((F.col("sy") == F.col("sx")) & (F.col("y") < F.col("x"))))
        .where(F.col("sy").cast("double") >= F.lit(level) * F.col("sx") - 1e-9)
        .select("x", "y", "sx", "sy")
        .distinct()
    )
    common = F.size(F.array_intersect(F.col("vx"), F.col("vy")))
    pairs = (
        met.join(docs.select(F.col("pos").alias("x"), F.col("vocab").alias("vx")), "x")
        .join(docs.select(F.col("pos").alias("y"), F.col("vocab").alias("vy")), "y")
        .withColumn("common", common)
        .where(
            F.col("common").cast("double") / (F.col("sx") + F.col("sy") - F.col("common")).cast("double")
            >= F.lit(level)
        )
        .select(F.least("x", "y").alias("a"), F.greatest("x", "y").alias("b"))
    )
    return pairs, capped


def _witness_candidates(spark, good, max_df, method, mode, params, rule, containment):
    """Candidate pairs (a, b), a < b, by witnessed units, as ``slst batch`` finds them: a unit
    of A in a block has a witness key that B holds with lengths that fit
    (``Detector.witness_tolerance``), and a pair needs at least ``least`` of A's
    units in blocks (``Detector.fewest_matched``, against documents at least as long), so any
    ``units − least + 1`` of them include a witnessed one. Only the keys of those units (the
    cheapest; ``slst.plan_walk``) are joined with the keys of every document at least as long
    (of two as long, the later): each pair is counted from its shorter document; per pair, the walked units witnessed plus the units not
    walked bound the units in blocks, and the pair is a candidate when that bound could
    satisfy the rule. Keys held by over ``max_df`` documents are boilerplate, left out: they
    witness nothing (as in ``slst batch``)."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F
    from pyspark.sql.types import (
        ArrayType,
        IntegerType,
        LongType,
        StructField,
        StructType,
    )

    w = good.select("pos", "units", F.explode("wkeys").alias("w")).select(
        "pos",
        "units",
        F.col("w.key").alias("key"),
        F.col("w.unit").alias("unit"),
        F.col("w.l1").alias("l1"),
        F.col("w.l2").alias("l2"),
    )
    df = w.groupBy("key").agg(F.countDistinct("pos").alias("df"))
    slots = w.join(df, "key").persist(StorageLevel.MEMORY_AND_DISK)
    dropped = slots.where(F.col("df") > max_df).select("key").distinct().count()

    detector = slst.detector(method, mode, **params)
    tolerance = detector.witness_tolerance
    sizes = [r.units for r in good.select("units").distinct().collect()]
    fewest = detector.fewest_matched(sizes, rule=rule, containment=containment)
    assert fewest is not None
    plan_schema = StructType(
        [
            StructField("pos", LongType(), False),
            StructField("walked", ArrayType(IntegerType(), False), False),
            StructField("assumed", IntegerType(), False),
        ]
    )
    plans = spark.createDataFrame(
        slots.groupBy("pos")
        .agg(F.first("units").alias("units"), F.collect_list(F.struct("unit", "df")).alias("slots"))
        .rdd.mapPartitions(lambda rows: _plan_partition(rows, max_df, fewest)),
        plan_schema,
    )
    kept = slots.where(F.col("df") <= max_df)
    left = (
        kept.join(plans, "pos")
        .where(F.array_contains("walked", F.col("unit")))
        .select(
            "key",
            F.col("pos").alias("a"),
            F.col("unit").alias("ua"),
            F.col("units").alias("na"),
            "assumed",
            F.col("l1").alias("la1"),
            F.col("l2").alias("la2"),
        )
    )
    right = kept.select(
        "key",
        F.col("pos").alias("b"),
        F.col("units").alias("nb"),
        F.col("l1").alias("lb1"),
        F.col("l2").alias("lb2"),
    ).distinct()
    bounded = (
        left.join(right, "key")
        # Each pair from its shorter document (of two as long, the earlier), as slst batch
        # counts it: `fewest` is the least against documents at least as long.
        .where((F.col("na") < F.col("nb")) | ((F.col("na") == F.col("nb")) & (F.col("a") < F.col("b"))))
        # A key witnesses only where the lengths of its units fit (a key held with lengths
        # far apart is shared by chance), as in slst batch.
        .where(
            (F.abs(F.col("la1") - F.col("lb1")) <= tolerance)
            & (F.abs(F.col("la2") - F.col("lb2")) <= tolerance)
        )
        .groupBy("a", "b")
        .agg(
            F.countDistinct("ua").alias("wa"),
            F.first("assumed").alias("assumed"),
            F.first("na").alias("na"),
            F.first("nb").alias("nb"),
        )
        .select(
            "a",
            "b",
            "na",
            "nb",
            F.least(F.col("wa") + F.col("assumed"), F.col("na"), F.col("nb")).alias("m"),
        )
    )
    schema = StructType([StructField("a", LongType(), False), StructField("b", LongType(), False)])
    candidates = spark.createDataFrame(
        bounded.rdd.mapPartitions(
            lambda rows: _bound_partition(rows, method, mode, params, rule, containment)
        ),
        schema,
    )
    return candidates, dropped


def run(
    spark,
    inputs: List[str],
    out: str,
    fmt: str = "jsonl",
    method: str = "slst",
    mode: str = "robust",
    rule: str = "duplicates",
    containment: float = 0.8,
    max_df: int = 1000,
    max_bytes: int = 256 << 20,
    id_field: str = "id",
    text_field: str = "text",
    partitions: Optional[int] = None,
    params: Optional[Dict[str, Any]] = None,
) -> Dict[str, Any]:
    """Run the job; returns the run record (also written to ``OUT/run.json``)."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F
    from pyspark.sql.types import (
        ArrayType,
        BinaryType,
        DoubleType,
        IntegerType,
        LongType,
        StringType,
        StructField,
        StructType,
    )

    params = dict(params or {})
    probe = slst.detector(method, mode, **params)  # settings checked before any work
    # Robust SL+ST: join on witness keys and prune by witnessed units, as slst batch does.
    witness = probe.witness_keys(probe.sketch("A probe. Of two sentences.")) is not None
    # And pairs alike in their words (its `vocabulary` rule), which the witnessed units do not
    # bound, by a join of their own over each text's rarest terms, when the rule reports them.
    words = probe.word_join if witness and rule in ("duplicates", "templates") else None
    duplicates = rule == "duplicates"
    times: Dict[str, float] = {}
    record: Dict[str, Any] = {
        "inputs": inputs,
        "format": fmt,
        "method": method,
        "mode": mode,
        "rule": rule,
        "max_df": max_df,
        "params": params,
        "spark": spark.version,
        "master": spark.sparkContext.master,
        "default_parallelism": spark.sparkContext.defaultParallelism,
    }

    t = time.perf_counter()
    docs = read_documents(spark, inputs, fmt, id_field, text_field, max_bytes)
    if partitions:
        docs = docs.repartition(partitions)
    schema = StructType(
        [
            StructField("pos", LongType(), False),
            StructField("id", StringType(), False),
            StructField("sketch", BinaryType(), True),
            StructField("keys", ArrayType(LongType()), True),
            StructField(
                "wkeys",
                ArrayType(
                    StructType(
                        [
                            StructField("key", LongType(), False),
                            StructField("unit", IntegerType(), False),
                            StructField("l1", IntegerType(), False),
                            StructField("l2", IntegerType(), False),
                        ]
                    )
                ),
                True,
            ),
            StructField("units", IntegerType(), True),
            StructField("vocab", ArrayType(LongType()), True),
            StructField("problem", StringType(), True),
            StructField("rss_mb", DoubleType(), False),
        ]
    )
    sketched = spark.createDataFrame(
        docs.mapPartitions(
            lambda rows: _sketch_partition(
                rows, method, mode, params, duplicates, max_bytes, witness, words is not None
            )
        ),
        schema,
    ).persist(StorageLevel.MEMORY_AND_DISK)
    counts = sketched.agg(
        F.count("*").alias("n"),
        F.sum(F.when(F.col("problem").isNotNull(), 1).otherwise(0)).alias("bad"),
        F.sum(F.length("sketch")).alias("sketch_bytes"),
        F.sum(F.coalesce(F.size("keys"), F.size("wkeys"))).alias("keys"),
        F.max("rss_mb").alias("rss"),
    ).first()
    times["read_and_sketch"] = time.perf_counter() - t
    record.update(
        documents=counts.n - counts.bad,
        bad_records=counts.bad,
        sketch_bytes=counts.sketch_bytes or 0,
        keys=counts["keys"] or 0,
    )
    peak_python = counts.rss or 0.0
    sketched.where(F.col("problem").isNotNull()).select(
        F.to_json(F.struct("id", F.col("problem").alias("reason"))).alias("value")
    ).orderBy("value").write.mode("overwrite").text(f"{out}/bad.jsonl")

    t = time.perf_counter()
    good = sketched.where(F.col("problem").isNull())
    if witness:
        candidates, dropped = _witness_candidates(
            spark, good, max_df, method, mode, params, rule, containment
        )
        if words is not None:
            level, cap = words
            alike, capped = _word_candidates(spark, good, level, min(cap, max_df))
            candidates = candidates.union(alike).distinct()
            dropped += capped
    else:
        keys = good.select("pos", F.explode("keys").alias("key"))
        df = keys.groupBy("key").agg(F.count("*").alias("df"))
        kept = keys.join(df.where(F.col("df") <= max_df), "key").select("key", "pos")
        dropped = df.where(F.col("df") > max_df).count()
        left, right = kept.alias("l"), kept.alias("r")
        candidates = (
            left.join(right, F.col("l.key") == F.col("r.key"))
            .where(F.col("l.pos") < F.col("r.pos"))
            .select(F.col("l.pos").alias("a"), F.col("r.pos").alias("b"))
            .distinct()
        )
    candidates = candidates.persist(StorageLevel.MEMORY_AND_DISK)
    record["candidate_pairs"] = candidates.count()
    record["boilerplate_keys"] = dropped
    times["candidates"] = time.perf_counter() - t

    t = time.perf_counter()
    side = good.select("pos", "id", "sketch")
    joined = (
        candidates.join(
            side.select(F.col("pos").alias("a"), F.col("id").alias("a_id"), F.col("sketch").alias("a_sketch")),
            "a",
        )
        .join(
            side.select(F.col("pos").alias("b"), F.col("id").alias("b_id"), F.col("sketch").alias("b_sketch")),
            "b",
        )
        .select("a", "b", "a_id", "a_sketch", "b_id", "b_sketch")
    )
    pair_schema = StructType(
        [
            StructField("a", LongType(), False),
            StructField("b", LongType(), False),
            StructField("line", StringType(), False),
            StructField("rss_mb", DoubleType(), False),
        ]
    )
    pairs = spark.createDataFrame(
        joined.rdd.mapPartitions(
            lambda rows: _verify_partition(rows, method, mode, params, rule, containment)
        ),
        pair_schema,
    ).persist(StorageLevel.MEMORY_AND_DISK)
    verified = pairs.agg(F.count("*").alias("n"), F.max("rss_mb").alias("rss")).first()
    record["pairs"] = verified.n
    peak_python = max(peak_python, verified.rss or 0.0)
    times["verify"] = time.perf_counter() - t

    t = time.perf_counter()
    ordered = pairs.orderBy("a", "b")
    ordered.select(F.col("line").alias("value")).write.mode("overwrite").text(f"{out}/pairs.jsonl")
    fields = F.from_json(
        "line",
        "a STRING, b STRING, resemblance DOUBLE, containment_a DOUBLE, containment_b DOUBLE",
    )
    ordered.select(fields.alias("p")).select("p.*").write.mode("overwrite").parquet(
        f"{out}/pairs.parquet"
    )
    times["write_pairs"] = time.perf_counter() - t

    t = time.perf_counter()
    labels, rounds = connected_components(spark, pairs.select("a", "b"))
    ids = good.select("pos", "id")
    clusters = (
        labels.join(ids, labels.v == ids.pos)
        .join(ids.select(F.col("pos").alias("label"), F.col("id").alias("cluster")), "label")
        .select("cluster", "id", "pos")
        .orderBy("cluster", "pos")
        .drop("pos")
        .persist(StorageLevel.MEMORY_AND_DISK)
    )
    record["clustered_documents"] = clusters.count()
    record["clusters"] = clusters.select("cluster").distinct().count()
    record["cluster_rounds"] = rounds
    clusters.write.mode("overwrite").parquet(f"{out}/clusters.parquet")
    clusters.select(F.to_json(F.struct("cluster", "id")).alias("value")).write.mode(
        "overwrite"
    ).text(f"{out}/clusters.jsonl")
    times["clusters"] = time.perf_counter() - t

    record["seconds"] = {k: round(v, 3) for k, v in times.items()}
    record["seconds"]["total"] = round(sum(times.values()), 3)
    shuffle = _shuffle_bytes(spark)
    if shuffle:
        record.update(shuffle)
        n = max(record["documents"], 1)
        record["shuffle_write_bytes_per_document"] = round(shuffle["shuffle_write_bytes"] / n, 1)
    record["peak_python_worker_rss_mb"] = round(peak_python, 1)
    record["peak_jvm_memory_mb"] = _jvm_peak_mb(spark)
    text = json.dumps(record, indent=2) + "\n"
    if "://" not in out or out.startswith("file:"):
        path = out.split(":", 1)[1] if out.startswith("file:") else out
        tmp = os.path.join(path, ".run.json.partial")
        with open(tmp, "w") as f:
            f.write(text)
        os.replace(tmp, os.path.join(path, "run.json"))
    else:  # a cluster's file system: a folder with one part file
        spark.sparkContext.parallelize([text], 1).saveAsTextFile(f"{out}/run.json")
    return record


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m slst.spark",
        description="Every near-duplicate pair and cluster of a corpus, on Apache Spark: "
        "the pairs slst batch finds.",
    )
    p.add_argument("inputs", nargs="+", help="JSON-lines files, Parquet files or text folders")
    p.add_argument("--out", required=True, help="output folder (pairs, clusters, bad records, run.json)")
    p.add_argument("--format", default="jsonl", choices=["jsonl", "parquet", "text"])
    p.add_argument("--method", default="slst")
    p.add_argument("--mode", default="robust", choices=["robust", "paper"])
    p.add_argument("--rule", default="duplicates", choices=["duplicates", "contained", "scored"])
    p.add_argument("--containment", type=float, default=0.8)
    p.add_argument("--max-df", type=int, default=1000, help="keys held by more documents are boilerplate")
    p.add_argument("--max-bytes", type=int, default=256 << 20, help="larger documents are bad records")
    p.add_argument("--id-field", default="id")
    p.add_argument("--text-field", default="text")
    p.add_argument("--partitions", type=int, help="repartition the documents into this many")
    p.add_argument(
        "--param", action="append", default=[], metavar="NAME=VALUE",
        help="a setting of the method by its flag name (min_block=3); repeatable",
    )
    p.add_argument("--master", help="Spark master (default: spark-submit's, else local[*])")
    p.add_argument(
        "--driver-memory", default="4g",
        help="local mode: the JVM's heap (default 4g; set SPARK_DRIVER_MEMORY or use "
        "spark-submit's --driver-memory otherwise)",
    )
    args = p.parse_args(argv)
    params: Dict[str, Any] = {}
    for item in args.param:
        name, sep, value = item.partition("=")
        if not sep:
            p.error(f"--param {item!r}: expected NAME=VALUE")
        params[name.strip()] = value.strip()

    from pyspark.sql import SparkSession

    # Local workers run this interpreter, which has the package (on a cluster, spark-submit's
    # settings say which Python the executors run).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.appName("slst")
    if args.master:
        builder = builder.master(args.master)
    if (args.master or "local").startswith("local") and not os.environ.get("SPARK_DRIVER_MEMORY"):
        # In local mode the driver's JVM is the executor: Spark's 1 GB default runs out on
        # the robust mode's witness keys at 100,000 documents.
        builder = builder.config("spark.driver.memory", args.driver_memory)
    spark = builder.getOrCreate()
    try:
        record = run(
            spark, args.inputs, args.out, fmt=args.format, method=args.method, mode=args.mode,
            rule=args.rule, containment=args.containment, max_df=args.max_df,
            max_bytes=args.max_bytes, id_field=args.id_field, text_field=args.text_field,
            partitions=args.partitions, params=params,
        )
    finally:
        spark.stop()
    print(
        f"{record['documents']:,} documents, {record['pairs']:,} pairs, "
        f"{record['clusters']:,} clusters; {record['bad_records']:,} bad records; "
        f"{record['seconds']['total']} s; run record in {args.out}/run.json",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
