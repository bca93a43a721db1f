//! Parquet in and out (the Cargo feature `parquet`): `cargo test --features parquet --test
//! parquet`. Corpora are written here with the Arrow writer from shipped documents; outputs are
//! read back with the Arrow reader and compared with the JSON lines of the same run.

#![cfg(all(feature = "cli", feature = "parquet"))]

mod common;
use std::path::Path;
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use common::{repo, slst_in, stderr};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::file::properties::WriterProperties;
use serde_json::Value;

/// The Clough & Stevenson short answers (100 files) as (id, text), in path order, and a copy
/// of the first task's source under another id (an exact group).
fn documents() -> Vec<(String, String)> {
    let dir = repo().join("corpora/clough-short-answers/corpus-20090418");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let mut docs: Vec<(String, String)> = paths
        .iter()
        .map(|p| {
            let bytes = std::fs::read(p).unwrap();
            let (text, _) = slst::corpus::decode_text(&bytes).unwrap();
            (p.file_name().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect();
    let source = docs
        .iter()
        .find(|(id, _)| id == "orig_taska.txt")
        .unwrap()
        .1
        .clone();
    docs.push(("zz_copy_of_orig_taska.txt".into(), source));
    docs
}

/// Write a Parquet file of two columns in row groups of 16 rows: `id` (strings, or with
/// `numbered` the row numbers as integers) and `text`, under the names given.
fn write_corpus(path: &Path, docs: &[(String, String)], names: (&str, &str), numbered: bool) {
    let (id_type, ids): (DataType, ArrayRef) = if numbered {
        (
            DataType::Int64,
            Arc::new(Int64Array::from_iter_values(0..docs.len() as i64)),
        )
    } else {
        (
            DataType::Utf8,
            Arc::new(StringArray::from_iter_values(docs.iter().map(|d| &d.0))),
        )
    };
    let texts: ArrayRef = Arc::new(StringArray::from_iter_values(docs.iter().map(|d| &d.1)));
    let schema = Arc::new(Schema::new(vec![
        Field::new(names.0, id_type, false),
        Field::new(names.1, DataType::Utf8, false),
    ]));
    let batch = RecordBatch::try_new(schema.clone(), vec![ids, texts]).unwrap();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(16))
        .build();
    let mut w =
        ArrowWriter::try_new(std::fs::File::create(path).unwrap(), schema, Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
}

/// The same documents as JSON lines (`id` a number with `numbered`).
fn write_jsonl(path: &Path, docs: &[(String, String)], numbered: bool) {
    let lines: String = docs
        .iter()
        .enumerate()
        .map(|(i, (id, text))| {
            let id = if numbered {
                Value::from(i)
            } else {
                Value::from(id.as_str())
            };
            format!("{}\n", serde_json::json!({"id": id, "text": text}))
        })
        .collect();
    std::fs::write(path, lines).unwrap();
}

fn batch(dir: &Path, args: &[&str]) -> String {
    let o = slst_in(dir, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stderr(&o)
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[test]
fn a_parquet_corpus_gives_the_pairs_of_the_same_texts_as_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let docs = documents();
    for numbered in [false, true] {
        write_corpus(&d.join("docs.parquet"), &docs, ("id", "text"), numbered);
        write_jsonl(&d.join("docs.jsonl"), &docs, numbered);
        for mode in ["robust", "paper"] {
            let common = ["-q", "--mode", mode, "--blocks", "--summary"];
            batch(
                d,
                &[
                    &["batch", "docs.parquet", "--out", "a.jsonl"][..],
                    &common,
                    &["sa.json"],
                ]
                .concat(),
            );
            batch(
                d,
                &[
                    &["batch", "docs.jsonl", "--out", "b.jsonl"][..],
                    &common,
                    &["sb.json"],
                ]
                .concat(),
            );
            let (a, b) = (read(d, "a.jsonl"), read(d, "b.jsonl"));
            assert!(a.lines().count() >= 3, "{mode}: {a}");
            assert_eq!(a, b, "{mode}, numbered ids: {numbered}");
            let summary: Value = serde_json::from_str(&read(d, "sa.json")).unwrap();
            assert_eq!(summary["documents_read"], docs.len());
        }
    }
    // Other column names; a folder holding the file reads it by its name.
    write_corpus(&d.join("docs.parquet"), &docs, ("url", "body"), false);
    std::fs::create_dir(d.join("folder")).unwrap();
    std::fs::rename(d.join("docs.parquet"), d.join("folder/docs.parquet")).unwrap();
    write_jsonl(&d.join("docs.jsonl"), &docs, false);
    batch(
        d,
        &[
            "batch",
            "folder",
            "-q",
            "--id-column",
            "url",
            "--text-column",
            "body",
            "--out",
            "a.jsonl",
        ],
    );
    batch(d, &["batch", "docs.jsonl", "-q", "--out", "b.jsonl"]);
    assert_eq!(read(d, "a.jsonl"), read(d, "b.jsonl"));
    // The text column before the id column: each found by its name.
    let swapped: Vec<_> = docs.iter().map(|(i, t)| (t.clone(), i.clone())).collect();
    write_corpus(&d.join("swapped.parquet"), &swapped, ("text", "id"), false);
    batch(d, &["batch", "swapped.parquet", "-q", "--out", "a.jsonl"]);
    assert_eq!(read(d, "a.jsonl"), read(d, "b.jsonl"));
}

#[test]
fn missing_or_mistyped_columns_are_errors_naming_the_file_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let docs = documents();
    write_corpus(&d.join("docs.parquet"), &docs[..5], ("id", "body"), false);
    let o = slst_in(d, &["batch", "docs.parquet", "-qq"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with("slst: error: no document was read"),
        "{err}"
    );
    assert!(
        err.contains(
            "docs.parquet: no column \"text\" (columns: id, body; name the text column with \
             --text-column)"
        ),
        "{err}"
    );
    // Integer text: the text column must hold strings.
    write_corpus(&d.join("ints.parquet"), &docs[..5], ("text", "id"), true);
    let o = slst_in(d, &["batch", "ints.parquet", "-qq"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("ints.parquet: column \"text\" is Int64, not a string"),
        "{}",
        stderr(&o)
    );
    // Not Parquet at all, and Parquet on standard input.
    std::fs::write(d.join("bad.parquet"), "not parquet").unwrap();
    let o = slst_in(d, &["batch", "bad.parquet", "-qq"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bad.parquet: not a readable Parquet file"),
        "{}",
        stderr(&o)
    );
    let parquet = std::fs::read(d.join("docs.parquet")).unwrap();
    let o = common::slst_with_input(d, &["batch", "-", "-qq"], parquet);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not standard input"), "{}", stderr(&o));
}

/// The rows of a Parquet file as JSON objects, a column that is null left out (as the JSON
/// lines leave out an absent field, and write an undefined containment as null).
fn parquet_rows(path: &Path) -> Vec<Value> {
    let file = std::fs::File::open(path).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let mut rows = Vec::new();
    for batch in reader {
        let batch = batch.unwrap();
        let fields = batch.schema().fields().clone();
        for i in 0..batch.num_rows() {
            let mut row = serde_json::Map::new();
            for (f, column) in fields.iter().zip(batch.columns()) {
                if !column.is_null(i) {
                    row.insert(f.name().clone(), json(column.as_ref(), i));
                }
            }
            // The method's evidence is JSON text.
            if let Some(e) = row.get_mut("evidence") {
                *e = serde_json::from_str(e.as_str().unwrap()).unwrap();
            }
            rows.push(Value::Object(row));
        }
    }
    rows
}

/// One value of an Arrow array as JSON (the types slst writes).
fn json(array: &dyn Array, i: usize) -> Value {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, UInt64Type};
    if array.is_null(i) {
        return Value::Null;
    }
    let list = |values: ArrayRef| -> Value {
        (0..values.len())
            .map(|k| json(values.as_ref(), k))
            .collect()
    };
    match array.data_type() {
        DataType::Utf8 => array.as_string::<i32>().value(i).into(),
        // Through its text, as a JSON line's number is read.
        DataType::Float64 => {
            let x = array.as_primitive::<Float64Type>().value(i);
            serde_json::from_str(&serde_json::to_string(&x).unwrap()).unwrap()
        }
        DataType::UInt64 => array.as_primitive::<UInt64Type>().value(i).into(),
        DataType::List(_) => list(array.as_list::<i32>().value(i)),
        DataType::FixedSizeList(..) => list(array.as_fixed_size_list().value(i)),
        DataType::Struct(fields) => {
            let s = array.as_struct();
            let mut o = serde_json::Map::new();
            for (f, c) in fields.iter().zip(s.columns()) {
                if !c.is_null(i) {
                    o.insert(f.name().clone(), json(c.as_ref(), i));
                }
            }
            Value::Object(o)
        }
        other => panic!("slst does not write {other}"),
    }
}

/// A JSON line as the Parquet row holds it: nulls left out.
fn as_row(line: &str) -> Value {
    let mut v: Value = serde_json::from_str(line).unwrap();
    v.as_object_mut().unwrap().retain(|_, x| !x.is_null());
    v
}

#[test]
fn parquet_pairs_and_groups_read_back_equal_the_json_lines() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let docs = documents();
    write_jsonl(&d.join("docs.jsonl"), &docs, false);
    for extra in [
        &[][..],
        &["--blocks"],
        &["--mode", "paper", "--blocks"],
        &["--method", "md5", "--blocks"],
        &["--templates", "report"],
        &["--stopwords", "auto"],
        // Each pair's passages, as a list column.
        &["--min-shared-words", "20"],
        &["--min-shared-words", "20", "--mode", "paper", "--blocks"],
    ] {
        let run = |out: &str, groups: &str, format: &[&str]| {
            let args = [
                &[
                    "batch",
                    "docs.jsonl",
                    "-q",
                    "--out",
                    out,
                    "--groups",
                    groups,
                ][..],
                format,
                extra,
            ]
            .concat();
            batch(d, &args);
        };
        run("p.jsonl", "g.jsonl", &[]);
        run("p.parquet", "g.parquet", &[]);
        let expected: Vec<Value> = read(d, "p.jsonl").lines().map(as_row).collect();
        assert_eq!(parquet_rows(&d.join("p.parquet")), expected, "{extra:?}");
        if extra.contains(&"--min-shared-words") {
            assert!(
                expected
                    .iter()
                    .any(|r| r["passages"][0]["shared_words"].is_u64()),
                "{expected:?}"
            );
        }
        let groups: Vec<Value> = read(d, "g.jsonl").lines().map(as_row).collect();
        assert!(!groups.is_empty());
        assert_eq!(parquet_rows(&d.join("g.parquet")), groups, "{extra:?}");
        // --out-format parquet to a name that says nothing: the groups follow it.
        run("pairs", "groups", &["--out-format", "parquet"]);
        assert_eq!(parquet_rows(&d.join("pairs")), expected, "{extra:?}");
        assert_eq!(parquet_rows(&d.join("groups")), groups, "{extra:?}");
    }
    // No pair at all: a valid file with no rows.
    batch(
        d,
        &[
            "batch",
            "docs.jsonl",
            "-q",
            "--threshold",
            "1",
            "--method",
            "md5",
            "--out",
            "none.parquet",
            "--groups",
            "g.jsonl",
        ],
    );
    assert!(parquet_rows(&d.join("none.parquet")).is_empty());
}

/// The shipped documents as a Parquet corpus with more columns than id and text: `url`, `id`,
/// `text`, `n` (the row number), `score` (null on every third row) and `tags` (a list), in row
/// groups of 16 rows, uncompressed.
fn write_wide_corpus(path: &Path, docs: &[(String, String)]) {
    use arrow_array::builder::{ListBuilder, StringBuilder};
    use arrow_array::{Float64Array, UInt64Array};
    let n = docs.len();
    let mut tags = ListBuilder::new(StringBuilder::new());
    for (id, _) in docs {
        tags.values().append_value(&id[..2]);
        tags.values().append_value("clough");
        tags.append(true);
    }
    let tags = tags.finish();
    let columns: Vec<ArrayRef> = vec![
        Arc::new(StringArray::from_iter_values(
            docs.iter().map(|d| format!("http://example.org/{}", d.0)),
        )),
        Arc::new(StringArray::from_iter_values(docs.iter().map(|d| &d.0))),
        Arc::new(StringArray::from_iter_values(docs.iter().map(|d| &d.1))),
        Arc::new(UInt64Array::from_iter_values(0..n as u64)),
        Arc::new(Float64Array::from_iter(
            (0..n).map(|i| (i % 3 != 0).then_some(i as f64 / 4.0)),
        )),
        Arc::new(tags.clone()),
    ];
    let schema = Arc::new(Schema::new(vec![
        Field::new("url", DataType::Utf8, false),
        Field::new("id", DataType::Utf8, false),
        Field::new("text", DataType::Utf8, false),
        Field::new("n", DataType::UInt64, false),
        Field::new("score", DataType::Float64, true),
        Field::new("tags", tags.data_type().clone(), true),
    ]));
    let batch = RecordBatch::try_new(schema.clone(), columns).unwrap();
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(16))
        .build();
    let mut w =
        ArrowWriter::try_new(std::fs::File::create(path).unwrap(), schema, Some(props)).unwrap();
    w.write(&batch).unwrap();
    w.close().unwrap();
}

/// The ids of a dropped table (TSV), and its rows.
fn dropped_ids(dir: &Path, name: &str) -> (Vec<String>, String) {
    let table = read(dir, name);
    let ids = table
        .lines()
        .skip(1)
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    (ids, table)
}

/// The number of rows of each row group of a Parquet file, and each column's compression.
fn layout(path: &Path) -> (Vec<i64>, Vec<parquet::basic::Compression>) {
    let file = std::fs::File::open(path).unwrap();
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let groups = builder.metadata().row_groups();
    let rows = groups.iter().map(|g| g.num_rows()).collect();
    let codecs = groups[0]
        .columns()
        .iter()
        .map(|c| c.compression())
        .collect();
    (rows, codecs)
}

#[test]
fn dedup_keeps_every_column_of_the_kept_rows_in_input_order() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let docs = documents();
    write_wide_corpus(&d.join("docs.parquet"), &docs);
    write_jsonl(&d.join("docs.jsonl"), &docs, false);
    let summary = batch(
        d,
        &[
            "dedup",
            "docs.parquet",
            "--out",
            "kept.parquet",
            "--dropped",
            "dropped.tsv",
        ],
    );
    batch(
        d,
        &[
            "dedup",
            "docs.jsonl",
            "--out",
            "kept.jsonl",
            "--dropped",
            "dropped-jsonl.tsv",
        ],
    );
    // The same decision as for the same texts in JSON lines.
    let (dropped, table) = dropped_ids(d, "dropped.tsv");
    assert_eq!(table, read(d, "dropped-jsonl.tsv"));
    assert!(dropped.len() > 5, "{summary}");
    // Kept and dropped make the input; the kept rows are the input's, every column, in order.
    let input = parquet_rows(&d.join("docs.parquet"));
    let kept = parquet_rows(&d.join("kept.parquet"));
    let expected: Vec<&Value> = input
        .iter()
        .filter(|r| !dropped.iter().any(|x| r["id"] == x.as_str()))
        .collect();
    assert_eq!(kept.iter().collect::<Vec<_>>(), expected);
    assert_eq!(kept.len() + dropped.len(), docs.len());
    assert!(kept.iter().any(|r| r.get("score").is_none()) && kept[0]["tags"][1] == "clough");
    let ids: std::collections::HashSet<&str> =
        kept.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), kept.len());
    assert!(summary.contains(&format!(
        "{} documents read, {} kept, {} dropped",
        docs.len(),
        kept.len(),
        dropped.len()
    )));
    // The input's schema and compression; a row group for each input row group with a row
    // kept, never more rows than it.
    let schema = |name: &str| {
        let file = std::fs::File::open(d.join(name)).unwrap();
        let b = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        b.schema().fields().clone()
    };
    assert_eq!(schema("kept.parquet"), schema("docs.parquet"));
    let (in_groups, in_codecs) = layout(&d.join("docs.parquet"));
    let (out_groups, out_codecs) = layout(&d.join("kept.parquet"));
    assert_eq!(out_codecs, in_codecs);
    assert!(out_groups.len() <= in_groups.len() && out_groups.len() > 1);
    assert!(out_groups.iter().all(|&n| (1..=16).contains(&n)));
    // No two kept rows form a pair.
    batch(d, &["batch", "kept.parquet", "-q", "--out", "pairs.jsonl"]);
    assert_eq!(read(d, "pairs.jsonl"), "");
}

#[test]
fn dedup_of_parquet_folders_and_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let docs = documents();
    // A folder of two files, cut between the copies: each kept file under its name.
    std::fs::create_dir(d.join("in")).unwrap();
    write_wide_corpus(&d.join("in/a.parquet"), &docs[..60]);
    write_wide_corpus(&d.join("in/b.parquet"), &docs[60..]);
    batch(
        d,
        &["dedup", "in", "--out", "kept", "--dropped", "dropped.tsv"],
    );
    let (dropped, _) = dropped_ids(d, "dropped.tsv");
    let mut kept = parquet_rows(&d.join("kept/a.parquet"));
    let b = parquet_rows(&d.join("kept/b.parquet"));
    assert!(!b.is_empty() && b.len() < docs.len() - 60);
    kept.extend(b);
    assert_eq!(kept.len() + dropped.len(), docs.len());
    batch(d, &["batch", "kept", "-q", "--out", "pairs.jsonl"]);
    assert_eq!(read(d, "pairs.jsonl"), "");
    // The same two files named: one output file, the same rows.
    batch(
        d,
        &[
            "dedup",
            "in/a.parquet",
            "in/b.parquet",
            "--out",
            "one.parquet",
            "--dropped",
            "x.tsv",
        ],
    );
    assert_eq!(parquet_rows(&d.join("one.parquet")), kept);
    // Refused before any work: files of two schemas into one file, a .gz name.
    write_corpus(&d.join("narrow.parquet"), &docs[..5], ("id", "text"), false);
    let refused = |args: &[&str], what: &str| {
        let o = slst_in(d, args);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(what), "{}", stderr(&o));
        assert!(!d.join("k.parquet").exists() && !d.join("k.parquet.gz").exists());
    };
    refused(
        &[
            "dedup",
            "in/a.parquet",
            "narrow.parquet",
            "--out",
            "k.parquet",
            "--dropped",
            "k.tsv",
        ],
        "narrow.parquet: its columns (id Utf8, text Utf8) are not those of in/a.parquet",
    );
    refused(
        &[
            "dedup",
            "in/a.parquet",
            "--out",
            "k.parquet.gz",
            "--dropped",
            "k.tsv",
        ],
        "k.parquet.gz: cannot write: Parquet compresses its columns itself",
    );
}

/// Reuters-21578 as a Parquet corpus (its documents as slst reads them, and the file each came
/// from as a column): dedup drops what it drops from the SGML files, keeps the other rows with
/// both columns, and batch finds no pair among them. Not in every run; CI runs it (`.ci/run`).
#[test]
#[ignore = "all of Reuters-21578: run with --include-ignored"]
fn reuters_as_parquet_loses_the_copies_the_sgml_loses() {
    let Some(files) = common::reuters_files() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut rows: Vec<(String, String, String)> = Vec::new();
    for f in &files {
        let options = slst::corpus::SourceOptions::default();
        for item in slst::corpus::read_sources(&[f.into()], &options) {
            if let slst::corpus::Item::Document(doc) = item {
                let name = Path::new(f).file_name().unwrap().to_string_lossy().into();
                rows.push((doc.id, doc.text, name));
            }
        }
    }
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Utf8, false),
        Field::new("text", DataType::Utf8, false),
        Field::new("file", DataType::Utf8, false),
    ]));
    let column = |f: fn(&(String, String, String)) -> &str| -> ArrayRef {
        Arc::new(StringArray::from_iter_values(rows.iter().map(f)))
    };
    let columns = vec![column(|r| &r.0), column(|r| &r.1), column(|r| &r.2)];
    let batch_of_all = RecordBatch::try_new(schema.clone(), columns).unwrap();
    let file = std::fs::File::create(d.join("reuters.parquet")).unwrap();
    let mut w = ArrowWriter::try_new(file, schema, None).unwrap();
    w.write(&batch_of_all).unwrap();
    w.close().unwrap();
    let mut args = vec!["dedup", "--out", "kept.sgm", "--dropped", "sgml.tsv", "-q"];
    args.extend(files.iter().map(String::as_str));
    batch(d, &args);
    batch(
        d,
        &[
            "dedup",
            "reuters.parquet",
            "--out",
            "kept.parquet",
            "--dropped",
            "parquet.tsv",
            "-q",
        ],
    );
    let (dropped, table) = dropped_ids(d, "parquet.tsv");
    assert_eq!(table, read(d, "sgml.tsv"));
    assert!(dropped.len() > 100);
    let kept = parquet_rows(&d.join("kept.parquet"));
    assert_eq!(kept.len() + dropped.len(), rows.len());
    assert!(
        kept.iter()
            .all(|r| r["file"].as_str().unwrap().starts_with("reut2-"))
    );
    batch(d, &["batch", "kept.parquet", "-q", "--out", "pairs.jsonl"]);
    assert_eq!(read(d, "pairs.jsonl"), "");
}
