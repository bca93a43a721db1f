//! Corpus mode for any method behind [`AnyDetector`]: candidates from an inverted index over the
//! method's join keys (shingle fingerprints, megashingles, digests), or every pair when the
//! method has none.

use std::any::Any;
use std::time::Instant;

use rayon::prelude::*;

use super::{BatchConfig, Candidates, Progress, StageTimes};
use crate::corpus::{Item, Skipped};
use crate::document::Document;
use crate::method::{AnyDetector, Comparison};

/// One document sketched by some method.
pub struct AnySketch {
    /// The document id.
    pub id: String,
    /// The method's sketch.
    pub sketch: Box<dyn Any + Send + Sync>,
    /// The method's join keys, if it has them.
    pub keys: Option<Vec<u64>>,
}

/// A reported pair (a < b, input order) with the method's comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct AnyPair {
    /// The earlier document.
    pub a: usize,
    /// The later document.
    pub b: usize,
    /// The comparison, evidence as JSON.
    pub comparison: Comparison<serde_json::Value>,
}

/// How candidates were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CandidateSource {
    /// The method's own corpus join ([`crate::Detector::corpus_candidates`]).
    MethodJoin,
    /// An inverted index over join keys.
    JoinKeys,
    /// Every pair.
    AllPairs,
}

/// Everything a corpus run with some method found.
pub struct AnyBatchResult {
    /// The method's name.
    pub method: &'static str,
    /// Document ids in input order.
    pub ids: Vec<String>,
    /// Documents and files skipped.
    pub skipped: Vec<Skipped>,
    /// How candidates were found.
    pub source: CandidateSource,
    /// Candidate pairs found.
    pub candidate_pairs: usize,
    /// Candidate pairs compared: with an index, the method's bound
    /// ([`crate::method::Detector::may_be_reported`]) rules the others out before comparing.
    pub pairs_compared: usize,
    /// Join keys held by more than `max_df` documents: left out of the index.
    pub capped_keys: usize,
    /// Sentences kept per document (input order), for a method that works on sentences.
    pub sentences: Option<Vec<usize>>,
    /// Documents read whose text was not valid UTF-8 and was decoded by a fallback.
    pub fallback_decoded: usize,
    /// Reported pairs, sorted by (a, b).
    pub pairs: Vec<AnyPair>,
    /// Seconds per stage.
    pub times: StageTimes,
}

const CHUNK: usize = 512;

/// Run a method over a stream of corpus items.
///
/// With [`Candidates::Index`] and a method that has join keys, candidate pairs are those sharing
/// a key held by at most `max_df` documents: exact for methods whose keys any reportable pair
/// must share (keys held by more documents are counted in `capped_keys`). Otherwise every pair
/// is compared.
pub fn run_any(
    items: impl Iterator<Item = Item>,
    detector: &dyn AnyDetector,
    config: &BatchConfig,
    progress: &dyn Progress,
) -> AnyBatchResult {
    let t = Instant::now();
    progress.stage("reading and sketching", None);
    let mut docs: Vec<AnySketch> = Vec::new();
    let mut skipped = Vec::new();
    let mut fallback_decoded = 0;
    let mut chunk: Vec<Document> = Vec::with_capacity(CHUNK);
    let sketch_chunk = |chunk: &mut Vec<Document>, docs: &mut Vec<AnySketch>| {
        let done: Vec<AnySketch> = chunk
            .par_iter()
            .map(|d| AnySketch {
                id: d.id.clone(),
                sketch: detector.sketch_any(d),
                keys: None,
            })
            .collect();
        progress.advance(done.len() as u64);
        docs.extend(done);
        chunk.clear();
    };
    for item in items {
        match item {
            Item::Document(d) => {
                fallback_decoded += usize::from(d.encoding.is_fallback());
                chunk.push(d);
                if chunk.len() == CHUNK {
                    sketch_chunk(&mut chunk, &mut docs);
                }
            }
            Item::Skipped(s) => skipped.push(s),
        }
    }
    sketch_chunk(&mut chunk, &mut docs);
    // Corpus-wide adjustments (SpotSigs' IDF band), then the keys of the adjusted sketches.
    let mut sketches: Vec<Box<dyn Any + Send + Sync>> = docs
        .iter_mut()
        .map(|d| std::mem::replace(&mut d.sketch, Box::new(())))
        .collect();
    detector.prepare_corpus_any(&mut sketches);
    for (d, s) in docs.iter_mut().zip(sketches) {
        d.sketch = s;
    }
    let sentences: Option<Vec<usize>> = docs
        .iter()
        .map(|d| detector.sentences_any(&*d.sketch))
        .collect();
    progress.finish_stage();
    let sketch_time = t.elapsed().as_secs_f64();

    // The report's rule, monotone in the scores: with an index, a method's cheap bounds may
    // rule a pair out before it is compared (every pair is compared without one, the oracle).
    let keep = |s: &crate::Similarity, duplicate: bool| match config.containment {
        Some(theta) => {
            s.containment_a.is_some_and(|x| x >= theta)
                || s.containment_b.is_some_and(|x| x >= theta)
        }
        None => duplicate,
    };

    let t = Instant::now();
    progress.stage("finding candidate pairs", None);
    // A method's own corpus join first, else an inverted index over its keys.
    let own = if config.candidates == Candidates::Index {
        let sketches: Vec<&(dyn Any + Send + Sync)> = docs.iter().map(|d| &*d.sketch).collect();
        detector.corpus_candidates_any(&sketches, &keep, config.max_df)
    } else {
        None
    };
    if own.is_none() && config.candidates == Candidates::Index {
        docs.par_iter_mut()
            .for_each(|d| d.keys = detector.duplicate_keys_any(&*d.sketch));
    }
    let use_index = config.candidates == Candidates::Index
        && (own.is_some() || docs.iter().all(|d| d.keys.is_some()));
    let source = if own.is_some() {
        CandidateSource::MethodJoin
    } else if use_index {
        CandidateSource::JoinKeys
    } else {
        CandidateSource::AllPairs
    };
    let (pairs, capped_keys) = if let Some(own) = own {
        own
    } else if use_index {
        let keys: Vec<&[u64]> = docs
            .iter()
            .map(|d| d.keys.as_deref().unwrap_or_default())
            .collect();
        join_candidates(&keys, config.max_df)
    } else {
        let n = docs.len();
        (
            (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect(),
            0,
        )
    };
    progress.finish_stage();
    let cand_time = t.elapsed().as_secs_f64();

    let t = Instant::now();
    progress.stage("scoring candidate pairs", Some(pairs.len() as u64));
    // Progress (and the count of pairs compared) is kept per chunk of pairs: a shared counter
    // bumped per pair costs more than ruling a pair out.
    let compared = std::sync::atomic::AtomicUsize::new(0);
    let mut reported: Vec<AnyPair> = pairs
        .par_chunks(64)
        .flat_map_iter(|chunk| {
            let mut compared_here = 0;
            let kept: Vec<AnyPair> = chunk
                .iter()
                .filter_map(|&(a, b)| {
                    let (sa, sb) = (&*docs[a].sketch, &*docs[b].sketch);
                    if use_index && !detector.may_be_reported_any(sa, sb, &keep) {
                        return None;
                    }
                    compared_here += 1;
                    let c = detector.compare_any(sa, sb);
                    keep(&c.similarity, c.duplicate).then_some(AnyPair {
                        a,
                        b,
                        comparison: c,
                    })
                })
                .collect();
            progress.advance(chunk.len() as u64);
            compared.fetch_add(compared_here, std::sync::atomic::Ordering::Relaxed);
            kept
        })
        .collect();
    reported.sort_unstable_by_key(|p| (p.a, p.b));
    progress.finish_stage();
    AnyBatchResult {
        method: detector.name(),
        ids: docs.into_iter().map(|d| d.id).collect(),
        skipped,
        source,
        candidate_pairs: pairs.len(),
        pairs_compared: compared.into_inner(),
        capped_keys,
        sentences,
        fallback_decoded,
        pairs: reported,
        times: StageTimes {
            sketch: sketch_time,
            candidates: cand_time,
            verify: t.elapsed().as_secs_f64(),
        },
    }
}

/// Pairs of documents (by index into `keys`) sharing a join key held by at most `max_df`
/// documents, sorted, without repeats; and the number of keys left out for being held by more.
pub fn join_candidates(keys: &[&[u64]], max_df: usize) -> (Vec<(usize, usize)>, usize) {
    let mut postings: Vec<(u64, u32)> = keys
        .iter()
        .enumerate()
        .flat_map(|(i, d)| d.iter().map(move |&k| (k, i as u32)))
        .collect();
    postings.par_sort_unstable();
    postings.dedup();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut capped = 0;
    for list in postings.chunk_by(|x, y| x.0 == y.0) {
        if list.len() > max_df {
            capped += 1;
            continue;
        }
        for (i, &(_, a)) in list.iter().enumerate() {
            pairs.extend(list[i + 1..].iter().map(|&(_, b)| (a as usize, b as usize)));
        }
    }
    pairs.par_sort_unstable();
    pairs.dedup();
    (pairs, capped)
}
