//! How much the default mode's join keys are shared as a corpus grows: for the first N
//! documents of a JSON-lines corpus, at each N given, the witness keys of robust SL+ST (the keys
//! `slst batch` joins on: each sentence's single keys and each step's sampled pair keys), and the
//! pairs of documents that share each key held by at most `--max-df` documents, per document.
//!
//! The join's work per document follows that last figure: a key held by `df` documents is read
//! by each of them, so a corpus whose keys are shared by a number of documents that grows with N
//! costs more per document as it grows, even when none of its sentences repeats. `corpus_stats.py`
//! counts the same for whole sentences; this counts it for the keys. Exact copies are counted
//! once, as `slst batch` collapses them before its join.
//!
//! ```text
//! cargo run --release --example key_sharing -- corpus.jsonl --sizes 5000,10000,20000 \
//!     [--max-df 1000]
//! ```
//!
//! Prints a Markdown table: documents (exact copies set aside), witness keys per document, the
//! share of key occurrences whose key another document holds, and the document pairs sharing a
//! key per document, all keys and (keys of a single sentence alone) single keys.

use std::collections::HashSet;
use std::path::PathBuf;

use rayon::prelude::*;
use slst::Document;
use slst::corpus::{Format, Item, SourceOptions, read_sources};
use slst::method::{RobustConfig, RobustSlst, WitnessJoin};

fn usage() -> ! {
    eprintln!("usage: key_sharing FILE.jsonl --sizes N[,N...] [--max-df DF]");
    std::process::exit(2);
}

/// One document's distinct witness keys, each with whether it is a single key (it witnesses one
/// unit alone: its lengths are that unit's twice and no other unit of the document holds it
/// with it).
fn keys_of(detector: &RobustSlst, doc: &Document) -> Vec<(u64, bool)> {
    let profile = slst::method::Detector::sketch(detector, doc);
    let mut witnesses = detector.witness_keys(&profile);
    witnesses.sort_unstable_by_key(|w| (w.key, w.unit));
    witnesses
        .chunk_by(|x, y| x.key == y.key)
        .map(|run| {
            let single = run.len() == 1 && run[0].lengths[0] == run[0].lengths[1];
            (run[0].key, single)
        })
        .collect()
}

/// Document pairs sharing a key (`df·(df − 1)/2` over the keys held by 2 to `max_df`
/// documents), key occurrences whose key another document holds, and all occurrences; all
/// keys, then single keys only.
fn sharing(docs: &[Vec<(u64, bool)>], max_df: usize) -> [(f64, usize, usize); 2] {
    let mut out = [(0.0, 0, 0); 2];
    for (k, singles_only) in [false, true].into_iter().enumerate() {
        let mut keys: Vec<u64> = docs
            .iter()
            .flat_map(|d| d.iter().filter(move |k| !singles_only || k.1).map(|k| k.0))
            .collect();
        keys.par_sort_unstable();
        let (mut pairs, mut shared) = (0.0, 0);
        for run in keys.chunk_by(|x, y| x == y) {
            let df = run.len();
            if df >= 2 {
                shared += df;
                if df <= max_df {
                    pairs += (df * (df - 1) / 2) as f64;
                }
            }
        }
        out[k] = (pairs, shared, keys.len());
    }
    out
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut path, mut sizes, mut max_df) = (None, Vec::<usize>::new(), 1000usize);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--sizes" => {
                let list = args.next().unwrap_or_else(|| usage());
                sizes = list
                    .split(',')
                    .map(|n| n.parse().unwrap_or_else(|_| usage()))
                    .collect();
            }
            "--max-df" => {
                max_df = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| usage())
            }
            s if s.starts_with("--") => usage(),
            _ => path = Some(PathBuf::from(arg)),
        }
    }
    let (Some(path), Some(&largest)) = (path, sizes.iter().max()) else {
        usage()
    };
    let options = SourceOptions {
        format: Format::Jsonl,
        ..SourceOptions::default()
    };
    let mut documents: Vec<Document> = Vec::new();
    for item in read_sources(&[path], &options) {
        if let Item::Document(doc) = item {
            documents.push(doc);
            if documents.len() == largest {
                break;
            }
        }
    }
    let detector = RobustSlst::new(RobustConfig::default()).expect("the default settings");
    let keys: Vec<Vec<(u64, bool)>> = documents
        .par_iter()
        .map(|d| keys_of(&detector, d))
        .collect();
    // Exact copies once: the first of each text, as the batch join keeps one document a text.
    let mut seen = HashSet::new();
    let first: Vec<bool> = documents
        .iter()
        .map(|d| seen.insert(xxhash_rust::xxh3::xxh3_128(d.text.as_bytes())))
        .collect();
    println!(
        "| documents read | documents (exact copies once) | witness keys per document | share \
         of key occurrences shared | document pairs sharing a key, per document | the same, \
         single keys only |"
    );
    println!("|---|---|---|---|---|---|");
    for &n in &sizes {
        let n = n.min(documents.len());
        let kept: Vec<Vec<(u64, bool)>> = (0..n)
            .filter(|&i| first[i])
            .map(|i| keys[i].clone())
            .collect();
        let m = kept.len() as f64;
        let [all, singles] = sharing(&kept, max_df);
        println!(
            "| {n} | {} | {:.1} | {:.3} | {:.1} | {:.1} |",
            kept.len(),
            all.2 as f64 / m,
            all.1 as f64 / all.2.max(1) as f64,
            all.0 / m,
            singles.0 / m,
        );
    }
}
