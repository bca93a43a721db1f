//! Verified sentence blocks (SPEC §3.2–3.3): verification, splitting and tiling.
//!
//! A [`Match`] only says that two runs of sentence *symbols* agree. A [`Block`] is a run whose
//! sentences also agree on their leading terms, at least the minimum block long, and — after
//! [`tile`] — uses no sentence of either document that another kept block uses.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::Serialize;

use crate::matcher::Match;

/// A verified common block of sentences: sentences `a..a+len` of the first document and
/// `b..b+len` of the second (indices count kept sentences from 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Block {
    /// First sentence in the first document.
    pub a: usize,
    /// First sentence in the second document.
    pub b: usize,
    /// Number of sentences.
    pub len: usize,
}

impl Block {
    /// The same block seen from the other document (`a` and `b` exchanged).
    pub fn swapped(self) -> Block {
        Block {
            a: self.b,
            b: self.a,
            len: self.len,
        }
    }
}

/// Verify a match sentence by sentence: sentence `k` passes when `same(a + k, b + k)` (the
/// leading terms agree). The match is split at every failing sentence and pieces shorter than
/// `min_block` are dropped; the surviving pieces are appended to `out`.
///
/// # Example
/// The paper's examples: a 5-block failing at its 3rd sentence becomes two 2-blocks; a 4-block
/// failing at its 2nd and 3rd is dropped.
/// ```
/// use slst::block::{verify, Block};
/// use slst::matcher::Match;
/// let mut out = Vec::new();
/// verify(Match { a: 0, b: 10, len: 5 }, |i, _| i != 2, 2, &mut out);
/// assert_eq!(out, [Block { a: 0, b: 10, len: 2 }, Block { a: 3, b: 13, len: 2 }]);
/// out.clear();
/// verify(Match { a: 0, b: 0, len: 4 }, |i, _| i != 1 && i != 2, 2, &mut out);
/// assert!(out.is_empty());
/// ```
pub fn verify(
    m: Match,
    same: impl Fn(usize, usize) -> bool,
    min_block: usize,
    out: &mut Vec<Block>,
) {
    let mut run_start = 0;
    for k in 0..=m.len {
        if k == m.len || !same(m.a + k, m.b + k) {
            let len = k - run_start;
            if len >= min_block.max(1) {
                out.push(Block {
                    a: m.a + run_start,
                    b: m.b + run_start,
                    len,
                });
            }
            run_start = k + 1;
        }
    }
}

/// Greedy string tiling (SPEC §3.3): choose a one-to-one set of blocks — no sentence of either
/// document in two kept blocks — by repeatedly keeping the longest remaining piece (ties: smaller
/// start in the first document, then in the second), after cutting every other block around the
/// sentences already used and dropping pieces shorter than `min_block`. Returns the kept blocks
/// sorted by start in the first document.
///
/// Lazy evaluation with a max-heap: a block's length only shrinks as sentences are used, so the
/// heap's top, if still intact, is the true longest. O(B log B) plus the length of all cuts,
/// where B is the number of blocks.
///
/// `len_a` and `len_b` are the numbers of sentences of the two documents (every block must lie
/// inside them).
pub fn tile(blocks: &[Block], min_block: usize, len_a: usize, len_b: usize) -> Vec<Block> {
    let min_block = min_block.max(1);
    let mut used_a = vec![false; len_a];
    let mut used_b = vec![false; len_b];
    let key = |b: &Block| (b.len, Reverse(b.a), Reverse(b.b));
    let mut heap: BinaryHeap<_> = blocks
        .iter()
        .filter(|b| b.len >= min_block)
        .map(|b| (key(b), *b))
        .collect();
    let mut kept = Vec::new();
    let mut pieces = Vec::new();
    while let Some((_, block)) = heap.pop() {
        pieces.clear();
        cut_around_used(block, &used_a, &used_b, min_block, &mut pieces);
        if pieces.as_slice() == [block] {
            used_a[block.a..block.a + block.len].fill(true);
            used_b[block.b..block.b + block.len].fill(true);
            kept.push(block);
        } else {
            heap.extend(pieces.iter().map(|p| (key(p), *p)));
        }
    }
    kept.sort_unstable();
    kept
}

/// The oracle for [`tile`]: SPEC §3.3 step by step, recutting every block in every round.
/// O(B² · L).
pub fn tile_naive(blocks: &[Block], min_block: usize, len_a: usize, len_b: usize) -> Vec<Block> {
    let min_block = min_block.max(1);
    let mut used_a = vec![false; len_a];
    let mut used_b = vec![false; len_b];
    let mut remaining: Vec<Block> = blocks.to_vec();
    let mut kept = Vec::new();
    loop {
        let mut pieces = Vec::new();
        for &b in &remaining {
            cut_around_used(b, &used_a, &used_b, min_block, &mut pieces);
        }
        let Some(best) = pieces
            .iter()
            .copied()
            .max_by_key(|b| (b.len, Reverse(b.a), Reverse(b.b)))
        else {
            break;
        };
        used_a[best.a..best.a + best.len].fill(true);
        used_b[best.b..best.b + best.len].fill(true);
        kept.push(best);
        remaining = pieces;
    }
    kept.sort_unstable();
    kept
}

/// Append to `out` the maximal pieces of `block` whose sentences are unused on both sides and
/// that are at least `min_block` long.
fn cut_around_used(
    block: Block,
    used_a: &[bool],
    used_b: &[bool],
    min_block: usize,
    out: &mut Vec<Block>,
) {
    verify(
        Match {
            a: block.a,
            b: block.b,
            len: block.len,
        },
        |i, j| !used_a[i] && !used_b[j],
        min_block,
        out,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn b(a: usize, b: usize, len: usize) -> Block {
        Block { a, b, len }
    }

    #[test]
    fn block_split_at_failed_third_sentence() {
        let mut out = Vec::new();
        verify(Match { a: 4, b: 7, len: 5 }, |i, _| i != 6, 2, &mut out);
        assert_eq!(out, [b(4, 7, 2), b(7, 10, 2)]);
    }

    #[test]
    fn block_failing_at_second_and_third_is_dropped() {
        let mut out = Vec::new();
        verify(
            Match { a: 0, b: 0, len: 4 },
            |i, _| i != 1 && i != 2,
            2,
            &mut out,
        );
        assert!(out.is_empty());
    }

    #[test]
    fn fully_passing_block_is_kept_whole_and_min_block_applies() {
        let mut out = Vec::new();
        verify(Match { a: 1, b: 2, len: 3 }, |_, _| true, 2, &mut out);
        assert_eq!(out, [b(1, 2, 3)]);
        out.clear();
        verify(Match { a: 1, b: 2, len: 3 }, |_, _| true, 4, &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn tiling_with_repeated_content_keeps_one_to_one_blocks() {
        // A = x y x y (a block "x y" twice), B = x y. Candidate blocks: A[0..2]~B[0..2],
        // A[2..4]~B[0..2]. Only one can use B's two sentences: the one earlier in A.
        let blocks = [b(0, 0, 2), b(2, 0, 2)];
        assert_eq!(tile(&blocks, 2, 4, 2), [b(0, 0, 2)]);
    }

    #[test]
    fn tiling_prefers_the_longest_and_cuts_the_rest() {
        // A long block 0..5 ~ 0..5 and an overlapping one 3..8 ~ 10..15: the second is cut to
        // 5..8 ~ 12..15 (3 sentences) and kept.
        let blocks = [b(3, 10, 5), b(0, 0, 5)];
        assert_eq!(tile(&blocks, 2, 20, 20), [b(0, 0, 5), b(5, 12, 3)]);
    }

    #[test]
    fn tiling_drops_pieces_cut_below_the_minimum() {
        let blocks = [b(0, 0, 4), b(3, 6, 2)];
        assert_eq!(tile(&blocks, 2, 10, 10), [b(0, 0, 4)]);
    }

    fn blocks_strategy() -> impl Strategy<Value = (Vec<Block>, usize)> {
        (2usize..5).prop_flat_map(|min| {
            (
                proptest::collection::vec((0usize..12, 0usize..12, 1usize..7), 0..12)
                    .prop_map(|v| v.into_iter().map(|(a, bb, len)| b(a, bb, len)).collect()),
                Just(min),
            )
        })
    }

    proptest! {
        #[test]
        fn lazy_tiling_equals_naive_tiling((blocks, min) in blocks_strategy()) {
            let mut blocks = blocks;
            blocks.sort_unstable();
            blocks.dedup();
            prop_assert_eq!(tile(&blocks, min, 20, 20), tile_naive(&blocks, min, 20, 20));
        }

        #[test]
        fn tiled_blocks_are_one_to_one((blocks, min) in blocks_strategy()) {
            let kept = tile(&blocks, min, 20, 20);
            let mut seen_a = [false; 20];
            let mut seen_b = [false; 20];
            for k in kept {
                prop_assert!(k.len >= min);
                for i in 0..k.len {
                    prop_assert!(!seen_a[k.a + i] && !seen_b[k.b + i]);
                    seen_a[k.a + i] = true;
                    seen_b[k.b + i] = true;
                }
            }
        }
    }
}
