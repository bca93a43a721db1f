//! Streaming corpus reading: files, folders and standard input to a stream of documents.
//!
//! A batch run reads [`read_sources`]: every document of every source, in order, one at a time,
//! so memory never holds the corpus text. A file or document that cannot be read becomes a
//! [`Skipped`] item naming where it is and why, and the stream goes on.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use super::folder::FolderOptions;
use super::jsonl::{self, JsonlOptions};
use super::records::Place;
use super::sgml::{self, SgmlOptions, SgmlSplitter};
use super::web::{self, WebOptions};
use super::{Format, NotText, decode_text};
use crate::document::Document;
use crate::error::Error;

/// How to read sources.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceOptions {
    /// The format; `Auto` decides per file by content (`<DOC` → TREC, `{` → JSON lines, else
    /// text) and by extension (`.jsonl`, `.ndjson`).
    pub format: Format,
    /// SGML elements (for `Format::Sgml`, and TREC's headlines). The default, TREC's, stands
    /// for "none named": a Reuters-21578 file ([`sgml::looks_like_reuters`]) is then read with
    /// its own ([`SgmlOptions::reuters`]), whether its format was detected or given as
    /// `Format::Sgml`.
    pub sgml: SgmlOptions,
    /// JSON-lines fields.
    pub jsonl: JsonlOptions,
    /// Documents (and plain-text files) larger than this many bytes are skipped.
    pub max_bytes: u64,
    /// For plain-text files: drop an RFC 822 header block (lines `Name: value` up to the first
    /// blank line), as in mail and Usenet messages; the text is then the body.
    pub mail_body: bool,
    /// How web pages are cut into blocks, and which WARC field is a page's id.
    pub web: WebOptions,
    /// Which files of a folder are read, and whether symbolic links in it are followed.
    pub folders: FolderOptions,
}

impl Default for SourceOptions {
    fn default() -> Self {
        SourceOptions {
            format: Format::Auto,
            sgml: SgmlOptions::trec(),
            jsonl: JsonlOptions::default(),
            max_bytes: super::DEFAULT_MAX_BYTES,
            mail_body: false,
            web: WebOptions::default(),
            folders: FolderOptions::default(),
        }
    }
}

/// The body of a message: the text after its header block, if it starts with one.
fn mail_body(text: String) -> String {
    let first = text.lines().next().unwrap_or("");
    let is_header = first.split_once(':').is_some_and(|(name, _)| {
        !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    });
    if !is_header {
        return text;
    }
    match text.find("\n\n").or_else(|| text.find("\r\n\r\n")) {
        Some(end) => text[end..].trim_start_matches(['\r', '\n']).to_string(),
        None => String::new(),
    }
}

/// A document that was not read, and why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    /// The document's id, when it was known.
    pub id: Option<String>,
    /// Where: the file, and the line for documents inside a collection file.
    pub location: String,
    /// What was wrong.
    pub reason: String,
}

/// The format of a stream by its content: the one rule every command reads by.
///
/// A `WARC/` version line → WARC; the `lewis` doctype or `<REUTERS` → Reuters-21578 SGML (its
/// own elements unless others are given); a doctype or `<html>` (or a `.html`/`.htm`/`.xhtml`
/// name) → HTML; `<DOC` → TREC SGML; `{` (or a `.jsonl`/`.ndjson` name) → JSON lines; else plain
/// text.
/// `head` is the stream's first bytes (1 KiB is plenty), `name` its file name or location.
///
/// # Example
/// ```
/// use slst::corpus::{Format, detect_format};
/// assert_eq!(detect_format(b"<DOC>\n<DOCNO>1</DOCNO>", "a"), Format::Trec);
/// assert_eq!(detect_format(b"<!DOCTYPE lewis SYSTEM \"lewis.dtd\">\n<REUTERS NEWID=\"1\">", "reut2-000.sgm"), Format::Sgml);
/// assert_eq!(detect_format(b"{\"id\": 1}", "a"), Format::Jsonl);
/// assert_eq!(detect_format(b"Plain words.", "notes.jsonl"), Format::Jsonl);
/// assert_eq!(detect_format(b"Plain words.", "notes.txt"), Format::Text);
/// ```
pub fn detect_format(head: &[u8], name: &str) -> Format {
    if web::looks_like_warc(head) {
        return Format::Warc;
    } else if head.starts_with(b"PAR1") {
        return Format::Parquet;
    }
    let head = &head[..head.len().min(1024)];
    let text = match decode_text(head) {
        Ok((text, _)) => text,
        Err(_) => String::from_utf8_lossy(head).into_owned(),
    };
    let first = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
    let name = name.strip_suffix(".gz").unwrap_or(name);
    // Before HTML: a Reuters-21578 file starts with a doctype too.
    if sgml::looks_like_reuters(first) {
        Format::Sgml
    } else if web::looks_like_html(first, name) {
        Format::Html
    } else if sgml::looks_like_trec(first) {
        Format::Trec
    } else if first.starts_with('{') || name.ends_with(".jsonl") || name.ends_with(".ndjson") {
        Format::Jsonl
    } else {
        Format::Text
    }
}

/// For a file detected as plain text: why it is not read as one, when its start looks like a
/// collection of documents in SGML elements slst does not know ([`sgml::guess_collection`]).
pub(super) fn unknown_collection(head: &[u8]) -> Option<String> {
    let head = &head[..head.len().min(1 << 16)];
    sgml::guess_collection(&String::from_utf8_lossy(head)).map(|g| g.hint())
}

/// One item of a corpus stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    /// A document.
    Document(Document),
    /// Something that could not be read as a document.
    Skipped(Skipped),
}

/// Check that every input named (a file or a folder; `-` is standard input) exists and can be
/// looked at, before a run starts: a mistyped path is an error, not an empty corpus.
///
/// # Errors
/// [`crate::Error::Io`] naming the first path that cannot be read.
///
/// # Example
/// ```
/// use std::path::PathBuf;
/// assert!(slst::corpus::check_sources(&[PathBuf::from("-")]).is_ok());
/// let e = slst::corpus::check_sources(&[PathBuf::from("no/such/file.txt")]).unwrap_err();
/// assert!(e.to_string().starts_with("no/such/file.txt: cannot read"));
/// ```
pub fn check_sources(sources: &[PathBuf]) -> crate::error::Result<()> {
    for path in sources.iter().filter(|p| p.as_os_str() != "-") {
        std::fs::metadata(path).map_err(|source| crate::error::Error::Io {
            path: path.clone(),
            source,
        })?;
        super::parquet::check_source(path)?;
    }
    Ok(())
}

/// Every document of `sources`, in order: files as given, folders recursively in sorted path
/// order, `-` for standard input. Ids: the path as given for a text file, the path relative to
/// the folder for a text file inside one, the collection's own id for SGML and JSON lines.
/// [`read_records`](super::read_records) gives the same items with where each came from.
pub fn read_sources(
    sources: &[PathBuf],
    options: &SourceOptions,
) -> impl Iterator<Item = Item> + use<> {
    super::records::read_records(sources, options, false).map(|r| r.item)
}

/// The message of an error without the path it starts with (the location says it).
pub(super) fn error_reason(e: &Error) -> String {
    let text = e.to_string();
    match text.split_once(": ") {
        Some((_, rest)) => rest.to_string(),
        None => text,
    }
}

/// Open a file for streaming, inflating gzip (recognised by its magic bytes).
pub(super) fn open(path: &Path) -> Result<Box<dyn Read>, Error> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    inflating(BufReader::new(File::open(path).map_err(io)?)).map_err(io)
}

/// A stream, inflated when its first two bytes are gzip's magic bytes.
pub(super) fn inflating<R: Read + 'static>(
    mut reader: BufReader<R>,
) -> std::io::Result<Box<dyn Read>> {
    let gz = reader.fill_buf()?.starts_with(&[0x1F, 0x8B]);
    Ok(if gz {
        Box::new(flate2::read::MultiGzDecoder::new(reader))
    } else {
        Box::new(reader)
    })
}

/// Every document of one byte stream (bytes in memory, a network body, a pipe), read as
/// [`read_sources`] reads a file: gzip'd content inflated, the format found by
/// [`detect_format`] from the first bytes and `name` (unless `options` name one), each document
/// that cannot be read a [`Skipped`] item. `name` is the id of a plain-text or HTML document and
/// the location that skipped items give.
///
/// # Example
/// ```
/// use slst::corpus::{Item, SourceOptions, read_stream};
/// let sgml = b"<DOC><DOCNO>A</DOCNO><TEXT>One.</TEXT></DOC>\n<DOC><TEXT>no id</TEXT></DOC>";
/// let items: Vec<Item> = read_stream(&sgml[..], "vol1", &SourceOptions::default()).collect();
/// assert!(matches!(&items[0], Item::Document(d) if d.id == "A"));
/// assert!(matches!(&items[1], Item::Skipped(s) if s.location == "vol1:2"));
/// ```
pub fn read_stream<R: Read + 'static>(
    reader: R,
    name: &str,
    options: &SourceOptions,
) -> Box<dyn Iterator<Item = Item>> {
    match inflating(BufReader::new(reader)) {
        Ok(reader) => stream_items(reader, name.to_string(), name.to_string(), options),
        Err(e) => skipped_once(None, name.to_string(), read_failure(&e)),
    }
}

/// The items of one opened stream, by its format.
pub(super) fn stream_items(
    reader: Box<dyn Read>,
    id: String,
    location: String,
    options: &SourceOptions,
) -> Box<dyn Iterator<Item = Item>> {
    Box::new(
        stream_records(reader, id, location, options, false)
            .1
            .map(|(item, _, _)| item),
    )
}

/// Items with, when `keep_raw` is set, the bytes each document of a JSON-lines or SGML stream
/// was read from (its line, its element), and where those bytes lie in the stream.
pub(super) type RawItems = Box<dyn Iterator<Item = (Item, Option<Vec<u8>>, Option<Place>)>>;

/// The items of one opened stream, by its format, with that format (`None` when it could not
/// be told), with `keep_raw` each collection document's bytes as read, and their place.
pub(super) fn stream_records(
    reader: Box<dyn Read>,
    id: String,
    location: String,
    options: &SourceOptions,
    keep_raw: bool,
) -> (Option<Format>, RawItems) {
    let bare = |items: Box<dyn Iterator<Item = Item>>| -> RawItems {
        Box::new(items.map(|item| (item, None, None)))
    };
    let mut reader = BufReader::with_capacity(1 << 16, reader);
    let format = match options.format {
        Format::Auto => match reader.fill_buf() {
            Ok(head) => match detect_format(head, &location) {
                Format::Text => match unknown_collection(head) {
                    Some(hint) => return (None, bare(skipped_once(Some(id), location, hint))),
                    None => Format::Text,
                },
                format => format,
            },
            Err(e) => {
                let reason = format!("cannot read: {e}");
                return (None, bare(skipped_once(None, location, reason)));
            }
        },
        f => f,
    };
    let options = options.clone();
    let items = match format {
        Format::Warc => bare(web::warc_items(
            Box::new(reader),
            location,
            options.web,
            options.max_bytes,
        )),
        Format::Auto | Format::Text | Format::Html => bare(Box::new(std::iter::once(whole_item(
            reader, id, location, format, &options,
        )))),
        Format::Trec | Format::Sgml => sgml_items(reader, location, format, options, keep_raw),
        Format::Jsonl => jsonl_items(reader, location, options, keep_raw),
        Format::Parquet => bare(skipped_once(
            Some(id),
            location,
            super::parquet::not_a_stream(),
        )),
    };
    (Some(format), items)
}

/// A plain-text file or an HTML page: one document, or why it is not one.
fn whole_item(
    reader: BufReader<Box<dyn Read>>,
    id: String,
    location: String,
    format: Format,
    options: &SourceOptions,
) -> Item {
    let mut bytes = Vec::new();
    let read = reader
        .take(options.max_bytes.saturating_add(1))
        .read_to_end(&mut bytes);
    match read {
        Err(e) => skipped(None, location, read_failure(&e)),
        Ok(_) if bytes.len() as u64 > options.max_bytes => skipped(
            Some(id),
            location,
            format!("more than the limit of {} bytes", options.max_bytes),
        ),
        Ok(_) if format == Format::Html => {
            match web::html_document(id.clone(), &bytes, &options.web, None) {
                Ok(doc) => Item::Document(doc),
                Err(reason) => skipped(Some(id), location, reason),
            }
        }
        Ok(_) => match decode_text(&bytes) {
            Ok((text, encoding)) => {
                let text = if options.mail_body {
                    mail_body(text)
                } else {
                    text
                };
                Item::Document(Document::decoded(id, text, encoding))
            }
            Err(NotText(reason)) => skipped(
                Some(id),
                location,
                format!("looks like a binary file ({reason})"),
            ),
        },
    }
}

/// The documents of an SGML stream (TREC, or the elements `options.sgml` names), each
/// element read and parsed on its own, so that a bad one is skipped with its line; each
/// document with its element's place and, with `keep_raw`, its bytes.
fn sgml_items(
    mut reader: BufReader<Box<dyn Read>>,
    location: String,
    format: Format,
    options: SourceOptions,
    keep_raw: bool,
) -> RawItems {
    let reuters = reader.fill_buf().is_ok_and(|head| {
        sgml::looks_like_reuters(&String::from_utf8_lossy(&head[..head.len().min(1024)]))
    });
    let sgml_options = sgml_elements(format, reuters, &options);
    let mut splitter =
        SgmlSplitter::new(reader, &sgml_options.doc_tag).with_limit(options.max_bytes);
    let mut failed = false;
    let mut found_any = false;
    Box::new(std::iter::from_fn(move || {
        if failed {
            return None;
        }
        match splitter.next_document() {
            Err(e) => {
                failed = true;
                Some((
                    skipped(None, location.clone(), read_failure(&e)),
                    None,
                    None,
                ))
            }
            Ok(None) if !found_any => {
                failed = true;
                Some((
                    skipped(
                        None,
                        location.clone(),
                        format!("no <{}> element found", sgml_options.doc_tag),
                    ),
                    None,
                    None,
                ))
            }
            Ok(None) => None,
            Ok(Some(raw)) => {
                found_any = true;
                let at = format!("{}:{}", location, raw.line);
                if raw.len > options.max_bytes {
                    return Some((
                        skipped(
                            None,
                            at,
                            format!(
                                "over the limit of {} bytes (a document of {} bytes)",
                                options.max_bytes, raw.len
                            ),
                        ),
                        None,
                        None,
                    ));
                }
                let item = match decode_text(&raw.bytes) {
                    Err(NotText(reason)) => skipped(None, at, format!("not text ({reason})")),
                    Ok((element, encoding)) => {
                        match sgml::parse_document(&element, raw.line, &sgml_options) {
                            Ok(doc) => {
                                Item::Document(Document::decoded(doc.id, doc.text, encoding))
                            }
                            Err(e) => skipped(None, at, e.detail),
                        }
                    }
                };
                let place = Place::Bytes {
                    start: raw.start,
                    len: raw.len,
                };
                Some((item, keep_raw.then_some(raw.bytes), Some(place)))
            }
        }
    }))
}

/// The elements an SGML stream is read with: TREC's for a file detected as TREC; for SGML, those
/// named, or when none is named ([`SourceOptions::sgml`] at its default) a Reuters-21578 file's
/// own (`reuters`: the stream starts like one).
fn sgml_elements(format: Format, reuters: bool, options: &SourceOptions) -> SgmlOptions {
    let unnamed = SgmlOptions {
        include_headlines: false,
        ..options.sgml.clone()
    } == SgmlOptions::trec();
    if format == Format::Trec && options.format == Format::Auto {
        SgmlOptions {
            include_headlines: options.sgml.include_headlines,
            ..SgmlOptions::trec()
        }
    } else if format == Format::Sgml && unnamed && reuters {
        SgmlOptions::reuters()
    } else {
        options.sgml.clone()
    }
}

/// The documents of a JSON-lines stream, a bad line skipped with its number; each document with
/// its line's place and, with `keep_raw`, the line as read (its line end included).
fn jsonl_items(
    mut reader: BufReader<Box<dyn Read>>,
    location: String,
    options: SourceOptions,
    keep_raw: bool,
) -> RawItems {
    let mut line_no = 0usize;
    let mut offset = 0u64;
    let mut buf = Vec::new();
    let mut done = false;
    Box::new(std::iter::from_fn(move || {
        while !done {
            buf.clear();
            line_no += 1;
            match read_line_bounded(&mut reader, &mut buf, options.max_bytes) {
                Err(e) => {
                    done = true;
                    let at = format!("{location}:{line_no}");
                    return Some((skipped(None, at, read_failure(&e)), None, None));
                }
                Ok(0) => done = true,
                Ok(len) => {
                    let at = format!("{location}:{line_no}");
                    let place = Place::Bytes { start: offset, len };
                    offset += len;
                    if len > options.max_bytes {
                        let reason = format!(
                            "over the limit of {} bytes (a line of {len} bytes)",
                            options.max_bytes
                        );
                        return Some((skipped(None, at, reason), None, None));
                    }
                    let line = match std::str::from_utf8(&buf) {
                        Ok(l) => l.trim(),
                        Err(_) => {
                            let reason = "not valid UTF-8 (JSON must be)".into();
                            return Some((skipped(None, at, reason), None, None));
                        }
                    };
                    if line.is_empty() {
                        continue;
                    }
                    return Some(match jsonl::parse_line(line, &options.jsonl) {
                        Ok((id, text)) => (
                            Item::Document(Document::new(id, text)),
                            keep_raw.then(|| buf.clone()),
                            Some(place),
                        ),
                        Err(reason) => (skipped(None, at, reason), None, None),
                    });
                }
            }
        }
        None
    }))
}

/// Read one line (through its `\n`) into `buf`, keeping at most `limit + 1` bytes of it, and
/// return its whole length (0 at the end of the stream): a line of any length is read past in
/// bounded memory.
fn read_line_bounded(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    limit: u64,
) -> std::io::Result<u64> {
    let mut len = 0u64;
    loop {
        let available = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(len);
        }
        let (n, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        let room = usize::try_from((limit + 1).saturating_sub(buf.len() as u64)).unwrap_or(n);
        buf.extend_from_slice(&available[..n.min(room)]);
        reader.consume(n);
        len += n as u64;
        if done {
            return Ok(len);
        }
    }
}

pub(super) fn read_failure(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::UnexpectedEof
        | std::io::ErrorKind::InvalidInput
        | std::io::ErrorKind::InvalidData => {
            format!("damaged gzip data or truncated input ({e})")
        }
        _ => format!("cannot read: {e}"),
    }
}

fn skipped(id: Option<String>, location: String, reason: String) -> Item {
    Item::Skipped(Skipped {
        id,
        location,
        reason,
    })
}

pub(super) fn skipped_once(
    id: Option<String>,
    location: String,
    reason: String,
) -> Box<dyn Iterator<Item = Item>> {
    Box::new(std::iter::once(skipped(id, location, reason)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn collect(sources: &[PathBuf], options: &SourceOptions) -> (Vec<Document>, Vec<Skipped>) {
        let mut docs = Vec::new();
        let mut skipped = Vec::new();
        for item in read_sources(sources, options) {
            match item {
                Item::Document(d) => docs.push(d),
                Item::Skipped(s) => skipped.push(s),
            }
        }
        (docs, skipped)
    }

    #[test]
    fn folder_is_read_recursively_in_path_order_with_relative_ids() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        // Texts make up most of the bytes: every file is read, the JSON lines too.
        let text = |t: &str| format!("{t} text, a plain document of its own.");
        std::fs::write(dir.path().join("b.txt"), text("Bee")).unwrap();
        std::fs::write(dir.path().join("a.txt"), text("Ay")).unwrap();
        std::fs::write(dir.path().join("sub/c.txt"), text("See")).unwrap();
        std::fs::write(dir.path().join(".hidden"), "no").unwrap();
        std::fs::write(
            dir.path().join("d.jsonl"),
            "{\"id\":\"j1\",\"text\":\"Jay.\"}\n\n{\"id\":2}\n",
        )
        .unwrap();
        std::fs::write(dir.path().join("e.bin"), b"\x00\x01\x02").unwrap();
        let (docs, skipped) = collect(&[dir.path().to_path_buf()], &SourceOptions::default());
        let ids: Vec<&str> = docs.iter().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, ["a.txt", "b.txt", "j1", "sub/c.txt"]);
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        assert!(
            skipped[0].location.ends_with("d.jsonl:3")
                && skipped[0].reason.contains("no field \"text\"")
        );
        assert!(skipped[1].reason.contains("binary"), "{skipped:?}");
    }

    #[test]
    fn trec_gzip_streams_and_bad_documents_are_skipped_with_their_line() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let sgml = "<DOC>\n<DOCNO>A</DOCNO><TEXT>One.</TEXT></DOC>\n<DOC>\n<TEXT>no id</TEXT></DOC>\n<DOC><DOCNO>C</DOCNO><TEXT>Three.</TEXT></DOC>\n";
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(sgml.as_bytes()).unwrap();
        let gz = enc.finish().unwrap();
        let path = dir.path().join("vol1");
        std::fs::write(&path, &gz).unwrap();
        let (docs, skipped) = collect(std::slice::from_ref(&path), &SourceOptions::default());
        assert_eq!(
            docs.iter().map(|d| d.id.as_str()).collect::<Vec<_>>(),
            ["A", "C"]
        );
        assert_eq!(skipped.len(), 1);
        assert!(skipped[0].location.ends_with("vol1:3"), "{skipped:?}");
        // Truncated gzip: the documents before the damage are read, then one skip says why.
        std::fs::write(&path, &gz[..gz.len() - 12]).unwrap();
        let (_, skipped) = collect(&[path], &SourceOptions::default());
        assert!(
            skipped.last().unwrap().reason.contains("damaged gzip"),
            "{skipped:?}"
        );
    }

    #[test]
    fn mail_headers_are_dropped_when_asked() {
        assert_eq!(
            mail_body("From: a@b\nSubject: x\n\nBody here.\n".into()),
            "Body here.\n"
        );
        assert_eq!(
            mail_body("No header. Just text.\n\nMore.".into()),
            "No header. Just text.\n\nMore."
        );
    }

    #[test]
    fn missing_file_is_skipped_and_the_stream_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ok.txt"), "Fine.").unwrap();
        let (docs, skipped) = collect(
            &[dir.path().join("missing.txt"), dir.path().join("ok.txt")],
            &SourceOptions::default(),
        );
        assert_eq!(docs.len(), 1);
        assert!(skipped[0].reason.starts_with("cannot read"), "{skipped:?}");
    }
}
