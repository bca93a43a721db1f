"""Stage 3 of the job: candidate pairs, as ``slst batch`` finds them. A method with join keys:
a self-join on the keys. Robust SL+ST: a join on witness keys, pruned by witnessed units, and
the pairs alike in their words by a join of their own over each text's rarest terms."""

from __future__ import annotations

import slst
from slst.spark.workers import _bound_partition, _plan_partition, _word_prefix_partition


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


def _key_candidates(good, max_df):
    """Pairs (a, b), a < b, that share a join key held by at most ``max_df`` documents, and the
    number of keys held by more (boilerplate)."""
    from pyspark.sql import functions as F

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
    return candidates, dropped
