"""Settings of the Spark session that the job needs while it runs, set for that time only:
the session is the caller's (a notebook's, say), and its settings are left as they were."""

from __future__ import annotations

import functools
from contextlib import contextmanager
from typing import Any, Callable, Iterator, TypeVar

T = TypeVar("T")

#: The job's own settings. Aggregations that gather lists (`collect_list`, `collect_set`) run
#: sorted, one group at a time, rather than in Spark's object hash aggregate, whose fallback to
#: sorting ran out of a 4 GB heap at 100,000 documents (the word join's ranking of each
#: vocabulary, the witness join's units per pair). A join on a key and more of rows already
#: partitioned by that key reads them where they lie (the witness join's count of the units
#: its walk assumed, on key and document), where Spark would otherwise move both sides again.
JOB_SETTINGS = {
    "spark.sql.execution.useObjectHashAggregateExec": "false",
    "spark.sql.requireAllClusterKeysForCoPartition": "false",
}


#: Settings of a session the job builds for itself (`python -m slst.spark`, not launched by
#: spark-submit), fixed when the session starts. Shuffle blocks compressed with zstd rather
#: than Spark's lz4: on the realistic 100,000 documents the default mode's shuffle fell from
#: 13.4 to 8.9 KB a document in the same time, the same pairs (docs/benchmarks-spark.md). A
#: session of the caller's, or one spark-submit starts, keeps its own (pass
#: `--conf spark.io.compression.codec=zstd` there).
SESSION_SETTINGS = {
    "spark.io.compression.codec": "zstd",
}


def session_settings(launcher_args: str) -> dict:
    """``SESSION_SETTINGS`` but those the launcher's arguments (``PYSPARK_SUBMIT_ARGS``)
    already set."""
    return {k: v for k, v in SESSION_SETTINGS.items() if k not in launcher_args}


@contextmanager
def scoped(spark, settings: dict) -> Iterator[None]:
    """The session with ``settings`` (name to value) while the block runs; each restored after
    (unset if it was not set)."""
    before = {name: spark.conf.get(name, None) for name in settings}
    for name, value in settings.items():
        spark.conf.set(name, value)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                spark.conf.unset(name)
            else:
                spark.conf.set(name, value)


def with_job_settings(run: Callable[..., T]) -> Callable[..., T]:
    """``run(spark, …)`` with ``JOB_SETTINGS`` in its session while it runs."""

    @functools.wraps(run)
    def scoped_run(spark, *args: Any, **kwargs: Any) -> T:
        with scoped(spark, JOB_SETTINGS):
            return run(spark, *args, **kwargs)

    return scoped_run


def kept_on_disk(frame):
    """``frame`` persisted on the executors' local disks, not in their heaps: for the tables
    every document adds a row, or hundreds of rows, to (the sketches, the witness rows). A
    cached batch is built in the heap with memory Spark does not account for, beside the
    blocks cached so far: at a million realistic documents, with a 4 GB heap, caching the
    sketches in memory ran it out of memory in the read stage, the storage pool near full.
    Read back, the blocks come from the operating system's page cache where it holds them."""
    from pyspark import StorageLevel

    return frame.persist(StorageLevel.DISK_ONLY)
