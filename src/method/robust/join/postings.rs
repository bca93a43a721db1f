//! Every key's postings, as the walk reads them: which documents hold each key after a given
//! document, with the lengths of the sentences they hold it with.
//!
//! The postings are most of a corpus run's memory, so they are kept lean: per slot, where the
//! postings after its document's start (4 bytes); per posting of a key held by two documents or
//! more, its document and lengths, in 4 bytes up to 2²⁰ documents ([`Packing`]; 6 past them) — keys
//! held by one document (half of Reuters-21578's slots, a fifth of the synthetic corpus's) have
//! none, and no list keeps its first document's postings, which no walk reads (18 % of them on
//! 100,000 synthetic documents). They are made in passes over buckets of the keys' first terms,
//! each sorting only its own keys, so the sort's buffers are one pass's: on 300,000 synthetic
//! documents the peak fell from 7.1 to 3.8 GB. The passes go largest first and the buffers
//! shrink to each next one's, so the last pass, when the postings are largest, has the smallest
//! buffers. Every pass lists the documents' slots again, but only what each key is made of: it
//! hashes the keys it takes, not the ones it leaves.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use rdst::{RadixKey, RadixSort};

use super::super::keys::{KeyTerms, Slot};
use super::super::{CorpusView, RobustProfile, RobustSlst};

/// A posting as sorted: its key's low [`KEY_BITS`] bits with, above them, the lengths of the
/// sentences its slot witnesses ([`Slot::lengths`]), so that they move with it through the sort
/// rather than being fetched at random afterwards; and its holder (document rank << 32 | its
/// place in its pass).
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry {
    pub(super) packed: u64,
    pub(super) holder: u64,
}

/// The bits of a key a posting keeps (with its pass, what tells keys apart). Two keys of a pass
/// equal in them are one key: as for any collision of the 64-bit keys, that can only add
/// candidate pairs (about one key in 10⁶ at 10⁸ distinct keys), never lose one, unless the
/// two together are held by more than `max_df` documents.
const KEY_BITS: u32 = 48;
const KEY_LOW: u64 = (1 << KEY_BITS) - 1;

impl Entry {
    pub(super) fn new(key: u64, lengths: [u8; 2], holder: u64) -> Self {
        let lengths = u64::from(u16::from_le_bytes(lengths)) << KEY_BITS;
        Entry {
            packed: key & KEY_LOW | lengths,
            holder,
        }
    }

    pub(super) fn key(self) -> u64 {
        self.packed & KEY_LOW
    }

    pub(super) fn lengths(self) -> [u8; 2] {
        ((self.packed >> KEY_BITS) as u16).to_le_bytes()
    }
}

/// Bytes of a key the radix sort orders by: 5, so that it makes 9 passes instead of 12. Keys
/// equal in them and not in all [`KEY_BITS`] (about one key in 10⁵ on a corpus of 10⁷ keys) are
/// told apart afterwards, so that each key's document frequency — what makes it boilerplate — is
/// its own.
const KEY_BYTES: usize = 5;
pub(super) const KEY_MASK: u64 = (1 << (8 * KEY_BYTES)) - 1;

/// Postings sort by key, then document (a radix sort over those bytes, least significant
/// first; the slot number does not matter to the order).
impl RadixKey for Entry {
    const LEVELS: usize = KEY_BYTES + 4;

    #[inline]
    fn get_level(&self, level: usize) -> u8 {
        if level < 4 {
            (self.holder >> (32 + 8 * level)) as u8
        } else {
            (self.packed >> (8 * (level - 4))) as u8
        }
    }
}

/// Postings sorted in one pass at most, unless that takes more than [`PASS_BITS`] passes:
/// 2^24 entries, 256 MiB and 128 MiB of links. A corpus with more slots is sorted in passes
/// over buckets of its keys' first terms ([`bucket`]), so that the sort's buffers are one
/// pass's, not every slot's.
pub(super) const PASS_ENTRIES: usize = 1 << 24;
/// The most passes of the postings build: 2^5.
const PASS_BITS: u32 = 5;

/// Marks the last posting of a key's list in [`Postings::holders`].
pub(super) const LAST: u32 = 1 << 31;
/// No postings after a slot's own: its key is held by no later document, or left out.
pub(super) const NONE: u32 = u32::MAX;

/// Every key's postings, as the walk reads them.
pub(super) struct Postings {
    /// Per global slot: the first posting after its own document's in its key's list (they
    /// run to the list's [`LAST`]), or [`NONE`]. Four bytes a slot, where a range would take
    /// eight: at scale this column is the largest the join keeps.
    pub(super) after: Vec<u32>,
    /// The document of each posting, as its rank in (size, index) order (below 2³¹), list
    /// after list, [`LAST`] set on each list's last; only keys held by two documents or more
    /// (and at most `max_df`) have a list, and it leaves out its first document's postings
    /// ([`first_run`]). With the lengths of its sentences in the bits the rank leaves free,
    /// when they fit ([`Packing`]).
    pub(super) holders: Vec<u32>,
    /// The lengths of the sentences each posting's slot witnesses ([`Slot::lengths`]), when
    /// they do not fit in its holder (else empty).
    pub(super) lengths: Vec<[u8; 2]>,
    /// Per global sentence: the postings its slots have after their own (what walking it
    /// costs), at most `u32::MAX`: a choice of which sentences to walk, which no count of
    /// that size would change. Four bytes a sentence (87 MB at a million documents).
    pub(super) cost: Vec<u32>,
    /// Keys left out as boilerplate.
    pub(super) capped: usize,
}

/// How a posting's lengths share its 32 bits with its document's rank and [`LAST`]: the rank
/// in the low `shift` bits, then the lengths' code (first · base + second, base one above the
/// corpus's longest kept sentence). With sentences of up to 35 terms (the default longest),
/// the code takes 11 bits, so up to 2²⁰ documents are packed; a larger corpus (or one that
/// keeps longer sentences) keeps the lengths in a column of their own, two bytes a posting
/// more. Packed, the walk reads one column instead of two, and the lists take a third less.
pub(super) struct Packing {
    /// Bits of the rank (0: not packed).
    shift: u32,
    /// Kept sentences' lengths are below it.
    base: u32,
    /// The lengths of each code; empty when not packed.
    table: Vec<[u8; 2]>,
}

impl Packing {
    /// How `n` documents' postings of sentences of at most `longest` terms (as [`Slot::lengths`]
    /// gives them: 255 at most) are packed.
    pub(super) fn new(n: usize, longest: usize) -> Self {
        let base = longest.min(u8::MAX as usize) as u32 + 1;
        let bits = |x: u32| u32::BITS - x.leading_zeros();
        let shift = bits(n.saturating_sub(1).min(u32::MAX as usize) as u32).max(1);
        if n as u64 > 1u64 << shift || shift + bits(base * base - 1) > 31 {
            return Packing {
                shift: 0,
                base,
                table: Vec::new(),
            };
        }
        let table = (0..base * base)
            .map(|code| [(code / base) as u8, (code % base) as u8])
            .collect();
        Packing { shift, base, table }
    }

    pub(super) fn packed(&self) -> bool {
        self.shift > 0
    }

    /// A packed holder: `rank` with `lengths` (each below the base).
    pub(super) fn pack(&self, rank: u32, lengths: [u8; 2]) -> u32 {
        let code = u32::from(lengths[0]) * self.base + u32::from(lengths[1]);
        code << self.shift | rank
    }

    /// The rank and lengths of the posting at `at`, whose holder is `holder`.
    #[inline]
    pub(super) fn unpack(&self, holder: u32, lengths: &[[u8; 2]], at: usize) -> (u32, [u8; 2]) {
        let holder = holder & !LAST;
        if self.packed() {
            let rank = holder & ((1 << self.shift) - 1);
            (rank, self.table[(holder >> self.shift) as usize])
        } else {
            (holder, lengths[at])
        }
    }
}

/// Buckets of the keys' first terms, which the postings are sorted in passes over.
pub(super) const BUCKETS: usize = 1 << PASS_BITS;

/// The bucket of the keys made with `first` as their first term
/// ([`super::keys::KeyTerms::first`]): a multiplicative hash of it, so that a pass lists the
/// slots it takes without hashing the keys of the slots it leaves.
pub(super) fn bucket(first: u64) -> usize {
    (first.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - PASS_BITS)) as usize
}

/// Where each of consecutive parts of the given sizes starts, and (last) where the last ends.
pub(super) fn offsets(sizes: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut offsets = vec![0];
    for size in sizes {
        offsets.push(offsets[offsets.len() - 1] + size);
    }
    offsets
}

/// `v` cut into consecutive parts of the given lengths.
pub(in super::super) fn split_parts<T>(
    mut v: &mut [T],
    lengths: impl Iterator<Item = usize>,
) -> Vec<&mut [T]> {
    let mut parts = Vec::new();
    for length in lengths {
        let (part, tail) = std::mem::take(&mut v).split_at_mut(length);
        parts.push(part);
        v = tail;
    }
    parts
}

/// The lengths of about `count` pieces of sorted `entries` that cut no run of keys equal in
/// their sorted bytes: pieces to work on in parallel.
fn pieces_at_keys(entries: &[Entry], count: usize) -> Vec<usize> {
    let mut lengths = Vec::with_capacity(count);
    let mut start = 0;
    for i in 1..=count {
        let mut end = (entries.len() * i / count).max(start);
        while end > 0
            && end < entries.len()
            && entries[end].packed & KEY_MASK == entries[end - 1].packed & KEY_MASK
        {
            end += 1;
        }
        lengths.push(end - start);
        start = end;
    }
    lengths
}

/// The postings of the first document holding a key, from its list (sorted by document): the
/// walk reads a list only after the walking document's own postings, so no walk reads these.
fn first_run(list: &[Entry]) -> usize {
    let first = list[0].holder >> 32;
    list.iter().take_while(|e| e.holder >> 32 == first).count()
}

/// The documents holding a key, from its list (sorted by document).
fn documents(list: &[Entry]) -> usize {
    1 + list
        .windows(2)
        .filter(|w| w[0].holder >> 32 != w[1].holder >> 32)
        .count()
}

impl RobustSlst {
    /// Every key's postings: each slot as ([`Entry`]) its key and holder, sorted, so that a
    /// key's postings follow document size. Only the lists of keys held by two documents or
    /// more, and at most `max_df`, are kept (on Reuters-21578 half the slots hold a key no other
    /// document holds). The slots are sorted in passes of at most about `pass_entries` each,
    /// over buckets of their keys' first terms ([`bucket`]), so that the sort's buffer is one
    /// pass's: every pass lists each document's slots again, hashing only the keys it takes
    /// (what a key is made of is cheap to list, its hash is not). A corpus sorted in one pass
    /// needs no buckets, and its slots are linked to their postings without listing what
    /// their keys are made of.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn postings(
        &self,
        sketches: &[&RobustProfile],
        views: &[&CorpusView],
        first_slot: &[usize],
        first_unit: &[usize],
        rank: &[u32],
        max_df: usize,
        pass_entries: usize,
        singles: bool,
        packing: &Packing,
    ) -> Postings {
        let n = views.len();
        let total = first_slot[n];
        let bits = (0..PASS_BITS)
            .find(|&b| total.div_ceil(1 << b) <= pass_entries)
            .unwrap_or(PASS_BITS);
        let width = BUCKETS >> bits;
        // The corpus's slots per bucket of their keys' first terms, which the passes go over.
        let bucket_sizes = if bits == 0 {
            let mut all = [0; BUCKETS];
            all[0] = total;
            all
        } else {
            (0..n)
                .into_par_iter()
                .fold(
                    || [0usize; BUCKETS],
                    |mut sizes, d| {
                        let count = |_, terms: KeyTerms, _| sizes[bucket(terms.first())] += 1;
                        views[d].each_join_slot(self, sketches[d], singles, |_| true, count);
                        sizes
                    },
                )
                .reduce(
                    || [0; BUCKETS],
                    |mut x, y| {
                        x.iter_mut().zip(y).for_each(|(x, y)| *x += y);
                        x
                    },
                )
        };
        // Each group of buckets is a pass, taken largest first: the sort's buffers, made for
        // the first pass, shrink to each next one's while the postings grow (on a million
        // synthetic documents, passes of 9.6 to 12.3 million slots).
        let group_sizes: Vec<usize> = bucket_sizes
            .chunks(width)
            .map(|c| c.iter().sum::<usize>())
            .collect();
        let mut by_pass: Vec<usize> = (0..group_sizes.len()).collect();
        by_pass.sort_by_key(|&g| (std::cmp::Reverse(group_sizes[g]), g));
        let mut pass_of_group = vec![0; group_sizes.len()];
        for (pass, &g) in by_pass.iter().enumerate() {
            pass_of_group[g] = pass;
        }
        let pass_sizes: Vec<usize> = by_pass.iter().map(|&g| group_sizes[g]).collect();
        // The pass that takes the slots whose keys' first term is `first`.
        let pass_of = |first: u64| pass_of_group[bucket(first) / width];
        let largest = pass_sizes.first().copied().unwrap_or(0);
        // Made in parallel, as are the other slot-sized columns: their first touch (the kernel
        // zeroing each fresh page) is a tenth of a large run's time.
        let mut entries: Vec<Entry> = (0..largest)
            .into_par_iter()
            .map(|_| Entry {
                packed: 0,
                holder: 0,
            })
            .collect();
        // Per entry of a pass, at its place as written before the sort (an entry's holder is
        // rank << 32 | that place): once its list is laid out, the first posting after its
        // document's and how many follow. Written at random places of this pass-sized column
        // rather than of the slot-sized ones, which each document then fills in order.
        // (first << 32 | how many), as atomics only for the parallel pieces to write them.
        const UNLINKED: u64 = (NONE as u64) << 32;
        let mut pass_links: Vec<AtomicU64> = (0..largest)
            .into_par_iter()
            .map(|_| AtomicU64::new(UNLINKED))
            .collect();
        let mut after: Vec<u32> = (0..total).into_par_iter().map(|_| NONE).collect();
        let mut cost: Vec<u32> = (0..first_unit[n]).into_par_iter().map(|_| 0).collect();
        let (mut holders, mut lengths): (Vec<u32>, Vec<[u8; 2]>) = (Vec::new(), Vec::new());
        let mut capped = 0;
        let passes: usize = 1 << bits;
        // Each document's first place in the previous pass.
        let mut previous: Vec<usize> = Vec::new();
        // Each document's slots in the next pass: the first pass's counted here, each later
        // one's while the pass before it is written.
        let mut sizes: Vec<usize> = if bits == 0 {
            // One pass takes every slot.
            first_slot.windows(2).map(|w| w[1] - w[0]).collect()
        } else {
            (0..n)
                .into_par_iter()
                .map(|d| {
                    let mut size = 0;
                    let take = |first| pass_of(first) == 0;
                    views[d].each_join_slot(self, sketches[d], singles, take, |_, _, _| size += 1);
                    size
                })
                .collect()
        };
        for p in 0..=passes {
            // This pass's slots, each document's written in place into its own part: collecting
            // a parallel iterator of unknown length would first gather pieces. In one listing
            // of its slots, each document takes the previous pass's links of its slots, in
            // order (where their postings start, and what each sentence costs to walk), writes
            // this pass's and counts the next pass's.
            let first = offsets(sizes.iter().copied());
            let m = first[n];
            let parts = split_parts(&mut entries[..m], sizes.iter().copied());
            let after_parts = split_parts(&mut after, first_slot.windows(2).map(|w| w[1] - w[0]));
            let cost_parts = split_parts(&mut cost, first_unit.windows(2).map(|w| w[1] - w[0]));
            if p == passes && bits == 0 {
                // One pass: each slot's link is at its own place, so the slots are listed
                // without what their keys are made of, which then need not be worked out.
                after_parts
                    .into_par_iter()
                    .zip(cost_parts)
                    .enumerate()
                    .for_each(|(d, (after, cost))| {
                        let links = &pass_links[first_slot[d]..first_slot[d + 1]];
                        let visit = |k: usize, _, code| {
                            let link = links[k].load(Ordering::Relaxed);
                            after[k] = (link >> 32) as u32;
                            for u in (Slot { key: 0, code }).units() {
                                cost[u] = cost[u].saturating_add(link as u32);
                            }
                        };
                        views[d].each_join_slot(self, sketches[d], singles, |_| true, visit);
                    });
                break;
            }
            parts
                .into_par_iter()
                .zip(after_parts)
                .zip(cost_parts)
                .zip(sizes.par_iter_mut())
                .enumerate()
                .for_each(|(d, (((part, after), cost), size))| {
                    let (view, sketch) = (views[d], sketches[d]);
                    let mut links = pass_links[previous.get(d).copied().unwrap_or(0)..].iter();
                    let (mut next, mut later) = (0, 0);
                    // The slots of passes p − 1, p and p + 1 (the last pass only links).
                    let take = |first| (p.saturating_sub(1)..=p + 1).contains(&pass_of(first));
                    view.each_join_slot(self, sketch, singles, take, |k, terms, code| {
                        let pass = pass_of(terms.first());
                        if pass + 1 == p {
                            let Some(link) = links.next() else { return };
                            let link = link.load(Ordering::Relaxed);
                            after[k] = (link >> 32) as u32;
                            for u in (Slot { key: 0, code }).units() {
                                cost[u] = cost[u].saturating_add(link as u32);
                            }
                        } else if pass == p {
                            let slot = Slot {
                                key: terms.key(),
                                code,
                            };
                            part[next] = Entry::new(
                                slot.key,
                                slot.lengths(sketch),
                                (rank[d] as u64) << 32 | (first[d] + next) as u64,
                            );
                            next += 1;
                        } else {
                            later += 1;
                        }
                    });
                    *size = later;
                });
            if p == passes {
                break;
            }
            // The previous pass's links are all taken: they need only this pass's room.
            pass_links.truncate(m);
            pass_links.shrink_to_fit();
            pass_links[..m]
                .par_iter()
                .for_each(|l| l.store(UNLINKED, Ordering::Relaxed));
            // A radix sort: several times faster than a comparison sort on these 10⁷-entry
            // lists.
            entries[..m]
                .radix_sort_builder()
                .with_low_mem_tuner()
                .sort();
            // First, per piece, the postings kept; keys equal in their sorted bytes and not in
            // all 8 are told apart.
            let pieces = pieces_at_keys(&entries[..m], 8 * rayon::current_num_threads());
            let tallies: Vec<(usize, usize)> =
                split_parts(&mut entries[..m], pieces.iter().copied())
                    .into_par_iter()
                    .map(|piece| {
                        let (mut kept, mut capped) = (0, 0);
                        for sorted in
                            piece.chunk_by_mut(|x, y| x.packed & KEY_MASK == y.packed & KEY_MASK)
                        {
                            if sorted.iter().any(|e| e.key() != sorted[0].key()) {
                                sorted.sort_unstable_by_key(|e| (e.key(), e.holder >> 32));
                            }
                            for list in sorted.chunk_by(|x, y| x.key() == y.key()) {
                                let docs = documents(list);
                                if docs > max_df {
                                    capped += 1;
                                } else if docs >= 2 {
                                    kept += list.len() - first_run(list);
                                }
                            }
                        }
                        (kept, capped)
                    })
                    .collect();
            capped += tallies.iter().map(|t| t.1).sum::<usize>();
            // Then each piece writes its lists after the previous pieces' and links each entry
            // to the postings after its document's.
            let base = holders.len();
            let kept: usize = tallies.iter().map(|t| t.0).sum();
            // Grown by exactly this pass's lists: doubling would leave up to twice the
            // postings' memory reserved.
            holders.reserve_exact(kept);
            holders.par_extend(rayon::iter::repeat_n(0, kept));
            let own_lengths = |kept: usize| if packing.packed() { 0 } else { kept };
            lengths.reserve_exact(own_lengths(kept));
            lengths.par_extend(rayon::iter::repeat_n([0; 2], own_lengths(kept)));
            let mut starts = Vec::with_capacity(pieces.len());
            let mut start = base;
            let mut from = 0;
            for (&piece, t) in pieces.iter().zip(&tallies) {
                starts.push((from..from + piece, start));
                from += piece;
                start += t.0;
            }
            let out = split_parts(&mut holders[base..], tallies.iter().map(|t| t.0));
            let out_lengths = split_parts(
                &mut lengths[own_lengths(base)..],
                tallies.iter().map(|t| own_lengths(t.0)),
            );
            let sorted = &entries;
            starts.into_par_iter().zip(out).zip(out_lengths).for_each(
                |(((piece, start), out), out_lengths)| {
                    let mut j = 0;
                    for list in sorted[piece].chunk_by(|x, y| x.key() == y.key()) {
                        let docs = documents(list);
                        if docs < 2 || docs > max_df {
                            continue;
                        }
                        // The first document's postings are no one's after its own: left out.
                        let written = &list[first_run(list)..];
                        for (i, e) in written.iter().enumerate() {
                            let rank = (e.holder >> 32) as u32;
                            if packing.packed() {
                                out[j + i] = packing.pack(rank, e.lengths());
                            } else {
                                out[j + i] = rank;
                                out_lengths[j + i] = e.lengths();
                            }
                        }
                        out[j + written.len() - 1] |= LAST;
                        let end = start + j + written.len();
                        // A document holding the key in several slots: each of them starts
                        // after the last (the sort leaves their order open; this keeps the
                        // walk's costs, and so its work and counts, the same from run to run).
                        let mut next = start + j;
                        let runs = list.chunk_by(|x, y| x.holder >> 32 == y.holder >> 32);
                        for (r, run) in runs.enumerate() {
                            if r > 0 {
                                next += run.len();
                            }
                            if next == end {
                                break;
                            }
                            let link = (next as u64) << 32 | (end - next) as u64;
                            for e in run {
                                pass_links[e.holder as u32 as usize].store(link, Ordering::Relaxed);
                            }
                        }
                        j += written.len();
                    }
                },
            );
            previous = first;
            // This pass's entries are written out: the next pass's need only its room.
            entries.truncate(pass_sizes.get(p + 1).copied().unwrap_or(0));
            entries.shrink_to_fit();
        }
        Postings {
            after,
            holders,
            lengths,
            cost,
            capped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_keeps_its_key_bits_and_its_lengths_apart() {
        let key = 0xfedc_ba98_7654_3210;
        let e = Entry::new(key, [255, 7], 3 << 32 | 9);
        assert_eq!(e.key(), key & 0xffff_ffff_ffff);
        assert_eq!(e.lengths(), [255, 7]);
        assert_eq!(e.key(), Entry::new(key, [1, 2], 0).key());
        // The radix sort's bytes are the key's, never the lengths'.
        assert_eq!(e.packed & KEY_MASK, key & KEY_MASK);
    }

    /// A posting's rank and lengths come back as packed, with [`LAST`] set or not, up to the
    /// largest rank and lengths; corpora whose ranks and lengths need more than 31 bits keep the
    /// lengths apart.
    #[test]
    fn packed_holders_give_back_rank_and_lengths() {
        let fits = |n: usize, longest: usize| Packing::new(n, longest).packed();
        // 36 × 36 codes take 11 bits: 2²⁰ documents, not one more.
        assert!(fits(1 << 20, 35) && !fits((1 << 20) + 1, 35));
        assert!(fits(1 << 15, 255) && !fits((1 << 15) + 1, 255));
        // Lengths clamped at 255 as the slots give them.
        assert!(fits(2, 300) && !fits(1 << 16, 300));
        assert!(fits(1, 35) && fits(0, 0));
        for (n, longest) in [(1, 35), (2, 1), (1000, 35), (1 << 20, 35), (1 << 15, 255)] {
            let packing = Packing::new(n, longest);
            let (top, long) = (n.max(1) as u32 - 1, longest.min(255) as u8);
            for rank in [0, top / 2, top] {
                for lengths in [
                    [0, 0],
                    [1, long],
                    [long, 1],
                    [long, long],
                    [long / 2, long.min(3)],
                ] {
                    let holder = packing.pack(rank, lengths);
                    assert_eq!(holder & LAST, 0, "{n} {longest}");
                    for last in [0, LAST] {
                        let back = packing.unpack(holder | last, &[], 0);
                        assert_eq!(back, (rank, lengths), "{n} {longest} {last}");
                    }
                }
            }
        }
        // Not packed: the holder is the rank, the lengths are the column's.
        let apart = Packing::new((1 << 20) + 1, 35);
        assert_eq!(apart.unpack(7 | LAST, &[[1, 2], [3, 4]], 1), (7, [3, 4]));
    }
}
