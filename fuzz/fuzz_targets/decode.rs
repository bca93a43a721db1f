//! Bytes to text, as every reader starts: `decode_text` (UTF-8, UTF-16 by byte-order mark,
//! Windows-1252, the binary check), `detect_format`, and one stream read with the format found
//! by content — gzip'd input inflated, the size limit enforced.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slst::Encoding;
use slst::corpus::{Format, Item, SourceOptions, decode_text, detect_format};
use slst_fuzz::{Bytes, gzip, read_all};

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let wrap = input.flag();
    let limit = input.byte();
    let raw = input.rest();
    if let Ok((text, encoding)) = decode_text(raw) {
        match encoding {
            // UTF-8 (with or without a byte-order mark) is kept byte for byte.
            Encoding::Utf8 | Encoding::Utf8Bom => assert_eq!(text.as_bytes(), raw),
            // Windows-1252 maps every byte to one character.
            Encoding::Windows1252 => assert_eq!(text.chars().count(), raw.len()),
            _ => {}
        }
    }
    let _ = detect_format(raw, "input");
    let _ = detect_format(raw, "input.jsonl.gz");
    // The same bytes gzip'd half the time, so the inflating path sees every content.
    let bytes = if wrap { gzip(raw) } else { raw.to_vec() };
    // A size limit that the input sometimes exceeds.
    let max_bytes = if limit == 0 {
        1 << 20
    } else {
        u64::from(limit) * 64
    };
    let text_options = SourceOptions {
        format: Format::Text,
        max_bytes,
        ..SourceOptions::default()
    };
    let items = read_all(&bytes, "input", &text_options);
    // A plain-text stream is one document, or one item saying why it is not.
    assert_eq!(items.len(), 1, "{items:?}");
    if let Item::Document(doc) = &items[0] {
        // (Input that is gzip'd itself is inflated once more.)
        let inflated = raw.starts_with(&[0x1F, 0x8B]);
        assert!(
            inflated || raw.len() as u64 <= max_bytes,
            "a text over the limit was read"
        );
        assert_eq!(doc.id, "input");
    }
    let auto = SourceOptions {
        max_bytes,
        ..SourceOptions::default()
    };
    read_all(&bytes, "input", &auto);
});
