//! Cutting a byte stream into document elements ([`SgmlSplitter`]) without ever holding more
//! than one document (plus a read buffer), so that corpora of any size stream through.

use std::io::Read;

use super::scan::{find_close_tag, find_open_tag};

/// The bytes of one document element, cut from a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawElement {
    /// From the opening tag to the end of the closing tag (or to where the next document
    /// starts, or to the end of the stream); only the first `limit + 1` bytes when the element
    /// is longer than the splitter's limit ([`SgmlSplitter::with_limit`]).
    pub bytes: Vec<u8>,
    /// Where the element starts: its offset in the stream, in bytes.
    pub start: u64,
    /// The element's whole length in bytes.
    pub len: u64,
    /// 1-based line of the opening tag.
    pub line: usize,
}

/// Cuts a byte stream into document elements (`<DOC>…</DOC>`), holding at most one document and
/// a read buffer in memory (with a limit, at most the limit and a read buffer: a longer element
/// is passed over). Bytes outside document elements (a `<!DOCTYPE>` line, white space) are
/// skipped.
pub struct SgmlSplitter<R> {
    reader: R,
    tag: String,
    buf: Vec<u8>,
    /// Where the unread part of `buf` starts: consumed bytes are skipped, not moved, and
    /// dropped only when the buffer is refilled (moving them per document made a buffer of many
    /// small documents quadratic).
    pos: usize,
    eof: bool,
    /// Newlines in the bytes already consumed.
    line: usize,
    /// The bytes already consumed.
    offset: u64,
    /// Elements longer than this keep only their first `limit + 1` bytes.
    limit: Option<u64>,
}

const CHUNK: usize = 1 << 20;

/// The longest tail kept from the last `<` of a buffer while looking for a tag cut by a read:
/// a longer "tag" is not one this reader looks for.
const MAX_TAG: usize = 1 << 16;

impl<R: Read> SgmlSplitter<R> {
    /// A splitter over `reader` for elements named `doc_tag` (case-insensitive).
    pub fn new(reader: R, doc_tag: &str) -> Self {
        SgmlSplitter {
            reader,
            tag: doc_tag.to_string(),
            buf: Vec::new(),
            pos: 0,
            eof: false,
            line: 1,
            offset: 0,
            limit: None,
        }
    }

    /// Hold at most `limit + 1` bytes of an element: a longer one is read past, its
    /// [`RawElement::len`] counted and only its start kept, so that memory stays bounded
    /// whatever the input (a gzip bomb, an element never closed).
    #[must_use]
    pub fn with_limit(mut self, limit: u64) -> Self {
        self.limit = Some(limit);
        self
    }

    /// The bytes not yet consumed.
    fn data(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    fn fill(&mut self) -> std::io::Result<()> {
        self.buf.drain(..self.pos);
        self.pos = 0;
        let old = self.buf.len();
        self.buf.resize(old + CHUNK, 0);
        let n = loop {
            match self.reader.read(&mut self.buf[old..]) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                other => break other,
            }
        };
        let n = n.inspect_err(|_| self.buf.truncate(old))?;
        self.buf.truncate(old + n);
        self.eof = n == 0;
        Ok(())
    }

    fn consume(&mut self, n: usize) {
        self.line += self.data()[..n].iter().filter(|&&b| b == b'\n').count();
        self.offset += n as u64;
        self.pos += n;
    }

    /// Where to cut the buffer so that a tag cut by the read boundary is kept whole: from its
    /// last `<` (unless that is further back than any tag is long), else all of it.
    fn keep_from(&self, from: usize) -> usize {
        let data = self.data();
        match data[from..].iter().rposition(|&b| b == b'<') {
            Some(p) if data.len() - (from + p) <= MAX_TAG => from + p,
            _ => data.len(),
        }
    }

    /// The next document element, or `None` at the end of the stream.
    ///
    /// # Errors
    /// Reading failed (including a truncated or corrupt gzip stream under the reader).
    pub fn next_document(&mut self) -> std::io::Result<Option<RawElement>> {
        // Find the next opening tag.
        let start = loop {
            if let Some((s, _)) = find_open_tag(self.data(), 0, &self.tag) {
                break s;
            }
            if self.eof {
                self.consume(self.data().len());
                return Ok(None);
            }
            // Keep the tail from the last '<': it may be an opening tag cut by the read
            // boundary (with attributes it can be any length).
            self.consume(self.keep_from(0));
            self.fill()?;
        };
        self.consume(start);
        let (line, offset) = (self.line, self.offset);
        // Over the limit: the element's first bytes, and how many were dropped since.
        let mut head: Option<Vec<u8>> = None;
        let mut dropped: u64 = 0;
        // Find where it ends: its closing tag, or the next opening tag, or the end.
        let mut searched: usize = 1;
        let end = loop {
            // Resume at the last '<' already seen: a tag may have been cut by the read. The
            // element's own opening tag is at 0 until bytes are dropped.
            let from = self.data()[..searched.min(self.data().len())]
                .iter()
                .rposition(|&b| b == b'<')
                .unwrap_or(searched)
                .max(usize::from(dropped == 0));
            // The closing tag is looked for only before the next opening tag (a closing tag
            // holds no '<'): a file of documents that are never closed is then read in linear
            // time, not each document scanning the rest of the buffer.
            let next = find_open_tag(self.data(), from, &self.tag).map(|(s, _)| s);
            let close = find_close_tag(
                &self.data()[..next.unwrap_or(self.data().len())],
                from,
                &self.tag,
            );
            match (close, next) {
                (Some((_, after)), _) => break after,
                (None, Some(n)) => break n,
                (None, None) if self.eof => break self.data().len(),
                (None, None) => {
                    if let Some(limit) = self.limit
                        && dropped + self.data().len() as u64 > limit
                    {
                        if head.is_none() {
                            let keep = usize::try_from(limit + 1).unwrap_or(usize::MAX);
                            head = Some(self.data()[..keep.min(self.data().len())].to_vec());
                        }
                        let cut = self.keep_from(from);
                        dropped += cut as u64;
                        self.consume(cut);
                    }
                    searched = self.data().len();
                    self.fill()?;
                }
            }
        };
        let len = dropped + end as u64;
        let bytes = match head {
            Some(head) => head,
            None => self.data()[..end].to_vec(),
        };
        self.consume(end);
        Ok(Some(RawElement {
            bytes,
            start: offset,
            len,
            line,
        }))
    }
}
