//! Search mode: a persistent, incremental near-duplicate index (the thesis' "search problem":
//! one query document against a stored collection, no rebuild).
//!
//! An index is one SQLite database (WAL journal), inspectable with the `sqlite3` shell:
//!
//! | table | holds |
//! |---|---|
//! | `meta` | `format_version`, `method` and its settings (JSON), fixed at creation |
//! | `batches` | one row per committed batch of added documents |
//! | `documents` | id, text, encoding, the method's sketch (JSON; for SL+ST the [`SentenceProfile`](crate::SentenceProfile)), keys, a checksum |
//! | `postings` | key → document, one row per distinct key of a document (primary key `(key, doc)`) |
//! | `keys` | key → how many documents hold it (document frequency) |
//!
//! Documents are added in batches ([`AddOptions::batch_size`], 1,000 by default), one
//! transaction each: a killed `add` leaves every committed batch whole and nothing of the
//! interrupted one. Readers keep working while another process writes (WAL).
//!
//! The index is generic over the method ([`Detector`]): a row stores the method's sketch and its
//! [`Detector::index_keys`] (SL+ST: one block key per sentence; robust SL+ST: its join keys; shingles: the kept fingerprints;
//! megashingles: the megashingles by position). A query ([`Index::query`]) sketches the query
//! document with the stored settings, finds candidates by shared keys, bounds each candidate's
//! scores ([`Detector::may_be_reported`]) and verifies the rest with the very same
//! [`Detector::compare`] as `slst compare`: the answer equals comparing the query with every
//! indexed document. The candidate step is exact:
//! - a kept document shares at least t of the query's keys as a multiset
//!   ([`Detector::index_keys_needed`]; SL+ST at J ≥ θ: t = max(`min_block`, ⌊θ·|q|⌋), since
//!   J ≤ m / |q|), so it shares one of the query's |q| − t + 1 *rarest* key occurrences (prefix
//!   filtering), and only those keys are looked up;
//! - documents with the very same keys (for SL+ST, identical profiles: one block whatever their
//!   length) are found by a fingerprint of the whole key string;
//! - for robust SL+ST, every key of the query is looked up, and a document is compared only when
//!   the query's units witnessed by its keys ([`WitnessJoin::witness_keys`]) could satisfy the
//!   rule against its units (stored in `sentences`; [`WitnessJoin::may_keep_matched`]), the
//!   bound of the corpus join.
//!
//! [`WitnessJoin::witness_keys`]: crate::method::WitnessJoin::witness_keys
//! [`WitnessJoin::may_keep_matched`]: crate::method::WitnessJoin::may_keep_matched

mod check;
mod query;
mod settings;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rayon::prelude::*;
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use serde::Serialize;

pub use self::query::{Hit, QueryResult};
use crate::batch::{Progress, sketch_documents};
use crate::corpus::{Item, Skipped};
use crate::document::{Document, Encoding};
use crate::error::{Error, Result};
use crate::method::{
    Detector, Method, MethodDetector, MethodSettings, PairRule, SlstConfig, WithDetector,
};

/// The storage format this build writes and the newest it reads.
pub const FORMAT_VERSION: i64 = 1;

/// Documents per transaction when adding, unless told otherwise.
pub const DEFAULT_BATCH_SIZE: usize = 1000;

/// `PRAGMA application_id` of an slst index: "SLST" in ASCII.
const APPLICATION_ID: i64 = 0x534C_5354;

const SCHEMA: &str = "
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE batches (
    batch INTEGER PRIMARY KEY,
    documents INTEGER NOT NULL,
    committed_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE documents (
    doc INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    batch INTEGER NOT NULL REFERENCES batches(batch),
    encoding TEXT NOT NULL,
    text TEXT NOT NULL,
    profile TEXT NOT NULL,
    keys BLOB NOT NULL,
    sentences INTEGER NOT NULL,
    fingerprint INTEGER NOT NULL,
    checksum INTEGER NOT NULL
);
CREATE INDEX documents_by_fingerprint ON documents(fingerprint);
CREATE TABLE postings (
    key INTEGER NOT NULL,
    doc INTEGER NOT NULL REFERENCES documents(doc),
    PRIMARY KEY (key, doc)
) WITHOUT ROWID;
CREATE TABLE keys (key INTEGER PRIMARY KEY, df INTEGER NOT NULL);
";

/// How documents are added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddOptions {
    /// Documents per transaction (at least 1).
    pub batch_size: usize,
    /// Refuse (skip and report) a document whose id is already indexed instead of replacing it.
    pub no_replace: bool,
}

impl Default for AddOptions {
    fn default() -> Self {
        AddOptions {
            batch_size: DEFAULT_BATCH_SIZE,
            no_replace: false,
        }
    }
}

/// What an add did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct AddSummary {
    /// Documents written (new or replacing).
    pub added: usize,
    /// Of those, documents that replaced one with the same id.
    pub replaced: usize,
    /// Ids refused because they were indexed already (`no_replace`).
    pub refused: Vec<String>,
    /// Documents and files that could not be read.
    pub skipped: Vec<Skipped>,
    /// Transactions committed.
    pub batches: usize,
}

/// How a query decides what to report.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct QueryOptions {
    /// The threshold θ of the method's decision (default: the index's own).
    pub threshold: Option<f64>,
    /// Report documents where either containment is at least this, instead of the method's
    /// decision.
    pub containment: Option<f64>,
    /// Keep only the best k hits.
    pub top: Option<usize>,
}

impl QueryOptions {
    /// The rule a hit must meet.
    pub fn rule(&self) -> PairRule {
        match self.containment {
            Some(theta) => PairRule::Contained(theta),
            None => PairRule::Duplicates,
        }
    }
}

/// What `slst index stats` shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IndexStats {
    /// The storage format version.
    pub format_version: i64,
    /// The method.
    pub method: String,
    /// Documents.
    pub documents: u64,
    /// Kept sentences over all documents (SL+ST; for the other methods, the stored keys).
    pub sentences: u64,
    /// Distinct block keys.
    pub keys: u64,
    /// Rows of the inverted table (distinct keys per document, summed).
    pub postings: u64,
    /// Committed batches.
    pub batches: u64,
    /// Bytes on disk: the database and its WAL and shared-memory files.
    pub bytes_on_disk: u64,
}

/// A persistent near-duplicate index (see the module docs).
#[derive(Debug)]
pub struct Index {
    conn: Connection,
    path: PathBuf,
    method: Method,
    settings: MethodSettings,
    detector: MethodDetector,
}

/// One stored document row, as read back.
struct Row {
    doc: i64,
    id: String,
    batch: i64,
    encoding: String,
    text: String,
    profile: String,
    keys: Vec<u8>,
    sentences: i64,
    fingerprint: i64,
    checksum: i64,
}

fn keys_blob(keys: &[u64]) -> Vec<u8> {
    keys.iter().flat_map(|k| k.to_le_bytes()).collect()
}

fn keys_from_blob(blob: &[u8]) -> Option<Vec<u64>> {
    if !blob.len().is_multiple_of(8) {
        return None;
    }
    Some(
        blob.chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
            .collect(),
    )
}

/// The fingerprint of a whole key string (equal profiles ⇒ equal fingerprints).
fn fingerprint(blob: &[u8]) -> i64 {
    xxhash_rust::xxh3::xxh3_64(blob) as i64
}

/// The checksum of a row's content, so that `check` can tell a damaged row.
fn checksum(id: &str, encoding: &str, text: &str, profile: &str, keys: &[u8]) -> i64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for part in [
        id.as_bytes(),
        encoding.as_bytes(),
        text.as_bytes(),
        profile.as_bytes(),
        keys,
    ] {
        h.update(&(part.len() as u64).to_le_bytes());
        h.update(part);
    }
    h.digest() as i64
}

/// An encoding's name as stored (its serialised form: `utf8`, `windows1252`, …).
fn encoding_name(e: Encoding) -> String {
    serde_json::to_string(&e)
        .map(|s| s.trim_matches('"').to_string())
        .unwrap_or_default()
}

/// An encoding from its stored name.
fn encoding_from_name(name: &str) -> Option<Encoding> {
    use serde::Deserialize;
    use serde::de::IntoDeserializer;
    let de: serde::de::value::StrDeserializer<'_, serde::de::value::Error> =
        name.into_deserializer();
    Encoding::deserialize(de).ok()
}

fn distinct(keys: &[u64]) -> Vec<u64> {
    let mut d = keys.to_vec();
    d.sort_unstable();
    d.dedup();
    d
}
/// What the `sentences` column holds for a sketch and its index keys: for a method with a
/// witness join (robust SL+ST, [`Detector::external_join`]), its units, which a query's witness
/// bound needs without loading the sketch; for the others, the number of keys (SL+ST's paper
/// mode: one per sentence).
fn sentences_column<D: Detector>(detector: &D, sketch: &D::Sketch, keys: &[u64]) -> usize {
    match detector.external_join() {
        Some(_) => detector
            .sentence_counts(sketch)
            .map_or(keys.len(), |c| c.sentences),
        None => keys.len(),
    }
}

/// The rows of a batch of documents: each one's sketch as JSON, its index keys and its
/// `sentences` column.
struct Rows<'a>(&'a [Document]);

impl WithDetector for Rows<'_> {
    type Output = Vec<(String, Vec<u64>, usize)>;

    fn with<D: Detector>(self, detector: &D) -> Self::Output {
        sketch_documents(detector, self.0)
            .into_par_iter()
            .map(|sketch| {
                let keys = detector.index_keys(&sketch).unwrap_or_default();
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

impl Index {
    fn error(path: &Path) -> impl Fn(rusqlite::Error) -> Error + '_ {
        move |e| Error::Database {
            path: path.to_path_buf(),
            detail: e.to_string(),
        }
    }

    fn err(&self) -> impl Fn(rusqlite::Error) -> Error + '_ {
        Self::error(&self.path)
    }

    fn configure(conn: &Connection, path: &Path) -> Result<()> {
        conn.busy_timeout(Duration::from_secs(60))
            .map_err(Self::error(path))?;
        // WAL: readers never block the writer nor it them; synchronous=NORMAL keeps every
        // committed transaction across a killed process (only a power loss can drop the last).
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(Self::error(path))?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(Self::error(path))?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(Self::error(path))?;
        Ok(())
    }

    /// Create a new, empty index at `path` with the given SL+ST settings.
    ///
    /// # Errors
    /// The file exists already, the settings are out of range, or SQLite fails.
    pub fn create(path: &Path, config: SlstConfig) -> Result<Index> {
        let settings = MethodSettings {
            slst: config,
            ..MethodSettings::default()
        };
        Self::create_with(path, Method::Slst, settings)
    }

    /// Create a new, empty index at `path` for `method` with its settings in `settings` (the
    /// methods an index holds: SL+ST in paper mode, shingles, megashingles).
    ///
    /// # Errors
    /// The file exists already, a method an index cannot hold, a setting out of range, or
    /// SQLite fails.
    pub fn create_with(path: &Path, method: Method, settings: MethodSettings) -> Result<Index> {
        let detector = settings.detector(method)?;
        let stored = settings::to_json(&detector)?;
        if path.exists() {
            return Err(Error::Database {
                path: path.to_path_buf(),
                detail: "exists already; an index is created in a new file".into(),
            });
        }
        let err = Self::error(path);
        let mut conn = Connection::open(path).map_err(&err)?;
        Self::configure(&conn, path)?;
        let tx = conn.transaction().map_err(&err)?;
        tx.pragma_update(None, "application_id", APPLICATION_ID)
            .map_err(&err)?;
        tx.execute_batch(SCHEMA).map_err(&err)?;
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('format_version', ?1), ('method', ?2), ('settings', ?3)",
            params![FORMAT_VERSION.to_string(), method.name(), stored],
        )
        .map_err(&err)?;
        tx.commit().map_err(&err)?;
        Ok(Index {
            conn,
            path: path.to_path_buf(),
            method,
            settings,
            detector,
        })
    }

    /// Open an existing index, refusing one of a newer format version.
    ///
    /// # Errors
    /// No such file, not an slst index, a newer format ([`Error::IndexVersion`]), or SQLite fails.
    pub fn open(path: &Path) -> Result<Index> {
        let err = Self::error(path);
        if !path.is_file() {
            return Err(Error::NoIndex {
                path: path.to_path_buf(),
            });
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(&err)?;
        Self::configure(&conn, path)?;
        let not_index = || Error::Database {
            path: path.to_path_buf(),
            detail: "not an slst index (no format version in a meta table)".into(),
        };
        let app: i64 = conn
            .pragma_query_value(None, "application_id", |r| r.get(0))
            .map_err(&err)?;
        if app != APPLICATION_ID {
            return Err(not_index());
        }
        let meta = |key: &str| -> Result<Option<String>> {
            conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
                .optional()
                .map_err(|_| not_index())
        };
        let version: i64 = meta("format_version")?
            .and_then(|v| v.parse().ok())
            .ok_or_else(not_index)?;
        if version > FORMAT_VERSION {
            return Err(Error::IndexVersion {
                path: path.to_path_buf(),
                found: version,
                supported: FORMAT_VERSION,
            });
        }
        let name = meta("method")?;
        let stored = match name.as_deref() {
            None => Some(Method::Slst), // the first indexes named no method
            Some(name) => Method::from_name(name).filter(|m| settings::INDEXED.contains(m)),
        };
        let Some(stored) = stored else {
            return Err(Error::Database {
                path: path.to_path_buf(),
                detail: format!(
                    "method {} is not supported by this build",
                    name.unwrap_or_default()
                ),
            });
        };
        let (method, settings) = match meta("settings")? {
            Some(json) => settings::from_json(stored, &json)?,
            None => None,
        }
        .ok_or_else(|| Error::Database {
            path: path.to_path_buf(),
            detail: "the stored settings cannot be read".into(),
        })?;
        let detector = settings.detector(method)?;
        Ok(Index {
            conn,
            path: path.to_path_buf(),
            method,
            settings,
            detector,
        })
    }

    /// The index file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The method the index holds.
    pub fn method(&self) -> Method {
        self.method
    }

    /// The detector of the stored method with the stored settings.
    pub fn detector(&self) -> &MethodDetector {
        &self.detector
    }

    /// The stored settings (of the index's method; the others are their defaults).
    pub fn settings(&self) -> &MethodSettings {
        &self.settings
    }

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
        let mut written = 0usize;
        {
            let mut find = tx
                .prepare_cached("SELECT doc, keys FROM documents WHERE id = ?1")
                .map_err(&err)?;
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO documents (id, batch, encoding, text, profile, keys, sentences, fingerprint, checksum)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                )
                .map_err(&err)?;
            let mut posting = tx
                .prepare_cached("INSERT INTO postings (key, doc) VALUES (?1, ?2)")
                .map_err(&err)?;
            let mut df_up = tx
                .prepare_cached(
                    "INSERT INTO keys (key, df) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET df = df + ?2",
                )
                .map_err(&err)?;
            // The batch's postings are written at its end, in key order, and each key's
            // document frequency raised once by its count in the batch: B-tree inserts in key
            // order touch each page once, where one document's keys (hashes) land all over the
            // tree. A replacement writes what is pending first, so that the document it
            // replaces is whole in the tables even when it came earlier in this batch.
            let mut pending: Vec<(i64, i64)> = Vec::new();
            let mut flush = |pending: &mut Vec<(i64, i64)>| -> rusqlite::Result<()> {
                pending.sort_unstable();
                for &(key, row) in pending.iter() {
                    posting.execute(params![key, row])?;
                }
                for run in pending.chunk_by(|x, y| x.0 == y.0) {
                    df_up.execute(params![run[0].0, run.len() as i64])?;
                }
                pending.clear();
                Ok(())
            };
            for (doc, (profile, keys, sentences)) in docs.iter().zip(&sketches) {
                let old: Option<(i64, Vec<u8>)> = find
                    .query_row([&doc.id], |r| Ok((r.get(0)?, r.get(1)?)))
                    .optional()
                    .map_err(&err)?;
                if let Some((old_doc, old_keys)) = old {
                    if options.no_replace {
                        summary.refused.push(doc.id.clone());
                        continue;
                    }
                    flush(&mut pending).map_err(&err)?;
                    remove_row(&tx, old_doc, &old_keys).map_err(&err)?;
                    summary.replaced += 1;
                }
                let blob = keys_blob(keys);
                let encoding = encoding_name(doc.encoding);
                let sum = checksum(&doc.id, &encoding, &doc.text, profile, &blob);
                insert
                    .execute(params![
                        doc.id,
                        batch,
                        encoding,
                        doc.text,
                        profile,
                        blob,
                        *sentences as i64,
                        fingerprint(&blob),
                        sum
                    ])
                    .map_err(&err)?;
                let row = tx.last_insert_rowid();
                pending.extend(distinct(keys).into_iter().map(|key| (key as i64, row)));
                written += 1;
            }
            flush(&mut pending).map_err(&err)?;
        }
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
        for id in ids {
            let row: Option<(i64, Vec<u8>)> = tx
                .query_row("SELECT doc, keys FROM documents WHERE id = ?1", [id], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })
                .optional()
                .map_err(&err)?;
            match row {
                Some((doc, keys)) => remove_row(&tx, doc, &keys).map_err(&err)?,
                None => missing.push(id.clone()),
            }
        }
        tx.commit().map_err(&err)?;
        Ok(missing)
    }

    /// The indexed ids, in the order they were written.
    ///
    /// # Errors
    /// SQLite fails.
    pub fn ids(&self) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id FROM documents ORDER BY doc")
            .map_err(self.err())?;
        let ids = stmt
            .query_map([], |r| r.get(0))
            .map_err(self.err())?
            .collect::<rusqlite::Result<Vec<String>>>()
            .map_err(self.err())?;
        Ok(ids)
    }

    /// An indexed document and its stored sketch, read as `D`'s sketch (`detector` must be
    /// the index's own: [`Index::detector`]).
    ///
    /// # Errors
    /// SQLite fails, the row is damaged, or `detector` is of another method.
    pub fn document<D: Detector>(
        &self,
        detector: &D,
        id: &str,
    ) -> Result<Option<(Document, D::Sketch)>> {
        self.check_detector(detector)?;
        match self.row_of(id)? {
            Some(doc) => self.load(doc).map(Some),
            None => Ok(None),
        }
    }

    /// An indexed document and its stored sketch as JSON (any method).
    ///
    /// # Errors
    /// SQLite fails or the row is damaged.
    pub fn stored(&self, id: &str) -> Result<Option<(Document, String)>> {
        match self.row_of(id)? {
            Some(doc) => self.load_raw(doc).map(Some),
            None => Ok(None),
        }
    }

    fn row_of(&self, id: &str) -> Result<Option<i64>> {
        self.conn
            .query_row("SELECT doc FROM documents WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()
            .map_err(self.err())
    }

    /// Refuse a detector of another method (or SL+ST mode) than the index's: its sketches
    /// would not read.
    fn check_detector<D: Detector>(&self, detector: &D) -> Result<()> {
        if detector.method() == self.method && detector.params().mode() == self.detector.mode() {
            return Ok(());
        }
        Err(Error::InvalidParameter {
            name: "method",
            value: detector.method().to_string(),
            expected: "the index's own method (Index::detector)",
        })
    }

    fn damaged(&self, id: &str, what: &str) -> Error {
        Error::DamagedIndex {
            path: self.path.clone(),
            detail: format!("document {id:?}: damaged {what}"),
        }
    }

    fn load_raw(&self, doc: i64) -> Result<(Document, String)> {
        let (id, encoding, text, profile): (String, String, String, String) = self
            .conn
            .prepare_cached("SELECT id, encoding, text, profile FROM documents WHERE doc = ?1")
            .map_err(self.err())?
            .query_row([doc], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .map_err(self.err())?;
        let encoding =
            encoding_from_name(&encoding).ok_or_else(|| self.damaged(&id, "encoding"))?;
        Ok((Document::decoded(id, text, encoding), profile))
    }

    fn load<S: serde::de::DeserializeOwned>(&self, doc: i64) -> Result<(Document, S)> {
        let (document, stored) = self.load_raw(doc)?;
        let what = if self.method == Method::Slst {
            "profile"
        } else {
            "sketch"
        };
        let sketch = serde_json::from_str(&stored).map_err(|_| self.damaged(&document.id, what))?;
        Ok((document, sketch))
    }

    /// Counts and size on disk.
    ///
    /// # Errors
    /// SQLite fails.
    pub fn stats(&self) -> Result<IndexStats> {
        let count = |sql: &str| -> Result<u64> {
            self.conn
                .query_row(sql, [], |r| r.get::<_, i64>(0))
                .map(|n| n as u64)
                .map_err(self.err())
        };
        let size = |suffix: &str| {
            let mut p = self.path.clone().into_os_string();
            p.push(suffix);
            std::fs::metadata(PathBuf::from(p))
                .map(|m| m.len())
                .unwrap_or(0)
        };
        Ok(IndexStats {
            format_version: FORMAT_VERSION,
            method: self.method.name().to_string(),
            documents: count("SELECT count(*) FROM documents")?,
            sentences: count("SELECT coalesce(sum(sentences), 0) FROM documents")?,
            keys: count("SELECT count(*) FROM keys")?,
            postings: count("SELECT count(*) FROM postings")?,
            batches: count("SELECT count(*) FROM batches")?,
            bytes_on_disk: size("") + size("-wal") + size("-shm"),
        })
    }
}

/// Delete one document row with its postings, keeping the document frequencies.
fn remove_row(tx: &rusqlite::Transaction<'_>, doc: i64, keys: &[u8]) -> rusqlite::Result<()> {
    let keys = keys_from_blob(keys).unwrap_or_default();
    let mut posting = tx.prepare_cached("DELETE FROM postings WHERE key = ?1 AND doc = ?2")?;
    let mut df = tx.prepare_cached("UPDATE keys SET df = df - 1 WHERE key = ?1")?;
    let mut unused = tx.prepare_cached("DELETE FROM keys WHERE key = ?1 AND df <= 0")?;
    for key in distinct(&keys) {
        posting.execute(params![key as i64, doc])?;
        df.execute([key as i64])?;
        unused.execute([key as i64])?;
    }
    tx.execute("DELETE FROM documents WHERE doc = ?1", [doc])?;
    Ok(())
}
