//! How the postings are made: the corpus's slots listed, sorted and laid out in passes over
//! buckets of their keys' first terms ([`Passes`]), so that the sort's buffers are one pass's.
//!
//! Each pass lists every document's slots again, in one listing per document: it takes the
//! previous pass's links of its slots (where their postings start, and what each sentence
//! costs to walk), writes this pass's entries and counts the next pass's ([`Build::list`]).
//! The entries are then sorted, and each key's list is laid out after the lists so far, its
//! entries linked to the postings after their documents' ([`Build::lay_out`]). A pass after
//! the last only links. A corpus sorted in one pass needs no buckets, and its slots are linked
//! without listing what their keys are made of ([`Build::link_in_place`]).

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use rdst::RadixSort;

use super::super::keys::{KeyTerms, Slot};
use super::super::{CorpusView, RobustProfile, RobustSlst};
use super::postings::{
    BUCKETS, Entry, KEY_MASK, LAST, NONE, PASS_BITS, Packing, Postings, bucket, documents,
    first_run, offsets, pieces_at_keys, split_parts,
};
use super::rare;

/// A link not yet made: no postings after the entry's document's.
const UNLINKED: u64 = (NONE as u64) << 32;

/// A link's low half holds how many postings follow, below 2^24 (saturated: the count only
/// steers which sentences a walk takes), and above them the key's document frequency, 255 for
/// 255 and more ([`rare`]).
const COUNT_BITS: u32 = 24;
const COUNT_MASK: u32 = (1 << COUNT_BITS) - 1;

/// A link to `next` (or [`NONE`]), with `count` postings from there, of a key held by `docs`
/// documents.
fn make_link(next: u32, count: usize, docs: usize) -> u64 {
    u64::from(next) << 32
        | (docs.min(255) as u64) << COUNT_BITS
        | count.min(COUNT_MASK as usize) as u64
}

/// The corpus's documents, as the build lists their slots.
struct Listing<'a> {
    detector: &'a RobustSlst,
    sketches: &'a [&'a RobustProfile],
    views: &'a [&'a CorpusView],
    /// Whether the single keys are among the slots.
    singles: bool,
}

impl Listing<'_> {
    /// Calls `visit` with each slot of document `d` whose key's first term `take` takes (as
    /// [`CorpusView::each_join_slot`]), and returns how many slots `d` has.
    fn each(
        &self,
        d: usize,
        take: impl Fn(u64) -> bool,
        visit: impl FnMut(usize, KeyTerms, u32),
    ) -> usize {
        self.views[d].each_join_slot(self.detector, self.sketches[d], self.singles, take, visit)
    }
}

/// How the slots are sorted in passes: 2^`bits` groups of buckets of the keys' first terms,
/// each a pass, taken largest first.
struct Passes {
    /// The passes are 2^bits (0: one pass, which needs no buckets).
    bits: u32,
    /// Buckets per group.
    width: usize,
    /// Per group of buckets, its pass.
    pass_of_group: Vec<usize>,
    /// The slots of each pass, in pass order.
    sizes: Vec<usize>,
    /// Each document's slots in the first pass (empty for one pass: then all of them).
    first: Vec<usize>,
}

impl Passes {
    /// Passes of at most about `pass_entries` slots each, unless that takes more than
    /// [`PASS_BITS`] bits, for the corpus's `total` slots.
    ///
    /// One listing of the slots counts each document's slots per group of buckets: the
    /// groups' sizes, which order the passes, and each document's part of the first pass,
    /// without a second listing (at 100,000 documents of the realistic corpus a listing of
    /// every slot is about a twentieth of the candidates stage, and two passes list them four
    /// times). The counts take 4 bytes per document and group, 64 MB at a million documents
    /// in 16 passes, freed before the passes' buffers are made.
    fn new(listing: &Listing, total: usize, pass_entries: usize) -> Self {
        let n = listing.views.len();
        let bits = (0..PASS_BITS)
            .find(|&b| total.div_ceil(1 << b) <= pass_entries)
            .unwrap_or(PASS_BITS);
        let width = BUCKETS >> bits;
        let groups = 1 << bits;
        // Each document's slots per group of buckets of their keys' first terms.
        let mut counts = vec![0u32; if bits == 0 { 0 } else { n * groups }];
        counts
            .par_chunks_mut(groups)
            .enumerate()
            .for_each(|(d, counts)| {
                let count = |_, terms: KeyTerms, _| counts[bucket(terms.first()) / width] += 1;
                listing.each(d, |_| true, count);
            });
        let mut group_sizes = vec![0usize; groups];
        if bits == 0 {
            group_sizes[0] = total;
        }
        for counts in counts.chunks(groups) {
            group_sizes
                .iter_mut()
                .zip(counts)
                .for_each(|(size, &c)| *size += c as usize);
        }
        // Each group of buckets is a pass, taken largest first: the sort's buffers, made for
        // the first pass, shrink to each next one's while the postings grow.
        let mut by_pass: Vec<usize> = (0..groups).collect();
        by_pass.sort_by_key(|&g| (std::cmp::Reverse(group_sizes[g]), g));
        let mut pass_of_group = vec![0; groups];
        for (pass, &g) in by_pass.iter().enumerate() {
            pass_of_group[g] = pass;
        }
        let first = counts
            .chunks(groups)
            .map(|counts| counts[by_pass[0]] as usize)
            .collect();
        let sizes = by_pass.iter().map(|&g| group_sizes[g]).collect();
        Passes {
            bits,
            width,
            pass_of_group,
            sizes,
            first,
        }
    }

    /// How many passes there are.
    fn count(&self) -> usize {
        1 << self.bits
    }

    /// The pass that takes the slots whose keys' first term is `first`.
    fn of(&self, first: u64) -> usize {
        self.pass_of_group[bucket(first) / self.width]
    }

    /// Each document's slots in the first pass.
    fn first_sizes(&mut self, first_slot: &[usize]) -> Vec<usize> {
        if self.bits == 0 {
            // One pass takes every slot.
            return first_slot.windows(2).map(|w| w[1] - w[0]).collect();
        }
        std::mem::take(&mut self.first)
    }
}

/// The postings as they are made, pass by pass, with what every pass reads.
struct Build<'a> {
    listing: Listing<'a>,
    /// Each document's first global slot and first global sentence.
    first_slot: &'a [usize],
    first_unit: &'a [usize],
    /// Each document's place in (size, index) order.
    rank: &'a [u32],
    passes: Passes,
    packing: &'a Packing,
    max_df: usize,
    /// The current pass's entries, room for the largest pass still to come.
    entries: Vec<Entry>,
    /// Per entry of a pass, at its place as written before the sort (an entry's holder is
    /// rank << 32 | that place): once its list is laid out, the first posting after its
    /// document's and how many follow. Written at random places of this pass-sized column
    /// rather than of the slot-sized ones, which each document then fills in order.
    /// (first << 32 | how many), as atomics only for the parallel pieces to write them.
    links: Vec<AtomicU64>,
    /// [`Postings::after`], [`Postings::cost`], [`Postings::holders`], [`Postings::lengths`],
    /// [`Postings::left_out`] as far as made.
    after: Vec<u32>,
    cost: Vec<u32>,
    holders: Vec<u32>,
    lengths: Vec<[u8; 2]>,
    left_out: Vec<u64>,
    /// Per slot, its key's document frequency (255 for 255 and more; 0 for a key no other
    /// document holds, or left out) while the postings are made, when only rare keys are
    /// looked up ([`rare`]); else empty.
    docs: Vec<u8>,
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
        (max_df, rare_df): (usize, usize),
        pass_entries: usize,
        singles: bool,
        packing: &Packing,
    ) -> Postings {
        let listing = Listing {
            detector: self,
            sketches,
            views,
            singles,
        };
        let n = views.len();
        let total = first_slot[n];
        let mut passes = Passes::new(&listing, total, pass_entries);
        let largest = passes.sizes.first().copied().unwrap_or(0);
        // Made in parallel, as are the other slot-sized columns: their first touch (the kernel
        // zeroing each fresh page) is a large share of a large run's time.
        let entries: Vec<Entry> = (0..largest)
            .into_par_iter()
            .map(|_| Entry {
                packed: 0,
                holder: 0,
            })
            .collect();
        let links: Vec<AtomicU64> = (0..largest)
            .into_par_iter()
            .map(|_| AtomicU64::new(UNLINKED))
            .collect();
        let after: Vec<u32> = (0..total).into_par_iter().map(|_| NONE).collect();
        let cost: Vec<u32> = (0..first_unit[n]).into_par_iter().map(|_| 0).collect();
        let docs: Vec<u8> = (0..if rare_df > 0 { total } else { 0 })
            .into_par_iter()
            .map(|_| 0)
            .collect();
        // Each document's slots in the next pass: the first pass's counted here, each later
        // one's while the pass before it is written.
        let mut sizes = passes.first_sizes(first_slot);
        let mut build = Build {
            listing,
            first_slot,
            first_unit,
            rank,
            passes,
            packing,
            max_df,
            entries,
            links,
            after,
            cost,
            holders: Vec::new(),
            lengths: Vec::new(),
            left_out: Vec::new(),
            docs,
        };
        let count = build.passes.count();
        // Each document's first place in the previous pass.
        let mut previous: Vec<usize> = Vec::new();
        for p in 0..=count {
            let first = offsets(sizes.iter().copied());
            if p == count && build.passes.bits == 0 {
                build.link_in_place();
                break;
            }
            build.list(p, &first, &previous, &mut sizes);
            if p == count {
                break;
            }
            build.lay_out(first[n]);
            previous = first;
            // This pass's entries are written out: the next pass's need only its room.
            let next = build.passes.sizes.get(p + 1).copied().unwrap_or(0);
            build.entries.truncate(next);
            build.entries.shrink_to_fit();
        }
        if rare_df > 0 {
            build.keep_rare(rare_df);
        }
        Postings {
            after: build.after,
            holders: build.holders,
            lengths: build.lengths,
            cost: build.cost,
            looks: build.docs,
            left_out: {
                let mut keys = build.left_out;
                keys.par_sort_unstable();
                keys
            },
        }
    }
}

impl Build<'_> {
    /// A slot-sized or sentence-sized `column` cut into each document's part, by where each
    /// document's part starts (`first`, and last where the last ends).
    fn slot_parts<'c, T>(column: &'c mut [T], first: &[usize]) -> Vec<&'c mut [T]> {
        split_parts(column, first.windows(2).map(|w| w[1] - w[0]))
    }

    /// Each document's part of the slots' document frequencies `docs` (none when they are not
    /// kept), by where each document's slots start (`first_slot`).
    fn docs_parts<'c>(docs: &'c mut [u8], first_slot: &[usize]) -> Vec<&'c mut [u8]> {
        if docs.is_empty() {
            (0..first_slot.len() - 1)
                .map(|_| Default::default())
                .collect()
        } else {
            Self::slot_parts(docs, first_slot)
        }
    }

    /// Only the rare keys of each sentence are looked up ([`rare`]): each slot's frequency
    /// becomes which of its sentences look it up ([`Postings::looks`]), a slot none looks up
    /// is unlinked from its postings (a walk from its document reads none; other documents'
    /// walks still find it in them), and each sentence costs the document frequencies of the
    /// keys it looks up: what its walk reads, near enough to choose which sentences to walk
    /// (the postings after each slot's own, counted, would be a read at a random place per
    /// slot).
    fn keep_rare(&mut self, rare_df: usize) {
        let after_parts = Self::slot_parts(&mut self.after, self.first_slot);
        let cost_parts = Self::slot_parts(&mut self.cost, self.first_unit);
        let docs_parts = Self::slot_parts(&mut self.docs, self.first_slot);
        let listing = &self.listing;
        after_parts
            .into_par_iter()
            .zip(cost_parts)
            .zip(docs_parts)
            .enumerate()
            .for_each_init(Vec::new, |codes, (d, ((after, cost), docs))| {
                codes.clear();
                listing.each(d, |_| true, |_, _, code| codes.push(code));
                let budget = listing.detector.config.rare_budget;
                let bounds = rare::bounds(codes, docs, cost.len(), (rare_df, budget));
                cost.fill(0);
                for (k, &code) in codes.iter().enumerate() {
                    let units = (Slot { key: 0, code }).units();
                    let df = docs[k];
                    docs[k] = rare::looks(df, units.clone(), &bounds);
                    if docs[k] == 0 {
                        after[k] = NONE;
                    }
                    if after[k] == NONE {
                        continue;
                    }
                    for u in rare::looking(docs[k], units) {
                        cost[u] = cost[u].saturating_add(u32::from(df));
                    }
                }
            });
    }

    /// One pass: each slot's link is at its own place, so the slots are listed without what
    /// their keys are made of, which then need not be worked out.
    fn link_in_place(&mut self) {
        let docs_parts = Self::docs_parts(&mut self.docs, self.first_slot);
        let after_parts = Self::slot_parts(&mut self.after, self.first_slot);
        let cost_parts = Self::slot_parts(&mut self.cost, self.first_unit);
        let (listing, links, first_slot) = (&self.listing, &self.links, self.first_slot);
        after_parts
            .into_par_iter()
            .zip(cost_parts)
            .zip(docs_parts)
            .enumerate()
            .for_each(|(d, ((after, cost), docs))| {
                let links = &links[first_slot[d]..first_slot[d + 1]];
                let visit = |k: usize, _, code| {
                    let link = links[k].load(Ordering::Relaxed);
                    take_link(link, k, code, (after, cost, docs));
                };
                listing.each(d, |_| true, visit);
            });
    }

    /// Lists pass `p`'s slots, each document's written in place into its own part from
    /// `first` (collecting a parallel iterator of unknown length would first gather pieces).
    /// In one listing of its slots, each document takes the previous pass's links of its
    /// slots, in order, from its place `previous`, writes this pass's and counts the next
    /// pass's into `sizes`.
    fn list(&mut self, p: usize, first: &[usize], previous: &[usize], sizes: &mut [usize]) {
        let m = first[first.len() - 1];
        let docs_parts = Self::docs_parts(&mut self.docs, self.first_slot);
        let parts = split_parts(&mut self.entries[..m], sizes.iter().copied());
        let after_parts = Self::slot_parts(&mut self.after, self.first_slot);
        let cost_parts = Self::slot_parts(&mut self.cost, self.first_unit);
        let (listing, links, passes, rank) = (&self.listing, &self.links, &self.passes, self.rank);
        parts
            .into_par_iter()
            .zip(after_parts.into_par_iter().zip(docs_parts))
            .zip(cost_parts)
            .zip(sizes.par_iter_mut())
            .enumerate()
            .for_each(|(d, (((part, (after, docs)), cost), size))| {
                let sketch = listing.sketches[d];
                let mut links = links[previous.get(d).copied().unwrap_or(0)..].iter();
                let (mut next, mut later) = (0, 0);
                // The slots of passes p − 1, p and p + 1 (the last pass only links).
                let take = |first| (p.saturating_sub(1)..=p + 1).contains(&passes.of(first));
                listing.each(d, take, |k, terms, code| {
                    let pass = passes.of(terms.first());
                    if pass + 1 == p {
                        let Some(link) = links.next() else { return };
                        let link = link.load(Ordering::Relaxed);
                        take_link(link, k, code, (&mut *after, &mut *cost, &mut *docs));
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
    }

    /// Sorts the pass's `m` entries and lays out their keys' lists after the lists so far,
    /// linking each entry to the postings after its document's.
    fn lay_out(&mut self, m: usize) {
        // The previous pass's links are all taken: they need only this pass's room.
        self.links.truncate(m);
        self.links.shrink_to_fit();
        self.links[..m]
            .par_iter()
            .for_each(|l| l.store(UNLINKED, Ordering::Relaxed));
        // A radix sort: several times faster than a comparison sort on these 10⁷-entry
        // lists.
        self.entries[..m]
            .radix_sort_builder()
            .with_low_mem_tuner()
            .sort();
        // First, per piece, the postings kept; keys equal in their sorted bytes and not in
        // all 8 are told apart.
        let pieces = pieces_at_keys(&self.entries[..m], 8 * rayon::current_num_threads());
        let mut tallies = tally(&mut self.entries[..m], &pieces, self.max_df);
        for (_, left_out) in &mut tallies {
            self.left_out.append(left_out);
        }
        self.write_lists(m, &pieces, &tallies);
    }

    /// Writes the lists of the pass's sorted `m` entries after the lists so far, each piece of
    /// `pieces` (entries) the postings `tallies` counts after the previous pieces', and links
    /// each entry to the postings after its document's.
    fn write_lists(&mut self, m: usize, pieces: &[usize], tallies: &[(usize, Vec<u64>)]) {
        let packing = self.packing;
        let base = self.holders.len();
        let kept: usize = tallies.iter().map(|t| t.0).sum();
        // Grown by exactly this pass's lists: doubling would leave up to twice the
        // postings' memory reserved.
        self.holders.reserve_exact(kept);
        self.holders.par_extend(rayon::iter::repeat_n(0, kept));
        let own_lengths = |kept: usize| if packing.packed() { 0 } else { kept };
        self.lengths.reserve_exact(own_lengths(kept));
        self.lengths
            .par_extend(rayon::iter::repeat_n([0; 2], own_lengths(kept)));
        let mut starts = Vec::with_capacity(pieces.len());
        let mut start = base;
        let mut from = 0;
        for (&piece, t) in pieces.iter().zip(tallies) {
            starts.push((from..from + piece, start));
            from += piece;
            start += t.0;
        }
        let out = split_parts(&mut self.holders[base..], tallies.iter().map(|t| t.0));
        let out_lengths = split_parts(
            &mut self.lengths[own_lengths(base)..],
            tallies.iter().map(|t| own_lengths(t.0)),
        );
        let (sorted, links, max_df) = (&self.entries[..m], &self.links, self.max_df);
        starts.into_par_iter().zip(out).zip(out_lengths).for_each(
            |(((piece, start), out), out_lengths)| {
                let mut j = 0;
                for list in sorted[piece].chunk_by(|x, y| x.key() == y.key()) {
                    let docs = documents(list);
                    if docs < 2 || docs > max_df {
                        continue;
                    }
                    let lists = (&mut *out, &mut *out_lengths);
                    j += write_list(list, docs, lists, (j, start), packing, links);
                }
            },
        );
    }
}

/// Takes slot `k`'s `link` (of code `code`) into its document's parts of the slot and sentence
/// columns: where its postings start, what they add to its sentences' costs, and its key's
/// document frequency when those are kept.
fn take_link(
    link: u64,
    k: usize,
    code: u32,
    (after, cost, docs): (&mut [u32], &mut [u32], &mut [u8]),
) {
    after[k] = (link >> 32) as u32;
    for u in (Slot { key: 0, code }).units() {
        cost[u] = cost[u].saturating_add(link as u32 & COUNT_MASK);
    }
    if let Some(d) = docs.get_mut(k) {
        *d = (link as u32 >> COUNT_BITS) as u8;
    }
}

/// Per piece of `entries` (sorted, cut at `pieces`): the postings kept and the keys left out
/// as held by more than `max_df` documents. Keys equal in their sorted bytes and not in all
/// their kept bits are sorted apart here.
fn tally(entries: &mut [Entry], pieces: &[usize], max_df: usize) -> Vec<(usize, Vec<u64>)> {
    split_parts(entries, pieces.iter().copied())
        .into_par_iter()
        .map(|piece| {
            let (mut kept, mut left_out) = (0, Vec::new());
            for sorted in piece.chunk_by_mut(|x, y| x.packed & KEY_MASK == y.packed & KEY_MASK) {
                if sorted.iter().any(|e| e.key() != sorted[0].key()) {
                    sorted.sort_unstable_by_key(|e| (e.key(), e.holder >> 32));
                }
                for list in sorted.chunk_by(|x, y| x.key() == y.key()) {
                    let docs = documents(list);
                    if docs > max_df {
                        left_out.push(list[0].key());
                    } else if docs >= 2 {
                        kept += list.len() - first_run(list);
                    }
                }
            }
            (kept, left_out)
        })
        .collect()
}

/// Writes one key's `list` of entries (sorted by document; `docs` documents) at `j` of its
/// piece's `out` holders (and lengths, when not packed), the piece's first posting being global
/// posting `start`, links its entries, and returns how many postings it wrote.
fn write_list(
    list: &[Entry],
    docs: usize,
    (out, out_lengths): (&mut [u32], &mut [[u8; 2]]),
    (j, start): (usize, usize),
    packing: &Packing,
    links: &[AtomicU64],
) -> usize {
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
    // A document holding the key in several slots: each of them starts after the last (the
    // sort leaves their order open; this keeps the walk's costs, and so its work and counts,
    // the same from run to run).
    let mut next = start + j;
    let runs = list.chunk_by(|x, y| x.holder >> 32 == y.holder >> 32);
    for (r, run) in runs.enumerate() {
        if r > 0 {
            next += run.len();
        }
        // The last document's slots have no postings after theirs, only the key's frequency.
        let link = if next == end {
            make_link(NONE, 0, docs)
        } else {
            make_link(next as u32, end - next, docs)
        };
        for e in run {
            links[e.holder as u32 as usize].store(link, Ordering::Relaxed);
        }
    }
    written.len()
}
