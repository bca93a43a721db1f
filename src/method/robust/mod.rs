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
mod config;
mod join;
mod keys;
mod matching;
mod sketch;
mod stored;
#[cfg(test)]
mod tests;
mod words;

use std::cmp::Ordering;

use serde::Serialize;

use crate::block::Block;
use crate::document::Document;
use crate::error::Result;
use crate::method::CandidateSet;
use crate::similarity::Similarity;

pub use self::config::{RobustConfig, RobustParams, SlstMode};
pub use self::join::{WalkPlan, fewest_matched, plan_walk};
use self::keys::CorpusView;
use self::matching::canonical;
pub use self::matching::prefix_len;
use super::{
    Comparison, Detector, Evidence, FoundBlock, Method, PairRule, Params, SentenceCounts, Witness,
};

/// One kept sentence (or window) of a robust profile. Its distinct terms lie in its profile's
/// term list ([`RobustProfile::terms`]): one list a profile rather than one allocation a
/// sentence, whose pointer, header and rounding a corpus run held for every sentence (at a
/// million synthetic documents the peak fell by 627 MB, 7 %).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RobustSentence {
    /// First byte of the sentence in the document text.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// Number of terms, repeats counted (as SL+ST's length).
    pub length: u16,
    /// Number of distinct terms (at most `length`).
    size: u16,
    /// Where its terms start in its profile's term list.
    first_term: u32,
}

impl RobustSentence {
    /// Number of distinct terms.
    pub fn size(&self) -> usize {
        self.size as usize
    }
}

/// A unit of a profile with its terms, as comparisons read it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Unit<'a, T = u64> {
    /// Number of terms, repeats counted.
    pub(super) length: u16,
    /// The distinct terms, sorted by id.
    pub(super) terms: &'a [T],
}

/// How a profile holds its terms: as 64-bit ids ([`RobustProfile::terms`]), or, once a corpus
/// is ranked ([`Detector::prepare_corpus`]), as 32-bit *term ranks*: a term's place among the
/// corpus's distinct ids, in id order, shifted left by one, with the id's figure mark in bit 0.
/// Ranks order and equal as the ids they stand for and keep their figure mark, so every
/// comparison reads them as it reads ids, in half the memory (the ids were half of a sketched
/// corpus's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum TermList {
    Ids(Box<[u64]>),
    Ranks(Box<[u32]>),
}

/// A profile's vocabulary in the form it holds its terms in ([`TermList`]).
pub(super) enum Vocabulary {
    Ids(Vec<u64>),
    Ranks(Vec<u32>),
}

/// The forms two profiles hold their terms in, for a comparison ([`TermList`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Forms {
    /// Both as ids.
    Ids,
    /// Both as ranks of one corpus.
    Ranks,
    /// Otherwise (ranks of two corpora, or ranks and ids): compared as ids.
    Mixed,
}

/// What a profile's terms are, in one of the two forms of [`TermList`]: what comparisons are
/// generic over.
pub(super) trait Term:
    Copy + Ord + std::hash::Hash + Into<u64> + Send + Sync + std::fmt::Debug + 'static
{
    /// The terms of a list in this form; `None` when it holds the other.
    fn of(list: &TermList) -> Option<&[Self]>;

    /// Whether the term is a figure ([`sketch::is_figure`]).
    fn is_figure(self) -> bool {
        self.into() & 1 == 1
    }

    /// The profile's lead ([`RobustProfile::lead`]) in this form.
    fn lead(p: &RobustProfile) -> Option<Self>;

    /// The words (not figures) the profile's headline names ([`RobustProfile::subject`]) in
    /// this form, with the figures themselves as ids.
    fn subject_words(p: &RobustProfile) -> Vec<Self>;
}

impl Term for u64 {
    fn of(list: &TermList) -> Option<&[u64]> {
        match list {
            TermList::Ids(ids) => Some(ids),
            TermList::Ranks(_) => None,
        }
    }

    fn lead(p: &RobustProfile) -> Option<u64> {
        p.lead
    }

    fn subject_words(p: &RobustProfile) -> Vec<u64> {
        p.subject
            .iter()
            .copied()
            .filter(|&t| !sketch::is_figure(t))
            .collect()
    }
}

impl Term for u32 {
    fn of(list: &TermList) -> Option<&[u32]> {
        match list {
            TermList::Ranks(ranks) => Some(ranks),
            TermList::Ids(_) => None,
        }
    }

    fn lead(p: &RobustProfile) -> Option<u32> {
        p.corpus.as_ref().and_then(|v| v.lead)
    }

    fn subject_words(p: &RobustProfile) -> Vec<u32> {
        p.corpus
            .as_ref()
            .map(|v| v.subject_words.to_vec())
            .unwrap_or_default()
    }
}

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
fn flash_edits<T: Term>(a: &RobustProfile, b: &RobustProfile) -> usize {
    let (x, y) = (a.unit::<T>(0).terms, b.unit::<T>(0).terms);
    let shared = matching::common(x, y);
    (x.len() - shared).min(y.len() - shared)
}

/// How many places the two profiles fill with other figures: pairs of words that frame a run of
/// figures in both, where each document has a run there that the other lacks
/// ([`RobustConfig::figure_swaps`]).
fn swapped_figures(a: &RobustProfile, b: &RobustProfile) -> usize {
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

/// Two sorted key lists as one, sorted, without repeats.
fn union_sorted(mut keys: Vec<u64>, more: Vec<u64>) -> Vec<u64> {
    if !more.is_empty() {
        keys.extend(more);
        keys.sort_unstable();
        keys.dedup();
    }
    keys
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

/// What robust SL+ST keeps of a document: its kept sentences with their term sets.
///
/// Stored (as JSON in an index, by `slst sketch`) with each sentence's terms beside it, as
/// [`RobustProfile::terms`] gives them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RobustProfile {
    /// The document id.
    pub id: String,
    /// Kept sentences in text order.
    pub sentences: Vec<RobustSentence>,
    /// Sentences without a term after stop-word removal.
    pub skipped_empty: usize,
    /// Sentences with more terms than the maximum length.
    pub dropped_long: usize,
    /// Those sentences cut into windows of [`RobustConfig::window`] terms, in text order: not
    /// units of the score (J is SL+ST's, over kept units), but seeds for locating reused text
    /// ([`Detector::seeds`]), so a passage made of over-long sentences or unpunctuated lists is
    /// still found.
    pub windows: Vec<RobustSentence>,
    /// The ids of the document's figures (terms with a digit, cardinals written out), from all
    /// its units, kept or not; sorted, distinct. Two stories that share their wording but not
    /// their figures are one template filled twice ([`RobustConfig::min_figure_containment`]).
    pub figures: Box<[u64]>,
    /// The id of the first term of two or more characters of the first kept sentence: a
    /// headline's subject ([`RobustConfig::flash_leads`]). `None` for a profile without a kept
    /// sentence, or stored before it was kept.
    pub lead: Option<u64>,
    /// The ids of what the headline (the first sentence holding a term) names: its figures, and
    /// its words of two or more characters that the rest of the text writes as names
    /// (capitalised, not first in their unit, in a unit that is not all capitals); sorted
    /// ([`RobustConfig::headline_subjects`]). Empty for a profile stored before it was kept.
    pub subject: Box<[u64]>,
    /// Every run of figures written in digits between two words (other terms, cardinals written
    /// out among them), from all units: (a hash of the two words, a hash of the figures in
    /// order); sorted, distinct. The same
    /// table or notice filled with another day's numbers keeps the words around them
    /// ([`RobustConfig::figure_swaps`]). Empty for a profile stored before it was kept.
    pub figure_runs: Box<[(u64, u64)]>,
    /// The distinct terms of each sentence, then of each window, in that order: 64-bit ids
    /// (255 − length, then the XXH3 hash), each unit's sorted, so the longest terms come
    /// first ([`RobustProfile::terms`]); or their ranks in a ranked corpus ([`TermList`]).
    terms: TermList,
    /// What the profile knows under a corpus-wide term order, set by
    /// [`Detector::prepare_corpus`].
    corpus: Option<Box<CorpusView>>,
}

impl RobustProfile {
    /// Number of kept sentences.
    pub fn len(&self) -> usize {
        self.sentences.len()
    }

    /// True when no sentence was kept.
    pub fn is_empty(&self) -> bool {
        self.sentences.is_empty()
    }

    /// The distinct terms of one of its sentences or windows, as 64-bit ids (255 − length,
    /// then the XXH3 hash), sorted: the longest terms come first.
    ///
    /// # Panics
    /// When `s` is not one of this profile's sentences or windows and its terms lie past the
    /// profile's.
    pub fn terms(&self, s: &RobustSentence) -> std::borrow::Cow<'_, [u64]> {
        match &self.terms {
            TermList::Ids(_) => std::borrow::Cow::Borrowed(self.terms_of::<u64>(s)),
            TermList::Ranks(_) => std::borrow::Cow::Owned(self.ids_of(self.terms_of::<u32>(s))),
        }
    }

    /// The terms of one of its sentences or windows in the form it holds them in.
    ///
    /// # Panics
    /// When the profile holds its terms in the other form: comparisons choose the form from
    /// the profiles ([`RobustProfile::forms`]).
    pub(super) fn terms_of<T: Term>(&self, s: &RobustSentence) -> &[T] {
        let all = T::of(&self.terms).expect("terms read in the form the profile holds them in");
        &all[s.first_term as usize..][..s.size as usize]
    }

    /// The forms in which two profiles hold their terms: ranks compare only with ranks of the
    /// same corpus.
    fn forms(a: &RobustProfile, b: &RobustProfile) -> Forms {
        match (&a.terms, &b.terms, &a.corpus, &b.corpus) {
            (TermList::Ids(_), TermList::Ids(_), ..) => Forms::Ids,
            (TermList::Ranks(_), TermList::Ranks(_), Some(x), Some(y))
                if std::sync::Arc::ptr_eq(&x.ids, &y.ids) =>
            {
                Forms::Ranks
            }
            _ => Forms::Mixed,
        }
    }

    /// The ids of its terms (each sentence's, then each window's), as the sketch made them.
    pub(super) fn id_list(&self) -> std::borrow::Cow<'_, [u64]> {
        match &self.terms {
            TermList::Ids(ids) => std::borrow::Cow::Borrowed(ids),
            TermList::Ranks(ranks) => std::borrow::Cow::Owned(self.ids_of(ranks)),
        }
    }

    /// Takes its terms as the term ranks of a ranked corpus, in the order of its term list.
    pub(super) fn rank_terms(&mut self, ranks: Box<[u32]>) {
        self.terms = TermList::Ranks(ranks);
    }

    /// Takes its terms as ids, in the order of its term list.
    pub(super) fn set_ids(&mut self, ids: Box<[u64]>) {
        self.terms = TermList::Ids(ids);
    }

    /// The ids that term ranks of this profile's corpus stand for.
    fn ids_of(&self, ranks: &[u32]) -> Vec<u64> {
        let ids = self.corpus.as_ref().map_or(&[][..], |v| &v.ids);
        ranks.iter().map(|&r| ids[(r >> 1) as usize]).collect()
    }

    /// Sentence `i` with its terms.
    pub(super) fn unit<T: Term>(&self, i: usize) -> Unit<'_, T> {
        let s = &self.sentences[i];
        Unit {
            length: s.length,
            terms: self.terms_of::<T>(s),
        }
    }

    /// The distinct terms of the whole text: of its units and of the windows of its over-long
    /// units; sorted ids.
    pub fn vocabulary(&self) -> Vec<u64> {
        let mut terms = self.id_list().into_owned();
        terms.sort_unstable();
        terms.dedup();
        terms
    }

    /// [`RobustProfile::vocabulary`] in the form the profile holds its terms in.
    pub(super) fn vocabulary_of<T: Term>(&self) -> Vec<T> {
        let mut terms = T::of(&self.terms)
            .expect("terms read in the form the profile holds them in")
            .to_vec();
        terms.sort_unstable();
        terms.dedup();
        terms
    }

    /// The Jaccard coefficient of the vocabularies of `a` and `b` (the word rule), with `a`'s
    /// vocabulary made once for many `b` in `cache`.
    pub(super) fn vocabulary_jaccard(
        a: &RobustProfile,
        b: &RobustProfile,
        cache: &std::cell::OnceCell<Vocabulary>,
    ) -> f64 {
        match (Self::forms(a, b), cache.get()) {
            (Forms::Ranks, None | Some(Vocabulary::Ranks(_))) => {
                let x = cache.get_or_init(|| Vocabulary::Ranks(a.vocabulary_of()));
                let Vocabulary::Ranks(x) = x else {
                    unreachable!("the cache holds ranks")
                };
                matching::jaccard(x, &b.vocabulary_of::<u32>())
            }
            (Forms::Ids, None | Some(Vocabulary::Ids(_))) => {
                let x = cache.get_or_init(|| Vocabulary::Ids(a.vocabulary_of()));
                let Vocabulary::Ids(x) = x else {
                    unreachable!("the cache holds ids")
                };
                matching::jaccard(x, &b.vocabulary_of::<u64>())
            }
            _ => matching::jaccard(&a.vocabulary(), &b.vocabulary()),
        }
    }

    /// The profile with its terms as ids again, for a comparison with one that holds ids.
    fn with_ids(&self) -> std::borrow::Cow<'_, RobustProfile> {
        match &self.terms {
            TermList::Ids(_) => std::borrow::Cow::Borrowed(self),
            TermList::Ranks(_) => {
                let mut p = self.clone();
                p.terms = TermList::Ids(self.id_list().into_owned().into());
                std::borrow::Cow::Owned(p)
            }
        }
    }

    /// The profile with its windows among its units, in text order, for tiling alone: the
    /// document-level parts the decision reads (figures, subject, runs of figures, corpus view)
    /// are left empty.
    fn with_windows(&self) -> RobustProfile {
        let mut sentences: Vec<RobustSentence> = self
            .sentences
            .iter()
            .chain(&self.windows)
            .copied()
            .collect();
        sentences.sort_unstable_by_key(|s| s.start);
        RobustProfile {
            id: self.id.clone(),
            sentences,
            skipped_empty: self.skipped_empty,
            dropped_long: 0,
            windows: Vec::new(),
            figures: Box::default(),
            lead: self.lead,
            subject: Box::default(),
            figure_runs: Box::default(),
            terms: self.terms.clone(),
            corpus: None,
        }
    }
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
        }
    }
}

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
    /// The blocks of two profiles with their windows among their units (for
    /// [`Detector::seeds`]), tiled in canonical order, with both profiles' terms in the form `T`.
    fn window_blocks<T: Term>(&self, a: &RobustProfile, b: &RobustProfile) -> Vec<RobustBlock> {
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
    fn compare_terms<T: Term>(
        &self,
        a: &RobustProfile,
        b: &RobustProfile,
    ) -> Comparison<RobustComparison> {
        let (len_a, len_b) = (a.len(), b.len());
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
        let in_blocks = std::cell::OnceCell::new();
        let block_terms = || {
            in_blocks.get_or_init(|| {
                [
                    block_vocabulary::<T>(a, blocks.iter().map(|x| (x.a_start, x.len))),
                    block_vocabulary::<T>(b, blocks.iter().map(|x| (x.b_start, x.len))),
                ]
            })
        };
        let mut figure_containment = matching::containment(&a.figures, &b.figures);
        if on_blocks && figure_containment < self.config.min_figure_containment {
            let figures =
                |v: &[T]| -> Vec<T> { v.iter().copied().filter(|t| t.is_figure()).collect() };
            let [x, y] = block_terms();
            figure_containment =
                figure_containment.max(matching::containment(&figures(x), &figures(y)));
        }
        // The vocabularies are merged last, only for a pair every other part of the decision
        // keeps: most candidates never need them.
        let mut term_containment = 0.0;
        // The decision's conditions in order; `on_words`: for a pair judged on its words
        // ([`RobustConfig::vocabulary`]), without those on its blocks.
        let mut refusal = |on_words: bool| {
            if !on_words && weighted < self.config.min_weighted {
                Some(Refusal::LooseWords)
            } else if figures[1] > 0
                && (figures[0] as f64) < self.config.min_figures * figures[1] as f64
            {
                Some(Refusal::FiguresInBlocks)
            } else if figure_containment < self.config.min_figure_containment {
                Some(Refusal::FiguresInDocuments)
            } else if self.config.figure_swaps > 0
                && swapped_figures(a, b) >= self.config.figure_swaps
            {
                Some(Refusal::OtherFigures)
            } else if !on_words && agreement < self.config.min_agreement * len_a.min(len_b) as f64 {
                Some(Refusal::LooseWords)
            } else if self.config.flash_leads && len_a == 1 && len_b == 1 && !leads_agree::<T>(a, b)
            {
                Some(Refusal::HeadlineLeads)
            } else if self.config.flash_edits > 0
                && len_a == 1
                && len_b == 1
                && flash_edits::<T>(a, b) >= self.config.flash_edits
            {
                Some(Refusal::HeadlineEdits)
            } else if self.config.min_term_containment > 0.0 && {
                term_containment =
                    matching::containment(&a.vocabulary_of::<T>(), &b.vocabulary_of::<T>());
                if on_blocks && term_containment < self.config.min_term_containment {
                    let [x, y] = block_terms();
                    term_containment = term_containment.max(matching::containment(x, y));
                }
                term_containment < self.config.min_term_containment
            } {
                Some(Refusal::OtherWords)
            } else if self.config.headline_subjects
                && !self.config.long_enough_for_blocks(len_a, len_b)
                && other_subjects::<T>(a, b)
            {
                Some(Refusal::HeadlineSubjects)
            } else {
                None
            }
        };
        let mut refused = if reaches { refusal(false) } else { None };
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
                refused = refusal(true);
                by_words = refused.is_none();
            }
        }
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
            },
        }
    }

    /// Whether `m` units in blocks between documents of `na` and `nb` units could satisfy
    /// `rule` (the bound of every corpus join: scores increase with `m`).
    fn keeps_matched(&self, m: usize, na: usize, nb: usize, rule: PairRule) -> bool {
        let bound = Similarity::from_counts(m, na, nb);
        rule.keeps(&bound, self.config.reaches(&bound, m))
    }

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

impl RobustSlst {
    /// Whether the pair is refused on its figures whatever its blocks: reporting duplicates
    /// only, a pair whose figures disagree, unless it could be judged on its blocks (two edited
    /// copies). The figure sets are in the sketches, so it costs one merge, not a tiling.
    fn figures_refuse(&self, a: &RobustProfile, b: &RobustProfile, rule: PairRule) -> bool {
        self.figures_checked(a.len(), b.len(), rule)
            && !matching::contains_at_least(
                &a.figures,
                &b.figures,
                self.config.min_figure_containment,
            )
    }

    /// Whether two documents of `len_a` and `len_b` kept sentences are held to the figure
    /// check of [`RobustSlst::figures_refuse`].
    fn figures_checked(&self, len_a: usize, len_b: usize, rule: PairRule) -> bool {
        rule == PairRule::Duplicates
            && self.config.min_figure_containment > 0.0
            && !self.config.judges_blocks(len_a, len_b, {
                let m = len_a.min(len_b);
                Similarity::from_counts(m, len_a, len_b).resemblance
            })
    }
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

    fn rule(&self) -> String {
        let c = &self.config;
        let mut rule = format!("J ≥ {}", c.threshold);
        if c.contained > 0.0 {
            rule.push_str(&format!(" or either contained ≥ {}", c.contained));
        }
        let conditions = [
            ("weighted J", c.min_weighted),
            ("shared figures in blocks", c.min_figures),
            ("shared figures", c.min_figure_containment),
            ("word agreement", c.min_agreement),
            ("shared terms", c.min_term_containment),
        ];
        for (name, least) in conditions {
            if least > 0.0 {
                rule.push_str(&format!(", {name} ≥ {least}"));
            }
        }
        if c.matched_containment_from > 0
            && (c.min_figure_containment > 0.0 || c.min_term_containment > 0.0)
        {
            rule.push_str(&format!(
                " (or in the blocks, from {} sentences at J ≥ {})",
                c.matched_containment_from, c.threshold
            ));
        }
        if c.flash_leads {
            rule.push_str(", one-sentence documents share a first word");
        }
        if c.flash_edits > 0 {
            rule.push_str(&format!(
                ", one-sentence documents do not each hold {} words the other lacks",
                c.flash_edits
            ));
        }
        if c.headline_subjects {
            rule.push_str(", headlines name no subject the other lacks");
        }
        if c.figure_swaps > 0 {
            rule.push_str(&format!(
                ", fewer than {} places with other figures",
                c.figure_swaps
            ));
        }
        if c.vocabulary > 0.0 {
            rule.push_str(&format!(
                "; or a block and the texts' terms J ≥ {} with the checks on figures and headlines",
                c.vocabulary
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
            None => Self::keys_from(
                &self.slots_of::<true, true, _>(sketch, |i| sketch.unit::<u64>(i).terms),
            ),
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

    /// Every unit's slots, each with the units it witnesses: the corpus join's own keys once
    /// [`Detector::prepare_corpus`] has run, else in term-id order (the order the corpus join
    /// uses under the anchor rule; a prefix in any global order finds every matching pair).
    fn witness_keys(&self, sketch: &RobustProfile) -> Option<Vec<Witness>> {
        // A single slot witnesses its unit, a pair slot both units of its step.
        let slots = match sketch.corpus.as_deref() {
            Some(view) => view.slots(self, sketch),
            None => self.slots_of::<true, true, _>(sketch, |i| sketch.unit::<u64>(i).terms),
        };
        Some(
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
                .collect(),
        )
    }

    fn witness_tolerance(&self) -> Option<usize> {
        Some(self.config.length_tolerance)
    }

    fn may_keep_matched(
        &self,
        matched: usize,
        units_a: usize,
        units_b: usize,
        rule: PairRule,
    ) -> Option<bool> {
        Some(self.keeps_matched(matched, units_a, units_b, rule))
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
    /// ([`Detector::word_keys`]).
    fn index_keys(&self, sketch: &RobustProfile) -> Option<Vec<u64>> {
        let words = self.word_keys_of(sketch, false);
        Some(union_sorted(self.join_keys(sketch)?, words))
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
