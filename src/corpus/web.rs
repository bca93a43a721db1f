//! Web input: HTML files and WARC files to documents with blocks.

use std::collections::BTreeMap;
use std::io::Read;

use super::source::{Item, Skipped};
use super::{NotText, decode_text};
use crate::document::{Document, Encoding};
use crate::web::warc::{WarcReader, WarcRecord, http_payload};
use crate::web::{SegmentConfig, parse_page};

/// Which WARC field becomes a page's id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WarcId {
    /// `WARC-Target-URI`, the page's address (the default).
    #[default]
    TargetUri,
    /// `WARC-Record-ID`, unique per record.
    RecordId,
}

/// How web input is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WebOptions {
    /// How pages are cut into blocks.
    pub segment: SegmentConfig,
    /// Which WARC field is the id.
    pub warc_id: WarcId,
}

/// Whether the start of a file looks like HTML (a doctype, an `html` element, or a file name
/// ending in `.html`, `.htm` or `.xhtml`, gzip'd or not).
pub fn looks_like_html(head: &str, name: &str) -> bool {
    let name = name
        .strip_suffix(".gz")
        .unwrap_or(name)
        .to_ascii_lowercase();
    if name.ends_with(".html") || name.ends_with(".htm") || name.ends_with(".xhtml") {
        return true;
    }
    let first = head.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
    let lower: String = first
        .chars()
        .take(64)
        .collect::<String>()
        .to_ascii_lowercase();
    lower.starts_with("<!doctype html")
        || lower.starts_with("<html")
        || lower.starts_with("<?xml") && head.contains("<html")
}

/// Whether the start of a stream is a WARC record.
pub fn looks_like_warc(head: &[u8]) -> bool {
    head.starts_with(b"WARC/")
}

/// The charset named by `charset=` in `text` (a `Content-Type` value or the start of a page),
/// if encoding_rs knows it.
pub fn declared_charset(text: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let head = &text[..text.len().min(4096)];
    let lower = head.to_ascii_lowercase();
    let at = lower.windows(8).position(|w| w == b"charset=")? + 8;
    let label: Vec<u8> = lower[at..]
        .iter()
        .copied()
        .skip_while(|&b| b == b'"' || b == b'\'' || b == b' ')
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b':' | b'.'))
        .collect();
    encoding_rs::Encoding::for_label(&label)
}

/// One HTML page's bytes as a document, parsed and cut into blocks. Text that is not UTF-8 is
/// decoded by the charset the HTTP header (`http_charset`, a `Content-Type` value) or the page
/// itself declares, else as Windows-1252.
///
/// # Errors
/// When the bytes are not text.
pub fn html_document(
    id: String,
    bytes: &[u8],
    options: &WebOptions,
    http_charset: Option<&str>,
) -> Result<Document, String> {
    let (mut text, mut encoding) =
        decode_text(bytes).map_err(|NotText(reason)| format!("not text ({reason})"))?;
    let mut declared = None;
    if encoding == Encoding::Windows1252 {
        let charset = http_charset
            .and_then(|h| declared_charset(h.as_bytes()))
            .or_else(|| declared_charset(bytes));
        if let Some(charset) =
            charset.filter(|c| *c != encoding_rs::WINDOWS_1252 && *c != encoding_rs::UTF_8)
        {
            let (decoded, _, _) = charset.decode(bytes);
            text = decoded.into_owned();
            encoding = Encoding::Declared;
            declared = Some(charset.name());
        }
    }
    let mut page = parse_page(&text, &options.segment);
    if let Some(name) = declared {
        page.segmentation
            .notes
            .push(format!("decoded as {name}, the charset the page declares"));
    }
    Ok(Document::from_page(id, page, encoding))
}

/// What one WARC record becomes.
enum RecordOutcome {
    Page(Document),
    /// Not a page: counted by kind.
    NotPage(String),
    /// A response that should have been a page but could not be read.
    Bad(Option<String>, String),
}

fn record_outcome(record: WarcRecord, options: &WebOptions, max_bytes: u64) -> RecordOutcome {
    let kind = record.field("WARC-Type").unwrap_or("untyped").to_string();
    if !kind.eq_ignore_ascii_case("response") {
        return RecordOutcome::NotPage(format!("{kind} records"));
    }
    let id = match options.warc_id {
        WarcId::TargetUri => record.field("WARC-Target-URI"),
        WarcId::RecordId => record.field("WARC-Record-ID"),
    }
    .map(|s| s.trim_matches(['<', '>']).to_string());
    let Some(id) = id else {
        return RecordOutcome::Bad(
            None,
            format!(
                "response record without {}",
                match options.warc_id {
                    WarcId::TargetUri => "WARC-Target-URI",
                    WarcId::RecordId => "WARC-Record-ID",
                }
            ),
        );
    };
    let payload = match http_payload(&record.block) {
        Ok(p) => p,
        Err(e) => return RecordOutcome::Bad(Some(id), e),
    };
    let html = payload
        .content_type
        .as_deref()
        .is_some_and(|t| t.to_ascii_lowercase().contains("html"));
    if !html {
        return RecordOutcome::NotPage("responses that are not HTML".into());
    }
    if !(200..300).contains(&payload.status) {
        return RecordOutcome::NotPage(format!("HTML responses with status {}", payload.status));
    }
    if payload.body.len() as u64 > max_bytes {
        return RecordOutcome::Bad(
            Some(id),
            format!(
                "page of {} bytes is over the size limit of {}",
                payload.body.len(),
                max_bytes
            ),
        );
    }
    match html_document(
        id.clone(),
        &payload.body,
        options,
        payload.content_type.as_deref(),
    ) {
        Ok(doc) => RecordOutcome::Page(doc),
        Err(e) => RecordOutcome::Bad(Some(id), e),
    }
}

/// The pages of a WARC stream (already inflated), one record at a time. A damaged record is a
/// [`Skipped`] item naming the record number and offset; at the end, one more item counts the
/// records that are not HTML pages (requests, metadata, images, redirects), by kind.
pub fn warc_items(
    reader: Box<dyn Read>,
    location: String,
    options: WebOptions,
    max_bytes: u64,
) -> Box<dyn Iterator<Item = Item>> {
    let mut records = WarcReader::new(reader, max_bytes.saturating_add(1 << 16));
    let mut not_pages: BTreeMap<String, usize> = BTreeMap::new();
    let mut finished = false;
    let mut any = false;
    Box::new(std::iter::from_fn(move || {
        if finished {
            return None;
        }
        loop {
            match records.next() {
                None => {
                    finished = true;
                    if !any {
                        return Some(Item::Skipped(Skipped {
                            id: None,
                            location: location.clone(),
                            reason: "no WARC record found".into(),
                        }));
                    }
                    if not_pages.is_empty() {
                        return None;
                    }
                    let total: usize = not_pages.values().sum();
                    let kinds: Vec<String> =
                        not_pages.iter().map(|(k, n)| format!("{n} {k}")).collect();
                    return Some(Item::Skipped(Skipped {
                        id: None,
                        location: location.clone(),
                        reason: format!(
                            "{total} records are not HTML pages and were left out: {}",
                            kinds.join(", ")
                        ),
                    }));
                }
                Some(Err(e)) => {
                    any = true;
                    return Some(Item::Skipped(Skipped {
                        id: e.record_id,
                        location: format!("{location}: record {} at byte {}", e.number, e.offset),
                        reason: e.detail,
                    }));
                }
                Some(Ok(record)) => {
                    any = true;
                    let at = format!(
                        "{location}: record {} at byte {}",
                        record.number, record.offset
                    );
                    match record_outcome(record, &options, max_bytes) {
                        RecordOutcome::Page(doc) => return Some(Item::Document(doc)),
                        RecordOutcome::NotPage(kind) => *not_pages.entry(kind).or_insert(0) += 1,
                        RecordOutcome::Bad(id, reason) => {
                            return Some(Item::Skipped(Skipped {
                                id,
                                location: at,
                                reason,
                            }));
                        }
                    }
                }
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_is_recognised_by_doctype_element_or_name() {
        assert!(looks_like_html("\u{FEFF}  <!DOCTYPE html><p>x", "a"));
        assert!(looks_like_html("<HTML lang=en>", "a"));
        assert!(looks_like_html("plain", "page.HTM.gz"));
        assert!(!looks_like_html("<DOC><DOCNO>1</DOCNO>", "vol1"));
        assert!(!looks_like_html("Just text.", "notes.txt"));
    }

    #[test]
    fn a_declared_charset_decodes_a_page_that_is_not_utf8() {
        // "Привет, мир." in Windows-1251, declared in a meta element.
        let mut html = b"<html><head><meta charset=\"windows-1251\"></head><body><p>".to_vec();
        html.extend(encoding_rs::WINDOWS_1251.encode("Привет, мир.").0.iter());
        html.extend(b"</p></body></html>");
        let doc = html_document("p".into(), &html, &WebOptions::default(), None).unwrap();
        assert_eq!(doc.text, "Привет, мир.");
        assert_eq!(doc.encoding, Encoding::Declared);
        let notes = &doc.segmentation.as_ref().unwrap().notes;
        assert_eq!(
            notes[0],
            "decoded as windows-1251, the charset the page declares"
        );
        // The HTTP header wins over nothing declared in the page; UTF-8 pages are left alone.
        let bare: Vec<u8> = encoding_rs::KOI8_R.encode("<p>Привет</p>").0.into_owned();
        let doc = html_document(
            "k".into(),
            &bare,
            &WebOptions::default(),
            Some("text/html; charset=KOI8-R"),
        )
        .unwrap();
        assert_eq!(doc.text, "Привет");
        let doc = html_document(
            "u".into(),
            "<p>Привет</p>".as_bytes(),
            &WebOptions::default(),
            Some("text/html; charset=koi8-r"),
        )
        .unwrap();
        assert_eq!(
            (doc.text.as_str(), doc.encoding),
            ("Привет", Encoding::Utf8)
        );
    }
}
