//! tantivy's Block-Max WAND over the posting lists, step by step: the cursors, the pivot, the
//! block skips, and the top-k heap — the order in which a document's term scores are added is
//! what the module docs of [`super`] say must be reproduced.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use super::{BLOCK, Postings, TERMINATED, Weight};

/// A cursor on a posting list, moving as tantivy's term scorer moves: a position in the
/// current decoded block, and a block "skip" position that can run ahead of it (a shallow
/// seek), with the block maximum read from the skip position.
pub(super) struct Cursor<'a> {
    pub(super) p: &'a Postings,
    pub(super) codes: &'a [u8],
    pub(super) weight: Weight<'a>,
    pub(super) max_score: f32,
    /// The document at the position ([`TERMINATED`] past the end).
    pub(super) doc: u32,
    /// The block the skip position is on (`p.blocks.len()`: the last, partial block).
    pub(super) skip: usize,
    /// Whether the skip position's block is the decoded one.
    pub(super) loaded: bool,
    /// The decoded block, and the position in it.
    pub(super) decoded: usize,
    pub(super) cur: usize,
    pub(super) block_max: Option<f32>,
}

impl<'a> Cursor<'a> {
    pub(super) fn new(p: &'a Postings, codes: &'a [u8], weight: Weight<'a>) -> Self {
        Cursor {
            p,
            codes,
            weight,
            max_score: weight.max_score(),
            doc: p.docs.first().copied().unwrap_or(TERMINATED),
            skip: 0,
            loaded: true,
            decoded: 0,
            cur: 0,
            block_max: None,
        }
    }

    /// The document at `cur` of the decoded block; past the end of the list, [`TERMINATED`].
    pub(super) fn doc_at(&self, cur: usize) -> u32 {
        let i = self.decoded * BLOCK + cur;
        self.p.docs.get(i).copied().unwrap_or(TERMINATED)
    }

    pub(super) fn set_cur(&mut self, cur: usize) -> u32 {
        self.cur = cur;
        self.doc = self.doc_at(cur);
        self.doc
    }

    pub(super) fn score(&self) -> f32 {
        let i = self.decoded * BLOCK + self.cur;
        self.weight
            .score(self.codes[self.doc as usize], self.p.tfs[i])
    }

    pub(super) fn last_doc_in_block(&self) -> u32 {
        self.p
            .blocks
            .get(self.skip)
            .map_or(TERMINATED, |b| b.last_doc)
    }

    /// Move the skip position to the first block whose last document is at least `target`.
    pub(super) fn seek_block(&mut self, target: u32) {
        if self.last_doc_in_block() >= target {
            return;
        }
        while self.last_doc_in_block() < target {
            self.skip += 1;
        }
        self.loaded = false;
        self.block_max = None;
    }

    pub(super) fn load(&mut self) {
        if !self.loaded {
            self.decoded = self.skip;
            self.loaded = true;
        }
    }

    pub(super) fn advance(&mut self) -> u32 {
        if self.cur == BLOCK - 1 {
            self.skip += 1;
            self.loaded = false;
            self.block_max = None;
            self.load();
            self.set_cur(0)
        } else {
            self.set_cur(self.cur + 1)
        }
    }

    /// The first document at least `target`.
    pub(super) fn seek(&mut self, target: u32) -> u32 {
        if self.doc >= target {
            return self.doc;
        }
        if self.set_cur((self.cur + 1).min(BLOCK - 1)) >= target {
            return self.doc;
        }
        self.seek_block(target);
        self.load();
        let cur = (0..BLOCK)
            .find(|&c| self.doc_at(c) >= target)
            .unwrap_or(BLOCK - 1);
        self.set_cur(cur)
    }

    /// An upper bound of the scores in the skip position's block: the recorded maximum of a
    /// full block; of the last block, its exact maximum once decoded, else the term's bound.
    pub(super) fn block_max_score(&mut self) -> f32 {
        if let Some(s) = self.block_max {
            return s;
        }
        let s = if let Some(b) = self.p.blocks.get(self.skip) {
            self.weight.score(b.code, b.tf)
        } else if self.loaded {
            let start = self.decoded * BLOCK;
            let mut scores = (start..self.p.docs.len()).map(|i| {
                self.weight
                    .score(self.codes[self.p.docs[i] as usize], self.p.tfs[i])
            });
            scores
                .next()
                .map_or(0.0, |first| scores.fold(first, f32::max))
        } else {
            return self.max_score;
        };
        self.block_max = Some(s);
        s
    }
}

/// Cursors and their current order (tantivy reorders the cursors themselves; the same moves
/// are made here on their numbers).
pub(super) struct Wand<'a> {
    cursors: Vec<Cursor<'a>>,
    order: Vec<usize>,
}

impl<'a> Wand<'a> {
    pub(super) fn at(&self, i: usize) -> &Cursor<'a> {
        &self.cursors[self.order[i]]
    }

    pub(super) fn at_mut(&mut self, i: usize) -> &mut Cursor<'a> {
        &mut self.cursors[self.order[i]]
    }

    pub(super) fn sort(&mut self) {
        let cursors = &self.cursors;
        self.order.sort_by_key(|&c| cursors[c].doc);
    }
}

/// Block-Max WAND over two or more cursors, as tantivy 0.27 runs it: `found(doc, score)` is
/// called for each document scoring above the threshold it returned last (at first `f32::MIN`),
/// in increasing document order.
pub(super) fn block_max_wand(cursors: Vec<Cursor>, found: &mut dyn FnMut(u32, f32) -> f32) {
    let mut threshold = f32::MIN;
    let mut w = Wand {
        order: (0..cursors.len()).collect(),
        cursors,
    };
    w.sort();
    while let Some((before_pivot, pivot_len, pivot)) = find_pivot(&w, threshold) {
        let block_bound: f32 = (0..pivot_len)
            .map(|i| {
                let c = w.at_mut(i);
                c.seek_block(pivot);
                c.block_max_score()
            })
            .sum();
        if block_bound <= threshold {
            skip_block(&mut w, pivot_len);
            continue;
        }
        if !align(&mut w, pivot, before_pivot) {
            continue;
        }
        let score: f32 = (0..pivot_len).map(|i| w.at(i).score()).sum();
        if score > threshold {
            threshold = found(pivot, score);
        }
        for i in 0..pivot_len {
            w.at_mut(i).advance();
        }
        let mut i = 0;
        while i != w.order.len() {
            if w.at(i).doc == TERMINATED {
                w.order.swap_remove(i);
            } else {
                i += 1;
            }
        }
        w.sort();
    }
}

/// The first document that might score above `threshold`: (cursors before it, cursors on or
/// before it, the document); `None` when no document can.
pub(super) fn find_pivot(w: &Wand, threshold: f32) -> Option<(usize, usize, u32)> {
    let mut bound = 0.0f32;
    let before = w.order.iter().position(|&c| {
        bound += w.cursors[c].max_score;
        bound > threshold
    })?;
    let pivot = w.at(before).doc;
    if pivot == TERMINATED {
        return None;
    }
    let on = w.order[before + 1..]
        .iter()
        .take_while(|&&c| w.cursors[c].doc == pivot)
        .count();
    Some((before, before + 1 + on, pivot))
}

/// The pivot's blocks cannot beat the threshold: move the cursor with the largest bound among
/// the first `pivot_len` past the nearest block end (or to the next cursor's document).
pub(super) fn skip_block(w: &mut Wand, pivot_len: usize) {
    let mut to_seek = pivot_len - 1;
    let mut best = w.at(to_seek).max_score;
    let mut target = w.at(to_seek).last_doc_in_block();
    for i in (0..pivot_len - 1).rev() {
        let c = w.at(i);
        target = target.min(c.last_doc_in_block());
        if c.max_score > best {
            best = c.max_score;
            to_seek = i;
        }
    }
    if target != TERMINATED {
        target += 1;
    }
    for i in pivot_len..w.order.len() {
        target = target.min(w.at(i).doc);
    }
    w.at_mut(to_seek).seek(target);
    restore_order(w, to_seek);
}

/// Move the cursors before the pivot to it; false (order restored) when one goes past it.
pub(super) fn align(w: &mut Wand, pivot: u32, before_pivot: usize) -> bool {
    for i in (0..before_pivot).rev() {
        let doc = w.at_mut(i).seek(pivot);
        if doc != pivot {
            if doc == TERMINATED {
                w.order.swap_remove(i);
            }
            restore_order(w, i);
            return false;
        }
    }
    true
}

/// Cursor `i` moved forward: move it up past the cursors on smaller documents (it goes before
/// those on the same document).
pub(super) fn restore_order(w: &mut Wand, i: usize) {
    let doc = w.at(i).doc;
    for j in i + 1..w.order.len() {
        if w.at(j).doc >= doc {
            break;
        }
        w.order.swap(j, j - 1);
    }
}

/// A document in the top-k heap: ordered by score, then the earlier document first.
pub(super) struct Entry {
    score: f32,
    doc: u32,
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        self.score
            .partial_cmp(&other.score)
            .unwrap_or(Ordering::Equal)
            .then_with(|| other.doc.cmp(&self.doc))
    }
}

/// The best `k` documents seen, documents arriving in increasing order; a score equal to the
/// k-th does not enter, so the earlier document wins ties.
pub(super) struct TopHeap {
    heap: BinaryHeap<Reverse<Entry>>,
    k: usize,
}

impl TopHeap {
    pub(super) fn new(k: usize) -> Self {
        TopHeap {
            heap: BinaryHeap::with_capacity(k),
            k,
        }
    }

    /// Offer a document; the new threshold (the k-th score, or `f32::MIN` until k are held).
    pub(super) fn push(&mut self, score: f32, doc: u32) -> f32 {
        if self.heap.len() < self.k {
            self.heap.push(Reverse(Entry { score, doc }));
        } else if let Some(mut min) = self.heap.peek_mut()
            && score > min.0.score
        {
            *min = Reverse(Entry { score, doc });
        }
        if self.heap.len() == self.k {
            self.heap.peek().map_or(f32::MIN, |e| e.0.score)
        } else {
            f32::MIN
        }
    }

    pub(super) fn into_vec(self) -> Vec<(u32, f32)> {
        self.heap
            .into_vec()
            .into_iter()
            .map(|Reverse(e)| (e.doc, e.score))
            .collect()
    }
}
