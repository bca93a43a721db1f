//! The index's contract: a query answers exactly what comparing the query with every indexed
//! document answers, and what a batch run over the union reports for the query's pairs.

use std::sync::OnceLock;

use proptest::prelude::*;
use slst::batch::{self, BatchConfig, Silent};
use slst::corpus::Item;
use slst::index::{AddOptions, Index, QueryOptions};
use slst::{Detector, Document, SlSt, SlstConfig};

/// Real sentences: the first Bible verses, cut at full stops.
fn pool() -> &'static [String] {
    static POOL: OnceLock<Vec<String>> = OnceLock::new();
    POOL.get_or_init(|| {
        include_str!("../corpora/bible/kjv-1mb.txt")[..40_000]
            .split(['.', '\n'])
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|s| s.split(' ').count() >= 4)
            .take(24)
            .map(|s| s + ".")
            .collect()
    })
}

fn text(picks: &[usize]) -> String {
    picks
        .iter()
        .map(|&i| pool()[i % pool().len()].as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

fn docs_strategy() -> impl Strategy<Value = (Vec<Vec<usize>>, Vec<usize>)> {
    // A small pool, so that documents share runs of sentences often.
    let doc = prop::collection::vec(0usize..12, 0..10);
    (prop::collection::vec(doc.clone(), 1..10), doc)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn query_equals_compare_against_every_document_and_batch_over_the_union(
        (indexed, query) in docs_strategy(),
        threshold in prop::sample::select(vec![0.0, 0.2, 0.5, 0.8, 1.0]),
        containment in prop::option::of(prop::sample::select(vec![0.3, 0.6, 1.0])),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i.db");
        let mut index = Index::create(&path, SlstConfig::default()).unwrap();
        let docs: Vec<Document> = indexed
            .iter()
            .enumerate()
            .map(|(i, p)| Document::new(format!("d{i}"), text(p)))
            .collect();
        let options = AddOptions { batch_size: 3, no_replace: false };
        index.add(docs.clone().into_iter().map(Item::Document), &options, &Silent).unwrap();
        let q = Document::new("q", text(&query));
        let result = index
            .query(&q, &QueryOptions { threshold: Some(threshold), containment, top: None })
            .unwrap();

        // Against every document, with the same comparison as `slst compare`.
        let slst = SlSt::new(SlstConfig { threshold, ..SlstConfig::default() }).unwrap();
        let qp = slst.sketch(&q);
        let mut expected = Vec::new();
        for d in &docs {
            let c = slst.compare(&qp, &slst.sketch(d));
            let reported = match containment {
                Some(t) => c.evidence.matched > 0
                    && (c.similarity.containment_a.unwrap_or(0.0) >= t
                        || c.similarity.containment_b.unwrap_or(0.0) >= t),
                None => c.duplicate,
            };
            if reported {
                expected.push((d.id.clone(), c));
            }
        }
        let mut got: Vec<_> = result
            .hits
            .iter()
            .map(|h| (h.document.id.clone(), h.comparison.clone()))
            .collect();
        got.sort_by(|a, b| a.0.cmp(&b.0));
        expected.sort_by(|a, b| a.0.cmp(&b.0));
        prop_assert_eq!(&got, &expected);

        // A batch run over the union reports the same pairs for the query.
        let config = BatchConfig { containment, max_df: usize::MAX, ..BatchConfig::default() };
        let union = docs.iter().cloned().chain([q.clone()]).map(Item::Document);
        let run = batch::run(union, &slst, &config, &Silent);
        let qi = docs.len();
        let mut pairs: Vec<String> = run
            .pairs
            .iter()
            .filter(|p| p.b == qi)
            .map(|p| docs[p.a].id.clone())
            .collect();
        pairs.sort();
        let ids: Vec<String> = got.iter().map(|g| g.0.clone()).collect();
        prop_assert_eq!(pairs, ids);
    }
}

#[test]
fn re_adding_an_id_replaces_it_and_no_replace_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let mut index = Index::create(&path, SlstConfig::default()).unwrap();
    let first = Document::new("x", text(&[0, 1, 2, 3]));
    let second = Document::new("x", text(&[4, 5, 6, 7]));
    let add = |index: &mut Index, d: &Document, no_replace: bool| {
        let options = AddOptions {
            batch_size: 10,
            no_replace,
        };
        index
            .add(
                std::iter::once(Item::Document(d.clone())),
                &options,
                &Silent,
            )
            .unwrap()
    };
    add(&mut index, &first, false);
    let s = add(&mut index, &second, true);
    assert_eq!(s.refused, ["x"]);
    assert_eq!(index.document("x").unwrap().unwrap().0.text, first.text);
    let s = add(&mut index, &second, false);
    assert_eq!((s.added, s.replaced), (1, 1));
    assert_eq!(index.ids().unwrap(), ["x"]);
    let hits =
        |index: &Index, d: &Document| index.query(d, &QueryOptions::default()).unwrap().hits.len();
    assert_eq!(hits(&index, &second), 1);
    assert_eq!(hits(&index, &first), 0);
    assert!(index.check().unwrap().is_empty());
    assert_eq!(index.remove(&["x".into(), "y".into()]).unwrap(), ["y"]);
    assert_eq!(hits(&index, &second), 0);
    assert!(index.check().unwrap().is_empty());
    let stats = index.stats().unwrap();
    assert_eq!((stats.documents, stats.keys, stats.postings), (0, 0, 0));
}

#[test]
fn settings_are_stored_and_used_by_later_opens() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let config = SlstConfig {
        min_block: 3,
        threshold: 0.3,
        ..SlstConfig::default()
    };
    drop(Index::create(&path, config.clone()).unwrap());
    let index = Index::open(&path).unwrap();
    assert_eq!(index.detector().slst().unwrap().config(), &config);
}
