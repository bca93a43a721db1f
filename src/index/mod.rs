//! Search mode: a persistent, incremental near-duplicate index (the thesis' "search problem":
//! one query document against a stored collection, no rebuild).
//!
//! An index is one SQLite database (WAL journal), inspectable with the `sqlite3` shell:
//!
//! | table | holds |
//! |---|---|
//! | `meta` | `format_version`, `method` and its settings (JSON), fixed at creation |
//! | `batches` | one row per committed batch of added documents |
//! | `documents` | id, batch, units (`sentences`), a fingerprint and a checksum first, then encoding, keys, the method's sketch (JSON; for SL+ST the [`SentenceProfile`](crate::SentenceProfile)) and text |
//! | `postings` | key → its holders: one row per key, a blob of (document row, its units) entries in row order; a key's document frequency is their count |
//!
//! Documents are added in batches ([`AddOptions::batch_size`], 10,000 by default), one
//! transaction each: a killed `add` leaves every committed batch whole and nothing of the
//! interrupted one. Readers keep working while another process writes (WAL); a query reads one
//! snapshot. A batch writes its changes to `postings` at its end, in key order, one write per
//! key; a document replacing one with the same id takes over its row, so only the keys that
//! differ change (module `write`). Format version 2 (this one) replaced version 1's inverted
//! table of one row per (key, document) and its table of document frequencies, which made an
//! add several times slower; an index of version 1 is refused with what to do.
//!
//! The index is generic over the method ([`Detector`]): a row stores the method's sketch and its
//! [`Detector::index_keys`] (SL+ST: one block key per sentence; robust SL+ST: its join keys and word keys, and
//! the join keys of its units with the windows of its over-long ones among them,
//! [`crate::method::seed_index_keys`]; shingles: the kept fingerprints;
//! megashingles: the megashingles by position). A query ([`Index::query`]) sketches the query
//! document with the stored settings, finds candidates by shared keys, bounds each candidate's
//! scores ([`Detector::may_be_reported`]) and verifies the rest with the very same
//! [`Detector::compare`] as `slst compare`: the answer equals comparing the query with every
//! indexed document (for robust SL+ST, but for documents whose blocks rest on keys held by more
//! than [`MAX_DF`] documents, as in a corpus run). The candidate step is exact:
//! - a kept document shares at least t of the query's keys as a multiset
//!   ([`Detector::index_keys_needed`]; SL+ST at J ≥ θ: t = max(`min_block`, ⌊θ·|q|⌋), since
//!   J ≤ m / |q|), so it shares one of the query's |q| − t + 1 *rarest* key occurrences (prefix
//!   filtering), and only those keys are looked up;
//! - documents with the very same keys (for SL+ST, identical profiles: one block whatever their
//!   length) are found by a fingerprint of the whole key string;
//! - for robust SL+ST, every key of the query held by at most [`MAX_DF`] documents is looked
//!   up, and a document is compared only when the query's units witnessed by its keys
//!   ([`WitnessJoin::witness_keys`]) could satisfy the rule against its units (stored beside it
//!   in `postings`; [`WitnessJoin::may_keep_matched`]), the bound of the corpus join; a document
//!   alike in its words is compared only when it holds one of the query's rarest word keys and
//!   could share enough of all of them for the word rule's level (the lists of word keys held by
//!   more than [`MAX_DF`] documents left unread and counted as shared).
//!
//! [`WitnessJoin::witness_keys`]: crate::method::WitnessJoin::witness_keys
//! [`WitnessJoin::may_keep_matched`]: crate::method::WitnessJoin::may_keep_matched

mod check;
mod postings;
mod query;
mod settings;
mod write;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use serde::Serialize;

pub use self::query::{Hit, MAX_DF, QueryResult};
use crate::corpus::Skipped;
use crate::document::{Document, Encoding};
use crate::error::{Error, Result};
use crate::method::{Detector, Method, MethodDetector, MethodSettings, PairRule, SlstConfig};

/// The storage format this build writes and the only one it reads: 2 held one row per key in
/// the inverted table; 3 keys robust mode's figures by their values (`text::figures`); 4 also
/// keys robust mode's windows of over-long units, which seed passages
/// ([`crate::method::seed_index_keys`], [`QueryOptions::min_shared_words`]).
pub const FORMAT_VERSION: i64 = 4;

/// Documents per transaction when adding, unless told otherwise. Each transaction rewrites
/// most pages of the postings (keys are hashes), so fewer, larger ones cost less; a killed add
/// loses at most one, and adding its documents again replaces what is already indexed at a
/// fraction of an add's cost (docs/index.md, "Speed").
pub const DEFAULT_BATCH_SIZE: usize = 10_000;

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
    sentences INTEGER NOT NULL,
    fingerprint INTEGER NOT NULL,
    checksum INTEGER NOT NULL,
    encoding TEXT NOT NULL,
    keys BLOB NOT NULL,
    profile TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX documents_by_fingerprint ON documents(fingerprint);
CREATE TABLE postings (key INTEGER PRIMARY KEY, docs BLOB NOT NULL);
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
    /// Also keep every indexed document sharing at least this many words in one passage with the
    /// query, whatever the documents' lengths and the rule (SL+ST in either mode; see
    /// [`Index::query`]).
    pub min_shared_words: Option<usize>,
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
        // A batch's changes to the inverted table touch pages all over it: kept in memory (up to
        // 256 MiB, taken as needed), they are read once a batch rather than once a change. Reads
        // of the database file map it rather than copy it.
        conn.pragma_update(None, "cache_size", -262_144)
            .map_err(Self::error(path))?;
        conn.pragma_update(None, "mmap_size", 1i64 << 30)
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
        if version < FORMAT_VERSION {
            return Err(Error::Database {
                path: path.to_path_buf(),
                detail: format!(
                    "index format version {version} was written by an older slst; this one reads \
                     version {FORMAT_VERSION}: create a new index (`slst index create`) and add the \
                     documents again (`slst index add`)"
                ),
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

    /// The indexed ids, by the batch that wrote them last (a replaced document's is the one
    /// that replaced it), then in the order they were first written.
    ///
    /// # Errors
    /// SQLite fails.
    pub fn ids(&self) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id FROM documents ORDER BY batch, doc")
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
            keys: count("SELECT count(*) FROM postings")?,
            postings: count(&format!(
                "SELECT coalesce(sum(length(docs)), 0) / {} FROM postings",
                postings::ENTRY
            ))?,
            batches: count("SELECT count(*) FROM batches")?,
            bytes_on_disk: size("") + size("-wal") + size("-shm"),
        })
    }
}
