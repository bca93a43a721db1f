//! Files to text, the step every reader shares: a file's bytes under a size limit, gzip'd
//! content inflated ([`read_bytes`]), and bytes decoded leniently into text, binary data refused
//! ([`decode_text`]). Collections ([`crate::corpus`]) and word lists
//! ([`StopWords::from_file`](crate::text::StopWords::from_file)) both read through here.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use super::Encoding;
use crate::error::{Error, Result};

/// Default size limit for one file: 256 MiB.
pub const DEFAULT_MAX_BYTES: u64 = 256 << 20;

/// Read the raw bytes of a file, inflating gzip'd content (recognised by its magic bytes).
///
/// # Errors
/// [`Error::IsDirectory`], [`Error::Io`], [`Error::TooLarge`], [`Error::Gzip`].
pub fn read_bytes(path: &Path, max_bytes: u64) -> Result<Vec<u8>> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let too_large = |size, inflated| Error::TooLarge {
        path: path.to_path_buf(),
        size,
        limit: max_bytes,
        inflated,
    };
    let mut raw = Vec::new();
    // `-`: standard input, read to its end (its size is known only then).
    let size = if path.as_os_str() == "-" {
        std::io::stdin()
            .lock()
            .take(max_bytes.saturating_add(1))
            .read_to_end(&mut raw)
            .map_err(io)?;
        raw.len() as u64
    } else {
        let meta = std::fs::metadata(path).map_err(io)?;
        if meta.is_dir() {
            return Err(Error::IsDirectory {
                path: path.to_path_buf(),
            });
        }
        let mut file = File::open(path).map_err(io)?;
        if meta.len() > max_bytes {
            // Refused unread unless it is gzip'd (whose size says nothing of what it inflates to).
            let mut magic = [0u8; 2];
            let n = file.read(&mut magic).map_err(io)?;
            if magic[..n] != [0x1F, 0x8B] {
                return Err(too_large(meta.len(), false));
            }
            raw.extend_from_slice(&magic[..n]);
        }
        file.take(max_bytes.saturating_add(1).saturating_sub(raw.len() as u64))
            .read_to_end(&mut raw)
            .map_err(io)?;
        meta.len()
    };
    if raw.len() as u64 > max_bytes {
        return Err(too_large(size, false));
    }
    if !raw.starts_with(&[0x1F, 0x8B]) {
        return Ok(raw);
    }
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(raw.as_slice())
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut out)
        .map_err(|e| Error::Gzip {
            path: path.to_path_buf(),
            detail: e.to_string(),
        })?;
    if out.len() as u64 > max_bytes {
        return Err(too_large(out.len() as u64, true));
    }
    Ok(out)
}

/// How many leading bytes the binary check looks at for control characters.
const SNIFF_LEN: usize = 8192;

/// Why a byte string was judged not to be text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotText(pub String);

/// Decode bytes leniently: UTF-16 when a byte-order mark says so; UTF-8 (a UTF-8 byte-order mark
/// is kept in the text so that byte offsets stay file offsets); otherwise Windows-1252.
///
/// Returns [`NotText`] for binary data: a NUL byte in non-UTF-16 input, or more than 10% control
/// characters (other than tab, line breaks and form feed) in the first 8 KiB.
///
/// # Example
/// ```
/// use slst::document::decode_text;
/// use slst::Encoding;
/// let (text, enc) = decode_text(b"caf\xe9 au lait").unwrap();
/// assert_eq!(text, "café au lait");
/// assert_eq!(enc, Encoding::Windows1252);
/// ```
pub fn decode_text(bytes: &[u8]) -> Result<(String, Encoding), NotText> {
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        let (text, _) = encoding_rs::UTF_16LE.decode_without_bom_handling(rest);
        return Ok((text.into_owned(), Encoding::Utf16Le));
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        let (text, _) = encoding_rs::UTF_16BE.decode_without_bom_handling(rest);
        return Ok((text.into_owned(), Encoding::Utf16Be));
    }
    if let Some(pos) = memchr_nul(bytes) {
        return Err(NotText(format!("NUL byte at offset {pos}")));
    }
    let head = &bytes[..bytes.len().min(SNIFF_LEN)];
    let controls = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0B | 0x0C | 0x1A))
        .count();
    if !head.is_empty() && controls * 10 > head.len() {
        return Err(NotText(format!(
            "{controls} control bytes in the first {} bytes",
            head.len()
        )));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => {
            let enc = if text.starts_with('\u{FEFF}') {
                Encoding::Utf8Bom
            } else {
                Encoding::Utf8
            };
            Ok((text.to_owned(), enc))
        }
        Err(_) => {
            let (text, _) = encoding_rs::WINDOWS_1252.decode_without_bom_handling(bytes);
            Ok((text.into_owned(), Encoding::Windows1252))
        }
    }
}

fn memchr_nul(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_kept_byte_for_byte() {
        let (t, e) = decode_text("naïve café".as_bytes()).unwrap();
        assert_eq!(t, "naïve café");
        assert_eq!(e, Encoding::Utf8);
    }

    #[test]
    fn utf8_bom_is_kept_so_offsets_are_file_offsets() {
        let (t, e) = decode_text(b"\xEF\xBB\xBFHello.").unwrap();
        assert_eq!(e, Encoding::Utf8Bom);
        assert_eq!(t.len(), 9);
        assert_eq!(&t[3..], "Hello.");
    }

    #[test]
    fn invalid_utf8_falls_back_to_windows_1252() {
        // 0x92 is the right single quotation mark in Windows-1252.
        let (t, e) = decode_text(b"site\x92s importance").unwrap();
        assert_eq!(t, "site\u{2019}s importance");
        assert!(e.is_fallback());
    }

    #[test]
    fn utf16_with_bom_is_decoded() {
        let (t, e) = decode_text(b"\xFF\xFEH\x00i\x00").unwrap();
        assert_eq!((t.as_str(), e), ("Hi", Encoding::Utf16Le));
    }

    #[test]
    fn nul_bytes_mean_binary() {
        let err = decode_text(b"\x7FELF\x02\x01\x01\x00\x00").unwrap_err();
        assert!(err.0.contains("NUL byte at offset 7"), "{err:?}");
    }

    #[test]
    fn many_control_bytes_mean_binary() {
        let bytes: Vec<u8> = (0..100u8)
            .map(|i| if i % 3 == 0 { 1 } else { b'a' })
            .collect();
        assert!(decode_text(&bytes).is_err());
    }

    #[test]
    fn empty_input_is_empty_text() {
        assert_eq!(decode_text(b"").unwrap(), (String::new(), Encoding::Utf8));
    }
}
