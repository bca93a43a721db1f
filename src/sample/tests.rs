//! Sampling on real text.

use super::*;
use crate::corpus::sgml::{SgmlOptions, read_sgml};

fn bible() -> Vec<Document> {
    let sgml = include_str!("../../corpora/bible/sample.trec");
    read_sgml(sgml, &SgmlOptions::trec())
        .unwrap()
        .into_iter()
        .map(|d| Document::new(d.id, d.text))
        .collect()
}

#[test]
fn each_query_document_ranks_first_for_itself() {
    let docs = bible();
    for analyzer in [Analyzer::English, Analyzer::Plain] {
        for d in &docs {
            let config = SampleConfig {
                top: 3,
                query_ids: vec![d.id.clone()],
                analyzer,
                ..SampleConfig::default()
            };
            let s = sample(docs.clone(), &config).unwrap();
            assert_eq!(s.queries[0].self_rank, Some(1), "{}", d.id);
            assert_eq!(s.documents[0].id, d.id);
            // The same chapter in the other version comes next.
            let twin = if d.id.starts_with("KJV") {
                d.id.replace("KJV", "WBT")
            } else {
                d.id.replace("WBT", "KJV")
            };
            assert_eq!(s.queries[0].hits[1].id, twin, "{analyzer:?}");
            let scores: Vec<f32> = s.queries[0].hits.iter().map(|h| h.score).collect();
            assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        }
    }
}

#[test]
fn union_drops_repeated_ids_and_keeps_query_order() {
    let config = SampleConfig {
        top: 2,
        query_ids: vec![
            "KJV-01-001".into(),
            "WBT-01-001".into(),
            "KJV-01-003".into(),
        ],
        ..SampleConfig::default()
    };
    let s = sample(bible(), &config).unwrap();
    assert_eq!(
        s.selected_ids(),
        ["KJV-01-001", "WBT-01-001", "KJV-01-003", "WBT-01-003"]
    );
}

#[test]
fn random_queries_follow_the_seed() {
    let run = |seed| {
        let config = SampleConfig {
            queries: 2,
            top: 2,
            seed,
            ..SampleConfig::default()
        };
        sample(bible(), &config).unwrap()
    };
    assert_eq!(run(4), run(4));
    let ids: Vec<Vec<String>> = (0..6)
        .map(|s| run(s).queries.iter().map(|q| q.query_id.clone()).collect())
        .collect();
    assert!(ids.iter().any(|i| i != &ids[0]), "{ids:?}");
}

#[test]
fn ties_go_to_the_earlier_document() {
    // Three identical documents tie on every query; the cut at 2 keeps the first two read.
    let docs = vec![
        Document::new("q", "Alpha beta gamma. Delta epsilon."),
        Document::new("z", "Zeta beta alpha gamma."),
        Document::new("y", "Zeta beta alpha gamma."),
        Document::new("x", "Zeta beta alpha gamma."),
    ];
    let config = SampleConfig {
        top: 3,
        query_ids: vec!["q".into()],
        ..SampleConfig::default()
    };
    let s = sample(docs, &config).unwrap();
    assert_eq!(s.selected_ids(), ["q", "z", "y"]);
    assert_eq!(s.queries[0].hits[1].score, s.queries[0].hits[2].score);
}

#[test]
fn unknown_query_id_is_an_error() {
    let config = SampleConfig {
        query_ids: vec!["nope".into()],
        ..SampleConfig::default()
    };
    let e = sample(bible(), &config).unwrap_err().to_string();
    assert!(e.contains("nope"), "{e}");
}

#[test]
fn manifest_round_trips_and_rebuild_matches() {
    let docs = bible();
    let config = SampleConfig {
        queries: 2,
        top: 3,
        seed: 9,
        ..SampleConfig::default()
    };
    let s = sample(docs.clone(), &config).unwrap();
    let trec = s.to_trec();
    let sources = [std::path::PathBuf::from("sample.trec")];
    let options = crate::corpus::SourceOptions::default();
    let m = Manifest::new(&s, &config, &sources, &options, &trec);
    let json = serde_json::to_string_pretty(&m).unwrap();
    let back: Manifest = serde_json::from_str(&json).unwrap();
    assert_eq!(back, m);
    assert_eq!(back.reader.to_options().unwrap(), options);
    let again = sample(docs, &back.config()).unwrap();
    let m2 = Manifest::new(&again, &back.config(), &sources, &options, &again.to_trec());
    assert!(m.differences(&m2).is_empty(), "{:?}", m.differences(&m2));
    assert_eq!(again.to_trec(), trec);
}

/// The King James chapters (in the repository), numbered as read.
fn kjv() -> Vec<Document> {
    use std::io::Read;
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpora/bible-versions/kjv.trec.gz"
    );
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    read_sgml(&text, &SgmlOptions::trec())
        .unwrap()
        .into_iter()
        .map(|d| Document::new(d.id, d.text))
        .collect()
}

/// XXH3-64 of the ranked lists (positions and score bits) of every 25th chapter as a query, at
/// k = 10 and 150, with both analyzers, as `top` gives them.
fn kjv_digest(
    docs: &[Document],
    analyzer: Analyzer,
    top: impl Fn(&str, usize) -> Vec<(usize, f32)>,
) -> String {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    let mut lists = 0;
    for d in docs.iter().step_by(25) {
        for k in [10, 150] {
            for (p, s) in top(&d.text, k) {
                h.update(&(p as u64).to_le_bytes());
                h.update(&s.to_bits().to_le_bytes());
            }
            lists += 1;
        }
    }
    format!("{analyzer:?} {lists} lists {:016x}", h.digest())
}

#[test]
fn scores_are_tantivy_0_27s_bit_for_bit() {
    // Pinned from tantivy 0.27.0, which scored `slst sample` before the in-house BM25: every
    // score, to the last bit, and so every ranking.
    let docs = kjv();
    assert_eq!(docs.len(), 1189);
    for (analyzer, want) in [
        (Analyzer::English, "English 96 lists c1f0c9c2d610734e"),
        (Analyzer::Plain, "Plain 96 lists b6350dbbfa8fc628"),
    ] {
        let r = retrieval::Retriever::new(&docs, analyzer);
        assert_eq!(kjv_digest(&docs, analyzer, |q, k| r.top(q, k)), want);
    }
}
