//! HTML pages: decoding by declared charset and parsing and segmentation under every preset
//! (`html_document`, what the corpus reader calls for a page), the nesting limit
//! (`limit_depth`), the page record, and boilerplate removal over two pages.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slst::corpus::WebOptions;
use slst::corpus::web::html_document;
use slst::report::PageRecord;
use slst::web::html::limit_depth;
use slst::web::{Preset, SegmentConfig, drop_boilerplate};
use slst_fuzz::{Bytes, check_document, text};

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let preset = match input.byte() % 3 {
        0 => Preset::Default,
        1 => Preset::Few,
        _ => Preset::Many,
    };
    let max_blocks = match input.byte() % 4 {
        0 => None,
        k => Some(usize::from(k)),
    };
    let charset = input.flag();
    let raw = input.rest();
    let segment = SegmentConfig { preset, max_blocks };
    let web = WebOptions {
        segment,
        ..WebOptions::default()
    };
    // A charset from an HTTP header (as a WARC response gives), or none (as a file).
    let http_charset = charset.then_some("text/html; charset=ISO-8859-7");
    let Ok(doc) = html_document("page".into(), raw, &web, http_charset) else {
        return;
    };
    check_document(&doc);
    let seg = doc
        .segmentation
        .as_deref()
        .expect("a page has a segmentation");
    if let Some(max) = max_blocks {
        assert!(seg.blocks.len() <= max, "{} blocks", seg.blocks.len());
    }
    let record = PageRecord::new(&doc, seg, 40);
    let _ = record.to_text();
    let _ = serde_json::to_string(&record).expect("a page record serialises");

    // The nesting pre-pass at a small limit.
    let html = text(raw);
    if let Some((flat, _)) = limit_depth(&html, 8) {
        assert!(flat.len() <= html.len(), "flattening added text");
    }

    // Boilerplate: the page twice; every block is on both pages, so held by more than one.
    let mut docs = vec![doc.clone(), doc];
    let _ = drop_boilerplate(&mut docs, 1);
    for d in &docs {
        check_document(d);
    }
});
