//! What the report's rule lets a witness join skip: the fewest sentences in blocks a pair of
//! sizes needs ([`fewest_matched`], [`Thresholds`]), and so which of a document's sentences its
//! walk must take for every candidate to be found ([`plan_walk`]; prefix filtering over
//! sentences, in the module docs of [`super`]).

use std::sync::atomic::Ordering;

use rayon::prelude::*;

/// For each number of sentences n (index), the fewest sentences in blocks with which a
/// document of n sentences can meet the report's rule against some document of the corpus at
/// least as long (`usize::MAX`: none). With too many distinct sizes, 1 (no pruning, still
/// exact).
///
/// Only documents at least as long count because a witness join finds each pair from its
/// shorter document (ties: the earlier), which needs the larger share of its sentences in
/// blocks (J ≥ θ or containment of the smaller). `sizes` are the corpus's documents' sentence
/// counts (repeats allowed), `may_keep(m, n_a, n_b)` the rule's bound
/// ([`crate::method::WitnessJoin::may_keep_matched`]), increasing in `m`. Public for a witness
/// join outside this library (a Spark job), which must prune as this one does.
pub fn fewest_matched(
    sizes: &[usize],
    may_keep: &(dyn Fn(usize, usize, usize) -> bool + Sync),
) -> Vec<usize> {
    let mut distinct: Vec<usize> = sizes.iter().copied().filter(|&n| n > 0).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let largest = distinct.last().copied().unwrap_or(0);
    if distinct.len() > 512 {
        return vec![1; largest + 1];
    }
    let mut out = vec![usize::MAX; largest + 1];
    out.par_iter_mut().enumerate().for_each(|(na, fewest)| {
        if distinct.binary_search(&na).is_err() {
            return;
        }
        for &nb in distinct.iter().filter(|&&nb| nb >= na) {
            if let Some(least) = fewest_keeping(may_keep, na, nb) {
                *fewest = (*fewest).min(least);
            }
        }
    });
    out
}

/// The fewest sentences in blocks, 1 to the smaller size, with which documents of `na` and
/// `nb` sentences meet the rule (`None`: no number does), by bisection: `may_keep` increases
/// in m, and m = 0 never keeps.
fn fewest_keeping(
    may_keep: &(dyn Fn(usize, usize, usize) -> bool + Sync),
    na: usize,
    nb: usize,
) -> Option<usize> {
    let most = na.min(nb);
    if most == 0 || !may_keep(most, na, nb) {
        return None;
    }
    let (mut lo, mut hi) = (1, most);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if may_keep(mid, na, nb) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}

/// The fewest sentences in blocks with which documents of two sizes can meet the report's rule,
/// found by bisection the first time a pair of sizes is asked for and then kept: the walk asks
/// for every document it touches, and the rule is two closure calls and three divisions.
pub(super) struct Thresholds<'a> {
    may_keep: &'a (dyn Fn(usize, usize, usize) -> bool + Sync),
    /// Per size (index), its place among the corpus's distinct sizes.
    place: Vec<u32>,
    distinct: usize,
    /// The distinct sizes, by place (empty when the table is).
    pub(super) sizes: Vec<usize>,
    /// Per pair of places: 0 not yet known, else the fewest sentences + 1 (the smaller size
    /// + 2: never). Empty with too many or too large sizes: the rule is then asked every time.
    table: Vec<std::sync::atomic::AtomicU32>,
}

impl<'a> Thresholds<'a> {
    pub(super) fn new(
        sizes: &[usize],
        may_keep: &'a (dyn Fn(usize, usize, usize) -> bool + Sync),
    ) -> Self {
        let mut distinct: Vec<usize> = sizes.to_vec();
        distinct.sort_unstable();
        distinct.dedup();
        // Kept for up to 512 distinct sizes of up to 65,535 sentences (a table of 1 MiB at
        // most); past that the rule is asked every time.
        let kept = distinct.len() <= 512 && distinct.last().is_none_or(|&n| n < 1 << 16);
        let mut place = vec![
            0;
            if kept {
                distinct.last().map_or(0, |&n| n + 1)
            } else {
                0
            }
        ];
        for (k, &n) in distinct.iter().enumerate().filter(|_| kept) {
            place[n] = k as u32;
        }
        let cells = if kept {
            distinct.len() * distinct.len()
        } else {
            0
        };
        Thresholds {
            may_keep,
            place,
            distinct: distinct.len(),
            table: (0..cells).map(|_| Default::default()).collect(),
            sizes: if kept { distinct } else { Vec::new() },
        }
    }

    /// The place of each size in the table, if it is kept (at most 512, so in two bytes).
    pub(super) fn place_of(&self, size: usize) -> Option<u16> {
        (!self.table.is_empty()).then(|| self.place[size] as u16)
    }

    /// With the table kept, the least count + 1 that may meet the rule for sizes `len_a` and
    /// that at `place_b` (`u32::MAX`: none): `m` sentences in blocks, at most the smaller size,
    /// may keep the pair when m + 1 reaches it, as [`Thresholds::may_keep`] says.
    pub(super) fn needed(&self, len_a: usize, place_b: u16) -> u32 {
        let len_b = self.sizes[place_b as usize];
        let known = self.known(len_a, len_b);
        if known > len_a.min(len_b) + 1 {
            u32::MAX
        } else {
            known as u32
        }
    }

    /// The table's cell for sizes `len_a` and `len_b`, filled when first asked for.
    fn known(&self, len_a: usize, len_b: usize) -> usize {
        let cell =
            &self.table[self.place[len_a] as usize * self.distinct + self.place[len_b] as usize];
        let mut known = cell.load(Ordering::Relaxed) as usize;
        if known == 0 {
            let never = len_a.min(len_b) + 1;
            known = fewest_keeping(self.may_keep, len_a, len_b).unwrap_or(never) + 1;
            cell.store(known as u32, Ordering::Relaxed);
        }
        known
    }

    /// Whether `m` (at most the smaller size) sentences in blocks could meet the rule for sizes
    /// `len_a` and `len_b` (`may_keep`, increasing in `m`; m = 0 never keeps).
    pub(super) fn may_keep(&self, m: usize, len_a: usize, len_b: usize) -> bool {
        if self.table.is_empty() {
            return (self.may_keep)(m, len_a, len_b);
        }
        m + 1 >= self.known(len_a, len_b)
    }
}

/// Which of a document's sentences a witness join walks (module docs): the cheapest
/// `len − least + 1`, when they cost well under all of them; else all of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalkPlan {
    /// Per sentence: walked, so counted when a document holds one of its witness keys.
    pub walked: Vec<bool>,
    /// Sentences the walk leaves out, counted as witnessed against every document.
    pub assumed: usize,
}

/// Fills `order` with every sentence, the `prefix` to walk first, cheapest (a sentence with no
/// key below `max_df` costs nothing: it can never be witnessed), and returns `prefix`.
/// `least` ≥ 1.
pub(super) fn choose_walked(cost: &[usize], least: usize, order: &mut Vec<u32>) -> usize {
    let len = cost.len();
    order.clear();
    order.extend(0..len as u32);
    let needed = (len + 1).saturating_sub(least.max(1));
    let mut prefix = len;
    if needed < len {
        let total: usize = cost.iter().sum();
        order.select_nth_unstable_by_key(needed, |&u| (cost[u as usize], u));
        let cheapest: usize = order[..needed].iter().map(|&u| cost[u as usize]).sum();
        if 2 * cheapest < total {
            prefix = needed;
        }
    }
    prefix
}

/// The [`WalkPlan`] of a document of `cost.len()` sentences that needs at least `least` (≥ 1)
/// of them in blocks (from [`fewest_matched`]), given per sentence what walking its witness
/// keys costs (the postings of those held by at most `max_df` documents). The plan of the
/// corpus join's own walk, for a join outside this library.
pub fn plan_walk(cost: &[usize], least: usize) -> WalkPlan {
    let mut order = Vec::new();
    let prefix = choose_walked(cost, least, &mut order);
    let mut walked = vec![false; cost.len()];
    for &u in &order[..prefix] {
        walked[u as usize] = true;
    }
    WalkPlan {
        walked,
        assumed: cost.len() - prefix,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::Similarity;

    #[test]
    fn thresholds_answer_as_the_rule_does() {
        // J ≥ 0.5 from the counts, and a rule no size meets.
        let half = |m: usize, a: usize, b: usize| m > 0 && 2 * m >= a + b - m;
        let never = |_: usize, _: usize, _: usize| false;
        let sizes = [1, 2, 3, 5, 8, 13, 40];
        for rule in [
            &half as &(dyn Fn(usize, usize, usize) -> bool + Sync),
            &never,
        ] {
            let kept = Thresholds::new(&sizes, rule);
            for &a in &sizes {
                for &b in &sizes {
                    for m in 0..=a.min(b) {
                        assert_eq!(
                            kept.may_keep(m, a, b),
                            rule(m, a, b),
                            "m {m}, sizes {a}, {b}"
                        );
                        // Asked again, from the table.
                        assert_eq!(kept.may_keep(m, a, b), rule(m, a, b));
                    }
                    // A walk's count (plus sentences assumed) may pass either size; the rule
                    // then sees the smaller size.
                    let place = kept.place_of(b).unwrap();
                    assert_eq!(kept.sizes[place as usize], b);
                    for count in 0..=a.max(b) + 2 {
                        assert_eq!(
                            count + 1 >= kept.needed(a, place) as usize,
                            rule(count.min(a).min(b), a, b),
                            "count {count}, sizes {a}, {b}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn fewest_matched_follows_the_rule() {
        // J ≥ 0.5: m / (na + nb − m) ≥ 0.5, smallest over the sizes present.
        let keep = |m: usize, na: usize, nb: usize| {
            let s = Similarity::from_counts(m, na, nb);
            m > 0 && s.resemblance >= 0.5
        };
        let fewest = fewest_matched(&[0, 1, 4, 4, 10], &keep);
        assert_eq!(fewest[1], 1);
        assert_eq!(fewest[4], 3); // against 4: 3/5 ≥ 0.5, 2/6 < 0.5
        assert_eq!(fewest[10], 7); // against 10: 7/13 ≥ 0.5; against 4 at most 4/10
        assert_eq!(fewest[2], usize::MAX); // no document has 2 sentences
        // Only against documents at least as long: at containment ≥ 0.8 of the smaller, a
        // document of 10 sentences would need 1 in blocks against one of 1 sentence, but that
        // pair is found from the other side.
        let contained = |m: usize, na: usize, nb: usize| m > 0 && m * 5 >= na.min(nb) * 4;
        let fewest = fewest_matched(&[1, 10], &contained);
        assert_eq!(fewest[1], 1);
        assert_eq!(fewest[10], 8);
    }

    #[test]
    fn plan_walk_walks_the_cheapest_set_that_must_hold_a_witness() {
        // 6 sentences, 4 needed in blocks: any 3 of them hold one, so the cheapest 3 are
        // walked; sentence 5 has only boilerplate keys (cost 0), so it is one of them — it can
        // never be witnessed.
        let cost = [9, 1, 8, 2, 3, 0];
        let plan = plan_walk(&cost, 4);
        assert_eq!(plan.walked, [false, true, false, true, false, true]);
        assert_eq!(plan.assumed, 3);
        // When the cheapest set costs about as much as all, all are walked and counted.
        let plan = plan_walk(&[5, 5, 5, 5], 3);
        assert_eq!(plan.walked, [true; 4]);
        assert_eq!(plan.assumed, 0);
        // One sentence needed: all are walked.
        let plan = plan_walk(&[1, 1, 1], 1);
        assert_eq!(plan.walked, [true; 3]);
        assert_eq!(plan.assumed, 0);
    }
}
