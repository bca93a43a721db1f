//! WARC: the record reader (`WarcReader`: version line, fields, `Content-Length`, the blank
//! lines after a block, resynchronisation), `http_payload` (status, chunking, gzip and deflate
//! content coding), and the corpus path that makes pages of response records.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slst::corpus::{Format, SourceOptions};
use slst::web::warc::{WarcReader, http_payload};
use slst_fuzz::{Bytes, gzip, read_all};

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let wrap = input.flag();
    let max_block = u64::from(input.byte()) * 16;
    let raw = input.rest();
    let mut last: Option<(usize, u64)> = None;
    for record in WarcReader::new(raw, max_block) {
        let (number, offset) = match &record {
            Ok(r) => {
                assert!(r.block.len() as u64 <= max_block, "a block over the limit");
                let _ = http_payload(&r.block);
                (r.number, r.offset)
            }
            Err(e) => (e.number, e.offset),
        };
        assert!(offset <= raw.len() as u64, "offset {offset} past the end");
        if let Some((n, o)) = last {
            assert!(number > n && offset >= o, "records out of order");
        }
        last = Some((number, offset));
    }
    let _ = http_payload(raw);
    let options = SourceOptions {
        format: Format::Warc,
        max_bytes: 4096,
        ..SourceOptions::default()
    };
    let bytes = if wrap { gzip(raw) } else { raw.to_vec() };
    read_all(&bytes, "crawl.warc", &options);
});
