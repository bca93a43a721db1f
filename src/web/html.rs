//! HTML to a page: visible text laid out by blocks, and the blocks themselves.
//!
//! The page is parsed by html5ever (through `scraper`, whose tree lives in one vector, so
//! dropping it never recurses). The tree is walked once with `ego_tree`'s iterative traversal
//! into a flat preorder list of the elements that can show text, with the text pieces in
//! document order; [`segment`](super::segment::segment) cuts that list into blocks, and the text
//! is then laid out:
//!
//! - white space inside and between text nodes collapses to one space, as a browser shows it;
//! - a block-level element (`p`, `div`, `li`, `h1`, `td`, `br`, …) starts a new line (`\n`,
//!   which the sentence splitter reads as a space, as it does for hard-wrapped text);
//! - where the text passes from one block to another there is a blank line (`\n\n`), a hard
//!   sentence break: no sentence ever spans two blocks.
//!
//! Byte spans reported for a page are offsets into this laid-out text, not into the HTML.

use std::ops::Range;

use scraper::{Html, Node};

use super::segment::{self, SegmentConfig, TreeNode};
use super::{Segmentation, TextBlock};
use crate::document::{Document, Encoding};

/// A parsed page: its visible text and blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page {
    /// The visible text, blocks separated by blank lines.
    pub text: String,
    /// The blocks, in extraction order.
    pub segmentation: Segmentation,
    /// How many parse errors the HTML5 parser recovered from (malformed markup).
    pub parse_errors: usize,
    /// The deepest element nesting seen.
    pub max_depth: usize,
}

impl Document {
    /// A web page as a document: its visible text and blocks.
    pub fn from_page(id: impl Into<String>, page: Page, encoding: Encoding) -> Self {
        Document {
            id: id.into(),
            text: page.text,
            encoding,
            segmentation: Some(Box::new(page.segmentation)),
        }
    }
}

/// Elements whose content a reader never sees.
const INVISIBLE: &[&str] = &[
    "head", "script", "style", "template", "noscript", "svg", "math", "iframe", "object", "canvas",
    "select", "datalist",
];

/// Elements that start a new line.
const BLOCK_LEVEL: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "br",
    "caption",
    "dd",
    "details",
    "dialog",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hgroup",
    "hr",
    "li",
    "main",
    "menu",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "tbody",
    "td",
    "tfoot",
    "th",
    "thead",
    "tr",
    "ul",
];

/// Element nesting beyond this depth is flattened before parsing (see [`limit_depth`]).
pub const MAX_DEPTH: usize = 4096;

/// Elements without end tags.
const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param",
    "source", "track", "wbr",
];

/// Flatten markup nested deeper than `max_depth`: start tags past that depth, and end tags
/// closing at it, are removed, the text kept. `None` when nothing is that deep.
///
/// The HTML5 tree builder looks through its whole stack of open elements for some start tags
/// (`<div>` checks for an open `<p>`), so a page nested n levels deep costs O(n²): 100,000
/// nested `div`s take minutes. Browsers cap the depth for the same reason (Blink at 512). This
/// pre-pass counts depth from the tags alone (start tags of non-void elements down, end tags
/// up; comments, doctypes and `script`/`style` raw text skipped), which over-counts where end
/// tags are implied (`<p>` without `</p>`); the limit is far above any real page's depth.
pub fn limit_depth(html: &str, max_depth: usize) -> Option<(String, usize)> {
    let b = html.as_bytes();
    let mut depth = 0usize;
    let mut out: Option<String> = None;
    let mut removed = 0usize;
    let mut copied = 0usize; // bytes of `html` copied to `out` so far
    let mut i = 0;
    while let Some(k) = b[i..].iter().position(|&c| c == b'<') {
        let at = i + k;
        let rest = &b[at + 1..];
        if rest.starts_with(b"!--") {
            i = match find(&b[at..], b"-->") {
                Some(e) => at + e + 3,
                None => b.len(),
            };
            continue;
        }
        let closing = rest.first() == Some(&b'/');
        let name_start = at + 1 + usize::from(closing);
        let name_len = b[name_start..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'-')
            .count();
        if name_len == 0 || !b[name_start].is_ascii_alphabetic() {
            i = at + 1;
            continue;
        }
        let name = html[name_start..name_start + name_len].to_ascii_lowercase();
        let end = match b[name_start..].iter().position(|&c| c == b'>') {
            Some(e) => name_start + e + 1,
            None => b.len(),
        };
        let self_closing = end >= 2 && b[end - 2] == b'/';
        let mut drop = false;
        if closing {
            if !VOID.contains(&name.as_str()) {
                drop = depth > max_depth;
                depth = depth.saturating_sub(1);
            }
        } else if !VOID.contains(&name.as_str()) && !self_closing {
            depth += 1;
            drop = depth > max_depth;
        }
        let mut next = end;
        if !closing && matches!(name.as_str(), "script" | "style" | "textarea" | "title") {
            // Raw text up to the matching end tag, which is then read as usual.
            let close = format!("</{name}");
            let lower = html[end..].to_ascii_lowercase();
            next = lower.find(&close).map_or(b.len(), |e| end + e);
        }
        if drop {
            let o = out.get_or_insert_with(|| String::with_capacity(html.len()));
            o.push_str(&html[copied..at]);
            copied = end;
            removed += 1;
            if next > end {
                // A dropped script or style goes whole, its end tag too.
                next = match b[next..].iter().position(|&c| c == b'>') {
                    Some(e) => next + e + 1,
                    None => b.len(),
                };
                copied = next;
                removed += 1;
                depth -= 1;
            }
        }
        i = next;
    }
    let mut o = out?;
    o.push_str(&html[copied..]);
    Some((o, removed))
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Paths longer than this many elements are shortened in the middle.
const PATH_ELEMENTS: usize = 12;

/// An element kept for segmentation.
struct Elem {
    node: TreeNode,
    /// `tag`, `tag#id` or `tag.class`.
    label: String,
}

/// A piece of visible text.
struct Piece {
    /// The element it sits in directly.
    elem: usize,
    /// The text, white space collapsed, without leading or trailing space.
    text: String,
    /// Whether a block-level element starts or ends between the previous piece and this one.
    line_before: bool,
}

fn is_hidden(e: &scraper::node::Element) -> bool {
    if e.attr("hidden").is_some() {
        return true;
    }
    e.attr("style").is_some_and(|s| {
        let s: String = s
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        s.contains("display:none") || s.contains("visibility:hidden")
    })
}

fn label(e: &scraper::node::Element) -> String {
    let name = e.name();
    if let Some(id) = e.id().filter(|id| !id.is_empty()) {
        format!("{name}#{id}")
    } else if let Some(class) = e.classes().next() {
        format!("{name}.{class}")
    } else {
        name.to_string()
    }
}

/// Collapse white space runs to one space; `(text, starts with space, ends with space)`.
fn collapse(raw: &str) -> (String, bool, bool) {
    let mut out = String::with_capacity(raw.len());
    let mut space = false;
    for c in raw.chars() {
        if c.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    let lead = raw.starts_with(char::is_whitespace);
    let trail = raw.ends_with(char::is_whitespace);
    (out, lead, trail)
}

/// Parse `html` and cut it into blocks.
///
/// Never fails: malformed markup is repaired as browsers repair it (counted in
/// [`Page::parse_errors`]); a page without visible text has empty text and no blocks.
///
/// # Example
/// ```
/// use slst::web::{parse_page, Preset, SegmentConfig};
/// let html = "<html><body><nav><a>Home</a> <a>News</a></nav>\
///     <div id=story><p>The council met on Monday.</p><p>It approved the budget.</p></div></body></html>";
/// // The 8–12 preset cuts the story out first (49 characters at depth 3), then the menu.
/// let page = parse_page(html, &SegmentConfig { preset: Preset::Many, max_blocks: None });
/// let blocks = &page.segmentation.blocks;
/// assert_eq!(blocks[0].path, "html>body>div#story");
/// assert_eq!(blocks[1].path, "html>body>nav");
/// assert_eq!(page.text, "Home News\n\nThe council met on Monday.\nIt approved the budget.");
/// assert_eq!(blocks[1].ranges, vec![0..9]);
/// // The default preset keeps so short a page whole.
/// let page = parse_page(html, &SegmentConfig::default());
/// assert_eq!(page.segmentation.blocks.len(), 1);
/// ```
pub fn parse_page(html: &str, config: &SegmentConfig) -> Page {
    let mut notes = Vec::new();
    let flattened = limit_depth(html, MAX_DEPTH);
    let html = match &flattened {
        Some((flat, removed)) => {
            notes.push(format!(
                "markup nested more than {MAX_DEPTH} levels deep: {removed} tags below that depth were removed (their text kept)"
            ));
            flat.as_str()
        }
        None => html,
    };
    let doc = Html::parse_document(html);
    let parse_errors = doc.errors.len();
    let walk = Walk::new(&doc);
    drop(doc);
    let nodes: Vec<TreeNode> = walk.elems.iter().map(|e| e.node).collect();
    let (cuts, block_of) = segment::segment(&nodes, config);
    let (text, ranges) = lay_out(&walk.pieces, &block_of, cuts.len());
    let blocks = cuts
        .iter()
        .zip(ranges)
        .map(|(cut, ranges)| TextBlock {
            weight: cut.weight,
            depth: nodes[cut.node].depth,
            path: path(&walk.elems, cut.node),
            chars: cut.chars,
            ranges,
        })
        .collect();
    if text.is_empty() {
        notes.push("no visible text: the page has no blocks".into());
    }
    Page {
        text,
        segmentation: Segmentation {
            preset: config.preset,
            blocks,
            notes,
        },
        parse_errors,
        max_depth: walk.max_depth,
    }
}

/// One walk over a parsed page: the elements that can show text, in preorder, and the pieces of
/// visible text, in document order.
#[derive(Default)]
struct Walk {
    /// The kept elements.
    elems: Vec<Elem>,
    /// The text pieces.
    pieces: Vec<Piece>,
    /// Open kept elements (indices into `elems`).
    open: Vec<usize>,
    /// How deep inside an invisible element we are (0: not inside one).
    invisible_depth: usize,
    /// Whether a block-level element started or ended since the last piece.
    line_pending: bool,
    /// The deepest element nesting seen.
    max_depth: usize,
    /// Whether the last piece ended in a space that was not yet written.
    space_pending: bool,
}

impl Walk {
    /// Walk the tree of `doc` once, iteratively.
    fn new(doc: &Html) -> Walk {
        let mut walk = Walk::default();
        for edge in doc.tree.root().traverse() {
            match edge {
                ego_tree::iter::Edge::Open(node) => match node.value() {
                    Node::Element(e) => walk.open_element(e),
                    Node::Text(t) if walk.invisible_depth == 0 => walk.text(t),
                    _ => {}
                },
                ego_tree::iter::Edge::Close(node) => {
                    if let Node::Element(e) = node.value() {
                        walk.close_element(e);
                    }
                }
            }
        }
        walk
    }

    /// An element starts: keep it, or count it as invisible.
    fn open_element(&mut self, e: &scraper::node::Element) {
        if self.invisible_depth > 0 || INVISIBLE.contains(&e.name()) || is_hidden(e) {
            self.invisible_depth += 1;
            return;
        }
        let depth = self.open.len() + 1;
        self.max_depth = self.max_depth.max(depth);
        self.elems.push(Elem {
            node: TreeNode {
                parent: self.open.last().copied(),
                depth,
                end: 0,
                own_chars: 0,
            },
            label: label(e),
        });
        self.open.push(self.elems.len() - 1);
        if BLOCK_LEVEL.contains(&e.name()) {
            self.line_pending = true;
        }
    }

    /// A visible text node: a piece of the innermost open element.
    fn text(&mut self, t: &str) {
        let Some(&elem) = self.open.last() else {
            return;
        };
        let (text, lead, trail) = collapse(t);
        if text.is_empty() {
            self.space_pending |= lead || trail;
            return;
        }
        let line_before = self.line_pending;
        self.line_pending = false;
        // Adjacent inline text keeps one space where either side had white space.
        let text = if !line_before && (lead || self.space_pending) && !self.pieces.is_empty() {
            format!(" {text}")
        } else {
            text
        };
        self.space_pending = trail;
        self.elems[elem].node.own_chars += text.trim_start().chars().count();
        self.pieces.push(Piece {
            elem,
            text,
            line_before,
        });
    }

    /// An element ends: close it, or leave one level of an invisible element.
    fn close_element(&mut self, e: &scraper::node::Element) {
        if self.invisible_depth > 0 {
            self.invisible_depth -= 1;
            return;
        }
        if let Some(i) = self.open.pop() {
            self.elems[i].node.end = self.elems.len();
        }
        if BLOCK_LEVEL.contains(&e.name()) {
            self.line_pending = true;
        }
    }
}

/// Lay the text of `pieces` out (blank lines between blocks, line breaks before block-level
/// elements) and record each of the `blocks` blocks' byte ranges in it; pieces outside every
/// block are left out.
fn lay_out(
    pieces: &[Piece],
    block_of: &[Option<u32>],
    blocks: usize,
) -> (String, Vec<Vec<Range<usize>>>) {
    let mut text = String::new();
    let mut ranges: Vec<Vec<Range<usize>>> = vec![Vec::new(); blocks];
    let mut last_block: Option<u32> = None;
    for piece in pieces {
        let Some(b) = block_of[piece.elem] else {
            continue;
        };
        let mut body = piece.text.as_str();
        let new_range = match last_block {
            None => {
                body = body.trim_start();
                true
            }
            Some(prev) if prev != b => {
                text.push_str("\n\n");
                body = body.trim_start();
                true
            }
            Some(_) if piece.line_before => {
                text.push('\n');
                body = body.trim_start();
                false
            }
            Some(_) => false,
        };
        let start = text.len();
        text.push_str(body);
        let list = &mut ranges[b as usize];
        match list.last_mut() {
            Some(r) if !new_range => r.end = text.len(),
            _ => list.push(start..text.len()),
        }
        last_block = Some(b);
    }
    (text, ranges)
}

/// The DOM path of element `i`, shortened in the middle when it is long.
fn path(elems: &[Elem], i: usize) -> String {
    let mut chain = Vec::new();
    let mut at = Some(i);
    while let Some(k) = at {
        chain.push(k);
        at = elems[k].node.parent;
    }
    chain.reverse();
    let label = |k: &usize| elems[*k].label.as_str();
    if chain.len() <= PATH_ELEMENTS {
        return chain.iter().map(label).collect::<Vec<_>>().join(">");
    }
    let head: Vec<&str> = chain[..4].iter().map(label).collect();
    let tail: Vec<&str> = chain[chain.len() - 6..].iter().map(label).collect();
    format!(
        "{}>…({})…>{}",
        head.join(">"),
        chain.len() - 10,
        tail.join(">")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_styles_head_and_hidden_elements_are_not_text() {
        let page = parse_page(
            "<html><head><title>T</title><style>p{}</style></head><body>\
             <script>var x = 1;</script><p>Seen.</p><p hidden>Unseen.</p>\
             <div style='display: none'>Gone.</div><noscript>No.</noscript></body></html>",
            &SegmentConfig::default(),
        );
        assert_eq!(page.text, "Seen.");
        assert_eq!(page.segmentation.blocks.len(), 1);
        assert_eq!(page.segmentation.blocks[0].ranges, vec![0..5]);
    }

    #[test]
    fn inline_markup_keeps_words_whole_and_spaces_single() {
        let page = parse_page(
            "<p>A <b>bold</b>ly   written\n line, <i>with</i> <em>more</em>.</p>",
            &SegmentConfig::default(),
        );
        assert_eq!(page.text, "A boldly written line, with more.");
    }

    #[test]
    fn malformed_markup_is_repaired_and_counted() {
        let page = parse_page(
            "<p>One <b>two <i>three</b> four</i><p>Five &amp six <unknown>seven",
            &SegmentConfig::default(),
        );
        assert!(page.parse_errors > 0);
        assert_eq!(page.text, "One two three four\nFive & six seven");
    }

    #[test]
    fn nesting_past_the_limit_is_flattened_and_its_text_kept() {
        let n = 50;
        let html = format!(
            "<body>{}<p>Deep <b>text</b>.</p><!-- <div> --><script>'<div>'</script>{}</body>",
            "<div>".repeat(n),
            "</div>".repeat(n)
        );
        assert_eq!(limit_depth(&html, 100), None);
        let (flat, removed) = limit_depth(&html, 10).unwrap();
        // body + 9 divs stay; 41 divs, the p and the b below them lose both tags; the script
        // goes whole.
        assert_eq!(removed, 2 * (n - 9) + 6);
        assert!(flat.contains("Deep text.<!-- <div> -->"));
        assert!(!flat.contains("script"));
        assert_eq!(flat.matches("<div>").count(), 9 + 1);
    }

    #[test]
    fn the_parser_builds_and_drops_a_100_000_deep_tree_without_recursing() {
        // Nested spans cost the tree builder linear time (no scope scans), so html5ever gets the
        // whole depth here, on the test thread's small stack; ego-tree keeps nodes in one vector.
        let n = 100_000;
        let html = format!("{}deep{}", "<span>".repeat(n), "</span>".repeat(n));
        let doc = Html::parse_document(&html);
        let deepest = doc
            .tree
            .root()
            .descendants()
            .filter(|d| d.value().is_element())
            .count();
        assert_eq!(deepest, n + 3); // html, head, body and the spans
        drop(doc);
    }

    #[test]
    fn a_page_without_text_has_no_blocks() {
        let page = parse_page(
            "<html><body><img src=x><script>1</script></body></html>",
            &SegmentConfig::default(),
        );
        assert!(page.text.is_empty());
        assert!(page.segmentation.blocks.is_empty());
        let page = parse_page("", &SegmentConfig::default());
        assert!(page.segmentation.blocks.is_empty());
    }

    #[test]
    fn block_ranges_cover_the_text_and_blocks_are_blank_line_separated() {
        let page = parse_page(
            include_str!("../../corpora/web-fixtures/python-3.11/about.html"),
            &SegmentConfig {
                preset: super::super::Preset::Many,
                max_blocks: None,
            },
        );
        let seg = &page.segmentation;
        assert!(seg.blocks.len() >= 2);
        let mut all: Vec<Range<usize>> = seg.blocks.iter().flat_map(|b| b.ranges.clone()).collect();
        all.sort_by_key(|r| r.start);
        for w in all.windows(2) {
            assert_eq!(&page.text[w[0].end..w[1].start], "\n\n");
        }
        let covered: usize = all.iter().map(|r| r.len()).sum();
        assert_eq!(covered + 2 * (all.len() - 1), page.text.len());
        assert!(
            seg.blocks[0]
                .path
                .ends_with("section#about-these-documents"),
            "{seg:?}"
        );
        let flat = seg.flatten(&page.text);
        assert_eq!(flat.len(), page.text.len());
        assert!(!flat.contains("\n\n"));
    }
}
