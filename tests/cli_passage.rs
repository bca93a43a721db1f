//! `slst batch --min-shared-words`: every pair sharing a passage of at least N words, whatever
//! the documents' lengths. On the shipped text-alignment sample (`corpora/alignment-sample/`,
//! its SOURCE.md says what was pasted where): three Bible and Wikipedia passages of 48, 69 and
//! 118 words, each pasted into a chapter of 800 to 1,000 words, so that no pair reaches the
//! default rule, nor a containment of 0.2.

#![cfg(feature = "cli")]

mod common;
use common::{alignment_sample as sample, alignment_span as span, slst, stderr, stdout};

/// The pair records of `slst batch` over the sample with `extra` flags.
fn batch(extra: &[&str]) -> Vec<serde_json::Value> {
    let (susp, src) = (sample("susp"), sample("src"));
    let mut args = vec!["batch", susp.as_str(), src.as_str(), "-q"];
    args.extend_from_slice(extra);
    let o = slst(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn ids(records: &[serde_json::Value]) -> Vec<(&str, &str, &str)> {
    records
        .iter()
        .map(|r| {
            (
                r["a"].as_str().unwrap(),
                r["b"].as_str().unwrap(),
                r["decided_by"].as_str().unwrap(),
            )
        })
        .collect()
}

#[test]
fn short_passages_in_long_documents_are_found_at_any_length() {
    // The default rule reports none of the three pairs; nor does the containment rule at 0.2.
    assert!(batch(&[]).is_empty());
    assert!(batch(&["--containment", "0.2"]).is_empty());
    for mode in ["robust", "paper"] {
        // 60 words: the 69-word PageRank paragraph and the 118 words of Genesis 1:14–18, not
        // the 48 of Genesis 1:3–5.
        let records = batch(&["--min-shared-words", "60", "--mode", mode]);
        assert_eq!(
            ids(&records),
            [
                (
                    "suspicious-document00001.txt",
                    "source-document00002.txt",
                    "passage"
                ),
                (
                    "suspicious-document00002.txt",
                    "source-document00001.txt",
                    "passage"
                ),
            ],
            "{mode}"
        );
        // Each passage is the pasted text, the same words on both sides.
        let p = &records[1]["passages"][0];
        let a = span("susp/suspicious-document00002.txt", &p["a_span"]);
        let b = span("src/source-document00001.txt", &p["b_span"]);
        assert_eq!(a, b);
        assert!(
            a.starts_with("God said, “Let there be lights in the expanse"),
            "{a}"
        );
        assert!(a.ends_with("God saw that it was good."), "{a}");
        assert_eq!(p["similarity"], 1.0);
        // A verbatim copy shares every one of its words.
        assert_eq!(p["shared_words"], 118);
        let p = &records[0]["passages"][0];
        assert_eq!(p["shared_words"], 69);
        let a = span("susp/suspicious-document00001.txt", &p["a_span"]);
        assert!(
            a.starts_with("The name \"PageRank\" is a trademark of Google"),
            "{a}"
        );
        assert!(
            a.ends_with("the shares were sold in 2005 for $336 million."),
            "{a}"
        );
    }
    // 40 words: the Genesis 1:3–5 passage too; 120: none of them.
    assert_eq!(batch(&["--min-shared-words", "40"]).len(), 3);
    assert!(batch(&["--min-shared-words", "120"]).is_empty());
}

#[test]
fn beside_the_containment_rule_each_pair_says_what_kept_it() {
    // The PageRank paragraph and Genesis 1:14–18 are 18% of the sentences of one side of their
    // pairs, which --containment 0.15 keeps by its own rule (the method's decision stays
    // `below-threshold`); Genesis 1:3–5, 8% and 10%, only by its passage.
    let records = batch(&["--containment", "0.15", "--min-shared-words", "40"]);
    let decided: Vec<&str> = ids(&records).iter().map(|r| r.2).collect();
    assert_eq!(decided, ["passage", "below-threshold", "below-threshold"]);
    assert!(records[0]["containment_b"].as_f64().unwrap() < 0.15);
    // A pair kept by the rule carries its passages too.
    assert_eq!(records[2]["passages"].as_array().unwrap().len(), 1);
    // The flat formats carry what decided the pair.
    let (susp, src) = (sample("susp"), sample("src"));
    let o = slst(&[
        "batch",
        &susp,
        &src,
        "-q",
        "--min-shared-words",
        "60",
        "--out-format",
        "tsv",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[1..].iter().all(|l| l.ends_with("\tpassage\t\t")),
        "{out}"
    );
}

#[test]
fn the_criterion_is_refused_where_it_cannot_be_honoured() {
    let (susp, src) = (sample("susp"), sample("src"));
    // A method without blocks locates no passage.
    let o = slst(&[
        "batch",
        &susp,
        &src,
        "--method",
        "shingle",
        "--min-shared-words",
        "40",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.starts_with("slst: error:"), "{e}");
    assert!(e.contains("--min-shared-words = 40 with shingle"), "{e}");
    assert!(e.contains("only its blocks locate passages"), "{e}");
    // Zero words.
    let o = slst(&["batch", &susp, &src, "--min-shared-words", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("at least 1 word"), "{}", stderr(&o));
}
