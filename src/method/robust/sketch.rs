//! What robust SL+ST keeps of a document: its units (sentences, or clauses with
//! [`RobustConfig::clauses`](super::RobustConfig::clauses)) with their lengths, spans and term
//! sets.

use std::collections::HashMap;

use super::{RobustProfile, RobustSentence, RobustSlst};
use crate::document::Document;
use crate::text;

/// A term's 64-bit id: 255 minus its length in characters (at most 255) in the top byte, the
/// top 56 bits of its XXH3 hash below. Sorted ids put the longest terms first (ties by hash): the
/// order of the anchor rule ([`RobustConfig::anchor_terms`]), fixed without any corpus.
pub(crate) fn term_id(term: &str) -> u64 {
    let length = term.chars().count().min(255) as u64;
    ((255 - length) << 56) | (xxhash_rust::xxh3::xxh3_64(term.as_bytes()) >> 8)
}

/// Snowball English stems of words, remembered: a text repeats its vocabulary, and the stemmer
/// allocates on every call. In memory only, so its randomly seeded hasher is harmless.
pub(super) struct Stems {
    stemmer: rust_stemmers::Stemmer,
    seen: HashMap<String, String, foldhash::fast::RandomState>,
    buf: String,
}

impl Stems {
    fn new() -> Self {
        Stems {
            stemmer: rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English),
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

impl RobustSlst {
    /// The robust profile of a document.
    pub(super) fn profile_of(&self, doc: &Document) -> RobustProfile {
        let text = &doc.text;
        let mut profile = RobustProfile {
            id: doc.id.clone(),
            sentences: Vec::new(),
            skipped_empty: 0,
            dropped_long: 0,
            corpus: None,
        };
        let mut terms: Vec<u64> = Vec::new();
        let mut stemmer = self.config.stem.then(Stems::new);
        let units = text::split_sentences(text).into_iter().flat_map(|span| {
            let mut pieces = Vec::new();
            if self.config.clauses {
                let mut start = span.start;
                for (k, c) in text[span.clone()].char_indices() {
                    if c == ';' || c == ':' {
                        let end = span.start + k + 1;
                        pieces.push(start..end);
                        start = end;
                    }
                }
                pieces.push(start..span.end);
                // Trim the white space a cut leaves at a piece's start.
                for p in &mut pieces {
                    let trimmed = text[p.clone()].trim_start();
                    p.start = p.end - trimmed.len();
                }
                pieces.retain(|p| !p.is_empty());
            } else {
                pieces.push(span);
            }
            pieces
        });
        for span in units {
            terms.clear();
            text::for_each_word(&text[span.clone()], |word| {
                if !self.config.stopwords.contains(word) {
                    let term = match &mut stemmer {
                        Some(s) => s.stem(word),
                        None => word,
                    };
                    terms.push(term_id(term));
                }
            });
            let length = terms.len();
            if length == 0 {
                profile.skipped_empty += 1;
            } else if length > self.config.max_length {
                profile.dropped_long += 1;
            } else {
                terms.sort_unstable();
                terms.dedup();
                profile.sentences.push(RobustSentence {
                    start: span.start as u32,
                    end: span.end as u32,
                    length: length as u16,
                    terms: terms.as_slice().into(),
                });
            }
        }
        profile
    }
}
