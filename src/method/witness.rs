//! What a join outside this library (the Spark job) needs of a method that prunes its pairs by
//! counting witnessed units: [`Witness`] keys and the [`WitnessJoin`] operations.
//!
//! Robust SL+ST's corpus join ([`super::Detector::corpus_candidates`]) counts, per pair, the
//! units of one document witnessed by a key the other holds; every unit in a block is witnessed,
//! so the count bounds the units in blocks, and a pair whose count cannot satisfy the report's
//! rule is never compared. A distributed join does the same with these operations, each the
//! very function the corpus join prunes by, so that both find the same pairs.
//!
//! The operations live in a trait of their own rather than on [`super::Detector`]: a new method
//! implements `Detector` and need not know of them. A method with such a join returns itself
//! from [`super::Detector::external_join`]; the default is `None`, and every caller (the index,
//! the Python package) then falls back to the method's keys.

use super::PairRule;

/// A witness key of a unit ([`WitnessJoin::witness_keys`]): a key of a block step (or of a block
/// of one unit pair) and one of the units it witnesses, with the lengths of the step's units (a
/// one-unit key: its unit's, twice), capped at 255 (capping only shrinks differences). Two
/// documents share a witness when they hold the same key with lengths that fit: a key held
/// with lengths far apart is shared by chance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Witness {
    /// The key.
    pub key: u64,
    /// The unit it witnesses.
    pub unit: u32,
    /// The lengths of the units of its step (of its unit, twice).
    pub lengths: [u8; 2],
}

impl Witness {
    /// Whether two witnesses' lengths differ by at most `tolerance`, each
    /// ([`WitnessJoin::witness_tolerance`]).
    pub fn fits(self, other: Witness, tolerance: usize) -> bool {
        lengths_fit(self.lengths, other.lengths, tolerance)
    }
}

/// Whether two witnesses' lengths differ by at most `tolerance`, each.
pub(crate) fn lengths_fit(a: [u8; 2], b: [u8; 2], tolerance: usize) -> bool {
    a[0].abs_diff(b[0]) as usize <= tolerance && a[1].abs_diff(b[1]) as usize <= tolerance
}

/// A witness join over sketches of type `S`, for a join outside this library (robust SL+ST
/// implements it for its profiles; reached through [`super::Detector::external_join`]).
///
/// The witness operations are required; the word operations, for pairs a method reports on
/// their words alone, default to `None` (no word rule).
pub trait WitnessJoin<S>: Send + Sync {
    /// Witness keys: [`Witness`]es such that every unit of A in a block of a comparison with B
    /// has a witness whose key B also holds in a witness whose lengths fit
    /// ([`WitnessJoin::witness_tolerance`]), so the units of A witnessed by B bound the units in
    /// blocks (with [`WitnessJoin::may_keep_matched`], a distributed join prunes as the corpus
    /// join does).
    fn witness_keys(&self, sketch: &S) -> Vec<Witness>;

    /// How far the lengths of two witnesses of one key may differ, each, for the key to
    /// witness ([`Witness::fits`]).
    fn witness_tolerance(&self) -> usize;

    /// When each unit looks up its rare keys alone: `(rare_df, rare_budget)`, what
    /// [`rare_bounds`](crate::method::rare_bounds) takes. `None` (the default): every key.
    fn rare_keys(&self) -> Option<(usize, usize)> {
        None
    }

    /// Whether `matched` units in blocks, between documents of `units_a` and `units_b` units,
    /// could satisfy `rule` (increasing in `matched`): the bound a join of
    /// [`WitnessJoin::witness_keys`] prunes by.
    fn may_keep_matched(
        &self,
        matched: usize,
        units_a: usize,
        units_b: usize,
        rule: PairRule,
    ) -> bool;

    /// What [`WitnessJoin::may_keep_pair`] reads of a document besides its units, as sorted
    /// 64-bit values (robust SL+ST: its figures' ids), so that a distributed join can screen
    /// its candidate pairs before it moves their sketches. Default: `None`, no such check.
    fn pair_check_values(&self, _sketch: &S) -> Option<Vec<u64>> {
        None
    }

    /// Whether two documents of `units_a` and `units_b` units, with these
    /// [`WitnessJoin::pair_check_values`], could be kept under `rule`: false only for a pair
    /// that comparing would surely not keep (robust SL+ST: reporting duplicates, figures that
    /// disagree — the check the corpus join makes before it compares a pair). Default: true.
    fn may_keep_pair(&self, _a: (usize, &[u64]), _b: (usize, &[u64]), _rule: PairRule) -> bool {
        true
    }

    /// Word keys, for the pairs a method reports on their words alone, which a count of
    /// witnessed units does not bound (robust SL+ST's [`RobustConfig::vocabulary`]): a key for
    /// each term of the vocabulary, so that any two documents the decision keeps but
    /// [`WitnessJoin::may_keep_matched`] rules out on their witnessed units share one among any
    /// |x| − ⌈v·|x|⌉ + 1 of x's keys (v from [`WitnessJoin::word_join`]). An index stores them
    /// all among its [`super::Detector::index_keys`] and looks a query up by its rarest.
    /// Default: `None`, no such pairs.
    ///
    /// [`RobustConfig::vocabulary`]: crate::method::RobustConfig::vocabulary
    fn word_keys(&self, _sketch: &S) -> Option<Vec<u64>> {
        None
    }

    /// The terms the word rule compares (robust SL+ST's whole-text vocabulary, sorted), for a
    /// join outside this library that orders them by its own document frequencies, as the
    /// corpus join does ([`WitnessJoin::word_join`]). Every document's terms count in those
    /// frequencies, but a document without a kept unit (no
    /// [`super::Detector::sentence_counts`] sentences) can have no block, so no pair on words.
    /// Default: `None`, no word rule.
    fn vocabulary(&self, _sketch: &S) -> Option<Vec<u64>> {
        None
    }

    /// The word rule's level v (a pair whose vocabularies have a Jaccard coefficient of at least
    /// v may be reported on its words) and the most documents whose prefix a term may be in
    /// for the corpus join to look it up (besides its `max_df`): what a join of
    /// [`WitnessJoin::vocabulary`] needs to find the pairs a corpus run finds. Default: `None`.
    fn word_join(&self) -> Option<(f64, usize)> {
        None
    }
}
