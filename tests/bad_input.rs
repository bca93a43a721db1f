//! The bad-input matrix, end to end: every kind of bad input through `slst compare`, `slst batch`
//! and `slst index add`, run as the built binary.
//!
//! For each: the exit status (2 when the bad input is the one the user named, 1 when it was
//! named beside good ones, 0 for a folder or collection that read anything), a message naming the file and the problem, the other documents of a corpus
//! still read — and the peak memory of every run, which must stay small whatever the input claims
//! to hold (a gzip bomb, a 300 MB line, an element never closed).

#![cfg(all(feature = "cli", feature = "index", unix))]

mod common;
use common::repo;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// Every run reads with this --max-bytes.
const LIMIT: u64 = 1_000_000;

/// Peak memory allowed for any run (the debug binary itself takes about 20 MiB). Every bomb
/// below inflates to far more than this.
const MAX_RSS_KIB: i64 = 64 << 10;

/// What a run of the binary gave.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Run `slst args…` in `dir`, and check that its peak memory stayed under [`MAX_RSS_KIB`].
#[allow(clippy::zombie_processes)] // reaped by wait4, which also gives its peak memory
fn slst(dir: &Path, args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_slst"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the slst binary runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = Vec::new();
            pipe.read_to_end(&mut text).unwrap();
            String::from_utf8_lossy(&text).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    // Reaped with wait4 rather than `Child::wait`, for this child's own resource usage.
    let mut status = 0;
    // SAFETY: `rusage` is plain data that wait4 fills; the pid is our own unreaped child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = i32::try_from(child.id()).unwrap();
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4 failed");
    let run = Run {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    };
    assert!(
        usage.ru_maxrss < MAX_RSS_KIB,
        "slst {args:?} took {} MiB at its peak\n{}",
        usage.ru_maxrss >> 10,
        run.stderr
    );
    run
}

/// Real text, in several sentences.
fn text(n: usize) -> String {
    let source = std::fs::read_to_string(repo().join("corpora/clough/orig_taskb.txt")).unwrap();
    let kjv = std::fs::read_to_string(repo().join("corpora/bible/kjv-1mb.txt")).unwrap();
    [source, kjv[n * 3000..n * 3000 + 3000].to_string()].join("\n\n")
}

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// gzip'd data that inflates to about `mib` MiB: one gzip member of 1 MiB of `unit` repeated,
/// with `before` and `after` as members of their own (a reader must take them all as one
/// stream). Well under 1 MB itself.
fn bomb(before: &[u8], unit: &[u8], mib: usize, after: &[u8]) -> Vec<u8> {
    let block = gz(&unit.repeat((1 << 20) / unit.len()));
    let mut out = gz(before);
    for _ in 0..mib {
        out.extend_from_slice(&block);
    }
    out.extend_from_slice(&gz(after));
    out
}

/// One bad input: its file name, what a message about it must say, and whether `compare`
/// refuses it (exit 2) or reads it with a note.
struct Case {
    file: &'static str,
    problem: &'static str,
    compare_refuses: bool,
    /// What `batch` over a folder holding it says; `None`: the file is read as a document.
    batch_problem: Option<&'static str>,
}

const CASES: &[Case] = &[
    Case {
        file: "cp1252.txt",
        problem: "not valid UTF-8, decoded as Windows-1252",
        compare_refuses: false,
        batch_problem: None,
    },
    Case {
        file: "binary.bin",
        problem: "looks like a binary file (NUL byte at offset 4)",
        compare_refuses: true,
        batch_problem: Some("looks like a binary file (NUL byte at offset 4)"),
    },
    Case {
        file: "empty.txt",
        problem: "no sentences",
        compare_refuses: false,
        batch_problem: None,
    },
    Case {
        file: "long-line.txt",
        problem: "1000001 bytes is more than the limit of 1000000 bytes",
        compare_refuses: true,
        batch_problem: Some("more than the limit of 1000000 bytes"),
    },
    Case {
        file: "huge-line.txt",
        problem: "314572801 bytes is more than the limit of 1000000 bytes",
        compare_refuses: true,
        batch_problem: Some("more than the limit of 1000000 bytes"),
    },
    Case {
        file: "truncated.txt.gz",
        problem: "damaged gzip data",
        compare_refuses: true,
        batch_problem: Some("damaged gzip data"),
    },
    Case {
        file: "bomb.txt.gz",
        problem: "gzip'd data that inflates to more than the limit of 1000000 bytes",
        compare_refuses: true,
        batch_problem: Some("more than the limit of 1000000 bytes"),
    },
    Case {
        file: "bomb.jsonl.gz",
        problem: "gzip'd data that inflates to more than the limit of 1000000 bytes",
        compare_refuses: true,
        batch_problem: Some("bomb.jsonl.gz:1: over the limit of 1000000 bytes (a line of "),
    },
    Case {
        file: "bomb.trec.gz",
        problem: "gzip'd data that inflates to more than the limit of 1000000 bytes",
        compare_refuses: true,
        batch_problem: Some("bomb.trec.gz:1: over the limit of 1000000 bytes (a document of "),
    },
    Case {
        file: "unclosed.trec",
        // Tolerated, as the shipped TREC volumes need: the element runs to the end of the file.
        problem: "",
        compare_refuses: false,
        batch_problem: None,
    },
    Case {
        file: "deep.html",
        problem: "markup nested more than 4096 levels deep",
        compare_refuses: false,
        batch_problem: None,
    },
    Case {
        file: "malformed.jsonl",
        problem: "malformed.jsonl:2: not JSON",
        compare_refuses: false,
        batch_problem: Some("malformed.jsonl:2: not JSON"),
    },
    Case {
        file: "loop",
        problem: "loop: cannot read",
        compare_refuses: true,
        batch_problem: Some("loop: cannot read"),
    },
    Case {
        file: "unreadable.txt",
        problem: "unreadable.txt: cannot read: Permission denied",
        compare_refuses: true,
        batch_problem: Some("unreadable.txt: cannot read: Permission denied"),
    },
];

/// Whether this process can read a file whatever its mode (root can): the unreadable case is
/// then left out.
fn reads_anything() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

fn cases() -> impl Iterator<Item = &'static Case> {
    CASES
        .iter()
        .filter(|c| c.file != "unreadable.txt" || !reads_anything())
}

/// A folder `corpus/` with two good documents (a near-duplicate pair) and every bad input, made
/// once for all the tests here (it holds a 300 MB file) in the test build's scratch folder; the
/// tests write their outputs beside it under their own names.
fn corpus() -> &'static Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bad_input");
        let _ = std::fs::remove_dir_all(&dir);
        make_corpus(&dir.join("corpus"));
        dir
    })
}

fn make_corpus(c: &Path) {
    std::fs::create_dir_all(c.join("sub-folder")).unwrap();
    let write = |name: &str, bytes: &[u8]| std::fs::write(c.join(name), bytes).unwrap();
    write("good-a.txt", text(1).as_bytes());
    write(
        "good-b.txt",
        text(1).replace("Google", "The engine").as_bytes(),
    );
    write(
        "cp1252.txt",
        b"Caf\xe9 cr\xe8me is served here. The na\xefve waiter smiled.\n",
    );
    write("binary.bin", b"\x7fELF\x00\x01\x02\x03 not text");
    write("empty.txt", b"");
    // Just over the limit, and 300 MB in one line (written, not sparse).
    write("long-line.txt", &b"word ".repeat(200_001)[..1_000_001]);
    {
        let mut f = std::fs::File::create(c.join("huge-line.txt")).unwrap();
        let chunk = b"word ".repeat(1 << 18);
        for _ in 0..300 {
            f.write_all(&chunk[..1 << 20]).unwrap();
        }
        f.write_all(b"\n").unwrap();
    }
    let whole = gz(text(2).as_bytes());
    write("truncated.txt.gz", &whole[..whole.len() * 2 / 3]);
    write("bomb.txt.gz", &bomb(b"", b"word ", 256, b""));
    write(
        "bomb.jsonl.gz",
        &bomb(
            br#"{"id":"long","text":""#,
            b"word ",
            256,
            format!(
                "\"}}\n{}\n",
                serde_json::json!({"id": "after-the-bomb", "text": text(3)})
            )
            .as_bytes(),
        ),
    );
    write(
        "bomb.trec.gz",
        &bomb(
            b"<DOC>\n<DOCNO>long</DOCNO>\n<TEXT>\n",
            b"Words. ",
            96,
            format!(
                "</TEXT></DOC>\n<DOC>\n<DOCNO>after-the-trec-bomb</DOCNO>\n<TEXT>\n{}</TEXT></DOC>\n",
                text(4)
            )
            .as_bytes(),
        ),
    );
    write(
        "unclosed.trec",
        format!("<DOC>\n<DOCNO>unclosed</DOCNO>\n<TEXT>\n{}", text(5)).as_bytes(),
    );
    // 100,000 elements deep (left open, as browsers allow, to stay under the limit).
    let deep = format!(
        "<!DOCTYPE html><html><body>{}<p>{}</p></body></html>",
        "<div>".repeat(100_000),
        text(6),
    );
    write("deep.html", deep.as_bytes());
    write(
        "malformed.jsonl",
        format!(
            "{}\n{{\"id\": \"broken\", \"text\": \"no closing quote}}\n",
            serde_json::json!({"id": "json-ok", "text": text(7)})
        )
        .as_bytes(),
    );
    std::os::unix::fs::symlink("loop", c.join("loop")).unwrap();
    write("unreadable.txt", text(8).as_bytes());
    let unreadable = c.join("unreadable.txt");
    std::fs::set_permissions(
        &unreadable,
        std::os::unix::fs::PermissionsExt::from_mode(0o000),
    )
    .unwrap();
}

#[test]
fn compare_names_the_file_and_the_problem_and_refuses_what_it_cannot_read() {
    let d = corpus();
    let limit = LIMIT.to_string();
    let mut all: Vec<(&str, &str, bool)> = cases()
        .map(|c| (c.file, c.problem, c.compare_refuses))
        .collect();
    all.push((
        "missing.txt",
        "missing.txt: cannot read: No such file",
        true,
    ));
    all.push(("sub-folder", "sub-folder: is a directory, not a file", true));
    for (file, problem, refuses) in all {
        let path = format!("corpus/{file}");
        let run = slst(
            d,
            &["compare", &path, "corpus/good-a.txt", "--max-bytes", &limit],
        );
        let told = format!("{}{}", run.stdout, run.stderr);
        if refuses {
            assert_eq!(run.code, Some(2), "{file}: {told}");
            assert!(
                run.stderr.starts_with(&format!("slst: error: {path}"))
                    && run.stderr.contains(problem),
                "{file}: {told}"
            );
            assert_eq!(run.stderr.lines().count(), 1, "{file}: one line: {told}");
        } else {
            assert_eq!(run.code, Some(0), "{file}: {told}");
            assert!(told.contains(problem), "{file}: {told}");
            assert!(run.stdout.contains("resemblance J"), "{file}: {told}");
        }
        // Either order of the arguments says the same.
        let swapped = slst(
            d,
            &["compare", "corpus/good-a.txt", &path, "--max-bytes", &limit],
        );
        assert_eq!(swapped.code, run.code, "{file}: {}", swapped.stderr);
    }
}

#[test]
fn batch_reads_the_good_documents_and_names_every_bad_one() {
    let d = corpus();
    let limit = LIMIT.to_string();
    let run = slst(
        d,
        &[
            "batch",
            "corpus",
            "--max-bytes",
            &limit,
            "--out",
            "batch.jsonl",
            "--summary",
            "batch.json",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // The near-duplicate pair of good documents is found.
    let pairs = std::fs::read_to_string(d.join("batch.jsonl")).unwrap();
    assert!(
        pairs.starts_with(r#"{"a":"good-a.txt","b":"good-b.txt","#),
        "{pairs}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("batch.json")).unwrap()).unwrap();
    let skipped: Vec<String> = summary["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            format!(
                "{}: {}",
                s["location"].as_str().unwrap(),
                s["reason"].as_str().unwrap()
            )
        })
        .collect();
    for case in cases() {
        let named = skipped.iter().any(|s| s.contains(case.file));
        match case.batch_problem {
            Some(problem) => assert!(
                named && skipped.iter().any(|s| s.contains(problem)),
                "{}: {skipped:#?}",
                case.file
            ),
            None => assert!(!named, "{}: {skipped:#?}", case.file),
        }
        // The human summary says the same.
        if let Some(problem) = case.batch_problem {
            assert!(
                run.stderr.contains(problem),
                "{}: {}",
                case.file,
                run.stderr
            );
        }
    }
    // Documents read: the two good ones, cp1252, empty, unclosed, deep, the good JSON line, the
    // documents after each bomb (and the unreadable file when this process can read it).
    let read = summary["documents_read"].as_u64().unwrap();
    assert_eq!(read, 9 + u64::from(reads_anything()), "{}", run.stderr);
    assert_eq!(summary["documents_fallback_decoded"], 1);
    assert!(
        run.stderr
            .contains("(1 not UTF-8, decoded as Windows-1252)"),
        "{}",
        run.stderr
    );
    // -q: one line counts them.
    let quiet = slst(
        d,
        &[
            "batch",
            "-q",
            "corpus",
            "--max-bytes",
            &limit,
            "--out",
            "quiet.jsonl",
        ],
    );
    assert_eq!(quiet.code, Some(0));
    assert!(
        quiet
            .stderr
            .starts_with(&format!("slst: skipped {} of ", skipped.len()))
            && quiet.stderr.lines().count() == 1,
        "{}",
        quiet.stderr
    );
}

#[test]
fn batch_and_index_add_fail_when_the_one_input_named_is_bad() {
    let d = corpus();
    let limit = LIMIT.to_string();
    let _ = std::fs::remove_file(d.join("fail.db"));
    assert_eq!(slst(d, &["index", "create", "fail.db"]).code, Some(0));
    let mut bad: Vec<(&str, &str)> = cases()
        .filter(|c| c.compare_refuses && !c.file.starts_with("bomb."))
        .map(|c| (c.file, c.batch_problem.unwrap()))
        .collect();
    bad.push(("missing.txt", "missing.txt: cannot read"));
    for (file, problem) in bad {
        let path = format!("corpus/{file}");
        for command in [
            &["batch", &path, "--out", "fail.jsonl"][..],
            &["index", "add", "fail.db", &path][..],
        ] {
            let mut args = command.to_vec();
            args.extend(["--max-bytes", &limit]);
            let run = slst(d, &args);
            assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
            assert!(
                run.stderr.contains(file) && run.stderr.contains(problem),
                "{args:?}: {}",
                run.stderr
            );
            // Even with -qq the error names the file and the problem.
            args.push("-qq");
            let run = slst(d, &args);
            assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
            assert!(
                run.stderr.starts_with("slst: error: ")
                    && run.stderr.contains(file)
                    && run.stderr.contains(problem),
                "{args:?}: {}",
                run.stderr
            );
        }
    }
}

#[test]
fn index_add_keeps_the_good_documents_of_a_folder_and_reports_the_bad() {
    let d = corpus();
    let limit = LIMIT.to_string();
    let _ = std::fs::remove_file(d.join("keep.db"));
    assert_eq!(slst(d, &["index", "create", "keep.db"]).code, Some(0));
    let run = slst(
        d,
        &["index", "add", "keep.db", "corpus", "--max-bytes", &limit],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "added {} documents",
            9 + u64::from(reads_anything())
        )),
        "{}",
        run.stderr
    );
    for case in cases() {
        if let Some(problem) = case.batch_problem {
            assert!(
                run.stderr
                    .contains(&format!("slst: skipped corpus/{}", case.file))
                    && run.stderr.contains(problem),
                "{}: {}",
                case.file,
                run.stderr
            );
        }
    }
    // The indexed documents answer queries.
    let query = slst(d, &["query", "keep.db", "corpus/good-a.txt", "--json"]);
    assert_eq!(query.code, Some(0), "{}", query.stderr);
    assert!(query.stdout.contains("good-b.txt"), "{}", query.stdout);
}

#[test]
fn a_bad_file_named_beside_good_ones_is_reported_with_exit_status_1() {
    // The results of the good files are written; the status says part of the request failed.
    let d = corpus();
    let _ = std::fs::remove_file(d.join("named.db"));
    assert_eq!(slst(d, &["index", "create", "named.db"]).code, Some(0));
    for command in [
        &["batch", "--out", "named.jsonl"][..],
        &["index", "add", "named.db"][..],
    ] {
        let mut args = command.to_vec();
        args.extend([
            "corpus/good-a.txt",
            "corpus/binary.bin",
            "corpus/good-b.txt",
        ]);
        let run = slst(d, &args);
        assert_eq!(run.code, Some(1), "{args:?}: {}", run.stderr);
        assert!(
            run.stderr
                .contains("1 file named on the command line could not be read")
                && run.stderr.contains("corpus/binary.bin"),
            "{args:?}: {}",
            run.stderr
        );
    }
    let pairs = std::fs::read_to_string(d.join("named.jsonl")).unwrap();
    assert!(
        pairs.contains("good-a.txt") && pairs.contains("good-b.txt"),
        "{pairs}"
    );
    // A folder holding the same bad file is a corpus run: the bad file is reported, status 0.
    let run = slst(
        d,
        &[
            "batch",
            "corpus",
            "--out",
            "folder.jsonl",
            "--max-bytes",
            "1000000",
            "-q",
        ],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
}
