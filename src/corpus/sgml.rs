//! A tolerant reader for SGML document collections: TREC (`<DOC><DOCNO>…</DOCNO><TEXT>…`),
//! Reuters-21578 (`<REUTERS NEWID="1">…<TITLE>…<BODY>…`) and their relatives.
//!
//! These collections are SGML, not XML: bare `&` (`AT&T`), unquoted attributes (`<F P=105>`),
//! unclosed `<P>` and a missing final `</DOC>` all occur in the shipped volumes, and an XML parser
//! stops at the first of them. This reader only looks for the few tags it needs, case-insensitively,
//! and tolerates everything else.
//!
//! The text of a document is the concatenation of its text elements (and, when asked, its
//! headline elements), separated by a blank line. Tags *inside* those elements are replaced by
//! white space of the same byte length (paragraph tags by a blank line) and character entities
//! (`&amp;`, `&#39;`) by their characters; byte spans of SGML documents are offsets into this
//! text.
//!
//! [`read_sgml`] parses a whole text in memory; [`SgmlSplitter`] cuts a byte stream into
//! document elements without ever holding more than one document (plus a read buffer), so
//! corpora of any size stream through.

mod scan;
mod split;
#[cfg(test)]
mod tests;

pub(crate) use self::scan::decode_entities;
use self::scan::{
    attribute, attribute_names, blank_inner_tags, element_contents, element_start, find_close_tag,
    open_tag_at, skip_prolog,
};
pub use self::split::{RawElement, SgmlSplitter};

/// Where a document's id comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdSource {
    /// The trimmed content of the first element with this tag (TREC: `DOCNO`).
    Tag(String),
    /// The value of this attribute of the document's own tag (Reuters: `NEWID`).
    Attr(String),
}

/// Which elements make a document, its id and its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SgmlOptions {
    /// The element that holds one document (TREC: `DOC`).
    pub doc_tag: String,
    /// Where the id comes from (TREC: the `DOCNO` element).
    pub id: IdSource,
    /// Elements whose content is the document's body (TREC: `TEXT`).
    pub text_tags: Vec<String>,
    /// Headline elements put before the body when `include_headlines` is set
    /// (TREC: `HEAD`, `HEADLINE`, `HL` — AP, LA Times, WSJ).
    pub headline_tags: Vec<String>,
    /// Put headline elements before the body text.
    pub include_headlines: bool,
}

impl SgmlOptions {
    /// TREC: `<DOC>`, id from `<DOCNO>`, text from `<TEXT>`, headlines `HEAD`/`HEADLINE`/`HL`.
    pub fn trec() -> Self {
        SgmlOptions {
            doc_tag: "DOC".into(),
            id: IdSource::Tag("DOCNO".into()),
            text_tags: vec!["TEXT".into()],
            headline_tags: vec!["HEAD".into(), "HEADLINE".into(), "HL".into()],
            include_headlines: false,
        }
    }

    /// Reuters-21578 as it ships: `<REUTERS NEWID="…">`, text from `<TITLE>` and `<BODY>`.
    pub fn reuters() -> Self {
        SgmlOptions {
            doc_tag: "REUTERS".into(),
            id: IdSource::Attr("NEWID".into()),
            text_tags: vec!["TITLE".into(), "BODY".into()],
            headline_tags: Vec::new(),
            include_headlines: false,
        }
    }
}

impl Default for SgmlOptions {
    fn default() -> Self {
        Self::trec()
    }
}

/// One document read from an SGML collection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SgmlDocument {
    /// The document's id (trimmed).
    pub id: String,
    /// The document text (see the module docs).
    pub text: String,
    /// 1-based line of the document's opening tag.
    pub line: usize,
}

/// A problem found while reading SGML: the 1-based line and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SgmlError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub detail: String,
}

/// True when a text starts like a Reuters-21578 file: the `lewis` doctype, or a `<REUTERS`
/// element first.
///
/// # Example
/// ```
/// use slst::corpus::sgml::looks_like_reuters;
/// assert!(looks_like_reuters("<!DOCTYPE lewis SYSTEM \"lewis.dtd\">\n<REUTERS NEWID=\"1\">"));
/// assert!(!looks_like_reuters("<!DOCTYPE html><html>"));
/// ```
pub fn looks_like_reuters(text: &str) -> bool {
    let t = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
    let doctype = t
        .get(..15)
        .is_some_and(|d| d.eq_ignore_ascii_case("<!DOCTYPE lewis"));
    doctype || open_tag_at(t.as_bytes(), 0, "REUTERS").is_some()
}

/// True when the text starts (after white space and a byte-order mark) with a `<DOC>` tag.
pub fn looks_like_trec(text: &str) -> bool {
    let t = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
    open_tag_at(t.as_bytes(), 0, "DOC").is_some()
}

/// What a file that looks like a collection of documents in unknown SGML elements seems to
/// hold: see [`guess_collection`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectionGuess {
    /// The element that repeats (as written in the file).
    pub doc_tag: String,
    /// Where an id seems to be: an attribute of that element or a child element.
    pub id: IdSource,
    /// The other child elements of its first occurrence, in order (candidates for the text).
    pub children: Vec<String>,
}

impl CollectionGuess {
    /// The flags that read such a file, as a hint to the user.
    pub fn hint(&self) -> String {
        let id = match &self.id {
            IdSource::Attr(a) => format!("--id-attr {a}"),
            IdSource::Tag(t) => format!("--id-tag {t}"),
        };
        let text = if self.children.is_empty() {
            String::new()
        } else {
            format!(" --text-tags {}", self.children.join(","))
        };
        format!(
            "looks like SGML with repeated <{tag}> elements, one document each; read it with \
             --format sgml --doc-tag {tag} {id}{text} (naming the elements that hold the text), \
             or with --format text as one document",
            tag = self.doc_tag
        )
    }
}

/// Whether the start of a file (after an optional XML declaration, doctype and comments) is an
/// element that is followed by a sibling of the same name, with an id: an attribute named like
/// one (`id`, `docid`, `newid`, `…id`, `…no`) or a child element named like one. Such a file is a
/// collection of documents (an XML file has one root), not one text; which of its elements hold
/// the text cannot be known, so slst asks instead of guessing. `head` should hold the first
/// element whole and the start of the next (the first 64 KiB, say); TREC and Reuters-21578,
/// whose elements are known, are not reported.
///
/// # Example
/// ```
/// use slst::corpus::sgml::{IdSource, guess_collection};
/// let head = "<?xml version=\"1.0\"?>\n<story key=\"a1\"><title>T</title><body>B.</body></story>\n<story key=\"a2\">";
/// assert!(guess_collection(head).is_none()); // `key` is not named like an id
/// let head = head.replace("key=", "id=");
/// let guess = guess_collection(&head).unwrap();
/// assert_eq!((guess.doc_tag.as_str(), &guess.id), ("story", &IdSource::Attr("id".into())));
/// assert_eq!(guess.children, ["title", "body"]);
/// assert!(guess_collection("<article id=\"1\"><p>One article only.</p></article>\n").is_none());
/// ```
pub fn guess_collection(head: &str) -> Option<CollectionGuess> {
    let bytes = head.as_bytes();
    let mut at = skip_prolog(bytes, 0);
    let (name, attrs, content_start) = element_start(bytes, at)?;
    if ["DOC", "REUTERS", "HTML"]
        .iter()
        .any(|t| name.eq_ignore_ascii_case(t))
    {
        return None;
    }
    let (close, after) = find_close_tag(bytes, content_start, name)?;
    at = skip_prolog(bytes, after);
    open_tag_at(bytes, at, name)?;
    let id_like = |n: &str| {
        let n = n.to_ascii_lowercase();
        n == "id" || n.ends_with("id") || n == "docno" || n.ends_with("_no")
    };
    let attr_id = attribute_names(attrs).into_iter().find(|a| id_like(a));
    let mut children: Vec<String> = Vec::new();
    let mut i = content_start;
    while let Some(lt) = bytes[i..close].iter().position(|&b| b == b'<') {
        let lt = i + lt;
        match element_start(bytes, lt) {
            Some((child, _, end)) => {
                if !children.iter().any(|c| c.eq_ignore_ascii_case(child)) {
                    children.push(child.to_string());
                }
                i = end.min(close);
            }
            None => i = lt + 1,
        }
    }
    let id = match attr_id {
        Some(a) => IdSource::Attr(a),
        None => {
            let pos = children.iter().position(|c| id_like(c))?;
            IdSource::Tag(children.remove(pos))
        }
    };
    Some(CollectionGuess {
        doc_tag: name.to_string(),
        id,
        children,
    })
}

/// Read every document element of an SGML text, in order.
///
/// # Errors
/// A document without an id, or a text with content but no document element at all.
///
/// # Example
/// ```
/// use slst::corpus::sgml::{read_sgml, SgmlOptions};
/// let sgml = "<DOC>\n<DOCNO> AP900101-0001 </DOCNO>\n<TEXT>\nAT&T rose. <P> Shares fell.\n</TEXT>\n</DOC>\n";
/// let docs = read_sgml(sgml, &SgmlOptions::trec()).unwrap();
/// assert_eq!(docs[0].id, "AP900101-0001");
/// assert!(docs[0].text.contains("AT&T rose."));
/// ```
pub fn read_sgml(text: &str, options: &SgmlOptions) -> Result<Vec<SgmlDocument>, SgmlError> {
    let mut splitter = SgmlSplitter::new(text.as_bytes(), &options.doc_tag);
    let mut docs = Vec::new();
    while let Some(raw) = splitter.next_document().map_err(|e| SgmlError {
        line: 1,
        detail: e.to_string(),
    })? {
        let element = String::from_utf8_lossy(&raw.bytes);
        docs.push(parse_document(&element, raw.line, options)?);
    }
    if docs.is_empty() && !text.trim().is_empty() {
        return Err(SgmlError {
            line: 1,
            detail: format!("no <{}> element found", options.doc_tag),
        });
    }
    Ok(docs)
}

/// Parse one document element (from its opening tag to its closing tag, or to where the next
/// document starts) into id and text. `line` is the element's first line in its file.
///
/// # Errors
/// The element has no id.
pub fn parse_document(
    element: &str,
    line: usize,
    options: &SgmlOptions,
) -> Result<SgmlDocument, SgmlError> {
    let bytes = element.as_bytes();
    let body_start = open_tag_at(bytes, 0, &options.doc_tag).unwrap_or(0);
    let body = &element[body_start..];
    let id = match &options.id {
        IdSource::Tag(tag) => element_contents(body, tag)
            .next()
            // Trimmed after decoding too: inner tags become spaces, `&#32;` a space.
            .map(|(s, e)| decode_entities(body[s..e].trim()).trim().to_string()),
        IdSource::Attr(attr) => attribute(&element[..body_start], attr),
    }
    .filter(|d| !d.is_empty())
    .ok_or_else(|| SgmlError {
        line,
        detail: match &options.id {
            IdSource::Tag(tag) => format!("<{}> without a non-empty <{tag}>", options.doc_tag),
            IdSource::Attr(attr) => format!("<{}> without a {attr} attribute", options.doc_tag),
        },
    })?;
    let mut tags: Vec<&str> = Vec::new();
    if options.include_headlines {
        tags.extend(options.headline_tags.iter().map(String::as_str));
    }
    tags.extend(options.text_tags.iter().map(String::as_str));
    let mut text = String::new();
    for tag in tags {
        for (s, e) in element_contents(body, tag) {
            if !text.is_empty() {
                text.push_str("\n\n");
            }
            blank_inner_tags(&body[s..e], &mut text);
        }
    }
    Ok(SgmlDocument { id, text, line })
}
