//! Measures how much of `slst batch`'s verify stage a cheap upper bound on resemblance could
//! skip, using only the public API. Evidence for a proposed change; changes nothing.
//!
//! ```text
//! cargo run --release --example verify_filter -- corpus.jsonl [--threshold 0.5]
//! ```
//!
//! It sketches the corpus and generates candidates exactly as `slst batch` does, then, for every
//! candidate pair (A, B) of representatives:
//! - `length`: resemblance J = m / (|A| + |B| − m) with m ≤ min(|A|, |B|), so
//!   J ≤ min / max: pairs of very different lengths can never reach θ;
//! - `shared keys`: every sentence in a block pairs one sentence of A with one of B with the same
//!   block key, one to one, so m ≤ |keys(A) ∩ keys(B)| as multisets, and J ≤ that / (|A|+|B|−that).
//!
//! It times the full comparison of every candidate (what verify does now) against the bound
//! plus the full comparison of the survivors only, checks that no pair reported now is lost,
//! and prints one JSON object. Memory: it also reports the sketch's size per kept sentence.

use std::time::Instant;

use rayon::prelude::*;
use slst::batch::{Silent, candidates, sketch_corpus};
use slst::corpus::{Format, SourceOptions, read_sources};
use slst::{Detector, MatchKey, SlSt, SlstConfig};

/// The corpus's path and θ from the command line.
fn parse_args() -> (std::path::PathBuf, f64) {
    let mut args = std::env::args().skip(1);
    let mut path = None;
    let mut threshold = 0.5;
    while let Some(a) = args.next() {
        if a == "--threshold" {
            threshold = args
                .next()
                .and_then(|t| t.parse().ok())
                .expect("--threshold θ");
        } else {
            path = Some(std::path::PathBuf::from(a));
        }
    }
    let path = path.expect("usage: verify_filter CORPUS.jsonl [--threshold θ]");
    (path, threshold)
}

/// The two bounds for sorted keys `a` and `b`: (the length bound lets the pair pass, the
/// shared-key bound does).
fn bounds(a: &[u64], b: &[u64], threshold: f64) -> (bool, bool) {
    let (la, lb) = (a.len() as f64, b.len() as f64);
    if la.min(lb) / la.max(lb) < threshold {
        return (false, false);
    }
    let (mut i, mut j, mut m) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                m += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let m = m as f64;
    (true, m / (la + lb - m) >= threshold)
}

fn main() {
    let (path, threshold) = parse_args();
    let detector = SlSt::new(SlstConfig {
        threshold,
        match_key: MatchKey::LengthAndLeading,
        ..SlstConfig::default()
    })
    .expect("config");
    let options = SourceOptions {
        format: Format::Jsonl,
        ..SourceOptions::default()
    };

    let t = Instant::now();
    let corpus = sketch_corpus(
        read_sources(&[path], &options),
        &detector,
        None,
        false,
        &Silent,
    );
    let sketch_s = t.elapsed().as_secs_f64();
    let docs = &corpus.sketches;
    let t = Instant::now();
    let refs: Vec<_> = docs.iter().collect();
    let cands = candidates(&refs, detector.config().min_block, 1000);
    let candidates_s = t.elapsed().as_secs_f64();
    let pairs = &cands.pairs;

    // What verify does now: compare every candidate.
    let t = Instant::now();
    let reported_now: Vec<bool> = pairs
        .par_iter()
        .with_min_len(64)
        .map(|&(x, y)| detector.compare(&docs[x], &docs[y]).duplicate)
        .collect();
    let compare_all_s = t.elapsed().as_secs_f64();

    // The bounds. Sorted keys per document, once.
    let t = Instant::now();
    let sorted: Vec<Vec<u64>> = docs
        .par_iter()
        .map(|d| {
            let mut k = d.keys.clone();
            k.sort_unstable();
            k
        })
        .collect();
    let survivors: Vec<(bool, bool)> = pairs
        .par_iter()
        .with_min_len(64)
        .map(|&(x, y)| bounds(&sorted[x], &sorted[y], threshold))
        .collect();
    let bound_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let reported_filtered: usize = pairs
        .par_iter()
        .zip(&survivors)
        .with_min_len(64)
        .filter(|(_, s)| s.1)
        .filter(|((x, y), _)| detector.compare(&docs[*x], &docs[*y]).duplicate)
        .count();
    let compare_survivors_s = t.elapsed().as_secs_f64();
    let lost = reported_now
        .iter()
        .zip(&survivors)
        .filter(|(r, s)| **r && !s.1)
        .count();

    let sentences: usize = docs.iter().map(|d| d.keys.len()).sum();
    let leading_bytes: usize = docs
        .iter()
        .flat_map(|d| &d.profile.sentences)
        .flat_map(|s| s.leading.iter())
        .map(|t| t.len())
        .sum();
    let id_bytes: usize = docs.iter().map(|d| d.id.len() * 2).sum();
    println!(
        "{{\"documents\": {}, \"sentences\": {sentences}, \"candidate_pairs\": {}, \
         \"pass_length_bound\": {}, \"pass_shared_key_bound\": {}, \
         \"reported_now\": {}, \"reported_with_bound\": {reported_filtered}, \"reported_lost\": {lost}, \
         \"seconds\": {{\"sketch\": {sketch_s:.3}, \"candidates\": {candidates_s:.3}, \
         \"compare_all\": {compare_all_s:.3}, \"bound\": {bound_s:.3}, \
         \"compare_survivors\": {compare_survivors_s:.3}}}, \
         \"bytes_per_sentence\": {{\"ProfiledSentence\": {}, \"leading_box_slice\": {}, \
         \"leading_term_text_avg\": {:.1}, \"key\": 8, \"leading_allocations\": 3}}, \
         \"id_bytes_total\": {id_bytes}, \"threads\": {}}}",
        docs.len(),
        pairs.len(),
        survivors.iter().filter(|s| s.0).count(),
        survivors.iter().filter(|s| s.1).count(),
        reported_now.iter().filter(|r| **r).count(),
        std::mem::size_of::<slst::profile::ProfiledSentence>(),
        2 * std::mem::size_of::<Box<str>>(),
        leading_bytes as f64 / sentences.max(1) as f64,
        rayon::current_num_threads(),
    );
}
