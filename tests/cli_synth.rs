//! End-to-end tests of `slst synth`.

#![cfg(feature = "cli")]

mod common;
use common::slst_in;

use std::path::Path;
use std::process::{Command, Output};

fn repo(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(rel)
        .display()
        .to_string()
}

const ALL_KINDS: &str =
    "last-paragraph,every-nth,delete,insert,reorder,substitute,paste,boilerplate";

/// Bible sample (6 chapters) and the Clough folder (2 texts): 8 real documents.
fn synth(dir: &Path, seed: &str, out: &str, extra: &[&str]) -> Output {
    let bible = repo("corpora/bible/sample.trec");
    let clough = repo("corpora/clough");
    let mut args = vec![
        "synth", &bible, &clough, "--docs", "4", "--seed", seed, "--out", out, "--truth",
    ];
    let truth = format!("{out}.truth.tsv");
    let log = format!("{out}.log.jsonl");
    args.extend([truth.as_str(), "--log", log.as_str()]);
    args.extend(extra);
    slst_in(dir, &args)
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap()
}

#[test]
fn same_seed_same_bytes_different_seed_different_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let o = synth(dir.path(), "5", "a.trec", &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("4 originals + 4 variants"), "{stderr}");
    // Again, with one worker thread: nothing may depend on threads.
    let o = Command::new(env!("CARGO_BIN_EXE_slst"))
        .args([
            "synth",
            &repo("corpora/bible/sample.trec"),
            &repo("corpora/clough"),
        ])
        .args(["--docs", "4", "--seed", "5", "--out", "b.trec", "--truth"])
        .args(["b.trec.truth.tsv", "--log", "b.trec.log.jsonl"])
        .env("RAYON_NUM_THREADS", "1")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success());
    for suffix in ["", ".truth.tsv", ".log.jsonl"] {
        assert_eq!(
            read(dir.path(), &format!("a.trec{suffix}")),
            read(dir.path(), &format!("b.trec{suffix}")),
            "{suffix}"
        );
    }
    let o = synth(dir.path(), "6", "c.trec", &[]);
    assert!(o.status.success());
    assert_ne!(read(dir.path(), "a.trec"), read(dir.path(), "c.trec"));
    // Written atomically: no temporary file is left behind.
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".partial"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn slst_eval_reads_the_corpus_and_truth() {
    let dir = tempfile::tempdir().unwrap();
    let o = synth(
        dir.path(),
        "1",
        "s.trec",
        &["--kinds", "delete:0.25,reorder:3,last-paragraph"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let truth = String::from_utf8(read(dir.path(), "s.trec.truth.tsv")).unwrap();
    assert!(truth.starts_with("id_a\tid_b\tkind\tamount\n"), "{truth}");
    assert_eq!(truth.lines().count(), 5);
    let o = slst_in(
        dir.path(),
        &[
            "eval",
            "s.trec",
            "--truth",
            "s.trec.truth.tsv",
            "--positive",
            ALL_KINDS,
            "--json",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["set"]["documents"], 8);
    assert_eq!(v["set"]["positives"], 4);
    // Deleting a quarter, moving 3 runs, or rewriting an eighth leaves long runs of sentences:
    // SL+ST finds every planted pair.
    assert_eq!(v["methods"][0]["best"]["recall"], 1.0, "{v}");
    // The log has one JSON object per variant, naming its original and kind.
    let log = String::from_utf8(read(dir.path(), "s.trec.log.jsonl")).unwrap();
    for line in log.lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(truth.contains(&format!(
            "{}\t{}\t{}",
            r["original"].as_str().unwrap(),
            r["id"].as_str().unwrap(),
            r["kind"].as_str().unwrap()
        )));
    }
}

#[test]
fn figures_are_planted_written_another_way_and_found_by_the_robust_mode() {
    let dir = tempfile::tempdir().unwrap();
    let o = synth(dir.path(), "3", "f.trec", &["--kinds", "figures"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let truth = String::from_utf8(read(dir.path(), "f.trec.truth.tsv")).unwrap();
    assert_eq!(
        truth.lines().filter(|l| l.contains("\tfigures\t")).count(),
        4
    );
    // The chapters write their numbers out: the log shows each written in digits.
    let log = String::from_utf8(read(dir.path(), "f.trec.log.jsonl")).unwrap();
    let edits: Vec<serde_json::Value> = log
        .lines()
        .flat_map(|l| {
            let r: serde_json::Value = serde_json::from_str(l).unwrap();
            r["edits"].as_array().unwrap().clone()
        })
        .collect();
    assert!(edits.iter().any(|e| e["op"] == "figure"), "{log}");
    for e in &edits {
        assert_eq!(e["op"], "figure", "{e}");
        assert_ne!(e["before"], e["after"]);
    }
    let o = slst_in(
        dir.path(),
        &[
            "eval",
            "f.trec",
            "--truth",
            "f.trec.truth.tsv",
            "--positive",
            "figures",
            "--mode",
            "robust",
            "--json",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["methods"][0]["decision"]["recall"], 1.0, "{v}");
    let o = synth(dir.path(), "1", "x.trec", &["--kinds", "figures:0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("figures:A takes a share"));
}

#[test]
fn pastes_are_found_at_the_decision_with_reuse_at_any_length() {
    // A passage of five verses pasted into another chapter is a small share of both: the
    // robust rule alone reports few such pairs; with --min-shared-words every one (and the
    // sample's chapters, versions of one another, share passages among themselves too).
    let dir = tempfile::tempdir().unwrap();
    let o = synth(dir.path(), "2", "p.trec", &["--kinds", "paste"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let eval = |extra: &[&str]| {
        let mut args = vec![
            "eval",
            "p.trec",
            "--truth",
            "p.trec.truth.tsv",
            "--positive",
            "paste",
            "--mode",
            "robust",
            "--json",
        ];
        args.extend_from_slice(extra);
        let o = slst_in(dir.path(), &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["methods"][0].clone()
    };
    let (alone, with) = (eval(&[]), eval(&["--min-shared-words", "40"]));
    assert!(
        alone["decision"]["recall"].as_f64().unwrap() < 1.0,
        "{alone}"
    );
    assert_eq!(with["decision"]["recall"], 1.0, "{with}");
    assert!(
        with["rule"]
            .as_str()
            .unwrap()
            .ends_with("or ≥ 40 words shared in one passage")
    );
    // The sweep thresholds the score and does not move.
    assert_eq!(alone["sweep"], with["sweep"]);
    // Refused where it cannot be honoured: a method without blocks, text-alignment truth.
    let refused = |flags: [&str; 2]| {
        let mut args = vec!["eval", "p.trec", "--truth", "p.trec.truth.tsv"];
        args.extend(flags);
        args.extend(["--min-shared-words", "40"]);
        let o = slst_in(dir.path(), &args);
        assert_eq!(o.status.code(), Some(2));
        String::from_utf8_lossy(&o.stderr).into_owned()
    };
    assert!(refused(["--method", "shingle"]).contains("only its blocks locate passages"));
    assert!(refused(["--truth-format", "alignment"]).contains("--min-shared-words"));
}

#[test]
fn bad_settings_are_errors_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let o = synth(dir.path(), "1", "x.trec", &["--kinds", "shuffle"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("last-paragraph, every-nth"));
    let o = synth(dir.path(), "1", "x.trec", &["--kinds", "delete:2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("share above 0 and below 1"));
    let o = synth(dir.path(), "1", "x.trec", &["--min-sentences", "1000"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("only 0 documents"));
    assert!(!dir.path().join("x.trec").exists());
}

#[test]
fn missing_source_is_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let bible = repo("corpora/bible/sample.trec");
    let o = slst_in(
        dir.path(),
        &[
            "synth",
            "missing.trec",
            &bible,
            "--docs",
            "2",
            "--kinds",
            "delete",
            "--out",
            "o.trec",
            "--truth",
            "t.tsv",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("skipped missing.trec"), "{stderr}");
}
