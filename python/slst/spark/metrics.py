"""What the run record reports of Spark itself: shuffle bytes and the executors' peak JVM
memory, from the application's REST API (None when the UI is off)."""

from __future__ import annotations

import json
import urllib.request
from typing import Dict, Optional


def _rest(spark, endpoint: str) -> Optional[list]:
    """One of the application's endpoints of Spark's REST API (None when the UI is off)."""
    url = spark.sparkContext.uiWebUrl
    if not url:
        return None
    app = spark.sparkContext.applicationId
    try:
        with urllib.request.urlopen(f"{url}/api/v1/applications/{app}/{endpoint}", timeout=10) as r:
            return json.load(r)
    except OSError:
        return None


def _shuffle_bytes(spark) -> Optional[Dict[str, int]]:
    """Shuffle bytes written and read over the application."""
    stages = _rest(spark, "stages")
    if stages is None:
        return None
    return {
        "shuffle_write_bytes": sum(s.get("shuffleWriteBytes", 0) for s in stages),
        "shuffle_read_bytes": sum(s.get("shuffleReadBytes", 0) for s in stages),
    }


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
