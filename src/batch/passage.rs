//! Reuse at any length: a corpus run that also keeps every pair sharing at least N words in one
//! passage ([`super::BatchConfig::min_shared_words`]), whatever the documents' lengths.
//!
//! A relative rule (J ≥ θ, containment ≥ θc) misses a short passage copied into a long
//! document: four sentences of a page of a hundred are 3% of it. Text-reuse tools report every
//! pair sharing a passage of at least N words instead; this criterion does the same over the
//! method's own evidence. A pair's *seeds* ([`Detector::seeds`]: its blocks; robust SL+ST's
//! with the windows of its over-long sentences) are grown into passages by [`crate::align`],
//! as `slst compare` grows them, with passages whose two sides share fewer than N words
//! ([`crate::align::Passage::shared_words`]) dropped; a pair with a passage left is kept.
//!
//! The join must let such pairs through: a pair whose only shared text is four sentences never
//! reaches a relative rule's bound. With the criterion on, the candidates are the rule's and
//! also every pair the method's join finds with a seed at all ([`Detector::seed_candidates`]),
//! and no bound rules a pair out before it is compared. So a run keeps exactly the pairs that
//! comparing every pair would keep, but those whose seeds rest only on keys held by more than
//! `max_df` documents (as for the rule itself).
//!
//! Only a method with blocks has seeds: SL+ST in either mode ([`check_method`]).

use super::PairResult;
use crate::align::{Passage, shared_passages};
use crate::error::{Error, Result};
use crate::method::{CandidateSet, Comparison, Detector, Method};

/// What the criterion needs while pairs are verified: every document's text (input order, as
/// sketched) and the fewest words of a passage.
#[derive(Debug, Clone, Copy)]
pub struct SharedPassages<'a> {
    /// The texts, indexed by document number.
    pub texts: &'a [String],
    /// The fewest words a passage holds on each side.
    pub min_words: usize,
}

impl SharedPassages<'_> {
    /// The passages in which documents `a` and `b` share at least
    /// [`SharedPassages::min_words`] words, grown from the comparison's seeds (spans in a's and
    /// b's texts, sorted by start in a); empty for a method without blocks
    /// ([`shared_passages`]).
    pub fn of<D: Detector + ?Sized>(
        &self,
        detector: &D,
        (a, sa): (usize, &D::Sketch),
        (b, sb): (usize, &D::Sketch),
        comparison: &Comparison<D::Evidence>,
    ) -> Vec<Passage> {
        shared_passages(
            detector,
            (&self.texts[a], sa),
            (&self.texts[b], sb),
            comparison,
            self.min_words,
        )
    }
}

/// One pair kept under the criterion ([`verify_with_passages`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PassagesKept<E> {
    /// The comparison of a against b.
    pub comparison: Comparison<E>,
    /// The passages in which the two share at least the criterion's words (spans in a and in
    /// b).
    pub passages: Vec<Passage>,
    /// Kept by the criterion alone: the rule does not keep the comparison.
    pub by_passage: bool,
}

impl<E> PassagesKept<E> {
    /// The kept pair of documents `a` and `b` (a < b) as a corpus run reports it.
    pub fn into_pair(self, a: usize, b: usize) -> PairResult<E> {
        PairResult {
            a,
            b,
            comparison: self.comparison,
            passages: Some(self.passages),
            by_passage: self.by_passage,
        }
    }
}

/// Verify one pair under the criterion, as a corpus run and an index query do: compare (never
/// bounded: a pair below every bound may still share a passage), and keep the pair when `kept`
/// (the rule) keeps the comparison or at least `min_words` words are shared in one passage.
/// `None`: not kept.
pub fn verify_with_passages<D: Detector + ?Sized>(
    detector: &D,
    (text_a, a): (&str, &D::Sketch),
    (text_b, b): (&str, &D::Sketch),
    min_words: usize,
    kept: impl Fn(&Comparison<D::Evidence>) -> bool,
) -> Option<PassagesKept<D::Evidence>> {
    let comparison = detector.compare(a, b);
    let passages = shared_passages(detector, (text_a, a), (text_b, b), &comparison, min_words);
    let by_rule = kept(&comparison);
    (by_rule || !passages.is_empty()).then_some(PassagesKept {
        comparison,
        passages,
        by_passage: !by_rule,
    })
}

/// Whether the criterion can be honoured with `method`, and `min_words` is a number of words.
///
/// # Errors
/// [`Error::InvalidParameter`] (`min_shared_words`): 0 words, or a method without blocks,
/// whose comparisons locate no text to grow passages from.
pub fn check_method(method: Method, min_words: usize) -> Result<()> {
    if min_words == 0 {
        return Err(Error::InvalidParameter {
            name: "min_shared_words",
            value: "0".into(),
            expected: "at least 1 word",
        });
    }
    if method != Method::Slst {
        return Err(Error::InvalidParameter {
            name: "min_shared_words",
            value: format!("{min_words} with {}", method.name()),
            expected: "the slst method (either mode): only its blocks locate passages",
        });
    }
    Ok(())
}

/// Verify one candidate of a corpus run under the criterion ([`verify_with_passages`]).
pub(super) fn verify_shared<D: Detector>(
    detector: &D,
    sketches: &[D::Sketch],
    shared: &SharedPassages,
    (x, y): (usize, usize),
    kept: impl Fn(&Comparison<D::Evidence>) -> bool,
) -> Option<PairResult<D::Evidence>> {
    let a = (shared.texts[x].as_str(), &sketches[x]);
    let b = (shared.texts[y].as_str(), &sketches[y]);
    verify_with_passages(detector, a, b, shared.min_words, kept).map(|found| found.into_pair(x, y))
}

/// The rule's candidates and the pairs that may share a seed, together: pairs merged, the
/// rule's set's groups and boilerplate kept (the two joins run over the same documents, so
/// they group them alike), capped keys added.
pub(super) fn with_seeded(set: CandidateSet, seeded: CandidateSet) -> CandidateSet {
    debug_assert_eq!(set.groups, seeded.groups);
    let mut pairs = set.pairs;
    pairs.extend(seeded.pairs);
    pairs.sort_unstable();
    pairs.dedup();
    CandidateSet {
        pairs,
        capped_keys: set.capped_keys + seeded.capped_keys,
        groups: set.groups,
        boilerplate: set.boilerplate,
        source: set.source,
    }
}
