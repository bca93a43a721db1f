//! The corpus-wide term order a corpus run keys under: each term's document frequency, its
//! ranks, and each profile's [`CorpusView`] under them (with the min-wise picks of its steps,
//! made from the terms' ids).

use std::collections::HashMap;
use std::sync::Arc;

use super::hashing::{NO_PICK, min_wise_place};
use super::{CorpusView, KeyRanks, PlacesCache};
use crate::method::robust::words::Words;
use crate::method::robust::{RobustProfile, RobustSlst};

/// Working lists of [`RobustSlst::corpus_view`], kept by a thread from one profile to the next.
#[derive(Debug, Default)]
struct ViewScratch {
    /// Each term's three ranks, in term-list order.
    looked: Vec<[u32; 3]>,
    /// One sentence's ranks in the join's order.
    ordered: Vec<u32>,
    /// The ranks by document frequency, for the word rule.
    words: Vec<u32>,
}

impl RobustSlst {
    /// A profile under a corpus order given as each term's ranks: its rank in the order of the
    /// sentence keys, its rank by document frequency (for the word rule's prefix) and its term
    /// rank ([`super::TermList`]); with the profile's terms as term ranks. `ids` are the
    /// corpus's distinct ids, which term ranks index. With `in_terms` (the anchor rule, and the
    /// profile about to hold the term ranks returned), the view reads its key-term ranks from
    /// the profile's terms ([`KeyRanks::Terms`]).
    fn corpus_view(
        &self,
        p: &RobustProfile,
        ids: &Arc<[u64]>,
        ranks_of: &impl Fn(u64) -> [u32; 3],
        in_terms: bool,
        scratch: &mut ViewScratch,
    ) -> (CorpusView, Box<[u32]>) {
        debug_assert!(!in_terms || self.config.anchor_terms > 0);
        // Every term of the profile looked up once, in the order of its term list (each
        // sentence's, then each window's).
        let terms = p.id_list();
        let ViewScratch {
            looked,
            ordered,
            words,
        } = scratch;
        looked.clear();
        looked.extend(terms.iter().map(|&t| ranks_of(t)));
        // Each sentence's key-term ranks, unless the term list's own ranks are read instead.
        let (mut ranks, mut starts) = (Vec::new(), Vec::new());
        if !in_terms {
            let sizes = p.sentences.iter().map(|s| s.size());
            ranks.reserve_exact(sizes.map(|n| self.keyed_terms(n)).sum());
            starts.reserve_exact(p.len() + 1);
            starts.push(0);
            for s in &p.sentences {
                ordered.clear();
                ordered.extend(
                    looked[s.first_term as usize..][..s.size()]
                        .iter()
                        .map(|l| l[0]),
                );
                ordered.sort_unstable();
                ranks.extend_from_slice(&ordered[..self.keyed_terms(ordered.len())]);
                starts.push(ranks.len() as u32);
            }
        }
        // The vocabulary by document frequency: of the sentences and the windows.
        let words = if self.config.vocabulary > 0.0 && !p.is_empty() {
            words.clear();
            words.extend(looked.iter().map(|l| l[1]));
            self.words_of(words)
        } else {
            Words::default()
        };
        // A term no profile holds has no rank: the largest number stands for it, which no
        // term list holds either.
        let term_rank = |t: u64| ranks_of(t)[2];
        let mut subject_words: Vec<u32> = p
            .subject
            .iter()
            .filter(|&&t| !crate::method::robust::sketch::is_figure(t))
            .map(|&t| term_rank(t))
            .collect();
        subject_words.sort_unstable();
        let ranks = if in_terms {
            KeyRanks::Terms {
                anchors: self.config.anchor_terms,
            }
        } else {
            KeyRanks::Own {
                ranks: ranks.into(),
                starts: starts.into(),
            }
        };
        let view = CorpusView {
            ranks,
            key_places: PlacesCache::default(),
            words,
            ids: Arc::clone(ids),
            lead: p.lead.map(term_rank),
            subject_words: subject_words.into(),
            picks: self.pick_places(p, &terms, looked, in_terms),
        };
        (view, looked.iter().map(|l| l[2]).collect())
    }

    /// [`CorpusView::picks`] of profile `p`, whose term list holds the ids `terms`, looked up as
    /// `looked` ([`RobustSlst::corpus_view`]): per sentence, for each of the `pair_keys` min-wise
    /// hashes, the place among its key terms (in the order the view gives them: by id with
    /// `in_terms`, else by the first rank) of the term whose id hashes least.
    fn pick_places(
        &self,
        p: &RobustProfile,
        terms: &[u64],
        looked: &[[u32; 3]],
        in_terms: bool,
    ) -> Box<[u8]> {
        let n = self.config.pair_keys;
        if n == 0 || self.config.min_block <= 1 {
            return Box::default();
        }
        let mut out = Vec::with_capacity(n * p.len());
        let mut keyed: Vec<(u32, u64)> = Vec::new();
        for s in &p.sentences {
            let own = &terms[s.first_term as usize..][..s.size()];
            let ids: &[u64] = if in_terms {
                own
            } else {
                keyed.clear();
                let ranks = &looked[s.first_term as usize..][..s.size()];
                keyed.extend(ranks.iter().map(|l| l[0]).zip(own.iter().copied()));
                keyed.sort_unstable();
                &[]
            };
            let len = self.key_terms(s.size());
            let id = |j: usize| if in_terms { ids[j] } else { keyed[j].1 };
            out.extend(
                (0..n).map(|h| min_wise_place(len, id, h as u64).map_or(NO_PICK, |j| j as u8)),
            );
        }
        out.into()
    }

    /// Ranks the corpus's terms — by document frequency (rarest first) for the prefixes, or in
    /// id order (longest first) for the anchors — and keeps each document's keys under that
    /// order.
    pub(in crate::method::robust) fn rank_corpus(&self, sketches: &mut [RobustProfile]) {
        self.rank_corpus_as(sketches, true);
    }

    /// [`RobustSlst::rank_corpus`], with the profiles' terms turned into term ranks only when
    /// `to_term_ranks` (tests compare the two forms).
    pub(in crate::method::robust) fn rank_corpus_as(
        &self,
        sketches: &mut [RobustProfile],
        to_term_ranks: bool,
    ) {
        use rayon::prelude::*;
        let mut by_df = document_frequencies(sketches);
        // Rank = position in (document frequency, id) order: rarest first, a total order; with
        // anchors, the order their rule is stated in (ids were sorted by the run above). Each
        // term's rank is kept with its rank by document frequency, which the word rule's
        // prefixes follow.
        let by_id: Arc<[u64]> = by_df.iter().map(|&(_, t)| t).collect();
        by_df.par_sort_unstable();
        let mut df_ranks = vec![0u32; by_id.len()];
        for (r, &(_, t)) in by_df.iter().enumerate() {
            if let Ok(at) = by_id.binary_search(&t) {
                df_ranks[at] = r as u32;
            }
        }
        drop(by_df);
        let by_df_first = self.config.anchor_terms == 0;
        // Term ranks (a place among the distinct ids, doubled, with the figure mark) need the
        // places to fit in 31 bits, below the rank that stands for a term no profile holds.
        let term_ranks = to_term_ranks && by_id.len() < 1 << 31;
        let rank_of: HashMap<u64, [u32; 3], foldhash::fast::RandomState> = by_id
            .iter()
            .zip(&df_ranks)
            .enumerate()
            .map(|(i, (&t, &df))| {
                let term =
                    ((i as u32) << 1) | u32::from(crate::method::robust::sketch::is_figure(t));
                (t, [if by_df_first { df } else { i as u32 }, df, term])
            })
            .collect();
        let ranks_of = |t: u64| rank_of.get(&t).copied().unwrap_or([u32::MAX; 3]);
        // Under the anchor rule, a profile's key-term ranks are then its first term ranks.
        let in_terms = term_ranks && self.config.anchor_terms > 0;
        // Each thread keeps its working lists from profile to profile, rather than allocating
        // them for every profile among the views and term lists kept.
        sketches
            .par_iter_mut()
            .for_each_init(ViewScratch::default, |scratch, p| {
                let (view, ranked) = self.corpus_view(p, &by_id, &ranks_of, in_terms, scratch);
                p.corpus = Some(Box::new(view));
                if term_ranks {
                    p.rank_terms(ranked);
                }
            });
    }
}

/// Documents counted together by [`document_frequencies`]: enough that a batch's distinct terms
/// are far fewer than its (term, document) pairs, few enough that each thread gets many.
pub(in crate::method::robust) const DF_BATCH: usize = 4096;

/// Every term of the corpus with the number of documents holding it — the windows' terms too:
/// the word rule's prefixes are over the whole text — as (document frequency, id), in id
/// order.
///
/// Each batch of documents counts its own terms (in a map from each term to its count and the
/// last document counted, so that no document's terms are sorted: sorting every document's
/// vocabulary and then the batch's costs more), and the batches' counts, sorted by term, are
/// merged: the corpus's (term, document) pairs, 8 bytes each, are never held at once (sorted
/// all together they would outweigh half the sketches; docs/benchmarks.md). The counts do not
/// depend on how the batches are merged.
pub(in crate::method::robust) fn document_frequencies(
    sketches: &[RobustProfile],
) -> Vec<(u32, u64)> {
    use rayon::prelude::*;
    sketches
        .par_chunks(DF_BATCH)
        .map(|batch| {
            // Per term: documents holding it, and the last one counted.
            let mut counts: HashMap<u64, (u32, u32), foldhash::fast::FixedState> =
                HashMap::default();
            for (d, p) in (0u32..).zip(batch) {
                for &t in p.id_list().iter() {
                    let (count, last) = counts.entry(t).or_insert((0, u32::MAX));
                    if *last != d {
                        (*count, *last) = (*count + 1, d);
                    }
                }
            }
            let mut counted: Vec<(u32, u64)> = counts
                .into_iter()
                .map(|(t, (count, _))| (count, t))
                .collect();
            counted.sort_unstable_by_key(|&(_, t)| t);
            counted
        })
        .reduce(Vec::new, merge_counts)
}

/// Two lists of (count, id) in id order, merged, the counts of an id in both added.
fn merge_counts(x: Vec<(u32, u64)>, y: Vec<(u32, u64)>) -> Vec<(u32, u64)> {
    if x.is_empty() || y.is_empty() {
        return if x.is_empty() { y } else { x };
    }
    let mut out = Vec::with_capacity(x.len().max(y.len()));
    let (mut i, mut j) = (0, 0);
    while i < x.len() && j < y.len() {
        let ((cx, tx), (cy, ty)) = (x[i], y[j]);
        match tx.cmp(&ty) {
            std::cmp::Ordering::Less => {
                out.push(x[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(y[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push((cx + cy, tx));
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&x[i..]);
    out.extend_from_slice(&y[j..]);
    out
}
