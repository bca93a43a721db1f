//! Documents back to a file: TREC SGML, the format every reader of this crate and of the IR
//! world reads.

use std::io::{self, Write};

use crate::document::Document;

/// Write documents as TREC SGML, one `<DOC>` each:
///
/// ```text
/// <DOC>
/// <DOCNO>id</DOCNO>
/// <TEXT>
/// text
/// </TEXT>
/// </DOC>
/// ```
///
/// `&`, `<` and `>` become `&amp;`, `&lt;` and `&gt;`, and control characters other than tab and
/// line breaks become numeric references (`&#3;`), so that [`read_sources`](super::read_sources)
/// gives back the same ids and texts (each text with a line break before and after it).
///
/// # Example
/// ```
/// use slst::Document;
/// use slst::corpus::sgml::{SgmlOptions, read_sgml};
/// let mut out = Vec::new();
/// slst::corpus::write_trec(&mut out, &[Document::new("d<1>", "AT&T rose.")]).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.contains("<DOCNO>d&lt;1&gt;</DOCNO>"));
/// let back = read_sgml(&text, &SgmlOptions::trec()).unwrap();
/// assert_eq!((back[0].id.as_str(), back[0].text.trim()), ("d<1>", "AT&T rose."));
/// ```
///
/// # Errors
/// What the writer reports.
pub fn write_trec<'a>(
    out: &mut dyn Write,
    docs: impl IntoIterator<Item = &'a Document>,
) -> io::Result<()> {
    for doc in docs {
        out.write_all(b"<DOC>\n<DOCNO>")?;
        write_escaped(out, &doc.id)?;
        out.write_all(b"</DOCNO>\n<TEXT>\n")?;
        write_escaped(out, &doc.text)?;
        out.write_all(b"\n</TEXT>\n</DOC>\n")?;
    }
    Ok(())
}

/// `text` with SGML's special characters escaped.
fn write_escaped(out: &mut dyn Write, text: &str) -> io::Result<()> {
    let mut start = 0;
    for (at, c) in text.char_indices() {
        let escaped: Option<String> = match c {
            '&' => Some("&amp;".into()),
            '<' => Some("&lt;".into()),
            '>' => Some("&gt;".into()),
            '\t' | '\n' | '\r' => None,
            c if c.is_control() => Some(format!("&#{};", c as u32)),
            _ => None,
        };
        if let Some(e) = escaped {
            out.write_all(&text.as_bytes()[start..at])?;
            out.write_all(e.as_bytes())?;
            start = at + c.len_utf8();
        }
    }
    out.write_all(&text.as_bytes()[start..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::sgml::{SgmlOptions, read_sgml};

    #[test]
    fn round_trip_keeps_ids_and_texts() {
        let docs = [
            Document::new("A&B", "x < y && y > z.\n\nSecond <P> paragraph."),
            Document::new("R-1", "Reuter\u{3} ends\u{2} here. Tab\there."),
            Document::new("empty", ""),
        ];
        let mut out = Vec::new();
        write_trec(&mut out, &docs).unwrap();
        let back = read_sgml(std::str::from_utf8(&out).unwrap(), &SgmlOptions::trec()).unwrap();
        assert_eq!(back.len(), 3);
        for (d, b) in docs.iter().zip(&back) {
            assert_eq!(b.id, d.id);
            assert_eq!(b.text, format!("\n{}\n", d.text));
        }
    }
}
