//! What the test files share: running the built binary and reading its output (CLI tests), and
//! real text to build corpora from (corpus-mode tests).
#![allow(dead_code)] // each test file uses its own subset

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use slst::corpus::sgml::SgmlOptions;
use slst::corpus::{Item, SourceOptions, read_sources};
use slst::text::split_sentences;

/// Run `slst` with `args` in `dir`.
pub fn slst_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_slst"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the slst binary runs")
}

/// Run `slst` with `args` in the repository root.
pub fn slst(args: &[&str]) -> Output {
    slst_in(repo(), args)
}

/// The repository root.
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Real sentences (Clough PageRank source and the first chapters of Genesis, KJV).
pub fn pool() -> &'static [String] {
    static POOL: OnceLock<Vec<String>> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut out = Vec::new();
        for text in [
            include_str!("../../corpora/clough/orig_taskb.txt"),
            &include_str!("../../corpora/bible/kjv-1mb.txt")[..30_000],
        ] {
            for r in split_sentences(text) {
                let s = text[r].split_whitespace().collect::<Vec<_>>().join(" ");
                if s.chars().next().is_some_and(char::is_uppercase) && s.ends_with('.') {
                    out.push(s);
                }
            }
        }
        out.sort();
        out.dedup();
        out.truncate(30);
        out
    })
}

/// The Reuters-21578 folder of the shared corpora beside the repository.
pub fn reuters_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora/reuters21578");
    assert!(
        dir.is_dir(),
        "{} is missing: the shared corpora must sit beside the repository",
        dir.display()
    );
    dir
}

/// The first `n` Reuters-21578 documents (title + body), as `slst batch` reads them.
pub fn reuters(n: usize) -> Vec<String> {
    let options = SourceOptions {
        format: slst::corpus::Format::Sgml,
        sgml: SgmlOptions::reuters(),
        ..SourceOptions::default()
    };
    let files = [
        reuters_dir().join("reut2-000.sgm"),
        reuters_dir().join("reut2-001.sgm"),
    ];
    read_sources(&files, &options)
        .filter_map(|item| match item {
            Item::Document(d) => Some(d.text),
            Item::Skipped(_) => None,
        })
        .take(n)
        .collect()
}
