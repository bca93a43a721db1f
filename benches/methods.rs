//! Every method on the same two pairs: the short Clough and Stevenson pair (a "cut" answer on
//! PageRank and the Wikipedia extract it came from, 1.2 KB + 3.1 KB) and the 1 MB pair (the King
//! James Version and Webster's 1833 revision of the same 242 chapters).
//!
//! For each method and pair, two timings: `pair` is the whole comparison on one thread — both
//! documents sketched, then compared — and `compare` the comparison of sketches already made.
//! Throughput is over the bytes of both documents. Each iteration checks the resemblance against
//! the value pinned below, so a broken fast path cannot look fast.
//!
//! Run: `cargo bench --bench methods -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use slst::method::{Method, MethodSettings, WithDetector};
use slst::{Detector, Document};

fn corpus(path: &str) -> Document {
    let full = format!("{}/corpora/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    Document::new(path, text)
}

/// Each text method's resemblance on the short pair and on the 1 MB pair, with the default
/// settings (as shared / union counts).
const EXPECTED: [(Method, f64, f64); 7] = [
    (Method::Slst, 5.0 / 27.0, 2341.0 / 9698.0),
    (Method::Shingle, 106.0 / 301.0, 64088.0 / 110594.0),
    (Method::MegaShingle, 35.0 / 84.0, 47.0 / 84.0),
    (Method::PolyHash, 557.0 / 1331.0, 138288.0 / 166088.0),
    (Method::SpotSigs, 29.0 / 60.0, 27033.0 / 29555.0),
    (Method::SentLen, 1.0 / 27.0, 1934.0 / 7091.0),
    (Method::Md5, 0.0, 0.0),
];

/// The two timings of one method on one pair.
struct Bench<'g, 'a> {
    group: &'g mut BenchmarkGroup<'a, criterion::measurement::WallTime>,
    a: &'g Document,
    b: &'g Document,
    expected: f64,
}

impl WithDetector for Bench<'_, '_> {
    type Output = ();

    fn with<D: Detector>(self, d: &D) {
        let (name, expected, a, b) = (d.name(), self.expected, self.a, self.b);
        self.group.bench_function(format!("{name}/pair"), |bench| {
            bench.iter(|| {
                let (sa, sb) = (d.sketch(black_box(a)), d.sketch(black_box(b)));
                let c = d.compare(&sa, &sb);
                assert_eq!(c.similarity.resemblance, expected, "{name}");
            })
        });
        let (sa, sb) = (d.sketch(a), d.sketch(b));
        self.group
            .bench_function(format!("{name}/compare"), |bench| {
                bench.iter(|| {
                    let c = d.compare(black_box(&sa), black_box(&sb));
                    assert_eq!(c.similarity.resemblance, expected, "{name}");
                })
            });
    }
}

fn bench_pair(
    group: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    (a, b): (&Document, &Document),
    pick: fn(&(Method, f64, f64)) -> f64,
) {
    group.throughput(Throughput::Bytes((a.text.len() + b.text.len()) as u64));
    let settings = MethodSettings::default();
    for row in &EXPECTED {
        let d = settings.detector(row.0).unwrap();
        d.visit(Bench {
            group: &mut *group,
            a,
            b,
            expected: pick(row),
        });
    }
}

fn short_pair(c: &mut Criterion) {
    let (a, b) = (
        corpus("clough/g0pA_taskb.txt"),
        corpus("clough/orig_taskb.txt"),
    );
    let mut group = c.benchmark_group("methods/clough-short");
    bench_pair(&mut group, (&a, &b), |row| row.1);
    group.finish();
}

fn one_mb_pair(c: &mut Criterion) {
    let (a, b) = (corpus("bible/kjv-1mb.txt"), corpus("bible/wbt-1mb.txt"));
    let mut group = c.benchmark_group("methods/kjv-wbt-1mb");
    group.sample_size(10);
    bench_pair(&mut group, (&a, &b), |row| row.2);
    group.finish();
}

criterion_group!(benches, short_pair, one_mb_pair);
criterion_main!(benches);
