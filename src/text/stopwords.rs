//! Stop words: the words removed before a sentence's length is counted.
//!
//! The list *defines* every sentence length and so every signature: two runs with different lists
//! give different results. Each list therefore carries an id that reports record.

use std::collections::HashSet;

/// An in-memory hash (never persisted): foldhash is the fastest measured for short words.
type FastSet = HashSet<String, foldhash::fast::RandomState>;
use std::path::Path;

use crate::error::{Error, Result};

/// The built-in English list: NLTK's English stop-word list (179 words), shipped as data in
/// `src/text/data/en-nltk-179.txt`.
const ENGLISH_NLTK: &str = include_str!("data/en-nltk-179.txt");

/// A set of stop words with an id naming where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StopWords {
    id: String,
    words: FastSet,
}

impl StopWords {
    /// The built-in English list (id `en-nltk-179`).
    ///
    /// # Example
    /// ```
    /// let stop = slst::text::StopWords::english();
    /// assert!(stop.contains("the"));
    /// assert!(!stop.contains("pagerank"));
    /// ```
    pub fn english() -> Self {
        Self::parse("en-nltk-179", ENGLISH_NLTK)
    }

    /// No stop words at all (id `none`): every word is a term.
    pub fn none() -> Self {
        StopWords {
            id: "none".into(),
            words: FastSet::default(),
        }
    }

    /// A list given one word per line; blank lines and lines starting with `#` are ignored, words
    /// are lowercased. The id is `file:` followed by the path.
    ///
    /// # Errors
    /// The file cannot be read, or is not text.
    pub fn from_file(path: &Path) -> Result<Self> {
        let bytes = crate::corpus::read_bytes(path, crate::corpus::DEFAULT_MAX_BYTES)?;
        let (text, _) = crate::corpus::decode_text(&bytes).map_err(|e| Error::Binary {
            path: path.to_path_buf(),
            reason: e.0,
        })?;
        Ok(Self::parse(&format!("file:{}", path.display()), &text))
    }

    /// A list from text, one word per line (see [`StopWords::from_file`]).
    pub fn parse(id: &str, text: &str) -> Self {
        let words = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(super::normalize_term)
            .collect();
        StopWords {
            id: id.to_string(),
            words,
        }
    }

    /// Whether `term` (already normalised: lowercase, straight apostrophes) is a stop word.
    pub fn contains(&self, term: &str) -> bool {
        self.words.contains(term)
    }

    /// The list's id, recorded in reports.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The words, sorted (an index stores them, so that a list read from a file is kept).
    pub fn words(&self) -> Vec<&str> {
        let mut words: Vec<&str> = self.words.iter().map(String::as_str).collect();
        words.sort_unstable();
        words
    }

    /// How many words the list holds.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// True for the empty list.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

impl Default for StopWords {
    fn default() -> Self {
        Self::english()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_list_has_179_words() {
        assert_eq!(StopWords::english().len(), 179);
    }

    #[test]
    fn parsed_list_ignores_comments_and_case() {
        let s = StopWords::parse("t", "# comment\nThe\n\n  of \nDon’t\n");
        assert_eq!(s.len(), 3);
        assert!(s.contains("the") && s.contains("of") && s.contains("don't"));
        assert_eq!(s.id(), "t");
    }
}
