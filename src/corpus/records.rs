//! A corpus stream that says where each item came from: the file, its format, where in it each
//! document of a collection file lies and, when asked, the bytes it was read from.
//! [`read_sources`] is this stream without them; `slst dedup` reads a corpus through it, then
//! copies the records it keeps from their places ([`open_read`]).
//!
//! [`read_sources`]: super::read_sources

use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use super::folder::{corpus_files, folder_files};
use super::source::{
    RawItems, error_reason, inflating, open, read_failure, skipped_once, stream_records,
};
use super::{Format, Item, Skipped, SourceOptions};

/// The file an item was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The file: a path given, a file found in a folder given (the folder's path joined with
    /// the file's path inside it), or `-` for standard input.
    pub path: PathBuf,
    /// The file's path inside the folder given; `None` for a file named as a source and for
    /// standard input.
    pub in_folder: Option<PathBuf>,
    /// The format it was read as; `None` when the file could not be opened, or its content
    /// could not be told.
    pub format: Option<Format>,
    /// Its length and modification time before it was opened; `None` for standard input, or
    /// when they could not be had.
    pub stamp: Option<Stamp>,
}

/// A file's length and modification time: whether it is still the file that was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// Its length in bytes (as stored: gzip'd when it is).
    pub len: u64,
    /// When it was last modified, where the system says.
    pub modified: Option<SystemTime>,
}

impl Stamp {
    /// The stamp of the file at `path` now; `None` when it cannot be looked at.
    pub fn of(path: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path).ok()?;
        Some(Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
        })
    }
}

/// Where a document's record lies in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Bytes `start..start + len` of the file as read ([`open_read`]: inflated when gzip'd):
    /// a JSON line with its line end, an SGML element from its opening tag through its
    /// closing tag.
    Bytes {
        /// The first byte's offset.
        start: u64,
        /// How many bytes.
        len: u64,
    },
    /// A row of a Parquet file, counted from 0.
    Row(u64),
}

/// The bytes of a file as its records were read from them, inflated when it is gzip'd (by its
/// magic bytes): the stream that [`Place::Bytes`] counts in.
///
/// # Errors
/// [`Error::Io`](crate::Error::Io) naming the file.
pub fn open_read(path: &Path) -> crate::error::Result<Box<dyn Read>> {
    open(path)
}

/// One item of a corpus stream, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The document, or what could not be read.
    pub item: Item,
    /// The file it was read from (shared by the items of one file).
    pub origin: Arc<Origin>,
    /// With `keep_raw`: the bytes a document of a JSON-lines file (its line, with its line
    /// end) or of an SGML file (its element, from its opening tag through its closing tag) was
    /// read from, after gzip decompression. `None` for a whole file (text, HTML: the file is
    /// the record) and for WARC records.
    pub raw: Option<Vec<u8>>,
    /// Where a document of a JSON-lines, SGML or Parquet file lies in it; `None` for a whole
    /// file, a WARC record and what was skipped.
    pub place: Option<Place>,
}

/// Every item of `sources`, in the order and with the ids of
/// [`read_sources`](super::read_sources), each with the file it came from, the place of a
/// collection's document in it and, with `keep_raw`, its bytes.
///
/// # Example
/// ```
/// use slst::corpus::{Format, Item, Place, SourceOptions, read_records};
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("docs.jsonl");
/// std::fs::write(&path, "{\"id\":\"a\",\"text\":\"One.\"}\r\n\n{\"id\":\"b\",\"text\":\"Two.\"}")?;
/// let records: Vec<_> = read_records(&[path], &SourceOptions::default(), true).collect();
/// assert_eq!(records.len(), 2);
/// assert!(matches!(&records[1].item, Item::Document(d) if d.id == "b"));
/// assert_eq!(records[0].raw.as_deref(), Some(&b"{\"id\":\"a\",\"text\":\"One.\"}\r\n"[..]));
/// assert_eq!(records[1].origin.format, Some(Format::Jsonl));
/// // The blank line between them is no record.
/// assert_eq!(records[1].place, Some(Place::Bytes { start: 27, len: 24 }));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_records(
    sources: &[PathBuf],
    options: &SourceOptions,
    keep_raw: bool,
) -> impl Iterator<Item = Record> + use<> {
    let options = options.clone();
    let mut pending: Vec<(PathBuf, Option<PathBuf>)> =
        sources.iter().rev().map(|p| (p.clone(), None)).collect();
    let mut current: Option<(Arc<Origin>, RawItems)> = None;
    std::iter::from_fn(move || {
        loop {
            if let Some((origin, items)) = current.as_mut() {
                if let Some((item, raw, place)) = items.next() {
                    let origin = origin.clone();
                    return Some(Record {
                        item,
                        origin,
                        raw,
                        place,
                    });
                }
                current = None;
            }
            let (path, root) = pending.pop()?;
            if path.is_dir() && path.as_os_str() != "-" {
                match folder_files(&path, &options.folders) {
                    Ok(files) => {
                        let root = root.unwrap_or_else(|| path.clone());
                        let (files, left_out) = corpus_files(files, &options);
                        pending.extend(files.into_iter().rev().map(|f| (f, Some(root.clone()))));
                        if !left_out.is_empty() {
                            let origin = Arc::new(Origin {
                                path: path.clone(),
                                in_folder: None,
                                format: None,
                                stamp: None,
                            });
                            let items =
                                left_out.into_iter().map(|s| (Item::Skipped(s), None, None));
                            current = Some((origin, Box::new(items)));
                        }
                    }
                    Err(reason) => {
                        let location = path.display().to_string();
                        let item = Item::Skipped(Skipped {
                            id: None,
                            location,
                            reason,
                        });
                        let origin = Arc::new(Origin {
                            path,
                            in_folder: None,
                            format: None,
                            stamp: None,
                        });
                        return Some(Record {
                            item,
                            origin,
                            raw: None,
                            place: None,
                        });
                    }
                }
                continue;
            }
            current = Some(open_file(path, root, &options, keep_raw));
        }
    })
}

/// The items of one file (or standard input, `-`), with its origin.
fn open_file(
    path: PathBuf,
    root: Option<PathBuf>,
    options: &SourceOptions,
    keep_raw: bool,
) -> (Arc<Origin>, RawItems) {
    let in_folder = root.map(|r| path.strip_prefix(&r).unwrap_or(&path).to_path_buf());
    let stdin = path.as_os_str() == "-";
    let stamp = if stdin { None } else { Stamp::of(&path) };
    let (format, items) = if stdin {
        // Inflated when gzip'd, as a file is.
        match inflating(BufReader::new(std::io::stdin().lock())) {
            Ok(reader) => stream_records(reader, "-".into(), "<stdin>".into(), options, keep_raw),
            Err(e) => (None, bare(None, "<stdin>".into(), read_failure(&e))),
        }
    } else if super::parquet::is_parquet(&path, options.format) {
        let location = path.display().to_string();
        // One item a row: the item's number is its row's.
        let items = super::parquet::items(&path, location, options)
            .zip(0..)
            .map(|(item, row)| {
                let place = matches!(item, Item::Document(_)).then_some(Place::Row(row));
                (item, None, place)
            });
        (Some(Format::Parquet), Box::new(items) as RawItems)
    } else {
        let id = in_folder.as_ref().unwrap_or(&path).display().to_string();
        let location = path.display().to_string();
        match open(&path) {
            Ok(reader) => stream_records(reader, id, location, options, keep_raw),
            Err(e) => (None, bare(None, location, error_reason(&e))),
        }
    };
    let origin = Origin {
        path,
        in_folder,
        format,
        stamp,
    };
    (Arc::new(origin), items)
}

/// One skipped item, without bytes.
fn bare(id: Option<String>, location: String, reason: String) -> RawItems {
    Box::new(skipped_once(id, location, reason).map(|item| (item, None, None)))
}
