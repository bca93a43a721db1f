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
//! [`Slot`]: super::keys::Slot
//!
//! That holds as stated with every pair of anchors as a step's keys (`pair_keys` 0). By
//! default a step keys on 4 of those pairs, picked by min-wise hashes of the terms' ids
//! ([`super::RobustConfig::pair_keys`]): a step whose two sentences have the same anchors as
//! the other document's shares each of them, one of edited sentences may share none, and its
//! sentences then count as witnessed only through other keys (their single keys, or the
//! neighbouring steps'). The count is then a bound for blocks of such sentences only, and a
//! pair resting on edited ones may be missed. The lists are shorter by as much as the keys are
//! fewer, for a few pairs fewer (docs/benchmarks-corpus-runs.md, "Sampled pair keys").
//!
//! A key witnesses only where the two documents hold it with sentences of lengths that fit:
//! the sentences of a block step (or of a one-pair block) differ in length by at most δ, so a
//! key held with lengths further apart (two sentences that share two long words and nothing
//! else) is shared by chance. Each posting carries its slot's lengths, and the walk skips the
//! ones that do not fit A's, which rules out many candidate pairs (docs/benchmarks.md).
//!
//! When sentences are shared by many documents (a corpus built from a pool of sentences), the
//! lists are long and walking them dominates. The report's rule then helps once more: a pair
//! needs at least `least` sentences of A in blocks ([`fewest_matched`]), so any
//! |A| − `least` + 1 of A's sentences include a witnessed one, and walking the cheapest such
//! set finds every candidate (prefix filtering, with sentences as the elements); the unwalked
//! sentences are then assumed witnessed. Each pair that passes only by them costs a bound
//! later, so the walk then takes the cheapest sentences left one at a time, while the pairs
//! that one more sentence could rule out cost more than walking it, which leaves a fraction
//! of the candidates (docs/benchmarks.md). For the pairs that still pass, the sentences left
//! unwalked are then counted exactly, from the two documents' keys: which sentences are
//! walked changes the work, never the candidates, so a join that walks by other costs (the
//! Spark job) finds the same ones.
//!
//! A key held by more than `max_df` documents is *boilerplate* (as a run of sentences is in
//! paper mode): it is left out of the postings and witnesses nothing. A pair is then found when
//! the sentences of its shorter document (of two as long, the earlier) that its other keys
//! witness could satisfy the rule — so, unlike comparing every pair, a corpus run misses a pair
//! whose blocks rest on boilerplate keys. Counting those sentences as witnessed against every
//! document instead, which keeps every pair, makes the bound useless at scale: a few keys held
//! by many documents (pairs of long Bible and news words: `children israel`) leave a large
//! share of all sentences assumed witnessed, and far more candidates to bound than hold every
//! pair reported (docs/benchmarks.md).
//!
//! A corpus that repeats its sentences (one built from a pool of them, or boilerplate across a
//! crawl) holds each of their single keys once per sentence, and the walk would visit a
//! document holding the same sentence once per single key. Sentences equal in what their single
//! keys are made of form a class ([`super::classes`]); when the classes average at least
//! [`classes::MIN_CLASS_SIZE`] sentences, the single keys are postings of classes instead (key →
//! classes → documents), and the walk visits each class witnessing a sentence once. Pair keys
//! stay per document either way. Which way is taken changes the work and memory, not the
//! candidates.
//!
//! The parts, each in a file of its own: [`postings`] lays out every key's postings,
//! [`plan`] turns the report's rule into the fewest sentences a pair needs and the sentences a
//! walk takes, [`walk`] counts a document's witnessed sentences against the documents after
//! it, and [`rare`] picks the keys a sentence is looked up by when only its rare keys are
//! ([`super::RobustConfig::rare_df`]). This file drives them: [`RobustSlst::witness_join`].

mod build;
mod plan;
mod postings;
mod rare;
#[cfg(test)]
mod tests;
mod walk;

use rayon::prelude::*;

use self::plan::Thresholds;
pub use self::plan::{WalkPlan, fewest_matched, plan_walk};
use self::postings::{NONE, PASS_ENTRIES, Packing, Postings, offsets};
pub(super) use self::postings::{kept_bits, split_parts};
pub use self::rare::{RARE_KEYS, rare_bounds};
use self::walk::{Counters, Walk};
use super::classes::{self, Classes};
use super::matching::SetSignature;
use super::{CorpusView, RobustProfile, RobustSlst};
use crate::method::{CandidateSet, CandidateSource, PairRule};
use crate::similarity::Similarity;

/// What ruling a candidate pair in or out costs after the join (a bound, maybe a comparison),
/// in posting visits of the walk: a bound takes about as long as a hundred visits
/// (docs/benchmarks.md).
const BOUND_COST: usize = 100;

/// How the join spends its work and memory; no setting changes the candidates (the join's
/// tests run several).
#[derive(Clone, Copy, Debug)]
struct Tuning {
    /// What a candidate costs, in posting visits (0: never walk the rest after a cheap walk;
    /// `usize::MAX`: always walk every sentence): [`BOUND_COST`].
    bound_cost: usize,
    /// The postings sorted per pass: [`PASS_ENTRIES`].
    pass_entries: usize,
    /// The average sentences per class from which single keys are kept per class (0: always;
    /// `usize::MAX`: never): [`classes::MIN_CLASS_SIZE`].
    min_class_size: usize,
    /// Whether the postings' lengths are packed with their holders when the corpus allows it
    /// (false: a column of their own, as a corpus too large to pack them has; [`Packing`]).
    pack: bool,
    /// The visits a walk notes before folding them into its counters: [`walk::FOLD_VISITS`].
    fold_visits: usize,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            bound_cost: BOUND_COST,
            pass_entries: PASS_ENTRIES,
            min_class_size: classes::MIN_CLASS_SIZE,
            pack: true,
            fold_visits: walk::FOLD_VISITS,
        }
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
        // first on signatures kept side by side (they settle most of its refusals there), then,
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
        let (mut pairs, mut capped) =
            self.witness_join_with(sketches, &keep, &admits, max_df, &Tuning::default())?;
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

    /// [`RobustSlst::witness_join`] with the join's work set by `tuning` (which changes the
    /// work and memory, never the candidates).
    fn witness_join_with(
        &self,
        sketches: &[&RobustProfile],
        keep: &(dyn Fn(&Similarity, bool) -> bool + Sync),
        admits: &(dyn Fn(usize, usize) -> bool + Sync),
        max_df: usize,
        tuning: &Tuning,
    ) -> Option<(Vec<(usize, usize)>, usize)> {
        let Tuning {
            bound_cost,
            pass_entries,
            min_class_size,
            pack,
            fold_visits,
        } = *tuning;
        let views: Vec<&CorpusView> = sketches
            .iter()
            .map(|p| p.corpus.as_deref())
            .collect::<Option<_>>()?;
        let n = views.len();
        let Layout {
            sizes,
            first_unit,
            by_size,
            rank,
        } = Layout::of(sketches)?;
        // Single keys per class of sentences when the corpus repeats its sentences enough,
        // else per sentence among the slots (always when only rare keys are looked up: a
        // sentence's keys are then its own slots, [`rare`]).
        let rare_df = self.config.rare_df;
        let min_class_size = if rare_df > 0 {
            usize::MAX
        } else {
            min_class_size
        };
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
        let first_slot = self.slot_offsets(sketches, &views, singles)?;
        let packing = packing_of(sketches, pack);
        let mut postings: Postings = self.postings(
            sketches,
            &views,
            &first_slot,
            &first_unit,
            &rank,
            (max_df, rare_df),
            pass_entries,
            singles,
            &packing,
        );
        // Boilerplate keys, the single keys' among them when those are kept per class.
        let left_out = &mut postings.left_out;
        if let Some(k) = &classes {
            left_out.extend_from_slice(&k.left_out);
        }
        let capped = left_out.len();
        left_out.par_sort_unstable();

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
            after: &postings.after,
            holders: &postings.holders,
            lengths: &postings.lengths,
            packing: &packing,
            cost: &postings.cost,
            looks: &postings.looks,
            classes: classes.as_ref(),
            rank: &rank,
            by_size: &by_size,
            admits,
            bound_cost,
            fold_visits,
            left_out: &postings.left_out,
        };
        let mut pairs: Vec<(usize, usize)> = (0..n)
            .into_par_iter()
            .map_init(|| Counters::new(n), |c, a| walk.candidates_of(a, c))
            .flatten_iter()
            .collect();
        pairs.par_sort_unstable();
        Some((pairs, capped))
    }

    /// Each document's first global slot, and one past the last: a document's slots are listed
    /// again wherever they are needed (in the passes of the postings, and once per walk),
    /// against ~16 bytes per slot kept; only where their keys are read are they hashed. Here
    /// they are counted. `None` when postings, numbered in u32 below [`NONE`], would not fit.
    fn slot_offsets(
        &self,
        sketches: &[&RobustProfile],
        views: &[&CorpusView],
        singles: bool,
    ) -> Option<Vec<usize>> {
        let slot_counts: Vec<usize> = (0..views.len())
            .into_par_iter()
            .map(|d| views[d].each_join_slot(self, sketches[d], singles, |_| true, |_, _, _| ()))
            .collect();
        let first_slot = offsets(slot_counts.iter().copied());
        (first_slot[views.len()] < NONE as usize).then_some(first_slot)
    }
}

/// Where a corpus's documents and sentences lie, for the join.
struct Layout {
    /// Kept sentences per document.
    sizes: Vec<usize>,
    /// Each document's first global sentence, and one past the last.
    first_unit: Vec<usize>,
    /// Documents in (size, index) order: each key's postings follow it, so that the postings
    /// after a document's own hold only documents at least as long, and each pair is found
    /// from its shorter document, which needs the larger share of its sentences in blocks
    /// (module docs).
    by_size: Vec<u32>,
    /// Each document's place in that order.
    rank: Vec<u32>,
}

impl Layout {
    /// `None` when documents or sentences, numbered below 2³¹, are too many.
    fn of(sketches: &[&RobustProfile]) -> Option<Layout> {
        let n = sketches.len();
        let sizes: Vec<usize> = sketches.iter().map(|p| p.len()).collect();
        let first_unit = offsets(sizes.iter().copied());
        if n >= 1 << 31 || first_unit[n] >= 1 << 31 {
            return None;
        }
        let mut by_size: Vec<u32> = (0..n as u32).collect();
        by_size.sort_unstable_by_key(|&d| (sizes[d as usize], d));
        let mut rank = vec![0u32; n];
        for (r, &d) in by_size.iter().enumerate() {
            rank[d as usize] = r as u32;
        }
        Some(Layout {
            sizes,
            first_unit,
            by_size,
            rank,
        })
    }
}

/// How the postings hold their lengths: by the corpus's own longest sentence, not the
/// setting, so that profiles kept under another setting still pack exactly; unpacked when
/// `pack` is off ([`Tuning::pack`]).
fn packing_of(sketches: &[&RobustProfile], pack: bool) -> Packing {
    let longest = sketches
        .par_iter()
        .flat_map_iter(|p| p.sentences.iter().map(|s| s.length))
        .max()
        .unwrap_or(0);
    Packing::new(
        if pack { sketches.len() } else { usize::MAX },
        longest.into(),
    )
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
