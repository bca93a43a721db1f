//! Benchmark of text alignment: a 50 kB "suspicious" document (Webster's 1833 Bible, chapters
//! unrelated to the source) with three passages of a 50 kB source (the King James Version) pasted
//! into it mid-sentence, compared end to end — sketch both, compare, grow passages — in SL+ST's
//! two modes, and the robust mode as it was before windows and passages, as the baseline of the
//! same run.
//!
//! Run: `cargo bench --bench align`. Each iteration checks that the three pasted passages are
//! found, so a broken fast path cannot look fast.

use criterion::{Criterion, criterion_group, criterion_main};
use slst::align::{self, AlignConfig};
use slst::method::{RobustConfig, RobustSlst};
use slst::{Detector, Document, SlSt, SlstConfig};

/// The first `n` bytes of a shipped text, cut back to a word boundary.
fn head(name: &str, from: usize, n: usize) -> String {
    let path = format!("{}/corpora/bible/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut start = from;
    while !text.is_char_boundary(start) || !text[start..].starts_with(' ') {
        start += 1;
    }
    let mut end = start + n;
    while !text.is_char_boundary(end) || !text[end..].starts_with(' ') {
        end += 1;
    }
    text[start + 1..end].to_string()
}

/// The byte spans of a pasted passage in the suspicious document and in the source.
type Pasted = ([usize; 2], [usize; 2]);

/// The suspicious document, the source, and where the passages were pasted.
fn pair() -> (Document, Document, Vec<Pasted>) {
    let source = head("kjv-1mb.txt", 0, 50_000);
    let host = head("wbt-1mb.txt", 600_000, 47_000);
    let mut suspicious = String::new();
    let mut truth = Vec::new();
    let mut taken = 0;
    for (at_host, at_source) in [(9_000, 7_000), (23_000, 21_000), (38_000, 40_000)] {
        // Cut both texts mid-sentence, at a space, and paste about 1 kB of the source.
        let h = at_host + host[at_host..].find(' ').unwrap();
        let s = at_source + source[at_source..].find(' ').unwrap() + 1;
        let e = s + 1_000 + source[s + 1_000..].find(' ').unwrap();
        suspicious.push_str(&host[taken..h]);
        suspicious.push(' ');
        let start = suspicious.len();
        suspicious.push_str(&source[s..e]);
        truth.push(([start, suspicious.len()], [s, e]));
        taken = h;
    }
    suspicious.push_str(&host[taken..]);
    (
        Document::new("suspicious", suspicious),
        Document::new("source", source),
        truth,
    )
}

fn compare_50kb(c: &mut Criterion) {
    let (a, b, truth) = pair();
    let found = |passages: &[align::Passage]| {
        truth.iter().all(|t| {
            passages
                .iter()
                .any(|p| p.a_span[0] < t.0[1] && t.0[0] < p.a_span[1])
        })
    };
    let config = AlignConfig::default();
    let mut group = c.benchmark_group("align");
    group.sample_size(30);
    // The robust mode as it was before glued sentences were cut and windows seeded passages.
    let before = RobustSlst::new(RobustConfig {
        split_glued: false,
        window: 0,
        ..RobustConfig::default()
    })
    .unwrap();
    group.bench_function("suspicious-50kb/robust-blocks-only", |bench| {
        bench.iter(|| {
            let (sa, sb) = slst::sketch_pair(&before, &a, &b);
            let c = before.compare(&sa, &sb);
            assert!(!c.evidence.blocks.is_empty());
        })
    });
    let robust = RobustSlst::new(RobustConfig::default()).unwrap();
    group.bench_function("suspicious-50kb/robust-passages", |bench| {
        bench.iter(|| {
            let (sa, sb) = slst::sketch_pair(&robust, &a, &b);
            let c = robust.compare(&sa, &sb);
            let p = align::passages(&robust, (&a, &sa), (&b, &sb), &c, &config).unwrap();
            assert!(found(&p));
        })
    });
    let paper = SlSt::new(SlstConfig::default()).unwrap();
    group.bench_function("suspicious-50kb/paper-passages", |bench| {
        bench.iter(|| {
            let (sa, sb) = slst::sketch_pair(&paper, &a, &b);
            let c = paper.compare(&sa, &sb);
            align::passages(&paper, (&a, &sa), (&b, &sb), &c, &config).unwrap();
        })
    });
    group.finish();
}

criterion_group!(benches, compare_50kb);
criterion_main!(benches);
