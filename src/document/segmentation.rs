//! A web page's structural-semantic blocks, as a [`Document`](super::Document) carries them:
//! which byte ranges of its text form each block, and the coefficient preset that cut them. The
//! cutting itself (HTML parsing, Kosinov's weight function) is [`crate::web`]'s; these are the
//! values it leaves behind, read by every later stage.

use std::ops::Range;

use serde::Serialize;

/// A coefficient preset of the weight function, by the number of blocks wanted (seed 004,
/// table 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum Preset {
    /// 2–4 blocks: (k1, k2, k3, k4) = (0.21, 1.08, 7.80, 1).
    #[serde(rename = "2-4")]
    Few,
    /// 3–7 blocks: (0.15, 1.93, 4.07, 1) — the default.
    #[default]
    #[serde(rename = "3-7")]
    Default,
    /// 8–12 blocks: (0.50, 1.94, 0.26, 1).
    #[serde(rename = "8-12")]
    Many,
}

impl Preset {
    /// (k1, k2, k3, k4).
    pub fn coefficients(self) -> [f64; 4] {
        match self {
            Preset::Few => [0.21, 1.08, 7.80, 1.0],
            Preset::Default => [0.15, 1.93, 4.07, 1.0],
            Preset::Many => [0.50, 1.94, 0.26, 1.0],
        }
    }

    /// The largest block count the preset is meant for.
    pub fn max_blocks(self) -> usize {
        match self {
            Preset::Few => 4,
            Preset::Default => 7,
            Preset::Many => 12,
        }
    }

    /// The preset's name as the CLI spells it (`2-4`, `3-7`, `8-12`).
    pub fn name(self) -> &'static str {
        match self {
            Preset::Few => "2-4",
            Preset::Default => "3-7",
            Preset::Many => "8-12",
        }
    }

    /// The preset called `name`.
    pub fn from_name(name: &str) -> Option<Preset> {
        match name {
            "2-4" => Some(Preset::Few),
            "3-7" => Some(Preset::Default),
            "8-12" => Some(Preset::Many),
            _ => None,
        }
    }
}

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
