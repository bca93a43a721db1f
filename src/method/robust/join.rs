//! Candidate pairs of a corpus for robust SL+ST, by counting witnessed sentences.
//!
//! Every sentence of A that lies in a block of a comparison with B has a *witness*: a key of
//! one of A's [`Slot`]s that B also holds (a pair key of the two sentences of a block step, or a
//! single key of a one-sentence block; module docs of [`super`]). So the number of A's sentences
//! witnessed by keys B holds bounds the sentences in blocks, and with it every score. The join
//! counts it for every pair that shares a key, without listing the pairs first: for each
//! document A, it walks the postings of A's keys once, in the order of A's sentences, and counts
//! per document B at least as long (of two as long, the later) the sentences witnessed so far:
//! each pair is counted once, from its shorter document. Only pairs whose count could still satisfy
//! the report's rule are candidates. Compared with listing every pair that shares a key and
//! bounding each one afterwards, this reads each posting list once per holder and never sorts
//! or stores the pairs that cannot be reported.
//!
//! That holds as stated with every pair of anchors as a step's keys (`pair_keys` 0). By
//! default a step keys on 4 of those pairs, picked by min-wise hashes
//! ([`super::RobustConfig::pair_keys`]): a step whose two sentences have the same anchors as
//! the other document's shares each of them, one of edited sentences may share none, and its
//! sentences then count as witnessed only through other keys (their single keys, or the
//! neighbouring steps'). The count is then a bound for blocks of such sentences only, and a
//! pair resting on edited ones may be missed. The lists are shorter by as much as the keys are
//! fewer: on a million synthetic documents the run took half the time and 70 % of the memory,
//! for 46 fewer of 88,895 pairs (docs/benchmarks.md).
//!
//! A key witnesses only where the two documents hold it with sentences of lengths that fit:
//! the sentences of a block step (or of a one-pair block) differ in length by at most δ, so a
//! key held with lengths further apart (two sentences that share two long words and nothing
//! else) is shared by chance. Each posting carries its slot's lengths, and the walk skips the
//! ones that do not fit A's: on Reuters-21578 this halves the candidate pairs.
//!
//! When sentences are shared by many documents (a corpus built from a pool of sentences), the
//! lists are long and walking them dominates. The report's rule then helps once more: a pair
//! needs at least `least` sentences of A in blocks ([`fewest_matched`]), so any
//! |A| − `least` + 1 of A's sentences include a witnessed one, and walking the cheapest such
//! set finds every candidate (prefix filtering, with sentences as the elements); the unwalked
//! sentences are then assumed witnessed. Each pair that passes only by them costs a bound
//! later, so the walk then takes the cheapest sentences left one at a time, while the pairs
//! that one more sentence could rule out cost more than walking it: on 100,000 synthetic
//! documents this leaves 0.2 million candidates of 3.2 million. Which sentences are walked
//! changes the work, never the pairs reported — except those resting on boilerplate keys
//! (below): a sentence witnessed only by such keys counts when assumed, not when walked.
//!
//! A key held by more than `max_df` documents is *boilerplate* (as a run of sentences is in
//! paper mode): it is left out of the postings and witnesses nothing. A pair is then found when
//! the sentences of its shorter document (of two as long, the earlier) that its other keys
//! witness could satisfy the rule — so, unlike comparing every pair, a corpus run misses a pair
//! whose blocks rest on boilerplate keys. Counting those
//! sentences as witnessed against every document instead, which keeps every pair, made the
//! bound useless at scale: on 100,000 synthetic documents of real sentences, 337 keys held by
//! over 1,000 documents (pairs of long Bible and news words: `children israel`) left 19 % of all
//! sentences assumed witnessed and 51 million candidates to bound, where 50,000 hold every pair
//! reported (the same 9,054 pairs either way).
//!
//! A corpus that repeats its sentences (one built from a pool of them, or boilerplate across a
//! crawl) holds each of their single keys once per sentence, and the walk would visit a
//! document holding the same sentence once per single key. Sentences equal in what their single
//! keys are made of form a class ([`super::classes`]); when the classes average at least
//! [`classes::MIN_CLASS_SIZE`] sentences, the single keys are postings of classes instead (key →
//! classes → documents), and the walk visits each class witnessing a sentence once. Pair keys
//! stay per document either way. Which way is taken changes the work and memory, and, as the
//! choice of sentences to walk does, which pairs resting on boilerplate keys (below) are found.
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

use super::classes::{self, Classes};
use super::keys::{KeyTerms, Slot};
use super::matching::SetSignature;
use super::{CorpusView, RobustProfile, RobustSlst};
use crate::method::{CandidateSet, CandidateSource};
use crate::method::{PairRule, lengths_fit};
use crate::similarity::Similarity;

/// A posting as sorted: its key's low [`KEY_BITS`] bits with, above them, the lengths of the
/// sentences its slot witnesses ([`Slot::lengths`]), so that they move with it through the sort
/// rather than being fetched at random afterwards; and its holder (document rank << 32 | its
/// place in its pass).
#[derive(Debug, Clone, Copy)]
struct Entry {
    packed: u64,
    holder: u64,
}

/// The bits of a key a posting keeps (with its pass, what tells keys apart). Two keys of a pass
/// equal in them are one key: as for any collision of the 64-bit keys, that can only add
/// candidate pairs (about one key in 10⁶ at 10⁸ distinct keys), never lose one, unless the
/// two together are held by more than `max_df` documents.
const KEY_BITS: u32 = 48;
const KEY_LOW: u64 = (1 << KEY_BITS) - 1;

impl Entry {
    fn new(key: u64, lengths: [u8; 2], holder: u64) -> Self {
        let lengths = u64::from(u16::from_le_bytes(lengths)) << KEY_BITS;
        Entry {
            packed: key & KEY_LOW | lengths,
            holder,
        }
    }

    fn key(self) -> u64 {
        self.packed & KEY_LOW
    }

    fn lengths(self) -> [u8; 2] {
        ((self.packed >> KEY_BITS) as u16).to_le_bytes()
    }
}

/// Bytes of a key the radix sort orders by: 5, so that it makes 9 passes instead of 12. Keys
/// equal in them and not in all [`KEY_BITS`] (about one key in 10⁵ on a corpus of 10⁷ keys) are
/// told apart afterwards, so that each key's document frequency — what makes it boilerplate — is
/// its own.
const KEY_BYTES: usize = 5;
const KEY_MASK: u64 = (1 << (8 * KEY_BYTES)) - 1;

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
const PASS_ENTRIES: usize = 1 << 24;
/// The most passes of the postings build: 2^5.
const PASS_BITS: u32 = 5;

/// Marks the last posting of a key's list in [`Postings::holders`].
const LAST: u32 = 1 << 31;
/// No postings after a slot's own: its key is held by no later document, or left out.
const NONE: u32 = u32::MAX;

/// Every key's postings, as the walk reads them.
struct Postings {
    /// Per global slot: the first posting after its own document's in its key's list (they
    /// run to the list's [`LAST`]), or [`NONE`]. Four bytes a slot, where a range would take
    /// eight: at scale this column is the largest the join keeps.
    after: Vec<u32>,
    /// The document of each posting, as its rank in (size, index) order (below 2³¹), list
    /// after list, [`LAST`] set on each list's last; only keys held by two documents or more
    /// (and at most `max_df`) have a list, and it leaves out its first document's postings
    /// ([`first_run`]). With the lengths of its sentences in the bits the rank leaves free,
    /// when they fit ([`Packing`]).
    holders: Vec<u32>,
    /// The lengths of the sentences each posting's slot witnesses ([`Slot::lengths`]), when
    /// they do not fit in its holder (else empty).
    lengths: Vec<[u8; 2]>,
    /// Per global sentence: the postings its slots have after their own (what walking it
    /// costs), at most `u32::MAX`: a choice of which sentences to walk, which no count of
    /// that size would change. Four bytes a sentence (87 MB at a million documents).
    cost: Vec<u32>,
    /// Keys left out as boilerplate.
    capped: usize,
}

/// How a posting's lengths share its 32 bits with its document's rank and [`LAST`]: the rank
/// in the low `shift` bits, then the lengths' code (first · base + second, base one above the
/// corpus's longest kept sentence). With sentences of up to 35 terms (the default longest),
/// the code takes 11 bits, so up to 2²⁰ documents are packed; a larger corpus (or one that
/// keeps longer sentences) keeps the lengths in a column of their own, two bytes a posting
/// more. Packed, the walk reads one column instead of two, and the lists take a third less.
struct Packing {
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
    fn new(n: usize, longest: usize) -> Self {
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

    fn packed(&self) -> bool {
        self.shift > 0
    }

    /// A packed holder: `rank` with `lengths` (each below the base).
    fn pack(&self, rank: u32, lengths: [u8; 2]) -> u32 {
        let code = u32::from(lengths[0]) * self.base + u32::from(lengths[1]);
        code << self.shift | rank
    }

    /// The rank and lengths of the posting at `at`, whose holder is `holder`.
    #[inline]
    fn unpack(&self, holder: u32, lengths: &[[u8; 2]], at: usize) -> (u32, [u8; 2]) {
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
const BUCKETS: usize = 1 << PASS_BITS;

/// The bucket of the keys made with `first` as their first term
/// ([`super::keys::KeyTerms::first`]): a multiplicative hash of it, so that a pass lists the
/// slots it takes without hashing the keys of the slots it leaves.
fn bucket(first: u64) -> usize {
    (first.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - PASS_BITS)) as usize
}

/// Where each of consecutive parts of the given sizes starts, and (last) where the last ends.
fn offsets(sizes: impl Iterator<Item = usize>) -> Vec<usize> {
    let mut offsets = vec![0];
    for size in sizes {
        offsets.push(offsets[offsets.len() - 1] + size);
    }
    offsets
}

/// `v` cut into consecutive parts of the given lengths.
pub(super) fn split_parts<T>(
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

/// What ruling a candidate pair in or out costs after the join (a bound, maybe a comparison),
/// in posting visits of the walk: measured on Reuters-21578, about 1 µs against 10 ns.
const BOUND_COST: usize = 100;

/// Per-thread state of the walk.
#[derive(Default)]
struct Counters {
    /// Per document (by rank): the sentences of the current A witnessed against it, and the
    /// first sentence of A not yet looked at for it (A's slots come in sentence order, so
    /// every sentence counted so far lies below it) — or, once the walk takes sentences one at
    /// a time, the mark of the last one counted ([`Walk::walk_one`]). Side by side: one cache
    /// line holds both.
    count_next: Vec<[u32; 2]>,
    /// Documents (by rank) with a count above 0.
    touched: Vec<u32>,
    /// Per sentence of A: the postings its witness keys hold (what walking it costs).
    cost: Vec<usize>,
    /// Per sentence of A: one of those whose witnesses are walked.
    walked: Vec<bool>,
    /// Scratch: sentences by cost.
    order: Vec<u32>,
    /// The touched documents (by rank) whose counts may still pass.
    passers: Vec<u32>,
    /// Scratch: the classes witnessing a sentence.
    found: Vec<u32>,
    /// The current A's row of the thresholds' table, by the other size's place: 0 not yet
    /// read, else [`Thresholds::needed`].
    needed: Vec<std::cell::Cell<u32>>,
}

/// For each number of sentences n (index), the fewest sentences in blocks with which a
/// document of n sentences can meet the report's rule against some document of the corpus at
/// least as long (`usize::MAX`: none). With too many distinct sizes, 1 (no pruning, still
/// exact).
///
/// Only documents at least as long count because a witness join finds each pair from its
/// shorter document (ties: the earlier), which needs the larger share of its sentences in
/// blocks (J ≥ θ or containment of the smaller). `sizes` are the corpus's documents' sentence
/// counts (repeats allowed), `may_keep(m, n_a, n_b)` the rule's bound
/// ([`crate::Detector::may_keep_matched`]), increasing in `m`. Public for a witness join
/// outside this library (a Spark job), which must prune as this one does.
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
struct Thresholds<'a> {
    may_keep: &'a (dyn Fn(usize, usize, usize) -> bool + Sync),
    /// Per size (index), its place among the corpus's distinct sizes.
    place: Vec<u32>,
    distinct: usize,
    /// The distinct sizes, by place (empty when the table is).
    sizes: Vec<usize>,
    /// Per pair of places: 0 not yet known, else the fewest sentences + 1 (the smaller size
    /// + 2: never). Empty with too many or too large sizes: the rule is then asked every time.
    table: Vec<std::sync::atomic::AtomicU32>,
}

impl<'a> Thresholds<'a> {
    fn new(sizes: &[usize], may_keep: &'a (dyn Fn(usize, usize, usize) -> bool + Sync)) -> Self {
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
    fn place_of(&self, size: usize) -> Option<u16> {
        (!self.table.is_empty()).then(|| self.place[size] as u16)
    }

    /// With the table kept, the least count + 1 that may meet the rule for sizes `len_a` and
    /// that at `place_b` (`u32::MAX`: none): `m` sentences in blocks, at most the smaller size,
    /// may keep the pair when m + 1 reaches it, as [`Thresholds::may_keep`] says.
    fn needed(&self, len_a: usize, place_b: u16) -> u32 {
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
    fn may_keep(&self, m: usize, len_a: usize, len_b: usize) -> bool {
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
fn choose_walked(cost: &[usize], least: usize, order: &mut Vec<u32>) -> usize {
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

impl RobustSlst {
    /// [`crate::Detector::corpus_candidates`] for robust SL+ST: `None` until
    /// [`crate::Detector::prepare_corpus`] has run (the generic join on keys is then used).
    pub(super) fn witness_join(
        &self,
        sketches: &[&RobustProfile],
        rule: PairRule,
        max_df: usize,
    ) -> Option<CandidateSet> {
        let keep = move |s: &Similarity, duplicate: bool| rule.keeps(s, duplicate);
        // The figure check of `may_be_reported`, which rules out most pairs of templates (about
        // half the candidates on Reuters-21578), is made as soon as a pair passes the walk:
        // first on signatures kept side by side (they settle 94% of its refusals there), then,
        // if need be, on the figure sets in the profiles.
        let columns: Vec<(usize, SetSignature)> = sketches
            .par_iter()
            .map(|p| (p.len(), SetSignature::of(&p.figures)))
            .collect();
        let least = self.config.min_figure_containment;
        let admits = |a: usize, b: usize| {
            let ((len_a, sig_a), (len_b, sig_b)) = (columns[a], columns[b]);
            !self.figures_checked(len_a, len_b, rule)
                || (!sig_a.surely_below(sig_b, least)
                    && !self.figures_refuse(sketches[a], sketches[b], rule))
        };
        let (mut pairs, mut capped) = self.witness_join_with(
            sketches,
            &keep,
            &admits,
            max_df,
            BOUND_COST,
            PASS_ENTRIES,
            classes::MIN_CLASS_SIZE,
            true,
        )?;
        // Pairs that may be duplicates on their words, which the count does not bound.
        if self.words_decide(rule) {
            let (words, words_capped) = self.word_pairs(sketches, &admits, max_df);
            capped += words_capped;
            pairs = merge_sorted(pairs, words);
        }
        Some(CandidateSet::from_pairs(
            sketches.len(),
            pairs,
            capped,
            CandidateSource::MethodJoin,
        ))
    }

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
    fn postings(
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

    /// [`RobustSlst::witness_join`] with the cost of a candidate in visits (0: never walk the
    /// rest after a cheap walk; `usize::MAX`: always), the postings sorted per pass, and the
    /// average sentences per class from which single keys are kept per class (0: always;
    /// `usize::MAX`: never); `pack` false keeps the postings' lengths in a column of their
    /// own, as a corpus too large to pack them does ([`Packing`]).
    #[allow(clippy::too_many_arguments)]
    fn witness_join_with(
        &self,
        sketches: &[&RobustProfile],
        keep: &(dyn Fn(&Similarity, bool) -> bool + Sync),
        admits: &(dyn Fn(usize, usize) -> bool + Sync),
        max_df: usize,
        bound_cost: usize,
        pass_entries: usize,
        min_class_size: usize,
        pack: bool,
    ) -> Option<(Vec<(usize, usize)>, usize)> {
        let views: Vec<&CorpusView> = sketches
            .iter()
            .map(|p| p.corpus.as_deref())
            .collect::<Option<_>>()?;
        let n = views.len();
        // Each document's first global sentence.
        let first_unit = offsets(sketches.iter().map(|p| p.len()));
        // Documents and sentences are numbered below 2³¹.
        if n >= 1 << 31 || first_unit[n] >= 1 << 31 {
            return None;
        }
        // Documents in (size, index) order: each key's postings follow it, so that the
        // postings after a document's own hold only documents at least as long, and each pair
        // is found from its shorter document, which needs the larger share of its sentences in
        // blocks (module docs).
        let sizes: Vec<usize> = sketches.iter().map(|p| p.len()).collect();
        let mut by_size: Vec<u32> = (0..n as u32).collect();
        by_size.sort_unstable_by_key(|&d| (sizes[d as usize], d));
        let mut rank = vec![0u32; n];
        for (r, &d) in by_size.iter().enumerate() {
            rank[d as usize] = r as u32;
        }
        // Single keys per class of sentences when the corpus repeats its sentences enough,
        // else per sentence among the slots.
        let classes = Classes::new(
            self,
            sketches,
            &views,
            &first_unit,
            &rank,
            max_df,
            min_class_size,
        );
        let singles = classes.is_none();
        // A document's slots are listed again wherever they are needed (here, in the passes of
        // the postings, and once per walk), against ~16 bytes per slot kept; only where their
        // keys are read are they hashed. Here they are counted.
        let slot_counts: Vec<usize> = (0..n)
            .into_par_iter()
            .map(|d| views[d].each_join_slot(self, sketches[d], singles, |_| true, |_, _, _| ()))
            .collect();
        let first_slot = offsets(slot_counts.iter().copied());
        // Postings are numbered in u32 below NONE.
        if first_slot[n] >= NONE as usize {
            return None;
        }
        // The lengths as the slots give them: the corpus's own longest sentence, not the
        // setting, so that profiles kept under another setting still pack exactly.
        let longest = sketches
            .par_iter()
            .flat_map_iter(|p| p.sentences.iter().map(|s| s.length))
            .max()
            .unwrap_or(0);
        let packing = Packing::new(if pack { n } else { usize::MAX }, longest.into());
        let Postings {
            after,
            holders,
            lengths,
            cost,
            capped,
        } = self.postings(
            sketches,
            &views,
            &first_slot,
            &first_unit,
            &rank,
            max_df,
            pass_entries,
            singles,
            &packing,
        );
        let capped = capped + classes.as_ref().map_or(0, |k| k.capped);

        let config = &self.config;
        let may_keep = |m: usize, len_a: usize, len_b: usize| {
            let bound = Similarity::from_counts(m, len_a, len_b);
            keep(&bound, config.reaches(&bound, m))
        };
        let thresholds = Thresholds::new(&sizes, &may_keep);
        let ranked_places: Vec<u16> = by_size
            .iter()
            .map_while(|&d| thresholds.place_of(sizes[d as usize]))
            .collect();
        let walk = Walk {
            fewest: fewest_matched(&sizes, &may_keep),
            thresholds,
            ranked_sizes: if ranked_places.is_empty() {
                by_size.iter().map(|&d| sizes[d as usize]).collect()
            } else {
                Vec::new()
            },
            ranked_places,
            sizes,
            detector: self,
            sketches,
            views: &views,
            first_slot: &first_slot,
            first_unit: &first_unit,
            after: &after,
            holders: &holders,
            lengths: &lengths,
            packing: &packing,
            cost: &cost,
            classes: classes.as_ref(),
            rank: &rank,
            by_size: &by_size,
            admits,
            bound_cost,
        };
        let mut pairs: Vec<(usize, usize)> = (0..n)
            .into_par_iter()
            .map_init(
                || Counters {
                    count_next: vec![[0, 0]; n],
                    ..Counters::default()
                },
                |c, a| walk.candidates_of(a, c),
            )
            .flatten_iter()
            .collect();
        pairs.par_sort_unstable();
        Some((pairs, capped))
    }
}

/// The union of two sorted lists without repeats, sorted, without repeats.
fn merge_sorted<T: Ord + Copy>(x: Vec<T>, y: Vec<T>) -> Vec<T> {
    if y.is_empty() {
        return x;
    }
    let mut out = Vec::with_capacity(x.len() + y.len());
    let (mut i, mut j) = (0, 0);
    while i < x.len() && j < y.len() {
        match x[i].cmp(&y[j]) {
            std::cmp::Ordering::Less => (out.push(x[i]), i += 1),
            std::cmp::Ordering::Greater => (out.push(y[j]), j += 1),
            std::cmp::Ordering::Equal => (out.push(x[i]), (i, j) = (i + 1, j + 1)),
        };
    }
    out.extend_from_slice(&x[i..]);
    out.extend_from_slice(&y[j..]);
    out
}

/// What every document's walk reads.
struct Walk<'a> {
    /// Kept sentences per document.
    sizes: Vec<usize>,
    /// Kept sentences per document by rank (ascending): the walk counts by rank. Empty when
    /// `ranked_places` stand for them.
    ranked_sizes: Vec<usize>,
    /// Their places in the thresholds' table, by rank, when it is kept (else empty): two bytes
    /// a document where the sizes take eight, so that the counts' check, which reads one per
    /// document a walk touches (1.5 billion at a million synthetic documents), misses the
    /// cache less.
    ranked_places: Vec<u16>,
    /// The fewest sentences in blocks per size, against documents at least as long.
    fewest: Vec<usize>,
    detector: &'a RobustSlst,
    sketches: &'a [&'a RobustProfile],
    views: &'a [&'a CorpusView],
    /// Each document's first global slot number.
    first_slot: &'a [usize],
    /// Each document's first global sentence.
    first_unit: &'a [usize],
    /// [`Postings::after`]
    after: &'a [u32],
    /// [`Postings::holders`]
    holders: &'a [u32],
    /// [`Postings::lengths`]
    lengths: &'a [[u8; 2]],
    /// How the holders hold the lengths.
    packing: &'a Packing,
    /// [`Postings::cost`]
    cost: &'a [u32],
    /// The sentence classes and their single keys' postings, if the single keys are kept per
    /// class (else they are among the slots).
    classes: Option<&'a Classes>,
    /// Each document's place in (size, index) order, and the document at each place.
    rank: &'a [u32],
    by_size: &'a [u32],
    /// Whether m sentences in blocks could meet the report's rule for sizes (A, B), kept per
    /// pair of sizes.
    thresholds: Thresholds<'a>,
    /// A pair check of the report's rule that needs no blocks (the figures), made on the pairs
    /// (documents by index) that pass the count.
    admits: &'a (dyn Fn(usize, usize) -> bool + Sync),
    /// What a candidate costs, in visits ([`BOUND_COST`]).
    bound_cost: usize,
}

/// How many slots ahead the walk asks for a slot's postings (8 and 16 measure the same).
const AHEAD: usize = 8;

/// Asks the processor to bring `x`'s cache line in, without waiting for it.
#[inline]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint; it reads nothing and cannot fault, whatever the address.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast());
    }
    // Elsewhere, no hint: the walk is the same, only its cache misses wait.
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

impl Walk<'_> {
    /// The candidate pairs (a, b), a < b, found from document `a`'s side: with documents after
    /// it in (size, index) order.
    fn candidates_of(&self, a: usize, c: &mut Counters) -> Vec<(usize, usize)> {
        let len_a = self.sizes[a];
        let least = self.fewest.get(len_a).copied().unwrap_or(usize::MAX);
        if len_a == 0 || least == usize::MAX {
            return Vec::new();
        }
        c.needed.clear();
        c.needed
            .resize(self.thresholds.sizes.len(), std::cell::Cell::new(0));
        // The walk reads which sentences each pair slot witnesses, never its key.
        let singles = self.classes.is_none();
        let slots = self.views[a].join_slots(self.detector, self.sketches[a], singles);
        // Each sentence costs the postings of its witness keys to walk (boilerplate keys have
        // none), counted when the postings were made: its pair keys' and its class's.
        c.cost.clear();
        c.cost
            .extend((self.first_unit[a]..self.first_unit[a + 1]).map(|u| {
                let single = self
                    .classes
                    .and_then(|k| Some(k.cost[k.of(u)? as usize]))
                    .unwrap_or(0);
                self.cost[u] as usize + single as usize
            }));
        // A document B can meet the rule only with at least `least` sentences of A witnessed,
        // so among any len_a − least + 1 of them one is witnessed against B (prefix filtering
        // over sentences). When the cheapest such set costs well under all of them, only its
        // witnesses are walked (and counted) and the sentences left out count as witnessed
        // (`slack`); else all are walked.
        let prefix = choose_walked(&c.cost, least, &mut c.order);
        c.walked.clear();
        c.walked.resize(len_a, false);
        for &u in &c.order[..prefix] {
            c.walked[u as usize] = true;
        }
        let mut slack = len_a - prefix;
        self.walk(a, &slots, c);
        self.keep_passing(a, c, slack, true);
        if slack > 0 && self.bound_cost > 0 {
            // The cheap walk leaves `slack` sentences uncounted, so more pairs pass; each costs
            // a bound and maybe a comparison, about `bound_cost` visits.
            let rest: usize = c.order[prefix..].iter().map(|&u| c.cost[u as usize]).sum();
            if c.passers.len() > rest / self.bound_cost {
                // Walking all the rest costs less than ruling them out: count exactly (each
                // pair slot visited once).
                Self::reset(c);
                c.walked.fill(true);
                self.walk(a, &slots, c);
                slack = 0;
                self.keep_passing(a, c, slack, true);
            }
            // Else, while the pairs that only pass by the sentences assumed witnessed would
            // cost more than walking the cheapest sentence left, walk it too: one sentence more
            // walked is one less assumed (any len_a − least + 1 + e sentences hold at least
            // 1 + e witnessed ones), so fewer pairs pass. Pairs only drop out.
            let rest = &mut c.order[prefix..];
            rest.sort_unstable_by_key(|&u| (c.cost[u as usize], u));
            for step in prefix..len_a {
                let u = c.order[step] as usize;
                if slack == 0 || self.marginal(a, c, slack) <= c.cost[u] / self.bound_cost {
                    break;
                }
                c.walked[u] = true;
                self.walk_one(a, &slots, u, (len_a + 1 + step) as u32, c);
                slack -= 1;
                self.keep_passing(a, c, slack, false);
            }
        }
        let mut out: Vec<(usize, usize)> = c
            .passers
            .iter()
            .map(|&r| {
                let b = self.by_size[r as usize] as usize;
                (a.min(b), a.max(b))
            })
            .collect();
        out.sort_unstable();
        Self::reset(c);
        out
    }

    /// Whether the count of the document of rank `r`, plus `extra` sentences assumed
    /// witnessed, could meet the report's rule against `a` (the count alone: no pair check).
    fn may_pass(&self, a: usize, r: u32, c: &Counters, extra: usize) -> bool {
        if let Some(&place) = self.ranked_places.get(r as usize) {
            // A's row of the table, cached for its walk.
            let cell = &c.needed[place as usize];
            let mut needed = cell.get();
            if needed == 0 {
                needed = self.thresholds.needed(self.sizes[a], place);
                cell.set(needed);
            }
            let count = c.count_next[r as usize][0] as usize + extra;
            return count.saturating_add(1) >= needed as usize;
        }
        let (len_a, len_b) = (self.sizes[a], self.ranked_sizes[r as usize]);
        let m = (c.count_next[r as usize][0] as usize + extra)
            .min(len_a)
            .min(len_b);
        self.thresholds.may_keep(m, len_a, len_b)
    }

    /// Keeps in `c.passers` the documents that may pass ([`Walk::may_pass`]): chosen among
    /// all touched ones (`fresh`, and then only those the pair check admits), or among the
    /// passers so far — a document that did not pass never will, as walking more never raises
    /// count + slack.
    fn keep_passing(&self, a: usize, c: &mut Counters, extra: usize, fresh: bool) {
        let mut passers = std::mem::take(&mut c.passers);
        if fresh {
            passers.clear();
            passers.extend(c.touched.iter().filter(|&&r| {
                self.may_pass(a, r, c, extra) && (self.admits)(a, self.by_size[r as usize] as usize)
            }));
        } else {
            passers.retain(|&r| self.may_pass(a, r, c, extra));
        }
        c.passers = passers;
    }

    /// How many passers would fail with one sentence less assumed witnessed: those walking
    /// one more sentence rules out, unless it is witnessed for them.
    fn marginal(&self, a: usize, c: &Counters, extra: usize) -> usize {
        c.passers
            .iter()
            .filter(|&&r| !self.may_pass(a, r, c, extra - 1))
            .count()
    }

    /// Walks the postings of `a`'s slots that witness sentence `u`, one not walked so far,
    /// counting it once per document after `a` (by rank) that holds one: `mark` (above every
    /// sentence number, distinct per call) takes the place of the next sentence to look at.
    fn walk_one(&self, a: usize, slots: &[Slot], u: usize, mark: u32, c: &mut Counters) {
        let mut once = |r: u32| {
            let [count, next] = &mut c.count_next[r as usize];
            if *next == 0 {
                c.touched.push(r);
            }
            if *next != mark {
                *count += 1;
                *next = mark;
            }
        };
        let mut found = std::mem::take(&mut c.found);
        self.single_witnesses(a, u, &mut found, &mut once);
        // Pair slots in code order: u's are (u − 1, u) and (u, u + 1).
        let first = slots.partition_point(|s| s.units().end <= u);
        for (k, slot) in slots.iter().enumerate().skip(first) {
            if slot.units().start > u {
                break;
            }
            for r in self.witnesses(a, k, *slot) {
                once(r);
            }
        }
        c.found = found;
    }

    /// Calls `visit` with the rank of each document after `a` (in size order) that witnesses
    /// `a`'s sentence `i` by a single key: it holds a sentence of a class that shares a single
    /// key with `i`'s, at a length that fits. `found` is scratch for the classes.
    fn single_witnesses(
        &self,
        a: usize,
        i: usize,
        found: &mut Vec<u32>,
        visit: &mut impl FnMut(u32),
    ) {
        let Some(classes) = self.classes else {
            return;
        };
        let Some(own) = classes.of(self.first_unit[a] + i) else {
            return;
        };
        let length = classes.length[own as usize];
        let tolerance = self.detector.config.length_tolerance;
        found.clear();
        for &start in classes.starts_of(own) {
            for at in start as usize.. {
                let listed = classes.lists[at];
                if lengths_fit([length; 2], [classes.list_lengths[at]; 2], tolerance) {
                    found.push(listed & !classes::LAST);
                }
                if listed & classes::LAST != 0 {
                    break;
                }
            }
        }
        // A class sharing several keys with `i`'s is visited once.
        found.sort_unstable();
        found.dedup();
        let rank = self.rank[a];
        for &k in found.iter() {
            // The documents after `a`'s, by a scan from the list's end rather than a binary
            // search: the lists are short (at most `max_df`), and each of the search's reads
            // waits on the one before (in a profile of the class walk, a quarter of its samples
            // fell on the search). From the end, the scan reads only them and one more.
            for &r in classes.docs_of(k).iter().rev() {
                if r <= rank {
                    break;
                }
                visit(r);
            }
        }
    }

    /// The documents (by rank, after `a`'s) that witness `a`'s `k`-th slot: they hold its
    /// key with sentences of lengths that fit. A posting whose sentences differ from A's by
    /// more than δ shares the key by chance and witnesses nothing. None for a key left out.
    fn witnesses(&self, a: usize, k: usize, slot: Slot) -> impl Iterator<Item = u32> + '_ {
        let lengths = slot.lengths(self.sketches[a]);
        let tolerance = self.detector.config.length_tolerance;
        let start = self.after[self.first_slot[a] + k];
        let own = self.rank[a];
        let mut next = (start != NONE).then_some(start as usize);
        std::iter::from_fn(move || {
            let at = next?;
            let holder = self.holders[at];
            next = (holder & LAST == 0).then_some(at + 1);
            Some(self.packing.unpack(holder, self.lengths, at))
        })
        .filter(move |&(r, l)| r != own && lengths_fit(lengths, l, tolerance))
        .map(|(r, _)| r)
    }

    /// Clears the counters of the documents the last walk touched.
    fn reset(c: &mut Counters) {
        for &r in &c.touched {
            c.count_next[r as usize] = [0, 0];
        }
        c.touched.clear();
        c.passers.clear();
    }

    /// Walks the postings of `a`'s slots that witness a sentence marked in `c.walked`, counting
    /// per document after `a` (by rank, in size order) the marked sentences witnessed.
    fn walk(&self, a: usize, slots: &[Slot], c: &mut Counters) {
        // Two loops, so that the walk without classes makes no check for them per slot.
        if self.classes.is_some() {
            self.walk_with::<true>(a, slots, c);
        } else {
            self.walk_with::<false>(a, slots, c);
        }
    }

    /// [`Walk::walk`], with the single keys per class of sentences (`CLASSES`) or among the
    /// slots.
    fn walk_with<const CLASSES: bool>(&self, a: usize, slots: &[Slot], c: &mut Counters) {
        // Where the postings of each of a's pair slots start: their first reads are cache
        // misses (the lists lie in key order), so each is asked for a few slots ahead.
        let after = &self.after[self.first_slot[a]..self.first_slot[a + 1]];
        let mut found = std::mem::take(&mut c.found);
        // In code order: sentence i's single keys, then the pair slots of (i, i + 1).
        let mut single = 0;
        let mut singles_to = |end: usize, c: &mut Counters| {
            if !CLASSES {
                return;
            }
            while single < end {
                if c.walked[single] {
                    let units = single..single + 1;
                    self.single_witnesses(a, single, &mut found, &mut |b| {
                        count_walked(c, b, units.clone())
                    });
                }
                single += 1;
            }
        };
        for (k, slot) in slots.iter().enumerate() {
            let units = slot.units();
            singles_to(units.start + 1, c);
            if let Some(&ahead) = after.get(k + AHEAD)
                && ahead != NONE
            {
                prefetch(&self.holders[ahead as usize]);
                if let Some(lengths) = self.lengths.get(ahead as usize) {
                    prefetch(lengths);
                }
            }
            if !c.walked[units.clone()].contains(&true) {
                continue;
            }
            for b in self.witnesses(a, k, *slot) {
                count_walked(c, b, units.clone());
            }
        }
        singles_to(self.sizes[a], c);
        c.found = found;
    }
}

/// Counts for the document of rank `r` the walked sentences among `units` (a slot's, in code
/// order) not counted for it yet.
#[inline]
fn count_walked(c: &mut Counters, r: u32, units: std::ops::Range<usize>) {
    let [count, next] = &mut c.count_next[r as usize];
    if *next == 0 {
        // First visit (every visit moves `next` past a sentence).
        c.touched.push(r);
    }
    for u in units {
        if u as u32 >= *next {
            *count += u32::from(c.walked[u]);
            *next = u as u32 + 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::words::WORD_DF;
    use super::*;
    use crate::Detector;
    use crate::document::Document;
    use crate::method::RobustConfig;

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

    /// 80 documents cut from Genesis (KJV) with much reuse: runs of verses that overlap, some
    /// with a word changed, some repeated inside a document, a few one-verse documents.
    fn genesis_corpus() -> Vec<Document> {
        let kjv = include_str!("../../../corpora/bible/kjv-1mb.txt");
        let verses: Vec<&str> = kjv.lines().filter(|l| l.len() > 40).take(300).collect();
        (0..80)
            .map(|d| {
                let mut text: Vec<String> = verses[genesis_verses(d)]
                    .iter()
                    .map(|v| v.to_string())
                    .collect();
                if d % 3 == 0 {
                    text[0] = text[0].replacen(" the ", " a ", 1);
                }
                if d % 7 == 0 {
                    let first = text[0].clone();
                    text.push(first);
                }
                Document::new(format!("g{d}"), text.join("\n\n"))
            })
            .collect()
    }

    /// The verses document `d` of [`genesis_corpus`] is cut from.
    fn genesis_verses(d: usize) -> std::ops::Range<usize> {
        let start = (d * 37) % 250;
        start..start + [1, 2, 4, 8, 12][d % 5]
    }

    /// The Genesis corpus sketched and prepared as a corpus by `d`.
    fn genesis_sketches(d: &RobustSlst) -> Vec<RobustProfile> {
        let mut sketches: Vec<RobustProfile> =
            genesis_corpus().iter().map(|x| d.sketch(x)).collect();
        d.prepare_corpus(&mut sketches);
        sketches
    }

    /// With every pair of anchors as keys, whichever sentences the walk takes first and whether
    /// it walks the rest, every pair the report's rule keeps is a candidate — at several
    /// thresholds, for J and for containment, with and without keys left out.
    #[test]
    fn every_reportable_pair_is_a_candidate_whatever_the_walk() {
        // With the anchor rule (the default) and with exact prefixes.
        for anchor_terms in [5, 0] {
            let d = RobustSlst::new(RobustConfig {
                anchor_terms,
                pair_keys: 0,
                ..RobustConfig::default()
            })
            .unwrap();
            every_reportable_pair_is_a_candidate(&d);
        }
    }

    fn every_reportable_pair_is_a_candidate(d: &RobustSlst) {
        let sketches = genesis_sketches(d);
        let refs: Vec<&RobustProfile> = sketches.iter().collect();
        let comparisons: Vec<(usize, usize, Similarity)> = (0..refs.len())
            .flat_map(|a| (a + 1..refs.len()).map(move |b| (a, b)))
            .map(|(a, b)| (a, b, d.compare(refs[a], refs[b])))
            .filter(|(_, _, c)| c.evidence.matched > 0)
            .map(|(a, b, c)| (a, b, c.similarity))
            .collect();
        assert!(comparisons.len() > 100, "{}", comparisons.len());
        for theta in [0.0, 0.3, 0.5, 0.8] {
            let keep_j =
                move |s: &Similarity, _: bool| s.resemblance > 0.0 && s.resemblance >= theta;
            let keep_c = move |s: &Similarity, _: bool| {
                s.containment_a.is_some_and(|x| x > 0.0 && x >= theta)
                    || s.containment_b.is_some_and(|x| x > 0.0 && x >= theta)
            };
            type Rule<'a> = &'a (dyn Fn(&Similarity, bool) -> bool + Sync);
            let rules: [Rule; 2] = [&keep_j, &keep_c];
            for keep in rules {
                let wanted: Vec<(usize, usize)> = comparisons
                    .iter()
                    .filter(|(_, _, s)| keep(s, true))
                    .map(|&(a, b, _)| (a, b))
                    .collect();
                // Costs between never and always walking more stop the sentence-by-sentence walk at
                // different places.
                // With single keys per sentence and per class of sentences.
                for (bound_cost, classes) in [0, 1, 10, BOUND_COST, 1000, usize::MAX]
                    .into_iter()
                    .flat_map(|cost| [(cost, 0), (cost, usize::MAX)])
                {
                    let (found, _) = d
                        .witness_join_with(
                            &refs,
                            keep,
                            &|_, _| true,
                            usize::MAX,
                            bound_cost,
                            PASS_ENTRIES,
                            classes,
                            true,
                        )
                        .unwrap();
                    for pair in &wanted {
                        assert!(
                            found.binary_search(pair).is_ok(),
                            "θ {theta}, cost {bound_cost}, classes from {classes}: {pair:?} missing"
                        );
                    }
                }
            }
        }
    }

    /// With sampled pair keys (the default), a pair whose documents share a run of two or more
    /// verses word for word — a block whose sentences have the same anchors on both sides, so
    /// that every sampled key of its steps is shared — is a candidate whenever the rule keeps
    /// it; pairs that rest only on tolerant matches of different verses may not be.
    #[test]
    fn sampled_keys_find_every_reportable_pair_that_shares_a_verbatim_block() {
        // Without single keys, so that the pair keys alone witness the blocks.
        let d = RobustSlst::new(RobustConfig {
            single_min_terms: 0,
            ..RobustConfig::default()
        })
        .unwrap();
        assert_eq!(d.config.pair_keys, 4);
        let sketches = genesis_sketches(&d);
        let refs: Vec<&RobustProfile> = sketches.iter().collect();
        // The pairs that share two verses or more, with their scores.
        let shared: Vec<(usize, usize, Similarity)> = (0..refs.len())
            .flat_map(|a| (a + 1..refs.len()).map(move |b| (a, b)))
            .filter(|&(a, b)| {
                let (x, y) = (genesis_verses(a), genesis_verses(b));
                x.end.min(y.end).saturating_sub(x.start.max(y.start)) >= 2
            })
            .map(|(a, b)| (a, b, d.compare(refs[a], refs[b]).similarity))
            .collect();
        let mut checked = 0;
        for theta in [0.0, 0.3, 0.5, 0.8] {
            let keep = move |s: &Similarity, _: bool| s.resemblance > 0.0 && s.resemblance >= theta;
            let (found, _) = d
                .witness_join_with(
                    &refs,
                    &keep,
                    &|_, _| true,
                    usize::MAX,
                    BOUND_COST,
                    PASS_ENTRIES,
                    classes::MIN_CLASS_SIZE,
                    true,
                )
                .unwrap();
            for (a, b, s) in &shared {
                if keep(s, true) {
                    checked += 1;
                    assert!(found.binary_search(&(*a, *b)).is_ok(), "θ {theta}: {a} {b}");
                }
            }
        }
        assert!(checked > 50, "{checked}");
    }

    /// A step's sampled keys are pairs of its two sentences' anchors, `pair_keys` of them, and
    /// depend on those sentences only: the same two sentences in another document give the same
    /// keys. Every pair of anchors gives k² keys a step.
    #[test]
    fn sampled_keys_are_anchor_pairs_picked_by_the_sentences_alone() {
        let exact = RobustSlst::new(RobustConfig {
            pair_keys: 0,
            ..RobustConfig::default()
        })
        .unwrap();
        let sampled = RobustSlst::new(RobustConfig::default()).unwrap();
        let docs = genesis_corpus();
        let steps = |d: &RobustSlst, doc: &Document| {
            let p = d.sketch(doc);
            let slots = d.slots_of::<true, true, _>(&p, |i| p.unit::<u64>(i).terms);
            let mut by_step: HashMap<u32, Vec<u64>> = HashMap::new();
            for s in slots.iter().filter(|s| s.code & 1 == 1) {
                by_step.entry(s.code >> 1).or_default().push(s.key);
            }
            (p, by_step)
        };
        let mut checked = 0;
        for doc in &docs {
            let (p, all) = steps(&exact, doc);
            let (_, some) = steps(&sampled, doc);
            assert_eq!(all.len(), some.len());
            for (i, keys) in &some {
                assert_eq!(keys.len(), 4);
                assert!(keys.iter().all(|k| all[i].contains(k)), "{}", doc.id);
                let k = |u: u32| p.sentences[u as usize].size().min(5);
                assert_eq!(all[i].len(), k(*i) * k(i + 1));
                checked += 1;
            }
        }
        assert!(checked > 500, "{checked}");
        // The same verses, alone and inside a longer document: the same keys for their step.
        let two = Document::new("two", docs[3].text.clone());
        let (_, alone) = steps(&sampled, &two);
        let longer = Document::new("longer", format!("{}\n\n{}", docs[0].text, docs[3].text));
        let (_, inside) = steps(&sampled, &longer);
        let shift = inside.len() - alone.len();
        for (i, keys) in &alone {
            assert_eq!(&inside[&(i + shift as u32)], keys);
        }
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

    /// Listed pass by pass, without hashing the keys left, a document's slots are the slots
    /// the walk and the key index make: each taken by exactly one pass, at its own place, with
    /// its key and code — with the single keys and without, under the anchor rule, exact
    /// prefixes, and blocks of one sentence.
    #[test]
    fn slots_listed_by_pass_are_the_slots_in_their_places() {
        for (anchor_terms, min_block) in [(5, 2), (0, 2), (5, 1)] {
            let d = RobustSlst::new(RobustConfig {
                anchor_terms,
                min_block,
                ..RobustConfig::default()
            })
            .unwrap();
            let sketches = genesis_sketches(&d);
            // Blocks of one sentence have no pair keys, so no slots without the single keys.
            let mut seen = [0, 0];
            for p in &sketches {
                let view = p.corpus.as_deref().unwrap();
                for singles in [true, false] {
                    let ranks = |i| view.ranks_of(p, i);
                    let slots = if singles {
                        d.slots_of::<true, true, _>(p, ranks)
                    } else {
                        d.slots_of::<true, false, _>(p, ranks)
                    };
                    seen[usize::from(singles)] += slots.len();
                    let mut listed = vec![None; slots.len()];
                    for pass in 0..BUCKETS {
                        let take = |first| bucket(first) == pass;
                        let count = view.each_join_slot(&d, p, singles, take, |k, terms, code| {
                            assert_eq!(bucket(terms.first()), pass);
                            assert!(listed[k].is_none(), "slot {k} listed twice");
                            listed[k] = Some(Slot {
                                key: terms.key(),
                                code,
                            });
                        });
                        assert_eq!(count, slots.len());
                    }
                    let listed: Vec<Slot> = listed.into_iter().map(Option::unwrap).collect();
                    assert_eq!(listed, slots, "{anchor_terms} {min_block} {singles}");
                }
            }
            assert!(seen[1] > 1000, "{seen:?}");
            assert_eq!(seen[0] > 1000, min_block > 1, "{seen:?}");
        }
    }

    /// The postings made in many passes over the keys' first terms hold what one pass makes: the
    /// same candidates and the same keys left out, with keys left out or not; and so do they
    /// with the lengths in a column of their own rather than packed in the holders.
    #[test]
    fn postings_made_in_passes_find_what_one_pass_finds() {
        for pair_keys in [4, 0] {
            postings_made_in_passes_find_what_one_pass_finds_with(pair_keys);
        }
    }

    fn postings_made_in_passes_find_what_one_pass_finds_with(pair_keys: usize) {
        let d = RobustSlst::new(RobustConfig {
            pair_keys,
            ..RobustConfig::default()
        })
        .unwrap();
        let sketches = genesis_sketches(&d);
        let refs: Vec<&RobustProfile> = sketches.iter().collect();
        let keep = |s: &Similarity, _: bool| s.resemblance >= 0.3;
        for max_df in [usize::MAX, 4] {
            let join = |pass_entries, pack| {
                d.witness_join_with(
                    &refs,
                    &keep,
                    &|_, _| true,
                    max_df,
                    BOUND_COST,
                    pass_entries,
                    usize::MAX,
                    pack,
                )
                .unwrap()
            };
            let (one, capped) = join(PASS_ENTRIES, true);
            assert!(one.len() > 30, "{}", one.len());
            assert_eq!(capped > 0, max_df == 4, "{capped}");
            // 1 entry per pass: as many passes as there are (16).
            for (pass_entries, pack) in [1, 2000, PASS_ENTRIES]
                .into_iter()
                .flat_map(|e| [(e, true), (e, false)])
            {
                let found = join(pass_entries, pack);
                assert_eq!(found, (one.clone(), capped), "{pass_entries} {pack}");
            }
        }
    }

    /// The word join finds every pair alike on its words (`may_match_words`) that it can reach:
    /// the later of the two in (vocabulary size, index) order looks up a prefix term that the
    /// earlier indexes and that no more than the cap of documents index. Terms over the cap are
    /// left out of the lookups, not out of the bounds: a pair whose prefixes share such a term
    /// before the one it is met by must not be pruned for the shared terms not counted (bounds
    /// that ignored them lose a pair here at v 0.6, `max_df` 2). Low caps leave out terms of
    /// every rank here, and low levels make many pairs alike on words.
    #[test]
    fn word_pairs_are_every_reachable_pair_alike_on_words() {
        // (No two of these documents are alike at the default level, 0.8.)
        for vocabulary in [0.6, 0.5, 0.4, 0.3, 0.2] {
            let d = RobustSlst::new(RobustConfig {
                vocabulary,
                ..RobustConfig::default()
            })
            .unwrap();
            let sketches = genesis_sketches(&d);
            let refs: Vec<&RobustProfile> = sketches.iter().collect();
            let alike: Vec<(usize, usize)> = (0..refs.len())
                .flat_map(|a| (a + 1..refs.len()).map(move |b| (a, b)))
                .filter(|&(a, b)| d.may_match_words(refs[a], refs[b]))
                .collect();
            assert!(alike.len() >= 3, "v {vocabulary}: {}", alike.len());
            let words = |x: usize| &refs[x].corpus.as_deref().unwrap().words;
            // How many documents index each term.
            let mut held: HashMap<u32, usize> = HashMap::new();
            for x in 0..refs.len() {
                for &t in d.indexed(words(x)) {
                    *held.entry(t).or_default() += 1;
                }
            }
            for max_df in [usize::MAX, 8, 4, 3, 2] {
                let (found, _) = d.word_pairs(&refs, &|_, _| true, max_df);
                let cap = max_df.min(WORD_DF);
                let mut reachable = 0;
                for &(a, b) in &alike {
                    // y is looked up by x.
                    let key = |x: usize| (words(x).size, x);
                    let (y, x) = if key(a) < key(b) { (a, b) } else { (b, a) };
                    let indexed = d.indexed(words(y));
                    if words(x)
                        .prefix
                        .iter()
                        .any(|t| indexed.contains(t) && held[t] <= cap)
                    {
                        reachable += 1;
                        assert!(
                            found.binary_search(&(a, b)).is_ok(),
                            "v {vocabulary}, max_df {max_df}: ({a}, {b}) missing"
                        );
                    }
                }
                assert!(reachable > 0, "v {vocabulary}, max_df {max_df}");
                // And nothing else: every pair found is alike, and reachable.
                for pair in &found {
                    assert!(alike.binary_search(pair).is_ok(), "{pair:?} not alike");
                }
                assert_eq!(found.len(), reachable, "v {vocabulary}, max_df {max_df}");
            }
        }
    }

    /// Single keys kept per class of sentences find what they find kept per sentence: the same
    /// candidates when every sentence is counted, and the same keys left out as boilerplate — a key is counted once per
    /// document even when a document holds it in sentences of two classes, or one sentence
    /// twice (the Genesis corpus has both).
    #[test]
    fn sentence_classes_find_what_single_sentences_find() {
        let d = RobustSlst::new(RobustConfig::default()).unwrap();
        let sketches = genesis_sketches(&d);
        let refs: Vec<&RobustProfile> = sketches.iter().collect();
        let keep = |s: &Similarity, _: bool| s.resemblance >= 0.1;
        for max_df in [usize::MAX, 6, 4, 2] {
            let join = |classes| {
                d.witness_join_with(
                    &refs,
                    &keep,
                    &|_, _| true,
                    max_df,
                    // Every sentence walked, whatever it costs: the counts are then exact, and
                    // the candidates do not depend on which sentences are walked first.
                    usize::MAX,
                    PASS_ENTRIES,
                    classes,
                    true,
                )
                .unwrap()
            };
            let (per_sentence, capped) = join(usize::MAX);
            assert!(per_sentence.len() > 10, "{}", per_sentence.len());
            assert_eq!(capped > 0, max_df < usize::MAX, "{capped}");
            assert_eq!(join(0), (per_sentence, capped), "max_df {max_df}");
        }
    }

    /// Two sentences that share their longest words but differ in length by far more than δ
    /// hold the same single key by chance: it witnesses nothing, so the pair is no candidate —
    /// while a sentence of a fitting length with those words is one.
    #[test]
    fn a_key_held_with_lengths_far_apart_witnesses_nothing() {
        let d = RobustSlst::new(RobustConfig::default()).unwrap();
        let short = "Extraordinary parliamentary committee meets.";
        // The same two longest words among twenty short ones (δ = 4 by default).
        let long = "Extraordinary parliamentary talk and a big red cat sat on the mat by the old                     oak tree near the pond with ten green frogs and two black dogs all day.";
        let close = "Extraordinary parliamentary committee meets again today.";
        let docs = [short, long, close].map(|t| Document::new("d", t));
        let mut sketches: Vec<RobustProfile> = docs.iter().map(|x| d.sketch(x)).collect();
        assert_eq!(
            sketches.iter().map(|p| p.len()).collect::<Vec<_>>(),
            [1, 1, 1]
        );
        let lengths: Vec<u16> = sketches.iter().map(|p| p.sentences[0].length).collect();
        assert!(lengths[1] > lengths[0] + 4, "{lengths:?}");
        d.prepare_corpus(&mut sketches);
        let refs: Vec<&RobustProfile> = sketches.iter().collect();
        let found = d
            .witness_join(&refs, PairRule::Scored, usize::MAX)
            .unwrap()
            .pairs;
        assert_eq!(found, [(0, 2)]);
    }

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
