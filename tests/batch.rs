//! Corpus mode: the indexed path equals comparing every pair, on random corpora built from real
//! sentences and on real Reuters-21578 documents; the output does not depend on the thread
//! count; exact-duplicate groups and boilerplate behave as documented.

mod common;

use common::{bible, pool, reuters, reuters_dir};
use proptest::prelude::*;
use slst::batch::{
    self, BatchConfig, BatchResult, CandidateSet, CandidateSource, Candidates, Silent,
};
use slst::corpus::sgml::SgmlOptions;
use slst::corpus::{Item, SourceOptions, read_sources};
use slst::method::{Method, MethodSettings, PairRule, WithDetector};
use slst::{Detector, Document, SlSt, SlstConfig};
use std::path::PathBuf;

/// A corpus of up to 14 documents: random runs of pool sentences, some documents copied
/// exactly, some copied with a sentence changed, some empty.
fn corpus() -> impl Strategy<Value = Vec<String>> {
    let doc = proptest::collection::vec(0usize..30, 0..14);
    proptest::collection::vec((doc, 0u8..6), 1..14).prop_map(|specs| {
        let pool = pool();
        let mut docs: Vec<String> = Vec::new();
        for (sentences, how) in specs {
            let text = match (how, docs.last()) {
                (0, Some(prev)) => prev.clone(),
                (1, Some(prev)) => format!("{} {}", pool[sentences.len() % pool.len()], prev),
                _ => sentences
                    .iter()
                    .map(|&k| pool[k % pool.len()].as_str())
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            docs.push(text);
        }
        docs
    })
}

fn run(texts: &[String], config: &BatchConfig, threshold: f64) -> BatchResult<SlSt> {
    let detector = SlSt::new(SlstConfig {
        threshold,
        ..SlstConfig::default()
    })
    .unwrap();
    let items = texts
        .iter()
        .enumerate()
        .map(|(i, t)| Item::Document(Document::new(format!("d{i}"), t.clone())));
    batch::run(items, &detector, config, &Silent)
}

/// (a, b, resemblance, containments, blocks) of every reported pair.
type PairKey = (
    usize,
    usize,
    f64,
    Option<f64>,
    Option<f64>,
    Vec<slst::Block>,
);

fn pair_keys(r: &BatchResult<SlSt>) -> Vec<PairKey> {
    r.pairs
        .iter()
        .map(|p| {
            let s = p.comparison.similarity;
            (
                p.a,
                p.b,
                s.resemblance,
                s.containment_a,
                s.containment_b,
                p.comparison.evidence.blocks.clone(),
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn indexed_batch_equals_all_pairs(texts in corpus(), threshold in prop_oneof![Just(0.01), Just(0.3), Just(0.5), Just(0.9)]) {
        let index = run(&texts, &BatchConfig::default(), threshold);
        let all = run(&texts, &BatchConfig { candidates: Candidates::All, ..BatchConfig::default() }, threshold);
        prop_assert!(index.candidates.boilerplate.is_empty());
        prop_assert_eq!(pair_keys(&index), pair_keys(&all));
    }

    #[test]
    fn indexed_batch_equals_all_pairs_by_containment(texts in corpus()) {
        let config = BatchConfig { rule: PairRule::Contained(0.6), ..BatchConfig::default() };
        let index = run(&texts, &config, 0.5);
        let all = run(&texts, &BatchConfig { candidates: Candidates::All, ..config }, 0.5);
        prop_assert_eq!(pair_keys(&index), pair_keys(&all));
    }

    /// With the shared-passage criterion beside a strict rule, the indexed run keeps exactly
    /// what comparing every pair keeps, with the same passages and the same deciding condition.
    #[test]
    fn indexed_batch_equals_all_pairs_by_shared_passages(texts in corpus(), words in prop_oneof![Just(3usize), Just(20), Just(60)]) {
        let config = BatchConfig { min_shared_words: Some(words), ..BatchConfig::default() };
        let index = run(&texts, &config, 0.9);
        let all = run(&texts, &BatchConfig { candidates: Candidates::All, ..config }, 0.9);
        prop_assert_eq!(pair_keys(&index), pair_keys(&all));
        let passages = |r: &BatchResult<SlSt>| -> Vec<_> {
            r.pairs.iter().map(|p| (p.passages.clone(), p.decided_by())).collect()
        };
        prop_assert_eq!(passages(&index), passages(&all));
        for p in &index.pairs {
            let kept_by_passage = p.passages.as_ref().is_some_and(|v| !v.is_empty());
            prop_assert!(p.comparison.kept_by(PairRule::Duplicates) || kept_by_passage);
        }
    }

    /// With a tiny boilerplate limit: the indexed pairs are the all-pairs result minus exactly
    /// the pairs whose every shared run of 2 sentences is held by more than `max_df` distinct
    /// profiles (computed here the slow way).
    #[test]
    fn indexed_batch_equals_all_pairs_minus_boilerplate(texts in corpus(), max_df in 2usize..4) {
        use std::collections::{HashMap, HashSet};
        let index = run(&texts, &BatchConfig { max_df, ..BatchConfig::default() }, 0.01);
        let all = run(&texts, &BatchConfig { candidates: Candidates::All, ..BatchConfig::default() }, 0.01);
        let keys: Vec<&[u64]> = all.corpus.sketches.iter().map(|d| d.keys.as_slice()).collect();
        let distinct: HashSet<&[u64]> = keys.iter().copied().collect();
        let mut holders: HashMap<&[u64], usize> = HashMap::new();
        for k in &distinct {
            let grams: HashSet<&[u64]> = k.windows(2).collect();
            for g in grams {
                *holders.entry(g).or_default() += 1;
            }
        }
        let shares_non_boilerplate = |a: usize, b: usize| {
            let ga: HashSet<&[u64]> = keys[a].windows(2).collect();
            keys[a] == keys[b] || keys[b].windows(2).any(|g| ga.contains(g) && holders[g] <= max_df)
        };
        let expected: Vec<PairKey> = pair_keys(&all).into_iter().filter(|p| shares_non_boilerplate(p.0, p.1)).collect();
        prop_assert_eq!(pair_keys(&index), expected);
    }

    #[test]
    fn batch_pairs_equal_pairwise_compare(texts in corpus()) {
        let detector = SlSt::new(SlstConfig::default()).unwrap();
        let result = run(&texts, &BatchConfig::default(), 0.5);
        let mut expected = Vec::new();
        for i in 0..texts.len() {
            for j in i + 1..texts.len() {
                use slst::Detector;
                let a = detector.sketch(&Document::new("a", texts[i].clone()));
                let b = detector.sketch(&Document::new("b", texts[j].clone()));
                let c = detector.compare(&a, &b);
                if c.duplicate {
                    expected.push((i, j, c.similarity.resemblance));
                }
            }
        }
        let got: Vec<(usize, usize, f64)> = result.pairs.iter().map(|p| (p.a, p.b, p.comparison.similarity.resemblance)).collect();
        prop_assert_eq!(got, expected);
    }
}

#[test]
fn exact_copies_are_grouped_and_compared_once() {
    let pool = pool();
    let base = pool[..6].join(" ");
    let other = pool[10..14].join(" ");
    let texts = vec![
        base.clone(),
        other.clone(),
        base.clone(),
        base.clone(),
        other,
        String::new(),
    ];
    let r = run(&texts, &BatchConfig::default(), 0.5);
    assert_eq!(r.candidates.groups.groups(), [vec![0, 2, 3], vec![1, 4]]);
    assert!(r.corpus.sketches[5].is_empty());
    let pairs: Vec<(usize, usize)> = r.pairs.iter().map(|p| (p.a, p.b)).collect();
    assert_eq!(pairs, [(0, 2), (0, 3), (1, 4), (2, 3)]);
    assert!(
        r.pairs
            .iter()
            .all(|p| p.comparison.similarity.resemblance == 1.0)
    );
    let clusters = batch::clusters(texts.len(), r.pairs.iter().map(|p| (p.a, p.b)));
    assert_eq!(clusters, [vec![0, 2, 3], vec![1, 4]]);
}

#[test]
fn boilerplate_shared_by_too_many_documents_is_excluded_and_reported() {
    let pool = pool();
    let header = pool[..2].join(" ");
    // Five documents share a 2-sentence header and nothing else; two also share a body.
    let bodies = [
        &pool[2..5],
        &pool[5..8],
        &pool[8..11],
        &pool[11..14],
        &pool[2..5],
    ];
    let mut texts: Vec<String> = bodies
        .iter()
        .map(|b| format!("{header} {}", b.join(" ")))
        .collect();
    // Not an exact copy of document 0: one more sentence at the end.
    texts[4].push_str(&format!(" {}", pool[20]));
    let r = run(
        &texts,
        &BatchConfig {
            max_df: 3,
            ..BatchConfig::default()
        },
        0.01,
    );
    assert_eq!(r.candidates.boilerplate.len(), 1);
    let b = &r.candidates.boilerplate[0];
    assert_eq!((b.document, b.sentence, b.len, b.documents), (0, 0, 2, 5));
    // Only documents 0 and 4 share more than the header; the header still counts in their score.
    let pairs: Vec<(usize, usize, usize)> = r
        .pairs
        .iter()
        .map(|p| (p.a, p.b, p.comparison.evidence.matched))
        .collect();
    assert_eq!(pairs, [(0, 4, 5)]);
    // Without the limit every pair shares the header block.
    let r = run(&texts, &BatchConfig::default(), 0.01);
    assert_eq!(r.pairs.len(), 10);
}

#[test]
fn output_is_the_same_at_one_and_two_threads() {
    let texts: Vec<String> = (0..60)
        .map(|i| {
            let pool = pool();
            (0..8)
                .map(|k| pool[(i * 7 + k * (i % 5 + 1)) % pool.len()].as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let with = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let r = run(&texts, &BatchConfig::default(), 0.2);
            let detector = SlSt::new(SlstConfig {
                threshold: 0.2,
                ..SlstConfig::default()
            })
            .unwrap();
            let mut out = Vec::new();
            // As `slst batch --groups FILE` writes them: the duplicate groups, and the other
            // pairs.
            let n = r.corpus.ids.len();
            let groups = batch::DuplicateGroups::of(n, &r.pairs, 0.9);
            let id = |d: usize| r.corpus.ids[d].as_str();
            let jsonl = batch::output::PairFormat::Jsonl;
            batch::output::write_groups(&mut out, jsonl, detector.method(), &groups, id).unwrap();
            batch::output::write_pairs(
                &mut out,
                &detector,
                &r,
                jsonl,
                (true, false),
                Some(&groups),
            )
            .unwrap();
            out
        })
    };
    let one = with(1);
    assert!(!one.is_empty());
    assert_eq!(one, with(2));
}

/// Indexed against all pairs on real text: `texts` at two thresholds.
fn indexed_equals_all_pairs_on(texts: &[String]) {
    for threshold in [0.2, 0.5] {
        let index = run(texts, &BatchConfig::default(), threshold);
        let all = run(
            texts,
            &BatchConfig {
                candidates: Candidates::All,
                ..BatchConfig::default()
            },
            threshold,
        );
        assert_eq!(pair_keys(&index), pair_keys(&all), "threshold {threshold}");
        assert!(!index.pairs.is_empty());
        assert!(index.candidates.pairs.len() < all.candidates.pairs.len() / 50);
    }
}

/// On real news: 600 Reuters-21578 documents (title + body), indexed against all 179,700 pairs
/// (with the shared corpora).
#[test]
fn reuters_subset_indexed_equals_all_pairs() {
    let Some(texts) = reuters(600) else { return };
    assert_eq!(texts.len(), 600);
    indexed_equals_all_pairs_on(&texts);
}

/// On the shipped Bible versions: 300 chapters (100 in each of three versions), indexed
/// against all 44,850 pairs.
#[test]
fn bible_subset_indexed_equals_all_pairs() {
    let texts = bible(100);
    assert_eq!(texts.len(), 300);
    indexed_equals_all_pairs_on(&texts);
}

/// The same on 2,000 documents (about 2 million pairs): half a minute in a debug build, so not
/// in every `cargo test`; CI runs it (`cargo test --test batch -- --ignored`).
#[test]
#[ignore]
fn reuters_2000_indexed_equals_all_pairs() {
    let Some(texts) = reuters(2000) else { return };
    let index = run(&texts, &BatchConfig::default(), 0.3);
    let all = run(
        &texts,
        &BatchConfig {
            candidates: Candidates::All,
            ..BatchConfig::default()
        },
        0.3,
    );
    assert_eq!(pair_keys(&index), pair_keys(&all));
}

/// SL+ST's join keys (runs of `min_block` sentence keys, and the whole profile) — what
/// evaluation and any key-based join use — find every pair the suffix-array path reports, from
/// fewer candidates than all pairs.
#[test]
fn slst_join_keys_find_every_pair_of_the_suffix_array() {
    let texts: Vec<String> = (0..40)
        .map(|i| {
            let pool = pool();
            (0..6)
                .map(|k| pool[(i * 5 + k * (i % 4 + 1)) % pool.len()].as_str())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let detector = SlSt::new(SlstConfig {
        threshold: 0.2,
        ..SlstConfig::default()
    })
    .unwrap();
    let typed = run(&texts, &BatchConfig::default(), 0.2);
    let sketches = &typed.corpus.sketches;
    let keys: Vec<Vec<u64>> = sketches
        .iter()
        .map(|s| detector.join_keys(s).unwrap())
        .collect();
    let refs: Vec<&[u64]> = keys.iter().map(Vec::as_slice).collect();
    let (pairs, _) = batch::join_candidates(&refs, usize::MAX);
    assert!(pairs.len() < 40 * 39 / 2, "{}", pairs.len());
    assert!(pairs.len() >= typed.pairs.len());
    let set = CandidateSet::from_pairs(texts.len(), pairs, 0, CandidateSource::JoinKeys);
    let (by_keys, _) = batch::verify(
        &detector,
        sketches,
        &set,
        PairRule::Duplicates,
        None,
        &Silent,
    );
    let t: Vec<(usize, usize, f64)> = typed
        .pairs
        .iter()
        .map(|p| (p.a, p.b, p.comparison.similarity.resemblance))
        .collect();
    let k: Vec<(usize, usize, f64)> = by_keys
        .iter()
        .map(|p| (p.a, p.b, p.comparison.similarity.resemblance))
        .collect();
    assert!(!t.is_empty());
    assert_eq!(t, k);
}

/// Every one of Reuters-21578's 21,578 documents is read from the files as shipped, none
/// skipped (a regression: opening tags cut by a read boundary once lost six).
#[test]
fn reuters_all_documents_are_read() {
    let options = SourceOptions {
        format: slst::corpus::Format::Sgml,
        sgml: SgmlOptions::reuters(),
        ..SourceOptions::default()
    };
    let Some(dir) = reuters_dir() else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgm"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 22);
    let (mut docs, mut skipped) = (0, 0);
    for item in read_sources(&files, &options) {
        match item {
            Item::Document(_) => docs += 1,
            Item::Skipped(_) => skipped += 1,
        }
    }
    assert_eq!((docs, skipped), (21_578, 0));
}

/// SpotSigs in corpus mode drops the signatures outside its IDF band before joining and
/// comparing, as the reference implementation does; a pair compared on its own keeps them.
#[test]
fn spotsigs_corpus_runs_apply_the_idf_band() {
    struct Check(Vec<String>);
    impl WithDetector for Check {
        type Output = (f64, Option<f64>);
        fn with<D: Detector>(self, d: &D) -> Self::Output {
            let items = self
                .0
                .iter()
                .enumerate()
                .map(|(i, t)| Item::Document(Document::new(format!("d{i}"), t.clone())));
            let config = BatchConfig {
                candidates: Candidates::All,
                ..BatchConfig::default()
            };
            let corpus = batch::run(items, d, &config, &Silent);
            let (a, b) = (
                d.sketch(&Document::new("a", self.0[0].clone())),
                d.sketch(&Document::new("b", self.0[1].clone())),
            );
            let pairwise = d.compare(&a, &b).similarity.resemblance;
            let in_corpus = corpus
                .pairs
                .iter()
                .find(|p| (p.a, p.b) == (0, 1))
                .map(|p| p.comparison.similarity.resemblance);
            (pairwise, in_corpus)
        }
    }
    let detector = MethodSettings::default()
        .detector(Method::SpotSigs)
        .unwrap();
    let pool = pool();
    // Every document shares the same opening sentences (signatures held by all: IDF 0 after
    // normalisation, outside the band); each has its own other sentences.
    let texts: Vec<String> = (0..6)
        .map(|i| {
            let own: Vec<&str> = (0..4)
                .map(|k| pool[(4 + 4 * i + k) % pool.len()].as_str())
                .collect();
            format!("{} {}", pool[..4].join(" "), own.join(" "))
        })
        .collect();
    // Pairwise, the shared opening makes every pair look alike.
    let (pairwise, in_corpus) = detector.visit(Check(texts));
    assert!(pairwise > 0.0);
    assert!(
        in_corpus.is_none_or(|j| j < pairwise),
        "pairwise {pairwise}, in corpus {in_corpus:?}"
    );
}

/// Documents with the same text are one document to every method's join: they form the
/// candidates' exact-duplicate groups, and the pairs reported, scores included, are those of
/// comparing every pair.
#[test]
fn equal_texts_are_collapsed_before_every_join() {
    struct Check(Vec<String>);
    impl WithDetector for Check {
        type Output = (
            Vec<Vec<usize>>,
            Vec<(usize, usize, String)>,
            Vec<(usize, usize, String)>,
        );
        fn with<D: Detector>(self, d: &D) -> Self::Output {
            let run = |candidates| {
                let items = self
                    .0
                    .iter()
                    .enumerate()
                    .map(|(i, t)| Item::Document(Document::new(format!("d{i}"), t.clone())));
                let config = BatchConfig {
                    candidates,
                    rule: PairRule::Scored,
                    ..BatchConfig::default()
                };
                batch::run(items, d, &config, &Silent)
            };
            let pairs = |r: &BatchResult<D>| {
                r.pairs
                    .iter()
                    .map(|p| (p.a, p.b, format!("{:?}", p.comparison.similarity)))
                    .collect()
            };
            let (index, all) = (run(Candidates::Index), run(Candidates::All));
            (
                index.candidates.groups.groups().to_vec(),
                pairs(&index),
                pairs(&all),
            )
        }
    }
    let pool = pool();
    let (a, b, c) = (
        pool[..6].join(" "),
        pool[3..9].join(" "),
        pool[20..24].join(" "),
    );
    let texts = vec![
        a.clone(),
        c.clone(),
        b,
        a.clone(),
        String::new(),
        String::new(),
        c,
        a,
    ];
    for method in Method::ALL {
        for mode in ["paper", "robust"] {
            let settings = MethodSettings {
                slst_mode: mode.parse().unwrap(),
                ..MethodSettings::default()
            };
            let detector = settings.detector(method).unwrap();
            let (groups, index, all) = detector.visit(Check(texts.clone()));
            assert_eq!(index, all, "{method:?} in {mode} mode");
            assert!(
                groups.contains(&vec![0, 3, 7]) && groups.contains(&vec![1, 6]),
                "{method:?} in {mode} mode: groups {groups:?}"
            );
        }
    }
}
