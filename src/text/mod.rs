//! Text to sentences and terms (SPEC §2.1–2.3).
//!
//! - [`split_sentences`]: UAX #29 sentence boundaries on unwrapped paragraphs, plus repairs for
//!   the known failures on news text;
//! - [`for_each_word`]: UAX #29 words containing a letter or digit, normalised ([`normalize_term`]);
//! - [`StopWords`]: the list that turns words into terms;
//! - [`Terms`]: a text's terms in order, its canonical form (what the word-based methods
//!   shingle and web pages' blocks are fingerprinted by).
//!
//! Boundaries come from one of two implementations of UAX #29 that give the same output:
//! - text that is ASCII, typographic quotes and dashes (`‘ ’ “ ” – —`) and the pilcrow `¶` aside
//!   — a paragraph for sentences, a sentence for words: nearly all text of the corpora here —
//!   takes a scan of its bytes in `ascii.rs`, where only a handful of the rules can apply;
//! - any other text takes ICU4X (`icu_segmenter`, compiled Unicode data). `unicode-segmentation`
//!   implements the same rules and gives the same boundaries (the tests check it on real text)
//!   but measured 6× slower on sentences and 2× on words.
//!
//! Scripts written without spaces between words — Han (Chinese, and the kanji of Japanese),
//! Hiragana and Katakana, Thai, Lao, Khmer, Myanmar — have no word boundaries in UAX #29's rules
//! (a run of Thai is one "word", a Han character is one each). ICU4X's words are cut in them by
//! its models ([`WordSegmenter::new_auto`]: a dictionary for Chinese and Japanese, LSTM models for
//! the others), so a Chinese sentence's length is its length in words. That segmenter is taken
//! only for a text that holds a character of those scripts (`is_unspaced`): other text, and the
//! ASCII fast path, keep their speed and their words.
//!
//! ICU4X is the oracle of the ASCII path: [`split_sentences_icu`] and [`for_each_word_icu`] take
//! every boundary from ICU4X, ASCII or not, and the tests require the same output from both
//! paths on random strings over the bytes the rules treat specially (`ascii.rs`) and on every
//! document of the shipped corpora and Reuters-21578 (`tests/tokenise.rs`). What the fast
//! path saves is in docs/benchmarks.md.

mod ascii;
pub mod figures;
mod language;
mod sentence;
mod stopwords;
mod terms;

pub use language::language;
pub use sentence::{split_sentences, split_sentences_icu};
pub use stopwords::StopWords;
pub use terms::Terms;

use icu_segmenter::WordSegmenter;
use icu_segmenter::options::WordBreakInvariantOptions;

/// Normalise a word to a term: Unicode lowercase, and typographic apostrophes (U+2019, U+02BC)
/// made straight, so that `Don’t` and `don't` are the same term.
///
/// # Example
/// ```
/// assert_eq!(slst::text::normalize_term("Site’s"), "site's");
/// ```
pub fn normalize_term(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    normalize_into(word, &mut out);
    out
}

/// [`normalize_term`] into a reused buffer (cleared first).
fn normalize_into(word: &str, out: &mut String) {
    out.clear();
    if word.is_ascii() {
        out.push_str(word);
        out.make_ascii_lowercase();
        return;
    }
    for c in word.chars() {
        match c {
            '\u{2019}' | '\u{02BC}' => out.push('\''),
            c => out.extend(c.to_lowercase()),
        }
    }
}

/// Call `f` with every word of `text` (UAX #29 words that contain a letter or a digit),
/// normalised with [`normalize_term`], in order.
///
/// # Example
/// ```
/// let mut words = Vec::new();
/// slst::text::for_each_word("The U.S. economy grew 3.5 pct.", |w| words.push(w.to_string()));
/// assert_eq!(words, ["the", "u.s", "economy", "grew", "3.5", "pct"]);
/// ```
pub fn for_each_word(text: &str, mut f: impl FnMut(&str)) {
    for_each_word_span(text, |_, w| f(w));
}

/// [`for_each_word`] with each word's byte range in `text`.
///
/// # Example
/// ```
/// let mut spans = Vec::new();
/// slst::text::for_each_word_span("Oil, gas.", |r, w| spans.push((r, w.to_string())));
/// assert_eq!(spans, [(0..3, "oil".to_string()), (5..8, "gas".to_string())]);
/// ```
pub fn for_each_word_span(text: &str, f: impl FnMut(std::ops::Range<usize>, &str)) {
    for_each_word_span_in(text, &mut String::new(), f);
}

/// [`for_each_word_span`] with the buffer that words needing a copy are normalised in, so that
/// a caller walking many short texts (a document's sentences) allocates it once.
pub(crate) fn for_each_word_span_in(
    text: &str,
    buf: &mut String,
    mut f: impl FnMut(std::ops::Range<usize>, &str),
) {
    if !ascii::applies(text) {
        return for_each_word_icu_span(text, f);
    }
    // Most words are their own term: no copy.
    ascii::for_each_word_range(text.as_bytes(), |r, own_term| {
        if own_term {
            f(r.clone(), &text[r]);
        } else {
            normalize_into(&text[r.clone()], buf);
            f(r, buf);
        }
    });
}

/// [`for_each_word`] with the words found by ICU4X, ASCII or not: the oracle that the ASCII fast
/// path is tested against (`tests/tokenise.rs`). Same output, slower.
pub fn for_each_word_icu(text: &str, mut f: impl FnMut(&str)) {
    for_each_word_icu_span(text, |_, w| f(w));
}

/// Whether `c` is of a script written without spaces between words, which ICU4X's models cut
/// into words: Thai, Lao, Myanmar, Khmer, Han, Hiragana, Katakana (and their extensions).
fn is_unspaced(c: char) -> bool {
    let c = c as u32;
    c >= 0x0E00
        && matches!(c,
            0x0E00..=0x0EFF // Thai, Lao
            | 0x1000..=0x109F // Myanmar
            | 0x1780..=0x17FF | 0x19E0..=0x19FF // Khmer
            | 0x2E80..=0x2FDF | 0x3040..=0x31FF // CJK radicals, kana, bopomofo, kana extensions
            | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF // Han
            | 0xA9E0..=0xA9FF | 0xAA60..=0xAA7F // Myanmar extensions
            | 0xFF66..=0xFF9F // half-width Katakana
            | 0x1B000..=0x1B16F // kana supplement
            | 0x20000..=0x3134F // Han extensions
        )
}

/// [`for_each_word_icu`] with each word's byte range.
fn for_each_word_icu_span(text: &str, mut f: impl FnMut(std::ops::Range<usize>, &str)) {
    // Rules for every script, and the models (module docs) when the text holds a script written
    // without spaces: the segmenter with models measured 10 % slower on Cyrillic text.
    let options = WordBreakInvariantOptions::default();
    let segmenter = if text.chars().any(is_unspaced) {
        WordSegmenter::new_auto(options)
    } else {
        WordSegmenter::new_for_non_complex_scripts(options)
    };
    let mut buf = String::new();
    let mut breaks = segmenter.segment_str(text);
    let mut start = 0;
    while let Some(end) = breaks.next() {
        if end > start && breaks.is_word_like() {
            let word = &text[start..end];
            if word.chars().any(char::is_alphanumeric) {
                normalize_into(word, &mut buf);
                f(start..end, &buf);
            }
        }
        start = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unicode_segmentation::UnicodeSegmentation;

    /// Real text with hyphens, apostrophes, numbers, quotes and non-ASCII letters.
    const SAMPLES: &[&str] = &[
        include_str!("../../corpora/clough/orig_taskb.txt"),
        include_str!("../../corpora/bible/sample.trec"),
        "Naïve café-goers paid $3.50 (about €3) for 1,000 crêpes; O'Neill's U.S.-based co-op didn't.",
    ];

    #[test]
    fn scripts_written_without_spaces_are_cut_into_words() {
        let words = |text: &str| {
            let mut out = Vec::new();
            for_each_word(text, |w| out.push(w.to_string()));
            out
        };
        // Thai "every two weeks" (LSTM model), Japanese "hello, world" and Chinese "today we go
        // to Beijing" (dictionary), each among ASCII words.
        assert_eq!(
            words("ทุกสองสัปดาห์ 2 weeks"),
            ["ทุก", "สอง", "สัปดาห์", "2", "weeks"]
        );
        assert_eq!(words("こんにちは世界!"), ["こんにちは", "世界"]);
        assert_eq!(
            words("SL+ST: 我们今天去北京。"),
            ["sl", "st", "我们", "今天", "去", "北京"]
        );
    }

    #[test]
    fn words_equal_the_unicode_segmentation_oracle() {
        for text in SAMPLES {
            let mut ours = Vec::new();
            for_each_word(text, |w| ours.push(w.to_string()));
            let oracle: Vec<String> = text.unicode_words().map(normalize_term).collect();
            assert_eq!(ours, oracle);
        }
    }
}
