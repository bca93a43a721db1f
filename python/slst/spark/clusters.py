"""Stage 5 of the job: clusters as the connected components of the pairs."""

from __future__ import annotations


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

