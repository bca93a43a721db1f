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

   With ``--min-shared-words N``, also every pair sharing at least N words in one passage, as
   ``slst batch --min-shared-words N`` keeps them: the candidates also those of a join of the
   seed witness keys with the rule ``scored`` (robust mode; paper mode's key join finds them
   already), never screened; the texts joined to the pairs, each pair compared unbounded and
   its passages grown (``Detector.verify_passages``).
5. **clusters**: connected components of the pairs, by min-label propagation with joins.

Outputs in ``--out``: ``pairs.jsonl/`` (the lines of ``slst batch``, ordered by input
position), ``pairs.parquet/`` (the columns of ``slst batch``'s Parquet pairs, read from those
lines with the library's schema), ``clusters.jsonl/`` and ``clusters.parquet/`` (``id``,
``cluster``: the id of the cluster's earliest document), ``bad.jsonl/`` and ``run.json``
(counts, per-stage seconds, shuffle bytes, peak memory).

Run it locally::

    python -m slst.spark corpus.jsonl --out result/ --master 'local[2]'

and on a cluster with the wheel shipped to the executors (``docs/python.md``)::

    spark-submit --py-files slst-0.1.0-cp39-abi3-manylinux_2_34_x86_64.whl \\
        -m slst.spark s3://bucket/corpus.jsonl --out s3://bucket/result/
"""

from __future__ import annotations

import sys

from slst.spark.clusters import connected_components
from slst.spark.documents import read_documents
from slst.spark.job import main, run
from slst.spark.workers import VERIFY_BATCH

__all__ = ["VERIFY_BATCH", "connected_components", "main", "read_documents", "run"]

# `spark-submit` runs this file as a script (`slst.spark.__file__`, docs/python.md), as it ran
# the job's single module before.
if __name__ == "__main__":
    sys.exit(main())
