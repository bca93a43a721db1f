//! Detection methods behind one interface.
//!
//! A [`Detector`] turns each document into a sketch once ([`Detector::sketch`]) and compares two
//! sketches ([`Detector::compare`]) into a [`Comparison`]. SL+ST ([`SlSt`]) is the core method;
//! the cross-check baselines implement the same trait, so every command can run any of them:
//!
//! | name | type | paper | what is compared |
//! |---|---|---|---|
//! | `slst` | [`SlSt`] | Feng 2015 | verified runs of sentences (length + leading terms) |
//! | `slst --mode robust` | [`RobustSlst`] | — | runs of sentences with close lengths and term sets |
//! | `shingle` | [`Shingles`] | Broder 1997; seeds 000, 001 | w-term shingle fingerprints: all, mod m, or min n |
//! | `megashingle` | [`MegaShingle`] | Fetterly et al. 2003; seed 000 | 84 min-wise minima → 6 supershingles → 15 megashingles |
//! | `polyhash` | [`PolyHash`] | seed 003 | polynomial hashes of character 6-grams of the stemmed text |
//! | `spotsigs` | [`SpotSigs`] | Theobald et al. 2008 | multisets of antecedent-led word chains |
//! | `sentlen` | [`SentLen`] | Wang and Chang 2009 | runs of k consecutive sentence lengths |
//! | `md5` | [`Md5`] | — (control) | the digest of the canonical text |
//! | `slst-flat` | [`SlSt`] reading [`SlstText::Flat`] | SPEC §7.7 (ablation) | SL+ST on a web page's text with block boundaries read as spaces |
//! | `blocks-md5` | [`Blocks`] | seed 004 | the MD5 of each structural-semantic block, fuzzy-set similarity |
//! | `blocks-shingle` | [`Blocks`] | seed 004 | ≤ 10 shingles per page spread over its blocks, fuzzy-set similarity |
//! | `specialchars` | [`Blocks`] | seed 004 | counts of special characters over the page |
//! | `blocks-specialchars` | [`Blocks`] | seed 004 | the same per block, fuzzy-set similarity |
//!
//! `slst` on a web page reads the text of its blocks, each block ending in a hard sentence break;
//! `slst-blocks` is the same method under a name that says so.
//!
//! [`MethodSettings::detector`] builds any of them by name ([`METHODS`]) as a [`AnyDetector`].

mod blocks;
mod canonical;
mod md5;
mod megashingle;
mod polyhash;
mod registry;
mod robust;
mod sentlen;
mod shingle;
mod slst;
mod spotsigs;

pub use self::blocks::{
    BlockFingerprint, Blocks, BlocksConfig, BlocksEvidence, BlocksSketch, equivalence,
    special_chars, weighted_jaccard,
};
pub use self::canonical::Terms;
pub use self::md5::{Md5, Md5Config, Md5Evidence, Md5Sketch};
pub use self::megashingle::{
    MegaShingle, MegaShingleConfig, MegaShingleEvidence, MegaShingleSketch, match_probability,
};
pub use self::polyhash::{
    PolyHash, PolyHashConfig, PolyHashEvidence, PolyHashSketch, StemmerLanguage, stemmer_name,
};
pub use self::registry::{METHODS, MethodSettings, compare_documents};
pub use self::robust::{
    RobustBlock, RobustComparison, RobustConfig, RobustProfile, RobustSentence, RobustSlst,
    SlstMode, prefix_len,
};
pub use self::sentlen::{SentLen, SentLenConfig, SentLenEvidence, SentLenSketch};
pub use self::shingle::{
    MERSENNE_61, ShingleConfig, ShingleEvidence, ShingleHash, ShingleMeasure, ShingleSketch,
    ShingleSketchKind, Shingles, karp_rabin_windows, shingle_fingerprints, term_hash,
};
pub use self::slst::{MatchKey, SlSt, SlstComparison, SlstConfig, SlstText, canonical_order};
pub use self::spotsigs::{
    DEFAULT_ANTECEDENTS, SpotSigs, SpotSigsConfig, SpotSigsEvidence, SpotSigsSketch, apply_idf_band,
};

use std::any::Any;

use serde::Serialize;

use crate::document::Document;
use crate::similarity::Similarity;

/// A near-duplicate detection method.
pub trait Detector {
    /// What the method keeps of a document.
    type Sketch;
    /// What a comparison yields besides the scores (e.g. SL+ST's blocks).
    type Evidence;

    /// The method's name as the CLI and reports spell it (`slst`, `shingle`, …).
    fn name(&self) -> &'static str;

    /// Sketch one document. Pure: the same document always gives the same sketch.
    fn sketch(&self, doc: &Document) -> Self::Sketch;

    /// Compare two sketches. Symmetric: `compare(b, a)` has the same resemblance as
    /// `compare(a, b)` with the containments swapped.
    fn compare(&self, a: &Self::Sketch, b: &Self::Sketch) -> Comparison<Self::Evidence>;

    /// Join keys: keys such that any two documents with a score above 0 share at least one
    /// (shingle fingerprints, n-gram hashes, min-wise minima with their positions), so an
    /// inverted index over them finds every pair worth scoring — evaluation scores a universe of
    /// millions of pairs this way. `None` (the default): no such keys; every pair is compared.
    fn join_keys(&self, _sketch: &Self::Sketch) -> Option<Vec<u64>> {
        None
    }

    /// Corpus mode only: adjust the sketches of a whole collection before they are joined and
    /// compared (SpotSigs keeps the signatures whose IDF lies in a band). Default: nothing.
    fn prepare_corpus(&self, _sketches: &mut [Self::Sketch]) {}

    /// Keys such that any two documents this method reports as duplicates share at least one;
    /// corpus runs join on them. Default: the [`Detector::join_keys`]. A method whose decision
    /// is narrower than "score above 0" gives narrower keys (megashingles: duplicates share a
    /// megashingle).
    fn duplicate_keys(&self, sketch: &Self::Sketch) -> Option<Vec<u64>> {
        self.join_keys(sketch)
    }

    /// The number of sentences (units) a sketch kept, for a method that works on sentences:
    /// batch summaries report it. Default: `None`.
    fn sentences(&self, _sketch: &Self::Sketch) -> Option<usize> {
        None
    }

    /// Corpus mode: the candidate pairs of a whole collection, for a method with a join of its
    /// own that is narrower than sharing a key. Every pair `(a, b)`, `a < b` (indices into
    /// `sketches`), that comparing could report under `keep` (see
    /// [`Detector::may_be_reported`]) must be among them, except pairs that share only keys held
    /// by more than `max_df` documents; sorted, without repeats, with the number of such keys.
    /// `None` (the default): the batch joins on [`Detector::duplicate_keys`].
    fn corpus_candidates(
        &self,
        _sketches: &[&Self::Sketch],
        _keep: &(dyn Fn(&Similarity, bool) -> bool + Sync),
        _max_df: usize,
    ) -> Option<(Vec<(usize, usize)>, usize)> {
        None
    }

    /// Corpus mode: whether comparing `a` and `b` could report the pair, decided from cheap
    /// upper bounds on the scores. `keep(scores, duplicate)` is the report's rule; it must be
    /// monotone (true for some scores stays true for higher scores, and for `duplicate` true
    /// instead of false). `false` only when no comparison of the two can satisfy it, so skipping
    /// the pair never changes a result. Default: `true` (no bound).
    fn may_be_reported(
        &self,
        _a: &Self::Sketch,
        _b: &Self::Sketch,
        _keep: &dyn Fn(&Similarity, bool) -> bool,
    ) -> bool {
        true
    }
}

/// Sketch two documents at once, on two threads: the whole of a pairwise comparison's
/// profiling cost is then that of the larger document.
pub fn sketch_pair<D>(detector: &D, a: &Document, b: &Document) -> (D::Sketch, D::Sketch)
where
    D: Detector + Sync,
    D::Sketch: Send,
{
    std::thread::scope(|scope| {
        let b_sketch = scope.spawn(|| detector.sketch(b));
        let a_sketch = detector.sketch(a);
        let b_sketch = match b_sketch.join() {
            Ok(sketch) => sketch,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        (a_sketch, b_sketch)
    })
}

/// The outcome of comparing two documents with one method.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison<E> {
    /// The method's name.
    pub method: &'static str,
    /// The scores.
    pub similarity: Similarity,
    /// The decision: resemblance at or above the method's threshold.
    pub duplicate: bool,
    /// The method's own evidence.
    pub evidence: E,
}

/// The object-safe face of a [`Detector`], for choosing a method at run time (`--method NAME`,
/// `--method all`): sketches are boxed, evidence becomes JSON. Every `Detector` whose sketch is
/// `Send + Sync + 'static` and whose evidence is `Serialize` is one, through a blanket impl.
pub trait AnyDetector: Send + Sync {
    /// The method's name.
    fn name(&self) -> &'static str;
    /// Sketch one document.
    fn sketch_any(&self, doc: &Document) -> Box<dyn Any + Send + Sync>;
    /// [`Detector::join_keys`] of a sketch made by this detector.
    fn join_keys_any(&self, sketch: &(dyn Any + Send + Sync)) -> Option<Vec<u64>>;
    /// [`Detector::duplicate_keys`] of a sketch made by this detector.
    fn duplicate_keys_any(&self, sketch: &(dyn Any + Send + Sync)) -> Option<Vec<u64>>;
    /// [`Detector::prepare_corpus`] over sketches made by this detector.
    fn prepare_corpus_any(&self, sketches: &mut Vec<Box<dyn Any + Send + Sync>>);
    /// [`Detector::may_be_reported`] of two sketches made by this detector (`true` when either
    /// was made by another).
    fn may_be_reported_any(
        &self,
        a: &(dyn Any + Send + Sync),
        b: &(dyn Any + Send + Sync),
        keep: &dyn Fn(&Similarity, bool) -> bool,
    ) -> bool;
    /// [`Detector::sentences`] of a sketch made by this detector.
    fn sentences_any(&self, sketch: &(dyn Any + Send + Sync)) -> Option<usize>;
    /// [`Detector::corpus_candidates`] of sketches made by this detector (`None` when one was
    /// made by another).
    fn corpus_candidates_any(
        &self,
        sketches: &[&(dyn Any + Send + Sync)],
        keep: &(dyn Fn(&Similarity, bool) -> bool + Sync),
        max_df: usize,
    ) -> Option<(Vec<(usize, usize)>, usize)>;
    /// Compare two sketches made by this detector.
    ///
    /// # Panics
    /// When a sketch was made by a detector of another type.
    fn compare_any(
        &self,
        a: &(dyn Any + Send + Sync),
        b: &(dyn Any + Send + Sync),
    ) -> Comparison<serde_json::Value>;
}

impl<D> AnyDetector for D
where
    D: Detector + Send + Sync,
    D::Sketch: Send + Sync + 'static,
    D::Evidence: Serialize,
{
    fn name(&self) -> &'static str {
        Detector::name(self)
    }

    fn sketch_any(&self, doc: &Document) -> Box<dyn Any + Send + Sync> {
        Box::new(self.sketch(doc))
    }

    fn join_keys_any(&self, sketch: &(dyn Any + Send + Sync)) -> Option<Vec<u64>> {
        self.join_keys(sketch.downcast_ref::<D::Sketch>()?)
    }

    fn duplicate_keys_any(&self, sketch: &(dyn Any + Send + Sync)) -> Option<Vec<u64>> {
        self.duplicate_keys(sketch.downcast_ref::<D::Sketch>()?)
    }

    fn prepare_corpus_any(&self, sketches: &mut Vec<Box<dyn Any + Send + Sync>>) {
        let name = Detector::name(self);
        let mut typed: Vec<D::Sketch> = std::mem::take(sketches)
            .into_iter()
            .map(|b| match b.downcast::<D::Sketch>() {
                Ok(s) => *s,
                Err(_) => panic!("a sketch of another method was given to {name}"),
            })
            .collect();
        self.prepare_corpus(&mut typed);
        *sketches = typed
            .into_iter()
            .map(|s| Box::new(s) as Box<dyn Any + Send + Sync>)
            .collect();
    }

    fn may_be_reported_any(
        &self,
        a: &(dyn Any + Send + Sync),
        b: &(dyn Any + Send + Sync),
        keep: &dyn Fn(&Similarity, bool) -> bool,
    ) -> bool {
        match (a.downcast_ref::<D::Sketch>(), b.downcast_ref::<D::Sketch>()) {
            (Some(a), Some(b)) => self.may_be_reported(a, b, keep),
            _ => true,
        }
    }

    fn sentences_any(&self, sketch: &(dyn Any + Send + Sync)) -> Option<usize> {
        self.sentences(sketch.downcast_ref::<D::Sketch>()?)
    }

    fn corpus_candidates_any(
        &self,
        sketches: &[&(dyn Any + Send + Sync)],
        keep: &(dyn Fn(&Similarity, bool) -> bool + Sync),
        max_df: usize,
    ) -> Option<(Vec<(usize, usize)>, usize)> {
        let typed: Option<Vec<&D::Sketch>> = sketches
            .iter()
            .map(|s| s.downcast_ref::<D::Sketch>())
            .collect();
        self.corpus_candidates(&typed?, keep, max_df)
    }

    fn compare_any(
        &self,
        a: &(dyn Any + Send + Sync),
        b: &(dyn Any + Send + Sync),
    ) -> Comparison<serde_json::Value> {
        let name = Detector::name(self);
        let (Some(a), Some(b)) = (a.downcast_ref::<D::Sketch>(), b.downcast_ref::<D::Sketch>())
        else {
            panic!("a sketch of another method was given to {name}");
        };
        let c = self.compare(a, b);
        Comparison {
            method: c.method,
            similarity: c.similarity,
            duplicate: c.duplicate,
            evidence: serde_json::to_value(&c.evidence).unwrap_or(serde_json::Value::Null),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_detector_gives_the_typed_result_with_json_evidence() {
        let slst = SlSt::new(SlstConfig::default()).unwrap();
        let (a, b) = (
            Document::new(
                "a",
                "Stocks rose sharply on Monday. Bond yields fell to a low. Oil was flat.",
            ),
            Document::new(
                "b",
                "Stocks rose sharply on Monday. Bond yields fell to a low. Gold gained.",
            ),
        );
        let typed = slst.compare(&slst.sketch(&a), &slst.sketch(&b));
        let dynamic: &dyn AnyDetector = &slst;
        let c = dynamic.compare_any(&*dynamic.sketch_any(&a), &*dynamic.sketch_any(&b));
        assert_eq!(c.method, "slst");
        assert_eq!(c.similarity, typed.similarity);
        assert_eq!(c.evidence["matched"], 2);
        assert_eq!(c.evidence["blocks"][0]["len"], 2);
    }
}
