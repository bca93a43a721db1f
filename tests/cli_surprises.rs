//! The `slst` command does what it says or refuses before it starts: outputs that would
//! overwrite an input or each other, flags that cannot be honoured together, standard input
//! named twice; every error starts with `slst: error:`; every command detects Reuters-21578's
//! SGML; a folder walk leaves out, and names, the files that are not in the corpus's format;
//! `-h` is short and `--help` complete.

#![cfg(feature = "cli")]

mod common;
use common::{repo, reuters_dir, slst, slst_in, slst_with_input, stderr, stdout};

use std::path::Path;
use std::process::Output;

const CUT: &str = "corpora/clough/g0pA_taskb.txt";
const SOURCE: &str = "corpora/clough/orig_taskb.txt";

/// A folder `corpus` with the two Clough texts (a cut answer and its source), in a fresh
/// folder.
fn clough_corpus() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("corpus")).unwrap();
    for f in [CUT, SOURCE] {
        let name = Path::new(f).file_name().unwrap();
        std::fs::copy(repo().join(f), dir.path().join("corpus").join(name)).unwrap();
    }
    dir
}

/// Exit status 2, and standard error is one refusal that starts `slst: error:` and holds
/// `needle`.
fn refused(o: &Output, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.starts_with("slst: error: "), "{err}");
    assert!(err.contains(needle), "{needle:?} not in {err}");
    assert!(o.stdout.is_empty(), "no work was done: {}", stdout(o));
}

#[test]
fn two_outputs_naming_one_file_are_refused_before_any_work() {
    let dir = clough_corpus();
    let d = dir.path();
    let o = slst_in(
        d,
        &[
            "batch",
            "corpus",
            "--out",
            "same.txt",
            "--clusters",
            "same.txt",
        ],
    );
    refused(&o, "--out and --clusters both name same.txt");
    assert!(!d.join("same.txt").exists());
    // The same file by another path.
    let o = slst_in(
        d,
        &[
            "batch",
            "corpus",
            "--out",
            "p.jsonl",
            "--summary",
            "./corpus/../p.jsonl",
        ],
    );
    refused(&o, "--out and --summary both name");
    // Both on standard output: --out's default and --clusters -.
    let o = slst_in(d, &["batch", "corpus", "--clusters", "-"]);
    refused(
        &o,
        "--out (standard output, its default) and --clusters both write to standard output",
    );
    let o = slst_in(
        d,
        &[
            "synth", "corpus", "--docs", "1", "--out", "s.trec", "--truth", "s.trec",
        ],
    );
    refused(&o, "--out and --truth both name s.trec");
    // Devices are written in place: two outputs may both be /dev/null.
    let o = slst_in(
        d,
        &[
            "batch",
            "corpus",
            "-q",
            "--out",
            "/dev/null",
            "--clusters",
            "/dev/null",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn an_output_naming_an_input_is_refused_and_the_input_kept() {
    let dir = clough_corpus();
    let d = dir.path();
    let input = d.join("corpus/orig_taskb.txt");
    let before = std::fs::read(&input).unwrap();
    let named = "corpus/orig_taskb.txt";
    let o = slst_in(
        d,
        &["batch", "corpus/g0pA_taskb.txt", named, "--summary", named],
    );
    refused(&o, "--summary corpus/orig_taskb.txt names an input");
    // A file of an input folder is an input too.
    let o = slst_in(d, &["batch", "corpus", "--out", named]);
    refused(
        &o,
        "is inside the input folder corpus; it would overwrite one of its files",
    );
    let o = slst_in(
        d,
        &[
            "synth", "corpus", "--docs", "1", "--out", "s.trec", "--truth", named,
        ],
    );
    refused(
        &o,
        "--truth corpus/orig_taskb.txt is inside the input folder",
    );
    std::fs::write(d.join("truth.tsv"), "g0pA_taskb.txt\torig_taskb.txt\t1\n").unwrap();
    let o = slst_in(
        d,
        &[
            "eval",
            "corpus",
            "--truth",
            "truth.tsv",
            "--plots",
            "truth.tsv",
        ],
    );
    refused(
        &o,
        "cannot write into truth.tsv (--plots): it is a file, not a folder",
    );
    let o = slst_in(
        d,
        &[
            "eval",
            "corpus",
            "--truth",
            "truth.tsv",
            "--plots",
            "corpus/plots",
        ],
    );
    refused(&o, "its files would be read as inputs");
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

#[test]
fn index_outputs_and_inputs_are_checked_too() {
    let dir = clough_corpus();
    let d = dir.path();
    let o = slst_in(d, &["index", "create", "nowhere/news.db"]);
    refused(
        &o,
        "cannot write nowhere/news.db: folder nowhere does not exist",
    );
    assert!(slst_in(d, &["index", "create", "news.db"]).status.success());
    let o = slst_in(d, &["index", "add", "news.db", "corpus", "./news.db"]);
    refused(&o, "./news.db is the index, also given as a source");
    let cut = "corpus/g0pA_taskb.txt";
    let o = slst_in(d, &["query", "news.db", cut, "--timings", cut]);
    refused(&o, "--timings corpus/g0pA_taskb.txt names an input");
}

#[test]
fn an_output_in_a_missing_folder_is_refused_before_any_work() {
    let dir = clough_corpus();
    let d = dir.path();
    let o = slst_in(d, &["batch", "corpus", "--out", "nodir/p.jsonl"]);
    refused(
        &o,
        "cannot write nodir/p.jsonl: folder nodir does not exist",
    );
    let o = slst_in(
        d,
        &[
            "batch",
            "corpus",
            "--out",
            "p.jsonl",
            "--clusters",
            "a/b/c.tsv",
        ],
    );
    refused(&o, "cannot write a/b/c.tsv: folder a/b does not exist");
    assert!(!d.join("p.jsonl").exists());
    let o = slst_in(
        d,
        &[
            "sample",
            "corpus",
            "--out",
            "s.trec",
            "--manifest",
            "no/m.json",
        ],
    );
    refused(&o, "cannot write no/m.json: folder no does not exist");
    let o = slst_in(d, &["batch", "corpus", "--out", "corpus"]);
    refused(&o, "cannot write corpus (--out): it is a folder");
}

/// With --containment a pair is reported by containment alone, whatever J: a threshold beside it
/// would change nothing, and is refused.
#[test]
fn threshold_and_containment_together_are_refused() {
    let dir = clough_corpus();
    let d = dir.path();
    let both = ["--threshold", "0.5", "--containment", "0.8"];
    let o = slst_in(d, &[&["batch", "corpus"][..], &both].concat());
    refused(
        &o,
        "--threshold 0.5 and --containment 0.8 cannot both be honoured",
    );
    assert!(stderr(&o).contains("whatever its J"), "{}", stderr(&o));
    assert!(slst_in(d, &["index", "create", "news.db"]).status.success());
    let o = slst_in(d, &[&["query", "news.db", "corpus"][..], &both].concat());
    refused(&o, "cannot both be honoured");
    // compare decides both, duplicate at θ and contained at θc.
    let o = slst(&[&["compare", "--json", CUT, SOURCE][..], &both].concat());
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn mode_with_a_method_that_has_none_is_refused() {
    let dir = clough_corpus();
    let d = dir.path();
    let o = slst_in(
        d,
        &["batch", "corpus", "--method", "shingle", "--mode", "paper"],
    );
    refused(
        &o,
        "--mode paper applies to --method slst only; shingle has no modes",
    );
    let o = slst(&[
        "compare",
        "--method",
        "md5,polyhash",
        "--mode",
        "robust",
        CUT,
        SOURCE,
    ]);
    refused(
        &o,
        "--mode robust applies to --method slst only; md5, polyhash has no modes",
    );
    let o = slst(&["sketch", "--method", "slst-flat", "--mode", "paper", CUT]);
    refused(&o, "slst-flat has no modes");
    let o = slst_in(
        d,
        &[
            "index", "create", "x.db", "--method", "shingle", "--mode", "paper",
        ],
    );
    refused(&o, "--mode paper applies to --method slst only");
    let o = slst_in(
        d,
        &[
            "eval",
            "corpus",
            "--truth",
            "t.tsv",
            "--method",
            "shingle",
            "--mode",
            "paper,robust",
        ],
    );
    refused(&o, "--mode paper,robust applies to --method slst only");
    // Wherever slst is among the methods, --mode is honoured.
    let o = slst(&["compare", "--method", "all", "--mode", "paper", CUT, SOURCE]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A robust-mode setting where the robust mode does not run would change nothing: refused, by
/// the flag as typed.
#[test]
fn robust_settings_without_the_robust_mode_are_refused() {
    let dir = clough_corpus();
    let d = dir.path();
    let o = slst(&["compare", "--mode", "paper", "--clauses", CUT, SOURCE]);
    refused(
        &o,
        "--clauses is a setting of the robust mode; --mode paper does not read it",
    );
    let o = slst_in(d, &["batch", "corpus", "--mode", "paper", "--no-stem"]);
    refused(&o, "--no-stem is a setting of the robust mode");
    let o = slst_in(
        d,
        &["batch", "corpus", "--method", "shingle", "--pair-keys", "2"],
    );
    refused(
        &o,
        "--pair-keys is a setting of SL+ST's robust mode; shingle does not read it",
    );
    let o = slst(&["sketch", "--mode", "paper", "--term-similarity", "0.5", CUT]);
    refused(&o, "--term-similarity is a setting of the robust mode");
    // Where the robust mode runs (alone, or beside paper in eval), the settings are honoured.
    let o = slst(&["compare", "--json", "--clauses", CUT, SOURCE]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = slst(&["compare", "--method", "all", "--no-stem", CUT, SOURCE]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn standard_input_named_twice_is_refused() {
    let text = std::fs::read(repo().join(SOURCE)).unwrap();
    let o = slst_with_input(repo(), &["compare", "-", "-"], &text);
    refused(&o, "`-` (standard input) is named 2 times");
    let o = slst_with_input(repo(), &["batch", "-", CUT, "-"], &text);
    refused(&o, "can be read only once");
    // Once is fine.
    let o = slst_with_input(repo(), &["compare", "--json", "-", SOURCE], &text);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["resemblance"], 1.0);
}

/// The number of threads a batch run used, from its summary.
fn threads_used(dir: &Path, threads: &str) -> serde_json::Value {
    let args = [
        "batch",
        "corpus",
        "-q",
        "--summary",
        "s.json",
        "--threads",
        threads,
    ];
    let o = slst_in(dir, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = std::fs::read_to_string(dir.join("s.json")).unwrap();
    serde_json::from_str::<serde_json::Value>(&summary).unwrap()["threads"].clone()
}

#[test]
fn threads_zero_means_every_core_and_too_many_are_refused() {
    let dir = clough_corpus();
    let d = dir.path();
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    assert_eq!(threads_used(d, "0"), cores);
    assert_eq!(threads_used(d, "1"), 1);
    let too_many = (4 * cores + 1).to_string();
    let o = slst_in(d, &["batch", "corpus", "--threads", &too_many]);
    refused(&o, &format!("--threads {too_many}: more than 4 per core"));
    assert!(
        stderr(&o).contains(&format!("{} here", 4 * cores)),
        "{}",
        stderr(&o)
    );
}

/// The robust settings in a comparison's JSON record.
fn compare_params(flags: &[&str]) -> serde_json::Value {
    let o = slst(&[&["compare", "--json"][..], flags, &[CUT, SOURCE]].concat());
    assert!(o.status.success(), "{flags:?}: {}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["params"].clone()
}

#[test]
fn on_off_settings_are_switch_pairs_with_their_default_in_the_help() {
    let defaults = compare_params(&[]);
    assert_eq!(
        (&defaults["clauses"], &defaults["stem"]),
        (&true.into(), &false.into())
    );
    let p = compare_params(&["--no-clauses", "--stem", "--no-flash-leads"]);
    assert_eq!(
        (&p["clauses"], &p["stem"], &p["flash_leads"]),
        (&false.into(), &true.into(), &false.into())
    );
    // The later of a pair wins.
    assert_eq!(compare_params(&["--no-stem", "--stem"])["stem"], true);
    assert_eq!(compare_params(&["--stem", "--no-stem"])["stem"], false);
    // The old spelling is gone, and says so.
    let o = slst(&["batch", "--clauses", "true", CUT]);
    refused(
        &o,
        "true: no such file; settings that are on or off take no value",
    );
    let help = stdout(&slst(&["compare", "--help"]));
    for line in [
        "--clauses",
        "--no-clauses",
        "--split-glued",
        "--no-headline-subjects",
    ] {
        assert!(
            help.contains(&format!("      {line}\n")),
            "{line} in {help}"
        );
    }
    assert!(help.contains("(clauses as units) [default: on]"), "{help}");
    assert!(
        help.contains("after stop-word removal [default: off]"),
        "{help}"
    );
    assert!(!help.contains("true|false"), "{help}");
}

#[test]
fn every_error_starts_with_the_same_prefix_and_help_goes_to_standard_output() {
    let o = slst(&["batch", "--bogus", CUT]);
    refused(&o, "unexpected argument '--bogus' found");
    let o = slst(&["batch", CUT, "--threads", "many"]);
    refused(&o, "invalid value 'many' for '--threads <N>'");
    let o = slst(&["compare", CUT]);
    refused(&o, "the following required arguments were not provided");
    refused(&slst(&[]), "no command given");
    for args in [&["--help"][..], &["-h"], &["batch", "-h"], &["--version"]] {
        let o = slst(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(o.stderr.is_empty() && !o.stdout.is_empty(), "{args:?}");
    }
}

/// A Reuters-21578 file of two stories (real text: the Clough source and cut answer), with the
/// collection's doctype and elements.
fn reuters_file(dir: &Path) -> std::path::PathBuf {
    let body = |f: &str| std::fs::read_to_string(repo().join(f)).unwrap();
    let story = |id: u32, title: &str, text: String| {
        format!(
            "<REUTERS TOPICS=\"NO\" NEWID=\"{id}\">\n<DATE>26-FEB-1987</DATE>\n<TEXT>&#2;\n\
             <TITLE>{title}</TITLE>\n<BODY>{text}</BODY></TEXT>\n</REUTERS>\n"
        )
    };
    let sgml = format!(
        "<!DOCTYPE lewis SYSTEM \"lewis.dtd\">\n{}{}",
        story(7, "PAGERANK", body(SOURCE)),
        story(8, "PAGERANK ANSWER", body(CUT))
    );
    let path = dir.join("reut2-000.sgm");
    std::fs::write(&path, sgml).unwrap();
    path
}

#[test]
fn every_command_reads_reuters_sgml_and_picks_a_story_by_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    reuters_file(d);
    let o = slst_in(d, &["profile", "reut2-000.sgm"]);
    refused(
        &o,
        "reut2-000.sgm: holds 2 documents (7, 8); pick one with --doc ID",
    );
    let o = slst_in(d, &["profile", "--doc", "8", "reut2-000.sgm"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("8\n"), "{}", stdout(&o));
    let o = slst_in(
        d,
        &["sketch", "--method", "md5", "--doc", "7", "reut2-000.sgm"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let args = [
        "compare",
        "--json",
        "--doc-a",
        "8",
        "--doc-b",
        "7",
        "reut2-000.sgm",
        "reut2-000.sgm",
    ];
    let o = slst_in(d, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((&v["a"]["id"], &v["b"]["id"]), (&"8".into(), &"7".into()));
    assert_eq!(v["duplicate"], true);
}

#[test]
fn batch_format_sgml_keeps_the_reuters_elements() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    reuters_file(d);
    for format in ["auto", "sgml"] {
        let args = ["batch", "reut2-000.sgm", "--format", format, "-q"];
        let o = slst_in(d, &args);
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        assert!(
            stdout(&o).starts_with(r#"{"a":"7","b":"8","#),
            "{format}: {}",
            stdout(&o)
        );
    }
    // Elements named are the elements read.
    let o = slst_in(
        d,
        &[
            "batch",
            "reut2-000.sgm",
            "--format",
            "sgml",
            "--doc-tag",
            "DOC",
            "-q",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no <DOC> element found"),
        "{}",
        stderr(&o)
    );
}

/// On the collection as shipped: a real story of `reut2-000.sgm` by its NEWID.
#[test]
fn reuters_as_shipped_is_read_by_compare_profile_and_sketch() {
    let Some(dir) = reuters_dir() else { return };
    let file = dir.join("reut2-000.sgm");
    let file = file.to_str().unwrap();
    let o = slst(&["profile", "--json", "--doc", "5", file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["id"], "5");
    let o = slst(&[
        "compare", "--json", "--doc-a", "5", "--doc-b", "5", file, file,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["resemblance"], 1.0);
    let o = slst(&["sketch", "--method", "shingle", "--doc", "5", file]);
    assert!(o.status.success(), "{}", stderr(&o));
    refused(
        &slst(&["sketch", file]),
        "holds 1000 documents (1, 2, 3, …)",
    );
}

#[test]
fn a_folder_of_collection_files_leaves_out_and_names_its_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir_all(d.join("reuters/derived")).unwrap();
    reuters_file(&d.join("reuters"));
    std::fs::write(
        d.join("reuters/README.txt"),
        "Reuters-21578 text categorization test collection.\n",
    )
    .unwrap();
    std::fs::write(
        d.join("reuters/lewis.dtd"),
        "<!ELEMENT LEWIS O O (REUTERS+)>\n",
    )
    .unwrap();
    std::fs::write(d.join("reuters/derived/dups.tsv"), "7\t8\n").unwrap();
    let o = slst_in(d, &["batch", "reuters", "-q", "--summary", "s.json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("skipped 3 of 5 documents or files (3 not in the corpus's format)"),
        "{}",
        stderr(&o)
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("s.json")).unwrap()).unwrap();
    assert_eq!(summary["documents_read"], 2);
    let skipped: Vec<&str> = summary["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["location"].as_str().unwrap())
        .collect();
    assert_eq!(
        skipped,
        [
            "reuters/README.txt",
            "reuters/derived/dups.tsv",
            "reuters/lewis.dtd"
        ]
    );
    let reason = summary["skipped"][0]["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("not in the corpus's format (one text among SGML collection files"),
        "{reason}"
    );
    // Named, a file is read whatever the folder holds.
    let o = slst_in(
        d,
        &[
            "batch",
            "reuters",
            "reuters/README.txt",
            "-q",
            "--summary",
            "s.json",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("s.json")).unwrap()).unwrap();
    assert_eq!(summary["documents_read"], 3);
}

#[test]
fn a_folder_mostly_of_texts_reads_every_file() {
    let dir = clough_corpus();
    let d = dir.path();
    // A small TREC file among larger texts: the texts are the corpus.
    let trec = "<DOC>\n<DOCNO>N1</DOCNO>\n<TEXT>\nA short note.\n</TEXT>\n</DOC>\n";
    std::fs::write(d.join("corpus/notes.trec"), trec).unwrap();
    let o = slst_in(d, &["batch", "corpus", "-q", "--summary", "s.json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("s.json")).unwrap()).unwrap();
    assert_eq!(summary["documents_read"], 3);
    assert_eq!(summary["documents_skipped"], 0);
}

#[test]
fn short_help_is_short_and_long_help_complete() {
    let short = stdout(&slst(&["batch", "-h"]));
    let long = stdout(&slst(&["batch", "--help"]));
    for common in [
        "--out <FILE>",
        "--method <NAME>",
        "--threshold",
        "Examples:\n  slst batch ",
    ] {
        assert!(short.contains(common), "{common} in {short}");
    }
    assert!(short.trim_end().ends_with("Docs: docs/batch.md"), "{short}");
    for expert in [
        "--min-figure-containment",
        "--templates",
        "--candidates",
        "--max-bytes",
        "--threads",
    ] {
        assert!(!short.contains(expert), "{expert} in -h: {short}");
        assert!(long.contains(expert), "{expert} not in --help");
    }
    assert!(short.lines().count() * 4 < long.lines().count(), "{short}");
    for (command, page) in [
        ("compare", "compare.md"),
        ("eval", "eval.md"),
        ("synth", "sets.md"),
        ("query", "index.md"),
        ("blocks", "web.md"),
    ] {
        let help = stdout(&slst(&[command, "-h"]));
        assert!(help.contains("Examples:\n  slst "), "{command}: {help}");
        assert!(
            help.trim_end().ends_with(&format!("Docs: docs/{page}")),
            "{command}: {help}"
        );
    }
    let top = stdout(&slst(&["-h"]));
    assert!(
        top.contains("Examples:\n  slst compare a.txt b.txt"),
        "{top}"
    );
}
