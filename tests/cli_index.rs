//! End-to-end tests of `slst index` and `slst query`: agreement with `slst compare`, format
//! versions, `check`, crash safety under SIGKILL, and queries during an add.

#![cfg(all(feature = "cli", feature = "index"))]

mod common;
use common::slst_in;

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn spawn_in(dir: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_slst"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the slst binary runs")
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "slst failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn kjv_sentences() -> Vec<String> {
    include_str!("../corpora/bible/kjv-1mb.txt")
        .split(['.', '\n'])
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|s| s.split(' ').count() >= 4)
        .map(|s| s + ".")
        .collect()
}

/// Plain-text documents sharing runs of verses, in a folder; returns their file names.
fn text_corpus(dir: &Path) -> Vec<String> {
    let s = kjv_sentences();
    let docs = [
        (0..8).collect::<Vec<_>>(),
        (4..12).collect(),
        (20..30).collect(),
        vec![0, 1, 2, 40, 41, 42, 43, 44],
        (2..9).collect(),
    ];
    docs.iter()
        .enumerate()
        .map(|(i, picks)| {
            let name = format!("d{i}.txt");
            let text: Vec<&str> = picks.iter().map(|&p| s[p].as_str()).collect();
            std::fs::write(dir.join(&name), text.join(" ")).unwrap();
            name
        })
        .collect()
}

#[test]
fn query_gives_what_compare_gives_against_each_indexed_document() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let names = text_corpus(d);
    let s = kjv_sentences();
    std::fs::write(
        d.join("q.txt"),
        (1..9).map(|p| s[p].as_str()).collect::<Vec<_>>().join(" "),
    )
    .unwrap();
    // The default mode (robust) and the paper's.
    for mode in ["robust", "paper"] {
        let db = format!("{mode}.db");
        ok(&slst_in(d, &["index", "create", &db, "--mode", mode]));
        let mut add = vec!["index", "add", &db, "-q"];
        add.extend(names.iter().map(String::as_str));
        ok(&slst_in(d, &add));
        for threshold in ["0.2", "0.5"] {
            let out = ok(&slst_in(
                d,
                &["query", &db, "q.txt", "--json", "--threshold", threshold],
            ));
            let record: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            let hits = record["hits"].as_array().unwrap();
            let mut found = 0;
            for name in &names {
                let compare = ok(&slst_in(
                    d,
                    // The index keeps profiles, not texts: hits have blocks, not passages.
                    &[
                        "compare",
                        "--mode",
                        mode,
                        "q.txt",
                        name,
                        "--json",
                        "--no-passages",
                        "--threshold",
                        threshold,
                    ],
                ));
                let mut expected: serde_json::Value = serde_json::from_str(compare.trim()).unwrap();
                // A hit is the compare record, less the version of the document it sits in.
                expected.as_object_mut().unwrap().remove("schema_version");
                let hit = hits.iter().find(|h| h["b"]["id"] == name.as_str());
                if expected["duplicate"] == true {
                    assert_eq!(hit, Some(&expected), "{name} at θ = {threshold}");
                    found += 1;
                } else {
                    assert_eq!(hit, None, "{name} at θ = {threshold}");
                }
            }
            assert_eq!(found, hits.len());
            assert!(found >= 1);
        }
        let text = ok(&slst_in(d, &["query", &db, "q.txt", "--top", "1"]));
        assert!(text.contains("1 near-duplicate ("), "{text}");
        let stats = ok(&slst_in(d, &["index", "stats", &db]));
        assert!(stats.contains("documents       5"), "{stats}");
    }
}

#[test]
fn remove_and_replace_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let names = text_corpus(d);
    ok(&slst_in(d, &["index", "create", "i.db"]));
    ok(&slst_in(d, &["index", "add", "i.db", "-q", &names[0]]));
    let refused = slst_in(d, &["index", "add", "i.db", "--no-replace", &names[0]]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("refused d0.txt"));
    let out = ok(&slst_in(d, &["query", "i.db", &names[0]]));
    assert!(out.contains("1 near-duplicate ("), "{out}");
    let o = slst_in(d, &["index", "remove", "i.db", "d0.txt", "nope"]);
    ok(&o);
    assert!(String::from_utf8_lossy(&o.stderr).contains("nope is not in the index"));
    let out = ok(&slst_in(d, &["query", "i.db", &names[0]]));
    assert!(out.contains("0 near-duplicates"), "{out}");
}

/// An index of format version 1 (one row per key and document, and a table of document
/// frequencies) or 3 (no keys for robust mode's windows of over-long units) is refused with
/// what to do.
#[test]
fn an_index_of_an_older_format_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(&slst_in(d, &["index", "create", "i.db"]));
    for version in ["1", "3"] {
        let conn = rusqlite::Connection::open(d.join("i.db")).unwrap();
        conn.execute(
            "UPDATE meta SET value = ?1 WHERE key = 'format_version'",
            [version],
        )
        .unwrap();
        drop(conn);
        let o = slst_in(d, &["query", "i.db", "i.db"]);
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("i.db")
                && err.contains(&format!(
                    "format version {version} was written by an older slst"
                ))
                && err.contains("slst index create"),
            "{err}"
        );
    }
}

#[test]
fn an_index_of_a_newer_format_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    ok(&slst_in(d, &["index", "create", "i.db"]));
    let conn = rusqlite::Connection::open(d.join("i.db")).unwrap();
    conn.execute(
        "UPDATE meta SET value = '99' WHERE key = 'format_version'",
        [],
    )
    .unwrap();
    drop(conn);
    let o = slst_in(d, &["index", "stats", "i.db"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("i.db") && err.contains("version 99 is newer"),
        "{err}"
    );
    let o = slst_in(d, &["index", "create", "i.db"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("exists already"));
    std::fs::write(d.join("plain.db"), "not a database").unwrap();
    assert_eq!(
        slst_in(d, &["index", "stats", "plain.db"]).status.code(),
        Some(2)
    );
}

#[test]
fn check_says_which_row_is_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let names = text_corpus(d);
    ok(&slst_in(d, &["index", "create", "i.db"]));
    let mut add = vec!["index", "add", "i.db", "-q"];
    add.extend(names.iter().map(String::as_str));
    ok(&slst_in(d, &add));
    assert!(ok(&slst_in(d, &["index", "check", "i.db"])).ends_with(": ok\n"));
    let conn = rusqlite::Connection::open(d.join("i.db")).unwrap();
    conn.execute(
        "UPDATE documents SET text = 'Tampered text.' WHERE id = 'd2.txt'",
        [],
    )
    .unwrap();
    conn.execute(
        "DELETE FROM postings WHERE key = (SELECT min(key) FROM postings)",
        [],
    )
    .unwrap();
    drop(conn);
    let o = slst_in(d, &["index", "check", "i.db"]);
    assert_eq!(o.status.code(), Some(2));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("\"d2.txt\"") && out.contains("checksum mismatch"),
        "{out}"
    );
    assert!(out.contains("entries are missing"), "{out}");
}

/// A JSON-lines corpus big enough that an add runs for seconds: documents of 3 to 12 verses.
fn big_corpus(path: &Path, n: usize) -> Vec<(String, String)> {
    let s = kjv_sentences();
    let mut out = String::new();
    let mut docs = Vec::with_capacity(n);
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let start = (x % (s.len() as u64 - 12)) as usize;
        let len = 3 + (x >> 32) as usize % 10;
        let text = s[start..start + len].join(" ");
        let id = format!("doc{i:06}");
        out.push_str(&serde_json::json!({"id": id, "text": text}).to_string());
        out.push('\n');
        docs.push((id, text));
    }
    std::fs::write(path, out).unwrap();
    docs
}

#[test]
fn a_killed_add_keeps_every_committed_batch_and_none_of_the_interrupted_one() {
    const BATCH: usize = 500;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let docs = big_corpus(&d.join("big.jsonl"), 40_000);
    ok(&slst_in(d, &["index", "create", "i.db"]));
    let mut mid_run = 0;
    let mut seen = 0;
    let mut delays = vec![150u64, 400, 700, 1100, 1600, 2300];
    let mut next = 0;
    while let Some(&delay) = delays.get(next) {
        next += 1;
        let batch = BATCH.to_string();
        let mut child = spawn_in(
            d,
            &[
                "index",
                "add",
                "i.db",
                "big.jsonl",
                "-q",
                "--batch-size",
                &batch,
            ],
        );
        std::thread::sleep(Duration::from_millis(delay));
        if child.try_wait().unwrap().is_none() {
            mid_run += 1;
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();

        let index = slst::index::Index::open(&d.join("i.db")).unwrap();
        let problems = index.check().unwrap();
        assert!(
            problems.is_empty(),
            "after a kill at {delay} ms: {problems:?}"
        );
        // Every run adds the same documents in the same order, replacing: what is indexed is
        // the first k whole batches, with their full text.
        let ids = index.ids().unwrap();
        let mut sorted = ids.clone();
        sorted.sort();
        let n = sorted.len();
        assert!(
            n.is_multiple_of(BATCH) || n == docs.len(),
            "{n} documents: a partial batch"
        );
        assert!(n >= seen, "committed documents were lost");
        seen = n;
        let expected: Vec<String> = docs[..n].iter().map(|(id, _)| id.clone()).collect();
        assert_eq!(sorted, expected);
        for (id, text) in docs[..n].iter().step_by(97) {
            assert_eq!(&index.stored(id).unwrap().unwrap().0.text, text);
        }
        // A machine busy with other work may commit no batch within the fixed delays: wait
        // longer, up to about 20 s, until one has been.
        if next == delays.len() && seen == 0 && delay < 20_000 {
            delays.push(delay * 2);
        }
    }
    assert!(
        mid_run >= 3,
        "only {mid_run} kills happened mid-add: the corpus is too small"
    );
    assert!(seen > 0, "no batch was ever committed");
    assert!(ok(&slst_in(d, &["index", "check", "i.db"])).ends_with(": ok\n"));
}

#[test]
fn queries_keep_working_while_another_process_adds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let names = text_corpus(d);
    big_corpus(&d.join("big.jsonl"), 30_000);
    ok(&slst_in(d, &["index", "create", "i.db"]));
    ok(&slst_in(d, &["index", "add", "i.db", "-q", &names[2]]));
    let mut child = spawn_in(
        d,
        &[
            "index",
            "add",
            "i.db",
            "big.jsonl",
            "-q",
            "--batch-size",
            "200",
        ],
    );
    let start = Instant::now();
    let mut during = 0;
    while start.elapsed() < Duration::from_secs(20) && during < 4 {
        let out = ok(&slst_in(d, &["query", "i.db", &names[2]]));
        assert!(out.contains("d2.txt  J = 1.000"), "{out}");
        if child.try_wait().unwrap().is_some() {
            break;
        }
        during += 1;
    }
    // The add need not finish: an add stopped midway leaves a sound index (the test above).
    if child.try_wait().unwrap().is_none() {
        child.kill().unwrap();
    } else {
        assert!(child.wait().unwrap().success());
    }
    child.wait().unwrap();
    assert!(during >= 2, "only {during} queries ran during the add");
    let out = ok(&slst_in(d, &["query", "i.db", &names[2]]));
    assert!(out.contains("d2.txt  J = 1.000"), "{out}");
    assert!(ok(&slst_in(d, &["index", "check", "i.db"])).ends_with(": ok\n"));
}

/// `slst query` against a shingle or megashingle index prints, for each hit, the very record
/// `slst compare --method NAME --json` prints with the same settings, and nothing else.
fn method_query_gives_what_compare_gives(
    method: &str,
    flags: &[&str],
    query_flags: &[&str],
    query_picks: std::ops::Range<usize>,
) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let names = text_corpus(d);
    let s = kjv_sentences();
    std::fs::write(
        d.join("q.txt"),
        query_picks
            .map(|p| s[p].as_str())
            .collect::<Vec<_>>()
            .join(" "),
    )
    .unwrap();
    let mut create = vec!["index", "create", "i.db", "--method", method];
    create.extend(flags);
    ok(&slst_in(d, &create));
    let mut add = vec!["index", "add", "i.db", "-q"];
    add.extend(names.iter().map(String::as_str));
    ok(&slst_in(d, &add));
    let mut query = vec!["query", "i.db", "q.txt", "--json"];
    query.extend(query_flags);
    let out = ok(&slst_in(d, &query));
    let record: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(record["query"]["id"], "q.txt");
    let hits = record["hits"].as_array().unwrap();
    let mut found = 0;
    for name in &names {
        let mut compare = vec!["compare", "q.txt", name, "--json", "--method", method];
        compare.extend(flags);
        compare.extend(query_flags);
        let mut expected: serde_json::Value =
            serde_json::from_str(ok(&slst_in(d, &compare)).trim()).unwrap();
        expected.as_object_mut().unwrap().remove("schema_version");
        let hit = hits.iter().find(|h| h["b"]["id"] == name.as_str());
        if expected["duplicate"] == true {
            assert_eq!(hit, Some(&expected), "{method}: {name}");
            found += 1;
        } else {
            assert_eq!(hit, None, "{method}: {name}");
        }
    }
    assert_eq!(found, hits.len());
    assert!(found >= 1, "{method}: no hit to compare");
    let text = ok(&slst_in(d, &["query", "i.db", "q.txt", "--top", "1"]));
    assert!(text.contains("q.txt: 1 near-duplicate ("), "{text}");
    let stats = ok(&slst_in(d, &["index", "stats", "i.db"]));
    assert!(
        stats.contains(&format!("method          {method}")),
        "{stats}"
    );
    ok(&slst_in(d, &["index", "check", "i.db"]));
}

#[test]
fn shingle_query_gives_what_compare_gives_against_each_indexed_document() {
    method_query_gives_what_compare_gives("shingle", &["--shingle-size", "3"], &[], 1..9);
    method_query_gives_what_compare_gives(
        "shingle",
        &[
            "--sketch",
            "mod",
            "--modulus",
            "4",
            "--measure",
            "containment",
        ],
        &["--threshold", "0.3"],
        1..9,
    );
}

#[test]
fn megashingle_query_gives_what_compare_gives_against_each_indexed_document() {
    // d1.txt holds verses 4..12: the query is it, verse 3 added.
    method_query_gives_what_compare_gives("megashingle", &[], &[], 3..12);
    method_query_gives_what_compare_gives(
        "megashingle",
        &["--minima", "12", "--supershingle-size", "3"],
        &[],
        1..9,
    );
}

#[test]
fn shingle_and_megashingle_indexes_replace_remove_and_refuse_other_settings() {
    for method in ["shingle", "megashingle"] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let names = text_corpus(d);
        ok(&slst_in(
            d,
            &["index", "create", "i.db", "--method", method],
        ));
        ok(&slst_in(d, &["index", "add", "i.db", "-q", &names[0]]));
        let refused = slst_in(d, &["index", "add", "i.db", "--no-replace", &names[0]]);
        assert!(String::from_utf8_lossy(&refused.stderr).contains("refused d0.txt"));
        let out = ok(&slst_in(d, &["query", "i.db", &names[0]]));
        assert!(out.contains("1 near-duplicate ("), "{method}: {out}");
        // Replace d0.txt with d2.txt's text: a query with the old text no longer finds it.
        let old = std::fs::read_to_string(d.join(&names[0])).unwrap();
        std::fs::write(d.join("old.txt"), old).unwrap();
        std::fs::copy(d.join(&names[2]), d.join(&names[0])).unwrap();
        ok(&slst_in(d, &["index", "add", "i.db", "-q", &names[0]]));
        let out = ok(&slst_in(d, &["query", "i.db", "old.txt"]));
        assert!(out.contains("0 near-duplicates"), "{method}: {out}");
        let out = ok(&slst_in(d, &["query", "i.db", &names[2]]));
        assert!(out.contains("1 near-duplicate ("), "{method}: {out}");
        let containment = slst_in(d, &["query", "i.db", &names[0], "--containment", "0.5"]);
        assert!(!containment.status.success());
        assert!(String::from_utf8_lossy(&containment.stderr).contains("--containment"));
        let threshold = slst_in(d, &["query", "i.db", &names[0], "--threshold", "0.5"]);
        assert_eq!(threshold.status.success(), method == "shingle", "{method}");
        let o = slst_in(d, &["index", "remove", "i.db", "d0.txt", "nope"]);
        ok(&o);
        assert!(String::from_utf8_lossy(&o.stderr).contains("nope is not in the index"));
        let out = ok(&slst_in(d, &["query", "i.db", &names[2]]));
        assert!(out.contains("0 near-duplicates"), "{method}: {out}");
        ok(&slst_in(d, &["index", "check", "i.db"]));
    }
    let dir = tempfile::tempdir().unwrap();
    let o = slst_in(
        dir.path(),
        &["index", "create", "i.db", "--method", "polyhash"],
    );
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("slst (either mode), shingle or megashingle")
    );
    let o = slst_in(
        dir.path(),
        &[
            "index",
            "create",
            "m.db",
            "--method",
            "megashingle",
            "--threshold",
            "0.5",
        ],
    );
    assert!(!o.status.success());
}
