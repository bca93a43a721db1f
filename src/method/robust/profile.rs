//! What robust SL+ST keeps of a document ([`RobustProfile`]): its kept sentences, each with
//! its distinct terms in one list per profile, held as 64-bit ids or, once a corpus is
//! ranked, as 32-bit term ranks ([`TermList`]); and the [`Term`] trait comparisons are generic
//! over, so that one comparison reads either form.

use super::keys::CorpusView;
use super::{matching, sketch};

/// One kept sentence (or window) of a robust profile. Its distinct terms lie in its profile's
/// term list ([`RobustProfile::terms`]): one list a profile rather than one allocation a
/// sentence, whose pointer, header and rounding a corpus run would hold for every sentence
/// (docs/benchmarks-corpus-runs.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RobustSentence {
    /// First byte of the sentence in the document text.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// Number of terms, repeats counted (as SL+ST's length).
    pub length: u16,
    /// Number of distinct terms (at most `length`).
    pub(super) size: u16,
    /// Where its terms start in its profile's term list.
    pub(super) first_term: u32,
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
///
/// [`Detector::prepare_corpus`]: crate::method::Detector::prepare_corpus
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
pub(super) enum Forms {
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
    ///
    /// [`RobustConfig::window`]: super::RobustConfig::window
    /// [`Detector::seeds`]: crate::method::Detector::seeds
    pub windows: Vec<RobustSentence>,
    /// The ids of the document's figures (terms with a digit, cardinals written out), from all
    /// its units, kept or not; sorted, distinct. Two stories that share their wording but not
    /// their figures are one template filled twice ([`RobustConfig::min_figure_containment`]).
    ///
    /// [`RobustConfig::min_figure_containment`]: super::RobustConfig::min_figure_containment
    pub figures: Box<[u64]>,
    /// The id of the first term of two or more characters of the first kept sentence: a
    /// headline's subject ([`RobustConfig::flash_leads`]). `None` for a profile without a kept
    /// sentence, or stored before it was kept.
    ///
    /// [`RobustConfig::flash_leads`]: super::RobustConfig::flash_leads
    pub lead: Option<u64>,
    /// The ids of what the headline (the first sentence holding a term) names: its figures, and
    /// its words of two or more characters that the rest of the text writes as names
    /// (capitalised, not first in their unit, in a unit that is not all capitals); sorted
    /// ([`RobustConfig::headline_subjects`]). Empty for a profile stored before it was kept.
    ///
    /// [`RobustConfig::headline_subjects`]: super::RobustConfig::headline_subjects
    pub subject: Box<[u64]>,
    /// Every run of figures written in digits between two words (other terms, cardinals written
    /// out among them), from all units: (a hash of the two words, a hash of the figures in
    /// order); sorted, distinct. The same
    /// table or notice filled with another day's numbers keeps the words around them
    /// ([`RobustConfig::figure_swaps`]). Empty for a profile stored before it was kept.
    ///
    /// [`RobustConfig::figure_swaps`]: super::RobustConfig::figure_swaps
    pub figure_runs: Box<[(u64, u64)]>,
    /// The distinct terms of each sentence, then of each window, in that order: 64-bit ids
    /// (255 − length, then the XXH3 hash), each unit's sorted, so the longest terms come
    /// first ([`RobustProfile::terms`]); or their ranks in a ranked corpus ([`TermList`]).
    pub(super) terms: TermList,
    /// What the profile knows under a corpus-wide term order, set by
    /// [`Detector::prepare_corpus`].
    ///
    /// [`Detector::prepare_corpus`]: crate::method::Detector::prepare_corpus
    pub(super) corpus: Option<Box<CorpusView>>,
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
    pub(super) fn forms(a: &RobustProfile, b: &RobustProfile) -> Forms {
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
    pub(super) fn ids_of(&self, ranks: &[u32]) -> Vec<u64> {
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
    pub(super) fn with_ids(&self) -> std::borrow::Cow<'_, RobustProfile> {
        match &self.terms {
            TermList::Ids(_) => std::borrow::Cow::Borrowed(self),
            TermList::Ranks(_) => {
                let mut p = self.clone();
                p.terms = TermList::Ids(self.id_list().into_owned().into());
                std::borrow::Cow::Owned(p)
            }
        }
    }

    /// The profile whose keys cover every seed of a passage ([`Detector::seeds`]): with its
    /// terms as ids and its windows among its units ([`RobustProfile::with_windows`]), as
    /// [`Detector::seed_candidates`] joins them; `None` without windows, when its own units and
    /// keys do.
    ///
    /// [`Detector::seeds`]: crate::method::Detector::seeds
    /// [`Detector::seed_candidates`]: crate::method::Detector::seed_candidates
    pub(crate) fn seed_profile(&self) -> Option<RobustProfile> {
        (!self.windows.is_empty()).then(|| self.with_ids().with_windows())
    }

    /// The profile with its windows among its units, in text order, for tiling alone: the
    /// document-level parts the decision reads (figures, subject, runs of figures, corpus view)
    /// are left empty.
    pub(super) fn with_windows(&self) -> RobustProfile {
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
