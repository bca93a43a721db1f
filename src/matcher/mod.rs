//! Common substrings of symbol strings (SPEC §3.1): the "ST" of SL+ST.
//!
//! A [`Match`] is a maximal common substring of two symbol strings: a run `a[i..i+len] ==
//! b[j..j+len]` that extends neither left nor right. [`maximal_matches`] finds every match of at
//! least a minimum length with a generalized suffix array (one separator symbol per document, so
//! no common prefix crosses a document boundary) and its LCP array — the same structure as a
//! generalized suffix tree, in O(|a| + |b| + output). [`naive_maximal_matches`] is the O(|a|·|b|)
//! diagonal scan kept beside it as the oracle for tests.

mod suffix_array;

pub use suffix_array::{Libsais, NaiveSorter, SuffixArrayLcp, SuffixSorter};

use serde::Serialize;

/// A maximal common substring of two symbol strings: `a[a..a+len] == b[b..b+len]`, and neither
/// `a[a-1] == b[b-1]` nor `a[a+len] == b[b+len]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Match {
    /// Start in the first string.
    pub a: usize,
    /// Start in the second string.
    pub b: usize,
    /// Length in symbols.
    pub len: usize,
}

/// A generalized suffix array over several symbol strings (documents).
///
/// The text is `d₀ $₀ d₁ $₁ …` where `$ₖ = k` is document k's own separator and a sentence
/// symbol `s` is stored as `s + n_docs`; because every separator is unique, no LCP runs across a
/// document boundary.
#[derive(Debug, Clone)]
pub struct GeneralizedSuffixArray {
    text: Vec<i32>,
    /// Start of each document in `text`, plus the total length at the end.
    starts: Vec<usize>,
    /// The document of each text position (its separator included).
    doc_of: Vec<u32>,
    index: SuffixArrayLcp,
}

impl GeneralizedSuffixArray {
    /// Build the array over `docs` (symbols of any ordered type, remapped densely) with the
    /// given suffix sorter.
    ///
    /// # Panics
    /// When the documents hold 2³¹ or more symbols in all (the 32-bit suffix array's limit).
    pub fn build<T: Ord + Copy>(docs: &[&[T]], sorter: &dyn SuffixSorter) -> Self {
        let n_docs = docs.len();
        // Dense remapping keeps the alphabet (and libsais' bucket arrays) small.
        let mut symbols: Vec<T> = docs.iter().flat_map(|d| d.iter().copied()).collect();
        symbols.sort_unstable();
        symbols.dedup();
        let total: usize = docs.iter().map(|d| d.len() + 1).sum();
        let mut text = Vec::with_capacity(total);
        let mut starts = Vec::with_capacity(n_docs + 1);
        for (k, doc) in docs.iter().enumerate() {
            starts.push(text.len());
            text.extend(doc.iter().map(|s| {
                let dense = symbols.binary_search(s).unwrap_or_default();
                (dense + n_docs) as i32
            }));
            text.push(k as i32);
        }
        starts.push(text.len());
        let mut doc_of = Vec::with_capacity(text.len());
        for (k, w) in starts.windows(2).enumerate() {
            doc_of.extend(std::iter::repeat_n(k as u32, w[1] - w[0]));
        }
        let alphabet = n_docs + symbols.len();
        let index = sorter.sort(&mut text, alphabet.max(1));
        GeneralizedSuffixArray {
            text,
            starts,
            doc_of,
            index,
        }
    }

    /// The document holding text position `pos`, and the offset within it.
    pub fn locate(&self, pos: usize) -> (usize, usize) {
        let doc = self.doc_of[pos] as usize;
        (doc, pos - self.starts[doc])
    }

    /// The suffix array and LCP array.
    pub fn index(&self) -> &SuffixArrayLcp {
        &self.index
    }

    /// The maximal runs of suffix-array ranks whose suffixes share their first `k` symbols
    /// (`k ≥ 1`): every group of suffixes that start with the same k symbols is one range.
    pub fn shared_prefix_ranges(
        &self,
        k: usize,
    ) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        let k = k.max(1) as u32;
        let lcp = &self.index.lcp;
        let mut r = 0;
        std::iter::from_fn(move || {
            while r < lcp.len() {
                let start = r;
                r += 1;
                while r < lcp.len() && lcp[r] >= k {
                    r += 1;
                }
                if r - start >= 2 {
                    return Some(start..r);
                }
            }
            None
        })
    }

    /// The text position of the suffix of rank `rank`.
    pub fn suffix_at(&self, rank: usize) -> usize {
        self.index.sa[rank] as usize
    }

    /// The (dense) symbol just before text position `pos`, or −1 at the very start. A
    /// document's first symbol is preceded by the previous document's unique separator, so two
    /// suffixes of different documents with equal preceding symbols extend one step left
    /// together.
    pub fn preceding_symbol(&self, pos: usize) -> i32 {
        if pos == 0 { -1 } else { self.text[pos - 1] }
    }

    /// Every [`Match`] of at least `min_len` symbols between document `x` and document `y`
    /// (`x != y`), sorted by start in `x`, then in `y`.
    ///
    /// Suffixes sharing a prefix of `min_len` or more form contiguous ranges of the suffix array
    /// (runs of `lcp ≥ min_len`); within a range, a pair from the two documents starts a maximal
    /// match exactly when their preceding symbols differ (left-maximal), and the match then runs
    /// as far as the symbols agree. Cost: O(n) plus the number of position pairs that share
    /// `min_len` symbols, which is at most the total length of the matches reported.
    pub fn matches_between(&self, x: usize, y: usize, min_len: usize) -> Vec<Match> {
        assert!(x != y, "matches_between needs two different documents");
        let mut out = Vec::new();
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        for range in self.shared_prefix_ranges(min_len) {
            xs.clear();
            ys.clear();
            for rank in range {
                let p = self.suffix_at(rank);
                match self.locate(p).0 {
                    d if d == x => xs.push(p),
                    d if d == y => ys.push(p),
                    _ => {}
                }
            }
            for &p in &xs {
                for &q in &ys {
                    if self.preceding_symbol(p) == self.preceding_symbol(q) {
                        continue;
                    }
                    let len = self.text[p..]
                        .iter()
                        .zip(&self.text[q..])
                        .take_while(|(s, t)| s == t)
                        .count();
                    out.push(Match {
                        a: p - self.starts[x],
                        b: q - self.starts[y],
                        len,
                    });
                }
            }
        }
        out.sort_unstable();
        out
    }
}

/// Every maximal common substring of `a` and `b` with at least `min_len` symbols, sorted by start
/// in `a`, then in `b`; computed with a generalized suffix array built by [`Libsais`].
///
/// # Example
/// ```
/// use slst::matcher::{maximal_matches, Match};
/// let a = [1, 2, 3, 4, 9];
/// let b = [7, 2, 3, 4, 1, 2];
/// assert_eq!(
///     maximal_matches(&a, &b, 2),
///     [Match { a: 0, b: 4, len: 2 }, Match { a: 1, b: 1, len: 3 }]
/// );
/// ```
pub fn maximal_matches(a: &[u32], b: &[u32], min_len: usize) -> Vec<Match> {
    maximal_matches_with(&Libsais, a, b, min_len)
}

/// [`maximal_matches`] with a chosen suffix sorter.
pub fn maximal_matches_with(
    sorter: &dyn SuffixSorter,
    a: &[u32],
    b: &[u32],
    min_len: usize,
) -> Vec<Match> {
    GeneralizedSuffixArray::build(&[a, b], sorter).matches_between(0, 1, min_len)
}

/// The oracle: walk every diagonal of the |a|×|b| grid and report each maximal run of equal
/// symbols of at least `min_len`. O(|a|·|b|) time, O(1) extra space.
pub fn naive_maximal_matches(a: &[u32], b: &[u32], min_len: usize) -> Vec<Match> {
    let min_len = min_len.max(1);
    let mut out = Vec::new();
    for diagonal in -(a.len() as isize)..=(b.len() as isize) {
        let (mut i, mut j) = if diagonal < 0 {
            ((-diagonal) as usize, 0)
        } else {
            (0, diagonal as usize)
        };
        let mut run = 0;
        while i < a.len() && j < b.len() {
            if a[i] == b[j] {
                run += 1;
            } else {
                if run >= min_len {
                    out.push(Match {
                        a: i - run,
                        b: j - run,
                        len: run,
                    });
                }
                run = 0;
            }
            i += 1;
            j += 1;
        }
        if run >= min_len {
            out.push(Match {
                a: i - run,
                b: j - run,
                len: run,
            });
        }
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn small_alphabet_string() -> impl Strategy<Value = Vec<u32>> {
        proptest::collection::vec(0u32..3, 0..60)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn suffix_matching_equals_diagonal_scan(
            a in small_alphabet_string(),
            b in small_alphabet_string(),
            min_len in 1usize..4,
        ) {
            prop_assert_eq!(maximal_matches(&a, &b, min_len), naive_maximal_matches(&a, &b, min_len));
        }

        #[test]
        fn naive_sorter_gives_the_same_matches(a in small_alphabet_string(), b in small_alphabet_string()) {
            prop_assert_eq!(
                maximal_matches_with(&NaiveSorter, &a, &b, 2),
                maximal_matches(&a, &b, 2)
            );
        }

        #[test]
        fn matches_are_maximal_and_equal(a in small_alphabet_string(), b in small_alphabet_string()) {
            for m in maximal_matches(&a, &b, 2) {
                prop_assert_eq!(&a[m.a..m.a + m.len], &b[m.b..m.b + m.len]);
                prop_assert!(m.a == 0 || m.b == 0 || a[m.a - 1] != b[m.b - 1]);
                prop_assert!(m.a + m.len == a.len() || m.b + m.len == b.len()
                    || a[m.a + m.len] != b[m.b + m.len]);
            }
        }
    }

    #[test]
    fn identical_strings_match_once_along_the_main_diagonal_and_at_repeats() {
        let s = [5, 6, 5, 6];
        assert_eq!(
            maximal_matches(&s, &s, 2),
            [
                Match { a: 0, b: 0, len: 4 },
                Match { a: 0, b: 2, len: 2 },
                Match { a: 2, b: 0, len: 2 }
            ]
        );
    }

    #[test]
    fn empty_inputs_have_no_matches() {
        assert!(maximal_matches(&[], &[], 2).is_empty());
        assert!(maximal_matches(&[1, 2], &[], 2).is_empty());
    }

    #[test]
    fn locate_maps_positions_to_documents() {
        let g = GeneralizedSuffixArray::build(&[&[1, 2], &[3]], &Libsais);
        assert_eq!(g.locate(0), (0, 0));
        assert_eq!(g.locate(2), (0, 2)); // the separator
        assert_eq!(g.locate(3), (1, 0));
    }
}
