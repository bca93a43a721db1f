//! A streaming WARC reader (ISO 28500, WARC/1.0 and 1.1), one record at a time.
//!
//! Web crawls come as WARC files, usually gzip'd one record per gzip member; the caller inflates
//! (a multi-member gzip decoder reads such a file as one stream). This reader then:
//!
//! - reads the version line and the named fields up to the blank line;
//! - reads exactly `Content-Length` bytes of record block;
//! - checks that the block is followed by the two line breaks the format requires. If it is not,
//!   the `Content-Length` is wrong: the record is reported (not guessed at), and reading resumes
//!   at the next line that starts with `WARC/` — found after the declared end, or inside the
//!   declared block when the length was too large;
//! - reports a record cut short by the end of the file (a truncated download) and stops.
//!
//! [`http_payload`] splits a response record's block into the HTTP status, headers and body,
//! undoing chunked transfer coding and gzip/deflate content coding.
//!
//! A small reader of our own rather than a WARC crate: the crates read records by trusting
//! `Content-Length`, and a wrong one then derails every later record of the file; here each
//! damaged record is reported on its own and the rest of the file is read.

use std::io::Read;

/// One WARC record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarcRecord {
    /// Its number in the file, from 1.
    pub number: usize,
    /// The byte offset of its version line in the (inflated) stream.
    pub offset: u64,
    /// The named fields, in order (names as written).
    pub fields: Vec<(String, String)>,
    /// The record block.
    pub block: Vec<u8>,
}

impl WarcRecord {
    /// The value of field `name` (case-insensitive), if present.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A record that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarcError {
    /// Its number in the file, from 1.
    pub number: usize,
    /// The byte offset where it starts in the (inflated) stream.
    pub offset: u64,
    /// The record id, when the header was read.
    pub record_id: Option<String>,
    /// What is wrong.
    pub detail: String,
}

/// Reads WARC records from a byte stream.
pub struct WarcReader<R: Read> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    eof: bool,
    /// Offset in the stream of `buf[pos]`.
    offset: u64,
    number: usize,
    done: bool,
    /// Refuse record blocks longer than this (they are skipped and reported).
    max_block: u64,
    /// A read failure (damaged gzip, I/O error) met while filling: the stream ends there, and
    /// the record it cuts short is reported with this message.
    failure: Option<String>,
}

/// The longest header (version line and fields) accepted.
const MAX_HEADER: usize = 1 << 20;

impl<R: Read> WarcReader<R> {
    /// A reader over an already inflated stream; blocks longer than `max_block` bytes are
    /// skipped and reported.
    pub fn new(inner: R, max_block: u64) -> Self {
        WarcReader {
            inner,
            buf: Vec::new(),
            pos: 0,
            eof: false,
            offset: 0,
            number: 0,
            done: false,
            max_block,
            failure: None,
        }
    }

    /// Make at least `n` bytes available after `pos` unless the stream ends. A read failure (a
    /// damaged gzip member, an I/O error) ends the stream there and is kept in `failure`, so the
    /// bytes read before it are still used; the record it cuts short reports it.
    fn fill(&mut self, n: usize) -> std::io::Result<()> {
        if self.pos > 0 && self.pos >= self.buf.len() / 2 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        while self.buf.len() - self.pos < n && !self.eof {
            let want = (n - (self.buf.len() - self.pos)).max(1 << 16);
            let old = self.buf.len();
            self.buf.resize(old + want, 0);
            match self.inner.read(&mut self.buf[old..]) {
                Ok(0) => {
                    self.buf.truncate(old);
                    self.eof = true;
                }
                Ok(k) => self.buf.truncate(old + k),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => self.buf.truncate(old),
                Err(e) => {
                    self.buf.truncate(old);
                    self.eof = true;
                    self.failure = Some(e.to_string());
                }
            }
        }
        Ok(())
    }

    fn available(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    fn consume(&mut self, n: usize) {
        self.pos += n;
        self.offset += n as u64;
    }

    /// One line without its line break; `None` at the end of the stream.
    fn line(&mut self) -> std::io::Result<Option<Vec<u8>>> {
        let mut want = 256;
        loop {
            self.fill(want)?;
            let avail = self.available();
            if let Some(i) = avail.iter().position(|&b| b == b'\n') {
                let mut line = avail[..i].to_vec();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                self.consume(i + 1);
                return Ok(Some(line));
            }
            if self.eof || avail.len() > MAX_HEADER {
                if avail.is_empty() {
                    return Ok(None);
                }
                let line = avail.to_vec();
                let n = line.len();
                self.consume(n);
                return Ok(Some(line));
            }
            want = avail.len() * 2;
        }
    }

    /// Skip to the next line that starts with `WARC/` (left unread). False at the end.
    fn resync(&mut self) -> std::io::Result<bool> {
        loop {
            self.fill(1 << 16)?;
            let avail = self.available();
            if avail.is_empty() {
                return Ok(false);
            }
            if avail.starts_with(b"WARC/") {
                return Ok(true);
            }
            match find(avail, b"\nWARC/") {
                Some(i) => {
                    self.consume(i + 1);
                    return Ok(true);
                }
                None if self.eof => {
                    let n = avail.len();
                    self.consume(n);
                    return Ok(false);
                }
                // Keep the last bytes: the pattern may straddle the refill.
                None => {
                    let n = avail.len().saturating_sub(6);
                    self.consume(n);
                    let held = self.available().len();
                    self.fill(held + (1 << 16))?;
                    if self.available().len() == held && self.eof {
                        self.consume(held);
                        return Ok(false);
                    }
                }
            }
        }
    }

    fn error(&mut self, offset: u64, record_id: Option<String>, detail: String) -> WarcError {
        WarcError {
            number: self.number,
            offset,
            record_id,
            detail,
        }
    }

    /// The next record, the report of a record that could not be read, or `None` at the end.
    fn next_record(&mut self) -> Next {
        if self.done {
            return None;
        }
        match self.read_record() {
            Ok(record) => Some(Ok(record)),
            Err(next) => next,
        }
    }

    /// Read one record; `Err` holds what `next_record` returns instead of a record.
    fn read_record(&mut self) -> Result<WarcRecord, Next> {
        let (start, version) = self.version_line()?;
        self.number += 1;
        if !version.starts_with(b"WARC/") {
            let shown = String::from_utf8_lossy(&version[..version.len().min(40)]).into_owned();
            let err = self.error(
                start,
                None,
                format!(
                    "expected a WARC/1.x version line, found {shown:?}; skipped to the next record"
                ),
            );
            return Err(self.skip_to_next(start, err));
        }
        let fields = self.header_fields(start)?;
        let record_id = fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("WARC-Record-ID"))
            .map(|(_, v)| v.clone());
        let length = self.content_length(start, &fields, &record_id)?;
        if length > self.max_block {
            return Err(self.skip_long_block(start, record_id, length));
        }
        let block = self.block(start, record_id, length as usize)?;
        Ok(WarcRecord {
            number: self.number,
            offset: start,
            fields,
            block,
        })
    }

    /// A read failure: the record is reported and the rest of the file is not read.
    fn io_failure(&mut self, offset: u64, e: std::io::Error) -> Next {
        self.done = true;
        self.number += 1;
        Some(Err(self.error(offset, None, damaged(&e.to_string()))))
    }

    /// Report `err` and skip to the next line that starts with `WARC/`.
    fn skip_to_next(&mut self, start: u64, err: WarcError) -> Next {
        match self.resync() {
            Err(e) => self.io_failure(start, e),
            Ok(_) => Some(Err(err)),
        }
    }

    /// The version line after the blank lines between records, and its offset.
    fn version_line(&mut self) -> Result<(u64, Vec<u8>), Next> {
        loop {
            let at = self.offset;
            match self.line() {
                Err(e) => return Err(self.io_failure(at, e)),
                Ok(None) => {
                    self.done = true;
                    let Some(failure) = self.failure.take() else {
                        return Err(None);
                    };
                    self.number += 1;
                    return Err(Some(Err(self.error(at, None, damaged(&failure)))));
                }
                Ok(Some(l)) if l.iter().all(u8::is_ascii_whitespace) => continue,
                Ok(Some(l)) => return Ok((at, l)),
            }
        }
    }

    /// The named fields of the record starting at `start`, up to the blank line.
    fn header_fields(&mut self, start: u64) -> Result<Vec<(String, String)>, Next> {
        let mut fields: Vec<(String, String)> = Vec::new();
        let mut header_bytes = 0usize;
        loop {
            let line = match self.line() {
                Err(e) => return Err(self.io_failure(start, e)),
                Ok(None) => {
                    self.done = true;
                    let detail = match self.failure.take() {
                        Some(f) => damaged(&f),
                        None => "truncated record: the file ends inside the record header".into(),
                    };
                    return Err(Some(Err(self.error(start, None, detail))));
                }
                Ok(Some(l)) => l,
            };
            header_bytes += line.len();
            if line.is_empty() {
                return Ok(fields);
            }
            if header_bytes > MAX_HEADER {
                let err = self.error(start, None, "record header longer than 1 MiB".into());
                return Err(self.skip_to_next(start, err));
            }
            add_field(&mut fields, &String::from_utf8_lossy(&line));
        }
    }

    /// The `Content-Length` of `fields`; a record without a readable one is reported and skipped.
    fn content_length(
        &mut self,
        start: u64,
        fields: &[(String, String)],
        record_id: &Option<String>,
    ) -> Result<u64, Next> {
        let length = fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("Content-Length"))
            .map(|(_, v)| v.parse::<u64>());
        match length {
            Some(Ok(n)) => Ok(n),
            other => {
                let detail = match other {
                    None => "no Content-Length field".to_string(),
                    _ => "Content-Length is not a number".to_string(),
                };
                let err = self.error(
                    start,
                    record_id.clone(),
                    format!("{detail}; skipped to the next record"),
                );
                Err(self.skip_to_next(start, err))
            }
        }
    }

    /// Skip a block over the size limit without holding it, and report it.
    fn skip_long_block(&mut self, start: u64, record_id: Option<String>, length: u64) -> Next {
        let mut left = length;
        while left > 0 {
            if let Err(e) = self.fill(1) {
                return self.io_failure(start, e);
            }
            let n = (self.available().len() as u64).min(left) as usize;
            if n == 0 {
                self.done = true;
                break;
            }
            self.consume(n);
            left -= n as u64;
        }
        Some(Err(self.error(
            start,
            record_id,
            format!(
                "record block of {length} bytes is over the size limit of {}",
                self.max_block
            ),
        )))
    }

    /// The record block of `length` bytes, which must be followed by a blank line.
    fn block(
        &mut self,
        start: u64,
        record_id: Option<String>,
        length: usize,
    ) -> Result<Vec<u8>, Next> {
        if let Err(e) = self.fill(length + 4) {
            return Err(self.io_failure(start, e));
        }
        let avail = self.available();
        if avail.len() < length {
            let got = avail.len();
            self.done = true;
            let n = got;
            self.consume(n);
            let detail = match self.failure.take() {
                Some(f) => damaged(&f),
                None => format!(
                    "truncated record: Content-Length says {length} bytes, the file ends after {got}"
                ),
            };
            return Err(Some(Err(self.error(start, record_id, detail))));
        }
        let trailer = &avail[length..];
        let trailer_ok = trailer.starts_with(b"\r\n\r\n")
            || trailer.starts_with(b"\n\n")
            || (self.eof && trailer.iter().all(u8::is_ascii_whitespace));
        if !trailer_ok {
            return Err(self.wrong_length(start, record_id, length));
        }
        let block = avail[..length].to_vec();
        self.consume(length);
        Ok(block)
    }

    /// A block not followed by a blank line: its `Content-Length` is wrong. The record is
    /// reported and reading resumes at the next record, inside the declared block when the
    /// length was too large.
    fn wrong_length(&mut self, start: u64, record_id: Option<String>, length: usize) -> Next {
        // Too large: the next record starts inside the declared block.
        let inside = find(&self.available()[..length], b"\r\n\r\nWARC/").map(|i| i + 4);
        let err = self.error(
            start,
            record_id,
            format!(
                "wrong Content-Length ({length}): the record block is not followed by a blank line{}; record skipped",
                if inside.is_some() { " (the next record starts inside it)" } else { "" }
            ),
        );
        match inside {
            Some(i) => self.consume(i),
            None => {
                self.consume(length);
                if let Err(e) = self.resync() {
                    return self.io_failure(start, e);
                }
            }
        }
        Some(Err(err))
    }
}

/// What [`WarcReader::next_record`] returns: a record, the report of a record that could not be
/// read, or `None` at the end.
type Next = Option<Result<WarcRecord, WarcError>>;

/// Add a header line to `fields`: a `name: value` field, or a continuation of the last field
/// (a line that starts with white space).
fn add_field(fields: &mut Vec<(String, String)>, line: &str) {
    if line.starts_with([' ', '\t']) {
        if let Some(last) = fields.last_mut() {
            last.1.push(' ');
            last.1.push_str(line.trim());
        }
        return;
    }
    if let Some((name, value)) = line.split_once(':') {
        fields.push((name.trim().to_string(), value.trim().to_string()));
    }
}

impl<R: Read> Iterator for WarcReader<R> {
    type Item = Result<WarcRecord, WarcError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record()
    }
}

/// The report of a read failure.
fn damaged(failure: &str) -> String {
    format!("damaged gzip data or unreadable input ({failure}); the rest of the file is not read")
}

/// The first position of `needle` in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A response record's HTTP message: status, headers and the decoded body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpPayload {
    /// The status code (200, 404, …).
    pub status: u16,
    /// The `Content-Type` header, if any.
    pub content_type: Option<String>,
    /// The body, transfer and content codings undone.
    pub body: Vec<u8>,
}

/// Split an HTTP response (a WARC response record's block) into status, content type and body.
///
/// # Errors
/// A message when the block is not an HTTP response or its coding cannot be undone.
pub fn http_payload(block: &[u8]) -> Result<HttpPayload, String> {
    let (head_end, body_start) = match find(block, b"\r\n\r\n") {
        Some(i) => (i, i + 4),
        None => match find(block, b"\n\n") {
            Some(i) => (i, i + 2),
            None => return Err("no blank line after the HTTP headers".into()),
        },
    };
    let head = String::from_utf8_lossy(&block[..head_end]);
    let mut lines = head.lines();
    let status_line = lines.next().unwrap_or("");
    if !status_line.starts_with("HTTP/") {
        let start: String = status_line.chars().take(30).collect();
        return Err(format!("not an HTTP response (starts {start:?})"));
    }
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no status code in {status_line:?}"))?;
    let mut content_type = None;
    let mut chunked = false;
    let mut coding = None;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let (name, value) = (name.trim(), value.trim());
        if name.eq_ignore_ascii_case("content-type") {
            content_type = Some(value.to_string());
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            chunked = value.to_ascii_lowercase().contains("chunked");
        } else if name.eq_ignore_ascii_case("content-encoding") {
            coding = Some(value.to_ascii_lowercase());
        }
    }
    let mut body = block[body_start..].to_vec();
    if chunked && let Some(dechunked) = dechunk(&body) {
        // Crawlers often store the body already de-chunked while keeping the header.
        body = dechunked;
    }
    match coding.as_deref() {
        Some("gzip" | "x-gzip") if body.starts_with(&[0x1F, 0x8B]) => {
            let mut out = Vec::new();
            flate2::read::MultiGzDecoder::new(body.as_slice())
                .read_to_end(&mut out)
                .map_err(|e| format!("damaged gzip content coding ({e})"))?;
            body = out;
        }
        Some("deflate") => {
            let mut out = Vec::new();
            if flate2::read::ZlibDecoder::new(body.as_slice())
                .read_to_end(&mut out)
                .is_ok()
            {
                body = out;
            }
        }
        _ => {}
    }
    Ok(HttpPayload {
        status,
        content_type,
        body,
    })
}

/// Undo chunked transfer coding; `None` when the body is not validly chunked.
fn dechunk(mut body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let eol = find(body, b"\r\n")?;
        let size_text = std::str::from_utf8(&body[..eol]).ok()?;
        let size_text = size_text.split(';').next()?.trim();
        let size = usize::from_str_radix(size_text, 16).ok()?;
        body = &body[eol + 2..];
        if size == 0 {
            return Some(out);
        }
        if body.len() < size {
            return None;
        }
        out.extend_from_slice(&body[..size]);
        body = body.get(size..)?;
        body = body.strip_prefix(b"\r\n")?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str, block: &[u8], declared: Option<usize>) -> Vec<u8> {
        let mut out = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{id}>\r\nContent-Length: {}\r\n\r\n",
            declared.unwrap_or(block.len())
        )
        .into_bytes();
        out.extend_from_slice(block);
        out.extend_from_slice(b"\r\n\r\n");
        out
    }

    fn read_all(bytes: &[u8]) -> Vec<Result<WarcRecord, WarcError>> {
        WarcReader::new(bytes, 1 << 20).collect()
    }

    #[test]
    fn records_are_read_in_order_with_their_fields() {
        let mut file = record("a", b"first block", None);
        file.extend(record("b", b"second", None));
        let got = read_all(&file);
        assert_eq!(got.len(), 2);
        let a = got[0].as_ref().unwrap();
        assert_eq!(a.block, b"first block");
        assert_eq!(a.field("warc-record-id"), Some("<urn:uuid:a>"));
        assert_eq!(
            got[1].as_ref().unwrap().offset,
            record("a", b"first block", None).len() as u64
        );
    }

    #[test]
    fn a_too_short_content_length_is_reported_and_the_next_record_read() {
        let mut file = record("a", b"first block", Some(5));
        file.extend(record("b", b"second", None));
        let got = read_all(&file);
        assert_eq!(got.len(), 2, "{got:?}");
        let e = got[0].as_ref().unwrap_err();
        assert!(e.detail.contains("wrong Content-Length (5)"), "{e:?}");
        assert_eq!(e.record_id.as_deref(), Some("<urn:uuid:a>"));
        assert_eq!(got[1].as_ref().unwrap().block, b"second");
    }

    #[test]
    fn a_too_long_content_length_is_reported_and_the_next_record_read() {
        let mut file = record("a", b"first block", Some(40));
        file.extend(record(
            "b",
            b"second block, a longer one than the first",
            None,
        ));
        let got = read_all(&file);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(
            got[0]
                .as_ref()
                .unwrap_err()
                .detail
                .contains("starts inside it")
        );
        assert_eq!(
            got[1].as_ref().unwrap().block,
            b"second block, a longer one than the first"
        );
    }

    #[test]
    fn a_truncated_record_is_reported_and_reading_stops() {
        let mut file = record("a", b"first block", None);
        let second = record("b", b"the second block is cut", None);
        file.extend_from_slice(&second[..second.len() - 12]);
        let got = read_all(&file);
        assert_eq!(got.len(), 2);
        assert!(got[0].is_ok());
        let e = got[1].as_ref().unwrap_err();
        assert!(e.detail.starts_with("truncated record"), "{e:?}");
        // Cut inside the header.
        let got = read_all(&second[..30]);
        assert!(
            got[0]
                .as_ref()
                .unwrap_err()
                .detail
                .contains("inside the record header")
        );
    }

    #[test]
    fn garbage_before_a_record_is_skipped_with_a_report() {
        let mut file = b"this is not a warc file\nreally\n".to_vec();
        file.extend(record("a", b"block", None));
        let got = read_all(&file);
        assert_eq!(got.len(), 2);
        assert!(
            got[0]
                .as_ref()
                .unwrap_err()
                .detail
                .contains("expected a WARC/1.x")
        );
        assert!(got[1].is_ok());
    }

    #[test]
    fn http_payload_undoes_chunking_and_gzip() {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(b"<p>Hello</p>").unwrap();
        let gz = gz.finish().unwrap();
        let mut chunked = format!("{:x}\r\n", gz.len()).into_bytes();
        chunked.extend_from_slice(&gz);
        chunked.extend_from_slice(b"\r\n0\r\n\r\n");
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nTransfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        block.extend_from_slice(&chunked);
        let p = http_payload(&block).unwrap();
        assert_eq!(p.status, 200);
        assert_eq!(p.content_type.as_deref(), Some("text/html; charset=utf-8"));
        assert_eq!(p.body, b"<p>Hello</p>");
        assert!(http_payload(b"GET / HTTP/1.1\r\n\r\n").is_err());
    }
}
