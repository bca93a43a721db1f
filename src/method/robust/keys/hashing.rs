//! The hashes of the corpus keys: a key from an ordered pair of terms, and the min-wise picks
//! that sample a step's pair keys among its anchors.

/// Marks the second sentence's term in a pair key, so that pair keys and single keys differ.
pub(in crate::method::robust) const PAIR_SEED: u64 = 0x5ee1_7e55_0b0c_0001;
/// Marks single keys.
pub(in crate::method::robust) const SINGLE_SEED: u64 = 0x5ee1_7e55_0b0c_0002;

/// Seeds the min-wise hashes that pick a pair of neighbouring sentences' sampled keys.
const MIN_WISE_SEED: u64 = 0x5ee1_7e55_0b0c_0003;

/// The term of `terms` (a sentence's anchors or prefix) whose `h`-th min-wise hash
/// is least: two sentences with the same anchors pick the same one for every `h`, two whose
/// anchor sets have Jaccard J for a share J of the hashes. Hashes of distinct terms never tie
/// (the hash is a bijection of the term for each `h`), so the pick does not depend on the
/// order of `terms`.
pub(super) fn min_wise<T: Copy + Into<u64>>(terms: &[T], h: u64) -> Option<T> {
    min_wise_place(terms.len(), |j| terms[j].into(), h).map(|j| terms[j])
}

/// A sentence's key terms the min-wise picks are made among: the first this many (what a pick's
/// place holds, [`NO_PICK`] aside).
pub(super) const PICKED_AMONG: usize = u8::MAX as usize;

/// No pick: the sentence has no key terms.
pub(super) const NO_PICK: u8 = u8::MAX;

/// The place, among the first [`PICKED_AMONG`] of `len` key terms whose ids `id(j)` gives, of
/// the term whose `h`-th min-wise hash is least: the hash reads the term's *id*, so the pick is
/// the same in a profile of ids and in one of corpus term ranks.
pub(super) fn min_wise_place(len: usize, id: impl Fn(usize) -> u64, h: u64) -> Option<usize> {
    (0..len.min(PICKED_AMONG)).min_by_key(|&j| pair_key(id(j), h, MIN_WISE_SEED))
}

/// Sampled pair keys up to this many per step reuse each sentence's min-wise picks; more are
/// picked afresh for each step.
pub(super) const KEPT_PICKS: usize = 8;

/// The terms of `terms` that [`min_wise`] picks for the first `n` ≤ [`KEPT_PICKS`] hashes, as
/// ids — or, given their `places` among `terms` (made on the terms' ids when `terms` are
/// corpus ranks), those; `None` for a sentence without terms (no keys).
pub(super) fn picks<T: Copy + Into<u64>>(
    terms: &[T],
    places: Option<&[u8]>,
    n: usize,
) -> Option<[u64; KEPT_PICKS]> {
    let mut out = [0; KEPT_PICKS];
    for (h, out) in out[..n].iter_mut().enumerate() {
        *out = pick(terms, places, h)?.into();
    }
    Some(out)
}

/// The term of `terms` that the `h`-th min-wise hash picks: at its place in `places` when
/// given (made on the terms' ids when `terms` are corpus ranks), else by [`min_wise`]; `None`
/// for a sentence without terms.
pub(super) fn pick<T: Copy + Into<u64>>(terms: &[T], places: Option<&[u8]>, h: usize) -> Option<T> {
    match places {
        Some(places) => terms.get(places[h] as usize).copied(),
        None => min_wise(terms, h as u64),
    }
}

/// A 64-bit key for an ordered pair of term ids and a seed: two rounds of the SplitMix64
/// finaliser. Keys only need to be equal for equal inputs: a collision can only add a candidate
/// pair, never lose one.
pub(in crate::method::robust) fn pair_key(p: u64, q: u64, seed: u64) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    // The seed is mixed first: seeds that differ in a few bits must not pair up ids that
    // differ in the same bits.
    mix(mix(p ^ mix(seed)).wrapping_add(q))
}
