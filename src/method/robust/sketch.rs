//! What robust SL+ST keeps of a document: its units (sentences, or clauses with
//! [`RobustConfig::clauses`](super::RobustConfig::clauses)) with their lengths, spans and term
//! sets.

use std::collections::HashMap;
use std::ops::Range;

use super::{RobustProfile, RobustSentence, RobustSlst, TermList};
use crate::document::Document;
use crate::text;
use crate::text::figures::{Figures, Term};

/// Whether a word is a *figure*: it has a digit (an amount, a date, a code) or is a cardinal
/// number written out (`FED SETS TWO BILLION DLR REPURCHASE`, `seven ships loading`; the words
/// [`text::figures`] reads as numbers). Scale words (`million`, `billion`) alone are not: they
/// stay the same when the figure changes.
pub(crate) fn is_figure_word(word: &str) -> bool {
    word.bytes().any(|c| c.is_ascii_digit()) || text::figures::parse(word).is_some()
}

/// A term's 64-bit id: 255 minus its length in characters (at most 255) in the top byte, the
/// top 56 bits of its XXH3 hash below, whose lowest bit says whether the term is a *figure*
/// ([`is_figure_word`], [`is_figure`]). Sorted ids put the longest terms first (ties by hash):
/// the order of the anchor rule ([`RobustConfig::anchor_terms`]), fixed without any corpus.
#[cfg(test)]
pub(crate) fn term_id(term: &str) -> u64 {
    marked_term_id(term, is_figure_word(term))
}

/// A term's id (see `term_id`) with the figure mark given: a stem keeps the mark of its word,
/// and a profile knows which of its words are figures without asking [`is_figure_word`].
fn marked_term_id(term: &str, figure: bool) -> u64 {
    let length = term.chars().count().min(255) as u64;
    ((255 - length) << 56)
        | ((xxhash_rust::xxh3::xxh3_64(term.as_bytes()) >> 8) & !1)
        | u64::from(figure)
}

/// The length in characters of the term (at most 255) an id stands for.
pub(crate) fn term_chars(id: u64) -> u64 {
    255 - (id >> 56)
}

/// Whether a term id is a figure's.
pub(crate) fn is_figure(id: u64) -> bool {
    id & 1 == 1
}

/// Snowball stems of words (the stemmer of the document's stop-word list's language,
/// [`crate::text::StopWords::stemmer`]), remembered: a text repeats its vocabulary, and the
/// stemmer allocates on every call. In memory only, so its randomly seeded hasher is harmless.
pub(super) struct Stems {
    stemmer: rust_stemmers::Stemmer,
    seen: HashMap<String, String, foldhash::fast::RandomState>,
    buf: String,
}

impl Stems {
    fn new(language: rust_stemmers::Algorithm) -> Self {
        Stems {
            stemmer: rust_stemmers::Stemmer::create(language),
            seen: HashMap::default(),
            buf: String::new(),
        }
    }

    /// The stem of a word; the punctuation inside it (`team's`, `u.s`) goes first, as in
    /// [`super::PolyHash::canonical`], so that the stemmer sees a plain word.
    fn stem(&mut self, word: &str) -> &str {
        self.buf.clear();
        self.buf
            .extend(word.chars().filter(|c| c.is_alphanumeric()));
        if !self.seen.contains_key(self.buf.as_str()) {
            let stem = self.stemmer.stem(&self.buf).into_owned();
            self.seen.insert(self.buf.clone(), stem);
        }
        &self.seen[self.buf.as_str()]
    }
}

/// Cut `span` of `text` after every glued sentence end: `.`, `!` or `?` right after a lowercase
/// letter that follows another letter, and right before an uppercase letter that a lowercase one
/// follows (`organization.Coalition`, `study.Bachelor's`). Scraped pages lose the space there; a
/// sentence splitter sees one sentence and a word splitter one word. `U.S.Army`, `e.g.The`,
/// `3.5` and `example.com` are left alone.
pub(super) fn cut_glued(text: &str, span: Range<usize>, out: &mut Vec<Range<usize>>) {
    let b = text.as_bytes();
    let mut start = span.start;
    let (first, last) = (span.start + 2, span.end.saturating_sub(2));
    if first < last {
        // The candidates found by memchr: most units hold one end mark or none.
        for p in memchr::memchr3_iter(b'.', b'!', b'?', &b[first..last]).map(|k| first + k) {
            if b[p - 1].is_ascii_lowercase()
                && b[p - 2].is_ascii_alphabetic()
                && b[p + 1].is_ascii_uppercase()
                && b[p + 2].is_ascii_lowercase()
            {
                out.push(start..p + 1);
                start = p + 1;
            }
        }
    }
    out.push(start..span.end);
}

/// Cut `span` of `text` after every semicolon and colon (clauses).
pub(super) fn cut_clauses(text: &str, span: Range<usize>, out: &mut Vec<Range<usize>>) {
    let mut start = span.start;
    // Byte offsets: both marks are ASCII, which no byte of a longer UTF-8 character equals.
    for k in memchr::memchr2_iter(b';', b':', &text.as_bytes()[span.clone()]) {
        let end = span.start + k + 1;
        out.push(start..end);
        start = end;
    }
    out.push(start..span.end);
}

/// The working lists of [`RobustSlst::profile_of`], kept by each thread from one document to
/// the next: made anew for every document, their allocations were about a tenth of the sketch's
/// time.
#[derive(Default)]
struct Scratch {
    /// The units (spans) and the sentence each was cut from; a sentence's glued pieces.
    units: Vec<Range<usize>>,
    sentence_of: Vec<u32>,
    glued: Vec<Range<usize>>,
    /// The kept units, and the windows' terms.
    sentences: Vec<RobustSentence>,
    window_terms: Vec<u64>,
    /// Each term of the unit: its id and where it ends.
    terms: Vec<(u64, usize)>,
    /// The figures of every unit, kept, dropped or cut into windows.
    figures: Vec<u64>,
    headline_terms: Vec<u64>,
    named: Vec<bool>,
    capitalised: Vec<usize>,
    figure_runs: Vec<(u64, u64)>,
    /// Where words that need normalising are copied.
    word: String,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

impl RobustSlst {
    /// The units of a text into `units`: its sentences, cut where sentences are glued and, with
    /// clauses, at semicolons and colons; leading white space trimmed, empty units left out.
    /// Also fills `sentence_of`, for each unit, with the number of the sentence it was cut from.
    fn units(
        &self,
        text: &str,
        units: &mut Vec<Range<usize>>,
        sentence_of: &mut Vec<u32>,
        glued: &mut Vec<Range<usize>>,
    ) {
        units.clear();
        sentence_of.clear();
        for (n, span) in text::split_sentences(text).into_iter().enumerate() {
            glued.clear();
            if self.config.split_glued {
                cut_glued(text, span, glued);
            } else {
                glued.push(span);
            }
            for piece in glued.drain(..) {
                if self.config.clauses {
                    cut_clauses(text, piece, units);
                } else {
                    units.push(piece);
                }
            }
            sentence_of.resize(units.len(), n as u32);
        }
        // Trimmed, and the empty ones left out (with their sentence numbers), in place.
        let mut kept = 0;
        for k in 0..units.len() {
            let u = units[k].clone();
            let trimmed = text[u.clone()].trim_start();
            if !trimmed.is_empty() {
                units[kept] = u.end - trimmed.len()..u.end;
                sentence_of[kept] = sentence_of[k];
                kept += 1;
            }
        }
        units.truncate(kept);
        sentence_of.truncate(kept);
    }

    /// The robust profile of a document.
    pub(super) fn profile_of(&self, doc: &Document) -> RobustProfile {
        SCRATCH.with(|scratch| self.profile_with(doc, &mut scratch.borrow_mut()))
    }

    /// [`RobustSlst::profile_of`] with the thread's working lists.
    fn profile_with(&self, doc: &Document, scratch: &mut Scratch) -> RobustProfile {
        let text = &doc.text;
        let stopwords = self.config.stopwords.for_text(text);
        let mut profile = RobustProfile::empty(doc.id.clone());
        let Scratch {
            units,
            sentence_of,
            glued,
            sentences,
            window_terms,
            terms,
            figures,
            headline_terms,
            named,
            capitalised,
            figure_runs,
            word,
        } = scratch;
        // The sentences' terms, and the windows' (after the sentences' once all are made).
        // The ids the profile keeps grow in a list of its own rather than being copied out of
        // the scratch: copied, the ids (freed when a corpus is prepared and its terms ranked)
        // would lie scattered among the profiles' kept lists, holding memory through the
        // candidate stage.
        let mut sentence_terms: Vec<u64> = Vec::new();
        window_terms.clear();
        figures.clear();
        let mut stemmer = self
            .config
            .stem
            .then(|| stopwords.stemmer())
            .flatten()
            .map(Stems::new);
        let mut headline = Headline::new(headline_terms, named);
        let mut runs = FigureRuns::new(figure_runs);
        self.units(text, units, sentence_of, glued);
        sentences.clear();
        let mut windows = Vec::new();
        for (span, &sentence) in units.iter().zip(sentence_of.iter()) {
            let span = span.clone();
            terms.clear();
            // The headline's terms that this unit writes capitalised, not first in the unit
            // (by their place in the headline's terms).
            capitalised.clear();
            let unit_text = &text[span.clone()];
            let after_headline = headline.precedes(sentence);
            // Each term: a word, or a number read as its value (`text::figures`).
            let mut take = |r: Range<usize>, term: &Term| {
                let (id, digits) = id_of(term, &mut stemmer);
                if is_figure(id) {
                    figures.push(id);
                }
                runs.note(id, digits, term);
                if after_headline
                    && r.start > 0
                    && unit_text[r.clone()].starts_with(char::is_uppercase)
                    && let Some(k) = headline.place_of(id)
                {
                    capitalised.push(k);
                }
                terms.push((id, span.start + r.end));
            };
            let mut numbers = Figures::default();
            text::for_each_word_span_in(unit_text, word, |r, word| {
                if !stopwords.contains(word) {
                    numbers.push(unit_text, r, word, &mut take);
                }
            });
            numbers.finish(&mut take);
            headline.note(sentence, terms, unit_text, capitalised);
            let length = terms.len();
            if length == 0 {
                profile.skipped_empty += 1;
            } else if length <= self.config.max_length {
                if sentences.is_empty() {
                    // A single letter (an initial: `U S WEST`) names no subject.
                    profile.lead = terms.iter().map(|t| t.0).find(|&id| term_chars(id) > 1);
                }
                sentences.push(unit(span.start, span.end, terms, &mut sentence_terms));
            } else {
                profile.dropped_long += 1;
                if self.config.window > 0 {
                    let size = self.config.window;
                    windows.extend(span_windows(text, span, terms, size, window_terms));
                }
            }
        }
        runs.end();
        figures.sort_unstable();
        figures.dedup();
        profile.figures = figures.as_slice().into();
        figure_runs.sort_unstable();
        figure_runs.dedup();
        profile.figure_runs = figure_runs.as_slice().into();
        profile.subject = headline.subject();
        profile.keep(sentences, sentence_terms, windows, window_terms);
        profile
    }
}

/// A term's id, and whether it is written in digits: a figure read as its value, or a word
/// (stemmed when `stemmer` is given).
#[inline]
fn id_of(term: &Term, stemmer: &mut Option<Stems>) -> (u64, bool) {
    match term {
        Term::Figure { key, digits } => (marked_term_id(key, true), *digits),
        Term::Word(word) => {
            // `Figures` gives as words only words that read as no number, so a word is a
            // figure (`is_figure_word`) when it has a digit.
            let digits = word.bytes().any(|c| c.is_ascii_digit());
            debug_assert_eq!(digits, is_figure_word(word));
            let id = match stemmer {
                Some(s) => marked_term_id(s.stem(word), digits),
                None => marked_term_id(word, digits),
            };
            (id, digits)
        }
    }
}

/// The runs of figures written in digits between two words ([`RobustProfile::figure_runs`]),
/// as a profile's terms come: the word before the current run, and the run's hash so far.
struct FigureRuns<'a> {
    out: &'a mut Vec<(u64, u64)>,
    before: u64,
    run: Option<u64>,
}

impl<'a> FigureRuns<'a> {
    fn new(out: &'a mut Vec<(u64, u64)>) -> Self {
        out.clear();
        FigureRuns {
            out,
            before: 0,
            run: None,
        }
    }

    /// The next term, its id and whether it is written in digits.
    #[inline]
    fn note(&mut self, id: u64, digits: bool, term: &Term) {
        // A fraction's parts belong to its number (`6-1/4` is `6.25`): inside a run they are
        // no words around it. (A percent or scale word is one: the same rate table filled for
        // another day reads `5.85 pct` in both.)
        let part = matches!(term, Term::Word(w) if *w == text::figures::PART);
        // Runs are of figures written in digits: a cardinal written out is a word (`an
        // hundred and twenty` against `one hundred twenty` is one figure).
        if is_figure(id) && digits {
            self.run = Some(mix(self.run.unwrap_or(FIGURE_RUN), id));
        } else if !(part && self.run.is_some()) {
            if let Some(r) = self.run.take() {
                self.out.push((mix(self.before, id), r));
            }
            self.before = id;
        }
    }

    /// The text's end: a run still open ends there.
    fn end(self) {
        if let Some(r) = self.run {
            self.out.push((mix(self.before, END_OF_TEXT), r));
        }
    }
}

/// The headline — the first sentence that holds a term — and which of its terms the rest of
/// the text writes as a name ([`RobustProfile::subject`]).
struct Headline<'a> {
    /// The headline's sentence, once one holds a term.
    sentence: Option<u32>,
    /// Its terms, sorted, distinct.
    terms: &'a mut Vec<u64>,
    /// Per term: written as a name in the rest of the text.
    named: &'a mut Vec<bool>,
}

impl<'a> Headline<'a> {
    fn new(terms: &'a mut Vec<u64>, named: &'a mut Vec<bool>) -> Self {
        terms.clear();
        named.clear();
        Headline {
            sentence: None,
            terms,
            named,
        }
    }

    /// Whether `sentence` comes after the headline.
    fn precedes(&self, sentence: u32) -> bool {
        self.sentence.is_some_and(|h| h != sentence)
    }

    /// The place of a headline term among its terms.
    #[inline]
    fn place_of(&self, id: u64) -> Option<usize> {
        self.terms.binary_search(&id).ok()
    }

    /// A unit of `sentence` with its `terms`: the headline's (its first, or another unit of
    /// its sentence), or one after it writing the headline's terms at `capitalised` as names.
    fn note(
        &mut self,
        sentence: u32,
        terms: &[(u64, usize)],
        unit_text: &str,
        capitalised: &[usize],
    ) {
        if !terms.is_empty() && self.sentence.is_none_or(|h| h == sentence) {
            self.sentence = Some(sentence);
            self.terms.extend(terms.iter().map(|t| t.0));
            self.terms.sort_unstable();
            self.terms.dedup();
            self.named.resize(self.terms.len(), false);
        } else if !capitalised.is_empty() && unit_text.contains(char::is_lowercase) {
            // Capitals in running text (not an all-capitals line) mark a name.
            for &k in capitalised {
                self.named[k] = true;
            }
        }
    }

    /// What the headline names: its figures, and its terms of two or more characters written
    /// as names.
    fn subject(&self) -> Box<[u64]> {
        self.terms
            .iter()
            .zip(self.named.iter())
            .filter(|&(&t, &name)| is_figure(t) || (name && term_chars(t) > 1))
            .map(|(&t, _)| t)
            .collect()
    }
}

impl RobustProfile {
    /// A profile of no unit, for a document of this id.
    fn empty(id: String) -> Self {
        RobustProfile {
            id,
            sentences: Vec::new(),
            skipped_empty: 0,
            dropped_long: 0,
            windows: Vec::new(),
            figures: Box::default(),
            lead: None,
            subject: Box::default(),
            figure_runs: Box::default(),
            terms: TermList::Ids(Box::default()),
            corpus: None,
        }
    }

    /// Keeps the units made and their terms: the sentences', then the windows'.
    fn keep(
        &mut self,
        sentences: &[RobustSentence],
        mut sentence_terms: Vec<u64>,
        mut windows: Vec<RobustSentence>,
        window_terms: &[u64],
    ) {
        // A corpus run keeps every profile: each keeps what it holds and no spare room
        // (grown by doubling, a third of the sentences' room was spare on synthetic corpora).
        self.sentences = sentences.to_vec();
        let offset = sentence_terms.len() as u32;
        for w in &mut windows {
            w.first_term += offset;
        }
        windows.shrink_to_fit();
        self.windows = windows;
        sentence_terms.extend_from_slice(window_terms);
        self.set_ids(sentence_terms.into());
    }
}

/// Seeds of the hashes of figure runs ([`RobustProfile::figure_runs`]): a run's start, and the
/// word after a run that ends the text.
const FIGURE_RUN: u64 = 0x243f_6a88_85a3_08d3;
const END_OF_TEXT: u64 = 0x1319_8a2e_0370_7344;

/// One step of an order-sensitive hash of term ids (each id already a hash).
fn mix(h: u64, id: u64) -> u64 {
    (h.rotate_left(27) ^ id).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Windows of `size` terms of an over-long unit: each ends after its last term, the next starts
/// there (after white space); the last runs to the unit's end.
fn span_windows<'a>(
    text: &'a str,
    span: Range<usize>,
    terms: &'a [(u64, usize)],
    size: usize,
    ids: &'a mut Vec<u64>,
) -> impl Iterator<Item = RobustSentence> + 'a {
    let mut start = span.start;
    let count = terms.len().div_ceil(size);
    terms.chunks(size).enumerate().map(move |(k, chunk)| {
        let end = if k + 1 == count {
            span.end
        } else {
            chunk[chunk.len() - 1].1
        };
        let trimmed = text[start..end].trim_start();
        let window = unit(end - trimmed.len(), end, chunk, ids);
        start = end;
        window
    })
}

/// A kept unit from its span and its terms, whose distinct ids, sorted, it appends to `ids`.
fn unit(start: usize, end: usize, terms: &[(u64, usize)], ids: &mut Vec<u64>) -> RobustSentence {
    let first = ids.len();
    ids.extend(terms.iter().map(|t| t.0));
    ids[first..].sort_unstable();
    let mut size = 0;
    for k in first..ids.len() {
        if size == 0 || ids[k] != ids[first + size - 1] {
            ids[first + size] = ids[k];
            size += 1;
        }
    }
    ids.truncate(first + size);
    RobustSentence {
        start: start as u32,
        end: end as u32,
        length: terms.len() as u16,
        size: size as u16,
        first_term: first as u32,
    }
}
