//! The index's contract: a query answers exactly what comparing the query with every indexed
//! document answers, and what a batch run over the union reports for the query's pairs.

use std::sync::OnceLock;

use proptest::prelude::*;
use slst::batch::{self, BatchConfig, Silent};
use slst::corpus::Item;
use slst::index::{AddOptions, Index, IndexMethod, QueryOptions};
use slst::method::{
    Comparison, MegaShingle, MegaShingleConfig, MethodSettings, ShingleConfig, ShingleMeasure,
    ShingleSketchKind, Shingles,
};
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

/// The shingle and megashingle settings the property below runs over: the defaults and the
/// variants whose keys or decisions differ (sampled sketches, containment, small megashingles).
fn method_variants() -> Vec<IndexMethod> {
    let shingle = |c: ShingleConfig| IndexMethod::Shingle(Shingles::new(c).unwrap());
    vec![
        shingle(ShingleConfig::default()),
        shingle(ShingleConfig {
            sketch: ShingleSketchKind::Mod,
            modulus: 3,
            ..ShingleConfig::default()
        }),
        shingle(ShingleConfig {
            sketch: ShingleSketchKind::Min,
            sketch_size: 8,
            threshold: 0.3,
            ..ShingleConfig::default()
        }),
        shingle(ShingleConfig {
            measure: ShingleMeasure::Containment,
            threshold: 0.8,
            ..ShingleConfig::default()
        }),
        IndexMethod::MegaShingle(MegaShingle::new(MegaShingleConfig::default()).unwrap()),
        IndexMethod::MegaShingle(
            MegaShingle::new(MegaShingleConfig {
                minima: 12,
                supershingle_size: 3,
                ..MegaShingleConfig::default()
            })
            .unwrap(),
        ),
    ]
}

/// What comparing `q` with every document by the index's method reports, as (id, comparison
/// JSON), by id.
fn compare_with_every(
    method: &IndexMethod,
    q: &Document,
    docs: &[Document],
) -> Vec<(String, serde_json::Value)> {
    let settings = MethodSettings {
        shingle: match method {
            IndexMethod::Shingle(d) => d.config().clone(),
            _ => ShingleConfig::default(),
        },
        megashingle: match method {
            IndexMethod::MegaShingle(d) => d.config().clone(),
            _ => MegaShingleConfig::default(),
        },
        ..MethodSettings::default()
    };
    let d = settings.detector(method.name()).unwrap();
    let mut out: Vec<(String, serde_json::Value)> = docs
        .iter()
        .filter_map(|doc| {
            let c = d.compare_any(&*d.sketch_any(q), &*d.sketch_any(doc));
            c.duplicate.then(|| (doc.id.clone(), comparison_json(&c)))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn comparison_json(c: &Comparison<serde_json::Value>) -> serde_json::Value {
    serde_json::json!({
        "method": c.method,
        "resemblance": c.similarity.resemblance,
        "containment_a": c.similarity.containment_a,
        "containment_b": c.similarity.containment_b,
        "duplicate": c.duplicate,
        "evidence": c.evidence,
    })
}

fn add_all(index: &mut Index, docs: &[Document]) {
    let options = AddOptions {
        batch_size: 3,
        no_replace: false,
    };
    index
        .add(docs.iter().cloned().map(Item::Document), &options, &Silent)
        .unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn shingle_and_megashingle_queries_equal_compare_against_every_document(
        (indexed, query) in docs_strategy(),
        variant in 0usize..6,
        // Near copies: the query with one sentence dropped, so that megashingles match often.
        copies in prop::collection::vec(0usize..10, 0..3),
    ) {
        let method = method_variants().swap_remove(variant);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i.db");
        let mut index = Index::create_with(&path, method.clone()).unwrap();
        let mut docs: Vec<Document> = indexed
            .iter()
            .enumerate()
            .map(|(i, p)| Document::new(format!("d{i}"), text(p)))
            .collect();
        for (i, drop) in copies.iter().enumerate() {
            let mut p = query.clone();
            if !p.is_empty() {
                p.remove(drop % p.len());
            }
            docs.push(Document::new(format!("c{i}"), text(&p)));
        }
        add_all(&mut index, &docs);
        let q = Document::new("q", text(&query));
        let result = index.query_method(&q, &QueryOptions::default()).unwrap();
        let mut got: Vec<(String, serde_json::Value)> = result
            .hits
            .iter()
            .map(|h| (h.document.id.clone(), comparison_json(&h.comparison)))
            .collect();
        got.sort_by(|a, b| a.0.cmp(&b.0));
        prop_assert_eq!(&got, &compare_with_every(&method, &q, &docs));
        prop_assert!(result.candidates >= got.len());
        // Best first.
        for w in result.hits.windows(2) {
            prop_assert!(
                w[0].comparison.similarity.resemblance >= w[1].comparison.similarity.resemblance
            );
        }
        // The same after a reopen: the settings come from the index.
        let reopened = Index::open(&path).unwrap();
        prop_assert_eq!(reopened.detector().name(), method.name());
        let again = reopened.query_method(&q, &QueryOptions::default()).unwrap();
        prop_assert_eq!(again.hits, result.hits);
        prop_assert!(reopened.check().unwrap().is_empty());
    }
}

#[test]
fn a_shingle_threshold_given_to_the_query_is_used_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let config = ShingleConfig::default();
    let mut index = Index::create_with(
        &path,
        IndexMethod::Shingle(Shingles::new(config.clone()).unwrap()),
    )
    .unwrap();
    let docs: Vec<Document> = (0..8)
        .map(|i| Document::new(format!("d{i}"), text(&(i..i + 6).collect::<Vec<_>>())))
        .collect();
    add_all(&mut index, &docs);
    let q = Document::new("q", text(&[2, 3, 4, 5, 6, 7]));
    for threshold in [0.0, 0.1, 0.3, 0.6, 1.0] {
        let options = QueryOptions {
            threshold: Some(threshold),
            ..QueryOptions::default()
        };
        let got: Vec<String> = index
            .query_method(&q, &options)
            .unwrap()
            .hits
            .into_iter()
            .map(|h| h.document.id)
            .collect();
        let d = Shingles::new(ShingleConfig {
            threshold,
            ..config.clone()
        })
        .unwrap();
        let mut expected: Vec<(f64, String)> = docs
            .iter()
            .filter_map(|doc| {
                let c = d.compare(&d.sketch(&q), &d.sketch(doc));
                c.duplicate
                    .then(|| (-c.similarity.resemblance, doc.id.clone()))
            })
            .collect();
        expected.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let expected: Vec<String> = expected.into_iter().map(|e| e.1).collect();
        assert_eq!(got, expected, "θ = {threshold}");
    }
    assert!(index.query(&q, &QueryOptions::default()).is_err());
}

#[test]
fn shingle_and_megashingle_indexes_replace_remove_and_refuse_foreign_settings() {
    for method in [
        method_variants().swap_remove(0),
        method_variants().swap_remove(4),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i.db");
        let mut index = Index::create_with(&path, method.clone()).unwrap();
        let first = Document::new("x", text(&[0, 1, 2, 3, 4, 5]));
        let second = Document::new("x", text(&[6, 7, 8, 9, 10, 11]));
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
        let hits = |index: &Index, d: &Document| {
            index
                .query_method(d, &QueryOptions::default())
                .unwrap()
                .hits
                .len()
        };
        add(&mut index, &first, false);
        assert_eq!(hits(&index, &first), 1, "{}", method.name());
        let s = add(&mut index, &second, true);
        assert_eq!(s.refused, ["x"]);
        assert_eq!(index.stored("x").unwrap().unwrap().0.text, first.text);
        let s = add(&mut index, &second, false);
        assert_eq!((s.added, s.replaced), (1, 1));
        assert_eq!(index.ids().unwrap(), ["x"]);
        assert_eq!(hits(&index, &second), 1);
        assert_eq!(hits(&index, &first), 0);
        assert!(index.check().unwrap().is_empty());
        // An SL+ST profile is not what these rows hold.
        assert!(index.document("x").is_err());
        // Settings other than the index's own are refused.
        let containment = QueryOptions {
            containment: Some(0.5),
            ..QueryOptions::default()
        };
        assert!(index.query_method(&second, &containment).is_err());
        let threshold = QueryOptions {
            threshold: Some(0.5),
            ..QueryOptions::default()
        };
        assert_eq!(
            index.query_method(&second, &threshold).is_err(),
            method.name() == "megashingle"
        );
        assert_eq!(index.remove(&["x".into(), "y".into()]).unwrap(), ["y"]);
        assert_eq!(hits(&index, &second), 0);
        assert!(index.check().unwrap().is_empty());
        let stats = index.stats().unwrap();
        assert_eq!(stats.method, method.name());
        assert_eq!((stats.documents, stats.keys, stats.postings), (0, 0, 0));
    }
}

#[test]
fn a_damaged_sketch_is_reported_by_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let mut index = Index::create_with(&path, method_variants().swap_remove(4)).unwrap();
    add_all(&mut index, &[Document::new("x", text(&[0, 1, 2, 3]))]);
    drop(index);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute("UPDATE documents SET profile = '{}'", [])
        .unwrap();
    drop(conn);
    let problems = Index::open(&path).unwrap().check().unwrap();
    assert!(
        problems.iter().any(|p| p.contains("sketch cannot be read")),
        "{problems:?}"
    );
}
