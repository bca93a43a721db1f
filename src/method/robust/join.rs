//! Candidate pairs of a corpus for robust SL+ST, by counting witnessed sentences.
//!
//! Every sentence of A that lies in a block of a comparison with B has a *witness*: a key of
//! one of A's [`Slot`]s that B also holds (a pair key of the two sentences of a block step, or a
//! single key of a one-sentence block; module docs of [`super`]). So the number of A's sentences
//! witnessed by keys B holds bounds the sentences in blocks, and with it every score. The join
//! counts it for every pair that shares a key, without listing the pairs first: for each
//! document A, it walks the postings of A's keys once, in the order of A's sentences, and counts
//! per document B the sentences witnessed so far. Only pairs whose count could still satisfy
//! the report's rule are candidates. Compared with listing every pair that shares a key and
//! bounding each one afterwards, this reads each posting list once per holder and never sorts
//! or stores the pairs that cannot be reported.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use rdst::{RadixKey, RadixSort};

use super::{CorpusView, RobustProfile, RobustSlst};
use crate::similarity::Similarity;

/// A key list held by more than `max_df` documents: left out, its sentences counted as
/// witnessed against every document.
const CAPPED: u64 = u64::MAX;

/// A posting: a key and its holder (document << 32 | slot number).
#[derive(Debug, Clone, Copy)]
struct Entry {
    key: u64,
    holder: u64,
}

/// Bytes of a key the join compares: 5. Two keys equal in them are treated as one, which can
/// only add candidate pairs (about one key in 10⁵ on a corpus of 10⁷ keys), never lose one,
/// and the radix sort makes 9 passes instead of 12.
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
            (self.key >> (8 * (level - 4))) as u8
        }
    }
}

/// Per-thread counters of the walk.
struct Counters {
    /// Per document: the sentences of the current A witnessed against it, and the first
    /// sentence of A not yet counted for it (A's slots come in sentence order, so every
    /// sentence counted so far lies below it). Side by side: one cache line holds both.
    count_next: Vec<[u32; 2]>,
    /// Documents with a count above 0.
    touched: Vec<u32>,
}

impl RobustSlst {
    /// [`crate::Detector::corpus_candidates`] for robust SL+ST: `None` until
    /// [`crate::Detector::prepare_corpus`] has run (the generic join on keys is then used).
    pub(super) fn witness_join(
        &self,
        sketches: &[&RobustProfile],
        keep: &(dyn Fn(&Similarity, bool) -> bool + Sync),
        max_df: usize,
    ) -> Option<(Vec<(usize, usize)>, usize)> {
        let views: Vec<&CorpusView> = sketches
            .iter()
            .map(|p| p.corpus.as_deref())
            .collect::<Option<_>>()?;
        let n = views.len();
        let mut first_slot = Vec::with_capacity(n + 1);
        first_slot.push(0usize);
        for v in &views {
            first_slot.push(first_slot[first_slot.len() - 1] + v.slots.len());
        }
        let total = first_slot[n];
        if total >= u32::MAX as usize || n >= u32::MAX as usize {
            return None;
        }
        // Every slot as (key, document << 32 | slot number), sorted: each key's postings, by
        // document.
        let mut entries: Vec<Entry> = views
            .par_iter()
            .enumerate()
            .flat_map_iter(|(d, v)| {
                let base = first_slot[d];
                v.slots.iter().enumerate().map(move |(k, s)| Entry {
                    key: s.key & KEY_MASK,
                    holder: (d as u64) << 32 | (base + k) as u64,
                })
            })
            .collect();
        // A radix sort: several times faster than a comparison sort on these 10⁷-entry lists.
        entries.radix_sort_unstable();
        // For each slot, the entries after its own in its key's list, as start << 32 | end
        // (0: none, CAPPED: left out), and the number of keys left out.
        let ranges: Vec<AtomicU64> = (0..total).map(|_| AtomicU64::new(0)).collect();
        let capped: usize = entries
            .par_chunk_by(|x, y| x.key == y.key)
            .map(|list| {
                if list.len() < 2 {
                    return 0;
                }
                let base = list.as_ptr() as usize - entries.as_ptr() as usize;
                let base = base / std::mem::size_of::<Entry>();
                let docs = 1 + list
                    .windows(2)
                    .filter(|w| w[0].holder >> 32 != w[1].holder >> 32)
                    .count();
                let end = (base + list.len()) as u64;
                for (k, e) in list.iter().enumerate() {
                    let range = if docs > max_df {
                        CAPPED
                    } else {
                        ((base + k + 1) as u64) << 32 | end
                    };
                    ranges[e.holder as u32 as usize].store(range, Ordering::Relaxed);
                }
                usize::from(docs > max_df)
            })
            .sum();
        let ranges: Vec<u64> = ranges.into_iter().map(AtomicU64::into_inner).collect();
        // The walk reads only the documents of the postings: a column of its own.
        let holders: Vec<u32> = entries.iter().map(|e| (e.holder >> 32) as u32).collect();
        drop(entries);

        let threshold = self.config.threshold;
        let pairs: Vec<(usize, usize)> = (0..n)
            .into_par_iter()
            .map_init(
                || Counters {
                    count_next: vec![[0, 0]; n],
                    touched: Vec::new(),
                },
                |c, a| {
                    // Sentences witnessed against every document, by keys left out.
                    let mut everywhere = 0usize;
                    for (k, slot) in views[a].slots.iter().enumerate() {
                        let range = ranges[first_slot[a] + k];
                        let (i, pair) = (slot.code >> 1, slot.code & 1 == 1);
                        if range == CAPPED {
                            everywhere += 1 + usize::from(pair);
                            continue;
                        }
                        let (start, end) = ((range >> 32) as usize, range as u32 as usize);
                        for &b in &holders[start..end] {
                            if b as usize == a {
                                continue;
                            }
                            let [count, next] = &mut c.count_next[b as usize];
                            if *count == 0 {
                                c.touched.push(b);
                            }
                            if pair {
                                *count += 2u32.saturating_sub(next.saturating_sub(i));
                                *next = (*next).max(i + 2);
                            } else if *next <= i {
                                *count += 1;
                                *next = i + 1;
                            }
                        }
                    }
                    c.touched.sort_unstable();
                    let len_a = sketches[a].len();
                    let mut out = Vec::new();
                    for &b in &c.touched {
                        let b = b as usize;
                        let len_b = sketches[b].len();
                        let m = (c.count_next[b][0] as usize + everywhere)
                            .min(len_a)
                            .min(len_b);
                        let bound = Similarity::from_counts(m, len_a, len_b);
                        if keep(&bound, m > 0 && bound.resemblance >= threshold) {
                            out.push((a, b));
                        }
                        c.count_next[b] = [0, 0];
                    }
                    c.touched.clear();
                    out
                },
            )
            .flatten_iter()
            .collect();
        Some((pairs, capped))
    }
}
