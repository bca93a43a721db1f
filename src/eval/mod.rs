//! Evaluation against labelled sets (SPEC §6): precision, recall and F1 over pairs at every
//! threshold, the best-F1 threshold, Pearson's χ², per method.
//!
//! [`evaluate`] scores every pair of the universe that a method gives a score above 0 (pairs it
//! cannot tell apart from unrelated ones score 0 and are predicted negative at every threshold)
//! and sweeps θ over the scores. Universe `All`: every pair of distinct documents read, unlisted
//! pairs negative — scored exactly through the corpus-mode candidates (SL+ST's suffix array, or
//! a method's join keys, with no boilerplate limit), or every pair for methods without keys.
//! Universe `Listed`: only the pairs of the truth file.
//!
//! [`alignment`] evaluates where the reuse is rather than which pairs: passages located to the
//! character, scored with PAN's measures (precision, recall, granularity, plagdet).

pub mod alignment;
pub mod metrics;
#[cfg(feature = "plots")]
pub mod plot;
mod report;
pub mod truth;

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use serde::Serialize;

use crate::batch::{self, BatchConfig, CandidateSet, CandidateSource, Candidates, Silent};
use crate::document::Document;
use crate::method::{Detector, Method, PairRule, SlstMode};
use crate::similarity::Similarity;
use metrics::SweepPoint;
pub use report::EvalReport;
use truth::{IdPair, Truth, id_pair};

/// Which pairs are scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Universe {
    /// Every pair of distinct documents; unlisted pairs are negatives.
    #[default]
    All,
    /// Only the pairs listed in the truth file.
    Listed,
}

/// Which score is thresholded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
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
    /// Reuse at any length: the decision also keeps every pair sharing at least this many
    /// words in one passage, as `slst batch --min-shared-words` does ([`batch::passage`]; SL+ST
    /// only, [`batch::passage::check_method`]). The sweep is unchanged: it thresholds the score.
    pub min_shared_words: Option<usize>,
}

impl Default for EvalConfig {
    fn default() -> Self {
        EvalConfig {
            universe: Universe::All,
            score: ScoreKind::Resemblance,
            thresholds: metrics::default_thresholds(),
            min_shared_words: None,
        }
    }
}

/// One method's evaluation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MethodEval {
    /// The method.
    pub method: Method,
    /// SL+ST's mode (SL+ST only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<SlstMode>,
    /// The best-F1 point of the sweep.
    pub best: SweepPoint,
    /// Pearson's χ² of the 2×2 table at the best threshold.
    pub chi_square: f64,
    /// The whole sweep.
    pub sweep: Vec<SweepPoint>,
    /// The method's own decision at its settings — its rule, and for robust SL+ST the
    /// refusals a threshold sweep cannot see (figures, word agreement, shared terms), and with
    /// [`EvalConfig::min_shared_words`] the pairs sharing a passage that long: the pairs it
    /// reports, as one point (`threshold` 1: each decided pair counts as score 1).
    pub decision: SweepPoint,
    /// The decision rule in words (`Detector::rule`, and the shared-passage criterion when on).
    pub rule: String,
    /// Pairs compared.
    pub pairs_compared: usize,
    /// Pairs with a score above 0.
    pub pairs_scored: usize,
    /// Seconds to sketch, find candidates and compare.
    pub seconds: f64,
}

impl MethodEval {
    /// The method's label in tables and plot legends: its name, with SL+ST's robust mode in
    /// parentheses (`slst (robust)`).
    pub fn label(&self) -> String {
        label(self.method, self.mode)
    }

    /// A file-name stem for the method (`slst`, `slst-robust`, `shingle`, …).
    pub fn file_stem(&self) -> String {
        file_stem(self.method, self.mode)
    }
}

/// A method's label in tables and plot legends: its name, with SL+ST's robust mode in
/// parentheses (`slst (robust)`).
fn label(method: Method, mode: Option<SlstMode>) -> String {
    match mode {
        Some(SlstMode::Robust) => format!("{method} (robust)"),
        _ => method.to_string(),
    }
}

/// A file-name stem for a method (`slst`, `slst-robust`, `shingle`, …).
fn file_stem(method: Method, mode: Option<SlstMode>) -> String {
    match mode {
        Some(SlstMode::Robust) => format!("{method}-robust"),
        _ => method.to_string(),
    }
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

/// Evaluate one method: every pair of the universe with a score above 0, found the way a
/// corpus run finds them — the method's own join or its join keys, with no boilerplate limit, so
/// exactly (a method without keys compares every pair) — or, for the `Listed` universe, the
/// listed pairs scored as `slst compare` scores them (no corpus-wide preparation).
pub fn evaluate<D: Detector>(prepared: &Prepared, detector: &D, config: &EvalConfig) -> MethodEval {
    let t = Instant::now();
    let run = BatchConfig {
        rule: PairRule::Scored,
        candidates: Candidates::Index,
        max_df: usize::MAX,
        drop_boilerplate: None,
        min_shared_words: config.min_shared_words,
    };
    let (set, sketches, texts) = universe_pairs(prepared, detector, config, &run);
    let shared = config
        .min_shared_words
        .map(|min_words| batch::passage::SharedPassages {
            texts: &texts,
            min_words,
        });
    let (pairs, compared) = batch::verify(
        detector,
        &sketches,
        &set,
        run.rule,
        shared.as_ref(),
        &Silent,
    );
    let seconds = t.elapsed().as_secs_f64();
    let (scored, decided) = scored_and_decided(prepared, config, &pairs);
    let sweep = metrics::sweep(
        &scored,
        prepared.set.positives,
        prepared.set.universe,
        &config.thresholds,
    );
    let decision = metrics::sweep(
        &decided,
        prepared.set.positives,
        prepared.set.universe,
        &[1.0],
    )[0];
    let best = metrics::best(&sweep).unwrap_or(sweep[0]);
    MethodEval {
        method: detector.method(),
        mode: detector.params().mode(),
        chi_square: metrics::chi_square(best.tp, best.fp, best.fn_, best.tn),
        best,
        sweep,
        decision,
        rule: match config.min_shared_words {
            Some(words) => format!(
                "{}; or ≥ {words} words shared in one passage",
                detector.rule()
            ),
            None => detector.rule(),
        },
        pairs_compared: compared,
        pairs_scored: scored.len(),
        seconds,
    }
}

/// The universe's candidate pairs, found as a corpus run finds them (`run`'s join) or listed,
/// with every document's sketch, and its text when passages are grown.
fn universe_pairs<D: Detector>(
    prepared: &Prepared,
    detector: &D,
    config: &EvalConfig,
    run: &BatchConfig,
) -> (CandidateSet, Vec<D::Sketch>, Vec<String>) {
    let docs = prepared.docs;
    let passages = config.min_shared_words.is_some();
    match config.universe {
        Universe::All => {
            let items = docs.iter().cloned().map(crate::corpus::Item::Document);
            let corpus = batch::sketch_corpus(items, detector, None, passages, &Silent);
            (
                batch::find_candidates(detector, &corpus.sketches, &corpus.content, run),
                corpus.sketches,
                corpus.texts,
            )
        }
        Universe::Listed => {
            let sketches = batch::sketch_documents(detector, docs);
            let set = CandidateSet::from_pairs(
                docs.len(),
                prepared.listed.clone(),
                0,
                CandidateSource::Listed,
            );
            let texts = if passages {
                docs.iter().map(|d| d.text.clone()).collect()
            } else {
                Vec::new()
            };
            (set, sketches, texts)
        }
    }
}

/// Pairs' scores, each with whether its pair is positive: what a sweep reads.
type Scored = Vec<(f64, bool)>;

/// Of the verified pairs, the scores above 0 with whether each pair is positive, and the
/// pairs the method reports (each scored 1): both without the ignored pairs and, for the
/// listed universe, the pairs not listed.
fn scored_and_decided<E>(
    prepared: &Prepared,
    config: &EvalConfig,
    pairs: &[batch::PairResult<E>],
) -> (Scored, Scored) {
    let scored: Scored = pairs
        .iter()
        .map(|p| (p.a, p.b, config.score.of(&p.comparison.similarity)))
        .filter(|&(a, b, s)| s > 0.0 && !prepared.ignore.contains(&(a, b)))
        .filter(|&(a, b, _)| {
            config.universe == Universe::All || prepared.listed.binary_search(&(a, b)).is_ok()
        })
        .map(|(a, b, s)| (s, prepared.positives.contains(&(a, b))))
        .collect();
    // The run's rule keeps every pair scored above 0; the method's decision is its own, and
    // with the criterion a shared passage is one too.
    let reported = |p: &batch::PairResult<E>| {
        p.comparison.duplicate || p.passages.as_ref().is_some_and(|v| !v.is_empty())
    };
    let decided: Scored = pairs
        .iter()
        .filter(|p| reported(p) && !prepared.ignore.contains(&(p.a, p.b)))
        .filter(|p| {
            config.universe == Universe::All || prepared.listed.binary_search(&(p.a, p.b)).is_ok()
        })
        .map(|p| (1.0, prepared.positives.contains(&(p.a, p.b))))
        .collect();
    (scored, decided)
}

/// Convenience for tests and scripts: an id pair from two ids.
pub fn pair(a: &str, b: &str) -> IdPair {
    id_pair(a, b)
}
