//! Duplicate groups: sets of documents that are near-exact copies of one another, reported
//! once as a group instead of as every pair among them.
//!
//! A group is a clique of the reported pairs whose resemblance reaches a level (0.9 by
//! default): every two of its documents are a reported pair at that level or above, so the
//! group stands for exactly the pairs it replaces. The cliques are found greedily, in input
//! order: the earliest document not yet in a group starts one, and each of its neighbours,
//! in input order, joins when it reaches the level with every member so far. The outcome does
//! not depend on the order pairs were found in, nor on the thread count.

use std::collections::HashMap;

use super::PairResult;
use crate::method::Evidence;

/// One duplicate group.
#[derive(Debug, Clone, PartialEq)]
pub struct DuplicateGroup {
    /// Its documents (two or more, ascending input order; the first is the earliest).
    pub members: Vec<usize>,
    /// The smallest resemblance among its pairs.
    pub min_resemblance: f64,
}

impl DuplicateGroup {
    /// Every pair of its members scores resemblance 1 under the method: an exact duplicate
    /// group, as far as the method can tell (identical kept sentences; the texts may still
    /// differ in what the method leaves out, such as stop words, punctuation or long sentences).
    pub fn exact(&self) -> bool {
        self.min_resemblance >= 1.0
    }

    /// The number of pairs the group stands for.
    pub fn pairs(&self) -> usize {
        self.members.len() * (self.members.len() - 1) / 2
    }
}

/// The duplicate groups of a run's pairs, and which group each document is in.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DuplicateGroups {
    /// The groups, ordered by their earliest document.
    pub groups: Vec<DuplicateGroup>,
    /// The resemblance at or above which pairs form groups (`None`: grouping off).
    pub at: Option<f64>,
    group_of: Vec<Option<u32>>,
}

impl DuplicateGroups {
    /// No groups (grouping turned off), over `n` documents.
    pub fn none(n: usize) -> Self {
        DuplicateGroups {
            groups: Vec::new(),
            at: None,
            group_of: vec![None; n],
        }
    }

    /// The groups of `pairs` (pairs of documents `0..n`, a < b, at most once each) that reach
    /// resemblance `at`.
    ///
    /// # Example
    /// ```
    /// use slst::batch::DuplicateGroups;
    /// // Documents 0, 1 and 2 are copies of one another; 3 is a looser match of 2.
    /// let pairs = [(0, 1, 1.0), (0, 2, 0.95), (1, 2, 1.0), (2, 3, 0.6)];
    /// let g = DuplicateGroups::from_scores(5, pairs.into_iter(), 0.9);
    /// assert_eq!(g.groups.len(), 1);
    /// assert_eq!(g.groups[0].members, [0, 1, 2]);
    /// assert_eq!(g.groups[0].min_resemblance, 0.95);
    /// assert!(g.inside(0, 2) && !g.inside(2, 3));
    /// ```
    pub fn from_scores(
        n: usize,
        pairs: impl Iterator<Item = (usize, usize, f64)>,
        at: f64,
    ) -> Self {
        let mut score: HashMap<(usize, usize), f64> = HashMap::new();
        let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (a, b, j) in pairs {
            if j >= at && a != b {
                let key = (a.min(b), a.max(b));
                score.insert(key, j);
                neighbours[a].push(b);
                neighbours[b].push(a);
            }
        }
        let mut group_of: Vec<Option<u32>> = vec![None; n];
        let mut groups = Vec::new();
        for x in 0..n {
            if group_of[x].is_some() || neighbours[x].is_empty() {
                continue;
            }
            let mut next: Vec<usize> = neighbours[x]
                .iter()
                .copied()
                .filter(|&y| group_of[y].is_none())
                .collect();
            next.sort_unstable();
            next.dedup();
            let mut members = vec![x];
            let mut min = f64::INFINITY;
            for y in next {
                let scores: Option<Vec<f64>> = members
                    .iter()
                    .map(|&m| score.get(&(m.min(y), m.max(y))).copied())
                    .collect();
                if let Some(scores) = scores {
                    min = scores.into_iter().fold(min, f64::min);
                    members.push(y);
                }
            }
            if members.len() >= 2 {
                members.sort_unstable();
                let g = groups.len() as u32;
                for &m in &members {
                    group_of[m] = Some(g);
                }
                groups.push(DuplicateGroup {
                    members,
                    min_resemblance: min,
                });
            }
        }
        DuplicateGroups {
            groups,
            at: Some(at),
            group_of,
        }
    }

    /// The groups of a run's kept pairs at resemblance `at`; templates
    /// ([`PairResult::template`]) join none.
    pub fn of<E: Evidence>(n: usize, pairs: &[PairResult<E>], at: f64) -> Self {
        Self::from_scores(
            n,
            pairs
                .iter()
                .filter(|p| p.template().is_none())
                .map(|p| (p.a, p.b, p.comparison.similarity.resemblance)),
            at,
        )
    }

    /// Both documents are in one group: the group's record stands for their pair.
    pub fn inside(&self, a: usize, b: usize) -> bool {
        match (self.group_of.get(a), self.group_of.get(b)) {
            (Some(Some(x)), Some(Some(y))) => x == y,
            _ => false,
        }
    }

    /// Documents in groups.
    pub fn documents(&self) -> usize {
        self.groups.iter().map(|g| g.members.len()).sum()
    }

    /// Pairs the groups stand for.
    pub fn pairs(&self) -> usize {
        self.groups.iter().map(DuplicateGroup::pairs).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashSet;

    #[test]
    fn a_clique_of_copies_is_one_group_and_looser_pairs_stay_pairs() {
        // 0-1-2 all ≥ 0.9; 3 reaches 0.9 with 2 only: a clique cannot take it.
        let pairs = [
            (0, 1, 1.0),
            (0, 2, 1.0),
            (1, 2, 1.0),
            (2, 3, 0.92),
            (4, 5, 0.5),
        ];
        let g = DuplicateGroups::from_scores(6, pairs.into_iter(), 0.9);
        assert_eq!(g.groups.len(), 1);
        assert_eq!(g.groups[0].members, [0, 1, 2]);
        assert!(g.groups[0].exact());
        assert_eq!((g.documents(), g.pairs()), (3, 3));
        assert!(!g.inside(2, 3) && !g.inside(4, 5) && !g.inside(3, 3));
    }

    #[test]
    fn a_chain_is_cut_greedily_in_input_order() {
        // 0-1, 1-2, 2-3 (no 0-2): {0,1} then {2,3}.
        let pairs = [(0, 1, 0.95), (1, 2, 0.95), (2, 3, 0.97)];
        let g = DuplicateGroups::from_scores(4, pairs.into_iter(), 0.9);
        let members: Vec<_> = g.groups.iter().map(|g| g.members.clone()).collect();
        assert_eq!(members, [vec![0, 1], vec![2, 3]]);
        assert_eq!(g.groups[1].min_resemblance, 0.97);
        assert!(!g.groups[0].exact());
    }

    #[test]
    fn no_pair_reaches_the_level_no_group() {
        let g = DuplicateGroups::from_scores(3, [(0, 1, 0.89)].into_iter(), 0.9);
        assert!(g.groups.is_empty());
        assert!(DuplicateGroups::none(3).groups.is_empty());
    }

    proptest! {
        /// Groups are disjoint cliques at the level, whatever order the pairs come in, and a
        /// pair inside a group is exactly a pair both of whose documents share a group.
        #[test]
        fn groups_are_disjoint_cliques_independent_of_pair_order(
            edges in proptest::collection::btree_map((0usize..12, 0usize..12), 0u8..=10, 0..40),
            at in prop_oneof![Just(0.9), Just(1.0), Just(0.5)],
            seed in any::<u64>(),
        ) {
            let mut pairs: Vec<(usize, usize, f64)> = edges
                .into_iter()
                .filter(|((a, b), _)| a < b)
                .map(|((a, b), s)| (a, b, f64::from(s) / 10.0))
                .collect();
            let g = DuplicateGroups::from_scores(12, pairs.iter().copied(), at);
            let score: std::collections::HashMap<(usize, usize), f64> =
                pairs.iter().map(|&(a, b, s)| ((a, b), s)).collect();
            let mut seen = HashSet::new();
            for group in &g.groups {
                prop_assert!(group.members.len() >= 2);
                prop_assert!(group.members.windows(2).all(|w| w[0] < w[1]));
                let mut min = f64::INFINITY;
                for (i, &a) in group.members.iter().enumerate() {
                    prop_assert!(seen.insert(a));
                    for &b in &group.members[i + 1..] {
                        let s = score.get(&(a, b)).copied();
                        prop_assert!(s.is_some_and(|s| s >= at), "{a}-{b} not a pair at {at}");
                        min = min.min(s.unwrap());
                    }
                }
                prop_assert_eq!(group.min_resemblance, min);
            }
            for &(a, b) in score.keys() {
                let together = g.groups.iter().any(|x| x.members.contains(&a) && x.members.contains(&b));
                prop_assert_eq!(g.inside(a, b), together);
            }
            // Another order of the same pairs: the same groups.
            let k = (seed as usize) % (pairs.len().max(1));
            pairs.rotate_left(k);
            pairs.reverse();
            let again = DuplicateGroups::from_scores(12, pairs.into_iter(), at);
            prop_assert_eq!(again, g);
        }
    }
}
