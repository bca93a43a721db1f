//! Corpus (batch) mode, SPEC §4: every near-duplicate pair and cluster of a collection.
//!
//! Three steps, each over plain, serialisable records, so that they can run on one machine
//! (here) or be distributed later:
//!
//! 1. **sketch** ([`sketch_corpus`]): each document → its [`SentenceProfile`] and its *block
//!    keys*, one 64-bit key per kept sentence for its (length, leading terms) — the fused symbol
//!    of [`MatchKey::LengthAndLeading`](crate::MatchKey);
//! 2. **candidates** ([`candidates`]): documents with identical profiles are grouped, then one
//!    generalized suffix array over the groups' key strings yields every pair of documents that
//!    shares a run of at least `min_block` keys — exactly the pairs that can have a verified
//!    block; runs shared by more than `max_df` documents are boilerplate, reported and excluded;
//! 3. **verify** ([`verify`]): each candidate pair is compared with the very same
//!    [`SlSt::compare`] as `slst compare`, in parallel, and kept at the threshold.
//!
//! The contract: the reported pairs equal those of comparing every pair ([`Candidates::All`]),
//! apart from pairs whose only shared blocks are boilerplate (listed in the summary).

mod candidates;
mod cluster;
pub mod generic;
pub mod output;

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

pub use self::candidates::{BoilerplateBlock, CandidateSet, candidates};
pub use self::cluster::clusters;

use crate::corpus::{Item, Skipped};
use crate::document::Document;
use crate::method::{Comparison, Detector, SlSt, SlstComparison};
use crate::profile::{LeadingTerms, SentenceProfile};

/// How candidate pairs are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Candidates {
    /// Exact-duplicate groups plus a generalized suffix array over block keys.
    #[default]
    Index,
    /// Every pair of documents with at least one sentence: the slow, obviously correct path.
    All,
}

/// Settings of a batch run.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchConfig {
    /// Report pairs with containment (either way) at least this instead of resemblance ≥ θ.
    pub containment: Option<f64>,
    /// How candidates are found.
    pub candidates: Candidates,
    /// A block key run shared by more documents than this is boilerplate (default 1000).
    pub max_df: usize,
}

impl Default for BatchConfig {
    fn default() -> Self {
        BatchConfig {
            containment: None,
            candidates: Candidates::Index,
            max_df: 1000,
        }
    }
}

/// Step 1's record for one document: its id, its profile and its block keys. Serialisable, so
/// that the steps can run apart (a later engine ships these records between workers).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct DocumentSketch {
    /// The document id.
    pub id: String,
    /// The profile (spans for reports, leading terms for exact verification).
    pub profile: SentenceProfile,
    /// One key per kept sentence: a hash of (length, leading terms).
    pub keys: Vec<u64>,
}

/// The 64-bit block key of a sentence: XXH3 of its length and leading terms, stable across
/// runs, platforms and versions. Two sentences with equal keys almost surely agree on length and
/// leading terms; candidates are verified exactly, so a collision could only add a candidate.
pub fn sentence_key(length: u8, leading: &LeadingTerms) -> u64 {
    xxhash_rust::xxh3::xxh3_64_with_seed(leading.encoded().as_bytes(), u64::from(length))
}

impl DocumentSketch {
    /// Sketch one document with the detector's profile settings.
    pub fn new(detector: &SlSt, doc: &Document) -> Self {
        let profile = detector.sketch(doc);
        let keys = profile
            .sentences
            .iter()
            .map(|s| sentence_key(s.length, &s.leading))
            .collect();
        DocumentSketch {
            id: doc.id.clone(),
            profile,
            keys,
        }
    }
}

/// What a batch run reports as it goes; the CLI draws progress bars with it. Every method has a
/// default that does nothing.
pub trait Progress: Sync {
    /// A stage starts; `total` is its number of steps when known.
    fn stage(&self, _name: &'static str, _total: Option<u64>) {}
    /// `n` more steps of the current stage are done.
    fn advance(&self, _n: u64) {}
    /// The current stage is over.
    fn finish_stage(&self) {}
}

/// A [`Progress`] that reports nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {}

/// How many documents are profiled together in parallel while streaming.
const CHUNK: usize = 512;

/// The sketched corpus: documents in input order, and what could not be read.
#[derive(Debug, Clone, Default)]
pub struct SketchedCorpus {
    /// Sketches, in input order (index = document number).
    pub documents: Vec<DocumentSketch>,
    /// Documents and files skipped, with where and why.
    pub skipped: Vec<Skipped>,
    /// Documents read whose text was not valid UTF-8 and was decoded by a fallback.
    pub fallback_decoded: usize,
}

/// Step 1: read a stream of corpus items and sketch every document, in parallel chunks, keeping
/// input order. Memory holds the sketches, never more than one chunk of text.
pub fn sketch_corpus(
    items: impl Iterator<Item = Item>,
    detector: &SlSt,
    progress: &dyn Progress,
) -> SketchedCorpus {
    progress.stage("reading and profiling", None);
    let mut corpus = SketchedCorpus::default();
    let mut chunk: Vec<Document> = Vec::with_capacity(CHUNK);
    let flush = |chunk: &mut Vec<Document>, corpus: &mut SketchedCorpus| {
        let sketches: Vec<DocumentSketch> = chunk
            .par_iter()
            .map(|d| DocumentSketch::new(detector, d))
            .collect();
        progress.advance(sketches.len() as u64);
        corpus.documents.extend(sketches);
        chunk.clear();
    };
    for item in items {
        match item {
            Item::Document(doc) => {
                corpus.fallback_decoded += usize::from(doc.encoding.is_fallback());
                chunk.push(doc);
                if chunk.len() == CHUNK {
                    flush(&mut chunk, &mut corpus);
                }
            }
            Item::Skipped(s) => corpus.skipped.push(s),
        }
    }
    flush(&mut chunk, &mut corpus);
    progress.finish_stage();
    corpus
}

/// A reported pair: document numbers (a < b, input order) and the comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct PairResult {
    /// The earlier document.
    pub a: usize,
    /// The later document.
    pub b: usize,
    /// The SL+ST comparison of a against b.
    pub comparison: Comparison<SlstComparison>,
}

/// Whether a comparison is reported under the batch settings.
pub(crate) fn reported(c: &Comparison<SlstComparison>, config: &BatchConfig) -> bool {
    match config.containment {
        Some(theta) => {
            c.evidence.matched > 0
                && (c.similarity.containment_a.unwrap_or(0.0) >= theta
                    || c.similarity.containment_b.unwrap_or(0.0) >= theta)
        }
        None => c.duplicate,
    }
}

/// The most sentences two documents can have in blocks: the size of the multiset intersection
/// of their block keys (a block pairs sentences with equal keys, one to one).
pub fn shared_keys(a: &[u64], b: &[u64]) -> usize {
    let (mut x, mut y) = (a.to_vec(), b.to_vec());
    x.sort_unstable();
    y.sort_unstable();
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < x.len() && j < y.len() {
        match x[i].cmp(&y[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    shared
}

/// Whether a pair can reach the report: its shared keys bound the matched sentences m from
/// above, and every score is increasing in m, so a pair whose bound falls short (or cannot hold
/// one block) is skipped without changing the result. Equal key strings are always compared
/// (identical profiles form one block whatever their length).
pub(crate) fn may_be_reported(
    a: &[u64],
    b: &[u64],
    min_block: usize,
    threshold: f64,
    config: &BatchConfig,
) -> bool {
    if a == b {
        return !a.is_empty(); // possibly identical profiles: one block whatever the length
    }
    let m = shared_keys(a, b);
    if m < min_block.max(1) {
        return false;
    }
    let bound = crate::Similarity::from_counts(m, a.len(), b.len());
    match config.containment {
        Some(theta) => {
            bound.containment_a.unwrap_or(0.0) >= theta
                || bound.containment_b.unwrap_or(0.0) >= theta
        }
        None => bound.resemblance >= threshold,
    }
}

/// Step 3: compare every candidate pair that can reach the report (in parallel) and keep the
/// reported ones, expanded to every member of the exact-duplicate groups, sorted by (a, b).
/// Also returns how many pairs were compared (the others were ruled out by their shared keys).
pub fn verify(
    corpus: &[DocumentSketch],
    candidate_set: &CandidateSet,
    detector: &SlSt,
    config: &BatchConfig,
    progress: &dyn Progress,
) -> (Vec<PairResult>, usize) {
    progress.stage(
        "scoring candidate pairs",
        Some(candidate_set.pairs.len() as u64),
    );
    let group_of = &candidate_set.groups;
    let compared = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<PairResult> = candidate_set
        .pairs
        .par_iter()
        .with_min_len(64)
        .flat_map_iter(|&(x, y)| {
            progress.advance(1);
            if !may_be_reported(
                &corpus[x].keys,
                &corpus[y].keys,
                detector.config().min_block,
                detector.config().threshold,
                config,
            ) {
                return Vec::new();
            }
            compared.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let c = detector.compare(&corpus[x].profile, &corpus[y].profile);
            let keep = reported(&c, config);
            let (gx, gy) = (group_of.members(x), group_of.members(y));
            let pairs: Vec<PairResult> = if keep {
                gx.iter()
                    .flat_map(|&a| gy.iter().map(move |&b| (a, b)))
                    .map(|(a, b)| {
                        if a < b {
                            PairResult {
                                a,
                                b,
                                comparison: c.clone(),
                            }
                        } else {
                            PairResult {
                                a: b,
                                b: a,
                                comparison: swapped(&c),
                            }
                        }
                    })
                    .collect()
            } else {
                Vec::new()
            };
            pairs
        })
        .collect();
    // Pairs inside an exact-duplicate group: identical profiles, J = 1.
    for group in group_of.groups() {
        let c = detector.compare(&corpus[group[0]].profile, &corpus[group[0]].profile);
        if reported(&c, config) {
            for (i, &a) in group.iter().enumerate() {
                for &b in &group[i + 1..] {
                    out.push(PairResult {
                        a,
                        b,
                        comparison: c.clone(),
                    });
                }
            }
        }
    }
    out.sort_unstable_by_key(|p| (p.a, p.b));
    progress.finish_stage();
    (out, compared.into_inner())
}

/// The comparison seen from the other side.
fn swapped(c: &Comparison<SlstComparison>) -> Comparison<SlstComparison> {
    let mut blocks: Vec<_> = c.evidence.blocks.iter().map(|b| b.swapped()).collect();
    blocks.sort_unstable();
    Comparison {
        method: c.method,
        similarity: c.similarity.swapped(),
        duplicate: c.duplicate,
        evidence: SlstComparison {
            blocks,
            len_a: c.evidence.len_b,
            len_b: c.evidence.len_a,
            ..c.evidence.clone()
        },
    }
}

/// Seconds spent in each stage.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct StageTimes {
    /// Reading and profiling.
    pub sketch: f64,
    /// Candidate generation.
    pub candidates: f64,
    /// Scoring candidate pairs.
    pub verify: f64,
}

/// Everything a batch run found.
#[derive(Debug, Clone)]
pub struct BatchResult {
    /// The sketched corpus.
    pub corpus: SketchedCorpus,
    /// The candidates (with exact-duplicate groups and boilerplate).
    pub candidates: CandidateSet,
    /// The reported pairs, sorted by (a, b).
    pub pairs: Vec<PairResult>,
    /// Candidate pairs compared (the rest could not reach the report: see [`shared_keys`]).
    pub pairs_compared: usize,
    /// Time per stage.
    pub times: StageTimes,
}

/// Run all three steps over a stream of corpus items.
///
/// # Example
/// ```
/// use slst::batch::{run, BatchConfig, Silent};
/// use slst::corpus::Item;
/// use slst::{Document, SlSt, SlstConfig};
/// let texts = [
///     "Stocks rose sharply on Monday. Bond yields fell to a low. Oil was flat.",
///     "Gold gained in late trade. The dollar weakened slightly.",
///     "Stocks rose sharply on Monday. Bond yields fell to a low. Oil was flat. Rain fell.",
/// ];
/// let items = texts.iter().enumerate().map(|(i, t)| Item::Document(Document::new(format!("d{i}"), *t)));
/// let result = run(items, &SlSt::new(SlstConfig::default())?, &BatchConfig::default(), &Silent);
/// assert_eq!(result.pairs.len(), 1);
/// assert_eq!((result.pairs[0].a, result.pairs[0].b), (0, 2));
/// # Ok::<(), slst::Error>(())
/// ```
pub fn run(
    items: impl Iterator<Item = Item>,
    detector: &SlSt,
    config: &BatchConfig,
    progress: &dyn Progress,
) -> BatchResult {
    let t = Instant::now();
    let corpus = sketch_corpus(items, detector, progress);
    let sketch = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let candidate_set = match config.candidates {
        Candidates::Index => candidates(
            &corpus.documents,
            detector.config().min_block,
            config.max_df,
            progress,
        ),
        Candidates::All => CandidateSet::all_pairs(&corpus.documents),
    };
    let cand = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let (pairs, pairs_compared) = verify(
        &corpus.documents,
        &candidate_set,
        detector,
        config,
        progress,
    );
    let times = StageTimes {
        sketch,
        candidates: cand,
        verify: t.elapsed().as_secs_f64(),
    };
    BatchResult {
        corpus,
        candidates: candidate_set,
        pairs,
        pairs_compared,
        times,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_keys_is_a_multiset_intersection() {
        assert_eq!(shared_keys(&[1, 2, 2, 3], &[2, 2, 2, 3, 4]), 3);
        assert_eq!(shared_keys(&[], &[1]), 0);
    }

    #[test]
    fn the_bound_rules_out_pairs_that_cannot_reach_the_threshold() {
        let config = BatchConfig::default();
        // 2 shared of 4 and 4: J ≤ 2 / 6 < 0.5.
        assert!(!may_be_reported(
            &[1, 2, 3, 4],
            &[1, 2, 5, 6],
            2,
            0.5,
            &config
        ));
        assert!(may_be_reported(
            &[1, 2, 3, 4],
            &[1, 2, 5, 6],
            2,
            0.3,
            &config
        ));
        // One shared sentence cannot make a 2-block; equal strings are always compared.
        assert!(!may_be_reported(&[1, 9], &[1, 8], 2, 0.0, &config));
        assert!(may_be_reported(&[7], &[7], 2, 0.5, &config));
        // By containment: 2 of 2 sentences of b are shared.
        let c = BatchConfig {
            containment: Some(0.9),
            ..BatchConfig::default()
        };
        assert!(may_be_reported(&[1, 2, 3, 4, 5, 6], &[1, 2], 2, 0.5, &c));
    }
}
