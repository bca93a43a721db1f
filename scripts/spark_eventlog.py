#!/usr/bin/env python3
"""What a Spark application cost, from its event log (spark.eventLog.enabled=true,
spark.eventLog.compress=false), with its master and driver memory: per Spark job and in total, wall seconds, executor CPU seconds
(the JVM's task threads, as the REST API's executorCpuTime: not the Python workers), shuffle
bytes written and read (also per document), and the peak memory the executors reported (JVM
heap + off-heap, as slst's run record; with spark.executor.processTreeMetrics.enabled, the
JVM's and the Python workers' resident memory).

    scripts/spark_eventlog.py EVENT_LOG [--documents N] [--json OUT.json]

EVENT_LOG is the log's file, or a rolling log's folder (eventlog_v2_*).

A stage counts for the first job that lists it (later jobs list it again as skipped), as
python/slst/spark/metrics.py counts it. A job's name is its job group's part after ":" (slst's
stages) or else its last stage's call site. Prints a Markdown table; --json also writes the
totals.
"""
import argparse
import json
import os
import re
import sys

MB = 2**20
PEAKS = {
    "peak_jvm_memory_mb": ("JVMHeapMemory", "JVMOffHeapMemory"),
    "peak_jvm_rss_mb": ("ProcessTreeJVMRSSMemory",),
    "peak_python_worker_rss_mb": ("ProcessTreePythonRSSMemory",),
}


def log_files(path):
    """The log's files: itself, or a rolling log's folder's events_N_* files in order."""
    if not os.path.isdir(path):
        return [path]
    parts = [f for f in os.listdir(path) if f.startswith("events_")]
    if not parts:
        sys.exit(f"spark_eventlog.py: {path}: no events_* files in this folder")
    return [os.path.join(path, f) for f in sorted(parts, key=lambda f: int(f.split("_")[1]))]


def read_events(path):
    for part in log_files(path):
        with open(part, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as e:
                    sys.exit(f"spark_eventlog.py: {part}: line {n}: not JSON ({e}); a compressed log?")


def job_name(start):
    group = (start.get("Properties") or {}).get("spark.jobGroup.id") or ""
    if ":" in group:
        return group.partition(":")[2]
    stages = start.get("Stage Infos") or []
    last = max(stages, key=lambda s: s["Stage ID"], default={})
    # A call site's file by its name, not by its folder on the machine that ran it.
    return re.sub(r" at \S*/", " at ", last.get("Stage Name", "?"))


def peaks_of(metrics, peaks):
    for name, fields in PEAKS.items():
        if any(f in metrics for f in fields):
            value = sum(metrics.get(f, 0) for f in fields) / MB
            peaks[name] = max(peaks.get(name, 0.0), value)


def summarise(path):
    """(jobs, totals): per job in order of its id, and the application's figures."""
    jobs, job_of_stage, peaks = {}, {}, {}
    app = {"start": None, "end": None}
    settings = {}
    for e in read_events(path):
        kind = e.get("Event")
        if kind == "SparkListenerEnvironmentUpdate":
            spark = e.get("Spark Properties") or {}
            spark = dict(spark) if isinstance(spark, list) else spark
            settings = {k: spark[k] for k in ("spark.master", "spark.driver.memory") if k in spark}
        elif kind == "SparkListenerApplicationStart":
            app["start"] = e["Timestamp"]
        elif kind == "SparkListenerApplicationEnd":
            app["end"] = e["Timestamp"]
        elif kind == "SparkListenerJobStart":
            job = jobs[e["Job ID"]] = {
                "name": job_name(e), "start": e["Submission Time"], "end": None,
                "cpu_seconds": 0.0, "shuffle_write_bytes": 0, "shuffle_read_bytes": 0,
            }
            for stage in e.get("Stage IDs", []):
                job_of_stage.setdefault(stage, job)
        elif kind == "SparkListenerJobEnd":
            jobs[e["Job ID"]]["end"] = e["Completion Time"]
        elif kind == "SparkListenerTaskEnd":
            peaks_of(e.get("Task Executor Metrics") or {}, peaks)
            job, m = job_of_stage.get(e["Stage ID"]), e.get("Task Metrics") or {}
            if job is None:
                continue
            job["cpu_seconds"] += m.get("Executor CPU Time", 0) / 1e9
            job["shuffle_write_bytes"] += (m.get("Shuffle Write Metrics") or {}).get("Shuffle Bytes Written", 0)
            read = m.get("Shuffle Read Metrics") or {}
            job["shuffle_read_bytes"] += read.get("Remote Bytes Read", 0) + read.get("Local Bytes Read", 0)
        elif kind == "SparkListenerStageExecutorMetrics":
            peaks_of(e.get("Executor Metrics") or {}, peaks)
    for job in jobs.values():
        job["seconds"] = (job["end"] - job["start"]) / 1000 if job["end"] else None
    ordered = [dict(job_id=k, **v) for k, v in sorted(jobs.items())]
    totals = {
        "jobs": len(ordered),
        "application_seconds": (app["end"] - app["start"]) / 1000 if app["start"] and app["end"] else None,
        "job_seconds": sum(j["seconds"] or 0 for j in ordered),
        "cpu_seconds": sum(j["cpu_seconds"] for j in ordered),
        "shuffle_write_bytes": sum(j["shuffle_write_bytes"] for j in ordered),
        "shuffle_read_bytes": sum(j["shuffle_read_bytes"] for j in ordered),
        **{k: round(v, 1) for k, v in peaks.items()},
        "settings": settings,
    }
    return ordered, totals


def per_doc(value, documents):
    return f"{value / documents:,.1f}" if documents else "–"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("event_log")
    p.add_argument("--documents", type=int, help="divide the shuffle bytes by this")
    p.add_argument("--json", help="also write the totals (and --documents) here")
    args = p.parse_args(argv)
    jobs, totals = summarise(args.event_log)
    n = args.documents
    print("| job | name | seconds | executor CPU s | shuffle written | read | written a document |")
    print("|---|---|---|---|---|---|---|")
    for j in jobs:
        secs = f"{j['seconds']:.1f}" if j["seconds"] is not None else "unfinished"
        print(f"| {j['job_id']} | {j['name']} | {secs} | {j['cpu_seconds']:.1f} | "
              f"{j['shuffle_write_bytes']:,} | {j['shuffle_read_bytes']:,} | "
              f"{per_doc(j['shuffle_write_bytes'], n)} |")
    print(f"| total | {totals['jobs']} jobs | {totals['job_seconds']:.1f} | {totals['cpu_seconds']:.1f} | "
          f"{totals['shuffle_write_bytes']:,} | {totals['shuffle_read_bytes']:,} | "
          f"{per_doc(totals['shuffle_write_bytes'], n)} |")
    app = totals["application_seconds"]
    print(f"\napplication: {app:.1f} s" if app is not None else "\napplication: unfinished")
    for name in PEAKS:
        if name in totals:
            print(f"{name.replace('_', ' ')}: {totals[name]:,.1f}")
    if args.json:
        if n:
            totals["documents"] = n
            for field in ("shuffle_write_bytes", "shuffle_read_bytes"):
                totals[f"{field}_per_document"] = round(totals[field] / n, 1)
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(totals, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
