//! Blocks that recur across a corpus — navigation, footers, cookie notices — found and left out
//! before scoring (`--drop-boilerplate`).
//!
//! A block's fingerprint is the MD5 of its normalised text (words lowercased, punctuation and
//! white space gone: [`Terms`] with no stop words removed). A fingerprint
//! held by more than `max_pages` pages is boilerplate: every block with it is removed from every
//! page, and the page's text is laid out again from its remaining blocks (so byte spans reported
//! afterwards are offsets into the reduced text). Documents without a segmentation are left as
//! they are.

use std::collections::HashMap;

use serde::Serialize;

use crate::document::Document;
use crate::text::StopWords;
use crate::text::Terms;

use super::Segmentation;

/// One recurring block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoilerplateBlock {
    /// The MD5 of the block's normalised text, in hex.
    pub fingerprint: String,
    /// Pages holding it.
    pub pages: usize,
    /// The first page (in input order) holding it.
    pub first_page: String,
    /// The start of its text.
    pub excerpt: String,
}

/// The MD5 of a block text's normalised form, or `None` when it has no words.
pub fn block_fingerprint(text: &str) -> Option<[u8; 16]> {
    use ::md5::Digest;
    let terms = Terms::new(text, &StopWords::none());
    if terms.is_empty() {
        return None;
    }
    Some(::md5::Md5::digest(terms.joined().as_bytes()).into())
}

/// Remove from `docs` every block whose fingerprint is held by more than `max_pages` pages;
/// returns those fingerprints, the most widespread first (then by first page).
pub fn drop_boilerplate(docs: &mut [Document], max_pages: usize) -> Vec<BoilerplateBlock> {
    // Fingerprints per document (distinct), with the document's block indices.
    let prints: Vec<Vec<Option<[u8; 16]>>> = docs
        .iter()
        .map(|d| match &d.segmentation {
            Some(seg) => seg
                .blocks
                .iter()
                .map(|b| block_fingerprint(&b.text(&d.text)))
                .collect(),
            None => Vec::new(),
        })
        .collect();
    // fingerprint → (pages, first page, a block of it on the first page)
    let mut count: HashMap<[u8; 16], (usize, usize, usize)> = HashMap::new();
    for (i, p) in prints.iter().enumerate() {
        let mut seen: Vec<[u8; 16]> = p.iter().flatten().copied().collect();
        seen.sort_unstable();
        seen.dedup();
        for f in seen {
            count.entry(f).or_insert((0, i, 0)).0 += 1;
        }
        for (b, f) in p.iter().enumerate() {
            if let Some(f) = f
                && let Some(e) = count.get_mut(f)
                && e.1 == i
            {
                e.2 = b;
            }
        }
    }
    let mut out: Vec<BoilerplateBlock> = Vec::new();
    let mut boiler: HashMap<[u8; 16], ()> = HashMap::new();
    for (f, &(pages, first, block)) in &count {
        if pages > max_pages {
            boiler.insert(*f, ());
            let d = &docs[first];
            let text = d
                .segmentation
                .as_ref()
                .map(|s| s.blocks[block].text(&d.text))
                .unwrap_or_default();
            let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
            let excerpt: String = flat.chars().take(60).collect();
            out.push(BoilerplateBlock {
                fingerprint: f.iter().map(|b| format!("{b:02x}")).collect(),
                pages,
                first_page: d.id.clone(),
                excerpt: if flat.chars().count() > 60 {
                    excerpt + "…"
                } else {
                    excerpt
                },
            });
        }
    }
    out.sort_by(|a, b| {
        b.pages
            .cmp(&a.pages)
            .then_with(|| a.first_page.cmp(&b.first_page))
            .then_with(|| a.fingerprint.cmp(&b.fingerprint))
    });
    if boiler.is_empty() {
        return out;
    }
    for (doc, p) in docs.iter_mut().zip(&prints) {
        let keep: Vec<bool> = p
            .iter()
            .map(|f| f.is_none_or(|f| !boiler.contains_key(&f)))
            .collect();
        if keep.iter().all(|&k| k) {
            continue;
        }
        *doc = keep_blocks(doc, &keep);
    }
    out
}

/// `doc` with only the blocks marked in `keep`, its text laid out again (pieces separated by
/// blank lines).
pub fn keep_blocks(doc: &Document, keep: &[bool]) -> Document {
    let Some(seg) = &doc.segmentation else {
        return doc.clone();
    };
    let mut pieces: Vec<(usize, usize)> = Vec::new(); // (start, block), with the range found again
    for (b, block) in seg.blocks.iter().enumerate() {
        if keep.get(b).copied().unwrap_or(true) {
            pieces.extend(block.ranges.iter().map(|r| (r.start, b)));
        }
    }
    pieces.sort_unstable();
    let mut text = String::new();
    let mut blocks: Vec<super::TextBlock> = seg
        .blocks
        .iter()
        .map(|b| super::TextBlock {
            ranges: Vec::new(),
            ..b.clone()
        })
        .collect();
    for (start, b) in pieces {
        let Some(r) = seg.blocks[b].ranges.iter().find(|r| r.start == start) else {
            continue;
        };
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        let at = text.len();
        text.push_str(&doc.text[r.clone()]);
        blocks[b].ranges.push(at..text.len());
    }
    let blocks = blocks
        .into_iter()
        .enumerate()
        .filter(|(b, _)| keep.get(*b).copied().unwrap_or(true))
        .map(|(_, block)| block)
        .collect();
    Document {
        id: doc.id.clone(),
        text,
        encoding: doc.encoding,
        segmentation: Some(Box::new(Segmentation {
            preset: seg.preset,
            blocks,
            notes: seg.notes.clone(),
        })),
    }
}
