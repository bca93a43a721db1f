//! End-to-end tests of `slst dedup`: the kept corpus and the dropped table against `slst batch`
//! on the same input with the same flags, the keep policies on planted copies, byte-identical
//! records, and every refusal.

#![cfg(feature = "cli")]

mod common;
use std::collections::{BTreeSet, HashSet};
use std::path::Path;

use common::{repo, slst_in, stderr};

/// The Clough & Stevenson corpus of short answers (95 answers, 5 sources; mixed encodings).
fn clough() -> String {
    repo()
        .join("corpora/clough-short-answers/corpus-20090418")
        .display()
        .to_string()
}

/// Run slst in `dir` and insist that it succeeds.
fn ok(dir: &Path, args: &[&str]) -> String {
    let o = slst_in(dir, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stderr(&o)
}

/// Run slst in `dir` and insist that it fails with exit code 2 and a message holding `what`.
fn refused(dir: &Path, args: &[&str], what: &str) {
    let o = slst_in(dir, args);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
    assert!(e.starts_with("slst: error: "), "{e}");
    assert!(e.contains(what), "{args:?}: {e}");
}

/// The (a, b) pairs `slst batch` reports on `sources` with `flags`, each as a sorted pair.
fn batch_pairs(dir: &Path, sources: &[&str], flags: &[&str]) -> BTreeSet<(String, String)> {
    let mut args = vec!["batch", "-q", "--out", "pairs.jsonl"];
    args.extend(sources);
    args.extend(flags);
    ok(dir, &args);
    let text = std::fs::read_to_string(dir.join("pairs.jsonl")).unwrap();
    text.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let (a, b) = (v["a"].as_str().unwrap(), v["b"].as_str().unwrap());
            (a.min(b).to_string(), a.max(b).to_string())
        })
        .collect()
}

/// The rows of a dropped table (TSV): each row's fields, the header checked.
fn dropped_rows(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("dropped\tkept\tresemblance\tcontainment_dropped\tcontainment_kept\tmethod\trule")
    );
    lines
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// The files of a folder, by their paths inside it.
fn files(dir: &Path) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.insert(rel);
            }
        }
    }
    out
}

/// The invariants on a folder of text files, with these flags (`keep`: dedup's own): kept and
/// dropped make the input, kept files are the input's bytes, batch finds no pair among the kept
/// files, and every dropped row is a pair batch reports on the input, its kept side kept.
fn check_folder(flags: &[&str], keep: &[&str]) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let input = clough();
    let mut args = vec!["dedup", &input, "--out", "kept", "--dropped", "dropped.tsv"];
    args.extend(flags);
    args.extend(keep);
    let summary = ok(dir.path(), &args);
    let rows = dropped_rows(&dir.path().join("dropped.tsv"));
    let kept = files(&dir.path().join("kept"));
    let inputs = files(Path::new(&input));
    let dropped: BTreeSet<String> = rows.iter().map(|r| r[0].clone()).collect();
    assert_eq!(dropped.len(), rows.len(), "a document dropped twice");
    assert!(kept.is_disjoint(&dropped));
    let all: BTreeSet<String> = kept.union(&dropped).cloned().collect();
    assert_eq!(all, inputs);
    assert!(!rows.is_empty(), "the corpus has copies: {summary}");
    for f in &kept {
        let a = std::fs::read(dir.path().join("kept").join(f)).unwrap();
        assert_eq!(a, std::fs::read(Path::new(&input).join(f)).unwrap(), "{f}");
    }
    assert!(
        batch_pairs(dir.path(), &["kept"], flags).is_empty(),
        "kept documents still pair"
    );
    let pairs = batch_pairs(dir.path(), &[&input], flags);
    for r in &rows {
        let (d, k) = (&r[0], &r[1]);
        assert!(kept.contains(k), "{r:?}");
        let pair = (d.min(k).clone(), d.max(k).clone());
        assert!(pairs.contains(&pair), "{r:?} is no pair of batch");
        let j: f64 = r[2].parse().unwrap();
        assert!(j > 0.0 && j <= 1.0);
        assert_eq!(r[5], "slst");
    }
    assert!(
        summary.contains(&format!(
            "{} documents read, {} kept, {} dropped, 0 bad documents skipped",
            inputs.len(),
            kept.len(),
            rows.len()
        )),
        "{summary}"
    );
    rows.len()
}

#[test]
fn a_folder_loses_its_copies_and_batch_finds_none_among_the_rest() {
    let robust = check_folder(&[], &[]);
    let paper = check_folder(&["--mode", "paper"], &[]);
    let contained = check_folder(&["--mode", "paper", "--containment", "0.6"], &[]);
    let longest = check_folder(&[], &["--keep", "longest"]);
    let sentences = check_folder(&["--threads", "1"], &["--keep", "most-sentences"]);
    assert!(robust > paper, "{robust} {paper}");
    assert!(contained > paper, "{contained} {paper}");
    assert!(longest > 0 && sentences > 0);
}

/// Real texts with planted copies, as JSON lines with fields of their own: the Clough source,
/// its first half, a cut answer from it, an unrelated Bible text, the source again with other
/// fields, and a line that is not JSON.
fn planted(dir: &Path) -> Vec<String> {
    let source = std::fs::read_to_string(repo().join("corpora/clough/orig_taskb.txt")).unwrap();
    let half = &source[..source.len() / 2];
    let half = &half[..half.rfind(". ").unwrap() + 1];
    let answer = std::fs::read_to_string(repo().join("corpora/clough/g0pA_taskb.txt")).unwrap();
    let kjv = std::fs::read_to_string(repo().join("corpora/bible/kjv-1mb.txt")).unwrap();
    let genesis = &kjv[..3000];
    let json = |s: &str| serde_json::to_string(s).unwrap();
    let lines = [
        format!(
            r#"{{"id": "half", "text": {}, "score": 3, "note": "caf\u00e9"}}"#,
            json(half)
        ),
        format!(r#"{{"text":{},"id":"answer","score":"x"}}"#, json(&answer)),
        format!(r#"{{"id":"full","text":{},"score":9.5}}"#, json(&source)),
        "{not json".to_string(),
        format!(r#"{{"id":"genesis","text":{},"score":1}}"#, json(genesis)),
        format!(
            r#"{{"id":"again","text":{},"extra":[1,2],"rank":-1}}"#,
            json(&source)
        ),
    ];
    // CRLF on one line, and no line end on the last.
    let text = format!(
        "{}\r\n{}\n{}\n{}\n\n{}\n{}",
        lines[0], lines[1], lines[2], lines[3], lines[4], lines[5]
    );
    std::fs::write(dir.join("docs.jsonl"), &text).unwrap();
    vec![
        format!("{}\r\n", lines[0]),
        format!("{}\n", lines[1]),
        format!("{}\n", lines[2]),
        format!("{}\n", lines[4]),
        lines[5].clone(),
    ]
}

/// Dedup `docs.jsonl` with `flags`: the ids kept, in output order, checked to be the input's
/// lines byte for byte, and the (dropped, kept) rows.
fn dedup_jsonl(
    dir: &Path,
    lines: &[String],
    flags: &[&str],
) -> (Vec<String>, Vec<(String, String)>) {
    let mut args = vec![
        "dedup",
        "docs.jsonl",
        "--out",
        "kept.jsonl",
        "--dropped",
        "dropped.jsonl",
        "--mode",
        "paper",
        "--containment",
        "0.5",
    ];
    args.extend(flags);
    let summary = ok(dir, &args);
    assert!(summary.contains("1 bad documents skipped"), "{summary}");
    let out = std::fs::read(dir.join("kept.jsonl")).unwrap();
    // Each kept record is its input line, byte for byte, in input order (a line end added to
    // the last line, which had none).
    let mut expected = Vec::new();
    let mut ids = Vec::new();
    for line in lines {
        let id = serde_json::from_str::<serde_json::Value>(line.trim()).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string();
        let text = String::from_utf8_lossy(&out);
        if text.contains(line.trim_end()) {
            expected.extend_from_slice(line.as_bytes());
            if !line.ends_with('\n') {
                expected.push(b'\n');
            }
            ids.push(id);
        }
    }
    assert_eq!(out, expected, "kept records are not the input's lines");
    let dropped = std::fs::read_to_string(dir.join("dropped.jsonl")).unwrap();
    let rows = dropped
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["rule"], "contained ≥ 0.5");
            let d = v["dropped"].as_str().unwrap().to_string();
            (d, v["kept"].as_str().unwrap().to_string())
        })
        .collect();
    (ids, rows)
}

#[test]
fn keep_policies_choose_as_documented_and_records_are_copied_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let lines = planted(dir.path());
    let d = dir.path();
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    // first: the earliest copy, `half`, is kept, and `full` and `again` (its exact copy) go
    // for it. The cut answer pairs with `full` but not with `half`: a chain, whose far end is
    // kept.
    let (kept, dropped) = dedup_jsonl(d, &lines, &[]);
    assert_eq!(kept, ["half", "answer", "genesis"]);
    assert_eq!(dropped, [pair("full", "half"), pair("again", "half")]);
    // longest: the whole source; the half, the answer and the exact copy go for it.
    let expected = [
        pair("half", "full"),
        pair("answer", "full"),
        pair("again", "full"),
    ];
    let (kept, dropped) = dedup_jsonl(d, &lines, &["--keep", "longest"]);
    assert_eq!(
        (kept, dropped),
        (
            vec!["full".to_string(), "genesis".into()],
            expected.to_vec()
        )
    );
    // most-sentences: the same here.
    let (kept, dropped) = dedup_jsonl(d, &lines, &["--keep", "most-sentences"]);
    assert_eq!(
        (kept, dropped),
        (
            vec!["full".to_string(), "genesis".into()],
            expected.to_vec()
        )
    );
    // field:score: numbers first (9.5 before 3), then strings (`answer`), then none (`again`).
    let (kept, dropped) = dedup_jsonl(d, &lines, &["--keep", "field:score"]);
    assert_eq!(
        (kept, dropped),
        (
            vec!["full".to_string(), "genesis".into()],
            expected.to_vec()
        )
    );
    // A field only `again` has ranks it first, the others in input order.
    let (kept, dropped) = dedup_jsonl(d, &lines, &["--keep", "field:rank"]);
    assert_eq!(kept, ["genesis", "again"]);
    assert_eq!(
        dropped,
        [
            pair("half", "again"),
            pair("answer", "again"),
            pair("full", "again")
        ]
    );
}

#[test]
fn gzip_output_and_sgml_records() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    planted(d);
    ok(
        d,
        &[
            "dedup",
            "docs.jsonl",
            "--out",
            "kept.jsonl",
            "--dropped",
            "a.tsv",
        ],
    );
    ok(
        d,
        &[
            "dedup",
            "docs.jsonl",
            "--out",
            "kept.jsonl.gz",
            "--dropped",
            "b.tsv",
        ],
    );
    let gz = std::fs::read(d.join("kept.jsonl.gz")).unwrap();
    let mut plain = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut plain).unwrap();
    assert_eq!(plain, std::fs::read(d.join("kept.jsonl")).unwrap());
    assert_eq!(
        std::fs::read(d.join("a.tsv")).unwrap(),
        std::fs::read(d.join("b.tsv")).unwrap()
    );
    // TREC: the Bible sample's KJV and Webster chapters are near-copies; the KJV ones come
    // first and are kept, each element as it was.
    let trec = repo()
        .join("corpora/bible/sample.trec")
        .display()
        .to_string();
    let summary = ok(
        d,
        &["dedup", &trec, "--out", "kept.trec", "--dropped", "t.tsv"],
    );
    let kept = std::fs::read_to_string(d.join("kept.trec")).unwrap();
    let input = std::fs::read_to_string(&trec).unwrap();
    let elements: Vec<&str> = kept.split_inclusive("</DOC>\n").collect();
    assert_eq!(elements.len(), 3, "{summary}");
    for e in &elements {
        assert!(e.contains("<DOCNO>KJV-") && input.contains(e), "{e}");
    }
    let rows = dropped_rows(&d.join("t.tsv"));
    assert_eq!(rows.len(), 3);
    assert!(
        rows.iter()
            .all(|r| r[0].starts_with("WBT-") && r[1].starts_with("KJV-"))
    );
    assert!(batch_pairs(d, &["kept.trec"], &[]).is_empty());
}

#[test]
fn what_cannot_be_honoured_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    planted(d);
    let before = std::fs::read(d.join("docs.jsonl")).unwrap();
    let run = |extra: &[&str]| {
        let mut a = vec!["dedup", "docs.jsonl"];
        a.extend(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let check = |extra: &[&str], what: &str| {
        let args = run(extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(d, &args, what);
    };
    check(
        &["--out", "docs.jsonl", "--dropped", "x.tsv"],
        "docs.jsonl: cannot write: the output would overwrite an input",
    );
    check(
        &["--out", "k.jsonl", "--dropped", "./docs.jsonl"],
        "the dropped table would overwrite an input",
    );
    check(
        &["--out", "k.jsonl", "--dropped", "k.jsonl"],
        "k.jsonl: cannot write: it is also the table of dropped documents",
    );
    check(
        &["--out", "k.jsonl", "--dropped", "x.tsv", "--keep", "last"],
        "invalid setting --keep = last",
    );
    check(
        &[
            "--out",
            "k.jsonl",
            "--dropped",
            "x.tsv",
            "--keep",
            "most-sentences",
            "--method",
            "shingle",
        ],
        "most-sentences with a method that counts sentences",
    );
    assert_eq!(std::fs::read(d.join("docs.jsonl")).unwrap(), before);
    // Folders: an output that is not empty, or inside the input.
    let input = clough();
    std::fs::create_dir(d.join("full")).unwrap();
    std::fs::write(d.join("full/x.txt"), "x").unwrap();
    refused(
        d,
        &["dedup", &input, "--out", "full", "--dropped", "x.tsv"],
        "full: cannot write: exists and is not an empty folder",
    );
    let copy = d.join("corpus");
    std::fs::create_dir(&copy).unwrap();
    std::fs::copy(
        repo().join("corpora/clough/orig_taskb.txt"),
        copy.join("a.txt"),
    )
    .unwrap();
    refused(
        d,
        &[
            "dedup",
            "corpus",
            "--out",
            "corpus/kept",
            "--dropped",
            "x.tsv",
        ],
        "inside the input folder corpus",
    );
    refused(
        d,
        &[
            "dedup",
            "corpus",
            "--out",
            "kept",
            "--dropped",
            "x.tsv",
            "--keep",
            "field:score",
        ],
        "invalid setting --keep = field:score",
    );
    // Standard input cannot be read twice; WARC records are not written; one file of two
    // formats is not made.
    refused(
        d,
        &["dedup", "-", "--out", "k", "--dropped", "x.tsv"],
        "standard input can be read once",
    );
    std::fs::write(
        d.join("pages.warc"),
        "WARC/1.0\r\nWARC-Type: warcinfo\r\n\r\n",
    )
    .unwrap();
    refused(
        d,
        &["dedup", "pages.warc", "--out", "k", "--dropped", "x.tsv"],
        "pages.warc: WARC: dedup writes JSON lines, TREC or other SGML, Parquet, and whole files",
    );
    let trec = repo()
        .join("corpora/bible/sample.trec")
        .display()
        .to_string();
    refused(
        d,
        &[
            "dedup",
            "docs.jsonl",
            &trec,
            "--out",
            "k",
            "--dropped",
            "x.tsv",
        ],
        "TREC SGML while docs.jsonl is JSON lines",
    );
    for made in ["k", "k.jsonl", "x.tsv", "kept"] {
        assert!(!d.join(made).exists(), "{made} was written");
    }
}

#[test]
fn a_folder_holding_warc_files_stops_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("in")).unwrap();
    std::fs::copy(
        repo().join("corpora/clough/orig_taskb.txt"),
        d.join("in/a.txt"),
    )
    .unwrap();
    let page = std::fs::read(repo().join("corpora/web-fixtures/python-3.11/about.html")).unwrap();
    let mut warc = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://x/\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        page.len() + 44
    )
    .into_bytes();
    warc.extend_from_slice(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n");
    warc.extend_from_slice(&page);
    warc.extend_from_slice(b"\r\n\r\n");
    std::fs::write(d.join("in/b.warc"), warc).unwrap();
    refused(
        d,
        &["dedup", "in", "--out", "kept", "--dropped", "x.tsv"],
        "b.warc: WARC: dedup writes",
    );
    assert!(!d.join("kept").exists() && !d.join("x.tsv").exists());
}

#[cfg(not(feature = "parquet"))]
#[test]
fn parquet_is_refused_by_a_build_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    planted(d);
    std::fs::copy(d.join("docs.jsonl"), d.join("docs.parquet")).unwrap();
    let without = "this slst was built without Parquet support; build with `--features parquet`";
    refused(
        d,
        &["dedup", "docs.parquet", "--out", "k", "--dropped", "x.tsv"],
        &format!("docs.parquet: {without}"),
    );
    refused(
        d,
        &[
            "dedup",
            "docs.jsonl",
            "--format",
            "parquet",
            "--out",
            "k",
            "--dropped",
            "x.tsv",
        ],
        &format!("--format = parquet: {without}"),
    );
    assert!(!d.join("k").exists() && !d.join("x.tsv").exists());
}

/// Reuters-21578, when the shared corpora are there: the invariants on a real news corpus,
/// read as SGML and written as its `<REUTERS>` elements.
#[test]
fn reuters_loses_its_copies() {
    let Some(files) = common::reuters_files() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut args = vec!["dedup", "--out", "kept.sgm", "--dropped", "dropped.tsv"];
    args.extend(files.iter().map(String::as_str));
    let summary = ok(d, &args);
    let rows = dropped_rows(&d.join("dropped.tsv"));
    let kept = std::fs::read(d.join("kept.sgm")).unwrap();
    let kept = String::from_utf8_lossy(&kept);
    let kept_ids: Vec<&str> = kept
        .match_indices("NEWID=\"")
        .map(|(at, m)| {
            let rest = &kept[at + m.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    let unique: HashSet<&str> = kept_ids.iter().copied().collect();
    assert_eq!(unique.len(), kept_ids.len());
    let read = format!(
        "{} documents read, {} kept, {} dropped",
        kept_ids.len() + rows.len(),
        kept_ids.len(),
        rows.len()
    );
    assert!(summary.contains(&read), "{read} in {summary}");
    assert!(rows.len() > 100, "{summary}");
    assert!(rows.iter().all(|r| unique.contains(r[1].as_str())));
    assert!(batch_pairs(d, &["kept.sgm"], &[]).is_empty());
}
