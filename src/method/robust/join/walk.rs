//! The walk: for one document A, the postings of A's keys read once, in the order of A's
//! sentences, counting per document after A (in (size, index) order) the sentences of A it
//! witnesses; the documents whose count may still meet the report's rule are A's candidates.

use std::cell::Cell;

use super::super::classes::{self, Classes};
use super::super::keys::Slot;
use super::super::{CorpusView, RobustProfile, RobustSlst};
use super::plan::{Thresholds, choose_walked};
use super::postings::{LAST, NONE, Packing, kept_bits};
use super::rare;
use crate::method::lengths_fit;

/// Per-thread state of the walk.
#[derive(Default)]
pub(super) struct Counters {
    /// Per document (by rank) that passed the first walk of the current A, that a walk of
    /// one more sentence met, or whose visits a long walk folded ([`fold`]): the sentences of
    /// A witnessed against it, and the sentence after the last one counted for it, or the
    /// mark of a walk of one sentence ([`Walk::walk_one`]; 0 for none). Side by side: one
    /// cache line holds both.
    count_next: Vec<[u32; 2]>,
    /// Documents (by rank) whose `count_next` is set.
    touched: Vec<u32>,
    /// The first walk's visits: (rank << 32 | sentence) for each walked sentence of A a
    /// document witnesses, in any order and with repeats. Sorted, they give each document's
    /// count; at a million documents, counting them in `count_next` as they came made a
    /// cache miss of nearly every visit, where a sort of each walk's few hundred visits stays
    /// in the cache. A long walk folds them into `count_next` ([`FOLD_VISITS`]).
    visits: Vec<u64>,
    /// The documents the first walk met, each with its count, by rank.
    tallies: Vec<(u32, u32)>,
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
    needed: Vec<Cell<u32>>,
    /// Scratch of [`Walk::count_assumed`]: A's witness keys of the sentences assumed, as
    /// (key, sentence, lengths) sorted, and per sentence the last passer it was counted for.
    assumed: Vec<(u64, u32, [u8; 2])>,
    counted_for: Vec<u32>,
}

impl Counters {
    /// A walk's state for a corpus of `n` documents.
    pub(super) fn new(n: usize) -> Self {
        Counters {
            count_next: vec![[0, 0]; n],
            ..Counters::default()
        }
    }
}

/// What every document's walk reads.
pub(super) struct Walk<'a> {
    /// Kept sentences per document.
    pub(super) sizes: Vec<usize>,
    /// Kept sentences per document by rank (ascending): the walk counts by rank. Empty when
    /// `ranked_places` stand for them.
    pub(super) ranked_sizes: Vec<usize>,
    /// Their places in the thresholds' table, by rank, when it is kept (else empty): two bytes
    /// a document where the sizes take eight, so that the counts' check, which reads one per
    /// document a walk touches (1.5 billion at a million synthetic documents), misses the
    /// cache less.
    pub(super) ranked_places: Vec<u16>,
    /// The fewest sentences in blocks per size, against documents at least as long.
    pub(super) fewest: Vec<usize>,
    pub(super) detector: &'a RobustSlst,
    pub(super) sketches: &'a [&'a RobustProfile],
    pub(super) views: &'a [&'a CorpusView],
    /// Each document's first global slot number.
    pub(super) first_slot: &'a [usize],
    /// Each document's first global sentence.
    pub(super) first_unit: &'a [usize],
    /// [`Postings::after`](super::postings::Postings::after)
    pub(super) after: &'a [u32],
    /// [`Postings::holders`](super::postings::Postings::holders)
    pub(super) holders: &'a [u32],
    /// [`Postings::lengths`](super::postings::Postings::lengths)
    pub(super) lengths: &'a [[u8; 2]],
    /// How the holders hold the lengths.
    pub(super) packing: &'a Packing,
    /// [`Postings::cost`](super::postings::Postings::cost)
    pub(super) cost: &'a [u32],
    /// [`Postings::looks`](super::postings::Postings::looks)
    pub(super) looks: &'a [u8],
    /// The sentence classes and their single keys' postings, if the single keys are kept per
    /// class (else they are among the slots).
    pub(super) classes: Option<&'a Classes>,
    /// Each document's place in (size, index) order, and the document at each place.
    pub(super) rank: &'a [u32],
    pub(super) by_size: &'a [u32],
    /// Whether m sentences in blocks could meet the report's rule for sizes (A, B), kept per
    /// pair of sizes.
    pub(super) thresholds: Thresholds<'a>,
    /// A pair check of the report's rule that needs no blocks (the figures), made on the pairs
    /// (documents by index) that pass the count.
    pub(super) admits: &'a (dyn Fn(usize, usize) -> bool + Sync),
    /// What a candidate costs, in visits ([`BOUND_COST`](super::BOUND_COST)).
    pub(super) bound_cost: usize,
    /// The visits a walk notes before it folds them into the counters ([`FOLD_VISITS`]).
    pub(super) fold_visits: usize,
    /// The keys left out as boilerplate, as the postings keep them, sorted (with the single
    /// keys' when those are kept per class).
    pub(super) left_out: &'a [u64],
}

/// The visits a walk notes before it folds them into the counters (8 MB a thread): a walk of
/// a long document through keys held by many documents would otherwise hold them all.
pub(super) const FOLD_VISITS: usize = 1 << 20;

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
    pub(super) fn candidates_of(&self, a: usize, c: &mut Counters) -> Vec<(usize, usize)> {
        let len_a = self.sizes[a];
        let least = self.fewest.get(len_a).copied().unwrap_or(usize::MAX);
        if len_a == 0 || least == usize::MAX {
            return Vec::new();
        }
        c.needed.clear();
        c.needed.resize(self.thresholds.sizes.len(), Cell::new(0));
        // The walk reads which sentences each pair slot witnesses, never its key.
        let singles = self.classes.is_none();
        let slots = self.views[a].join_slots(self.detector, self.sketches[a], singles);
        self.costs(a, c);
        // A document B can meet the rule only with at least `least` sentences of A witnessed,
        // so among any len_a − least + 1 of them one is witnessed against B (prefix filtering
        // over sentences). When the cheapest such set costs well under all of them, only its
        // witnesses are walked (and counted) and the sentences left out count as witnessed
        // (`slack`); else all are walked. The pairs that pass have those sentences counted
        // at the end, so which sentences are walked changes the work, not the candidates.
        let prefix = choose_walked(&c.cost, least, &mut c.order);
        c.walked.clear();
        c.walked.resize(len_a, false);
        for &u in &c.order[..prefix] {
            c.walked[u as usize] = true;
        }
        self.walk(a, &slots, c);
        self.keep_passing(a, c, len_a - prefix, true);
        if prefix < len_a && self.bound_cost > 0 {
            self.walk_more(a, &slots, prefix, c);
        }
        self.count_assumed(a, c);
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

    /// Fills `c.cost` with what walking each of `a`'s sentences costs: the postings of its
    /// witness keys (boilerplate keys have none), counted when the postings were made (its
    /// pair keys' and its class's).
    fn costs(&self, a: usize, c: &mut Counters) {
        c.cost.clear();
        c.cost
            .extend((self.first_unit[a]..self.first_unit[a + 1]).map(|u| {
                let single = self
                    .classes
                    .and_then(|k| Some(k.cost[k.of(u)? as usize]))
                    .unwrap_or(0);
                self.cost[u] as usize + single as usize
            }));
    }

    /// After a cheap walk of `a`'s sentences `order[..prefix]`, walks more of them when the
    /// pairs they would rule out cost more than walking them: each pair passing costs a bound
    /// and maybe a comparison, about `bound_cost` visits. Pairs only drop out.
    fn walk_more(&self, a: usize, slots: &[Slot], prefix: usize, c: &mut Counters) {
        let len_a = self.sizes[a];
        let mut slack = len_a - prefix;
        let rest: usize = c.order[prefix..].iter().map(|&u| c.cost[u as usize]).sum();
        if c.passers.len() > rest / self.bound_cost {
            // Walking all the rest costs less than ruling them out: count exactly (each pair
            // slot visited once).
            Self::reset(c);
            c.walked.fill(true);
            self.walk(a, slots, c);
            self.keep_passing(a, c, 0, true);
            return;
        }
        // Else, while the pairs that only pass by the sentences assumed witnessed would cost
        // more than walking the cheapest sentence left, walk it too: one sentence more walked
        // is one less assumed (any len_a − least + 1 + e sentences hold at least 1 + e
        // witnessed ones), so fewer pairs pass.
        let rest = &mut c.order[prefix..];
        rest.sort_unstable_by_key(|&u| (c.cost[u as usize], u));
        for step in prefix..len_a {
            let u = c.order[step] as usize;
            if slack == 0 || self.marginal(a, c, slack) <= c.cost[u] / self.bound_cost {
                break;
            }
            c.walked[u] = true;
            self.walk_one(a, slots, u, (len_a + 1 + step) as u32, c);
            slack -= 1;
            self.keep_passing(a, c, slack, false);
        }
    }

    /// Keeps of the passers those whose count could meet the rule with the sentences the walk
    /// assumed witnessed counted exactly: each witnessed when the passer holds one of its keys
    /// not left out as boilerplate, with lengths that fit. Read from the two documents' keys
    /// for the few pairs that pass, rather than from every posting of those sentences' keys.
    /// Every sentence of a candidate is then counted, whichever were walked, so the candidates
    /// do not depend on the walk: a join that walks by other costs (the Spark job, which counts
    /// the same way) finds the same.
    fn count_assumed(&self, a: usize, c: &mut Counters) {
        let len_a = self.sizes[a];
        if c.passers.is_empty() || !c.walked.contains(&false) {
            return;
        }
        let (sketch, view) = (self.sketches[a], self.views[a]);
        // Looking up rare keys alone, the slots are the walk's, and those it does not look up
        // have no postings after theirs (as have the keys left out): skipped.
        let rare = !self.looks.is_empty();
        let after = &self.after[self.first_slot[a]..self.first_slot[a + 1]];
        c.assumed.clear();
        for (k, slot) in view.slots(self.detector, sketch).into_iter().enumerate() {
            if (rare && after[k] == NONE)
                || self.left_out.binary_search(&kept_bits(slot.key)).is_ok()
            {
                continue;
            }
            let lengths = slot.lengths(sketch);
            let units = self.looking(a, k, slot.units());
            for u in units.filter(|&u| !c.walked[u]) {
                c.assumed.push((slot.key, u as u32, lengths));
            }
        }
        c.assumed.sort_unstable();
        c.counted_for.clear();
        c.counted_for.resize(len_a, u32::MAX);
        let tolerance = self.detector.config.length_tolerance;
        let mut passers = std::mem::take(&mut c.passers);
        passers.retain(|&r| {
            let b = self.by_size[r as usize] as usize;
            let mut witnessed = 0;
            for slot in self.views[b].slots(self.detector, self.sketches[b]) {
                let lengths = slot.lengths(self.sketches[b]);
                let from = c.assumed.partition_point(|x| x.0 < slot.key);
                for &(_, u, mine) in c.assumed[from..].iter().take_while(|x| x.0 == slot.key) {
                    if c.counted_for[u as usize] != r && lengths_fit(mine, lengths, tolerance) {
                        c.counted_for[u as usize] = r;
                        witnessed += 1;
                    }
                }
            }
            self.may_pass(a, r, c, witnessed)
        });
        c.passers = passers;
    }

    /// Whether the count of the document of rank `r`, plus `extra` sentences assumed
    /// witnessed, could meet the report's rule against `a` (the count alone: no pair check).
    fn may_pass(&self, a: usize, r: u32, c: &Counters, extra: usize) -> bool {
        let count = c.count_next[r as usize][0] as usize + extra;
        self.count_may_pass(a, r, &c.needed, count)
    }

    /// Whether `count` sentences of `a` witnessed against the document of rank `r` could meet
    /// the report's rule; `needed` caches A's row of the thresholds' table.
    fn count_may_pass(&self, a: usize, r: u32, needed: &[Cell<u32>], count: usize) -> bool {
        if let Some(&place) = self.ranked_places.get(r as usize) {
            // A's row of the table, cached for its walk.
            let cell = &needed[place as usize];
            let mut needed = cell.get();
            if needed == 0 {
                needed = self.thresholds.needed(self.sizes[a], place);
                cell.set(needed);
            }
            return count.saturating_add(1) >= needed as usize;
        }
        let (len_a, len_b) = (self.sizes[a], self.ranked_sizes[r as usize]);
        let m = count.min(len_a).min(len_b);
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
            for &(r, count) in &c.tallies {
                if self.count_may_pass(a, r, &c.needed, count as usize + extra)
                    && (self.admits)(a, self.by_size[r as usize] as usize)
                {
                    // Marked as met (1 is no sentence's mark: [`Walk::walk_one`]).
                    let [_, next] = c.count_next[r as usize];
                    c.count_next[r as usize] = [count, 1];
                    if next == 0 {
                        c.touched.push(r);
                    }
                    passers.push(r);
                }
            }
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
            if !self.looking(a, k, slot.units()).contains(&u) {
                continue;
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

    /// The sentences among `units`, those `a`'s `k`-th slot witnesses, that look it up: all of
    /// them unless only rare keys are looked up ([`rare`]).
    #[inline]
    fn looking(&self, a: usize, k: usize, units: std::ops::Range<usize>) -> std::ops::Range<usize> {
        match self.looks.get(self.first_slot[a] + k) {
            Some(&looks) => rare::looking(looks, units),
            None => units,
        }
    }

    /// Clears the counters of the documents the last walk touched.
    fn reset(c: &mut Counters) {
        for &r in &c.touched {
            c.count_next[r as usize] = [0, 0];
        }
        c.touched.clear();
        c.passers.clear();
    }

    /// Walks the postings of `a`'s slots that witness a sentence marked in `c.walked`, and
    /// tallies per document after `a` (by rank, in size order) the marked sentences witnessed
    /// (`c.tallies`).
    fn walk(&self, a: usize, slots: &[Slot], c: &mut Counters) {
        c.visits.clear();
        // Two loops, so that the walk without classes makes no check for them per slot.
        if self.classes.is_some() {
            self.walk_with::<true>(a, slots, c);
        } else {
            self.walk_with::<false>(a, slots, c);
        }
        if c.touched.is_empty() {
            tally(&mut c.visits, &mut c.tallies);
        } else {
            // A long walk folded its visits as it went: the rest too, and its counts are
            // the tallies.
            fold(&mut c.visits, &mut c.count_next, &mut c.touched);
            c.tallies.clear();
            let counts = c.touched.iter().map(|&r| (r, c.count_next[r as usize][0]));
            c.tallies.extend(counts);
            c.tallies.sort_unstable();
        }
    }

    /// [`Walk::walk`], with the single keys per class of sentences (`CLASSES`) or among the
    /// slots.
    fn walk_with<const CLASSES: bool>(&self, a: usize, slots: &[Slot], c: &mut Counters) {
        // Where the postings of each of a's pair slots start: their first reads are cache
        // misses (the lists lie in key order), so each is asked for a few slots ahead.
        let after = &self.after[self.first_slot[a]..self.first_slot[a + 1]];
        let Counters {
            count_next,
            touched,
            visits,
            walked,
            found,
            ..
        } = c;
        let walked = &*walked;
        // In code order: sentence i's single keys, then the pair slots of (i, i + 1).
        let mut single = 0;
        let mut singles_to = |end: usize, visits: &mut Vec<u64>| {
            if !CLASSES {
                return;
            }
            while single < end {
                if walked[single] {
                    let units = single..single + 1;
                    self.single_witnesses(a, single, found, &mut |b| {
                        note_walked(visits, walked, b, units.clone())
                    });
                }
                single += 1;
            }
        };
        for (k, slot) in slots.iter().enumerate() {
            if visits.len() >= self.fold_visits {
                fold(visits, count_next, touched);
            }
            let units = slot.units();
            singles_to(units.start + 1, visits);
            if let Some(&ahead) = after.get(k + AHEAD)
                && ahead != NONE
            {
                prefetch(&self.holders[ahead as usize]);
                if let Some(lengths) = self.lengths.get(ahead as usize) {
                    prefetch(lengths);
                }
            }
            let units = self.looking(a, k, units);
            if !walked[units.clone()].contains(&true) {
                continue;
            }
            for b in self.witnesses(a, k, *slot) {
                note_walked(visits, walked, b, units.clone());
            }
        }
        singles_to(self.sizes[a], visits);
    }
}

/// Notes a visit of the document of rank `r` for each walked sentence among `units` (a
/// slot's).
#[inline]
fn note_walked(visits: &mut Vec<u64>, walked: &[bool], r: u32, units: std::ops::Range<usize>) {
    for u in units {
        if walked[u] {
            visits.push(u64::from(r) << 32 | u as u64);
        }
    }
}

/// Counts the distinct sentences among `visits` (rank << 32 | sentence) into `count_next`,
/// pushing the documents counted for the first time to `touched`, and clears `visits`. A walk
/// notes its visits in slot order, and all the slots of a step witness the same sentences, so
/// a sentence noted after a fold is at least the last one counted for its document, and the
/// one after that (`next`) tells whether it was counted already.
fn fold(visits: &mut Vec<u64>, count_next: &mut [[u32; 2]], touched: &mut Vec<u32>) {
    visits.sort_unstable();
    for &v in visits.iter() {
        let (r, u) = ((v >> 32) as u32, v as u32);
        let [count, next] = &mut count_next[r as usize];
        if *next == 0 {
            touched.push(r);
        }
        if u >= *next {
            *count += 1;
            *next = u + 1;
        }
    }
    visits.clear();
}

/// Each document's count of distinct sentences among `visits` (rank << 32 | sentence), as
/// (rank, count) by rank into `tallies`; `visits` is left sorted.
fn tally(visits: &mut [u64], tallies: &mut Vec<(u32, u32)>) {
    visits.sort_unstable();
    tallies.clear();
    let mut last = u64::MAX;
    for &v in visits.iter() {
        if v == last {
            continue;
        }
        last = v;
        let r = (v >> 32) as u32;
        match tallies.last_mut() {
            Some((at, count)) if *at == r => *count += 1,
            _ => tallies.push((r, 1)),
        }
    }
}
