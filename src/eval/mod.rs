//! Evaluation against labelled sets (SPEC §6): precision, recall and F1 over pairs at every
//! threshold, the best-F1 threshold, Pearson's χ², per method.
//!
//! [`evaluate`] scores every pair of the universe that a method gives a score above 0 (pairs it
//! cannot tell apart from unrelated ones score 0 and are predicted negative at every threshold)
//! and sweeps θ over the scores. Universe `All`: every pair of distinct documents read, unlisted
//! pairs negative — scored exactly through the corpus-mode candidates (SL+ST's suffix array, or
//! a method's join keys, with no boilerplate limit), or every pair for methods without keys.
//! Universe `Listed`: only the pairs of the truth file.

pub mod metrics;
pub mod plot;
pub mod truth;

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::batch::{self, BatchConfig, Candidates, Silent};
use crate::corpus::Item;
use crate::document::Document;
use crate::method::{AnyDetector, SlSt};
use crate::similarity::Similarity;
use metrics::SweepPoint;
use truth::{IdPair, Truth, id_pair};

/// Which pairs are scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Universe {
    /// Every pair of distinct documents; unlisted pairs are negatives.
    #[default]
    All,
    /// Only the pairs listed in the truth file.
    Listed,
}

/// Which score is thresholded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScoreKind {
    /// Resemblance (Jaccard).
    #[default]
    Resemblance,
    /// The larger of the two containments (resemblance where a method defines none).
    Containment,
}

impl ScoreKind {
    fn of(self, s: &Similarity) -> f64 {
        match self {
            ScoreKind::Resemblance => s.resemblance,
            ScoreKind::Containment => match (s.containment_a, s.containment_b) {
                (None, None) => s.resemblance,
                (a, b) => a.unwrap_or(0.0).max(b.unwrap_or(0.0)),
            },
        }
    }
}

/// Settings of an evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalConfig {
    /// Which pairs are scored.
    pub universe: Universe,
    /// Which score is thresholded.
    pub score: ScoreKind,
    /// The thresholds swept (default 0.05, 0.10, …, 1.00).
    pub thresholds: Vec<f64>,
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig {
            universe: Universe::All,
            score: ScoreKind::Resemblance,
            thresholds: metrics::default_thresholds(),
        }
    }
}

/// One method's evaluation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MethodEval {
    /// The method.
    pub method: &'static str,
    /// The best-F1 point of the sweep.
    pub best: SweepPoint,
    /// Pearson's χ² of the 2×2 table at the best threshold.
    pub chi_square: f64,
    /// The whole sweep.
    pub sweep: Vec<SweepPoint>,
    /// Pairs compared.
    pub pairs_compared: usize,
    /// Pairs with a score above 0.
    pub pairs_scored: usize,
    /// Seconds to sketch, find candidates and compare.
    pub seconds: f64,
}

/// What is being evaluated against: the documents, the truth, the pairs left out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalSet {
    /// Documents read.
    pub documents: usize,
    /// Pairs in the universe (ignored pairs left out).
    pub universe: u64,
    /// Positive pairs in the universe.
    pub positives: u64,
    /// Pairs of the truth file naming a document that was not read (left out).
    pub truth_pairs_missing: usize,
    /// Ignored pairs that were in the universe.
    pub ignored: usize,
    /// Document ids that occur more than once (the first is used).
    pub duplicate_ids: usize,
}

/// Documents indexed by id, with the truth restricted to them.
pub struct Prepared<'a> {
    docs: &'a [Document],
    index: HashMap<&'a str, usize>,
    positives: HashSet<(usize, usize)>,
    listed: Vec<(usize, usize)>,
    ignore: HashSet<(usize, usize)>,
    set: EvalSet,
}

/// Match the truth and the ignore list to the documents read.
pub fn prepare<'a>(
    docs: &'a [Document],
    truth: &Truth,
    ignore: &HashSet<IdPair>,
    universe: Universe,
) -> Prepared<'a> {
    let mut index = HashMap::new();
    let mut duplicate_ids = 0;
    for (i, d) in docs.iter().enumerate() {
        if index.insert(d.id.as_str(), i).is_some() {
            duplicate_ids += 1;
        }
    }
    // Keep the first occurrence of a repeated id.
    for (i, d) in docs.iter().enumerate().rev() {
        index.insert(d.id.as_str(), i);
    }
    let resolve = |p: &IdPair| -> Option<(usize, usize)> {
        let (a, b) = (*index.get(p.0.as_str())?, *index.get(p.1.as_str())?);
        (a != b).then(|| (a.min(b), a.max(b)))
    };
    let ignore: HashSet<(usize, usize)> = ignore.iter().filter_map(resolve).collect();
    let mut missing = 0;
    let mut positives = HashSet::new();
    for p in &truth.positives {
        match resolve(p) {
            Some(ab) if !ignore.contains(&ab) => {
                positives.insert(ab);
            }
            Some(_) => {}
            None => missing += 1,
        }
    }
    let mut listed: Vec<(usize, usize)> = Vec::new();
    for p in truth.listed() {
        match resolve(p) {
            Some(ab) if !ignore.contains(&ab) => listed.push(ab),
            Some(_) => {}
            None if truth.negatives.contains(p) => missing += 1,
            None => {}
        }
    }
    listed.sort_unstable();
    listed.dedup();
    let n = docs.len() as u64;
    let universe_pairs = match universe {
        Universe::All => n * n.saturating_sub(1) / 2 - ignore.len() as u64,
        Universe::Listed => listed.len() as u64,
    };
    let set = EvalSet {
        documents: docs.len(),
        universe: universe_pairs,
        positives: positives.len() as u64,
        truth_pairs_missing: missing,
        ignored: ignore.len(),
        duplicate_ids,
    };
    Prepared {
        docs,
        index,
        positives,
        listed,
        ignore,
        set,
    }
}

impl Prepared<'_> {
    /// The evaluation set's counts.
    pub fn set(&self) -> &EvalSet {
        &self.set
    }

    /// The document number of an id.
    pub fn document(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }
}

/// Evaluate one method. `slst` is given when the method is SL+ST, so that the universe of all
/// pairs is scored through its suffix-array candidates.
pub fn evaluate(
    prepared: &Prepared,
    detector: &dyn AnyDetector,
    slst: Option<&SlSt>,
    config: &EvalConfig,
) -> MethodEval {
    let t = Instant::now();
    let docs = prepared.docs;
    // (a, b, score) of every pair scored above 0, a < b.
    let (scores, compared): (Vec<(usize, usize, f64)>, usize) = match (config.universe, slst) {
        (Universe::All, Some(slst)) => {
            let items = docs.iter().cloned().map(Item::Document);
            let run_config = BatchConfig {
                containment: Some(0.0),
                candidates: Candidates::Index,
                max_df: usize::MAX,
            };
            let result = batch::run(items, slst, &run_config, &Silent);
            let scores = result
                .pairs
                .iter()
                .map(|p| (p.a, p.b, config.score.of(&p.comparison.similarity)))
                .collect();
            (scores, result.candidates.pairs.len())
        }
        (universe, _) => {
            let mut sketches: Vec<_> = docs.par_iter().map(|d| detector.sketch_any(d)).collect();
            if universe == Universe::All {
                // A corpus run: corpus-wide adjustments apply (SpotSigs' IDF band).
                detector.prepare_corpus_any(&mut sketches);
            }
            let pairs: Vec<(usize, usize)> = match universe {
                Universe::Listed => prepared.listed.clone(),
                Universe::All => {
                    let keys: Vec<Option<Vec<u64>>> = sketches
                        .par_iter()
                        .map(|s| detector.join_keys_any(&**s))
                        .collect();
                    if keys.iter().all(Option::is_some) {
                        let keys: Vec<&[u64]> = keys
                            .iter()
                            .map(|k| k.as_deref().unwrap_or_default())
                            .collect();
                        batch::generic::join_candidates(&keys, usize::MAX).0
                    } else {
                        let n = docs.len();
                        (0..n)
                            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                            .collect()
                    }
                }
            };
            let scores = pairs
                .par_iter()
                .with_min_len(64)
                .map(|&(a, b)| {
                    let c = detector.compare_any(&*sketches[a], &*sketches[b]);
                    (a, b, config.score.of(&c.similarity))
                })
                .filter(|s| s.2 > 0.0)
                .collect();
            (scores, pairs.len())
        }
    };
    let seconds = t.elapsed().as_secs_f64();
    let scored: Vec<(f64, bool)> = scores
        .iter()
        .filter(|&&(a, b, _)| !prepared.ignore.contains(&(a, b)))
        .filter(|&&(a, b, _)| {
            config.universe == Universe::All || prepared.listed.binary_search(&(a, b)).is_ok()
        })
        .map(|&(a, b, s)| (s, prepared.positives.contains(&(a, b))))
        .collect();
    let sweep = metrics::sweep(
        &scored,
        prepared.set.positives,
        prepared.set.universe,
        &config.thresholds,
    );
    let best = metrics::best(&sweep).unwrap_or(sweep[0]);
    MethodEval {
        method: detector.name(),
        chi_square: metrics::chi_square(best.tp, best.fp, best.fn_, best.tn),
        best,
        sweep,
        pairs_compared: compared,
        pairs_scored: scored.len(),
        seconds,
    }
}

/// Convenience for tests and scripts: an id pair from two ids.
pub fn pair(a: &str, b: &str) -> IdPair {
    id_pair(a, b)
}
