//! How text becomes index terms: the analyzers `slst sample` has always used, token for token.
//!
//! Both analyzers reproduce tantivy 0.27's pipelines exactly, because the recorded manifests
//! (and their scores) were made with them:
//!
//! 1. tokens are maximal runs of characters for which [`char::is_alphanumeric`] holds
//!    (tantivy's `SimpleTokenizer`);
//! 2. a token of 40 bytes or more, measured before lowercasing, is dropped
//!    (`RemoveLongFilter::limit(40)`);
//! 3. lowercase, character by character with [`char::to_lowercase`] (`LowerCaser`: no special
//!    case for a final sigma);
//! 4. [`Analyzer::English`] only: the 33 English stop words of Lucene (tantivy's English list)
//!    are dropped, then the Snowball English stemmer is applied.
//!
//! The stemmer is `frostem`'s, the one tantivy 0.27 used (Snowball's current algorithms), not
//! `rust-stemmers` (an older Snowball, used elsewhere in slst): the two stem some words
//! differently ("interstate", "add", "international", "universal", …), enough to change the
//! terms of a fifth of the Reuters-21578 documents and so their scores.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How text becomes index terms (the same for documents and queries).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Analyzer {
    /// Runs of letters and digits, tokens of 40 bytes or more dropped, lowercase, Lucene's 33
    /// English stop words dropped, Snowball English stemmer: close to Terrier's default pipeline
    /// (stop words and Porter stemming) that built AP90-S.
    #[default]
    English,
    /// Runs of letters and digits, tokens of 40 bytes or more dropped, lowercase.
    Plain,
}

/// Tokens of this many bytes or more are dropped.
const MAX_TOKEN_BYTES: usize = 40;

/// Lucene's English stop words (tantivy's English list), sorted for binary search.
const ENGLISH_STOP_WORDS: [&str; 33] = [
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
    "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
    "they", "this", "to", "was", "will", "with",
];

impl Analyzer {
    /// The name used on the command line and in manifests.
    pub fn name(self) -> &'static str {
        match self {
            Analyzer::English => "english",
            Analyzer::Plain => "plain",
        }
    }

    /// What the analyzer does, in words, for the manifest.
    pub fn description(self) -> &'static str {
        match self {
            Analyzer::English => {
                "tantivy SimpleTokenizer (runs of alphanumeric characters) → RemoveLongFilter(40 bytes) → LowerCaser → StopWordFilter(English: Lucene's 33 words) → Stemmer(English, Snowball)"
            }
            Analyzer::Plain => {
                "tantivy SimpleTokenizer (runs of alphanumeric characters) → RemoveLongFilter(40 bytes) → LowerCaser"
            }
        }
    }

    /// Call `f` with each term of `text`, in order.
    pub(crate) fn for_each_term(self, text: &str, mut f: impl FnMut(&str)) {
        let stemmer = match self {
            Analyzer::English => Some(frostem::Stemmer::new(frostem::Algorithm::English)),
            Analyzer::Plain => None,
        };
        let mut lower = String::new();
        for token in tokens(text) {
            if token.len() >= MAX_TOKEN_BYTES {
                continue;
            }
            lower.clear();
            if token.is_ascii() {
                lower.push_str(token);
                lower.make_ascii_lowercase();
            } else {
                lower.extend(token.chars().flat_map(char::to_lowercase));
            }
            match &stemmer {
                None => f(&lower),
                Some(stemmer) => {
                    if ENGLISH_STOP_WORDS.binary_search(&lower.as_str()).is_err() {
                        f(&stemmer.stem(&lower));
                    }
                }
            }
        }
    }

    /// The distinct terms of `text` with their counts, in term order.
    pub(crate) fn term_counts(self, text: &str) -> BTreeMap<String, u32> {
        let mut counts = BTreeMap::new();
        self.for_each_term(text, |t| match counts.get_mut(t) {
            Some(n) => *n += 1,
            None => {
                counts.insert(t.to_string(), 1);
            }
        });
        counts
    }
}

/// The maximal runs of alphanumeric characters of `text`.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(analyzer: Analyzer, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        analyzer.for_each_term(text, |t| out.push(t.to_string()));
        out
    }

    #[test]
    fn stop_words_are_sorted() {
        assert!(ENGLISH_STOP_WORDS.is_sorted());
    }

    #[test]
    fn plain_splits_on_non_alphanumerics_and_lowercases() {
        assert_eq!(
            terms(
                Analyzer::Plain,
                "Hello, happy tax-payer! 3.5% ÄRGER ΣΊΣΥΦΟΣ"
            ),
            [
                "hello",
                "happy",
                "tax",
                "payer",
                "3",
                "5",
                "ärger",
                "σίσυφοσ"
            ]
        );
    }

    #[test]
    fn english_drops_stop_words_and_stems() {
        assert_eq!(
            terms(
                Analyzer::English,
                "The banks were raising THEIR rates, and it is rising"
            ),
            ["bank", "were", "rais", "rate", "rise"]
        );
    }

    #[test]
    fn long_tokens_are_dropped_by_their_length_before_lowercasing() {
        let t39 = "x".repeat(39);
        let t40 = "x".repeat(40);
        assert_eq!(
            terms(Analyzer::Plain, &format!("{t39} {t40} y")),
            [t39.as_str(), "y"]
        );
        // 'İ' is 2 bytes and lowercases to 3: the token is measured as written.
        let dotted = format!("{}İ", "a".repeat(37));
        assert_eq!(terms(Analyzer::Plain, &dotted).len(), 1);
        assert_eq!(terms(Analyzer::Plain, &dotted)[0].len(), 40);
    }

    #[test]
    fn term_counts_are_in_term_order() {
        let counts = Analyzer::Plain.term_counts("b a b c b");
        assert_eq!(
            counts.into_iter().collect::<Vec<_>>(),
            [("a".into(), 1), ("b".into(), 3), ("c".into(), 1)]
        );
    }
}
