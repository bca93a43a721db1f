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
