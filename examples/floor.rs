//! The floor of a batch run: read a corpus and split every document into sentences and words,
//! nothing else. `scripts/bench_scale.sh` reports `slst batch` time as a multiple of this.
//!
//! It reads with the same streaming reader as `slst batch` ([`read_sources`]), in the same
//! parallel chunks of 512 documents (rayon, all cores unless `--threads`), and walks each
//! sentence's words the way the profile stage does ([`split_sentences`], then [`for_each_word`]
//! per sentence). It keeps no profile, looks up no stop word and builds no index, so the
//! difference to `slst batch` is the cost of what SL+ST adds on top of tokenising. The tokeniser
//! is the library's own, so the floor moves with it: since the ASCII fast path (`text/ascii.rs`)
//! ASCII text is tokenised without ICU4X here as in `slst batch`, and floors measured before it
//! are not comparable with later ones.
//!
//! ```text
//! cargo run --release --example floor -- corpus.jsonl [--format jsonl|sgml-reuters|trec]
//!     [--threads N] [--ids FILE]
//! ```
//!
//! Prints one JSON object: documents, skipped, sentences, words, bytes, seconds.
//! `--ids FILE` also writes every document id read, one per line (to check a reader).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;
use slst::Document;
use slst::corpus::sgml::SgmlOptions;
use slst::corpus::{Format, Item, SourceOptions, read_sources};
use slst::text::{for_each_word, split_sentences};

/// Counts over one document or a sum of them.
#[derive(Default, Clone, Copy)]
struct Counts {
    sentences: u64,
    words: u64,
    bytes: u64,
}

impl std::ops::Add for Counts {
    type Output = Counts;
    fn add(self, o: Counts) -> Counts {
        Counts {
            sentences: self.sentences + o.sentences,
            words: self.words + o.words,
            bytes: self.bytes + o.bytes,
        }
    }
}

fn tokenise(doc: &Document) -> Counts {
    let mut c = Counts {
        bytes: doc.text.len() as u64,
        ..Counts::default()
    };
    for span in split_sentences(&doc.text) {
        c.sentences += 1;
        for_each_word(&doc.text[span], |_| c.words += 1);
    }
    c
}

fn usage() -> ! {
    eprintln!(
        "usage: floor SOURCE... [--format jsonl|sgml-reuters|trec] [--threads N] [--ids FILE]"
    );
    std::process::exit(2);
}

fn main() {
    let mut sources = Vec::new();
    let mut options = SourceOptions {
        format: Format::Jsonl,
        ..SourceOptions::default()
    };
    let mut threads = None;
    let mut ids_path = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--format" => match args.next().as_deref() {
                Some("jsonl") => options.format = Format::Jsonl,
                Some("trec") => options.format = Format::Trec,
                Some("sgml-reuters") => {
                    options.format = Format::Sgml;
                    options.sgml = SgmlOptions::reuters();
                }
                _ => usage(),
            },
            "--threads" => {
                threads = Some(
                    args.next()
                        .and_then(|n| n.parse().ok())
                        .unwrap_or_else(|| usage()),
                )
            }
            "--ids" => ids_path = Some(PathBuf::from(args.next().unwrap_or_else(|| usage()))),
            s if s.starts_with("--") => usage(),
            _ => sources.push(PathBuf::from(arg)),
        }
    }
    if sources.is_empty() {
        usage();
    }
    if let Some(n) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .unwrap_or_else(|e| panic!("thread pool: {e}"));
    }
    let mut ids = ids_path.map(|p| {
        std::io::BufWriter::new(
            std::fs::File::create(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
        )
    });

    let start = Instant::now();
    let mut total = Counts::default();
    let (mut documents, mut skipped) = (0u64, 0u64);
    let mut chunk: Vec<Document> = Vec::with_capacity(512);
    let flush = |chunk: &mut Vec<Document>, total: &mut Counts| {
        let sum = chunk
            .par_iter()
            .map(tokenise)
            .reduce(Counts::default, |a, b| a + b);
        *total = *total + sum;
        chunk.clear();
    };
    for item in read_sources(&sources, &options) {
        match item {
            Item::Document(doc) => {
                documents += 1;
                if let Some(w) = ids.as_mut() {
                    writeln!(w, "{}", doc.id).unwrap_or_else(|e| panic!("--ids: {e}"));
                }
                chunk.push(doc);
                if chunk.len() == 512 {
                    flush(&mut chunk, &mut total);
                }
            }
            Item::Skipped(_) => skipped += 1,
        }
    }
    flush(&mut chunk, &mut total);
    if let Some(mut w) = ids {
        w.flush().unwrap_or_else(|e| panic!("--ids: {e}"));
    }
    println!(
        "{{\"documents\": {documents}, \"skipped\": {skipped}, \"sentences\": {}, \"words\": {}, \
         \"bytes\": {}, \"threads\": {}, \"seconds\": {:.3}}}",
        total.sentences,
        total.words,
        total.bytes,
        rayon::current_num_threads(),
        start.elapsed().as_secs_f64()
    );
}
