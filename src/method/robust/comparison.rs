//! What a comparison of two robust profiles finds and decides: the blocks tiled in canonical
//! order, the scores over them, and the conditions of the decision ([`RobustConfig`]) that
//! refuse a pair whose resemblance reaches the threshold ([`Refusal`]).

use std::cmp::Ordering;

use serde::Serialize;

use super::matching::{self, canonical};
use super::{RobustConfig, RobustProfile, RobustSlst, Term, sketch};
use crate::block::Block;
use crate::method::{Comparison, DecidedBy, Detector, Evidence, FoundBlock, PairRule};
use crate::similarity::Similarity;

/// Whether the first term of either one-sentence profile appears in the other's sentence (true
/// when a profile does not know its first term).
fn leads_agree<T: Term>(a: &RobustProfile, b: &RobustProfile) -> bool {
    let holds = |p: &RobustProfile, t: Option<T>| {
        t.is_none_or(|t| p.unit::<T>(0).terms.binary_search(&t).is_ok())
    };
    holds(b, T::lead(a)) || holds(a, T::lead(b))
}

/// The fewer of the terms either one-sentence profile holds and the other lacks
/// ([`RobustConfig::flash_edits`]).
pub(super) fn flash_edits<T: Term>(a: &RobustProfile, b: &RobustProfile) -> usize {
    let (x, y) = (a.unit::<T>(0).terms, b.unit::<T>(0).terms);
    let shared = matching::common(x, y);
    (x.len() - shared).min(y.len() - shared)
}

/// How many places the two profiles fill with other figures: pairs of words that frame a run of
/// figures in both, where each document has a run there that the other lacks
/// ([`RobustConfig::figure_swaps`]).
pub(super) fn swapped_figures(a: &RobustProfile, b: &RobustProfile) -> usize {
    let (x, y) = (&a.figure_runs[..], &b.figure_runs[..]);
    let (mut i, mut j, mut swapped) = (0, 0, 0);
    while i < x.len() && j < y.len() {
        let (cx, cy) = (x[i].0, y[j].0);
        if cx < cy {
            i += 1;
        } else if cy < cx {
            j += 1;
        } else {
            // The runs framed by the same words on each side (each list sorted by run).
            let (i2, j2) = (
                i + x[i..].iter().take_while(|r| r.0 == cx).count(),
                j + y[j..].iter().take_while(|r| r.0 == cx).count(),
            );
            let lacks =
                |p: &[(u64, u64)], q: &[(u64, u64)]| p.iter().any(|r| q.binary_search(r).is_err());
            if lacks(&x[i..i2], &y[j..j2]) && lacks(&y[j..j2], &x[i..i2]) {
                swapped += 1;
            }
            (i, j) = (i2, j2);
        }
    }
    swapped
}

/// Whether each profile's headline names a subject — a figure, or a word its text writes as a
/// name — that the other document lacks ([`RobustConfig::headline_subjects`]).
fn other_subjects<T: Term>(a: &RobustProfile, b: &RobustProfile) -> bool {
    let names_other = |x: &RobustProfile, y: &RobustProfile| {
        let figures = x.subject.iter().filter(|&&t| sketch::is_figure(t));
        figures
            .into_iter()
            .any(|t| y.figures.binary_search(t).is_err())
            || {
                let words = T::subject_words(x);
                !words.is_empty() && {
                    let vocabulary = y.vocabulary_of::<T>();
                    words.iter().any(|t| vocabulary.binary_search(t).is_err())
                }
            }
    };
    names_other(a, b) && names_other(b, a)
}

/// The distinct terms, sorted, of the given runs `(first, length)` of a profile's kept
/// sentences and of all its windows (its over-long sentences, which no block holds).
fn block_vocabulary<T: Term>(
    p: &RobustProfile,
    runs: impl Iterator<Item = (usize, usize)> + Clone,
) -> Vec<T> {
    let units = || {
        runs.clone()
            .flat_map(|(first, len)| &p.sentences[first..first + len])
            .chain(&p.windows)
    };
    // Sized first: collecting a flattened iterator grows the vector a doubling at a time.
    let mut terms: Vec<T> = Vec::with_capacity(units().map(|s| s.size()).sum());
    for s in units() {
        terms.extend_from_slice(p.terms_of::<T>(s));
    }
    terms.sort_unstable();
    terms.dedup();
    terms
}

/// A verified block of robust SL+ST with its byte spans.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RobustBlock {
    /// First sentence in A.
    pub a_start: usize,
    /// First sentence in B.
    pub b_start: usize,
    /// Number of sentences.
    pub len: usize,
    /// Byte span `[start, end)` of the block in A's text.
    pub a_span: [u32; 2],
    /// Byte span in B's text.
    pub b_span: [u32; 2],
    /// The smallest term-set Jaccard coefficient of the block's sentence pairs.
    pub min_term_similarity: f64,
}

impl RobustBlock {
    /// The same block seen from the other document (A and B exchanged).
    pub fn swapped(self) -> RobustBlock {
        RobustBlock {
            a_start: self.b_start,
            b_start: self.a_start,
            len: self.len,
            a_span: self.b_span,
            b_span: self.a_span,
            min_term_similarity: self.min_term_similarity,
        }
    }
}

/// What robust SL+ST found when comparing two profiles.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RobustComparison {
    /// The kept blocks, sorted by start in A.
    pub blocks: Vec<RobustBlock>,
    /// Sentences covered by the blocks (the same on both sides).
    pub matched: usize,
    /// Kept sentences of A.
    pub len_a: usize,
    /// Kept sentences of B.
    pub len_b: usize,
    /// Matching sentence pairs found before tiling.
    pub sentence_pairs: usize,
    /// The weighted resemblance: as the resemblance, with each sentence pair in a block
    /// counted by its term-set Jaccard coefficient instead of 1.
    pub weighted: f64,
    /// Over the sentence pairs in blocks: the figures (terms with a digit) both sentences hold,
    /// and those either holds.
    pub figures: [usize; 2],
    /// Of the figures of the document with fewer of them (all its text), the share the other
    /// document holds too; 1 when either has none. For a pair that may be judged on its blocks
    /// ([`RobustConfig::matched_containment_from`]) and falls short on the whole texts, the
    /// larger of that and the same share over the sentences in blocks (and the windows).
    pub figure_containment: f64,
    /// Of the distinct terms of the document with fewer of them (all its text), the share the
    /// other document holds too; 1 when either has none; over the blocks as the figures are.
    /// Computed only when the decision needs it — [`RobustConfig::min_term_containment`] is set
    /// and every other part of the decision keeps the pair — else 0.
    pub term_containment: f64,
    /// The Jaccard coefficient of the distinct terms of the two whole texts
    /// ([`RobustConfig::vocabulary`]). Computed only when the decision needs it — a pair with a
    /// block that the conditions on its blocks do not keep — else 0.
    pub vocabulary: f64,
    /// The pair is a duplicate on its words ([`RobustConfig::vocabulary`]), not on its blocks.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub by_words: bool,
    /// Why a pair whose resemblance reaches the threshold (or whose words reach
    /// [`RobustConfig::vocabulary`]) is not a duplicate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refused: Option<Refusal>,
    /// The condition that decided the pair ([`DecidedBy`]).
    pub decided_by: DecidedBy,
}

/// Why robust SL+ST refuses a pair whose resemblance reaches the threshold: each is one
/// condition of the decision ([`RobustConfig`]). Serialised as its note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The sentences in blocks share too few of their words ([`RobustConfig::min_weighted`],
    /// [`RobustConfig::min_agreement`]): a loose match, not a template.
    LooseWords,
    /// The sentences in blocks differ in their figures ([`RobustConfig::min_figures`]).
    FiguresInBlocks,
    /// The documents differ in their figures ([`RobustConfig::min_figure_containment`]).
    FiguresInDocuments,
    /// The same words around other figures in several places ([`RobustConfig::figure_swaps`]).
    OtherFigures,
    /// Two one-sentence documents open on other words ([`RobustConfig::flash_leads`]).
    HeadlineLeads,
    /// Two one-sentence documents each hold words the other lacks
    /// ([`RobustConfig::flash_edits`]).
    HeadlineEdits,
    /// The documents differ in their words ([`RobustConfig::min_term_containment`]).
    OtherWords,
    /// Each headline names a subject the other document lacks
    /// ([`RobustConfig::headline_subjects`]).
    HeadlineSubjects,
}

impl Refusal {
    /// What `slst compare` and the reports say of the pair.
    pub fn note(self) -> &'static str {
        match self {
            Refusal::LooseWords => "the matched sentences agree only loosely in their words",
            Refusal::FiguresInBlocks => {
                "the matched sentences differ in their figures: a template?"
            }
            Refusal::FiguresInDocuments => {
                "the documents differ in their figures: one template filled twice?"
            }
            Refusal::OtherFigures => {
                "the same words around other figures: one template for another day?"
            }
            Refusal::HeadlineEdits => {
                "two headlines that each say what the other does not: two events?"
            }
            Refusal::HeadlineLeads => {
                "two headlines that open on other words: one notice for two parties?"
            }
            Refusal::OtherWords => {
                "the documents differ in their words: one notice for two parties?"
            }
            Refusal::HeadlineSubjects => {
                "each headline names what the other document lacks: one notice for two parties or hours?"
            }
        }
    }

    /// Whether the refused pair is a *template*: one text filled with other figures, or one
    /// notice sent for another party, hour or day — what a reader of the pair sees as the
    /// same form, not the same story. Every refusal but a loose match is one.
    pub fn is_template(self) -> bool {
        self != Refusal::LooseWords
    }
}

impl Serialize for Refusal {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.note())
    }
}

impl Evidence for RobustComparison {
    fn blocks(&self) -> Option<Vec<FoundBlock>> {
        Some(
            self.blocks
                .iter()
                .map(|b| FoundBlock {
                    block: Block {
                        a: b.a_start,
                        b: b.b_start,
                        len: b.len,
                    },
                    min_term_similarity: Some(b.min_term_similarity),
                })
                .collect(),
        )
    }

    fn note(&self) -> Option<&str> {
        if self.len_a == 0 || self.len_b == 0 {
            return Some("no sentences");
        }
        self.refused.map(Refusal::note)
    }

    fn template(&self) -> Option<&str> {
        self.refused.filter(|r| r.is_template()).map(Refusal::note)
    }

    fn decided_by(&self) -> Option<DecidedBy> {
        Some(self.decided_by)
    }

    fn swapped(&self) -> Self {
        let mut blocks: Vec<RobustBlock> =
            self.blocks.iter().map(|b| b.clone().swapped()).collect();
        blocks.sort_unstable_by_key(|x| (x.a_start, x.b_start));
        RobustComparison {
            blocks,
            matched: self.matched,
            len_a: self.len_b,
            len_b: self.len_a,
            sentence_pairs: self.sentence_pairs,
            weighted: self.weighted,
            figures: self.figures,
            figure_containment: self.figure_containment,
            term_containment: self.term_containment,
            vocabulary: self.vocabulary,
            by_words: self.by_words,
            refused: self.refused,
            decided_by: self.decided_by,
        }
    }
}

impl RobustSlst {
    /// The blocks of two profiles with their windows among their units (for
    /// [`Detector::seeds`]), tiled in canonical order, with both profiles' terms in the form `T`.
    pub(super) fn window_blocks<T: Term>(
        &self,
        a: &RobustProfile,
        b: &RobustProfile,
    ) -> Vec<RobustBlock> {
        let (wa, wb) = (a.with_windows(), b.with_windows());
        if canonical::<T>(&wa, &wb) == Ordering::Greater {
            self.tiled::<T>(&wb, &wa)
                .0
                .into_iter()
                .map(RobustBlock::swapped)
                .collect()
        } else {
            self.tiled::<T>(&wa, &wb).0
        }
    }

    /// [`Detector::compare`] with both profiles' terms in the form `T` ([`TermList`]).
    ///
    /// [`TermList`]: super::profile::TermList
    pub(super) fn compare_terms<T: Term>(
        &self,
        a: &RobustProfile,
        b: &RobustProfile,
    ) -> Comparison<RobustComparison> {
        let (len_a, len_b) = (a.len(), b.len());
        let Tiled {
            blocks,
            sentence_pairs,
            agreement,
            figures,
        } = self.tiled_canonically::<T>(a, b);
        let matched = blocks.iter().map(|b| b.len).sum();
        let similarity = Similarity::from_counts(matched, len_a, len_b);
        // agreement ≤ matched ≤ min(|A|, |B|), so the denominator is at least max(|A|, |B|).
        let weighted = if matched > 0 {
            agreement / ((len_a + len_b) as f64 - agreement)
        } else {
            0.0
        };
        let reaches = self.config.reaches(&similarity, matched);
        // An edited copy may be judged on the text it shares: the terms of the sentences in
        // blocks, gathered once, when the whole texts fall short.
        let on_blocks = reaches
            && self
                .config
                .judges_blocks(len_a, len_b, similarity.resemblance);
        let mut decision = Decision::<T> {
            config: &self.config,
            a,
            b,
            blocks: &blocks,
            on_blocks,
            in_blocks: std::cell::OnceCell::new(),
            agreement,
            weighted,
            figures,
            figure_containment: 0.0,
            term_containment: 0.0,
            kept_on_blocks: false,
        };
        decision.figure_containment = decision.figure_containment();
        let mut refused = if reaches {
            decision.refusal(false)
        } else {
            None
        };
        // A pair with a block that its blocks do not make a duplicate (too few of them, or
        // loosely matching ones) may still be one on its words.
        let mut vocabulary = 0.0;
        let (mut judged, mut by_words) = (reaches, false);
        if matched > 0
            && self.config.vocabulary > 0.0
            && (!reaches || refused == Some(Refusal::LooseWords))
        {
            vocabulary = matching::jaccard(&a.vocabulary_of::<T>(), &b.vocabulary_of::<T>());
            if vocabulary >= self.config.vocabulary {
                judged = true;
                refused = decision.refusal(true);
                by_words = refused.is_none();
            }
        }
        let (figure_containment, term_containment) =
            (decision.figure_containment, decision.term_containment);
        let decided_by = match refused {
            Some(r) => DecidedBy::Refused(r),
            None if !judged => DecidedBy::BelowThreshold,
            None if by_words => DecidedBy::Words,
            None if decision.kept_on_blocks => DecidedBy::Blocks,
            None if similarity.resemblance >= self.config.threshold => DecidedBy::Resemblance,
            None => DecidedBy::Containment,
        };
        Comparison {
            method: self.method(),
            duplicate: judged && refused.is_none(),
            similarity,
            evidence: RobustComparison {
                blocks,
                matched,
                len_a,
                len_b,
                sentence_pairs,
                weighted,
                figures,
                figure_containment,
                term_containment,
                vocabulary,
                by_words,
                refused,
                decided_by,
            },
        }
    }

    /// The blocks of `a` and `b`, tiled in their canonical order and sorted by start in A,
    /// with what [`Tiled`] sums over them.
    fn tiled_canonically<T: Term>(&self, a: &RobustProfile, b: &RobustProfile) -> Tiled {
        let flip = canonical::<T>(a, b) == Ordering::Greater;
        let (first, second) = if flip { (b, a) } else { (a, b) };
        let (tiled, sentence_pairs) = self.tiled::<T>(first, second);
        // Summed in the canonical orientation too: floating-point addition in another order
        // could give `compare(b, a)` another last bit of the weighted resemblance.
        let (mut agreement, mut figures) = (0.0, [0, 0]);
        for x in &tiled {
            for k in 0..x.len {
                let (ta, tb) = (
                    first.unit::<T>(x.a_start + k).terms,
                    second.unit::<T>(x.b_start + k).terms,
                );
                let (jaccard, shared, either) = matching::agreement(ta, tb);
                agreement += jaccard;
                figures[0] += shared;
                figures[1] += either;
            }
        }
        let blocks = if flip {
            let mut blocks: Vec<RobustBlock> =
                tiled.into_iter().map(RobustBlock::swapped).collect();
            blocks.sort_unstable_by_key(|x| (x.a_start, x.b_start));
            blocks
        } else {
            tiled
        };
        Tiled {
            blocks,
            sentence_pairs,
            agreement,
            figures,
        }
    }

    /// Whether `m` units in blocks between documents of `na` and `nb` units could satisfy
    /// `rule` (the bound of every corpus join: scores increase with `m`).
    pub(super) fn keeps_matched(&self, m: usize, na: usize, nb: usize, rule: PairRule) -> bool {
        let bound = Similarity::from_counts(m, na, nb);
        rule.keeps(&bound, self.config.reaches(&bound, m))
    }
}

impl RobustSlst {
    /// Whether the pair is refused on its figures whatever its blocks: reporting duplicates
    /// only, a pair whose figures disagree, unless it could be judged on its blocks (two edited
    /// copies). The figure sets are in the sketches, so it costs one merge, not a tiling.
    pub(super) fn figures_refuse(
        &self,
        a: &RobustProfile,
        b: &RobustProfile,
        rule: PairRule,
    ) -> bool {
        self.figures_disagree((a.len(), &a.figures), (b.len(), &b.figures), rule)
    }

    /// [`RobustSlst::figures_refuse`] on what it reads of each document: its kept sentences
    /// and its figure ids, sorted (what a join outside the library screens its candidates by,
    /// [`crate::method::WitnessJoin::may_keep_pair`]).
    pub(super) fn figures_disagree(
        &self,
        (len_a, figures_a): (usize, &[u64]),
        (len_b, figures_b): (usize, &[u64]),
        rule: PairRule,
    ) -> bool {
        self.figures_checked(len_a, len_b, rule)
            && !matching::contains_at_least(
                figures_a,
                figures_b,
                self.config.min_figure_containment,
            )
    }

    /// Whether two documents of `len_a` and `len_b` kept sentences are held to the figure
    /// check of [`RobustSlst::figures_refuse`].
    pub(super) fn figures_checked(&self, len_a: usize, len_b: usize, rule: PairRule) -> bool {
        rule == PairRule::Duplicates
            && self.config.min_figure_containment > 0.0
            && !self.config.judges_blocks(len_a, len_b, {
                let m = len_a.min(len_b);
                Similarity::from_counts(m, len_a, len_b).resemblance
            })
    }
}

/// Two profiles' blocks, tiled in canonical order, with what their sentence pairs sum to.
struct Tiled {
    /// Sorted by start in A.
    blocks: Vec<RobustBlock>,
    /// Matching sentence pairs found before tiling.
    sentence_pairs: usize,
    /// The sum of the term-set Jaccard coefficients of the sentence pairs in blocks.
    agreement: f64,
    /// Over those pairs: the figures both sentences hold, and those either holds.
    figures: [usize; 2],
}

/// What the decision on a pair reads past its blocks' count: the conditions of
/// [`RobustConfig`], in order ([`Decision::refusal`]).
struct Decision<'a, T: Term> {
    config: &'a RobustConfig,
    a: &'a RobustProfile,
    b: &'a RobustProfile,
    /// The pair's blocks, sorted by start in A.
    blocks: &'a [RobustBlock],
    /// Whether the pair may be judged on the text it shares, when the whole texts fall short
    /// ([`RobustConfig::judges_blocks`]).
    on_blocks: bool,
    /// The terms of the sentences in blocks (with the windows) on each side, gathered once.
    in_blocks: std::cell::OnceCell<[Vec<T>; 2]>,
    /// [`Tiled::agreement`], and the weighted resemblance made from it.
    agreement: f64,
    weighted: f64,
    /// [`Tiled::figures`].
    figures: [usize; 2],
    /// [`RobustComparison::figure_containment`], [`RobustComparison::term_containment`] (the
    /// latter set by [`Decision::refusal`] when it comes to it).
    figure_containment: f64,
    term_containment: f64,
    /// Whether a condition on figures or words held over the blocks only
    /// ([`DecidedBy::Blocks`]).
    kept_on_blocks: bool,
}

impl<T: Term> Decision<'_, T> {
    /// The terms of the sentences in blocks of A and of B, gathered when first asked for.
    fn block_terms(&self) -> &[Vec<T>; 2] {
        self.in_blocks.get_or_init(|| {
            [
                block_vocabulary::<T>(self.a, self.blocks.iter().map(|x| (x.a_start, x.len))),
                block_vocabulary::<T>(self.b, self.blocks.iter().map(|x| (x.b_start, x.len))),
            ]
        })
    }

    /// The share of the figures of the document with fewer of them that the other holds, or of
    /// those in its blocks when it may be judged on them and the whole texts fall short.
    fn figure_containment(&mut self) -> f64 {
        let (a, b, config) = (self.a, self.b, self.config);
        let mut figure_containment = matching::containment(&a.figures, &b.figures);
        if self.on_blocks && figure_containment < config.min_figure_containment {
            let figures =
                |v: &[T]| -> Vec<T> { v.iter().copied().filter(|t| t.is_figure()).collect() };
            let [x, y] = self.block_terms();
            figure_containment =
                figure_containment.max(matching::containment(&figures(x), &figures(y)));
            self.kept_on_blocks |= figure_containment >= config.min_figure_containment;
        }
        figure_containment
    }

    /// The term containment, computed only here: the vocabularies are merged last, only for a
    /// pair every other part of the decision keeps (most candidates never need them).
    fn term_containment(&mut self) -> f64 {
        let (a, b) = (self.a, self.b);
        let mut term_containment =
            matching::containment(&a.vocabulary_of::<T>(), &b.vocabulary_of::<T>());
        if self.on_blocks && term_containment < self.config.min_term_containment {
            let [x, y] = self.block_terms();
            term_containment = term_containment.max(matching::containment(x, y));
            self.kept_on_blocks |= term_containment >= self.config.min_term_containment;
        }
        term_containment
    }

    /// The first condition of the decision that refuses the pair, in order; `on_words`: for a
    /// pair judged on its words ([`RobustConfig::vocabulary`]), without those on its blocks.
    fn refusal(&mut self, on_words: bool) -> Option<Refusal> {
        let (a, b, config) = (self.a, self.b, self.config);
        let (len_a, len_b) = (a.len(), b.len());
        let figures = self.figures;
        if !on_words && self.weighted < config.min_weighted {
            Some(Refusal::LooseWords)
        } else if figures[1] > 0 && (figures[0] as f64) < config.min_figures * figures[1] as f64 {
            Some(Refusal::FiguresInBlocks)
        } else if self.figure_containment < config.min_figure_containment {
            Some(Refusal::FiguresInDocuments)
        } else if config.figure_swaps > 0 && swapped_figures(a, b) >= config.figure_swaps {
            Some(Refusal::OtherFigures)
        } else if !on_words && self.agreement < config.min_agreement * len_a.min(len_b) as f64 {
            Some(Refusal::LooseWords)
        } else if config.flash_leads && len_a == 1 && len_b == 1 && !leads_agree::<T>(a, b) {
            Some(Refusal::HeadlineLeads)
        } else if config.flash_edits > 0
            && len_a == 1
            && len_b == 1
            && flash_edits::<T>(a, b) >= config.flash_edits
        {
            Some(Refusal::HeadlineEdits)
        } else if config.min_term_containment > 0.0 && {
            self.term_containment = self.term_containment();
            self.term_containment < config.min_term_containment
        } {
            Some(Refusal::OtherWords)
        } else if config.headline_subjects
            && !config.long_enough_for_blocks(len_a, len_b)
            && other_subjects::<T>(a, b)
        {
            Some(Refusal::HeadlineSubjects)
        } else {
            None
        }
    }
}
