"""Stage 3 of the job: candidate pairs, as ``slst batch`` finds them. A method with join keys:
a self-join on the keys. Robust SL+ST: a join on witness keys, pruned by witnessed units, and
the pairs alike in their words by a join of their own over each text's rarest terms."""

from __future__ import annotations

import slst
from slst.spark.conf import kept_on_disk
from slst.spark.metrics import timed
from slst.spark.workers import (
    _bound_partition,
    _plan_partition,
    _unit_keys_partition,
    _word_prefix_partition,
    _word_probe_rows,
)

#: The most pairs passing the witness join's walk whose units assumed witnessed are counted by
#: sending the pairs to every executor (16 bytes a pair); more are joined with a shuffle.
BROADCAST_PAIRS = 4_000_000

#: Units the witness join's walk takes beyond the fewest that must hold a witness of any pair
#: (``slst.plan_walk``): a pair then passes the walk only with ``WALK_EXTRA + 1`` of its walked
#: units witnessed, not one. Each unit more costs its keys' postings in the walk's exchange;
#: each pair it rules out would have cost its document's unwalked rows in the count of the
#: units assumed, and past ``BROADCAST_PAIRS`` a shuffle join. Which units are walked changes
#: the work, never the candidates (docs/benchmarks-spark.md, "One unit more walked").
WALK_EXTRA = 1

#: A witness row carries its document's units in the bits above its unit's 24 and below the
#: sign: a document of more units is refused.
UNIT_BITS = 23

#: Document positions are below this (``MAX_RECORDS``: refused past it), so that the joins'
#: largest exchanges carry two of them, or two other counts below 2³¹, in one number.
MAX_RECORDS = 1 << 31


def packed(high: str, low: str):
    """Two columns of numbers below 2³¹ as one long."""
    from pyspark.sql import functions as F

    return F.col(high).cast("long") * (1 << 32) + F.col(low)


def unpacked(column: str, high: str, low: str):
    """The two columns of ``packed``, named."""
    from pyspark.sql import functions as F

    return [F.shiftright(column, 32).alias(high), (F.col(column) % (1 << 32)).alias(low)]


#: The most documents whose walk plans the witness join broadcasts to every executor (a few
#: integers each: 100 MB at a million documents); a larger corpus joins them by a shuffle.
BROADCAST_PLANS = 2_000_000


def with_sides(pairs, table, first: str, second: str, **columns):
    """``pairs`` (columns ``first`` and ``second``, document positions) with columns of each
    document's row of ``table`` (by ``pos``): ``column=(name for first, name for second)``."""
    from pyspark.sql import functions as F

    for side, key in ((0, first), (1, second)):
        picked = [F.col(c).alias(names[side]) for c, names in columns.items()]
        pairs = pairs.join(table.select(F.col("pos").alias(key), *picked), key)
    return pairs


def named_in(table, pairs, first: str, second: str):
    """The rows of ``table`` (by ``pos``) of the documents ``pairs`` name in ``first`` or
    ``second``: when they are at most ``BROADCAST_PLANS``, a semi-join against their broadcast
    positions, so that a join of few pairs moves few rows of a large table (else the table).
    ``pairs`` is read twice: persist it."""
    from pyspark.sql import functions as F

    positions = (
        pairs.select(F.col(first).alias("pos"))
        .union(pairs.select(F.col(second).alias("pos")))
        .distinct()
        .persist()
    )
    if positions.count() > BROADCAST_PLANS:
        return table
    return table.join(F.broadcast(positions), "pos", "left_semi")


def exact_copies(good):
    """The exact copies a join need not see: ``(pos, first)`` for each document with units
    whose text (``content``) an earlier one has, ``first`` the earliest. As in ``slst batch``:
    equal texts compare alike with any third, so a join over the others (``seen_once``), its
    pairs widened by ``with_copies``, finds what a join over every document finds, and a key's
    document frequency counts each text once (which keys are boilerplate depends on it)."""
    from pyspark.sql import functions as F

    groups = (
        good.where(F.col("units") > 0)
        .groupBy("content")
        .agg(F.min("pos").alias("first"), F.collect_list("pos").alias("members"))
        .where(F.size("members") > 1)
    )
    return groups.select("first", F.explode("members").alias("pos")).where(
        F.col("pos") != F.col("first")
    ).select("pos", "first")


def _few(frame, count: int):
    """``frame`` of ``count`` rows, to be sent to every executor when they are few (at most
    ``BROADCAST_PLANS``), so that a join with it moves nothing else."""
    from pyspark.sql import functions as F

    return F.broadcast(frame) if count <= BROADCAST_PLANS else frame


def seen_once(good, copies, count: int):
    """The rows of ``good`` but the ``count`` exact ``copies`` (``exact_copies``)."""
    return good.join(_few(copies.select("pos"), count), "pos", "left_anti")


def with_copies(pairs, copies, count: int):
    """``pairs`` (a, b) of documents a join saw, with every pair their ``count`` exact
    ``copies`` (``exact_copies``) stand in: each side widened to its copies, and each text's
    copies paired with one another (equal texts always compare as a pair, and are verified as
    any other)."""
    from pyspark.sql import functions as F

    if count == 0:
        return pairs
    members = copies.select("first", "pos").union(
        copies.select("first", F.col("first").alias("pos")).distinct()
    )
    for side, other in (("a", "b"), ("b", "a")):
        named = members.select(F.col("first").alias(side), F.col("pos").alias("member"))
        pairs = pairs.join(_few(named, 2 * count), side, "left").select(
            F.coalesce("member", side).alias(side), other
        )
    within = (
        members.alias("x")
        .join(members.alias("y"), F.col("x.first") == F.col("y.first"))
        .where(F.col("x.pos") < F.col("y.pos"))
        .select(F.col("x.pos").alias("a"), F.col("y.pos").alias("b"))
    )
    return (
        pairs.select(F.least("a", "b").alias("a"), F.greatest("a", "b").alias("b"))
        .union(within)
        .distinct()
    )


def _word_candidates(spark, good, documents: int, level: float, cap: int, cpu):
    """Pairs (a, b), a < b, that may be duplicates on their words, as ``slst batch`` finds
    them: each document looks its prefix terms up among the indexed prefixes of the documents
    before it in (vocabulary size, position) order whose sizes fit, a term indexed by more
    than ``cap`` documents left out (and counted); of the pairs met, those whose vocabularies
    have a Jaccard coefficient of at least ``level`` (after two exact filters that need no
    vocabulary: the terms met, and the counts per bucket). Returns the pairs and the count of
    terms left out."""
    from pyspark.sql import functions as F

    docs = good.where((F.col("units") > 0) & (F.size("vocab") > 0)).select("pos", "vocab")
    prefixes = _word_prefixes(spark, good, docs, level, cpu)
    held = prefixes.select(F.explode("indexed").alias("term")).groupBy("term").agg(
        F.count("*").alias("n")
    )
    # The terms left out are few (each indexed by many documents): every worker gets them.
    left_out = [r.term for r in held.where(F.col("n") > cap).select("term").collect()]
    met = _word_met(spark, prefixes, frozenset(left_out), level, cpu)
    # Then a bound on the common terms from each vocabulary's counts per bucket of term ids
    # (the sum of the smaller counts is at least the common terms; `WORD_BUCKETS` of them):
    # 64 small numbers cross the network per pair, not the vocabularies; only the pairs that
    # pass it fetch those.
    buckets = good.select("pos", "wbuckets")
    if documents <= BROADCAST_PLANS:
        # Each executor gets every document's counts (about 100 bytes each, 100 MB at a million
        # documents), so the pairs stay put; Spark broadcasts them by itself only below its
        # threshold (about 140,000 documents), and would otherwise move every pair twice.
        buckets = F.broadcast(buckets)
    shared = F.aggregate(
        F.zip_with("bx", "by", lambda u, v: F.least(u, v).cast("int")), F.lit(0), lambda acc, v: acc + v
    )
    bounded = (
        with_sides(met, buckets, "x", "y", wbuckets=("bx", "by"))
        .where(
            F.col("bx").isNull()
            | F.col("by").isNull()
            | (shared.cast("double") >= F.lit(level) * (F.col("sx") + F.col("sy") - shared) - 1e-9)
        )
        .select("x", "y", "sx", "sy")
        .persist()
    )
    common = F.size(F.array_intersect(F.col("vx"), F.col("vy")))
    pairs = (
        with_sides(bounded, named_in(docs, bounded, "x", "y"), "x", "y", vocab=("vx", "vy"))
        .withColumn("common", common)
        .where(
            F.col("common").cast("double") / (F.col("sx") + F.col("sy") - F.col("common")).cast("double")
            >= F.lit(level)
        )
        .select(F.least("x", "y").alias("a"), F.greatest("x", "y").alias("b"))
    )
    return pairs, len(left_out)


def _word_prefixes(spark, good, docs, level: float, cpu):
    """Per document of ``docs`` (``pos``, ``vocab``), persisted: ``(pos, size, probe, indexed)``,
    its vocabulary's size and prefixes under the corpus order (``_word_prefix_partition``)."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import ArrayType, IntegerType, LongType, StructField, StructType

    # Every document's terms count in the document frequencies, as in slst batch; only those
    # with a kept unit can have a block, so a pair on words.
    df = (
        good.select(F.explode("vocab").alias("term"))
        .groupBy("term")
        .agg(F.count("*").alias("df"))
    )
    # The corpus order ranks a term by its document frequency, rarest first: every term not
    # held by two documents or more ranks first (by its id), so only the others' frequencies
    # go to the workers, and no vocabulary crosses the network to be ranked.
    ranks = spark.sparkContext.broadcast({r.term: r.df for r in df.where(F.col("df") >= 2).collect()})
    schema = StructType(
        [
            StructField("pos", LongType(), False),
            StructField("size", IntegerType(), False),
            StructField("probe", ArrayType(LongType()), False),
            StructField("indexed", ArrayType(LongType()), False),
        ]
    )
    return spark.createDataFrame(
        docs.rdd.mapPartitions(
            lambda rows: timed(cpu, _word_prefix_partition(rows, level, ranks.value))
        ),
        schema,
    ).persist()


def _word_met(spark, prefixes, left_out: frozenset, level: float, cpu):
    """The pairs ``(x, y, sx, sy, …)`` whose prefixes meet on a term not ``left_out``, ``y``
    before ``x`` in (size, position) order with a size that could fit, and whose terms met
    could still make the ``level``."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import LongType, StructField, StructType

    skip = spark.sparkContext.broadcast(left_out)
    # Probe and index rows travel as three numbers, not five: a document's position and size
    # in one, a place and the terms left out before it in another (as ``packed`` makes them).
    probe_schema, index_schema = (
        StructType([StructField(c, LongType(), False) for c in (head, place, "term")])
        for head, place in (("xs", "ik"), ("ys", "jk"))
    )
    probes = spark.createDataFrame(
        prefixes.rdd.mapPartitions(lambda rows: timed(cpu, _word_probe_rows(rows, skip.value))),
        probe_schema,
    )
    index = spark.createDataFrame(
        prefixes.rdd.mapPartitions(
            lambda rows: timed(cpu, _word_probe_rows(rows, skip.value, indexed=True))
        ),
        index_schema,
    )
    # The pairs met are the word join's largest exchange (about 90 rows a document at 100,000
    # realistic documents, growing with the corpus): each row travels as four numbers, not
    # eight, two of 31 bits in each: the pair's positions; a place and the terms left out
    # before it, whose greatest is the greatest place's (``k`` never falls as ``i`` grows);
    # and the two documents' sizes.
    met = (
        probes.join(index, "term")
        .select("ik", "jk", *unpacked("xs", "x", "sx"), *unpacked("ys", "y", "sy"))
        # Documents before x in (size, position) order whose sizes could fit.
        .where((F.col("sy") < F.col("sx")) | ((F.col("sy") == F.col("sx")) & (F.col("y") < F.col("x"))))
        .where(F.col("sy").cast("double") >= F.lit(level) * F.col("sx") - 1e-9)
        .groupBy(packed("x", "y").alias("xy"))
        .agg(
            F.count("*").alias("c"),
            F.max("ik").alias("ik"),
            F.max("jk").alias("jk"),
            F.first(packed("sx", "sy")).alias("s"),
        )
        .select(
            "c",
            *unpacked("xy", "x", "y"),
            *unpacked("ik", "i", "kx"),
            *unpacked("jk", "j", "ky"),
            *unpacked("s", "sx", "sy"),
        )
    )
    # Of the pairs met, those whose terms met could still make the level (PPJoin's positional
    # filter: the terms are in one global order, so every common term before the last met
    # lies in both prefixes and was met — or left out, at most the fewer of x's `k` and y's
    # `ky` left out before it — and at most min(sx - 1 - i, sy - 1 - j) follow it).
    needed = F.ceil(F.lit(level / (1.0 + level)) * (F.col("sx") + F.col("sy")) - F.lit(1e-9))
    return met.where(
        F.col("c")
        + F.least("kx", "ky")
        + F.least(F.col("sx") - 1 - F.col("i"), F.col("sy") - 1 - F.col("j"))
        >= needed
    )


def _witness_candidates(
    spark, good, documents, max_df, method, mode, params, rule, containment, cpu
):
    """Candidate pairs (a, b), a < b, by witnessed units, as ``slst batch`` finds them, and how
    many pairs the walk let pass: a unit of A in a block has a witness key that B holds with
    lengths that fit (``Detector.witness_tolerance``), and a pair needs at least ``least`` of
    A's units in blocks (``Detector.fewest_matched``, against documents at least as long), so
    any ``units − least + 1`` of them include a witnessed one. Only the keys of those units
    (the cheapest; ``slst.plan_walk``) are joined with the keys of every document at least as
    long (of two as long, the later): each pair is counted from its shorter document; per
    pair, the walked units witnessed plus the units not walked bound the units in blocks, and
    the pair passes when that bound could satisfy the rule. For the pairs that pass, the units
    not walked are then counted against their ``b`` alone, and a pair is a candidate when the
    units witnessed could satisfy the rule. Keys held by over ``max_df`` documents are
    boilerplate, left out: they witness nothing (as in ``slst batch``, which counts the units
    its walk assumed as this join does, so that the candidates do not depend on which units
    either walks). The plans are broadcast to the rows' partitions for a corpus of up to
    ``BROADCAST_PLANS`` ``documents``, else joined with a shuffle; the pairs that pass, when
    there are at most ``BROADCAST_PAIRS``."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    slots, dropped, unit_counts = _witness_slots(good, max_df)
    detector = slst.detector(method, mode, **params)
    fewest = detector.fewest_matched(unit_counts, rule=rule, containment=containment)
    assert fewest is not None
    rare = detector.rare_keys  # (rare_df, rare_budget), or None: every key
    plans = _walk_plans(spark, good, slots, max_df, fewest, cpu, rare)
    # What the bound reads of each pair's documents, joined to the pairs once they are
    # gathered, so that the gathering moves each pair and its units alone.
    facts = plans.select(F.col("pos").alias("a"), F.col("units").alias("na"), "assumed")
    sizes = good.select(F.col("pos").alias("b"), F.col("units").alias("nb"))
    walks = plans.select("pos", "walked", "bounds")
    if documents <= BROADCAST_PLANS:
        # Each executor gets every plan (a few integers a document), so the rows stay put.
        walks, facts, sizes = F.broadcast(walks), F.broadcast(facts), F.broadcast(sizes)
    # A key held by one document pairs it with none: only the others are joined.
    kept = slots.where((F.col("df") <= max_df) & (F.col("df") >= 2))
    right = kept.select(
        "key",
        F.col("pos").alias("b"),
        F.col("units").alias("nb"),
        F.col("l1").alias("lb1"),
        F.col("l2").alias("lb2"),
    ).distinct()
    tolerance = detector.witness_tolerance
    check = (method, mode, params, rule, containment)
    on_plans = kept.join(walks, "pos")
    if rare:
        # Each unit looks up its rare keys alone (``slst.rare_bounds``), as in slst batch.
        looked = F.least("df", F.lit(255)) <= F.element_at("bounds", F.col("unit") + 1)
        on_plans = on_plans.where(looked)
    on_plans = on_plans.select(
        "key",
        F.col("pos").alias("a"),
        F.col("unit").alias("ua"),
        F.col("units").alias("na"),
        F.col("l1").alias("la1"),
        F.col("l2").alias("la2"),
        F.array_contains("walked", F.col("unit")).alias("walked"),
    )
    walked = (
        _witnessed(on_plans.where("walked"), right, "key", tolerance)
        .groupBy(packed("a", "b").alias("ab"))
        # One exchange of each pair's units (a set per partition), not of its triples.
        .agg(F.size(F.collect_set("ua")).alias("wa"))
        .select(*unpacked("ab", "a", "b"), "wa")
        .join(facts, "a")
        .join(sizes, "b")
    )
    passed = _bounded(spark, walked, F.col("wa") + F.col("assumed"), check, cpu)
    passed = passed.persist(StorageLevel.MEMORY_AND_DISK)
    # The pairs the walk lets pass by units it assumed witnessed: those units of `a` are
    # counted now, against `b` only, where the rows lie (the pairs go to every executor when
    # they are few; each pair's rows of `a` meet the rows of its `b` in their key's partition),
    # as slst batch counts them. Far fewer pairs are left than the walk lets pass, and they do
    # not depend on which units were walked.
    unsure = passed.where(F.col("assumed") > 0).select("a", "b").persist()
    if unsure.count() <= BROADCAST_PAIRS:
        unsure = F.broadcast(unsure)
    counted = (
        _witnessed(
            on_plans.where(~F.col("walked")).drop("walked").join(unsure, "a"),
            right,
            ["key", "b"],
            tolerance,
        )
        .groupBy(packed("a", "b").alias("ab"))
        .agg(F.countDistinct("ua").alias("wu"))
        .select(*unpacked("ab", "a", "b"), "wu")
    )
    exact = _bounded(
        spark,
        passed.join(counted, ["a", "b"], "left").fillna(0, subset=["wu"]),
        F.col("wa") + F.col("wu"),
        check,
        cpu,
    )
    candidates = exact.select(F.least("a", "b").alias("a"), F.greatest("a", "b").alias("b"))
    return candidates, dropped, passed.count()


def _witness_slots(good, max_df: int):
    """Every witness key's rows ``(key, pos, units, df, unit, l1, l2)``, partitioned by key,
    with the count of keys held by more than ``max_df`` documents (boilerplate) and the
    documents' distinct unit counts."""
    from pyspark.sql import functions as F

    unit_counts = [r.units for r in good.select("units").distinct().collect()]
    if max(unit_counts, default=0) >= 1 << UNIT_BITS:
        raise ValueError(
            f"a document of {max(unit_counts):,} units: the witness join takes at most "
            f"{(1 << UNIT_BITS) - 1:,} units a document"
        )
    # A witness row's document size, unit and two lengths (each below 256) travel packed in
    # one number: a third less to move than in four columns.
    w = good.select("pos", "units", F.explode("wkeys").alias("w")).select(
        "pos",
        F.col("w.key").alias("key"),
        (
            F.col("units").cast("long") * (1 << 40)
            + F.col("w.unit").cast("long") * (1 << 16)
            + F.col("w.l1") * (1 << 8)
            + F.col("w.l2")
        ).alias("p"),
    )
    # The witness rows cross the network once, to their key's partition: the keys' document
    # frequencies, the rows kept and the self-join all read them where they lie (Spark sees
    # the partitioning and plans no other exchange of them).
    by_key = kept_on_disk(w.repartition("key"))
    df = by_key.groupBy("key").agg(F.countDistinct("pos").alias("df"))
    slots = by_key.join(df, "key").select(
        "key",
        "pos",
        F.shiftright("p", 40).cast("int").alias("units"),
        "df",
        (F.shiftright("p", 16) % (1 << 24)).cast("int").alias("unit"),
        (F.shiftright("p", 8) % (1 << 8)).cast("int").alias("l1"),
        (F.col("p") % (1 << 8)).cast("int").alias("l2"),
    )
    return slots, df.where(F.col("df") > max_df).count(), unit_counts


def _walk_plans(spark, good, slots, max_df: int, fewest, cpu, rare=None):
    """Per document, persisted: ``(pos, units, walked, assumed, bounds)``, the units its walk
    takes (``_plan_partition``, ``WALK_EXTRA`` beyond the fewest), a unit costing the postings
    of its keys: each document counts its own keys per unit where it lies, and only the keys
    held by two documents or more send their frequency back to it (a key held by one costs its
    one posting); with ``rare`` (``Detector.rare_keys``), the highest frequency of a key each
    unit looks up (``slst.rare_bounds``; else none)."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F
    from pyspark.sql.types import ArrayType, IntegerType, LongType, StructField, StructType

    ints = ArrayType(IntegerType(), False)
    counted_schema = StructType(
        [
            StructField("pos", LongType(), False),
            StructField("units", IntegerType(), False),
            StructField("keys", ints, False),
        ]
    )
    counted = spark.createDataFrame(
        good.select("pos", "units", F.transform("wkeys", lambda w: w.unit).alias("wunits"))
        .rdd.mapPartitions(lambda rows: timed(cpu, _unit_keys_partition(rows, fewest))),
        counted_schema,
    )
    held = (
        slots.where(F.col("df") >= 2)
        # Each (unit, frequency) packed in one number, as the rows are; the rows move to their
        # document as they are (a document's keys lie in as many partitions as it has keys, so
        # lists gathered before the exchange would hold one slot each, in a larger row).
        .select("pos", packed("unit", "df").alias("slot"))
        .repartition("pos")
        .groupBy("pos")
        .agg(F.collect_list("slot").alias("slots"))
    )
    plan_schema = StructType(
        [
            StructField("pos", LongType(), False),
            StructField("units", IntegerType(), False),
            StructField("walked", ints, False),
            StructField("assumed", IntegerType(), False),
            StructField("bounds", ints, False),
        ]
    )
    return spark.createDataFrame(
        counted.join(held, "pos", "left").rdd.mapPartitions(
            lambda rows: timed(cpu, _plan_partition(rows, max_df, fewest, WALK_EXTRA, rare))
        ),
        plan_schema,
    ).persist(StorageLevel.MEMORY_AND_DISK)  # read twice


def _witnessed(rows, right, on, tolerance: int):
    """``rows`` (``key``, ``a``, ``na``, ``ua``, ``la1``, ``la2`` and more) joined ``on`` their
    key (and ``b``) with the documents of ``right`` holding it at least as long as ``a`` (of two
    as long, the later), where the lengths fit: a key witnesses only where the lengths of its
    units fit (a key held with lengths far apart is shared by chance), as in slst batch."""
    from pyspark.sql import functions as F

    return (
        rows.join(right, on)
        # Each pair from its shorter document (of two as long, the earlier), as slst batch
        # counts it: `fewest` is the least against documents at least as long.
        .where((F.col("na") < F.col("nb")) | ((F.col("na") == F.col("nb")) & (F.col("a") < F.col("b"))))
        .where(
            (F.abs(F.col("la1") - F.col("lb1")) <= tolerance)
            & (F.abs(F.col("la2") - F.col("lb2")) <= tolerance)
        )
    )


def _bounded(spark, pairs, m, check: tuple, cpu):
    """The rows of ``pairs`` whose ``m`` units in blocks could satisfy the rule; ``check``:
    ``(method, mode, params, rule, containment)``."""
    from pyspark.sql import functions as F

    rows = pairs.withColumn("m", F.least(m, F.col("na"), F.col("nb")))
    return spark.createDataFrame(
        rows.rdd.mapPartitions(lambda rows: timed(cpu, _bound_partition(rows, *check))),
        rows.schema,
    )


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
