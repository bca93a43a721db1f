//! The sentence profile (SPEC §2): a document as a string of sentence lengths, with each
//! sentence's leading terms and byte span.

use std::ops::Range;

use serde::Serialize;

use crate::document::Document;
use crate::error::{Error, Result};
use crate::text::{self, StopWords};

/// The largest sentence length that has a base-36 symbol (`z`).
pub const MAX_SYMBOL_LENGTH: usize = 35;

/// Settings of the profile stage (SPEC §2).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ProfileConfig {
    /// Sentences with more terms than this are dropped (default 35, at most 35).
    pub max_length: usize,
    /// How many leading terms each sentence keeps for verification (default 2).
    pub leading_terms: usize,
    /// The words removed before counting (default: the built-in English list).
    pub stopwords: StopWords,
}

impl Default for ProfileConfig {
    fn default() -> Self {
        ProfileConfig {
            max_length: MAX_SYMBOL_LENGTH,
            leading_terms: 2,
            stopwords: StopWords::english(),
        }
    }
}

impl ProfileConfig {
    /// Check the settings.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] when `max_length` is not in 1..=35.
    pub fn validate(&self) -> Result<()> {
        if !(1..=MAX_SYMBOL_LENGTH).contains(&self.max_length) {
            return Err(Error::InvalidParameter {
                name: "profile.max_length",
                value: self.max_length.to_string(),
                expected: "a whole number from 1 to 35 (one base-36 symbol per sentence)",
            });
        }
        Ok(())
    }
}

/// The first terms of a sentence, compared during block verification (the paper's
/// "Kth-in-sentence" strategy with K = 1, 2). A sentence with fewer terms has empty strings in
/// the missing places, so every sentence of a profile has the same number of leading terms.
///
/// Stored compactly — the terms, each followed by U+001F (which no word contains), in one small
/// string that holds up to 24 bytes without a heap allocation — because a corpus run keeps one
/// per sentence of the corpus.
///
/// # Example
/// ```
/// use slst::profile::LeadingTerms;
/// let t = LeadingTerms::new(["stop", ""]);
/// assert_eq!(t.iter().collect::<Vec<_>>(), ["stop", ""]);
/// assert_eq!(t.len(), 2);
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LeadingTerms(compact_str::CompactString);

/// Ends each term inside [`LeadingTerms`].
const TERM_END: char = '\u{1F}';

impl LeadingTerms {
    /// Leading terms from the terms themselves.
    pub fn new<'a>(terms: impl IntoIterator<Item = &'a str>) -> Self {
        let mut s = compact_str::CompactString::default();
        for t in terms {
            s.push_str(t);
            s.push(TERM_END);
        }
        LeadingTerms(s)
    }

    /// The terms, in order (empty strings where the sentence had fewer terms).
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.split_terminator(TERM_END)
    }

    /// How many terms (K).
    pub fn len(&self) -> usize {
        self.0.matches(TERM_END).count()
    }

    /// True when K = 0.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The encoded form (each term followed by U+001F): equal encodings mean equal terms.
    pub fn encoded(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for LeadingTerms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for LeadingTerms {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> serde::Deserialize<'de> for LeadingTerms {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let terms = Vec::<String>::deserialize(deserializer)?;
        Ok(LeadingTerms::new(terms.iter().map(String::as_str)))
    }
}

/// One kept sentence of a profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct ProfiledSentence {
    /// First byte of the sentence in the document text.
    pub start: u32,
    /// One past the last byte of the sentence in the document text.
    pub end: u32,
    /// Number of terms (1..=35).
    pub length: u8,
    /// The leading terms.
    pub leading: LeadingTerms,
}

impl ProfiledSentence {
    /// The base-36 symbol of the length: `1`–`9`, then `a`–`z` for 10–35.
    pub fn symbol(&self) -> char {
        length_symbol(self.length as usize)
    }

    /// The byte span in the document text.
    pub fn span(&self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// The base-36 digit of a sentence length (1..=35).
///
/// # Panics
/// When `length` is 0 or above 35; profiles never hold such lengths.
///
/// # Example
/// ```
/// assert_eq!(slst::profile::length_symbol(9), '9');
/// assert_eq!(slst::profile::length_symbol(10), 'a');
/// assert_eq!(slst::profile::length_symbol(35), 'z');
/// ```
pub fn length_symbol(length: usize) -> char {
    assert!(
        (1..=MAX_SYMBOL_LENGTH).contains(&length),
        "sentence length {length} has no base-36 symbol"
    );
    char::from_digit(length as u32, 36).unwrap_or('?')
}

/// A document's sentence profile: the kept sentences in order, plus what was left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct SentenceProfile {
    /// The document id.
    pub id: String,
    /// The kept sentences (1 ≤ length ≤ max length), in text order.
    pub sentences: Vec<ProfiledSentence>,
    /// Sentences skipped because no term was left after stop-word removal.
    pub skipped_empty: usize,
    /// Sentences dropped because they had more terms than the maximum length.
    pub dropped_long: usize,
}

impl SentenceProfile {
    /// Build the profile of a document.
    ///
    /// # Example
    /// ```
    /// use slst::{Document, ProfileConfig, SentenceProfile};
    /// let doc = Document::new("d", "The cat sat on the mat. It was happy. Dogs bark loudly at night.");
    /// let p = SentenceProfile::new(&doc, &ProfileConfig::default());
    /// assert_eq!(p.length_string(), "314");
    /// assert_eq!(p.skipped_empty, 0);
    /// assert_eq!(p.sentences[0].leading.iter().next(), Some("cat"));
    /// ```
    pub fn new(doc: &Document, config: &ProfileConfig) -> Self {
        Self::from_text(&doc.id, &doc.text, config)
    }

    /// Build the profile of a text with the given id.
    ///
    /// # Panics
    /// When the text is 4 GiB or longer (spans are 32-bit; the readers refuse such documents).
    pub fn from_text(id: &str, text: &str, config: &ProfileConfig) -> Self {
        assert!(
            text.len() < u32::MAX as usize,
            "document {id} is 4 GiB or longer"
        );
        let mut profile = SentenceProfile {
            id: id.to_string(),
            sentences: Vec::new(),
            skipped_empty: 0,
            dropped_long: 0,
        };
        let k = config.leading_terms;
        let stopwords = config.stopwords.for_text(text);
        let mut leading: Vec<String> = vec![String::new(); k];
        for span in text::split_sentences(text) {
            let mut length = 0usize;
            leading.iter_mut().for_each(String::clear);
            text::for_each_word(&text[span.clone()], |word| {
                if !stopwords.contains(word) {
                    if length < k {
                        leading[length].push_str(word);
                    }
                    length += 1;
                }
            });
            if length == 0 {
                profile.skipped_empty += 1;
            } else if length > config.max_length {
                profile.dropped_long += 1;
            } else {
                profile.sentences.push(ProfiledSentence {
                    start: span.start as u32,
                    end: span.end as u32,
                    length: length as u8,
                    leading: LeadingTerms::new(leading.iter().map(String::as_str)),
                });
            }
        }
        profile
    }

    /// The length string: one base-36 symbol per kept sentence.
    pub fn length_string(&self) -> String {
        self.sentences
            .iter()
            .map(ProfiledSentence::symbol)
            .collect()
    }

    /// Number of kept sentences.
    pub fn len(&self) -> usize {
        self.sentences.len()
    }

    /// True when no sentence was kept.
    pub fn is_empty(&self) -> bool {
        self.sentences.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(text: &str) -> SentenceProfile {
        SentenceProfile::from_text("t", text, &ProfileConfig::default())
    }

    #[test]
    fn stop_word_only_sentence_is_skipped_as_empty() {
        let p = profile("It is what it is. Rain falls.");
        assert_eq!(p.skipped_empty, 1);
        assert_eq!(p.length_string(), "2");
    }

    #[test]
    fn thirty_five_terms_kept_thirty_six_dropped() {
        // Capitalised, so that the second sentence does not read as a continuation.
        let words = |n: usize| {
            (0..n)
                .map(|i| format!("W{i}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let p = profile(&format!("{}. {}.", words(35), words(36)));
        assert_eq!(p.length_string(), "z");
        assert_eq!(p.dropped_long, 1);
    }

    #[test]
    fn one_term_sentence_has_empty_second_leading_term() {
        let p = profile("Stop. Go there now.");
        assert_eq!(p.length_string(), "11");
        assert_eq!(
            p.sentences[0].leading.iter().collect::<Vec<_>>(),
            ["stop", ""]
        );
        assert_eq!(
            p.sentences[1].leading.iter().collect::<Vec<_>>(),
            ["go", ""]
        );
    }

    #[test]
    fn leading_terms_skip_stop_words_and_are_lowercase() {
        let p = profile("The PageRank of a page is high.");
        assert_eq!(
            p.sentences[0].leading.iter().collect::<Vec<_>>(),
            ["pagerank", "page"]
        );
        assert_eq!(p.sentences[0].length, 3);
    }

    #[test]
    fn lower_max_length_drops_more() {
        let cfg = ProfileConfig {
            max_length: 2,
            ..ProfileConfig::default()
        };
        let p = SentenceProfile::from_text("t", "Aa bb cc. Dd ee.", &cfg);
        assert_eq!((p.length_string().as_str(), p.dropped_long), ("2", 1));
    }

    #[test]
    fn profiles_round_trip_through_json() {
        let p = profile("Stop. The PageRank of a page is high.");
        let json = serde_json::to_string(&p).unwrap();
        assert!(json.contains(r#""leading":["stop",""]"#), "{json}");
        assert_eq!(serde_json::from_str::<SentenceProfile>(&json).unwrap(), p);
    }

    #[test]
    fn max_length_outside_base36_is_rejected() {
        let cfg = ProfileConfig {
            max_length: 36,
            ..ProfileConfig::default()
        };
        assert!(cfg.validate().is_err());
    }
}
