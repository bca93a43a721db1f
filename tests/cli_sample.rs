//! End-to-end tests of `slst sample`.

#![cfg(all(feature = "cli", feature = "sample"))]

mod common;
use common::{repo, reuters_dir, slst_in};

use std::path::Path;

/// A copy of the Bible sample in `dir`, so that the manifest's relative source path works there.
fn setup() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/bible/sample.trec"),
        dir.path().join("bible.trec"),
    )
    .unwrap();
    dir
}

fn manifest(dir: &Path, name: &str) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join(name)).unwrap()).unwrap()
}

#[test]
fn query_document_comes_first_and_the_manifest_says_so() {
    let dir = setup();
    let o = slst_in(
        dir.path(),
        &[
            "sample",
            "bible.trec",
            "--query-ids",
            "WBT-01-002,KJV-01-003",
            "--top",
            "2",
            "--out",
            "s.trec",
            "--manifest",
            "s.json",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m = manifest(dir.path(), "s.json");
    assert_eq!(
        m["query_ids"],
        serde_json::json!(["WBT-01-002", "KJV-01-003"])
    );
    assert_eq!(
        m["selected"],
        serde_json::json!(["WBT-01-002", "KJV-01-002", "KJV-01-003", "WBT-01-003"])
    );
    assert_eq!(m["per_query"][0]["self_rank"], 1);
    assert_eq!(m["per_query"][1]["hits"][0]["id"], "KJV-01-003");
    assert_eq!(m["top"], 2);
    assert!(
        m["retrieval"]["ties"]
            .as_str()
            .unwrap()
            .contains("earliest first")
    );
    assert!(m["tantivy_version"].as_str().unwrap().contains("0.27"));
    let subset = std::fs::read_to_string(dir.path().join("s.trec")).unwrap();
    assert_eq!(subset.matches("<DOC>").count(), 4);
    assert!(subset.starts_with("<DOC>\n<DOCNO>WBT-01-002</DOCNO>"));
    // The subset reads back as a corpus.
    let o = slst_in(
        dir.path(),
        &["batch", "s.trec", "--out", "pairs.jsonl", "-q"],
    );
    assert!(o.status.success());
}

#[test]
fn rebuild_from_the_manifest_gives_the_same_bytes() {
    let dir = setup();
    let o = slst_in(
        dir.path(),
        &[
            "sample",
            "bible.trec",
            "--queries",
            "2",
            "--top",
            "3",
            "--seed",
            "7",
            "--out",
            "s.trec",
            "--manifest",
            "s.json",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = slst_in(
        dir.path(),
        &[
            "sample",
            "--rebuild",
            "s.json",
            "--out",
            "again.trec",
            "--manifest",
            "again.json",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("identical to the manifest"));
    assert_eq!(
        std::fs::read(dir.path().join("s.trec")).unwrap(),
        std::fs::read(dir.path().join("again.trec")).unwrap()
    );
    assert_eq!(
        std::fs::read(dir.path().join("s.json")).unwrap(),
        std::fs::read(dir.path().join("again.json")).unwrap()
    );
    // Another seed draws other queries (for some seed), but the same seed the same ones.
    let queries = |seed: &str| {
        let o = slst_in(
            dir.path(),
            &[
                "sample",
                "bible.trec",
                "--queries",
                "2",
                "--top",
                "3",
                "--seed",
                seed,
                "--out",
                "t.trec",
                "--manifest",
                "t.json",
                "-q",
            ],
        );
        assert!(o.status.success());
        manifest(dir.path(), "t.json")["query_ids"].clone()
    };
    assert_eq!(queries("7"), manifest(dir.path(), "s.json")["query_ids"]);
    assert!(
        (0..6)
            .map(|s| queries(&s.to_string()))
            .any(|q| q != queries("7"))
    );
}

#[test]
fn rebuild_fails_when_the_corpus_changed() {
    let dir = setup();
    let o = slst_in(
        dir.path(),
        &[
            "sample",
            "bible.trec",
            "--query-ids",
            "KJV-01-001",
            "--top",
            "2",
            "--out",
            "s.trec",
            "--manifest",
            "s.json",
        ],
    );
    assert!(o.status.success());
    let text = std::fs::read_to_string(dir.path().join("bible.trec")).unwrap();
    std::fs::write(
        dir.path().join("bible.trec"),
        text.replacen("the heaven and the earth", "the heavens and the earth", 1),
    )
    .unwrap();
    let o = slst_in(
        dir.path(),
        &["sample", "--rebuild", "s.json", "--out", "again.trec"],
    );
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("differs from the manifest") && stderr.contains("corpus read"),
        "{stderr}"
    );
    assert!(!dir.path().join("again.trec").exists());
}

#[test]
fn errors_exit_with_code_2() {
    let dir = setup();
    let o = slst_in(
        dir.path(),
        &[
            "sample",
            "bible.trec",
            "--query-ids",
            "NOPE",
            "--out",
            "s.trec",
            "--manifest",
            "s.json",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("NOPE"));
    // Without --manifest (and without --rebuild) the command refuses to run.
    let o = slst_in(dir.path(), &["sample", "bible.trec", "--out", "s.trec"]);
    assert_eq!(o.status.code(), Some(2));
    let o = slst_in(
        dir.path(),
        &[
            "sample",
            "bible.trec",
            "--queries",
            "7",
            "--out",
            "s.trec",
            "--manifest",
            "s.json",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("6 documents have at least 3 sentences"));
}

/// The shipped Reuters-21578 sample was made when slst scored with tantivy 0.27; the in-house
/// BM25 rebuilds it bit for bit (every score of the six lists) and writes the same manifest.
#[test]
fn shipped_reuters_manifest_rebuilds_bit_for_bit() {
    // The manifest names the Reuters-21578 files of the shared corpora.
    if reuters_dir().is_none() {
        return;
    }
    let out = tempfile::tempdir().unwrap();
    let again = out.path().join("again.json");
    let o = slst_in(
        repo(),
        &[
            "sample",
            "--rebuild",
            "results/reuters-s.manifest.json",
            "--out",
            out.path().join("again.trec").to_str().unwrap(),
            "--manifest",
            again.to_str().unwrap(),
        ],
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(stderr.contains("identical to the manifest"), "{stderr}");
    assert_eq!(
        std::fs::read(again).unwrap(),
        std::fs::read(repo().join("results/reuters-s.manifest.json")).unwrap()
    );
}
