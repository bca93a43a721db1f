//! The library's one error type.
//!
//! Every variant names the input it is about (a path, and where it helps a document id or a
//! line), so that a message printed as-is tells the user what happened, to which file, and what to
//! do. Degenerate inputs that still have a defined result (an empty file, a text with no
//! sentences) are *not* errors: they produce empty profiles and a similarity of 0.

use std::path::PathBuf;

/// What [`Error::NothingRead`] adds: how many were skipped, and the first.
fn nothing_read(skipped: usize, first: Option<&str>) -> String {
    match (skipped, first) {
        (0, _) => String::new(),
        (1, Some(first)) => format!(": 1 skipped ({first})"),
        (n, Some(first)) => format!(": {n} skipped (the first: {first})"),
        (n, None) => format!(": {n} skipped"),
    }
}

/// A specialised `Result` for slst.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong while reading input or configuring a method.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The file could not be opened or read (missing, permission denied, …).
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// A stop-word list named neither a file nor a built-in list.
    #[error("{}: cannot read: {source}; nor is it a built-in stop-word list ({names})", path.display())]
    UnknownStopWords {
        /// The name, read as a path.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
        /// The built-in lists' names.
        names: String,
    },
    /// An output file could not be written (folder missing or read-only, disk full, …).
    #[error("{}: cannot write: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// None of the inputs gave a document.
    #[error("no document was read from the inputs{}; check the paths and the input format", nothing_read(*skipped, first.as_deref()))]
    NothingRead {
        /// Documents and files skipped.
        skipped: usize,
        /// The first of them: where, and why.
        first: Option<String>,
    },
    /// Files named on the command line that gave no document, beside others that did: the run's
    /// results are written, and the user learns that part of what they asked for is missing.
    #[error("{skipped} file{} named on the command line could not be read (the first: {first}); the other documents were read and the results written", if *skipped == 1 { "" } else { "s" })]
    NamedInputsSkipped {
        /// How many of the named files.
        skipped: usize,
        /// The first of them: where, and why.
        first: String,
    },
    /// A file whose format cannot be told by its content alone (SGML in unknown elements).
    #[error("{}: {detail}", path.display())]
    UnknownFormat {
        /// The file.
        path: PathBuf,
        /// What it looks like, and the flags that read it.
        detail: String,
    },
    /// A directory was given where a file was expected.
    #[error("{}: is a directory, not a file", path.display())]
    IsDirectory {
        /// The directory.
        path: PathBuf,
    },
    /// The file holds binary data, not text.
    #[error("{}: looks like a binary file ({reason}); give a text, TREC SGML or gzip'd text file", path.display())]
    Binary {
        /// The file.
        path: PathBuf,
        /// What gave it away, e.g. "NUL byte at offset 12".
        reason: String,
    },
    /// The file is larger than the configured limit.
    #[error("{}: {} more than the limit of {limit} bytes", path.display(), if *inflated { "gzip'd data that inflates to".to_string() } else { format!("{size} bytes is") })]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size on disk, or, when it inflates past the limit, the part inflated before
        /// giving up.
        size: u64,
        /// The limit in force.
        limit: u64,
        /// Whether gzip'd data inflated past the limit (inflating stopped there).
        inflated: bool,
    },
    /// The gzip stream is corrupt or ends early.
    #[error("{}: damaged gzip data ({detail}); the file may be truncated", path.display())]
    Gzip {
        /// The file.
        path: PathBuf,
        /// The decoder's message.
        detail: String,
    },
    /// TREC SGML that cannot be read as documents.
    #[error("{}: malformed SGML at line {line}: {detail}", path.display())]
    Sgml {
        /// The file.
        path: PathBuf,
        /// 1-based line of the problem.
        line: usize,
        /// What is wrong.
        detail: String,
    },
    /// A JSON-lines line that cannot be read as a document.
    #[error("{}: line {line}: {detail}", path.display())]
    Jsonl {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        detail: String,
    },
    /// A TREC file holds several documents and none was chosen.
    #[error("{}: holds {count} documents ({examples}); name the one to read", path.display())]
    AmbiguousDocument {
        /// The file.
        path: PathBuf,
        /// How many documents it holds.
        count: usize,
        /// The first few DOCNOs.
        examples: String,
    },
    /// The requested DOCNO is not in the file.
    #[error("{}: no document with id {docno:?} ({count} documents in the file)", path.display())]
    NoSuchDocument {
        /// The file.
        path: PathBuf,
        /// The DOCNO asked for.
        docno: String,
        /// How many documents the file holds.
        count: usize,
    },
    /// A rebuild from a manifest did not give what the manifest records.
    #[error("{}: the rebuilt subset differs from the manifest: {detail}", path.display())]
    Rebuild {
        /// The manifest.
        path: PathBuf,
        /// What differs.
        detail: String,
    },
    /// A near-duplicate index (`slst index`) could not be opened, read or written.
    #[error("{}: {detail}", path.display())]
    Database {
        /// The index file.
        path: PathBuf,
        /// What went wrong.
        detail: String,
    },
    /// No near-duplicate index at a path.
    #[error("{}: no index here", path.display())]
    NoIndex {
        /// Where one was expected.
        path: PathBuf,
    },
    /// A row of a near-duplicate index that cannot be read back as it was written.
    #[error("{}: {detail}", path.display())]
    DamagedIndex {
        /// The index file.
        path: PathBuf,
        /// Which document and what is damaged.
        detail: String,
    },
    /// A near-duplicate index written by a newer format version than this build reads.
    #[error("{}: index format version {found} is newer than this slst supports (version {supported}); use a newer slst", path.display())]
    IndexVersion {
        /// The index file.
        path: PathBuf,
        /// The version the index records.
        found: i64,
        /// The newest version this build reads.
        supported: i64,
    },
    /// A command that shows a web page's blocks was given a document that is not a web page.
    #[error("{}: not a web page (give an HTML or WARC file, or read it as HTML)", path.display())]
    NotWebPage {
        /// The file.
        path: PathBuf,
    },
    /// A ground-truth (or detections) file that cannot be read as one.
    #[error("{}: line {line}: {detail}", path.display())]
    Truth {
        /// The file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        detail: String,
    },
    /// A document the ground truth names is not among the documents read.
    #[error("{}: names document {id:?}, which is not among the documents read ({count} document id(s) of the truth missing in all)", path.display())]
    MissingDocument {
        /// The truth file (or folder).
        path: PathBuf,
        /// The first id missing.
        id: String,
        /// How many ids of the truth are missing.
        count: usize,
    },
    /// An output file or folder that cannot be written as asked (it would overwrite another
    /// output, or the folder holds files that would be read with it), or whose writing failed.
    #[error("{}: cannot write: {detail}", path.display())]
    Output {
        /// The file or folder.
        path: PathBuf,
        /// What is wrong.
        detail: String,
    },
    /// A setting named by text (the Python package's parameters) that the method does not
    /// have, or whose value cannot be read.
    #[error("{method}: setting {name}: {detail}")]
    UnknownParameter {
        /// The method.
        method: String,
        /// The setting's name as given.
        name: String,
        /// What is wrong, and what would do.
        detail: String,
    },
    /// A parameter is out of its valid range.
    #[error("invalid setting {name} = {value}: {expected}")]
    InvalidParameter {
        /// The setting, as `<method>.<field>` of its configuration (`shingle.size`,
        /// `robust.term_similarity`, `profile.max_length`) or a plain name (`threshold`,
        /// `containment`, `method`).
        name: &'static str,
        /// The value given.
        value: String,
        /// What would have been valid.
        expected: &'static str,
    },
}

/// Check that a setting is a fraction: a threshold or containment in [0, 1].
///
/// # Errors
/// [`Error::InvalidParameter`] naming the setting.
///
/// # Example
/// ```
/// assert!(slst::error::check_fraction("threshold", 0.5).is_ok());
/// assert!(slst::error::check_fraction("threshold", 1.5).is_err());
/// ```
pub fn check_fraction(name: &'static str, value: f64) -> Result<()> {
    if (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            name,
            value: value.to_string(),
            expected: "a number from 0 to 1",
        })
    }
}
