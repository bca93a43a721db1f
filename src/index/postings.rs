//! The inverted table: one row per key, its holders in one blob of 8-byte entries — the
//! document's row (`doc`, u32) and its units (the `sentences` column, u32), little-endian — in
//! increasing row order. A key's document frequency is its entries' count.
//!
//! One row per key rather than one per (key, document), and no table of frequencies beside it:
//! a batch writes each of its keys once, appending its entries to the key's list, and a query
//! reads a key's holders with the units its bound needs in one lookup (docs/search.md).

use rusqlite::{OptionalExtension, Transaction, params};

/// Bytes per entry.
pub(super) const ENTRY: usize = 8;

/// The entries of a list: (row, units).
pub(super) fn entries(blob: &[u8]) -> impl Iterator<Item = (u32, u32)> + '_ {
    blob.chunks_exact(ENTRY).map(|c| {
        let word = |i: usize| u32::from_le_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
        (word(0), word(4))
    })
}

fn push(blob: &mut Vec<u8>, doc: u32, units: u32) {
    blob.extend_from_slice(&doc.to_le_bytes());
    blob.extend_from_slice(&units.to_le_bytes());
}

/// A key's list as it should be after `changes` (sorted by row; `None`: remove the row's entry,
/// `Some(units)`: add it or set its units).
fn merged(old: &[u8], changes: &[(u32, Option<u32>)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(old.len() + changes.len() * ENTRY);
    let mut old = entries(old).peekable();
    let mut changes = changes.iter().peekable();
    loop {
        match (old.peek().copied(), changes.peek().copied()) {
            (Some((doc, units)), Some(&(d, _))) if doc < d => {
                push(&mut out, doc, units);
                old.next();
            }
            (Some((doc, _)), Some(&(d, u))) => {
                if doc == d {
                    old.next(); // replaced or removed
                }
                if let Some(u) = u {
                    push(&mut out, d, u);
                }
                changes.next();
            }
            (Some((doc, units)), None) => {
                push(&mut out, doc, units);
                old.next();
            }
            (None, Some(&(d, u))) => {
                if let Some(u) = u {
                    push(&mut out, d, u);
                }
                changes.next();
            }
            (None, None) => return out,
        }
    }
}

/// The changes a batch makes to the inverted table, written at its end in key order: B-tree
/// writes in key order touch each page once, where one document's keys (hashes) land all over
/// the tree.
#[derive(Default)]
pub(super) struct Changes {
    /// (key, row, units): `None` removes the row's entry.
    changes: Vec<(i64, u32, Option<u32>)>,
}

impl Changes {
    /// Add (or set the units of) `doc`'s entry in each of `keys`' lists.
    pub(super) fn add(&mut self, keys: impl IntoIterator<Item = u64>, doc: u32, units: u32) {
        self.changes
            .extend(keys.into_iter().map(|k| (k as i64, doc, Some(units))));
    }

    /// Remove `doc`'s entry from each of `keys`' lists.
    pub(super) fn remove(&mut self, keys: impl IntoIterator<Item = u64>, doc: u32) {
        self.changes
            .extend(keys.into_iter().map(|k| (k as i64, doc, None)));
    }

    /// Write the changes. A key whose changes only add rows from `first_new` on (rows written
    /// by this batch, numbered after every older one) gets them appended in SQL; any other is
    /// read, merged and written back (or deleted when it is left empty).
    pub(super) fn apply(mut self, tx: &Transaction<'_>, first_new: u32) -> rusqlite::Result<()> {
        self.changes.sort_unstable_by_key(|&(k, d, _)| (k, d));
        let mut appends = Appends::new(tx)?;
        let mut read = tx.prepare_cached("SELECT docs FROM postings WHERE key = ?1")?;
        let mut write =
            tx.prepare_cached("INSERT OR REPLACE INTO postings (key, docs) VALUES (?1, ?2)")?;
        let mut delete = tx.prepare_cached("DELETE FROM postings WHERE key = ?1")?;
        let mut run_changes: Vec<(u32, Option<u32>)> = Vec::new();
        for run in self.changes.chunk_by(|x, y| x.0 == y.0) {
            let key = run[0].0;
            if run.iter().all(|&(_, d, u)| d >= first_new && u.is_some()) {
                let entries = run.iter().map(|&(_, d, u)| (d, u.unwrap_or_default()));
                appends.push(key, entries)?;
                continue;
            }
            let old: Vec<u8> = read
                .query_row([key], |r| r.get(0))
                .optional()?
                .unwrap_or_default();
            run_changes.clear();
            run_changes.extend(run.iter().map(|&(_, d, u)| (d, u)));
            let new = merged(&old, &run_changes);
            if new.is_empty() {
                delete.execute([key])?;
            } else if new != old {
                write.execute(params![key, new])?;
            }
        }
        appends.flush()
    }
}

/// Keys appended to per statement: one statement's rows are written through one cursor, which
/// SQLite moves from one key to the next in key order rather than seeking each from the root,
/// and the statement's own overhead is paid once for them all.
const APPEND_ROWS: usize = 64;

/// The appends of [`Changes::apply`], written [`APPEND_ROWS`] keys at a time (in key order):
/// each key's entries go to the end of its list, or make a new list.
struct Appends<'t> {
    tx: &'t Transaction<'t>,
    /// The keys, and where each one's entries lie in `blobs`.
    rows: Vec<(i64, std::ops::Range<usize>)>,
    blobs: Vec<u8>,
    /// The statement for [`APPEND_ROWS`] keys.
    full: String,
}

/// The statement that appends `rows` keys' entries.
fn append_sql(rows: usize) -> String {
    let values = vec!["(?, ?)"; rows].join(", ");
    format!(
        "INSERT INTO postings (key, docs) VALUES {values} \
         ON CONFLICT(key) DO UPDATE SET docs = CAST(docs || excluded.docs AS BLOB)"
    )
}

impl<'t> Appends<'t> {
    fn new(tx: &'t Transaction<'t>) -> rusqlite::Result<Self> {
        Ok(Appends {
            tx,
            rows: Vec::with_capacity(APPEND_ROWS),
            blobs: Vec::new(),
            full: append_sql(APPEND_ROWS),
        })
    }

    /// Append `entries` (row, units; in row order) to `key`'s list.
    fn push(
        &mut self,
        key: i64,
        entries: impl Iterator<Item = (u32, u32)>,
    ) -> rusqlite::Result<()> {
        let start = self.blobs.len();
        for (doc, units) in entries {
            push(&mut self.blobs, doc, units);
        }
        self.rows.push((key, start..self.blobs.len()));
        if self.rows.len() == APPEND_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    /// Write the appends held.
    fn flush(&mut self) -> rusqlite::Result<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let mut statement = if self.rows.len() == APPEND_ROWS {
            self.tx.prepare_cached(&self.full)?
        } else {
            self.tx.prepare_cached(&append_sql(self.rows.len()))?
        };
        let blobs = &self.blobs;
        let values: Vec<(&i64, &[u8])> = self
            .rows
            .iter()
            .map(|(key, r)| (key, &blobs[r.clone()]))
            .collect();
        let params: Vec<&dyn rusqlite::ToSql> = values
            .iter()
            .flat_map(|(key, blob)| [*key as &dyn rusqlite::ToSql, blob as &dyn rusqlite::ToSql])
            .collect();
        statement.execute(params.as_slice())?;
        self.rows.clear();
        self.blobs.clear();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blob(e: &[(u32, u32)]) -> Vec<u8> {
        let mut b = Vec::new();
        for &(d, u) in e {
            push(&mut b, d, u);
        }
        b
    }

    #[test]
    fn merging_adds_replaces_and_removes_in_row_order() {
        let old = blob(&[(2, 5), (4, 1), (9, 3)]);
        let changes = [
            (1, Some(7)),
            (4, None),
            (5, Some(2)),
            (9, Some(8)),
            (12, Some(1)),
        ];
        let new: Vec<_> = entries(&merged(&old, &changes)).collect();
        assert_eq!(new, [(1, 7), (2, 5), (5, 2), (9, 8), (12, 1)]);
        assert!(merged(&blob(&[(3, 1)]), &[(3, None)]).is_empty());
        assert_eq!(merged(&old, &[(6, None)]), old);
        assert_eq!(
            entries(&merged(&[], &[(3, Some(1))])).collect::<Vec<_>>(),
            [(3, 1)]
        );
    }
}
