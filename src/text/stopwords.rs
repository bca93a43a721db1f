//! Stop words: the words removed before a sentence's length is counted.
//!
//! The list *defines* every sentence length and so every signature: two runs with different lists
//! give different results. Each list therefore carries an id that reports record.

use std::collections::HashSet;
use std::sync::Arc;

/// An in-memory hash (never persisted): foldhash is the fastest measured for short words.
type FastSet = HashSet<String, foldhash::fast::RandomState>;
use std::path::Path;

use crate::error::{Error, Result};

/// The built-in English list: NLTK's English stop-word list (179 words), shipped as data in
/// `src/text/data/en-nltk-179.txt`.
const ENGLISH_NLTK: &str = include_str!("data/en-nltk-179.txt");

/// A set of stop words with an id naming where it came from. Cheap to clone: the sets are
/// shared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StopWords {
    id: String,
    words: Arc<FastSet>,
    /// The words of up to [`PACKED_MAX`] bytes, packed ([`pack`]): looking up a packed word
    /// hashes one integer instead of a string, and every term is looked up.
    packed: Arc<HashSet<u128, foldhash::fast::RandomState>>,
    /// The longest word's byte length: a longer term cannot be a stop word.
    longest: usize,
}

/// The longest word that [`pack`] packs.
const PACKED_MAX: usize = 15;

/// A word of at most [`PACKED_MAX`] bytes as one integer: its bytes, then its length in the top
/// byte (so no two words pack alike, NUL bytes or not).
///
/// Equal to [`pack_naive`] (the tests check every length), but with two overlapping loads
/// instead of a copy of variable length, which was a call to `memcpy` per term.
#[inline]
fn pack(word: &str) -> u128 {
    let b = word.as_bytes();
    let n = b.len();
    let bytes = if n >= 8 {
        // The first eight bytes, then bytes 8..n: the top n − 8 bytes of the last eight.
        let lo = u64::from_le_bytes(b[..8].try_into().unwrap_or_default());
        let hi = u64::from_le_bytes(b[n - 8..].try_into().unwrap_or_default());
        u128::from(lo) | u128::from(hi.checked_shr(8 * (16 - n) as u32).unwrap_or(0)) << 64
    } else if n >= 4 {
        let lo = u32::from_le_bytes(b[..4].try_into().unwrap_or_default());
        let hi = u32::from_le_bytes(b[n - 4..].try_into().unwrap_or_default());
        u128::from(lo) | u128::from(hi.checked_shr(8 * (8 - n) as u32).unwrap_or(0)) << 32
    } else {
        b.iter()
            .rev()
            .fold(0u128, |acc, &c| acc << 8 | u128::from(c))
    };
    bytes | (n as u128) << 120
}

/// What [`pack`] computes, written plainly: the bytes, zero-padded, little-endian, and the length
/// in the top byte.
#[cfg(test)]
fn pack_naive(word: &str) -> u128 {
    let mut bytes = [0u8; 16];
    bytes[..word.len()].copy_from_slice(word.as_bytes());
    bytes[15] = word.len() as u8;
    u128::from_le_bytes(bytes)
}

impl StopWords {
    /// A list from its id and words (already normalised).
    fn from_words(id: &str, words: FastSet) -> Self {
        let packed = words
            .iter()
            .filter(|w| w.len() <= PACKED_MAX)
            .map(|w| pack(w))
            .collect();
        let longest = words.iter().map(String::len).max().unwrap_or(0);
        StopWords {
            id: id.to_string(),
            words: Arc::new(words),
            packed: Arc::new(packed),
            longest,
        }
    }
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
        Self::from_words("none", FastSet::default())
    }

    /// A built-in list by its name or id: `english` (or `en`, `en-nltk-179`) or `none`.
    pub fn builtin(name: &str) -> Option<Self> {
        match name.trim() {
            "english" | "en" | "en-nltk-179" => Some(Self::english()),
            "none" => Some(Self::none()),
            _ => None,
        }
    }

    /// A built-in list by its name (see [`StopWords::builtin`]), else the list in the file of
    /// that path ([`StopWords::from_file`]): what `--stopwords` and the `stopwords` setting take.
    ///
    /// # Errors
    /// The file cannot be read, or is not text.
    pub fn named(name: &str) -> Result<Self> {
        match Self::builtin(name) {
            Some(list) => Ok(list),
            None => Self::from_file(Path::new(name.trim())),
        }
    }

    /// A list given one word per line; blank lines and lines starting with `#` are ignored, words
    /// are lowercased. The id is `file:` followed by the path.
    ///
    /// # Errors
    /// The file cannot be read, or is not text.
    pub fn from_file(path: &Path) -> Result<Self> {
        let bytes = crate::document::read_bytes(path, crate::document::DEFAULT_MAX_BYTES)?;
        let (text, _) = crate::document::decode_text(&bytes).map_err(|e| Error::Binary {
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
        Self::from_words(id, words)
    }

    /// Whether `term` (already normalised: lowercase, straight apostrophes) is a stop word.
    pub fn contains(&self, term: &str) -> bool {
        if term.len() <= PACKED_MAX {
            self.packed.contains(&pack(term))
        } else {
            term.len() <= self.longest && self.words.contains(term)
        }
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

/// A list is written as its id (as reports record it). Only the built-in lists can be read back
/// from their ids; a list read from a file is stored with its words by whoever must keep it
/// (an index stores them beside its settings).
impl serde::Serialize for StopWords {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl<'de> serde::Deserialize<'de> for StopWords {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        let id = String::deserialize(deserializer)?;
        StopWords::builtin(&id).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "no built-in stop-word list {id:?} (english, en-nltk-179 or none)"
            ))
        })
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

    #[test]
    fn packing_equals_the_plain_definition_at_every_length() {
        let text = "abcdefghijklmnoABCDEFGHIJKLMNO0123456789'._";
        for start in 0..4 {
            for n in 0..=PACKED_MAX {
                let w = &text[start..start + n];
                assert_eq!(pack(w), pack_naive(w), "{w:?}");
            }
        }
    }

    #[test]
    fn short_and_long_words_are_found_and_prefixes_are_not() {
        let long = "a-very-long-stop-word-indeed";
        let s = StopWords::parse(
            "t",
            &format!("of\nfifteen-bytes-x\nsixteen-bytes-xy\n{long}\na\0"),
        );
        for w in ["of", "fifteen-bytes-x", "sixteen-bytes-xy", long, "a\0"] {
            assert!(s.contains(w), "{w:?}");
        }
        for w in [
            "o",
            "off",
            "a",
            "fifteen-bytes-",
            "sixteen-bytes-x",
            "a-very-long-stop-word",
        ] {
            assert!(!s.contains(w), "{w:?}");
        }
        let english = StopWords::english();
        assert!(english.contains("yourselves") && english.contains("shouldn't"));
        assert!(!english.contains("pagerank") && !english.contains(""));
    }
}
