//! What the fuzz targets share: reading input bytes as settings and documents, and checking
//! the invariants the library documents (ARCHITECTURE.md, "Types that flow between stages").
//!
//! Every check panics with a message when an invariant fails, so libFuzzer reports it as a crash.

use std::ops::Range;
use std::sync::OnceLock;

use slst::Document;
use slst::corpus::{Item, SourceOptions, read_stream};
use slst::method::RobustConfig;
use slst::text::StopWords;

/// Input bytes read from the front: settings first, then the rest as data.
pub struct Bytes<'a>(pub &'a [u8]);

impl<'a> Bytes<'a> {
    /// The next byte, 0 when none is left.
    pub fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    /// The next byte as a flag (its lowest bit).
    pub fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    /// The rest of the input.
    pub fn rest(self) -> &'a [u8] {
        self.0
    }
}

/// Split `data` into at most `n` parts at the byte 0xFF (0xFF never occurs in UTF-8 text, so the
/// fuzzer's text stays text).
pub fn parts(data: &[u8], n: usize) -> Vec<&[u8]> {
    data.splitn(n, |&b| b == 0xFF).collect()
}

/// Bytes as text: valid UTF-8 as it is, anything else lossily.
pub fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// `data` gzip'd.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(data).expect("writing to memory");
    enc.finish().expect("writing to memory")
}

/// Every item of `data` read as a stream with `options`, each checked.
pub fn read_all(data: &[u8], name: &str, options: &SourceOptions) -> Vec<Item> {
    let items: Vec<Item> =
        read_stream(std::io::Cursor::new(data.to_vec()), name, options).collect();
    for item in &items {
        match item {
            Item::Document(doc) => check_document(doc),
            Item::Skipped(s) => assert!(!s.reason.is_empty(), "a skip without a reason: {s:?}"),
        }
    }
    items
}

/// A span of `text`: ordered, inside it, on character boundaries.
pub fn check_span(text: &str, span: Range<usize>, what: &str) {
    assert!(
        span.start <= span.end && span.end <= text.len(),
        "{what} {span:?} outside a text of {} bytes",
        text.len()
    );
    assert!(
        text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
        "{what} {span:?} not on character boundaries"
    );
}

/// Spans ascending and disjoint.
pub fn check_ascending(spans: &[Range<usize>], what: &str) {
    for w in spans.windows(2) {
        assert!(
            w[0].end <= w[1].start,
            "{what} not ascending and disjoint: {w:?}"
        );
    }
}

/// A document: its segmentation, when it has one, holds (ranges ascending, disjoint, on
/// character boundaries; text pieces of different blocks separated by exactly `\n\n`).
pub fn check_document(doc: &Document) {
    let Some(seg) = &doc.segmentation else {
        return;
    };
    let text = &doc.text;
    let mut all: Vec<Range<usize>> = Vec::new();
    for block in &seg.blocks {
        for r in &block.ranges {
            check_span(text, r.clone(), "block range");
        }
        check_ascending(&block.ranges, "ranges of one block");
        all.extend(block.ranges.iter().cloned());
    }
    all.sort_unstable_by_key(|r| r.start);
    check_ascending(&all, "block ranges");
    for gap in seg.boundaries(text.len()) {
        assert_eq!(
            &text[gap.clone()],
            "\n\n",
            "block boundary {gap:?} is not a blank line"
        );
    }
    let flat = seg.flatten(text);
    assert_eq!(flat.len(), text.len(), "flattening changed the length");
    let _ = doc.block_texts();
}

/// A score in [0, 1].
pub fn check_fraction(x: f64, what: &str) {
    assert!((0.0..=1.0).contains(&x), "{what} {x} outside [0, 1]");
}

/// The built-in English stop words, parsed once (parsing them is a good part of an execution).
pub fn english() -> &'static StopWords {
    static WORDS: OnceLock<StopWords> = OnceLock::new();
    WORDS.get_or_init(StopWords::english)
}

/// The robust mode's default settings, built once.
pub fn robust_defaults() -> &'static RobustConfig {
    static CONFIG: OnceLock<RobustConfig> = OnceLock::new();
    CONFIG.get_or_init(RobustConfig::default)
}
