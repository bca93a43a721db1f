//! What was planted: the record of each variant with its edits, and the outputs written from
//! them (the corpus, the truth file and the edit log).

use std::io::{self, Write};

use serde::Serialize;

use super::config::EditKind;
use super::edit::{Substitution, WordOp};
use crate::document::Document;

/// One edit of a variant, as the log records it. Sentence indices are those of the original
/// (from 0), word indices those of the sentence (from 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum Edit {
    /// A sentence rewritten word by word.
    Rewrite {
        /// The sentence.
        sentence: usize,
        /// The sentence before.
        before: String,
        /// The sentence after.
        after: String,
        /// The word changes.
        words: Vec<WordOp>,
    },
    /// A sentence that was to be rewritten but has no word that may be edited.
    Unchanged {
        /// The sentence.
        sentence: usize,
    },
    /// A sentence deleted.
    Delete {
        /// The sentence.
        sentence: usize,
        /// Its text.
        text: String,
    },
    /// A sentence of another document inserted.
    Insert {
        /// The original sentence it was put before (n: at the end).
        before: usize,
        /// The document it came from.
        donor: String,
        /// Its index in that document.
        donor_sentence: usize,
        /// Its text.
        text: String,
    },
    /// Runs of sentences put in another order.
    Reorder {
        /// The runs, as [start, end) sentence ranges of the original.
        runs: Vec<[usize; 2]>,
        /// The variant's runs, as indices into `runs`.
        order: Vec<usize>,
    },
    /// A word replaced.
    Substitute(Substitution),
    /// A passage pasted into another document.
    Paste {
        /// The original's sentences pasted, [start, end).
        sentences: [usize; 2],
        /// The document pasted into (the variant is this document with the passage).
        host: String,
        /// The host's sentence that holds the passage.
        host_sentence: usize,
        /// The word of that sentence after which the passage stands.
        after_word: usize,
    },
    /// A figure written in another form of the same number.
    Figure {
        /// The sentence.
        sentence: usize,
        /// Its words before.
        before: String,
        /// Its words after.
        after: String,
    },
    /// Boilerplate put around the text.
    Boilerplate {
        /// The sentences before the text.
        header: Vec<String>,
        /// The sentences after the text.
        footer: Vec<String>,
    },
}

/// A planted near-duplicate: an original, its variant and what was done.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EditRecord {
    /// The variant's id: the original's id, `.` and the kind (made unique with `~2`, `~3`… if it
    /// is taken).
    pub id: String,
    /// The original's id.
    pub original: String,
    /// The kind of edit.
    pub kind: EditKind,
    /// The setting it was made with.
    pub setting: f64,
    /// How much of the original was touched (the truth file's amount; see the module docs).
    pub amount: f64,
    /// The original's sentences.
    pub sentences_before: usize,
    /// The variant's sentences, as the sentence splitter sees them.
    pub sentences_after: usize,
    /// The edits, in text order.
    pub edits: Vec<Edit>,
}

/// The result of [`synthesize`](super::synthesize).
#[derive(Debug, Clone, PartialEq)]
pub struct Synthetic {
    /// Originals and variants, each variant right after its original, originals in source order.
    pub documents: Vec<Document>,
    /// One record per variant, in the same order.
    pub records: Vec<EditRecord>,
    /// Ids met again after their first document; the later documents were left out.
    pub duplicate_ids: Vec<String>,
}

impl Synthetic {
    /// Write the corpus as TREC SGML.
    ///
    /// # Errors
    /// What the writer reports.
    pub fn write_corpus(&self, out: &mut dyn Write) -> io::Result<()> {
        crate::corpus::write_trec(out, &self.documents)
    }

    /// Write the truth file: a header line `id_a<TAB>id_b<TAB>kind<TAB>amount`, then one line per
    /// planted pair (original, variant, kind, amount with 4 decimals), as
    /// [`read_pairs`](crate::eval::truth::read_pairs) reads it with the kinds as positive labels.
    ///
    /// # Errors
    /// What the writer reports.
    pub fn write_truth(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "id_a\tid_b\tkind\tamount")?;
        for r in &self.records {
            writeln!(out, "{}\t{}\t{}\t{:.4}", r.original, r.id, r.kind, r.amount)?;
        }
        Ok(())
    }

    /// Write the edit log: one [`EditRecord`] as JSON per line.
    ///
    /// # Errors
    /// What the writer reports.
    pub fn write_log(&self, out: &mut dyn Write) -> io::Result<()> {
        for r in &self.records {
            serde_json::to_writer(&mut *out, r)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }
}
