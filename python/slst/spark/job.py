"""The job: ``run`` drives the stages (read, sketch, candidates, verify, clusters), timing each
and gathering the run record; ``main`` is ``python -m slst.spark``. With ``min_shared_words``
(``--min-shared-words``) the candidates also hold the pairs that may share a passage
(``_seeded``), the texts go to the verification, and every pair is compared unbounded, as
``slst batch --min-shared-words`` does."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Dict, List, Optional

import slst
from slst.spark.candidates import (
    MAX_RECORDS,
    _key_candidates,
    _witness_candidates,
    _word_candidates,
    exact_copies,
    named_in,
    seen_once,
    with_copies,
    with_sides,
)
from slst.spark.clusters import connected_components
from slst.spark.conf import kept_on_disk, session_settings, with_job_settings
from slst.spark.dedup import KEEP_POLICIES, write_deduplicated
from slst.spark.documents import read_documents
from slst.spark.metrics import Stages, _jvm_peak_mb, timed
from slst.spark.workers import _screen_partition, _sketch_partition, _verify_partition


@with_job_settings
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
    dedup: bool = False,
    keep: str = "first",
    min_shared_words: Optional[int] = None,
) -> Dict[str, Any]:
    """Run the job; returns the run record (also written to ``OUT/run.json``). With ``dedup``,
    also the corpus without its near-duplicates (``OUT/deduplicated.*``, ``OUT/dropped.jsonl``),
    the document of each pair to keep chosen by ``keep`` (``first`` or ``longest``), as ``slst
    dedup`` chooses it. With ``min_shared_words``, also every pair sharing a passage of at
    least that many words, as ``slst batch --min-shared-words`` keeps them (``_seeded``)."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    params = dict(params or {})
    probe = slst.detector(method, mode, **params)  # settings checked before any work
    if dedup and rule == "templates":
        raise ValueError("dedup: template pairs are not duplicates; use rule='duplicates'")
    if dedup and keep not in KEEP_POLICIES:
        raise ValueError(f"keep={keep!r}: the job's keep policies are {', '.join(KEEP_POLICIES)}")
    passages = min_shared_words is not None
    if min_shared_words is not None:
        probe.check_min_shared_words(min_shared_words)  # as slst batch refuses it
        if dedup:
            raise ValueError(
                "dedup: slst dedup keeps no pairs by shared passages; drop min_shared_words"
            )
    # Robust SL+ST: join on witness keys and prune by witnessed units, as slst batch does.
    witness = probe.witness_keys(probe.sketch("A probe. Of two sentences.")) is not None
    # And pairs alike in their words (its `vocabulary` rule), which the witnessed units do not
    # bound, by a join of their own over each text's rarest terms, when the rule reports them.
    words = probe.word_join if witness and rule in ("duplicates", "templates") else None
    duplicates = rule == "duplicates"
    stages = Stages(spark)
    cpu = stages.python_cpu
    record: Dict[str, Any] = {
        "inputs": inputs,
        "format": fmt,
        "method": method,
        "mode": mode,
        "rule": rule,
        "max_df": max_df,
        "params": params,
        "dedup": keep if dedup else None,
        "min_shared_words": min_shared_words,
        "spark": spark.version,
        "master": spark.sparkContext.master,
        "default_parallelism": spark.sparkContext.defaultParallelism,
    }

    with stages("read_and_sketch"):
        docs = read_documents(spark, inputs, fmt, id_field, text_field, max_bytes)
        if partitions:
            docs = docs.repartition(partitions)
        sketched = _sketched(
            spark, docs, method, mode, params, duplicates, max_bytes, witness, words is not None,
            passages, cpu,
        )
        counts = sketched.agg(
            F.count("*").alias("n"),
            F.sum(F.when(F.col("problem").isNotNull(), 1).otherwise(0)).alias("bad"),
            F.sum(F.length("sketch")).alias("sketch_bytes"),
            F.sum(F.coalesce(F.size("keys"), F.size("wkeys"))).alias("keys"),
            F.max("rss_mb").alias("rss"),
        ).first()
    record.update(
        documents=counts.n - counts.bad,
        bad_records=counts.bad,
        sketch_bytes=counts.sketch_bytes or 0,
        keys=counts["keys"] or 0,
    )
    peak_python = counts.rss or 0.0
    if witness and counts.n > MAX_RECORDS:
        raise ValueError(
            f"{counts.n:,} records: the default mode's joins number at most {MAX_RECORDS:,}"
        )
    with stages("bad_records"):
        sketched.where(F.col("problem").isNotNull()).select(
            F.to_json(F.struct("id", F.col("problem").alias("reason"))).alias("value")
        ).orderBy("value").write.mode("overwrite").text(f"{out}/bad.jsonl")

    with stages("candidates"):
        good = sketched.where(F.col("problem").isNull())
        if witness:
            # Exact copies collapsed, as slst batch collapses them: the joins see one document
            # per text, and a key's document frequency counts each text once.
            copies = _settled(exact_copies(good))
            record["exact_copies"] = copied = copies.count()
            seen = seen_once(good, copies, copied)
            candidates, dropped, record["walk_pairs"] = _witness_candidates(
                spark, seen, record["documents"], max_df, method, mode, params, rule, containment, cpu
            )
            if words is not None:
                level, cap = words
                alike, capped = _word_candidates(
                    spark, seen, record["documents"], level, min(cap, max_df), cpu
                )
                candidates = candidates.union(alike).distinct()
                dropped += capped
            candidates = _settled(with_copies(candidates, copies, copied))
        else:
            candidates, dropped = _key_candidates(good, max_df)
            candidates = candidates.persist(StorageLevel.MEMORY_AND_DISK)
        record["candidate_pairs"] = candidates.count()
        record["boilerplate_keys"] = dropped
        if witness:
            # Before any sketch moves, the pairs the method's pair check rules out (a template
            # filled twice), as slst batch rules them out before it compares.
            screened = _screened(spark, candidates, good, method, mode, params, rule, containment, cpu)
            screened = screened.persist(StorageLevel.MEMORY_AND_DISK)
            record["screened_pairs"] = screened.count()
            candidates = screened
        if passages and witness:
            # The pairs that may share a passage, none screened: slst batch compares them all.
            seeded, capped = _seeded(spark, seen, record["documents"], max_df, method, mode, params, cpu)
            seeded = _settled(with_copies(seeded, copies, copied))
            record["seeded_pairs"] = seeded.count()
            record["boilerplate_keys"] += capped
            candidates = candidates.union(seeded).distinct()

    with stages("verify"):
        pairs = _verified(
            spark, candidates, good, method, mode, params, rule, containment, min_shared_words, cpu
        )
        verified = pairs.agg(F.count("*").alias("n"), F.max("rss_mb").alias("rss")).first()
    record["pairs"] = verified.n
    peak_python = max(peak_python, verified.rss or 0.0)

    with stages("write_pairs"):
        _write_pairs(pairs, out, min_shared_words is not None)

    with stages("clusters"):
        labels = _write_clusters(spark, pairs, good, out, record)

    if dedup:
        with stages("dedup"):
            counts = write_deduplicated(
                spark, pairs, labels, good, docs, inputs, fmt, keep, _rule_name(rule, containment), out
            )
        record.update(kept=counts["kept"], dropped=counts["dropped"])

    return _write_record(spark, record, stages, peak_python, out)


def _sketched(spark, docs, method, mode, params, duplicates, max_bytes, witness, words, passages, cpu):
    """Stage 2: each document's sketch and keys (or its problem), kept on disk: what every later
    stage reads. With ``passages``, also its text and (witness keys) its seed witness keys
    (``seeds``, ``seed_units``); else those columns are null and cost nothing."""
    from pyspark.sql.types import (
        ArrayType,
        BinaryType,
        ByteType,
        DoubleType,
        IntegerType,
        LongType,
        StringType,
        StructField,
        StructType,
    )

    witnesses = ArrayType(
        StructType(
            [
                StructField("key", LongType(), False),
                StructField("unit", IntegerType(), False),
                StructField("l1", IntegerType(), False),
                StructField("l2", IntegerType(), False),
            ]
        )
    )
    schema = StructType(
        [
            StructField("pos", LongType(), False),
            StructField("id", StringType(), False),
            StructField("sketch", BinaryType(), True),
            StructField("keys", ArrayType(LongType()), True),
            StructField("wkeys", witnesses, True),
            StructField("units", IntegerType(), True),
            StructField("vocab", ArrayType(LongType()), True),
            StructField("wbuckets", ArrayType(ByteType()), True),
            StructField("checks", ArrayType(LongType()), True),
            StructField("seeds", witnesses, True),
            StructField("seed_units", IntegerType(), True),
            StructField("content", BinaryType(), True),
            StructField("text", StringType(), True),
            StructField("stopwords", StringType(), True),
            StructField("problem", StringType(), True),
            StructField("rss_mb", DoubleType(), False),
        ]
    )
    sketched = spark.createDataFrame(
        docs.mapPartitions(
            lambda rows: timed(
                cpu,
                _sketch_partition(
                    rows, method, mode, params, duplicates, max_bytes, witness, words, passages
                ),
            )
        ),
        schema,
    )
    return kept_on_disk(sketched)


def _settled(frame):
    """``frame`` computed once and kept (memory, else disk) as a table whose plan starts here.
    Spark shows, under every scan of an RDD made from a DataFrame, the plan that made it, and
    the robust join chains several such scans: the plans the driver keeps for its UI and event
    log reached 56 MB an update in the stages after it and ran a 4 GB heap out of memory at
    100,000 documents. A local checkpoint of the DataFrame ends the chain (one of an RDD made
    from it does not)."""
    return frame.localCheckpoint(eager=True)


def _screened(spark, candidates, good, method, mode, params, rule, containment, cpu):
    """The candidate pairs the method's pair check keeps (``Detector.may_keep_pairs``), read
    from each document's units and pair-check values only: a few numbers cross the network
    per pair, not the sketches."""
    from pyspark.sql.types import LongType, StructField, StructType

    named = named_in(good, candidates, "a", "b")
    joined = with_sides(candidates, named, "a", "b", units=("na", "nb"), checks=("va", "vb")).select(
        "a", "b", "na", "va", "nb", "vb"
    )
    schema = StructType([StructField("a", LongType(), False), StructField("b", LongType(), False)])
    return spark.createDataFrame(
        joined.rdd.mapPartitions(
            lambda rows: timed(cpu, _screen_partition(rows, method, mode, params, rule, containment))
        ),
        schema,
    )


def _seeded(spark, good, documents, max_df, method, mode, params, cpu):
    """The pairs that may share a seed of a passage, as ``slst batch --min-shared-words`` finds
    them (``Detector::seed_candidates``): the witness join over each document's seed witness
    keys (``seeds``, ``seed_units``) with the rule ``scored`` (every pair with a block there).
    Returns the pairs and the count of keys left out as boilerplate."""
    from pyspark.sql import functions as F

    seeds = good.select("pos", F.col("seed_units").alias("units"), F.col("seeds").alias("wkeys"))
    pairs, capped, _ = _witness_candidates(
        spark, seeds, documents, max_df, method, mode, params, "scored", 0.8, cpu
    )
    return pairs, capped


def _verified(spark, candidates, good, method, mode, params, rule, containment, min_shared_words, cpu):
    """Stage 4: the candidate pairs the method keeps under the rule (with ``min_shared_words``,
    also those sharing a passage of that many words, their texts joined in), each with the line
    ``slst batch`` writes for it, persisted."""
    from pyspark import StorageLevel
    from pyspark.sql.types import DoubleType, LongType, StringType, StructField, StructType

    sides = dict(id=("a_id", "b_id"), sketch=("a_sketch", "b_sketch"))
    if min_shared_words is not None:
        sides["text"] = ("a_text", "b_text")
    # With the stop words `auto`, each line names its documents' lists, as batch's do.
    lists = slst.detector(method, mode, **params).stopwords_of("") is not None
    if lists:
        sides["stopwords"] = ("a_stopwords", "b_stopwords")
    # Only the documents the pairs name: a sketch crosses the network once per pair it is in.
    joined = with_sides(candidates, named_in(good, candidates, "a", "b"), "a", "b", **sides).select(
        "a", "b", *(name for pair in sides.values() for name in pair)
    )
    pair_schema = StructType(
        [
            StructField("a", LongType(), False),
            StructField("b", LongType(), False),
            StructField("line", StringType(), False),
            StructField("rss_mb", DoubleType(), False),
        ]
    )
    return spark.createDataFrame(
        joined.rdd.mapPartitions(
            lambda rows: timed(
                cpu,
                _verify_partition(
                    rows, method, mode, params, rule, containment, min_shared_words, lists
                ),
            )
        ),
        pair_schema,
    ).persist(StorageLevel.MEMORY_AND_DISK)


def _write_pairs(pairs, out: str, passages: bool) -> None:
    """The pairs in input order, as JSON lines and as Parquet: the columns of ``slst batch``'s
    Parquet pairs (with ``passages``, a run with a shared-passage criterion, also theirs), the
    library's schema read from each line."""
    from pyspark.sql import functions as F

    ordered = pairs.orderBy("a", "b")
    ordered.select(F.col("line").alias("value")).write.mode("overwrite").text(f"{out}/pairs.jsonl")
    fields = F.from_json("line", slst._slst.pair_columns_ddl(passages))
    ordered.select(fields.alias("p")).select("p.*").write.mode("overwrite").parquet(
        f"{out}/pairs.parquet"
    )


def _rule_name(rule: str, containment: float) -> str:
    """The rule's name in the dropped rows, as ``slst dedup`` writes it."""
    if rule == "contained":
        theta = repr(float(containment))
        return f"contained ≥ {theta[:-2] if theta.endswith('.0') else theta}"
    return rule


def _write_clusters(spark, pairs, good, out: str, record: Dict[str, Any]):
    """Stage 5: the clusters of the pairs, written, with their counts in the record; returns
    the labels (vertex, label)."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

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
    return labels


def _write_record(spark, record: Dict[str, Any], stages: Stages, peak_python: float, out: str):
    """The run record completed (seconds, shuffle bytes, peak memory; the same per stage) and
    written to ``OUT/run.json``; returned."""
    record["seconds"] = {k: round(v, 3) for k, v in stages.seconds.items()}
    record["seconds"]["total"] = round(sum(stages.seconds.values()), 3)
    record["stages"] = stages.record(spark, record["documents"])
    if all("jvm_cpu_seconds" in s for s in record["stages"].values()):  # the UI is on
        for field in ("shuffle_write_bytes", "shuffle_read_bytes"):
            record[field] = sum(s[field] for s in record["stages"].values())
        n = max(record["documents"], 1)
        record["shuffle_write_bytes_per_document"] = round(record["shuffle_write_bytes"] / n, 1)
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
    p.add_argument(
        "--dedup", action="store_true",
        help="also write the corpus without its near-duplicates (deduplicated.*) and the "
        "dropped documents (dropped.jsonl), as slst dedup decides",
    )
    p.add_argument(
        "--keep", default="first", choices=list(KEEP_POLICIES),
        help="with --dedup: which document of a pair to keep (first: input order; longest: "
        "most bytes of text)",
    )
    p.add_argument(
        "--min-shared-words", type=int, metavar="WORDS",
        help="also every pair sharing at least this many words in one passage, whatever the "
        "documents' lengths, as slst batch --min-shared-words (slst, either mode)",
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
    if "PYSPARK_GATEWAY_PORT" not in os.environ:
        # A session of the job's own, not spark-submit's (conf.SESSION_SETTINGS).
        for name, value in session_settings(os.environ.get("PYSPARK_SUBMIT_ARGS", "")).items():
            builder = builder.config(name, value)
    spark = builder.getOrCreate()
    try:
        record = run(
            spark, args.inputs, args.out, fmt=args.format, method=args.method, mode=args.mode,
            rule=args.rule, containment=args.containment, max_df=args.max_df,
            max_bytes=args.max_bytes, id_field=args.id_field, text_field=args.text_field,
            partitions=args.partitions, params=params, dedup=args.dedup, keep=args.keep,
            min_shared_words=args.min_shared_words,
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
