//! A document: an id and its text, as every method sees it.

use serde::Serialize;

/// How a document's bytes were turned into text.
///
/// Byte spans reported by slst are offsets into [`Document::text`]. For UTF-8 input (with or
/// without a byte-order mark, which is kept in the text) those are also offsets into the file;
/// for the fallbacks they are offsets into the UTF-8 re-encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Encoding {
    /// Valid UTF-8.
    Utf8,
    /// Valid UTF-8 after a byte-order mark.
    Utf8Bom,
    /// UTF-16, little-endian, announced by its byte-order mark.
    Utf16Le,
    /// UTF-16, big-endian, announced by its byte-order mark.
    Utf16Be,
    /// Not valid UTF-8: decoded as Windows-1252 (every byte maps to a character).
    Windows1252,
}

impl Encoding {
    /// True when the bytes were not plain UTF-8 and a fallback decoder was used; callers report
    /// this once per document.
    pub fn is_fallback(self) -> bool {
        matches!(self, Encoding::Windows1252)
    }

    /// The encoding's usual name.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf8Bom => "UTF-8 with BOM",
            Encoding::Utf16Le => "UTF-16LE",
            Encoding::Utf16Be => "UTF-16BE",
            Encoding::Windows1252 => "Windows-1252",
        }
    }
}

/// One document: an id and a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// The id: a path as given for plain files, the `DOCNO` for TREC documents.
    pub id: String,
    /// The text every stage works on.
    pub text: String,
    /// How the text was decoded.
    pub encoding: Encoding,
}

impl Document {
    /// A document from an id and text already in memory (encoding: UTF-8).
    ///
    /// # Example
    /// ```
    /// let doc = slst::Document::new("a", "One sentence here. Another one there.");
    /// assert_eq!(doc.id, "a");
    /// ```
    pub fn new(id: impl Into<String>, text: impl Into<String>) -> Self {
        Document {
            id: id.into(),
            text: text.into(),
            encoding: Encoding::Utf8,
        }
    }
}
