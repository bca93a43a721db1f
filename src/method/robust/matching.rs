//! Matching sentences and tiling blocks inside one comparison: the sentence predicate (lengths
//! within δ, term sets within τ, a shared anchor), prefix filtering to find matching pairs
//! without checking all of them, diagonal runs and greedy tiling.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap};

use super::{RobustBlock, RobustProfile, RobustSlst, Term, Unit};

/// Below this many sentence pairs, a comparison checks every pair instead of indexing B.
pub(super) const SMALL_PAIR: usize = 1024;

/// How many of two sentences' anchors (the first `k` of each sorted id list) they share.
pub(super) fn shared_anchors<T: Term>(x: &[T], y: &[T], k: usize) -> usize {
    let (x, y) = (&x[..k.min(x.len())], &y[..k.min(y.len())]);
    x.iter().filter(|t| y.contains(t)).count()
}

/// How two sorted term sets agree, in one merge: their Jaccard coefficient, the figures (terms
/// with a digit) both hold, and the figures either holds.
pub(super) fn agreement<T: Term>(x: &[T], y: &[T]) -> (f64, usize, usize) {
    let is_figure = |t: T| t.is_figure();
    let (mut i, mut j, mut common, mut shared, mut either) = (0, 0, 0usize, 0usize, 0usize);
    while i < x.len() && j < y.len() {
        match x[i].cmp(&y[j]) {
            Ordering::Less => {
                either += usize::from(is_figure(x[i]));
                i += 1;
            }
            Ordering::Greater => {
                either += usize::from(is_figure(y[j]));
                j += 1;
            }
            Ordering::Equal => {
                common += 1;
                if is_figure(x[i]) {
                    shared += 1;
                    either += 1;
                }
                i += 1;
                j += 1;
            }
        }
    }
    either += x[i..]
        .iter()
        .chain(&y[j..])
        .filter(|&&t| is_figure(t))
        .count();
    let union = x.len() + y.len() - common;
    let jaccard = if union == 0 {
        0.0
    } else {
        common as f64 / union as f64
    };
    (jaccard, shared, either)
}

/// The size of the intersection of two sorted sets of hashes.
pub(super) fn common<T: Ord>(x: &[T], y: &[T]) -> usize {
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < x.len() && j < y.len() {
        match x[i].cmp(&y[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    common
}

/// Of the smaller of two sorted sets of hashes, the share the other holds too; 1 when either
/// is empty (nothing to disagree on).
pub(super) fn containment<T: Ord>(x: &[T], y: &[T]) -> f64 {
    match x.len().min(y.len()) {
        0 => 1.0,
        smaller => common(x, y) as f64 / smaller as f64,
    }
}

/// The fewest elements of a set of `s` (> 0) that another must hold for [`containment`] to
/// reach `least`, by the very division it makes; `None` when even all `s` fall short.
fn fewest_common(s: usize, least: f64) -> Option<usize> {
    let reaches = |k: usize| k as f64 / s as f64 >= least;
    let mut needed = ((least * s as f64).ceil().max(0.0) as usize).min(s + 1);
    while needed > 0 && reaches(needed - 1) {
        needed -= 1;
    }
    while needed <= s && !reaches(needed) {
        needed += 1;
    }
    (needed <= s).then_some(needed)
}

/// A set of term ids in 16 bytes: its size and a 64-bit signature (one bit per element, chosen
/// by six of its hash bits). An element whose bit the other set's signature lacks is surely not
/// in it, so two signatures bound the common elements from above — enough to refuse most pairs
/// whose figures disagree without reading either set. A corpus join keeps one per document in
/// a dense column: the sets themselves lie in the profiles, one cache miss away each.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct SetSignature {
    len: u32,
    bits: u64,
}

impl SetSignature {
    /// The signature of a sorted, distinct set of term ids.
    pub(super) fn of(set: &[u64]) -> Self {
        SetSignature {
            len: set.len().min(u32::MAX as usize) as u32,
            // Bits 1 to 6 of an id are hash bits (bit 0 marks a figure, the top byte a length).
            bits: set.iter().fold(0, |bits, &t| bits | 1 << ((t >> 1) & 63)),
        }
    }

    /// True when the sets' [`containment`] is surely below `least`; false says nothing.
    pub(super) fn surely_below(self, other: SetSignature, least: f64) -> bool {
        let (small, large) = if self.len <= other.len {
            (self, other)
        } else {
            (other, self)
        };
        if small.len == 0 {
            return 1.0 < least;
        }
        let Some(needed) = fewest_common(small.len as usize, least) else {
            return true;
        };
        // Each bit the smaller set has and the larger lacks is at least one element missing.
        let missing = (small.bits & !large.bits).count_ones() as usize;
        (small.len as usize) - missing < needed
    }
}

/// Whether [`containment`]`(x, y) ≥ least`, deciding as soon as the answer is known: the
/// smaller set's elements are looked up in the larger by galloping, and the walk stops once
/// enough of them are found or too many are missing. The same answer as comparing
/// [`containment`] (the same division), at a fraction of its cost on the pairs it refuses: a
/// corpus join asks it for every pair that passes its count (figure sets of market tables run
/// to hundreds).
pub(super) fn contains_at_least(x: &[u64], y: &[u64], least: f64) -> bool {
    let (small, large) = if x.len() <= y.len() { (x, y) } else { (y, x) };
    if small.is_empty() {
        return 1.0 >= least;
    }
    let Some(needed) = fewest_common(small.len(), least) else {
        return false;
    };
    let allowed_misses = small.len() - needed;
    let (mut found, mut missed, mut j) = (0usize, 0usize, 0usize);
    for &t in small {
        if found >= needed {
            return true;
        }
        // Gallop from `j` to the first element of `large` not below `t`.
        let mut step = 1;
        let mut hi = j;
        while hi < large.len() && large[hi] < t {
            j = hi + 1;
            hi += step;
            step *= 2;
        }
        let hi = hi.min(large.len());
        j += large[j..hi].partition_point(|&v| v < t);
        if j < large.len() && large[j] == t {
            found += 1;
            j += 1;
        } else {
            missed += 1;
            if missed > allowed_misses {
                return false;
            }
        }
    }
    found >= needed
}

/// The Jaccard coefficient of two sorted sets of hashes.
pub(super) fn jaccard<T: Ord>(x: &[T], y: &[T]) -> f64 {
    let common = common(x, y);
    let union = x.len() + y.len() - common;
    if union == 0 {
        0.0
    } else {
        common as f64 / union as f64
    }
}

/// How many of a set's terms (in the global order) must be indexed so that any set with Jaccard
/// ≥ τ shares one of them: |x| − ⌈τ·|x|⌉ + 1, computed with a small slack so that rounding can
/// only make the prefix longer (never lose a candidate).
pub fn prefix_len(size: usize, tau: f64) -> usize {
    if size == 0 {
        return 0;
    }
    let needed = ((tau * size as f64) - 1e-9).ceil().max(1.0) as usize;
    (size + 1).saturating_sub(needed).clamp(1, size)
}

/// The prefix of a term set under an order given by `rank` (smaller first; ties by hash).
pub(super) fn prefix<T: Term>(terms: &[T], tau: f64, rank: &impl Fn(T) -> u32) -> Vec<T> {
    let mut ordered: Vec<T> = terms.to_vec();
    ordered.sort_unstable_by_key(|&t| (rank(t), t));
    ordered.truncate(prefix_len(terms.len(), tau));
    ordered
}

/// The canonical order of two robust profiles (their sentences' lengths and term sets,
/// lexicographically): tiling always runs with the smaller first, so that greedy ties cannot
/// make `compare(a, b)` and `compare(b, a)` differ.
pub(super) fn canonical<T: Term>(a: &RobustProfile, b: &RobustProfile) -> Ordering {
    fn key<T: Term>(p: &RobustProfile) -> impl Iterator<Item = (u16, &[T])> {
        p.sentences.iter().map(|s| (s.length, p.terms_of::<T>(s)))
    }
    key::<T>(a).cmp(key::<T>(b))
}

impl RobustSlst {
    /// Two sentences match: lengths within δ, term sets within τ and, with the anchor rule, one
    /// shared anchor. Returns their term Jaccard.
    pub(super) fn matches<T: Term>(&self, x: Unit<T>, y: Unit<T>) -> Option<f64> {
        if x.length.abs_diff(y.length) as usize > self.config.length_tolerance {
            return None;
        }
        // Size filter: J ≤ min(|x|, |y|) / max(|x|, |y|).
        let (nx, ny) = (x.terms.len() as f64, y.terms.len() as f64);
        if nx.min(ny) < self.config.term_similarity * nx.max(ny) - 1e-9 {
            return None;
        }
        let j = jaccard(x.terms, y.terms);
        let k = self.config.anchor_terms;
        (j >= self.config.term_similarity && (k == 0 || shared_anchors(x.terms, y.terms, k) >= 1))
            .then_some(j)
    }

    /// A matching pair that forms a block on its own.
    pub(super) fn single<T: Term>(&self, x: Unit<T>, y: Unit<T>, j: f64) -> bool {
        let s = self.config.single_min_terms;
        s > 0
            && x.length as usize >= s
            && y.length as usize >= s
            && j >= self.config.single_similarity
            && (self.config.anchor_terms == 0
                || shared_anchors(x.terms, y.terms, self.config.anchor_terms) >= 2)
    }

    /// Matching sentence pairs (i, j, Jaccard), by prefix filtering under the two documents'
    /// own term frequencies.
    pub(super) fn sentence_pairs<T: Term>(
        &self,
        a: &RobustProfile,
        b: &RobustProfile,
    ) -> Vec<(usize, usize, f64)> {
        if a.len() * b.len() <= SMALL_PAIR {
            // Short documents (news items, answers): every pair, without building an index.
            self.all_sentence_pairs::<T>(a, b)
        } else {
            self.indexed_sentence_pairs::<T>(a, b)
        }
    }

    /// Matching sentence pairs by checking every pair (the oracle of the indexed search).
    pub(super) fn all_sentence_pairs<T: Term>(
        &self,
        a: &RobustProfile,
        b: &RobustProfile,
    ) -> Vec<(usize, usize, f64)> {
        let mut out = Vec::new();
        for i in 0..a.len() {
            let x = a.unit::<T>(i);
            for j in 0..b.len() {
                if let Some(sim) = self.matches(x, b.unit::<T>(j)) {
                    out.push((i, j, sim));
                }
            }
        }
        out
    }

    /// Matching sentence pairs through an index over B's prefix terms. Matching sentences
    /// have J ≥ τ and so share a prefix term, anchors or not; under the local order below the
    /// prefixes are more selective than the anchors (docs/benchmarks.md, "One pair of
    /// documents").
    pub(super) fn indexed_sentence_pairs<T: Term>(
        &self,
        a: &RobustProfile,
        b: &RobustProfile,
    ) -> Vec<(usize, usize, f64)> {
        let tau = self.config.term_similarity;
        // Any global order is exact. Long documents: rarest first (by the number of sentences
        // holding a term in the two documents), so that common terms rarely enter a prefix.
        let mut freq: HashMap<T, u32, foldhash::fast::RandomState> = HashMap::default();
        for p in [a, b] {
            for s in &p.sentences {
                for &t in p.terms_of::<T>(s) {
                    *freq.entry(t).or_insert(0) += 1;
                }
            }
        }
        let rank = |t: T| freq.get(&t).copied().unwrap_or(0);
        let mut index: HashMap<T, Vec<u32>, foldhash::fast::RandomState> = HashMap::default();
        for (j, s) in b.sentences.iter().enumerate() {
            for t in prefix(b.terms_of::<T>(s), tau, &rank) {
                index.entry(t).or_default().push(j as u32);
            }
        }
        let mut seen = vec![usize::MAX; b.len()];
        let mut out = Vec::new();
        for i in 0..a.len() {
            let s = a.unit::<T>(i);
            for t in prefix(s.terms, tau, &rank) {
                for &j in index.get(&t).map(Vec::as_slice).unwrap_or_default() {
                    let j = j as usize;
                    if seen[j] == i {
                        continue;
                    }
                    seen[j] = i;
                    if let Some(sim) = self.matches(s, b.unit::<T>(j)) {
                        out.push((i, j, sim));
                    }
                }
            }
        }
        out
    }

    /// Blocks of `a` against `b`, tiled with `a` first.
    pub(super) fn tiled<T: Term>(
        &self,
        a: &RobustProfile,
        b: &RobustProfile,
    ) -> (Vec<RobustBlock>, usize) {
        let mut pairs = self.sentence_pairs::<T>(a, b);
        let found = pairs.len();
        // Diagonal runs.
        pairs.sort_unstable_by_key(|&(i, j, _)| (i as isize - j as isize, i));
        if pairs.is_empty() {
            return (Vec::new(), 0);
        }
        let mut by_pair: Vec<(usize, usize, f64)> = pairs.clone();
        by_pair.sort_unstable_by_key(|&(i, j, _)| (i, j));
        let lookup = |i: usize, j: usize| -> Option<f64> {
            by_pair
                .binary_search_by_key(&(i, j), |&(x, y, _)| (x, y))
                .ok()
                .map(|k| by_pair[k].2)
        };
        let single_at = |i: usize, j: usize| {
            lookup(i, j).is_some_and(|sim| self.single(a.unit::<T>(i), b.unit::<T>(j), sim))
        };
        let valid = |i: usize, j: usize, len: usize| {
            len >= self.config.min_block || (0..len).all(|k| single_at(i + k, j + k))
        };
        let mut candidates: Vec<(usize, usize, usize)> = Vec::new();
        for run in pairs.chunk_by(|x, y| {
            x.0 as isize - x.1 as isize == y.0 as isize - y.1 as isize && y.0 == x.0 + 1
        }) {
            let (i, j, len) = (run[0].0, run[0].1, run.len());
            if valid(i, j, len) {
                candidates.push((i, j, len));
            } else {
                candidates.extend(
                    run.iter()
                        .filter(|x| single_at(x.0, x.1))
                        .map(|x| (x.0, x.1, 1)),
                );
            }
        }
        // Greedy tiling, longest first (ties: start in A, then in B); a block cut around used
        // sentences goes back as its valid pieces.
        let mut used_a = vec![false; a.len()];
        let mut used_b = vec![false; b.len()];
        let key = |&(i, j, len): &(usize, usize, usize)| (len, Reverse(i), Reverse(j));
        let mut heap: BinaryHeap<_> = candidates.iter().map(|c| (key(c), *c)).collect();
        let mut kept: Vec<(usize, usize, usize)> = Vec::new();
        while let Some((_, (i, j, len))) = heap.pop() {
            let free = |k: usize| !used_a[i + k] && !used_b[j + k];
            if (0..len).all(free) {
                used_a[i..i + len].fill(true);
                used_b[j..j + len].fill(true);
                kept.push((i, j, len));
                continue;
            }
            let mut k = 0;
            while k < len {
                if !free(k) {
                    k += 1;
                    continue;
                }
                let start = k;
                while k < len && free(k) {
                    k += 1;
                }
                if valid(i + start, j + start, k - start) {
                    let piece = (i + start, j + start, k - start);
                    heap.push((key(&piece), piece));
                }
            }
        }
        kept.sort_unstable();
        let blocks = kept
            .into_iter()
            .map(|(i, j, len)| RobustBlock {
                a_start: i,
                b_start: j,
                len,
                a_span: [a.sentences[i].start, a.sentences[i + len - 1].end],
                b_span: [b.sentences[j].start, b.sentences[j + len - 1].end],
                min_term_similarity: (0..len)
                    .map(|k| lookup(i + k, j + k).unwrap_or(0.0))
                    .fold(1.0, f64::min),
            })
            .collect();
        (blocks, found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn set(v: Vec<u8>) -> Vec<u64> {
        let mut v: Vec<u64> = v.into_iter().map(u64::from).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    #[test]
    fn contains_at_least_on_hand_checked_sets() {
        let (x, y) = ([1, 2, 3, 4, 5], [2, 3, 4, 5, 9, 10, 11]);
        // 4 of the smaller's 5 in the other: 0.8.
        assert!(contains_at_least(&x, &y, 0.8));
        assert!(!contains_at_least(&x, &y, 0.81));
        assert!(contains_at_least(&y, &x, 0.8));
        assert!(contains_at_least(&[], &y, 1.0));
        assert!(!contains_at_least(&x, &[6, 7], 0.1));
    }

    #[test]
    fn a_signature_refuses_sets_it_can_tell_apart() {
        // Ids with distinct hash bits 1..6: 2·k + 1 (figures) sets bit k.
        let id = |k: u64| 2 * k + 1;
        let x: Vec<u64> = (0..5).map(id).collect();
        let y: Vec<u64> = (3..12).map(id).collect();
        let (sx, sy) = (SetSignature::of(&x), SetSignature::of(&y));
        // 2 of 5 in common: surely below 0.8, not surely below 0.4.
        assert!(sx.surely_below(sy, 0.8));
        assert!(!sx.surely_below(sy, 0.4));
        assert!(!SetSignature::of(&[]).surely_below(sy, 1.0));
    }

    proptest! {
        #[test]
        fn a_signature_never_refuses_what_containment_keeps(
            x in proptest::collection::vec(any::<u64>(), 0..30),
            y in proptest::collection::vec(any::<u64>(), 0..60),
            shared in proptest::collection::vec(any::<u64>(), 0..30),
            least in prop_oneof![Just(0.0), Just(0.8), Just(1.0), 0.0f64..1.0],
        ) {
            let sorted = |mut v: Vec<u64>| { v.sort_unstable(); v.dedup(); v };
            let x = sorted(x.into_iter().chain(shared.iter().copied()).collect());
            let y = sorted(y.into_iter().chain(shared).collect());
            if SetSignature::of(&x).surely_below(SetSignature::of(&y), least) {
                prop_assert!(containment(&x, &y) < least);
            }
        }

        #[test]
        fn contains_at_least_agrees_with_containment(
            x in proptest::collection::vec(0u8..60, 0..40),
            y in proptest::collection::vec(0u8..60, 0..80),
            least in prop_oneof![Just(0.0), Just(0.5), Just(0.8), Just(1.0), 0.0f64..1.0],
        ) {
            let (x, y) = (set(x), set(y));
            prop_assert_eq!(contains_at_least(&x, &y, least), containment(&x, &y) >= least);
        }
    }
}
