//! The ASCII fast path of the tokeniser against its oracle, ICU4X, on whole corpora: every
//! document must have the same sentence spans (`split_sentences` vs `split_sentences_icu`) and,
//! in every sentence, the same words (`for_each_word` vs `for_each_word_icu`) — hence the same
//! profiles. The random-string oracle tests sit beside the fast path (`src/text/ascii.rs`).
//!
//! The shipped corpora (`corpora/`, the three Bible versions included) are always checked, and
//! so is Reuters-21578 when `../shared/corpora/reuters21578` is present (about 10 s unoptimised).
//! The mini newsgroups (`../shared/corpora/mini-newsgroups`) run on request:
//! `cargo test --test tokenise -- --ignored`.

mod common;

use std::path::{Path, PathBuf};

use common::shared_corpus as shared;

use rayon::prelude::*;
use slst::Document;
use slst::corpus::sgml::SgmlOptions;
use slst::corpus::{Format, Item, SourceOptions, read_sources};
use slst::text::{for_each_word, for_each_word_icu, split_sentences, split_sentences_icu};

/// What differs between the two paths in `doc`, if anything.
fn difference(doc: &Document) -> Option<String> {
    let text = &doc.text;
    let (fast, icu) = (split_sentences(text), split_sentences_icu(text));
    if fast != icu {
        let at = fast.iter().zip(&icu).position(|(a, b)| a != b);
        let at = at.unwrap_or(fast.len().min(icu.len()));
        let show =
            |spans: &[std::ops::Range<usize>]| spans.get(at).map(|r| text[r.clone()].to_string());
        return Some(format!(
            "{}: sentence {at} differs: fast {:?}, ICU {:?}",
            doc.id,
            show(&fast),
            show(&icu)
        ));
    }
    for span in fast {
        let sentence = &text[span];
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for_each_word(sentence, |w| a.push(w.to_string()));
        for_each_word_icu(sentence, |w| b.push(w.to_string()));
        if a != b {
            return Some(format!(
                "{}: words differ in {sentence:?}: fast {a:?}, ICU {b:?}",
                doc.id
            ));
        }
    }
    None
}

/// Check every document of `sources`; returns how many documents and bytes were read.
fn check_sources(sources: &[PathBuf], options: &SourceOptions) -> (usize, usize) {
    let docs: Vec<Document> = read_sources(sources, options)
        .filter_map(|item| match item {
            Item::Document(d) => Some(d),
            Item::Skipped(_) => None,
        })
        .collect();
    let differences: Vec<String> = docs.par_iter().filter_map(difference).collect();
    assert!(
        differences.is_empty(),
        "{} of {} documents differ; first ones:\n{}",
        differences.len(),
        docs.len(),
        differences[..differences.len().min(5)].join("\n")
    );
    (docs.len(), docs.iter().map(|d| d.text.len()).sum())
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn shipped_corpora_tokenise_as_icu() {
    // Bible samples and versions (TREC, gzip'd), Clough, the short answers: every file of
    // `corpora/`, read by content, the README and truth files included (more text, no harm).
    let (docs, bytes) = check_sources(&[repo("corpora")], &SourceOptions::default());
    assert!(
        docs > 100 && bytes > 5_000_000,
        "{docs} documents, {bytes} bytes"
    );
}

#[test]
fn mixed_ascii_and_non_ascii_text_tokenises_as_icu() {
    // Sentences with curly quotes and accents take the ICU4X path, their ASCII neighbours the
    // fast path; the spans must still line up.
    let text = "“Naïve,” he said. The U.S. rate rose 3.5 pct. Café-goers paid €3. It's 5 p.m. now.\n\n\
                Prices: 1,000; 2.5. O'Neill's co-op didn’t. (He left.) Then—nothing.";
    let doc = Document::new("mixed", text);
    assert_eq!(difference(&doc), None);
}

#[test]
fn seed_papers_tokenise_as_icu() {
    // Russian, Ukrainian and Chinese (Han text among ASCII headings and numbers): the paragraphs
    // that are ASCII take the fast path, the others ICU4X with its dictionary for Chinese.
    let Some(dir) = common::shared_seeds() else {
        return;
    };
    let (docs, _) = check_sources(&[dir], &SourceOptions::default());
    assert_eq!(docs, 5);
}

#[test]
fn reuters21578_tokenises_as_icu() {
    let Some(dir) = shared("reuters21578") else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("reuters21578 folder")
        .map(|e| e.expect("folder entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgm"))
        .collect();
    files.sort();
    let options = SourceOptions {
        format: Format::Sgml,
        sgml: SgmlOptions::reuters(),
        ..SourceOptions::default()
    };
    let (docs, _) = check_sources(&files, &options);
    assert_eq!(docs, 21578);
}

#[test]
#[ignore = "reads the mini newsgroups from ../shared/corpora; run with -- --ignored"]
fn mini_newsgroups_tokenise_as_icu() {
    let Some(dir) = shared("mini-newsgroups") else {
        return;
    };
    let options = SourceOptions {
        mail_body: true,
        ..SourceOptions::default()
    };
    let (docs, _) = check_sources(&[dir], &options);
    assert!(docs >= 2000, "{docs} documents");
}
