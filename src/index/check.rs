//! `check`: an index verified against itself — SQLite's integrity, every row's checksum, its
//! sketch and keys re-made from the stored text with the stored settings, and the inverted
//! table.

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use super::{
    Index, Row, checksum, distinct, encoding_from_name, fingerprint, keys_from_blob, postings,
    sentences_column,
};
use crate::document::Document;
use crate::error::Result;
use crate::method::{Detector, WithDetector, seed_index_keys};

/// Each row's problems and its distinct keys, from the index's detector.
struct CheckRows<'a> {
    rows: &'a [Row],
    batches: &'a HashSet<i64>,
    /// What a row's sketch is called in messages (`profile` for SL+ST, else `sketch`).
    what: &'static str,
}

impl WithDetector for CheckRows<'_> {
    type Output = Vec<(Vec<String>, Vec<u64>)>;

    fn with<D: Detector>(self, detector: &D) -> Self::Output {
        self.rows
            .par_iter()
            .map(|row| self.check_row(detector, row))
            .collect()
    }
}

impl CheckRows<'_> {
    fn check_row<D: Detector>(&self, detector: &D, row: &Row) -> (Vec<String>, Vec<u64>) {
        let mut p = Vec::new();
        let say = |what: String| format!("document {:?} (row {}): {what}", row.id, row.doc);
        if checksum(&row.id, &row.encoding, &row.text, &row.profile, &row.keys) != row.checksum {
            p.push(say(
                "checksum mismatch: the row was changed outside slst".into()
            ));
        }
        if !self.batches.contains(&row.batch) {
            p.push(say(format!("batch {} is not recorded", row.batch)));
        }
        let keys = keys_from_blob(&row.keys).unwrap_or_default();
        if !row.keys.len().is_multiple_of(8) {
            p.push(say("block keys are not whole 64-bit values".into()));
        }
        if fingerprint(&row.keys) != row.fingerprint {
            p.push(say("fingerprint does not match the block keys".into()));
        }
        match encoding_from_name(&row.encoding) {
            Some(encoding) => {
                let doc = Document::decoded(row.id.clone(), row.text.clone(), encoding);
                let fresh = detector.sketch(&doc);
                let expected = sentences_column(detector, &fresh, &keys);
                if row.sentences != expected as i64 {
                    p.push(say(format!(
                        "{} sentences recorded, {expected} expected from the stored text",
                        row.sentences,
                    )));
                }
                let what = self.what;
                match serde_json::from_str::<D::Sketch>(&row.profile) {
                    Ok(s) if s != fresh => p.push(say(format!(
                        "stored {what} differs from the {what} of the stored text"
                    ))),
                    Ok(_) => {}
                    Err(e) => p.push(say(format!("{what} cannot be read: {e}"))),
                }
                if seed_index_keys(detector, &fresh).unwrap_or_default() != keys {
                    p.push(say(
                        "stored keys differ from those of the stored text".into()
                    ));
                }
            }
            None => p.push(say(format!("unknown encoding {:?}", row.encoding))),
        }
        (p, distinct(&keys))
    }
}

impl Index {
    /// Verify the index: SQLite's own integrity check, every row's checksum, sketch (re-made
    /// from the stored text with the stored settings), keys and fingerprint, and the inverted
    /// table. Returns what is wrong (empty: all is well).
    ///
    /// # Errors
    /// SQLite fails to read.
    pub fn check(&self) -> Result<Vec<String>> {
        let mut problems = Vec::new();
        let integrity: Vec<String> = self.column("PRAGMA integrity_check")?;
        if integrity != ["ok"] {
            problems.extend(integrity.into_iter().map(|m| format!("sqlite: {m}")));
        }
        let rows = self.rows()?;
        let batches: HashSet<i64> = self
            .column("SELECT batch FROM batches")?
            .into_iter()
            .collect();
        let row_problems = self.detector.visit(CheckRows {
            rows: &rows,
            batches: &batches,
            what: if self.method == crate::method::Method::Slst {
                "profile"
            } else {
                "sketch"
            },
        });
        // (key, row) → the row's units.
        let mut expected: HashMap<(i64, i64), i64> = HashMap::new();
        for (row, (p, keys)) in rows.iter().zip(row_problems) {
            problems.extend(p);
            for k in keys {
                expected.insert((k as i64, row.doc), row.sentences);
            }
        }
        problems.extend(self.check_postings(&expected)?);
        Ok(problems)
    }

    /// One column of a query's rows.
    fn column<T: rusqlite::types::FromSql>(&self, sql: &str) -> Result<Vec<T>> {
        self.conn
            .prepare(sql)
            .map_err(self.err())?
            .query_map([], |r| r.get(0))
            .map_err(self.err())?
            .collect::<rusqlite::Result<_>>()
            .map_err(self.err())
    }

    /// Every document row.
    fn rows(&self) -> Result<Vec<Row>> {
        self.conn
            .prepare(
                "SELECT doc, id, batch, encoding, text, profile, keys, sentences, fingerprint, checksum FROM documents ORDER BY doc",
            )
            .map_err(self.err())?
            .query_map([], |r| {
                Ok(Row {
                    doc: r.get(0)?,
                    id: r.get(1)?,
                    batch: r.get(2)?,
                    encoding: r.get(3)?,
                    text: r.get(4)?,
                    profile: r.get(5)?,
                    keys: r.get(6)?,
                    sentences: r.get(7)?,
                    fingerprint: r.get(8)?,
                    checksum: r.get(9)?,
                })
            })
            .map_err(self.err())?
            .collect::<rusqlite::Result<_>>()
            .map_err(self.err())
    }

    /// The inverted table against the (key, row) pairs the rows' keys call for, each with the
    /// row's units.
    fn check_postings(&self, expected: &HashMap<(i64, i64), i64>) -> Result<Vec<String>> {
        let mut problems = Vec::new();
        let lists: Vec<(i64, Vec<u8>)> = self
            .conn
            .prepare("SELECT key, docs FROM postings")
            .map_err(self.err())?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(self.err())?
            .collect::<rusqlite::Result<_>>()
            .map_err(self.err())?;
        let (mut stray, mut units, mut present, mut damaged) = (0, 0, 0, 0);
        for (key, list) in &lists {
            let entries: Vec<(u32, u32)> = postings::entries(list).collect();
            let sorted = entries.windows(2).all(|w| w[0].0 < w[1].0);
            if list.is_empty() || !list.len().is_multiple_of(postings::ENTRY) || !sorted {
                damaged += 1;
            }
            for (doc, n) in entries {
                match expected.get(&(*key, i64::from(doc))) {
                    None => stray += 1,
                    Some(&m) => {
                        present += 1;
                        units += usize::from(m != i64::from(n));
                    }
                }
            }
        }
        let missing = expected.len().saturating_sub(present);
        let say = [
            (
                stray,
                "entries point to a document that lacks the key or does not exist",
            ),
            (missing, "(key, document) entries are missing"),
            (units, "entries record other units than their document's"),
            (damaged, "lists are empty, cut or out of document order"),
        ];
        for (n, what) in say {
            if n > 0 {
                problems.push(format!("postings: {n} {what}"));
            }
        }
        Ok(problems)
    }
}
