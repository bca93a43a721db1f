"""Arrow tables in and out: `slst.pairs` and `slst.dedup` over Arrow tables of the shipped
corpus give what they give over the same (id, text) items; `to_arrow()` holds the values of
the JSON lines; bad tables are errors naming the column or row."""

from __future__ import annotations

import json

import pytest

import slst
from conftest import ROOT

pa = pytest.importorskip("pyarrow")

CLOUGH = ROOT / "corpora" / "clough-short-answers" / "corpus-20090418"


def documents():
    """The shipped short answers as (id, text), in path order, as `slst` decodes the files."""
    return [(p.name, slst.decode(p.read_bytes())) for p in sorted(CLOUGH.iterdir())]


DOCS = documents()


def table(docs=DOCS, id_name="id", text_name="text", **kinds):
    ids, texts = zip(*docs)
    return pa.table(
        {
            id_name: pa.array(ids, type=kinds.get("id_type", pa.string())),
            text_name: pa.array(texts, type=kinds.get("text_type", pa.string())),
        }
    )


def lines(pairs):
    return [p.to_json() for p in pairs]


def test_a_table_gives_the_pairs_of_the_same_items():
    want = slst.pairs(DOCS)
    got = slst.pairs(table())
    assert got.documents == want.documents == len(DOCS)
    assert got.clusters == want.clusters
    assert got.group_records == want.group_records
    assert lines(got) == lines(want)
    assert len(lines(slst.pairs(DOCS))) > 10, "the corpus has copies"


@pytest.mark.parametrize("text_type", [pa.large_string(), pa.string_view()])
def test_every_string_layout_reads_the_same(text_type):
    got = slst.pairs(table(text_type=text_type, id_type=text_type))
    assert lines(got) == lines(slst.pairs(DOCS))


def test_a_record_batch_is_a_table_too():
    (batch,) = table().combine_chunks().to_batches()
    assert lines(slst.pairs(batch)) == lines(slst.pairs(DOCS))


def test_a_record_batch_reader_is_read_batch_by_batch():
    batches = table().to_batches(max_chunksize=7)
    assert len(batches) > 10
    reader = pa.RecordBatchReader.from_batches(batches[0].schema, iter(batches))
    assert lines(slst.pairs(reader)) == lines(slst.pairs(DOCS))


def test_columns_are_found_by_name_and_others_are_left_alone():
    t = table(id_name="name", text_name="body").append_column(
        "extra", pa.array(range(len(DOCS)))
    )
    t = t.select(["extra", "body", "name"])
    got = slst.pairs(t, id_column="name", text_column="body")
    assert lines(got) == lines(slst.pairs(DOCS))


def test_an_integer_id_column_gives_its_numbers_as_ids():
    numbered = [(str(i), text) for i, (_, text) in enumerate(DOCS)]
    t = table(list(zip(range(len(DOCS)), (text for _, text in DOCS))), id_type=pa.int64())
    got = lines(slst.pairs(t))
    assert got == lines(slst.pairs(numbered))
    assert got, "the corpus has copies"


def test_a_missing_column_is_an_error_listing_the_columns():
    with pytest.raises(ValueError) as e:
        slst.pairs(table(text_name="body"))
    assert str(e.value) == (
        'docs: no column "text" (columns: id, body; name the text column with text_column=)'
    )
    with pytest.raises(ValueError, match='no column "doc"'):
        slst.dedup(table(), id_column="doc")


def test_a_column_of_the_wrong_type_is_an_error_naming_it():
    t = pa.table({"id": ["a"], "text": pa.array([1.5])})
    with pytest.raises(ValueError, match=r'^docs: column "text" is Float64, not a string$'):
        slst.pairs(t)


@pytest.mark.parametrize(
    "column,message",
    [
        ("text", r'^docs: row 40 \(counting from 0\): the text is null \(column "text"\)$'),
        ("id", r'^docs: row 40 \(counting from 0\): the id is null \(column "id"\)$'),
    ],
)
def test_a_null_id_or_text_is_an_error_naming_the_row_and_column(column, message):
    ids, texts = map(list, zip(*DOCS))
    (texts if column == "text" else ids)[40] = None
    t = pa.table({"id": ids, "text": texts})
    with pytest.raises(slst.SlstError, match=message):
        slst.pairs(t)
    with pytest.raises(slst.SlstError, match=message):
        slst.dedup(t)


def test_to_arrow_holds_the_values_of_the_json_lines():
    pairs = slst.pairs(table(), rule="scored")
    records = [json.loads(line) for line in lines(slst.pairs(DOCS, rule="scored"))]
    arrow = pairs.to_arrow()
    assert isinstance(arrow, pa.Table)
    assert arrow.column_names == [
        "a", "b", "method", "resemblance", "containment_a", "containment_b",
        "block_count", "matched_sentences", "template", "decided_by", "condition",
        "stopwords_a", "stopwords_b",
    ]
    assert arrow.num_rows == len(records) > 100
    rows = arrow.to_pylist()
    for row, record in zip(rows, records):
        assert {k: v for k, v in row.items() if v is not None} == record
    # Every pair, whether iterated or not; and the same table through the capsule alone.
    assert pairs.to_arrow().equals(arrow)
    assert pa.table(pairs).equals(arrow)


def test_to_arrow_of_a_run_with_the_passage_criterion_holds_each_pairs_passages():
    pairs = slst.pairs(table(), min_shared_words=20)
    records = [json.loads(line) for line in lines(slst.pairs(DOCS, min_shared_words=20))]
    arrow = pairs.to_arrow()
    assert arrow.column_names[-1] == "passages"
    rows = arrow.to_pylist()
    assert len(rows) == len(records)
    for row, record in zip(rows, records):
        assert {k: v for k, v in row.items() if v is not None} == record
    assert any(p["shared_words"] >= 20 for r in rows for p in r["passages"])


def test_to_arrow_of_a_run_without_pairs_is_an_empty_table_of_the_same_columns():
    arrow = slst.pairs(table(DOCS[:1])).to_arrow()
    assert arrow.num_rows == 0
    assert arrow.schema == slst.pairs(table()).to_arrow().schema


def test_dedup_over_a_table_decides_as_over_the_items():
    want = slst.dedup(DOCS, keep="longest")
    t = table()
    got = slst.dedup(t, keep="longest")
    assert got.kept == want.kept
    assert got.kept_indices == want.kept_indices
    assert [d.to_json() for d in got.dropped] == [d.to_json() for d in want.dropped]
    assert got.dropped, "the corpus has copies"
    dropped = got.to_arrow()
    assert dropped.column_names == [
        "dropped", "kept", "resemblance", "containment_dropped", "containment_kept",
        "method", "rule",
    ]
    for row, d in zip(dropped.to_pylist(), got.dropped):
        assert row == json.loads(d.to_json())
    kept = got.kept_table()
    assert kept.column_names == ["id", "text"]
    assert kept.column("id").to_pylist() == want.kept
    texts = dict(DOCS)
    assert kept.column("text").to_pylist() == [texts[i] for i in want.kept]


def test_kept_table_is_refused_for_a_stream_read_once_and_for_items():
    t = table()
    reader = pa.RecordBatchReader.from_batches(t.schema, t.to_batches(max_chunksize=10))
    got = slst.dedup(reader)
    assert got.kept == slst.dedup(DOCS).kept
    with pytest.raises(slst.SlstError, match="read once"):
        got.kept_table()
    with pytest.raises(TypeError, match="for documents given as an Arrow table"):
        slst.dedup(DOCS).kept_table()


def test_a_polars_frame_in_and_out_without_pyarrow_in_between():
    pl = pytest.importorskip("polars")
    ids, texts = zip(*DOCS)
    frame = pl.DataFrame({"id": ids, "text": texts})
    pairs = slst.pairs(frame)
    want = slst.pairs(DOCS).to_arrow()
    assert pl.DataFrame(pairs).to_dicts() == want.to_pylist()
