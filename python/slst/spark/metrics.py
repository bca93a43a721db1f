"""What the run record reports of Spark itself: per stage of the job, seconds, CPU and shuffle
bytes (this run's jobs only, whatever else the application ran), and the executors' peak JVM
memory, from the application's REST API (left out when the UI is off)."""

from __future__ import annotations

import json
import time
import urllib.request
import uuid
from contextlib import contextmanager
from typing import Dict, Iterator, Optional, TypeVar

T = TypeVar("T")

#: Seconds to wait for Spark's REST API: listing every stage of a long run from a JVM whose
#: heap is nearly full took longer than 10 s, and the record then lost its CPU and shuffle
#: figures.
REST_TIMEOUT = 120


def _rest(spark, endpoint: str) -> Optional[list]:
    """One of the application's endpoints of Spark's REST API (None when the UI is off)."""
    url = spark.sparkContext.uiWebUrl
    if not url:
        return None
    app = spark.sparkContext.applicationId
    try:
        with urllib.request.urlopen(f"{url}/api/v1/applications/{app}/{endpoint}", timeout=REST_TIMEOUT) as r:
            return json.load(r)
    except OSError:
        return None


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


class Stages:
    """The job's stages, each timed on the driver and tagged as a Spark job group (its name),
    so that the run record can say what each stage cost: ``with stages("verify"): ...``. The
    Python workers add the CPU seconds of their partitions to ``python_cpu`` (``timed``)."""

    def __init__(self, spark):
        self._sc = spark.sparkContext
        self.seconds: Dict[str, float] = {}
        self.python_cpu = self._sc.accumulator(0.0)
        self._python: Dict[str, float] = {}
        # This run's job groups, apart from other runs' in the same application.
        self._tag = f"slst-{uuid.uuid4().hex[:12]}"

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        self._sc.setJobGroup(f"{self._tag}:{name}", f"slst: {name}")
        cpu = self.python_cpu.value
        t = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] = time.perf_counter() - t
            self._python[name] = self.python_cpu.value - cpu
            self._sc.setJobGroup("", "")

    def record(self, spark, documents: int) -> Dict[str, Dict[str, float]]:
        """Per stage: wall seconds, CPU seconds of the JVM's tasks and of the Python workers,
        shuffle bytes written and read (also per document), from Spark's REST API (the CPU and
        shuffle figures are left out when the UI is off)."""
        n = max(documents, 1)
        out: Dict[str, Dict[str, float]] = {
            name: {"seconds": round(s, 3), "python_cpu_seconds": round(self._python[name], 3)}
            for name, s in self.seconds.items()
        }
        jobs, stages = _rest(spark, "jobs"), _rest(spark, "stages?status=complete")
        if jobs is None or stages is None:
            return out
        # A stage runs in the first job that lists it; later jobs list it again as skipped.
        group_of: Dict[int, str] = {}
        for job in sorted(jobs, key=lambda j: j["jobId"]):
            tag, _, name = (job.get("jobGroup") or "").partition(":")
            for stage in job.get("stageIds", []):
                group_of.setdefault(stage, name if tag == self._tag else "")
        for stage in stages:
            figures = out.get(group_of.get(stage["stageId"], ""))
            if figures is None:
                continue
            figures["jvm_cpu_seconds"] = figures.get("jvm_cpu_seconds", 0.0) + stage.get(
                "executorCpuTime", 0
            ) / 1e9
            for field, name in (
                ("shuffleWriteBytes", "shuffle_write_bytes"),
                ("shuffleReadBytes", "shuffle_read_bytes"),
            ):
                figures[name] = figures.get(name, 0) + stage.get(field, 0)
        for figures in out.values():
            figures["jvm_cpu_seconds"] = round(figures.get("jvm_cpu_seconds", 0.0), 3)
            figures.setdefault("shuffle_write_bytes", 0)
            figures.setdefault("shuffle_read_bytes", 0)
            figures["shuffle_write_bytes_per_document"] = round(figures["shuffle_write_bytes"] / n, 1)
        return out


def timed(cpu, rows: Iterator[T]) -> Iterator[T]:
    """``rows`` as they come, adding the worker's CPU seconds while it made them to the
    accumulator ``cpu`` (``Stages.python_cpu``)."""
    start = time.process_time()
    try:
        yield from rows
    finally:
        cpu.add(time.process_time() - start)
