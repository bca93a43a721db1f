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
//! `slst-blocks` is accepted as another name for `slst`.
//!
//! [`Method`] names them (the registry: one enum, parsed from and printed as these names), and
//! [`MethodSettings::detector`] builds any of them, with its settings, as a [`MethodDetector`] —
//! an enum of the typed detectors. Code that works with whichever method was chosen at run time
//! is written once, generic over [`Detector`], and handed to [`MethodDetector::visit`]: every
//! sketch and every piece of evidence keeps its type, so the output schema is checked by the
//! compiler and a sketch of one method can never reach another.
//!
//! ## Implementing a method
//! A new method needs a type that implements [`Detector`] — its sketch (what it keeps of one
//! document), its evidence (what comparing two sketches found, implementing [`Evidence`]), its
//! settings record ([`Params`]) and its rule in words — then a [`Method`] name and a
//! [`MethodDetector`] variant. Everything else (batch runs, evaluation, `compare --method all`)
//! follows. [`Md5`] is the smallest worked example; ARCHITECTURE.md walks through it. A method
//! whose corpus join counts witnessed units may also implement [`WitnessJoin`], for joins
//! outside this library ([`Detector::external_join`]); no other method needs to.

mod blocks;
mod candidates;
mod decided;
mod md5;
mod megashingle;
mod names;
mod polyhash;
mod registry;
mod robust;
mod seed_keys;
mod sentlen;
mod settings;
mod shingle;
mod sketches;
mod slst;
mod spotsigs;
mod witness;

pub use self::blocks::{
    BlockFingerprint, BlockKeyView, Blocks, BlocksConfig, BlocksEvidence, BlocksParams,
    BlocksSketch, BlocksSketchView, equivalence, special_chars, weighted_jaccard,
};
pub use self::candidates::{BoilerplateBlock, CandidateSet, CandidateSource, Groups};
pub use self::decided::{Condition, DecidedBy};
pub use self::md5::{Md5, Md5Config, Md5Evidence, Md5Params, Md5Sketch};
pub use self::megashingle::{
    MegaShingle, MegaShingleConfig, MegaShingleEvidence, MegaShingleParams, MegaShingleSketch,
    match_probability,
};
pub use self::names::{UnknownMode, UnknownRule};
pub use self::polyhash::{
    PolyHash, PolyHashConfig, PolyHashEvidence, PolyHashParams, PolyHashSketch, PolyHashSketchView,
    STEMMER_LANGUAGES, StemmerLanguage, stemmer_from_name, stemmer_name,
};
pub use self::registry::{
    Method, MethodDetector, MethodSettings, Params, UnknownMethod, WithDetector,
};
pub use self::robust::{
    RARE_KEYS, Refusal, RobustBlock, RobustComparison, RobustConfig, RobustParams, RobustProfile,
    RobustSentence, RobustSketchView, RobustSlst, SlstMode, WalkPlan, fewest_matched, plan_walk,
    prefix_len, rare_bounds,
};
pub use self::seed_keys::seed_index_keys;
pub use self::sentlen::{
    SentLen, SentLenConfig, SentLenEvidence, SentLenParams, SentLenSketch, SentLenSketchView,
};
pub use self::settings::MethodConfig;
pub use self::shingle::{
    MERSENNE_61, ShingleConfig, ShingleEvidence, ShingleHash, ShingleMeasure, ShingleParams,
    ShingleSketch, ShingleSketchKind, ShingleSketchView, Shingles, karp_rabin_windows,
    shingle_fingerprints, term_hash,
};
pub use self::sketches::{MethodSketch, SketchMismatch, WithSketches};
pub use self::slst::{
    MatchKey, SlSt, SlstComparison, SlstConfig, SlstParams, SlstSketch, SlstSketchView, SlstText,
    canonical_order, sentence_key, shared_keys, suffix_array_candidates,
};
pub use self::spotsigs::{
    DEFAULT_ANTECEDENTS, SignatureCount, SpotSigs, SpotSigsConfig, SpotSigsEvidence,
    SpotSigsParams, SpotSigsSketch, SpotSigsSketchView, apply_idf_band,
};
pub(crate) use self::witness::lengths_fit;
pub use self::witness::{Witness, WitnessJoin};
pub use crate::text::Terms;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::block::Block;
use crate::document::Document;
use crate::similarity::Similarity;

/// Which pairs a corpus run keeps: the report's rule. Every rule is monotone — a pair kept at
/// some scores is kept at higher ones — so cheap upper bounds on the scores can rule pairs out
/// before they are compared ([`Detector::may_be_reported`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum PairRule {
    /// The method's own decision (J ≥ θ for most methods).
    #[default]
    Duplicates,
    /// The method's duplicates, and the pairs it refuses as *templates* whose scores reach
    /// its threshold ([`Evidence::template`]: one text filled with other figures, one notice
    /// for another party), to be reported as such.
    WithTemplates,
    /// Either containment at least this, with something in common (the score above 0).
    Contained(f64),
    /// Every pair with a score above 0 (evaluation sweeps the threshold afterwards).
    Scored,
}

impl PairRule {
    /// Whether a comparison with these scores and decision is kept.
    ///
    /// # Example
    /// ```
    /// use slst::Similarity;
    /// use slst::method::PairRule;
    /// let s = Similarity::from_counts(2, 3, 10);
    /// assert!(!PairRule::Duplicates.keeps(&s, false));
    /// assert!(PairRule::Contained(0.6).keeps(&s, false)); // 2 of A's 3 sentences lie in B
    /// assert!(PairRule::Scored.keeps(&s, false));
    /// ```
    /// For [`PairRule::WithTemplates`], `duplicate` is whether the method's decision keeps
    /// the pair or calls it a template ([`Comparison::kept_by`]); as a bound, whether the scores
    /// reach the threshold, as for [`PairRule::Duplicates`].
    pub fn keeps(self, scores: &Similarity, duplicate: bool) -> bool {
        match self {
            PairRule::Duplicates | PairRule::WithTemplates => duplicate,
            PairRule::Contained(theta) => {
                scores.resemblance > 0.0
                    && (scores.containment_a.is_some_and(|x| x >= theta)
                        || scores.containment_b.is_some_and(|x| x >= theta))
            }
            PairRule::Scored => scores.resemblance > 0.0,
        }
    }

    /// The containment threshold, when pairs are kept by containment.
    pub fn containment(self) -> Option<f64> {
        match self {
            PairRule::Contained(theta) => Some(theta),
            _ => None,
        }
    }
}

/// What a method that works on sentences kept and left out of one document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub struct SentenceCounts {
    /// Kept sentences (for the robust mode: kept units, sentences or clauses).
    pub sentences: usize,
    /// Sentences skipped: no term left after stop-word removal.
    pub skipped_empty: usize,
    /// Sentences dropped: longer than the maximum length.
    pub dropped_long: usize,
}

/// A block of sentences found by a comparison: where it starts on each side and how long it
/// is, and — for a method that measures it — the smallest term similarity of its sentence pairs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FoundBlock {
    /// The block (sentence indices in A and B, length).
    pub block: Block,
    /// The smallest term-set Jaccard coefficient of the block's sentence pairs, where the
    /// method compares term sets (robust SL+ST).
    pub min_term_similarity: Option<f64>,
}

/// The byte spans of a found block in the two documents: from the first sentence's start to
/// the last sentence's end.
pub fn locate<D: Detector + ?Sized>(
    detector: &D,
    (a, b): (&D::Sketch, &D::Sketch),
    found: &FoundBlock,
) -> ([usize; 2], [usize; 2]) {
    let span = |s: &D::Sketch, start: usize| {
        let first = detector.unit_span(s, start).unwrap_or_default();
        let last = detector
            .unit_span(s, start + found.block.len - 1)
            .unwrap_or_default();
        [first[0], last[1]]
    };
    (span(a, found.block.a), span(b, found.block.b))
}

/// What a comparison found besides the scores: each method's own type, serialised as the
/// `evidence` of its records (a method that finds sentence blocks reports them as `blocks`
/// instead, in one place for every such method).
pub trait Evidence: Serialize + Clone + Send + Sync {
    /// The sentence blocks, sorted by start in A, for a method that finds them (SL+ST in
    /// either mode); `None` for the others.
    fn blocks(&self) -> Option<Vec<FoundBlock>> {
        None
    }

    /// Why a score is undefined or necessarily 0, or what is special about the pair, when
    /// something is ("no sentences", "identical profiles", …).
    fn note(&self) -> Option<&str> {
        None
    }

    /// Why a pair whose scores reach the method's threshold is not a duplicate, when the
    /// method saw a *template* in it: one text filled with other figures, or one notice sent
    /// for another party (robust SL+ST, [`crate::method::Refusal::is_template`]). A corpus
    /// run can report such pairs as templates instead of dropping them.
    fn template(&self) -> Option<&str> {
        None
    }

    /// The condition of the decision that decided the pair, for a method whose decision has
    /// several ([`DecidedBy`]); `None` (the default): the method's one rule decided it.
    fn decided_by(&self) -> Option<DecidedBy> {
        None
    }

    /// The same evidence seen from the other document: `compare(b, a)` gives
    /// `compare(a, b).evidence.swapped()`.
    fn swapped(&self) -> Self;
}

/// A near-duplicate detection method.
///
/// A method keeps a *sketch* of each document ([`Detector::sketch`], once per document) and
/// compares two sketches ([`Detector::compare`]). The other items have defaults and serve the
/// corpus driver, the index and the reports; a method overrides the ones that make it fast or say
/// more.
pub trait Detector: Send + Sync {
    /// What the method keeps of a document. Serialisable, so that sketches can be stored (the
    /// index) or shipped between workers.
    type Sketch: Clone + PartialEq + Send + Sync + Serialize + DeserializeOwned + 'static;
    /// What a comparison yields besides the scores (e.g. SL+ST's blocks).
    type Evidence: Evidence;
    /// What `slst sketch` shows of a sketch.
    type SketchView: Serialize;

    /// The method (its name in the registry).
    fn method(&self) -> Method;

    /// The method's name as the CLI and reports spell it (`slst`, `shingle`, …).
    fn name(&self) -> &'static str {
        self.method().name()
    }

    /// The settings in force, as reports record them.
    fn params(&self) -> Params;

    /// How the method decides "duplicate", in words (`J ≥ 0.5`, `equal digests`, …).
    fn rule(&self) -> String;

    /// Sketch one document. Pure: the same document always gives the same sketch.
    fn sketch(&self, doc: &Document) -> Self::Sketch;

    /// Compare two sketches. Symmetric: `compare(b, a)` has the same resemblance as
    /// `compare(a, b)` with the containments swapped, and its evidence is
    /// [`Evidence::swapped`].
    fn compare(&self, a: &Self::Sketch, b: &Self::Sketch) -> Comparison<Self::Evidence>;

    /// What `slst sketch` prints of a sketch.
    fn sketch_view(&self, sketch: &Self::Sketch) -> Self::SketchView;

    /// Sentences kept and left out, for a method that works on sentences. Default: `None`.
    fn sentence_counts(&self, _sketch: &Self::Sketch) -> Option<SentenceCounts> {
        None
    }

    /// The byte span `[start, end)` of kept sentence `unit` in the document text, for a method
    /// that finds sentence blocks. Default: `None`.
    fn unit_span(&self, _sketch: &Self::Sketch, _unit: usize) -> Option<[usize; 2]> {
        None
    }

    /// The seeds that passages grow from ([`crate::align`]): byte spans in A and in B. Default:
    /// the comparison's blocks, located; `None` for a method without blocks.
    fn seeds(
        &self,
        a: &Self::Sketch,
        b: &Self::Sketch,
        comparison: &Comparison<Self::Evidence>,
    ) -> Option<Vec<([usize; 2], [usize; 2])>> {
        let blocks = comparison.evidence.blocks()?;
        Some(blocks.iter().map(|f| locate(self, (a, b), f)).collect())
    }

    /// True when the sketch can have no score above 0 with anything (SL+ST: no sentence):
    /// comparing every pair leaves such documents out. Default: `false`.
    fn is_empty(&self, sketch: &Self::Sketch) -> bool {
        self.sentence_counts(sketch)
            .is_some_and(|c| c.sentences == 0)
    }

    /// Join keys: keys such that any two documents with a score above 0 share at least one
    /// (shingle fingerprints, n-gram hashes, min-wise minima with their positions), so an
    /// inverted index over them finds every pair worth scoring — evaluation scores a universe of
    /// millions of pairs this way. `None` (the default): no such keys; every pair is compared.
    fn join_keys(&self, _sketch: &Self::Sketch) -> Option<Vec<u64>> {
        None
    }

    /// Keys such that any two documents this method reports as duplicates share at least one;
    /// corpus runs join on them. Default: the [`Detector::join_keys`]. A method whose decision
    /// is narrower than "score above 0" gives narrower keys (megashingles: duplicates share a
    /// megashingle).
    fn duplicate_keys(&self, sketch: &Self::Sketch) -> Option<Vec<u64>> {
        self.join_keys(sketch)
    }

    /// Corpus mode only: adjust the sketches of a whole collection before they are joined and
    /// compared (SpotSigs keeps the signatures whose IDF lies in a band). Default: nothing.
    fn prepare_corpus(&self, _sketches: &mut [Self::Sketch]) {}

    /// Corpus mode: the candidate pairs of a whole collection, for a method with a join of its
    /// own that is narrower than sharing a key (SL+ST's suffix array, the robust mode's witness
    /// count). Every pair `(a, b)`, `a < b` (indices into `sketches`), that comparing could keep
    /// under `rule` must be among the pairs, or be represented by its exact-duplicate groups,
    /// except pairs whose only common ground is held by more than `max_df` documents (reported
    /// in the set). `None` (the default): the corpus driver joins on the method's keys.
    fn corpus_candidates(
        &self,
        _sketches: &[&Self::Sketch],
        _rule: PairRule,
        _max_df: usize,
    ) -> Option<CandidateSet> {
        None
    }

    /// Corpus mode: the pairs that may have seeds of passages ([`Detector::seeds`]), for a
    /// run that keeps pairs by the passages they share: every pair with a seed must be among
    /// them, as for [`Detector::corpus_candidates`]. Default: the method's join of the pairs
    /// with a score above 0 ([`PairRule::Scored`]), where the seeds are the blocks; `None`
    /// then as there (the driver joins on the method's keys).
    fn seed_candidates(&self, sketches: &[&Self::Sketch], max_df: usize) -> Option<CandidateSet> {
        self.corpus_candidates(sketches, PairRule::Scored, max_df)
    }

    /// The sketch whose units cover every seed of a passage ([`Detector::seeds`]), for a store
    /// that looks documents up by keys ([`seed_index_keys`]), when it differs from `sketch`
    /// (robust SL+ST: its profile with the windows of its over-long units among its units).
    /// Default: `None`, the sketch's own units and keys cover every seed.
    fn seed_sketch(&self, _sketch: &Self::Sketch) -> Option<Self::Sketch> {
        None
    }

    /// What a join outside this library (a Spark job) needs to find the pairs a corpus run
    /// finds by counting witnessed units ([`WitnessJoin`]), for a method whose
    /// [`Detector::corpus_candidates`] does so (robust SL+ST returns itself). Default: `None`,
    /// no such join; the index and the Python package then use the method's keys.
    fn external_join(&self) -> Option<&dyn WitnessJoin<Self::Sketch>> {
        None
    }

    /// Corpus mode: whether comparing `a` and `b` could keep the pair under `rule`, decided
    /// from cheap upper bounds on the scores, or from a refusal the sketches alone decide (robust
    /// SL+ST's figures). `false` only when no comparison of the two can satisfy the rule, so
    /// skipping the pair never changes a result. Default: `true` (no bound).
    fn may_be_reported(&self, _a: &Self::Sketch, _b: &Self::Sketch, _rule: PairRule) -> bool {
        true
    }

    /// The keys an index stores for a document and looks a query up by (the index's postings).
    /// Default: the [`Detector::duplicate_keys`]. `None`: the method cannot be indexed.
    fn index_keys(&self, sketch: &Self::Sketch) -> Option<Vec<u64>> {
        self.duplicate_keys(sketch)
    }

    /// How many of a query's [`Detector::index_keys`] (counted as a multiset) any document the
    /// query keeps under `rule` shares at least, besides documents with the very same keys: the
    /// index then looks up only the query's rarest keys (prefix filtering). Default: 1.
    fn index_keys_needed(&self, _sketch: &Self::Sketch, _rule: PairRule) -> usize {
        1
    }
}

/// Sketch two documents at once, on two threads: the whole of a pairwise comparison's
/// profiling cost is then that of the larger document.
pub fn sketch_pair<D: Detector>(
    detector: &D,
    a: &Document,
    b: &Document,
) -> (D::Sketch, D::Sketch) {
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
    /// The method.
    pub method: Method,
    /// The scores.
    pub similarity: Similarity,
    /// The method's decision (for most methods: resemblance at or above its threshold).
    pub duplicate: bool,
    /// The method's own evidence.
    pub evidence: E,
}

impl<E: Evidence> Comparison<E> {
    /// The comparison seen from the other document (A and B exchanged).
    pub fn swapped(&self) -> Self {
        Comparison {
            method: self.method,
            similarity: self.similarity.swapped(),
            duplicate: self.duplicate,
            evidence: self.evidence.swapped(),
        }
    }

    /// Why the pair is a template, when the method refused it as one ([`Evidence::template`]).
    pub fn template(&self) -> Option<&str> {
        if self.duplicate {
            None
        } else {
            self.evidence.template()
        }
    }

    /// The condition of the method's decision that decided the pair ([`Evidence::decided_by`];
    /// for a method with one rule, [`DecidedBy::of_rule`]).
    pub fn decided_by(&self) -> DecidedBy {
        self.evidence
            .decided_by()
            .unwrap_or(DecidedBy::of_rule(self.duplicate))
    }

    /// Whether a report by `rule` keeps this comparison.
    pub fn kept_by(&self, rule: PairRule) -> bool {
        let decision =
            self.duplicate || (rule == PairRule::WithTemplates && self.template().is_some());
        rule.keeps(&self.similarity, decision)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every method, chosen at run time, gives exactly the typed comparison, and
    /// `compare(b, a)` is `compare(a, b)` seen from the other side.
    #[test]
    fn every_method_is_symmetric_through_its_swapped_evidence() {
        struct Check<'a>(&'a Document, &'a Document);
        impl WithDetector for Check<'_> {
            type Output = ();
            fn with<D: Detector>(self, d: &D) {
                let (a, b) = sketch_pair(d, self.0, self.1);
                let ab = d.compare(&a, &b);
                let ba = d.compare(&b, &a);
                assert_eq!(ab.method, d.method());
                assert_eq!(ab.similarity, ba.similarity.swapped(), "{}", d.name());
                assert_eq!(ab.duplicate, ba.duplicate, "{}", d.name());
                assert_eq!(
                    serde_json::to_string(&ab.evidence).unwrap(),
                    serde_json::to_string(&ba.evidence.swapped()).unwrap(),
                    "{}",
                    d.name()
                );
            }
        }
        let a = Document::new("a", include_str!("../../corpora/clough/g0pA_taskb.txt"));
        let b = Document::new("b", include_str!("../../corpora/clough/orig_taskb.txt"));
        let settings = MethodSettings::default();
        for method in Method::ALL {
            settings.detector(method).unwrap().visit(Check(&a, &b));
        }
    }
}
