//! Candidate pairs: the set a corpus join gives ([`CandidateSet`]) — the pairs worth comparing,
//! the exact-duplicate groups they stand for ([`Groups`]), the boilerplate runs left out
//! ([`BoilerplateBlock`]) and how they were found ([`CandidateSource`]).
//!
//! A method with a join of its own returns one from [`Detector::corpus_candidates`] (SL+ST's
//! suffix array, [`suffix_array_candidates`]; the robust mode's witness count); the corpus driver
//! builds one from join keys or every pair otherwise. Invariant: every pair `(x, y)` has `x < y`,
//! both representatives of their groups, sorted and without repeats.
//!
//! [`Detector::corpus_candidates`]: super::Detector::corpus_candidates
//! [`suffix_array_candidates`]: super::suffix_array_candidates

use std::collections::HashMap;

use serde::Serialize;

/// Documents with identical profiles, grouped. Each group is represented by its earliest
/// document; a document outside every group stands for itself.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Groups {
    /// For each document, the index of its group in `groups`, if it has one.
    pub(super) group_of: Vec<Option<u32>>,
    /// The groups (two or more documents each, ascending).
    pub(super) groups: Vec<Vec<usize>>,
    /// `identity[x] == x`: the one-element member list of an ungrouped document.
    pub(super) identity: Vec<usize>,
}

impl Groups {
    /// No groups over `n` documents: every document stands for itself.
    pub fn new(n: usize) -> Self {
        Groups {
            group_of: vec![None; n],
            groups: Vec::new(),
            identity: (0..n).collect(),
        }
    }

    /// The documents a representative stands for (itself included).
    pub fn members(&self, x: usize) -> &[usize] {
        match self.group_of[x] {
            Some(g) => &self.groups[g as usize],
            None => std::slice::from_ref(&self.identity[x]),
        }
    }

    /// The exact-duplicate groups (two or more documents each).
    pub fn groups(&self) -> &[Vec<usize>] {
        &self.groups
    }

    /// Documents with the same text, grouped by a 128-bit hash of it (`content`, one per
    /// document), among those `live` says have something to compare; and the documents a join
    /// needs to see, ascending: each group's earliest member and every document outside the
    /// groups. Two texts that are equal give equal comparisons with any third, so a join over
    /// those documents, its pairs expanded to the groups' members, finds what a join over all
    /// of them finds — at the cost of one document per group.
    pub fn of_content(content: &[u128], live: impl Fn(usize) -> bool) -> (Groups, Vec<usize>) {
        let mut groups = Groups::new(content.len());
        let mut first: HashMap<u128, usize> = HashMap::new();
        let mut seen = Vec::with_capacity(content.len());
        for (i, &hash) in content.iter().enumerate() {
            if !live(i) {
                seen.push(i);
                continue;
            }
            let rep = *first.entry(hash).or_insert(i);
            if rep == i {
                seen.push(i);
                continue;
            }
            let g = *groups.group_of[rep].get_or_insert_with(|| {
                groups.groups.push(vec![rep]);
                (groups.groups.len() - 1) as u32
            });
            groups.groups[g as usize].push(i);
            groups.group_of[i] = Some(g);
        }
        (groups, seen)
    }

    /// These groups (over every document) joined with `inner`, groups a join made over the
    /// documents `seen` (its document `x` being `seen[x]`, each standing for its group here):
    /// a document's group is then every member of the groups its inner group holds.
    pub fn lift(&self, seen: &[usize], inner: &Groups) -> Groups {
        let mut out = Groups::new(self.group_of.len());
        // `seen` ascends and each group here begins with the member that stands for it, so
        // groups are made in the order of their earliest members.
        for (x, &d) in seen.iter().enumerate() {
            let members: Vec<usize> = match inner.group_of[x] {
                // An inner group, at its earliest member.
                Some(g) if inner.groups[g as usize][0] == x => {
                    let mut members: Vec<usize> = inner.groups[g as usize]
                        .iter()
                        .flat_map(|&y| self.members(seen[y]).iter().copied())
                        .collect();
                    members.sort_unstable();
                    members
                }
                None if self.group_of[d].is_some() => self.members(d).to_vec(),
                _ => continue,
            };
            let g = out.groups.len() as u32;
            for &m in &members {
                out.group_of[m] = Some(g);
            }
            out.groups.push(members);
        }
        out
    }
}

/// A run of block keys shared by more documents than the limit: excluded from candidate
/// generation and reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoilerplateBlock {
    /// The earliest document holding the run.
    pub document: usize,
    /// Where the run starts in that document (kept sentences, from 0).
    pub sentence: usize,
    /// Its length in sentences (the minimum block).
    pub len: usize,
    /// How many distinct profiles hold it (exact-duplicate groups count once).
    pub documents: usize,
}

/// How candidate pairs were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum CandidateSource {
    /// SL+ST's suffix array over block keys, with exact-duplicate groups.
    #[default]
    #[serde(rename = "index")]
    SuffixArray,
    /// A method's own corpus join ([`crate::Detector::corpus_candidates`]).
    #[serde(rename = "method join")]
    MethodJoin,
    /// An inverted index over the method's keys.
    #[serde(rename = "join keys")]
    JoinKeys,
    /// Every pair.
    #[serde(rename = "all")]
    AllPairs,
    /// Pairs given by the caller (an evaluation's listed pairs).
    #[serde(rename = "listed")]
    Listed,
}

/// The outcome of candidate generation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CandidateSet {
    /// Pairs of representatives (x < y) to compare, sorted, without repeats.
    pub pairs: Vec<(usize, usize)>,
    /// Exact-duplicate groups (SL+ST: documents with identical profiles).
    pub groups: Groups,
    /// Boilerplate runs excluded (SL+ST: each run of `min_block` keys once).
    pub boilerplate: Vec<BoilerplateBlock>,
    /// Join keys held by more than `max_df` documents, left out (the other methods).
    pub capped_keys: usize,
    /// How the pairs were found.
    pub source: CandidateSource,
}

impl CandidateSet {
    /// Candidate pairs among `n` documents, without groups or boilerplate.
    pub fn from_pairs(
        n: usize,
        pairs: Vec<(usize, usize)>,
        capped_keys: usize,
        source: CandidateSource,
    ) -> Self {
        CandidateSet {
            pairs,
            groups: Groups::new(n),
            boilerplate: Vec::new(),
            capped_keys,
            source,
        }
    }

    /// Every pair of the `n` documents but those `empty` says have nothing to compare: the
    /// slow, obviously correct path.
    pub fn all_pairs(n: usize, empty: impl Fn(usize) -> bool) -> Self {
        let live: Vec<usize> = (0..n).filter(|&i| !empty(i)).collect();
        let mut pairs = Vec::with_capacity(live.len() * live.len().saturating_sub(1) / 2);
        for (i, &x) in live.iter().enumerate() {
            pairs.extend(live[i + 1..].iter().map(|&y| (x, y)));
        }
        CandidateSet::from_pairs(n, pairs, 0, CandidateSource::AllPairs)
    }
}

#[cfg(test)]
mod tests {
    use super::Groups;

    #[test]
    fn equal_content_is_grouped_among_live_documents() {
        // Documents 4 and 5 have nothing to compare: never grouped, still seen.
        let content = [7, 8, 7, 9, 1, 1, 8, 7];
        let (groups, seen) = Groups::of_content(&content, |i| i != 4 && i != 5);
        assert_eq!(groups.groups(), [vec![0, 2, 7], vec![1, 6]]);
        assert_eq!(seen, [0, 1, 3, 4, 5]);
        assert_eq!(groups.members(3), [3]);
        assert_eq!(groups.members(0), [0, 2, 7]);
    }

    #[test]
    fn groups_of_a_join_over_the_seen_documents_are_lifted_to_every_member() {
        let content = [7, 8, 7, 9, 5, 8, 6];
        let (outer, seen) = Groups::of_content(&content, |_| true);
        assert_eq!(seen, [0, 1, 3, 4, 6]);
        // The join over the seen documents grouped its documents 1 and 3 (documents 1 and 4),
        // and 2 and 4 (documents 3 and 6).
        let mut inner = Groups::new(seen.len());
        inner.groups = vec![vec![1, 3], vec![2, 4]];
        inner.group_of = vec![None, Some(0), Some(1), Some(0), Some(1)];
        let lifted = outer.lift(&seen, &inner);
        assert_eq!(lifted.groups(), [vec![0, 2], vec![1, 4, 5], vec![3, 6]]);
        for (g, members) in lifted.groups().iter().enumerate() {
            for &m in members {
                assert_eq!(lifted.group_of[m], Some(g as u32));
            }
        }
        assert_eq!(lifted.members(1), [1, 4, 5]);
    }
}
