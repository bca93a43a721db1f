//! A document: an id and its text, as every method sees it; how a file's bytes become text
//! ([`read_bytes`], [`decode_text`]); a web page's blocks ([`Segmentation`]).

mod read;
mod segmentation;

use serde::Serialize;

pub use read::{DEFAULT_MAX_BYTES, NotText, decode_text, read_bytes};
pub use segmentation::{Preset, Segmentation, TextBlock};

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
    /// A web page that is not valid UTF-8, decoded by the charset it declares (`<meta charset>`
    /// or the HTTP `Content-Type`); the page's notes name the charset.
    Declared,
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
            Encoding::Declared => "the charset the page declares",
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
    /// For a web page: its structural-semantic blocks, as byte ranges of [`Document::text`]
    /// (the page's visible text, blocks separated by blank lines). `None` for other documents.
    pub segmentation: Option<Box<Segmentation>>,
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
            segmentation: None,
        }
    }

    /// A document from text decoded with `encoding`, without segmentation.
    pub fn decoded(id: impl Into<String>, text: impl Into<String>, encoding: Encoding) -> Self {
        Document {
            id: id.into(),
            text: text.into(),
            encoding,
            segmentation: None,
        }
    }

    /// The document's blocks as texts: one per block of a web page, or the whole text as one
    /// block for any other document (a text with no words has no blocks).
    pub fn block_texts(&self) -> Vec<String> {
        match &self.segmentation {
            Some(seg) => seg.blocks.iter().map(|b| b.text(&self.text)).collect(),
            None if self.text.trim().is_empty() => Vec::new(),
            None => vec![self.text.clone()],
        }
    }
}
