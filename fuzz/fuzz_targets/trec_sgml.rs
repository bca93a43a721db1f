//! TREC SGML: the stream reader (`SgmlSplitter`, per-document decoding, `parse_document`) and
//! the in-memory reader `read_sgml`, with and without headlines.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slst::corpus::sgml::{SgmlOptions, read_sgml};
use slst::corpus::{Format, Item, SourceOptions};
use slst_fuzz::{Bytes, gzip, read_all, text};

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let wrap = input.flag();
    let headlines = input.flag();
    let raw = input.rest();
    let sgml = SgmlOptions {
        include_headlines: headlines,
        ..SgmlOptions::trec()
    };
    let options = SourceOptions {
        format: Format::Trec,
        sgml: sgml.clone(),
        max_bytes: 4096,
        ..SourceOptions::default()
    };
    let bytes = if wrap { gzip(raw) } else { raw.to_vec() };
    for item in read_all(&bytes, "vol", &options) {
        if let Item::Document(doc) = item {
            assert!(!doc.id.is_empty(), "a document without an id");
        }
    }
    if let Ok(docs) = read_sgml(&text(raw), &sgml) {
        let mut line = 0;
        for doc in docs {
            assert!(
                !doc.id.is_empty() && doc.id.trim() == doc.id,
                "id {:?}",
                doc.id
            );
            assert!(doc.line >= line.max(1), "lines not ascending");
            line = doc.line;
        }
    }
});
