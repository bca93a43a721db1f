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

use std::io::Read;

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

/// The offset after white space, a byte-order mark, `<?…?>`, `<!…>` and comments from `at`.
fn skip_prolog(bytes: &[u8], mut at: usize) -> usize {
    loop {
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        if bytes[at.min(bytes.len())..].starts_with("\u{FEFF}".as_bytes()) {
            at += 3;
            continue;
        }
        let end = if bytes[at.min(bytes.len())..].starts_with(b"<!--") {
            find(bytes, at, b"-->").map(|e| e + 3)
        } else if bytes[at.min(bytes.len())..].starts_with(b"<?")
            || bytes[at.min(bytes.len())..].starts_with(b"<!")
        {
            find(bytes, at, b">").map(|e| e + 1)
        } else {
            None
        };
        match end {
            Some(e) => at = e,
            None => return at,
        }
    }
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
}

/// An opening tag at `at`: its name, the text of its attributes and the offset after it.
fn element_start(bytes: &[u8], at: usize) -> Option<(&str, &str, usize)> {
    if bytes.get(at) != Some(&b'<') || !bytes.get(at + 1)?.is_ascii_alphabetic() {
        return None;
    }
    let name_len = bytes[at + 1..]
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':')))?;
    let name_end = at + 1 + name_len;
    let gt = name_end + bytes[name_end..].iter().position(|&b| b == b'>')?;
    if !(bytes[name_end] == b'>'
        || bytes[name_end].is_ascii_whitespace()
        || bytes[name_end] == b'/')
    {
        return None;
    }
    let text = std::str::from_utf8(&bytes[at + 1..gt]).ok()?;
    let (name, attrs) = text.split_at(name_len);
    Some((name, attrs, gt + 1))
}

/// The names of the attributes in the text of an opening tag.
fn attribute_names(attrs: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = attrs;
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq]
            .trim()
            .rsplit(char::is_whitespace)
            .next()
            .unwrap_or("");
        if !name.is_empty() {
            names.push(name.to_string());
        }
        let value = rest[eq + 1..].trim_start();
        rest = match value.chars().next() {
            Some(q @ ('"' | '\'')) => value[1..].split_once(q).map_or("", |(_, r)| r),
            _ => value.split_once(char::is_whitespace).map_or("", |(_, r)| r),
        };
    }
    names
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

/// The bytes of one document element, cut from a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawElement {
    /// From the opening tag to the end of the closing tag (or to where the next document
    /// starts, or to the end of the stream); only the first `limit + 1` bytes when the element
    /// is longer than the splitter's limit ([`SgmlSplitter::with_limit`]).
    pub bytes: Vec<u8>,
    /// The element's whole length in bytes.
    pub len: u64,
    /// 1-based line of the opening tag.
    pub line: usize,
}

/// Cuts a byte stream into document elements (`<DOC>…</DOC>`), holding at most one document and
/// a read buffer in memory (with a limit, at most the limit and a read buffer: a longer element
/// is passed over). Bytes outside document elements (a `<!DOCTYPE>` line, white space) are
/// skipped.
pub struct SgmlSplitter<R> {
    reader: R,
    tag: String,
    buf: Vec<u8>,
    /// Where the unread part of `buf` starts: consumed bytes are skipped, not moved, and
    /// dropped only when the buffer is refilled (moving them per document made a buffer of many
    /// small documents quadratic).
    pos: usize,
    eof: bool,
    /// Newlines in the bytes already consumed.
    line: usize,
    /// Elements longer than this keep only their first `limit + 1` bytes.
    limit: Option<u64>,
}

const CHUNK: usize = 1 << 20;

/// The longest tail kept from the last `<` of a buffer while looking for a tag cut by a read:
/// a longer "tag" is not one this reader looks for.
const MAX_TAG: usize = 1 << 16;

impl<R: Read> SgmlSplitter<R> {
    /// A splitter over `reader` for elements named `doc_tag` (case-insensitive).
    pub fn new(reader: R, doc_tag: &str) -> Self {
        SgmlSplitter {
            reader,
            tag: doc_tag.to_string(),
            buf: Vec::new(),
            pos: 0,
            eof: false,
            line: 1,
            limit: None,
        }
    }

    /// Hold at most `limit + 1` bytes of an element: a longer one is read past, its
    /// [`RawElement::len`] counted and only its start kept, so that memory stays bounded
    /// whatever the input (a gzip bomb, an element never closed).
    #[must_use]
    pub fn with_limit(mut self, limit: u64) -> Self {
        self.limit = Some(limit);
        self
    }

    /// The bytes not yet consumed.
    fn data(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    fn fill(&mut self) -> std::io::Result<()> {
        self.buf.drain(..self.pos);
        self.pos = 0;
        let old = self.buf.len();
        self.buf.resize(old + CHUNK, 0);
        let n = loop {
            match self.reader.read(&mut self.buf[old..]) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                other => break other,
            }
        };
        let n = n.inspect_err(|_| self.buf.truncate(old))?;
        self.buf.truncate(old + n);
        self.eof = n == 0;
        Ok(())
    }

    fn consume(&mut self, n: usize) {
        self.line += self.data()[..n].iter().filter(|&&b| b == b'\n').count();
        self.pos += n;
    }

    /// Where to cut the buffer so that a tag cut by the read boundary is kept whole: from its
    /// last `<` (unless that is further back than any tag is long), else all of it.
    fn keep_from(&self, from: usize) -> usize {
        let data = self.data();
        match data[from..].iter().rposition(|&b| b == b'<') {
            Some(p) if data.len() - (from + p) <= MAX_TAG => from + p,
            _ => data.len(),
        }
    }

    /// The next document element, or `None` at the end of the stream.
    ///
    /// # Errors
    /// Reading failed (including a truncated or corrupt gzip stream under the reader).
    pub fn next_document(&mut self) -> std::io::Result<Option<RawElement>> {
        // Find the next opening tag.
        let start = loop {
            if let Some((s, _)) = find_open_tag(self.data(), 0, &self.tag) {
                break s;
            }
            if self.eof {
                self.consume(self.data().len());
                return Ok(None);
            }
            // Keep the tail from the last '<': it may be an opening tag cut by the read
            // boundary (with attributes it can be any length).
            self.consume(self.keep_from(0));
            self.fill()?;
        };
        self.consume(start);
        let line = self.line;
        // Over the limit: the element's first bytes, and how many were dropped since.
        let mut head: Option<Vec<u8>> = None;
        let mut dropped: u64 = 0;
        // Find where it ends: its closing tag, or the next opening tag, or the end.
        let mut searched: usize = 1;
        let end = loop {
            // Resume at the last '<' already seen: a tag may have been cut by the read. The
            // element's own opening tag is at 0 until bytes are dropped.
            let from = self.data()[..searched.min(self.data().len())]
                .iter()
                .rposition(|&b| b == b'<')
                .unwrap_or(searched)
                .max(usize::from(dropped == 0));
            // The closing tag is looked for only before the next opening tag (a closing tag
            // holds no '<'): a file of documents that are never closed is then read in linear
            // time, not each document scanning the rest of the buffer.
            let next = find_open_tag(self.data(), from, &self.tag).map(|(s, _)| s);
            let close = find_close_tag(
                &self.data()[..next.unwrap_or(self.data().len())],
                from,
                &self.tag,
            );
            match (close, next) {
                (Some((_, after)), _) => break after,
                (None, Some(n)) => break n,
                (None, None) if self.eof => break self.data().len(),
                (None, None) => {
                    if let Some(limit) = self.limit
                        && dropped + self.data().len() as u64 > limit
                    {
                        if head.is_none() {
                            let keep = usize::try_from(limit + 1).unwrap_or(usize::MAX);
                            head = Some(self.data()[..keep.min(self.data().len())].to_vec());
                        }
                        let cut = self.keep_from(from);
                        dropped += cut as u64;
                        self.consume(cut);
                    }
                    searched = self.data().len();
                    self.fill()?;
                }
            }
        };
        let len = dropped + end as u64;
        let bytes = match head {
            Some(head) => head,
            None => self.data()[..end].to_vec(),
        };
        self.consume(end);
        Ok(Some(RawElement { bytes, len, line }))
    }
}

/// The value of attribute `name` (case-insensitive) in an opening tag, quoted or not.
fn attribute(open_tag: &str, name: &str) -> Option<String> {
    let lower = open_tag.to_ascii_lowercase();
    let needle = format!("{}=", name.to_ascii_lowercase());
    let mut from = 0;
    while let Some(found) = lower[from..].find(&needle) {
        let at = from + found;
        let before_ok = at == 0 || lower.as_bytes()[at - 1].is_ascii_whitespace();
        let value = &open_tag[at + needle.len()..];
        if before_ok {
            let v = match value.chars().next() {
                Some(q @ ('"' | '\'')) => value[1..].split(q).next().unwrap_or(""),
                _ => value
                    .split(|c: char| c.is_whitespace() || c == '>')
                    .next()
                    .unwrap_or(""),
            };
            return Some(v.trim().to_string());
        }
        from = at + needle.len();
    }
    None
}

/// Decode the character entities of a short text (an id).
pub(crate) fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    blank_inner_tags(s, &mut out);
    out
}

/// The (start, end) byte ranges of the contents of every `<tag …>…</tag>` in `body`; an element
/// left open runs to the end of `body`.
fn element_contents<'a>(body: &'a str, tag: &'a str) -> impl Iterator<Item = (usize, usize)> + 'a {
    let bytes = body.as_bytes();
    let mut pos = 0;
    std::iter::from_fn(move || {
        let (_, content_start) = find_open_tag(bytes, pos, tag)?;
        let (end, after) =
            find_close_tag(bytes, content_start, tag).unwrap_or((bytes.len(), bytes.len()));
        pos = after;
        Some((content_start, end))
    })
}

/// Copy `raw` into `out` with each markup tag replaced by spaces of the same byte length
/// (paragraph-like tags, `<P>` and `<BR>` and their closing forms, start with two line breaks so
/// they act as paragraph boundaries), and each character entity (`&amp;`, `&#39;`, …) replaced
/// by its character, so that `Smith&#39;s` stays one word. A bare `&` stays as it is.
fn blank_inner_tags(raw: &str, out: &mut String) {
    let bytes = raw.as_bytes();
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        if bytes[i] == b'&'
            && let Some((decoded, len)) = entity_at(&raw[i..])
        {
            out.push_str(&raw[copied..i]);
            out.push(decoded);
            i += len;
            copied = i;
            continue;
        }
        if bytes[i] == b'<' {
            let name_start = i + 1 + usize::from(bytes.get(i + 1) == Some(&b'/'));
            let starts_tag = bytes
                .get(name_start)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'!');
            if starts_tag && let Some(len) = bytes[i..].iter().position(|&b| b == b'>') {
                let tag_end = i + len + 1;
                out.push_str(&raw[copied..i]);
                let name: String = raw[name_start..tag_end - 1]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .collect();
                let para = matches!(name.to_ascii_uppercase().as_str(), "P" | "BR");
                let width = tag_end - i;
                let breaks = if para { width.min(2) } else { 0 };
                out.extend(std::iter::repeat_n('\n', breaks));
                out.extend(std::iter::repeat_n(' ', width - breaks));
                i = tag_end;
                copied = i;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&raw[copied..]);
}

/// The character of an SGML/HTML character entity at the start of `s` (named: the XML five and
/// `nbsp`; numeric: decimal or hex), and the entity's byte length.
fn entity_at(s: &str) -> Option<(char, usize)> {
    let end = s.as_bytes().iter().take(12).position(|&b| b == b';')?;
    let name = &s[1..end];
    let c = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{A0}',
        _ => {
            let num = name.strip_prefix('#')?;
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => num.parse().ok()?,
            };
            char::from_u32(code)?
        }
    };
    (c.len_utf8() <= end + 1).then_some((c, end + 1))
}

/// Find `<tag>` or `<tag attr…>` (case-insensitive) at or after `from`; returns the tag's start
/// and the offset just after its `>`.
fn find_open_tag(bytes: &[u8], from: usize, tag: &str) -> Option<(usize, usize)> {
    let mut i = from;
    while i < bytes.len() {
        let lt = i + bytes[i..].iter().position(|&b| b == b'<')?;
        if let Some(after) = open_tag_at(bytes, lt, tag) {
            return Some((lt, after));
        }
        i = lt + 1;
    }
    None
}

/// If an opening `tag` starts at `at`, the offset just after its `>`.
fn open_tag_at(bytes: &[u8], at: usize, tag: &str) -> Option<usize> {
    let name = bytes.get(at + 1..at + 1 + tag.len())?;
    if bytes[at] != b'<' || !name.eq_ignore_ascii_case(tag.as_bytes()) {
        return None;
    }
    let after_name = at + 1 + tag.len();
    match bytes.get(after_name)? {
        b'>' => Some(after_name + 1),
        b if b.is_ascii_whitespace() => {
            let gt = bytes[after_name..].iter().position(|&b| b == b'>')?;
            Some(after_name + gt + 1)
        }
        _ => None,
    }
}

/// Find `</tag>` (case-insensitive, white space allowed before `>`); returns its start and the
/// offset just after it.
fn find_close_tag(bytes: &[u8], from: usize, tag: &str) -> Option<(usize, usize)> {
    let mut i = from;
    while i < bytes.len() {
        let lt = i + bytes[i..].iter().position(|&b| b == b'<')?;
        let name_at = lt + 2;
        if bytes.get(lt + 1) == Some(&b'/')
            && bytes
                .get(name_at..name_at + tag.len())
                .is_some_and(|n| n.eq_ignore_ascii_case(tag.as_bytes()))
        {
            let mut j = name_at + tag.len();
            while bytes.get(j).is_some_and(u8::is_ascii_whitespace) {
                j += 1;
            }
            if bytes.get(j) == Some(&b'>') {
                return Some((lt, j + 1));
            }
        }
        i = lt + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_keeps_memory_bounded_and_the_next_document_whole() {
        let long = "x ".repeat(3 << 20);
        let stream = format!(
            "<DOC>\n<DOCNO>a</DOCNO><TEXT>{long}</TEXT></DOC>\n<DOC>\n<DOCNO>b</DOCNO></DOC>\n\
             <DOC><DOCNO>c</DOCNO><TEXT>{long}"
        );
        let mut splitter = SgmlSplitter::new(stream.as_bytes(), "DOC").with_limit(1000);
        let a = splitter.next_document().unwrap().unwrap();
        assert_eq!(
            (a.bytes.len(), a.len, a.line),
            (1001, long.len() as u64 + 41, 1)
        );
        assert!(a.bytes.starts_with(b"<DOC>\n<DOCNO>a</DOCNO>"));
        let b = splitter.next_document().unwrap().unwrap();
        assert_eq!(b.bytes, b"<DOC>\n<DOCNO>b</DOCNO></DOC>");
        assert_eq!((b.len, b.line), (b.bytes.len() as u64, 3));
        // Never closed: runs to the end, still counted.
        let c = splitter.next_document().unwrap().unwrap();
        assert_eq!(
            (c.bytes.len(), c.len, c.line),
            (1001, long.len() as u64 + 27, 5)
        );
        assert!(splitter.next_document().unwrap().is_none());
    }

    const AP: &str = "<DOC>\n<DOCNO> AP900101-0001 </DOCNO>\n<FILEID>AP-NR-01-01-90 2359EST</FILEID>\n<HEAD>Markets Rally</HEAD>\n<TEXT>\n   NEW YORK (AP) _ Stocks rose on\nWednesday. AT&T gained <5%.\n</TEXT>\n</DOC>\n<doc>\n<docno>AP900101-0002</docno>\n<text>Second story.</text>\n<text>Its second part.</text>\n</doc>\n";

    #[test]
    fn reads_documents_case_insensitively_with_bare_ampersands() {
        let docs = read_sgml(AP, &SgmlOptions::trec()).unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].id, "AP900101-0001");
        assert!(docs[0].text.contains("AT&T gained <5%."));
        assert!(!docs[0].text.contains("Markets Rally"));
        assert_eq!(docs[1].id, "AP900101-0002");
        assert_eq!(docs[1].text, "Second story.\n\nIts second part.");
    }

    #[test]
    fn headlines_come_first_when_asked() {
        let opts = SgmlOptions {
            include_headlines: true,
            ..SgmlOptions::trec()
        };
        let docs = read_sgml(AP, &opts).unwrap();
        assert!(docs[0].text.starts_with("Markets Rally\n\n"));
    }

    #[test]
    fn missing_final_close_tag_and_unclosed_text_are_tolerated() {
        let sgml = "<DOC>\n<DOCNO>FT911-2</DOCNO>\n<TEXT>\nShares rose. <P> Unclosed paragraph tag here.\n";
        let docs = read_sgml(sgml, &SgmlOptions::trec()).unwrap();
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].id, "FT911-2");
        let t = &docs[0].text;
        assert!(
            t.contains("Shares rose. \n\n  Unclosed paragraph tag here."),
            "{t:?}"
        );
    }

    #[test]
    fn inner_tags_keep_byte_offsets() {
        let sgml = "<DOC><DOCNO>X</DOCNO><TEXT>Language: <F P=105> English </F> here.</TEXT></DOC>";
        let docs = read_sgml(sgml, &SgmlOptions::trec()).unwrap();
        let raw = "Language: <F P=105> English </F> here.";
        assert_eq!(docs[0].text.len(), raw.len());
        let at = raw.find(" here.").unwrap();
        assert_eq!(&docs[0].text[at..], " here.");
        assert_eq!(&docs[0].text[..10], "Language: ");
    }

    #[test]
    fn entities_are_decoded_in_place() {
        let sgml = "<DOC><DOCNO>X</DOCNO><TEXT>Lot &amp; his wife; AT&T &lt;5% &#8217;tis &#x41;.</TEXT></DOC>";
        let t = &read_sgml(sgml, &SgmlOptions::trec()).unwrap()[0].text;
        assert_eq!(t, "Lot & his wife; AT&T <5% \u{2019}tis A.");
    }

    #[test]
    fn doc_without_docno_is_an_error_with_its_line() {
        let sgml = "<DOC>\n<DOCNO>A</DOCNO><TEXT>x</TEXT></DOC>\n<DOC>\n<TEXT>y</TEXT>\n</DOC>\n";
        let err = read_sgml(sgml, &SgmlOptions::trec()).unwrap_err();
        assert_eq!(err.line, 3);
    }

    #[test]
    fn docno_and_docid_tags_are_not_doc_tags() {
        assert!(!looks_like_trec("<DOCNO>x</DOCNO>"));
        assert!(looks_like_trec("\u{FEFF}\n <doc>\n"));
        assert!(looks_like_trec("<DOC id=\"1\">"));
    }

    #[test]
    fn reuters_reads_as_it_ships() {
        let sgml = "<!DOCTYPE lewis SYSTEM \"lewis.dtd\">\n<REUTERS TOPICS=\"YES\" OLDID=\"5544\" NEWID=\"1\">\n<TEXT>&#2;\n<TITLE>BAHIA COCOA REVIEW</TITLE>\n<DATELINE>    SALVADOR, Feb 26 - </DATELINE><BODY>Showers continued throughout\nthe week. Comissaria Smith &amp; Co said.\n&#3;</BODY></TEXT>\n</REUTERS>\n<REUTERS NEWID=2><TEXT><BODY>Second.</BODY></TEXT></REUTERS>";
        let docs = read_sgml(sgml, &SgmlOptions::reuters()).unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!((docs[0].id.as_str(), docs[0].line), ("1", 2));
        assert!(
            docs[0]
                .text
                .starts_with("BAHIA COCOA REVIEW\n\nShowers continued"),
            "{:?}",
            docs[0].text
        );
        assert!(docs[0].text.contains("Smith & Co said."));
        assert!(!docs[0].text.contains("SALVADOR"));
        assert_eq!(docs[1].id, "2");
    }

    #[test]
    fn splitter_streams_documents_across_small_reads() {
        // A reader that hands out 7 bytes at a time forces tags to straddle reads.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = self.0.len().min(7).min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut splitter = SgmlSplitter::new(Trickle(AP.as_bytes()), "DOC");
        let mut ids = Vec::new();
        while let Some(raw) = splitter.next_document().unwrap() {
            let element = String::from_utf8(raw.bytes).unwrap();
            ids.push((
                parse_document(&element, raw.line, &SgmlOptions::trec())
                    .unwrap()
                    .id,
                raw.line,
            ));
        }
        assert_eq!(
            ids,
            [
                ("AP900101-0001".to_string(), 1),
                ("AP900101-0002".to_string(), 10)
            ]
        );
    }

    #[test]
    fn text_without_doc_is_an_error() {
        assert!(read_sgml("just text", &SgmlOptions::trec()).is_err());
        assert_eq!(read_sgml("  \n", &SgmlOptions::trec()).unwrap(), vec![]);
    }
}
