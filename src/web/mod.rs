//! Web pages: HTML → visible text + DOM tree → structural-semantic blocks (SPEC §7, seed 004),
//! and WARC files → HTML pages.
//!
//! This stage sits between [`crate::corpus`] (bytes from files) and [`crate::text`] (sentences):
//! a page becomes a [`Document`](crate::Document) whose text is the page's *visible text* and
//! whose [`Segmentation`] says which parts of that text form each block.
//!
//! - [`html`]: parse with a real HTML5 parser (html5ever, through `scraper`), drop what a
//!   reader never sees (`head`, `script`, `style`, `template`, `noscript`, `svg`, elements with the
//!   `hidden` attribute or `display:none`), cut the tree into blocks ([`segment`]) and lay the
//!   text out: blocks are separated by a blank line (a hard sentence break), block-level elements
//!   inside a block by a single line break (read as a space by the sentence splitter).
//! - [`segment`]: Kosinov's weight function and the greedy cutting of the heaviest subtree.
//! - [`boilerplate`]: blocks that recur across many pages of a corpus, left out before scoring.
//! - [`warc`]: a streaming WARC reader (gzip'd per record or not) that reports truncated records
//!   and wrong `Content-Length`s and resynchronises at the next record.
//!
//! Every traversal is iterative (an explicit stack or preorder indices), so a page nested
//! 100,000 levels deep is read like any other.

pub mod boilerplate;
pub mod html;
pub mod segment;
pub mod warc;

use std::ops::Range;

use serde::Serialize;

pub use boilerplate::{BoilerplateBlock, drop_boilerplate};
pub use html::{Page, parse_page};
pub use segment::{Preset, SegmentConfig};

/// One structural-semantic block of a page, in extraction order.
#[derive(Debug, Clone, Serialize)]
pub struct TextBlock {
    /// The weight W(s) of the block's root when it was cut out.
    pub weight: f64,
    /// The depth of the block's root (the `html` element is 1).
    pub depth: usize,
    /// The DOM path of the block's root: tag names with `#id` or the first `.class`, joined by
    /// `>`; paths deeper than 12 elements are shortened in the middle (`…(n)…`).
    pub path: String,
    /// The block's visible text length in characters (what the weight function counts).
    pub chars: usize,
    /// Byte ranges of the block's text in the document text, ascending and disjoint. A block is
    /// a subtree less the blocks cut out of it before, so its text may come in several pieces.
    pub ranges: Vec<Range<usize>>,
}

impl TextBlock {
    /// The block's text: its ranges of `doc_text`, joined by blank lines.
    pub fn text(&self, doc_text: &str) -> String {
        let mut out = String::new();
        for r in &self.ranges {
            if !out.is_empty() {
                out.push_str("\n\n");
            }
            out.push_str(&doc_text[r.clone()]);
        }
        out
    }
}

impl PartialEq for TextBlock {
    fn eq(&self, other: &Self) -> bool {
        self.weight.to_bits() == other.weight.to_bits()
            && self.depth == other.depth
            && self.path == other.path
            && self.chars == other.chars
            && self.ranges == other.ranges
    }
}

impl Eq for TextBlock {}

/// A page's blocks, in the order they were cut out (the heaviest first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Segmentation {
    /// The coefficient preset used.
    pub preset: Preset,
    /// The blocks.
    pub blocks: Vec<TextBlock>,
    /// What was unusual about the page (nesting flattened, no visible text), for reports.
    pub notes: Vec<String>,
}

impl Segmentation {
    /// The byte ranges in the document text where one block ends and another starts: the blank
    /// line between two text pieces of different blocks (SL+ST on blocks keeps these as hard
    /// sentence breaks; plain SL+ST reads them as spaces).
    pub fn boundaries(&self, text_len: usize) -> Vec<Range<usize>> {
        let mut pieces: Vec<Range<usize>> = self
            .blocks
            .iter()
            .flat_map(|b| b.ranges.iter().cloned())
            .collect();
        pieces.sort_unstable_by_key(|r| r.start);
        pieces
            .windows(2)
            .map(|w| w[0].end..w[1].start)
            .filter(|r| r.end <= text_len)
            .collect()
    }

    /// `text` with every block boundary made a run of spaces of the same byte length: the page
    /// read as one flow of text, as if it had no blocks (spans stay valid).
    pub fn flatten(&self, text: &str) -> String {
        let mut bytes = text.as_bytes().to_vec();
        for r in self.boundaries(text.len()) {
            for b in &mut bytes[r] {
                if *b == b'\n' {
                    *b = b' ';
                }
            }
        }
        // Only ASCII line feeds were replaced by ASCII spaces.
        String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
    }
}
