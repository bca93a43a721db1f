//! The record of `slst profile`: a document's sentence profile.

use serde::Serialize;

use super::opening;
use crate::document::{Document, Encoding};
use crate::profile::SentenceProfile;

/// One kept sentence in a profile record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SentenceRecord {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// Number of terms.
    pub length: u8,
    /// The base-36 symbol of the length.
    pub symbol: char,
    /// The leading terms (empty strings where the sentence has fewer terms).
    pub leading: Vec<String>,
}

/// The JSON record of `slst profile`: `{"id","length_string","sentences":[…],…}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProfileRecord {
    /// The document id.
    pub id: String,
    /// One base-36 symbol per kept sentence.
    pub length_string: String,
    /// The kept sentences.
    pub sentences: Vec<SentenceRecord>,
    /// Sentences skipped as empty.
    pub skipped_empty: usize,
    /// Sentences dropped as too long.
    pub dropped_long: usize,
    /// How the text was decoded.
    pub encoding: Encoding,
    /// The stop-word list's id.
    pub stopwords: String,
}

impl ProfileRecord {
    /// The record of a profile.
    pub fn new(doc: &Document, profile: &SentenceProfile, stopwords_id: &str) -> Self {
        ProfileRecord {
            id: profile.id.clone(),
            length_string: profile.length_string(),
            sentences: profile
                .sentences
                .iter()
                .map(|s| SentenceRecord {
                    start: s.start,
                    end: s.end,
                    length: s.length,
                    symbol: s.symbol(),
                    leading: s.leading.iter().map(|t| t.to_string()).collect(),
                })
                .collect(),
            skipped_empty: profile.skipped_empty,
            dropped_long: profile.dropped_long,
            encoding: doc.encoding,
            stopwords: stopwords_id.to_string(),
        }
    }

    /// The human-readable report: one line per kept sentence, then the length string.
    pub fn to_text(&self, doc: &Document) -> String {
        let mut out = format!(
            "{}\n{} sentences kept, {} skipped as empty, {} dropped as too long; stop words: {}\n\n",
            self.id,
            self.sentences.len(),
            self.skipped_empty,
            self.dropped_long,
            self.stopwords
        );
        out.push_str("   #  bytes          len sym  leading terms         opening\n");
        for (k, s) in self.sentences.iter().enumerate() {
            let span = format!("{}..{}", s.start, s.end);
            let leading = s
                .leading
                .iter()
                .map(|t| if t.is_empty() { "-" } else { t.as_str() })
                .collect::<Vec<_>>()
                .join(" ");
            out.push_str(&format!(
                "{k:>4}  {span:<14} {:>3}  {}   {leading:<20}  {}\n",
                s.length,
                s.symbol,
                opening(&doc.text[s.start as usize..s.end as usize])
            ));
        }
        out.push_str(&format!("\nlength string: {}\n", self.length_string));
        out
    }
}
