//! Readers: files on disk to [`Document`]s.
//!
//! This is the edge where bytes come in. Everything here names the file it is about in its
//! errors; everything after it works on [`Document`] values in memory.
//!
//! - [`decode_text`]: bytes to text (UTF-8, UTF-8 with BOM, UTF-16 with BOM, else Windows-1252),
//!   refusing binary data, and [`read_bytes`]: a file's bytes under a size limit (both from
//!   [`crate::document`], where word lists read files too);
//! - gzip'd input is recognised by its magic bytes, not by the file name;
//! - [`sgml`]: TREC SGML and other SGML collections (Reuters-21578);
//! - [`detect_format`]: the one rule by which every command tells a file's format;
//! - [`read_sources`]: every document of files, folders and standard input, as a stream;
//!   [`read_records`] the same with each item's file and, when asked, its record's bytes;
//!   [`read_stream`] the same for one byte stream (bytes in memory, a pipe);
//! - [`read_document`]: one document from a path, as `slst compare` and `slst profile` need it
//!   (collection files through the same stream reader);
//! - [`write_trec`]: documents back to TREC SGML (`slst synth`, `slst sample`);
//! - `arrow` (the Cargo feature `arrow`): documents from Arrow record batches, as Parquet
//!   corpora and the Python package's Arrow tables are read.

#[cfg(feature = "arrow")]
pub mod arrow;
mod folder;
pub mod jsonl;
mod parquet;
mod records;
pub mod sgml;
mod source;
pub mod web;
mod write;

use std::path::Path;

pub use folder::FolderOptions;
pub use records::{Origin, Place, Record, Stamp, open_read, read_records};
use sgml::SgmlOptions;
pub use source::{
    Item, Skipped, SourceOptions, check_sources, detect_format, read_sources, read_stream,
};
pub use web::{WarcId, WebOptions};
pub use write::write_trec;

pub use crate::document::{DEFAULT_MAX_BYTES, NotText, decode_text, read_bytes};

use crate::document::Document;
use crate::error::{Error, Result};

/// What a build without the Cargo feature `parquet` says of a Parquet file, read or written.
pub const NO_PARQUET: &str =
    "this slst was built without Parquet support; build with `--features parquet`";

/// How to interpret a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// By content: a WARC version line → WARC, Reuters-21578's `lewis` doctype or `<REUTERS>`
    /// → SGML with its own elements, a doctype or `<html>` (or a `.html`/`.htm`
    /// name) → HTML, `<DOC>` → TREC SGML, else plain text.
    #[default]
    Auto,
    /// Plain text: the whole file is one document.
    Text,
    /// TREC SGML.
    Trec,
    /// Generic SGML, with the elements given in [`ReadOptions::sgml`].
    Sgml,
    /// JSON lines: one object per line.
    Jsonl,
    /// An HTML page: its visible text, cut into structural-semantic blocks.
    Html,
    /// A WARC file: every HTML response record is a page.
    Warc,
    /// A Parquet file: one document per row, id and text from the columns the JSON-lines
    /// field names give (the Cargo feature `parquet`).
    Parquet,
}

/// Settings for [`read_document`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadOptions {
    /// How to interpret the file.
    pub format: Format,
    /// For a TREC file with several documents: the `DOCNO` to take.
    pub docno: Option<String>,
    /// Refuse files (after decompression) larger than this many bytes.
    pub max_bytes: u64,
    /// Which SGML elements make a document, its id and its text (TREC by default).
    pub sgml: SgmlOptions,
    /// Which JSON fields hold a document's id and text.
    pub jsonl: jsonl::JsonlOptions,
    /// How web pages are cut into blocks, and which WARC field is a page's id.
    pub web: WebOptions,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            format: Format::Auto,
            docno: None,
            max_bytes: DEFAULT_MAX_BYTES,
            sgml: SgmlOptions::trec(),
            jsonl: jsonl::JsonlOptions::default(),
            web: WebOptions::default(),
        }
    }
}

/// Read one document from a file: plain text or an HTML page (id = the path as given), or one
/// document of a TREC/SGML, JSON-lines or WARC file (id = its `DOCNO`, id field or WARC id; the
/// file must hold exactly one, or `options.docno` must name one). The format is found by the
/// same rule as for a corpus ([`detect_format`]), and collection files are read by the same
/// reader ([`read_sources`]).
///
/// An empty file is a document with empty text, not an error.
///
/// # Errors
/// Anything [`read_bytes`] reports; [`Error::Binary`]; for collection files [`Error::Sgml`] or
/// [`Error::Jsonl`] when no document of the file can be read, [`Error::AmbiguousDocument`] and
/// [`Error::NoSuchDocument`].
pub fn read_document(path: &Path, options: &ReadOptions) -> Result<Document> {
    read_one(path, options).map(|(doc, _)| doc)
}

/// [`read_document`], with the parts of a collection file that could not be read (a WARC
/// record cut short, a JSON line without a text) beside the document.
///
/// # Errors
/// As [`read_document`].
pub fn read_one(path: &Path, options: &ReadOptions) -> Result<(Document, Vec<Skipped>)> {
    if parquet::is_parquet(path, options.format) {
        parquet::check_source(path)?;
        let source = SourceOptions {
            format: Format::Parquet,
            jsonl: options.jsonl.clone(),
            max_bytes: options.max_bytes,
            ..SourceOptions::default()
        };
        let name = path.display().to_string();
        let (docs, skipped) = split(parquet::items(path, name, &source));
        if let (true, Some(first)) = (docs.is_empty(), skipped.first()) {
            return Err(Error::UnknownFormat {
                path: path.to_path_buf(),
                detail: first.reason.clone(),
            });
        }
        return choose(path, docs, options).map(|doc| (doc, skipped));
    }
    let bytes = read_bytes(path, options.max_bytes)?;
    let name = path.display().to_string();
    let format = match options.format {
        Format::Auto => detect_format(&bytes, &name),
        f => f,
    };
    if options.format == Format::Auto
        && format == Format::Text
        && let Some(detail) = source::unknown_collection(&bytes)
    {
        return Err(Error::UnknownFormat {
            path: path.to_path_buf(),
            detail,
        });
    }
    if matches!(format, Format::Text | Format::Html | Format::Auto) {
        return single_document(path, name, bytes, format, options).map(|d| (d, Vec::new()));
    }
    // A collection, read as a corpus run reads it. UTF-16 is transcoded first (the stream
    // reader scans bytes for tags and lines).
    let (bytes, encoding) = match bytes.get(..2) {
        Some([0xFF, 0xFE] | [0xFE, 0xFF]) => match decode_text(&bytes) {
            Ok((text, encoding)) => (text.into_bytes(), Some(encoding)),
            Err(NotText(reason)) => {
                return Err(Error::Binary {
                    path: path.to_path_buf(),
                    reason,
                });
            }
        },
        _ => (bytes, None),
    };
    // The format as asked: a detected one is found again, by the same rule as in a corpus run.
    let source = SourceOptions {
        format: options.format,
        sgml: options.sgml.clone(),
        jsonl: options.jsonl.clone(),
        max_bytes: options.max_bytes,
        mail_body: false,
        web: options.web,
        folders: FolderOptions::default(),
    };
    let mut docs = Vec::new();
    let mut skipped = Vec::new();
    let cursor = Box::new(std::io::Cursor::new(bytes));
    for item in source::stream_items(cursor, name.clone(), name.clone(), &source) {
        match item {
            Item::Document(mut d) => {
                if let Some(encoding) = encoding {
                    d.encoding = encoding;
                }
                docs.push(d);
            }
            Item::Skipped(s) => skipped.push(s),
        }
    }
    if docs.is_empty()
        && let Some(first) = skipped.first()
    {
        let line = first
            .location
            .strip_prefix(&format!("{name}:"))
            .and_then(|l| l.parse().ok())
            .unwrap_or(1);
        let (path, detail) = (path.to_path_buf(), first.reason.clone());
        return Err(match format {
            Format::Jsonl => Error::Jsonl { path, line, detail },
            Format::Warc => Error::NoSuchDocument {
                path,
                docno: options.docno.clone().unwrap_or_default(),
                count: 0,
            },
            _ => Error::Sgml { path, line, detail },
        });
    }
    choose(path, docs, options).map(|doc| (doc, skipped))
}

/// The documents and the skipped items of a stream.
fn split(items: impl Iterator<Item = Item>) -> (Vec<Document>, Vec<Skipped>) {
    let (mut docs, mut skipped) = (Vec::new(), Vec::new());
    for item in items {
        match item {
            Item::Document(d) => docs.push(d),
            Item::Skipped(s) => skipped.push(s),
        }
    }
    (docs, skipped)
}

/// A plain-text file or an HTML page as one document, id = the path as given.
fn single_document(
    path: &Path,
    name: String,
    bytes: Vec<u8>,
    format: Format,
    options: &ReadOptions,
) -> Result<Document> {
    let binary = |reason| Error::Binary {
        path: path.to_path_buf(),
        reason,
    };
    if format == Format::Html {
        return web::html_document(name, &bytes, &options.web, None).map_err(binary);
    }
    let (text, encoding) = decode_text(&bytes).map_err(|NotText(reason)| binary(reason))?;
    Ok(Document::decoded(name, text, encoding))
}

/// The one document of a collection file, or the one `options.docno` names.
fn choose(path: &Path, docs: Vec<Document>, options: &ReadOptions) -> Result<Document> {
    let chosen = match &options.docno {
        Some(docno) => {
            docs.iter()
                .position(|d| &d.id == docno)
                .ok_or_else(|| Error::NoSuchDocument {
                    path: path.to_path_buf(),
                    docno: docno.clone(),
                    count: docs.len(),
                })?
        }
        None if docs.len() == 1 => 0,
        None => {
            let mut examples: Vec<&str> = docs.iter().take(3).map(|d| d.id.as_str()).collect();
            if docs.len() > 3 {
                examples.push("…");
            }
            return Err(if docs.is_empty() {
                Error::NoSuchDocument {
                    path: path.to_path_buf(),
                    docno: String::new(),
                    count: 0,
                }
            } else {
                Error::AmbiguousDocument {
                    path: path.to_path_buf(),
                    count: docs.len(),
                    examples: examples.join(", "),
                }
            });
        }
    };
    let mut docs = docs;
    Ok(docs.swap_remove(chosen))
}
