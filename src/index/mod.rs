//! Search mode: a persistent, incremental near-duplicate index (the thesis' "search problem":
//! one query document against a stored collection, no rebuild).
//!
//! An index is one SQLite database (WAL journal), inspectable with the `sqlite3` shell:
//!
//! | table | holds |
//! |---|---|
//! | `meta` | `format_version`, `method` and its settings (JSON), fixed at creation |
//! | `batches` | one row per committed batch of added documents |
//! | `documents` | id, text, encoding, [`SentenceProfile`] or the method's sketch (JSON), keys, a checksum |
//! | `postings` | block key → document, one row per distinct key of a document (primary key `(key, doc)`) |
//! | `keys` | block key → how many documents hold it (document frequency) |
//!
//! Documents are added in batches ([`AddOptions::batch_size`], 1,000 by default), one
//! transaction each: a killed `slst index add` leaves every committed batch whole and nothing of
//! the interrupted one. Readers keep working while another process writes (WAL).
//!
//! A query ([`Index::query`]) sketches the query document with the stored settings, finds
//! candidates by shared block keys, and verifies each with the very same [`SlSt::compare`] as
//! `slst compare`: the answer equals comparing the query with every indexed document. The
//! candidate step is exact:
//! - a pair with a block shares at least `min_block` block keys (counted as a multiset), and a
//!   pair at resemblance J ≥ θ shares at least θ·|q| of them (J ≤ m / |q|); so with t such
//!   shared keys required, a candidate must share one of the query's |q| − t + 1 *rarest* key
//!   occurrences (prefix filtering), and only those keys are looked up;
//! - identical profiles form one block whatever their length: they are found by a fingerprint of
//!   the whole key string;
//! - [`batch::shared_keys`] then bounds each candidate's score from above before the exact
//!   comparison runs.
//!
//! A shingle or megashingle index ([`IndexMethod`], [`Index::create_with`]) uses the same tables:
//! rows hold the method's sketch and its [`Detector::duplicate_keys`], which any two reported
//! duplicates share, and [`Index::query_method`] compares every document sharing one of the
//! query's keys with the method's own `compare`.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use rayon::prelude::*;
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::batch::{self, BatchConfig, Candidates, DocumentSketch, Progress};
use crate::corpus::{Item, Skipped};
use crate::document::{Document, Encoding};
use crate::error::{Error, Result};
use crate::method::{
    Comparison, Detector, MatchKey, MegaShingle, MegaShingleConfig, ShingleConfig, ShingleHash,
    ShingleMeasure, ShingleSketchKind, Shingles, SlSt, SlstComparison, SlstConfig,
};
use crate::profile::{ProfileConfig, SentenceProfile};
use crate::text::StopWords;

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

/// The settings an index is created with, stored in its `meta` table as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct StoredSettings {
    method: String,
    min_block: usize,
    threshold: f64,
    max_length: usize,
    leading_terms: usize,
    stopwords_id: String,
    stopwords: Vec<String>,
}

impl StoredSettings {
    fn new(config: &SlstConfig) -> Self {
        StoredSettings {
            method: "slst".into(),
            min_block: config.min_block,
            threshold: config.threshold,
            max_length: config.profile.max_length,
            leading_terms: config.profile.leading_terms,
            stopwords_id: config.profile.stopwords.id().to_string(),
            stopwords: config
                .profile
                .stopwords
                .words()
                .into_iter()
                .map(str::to_string)
                .collect(),
        }
    }

    fn config(&self) -> SlstConfig {
        SlstConfig {
            profile: ProfileConfig {
                max_length: self.max_length,
                leading_terms: self.leading_terms,
                stopwords: StopWords::parse(&self.stopwords_id, &self.stopwords.join("\n")),
            },
            min_block: self.min_block,
            threshold: self.threshold,
            match_key: MatchKey::LengthAndLeading,
        }
    }
}

fn stopword_list(stopwords: &StopWords) -> Vec<String> {
    stopwords.words().into_iter().map(str::to_string).collect()
}

/// The settings of a shingle index, stored in `meta` as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct StoredShingleSettings {
    method: String,
    size: usize,
    hash: ShingleHash,
    sketch: ShingleSketchKind,
    modulus: u64,
    sketch_size: usize,
    measure: ShingleMeasure,
    threshold: f64,
    stopwords_id: String,
    stopwords: Vec<String>,
}

/// The settings of a megashingle index, stored in `meta` as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct StoredMegaShingleSettings {
    method: String,
    shingle_size: usize,
    minima: usize,
    supershingle_size: usize,
    seed: u64,
    stopwords_id: String,
    stopwords: Vec<String>,
}

/// The method an index was created with, and its settings: every later command uses them.
///
/// An SL+ST index stores each document's [`SentenceProfile`] and its block keys; a shingle or
/// megashingle index stores the method's sketch (JSON, in the `profile` column) and its
/// [`Detector::duplicate_keys`] (the kept fingerprints; the megashingles by position) in the
/// `keys` column and the postings. Any two documents the method reports as duplicates share one
/// of those keys, so a lookup of the query's keys finds every hit.
#[derive(Debug, Clone)]
pub enum IndexMethod {
    /// SL+ST (queried with [`Index::query`]).
    Slst(SlSt),
    /// Shingles (queried with [`Index::query_method`]).
    Shingle(Shingles),
    /// Megashingles (queried with [`Index::query_method`]).
    MegaShingle(MegaShingle),
}

impl IndexMethod {
    /// The method's name (`slst`, `shingle`, `megashingle`).
    pub fn name(&self) -> &'static str {
        match self {
            IndexMethod::Slst(d) => d.name(),
            IndexMethod::Shingle(d) => d.name(),
            IndexMethod::MegaShingle(d) => d.name(),
        }
    }

    /// The SL+ST detector, when this is an SL+ST index.
    pub fn slst(&self) -> Option<&SlSt> {
        match self {
            IndexMethod::Slst(d) => Some(d),
            _ => None,
        }
    }

    /// The settings as stored in `meta`.
    fn settings_json(&self) -> serde_json::Result<String> {
        match self {
            IndexMethod::Slst(d) => serde_json::to_string(&StoredSettings::new(d.config())),
            IndexMethod::Shingle(d) => {
                let c = d.config();
                serde_json::to_string(&StoredShingleSettings {
                    method: "shingle".into(),
                    size: c.size,
                    hash: c.hash,
                    sketch: c.sketch,
                    modulus: c.modulus,
                    sketch_size: c.sketch_size,
                    measure: c.measure,
                    threshold: c.threshold,
                    stopwords_id: c.stopwords.id().to_string(),
                    stopwords: stopword_list(&c.stopwords),
                })
            }
            IndexMethod::MegaShingle(d) => {
                let c = d.config();
                serde_json::to_string(&StoredMegaShingleSettings {
                    method: "megashingle".into(),
                    shingle_size: c.shingle_size,
                    minima: c.minima,
                    supershingle_size: c.supershingle_size,
                    seed: c.seed,
                    stopwords_id: c.stopwords.id().to_string(),
                    stopwords: stopword_list(&c.stopwords),
                })
            }
        }
    }

    /// The method from its stored settings; `Ok(None)` when they cannot be read, an error when
    /// they are out of range.
    fn from_settings(method: &str, json: &str) -> Result<Option<IndexMethod>> {
        Ok(Some(match method {
            "slst" => {
                let Ok(s) = serde_json::from_str::<StoredSettings>(json) else {
                    return Ok(None);
                };
                IndexMethod::Slst(SlSt::new(s.config())?)
            }
            "shingle" => {
                let Ok(s) = serde_json::from_str::<StoredShingleSettings>(json) else {
                    return Ok(None);
                };
                IndexMethod::Shingle(Shingles::new(ShingleConfig {
                    size: s.size,
                    hash: s.hash,
                    sketch: s.sketch,
                    modulus: s.modulus,
                    sketch_size: s.sketch_size,
                    measure: s.measure,
                    threshold: s.threshold,
                    stopwords: StopWords::parse(&s.stopwords_id, &s.stopwords.join("\n")),
                })?)
            }
            "megashingle" => {
                let Ok(s) = serde_json::from_str::<StoredMegaShingleSettings>(json) else {
                    return Ok(None);
                };
                IndexMethod::MegaShingle(MegaShingle::new(MegaShingleConfig {
                    shingle_size: s.shingle_size,
                    minima: s.minima,
                    supershingle_size: s.supershingle_size,
                    seed: s.seed,
                    stopwords: StopWords::parse(&s.stopwords_id, &s.stopwords.join("\n")),
                })?)
            }
            _ => return Ok(None),
        }))
    }

    /// What a document's row stores: its profile or sketch as JSON, and its keys.
    fn sketch_row(&self, doc: &Document) -> (String, Vec<u64>) {
        match self {
            IndexMethod::Slst(d) => {
                let sketch = DocumentSketch::new(d, doc);
                let json = serde_json::to_string(&sketch.profile).unwrap_or_default();
                (json, sketch.keys)
            }
            IndexMethod::Shingle(d) => {
                let sketch = d.sketch(doc);
                let keys = d.duplicate_keys(&sketch).unwrap_or_default();
                (serde_json::to_string(&sketch).unwrap_or_default(), keys)
            }
            IndexMethod::MegaShingle(d) => {
                let sketch = d.sketch(doc);
                let keys = d.duplicate_keys(&sketch).unwrap_or_default();
                (serde_json::to_string(&sketch).unwrap_or_default(), keys)
            }
        }
    }

    /// What is wrong with a stored row, judged against the sketch of its stored text.
    fn check_row(&self, doc: &Document, stored: &str, keys: &[u64]) -> Vec<String> {
        fn compare<S: PartialEq + serde::de::DeserializeOwned>(
            fresh: S,
            fresh_keys: Vec<u64>,
            stored: &str,
            keys: &[u64],
            what: &str,
        ) -> Vec<String> {
            let mut p = Vec::new();
            match serde_json::from_str::<S>(stored) {
                Ok(s) if s != fresh => p.push(format!(
                    "stored {what} differs from the {what} of the stored text"
                )),
                Ok(_) => {}
                Err(e) => p.push(format!("{what} cannot be read: {e}")),
            }
            if fresh_keys != keys {
                p.push("stored keys differ from those of the stored text".into());
            }
            p
        }
        match self {
            IndexMethod::Slst(d) => {
                let fresh = DocumentSketch::new(d, doc);
                compare(fresh.profile, fresh.keys, stored, keys, "profile")
            }
            IndexMethod::Shingle(d) => {
                let fresh = d.sketch(doc);
                let k = d.duplicate_keys(&fresh).unwrap_or_default();
                compare(fresh, k, stored, keys, "sketch")
            }
            IndexMethod::MegaShingle(d) => {
                let fresh = d.sketch(doc);
                let k = d.duplicate_keys(&fresh).unwrap_or_default();
                compare(fresh, k, stored, keys, "sketch")
            }
        }
    }
}

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
    /// Resemblance threshold θ (default: the index's own).
    pub threshold: Option<f64>,
    /// Report documents where either containment is at least this, instead of J ≥ θ.
    pub containment: Option<f64>,
    /// Keep only the best k hits.
    pub top: Option<usize>,
}

/// One indexed near-duplicate of a query document.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The indexed document (its text as stored).
    pub document: Document,
    /// Its stored profile.
    pub profile: SentenceProfile,
    /// `compare(query, document)`: exactly what `slst compare QUERY DOCUMENT` computes.
    pub comparison: Comparison<SlstComparison>,
}

/// One indexed duplicate of a query document in a shingle or megashingle index.
#[derive(Debug, Clone, PartialEq)]
pub struct MethodHit {
    /// The indexed document (its text as stored).
    pub document: Document,
    /// `compare(query, document)` by the index's method, the evidence as JSON: what
    /// `slst compare --method NAME` computes.
    pub comparison: Comparison<serde_json::Value>,
}

/// The answer of [`Index::query_method`].
#[derive(Debug, Clone, PartialEq)]
pub struct MethodQueryResult {
    /// Hits by resemblance, descending; ties by id.
    pub hits: Vec<MethodHit>,
    /// Candidates found by shared keys (each was compared).
    pub candidates: usize,
}

/// A query's answer: the query's profile and its hits, best first.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryResult {
    /// The query document's profile.
    pub profile: SentenceProfile,
    /// Hits by resemblance, then containment of the query, descending; ties by id.
    pub hits: Vec<Hit>,
    /// Candidates found by shared keys.
    pub candidates: usize,
    /// Candidates compared exactly (the others were ruled out by their shared keys).
    pub compared: usize,
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
    method: IndexMethod,
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

fn encoding_name(e: Encoding) -> String {
    serde_json::to_value(e)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn distinct(keys: &[u64]) -> Vec<u64> {
    let mut d = keys.to_vec();
    d.sort_unstable();
    d.dedup();
    d
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
        Self::create_with(path, IndexMethod::Slst(SlSt::new(config)?))
    }

    /// Create a new, empty index at `path` for the given method and its settings.
    ///
    /// # Errors
    /// The file exists already, or SQLite fails.
    pub fn create_with(path: &Path, method: IndexMethod) -> Result<Index> {
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
        let settings = method.settings_json().map_err(|e| Error::Database {
            path: path.to_path_buf(),
            detail: e.to_string(),
        })?;
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('format_version', ?1), ('method', ?2), ('settings', ?3)",
            params![FORMAT_VERSION.to_string(), method.name(), settings],
        )
        .map_err(&err)?;
        tx.commit().map_err(&err)?;
        Ok(Index {
            conn,
            path: path.to_path_buf(),
            method,
        })
    }

    /// Open an existing index, refusing one of a newer format version.
    ///
    /// # Errors
    /// No such file, not an slst index, a newer format ([`Error::IndexVersion`]), or SQLite fails.
    pub fn open(path: &Path) -> Result<Index> {
        let err = Self::error(path);
        if !path.is_file() {
            return Err(Error::Database {
                path: path.to_path_buf(),
                detail: "no index here (create one with `slst index create`)".into(),
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
        let name = meta("method")?.unwrap_or_else(|| "slst".into());
        if !["slst", "shingle", "megashingle"].contains(&name.as_str()) {
            return Err(Error::Database {
                path: path.to_path_buf(),
                detail: format!("method {name} is not supported by this build"),
            });
        }
        let method = match meta("settings")? {
            Some(json) => IndexMethod::from_settings(&name, &json)?,
            None => None,
        }
        .ok_or_else(|| Error::Database {
            path: path.to_path_buf(),
            detail: "the stored settings cannot be read".into(),
        })?;
        Ok(Index {
            conn,
            path: path.to_path_buf(),
            method,
        })
    }

    /// The index file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The method with the stored settings.
    pub fn detector(&self) -> &IndexMethod {
        &self.method
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
        let method = &self.method;
        let sketches: Vec<(String, Vec<u64>)> =
            docs.par_iter().map(|d| method.sketch_row(d)).collect();
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
                    "INSERT INTO keys (key, df) VALUES (?1, 1) ON CONFLICT(key) DO UPDATE SET df = df + 1",
                )
                .map_err(&err)?;
            for (doc, (profile, keys)) in docs.iter().zip(&sketches) {
                let old: Option<(i64, Vec<u8>)> = find
                    .query_row([&doc.id], |r| Ok((r.get(0)?, r.get(1)?)))
                    .optional()
                    .map_err(&err)?;
                if let Some((old_doc, old_keys)) = old {
                    if options.no_replace {
                        summary.refused.push(doc.id.clone());
                        continue;
                    }
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
                        keys.len() as i64,
                        fingerprint(&blob),
                        sum
                    ])
                    .map_err(&err)?;
                let row = tx.last_insert_rowid();
                for key in distinct(keys) {
                    posting.execute(params![key as i64, row]).map_err(&err)?;
                    df_up.execute([key as i64]).map_err(&err)?;
                }
                written += 1;
            }
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

    /// An indexed document and its stored profile (an SL+ST index).
    ///
    /// # Errors
    /// SQLite fails, the row is damaged, or the index is not an SL+ST index.
    pub fn document(&self, id: &str) -> Result<Option<(Document, SentenceProfile)>> {
        if self.method.slst().is_none() {
            return Err(self.not_slst());
        }
        match self.row_of(id)? {
            Some(doc) => self.load(doc).map(Some),
            None => Ok(None),
        }
    }

    /// An indexed document and its stored profile or sketch as JSON (any method).
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

    fn not_slst(&self) -> Error {
        Error::Database {
            path: self.path.clone(),
            detail: format!(
                "a {} index: its documents hold {} sketches, not SL+ST profiles",
                self.method.name(),
                self.method.name()
            ),
        }
    }

    fn load_raw(&self, doc: i64) -> Result<(Document, String)> {
        let (id, encoding, text, profile): (String, String, String, String) = self
            .conn
            .prepare_cached("SELECT id, encoding, text, profile FROM documents WHERE doc = ?1")
            .map_err(self.err())?
            .query_row([doc], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .map_err(self.err())?;
        let encoding: Encoding = serde_json::from_value(serde_json::Value::String(encoding))
            .map_err(|_| Error::Database {
                path: self.path.clone(),
                detail: format!("document {id:?}: damaged encoding (run `slst index check`)"),
            })?;
        Ok((Document::decoded(id, text, encoding), profile))
    }

    fn load(&self, doc: i64) -> Result<(Document, SentenceProfile)> {
        let (id, encoding, text, profile): (String, String, String, String) = self
            .conn
            .prepare_cached("SELECT id, encoding, text, profile FROM documents WHERE doc = ?1")
            .map_err(self.err())?
            .query_row([doc], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .map_err(self.err())?;
        let damaged = |what: &str| Error::Database {
            path: self.path.clone(),
            detail: format!("document {id:?}: damaged {what} (run `slst index check`)"),
        };
        let profile: SentenceProfile =
            serde_json::from_str(&profile).map_err(|_| damaged("profile"))?;
        let encoding: Encoding = serde_json::from_value(serde_json::Value::String(encoding))
            .map_err(|_| damaged("encoding"))?;
        Ok((Document::decoded(id, text, encoding), profile))
    }

    /// Every indexed document that `slst compare` reports against `query` (J ≥ θ, or either
    /// containment ≥ θc with at least one block), with the comparison, best first.
    ///
    /// # Errors
    /// A threshold out of range, SQLite fails, or a candidate's row is damaged.
    pub fn query(&self, query: &Document, options: &QueryOptions) -> Result<QueryResult> {
        let Some(base) = self.method.slst() else {
            return Err(Error::InvalidParameter {
                name: "--method",
                value: self.method.name().into(),
                expected: "an SL+ST index (query the others with `query_method`)",
            });
        };
        let config = SlstConfig {
            threshold: options.threshold.unwrap_or(base.config().threshold),
            ..base.config().clone()
        };
        if let Some(theta) = options.containment
            && !(0.0..=1.0).contains(&theta)
        {
            return Err(Error::InvalidParameter {
                name: "--containment",
                value: theta.to_string(),
                expected: "a number from 0 to 1",
            });
        }
        let detector = SlSt::new(config)?;
        let sketch = DocumentSketch::new(&detector, query);
        let q = &sketch.keys;
        let mut result = QueryResult {
            profile: sketch.profile.clone(),
            hits: Vec::new(),
            candidates: 0,
            compared: 0,
        };
        if q.is_empty() {
            return Ok(result); // no sentence: no block with anything
        }
        let min_block = detector.config().min_block.max(1);
        let needed = match options.containment {
            Some(_) => min_block,
            // J ≤ m / |q|, so J ≥ θ needs m ≥ θ·|q| (floored: never stricter than exact).
            None => min_block.max((detector.config().threshold * q.len() as f64).floor() as usize),
        };
        let mut candidates: HashSet<i64> = HashSet::new();
        if needed <= q.len() {
            // Order the query's key occurrences by document frequency; any document sharing
            // `needed` of them shares one of the first |q| − needed + 1.
            let mut df_stmt = self
                .conn
                .prepare_cached("SELECT df FROM keys WHERE key = ?1")
                .map_err(self.err())?;
            let mut df: HashMap<u64, i64> = HashMap::new();
            for &k in q {
                if let std::collections::hash_map::Entry::Vacant(slot) = df.entry(k) {
                    let n: Option<i64> = df_stmt
                        .query_row([k as i64], |r| r.get(0))
                        .optional()
                        .map_err(self.err())?;
                    slot.insert(n.unwrap_or(0));
                }
            }
            let mut occurrences: Vec<u64> = q.clone();
            occurrences.sort_by_key(|k| (df[k], *k));
            let prefix = distinct(&occurrences[..q.len() - needed + 1]);
            let mut postings = self
                .conn
                .prepare_cached("SELECT doc FROM postings WHERE key = ?1")
                .map_err(self.err())?;
            for k in prefix {
                if df[&k] == 0 {
                    continue;
                }
                let docs = postings
                    .query_map([k as i64], |r| r.get::<_, i64>(0))
                    .map_err(self.err())?;
                for d in docs {
                    candidates.insert(d.map_err(self.err())?);
                }
            }
        }
        // Identical profiles: one block whatever their length.
        let blob = keys_blob(q);
        {
            let mut same = self
                .conn
                .prepare_cached("SELECT doc FROM documents WHERE fingerprint = ?1")
                .map_err(self.err())?;
            let docs = same
                .query_map([fingerprint(&blob)], |r| r.get::<_, i64>(0))
                .map_err(self.err())?;
            for d in docs {
                candidates.insert(d.map_err(self.err())?);
            }
        }
        result.candidates = candidates.len();
        let batch_config = BatchConfig {
            containment: options.containment,
            candidates: Candidates::Index,
            max_df: usize::MAX,
        };
        let mut keys_stmt = self
            .conn
            .prepare_cached("SELECT keys FROM documents WHERE doc = ?1")
            .map_err(self.err())?;
        let mut order: Vec<i64> = candidates.into_iter().collect();
        order.sort_unstable();
        for d in order {
            let blob: Vec<u8> = keys_stmt.query_row([d], |r| r.get(0)).map_err(self.err())?;
            let keys = keys_from_blob(&blob).ok_or_else(|| Error::Database {
                path: self.path.clone(),
                detail: format!("row {d}: damaged block keys (run `slst index check`)"),
            })?;
            if !batch::may_be_reported(
                q,
                &keys,
                min_block,
                detector.config().threshold,
                &batch_config,
            ) {
                continue;
            }
            result.compared += 1;
            let (document, profile) = self.load(d)?;
            let comparison = detector.compare(&sketch.profile, &profile);
            if batch::reported(&comparison, &batch_config) {
                result.hits.push(Hit {
                    document,
                    profile,
                    comparison,
                });
            }
        }
        result.hits.sort_by(|x, y| {
            let (sx, sy) = (&x.comparison.similarity, &y.comparison.similarity);
            sy.resemblance
                .total_cmp(&sx.resemblance)
                .then(
                    sy.containment_a
                        .unwrap_or(0.0)
                        .total_cmp(&sx.containment_a.unwrap_or(0.0)),
                )
                .then_with(|| x.document.id.cmp(&y.document.id))
        });
        if let Some(k) = options.top {
            result.hits.truncate(k);
        }
        Ok(result)
    }

    /// Every indexed document that the index's method (shingle or megashingle) reports as a
    /// duplicate of `query`, with the comparison `slst compare --method NAME` makes, best first.
    ///
    /// The candidates are the documents sharing one of the query's
    /// [`Detector::duplicate_keys`]; a reported duplicate always shares one, so the answer
    /// equals comparing the query with every indexed document. `options.threshold` overrides a
    /// shingle index's threshold; a megashingle index has none, and neither takes
    /// `options.containment` (a shingle index decides by the measure it was created with).
    ///
    /// # Errors
    /// An SL+ST index (use [`Index::query`]), an option the method does not take or out of range,
    /// SQLite fails, or a candidate's row is damaged.
    pub fn query_method(
        &self,
        query: &Document,
        options: &QueryOptions,
    ) -> Result<MethodQueryResult> {
        let name = self.method.name();
        if let Some(theta) = options.containment {
            return Err(Error::InvalidParameter {
                name: "--containment",
                value: theta.to_string(),
                expected: "no containment threshold with a shingle or megashingle index (a \
                           shingle index decides by the --measure it was created with)",
            });
        }
        let mut result = match &self.method {
            IndexMethod::Slst(_) => {
                return Err(Error::InvalidParameter {
                    name: "--method",
                    value: name.into(),
                    expected: "a shingle or megashingle index (query SL+ST with `query`)",
                });
            }
            IndexMethod::Shingle(d) => match options.threshold {
                Some(threshold) => {
                    let d = Shingles::new(ShingleConfig {
                        threshold,
                        ..d.config().clone()
                    })?;
                    self.query_by(&d, query)?
                }
                None => self.query_by(d, query)?,
            },
            IndexMethod::MegaShingle(d) => {
                if let Some(theta) = options.threshold {
                    return Err(Error::InvalidParameter {
                        name: "--threshold",
                        value: theta.to_string(),
                        expected: "no threshold with a megashingle index (a duplicate shares a \
                                   megashingle)",
                    });
                }
                self.query_by(d, query)?
            }
        };
        result.hits.sort_by(|x, y| {
            y.comparison
                .similarity
                .resemblance
                .total_cmp(&x.comparison.similarity.resemblance)
                .then_with(|| x.document.id.cmp(&y.document.id))
        });
        if let Some(k) = options.top {
            result.hits.truncate(k);
        }
        Ok(result)
    }

    /// Look up the query's duplicate keys, compare every document holding one, keep the
    /// duplicates.
    fn query_by<D>(&self, detector: &D, query: &Document) -> Result<MethodQueryResult>
    where
        D: Detector,
        D::Sketch: serde::de::DeserializeOwned,
        D::Evidence: Serialize,
    {
        let sketch = detector.sketch(query);
        let keys = distinct(&detector.duplicate_keys(&sketch).unwrap_or_default());
        let mut candidates: HashSet<i64> = HashSet::new();
        {
            let mut postings = self
                .conn
                .prepare_cached("SELECT doc FROM postings WHERE key = ?1")
                .map_err(self.err())?;
            for k in keys {
                let docs = postings
                    .query_map([k as i64], |r| r.get::<_, i64>(0))
                    .map_err(self.err())?;
                for d in docs {
                    candidates.insert(d.map_err(self.err())?);
                }
            }
        }
        let mut order: Vec<i64> = candidates.into_iter().collect();
        order.sort_unstable();
        let mut result = MethodQueryResult {
            hits: Vec::new(),
            candidates: order.len(),
        };
        for d in order {
            let (document, stored) = self.load_raw(d)?;
            let stored: D::Sketch = serde_json::from_str(&stored).map_err(|_| Error::Database {
                path: self.path.clone(),
                detail: format!(
                    "document {:?}: damaged sketch (run `slst index check`)",
                    document.id
                ),
            })?;
            let c = detector.compare(&sketch, &stored);
            if c.duplicate {
                result.hits.push(MethodHit {
                    document,
                    comparison: Comparison {
                        method: c.method,
                        similarity: c.similarity,
                        duplicate: c.duplicate,
                        evidence: serde_json::to_value(&c.evidence)
                            .unwrap_or(serde_json::Value::Null),
                    },
                });
            }
        }
        Ok(result)
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

    /// Verify the index: SQLite's own integrity check, every row's checksum, profile (re-made
    /// from the stored text with the stored settings), keys and fingerprint, the inverted table
    /// and the document frequencies. Returns what is wrong (empty: all is well).
    ///
    /// # Errors
    /// SQLite fails to read.
    pub fn check(&self) -> Result<Vec<String>> {
        let mut problems = Vec::new();
        let integrity: Vec<String> = self
            .conn
            .prepare("PRAGMA integrity_check")
            .map_err(self.err())?
            .query_map([], |r| r.get(0))
            .map_err(self.err())?
            .collect::<rusqlite::Result<_>>()
            .map_err(self.err())?;
        if integrity != ["ok"] {
            problems.extend(integrity.into_iter().map(|m| format!("sqlite: {m}")));
        }
        let rows: Vec<Row> = self
            .conn
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
            .map_err(self.err())?;
        let batches: HashSet<i64> = self
            .conn
            .prepare("SELECT batch FROM batches")
            .map_err(self.err())?
            .query_map([], |r| r.get(0))
            .map_err(self.err())?
            .collect::<rusqlite::Result<_>>()
            .map_err(self.err())?;
        let method = &self.method;
        let row_problems: Vec<(Vec<String>, Vec<u64>)> = rows
            .par_iter()
            .map(|row| {
                let mut p = Vec::new();
                let say = |what: String| format!("document {:?} (row {}): {what}", row.id, row.doc);
                if checksum(&row.id, &row.encoding, &row.text, &row.profile, &row.keys)
                    != row.checksum
                {
                    p.push(say(
                        "checksum mismatch: the row was changed outside slst".into()
                    ));
                }
                if !batches.contains(&row.batch) {
                    p.push(say(format!("batch {} is not recorded", row.batch)));
                }
                let keys = keys_from_blob(&row.keys).unwrap_or_default();
                if !row.keys.len().is_multiple_of(8) {
                    p.push(say("block keys are not whole 64-bit values".into()));
                }
                if fingerprint(&row.keys) != row.fingerprint {
                    p.push(say("fingerprint does not match the block keys".into()));
                }
                if row.sentences != keys.len() as i64 {
                    p.push(say(format!(
                        "{} sentences recorded, {} block keys stored",
                        row.sentences,
                        keys.len()
                    )));
                }
                let encoding: std::result::Result<Encoding, _> =
                    serde_json::from_value(serde_json::Value::String(row.encoding.clone()));
                match encoding {
                    Ok(encoding) => {
                        let doc = Document::decoded(row.id.clone(), row.text.clone(), encoding);
                        p.extend(
                            method
                                .check_row(&doc, &row.profile, &keys)
                                .into_iter()
                                .map(say),
                        );
                    }
                    Err(_) => p.push(say(format!("unknown encoding {:?}", row.encoding))),
                }
                (p, distinct(&keys))
            })
            .collect();
        let mut expected: HashSet<(i64, i64)> = HashSet::new();
        let mut df: HashMap<i64, i64> = HashMap::new();
        for (row, (p, keys)) in rows.iter().zip(row_problems) {
            problems.extend(p);
            for k in keys {
                expected.insert((k as i64, row.doc));
                *df.entry(k as i64).or_default() += 1;
            }
        }
        let postings: Vec<(i64, i64)> = self
            .conn
            .prepare("SELECT key, doc FROM postings")
            .map_err(self.err())?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(self.err())?
            .collect::<rusqlite::Result<_>>()
            .map_err(self.err())?;
        let stray = postings.iter().filter(|p| !expected.contains(p)).count();
        let present: HashSet<(i64, i64)> = postings.into_iter().collect();
        let missing = expected.difference(&present).count();
        if stray > 0 {
            problems.push(format!(
                "postings: {stray} entries point to a document that lacks the key or does not exist"
            ));
        }
        if missing > 0 {
            problems.push(format!(
                "postings: {missing} (key, document) entries are missing"
            ));
        }
        let stored_df: Vec<(i64, i64)> = self
            .conn
            .prepare("SELECT key, df FROM keys")
            .map_err(self.err())?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .map_err(self.err())?
            .collect::<rusqlite::Result<_>>()
            .map_err(self.err())?;
        let wrong_df = stored_df
            .iter()
            .filter(|(k, n)| df.get(k).copied().unwrap_or(0) != *n)
            .count()
            + df.len().saturating_sub(stored_df.len());
        if wrong_df > 0 {
            problems.push(format!(
                "keys: {wrong_df} document frequencies disagree with the postings"
            ));
        }
        Ok(problems)
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
