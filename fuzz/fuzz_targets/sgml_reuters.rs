//! Generic SGML: Reuters-21578's elements (id from an attribute, text from `TITLE` and
//! `BODY`), and other element names chosen by the input, through the stream reader and
//! `read_sgml`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slst::corpus::sgml::{IdSource, SgmlOptions, read_sgml};
use slst::corpus::{Format, Item, SourceOptions};
use slst_fuzz::{Bytes, read_all, text};

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let kind = input.byte();
    let raw = input.rest();
    let sgml = match kind % 3 {
        0 => SgmlOptions::reuters(),
        1 => SgmlOptions {
            doc_tag: "D".into(),
            id: IdSource::Attr("id".into()),
            text_tags: vec!["P".into(), "T".into()],
            headline_tags: vec!["H".into()],
            include_headlines: true,
        },
        _ => SgmlOptions {
            doc_tag: "A".into(),
            id: IdSource::Tag("B".into()),
            text_tags: vec!["A".into(), "B".into()],
            headline_tags: Vec::new(),
            include_headlines: false,
        },
    };
    let options = SourceOptions {
        format: Format::Sgml,
        sgml: sgml.clone(),
        max_bytes: 4096,
        ..SourceOptions::default()
    };
    for item in read_all(raw, "reut2-000.sgm", &options) {
        if let Item::Document(doc) = item {
            assert!(!doc.id.is_empty(), "a document without an id");
        }
    }
    // Detected by content: Reuters-21578's doctype or element picks its elements.
    read_all(raw, "reut2-000.sgm", &SourceOptions::default());
    if let Ok(docs) = read_sgml(&text(raw), &sgml) {
        for doc in docs {
            assert!(!doc.id.is_empty(), "a document without an id");
        }
    }
});
