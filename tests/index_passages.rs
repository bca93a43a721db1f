//! An index query with a shared-passage criterion (`QueryOptions::min_shared_words`) keeps
//! exactly what a batch run over the indexed documents and the query keeps for the query's
//! pairs with the same criterion: the same documents, decided alike, with the same passages.

#![cfg(feature = "index")]

use std::sync::OnceLock;

use proptest::prelude::*;
use slst::align::Passage;
use slst::batch::{self, BatchConfig, Silent};
use slst::corpus::Item;
use slst::index::{AddOptions, Index, QueryOptions};
use slst::method::{Method, MethodSettings, PairRule, RobustConfig, SlstMode, WithDetector};
use slst::{Detector, Document};

/// Real sentences: the first Bible verses cut at full stops, then runs of six of them joined
/// into one sentence, longer than the robust mode keeps as a unit (its windows seed passages).
fn pool() -> &'static [String] {
    static POOL: OnceLock<Vec<String>> = OnceLock::new();
    POOL.get_or_init(|| {
        let verses: Vec<String> = include_str!("../corpora/bible/kjv-1mb.txt")[..60_000]
            .split(['.', '\n'])
            .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|s| s.split(' ').count() >= 4)
            .take(48)
            .collect();
        let short = verses[..12].iter().map(|s| format!("{s}."));
        // Without the semicolons and colons the robust mode cuts clauses at.
        let long = verses[12..]
            .chunks(6)
            .map(|c| format!("{}.", c.join(" and ").replace([';', ':'], ",")));
        short.chain(long).collect()
    })
}

fn text(picks: &[usize]) -> String {
    picks
        .iter()
        .map(|&i| pool()[i % pool().len()].as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A kept document or pair as the query sees it: the other document's id, whether the
/// criterion alone kept it, and the passages (spans in the query, then in the document).
type Kept = (String, bool, Vec<Passage>);

/// The index's hits for `q` and the batch run's pairs of `q`, both with `d`.
struct Both<'a> {
    index: &'a Index,
    docs: &'a [Document],
    q: &'a Document,
    options: QueryOptions,
    config: BatchConfig,
}

impl WithDetector for Both<'_> {
    type Output = (Vec<Kept>, Vec<Kept>);

    fn with<D: Detector>(self, d: &D) -> Self::Output {
        let result = self.index.query(d, self.q, &self.options).unwrap();
        let mut hits: Vec<Kept> = result
            .hits
            .into_iter()
            .map(|h| (h.document.id, h.by_passage, h.passages.unwrap_or_default()))
            .collect();
        hits.sort_by(|x, y| x.0.cmp(&y.0));
        for (_, _, passages) in &mut hits {
            passages.sort_by_key(|p| p.a_span);
        }
        let union = self
            .docs
            .iter()
            .chain([self.q])
            .cloned()
            .map(Item::Document);
        let run = batch::run(union, d, &self.config, &Silent);
        let qi = self.docs.len();
        // The query is the last document, so b of each of its pairs: spans exchanged.
        let mut pairs: Vec<Kept> = run
            .pairs
            .into_iter()
            .filter(|p| p.b == qi)
            .map(|p| {
                let passages = p.passages.unwrap_or_default().into_iter();
                let passages = passages.map(Passage::swapped);
                let mut passages: Vec<Passage> = passages.collect();
                passages.sort_by_key(|p| p.a_span);
                (self.docs[p.a].id.clone(), p.by_passage, passages)
            })
            .collect();
        pairs.sort_by(|x, y| x.0.cmp(&y.0));
        (hits, pairs)
    }
}

fn docs_strategy() -> impl Strategy<Value = (Vec<Vec<usize>>, Vec<usize>)> {
    // A small pool, so that documents share runs of sentences often.
    let doc = prop::collection::vec(0usize..18, 0..10);
    (prop::collection::vec(doc.clone(), 1..8), doc)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn a_query_keeps_what_batch_keeps_for_the_querys_pairs(
        (indexed, query) in docs_strategy(),
        words in prop::sample::select(vec![5usize, 15, 40]),
        containment in prop::option::of(prop::sample::select(vec![0.3, 1.0])),
        robust in any::<bool>(),
    ) {
        // Every pair of anchors keyed: the index's keys (in term-id order) and a batch run's
        // (in corpus order) then find the same pairs (docs/index.md).
        let settings = MethodSettings {
            slst_mode: if robust { SlstMode::Robust } else { SlstMode::Paper },
            robust: RobustConfig { pair_keys: 0, ..RobustConfig::default() },
            ..MethodSettings::default()
        };
        let dir = tempfile::tempdir().unwrap();
        let mut index = Index::create_with(&dir.path().join("i.db"), Method::Slst, settings)
            .unwrap();
        let docs: Vec<Document> = indexed
            .iter()
            .enumerate()
            .map(|(i, p)| Document::new(format!("d{i}"), text(p)))
            .collect();
        let add = AddOptions { batch_size: 3, no_replace: false };
        index.add(docs.clone().into_iter().map(Item::Document), &add, &Silent).unwrap();
        let q = Document::new("q", text(&query));
        let rule = containment.map_or(PairRule::Duplicates, PairRule::Contained);
        let both = Both {
            index: &index,
            docs: &docs,
            q: &q,
            options: QueryOptions {
                containment,
                min_shared_words: Some(words),
                ..QueryOptions::default()
            },
            config: BatchConfig {
                rule,
                max_df: usize::MAX,
                min_shared_words: Some(words),
                ..BatchConfig::default()
            },
        };
        let (hits, pairs) = index.detector().visit(both);
        prop_assert_eq!(hits, pairs);
    }
}

/// The pool has sentences the robust mode cuts into windows, and documents sharing one alone
/// are found by their passage: the property above covers windows.
#[test]
fn a_passage_of_over_long_sentences_alone_is_found() {
    let settings = MethodSettings {
        slst_mode: SlstMode::Robust,
        ..MethodSettings::default()
    };
    let dir = tempfile::tempdir().unwrap();
    let mut index = Index::create_with(&dir.path().join("i.db"), Method::Slst, settings).unwrap();
    // The long sentence 12 shared, inside documents of other words (two of the originals of
    // Clough & Stevenson's corpus), so that nothing else makes the two candidates.
    let host = Document::new(
        "host",
        format!(
            "{}\n\n{}",
            include_str!("../corpora/clough-short-answers/corpus-20090418/orig_taska.txt"),
            pool()[12]
        ),
    );
    let add = AddOptions::default();
    let items = [host.clone()].into_iter().map(Item::Document);
    index.add(items, &add, &Silent).unwrap();
    let q = Document::new(
        "q",
        format!(
            "{}\n\n{}",
            pool()[12],
            include_str!("../corpora/clough-short-answers/corpus-20090418/orig_taskc.txt"),
        ),
    );
    let options = |words| QueryOptions {
        min_shared_words: words,
        ..QueryOptions::default()
    };
    let (hits, _) = index.detector().visit(Both {
        index: &index,
        docs: std::slice::from_ref(&host),
        q: &q,
        options: options(Some(20)),
        config: BatchConfig {
            min_shared_words: Some(20),
            ..BatchConfig::default()
        },
    });
    assert_eq!(hits.len(), 1, "{hits:?}");
    let (id, by_passage, passages) = &hits[0];
    assert_eq!(
        (id.as_str(), *by_passage, passages.len()),
        ("host", true, 1)
    );
    let span = passages[0].a_span;
    // The shared sentence, and what follows it where the two texts' next verses agree.
    let found = &q.text[span[0]..span[1]];
    assert!(
        found.starts_with(pool()[12].trim_end_matches('.')),
        "{found}"
    );
    // Without the criterion, the query keeps nothing.
    let (hits, _) = index.detector().visit(Both {
        index: &index,
        docs: std::slice::from_ref(&host),
        q: &q,
        options: options(None),
        config: BatchConfig::default(),
    });
    assert!(hits.is_empty());
}
