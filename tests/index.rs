//! The index's contract: a query answers exactly what comparing the query with every indexed
//! document answers, and what a batch run over the union reports for the query's pairs.

#![cfg(feature = "index")]

use std::sync::OnceLock;

use proptest::prelude::*;
use serde::Serialize;
use slst::batch::{self, BatchConfig, Silent};
use slst::corpus::Item;
use slst::index::{AddOptions, Index, QueryOptions};
use slst::method::{
    Comparison, MegaShingleConfig, Method, MethodDetector, MethodSettings, PairRule, RobustConfig,
    ShingleConfig, ShingleMeasure, ShingleSketchKind, Shingles, SlstMode, WithDetector,
};
use slst::{Detector, Document, SlSt, SlstConfig};

/// A comparison as JSON: method, scores, decision and evidence.
fn comparison_json<E: Serialize>(c: &Comparison<E>) -> serde_json::Value {
    serde_json::json!({
        "method": c.method,
        "resemblance": c.similarity.resemblance,
        "containment_a": c.similarity.containment_a,
        "containment_b": c.similarity.containment_b,
        "duplicate": c.duplicate,
        "evidence": c.evidence,
    })
}

/// A query's hits, best first, as (id, comparison JSON), and its candidate count.
type Hits = (Vec<(String, serde_json::Value)>, usize);

/// Ask an index about `q` with its own detector (the threshold replaced when the options say).
fn ask(index: &Index, q: &Document, options: &QueryOptions) -> slst::Result<Hits> {
    struct Ask<'a>(&'a Index, &'a Document, &'a QueryOptions);
    impl WithDetector for Ask<'_> {
        type Output = slst::Result<Hits>;
        fn with<D: Detector>(self, d: &D) -> Self::Output {
            let r = self.0.query(d, self.1, self.2)?;
            let hits = r
                .hits
                .iter()
                .map(|h| (h.document.id.clone(), comparison_json(&h.comparison)))
                .collect();
            Ok((hits, r.candidates))
        }
    }
    index
        .query_detector(options.threshold)?
        .visit(Ask(index, q, options))
}

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
        let slst = SlSt::new(SlstConfig { threshold, ..SlstConfig::default() }).unwrap();
        let result = index
            .query(&slst, &q, &QueryOptions { threshold: Some(threshold), containment, ..QueryOptions::default() })
            .unwrap();

        // Against every document, with the same comparison as `slst compare`.
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
        let rule = containment.map_or(PairRule::Duplicates, PairRule::Contained);
        let config = BatchConfig { rule, max_df: usize::MAX, ..BatchConfig::default() };
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
    let slst = SlSt::new(SlstConfig::default()).unwrap();
    assert_eq!(
        index.document(&slst, "x").unwrap().unwrap().0.text,
        first.text
    );
    let s = add(&mut index, &second, false);
    assert_eq!((s.added, s.replaced), (1, 1));
    assert_eq!(index.ids().unwrap(), ["x"]);
    let hits =
        |index: &Index, d: &Document| ask(index, d, &QueryOptions::default()).unwrap().0.len();
    assert_eq!(hits(&index, &second), 1);
    assert_eq!(hits(&index, &first), 0);
    assert!(index.check().unwrap().is_empty());
    assert_eq!(index.remove(&["x".into(), "y".into()]).unwrap(), ["y"]);
    assert_eq!(hits(&index, &second), 0);
    assert!(index.check().unwrap().is_empty());
    let stats = index.stats().unwrap();
    assert_eq!((stats.documents, stats.keys, stats.postings), (0, 0, 0));
}

/// One batch holding an id twice, with keys shared with a third document: the second replaces
/// the first (whose postings are written at the batch's end, so the replacement must write
/// them first), and every key's document frequency and postings stay right.
#[test]
fn an_id_twice_in_one_batch_is_replaced_within_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let mut index = Index::create(&path, SlstConfig::default()).unwrap();
    let first = Document::new("x", text(&[0, 1, 2, 3]));
    let other = Document::new("y", text(&[0, 1, 2, 3, 8]));
    let second = Document::new("x", text(&[4, 5, 6, 7]));
    let options = AddOptions {
        batch_size: 10,
        no_replace: false,
    };
    let docs = [first.clone(), other, second.clone()];
    let s = index
        .add(docs.into_iter().map(Item::Document), &options, &Silent)
        .unwrap();
    assert_eq!((s.added, s.replaced, s.batches), (3, 1, 1));
    assert!(index.check().unwrap().is_empty());
    assert_eq!(index.ids().unwrap(), ["y", "x"]);
    let slst = SlSt::new(SlstConfig::default()).unwrap();
    assert_eq!(
        index.document(&slst, "x").unwrap().unwrap().0.text,
        second.text
    );
    // The keys of the replaced text are held by y alone now.
    let hits = |d: &Document| {
        let (hits, _) = ask(&index, d, &QueryOptions::default()).unwrap();
        let mut ids: Vec<String> = hits.into_iter().map(|h| h.0).collect();
        ids.sort();
        ids
    };
    assert_eq!(hits(&first), ["y"]);
    assert_eq!(hits(&second), ["x"]);
    index.remove(&["x".into(), "y".into()]).unwrap();
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
    assert_eq!(index.method(), Method::Slst);
    assert_eq!(index.settings().slst, config);
    let MethodDetector::Slst(d) = index.detector() else {
        panic!("an SL+ST index holds SL+ST");
    };
    assert_eq!(d.config(), &config);
}

/// The robust SL+ST, shingle and megashingle settings the property below runs over: the
/// defaults and variants whose keys or decisions differ (a lower threshold and longer blocks,
/// sampled sketches, containment, small megashingles).
fn method_variants() -> Vec<(Method, MethodSettings)> {
    let shingle = |c: ShingleConfig| {
        (
            Method::Shingle,
            MethodSettings {
                shingle: c,
                ..MethodSettings::default()
            },
        )
    };
    let mega = |c: MegaShingleConfig| {
        (
            Method::MegaShingle,
            MethodSettings {
                megashingle: c,
                ..MethodSettings::default()
            },
        )
    };
    let robust = |c: RobustConfig| {
        (
            Method::Slst,
            MethodSettings {
                slst_mode: SlstMode::Robust,
                robust: c,
                ..MethodSettings::default()
            },
        )
    };
    vec![
        robust(RobustConfig::default()),
        robust(RobustConfig {
            threshold: 0.3,
            contained: 0.0,
            min_block: 3,
            ..RobustConfig::default()
        }),
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
        mega(MegaShingleConfig::default()),
        mega(MegaShingleConfig {
            minima: 12,
            supershingle_size: 3,
            ..MegaShingleConfig::default()
        }),
    ]
}

/// What comparing `q` with every document by a method reports, as (id, comparison JSON), by id.
fn compare_with_every(
    (method, settings): &(Method, MethodSettings),
    q: &Document,
    docs: &[Document],
) -> Vec<(String, serde_json::Value)> {
    struct Every<'a>(&'a Document, &'a [Document]);
    impl WithDetector for Every<'_> {
        type Output = Vec<(String, serde_json::Value)>;
        fn with<D: Detector>(self, d: &D) -> Self::Output {
            let q = d.sketch(self.0);
            self.1
                .iter()
                .filter_map(|doc| {
                    let c = d.compare(&q, &d.sketch(doc));
                    c.duplicate.then(|| (doc.id.clone(), comparison_json(&c)))
                })
                .collect()
        }
    }
    let mut out = settings.detector(*method).unwrap().visit(Every(q, docs));
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
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
    fn robust_shingle_and_megashingle_queries_equal_compare_against_every_document(
        (indexed, query) in docs_strategy(),
        variant in 0usize..8,
        // Near copies: the query with one sentence dropped, so that megashingles match often.
        copies in prop::collection::vec(0usize..10, 0..3),
    ) {
        let method = method_variants().swap_remove(variant);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i.db");
        let mut index = Index::create_with(&path, method.0, method.1.clone()).unwrap();
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
        let (hits, candidates) = ask(&index, &q, &QueryOptions::default()).unwrap();
        let mut got = hits.clone();
        got.sort_by(|a, b| a.0.cmp(&b.0));
        prop_assert_eq!(&got, &compare_with_every(&method, &q, &docs));
        prop_assert!(candidates >= got.len());
        // Best first.
        for w in hits.windows(2) {
            prop_assert!(w[0].1["resemblance"].as_f64() >= w[1].1["resemblance"].as_f64());
        }
        // The same after a reopen: the settings come from the index.
        let reopened = Index::open(&path).unwrap();
        prop_assert_eq!(reopened.method(), method.0);
        let (again, _) = ask(&reopened, &q, &QueryOptions::default()).unwrap();
        prop_assert_eq!(again, hits);
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
        Method::Shingle,
        MethodSettings {
            shingle: config.clone(),
            ..MethodSettings::default()
        },
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
        let got: Vec<String> = ask(&index, &q, &options)
            .unwrap()
            .0
            .into_iter()
            .map(|h| h.0)
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
    // A detector of another method is refused.
    let slst = SlSt::new(SlstConfig::default()).unwrap();
    assert!(index.query(&slst, &q, &QueryOptions::default()).is_err());
}

#[test]
fn shingle_and_megashingle_indexes_replace_remove_and_refuse_foreign_settings() {
    for method in [
        method_variants().swap_remove(0),
        method_variants().swap_remove(4),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("i.db");
        let mut index = Index::create_with(&path, method.0, method.1.clone()).unwrap();
        let name = method.0.name();
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
        let hits =
            |index: &Index, d: &Document| ask(index, d, &QueryOptions::default()).unwrap().0.len();
        add(&mut index, &first, false);
        assert_eq!(hits(&index, &first), 1, "{name}");
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
        let slst = SlSt::new(SlstConfig::default()).unwrap();
        assert!(index.document(&slst, "x").is_err());
        // A containment out of range is refused; a threshold, by a method without one.
        let containment = QueryOptions {
            containment: Some(1.5),
            ..QueryOptions::default()
        };
        assert!(ask(&index, &second, &containment).is_err());
        let threshold = QueryOptions {
            threshold: Some(0.5),
            ..QueryOptions::default()
        };
        assert_eq!(
            ask(&index, &second, &threshold).is_err(),
            method.0 == Method::MegaShingle
        );
        assert_eq!(index.remove(&["x".into(), "y".into()]).unwrap(), ["y"]);
        assert_eq!(hits(&index, &second), 0);
        assert!(index.check().unwrap().is_empty());
        let stats = index.stats().unwrap();
        assert_eq!(stats.method, name);
        assert_eq!((stats.documents, stats.keys, stats.postings), (0, 0, 0));
    }
}

#[test]
fn a_damaged_sketch_is_reported_by_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("i.db");
    let (method, settings) = method_variants().swap_remove(4);
    let mut index = Index::create_with(&path, method, settings).unwrap();
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
