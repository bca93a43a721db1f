//! JSON lines: the stream reader (one object per line, a bad line skipped with its number) and
//! `parse_line`, with the default fields and others.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slst::corpus::jsonl::{JsonlOptions, parse_line};
use slst::corpus::{Format, Item, SourceOptions};
use slst_fuzz::{Bytes, read_all};

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let other_fields = input.flag();
    let raw = input.rest();
    let jsonl = if other_fields {
        JsonlOptions {
            id_field: "n".into(),
            text_field: "body".into(),
        }
    } else {
        JsonlOptions::default()
    };
    let options = SourceOptions {
        format: Format::Jsonl,
        jsonl: jsonl.clone(),
        max_bytes: 4096,
        ..SourceOptions::default()
    };
    for item in read_all(raw, "docs.jsonl", &options) {
        match item {
            Item::Document(doc) => assert!(!doc.id.trim().is_empty(), "an empty id"),
            // Every skipped line says which line it is.
            Item::Skipped(s) => assert!(s.location.starts_with("docs.jsonl:"), "{s:?}"),
        }
    }
    if let Ok(text) = std::str::from_utf8(raw) {
        for line in text.lines() {
            if let Ok((id, _)) = parse_line(line, &jsonl) {
                assert!(!id.trim().is_empty(), "an empty id");
            }
        }
    }
});
