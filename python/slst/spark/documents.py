"""Stage 1 of the job: documents read from JSON lines, Parquet or folders of text files, each
with its position in the input (which orders every pair as ``slst batch`` orders it); a record
that cannot be a document carries its problem instead of its text, never fatal."""

from __future__ import annotations

import json
import os
from typing import List, Optional, Tuple

from slst.spark.conf import scoped

#: The most bytes of input a partition of documents reads. Each partition's sketches are
#: kept in memory for the later stages, and robust SL+ST's sketch, witness keys and vocabulary
#: take about seven times the text: Spark's own splits (32 MB or more of text) made partitions
#: of over 200 MB. At 100,000 realistic documents in a 4 GB heap, 64 partitions (about 3.5 MB
#: of input each) ran through; 28 (8 MB each) ran out of memory in one run of two.
SPLIT_BYTES = 4 << 20


def _partitions(spark, inputs: List[str]) -> int:
    """How many partitions to read ``inputs`` into: one per ``SPLIT_BYTES`` of their size (read
    through Hadoop's file system, so on a cluster's storage too), and at least the default
    parallelism."""
    sc = spark.sparkContext
    jvm, conf = sc._jvm, sc._jsc.hadoopConfiguration()
    total = 0
    for name in inputs:
        path = jvm.org.apache.hadoop.fs.Path(name)
        fs = path.getFileSystem(conf)
        for status in fs.globStatus(path) or []:
            total += fs.getContentSummary(status.getPath()).getLength()
    return max(sc.defaultParallelism, -(-total // SPLIT_BYTES))


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
    """An RDD of (position, id, text-or-bytes, problem) in input order, in partitions of about
    ``SPLIT_BYTES`` of input at most (of Parquet, its compressed bytes, as far as its row
    groups allow: a row group is never split)."""
    sc = spark.sparkContext
    if fmt == "jsonl":
        lines = sc.textFile(
            ",".join(inputs), minPartitions=_partitions(spark, inputs), use_unicode=False
        ).zipWithIndex()
        return lines.map(lambda li: _jsonl_record(li[0], li[1], id_field, text_field, max_bytes))
    if fmt == "text":
        files = sc.binaryFiles(",".join(inputs), minPartitions=_partitions(spark, inputs))
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
        # Spark's file splits follow a setting of the session: set for this read only (the
        # splits are fixed once the rows are numbered).
        with scoped(spark, {"spark.sql.files.maxPartitionBytes": str(SPLIT_BYTES)}):
            df = spark.read.parquet(*inputs).select(id_field, text_field)
            numbered = df.rdd.zipWithIndex()
        return numbered.map(
            lambda ri: (
                ri[1],
                None if ri[0][0] is None else str(ri[0][0]),
                ri[0][1],
                None if isinstance(ri[0][1], (str, bytes, bytearray)) else f"row {ri[1]}: no text",
            )
        )
    raise ValueError(f"unknown format {fmt!r}; the formats are jsonl, text, parquet")
