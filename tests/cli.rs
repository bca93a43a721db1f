//! End-to-end tests of the `slst` binary: outputs, exit codes and error messages.

#![cfg(feature = "cli")]

mod common;
use common::{repo, slst, slst_in, slst_with_input, stderr, stdout};

use std::path::{Path, PathBuf};

const CUT: &str = "corpora/clough/g0pA_taskb.txt";
const SOURCE: &str = "corpora/clough/orig_taskb.txt";

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn compare_prints_counts_scores_decision_and_blocks() {
    let o = slst(&["compare", "--mode", "paper", CUT, SOURCE]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("8 sentences kept, 0 skipped as empty, 0 dropped as longer than 35 terms"),
        "{out}"
    );
    assert!(out.contains("24 sentences kept"), "{out}");
    assert!(out.contains("resemblance J        0.1852"), "{out}");
    assert!(out.contains("containment A in B   0.6250"), "{out}");
    assert!(out.contains("duplicate at θ = 0.5: no"), "{out}");
    assert!(
        out.contains("A sentences 1..4 bytes 266..668   B sentences 16..19 bytes 1878..2275"),
        "{out}"
    );
    assert!(
        out.contains("A: Google assigns a numeric weighting"),
        "{out}"
    );
}

#[test]
fn compare_json_has_the_documented_schema() {
    let o = slst(&["compare", "--mode", "paper", "--json", CUT, SOURCE]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["method"], "slst");
    for field in ["resemblance", "containment_a", "containment_b"] {
        assert!(v[field].is_f64(), "{field}");
    }
    assert_eq!(v["duplicate"], false);
    assert_eq!(v["a"]["id"], CUT);
    assert_eq!(v["a"]["sentences"], 8);
    assert_eq!(v["b"]["sentences"], 24);
    let blocks = v["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 2);
    let b0 = &blocks[0];
    for field in ["a_start", "b_start", "len"] {
        assert!(b0[field].is_u64(), "{field}");
    }
    assert_eq!(b0["a_span"], serde_json::json!([266, 668]));
    assert_eq!(b0["b_span"], serde_json::json!([1878, 2275]));
}

#[test]
fn threshold_and_min_block_flags_change_the_result() {
    let o = slst(&[
        "compare",
        "--mode",
        "paper",
        "--json",
        "--threshold=0.15",
        CUT,
        SOURCE,
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["duplicate"], true);
    let o = slst(&[
        "compare",
        "--mode",
        "paper",
        "--json",
        "--min-block",
        "3",
        CUT,
        SOURCE,
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["blocks"].as_array().unwrap().len(), 1);
    assert_eq!(v["params"]["min_block"], 3);
}

#[test]
fn stopwords_none_and_file_are_used() {
    let dir = tempfile::tempdir().unwrap();
    let list = write(dir.path(), "stop.txt", b"the\nis\n");
    let o = slst(&[
        "profile",
        "--json",
        "--stopwords",
        list.to_str().unwrap(),
        SOURCE,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // With only "the" and "is" removed, the 38-word opening sentence is dropped as too long, and
    // "The algorithm may be applied …" leads with "algorithm may".
    assert_eq!(v["dropped_long"], 1);
    assert_eq!(v["sentences"][0]["start"], 266);
    assert_eq!(
        v["sentences"][0]["leading"],
        serde_json::json!(["algorithm", "may"])
    );
    let o = slst(&["profile", "--json", "--stopwords", "none", SOURCE]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["sentences"][0]["leading"],
        serde_json::json!(["the", "algorithm"])
    );
    assert_eq!(v["stopwords"], "none");
}

#[test]
fn profile_json_lists_sentences_and_length_string() {
    let o = slst(&["profile", "--json", CUT]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["id"], CUT);
    assert_eq!(v["length_string"], "peae8dgk");
    let s0 = &v["sentences"][0];
    assert_eq!(s0["start"], 0);
    assert_eq!(s0["end"], 265);
    assert_eq!(s0["length"], 25);
    assert_eq!(s0["symbol"], "p");
    assert_eq!(s0["leading"], serde_json::json!(["pagerank", "link"]));
}

#[test]
fn profile_human_output_ends_with_the_length_string() {
    let o = slst(&["profile", CUT]);
    let out = stdout(&o);
    let line = out
        .lines()
        .find(|l| l.trim_start().starts_with("1  266..412"))
        .unwrap();
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        fields[..6],
        ["1", "266..412", "14", "e", "google", "assigns"],
        "{out}"
    );
    assert!(out.trim_end().ends_with("length string: peae8dgk"), "{out}");
}

#[test]
fn missing_file_is_a_one_line_error_with_exit_code_2() {
    let o = slst(&["compare", "no/such/file.txt", SOURCE]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("slst: error: no/such/file.txt: cannot read"),
        "{err}"
    );
}

#[test]
fn directory_is_an_error() {
    let o = slst(&["compare", "corpora", SOURCE]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("corpora: is a directory"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn binary_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let bin = write(
        dir.path(),
        "image.bin",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
    );
    let o = slst(&["profile", bin.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("image.bin: looks like a binary file (NUL byte at offset 8)"),
        "{err}"
    );
}

#[test]
fn empty_file_has_a_defined_result() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write(dir.path(), "empty.txt", b"");
    let o = slst(&["compare", "--json", empty.to_str().unwrap(), SOURCE]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["resemblance"], 0.0);
    assert_eq!(v["note"], "no sentences");
    assert_eq!(v["a"]["sentences"], 0);
    let o = slst(&["compare", empty.to_str().unwrap(), empty.to_str().unwrap()]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("note: no sentences"));
}

#[test]
fn windows_1252_text_is_decoded_and_the_fallback_reported() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "cp1252.txt",
        b"The PageRank denotes a site\x92s importance. Google assigns a numeric weighting.",
    );
    let o = slst(&["profile", "--json", f.to_str().unwrap()]);
    assert!(o.status.success());
    assert!(
        stderr(&o).contains("cp1252.txt: not valid UTF-8, decoded as Windows-1252"),
        "{}",
        stderr(&o)
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["encoding"], "windows1252");
    assert_eq!(v["length_string"], "44");
}

#[test]
fn trec_file_needs_doc_when_it_holds_several() {
    let o = slst(&["profile", "corpora/bible/sample.trec"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains(
            "holds 6 documents (KJV-01-001, WBT-01-001, KJV-01-002, …); pick one with --doc ID"
        ),
        "{err}"
    );
    let o = slst(&[
        "profile",
        "--json",
        "--doc",
        "WBT-01-002",
        "corpora/bible/sample.trec",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["id"], "WBT-01-002");
    let o = slst(&["profile", "--doc", "NOPE", "corpora/bible/sample.trec"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no document with id \"NOPE\""));
}

#[test]
fn compare_two_documents_of_one_trec_file() {
    let o = slst(&[
        "compare",
        "--json",
        "--doc-a",
        "KJV-01-001",
        "--doc-b",
        "WBT-01-001",
        "corpora/bible/sample.trec",
        "corpora/bible/sample.trec",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["a"]["id"], "KJV-01-001");
    assert_eq!(v["b"]["id"], "WBT-01-001");
    assert!(v["resemblance"].as_f64().unwrap() > 0.0);
}

#[test]
fn malformed_trec_is_an_error_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(
        dir.path(),
        "bad.trec",
        b"<DOC>\n<TEXT>no docno here</TEXT>\n</DOC>\n",
    );
    let o = slst(&["profile", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("bad.trec: malformed SGML at line 1: <DOC> without a non-empty <DOCNO>"),
        "{err}"
    );
}

#[test]
fn gzip_input_is_read_and_truncated_gzip_is_an_error() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join(CUT)).unwrap();
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(&text).unwrap();
    let gz = enc.finish().unwrap();
    let whole = write(dir.path(), "cut.txt.gz", &gz);
    let o = slst(&["profile", "--json", whole.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["length_string"], "peae8dgk");
    let cut = write(dir.path(), "cut-short.gz", &gz[..gz.len() / 2]);
    let o = slst(&["profile", cut.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cut-short.gz: damaged gzip data"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn invalid_parameters_are_errors() {
    let o = slst(&["compare", "--max-length", "36", CUT, SOURCE]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--max-length = 36"), "{}", stderr(&o));
    let o = slst(&["compare", "--threshold", "abc", CUT, SOURCE]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn too_large_file_is_refused() {
    let o = slst(&["profile", "--max-bytes", "100", CUT]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("more than the limit of 100 bytes"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn identical_files_score_one() {
    let o = slst(&["compare", "--mode", "paper", "--json", CUT, CUT]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["resemblance"], 1.0);
    assert_eq!(v["duplicate"], true);
    assert_eq!(v["note"], "identical profiles");
}

#[test]
fn containment_threshold_reports_the_answer_inside_its_source() {
    let o = slst(&[
        "compare",
        "--mode",
        "paper",
        "--json",
        "--containment",
        "0.6",
        CUT,
        SOURCE,
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["contained"]["a_in_b"], true);
    assert_eq!(v["contained"]["b_in_a"], false);
    assert_eq!(v["duplicate"], false);
    let o = slst(&[
        "compare",
        "--mode",
        "paper",
        "--containment",
        "0.6",
        CUT,
        SOURCE,
    ]);
    assert!(
        stdout(&o).contains("A contained in B at θc = 0.6: yes"),
        "{}",
        stdout(&o)
    );
    let o = slst(&[
        "compare",
        "--mode",
        "paper",
        "--containment",
        "2",
        CUT,
        SOURCE,
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn counts_of_one_are_singular() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.txt"),
        "Gold rose sharply in London trading.",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b.txt"),
        "Oil fell. Gold rose sharply in London trading.",
    )
    .unwrap();
    let out = stdout(&slst_in(dir.path(), &["compare", "a.txt", "b.txt"]));
    assert!(out.contains("   1 sentence kept, 0 skipped"), "{out}");
    assert!(out.contains("   2 sentences kept, 0 skipped"), "{out}");
    assert!(!out.contains(" 1 sentences"), "{out}");
}

#[test]
fn compare_reads_standard_input_as_dash() {
    let orig = repo().join("corpora/clough/orig_taskb.txt");
    let text = std::fs::read_to_string(&orig).unwrap();
    let out = slst_with_input(
        repo(),
        &["compare", "-", orig.to_str().unwrap(), "--json"],
        &text,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let r: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(r["a"]["id"], "-");
    assert_eq!(r["resemblance"], 1.0);
}

#[test]
fn short_help_is_short_and_names_the_key_flags() {
    for (command, flags) in [
        (
            &["compare", "-h"][..],
            &[
                "--method",
                "--threshold",
                "--containment",
                "--json",
                "--mode",
                "--format",
            ][..],
        ),
        (
            &["batch", "-h"][..],
            &[
                "--out",
                "--summary",
                "--threshold",
                "--method",
                "--quiet",
                "--format",
                "--glob",
            ][..],
        ),
        (
            &["eval", "-h"][..],
            &["--truth", "--truth-format", "--method", "--json"][..],
        ),
        (
            &["index", "add", "-h"][..],
            &["--format", "--glob", "--quiet"][..],
        ),
    ] {
        let o = slst(command);
        assert!(o.status.success(), "{command:?}");
        let help = stdout(&o);
        assert!(
            help.lines().count() < 60,
            "{command:?}: {} lines\n{help}",
            help.lines().count()
        );
        for flag in flags {
            assert!(help.contains(flag), "{command:?} -h lacks {flag}\n{help}");
        }
        // Rare flags are left to --help, which has them all.
        assert!(
            !help.contains("--x-drop") && !help.contains("--id-attr"),
            "{help}"
        );
        let mut long = command.to_vec();
        *long.last_mut().unwrap() = "--help";
        let all = stdout(&slst(&long));
        assert!(
            all.contains("--id-attr") && all.contains("--text-field"),
            "{command:?}"
        );
    }
    // The subcommands, one line each.
    let help = stdout(&slst(&["-h"]));
    for sub in ["compare", "batch", "eval", "index", "query", "profile"] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{sub} ")))
            .unwrap_or_else(|| panic!("{sub} not listed\n{help}"));
        assert!(line.chars().count() <= 90, "{line}");
    }
}
