//! Text to sentences and terms (SPEC §2.1–2.3).
//!
//! - [`split_sentences`]: UAX #29 sentence boundaries (`unicode-segmentation`) on unwrapped
//!   paragraphs, plus repairs for the known failures on news text;
//! - [`for_each_word`]: UAX #29 words containing a letter or digit, normalised ([`normalize_term`]);
//! - [`StopWords`]: the list that turns words into terms.

mod sentence;
mod stopwords;

pub use sentence::split_sentences;
pub use stopwords::StopWords;

use unicode_segmentation::UnicodeSegmentation;

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
    let mut buf = String::new();
    for word in text.unicode_words() {
        normalize_into(word, &mut buf);
        f(&buf);
    }
}
