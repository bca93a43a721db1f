//! What the test files share: running the built binary and reading its output (CLI tests), and
//! real text to build corpora from (corpus-mode tests).
#![allow(dead_code)] // each test file uses its own subset

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use slst::corpus::sgml::SgmlOptions;
use slst::corpus::{Item, SourceOptions, read_sources};
use slst::text::split_sentences;

/// Run `slst` with `args` in `dir`.
#[cfg(feature = "cli")]
pub fn slst_in(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_slst"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the slst binary runs")
}

/// Run `slst` with `args` in `dir`, `input` on its standard input.
#[cfg(feature = "cli")]
pub fn slst_with_input(dir: &Path, args: &[&str], input: impl AsRef<[u8]>) -> Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_slst"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the slst binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_ref())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Run `slst` with `args` in the repository root.
#[cfg(feature = "cli")]
pub fn slst(args: &[&str]) -> Output {
    slst_in(repo(), args)
}

/// The repository root.
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A folder of the text-alignment sample (`corpora/alignment-sample/DIR`), as an argument.
pub fn alignment_sample(dir: &str) -> String {
    repo()
        .join("corpora/alignment-sample")
        .join(dir)
        .to_string_lossy()
        .into_owned()
}

/// The text of a byte span (`[start, end]`, as passages give it) of a file of the sample.
pub fn alignment_span(file: &str, span: &serde_json::Value) -> String {
    let text = std::fs::read(repo().join("corpora/alignment-sample").join(file)).unwrap();
    let (start, end) = (span[0].as_u64().unwrap(), span[1].as_u64().unwrap());
    String::from_utf8(text[start as usize..end as usize].to_vec()).unwrap()
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

/// A corpus of the shared corpora folder beside the repository (research data the project
/// does not redistribute), or `None` with a printed note when it is not there: the test is then
/// skipped. With `SLST_REQUIRE_CORPORA` set (CI, when the corpora are present), a missing corpus
/// fails the test instead.
pub fn shared_corpus(name: &str) -> Option<PathBuf> {
    shared_dir(&repo().join("../shared/corpora").join(name))
}

/// The seed papers of the shared folder beside the repository (`../shared/seeds`: the method's
/// papers, Russian, Ukrainian and English), when they are there; skipped or required as
/// [`shared_corpus`].
pub fn shared_seeds() -> Option<PathBuf> {
    shared_dir(&repo().join("../shared/seeds"))
}

/// `dir` when it is there, else `None` with a note (or a failure with `SLST_REQUIRE_CORPORA`).
fn shared_dir(dir: &Path) -> Option<PathBuf> {
    let dir = dir.to_path_buf();
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("SLST_REQUIRE_CORPORA").is_none(),
        "{} is missing and SLST_REQUIRE_CORPORA is set",
        dir.display()
    );
    eprintln!(
        "note: {} is not there, so this test is skipped (the shared corpora and seeds sit \
         beside the repository in ../shared; CI runs these tests with them)",
        dir.display()
    );
    None
}

/// The Reuters-21578 folder of the shared corpora, when it is there.
pub fn reuters_dir() -> Option<PathBuf> {
    shared_corpus("reuters21578")
}

/// The 22 Reuters-21578 SGML files, in order, as paths to give the command, when the shared
/// corpora are there.
pub fn reuters_files() -> Option<Vec<String>> {
    let dir = reuters_dir()?;
    Some(
        (0..22)
            .map(|i| dir.join(format!("reut2-{i:03}.sgm")).display().to_string())
            .collect(),
    )
}

/// The first `n` Reuters-21578 documents (title + body), as `slst batch` reads them, when the
/// shared corpora are there.
pub fn reuters(n: usize) -> Option<Vec<String>> {
    let dir = reuters_dir()?;
    let options = SourceOptions {
        format: slst::corpus::Format::Sgml,
        sgml: SgmlOptions::reuters(),
        ..SourceOptions::default()
    };
    let files = [dir.join("reut2-000.sgm"), dir.join("reut2-001.sgm")];
    Some(texts(&files, &options, n))
}

/// The first `n` chapters of each of the three shipped Bible versions (KJV, Webster 1833, WEB),
/// interleaved by version: real text with light and heavy revisions of every chapter, and
/// genuine repeats within a version.
pub fn bible(n: usize) -> Vec<String> {
    let dir = repo().join("corpora/bible-versions");
    let versions: Vec<Vec<String>> = ["kjv", "wbt", "web"]
        .iter()
        .map(|v| {
            let file = dir.join(format!("{v}.trec.gz"));
            texts(&[file], &SourceOptions::default(), n)
        })
        .collect();
    (0..n)
        .flat_map(|i| versions.iter().filter_map(move |v| v.get(i).cloned()))
        .collect()
}

/// The texts of the first `n` documents of `files`.
fn texts(files: &[PathBuf], options: &SourceOptions, n: usize) -> Vec<String> {
    read_sources(files, options)
        .filter_map(|item| match item {
            Item::Document(d) => Some(d.text),
            Item::Skipped(_) => None,
        })
        .take(n)
        .collect()
}

/// A small corpus folder: the Clough source, the cut answer, a copy of the source, an
/// unrelated Bible text, an empty file and a binary file.
pub fn corpus_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let c = dir.path().join("corpus");
    std::fs::create_dir_all(c.join("nested")).unwrap();
    let source = std::fs::read(repo().join("corpora/clough/orig_taskb.txt")).unwrap();
    std::fs::write(c.join("orig.txt"), &source).unwrap();
    std::fs::write(c.join("nested/copy.txt"), &source).unwrap();
    std::fs::copy(
        repo().join("corpora/clough/g0pA_taskb.txt"),
        c.join("answer.txt"),
    )
    .unwrap();
    let kjv = std::fs::read_to_string(repo().join("corpora/bible/kjv-1mb.txt")).unwrap();
    std::fs::write(c.join("genesis.txt"), &kjv[..3000]).unwrap();
    std::fs::write(c.join("empty.txt"), "").unwrap();
    std::fs::write(c.join("blob.bin"), b"\x00\x01binary").unwrap();
    dir
}
