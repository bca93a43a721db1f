//! Robust SL+ST: sentence blocks that survive small edits.
//!
//! Faithful SL+ST ([`super::SlSt`]) matches two sentences only when their lengths in terms and
//! their two leading terms are equal, so one swapped word breaks a block. The robust mode keeps
//! the method's shape — one item per sentence, blocks = runs of matching sentences along a
//! diagonal, one-to-one tiling, the Jaccard coefficient over the sentences in blocks, every block
//! with sentence indices and byte spans — and replaces the sentence predicate:
//!
//! * two sentences **match** when their lengths differ by at most δ terms
//!   ([`RobustConfig::length_tolerance`]) and the Jaccard coefficient of their term sets is at
//!   least τ ([`RobustConfig::term_similarity`]), and — the *anchor rule*, on by default — they
//!   share one of their k longest terms ([`RobustConfig::anchor_terms`]; ties by hash);
//! * a **block** is a maximal run of matching sentence pairs on one diagonal, at least
//!   [`RobustConfig::min_block`] long — or a single pair of long sentences (both at least
//!   [`RobustConfig::single_min_terms`] terms) whose term sets agree closely (Jaccard at least
//!   [`RobustConfig::single_similarity`]) and that share two anchors: short reuse and reuse
//!   pasted mid-sentence then still form blocks;
//! * blocks are tiled longest first, as in SPEC §3.3, in the canonical order of the two sketches
//!   (so that `compare(b, a)` is `compare(a, b)` with the sides swapped).
//!
//! **Finding matching sentences without comparing all of them** is prefix filtering (Bayardo et
//! al., "Scaling up all pairs similarity search", 2007): order all terms by one global order; if
//! J(x, y) ≥ τ then the two sets share a term among the first |x| − ⌈τ·|x|⌉ + 1 of x and the
//! first |y| − ⌈τ·|y|⌉ + 1 of y (the smallest common term in that order). Within one comparison
//! the order is by frequency in the two documents, rarest first; in a corpus
//! ([`Detector::prepare_corpus`]) by document frequency over the corpus — or, with the anchor
//! rule, the anchors' own order (longest first), whose first k terms are the keys.
//!
//! **Anchors** make the keys few. Without them, a sentence of n terms has a prefix of about
//! 0.6·n terms at τ = 0.4, and a pair of sentences the product of two prefixes as keys (about 73
//! keys per sentence on Reuters-21578 already at τ = 0.5). With the anchor rule, two matching
//! sentences share an anchor, so the anchors stand in for the prefixes (at most k² pair keys per
//! pair of sentences and k(k−1)/2 single keys per sentence). A sentence of at most k terms keys
//! on all of them — more than its prefix would — so the rule saves keys on long sentences and
//! costs a few on short ones. The order is fixed by the terms themselves — longest first, as long words are
//! the rare ones — never by corpus statistics, so a pair scores the same in `compare` and in any
//! corpus. On the labelled sets the rule costs at most 0.001 of best F1 at k = 5
//! (results/RESULTS.md, "the anchor rule", from `scripts/anchors_robust.py`).
//!
//! **Corpus keys** ([`Detector::join_keys`]) follow from it. A pair with a score above 0 has a
//! block: either two consecutive matching pairs (A_i ~ B_j and A_{i+1} ~ B_{j+1}), which then
//! share a *pair key* hash(p, q) with p a prefix term (or anchor) of A_i and B_j and q one of
//! A_{i+1} and B_{j+1}; or one long pair, which shares a *single key* (a pair of prefix terms
//! under the single-sentence bound, or of anchors, of a sentence with at least
//! `single_min_terms` terms). Two documents without a shared
//! key therefore score 0 — provably, and checked against all pairs in `tests/robust.rs`.
//!
//! **Batch runs** go further ([`Detector::corpus_candidates`], module [`join`]): every sentence
//! in a block is *witnessed* by a key the other document holds, so counting, per pair, the
//! sentences witnessed bounds the sentences in blocks; pairs whose count cannot reach the
//! report's threshold are never listed.

mod classes;
mod comparison;
mod config;
mod join;
mod keys;
mod matching;
mod profile;
mod sketch;
mod stored;
#[cfg(test)]
mod tests;
mod words;

use serde::Serialize;

use crate::document::Document;
use crate::error::Result;
use crate::method::{CandidateSet, Condition};

pub use self::comparison::{Refusal, RobustBlock, RobustComparison};
pub use self::config::{RobustConfig, RobustParams, SlstMode};
pub use self::join::{RARE_KEYS, WalkPlan, fewest_matched, plan_walk, rare_bounds};
use self::keys::CorpusView;
pub use self::matching::prefix_len;
use self::profile::{Forms, Term, TermList, Unit};
pub use self::profile::{RobustProfile, RobustSentence};
use super::{Comparison, Detector, Method, PairRule, Params, SentenceCounts, Witness, WitnessJoin};

/// What `slst sketch --mode robust` shows of a robust profile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RobustSketchView {
    /// Always [`SlstMode::Robust`].
    pub mode: SlstMode,
    /// Kept units.
    pub sentences: usize,
    /// Each unit's length in terms.
    pub lengths: Vec<u16>,
    /// Each unit's number of distinct terms.
    pub distinct_terms: Vec<usize>,
}

/// The robust SL+ST detector.
///
/// # Example
/// One stop word swapped for a content word changes the first sentence's length and leading
/// terms: faithful SL+ST loses the block, the robust mode keeps it.
/// ```
/// use slst::{Detector, Document};
/// use slst::method::{RobustConfig, RobustSlst};
/// let d = RobustSlst::new(RobustConfig::default()).unwrap();
/// let a = Document::new("a", "Stocks rose sharply on Monday in Tokyo. Bond yields fell to a record low. Oil was flat.");
/// let b = Document::new("b", "Stocks rose sharply late Monday in Tokyo. Bond yields fell to a record low. Gold gained.");
/// let c = d.compare(&d.sketch(&a), &d.sketch(&b));
/// assert_eq!(c.evidence.matched, 2);
/// assert_eq!(c.evidence.blocks[0].a_span, [0, 73]);
/// ```
#[derive(Debug, Clone)]
pub struct RobustSlst {
    config: RobustConfig,
}

impl RobustSlst {
    /// A robust SL+ST detector with the given settings.
    ///
    /// # Errors
    /// A setting out of range (see [`RobustConfig::validate`]).
    pub fn new(config: RobustConfig) -> Result<Self> {
        config.validate()?;
        Ok(RobustSlst { config })
    }

    /// The settings in force.
    pub fn config(&self) -> &RobustConfig {
        &self.config
    }
}

/// Two sorted key lists as one, sorted, without repeats.
fn union_sorted(mut keys: Vec<u64>, more: Vec<u64>) -> Vec<u64> {
    if !more.is_empty() {
        keys.extend(more);
        keys.sort_unstable();
        keys.dedup();
    }
    keys
}

/// Each named condition that refuses a pair, with its checks in force in words (none: off).
fn refusals_in_words(c: &RobustConfig) -> [(Condition, Vec<String>); 3] {
    let below = |name: &str, least: f64| (least > 0.0).then(|| format!("{name} < {least}"));
    let flashes: Vec<String> = [
        c.flash_leads.then(|| "other first words".to_string()),
        (c.flash_edits > 0).then(|| format!("{} words each the other lacks", c.flash_edits)),
    ]
    .into_iter()
    .flatten()
    .collect();
    let figures = [
        below("shared figures", c.min_figure_containment),
        below("shared figures in blocks", c.min_figures),
        (c.figure_swaps > 0).then(|| format!("other figures in {} places", c.figure_swaps)),
    ];
    let parties = [
        below("shared terms", c.min_term_containment),
        (!flashes.is_empty())
            .then(|| format!("one-sentence documents with {}", flashes.join(" or "))),
        c.headline_subjects
            .then(|| "a headline naming what the other lacks".to_string()),
    ];
    let loose = [
        below("weighted J", c.min_weighted),
        below("word agreement", c.min_agreement),
    ];
    let kept = |checks: [Option<String>; 3]| checks.into_iter().flatten().collect();
    [
        (Condition::FiguresDiffer, kept(figures)),
        (Condition::PartiesDiffer, kept(parties)),
        (Condition::LooseWords, loose.into_iter().flatten().collect()),
    ]
}

impl Detector for RobustSlst {
    type Sketch = RobustProfile;
    type Evidence = RobustComparison;
    type SketchView = RobustSketchView;

    fn method(&self) -> Method {
        Method::Slst
    }

    fn params(&self) -> Params {
        Params::Robust(self.config.params())
    }

    /// The rule in words: the clauses that accept a pair, then the named conditions that refuse
    /// one ([`crate::method::Condition`]), each with its checks at their settings.
    fn rule(&self) -> String {
        let c = &self.config;
        let mut accept = vec![format!("J ≥ {}", c.threshold)];
        if c.contained > 0.0 {
            accept.push(format!("either contained ≥ {}", c.contained));
        }
        if c.vocabulary > 0.0 {
            accept.push(format!("a block and the texts' terms J ≥ {}", c.vocabulary));
        }
        let refuse: Vec<String> = refusals_in_words(c)
            .into_iter()
            .filter(|(_, checks)| !checks.is_empty())
            .map(|(condition, checks)| {
                let aside = if condition == Condition::LooseWords && c.vocabulary > 0.0 {
                    "; not for the terms' J"
                } else {
                    ""
                };
                format!("{} ({}{aside})", condition.name(), checks.join(", or "))
            })
            .collect();
        let mut rule = accept.join(", or ");
        if !refuse.is_empty() {
            rule.push_str(&format!("; unless {}", refuse.join(", ")));
        }
        if c.matched_containment_from > 0
            && (c.min_figure_containment > 0.0 || c.min_term_containment > 0.0)
        {
            rule.push_str(&format!(
                "; shared figures and terms read in the blocks from {} sentences at J ≥ {}",
                c.matched_containment_from, c.threshold
            ));
        }
        rule
    }

    fn sketch(&self, doc: &Document) -> RobustProfile {
        self.profile_of(doc)
    }

    fn sketch_view(&self, p: &RobustProfile) -> RobustSketchView {
        RobustSketchView {
            mode: SlstMode::Robust,
            sentences: p.len(),
            lengths: p.sentences.iter().map(|s| s.length).collect(),
            distinct_terms: p.sentences.iter().map(|s| s.size()).collect(),
        }
    }

    fn sentence_counts(&self, p: &RobustProfile) -> Option<SentenceCounts> {
        Some(SentenceCounts {
            sentences: p.len(),
            skipped_empty: p.skipped_empty,
            dropped_long: p.dropped_long,
        })
    }

    fn unit_span(&self, p: &RobustProfile, unit: usize) -> Option<[usize; 2]> {
        let s = p.sentences.get(unit)?;
        Some([s.start as usize, s.end as usize])
    }

    fn compare(&self, a: &RobustProfile, b: &RobustProfile) -> Comparison<RobustComparison> {
        match RobustProfile::forms(a, b) {
            Forms::Ids => self.compare_terms::<u64>(a, b),
            Forms::Ranks => self.compare_terms::<u32>(a, b),
            Forms::Mixed => self.compare_terms::<u64>(&a.with_ids(), &b.with_ids()),
        }
    }

    /// The blocks, and — when either profile has windows of over-long units — the blocks of a
    /// second tiling over units and windows together, which passages grow from.
    fn seeds(
        &self,
        a: &RobustProfile,
        b: &RobustProfile,
        comparison: &Comparison<RobustComparison>,
    ) -> Option<Vec<([usize; 2], [usize; 2])>> {
        let span = |x: [u32; 2]| [x[0] as usize, x[1] as usize];
        let blocks = if a.windows.is_empty() && b.windows.is_empty() {
            comparison.evidence.blocks.clone()
        } else {
            match RobustProfile::forms(a, b) {
                Forms::Ids => self.window_blocks::<u64>(a, b),
                Forms::Ranks => self.window_blocks::<u32>(a, b),
                Forms::Mixed => self.window_blocks::<u64>(&a.with_ids(), &b.with_ids()),
            }
        };
        Some(
            blocks
                .iter()
                .map(|x| (span(x.a_span), span(x.b_span)))
                .collect(),
        )
    }

    /// Pair keys and single keys (see the module docs): any two documents with a block share
    /// one; with sampled pair keys ([`RobustConfig::pair_keys`]), any two whose block has two
    /// neighbouring sentences with the same anchors on both sides, or a sentence its single keys
    /// witness. Under the corpus-wide order when [`Detector::prepare_corpus`] has run, else
    /// under the order of the ids themselves (a global order too: the anchors' own, and for
    /// prefixes only a less selective one than document frequency).
    fn join_keys(&self, sketch: &RobustProfile) -> Option<Vec<u64>> {
        Some(match &sketch.corpus {
            Some(view) => Self::keys_from(&view.slots(self, sketch)),
            // Id order (longest terms first): each sentence's term set is already sorted so.
            None => Self::keys_from(&self.slots_of::<true, true, _>(
                sketch,
                |i| sketch.unit::<u64>(i).terms,
                None,
            )),
        })
    }

    /// Ranks the corpus's terms — by document frequency (rarest first) for the prefixes, or in
    /// id order (longest first) for the anchors — and keeps each document's keys under that
    /// order.
    fn prepare_corpus(&self, sketches: &mut [RobustProfile]) {
        self.rank_corpus(sketches);
    }

    /// Pairs whose count of witnessed sentences could satisfy `rule` (see the module docs).
    fn corpus_candidates(
        &self,
        sketches: &[&RobustProfile],
        rule: PairRule,
        max_df: usize,
    ) -> Option<CandidateSet> {
        self.witness_join(sketches, rule, max_df)
    }

    /// The witness join over the profiles with their windows among their units, as
    /// [`Detector::seeds`] tiles them, of every pair with a block there ([`PairRule::Scored`]).
    fn seed_candidates(&self, sketches: &[&RobustProfile], max_df: usize) -> Option<CandidateSet> {
        use rayon::prelude::*;
        let mut seeded: Vec<RobustProfile> = sketches
            .par_iter()
            .map(|p| p.with_ids().with_windows())
            .collect();
        self.rank_corpus(&mut seeded);
        let refs: Vec<&RobustProfile> = seeded.iter().collect();
        self.witness_join(&refs, PairRule::Scored, max_df)
    }

    /// The profile with the windows of its over-long units among its units, when it has any.
    fn seed_sketch(&self, sketch: &RobustProfile) -> Option<RobustProfile> {
        sketch.seed_profile()
    }

    /// The robust mode's witness join ([`WitnessJoin`]), for a join outside this library.
    fn external_join(&self) -> Option<&dyn WitnessJoin<RobustProfile>> {
        Some(self)
    }

    /// Scores bounded by `RobustSlst::max_matched`: a pair is ruled out when even that many
    /// sentences in blocks would not satisfy `rule` (every score is increasing in them).
    /// A pair that fails that bound may still be a duplicate on its words
    /// ([`RobustConfig::vocabulary`]): ruled out only when its vocabularies are too far apart.
    fn may_be_reported(&self, a: &RobustProfile, b: &RobustProfile, rule: PairRule) -> bool {
        if self.figures_refuse(a, b, rule) {
            return false;
        }
        let may_keep = |m: usize| self.keeps_matched(m, a.len(), b.len(), rule);
        // The size filter first (m ≤ min(|A|, |B|)), then the bound from the prefixes.
        let on_blocks =
            || may_keep(a.len().min(b.len())) && self.max_matched(a, b).is_none_or(may_keep);
        on_blocks() || (self.words_decide(rule) && self.may_match_words(a, b))
    }

    /// The join keys and, with the word rule, the word keys of the vocabulary's prefix in id
    /// order (module `words`): any two documents the decision keeps share one of them (with
    /// sampled pair keys, as those of `join_keys` say).
    fn duplicate_keys(&self, sketch: &RobustProfile) -> Option<Vec<u64>> {
        let words = self.word_keys_of(sketch, true);
        Some(union_sorted(self.join_keys(sketch)?, words))
    }

    /// The join keys and every word key: a query looks the word keys up rarest first
    /// ([`WitnessJoin::word_keys`]).
    fn index_keys(&self, sketch: &RobustProfile) -> Option<Vec<u64>> {
        let words = self.word_keys_of(sketch, false);
        Some(union_sorted(self.join_keys(sketch)?, words))
    }
}

/// The corpus join's own keys and bounds, for a witness join outside this library (the Spark
/// job): the same functions [`RobustSlst::corpus_candidates`] prunes by.
impl WitnessJoin<RobustProfile> for RobustSlst {
    /// Every unit's slots, each with the units it witnesses: the corpus join's own keys once
    /// [`Detector::prepare_corpus`] has run, else in term-id order (the order the corpus join
    /// uses under the anchor rule; a prefix in any global order finds every matching pair).
    fn witness_keys(&self, sketch: &RobustProfile) -> Vec<Witness> {
        // A single slot witnesses its unit, a pair slot both units of its step.
        let slots = match sketch.corpus.as_deref() {
            Some(view) => view.slots(self, sketch),
            None => self.slots_of::<true, true, _>(sketch, |i| sketch.unit::<u64>(i).terms, None),
        };
        slots
            .iter()
            .flat_map(|s| {
                let lengths = s.lengths(sketch);
                s.units().map(move |u| Witness {
                    key: s.key,
                    unit: u as u32,
                    lengths,
                })
            })
            .collect()
    }

    fn witness_tolerance(&self) -> usize {
        self.config.length_tolerance
    }

    fn rare_keys(&self) -> Option<(usize, usize)> {
        let c = &self.config;
        (c.rare_df > 0).then_some((c.rare_df, c.rare_budget))
    }

    /// The figures' ids, which the figure check of the decision compares (reporting duplicates,
    /// a pair whose figures disagree is refused whatever its blocks).
    fn pair_check_values(&self, sketch: &RobustProfile) -> Option<Vec<u64>> {
        Some(sketch.figures.to_vec())
    }

    fn may_keep_pair(&self, a: (usize, &[u64]), b: (usize, &[u64]), rule: PairRule) -> bool {
        !self.figures_disagree(a, b, rule)
    }

    fn may_keep_matched(
        &self,
        matched: usize,
        units_a: usize,
        units_b: usize,
        rule: PairRule,
    ) -> bool {
        self.keeps_matched(matched, units_a, units_b, rule)
    }

    /// With the word rule on, every term of the document's vocabulary, hashed (module `words`):
    /// any two documents with a Jaccard coefficient of their vocabularies of at least
    /// [`RobustConfig::vocabulary`] share one among any |x| − ⌈v·|x|⌉ + 1 of them.
    fn word_keys(&self, sketch: &RobustProfile) -> Option<Vec<u64>> {
        (self.config.vocabulary > 0.0).then(|| self.word_keys_of(sketch, false))
    }

    fn vocabulary(&self, sketch: &RobustProfile) -> Option<Vec<u64>> {
        (self.config.vocabulary > 0.0).then(|| sketch.vocabulary())
    }

    fn word_join(&self) -> Option<(f64, usize)> {
        (self.config.vocabulary > 0.0).then_some((self.config.vocabulary, words::WORD_DF))
    }
}
