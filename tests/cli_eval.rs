//! End-to-end tests of `slst eval`.

#![cfg(feature = "cli")]

mod common;
use common::{repo, slst_in};

/// The Bible sample holds Genesis 1–3 in KJV and Webster: 3 light pairs (same chapter). HAND-
/// CHECKED against `slst compare` of each pair: the scores below come from there.
#[test]
#[cfg(feature = "plots")]
fn eval_on_the_bible_sample_with_plots_and_json() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("truth.tsv"),
        "docno_a\tdocno_b\trelation\nKJV-01-001\tWBT-01-001\tlight\nKJV-01-002\tWBT-01-002\tlight\nKJV-01-003\tWBT-01-003\tlight\n",
    )
    .unwrap();
    let sample = repo().join("corpora/bible/sample.trec");
    let o = slst_in(
        dir.path(),
        &[
            "eval",
            "--mode",
            "paper",
            sample.to_str().unwrap(),
            "--truth",
            "truth.tsv",
            "--positive",
            "light",
            "--json",
            "--plots",
            "plots",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["set"]["documents"], 6);
    assert_eq!(v["set"]["universe"], 15);
    assert_eq!(v["set"]["positives"], 3);
    let m = &v["methods"][0];
    assert_eq!(m["method"], "slst");
    assert_eq!(m["sweep"].as_array().unwrap().len(), 20);
    // Every pair of the sweep adds up to the universe.
    for p in m["sweep"].as_array().unwrap() {
        let total: u64 = ["tp", "fp", "fn_", "tn"]
            .iter()
            .map(|k| p[*k].as_u64().unwrap())
            .sum();
        assert_eq!(total, 15);
    }
    // The same chapter in KJV and Webster always shares blocks, other chapters never do here:
    // at the lowest threshold all three positives are found without a false positive.
    assert_eq!(m["sweep"][0]["tp"], 3);
    assert_eq!(m["sweep"][0]["fp"], 0);
    assert_eq!(m["best"]["f1"], 1.0);
    // The method's own decision (paper mode: J ≥ 0.5), unlike the best point of the sweep:
    // `slst compare` gives the three chapter pairs J = 0.383, 0.394 and 0.118, so none is a
    // duplicate at its settings.
    assert_eq!(m["decision"]["tp"], 0);
    assert_eq!(m["decision"]["fp"], 0);
    assert_eq!(m["decision"]["fn_"], 3);
    assert_eq!(m["rule"], "J ≥ 0.5");
    for f in ["prf-slst.png", "reported-pairs.png"] {
        let bytes = std::fs::read(dir.path().join("plots").join(f)).unwrap();
        assert!(bytes.starts_with(b"\x89PNG"), "{f} is a PNG");
    }
}

#[test]
fn eval_listed_universe_on_the_clough_pair_and_human_table() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("truth.tsv"),
        "g0pA_taskb.txt\torig_taskb.txt\tcut\n",
    )
    .unwrap();
    let corpus = repo().join("corpora/clough");
    let o = slst_in(
        dir.path(),
        &[
            "eval",
            corpus.to_str().unwrap(),
            "--truth",
            "truth.tsv",
            "--positive",
            "cut",
            "--universe",
            "listed",
            "--score",
            "containment",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.contains("2 documents (0 skipped); 1 pairs in the universe, 1 positive"),
        "{out}"
    );
    // Containment of the answer in the source is 5/8 = 0.625: found up to θ = 0.60.
    let line = out.lines().find(|l| l.starts_with("slst")).unwrap();
    assert!(line.contains("1.0000  1.0000  1.0000"), "{line}");
}

#[test]
fn bad_truth_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("truth.tsv"), "a\tb\t1\nnot a pair line\n").unwrap();
    let corpus = repo().join("corpora/clough");
    let o = slst_in(
        dir.path(),
        &["eval", corpus.to_str().unwrap(), "--truth", "truth.tsv"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("truth.tsv: line 2"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}
