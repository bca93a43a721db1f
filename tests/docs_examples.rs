//! The commands shown in README.md and docs/ with their output are run, and their output must
//! be what the page shows: a figure in the documentation cannot go stale.
//!
//! An *example* is a ```` ```bash ```` block followed by a ```` ```text ```` block (blank lines
//! between them allowed). Its
//! commands run one after the other under `bash -eo pipefail`, in a fresh folder where
//! `corpora/` is the repository's (so the shipped corpora are at the paths the page gives),
//! with `slst` the binary under test (`cargo run --` is read as `slst`); standard output and
//! standard error together are compared with the text block, line by line, trailing spaces
//! and blank lines at the end ignored:
//!
//! - a line whose text starts with `…` stands for any number of lines, none included (output
//!   trimmed on the page);
//! - within any other line, `…` stands for any text (a time, or what the page leaves out).
//!
//! An example that cannot run here — a placeholder path, data the project does not ship —
//! says so on the line before its command block: `<!-- example not run: the reason -->`.

#![cfg(feature = "cli")]

mod common;

use std::path::Path;
use std::process::Command;

use common::repo;

/// One example: where it is, its commands, the output shown.
struct Example {
    place: String,
    commands: String,
    shown: String,
}

/// The marker that exempts the next command block, with its reason.
const NOT_RUN: &str = "<!-- example not run:";

/// Every example of a Markdown page, and the number exempted (with a reason).
fn examples(page: &Path) -> (Vec<Example>, usize) {
    let text = std::fs::read_to_string(page).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let (mut found, mut exempt) = (Vec::new(), 0);
    let mut i = 0;
    while i < lines.len() {
        let Some(lang) = lines[i].strip_prefix("```").filter(|l| !l.is_empty()) else {
            i += 1;
            continue;
        };
        let end = fence_end(&lines, i);
        // The output block may follow after blank lines.
        let next = (end + 1..lines.len())
            .find(|&j| !lines[j].trim().is_empty())
            .unwrap_or(lines.len());
        let text_follows = lines.get(next).is_some_and(|l| *l == "```text");
        if lang == "bash" && text_follows {
            let before = lines[..i].iter().rev().find(|l| !l.trim().is_empty());
            if before.is_some_and(|l| l.starts_with(NOT_RUN)) {
                exempt += 1;
            } else {
                let shown_end = fence_end(&lines, next);
                found.push(Example {
                    place: format!("{}:{}", page.display(), i + 1),
                    commands: lines[i + 1..end].join("\n"),
                    shown: lines[next + 1..shown_end].join("\n"),
                });
            }
        }
        i = end + 1;
    }
    (found, exempt)
}

/// The line of the fence closing the block opened at `open`.
fn fence_end(lines: &[&str], open: usize) -> usize {
    (open + 1..lines.len())
        .find(|&j| lines[j] == "```")
        .unwrap_or_else(|| panic!("unclosed code block at line {}", open + 1))
}

/// Run an example's commands in a fresh folder; their output, both streams, or why they failed.
fn run(example: &Example) -> Result<String, String> {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(repo().join("corpora"), dir.path().join("corpora")).unwrap();
    let bin = dir.path().join(".bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_slst"), bin.join("slst")).unwrap();
    let script = example.commands.replace("cargo run -- ", "slst ");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .args(["-eo", "pipefail", "-c", &format!("exec 2>&1\n{script}")])
        .current_dir(dir.path())
        .env("PATH", path)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    if !out.status.success() {
        return Err(format!(
            "{}: the example's commands failed ({}):\n{text}",
            example.place, out.status
        ));
    }
    Ok(text)
}

/// Whether `actual` is what `shown` shows, by the rules of the module docs.
fn shows(shown: &[&str], actual: &[&str]) -> bool {
    match shown.split_first() {
        None => actual.is_empty(),
        Some((line, rest)) if line.trim_start().starts_with('…') => {
            (0..=actual.len()).any(|skip| shows(rest, &actual[skip..]))
        }
        Some((line, rest)) => actual.split_first().is_some_and(|(a, more)| {
            line_matches(line.trim_end(), a.trim_end()) && shows(rest, more)
        }),
    }
}

/// One shown line against one output line, `…` standing for any text.
fn line_matches(shown: &str, actual: &str) -> bool {
    let mut parts = shown.split('…');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = actual.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// README.md and every page of docs/.
fn pages() -> Vec<std::path::PathBuf> {
    let mut pages = vec![repo().join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

#[test]
fn every_example_in_readme_and_docs_prints_what_the_page_shows() {
    let mut failures = Vec::new();
    let mut ran = 0;
    for page in pages() {
        let (found, _) = examples(&page);
        for example in found {
            ran += 1;
            let actual = match run(&example) {
                Ok(actual) => actual,
                Err(e) => {
                    failures.push(e);
                    continue;
                }
            };
            // Blank lines at the end are not shown.
            let actual_lines: Vec<&str> = actual.trim_end().lines().collect();
            let shown: Vec<&str> = example.shown.lines().collect();
            if !shows(&shown, &actual_lines) {
                failures.push(format!(
                    "{}: the output differs from the page.\n--- page\n{}\n--- output\n{actual}",
                    example.place, example.shown
                ));
            }
        }
    }
    assert!(ran >= 5, "only {ran} examples found: is the parser right?");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_readme_runs_its_examples_and_exempts_none() {
    let (found, exempt) = examples(&repo().join("README.md"));
    assert!(found.len() >= 5, "{} examples in README.md", found.len());
    assert_eq!(exempt, 0, "README.md's examples must all run");
}

#[test]
fn the_matching_rules_hold() {
    // In-line `…`: any text, anchored at both ends.
    assert!(line_matches(
        "time: …s (2 threads)",
        "time: 0.01s (2 threads)"
    ));
    assert!(!line_matches(
        "time: …s (2 threads)",
        "time: 0.01s (3 threads)"
    ));
    assert!(!line_matches("pairs: 34", "pairs: 35"));
    assert!(line_matches("a … b … c", "a x b y c"));
    assert!(!line_matches("a … b", "a x c"));
    // A line starting with `…`: any number of lines.
    assert!(shows(&["x", "… (trimmed)", "z"], &["x", "1", "2", "z"]));
    assert!(shows(&["…", "z"], &["z"]));
    assert!(!shows(&["x", "z"], &["x", "1", "z"]));
    assert!(!shows(&["x"], &["x", "more"]));
}
