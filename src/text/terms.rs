//! The canonical form of a text that the word-based baselines shingle (seed 000, seed 001):
//! lowercase, punctuation stripped, stop words removed.

use crate::text::{self, StopWords};

/// A text's terms in order, held as one string with the terms joined by single spaces.
///
/// This is the "canonical form" of seeds 000 and 001: the words of the text (UAX #29 words that
/// contain a letter or a digit, Unicode-lowercased, typographic apostrophes made straight; see
/// [`text::for_each_word`]) without the stop words. Keeping the terms in one string makes the text
/// of a run of terms — a shingle, "joined by single spaces" as seed 001 hashes it — a plain slice.
///
/// Seed 001 cuts words at white space and strips the characters `.,!?:;-()` from their ends;
/// UAX #29 gives the same terms on ordinary prose and also splits at quotation marks, slashes and
/// inner hyphens (`по-прежнему` → `по`, `прежнему`).
///
/// # Example
/// ```
/// use slst::text::Terms;
/// use slst::text::StopWords;
/// let t = Terms::new("A rose is a ROSE, is a rose.", &StopWords::parse("t", "is"));
/// assert_eq!(t.joined(), "a rose a rose a rose");
/// assert_eq!(t.len(), 6);
/// assert_eq!(t.window(1, 3), "rose a rose");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Terms {
    joined: String,
    /// One past the last byte of each term in `joined`.
    ends: Vec<usize>,
}

impl Terms {
    /// The terms of `text` with the words of `stopwords` removed.
    pub fn new(text: &str, stopwords: &StopWords) -> Self {
        let mut terms = Terms {
            joined: String::with_capacity(text.len() / 2),
            ends: Vec::with_capacity(text.len() / 6),
        };
        text::for_each_word(text, |word| {
            if !stopwords.contains(word) {
                terms.push(word);
            }
        });
        terms
    }

    /// Append one term.
    fn push(&mut self, term: &str) {
        if !self.ends.is_empty() {
            self.joined.push(' ');
        }
        self.joined.push_str(term);
        self.ends.push(self.joined.len());
    }

    /// Number of terms.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when the text has no term.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// All terms joined by single spaces: the canonical text.
    pub fn joined(&self) -> &str {
        &self.joined
    }

    /// First byte of term `i` in [`Terms::joined`].
    fn start(&self, i: usize) -> usize {
        if i == 0 { 0 } else { self.ends[i - 1] + 1 }
    }

    /// Term `i`.
    ///
    /// # Panics
    /// When `i >= self.len()`.
    pub fn term(&self, i: usize) -> &str {
        &self.joined[self.start(i)..self.ends[i]]
    }

    /// Terms `i..i + w` joined by single spaces.
    ///
    /// # Panics
    /// When `w == 0` or `i + w > self.len()`.
    pub fn window(&self, i: usize, w: usize) -> &str {
        assert!(w > 0, "a window holds at least one term");
        &self.joined[self.start(i)..self.ends[i + w - 1]]
    }

    /// The terms in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len()).map(|i| self.term(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punctuation_case_and_stop_words_go() {
        let t = Terms::new(
            "«Разум дан человеку для того, чтобы он разумно жил»",
            &StopWords::parse("t", "для\nон"),
        );
        assert_eq!(t.joined(), "разум дан человеку того чтобы разумно жил");
        assert_eq!(t.iter().count(), 7);
        assert_eq!(t.term(6), "жил");
    }

    #[test]
    fn empty_text_has_no_terms() {
        let t = Terms::new("  ... !!", &StopWords::none());
        assert!(t.is_empty());
        assert_eq!(t.joined(), "");
    }
}
