//! A tolerant reader for TREC SGML: `<DOC><DOCNO>…</DOCNO>…<TEXT>…</TEXT></DOC>`.
//!
//! TREC collections are SGML, not XML: bare `&` (`AT&T`), unquoted attributes (`<F P=105>`),
//! unclosed `<P>` and a missing final `</DOC>` all occur in the shipped volumes, and an XML parser
//! stops at the first of them. This reader only looks for the few tags it needs, case-insensitively,
//! and tolerates everything else.
//!
//! The text of a document is the concatenation of its `<TEXT>` elements (and, when asked, its
//! headline elements), separated by a blank line. Tags *inside* those elements are replaced by
//! white space of the same byte length (paragraph tags by a blank line) and character entities
//! (`&amp;`, `&#39;`) by their characters; byte spans of TREC documents are offsets into this
//! text.

/// Which elements of a TREC document make its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrecOptions {
    /// Elements whose content is the document's body (default: `TEXT`).
    pub text_tags: Vec<String>,
    /// Headline elements put before the body when `include_headlines` is set
    /// (default: `HEAD`, `HEADLINE`, `HL`: AP, LA Times, WSJ).
    pub headline_tags: Vec<String>,
    /// Put headline elements before the body text.
    pub include_headlines: bool,
}

impl Default for TrecOptions {
    fn default() -> Self {
        TrecOptions {
            text_tags: vec!["TEXT".into()],
            headline_tags: vec!["HEAD".into(), "HEADLINE".into(), "HL".into()],
            include_headlines: false,
        }
    }
}

/// One document read from a TREC file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrecDocument {
    /// The trimmed `DOCNO`.
    pub docno: String,
    /// The document text (see the module docs).
    pub text: String,
    /// Byte offset of the document's `<DOC>` tag in the file text.
    pub offset: usize,
}

/// A problem found while reading TREC SGML: the 1-based line and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SgmlError {
    /// 1-based line number in the file text.
    pub line: usize,
    /// What is wrong.
    pub detail: String,
}

/// True when the text starts (after white space and a byte-order mark) with a `<DOC>` tag.
pub fn looks_like_trec(text: &str) -> bool {
    let t = text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}');
    open_tag_at(t.as_bytes(), 0, "DOC").is_some()
}

/// Read every `<DOC>` of a TREC SGML text, in file order.
///
/// # Errors
/// A `<DOC>` without a `<DOCNO>`, or a file with text but no `<DOC>` at all.
///
/// # Example
/// ```
/// use slst::corpus::trec::{read_trec, TrecOptions};
/// let sgml = "<DOC>\n<DOCNO> AP900101-0001 </DOCNO>\n<TEXT>\nAT&T rose. <P> Shares fell.\n</TEXT>\n</DOC>\n";
/// let docs = read_trec(sgml, &TrecOptions::default()).unwrap();
/// assert_eq!(docs[0].docno, "AP900101-0001");
/// assert!(docs[0].text.contains("AT&T rose."));
/// ```
pub fn read_trec(text: &str, options: &TrecOptions) -> Result<Vec<TrecDocument>, SgmlError> {
    let bytes = text.as_bytes();
    let mut docs = Vec::new();
    let mut pos = 0;
    while let Some((start, body_start)) = find_open_tag(bytes, pos, "DOC") {
        // The document ends at its </DOC>, or at the next <DOC>, or at the end of the file.
        let next_open = find_open_tag(bytes, body_start, "DOC").map(|(s, _)| s);
        let close = find_close_tag(bytes, body_start, "DOC");
        let (end, resume) = match (close, next_open) {
            (Some((c, after)), Some(n)) if c < n => (c, after),
            (Some((c, after)), None) => (c, after),
            (_, Some(n)) => (n, n),
            (None, None) => (bytes.len(), bytes.len()),
        };
        let body = &text[body_start..end];
        let docno = element_contents(body, "DOCNO")
            .next()
            .map(|(s, e)| body[s..e].trim().to_string())
            .filter(|d| !d.is_empty())
            .ok_or_else(|| SgmlError {
                line: line_of(text, start),
                detail: "<DOC> without a non-empty <DOCNO>".into(),
            })?;
        let mut parts: Vec<&str> = Vec::new();
        let mut tags: Vec<&str> = Vec::new();
        if options.include_headlines {
            tags.extend(options.headline_tags.iter().map(String::as_str));
        }
        tags.extend(options.text_tags.iter().map(String::as_str));
        for tag in tags {
            parts.extend(element_contents(body, tag).map(|(s, e)| &body[s..e]));
        }
        let mut doc_text = String::new();
        for part in parts {
            if !doc_text.is_empty() {
                doc_text.push_str("\n\n");
            }
            blank_inner_tags(part, &mut doc_text);
        }
        docs.push(TrecDocument {
            docno,
            text: doc_text,
            offset: start,
        });
        pos = resume.max(body_start);
    }
    if docs.is_empty() && !text.trim().is_empty() {
        return Err(SgmlError {
            line: 1,
            detail: "no <DOC> element found".into(),
        });
    }
    Ok(docs)
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

fn line_of(text: &str, offset: usize) -> usize {
    1 + text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const AP: &str = "<DOC>\n<DOCNO> AP900101-0001 </DOCNO>\n<FILEID>AP-NR-01-01-90 2359EST</FILEID>\n<HEAD>Markets Rally</HEAD>\n<TEXT>\n   NEW YORK (AP) _ Stocks rose on\nWednesday. AT&T gained <5%.\n</TEXT>\n</DOC>\n<doc>\n<docno>AP900101-0002</docno>\n<text>Second story.</text>\n<text>Its second part.</text>\n</doc>\n";

    #[test]
    fn reads_documents_case_insensitively_with_bare_ampersands() {
        let docs = read_trec(AP, &TrecOptions::default()).unwrap();
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].docno, "AP900101-0001");
        assert!(docs[0].text.contains("AT&T gained <5%."));
        assert!(!docs[0].text.contains("Markets Rally"));
        assert_eq!(docs[1].docno, "AP900101-0002");
        assert_eq!(docs[1].text, "Second story.\n\nIts second part.");
    }

    #[test]
    fn headlines_come_first_when_asked() {
        let opts = TrecOptions {
            include_headlines: true,
            ..TrecOptions::default()
        };
        let docs = read_trec(AP, &opts).unwrap();
        assert!(docs[0].text.starts_with("Markets Rally\n\n"));
    }

    #[test]
    fn missing_final_close_tag_and_unclosed_text_are_tolerated() {
        let sgml = "<DOC>\n<DOCNO>FT911-2</DOCNO>\n<TEXT>\nShares rose. <P> Unclosed paragraph tag here.\n";
        let docs = read_trec(sgml, &TrecOptions::default()).unwrap();
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].docno, "FT911-2");
        let t = &docs[0].text;
        assert!(
            t.contains("Shares rose. \n\n  Unclosed paragraph tag here."),
            "{t:?}"
        );
    }

    #[test]
    fn inner_tags_keep_byte_offsets() {
        let sgml = "<DOC><DOCNO>X</DOCNO><TEXT>Language: <F P=105> English </F> here.</TEXT></DOC>";
        let docs = read_trec(sgml, &TrecOptions::default()).unwrap();
        let raw = "Language: <F P=105> English </F> here.";
        assert_eq!(docs[0].text.len(), raw.len());
        let at = raw.find(" here.").unwrap();
        assert_eq!(&docs[0].text[at..], " here.");
        assert_eq!(&docs[0].text[..10], "Language: ");
    }

    #[test]
    fn entities_are_decoded_in_place() {
        let sgml = "<DOC><DOCNO>X</DOCNO><TEXT>Lot &amp; his wife; AT&T &lt;5% &#8217;tis &#x41;.</TEXT></DOC>";
        let t = &read_trec(sgml, &TrecOptions::default()).unwrap()[0].text;
        assert_eq!(t, "Lot & his wife; AT&T <5% \u{2019}tis A.");
    }

    #[test]
    fn doc_without_docno_is_an_error_with_its_line() {
        let sgml = "<DOC>\n<DOCNO>A</DOCNO><TEXT>x</TEXT></DOC>\n<DOC>\n<TEXT>y</TEXT>\n</DOC>\n";
        let err = read_trec(sgml, &TrecOptions::default()).unwrap_err();
        assert_eq!(err.line, 3);
    }

    #[test]
    fn docno_and_docid_tags_are_not_doc_tags() {
        assert!(!looks_like_trec("<DOCNO>x</DOCNO>"));
        assert!(looks_like_trec("\u{FEFF}\n <doc>\n"));
        assert!(looks_like_trec("<DOC id=\"1\">"));
    }

    #[test]
    fn text_without_doc_is_an_error() {
        assert!(read_trec("just text", &TrecOptions::default()).is_err());
        assert_eq!(read_trec("  \n", &TrecOptions::default()).unwrap(), vec![]);
    }
}
