//! Sentence classes of a corpus for the witness join ([`super::join`]): sentences that hold the
//! same single keys, so that the join keeps and walks those keys once per class instead of once
//! per sentence.
//!
//! A sentence's single keys depend only on its key terms (in the corpus order), its length and
//! its number of distinct terms ([`RobustSlst::single_keys_of`]); sentences equal in these share
//! every single key and every length a posting carries. A corpus made from a pool of sentences
//! repeats each many times: on 300,000 synthetic documents, 6.5 million sentences fall into
//! 384,000 classes, and a sentence held by 17 documents would otherwise be visited once per
//! single key (10 under the anchor rule) from each of them. So single keys are postings of
//! classes — key → classes → documents — and a walk visits each class that witnesses a sentence
//! once, whichever of its keys it shares: about (keys × classes per key) + documents instead of
//! keys × documents. Pair keys stay per document: a step (two sentences in a row) repeats far
//! less (6.2 million steps, 5.0 million distinct, on the same corpus).

use std::sync::atomic::{AtomicU32, Ordering};

use rayon::prelude::*;
use rdst::{RadixKey, RadixSort};

use super::join::{kept_bits, split_parts};
use super::keys::pair_key;
use super::{CorpusView, RobustProfile, RobustSlst};

/// Marks the last class of a key's list in [`Classes::lists`].
pub(super) const LAST: u32 = 1 << 31;
/// No class: a sentence without single keys.
pub(super) const NONE: u32 = u32::MAX;

/// The average sentences per class below which single keys are kept per sentence: making the
/// classes then costs more than it saves. The candidate stage with classes against without, in
/// single runs of a first version: at 1.06 sentences a class (Reuters-21578) 1.5× the time, at
/// 2.3 (20,000 synthetic documents) 1.27×, at 8.8 (100,000) 0.95×, at 17 (300,000) 0.87×.
pub(super) const MIN_CLASS_SIZE: usize = 4;

/// Seeds the hash of a sentence's class signature.
const SIGNATURE_SEED: u64 = 0x5ee1_7e55_0b0c_0003;

/// The sentence classes of a corpus and the postings of their single keys.
pub(super) struct Classes {
    /// Per global sentence (documents in index order): its class, or [`NONE`] when it has no
    /// single key.
    of_unit: Vec<u32>,
    /// Class `c`'s documents, as ranks in (size, index) order, ascending and distinct:
    /// `docs[first[c]..first[c + 1]]`.
    first: Vec<u32>,
    docs: Vec<u32>,
    /// Per class: the length of its sentences, capped at 255 (as [`super::keys::Slot::lengths`]).
    pub(super) length: Vec<u8>,
    /// Where the lists of class `c`'s single keys start in [`Classes::lists`]:
    /// `starts[starts_first[c]..starts_first[c + 1]]` (keys with a list only).
    starts_first: Vec<u32>,
    starts: Vec<u32>,
    /// The classes holding each key, ascending, list after list, [`LAST`] set on each list's
    /// last; only keys held by two documents or more, and at most `max_df`.
    pub(super) lists: Vec<u32>,
    /// Each listed class's length, beside [`Classes::lists`]: the walk reads it with the class.
    pub(super) list_lengths: Vec<u8>,
    /// Per class: about what walking a sentence of it costs — its keys' lists, and half the
    /// documents of the classes in them (a walk visits those after its own document).
    pub(super) cost: Vec<u64>,
    /// Single keys left out as boilerplate (held by more than `max_df` documents), as the
    /// postings keep keys ([`super::join::kept_bits`]).
    pub(super) left_out: Vec<u64>,
}

/// A sentence with a single key, as sorted: by the hash of its signature, then sentence.
#[derive(Debug, Clone, Copy)]
struct Signed {
    hash: u64,
    /// The global sentence.
    unit: u32,
    doc: u32,
}

impl RadixKey for Signed {
    const LEVELS: usize = 12;

    #[inline]
    fn get_level(&self, level: usize) -> u8 {
        if level < 4 {
            (self.unit >> (8 * level)) as u8
        } else {
            (self.hash >> (8 * (level - 4))) as u8
        }
    }
}

/// A single key of a class, as sorted: by key, then class.
#[derive(Debug, Clone, Copy)]
struct Keyed {
    key: u64,
    class: u32,
}

impl RadixKey for Keyed {
    const LEVELS: usize = 12;

    #[inline]
    fn get_level(&self, level: usize) -> u8 {
        if level < 4 {
            (self.class >> (8 * level)) as u8
        } else {
            (self.key >> (8 * (level - 4))) as u8
        }
    }
}

/// What makes a sentence's single keys: its key terms in the corpus order, its length and its
/// number of distinct terms.
fn signature<'a>(view: &'a CorpusView, p: &'a RobustProfile, i: usize) -> (&'a [u32], u16, usize) {
    let s = &p.sentences[i];
    (view.ranks_of(p, i), s.length, s.size())
}

/// How many distinct values the sentences' hashes take modulo a power of two of about 16 bits
/// per sentence (at most 2³⁰): at most as many as distinct hashes, and with that much room
/// seldom fewer.
fn distinct_residues(signed: &[Signed]) -> usize {
    use std::sync::atomic::AtomicU64;
    let bits = (16 * signed.len()).next_power_of_two().clamp(64, 1 << 30);
    let set: Vec<AtomicU64> = (0..bits / 64).map(|_| AtomicU64::new(0)).collect();
    signed.par_iter().for_each(|x| {
        let r = x.hash as usize & (bits - 1);
        set[r / 64].fetch_or(1 << (r % 64), Ordering::Relaxed);
    });
    set.into_iter()
        .map(|w| w.into_inner().count_ones() as usize)
        .sum()
}

impl Classes {
    /// The classes of a corpus's sentences, documents by index with their views, and the
    /// postings of the classes' single keys; `None` when the classes would hold fewer than
    /// `min_class_size` sentences each on average ([`MIN_CLASS_SIZE`]). `first_unit` holds each
    /// document's first global sentence, `rank` each document's place in (size, index) order.
    pub(super) fn new(
        d: &RobustSlst,
        sketches: &[&RobustProfile],
        views: &[&CorpusView],
        first_unit: &[usize],
        rank: &[u32],
        max_df: usize,
        min_class_size: usize,
    ) -> Option<Self> {
        let corpus = Corpus {
            d,
            sketches,
            views,
            first_unit,
        };
        let n = views.len();
        let mut signed = corpus.signed();
        // The distinct hashes' residues bound their number from below, at the cost of a bit
        // set rather than a sort: a corpus whose classes are surely too small (Reuters-21578,
        // the synthetic 20,000) is told so without sorting its sentences.
        if signed.len() < min_class_size.saturating_mul(distinct_residues(&signed)) {
            return None;
        }
        signed.radix_sort_builder().with_low_mem_tuner().sort();
        let distinct = signed.chunk_by(|x, y| x.hash == y.hash).count();
        if signed.len() < min_class_size.saturating_mul(distinct) {
            return None;
        }
        let starts = corpus.class_starts(&mut signed);
        let classes = starts.len() - 1;
        let class_range = |c: usize| starts[c] as usize..starts[c + 1] as usize;
        let (docs, first) = class_documents(&signed, &starts, rank);
        // Each sentence's class, written in parallel at places scattered over the corpus.
        let of_unit: Vec<AtomicU32> = (0..first_unit[n])
            .into_par_iter()
            .map(|_| AtomicU32::new(NONE))
            .collect();
        (0..classes).into_par_iter().for_each(|c| {
            for x in &signed[class_range(c)] {
                of_unit[x.unit as usize].store(c as u32, Ordering::Relaxed);
            }
        });
        let of_unit: Vec<u32> = of_unit.into_iter().map(AtomicU32::into_inner).collect();
        // Each class's length and first sentence.
        let (length, examples): (Vec<u8>, Vec<u32>) = (0..classes)
            .into_par_iter()
            .map(|c| {
                let x = &signed[starts[c] as usize];
                (corpus.signature_of(x).1.min(255) as u8, x.unit)
            })
            .unzip();
        drop(signed);
        drop(starts);
        let keyed = corpus.single_keys(&of_unit, &examples);
        let lists = KeyLists::of(&keyed, classes, max_df, (&docs, &first), &length);
        drop(keyed);
        let (starts_first, starts) = list_starts(&lists.listed, classes);
        Some(Classes {
            of_unit,
            first,
            docs,
            length,
            starts_first,
            starts,
            lists: lists.lists,
            list_lengths: lists.list_lengths,
            cost: lists.cost,
            left_out: lists.left_out,
        })
    }

    /// Class `c`'s documents (ranks, ascending).
    pub(super) fn docs_of(&self, c: u32) -> &[u32] {
        &self.docs[self.first[c as usize] as usize..self.first[c as usize + 1] as usize]
    }

    /// Where the lists of class `c`'s single keys start.
    pub(super) fn starts_of(&self, c: u32) -> &[u32] {
        &self.starts
            [self.starts_first[c as usize] as usize..self.starts_first[c as usize + 1] as usize]
    }

    /// The class of global sentence `unit`, if it has single keys.
    pub(super) fn of(&self, unit: usize) -> Option<u32> {
        let c = self.of_unit[unit];
        (c != NONE).then_some(c)
    }
}

/// The corpus the classes are made of: its documents' profiles and views, by index, and each
/// document's first global sentence.
struct Corpus<'a> {
    d: &'a RobustSlst,
    sketches: &'a [&'a RobustProfile],
    views: &'a [&'a CorpusView],
    first_unit: &'a [usize],
}

impl<'a> Corpus<'a> {
    /// The [`signature`] of a signed sentence.
    fn signature_of(&self, x: &Signed) -> (&'a [u32], u16, usize) {
        let doc = x.doc as usize;
        signature(
            self.views[doc],
            self.sketches[doc],
            x.unit as usize - self.first_unit[doc],
        )
    }

    /// Every sentence with a single key, with the hash of its signature, in document order.
    fn signed(&self) -> Vec<Signed> {
        let (d, first_unit) = (self.d, self.first_unit);
        // Per sentence with a single key: the hash of its signature, global sentence, document.
        let sign = |doc: usize| {
            let (view, p) = (self.views[doc], self.sketches[doc]);
            (0..p.len()).filter_map(move |i| {
                let (ranks, length, size) = signature(view, p, i);
                let mut keys = 0;
                d.single_keys_of::<false, u32>(ranks, length, size, |_| keys += 1);
                (keys > 0).then(|| {
                    let hash = ranks.iter().fold(
                        pair_key(u64::from(length), size as u64, SIGNATURE_SEED),
                        |h, &r| pair_key(h, u64::from(r), SIGNATURE_SEED),
                    );
                    (hash, (first_unit[doc] + i) as u32, doc as u32)
                })
            })
        };
        // Sorted by hash, then sentence (by the caller): runs of one hash are one class, unless
        // two signatures share a hash (about one in 10⁹ at 10⁵ classes).
        (0..self.views.len())
            .into_par_iter()
            .flat_map_iter(|doc| sign(doc).map(|(hash, unit, doc)| Signed { hash, unit, doc }))
            .collect()
    }

    /// Where each class starts in `signed` (sorted by hash, then sentence), and (last) where
    /// the last ends: each run of a hash, checked in parallel (which reads every sentence's
    /// signature where its profile lies), and a run holding two signatures put in signature
    /// order (then sentence order) and cut where the signature changes.
    fn class_starts(&self, signed: &mut [Signed]) -> Vec<u32> {
        let sig_of = |x: &Signed| self.signature_of(x);
        let base = signed.as_ptr() as usize;
        let mut starts: Vec<u32> = signed
            .par_chunk_by_mut(|x, y| x.hash == y.hash)
            .flat_map_iter(|run| {
                let at = (run.as_ptr() as usize - base) / std::mem::size_of::<Signed>();
                let head = sig_of(&run[0]);
                let mixed = run[1..].iter().any(|x| sig_of(x) != head);
                let mut cuts = Vec::new();
                if mixed {
                    run.sort_unstable_by(|x, y| {
                        sig_of(x).cmp(&sig_of(y)).then(x.unit.cmp(&y.unit))
                    });
                    let mut from = at;
                    for class in run.chunk_by(|x, y| sig_of(x) == sig_of(y)) {
                        cuts.push(from as u32);
                        from += class.len();
                    }
                }
                (!mixed).then_some(at as u32).into_iter().chain(cuts)
            })
            .collect();
        starts.push(signed.len() as u32);
        starts
    }

    /// Every class's single keys, as (key, class), sorted: runs of a key are its list. Made
    /// from each class's first sentence (`examples`), read in document order (in class order,
    /// each read would be a cache miss); `in_class` is each sentence's class.
    fn single_keys(&self, in_class: &[u32], examples: &[u32]) -> Vec<Keyed> {
        let (d, first_unit) = (self.d, self.first_unit);
        let mut keyed: Vec<Keyed> = (0..self.views.len())
            .into_par_iter()
            .fold(Vec::new, |mut keys, doc| {
                let (view, p) = (self.views[doc], self.sketches[doc]);
                for i in 0..p.len() {
                    let unit = first_unit[doc] + i;
                    let class = in_class[unit];
                    if class == NONE || examples[class as usize] != unit as u32 {
                        continue;
                    }
                    let (ranks, length, size) = signature(view, p, i);
                    d.single_keys_of::<true, u32>(ranks, length, size, |key| {
                        keys.push(Keyed { key, class })
                    });
                }
                keys
            })
            .flatten_iter()
            .collect();
        // A radix sort, as for the postings: several times faster than a comparison sort.
        keyed.radix_sort_builder().with_low_mem_tuner().sort();
        keyed.dedup_by(|x, y| x.key == y.key && x.class == y.class);
        keyed
    }
}

/// Each class's documents (ranks, ascending, distinct), class after class, and where each
/// class's start (and, last, where the last ends): its sentences' documents (by rank), sorted
/// and distinct in place, then moved together. `starts` are where the classes start in
/// `signed`.
fn class_documents(signed: &[Signed], starts: &[u32], rank: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let classes = starts.len() - 1;
    let class_range = |c: usize| starts[c] as usize..starts[c + 1] as usize;
    let mut docs: Vec<u32> = signed.par_iter().map(|x| rank[x.doc as usize]).collect();
    let distinct_docs: Vec<u32> =
        split_parts(&mut docs, (0..classes).map(|c| class_range(c).len()))
            .into_par_iter()
            .map(|part| {
                part.sort_unstable();
                let mut kept = 1;
                for k in 1..part.len() {
                    if part[k] != part[kept - 1] {
                        part[kept] = part[k];
                        kept += 1;
                    }
                }
                kept as u32
            })
            .collect();
    let mut first = Vec::with_capacity(classes + 1);
    first.push(0u32);
    let mut to = 0;
    for (c, &kept) in distinct_docs.iter().enumerate() {
        docs.copy_within(starts[c] as usize..starts[c] as usize + kept as usize, to);
        to += kept as usize;
        first.push(to as u32);
    }
    docs.truncate(to);
    docs.shrink_to_fit();
    (docs, first)
}

/// The lists of the classes' single keys ([`Classes::lists`]), with what each class's walk
/// costs and which lists hold it.
struct KeyLists {
    lists: Vec<u32>,
    list_lengths: Vec<u8>,
    cost: Vec<u64>,
    /// Per listing of a class: the class and where its list starts, in key order.
    listed: Vec<(u32, u32)>,
    left_out: Vec<u64>,
}

impl KeyLists {
    /// The lists of the sorted `keyed` keys of `classes` classes, with each class's documents
    /// (`docs[first[c]..first[c + 1]]`) and sentence length: only keys held by two documents
    /// or more, and at most `max_df`.
    fn of(
        keyed: &[Keyed],
        classes: usize,
        max_df: usize,
        (docs, first): (&[u32], &[u32]),
        length: &[u8],
    ) -> Self {
        let held = |c: u32| (first[c as usize + 1] - first[c as usize]) as usize;
        let (mut lists, mut list_lengths) = (Vec::new(), Vec::new());
        let mut cost = vec![0u64; classes];
        let mut listed: Vec<(u32, u32)> = Vec::new();
        let mut left_out = Vec::new();
        let mut scratch = Vec::new();
        for run in keyed.chunk_by(|x, y| x.key == y.key) {
            let total: usize = run.iter().map(|x| held(x.class)).sum();
            // A document may hold the key in sentences of several classes: the distinct
            // documents decide whether the key is boilerplate, and are only counted when the
            // sum says it might be.
            if total < 2 {
                continue;
            }
            if total > max_df {
                scratch.clear();
                for x in run {
                    let c = x.class;
                    scratch.extend_from_slice(&docs[first[c as usize] as usize..][..held(c)]);
                }
                scratch.sort_unstable();
                scratch.dedup();
                if scratch.len() > max_df {
                    left_out.push(kept_bits(run[0].key));
                    continue;
                }
            }
            let start = lists.len() as u32;
            for x in run {
                let c = x.class;
                lists.push(c);
                list_lengths.push(length[c as usize]);
                listed.push((c, start));
                // A walk visits the list, then the documents after its own: about half.
                cost[c as usize] += (run.len() + total / 2) as u64;
            }
            *lists.last_mut().expect("a run is never empty") |= LAST;
        }
        KeyLists {
            lists,
            list_lengths,
            cost,
            listed,
            left_out,
        }
    }
}

/// Each class's list starts, in key order, by counting: ([`Classes::starts_first`],
/// [`Classes::starts`]) from the `listed` (class, list start) pairs of `classes` classes.
fn list_starts(listed: &[(u32, u32)], classes: usize) -> (Vec<u32>, Vec<u32>) {
    let mut starts_first = vec![0u32; classes + 1];
    for &(c, _) in listed {
        starts_first[c as usize + 1] += 1;
    }
    for c in 0..classes {
        starts_first[c + 1] += starts_first[c];
    }
    let mut starts = vec![0u32; listed.len()];
    let mut next = starts_first.clone();
    for &(c, start) in listed {
        starts[next[c as usize] as usize] = start;
        next[c as usize] += 1;
    }
    (starts_first, starts)
}
