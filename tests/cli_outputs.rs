//! `slst batch`'s output files: one record shape per file, the same flat columns in every
//! format, and the option combinations an output cannot honour refused before any work.

#![cfg(feature = "cli")]

mod common;
use common::{corpus_dir, repo, slst_in, stderr};
use slst::batch::output::PAIR_COLUMNS;
use std::path::Path;

/// The Clough & Stevenson short answers (100 files, shipped).
const CLOUGH: &str = "corpora/clough-short-answers/corpus-20090418";

/// A folder `c` holding two copies of the Clough source and an answer cut from it, and three
/// fillings of one estimate notice (two of them templates of one another: other figures).
fn corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("c");
    std::fs::create_dir(&c).unwrap();
    let source = repo().join("corpora/clough/orig_taskb.txt");
    std::fs::copy(&source, c.join("orig.txt")).unwrap();
    std::fs::copy(&source, c.join("copy.txt")).unwrap();
    std::fs::copy(
        repo().join("corpora/clough/g0pA_taskb.txt"),
        c.join("answer.txt"),
    )
    .unwrap();
    let estimate = |now: &str, before: &str, month: &str| {
        format!(
            "ORANGE JUICE YIELD ESTIMATE\n\nThe department projected an average yield of \
             {now} gallons of concentrate per box from the 1986/87 crop.\n    That \
             compares with {before} gallons per box previously and 1.38 gallons per box from \
             the 1985/86 crop.\n    The board said the estimates rest on maturity tests as of \
             {month} 1.\n Reuter\n"
        )
    };
    for (name, text) in [
        ("x-march.txt", estimate("1.47", "1.46", "March")),
        ("y-april.txt", estimate("1.50", "1.47", "April")),
        ("z-march-corrected.txt", estimate("1.47", "1.45", "March")),
    ] {
        std::fs::write(c.join(name), text).unwrap();
    }
    dir
}

/// Run `slst batch` in `dir` and return the file `out` it wrote.
fn batch(dir: &std::path::Path, source: &str, out: &str, extra: &[&str]) -> String {
    let mut args = vec!["batch", source, "-q", "--out", out];
    args.extend_from_slice(extra);
    let o = slst_in(dir, &args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    std::fs::read_to_string(dir.join(out)).unwrap()
}

/// A JSON line's flat fields as cells: absent or null empty, numbers as numbers.
fn json_cells(line: &str) -> Vec<Cell> {
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    // A number's own digits, read by the standard library's exact parser (serde_json's default
    // one can miss the last bit).
    let digits = |c: &str| -> f64 {
        let start = line.find(&format!("\"{c}\":")).unwrap() + c.len() + 3;
        let len = line[start..].find([',', '}']).unwrap();
        line[start..start + len].parse().unwrap()
    };
    PAIR_COLUMNS
        .iter()
        .map(|c| match v.get(*c) {
            None | Some(serde_json::Value::Null) => Cell::Empty,
            Some(serde_json::Value::Number(_)) => Cell::Number(digits(c)),
            Some(serde_json::Value::String(s)) => Cell::Text(s.clone()),
            Some(other) => panic!("{c} is not flat: {other}"),
        })
        .collect()
}

/// A cell of a table, read back.
#[derive(Debug, PartialEq)]
enum Cell {
    Empty,
    Number(f64),
    Text(String),
}

fn table_cell(column: &str, text: &str) -> Cell {
    let numeric = !matches!(
        column,
        "a" | "b"
            | "method"
            | "template"
            | "decided_by"
            | "condition"
            | "stopwords_a"
            | "stopwords_b"
    );
    match text {
        "" => Cell::Empty,
        t if numeric => Cell::Number(t.parse().unwrap()),
        t => Cell::Text(t.to_string()),
    }
}

/// The rows of a TSV or CSV pairs file, after its header (which must be [`PAIR_COLUMNS`]).
fn table_rows(text: &str, delimiter: u8) -> Vec<Vec<Cell>> {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .quoting(delimiter == b',')
        .from_reader(text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, PAIR_COLUMNS);
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            PAIR_COLUMNS
                .iter()
                .zip(r.iter())
                .map(|(c, t)| table_cell(c, t))
                .collect()
        })
        .collect()
}

/// JSON lines, TSV and CSV of one run hold the same rows in the same order, column for column.
fn same_rows_in_every_format(dir: &std::path::Path, source: &str, extra: &[&str]) -> usize {
    let jsonl = batch(dir, source, "p.jsonl", extra);
    let expected: Vec<Vec<Cell>> = jsonl.lines().map(json_cells).collect();
    assert!(!expected.is_empty(), "{source} {extra:?}: no pairs");
    // The format by --out's name, and by --out-format.
    assert_eq!(
        table_rows(&batch(dir, source, "p.tsv", extra), b'\t'),
        expected
    );
    assert_eq!(
        table_rows(&batch(dir, source, "p.csv", extra), b','),
        expected
    );
    let mut explicit = vec!["--out-format", "csv"];
    explicit.extend_from_slice(extra);
    assert_eq!(
        table_rows(&batch(dir, source, "p.out", &explicit), b','),
        expected
    );
    expected.len()
}

#[test]
fn tsv_and_csv_carry_the_json_lines_flat_fields() {
    let dir = corpus();
    let d = dir.path();
    let clough = repo().join(CLOUGH);
    let clough = clough.to_str().unwrap();
    // SL+ST in both modes: block counts and matched sentences.
    assert!(same_rows_in_every_format(d, clough, &[]) > 20);
    assert_eq!(
        same_rows_in_every_format(d, clough, &["--mode", "paper"]),
        3
    );
    // A method without blocks and with undefined containments: empty cells.
    same_rows_in_every_format(d, "c", &["--method", "md5"]);
    let md5 = batch(d, "c", "p.tsv", &["--method", "md5"]);
    assert_eq!(
        md5.lines().nth(1),
        Some("copy.txt\torig.txt\tmd5\t1\t\t\t\t\t\trule\trule\t\t")
    );
    // With `auto`, each document's list in the last two columns.
    assert!(same_rows_in_every_format(d, clough, &["--stopwords", "auto"]) > 20);
    // Templates reported: the reason in the column before `decided_by`.
    let n = same_rows_in_every_format(d, "c", &["--templates", "report"]);
    let tsv = batch(d, "c", "p.tsv", &["--templates", "report"]);
    let templates = tsv
        .lines()
        .filter(|l| l.ends_with("one template for another day?\tother-figures\tfigures-differ\t\t"))
        .count();
    assert!(templates >= 2 && templates < n, "{tsv}");
}

#[test]
fn the_pairs_file_holds_pair_records_only() {
    let dir = corpus();
    let d = dir.path();
    let keys = |line: &str| -> Vec<String> {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        v.as_object().unwrap().keys().cloned().collect()
    };
    for extra in [
        &[][..],
        &["--blocks"],
        &["--templates", "report", "--blocks"],
        &["--groups", "g.jsonl"],
    ] {
        let pairs = batch(d, "c", "p.jsonl", extra);
        for line in pairs.lines() {
            let k = keys(line);
            assert_eq!(&k[..3], ["a", "b", "method"], "{extra:?}: {line}");
            assert!(!k.contains(&"group".to_string()), "{extra:?}: {line}");
        }
    }
    // The copies' pair is in the pairs file unless a groups file holds it.
    assert!(batch(d, "c", "p.jsonl", &[]).contains(r#"{"a":"copy.txt","b":"orig.txt","#));
    let pairs = batch(d, "c", "p.jsonl", &["--groups", "g.jsonl"]);
    assert!(
        !pairs.contains(r#"{"a":"copy.txt","b":"orig.txt","#),
        "{pairs}"
    );
    let groups = std::fs::read_to_string(d.join("g.jsonl")).unwrap();
    assert_eq!(
        groups.lines().next(),
        Some(
            r#"{"group":1,"method":"slst","kind":"exact","size":2,"min_resemblance":1.0,"documents":["copy.txt","orig.txt"]}"#
        )
    );
}

/// Run `slst batch` with `args`, expecting it refused before any work: exit code 2, `message`
/// on standard error, and no output file written.
fn refused(args: &[&str], message: &str) {
    let dir = corpus();
    let mut all = vec!["batch", "c", "--summary", "s.json"];
    all.extend_from_slice(args);
    let o = slst_in(dir.path(), &all);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains(message), "{args:?}: {err}");
    assert!(!err.contains("documents:"), "{args:?} ran: {err}");
    let written: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|n| n != "c")
        .collect();
    assert!(written.is_empty(), "{args:?} wrote {written:?}");
}

#[test]
fn what_an_output_cannot_hold_is_refused_before_the_run() {
    let nested = "blocks are nested: use JSON lines or Parquet";
    refused(
        &["--blocks", "--out-format", "tsv"],
        &format!("slst: error: <standard output>: cannot write: {nested}, not tsv"),
    );
    refused(
        &["--blocks", "--out", "p.csv"],
        &format!("slst: error: p.csv: cannot write: {nested}, not csv"),
    );
    refused(
        &["--out", "p.jsonl", "--out-format", "tsv"],
        "slst: error: p.jsonl: cannot write: the name says jsonl, --out-format says tsv",
    );
    refused(
        &["--out-format", "csv", "--groups", "g.tsv"],
        "slst: error: g.tsv: cannot write: group records are nested: use JSON lines or Parquet, \
         not tsv",
    );
    refused(
        &["--no-groups"],
        "slst: error: invalid setting --no-groups = on: no longer a flag: without --groups FILE \
         every pair is written, and no group record; leave it out",
    );
    // Parsed by the argument parser: its own wording, naming the flag that is missing.
    refused(&["--group-pairs"], "--groups <FILE>");
}

#[cfg(not(feature = "parquet"))]
#[test]
fn parquet_is_refused_by_a_build_without_it() {
    let without = "this slst was built without Parquet support; build with `--features parquet`";
    refused(
        &["--out", "p.parquet"],
        &format!("p.parquet: cannot write: {without}"),
    );
    refused(&["--out-format", "parquet"], without);
    refused(
        &["--groups", "g.parquet"],
        &format!("g.parquet: cannot write: {without}"),
    );
}

/// The (a, b) pairs of a pairs file (pair records only).
fn pairs_of(text: &str) -> Vec<(String, String)> {
    text.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(
                v.get("group").is_none(),
                "a group record among pairs: {line}"
            );
            (
                v["a"].as_str().unwrap().to_string(),
                v["b"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// The document lists of a groups file's records.
fn groups_of(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(v.get("a").is_none(), "a pair record among groups: {line}");
            let docs: Vec<String> = v["documents"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_str().unwrap().to_string())
                .collect();
            assert_eq!(v["size"], docs.len());
            docs
        })
        .collect()
}

/// Every pair of a group's documents, earlier document first.
fn expand(groups: &[Vec<String>]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for g in groups {
        for (i, a) in g.iter().enumerate() {
            out.extend(g[i + 1..].iter().map(|b| (a.clone(), b.clone())));
        }
    }
    out
}

/// The test corpus with a third copy of one text (`again.txt`, `nested/copy.txt`, `orig.txt`).
fn corpus_with_copies() -> (tempfile::TempDir, Vec<String>) {
    let dir = corpus_dir();
    let source = std::fs::read(repo().join("corpora/clough/orig_taskb.txt")).unwrap();
    std::fs::write(dir.path().join("corpus/again.txt"), &source).unwrap();
    let copies = ["again.txt", "nested/copy.txt", "orig.txt"];
    (dir, copies.map(String::from).to_vec())
}

/// `slst batch corpus` in `d` with `extra`, pairs to `p.out`: (the pairs file, the summary,
/// stderr). A groups file of a run before is removed first.
fn batch_run(d: &Path, extra: &[&str]) -> (String, serde_json::Value, String) {
    let _ = std::fs::remove_file(d.join("g.jsonl"));
    let mut args = vec!["batch", "corpus", "--out", "p.out", "--summary", "s.json"];
    args.extend_from_slice(extra);
    let o = slst_in(d, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("s.json")).unwrap()).unwrap();
    (
        std::fs::read_to_string(d.join("p.out")).unwrap(),
        summary,
        stderr(&o),
    )
}

/// Every pair of the corpus with copies, sorted, from a default run.
fn every_pair(d: &Path) -> Vec<(String, String)> {
    let mut every = pairs_of(&batch_run(d, &[]).0);
    every.sort();
    every
}

#[test]
fn copies_come_out_once_in_the_groups_file_and_their_pairs_on_request() {
    let (dir, copies) = corpus_with_copies();
    let d = dir.path();
    let run = |extra: &[&str]| batch_run(d, extra);

    // Default: every pair, pair records only; the summary counts the groups and says where
    // they would go.
    let (all, summary, err) = run(&[]);
    let mut every = pairs_of(&all);
    every.sort();
    for p in expand(std::slice::from_ref(&copies)) {
        assert!(every.contains(&p), "{p:?} in {every:?}");
    }
    assert!(!d.join("g.jsonl").exists());
    assert_eq!(summary["duplicate_groups"], 1);
    assert_eq!(summary["group_records_written"], 0);
    assert_eq!(summary["pairs_written"], every.len());
    assert_eq!(summary["pairs_reported"], every.len());
    assert!(
        err.contains(
            "duplicate groups (J ≥ 0.9): 1 of 3 documents, holding 3 of the pairs; every pair \
             written as a pair (--groups FILE: each group once, as one record)"
        ),
        "{err}"
    );

    // --groups FILE: the three copies are one group record there; no pair among them is
    // written; the group and the pairs written are every pair, once.
    let (text, summary, err) = run(&["--groups", "g.jsonl"]);
    let groups_text = std::fs::read_to_string(d.join("g.jsonl")).unwrap();
    assert!(
        groups_text.starts_with(r#"{"group":1,"method":"slst","kind":"exact","size":3"#),
        "{groups_text}"
    );
    let (pairs, groups) = (pairs_of(&text), groups_of(&groups_text));
    assert_eq!(groups, std::slice::from_ref(&copies));
    assert!(
        pairs
            .iter()
            .all(|(a, b)| !(copies.contains(a) && copies.contains(b)))
    );
    let mut both = pairs.clone();
    both.extend(expand(&groups));
    both.sort();
    assert_eq!(both, every);
    assert_eq!(summary["duplicate_groups"], 1);
    assert_eq!(summary["group_records_written"], 1);
    assert_eq!(summary["documents_in_duplicate_groups"], 3);
    assert_eq!(summary["pairs_in_duplicate_groups"], 3);
    assert_eq!(summary["pairs_reported"], every.len());
    assert_eq!(summary["pairs_written"], every.len() - 3);
    assert_eq!(summary["group_resemblance"], 0.9);
    let line = format!(
        "duplicate groups (J ≥ 0.9): 1 of 3 documents, holding 3 of the pairs; each group \
         written as one record, and the other {} pairs as pairs (--group-pairs: every pair)",
        every.len() - 3
    );
    assert!(err.contains(&line), "{err}");

    // --group-pairs: the group record and every pair.
    let (text, summary, err) = run(&["--groups", "g.jsonl", "--group-pairs"]);
    let mut pairs = pairs_of(&text);
    pairs.sort();
    let groups = groups_of(&std::fs::read_to_string(d.join("g.jsonl")).unwrap());
    assert_eq!((pairs, groups), (every.clone(), vec![copies.clone()]));
    assert_eq!(summary["pairs_written"], every.len());
    assert!(
        err.contains("each group written as one record, and every pair as a pair"),
        "{err}"
    );
}

#[test]
fn copies_in_tsv_and_at_another_grouping_level() {
    let (dir, copies) = corpus_with_copies();
    let d = dir.path();
    let run = |extra: &[&str]| batch_run(d, extra);
    let every = every_pair(d);
    // TSV: every pair, and with a groups file the pairs outside groups.
    let tsv_pairs = |text: &str| -> Vec<(String, String)> {
        let mut v: Vec<_> = text
            .lines()
            .skip(1)
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f[0].to_string(), f[1].to_string())
            })
            .collect();
        v.sort();
        v
    };
    let (text, _, _) = run(&["--out-format", "tsv"]);
    assert_eq!(tsv_pairs(&text), every);
    let (text, _, _) = run(&["--out-format", "tsv", "--groups", "g.jsonl"]);
    let groups = groups_of(&std::fs::read_to_string(d.join("g.jsonl")).unwrap());
    assert_eq!(groups, std::slice::from_ref(&copies));
    assert_eq!(tsv_pairs(&text).len(), every.len() - 3);

    // --group-at 1: exact copies only (these are); a level above 1 is refused.
    run(&[
        "--group-at",
        "1",
        "--threshold",
        "0.2",
        "--groups",
        "g.jsonl",
    ]);
    let groups = groups_of(&std::fs::read_to_string(d.join("g.jsonl")).unwrap());
    assert_eq!(groups, [copies]);
    let o = slst_in(d, &["batch", "corpus", "--group-at", "1.5"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("group-at"), "{}", stderr(&o));
}
