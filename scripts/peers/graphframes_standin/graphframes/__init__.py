"""A stand-in for GraphFrames' Python package, for text-dedup's minhash_spark.py in
scripts/bench_spark.sh --peer text-dedup: GraphFrames' JVM library is published only to a
Maven repository, which the benchmark does not reach, and its Python package needs it.

Only what minhash_spark.py calls is here: ``GraphFrame(vertices, edges).connectedComponents()``,
a DataFrame of the vertices (``id``, long) with ``component``, the smallest id of the
vertex's component (what GraphFrames gives for long ids, and what minhash_spark.py's
"keep the document whose id is its component" relies on). The components are computed by
slst's own Spark job's min-label propagation (python/slst/spark/clusters.py, loaded by path:
the peer's interpreter has no slst), so the peer's clustering step costs what slst's does,
not what GraphFrames' would. The edges are first coalesced into the session's default
parallelism: minhash_spark.py hands them over in 4,096 partitions, and each round of the
propagation would otherwise run thousands of tasks on a local master.
"""

import importlib.util
import os

_CLUSTERS = os.path.join(
    os.path.dirname(__file__), *[os.pardir] * 4, "python", "slst", "spark", "clusters.py"
)


def _connected_components():
    spec = importlib.util.spec_from_file_location("slst_spark_clusters", _CLUSTERS)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.connected_components


class GraphFrame:
    """Vertices (``id``) and edges (``src``, ``dst``), as GraphFrames takes them."""

    def __init__(self, vertices, edges):
        self.vertices, self.edges = vertices, edges

    def connectedComponents(self):
        from pyspark.sql import functions as F

        spark = self.edges.sparkSession
        edges = self.edges.select(F.col("src").alias("a"), F.col("dst").alias("b")).coalesce(
            spark.sparkContext.defaultParallelism
        )
        labels, _ = _connected_components()(spark, edges)
        # minhash_spark.py's vertices are its edges' ends, each labelled here: no join needed.
        return labels.select(F.col("v").alias("id"), F.col("label").alias("component"))
