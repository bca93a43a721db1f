//! Pairs that are duplicates on their words ([`RobustConfig::vocabulary`]): their keys, the
//! cheap test that rules a pair out, and their candidates in a corpus.
//!
//! Two texts whose distinct terms have a Jaccard coefficient of at least v share a term among
//! the first |x| − ⌈v·|x|⌉ + 1 of each, in any global order of the terms (prefix filtering, as
//! for sentences: module docs of [`super`]). Such a pair need not have enough of its sentences
//! in blocks to be counted by the witness join, so its candidates come from these prefixes
//! instead: in a corpus run, under document frequency (rarest first: on Reuters-21578 the
//! pairs sharing a prefix term fall from 1.8 million in id order to a few thousand), then
//! those whose vocabulary sizes could reach v, that could have a block, and whose figures the
//! report's rule admits. A distributed job ranks the vocabularies by its own document
//! frequencies ([`crate::method::WitnessJoin::vocabulary`]). An index stores every term as a
//! *word key* ([`crate::method::WitnessJoin::word_keys`]) and looks a query up by its rarest
//! keys under the stored document frequencies: in id order (longest terms first, as in
//! [`crate::Detector::duplicate_keys`], which needs no statistics) a Reuters-21578 query met
//! 2,496 documents at the median, rarest first far fewer.
//!
//! [`RobustConfig::vocabulary`]: super::RobustConfig::vocabulary

use rayon::prelude::*;

use super::keys::pair_key;
use super::matching::{self, prefix_len};
use super::{RobustProfile, RobustSlst};
use crate::method::PairRule;

/// What the word join's pair checks read of a document: its vocabulary size, the length and
/// last term of its indexed prefix ([`RobustSlst::indexed`]), its buckets.
struct Side {
    size: u32,
    indexed: u32,
    last: Option<u32>,
    buckets: Buckets,
}

/// Marks word keys, so that they differ from the sentence keys.
const WORD_SEED: u64 = 0x5ee1_7e55_0b0c_0003;

/// What the word rule needs of a document in a corpus run: the size of its vocabulary, the
/// prefix of its vocabulary under the corpus order (term ranks by document frequency,
/// ascending), and how its terms fall into buckets.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct Words {
    pub(super) size: u32,
    pub(super) prefix: Box<[u32]>,
    pub(super) buckets: Buckets,
}

/// How many of a vocabulary's terms fall in each of 32 buckets (by five bits of a hash of their
/// rank in the corpus; 255 stands for 255 or more). Two vocabularies share at most, in each
/// bucket, the smaller of their counts: a bound on their overlap for 32 bytes a document. Of
/// the pairs a corpus join brings to the exact Jaccard coefficient it rules out 92% on
/// Reuters-21578 and on the synthetic corpus of `scripts/bench_peers.sh`, where computing the
/// vocabularies of all of them was most of the join's time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Buckets([u8; 32]);

impl Buckets {
    /// The buckets of a vocabulary given as distinct term ranks.
    fn of(ranks: &[u32]) -> Self {
        let mut counts = [0u8; 32];
        for &r in ranks {
            // The top five bits of a multiplicative hash (ranks are dense, so their own low
            // bits would follow document frequency).
            let count = &mut counts[(r.wrapping_mul(0x9e37_79b9) >> 27) as usize];
            *count = count.saturating_add(1);
        }
        Buckets(counts)
    }

    /// An upper bound on how many terms the two vocabularies share.
    fn most_shared(&self, other: &Buckets) -> u32 {
        // Written so that it compiles to a few vector instructions: a corpus join asks it of
        // every pair its prefixes leave (17 million at 300,000 synthetic documents).
        let (mut sum, mut top) = (0u32, 0u8);
        for (&x, &y) in self.0.iter().zip(&other.0) {
            let least = x.min(y);
            sum += u32::from(least);
            top = top.max(least);
        }
        // Both counts of a bucket are at least 255: the smaller is not known.
        if top == u8::MAX { u32::MAX / 2 } else { sum }
    }
}

impl RobustSlst {
    /// Whether pairs may be reported on their words under `rule`: the rule keeps the decision's
    /// duplicates (with or without its templates), and the word rule is on.
    pub(super) fn words_decide(&self, rule: PairRule) -> bool {
        self.config.vocabulary > 0.0
            && matches!(rule, PairRule::Duplicates | PairRule::WithTemplates)
    }

    /// The word keys of a profile's vocabulary — all of them, or with `prefix` the prefix in id
    /// order — hashed, sorted (none without a kept sentence: such a document has no block).
    pub(super) fn word_keys_of(&self, p: &RobustProfile, prefix: bool) -> Vec<u64> {
        if self.config.vocabulary == 0.0 || p.is_empty() {
            return Vec::new();
        }
        let vocabulary = p.vocabulary();
        let len = if prefix {
            prefix_len(vocabulary.len(), self.config.vocabulary)
        } else {
            vocabulary.len()
        };
        let mut keys: Vec<u64> = vocabulary[..len]
            .iter()
            .map(|&t| pair_key(t, t, WORD_SEED))
            .collect();
        keys.sort_unstable();
        keys
    }

    /// A profile's vocabulary size, prefix and buckets from the ranks by document frequency of
    /// the terms of its units and windows (each term's rank once or more).
    pub(super) fn words_of(&self, ranks: &mut Vec<u32>) -> Words {
        ranks.sort_unstable();
        ranks.dedup();
        let buckets = Buckets::of(ranks);
        let size = ranks.len();
        Words {
            size: size as u32,
            prefix: ranks[..prefix_len(size, self.config.vocabulary)].into(),
            buckets,
        }
    }

    /// Whether vocabularies of these sizes could have a Jaccard coefficient of at least v.
    fn sizes_fit(&self, x: u32, y: u32) -> bool {
        let (small, large) = (x.min(y) as f64, x.max(y) as f64);
        small > 0.0 && small >= self.config.vocabulary * large - 1e-9
    }

    /// The fewest terms two vocabularies of these sizes share when their Jaccard coefficient is
    /// at least v: v/(1 + v)·(|x| + |y|), less a small slack so that rounding never loses a pair.
    fn overlap_needed(&self, x: u32, y: u32) -> f64 {
        let v = self.config.vocabulary;
        v / (1.0 + v) * f64::from(x + y) - 1e-9
    }

    /// Whether two vocabularies could have a Jaccard coefficient of at least v, from their
    /// sizes and prefixes alone: the sizes are close enough, the prefixes share enough
    /// terms ([`RobustSlst::overlap_may_reach`]), and so do the buckets.
    fn words_may_match(&self, x: &Words, y: &Words) -> bool {
        if !self.sizes_fit(x.size, y.size) {
            return false;
        }
        let shared = matching::common(&x.prefix, &y.prefix);
        shared > 0
            && self.overlap_may_reach((x.size, &x.prefix), (y.size, &y.prefix), shared)
            && self.buckets_may_reach(x, y)
    }

    /// Whether the buckets of two vocabularies leave room for the overlap J ≥ v needs.
    fn buckets_may_reach(&self, x: &Words, y: &Words) -> bool {
        f64::from(x.buckets.most_shared(&y.buckets)) >= self.overlap_needed(x.size, y.size)
    }

    /// Whether `a` and `b` could be a duplicate on their words: in a corpus run, their
    /// vocabularies are similar enough in size, their prefixes share enough terms, and a block could
    /// join them ([`RobustSlst::max_matched`]); and the Jaccard coefficient of their
    /// vocabularies is at least v.
    pub(super) fn may_match_words(&self, a: &RobustProfile, b: &RobustProfile) -> bool {
        if a.is_empty() || b.is_empty() {
            return false;
        }
        if let (Some(x), Some(y)) = (a.corpus.as_deref(), b.corpus.as_deref())
            && (!self.words_may_match(&x.words, &y.words) || self.max_matched(a, b) == Some(0))
        {
            return false;
        }
        RobustProfile::vocabulary_jaccard(a, b, &std::cell::OnceCell::new())
            >= self.config.vocabulary
    }

    /// The pairs `(a, b)`, `a < b`, of a prepared corpus that may be duplicates on their words
    /// ([`RobustSlst::may_match_words`], but for prefix terms held by more than `max_df`
    /// documents: those are left out, and counted, as the sentence keys are) and which
    /// `admits` lets through; sorted, without repeats.
    ///
    /// Each document's prefix terms are looked up among the documents before it in (vocabulary
    /// size, index) order whose sizes fit, counting per document the prefix terms shared
    /// (AllPairs, Bayardo et al. 2007): a pair is dropped as soon as its count, with every
    /// term either holds after the one just met, falls short of the overlap J ≥ v needs (the
    /// positional filter of PPJoin, Xiao et al. 2008; it leaves a quarter of the pairs met on
    /// the synthetic corpus of `scripts/bench_peers.sh`). A pair that shares one rare term and
    /// nothing else — most of them, in a corpus built from a pool of sentences — costs one
    /// count. The pairs left are tested on their prefixes and buckets, then on the rule's
    /// other conditions, and last on their vocabularies.
    pub(super) fn word_pairs(
        &self,
        sketches: &[&RobustProfile],
        admits: &(dyn Fn(usize, usize) -> bool + Sync),
        max_df: usize,
    ) -> (Vec<(usize, usize)>, usize) {
        let Some(words) = sketches
            .iter()
            .map(|p| p.corpus.as_deref().map(|v| &v.words))
            .collect::<Option<Vec<&Words>>>()
        else {
            return (Vec::new(), 0);
        };
        let join = WordJoin::new(self, sketches, &words, admits, max_df.min(WORD_DF));
        let mut pairs: Vec<(usize, usize)> = join
            .order
            .par_iter()
            .map_init(
                || (vec![0u32; join.order.len()], Vec::new()),
                |(count, touched), &x| {
                    let skipped = join.probe(x, count, touched);
                    join.confirm(x, skipped, count, touched)
                },
            )
            .flatten_iter()
            .collect();
        pairs.par_sort_unstable();
        (pairs, join.capped())
    }

    /// Whether two vocabularies whose prefixes share `shared` terms could share as many as a
    /// Jaccard coefficient of v needs, v/(1 + v)·(|x| + |y|): a shared term past the prefix
    /// whose last term ranks first lies outside that prefix, and there are |x| − prefix of
    /// those (of the two, the smaller bound when the last terms rank alike).
    fn overlap_may_reach(&self, x: (u32, &[u32]), y: (u32, &[u32]), shared: usize) -> bool {
        let of = |w: (u32, &[u32])| (w.0, w.1.len() as u32, w.1.last().copied());
        self.overlap_may_reach_by(of(x), of(y), shared)
    }

    /// [`RobustSlst::overlap_may_reach`] with each vocabulary given by its size, its prefix's
    /// length and its prefix's last term.
    fn overlap_may_reach_by(
        &self,
        x: (u32, u32, Option<u32>),
        y: (u32, u32, Option<u32>),
        shared: usize,
    ) -> bool {
        let rest = |w: (u32, u32, Option<u32>)| (w.0 - w.1) as usize;
        let outside = match x.2.cmp(&y.2) {
            std::cmp::Ordering::Less => rest(x),
            std::cmp::Ordering::Greater => rest(y),
            std::cmp::Ordering::Equal => rest(x).min(rest(y)),
        };
        (shared + outside) as f64 >= self.overlap_needed(x.0, y.0)
    }

    /// The part of a document's prefix that the corpus join indexes: J ≥ v with a document at
    /// least as large needs an overlap of at least 2v/(1 + v)·|y|, so the first
    /// |y| − ⌈2v/(1 + v)·|y|⌉ + 1 terms hold a shared one (the larger document's own prefix
    /// is what it looks up by).
    pub(super) fn indexed<'w>(&self, w: &'w Words) -> &'w [u32] {
        let v = self.config.vocabulary;
        let len = prefix_len(w.size as usize, 2.0 * v / (1.0 + v));
        &w.prefix[..len.min(w.prefix.len())]
    }
}

/// The word join of a prepared corpus ([`RobustSlst::word_pairs`]): its postings and what
/// each pair's checks read.
struct WordJoin<'a> {
    detector: &'a RobustSlst,
    sketches: &'a [&'a RobustProfile],
    words: &'a [&'a Words],
    admits: &'a (dyn Fn(usize, usize) -> bool + Sync),
    /// Prefix terms held by more documents are left out.
    cap: usize,
    /// Documents with a prefix in (size, index) order, and each one's place in it (else
    /// `u32::MAX`).
    order: Vec<u32>,
    place: Vec<u32>,
    /// Per term, where its postings start, and one past the last term's.
    start: Vec<u32>,
    /// Each posting, as the lookups read it: (place, position in the prefix, vocabulary size),
    /// list after list, each list in document order; the sizes beside the places, so that a
    /// lookup reads them in order rather than at each place.
    postings: Vec<(u32, u32, u32)>,
    /// What the checks of a pair read of each document, by place, side by side: a pair reads
    /// one record per document instead of following its profile's pointers.
    sides: Vec<Side>,
}

impl<'a> WordJoin<'a> {
    fn new(
        detector: &'a RobustSlst,
        sketches: &'a [&'a RobustProfile],
        words: &'a [&'a Words],
        admits: &'a (dyn Fn(usize, usize) -> bool + Sync),
        cap: usize,
    ) -> Self {
        let n = words.len();
        let mut order: Vec<u32> = (0..n as u32)
            .filter(|&d| !words[d as usize].prefix.is_empty())
            .collect();
        order.sort_unstable_by_key(|&d| (words[d as usize].size, d));
        let mut place = vec![u32::MAX; n];
        for (k, &d) in order.iter().enumerate() {
            place[d as usize] = k as u32;
        }
        // Postings: (term, place, position in the prefix), sorted; each term's list follows
        // document size. A document is looked up only by larger ones (of two as large, later
        // ones), so it is indexed by its shorter *middle* prefix ([`RobustSlst::indexed`]).
        let mut postings: Vec<(u32, u32, u32)> = order
            .par_iter()
            .flat_map_iter(|&d| {
                let p = place[d as usize];
                let indexed = detector.indexed(words[d as usize]).iter();
                (0u32..).zip(indexed).map(move |(j, &t)| (t, p, j))
            })
            .collect();
        postings.par_sort_unstable();
        let terms = postings.last().map_or(0, |x| x.0 as usize + 1);
        let mut start = vec![0u32; terms + 1];
        for &(t, ..) in &postings {
            start[t as usize + 1] += 1;
        }
        for t in 0..terms {
            start[t + 1] += start[t];
        }
        postings
            .par_iter_mut()
            .for_each(|p| *p = (p.1, p.2, words[order[p.1 as usize] as usize].size));
        let sides: Vec<Side> = order
            .par_iter()
            .map(|&d| {
                let w = words[d as usize];
                let indexed = detector.indexed(w);
                Side {
                    size: w.size,
                    indexed: indexed.len() as u32,
                    last: indexed.last().copied(),
                    buckets: w.buckets,
                }
            })
            .collect();
        WordJoin {
            detector,
            sketches,
            words,
            admits,
            cap,
            order,
            place,
            start,
            postings,
            sides,
        }
    }

    /// The terms left out: held by more than `cap` documents.
    fn capped(&self) -> usize {
        let terms = self.start.len() - 1;
        (0..terms as u32)
            .filter(|&t| self.list(t).len() > self.cap)
            .count()
    }

    /// The postings of term `t`.
    fn list(&self, t: u32) -> &[(u32, u32, u32)] {
        match self.start.get(t as usize..t as usize + 2) {
            Some(&[from, to]) => &self.postings[from as usize..to as usize],
            _ => &[],
        }
    }

    /// Looks document `x`'s prefix terms up among the documents before it whose sizes could
    /// fit, counting in `count` (by place) the terms each shares, or marking it [`PRUNED`], and
    /// listing in `touched` the places counted; returns the prefix terms left out.
    fn probe(&self, x: u32, count: &mut [u32], touched: &mut Vec<u32>) -> u32 {
        let (wx, px) = (self.words[x as usize], self.place[x as usize]);
        let least = self.detector.config.vocabulary * f64::from(wx.size) - 1e-9;
        // Prefix terms of x left out so far: any of them may be shared, uncounted.
        let mut skipped = 0u32;
        for (i, &t) in (0u32..).zip(wx.prefix.iter()) {
            let postings = self.list(t);
            if postings.len() > self.cap {
                skipped += 1;
                continue;
            }
            // Documents before x whose sizes could fit.
            let lo = postings.partition_point(|&(_, _, sy)| f64::from(sy) < least);
            let hi = postings.partition_point(|&(k, _, _)| k < px);
            for &(k, j, sy) in postings.get(lo..hi).unwrap_or_default() {
                let c = &mut count[k as usize];
                if *c == PRUNED {
                    continue;
                }
                if *c == 0 {
                    touched.push(k);
                }
                // The terms both hold after this one lie past it in both (the positional
                // filter, Xiao et al. 2008): if even all of those could not make the overlap,
                // the pair is out. Those before it were counted, but for the ones left out.
                let later = (wx.size - i - 1).min(sy - j - 1);
                let most = f64::from(*c + skipped + 1 + later);
                *c = if most >= self.detector.overlap_needed(wx.size, sy) {
                    *c + 1
                } else {
                    PRUNED
                };
            }
        }
        skipped
    }

    /// The pairs of `x` with the documents `probe` counted (clearing their counts) that pass
    /// the checks on prefixes and buckets, `admits`, and the rule's: `(a, b)`, `a < b`.
    fn confirm(
        &self,
        x: u32,
        skipped: u32,
        count: &mut [u32],
        touched: &mut Vec<u32>,
    ) -> Vec<(usize, usize)> {
        let (detector, wx) = (self.detector, self.words[x as usize]);
        let vocabulary = std::cell::OnceCell::new();
        let mut found = Vec::new();
        for k in touched.drain(..) {
            let shared = std::mem::take(&mut count[k as usize]);
            if shared == PRUNED {
                continue;
            }
            let side = &self.sides[k as usize];
            if f64::from(wx.buckets.most_shared(&side.buckets))
                < detector.overlap_needed(wx.size, side.size)
                || !detector.overlap_may_reach_by(
                    (wx.size, wx.prefix.len() as u32, wx.prefix.last().copied()),
                    (side.size, side.indexed, side.last),
                    (shared + skipped) as usize,
                )
            {
                continue;
            }
            let y = self.order[k as usize] as usize;
            let (a, b) = ((x as usize).min(y), (x as usize).max(y));
            if (self.admits)(a, b)
                && detector.max_matched(self.sketches[a], self.sketches[b]) != Some(0)
                && RobustProfile::vocabulary_jaccard(
                    self.sketches[x as usize],
                    self.sketches[y],
                    &vocabulary,
                ) >= detector.config.vocabulary
            {
                found.push((a, b));
            }
        }
        found
    }
}

/// A count of shared prefix terms that the positional filter has ruled out.
const PRUNED: u32 = u32::MAX;

/// The most documents a prefix term is looked up in (besides `max_df`): a term held by more is
/// left out, and counted, as boilerplate. On 100,000 synthetic documents (a corpus built from a
/// pool of sentences, where the rarest terms of a document are held by hundreds) this halves
/// the time of the word join (100 → 30 would cost 5 of its 26 pairs); on Reuters-21578 no
/// pair rests on a term held by more.
pub(super) const WORD_DF: usize = 100;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_never_bound_the_overlap_below_it() {
        for (x, y) in [
            (0..100, 50..150),
            (0..10, 0..10),
            (0..40, 100..140),
            // More than 255 terms a bucket: saturated counts must not cut the bound.
            (0..20_000, 5_000..25_000),
            (0..20_000, 0..300),
        ] {
            let (x, y): (Vec<u32>, Vec<u32>) = (x.collect(), y.collect());
            let shared = matching::common(&x, &y) as u32;
            let most = Buckets::of(&x).most_shared(&Buckets::of(&y));
            assert!(most >= shared, "{most} < {shared}");
        }
        // Sets whose terms fall in other buckets share nothing.
        let bucket = |r: u32| r.wrapping_mul(0x9e37_79b9) >> 27;
        let (low, high): (Vec<u32>, Vec<u32>) = (0..200).partition(|&r| bucket(r) < 16);
        assert!(!low.is_empty() && !high.is_empty());
        assert_eq!(Buckets::of(&low).most_shared(&Buckets::of(&high)), 0);
    }
}
