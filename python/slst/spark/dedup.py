"""Stage 6 of the job (with ``--dedup``): the corpus without its near-duplicates, as ``slst
dedup`` decides it. The keep rule (``slst.decide``, the library's) walks documents in the keep
policy's order and drops one that pairs with a document already kept; a document's partners
all lie in its connected component, so the rule runs on each component apart — a
``groupByKey`` over the cluster labels — and gives what it gives on the whole corpus."""

from __future__ import annotations

import json
from typing import Any, Dict, Iterable, List, Tuple

import slst

KEEP_POLICIES = ("first", "longest")


def _component(
    pairs: Iterable[Tuple[int, int, str, int, int]], keep: str, rule: str
) -> List[Tuple[int, str]]:
    """The dropped documents of one component as ``(position, row)``, the row being the line
    ``slst dedup --dropped FILE.jsonl`` writes; ``pairs`` are ``(a, b, pair line, bytes of a,
    bytes of b)``."""
    pairs = list(pairs)
    size: Dict[int, int] = {}
    for a, b, _, la, lb in pairs:
        size[a], size[b] = la, lb
    members = sorted(size)
    local = {d: i for i, d in enumerate(members)}
    if keep == "longest":
        order = sorted(range(len(members)), key=lambda i: (-size[members[i]], members[i]))
    else:
        order = list(range(len(members)))
    edges = [(local[a], local[b]) for a, b, _, _, _ in pairs]
    _, dropped = slst.decide(len(members), edges, order)
    rows = []
    for document, kept, pair in dropped:
        record = json.loads(pairs[pair][2])
        dropped_is_a = members[document] == pairs[pair][0]
        mine, theirs = (
            ("containment_a", "containment_b") if dropped_is_a else ("containment_b", "containment_a")
        )
        row = {
            "dropped": record["a"] if dropped_is_a else record["b"],
            "kept": record["b"] if dropped_is_a else record["a"],
            "resemblance": record["resemblance"],
            "containment_dropped": record.get(mine),
            "containment_kept": record.get(theirs),
            "method": record["method"],
            "rule": rule,
        }
        rows.append((members[document], json.dumps(row, ensure_ascii=False, separators=(",", ":"))))
    return rows


def _sizes(docs):
    """(position, bytes of text) of every document read."""
    return docs.filter(lambda r: r[3] is None).map(
        lambda r: (r[0], len(r[2].encode("utf-8")) if isinstance(r[2], str) else len(r[2]))
    )


def write_deduplicated(
    spark, pairs, labels, good, docs, inputs: List[str], fmt: str, keep: str, rule: str, out: str
) -> Dict[str, Any]:
    """Write ``OUT/dropped.jsonl`` (one row per dropped document, in input order) and
    ``OUT/deduplicated.*`` (the kept records: JSON lines as read, Parquet rows with the input's
    columns, text files as ``{"id", "text"}`` lines), in input order; returns the counts."""
    from pyspark.sql import functions as F

    if keep not in KEEP_POLICIES:
        raise ValueError(f"keep={keep!r}: the job's keep policies are {', '.join(KEEP_POLICIES)}")
    sizes = spark.createDataFrame(_sizes(docs), "pos LONG, bytes LONG")
    edges = (
        pairs.select("a", "b", "line")
        .join(labels.select(F.col("v").alias("a"), "label"), "a")
        .join(sizes.select(F.col("pos").alias("a"), F.col("bytes").alias("la")), "a")
        .join(sizes.select(F.col("pos").alias("b"), F.col("bytes").alias("lb")), "b")
    )
    dropped = spark.createDataFrame(
        edges.rdd.map(lambda r: (r.label, (r.a, r.b, r.line, r.la, r.lb)))
        .groupByKey()
        .flatMap(lambda kv: _component(kv[1], keep, rule)),
        "pos LONG, row STRING",
    ).persist()
    dropped.orderBy("pos").select(F.col("row").alias("value")).write.mode("overwrite").text(
        f"{out}/dropped.jsonl"
    )
    kept = good.select("pos").join(dropped.select("pos"), "pos", "left_anti")
    counts = {"kept": kept.count(), "dropped": dropped.count()}
    _write_kept(spark, kept, inputs, fmt, out, docs)
    dropped.unpersist()
    return counts


def _write_kept(spark, kept, inputs: List[str], fmt: str, out: str, docs) -> None:
    """The kept documents' records, in input order, in the input's format."""
    from pyspark.sql import functions as F

    if fmt == "jsonl":
        # Positions as read_documents numbers them: the lines of the inputs, in order.
        raw = spark.sparkContext.textFile(",".join(inputs), use_unicode=False).zipWithIndex()
        lines = spark.createDataFrame(
            raw.map(lambda li: (li[1], li[0].decode("utf-8"))), "pos LONG, value STRING"
        )
        lines.join(kept, "pos").orderBy("pos").select("value").write.mode("overwrite").text(
            f"{out}/deduplicated.jsonl"
        )
    elif fmt == "parquet":
        table = spark.read.parquet(*inputs)
        rows = spark.createDataFrame(
            table.rdd.zipWithIndex().map(lambda ri: (ri[1],) + tuple(ri[0])),
            ["__pos"] + table.columns,
        )
        rows.join(kept.select(F.col("pos").alias("__pos")), "__pos").orderBy("__pos").drop(
            "__pos"
        ).write.mode("overwrite").parquet(f"{out}/deduplicated.parquet")
    else:
        texts = spark.createDataFrame(
            docs.filter(lambda r: r[3] is None).map(
                lambda r: (r[0], r[1], r[2] if isinstance(r[2], str) else slst.decode(bytes(r[2])))
            ),
            "pos LONG, id STRING, text STRING",
        )
        texts.join(kept, "pos").orderBy("pos").select(
            F.to_json(F.struct("id", "text")).alias("value")
        ).write.mode("overwrite").text(f"{out}/deduplicated.jsonl")
