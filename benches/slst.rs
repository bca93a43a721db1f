//! Benchmarks of SL+ST's stages on real text: profile extraction (MB/s) and comparing two
//! 1 MB documents (the King James Version and Webster's 1833 revision of the same chapters).
//!
//! Run: `cargo bench --bench slst` (or `scripts/bench.sh`, which records the machine and
//! versions beside the numbers). Each iteration checks its output, so a broken fast path cannot
//! look fast.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use slst::matcher::{self, Libsais};
use slst::text;
use slst::{Detector, Document, MatchKey, SlSt, SlstConfig};

fn corpus(name: &str) -> Document {
    let path = format!("{}/corpora/bible/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Document::new(name, text)
}

fn profile_extraction(c: &mut Criterion) {
    let kjv = corpus("kjv-1mb.txt");
    let detector = SlSt::new(SlstConfig::default()).unwrap();
    let mut group = c.benchmark_group("profile");
    group.throughput(Throughput::Bytes(kjv.text.len() as u64));
    group.bench_function("kjv-1mb", |b| {
        b.iter(|| {
            let p = detector.sketch(black_box(&kjv));
            assert_eq!(p.len(), 5977);
        })
    });
    group.bench_function("kjv-1mb/sentences-only", |b| {
        b.iter(|| assert!(text::split_sentences(black_box(&kjv.text)).len() > 6000))
    });
    group.bench_function("kjv-1mb/words-only", |b| {
        b.iter(|| {
            let mut n = 0usize;
            text::for_each_word(black_box(&kjv.text), |_| n += 1);
            assert!(n > 150_000);
        })
    });
    // The same two steps with every boundary from ICU4X (the oracle of the ASCII fast path).
    group.bench_function("kjv-1mb/sentences-only/icu", |b| {
        b.iter(|| assert!(text::split_sentences_icu(black_box(&kjv.text)).len() > 6000))
    });
    group.bench_function("kjv-1mb/words-only/icu", |b| {
        b.iter(|| {
            let mut n = 0usize;
            text::for_each_word_icu(black_box(&kjv.text), |_| n += 1);
            assert!(n > 150_000);
        })
    });
    group.finish();
}

fn compare_two_1mb(c: &mut Criterion) {
    let (kjv, wbt) = (corpus("kjv-1mb.txt"), corpus("wbt-1mb.txt"));
    let mut group = c.benchmark_group("compare");
    group.sample_size(20);
    for (name, key) in [
        ("terms", MatchKey::LengthAndLeading),
        ("length", MatchKey::Length),
    ] {
        let detector = SlSt::new(SlstConfig {
            match_key: key,
            ..SlstConfig::default()
        })
        .unwrap();
        let (pa, pb) = (detector.sketch(&kjv), detector.sketch(&wbt));
        group.bench_function(format!("kjv-wbt-1mb/profiles-given/{name}"), |b| {
            b.iter(|| {
                let c = detector.compare(black_box(&pa), black_box(&pb));
                assert_eq!(c.evidence.matched, 2341);
            })
        });
    }
    let detector = SlSt::new(SlstConfig::default()).unwrap();
    group.bench_function("kjv-wbt-1mb/end-to-end", |b| {
        b.iter(|| {
            let c = detector.compare(&detector.sketch(&kjv), &detector.sketch(&wbt));
            assert_eq!(c.evidence.matched, 2341);
        })
    });
    group.bench_function("kjv-wbt-1mb/end-to-end/sketches-in-parallel", |b| {
        b.iter(|| {
            let (pa, pb) = slst::sketch_pair(&detector, &kjv, &wbt);
            let c = detector.compare(&pa, &pb);
            assert_eq!(c.evidence.matched, 2341);
        })
    });
    // The stages of the comparison on their own, and the oracle for scale.
    let (pa, pb) = (detector.sketch(&kjv), detector.sketch(&wbt));
    let lengths = |p: &slst::SentenceProfile| -> Vec<u32> {
        p.sentences.iter().map(|s| u32::from(s.length)).collect()
    };
    let (la, lb) = (lengths(&pa), lengths(&pb));
    group.bench_function("kjv-wbt-1mb/suffix-array-matches/length", |b| {
        b.iter(|| assert!(matcher::maximal_matches_with(&Libsais, &la, &lb, 2).len() > 10_000))
    });
    group.bench_function("kjv-wbt-1mb/diagonal-scan-oracle/length", |b| {
        b.iter(|| assert!(matcher::naive_maximal_matches(&la, &lb, 2).len() > 10_000))
    });
    group.finish();
}

/// Reading a TREC volume whose documents are never closed: linear in its size (each document's
/// search for its closing tag stops at the next one; it once scanned the rest of the buffer,
/// 261 s for these 40,000 documents unoptimised).
fn unclosed_sgml(c: &mut Criterion) {
    use slst::corpus::{SourceOptions, read_stream};
    let sgml: String = (0..40_000)
        .map(|i| format!("<DOC><DOCNO>{i}</DOCNO><TEXT>Text {i}.\n"))
        .collect();
    // The stream reader owns its source; the bench's bytes live for the whole process.
    let sgml: &'static str = sgml.leak();
    let mut g = c.benchmark_group("unclosed_sgml");
    g.throughput(Throughput::Bytes(sgml.len() as u64));
    g.bench_function("read_40k_documents", |b| {
        b.iter(|| {
            let options = SourceOptions::default();
            read_stream(std::io::Cursor::new(sgml.as_bytes()), "vol", &options).count()
        })
    });
    g.finish();
}

criterion_group!(benches, profile_extraction, compare_two_1mb, unclosed_sgml);
criterion_main!(benches);
