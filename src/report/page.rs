//! The record of `slst blocks`: a web page's structural-semantic blocks in extraction order.

use serde::Serialize;

use crate::document::Document;
use crate::web::Segmentation;

/// One block of a page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageBlockRecord {
    /// The block's number, from 1, in extraction order.
    pub block: usize,
    /// The weight W(s) of its root when it was cut out.
    pub weight: f64,
    /// The depth of its root (the `html` element is 1).
    pub depth: usize,
    /// The DOM path of its root.
    pub path: String,
    /// Its visible text length in characters.
    pub chars: usize,
    /// Byte ranges `[start, end)` of its text in the page's visible text.
    pub ranges: Vec<[usize; 2]>,
    /// The first characters of its text, on one line.
    pub excerpt: String,
}

/// `slst blocks --json`: a page's blocks and what was unusual about it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageRecord {
    /// The page's id.
    pub id: String,
    /// The coefficient preset.
    pub preset: &'static str,
    /// Bytes of visible text.
    pub text_bytes: usize,
    /// Characters of visible text in blocks.
    pub chars: usize,
    /// What was unusual about the page (nesting flattened, no visible text).
    pub notes: Vec<String>,
    /// The blocks, in extraction order.
    pub blocks: Vec<PageBlockRecord>,
}

/// The first `n` characters of `text` on one line, with an ellipsis when cut.
fn excerpt(text: &str, n: usize) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= n {
        flat
    } else {
        flat.chars().take(n).collect::<String>() + "…"
    }
}

impl PageRecord {
    /// The record of a page and its segmentation, each block quoted by its first
    /// `excerpt_chars` characters.
    pub fn new(doc: &Document, seg: &Segmentation, excerpt_chars: usize) -> Self {
        PageRecord {
            id: doc.id.clone(),
            preset: seg.preset.name(),
            text_bytes: doc.text.len(),
            chars: seg.blocks.iter().map(|b| b.chars).sum(),
            notes: seg.notes.clone(),
            blocks: seg
                .blocks
                .iter()
                .enumerate()
                .map(|(i, b)| PageBlockRecord {
                    block: i + 1,
                    weight: b.weight,
                    depth: b.depth,
                    path: b.path.clone(),
                    chars: b.chars,
                    ranges: b.ranges.iter().map(|r| [r.start, r.end]).collect(),
                    excerpt: excerpt(&b.text(&doc.text), excerpt_chars),
                })
                .collect(),
        }
    }

    /// The table: one line per block with its weight, depth, length, share and path, then its
    /// byte ranges and excerpt.
    pub fn to_text(&self) -> String {
        let total = self.chars;
        let mut out = format!(
            "{}\n  {} characters of visible text in {} blocks (preset {}); spans are byte offsets into the visible text\n\n",
            self.id,
            total,
            self.blocks.len(),
            self.preset
        );
        for note in &self.notes {
            out.push_str(&format!("  note: {note}\n"));
        }
        if !self.notes.is_empty() {
            out.push('\n');
        }
        out.push_str("    #    weight  depth   chars  share  path\n");
        for b in &self.blocks {
            out.push_str(&format!(
                "  {:>3}  {:>8.3}  {:>5}  {:>6}  {:>4.0}%  {}\n",
                b.block,
                b.weight,
                b.depth,
                b.chars,
                100.0 * b.chars as f64 / total.max(1) as f64,
                b.path
            ));
            let spans: Vec<String> = b
                .ranges
                .iter()
                .map(|r| format!("{}..{}", r[0], r[1]))
                .collect();
            out.push_str(&format!("       bytes {}\n", spans.join(", ")));
            out.push_str(&format!("       {}\n", b.excerpt));
        }
        out
    }
}
