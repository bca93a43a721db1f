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

pub use boilerplate::{BoilerplateBlock, drop_boilerplate};
pub use html::{Page, parse_page};
pub use segment::{Preset, SegmentConfig};

pub use crate::document::{Segmentation, TextBlock};
