"""Every Parquet file the command writes reads with pyarrow, and holds what the JSON lines of
the same run hold: batch's pairs (with and without blocks) and groups, dedup's corpus; on the
shipped corpus, and on Reuters-21578 as Parquet when the shared corpora are there. The command
must be a build with the `parquet` feature (`.ci/run` makes one; elsewhere the tests skip)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

CLOUGH = ROOT / "corpora" / "clough-short-answers" / "corpus-20090418"


def parquet_slst(tmp: Path) -> Path:
    """A `slst` built with Parquet: $SLST_BIN, else the release build, else the debug one."""
    given = os.environ.get("SLST_BIN")
    candidates = [Path(given)] if given else []
    candidates += [ROOT / "target" / b / "slst" for b in ("release", "debug")]
    for path in candidates:
        if not path.is_file():
            continue
        probe = subprocess.run(
            [str(path), "batch", str(CLOUGH), "-qq", "--out", str(tmp / "probe.parquet")],
            capture_output=True,
            text=True,
        )
        if probe.returncode == 0:
            return path
    if os.environ.get("SLST_REQUIRE_CORPORA"):
        raise RuntimeError("no slst build with the parquet feature in target/ (cargo build --features parquet)")
    pytest.skip("no slst build with the parquet feature (cargo build --features parquet)")


@pytest.fixture(scope="module")
def slst_cmd(tmp_path_factory):
    binary = parquet_slst(tmp_path_factory.mktemp("probe"))

    def run(*args: str) -> None:
        subprocess.run([str(binary), *args], cwd=ROOT, capture_output=True, text=True, check=True)

    return run


def jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def same_records(table, records: list[dict]) -> None:
    """The table's rows are the records, column for column (blocks compared as JSON)."""
    rows = table.to_pylist()
    assert len(rows) == len(records) > 0
    for row, record in zip(rows, records):
        assert set(record) <= set(row), (row, record)
        for key, value in record.items():
            if isinstance(value, float):
                assert row[key] == pytest.approx(value), key
            elif isinstance(value, list) and value and isinstance(value[0], dict):
                assert [{k: v for k, v in b.items() if v is not None} for b in row[key]] == [
                    {k: v for k, v in b.items() if v is not None} for b in value
                ], key
            else:
                assert row[key] == value, key


def test_batch_pairs_blocks_and_groups_read_with_pyarrow(slst_cmd, tmp_path):
    for flags in ([], ["--blocks"]):
        pq_out, js_out = tmp_path / "p.parquet", tmp_path / "p.jsonl"
        slst_cmd("batch", str(CLOUGH), "-qq", "--out", str(pq_out), *flags)
        slst_cmd("batch", str(CLOUGH), "-qq", "--out", str(js_out), *flags)
        same_records(pq.read_table(pq_out), jsonl(js_out))
    slst_cmd(
        "batch", str(CLOUGH), "-qq", "--out", str(tmp_path / "p.parquet"),
        "--groups", str(tmp_path / "g.parquet"),
    )
    slst_cmd(
        "batch", str(CLOUGH), "-qq", "--out", str(tmp_path / "p.jsonl"),
        "--groups", str(tmp_path / "g.jsonl"),
    )
    same_records(pq.read_table(tmp_path / "g.parquet"), jsonl(tmp_path / "g.jsonl"))
    same_records(pq.read_table(tmp_path / "p.parquet"), jsonl(tmp_path / "p.jsonl"))


def corpus_table(docs: list[tuple[str, str]]):
    ids, texts = zip(*docs)
    return pa.table(
        {
            "id": pa.array(ids),
            "text": pa.array(texts),
            "position": pa.array(range(len(ids)), type=pa.int64()),
        }
    )


def dedup_checks(slst_cmd, tmp_path: Path, table) -> int:
    """Dedup of `table` as Parquet: the output reads with pyarrow, with the input's columns; kept
    and dropped make the input; batch finds no pair among the kept. The number dropped."""
    source = tmp_path / "corpus.parquet"
    pq.write_table(table, source, row_group_size=4096)
    kept, dropped = tmp_path / "kept.parquet", tmp_path / "dropped.jsonl"
    slst_cmd("dedup", str(source), "-qq", "--out", str(kept), "--dropped", str(dropped))
    out = pq.read_table(kept)
    assert out.schema.names == table.schema.names
    gone = {d["dropped"] for d in jsonl(dropped)} if dropped.stat().st_size else set()
    assert sorted(out.column("id").to_pylist() + sorted(gone)) == sorted(table.column("id").to_pylist())
    keep = [i not in gone for i in table.column("id").to_pylist()]
    assert out.equals(table.filter(pa.array(keep)))
    again = tmp_path / "again.jsonl"
    slst_cmd("batch", str(kept), "-qq", "--out", str(again))
    assert again.read_text() == ""
    return len(gone)


def test_dedup_of_a_parquet_corpus_reads_with_pyarrow(slst_cmd, tmp_path):
    docs = [(p.name, p.read_bytes().decode("utf-8", "replace")) for p in sorted(CLOUGH.iterdir())]
    # A planted copy of the first answer, so that something is dropped.
    docs.append(("copy-of-" + docs[0][0], docs[0][1]))
    assert dedup_checks(slst_cmd, tmp_path, corpus_table(docs)) >= 1


def test_reuters_as_parquet_is_read_and_written(slst_cmd, tmp_path, reuters_jsonl):
    docs = [(str(d["id"]), d["text"]) for d in jsonl(reuters_jsonl)]
    table = corpus_table(docs)
    source = tmp_path / "reuters.parquet"
    pq.write_table(table, source)
    slst_cmd("batch", str(source), "-qq", "--out", str(tmp_path / "p.parquet"))
    slst_cmd("batch", str(reuters_jsonl), "--format", "jsonl", "-qq", "--out", str(tmp_path / "p.jsonl"))
    same_records(pq.read_table(tmp_path / "p.parquet"), jsonl(tmp_path / "p.jsonl"))
    assert dedup_checks(slst_cmd, tmp_path, table) > 500
