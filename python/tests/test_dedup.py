"""`slst.dedup` against `slst dedup` on the shipped corpus, and the keep policies on planted
copies of real text."""

from __future__ import annotations

import json

import pytest

import slst
from conftest import ROOT, run_slst

CLOUGH = ROOT / "corpora" / "clough-short-answers" / "corpus-20090418"
SOURCE = (ROOT / "corpora" / "clough" / "orig_taskb.txt").read_text(encoding="utf-8")
GENESIS = (ROOT / "corpora" / "bible" / "kjv-1mb.txt").read_text(encoding="utf-8")[:3000]


def folder_docs():
    """The shipped folder as `slst dedup` reads it: files in path order, ids relative to it."""
    for path in sorted(CLOUGH.iterdir()):
        yield path.name, path.read_bytes()


@pytest.mark.parametrize(
    "mode,keep", [("robust", "first"), ("paper", "longest"), ("robust", "most-sentences")]
)
def test_dedup_decides_as_slst_dedup(mode, keep, tmp_path):
    kept_dir, dropped = tmp_path / "kept", tmp_path / "dropped.jsonl"
    run_slst(
        "dedup", str(CLOUGH), "--out", str(kept_dir), "--dropped", str(dropped),
        "--mode", mode, "--keep", keep, "-qq",
    )
    got = slst.dedup(folder_docs(), "slst", mode, keep=keep)
    assert got.documents == len(list(CLOUGH.iterdir()))
    assert got.kept == sorted(p.name for p in kept_dir.iterdir())
    assert [d.to_json() for d in got.dropped] == dropped.read_text().splitlines()
    assert len(got.kept) + len(got.dropped) == got.documents
    assert got.dropped, "the corpus has copies"
    names = [name for name, _ in folder_docs()]
    assert [names[i] for i in got.kept_indices] == got.kept
    # No two kept documents are a pair; each dropped one pairs with the kept one it names.
    kept = set(got.kept)
    pairs = {(p.a, p.b) for p in slst.pairs(folder_docs(), "slst", mode)}
    assert not any(a in kept and b in kept for a, b in pairs)
    for d in got.dropped:
        assert d.kept in kept and d.dropped not in kept
        assert (d.dropped, d.kept) in pairs or (d.kept, d.dropped) in pairs
        assert json.loads(d.to_json())["resemblance"] == d.resemblance
        assert d.rule == "duplicates" and d.method == "slst"


def test_keep_policies_choose_between_a_short_and_a_long_copy():
    half = SOURCE[: SOURCE.rfind(". ", 0, len(SOURCE) // 2) + 1]
    docs = [("short", half), ("bible", GENESIS), ("long", SOURCE)]
    first = slst.dedup(docs, "slst", "paper", rule="contained", containment=0.5)
    assert (first.kept, [(d.dropped, d.kept) for d in first.dropped]) == (
        ["short", "bible"],
        [("long", "short")],
    )
    d = first.dropped[0]
    assert d.containment_kept == 1.0 and d.containment_dropped < 1.0
    assert d.rule == "contained ≥ 0.5"
    for keep in ("longest", "most-sentences"):
        got = slst.dedup(docs, "slst", "paper", keep=keep, rule="contained", containment=0.5)
        assert got.kept == ["bible", "long"] and got.kept_indices == [1, 2]
        assert [(d.dropped, d.kept) for d in got.dropped] == [("short", "long")]
        assert got.dropped[0].containment_dropped == 1.0


def test_texts_alone_are_numbered():
    got = slst.dedup([GENESIS, SOURCE, SOURCE], "slst", "paper", threads=1)
    assert got.kept == ["0", "1"] and [d.dropped for d in got.dropped] == ["2"]


def test_what_cannot_be_done_is_an_error():
    with pytest.raises(slst.SlstError, match="first, longest, most-sentences or field:NAME"):
        slst.dedup([SOURCE], keep="last")
    with pytest.raises(slst.SlstError, match="ranks JSON-lines records"):
        slst.dedup([SOURCE], keep="field:score")
    with pytest.raises(slst.SlstError, match="a method that counts sentences"):
        slst.dedup([SOURCE], "shingle", keep="most-sentences")
    with pytest.raises(slst.SlstError, match="unknown rule"):
        slst.dedup([SOURCE], rule="all")


def test_the_keep_rule_alone_is_the_librarys():
    # 0 ~ 1 and 1 ~ 2, not 0 ~ 2: in input order 0 and 2 are kept (2 copies nothing kept).
    kept, dropped = slst.decide(3, [(0, 1), (1, 2)], [0, 1, 2])
    assert (kept, dropped) == ([True, False, True], [(1, 0, 0)])
    kept, dropped = slst.decide(3, [(0, 1), (1, 2)], [1, 0, 2])
    assert kept == [False, True, False]
    with pytest.raises(slst.SlstError):
        slst.decide(3, [(0, 1)], [0, 0, 1])
