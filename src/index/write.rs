//! Adding, replacing and removing documents.
//!
//! A batch is one transaction. Its documents are sketched in parallel, their rows written, and
//! the changes to the inverted table ([`Changes`]) collected and written at the batch's end, in
//! key order. A document replacing one with the same id takes over its row: only the keys that
//! differ between the two change in the inverted table, so re-adding documents unchanged (what
//! a user does after an interrupted add) rewrites their rows and nothing else.

use std::collections::HashMap;

use rayon::prelude::*;
use rusqlite::{OptionalExtension, Transaction, params};

use super::postings::Changes;
use super::{
    AddOptions, AddSummary, Index, checksum, distinct, encoding_name, fingerprint, keys_blob,
    keys_from_blob, sentences_column,
};
use crate::batch::{Progress, sketch_documents};
use crate::corpus::Item;
use crate::document::Document;
use crate::error::Result;
use crate::method::{Detector, WithDetector, seed_index_keys};

/// The rows of a batch of documents: each one's sketch as JSON, its index keys and its
/// `sentences` column.
struct Rows<'a>(&'a [Document]);

impl WithDetector for Rows<'_> {
    type Output = Vec<(String, Vec<u64>, usize)>;

    fn with<D: Detector>(self, detector: &D) -> Self::Output {
        sketch_documents(detector, self.0)
            .into_par_iter()
            .map(|sketch| {
                let keys = seed_index_keys(detector, &sketch).unwrap_or_default();
                let sentences = sentences_column(detector, &sketch, &keys);
                (
                    serde_json::to_string(&sketch).unwrap_or_default(),
                    keys,
                    sentences,
                )
            })
            .collect()
    }
}

/// An indexed row as a replacement or a removal needs it.
struct OldRow {
    doc: u32,
    keys: Vec<u64>,
    units: u32,
}

/// One document a batch writes: which of the batch's documents, and the row it replaces.
struct Write {
    at: usize,
    old: Option<OldRow>,
}

/// A row number as the inverted table holds it.
fn row_number(doc: i64) -> rusqlite::Result<u32> {
    u32::try_from(doc).map_err(|_| rusqlite::Error::IntegralValueOutOfRange(0, doc))
}

/// A row's units as the inverted table holds them.
fn units(sentences: usize) -> u32 {
    u32::try_from(sentences).unwrap_or(u32::MAX)
}

/// The row of an id, if indexed.
fn old_row(tx: &Transaction<'_>, id: &str) -> rusqlite::Result<Option<OldRow>> {
    let row: Option<(i64, Vec<u8>, i64)> = tx
        .prepare_cached("SELECT doc, keys, sentences FROM documents WHERE id = ?1")?
        .query_row([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?;
    row.map(|(doc, keys, sentences)| {
        Ok(OldRow {
            doc: row_number(doc)?,
            keys: distinct(&keys_from_blob(&keys).unwrap_or_default()),
            units: units(sentences.max(0) as usize),
        })
    })
    .transpose()
}

impl Index {
    /// Add documents, one transaction per `options.batch_size` of them; a document whose id is
    /// indexed replaces it (or is refused with `no_replace`). The sketching of each batch runs
    /// in parallel. `progress` advances by one per document written.
    ///
    /// # Errors
    /// SQLite fails (every batch committed before stays).
    pub fn add(
        &mut self,
        items: impl Iterator<Item = Item>,
        options: &AddOptions,
        progress: &dyn Progress,
    ) -> Result<AddSummary> {
        let size = options.batch_size.max(1);
        let mut summary = AddSummary::default();
        progress.stage("adding documents", None);
        let mut chunk: Vec<Document> = Vec::with_capacity(size.min(100_000));
        for item in items {
            match item {
                Item::Document(doc) => {
                    chunk.push(doc);
                    if chunk.len() == size {
                        self.add_batch(&chunk, options, &mut summary, progress)?;
                        chunk.clear();
                    }
                }
                Item::Skipped(s) => summary.skipped.push(s),
            }
        }
        if !chunk.is_empty() {
            self.add_batch(&chunk, options, &mut summary, progress)?;
        }
        progress.finish_stage();
        Ok(summary)
    }

    fn add_batch(
        &mut self,
        docs: &[Document],
        options: &AddOptions,
        summary: &mut AddSummary,
        progress: &dyn Progress,
    ) -> Result<()> {
        let sketches: Vec<(String, Vec<u64>, usize)> = self.detector.visit(Rows(docs));
        let path = self.path.clone();
        let err = Self::error(&path);
        let tx = self.conn.transaction().map_err(&err)?;
        tx.execute("INSERT INTO batches (documents) VALUES (0)", [])
            .map_err(&err)?;
        let batch = tx.last_insert_rowid();
        let (writes, superseded) = plan(&tx, docs, options, summary).map_err(&err)?;
        let written = writes.len() + superseded;
        write_rows(&tx, batch, docs, &sketches, writes).map_err(&err)?;
        tx.execute(
            "UPDATE batches SET documents = ?1 WHERE batch = ?2",
            params![written as i64, batch],
        )
        .map_err(&err)?;
        tx.commit().map_err(&err)?;
        summary.added += written;
        summary.batches += 1;
        progress.advance(docs.len() as u64);
        Ok(())
    }

    /// Remove documents by id, in one transaction. Returns the ids that were not indexed.
    ///
    /// # Errors
    /// SQLite fails (then nothing is removed).
    pub fn remove(&mut self, ids: &[String]) -> Result<Vec<String>> {
        let path = self.path.clone();
        let err = Self::error(&path);
        let tx = self.conn.transaction().map_err(&err)?;
        let mut missing = Vec::new();
        let mut changes = Changes::default();
        for id in ids {
            match old_row(&tx, id).map_err(&err)? {
                Some(old) => {
                    tx.execute("DELETE FROM documents WHERE doc = ?1", [old.doc])
                        .map_err(&err)?;
                    changes.remove(old.keys, old.doc);
                }
                None => missing.push(id.clone()),
            }
        }
        changes.apply(&tx, u32::MAX).map_err(&err)?;
        tx.commit().map_err(&err)?;
        Ok(missing)
    }
}

/// Which of a batch's documents are written, in order, each with the row it replaces; counts
/// the replaced and refused ones. An id given twice in the batch is written once, at its last
/// place, with its last text (with `no_replace`: its first, and the others refused); the
/// second value counts the documents a later one replaced within the batch.
fn plan(
    tx: &Transaction<'_>,
    docs: &[Document],
    options: &AddOptions,
    summary: &mut AddSummary,
) -> rusqlite::Result<(Vec<Write>, usize)> {
    let mut writes: Vec<Option<Write>> = Vec::with_capacity(docs.len());
    let mut earlier: HashMap<&str, usize> = HashMap::new();
    for (at, doc) in docs.iter().enumerate() {
        let old = match earlier.get(doc.id.as_str()) {
            Some(&w) if !options.no_replace => writes[w].take().and_then(|w| w.old),
            Some(_) => None,
            None => old_row(tx, &doc.id)?,
        };
        let again = earlier.contains_key(doc.id.as_str()) || old.is_some();
        if again && options.no_replace {
            summary.refused.push(doc.id.clone());
            continue;
        }
        summary.replaced += usize::from(again);
        earlier.insert(&doc.id, writes.len());
        writes.push(Some(Write { at, old }));
    }
    // A document a later one replaced within the batch counts as written, as if each had been
    // written in turn.
    let superseded = writes.iter().filter(|w| w.is_none()).count();
    Ok((writes.into_iter().flatten().collect(), superseded))
}

/// Write a batch's rows — a replacement over the row it replaces, a new document in a new row —
/// and the changes to the inverted table.
fn write_rows(
    tx: &Transaction<'_>,
    batch: i64,
    docs: &[Document],
    sketches: &[(String, Vec<u64>, usize)],
    writes: Vec<Write>,
) -> rusqlite::Result<()> {
    let mut insert = tx.prepare_cached(
        "INSERT INTO documents (id, batch, sentences, fingerprint, checksum, encoding, keys, profile, text)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    let mut update = tx.prepare_cached(
        "UPDATE documents SET batch = ?2, sentences = ?3, fingerprint = ?4, checksum = ?5,
         encoding = ?6, keys = ?7, profile = ?8, text = ?9 WHERE doc = ?1",
    )?;
    let first_new: u32 = row_number(tx.query_row(
        "SELECT coalesce(max(doc), 0) + 1 FROM documents",
        [],
        |r| r.get(0),
    )?)?;
    let mut changes = Changes::default();
    for Write { at, old } in writes {
        let (doc, (profile, keys, sentences)) = (&docs[at], &sketches[at]);
        let blob = keys_blob(keys);
        let encoding = encoding_name(doc.encoding);
        let sum = checksum(&doc.id, &encoding, &doc.text, profile, &blob);
        let n = units(*sentences);
        let columns = params![
            *sentences as i64,
            fingerprint(&blob),
            sum,
            encoding,
            blob,
            profile,
            doc.text
        ];
        let new_keys = distinct(keys);
        match old {
            Some(old) => {
                let mut values: Vec<&dyn rusqlite::ToSql> = vec![&old.doc, &batch];
                values.extend_from_slice(columns);
                update.execute(values.as_slice())?;
                replaced_keys(&mut changes, &old, &new_keys, n);
            }
            None => {
                let mut values: Vec<&dyn rusqlite::ToSql> = vec![&doc.id, &batch];
                values.extend_from_slice(columns);
                insert.execute(values.as_slice())?;
                changes.add(new_keys, row_number(tx.last_insert_rowid())?, n);
            }
        }
    }
    changes.apply(tx, first_new)
}

/// The changes to the inverted table when the row `old` takes `keys` (sorted, distinct) with
/// `units`: its entries leave the keys it no longer holds and join the new ones; those it keeps
/// change only when its units do.
fn replaced_keys(changes: &mut Changes, old: &OldRow, keys: &[u64], units: u32) {
    let (mut i, mut j) = (0, 0);
    let (mut gone, mut new, mut kept) = (Vec::new(), Vec::new(), Vec::new());
    while i < old.keys.len() || j < keys.len() {
        match (old.keys.get(i), keys.get(j)) {
            (Some(a), Some(b)) if a == b => (kept.push(*a), i += 1, j += 1),
            (Some(a), Some(b)) if a < b => (gone.push(*a), i += 1, ()),
            (Some(a), None) => (gone.push(*a), i += 1, ()),
            (_, Some(b)) => (new.push(*b), (), j += 1),
            (None, None) => unreachable!("the loop ends first"),
        };
    }
    changes.remove(gone, old.doc);
    changes.add(new, old.doc, units);
    if units != old.units {
        changes.add(kept, old.doc, units);
    }
}
