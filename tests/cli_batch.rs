//! End-to-end tests of `slst batch`.

#![cfg(feature = "cli")]

mod common;
use common::{corpus_dir, repo, slst_in, slst_with_input, stderr};

#[test]
fn batch_writes_pairs_clusters_and_summary() {
    let dir = corpus_dir();
    let o = slst_in(
        dir.path(),
        &[
            "batch",
            "--mode",
            "paper",
            "corpus",
            "--out",
            "pairs.jsonl",
            "--clusters",
            "clusters.tsv",
            "--summary",
            "summary.json",
            "--containment",
            "0.6",
            "--blocks",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let pairs = std::fs::read_to_string(dir.path().join("pairs.jsonl")).unwrap();
    let records: Vec<serde_json::Value> = pairs
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ids: Vec<(String, String)> = records
        .iter()
        .map(|r| {
            (
                r["a"].as_str().unwrap().to_string(),
                r["b"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    // Path order: answer.txt, blob.bin (skipped), empty.txt, genesis.txt, nested/copy.txt, orig.txt.
    assert_eq!(
        ids,
        [
            ("answer.txt".to_string(), "nested/copy.txt".to_string()),
            ("answer.txt".to_string(), "orig.txt".to_string()),
            ("nested/copy.txt".to_string(), "orig.txt".to_string()),
        ]
    );
    let r = &records[0];
    assert_eq!(r["method"], "slst");
    assert_eq!(r["block_count"], 2);
    assert_eq!(r["containment_a"], 0.625);
    assert_eq!(r["blocks"][0]["a_span"], serde_json::json!([266, 668]));
    assert_eq!(records[2]["resemblance"], 1.0);
    let clusters = std::fs::read_to_string(dir.path().join("clusters.tsv")).unwrap();
    assert_eq!(
        clusters,
        "cluster_id\tdoc_id\n1\tanswer.txt\n1\tnested/copy.txt\n1\torig.txt\n"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("summary.json")).unwrap())
            .unwrap();
    assert_eq!(summary["documents_read"], 5);
    assert_eq!(summary["documents_skipped"], 1);
    assert!(
        summary["skipped"][0]["location"]
            .as_str()
            .unwrap()
            .ends_with("blob.bin")
    );
    assert_eq!(summary["documents_without_sentences"], 1);
    assert_eq!(
        summary["without_sentences"],
        serde_json::json!(["empty.txt"])
    );
    assert_eq!(summary["exact_duplicate_groups"], 1);
    assert_eq!(summary["pairs_reported"], 3);
    assert!(
        stderr(&o).contains("pairs reported: 3; clusters: 1"),
        "{}",
        stderr(&o)
    );
    // Wall-clock and CPU seconds per stage, the CPU time also in the human summary.
    for times in ["seconds", "cpu_seconds"] {
        for stage in ["sketch", "candidates", "verify"] {
            let t = summary[times][stage].as_f64();
            assert!(t.is_some_and(|t| t >= 0.0), "{times}.{stage}: {summary}");
        }
    }
    assert!(stderr(&o).contains("s CPU)"), "{}", stderr(&o));
    // Nothing half-written is left beside the outputs.
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("partial"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn candidates_all_gives_the_same_output() {
    let dir = corpus_dir();
    let a = slst_in(dir.path(), &["batch", "-q", "corpus", "--threshold", "0.1"]);
    let b = slst_in(
        dir.path(),
        &[
            "batch",
            "-q",
            "corpus",
            "--threshold",
            "0.1",
            "--candidates",
            "all",
        ],
    );
    assert!(a.status.success() && b.status.success());
    assert!(!a.stdout.is_empty());
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn quiet_keeps_one_line_for_skipped_documents_and_qq_nothing() {
    let dir = corpus_dir();
    // The corpus holds one binary file among six.
    let q = slst_in(dir.path(), &["batch", "-q", "corpus", "--out", "p.jsonl"]);
    assert!(q.status.success(), "{}", stderr(&q));
    assert_eq!(
        stderr(&q),
        "slst: skipped 1 of 6 documents or files (1 looks like a binary file); \
         --summary FILE lists them\n"
    );
    let qq = slst_in(dir.path(), &["batch", "-qq", "corpus", "--out", "p.jsonl"]);
    assert!(
        qq.status.success() && qq.stderr.is_empty(),
        "{}",
        stderr(&qq)
    );
    // Nothing skipped: -q prints nothing.
    std::fs::remove_file(dir.path().join("corpus/blob.bin")).unwrap();
    let q = slst_in(dir.path(), &["batch", "-q", "corpus", "--out", "p.jsonl"]);
    assert!(q.status.success() && q.stderr.is_empty(), "{}", stderr(&q));
    // The same for index add, eval, synth.
    std::fs::write(dir.path().join("corpus/blob.bin"), b"\x00\x01binary").unwrap();
    assert!(
        slst_in(dir.path(), &["index", "create", "i.db"])
            .status
            .success()
    );
    for (args, hint) in [
        (&["index", "add", "i.db", "corpus"][..], "run without -q"),
        (
            &["eval", "corpus", "--truth", "t.tsv"][..],
            "run without -q",
        ),
        (
            &[
                "synth", "corpus", "--docs", "1", "--out", "s.trec", "--truth", "s.tsv",
            ][..],
            "run without -q",
        ),
    ] {
        std::fs::write(dir.path().join("t.tsv"), "orig.txt\tnested/copy.txt\t1\n").unwrap();
        let mut q = args.to_vec();
        q.push("-q");
        let out = slst_in(dir.path(), &q);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.starts_with("slst: skipped 1 of ")
                && err.contains(hint)
                && err.lines().count() == 1,
            "{args:?}: {err}"
        );
        q.push("-q");
        let out = slst_in(dir.path(), &q);
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn tsv_and_csv_outputs() {
    let dir = corpus_dir();
    let o = slst_in(
        dir.path(),
        &[
            "batch",
            "--mode",
            "paper",
            "-q",
            "corpus",
            "--out-format",
            "tsv",
        ],
    );
    let tsv = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        tsv.lines().next().unwrap(),
        "a\tb\tmethod\tresemblance\tcontainment_a\tcontainment_b\tblock_count\t\
         matched_sentences\ttemplate\tdecided_by\tcondition\tstopwords_a\tstopwords_b"
    );
    assert_eq!(
        tsv.lines().nth(1).unwrap(),
        "nested/copy.txt\torig.txt\tslst\t1\t1\t1\t1\t24\t\trule\trule\t\t"
    );
    let o = slst_in(
        dir.path(),
        &[
            "batch",
            "--mode",
            "paper",
            "-q",
            "corpus",
            "--out-format",
            "csv",
        ],
    );
    let csv = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        csv.lines().nth(1).unwrap(),
        "nested/copy.txt,orig.txt,slst,1,1,1,1,24,,rule,rule,,"
    );
}

#[test]
fn sgml_with_configured_tags_and_bad_documents() {
    let dir = tempfile::tempdir().unwrap();
    let body = std::fs::read_to_string(repo().join("corpora/clough/orig_taskb.txt")).unwrap();
    let sgml = format!(
        "<!DOCTYPE lewis SYSTEM \"lewis.dtd\">\n<REUTERS NEWID=\"1\"><TEXT><TITLE>PAGERANK</TITLE><BODY>{body}</BODY></TEXT></REUTERS>\n\
         <REUTERS OLDID=\"9\"><TEXT><BODY>No id here.</BODY></TEXT></REUTERS>\n\
         <REUTERS NEWID=\"3\"><TEXT><TITLE>PAGERANK</TITLE><BODY>{body}</BODY></TEXT></REUTERS>\n"
    );
    let bad_line = sgml[..sgml.find("<REUTERS OLDID").unwrap()]
        .matches('\n')
        .count()
        + 1;
    std::fs::write(dir.path().join("reut.sgm"), &sgml).unwrap();
    let o = slst_in(
        dir.path(),
        &[
            "batch",
            "reut.sgm",
            "--format",
            "sgml",
            "--doc-tag",
            "REUTERS",
            "--id-attr",
            "NEWID",
            "--text-tags",
            "TITLE,BODY",
            "--summary",
            "s.json",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout.clone()).unwrap();
    assert!(out.starts_with("{\"a\":\"1\",\"b\":\"3\""), "{out}");
    let expected = format!("skipped: reut.sgm:{bad_line}: <REUTERS> without a NEWID attribute");
    assert!(stderr(&o).contains(&expected), "{}", stderr(&o));
}

#[test]
fn jsonl_from_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo().join("corpora/clough/orig_taskb.txt")).unwrap();
    let line = |id: &str| serde_json::json!({"doc": id, "body": text}).to_string();
    let input = format!("{}\nnot json\n{}\n", line("x"), line("y"));
    let o = slst_with_input(
        dir.path(),
        &[
            "batch",
            "-",
            "--format",
            "jsonl",
            "--id-field",
            "doc",
            "--text-field",
            "body",
        ],
        &input,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        String::from_utf8(o.stdout.clone())
            .unwrap()
            .starts_with("{\"a\":\"x\",\"b\":\"y\",\"method\":\"slst\",\"resemblance\":1.0")
    );
    assert!(
        stderr(&o).contains("skipped: <stdin>:2: not JSON"),
        "{}",
        stderr(&o)
    );
}

/// Gzip'd JSON lines on standard input are inflated, as a gzip'd file is (they were read as
/// bytes, so every line was skipped as not UTF-8).
#[test]
fn gzipped_jsonl_from_standard_input() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(repo().join("corpora/clough/orig_taskb.txt")).unwrap();
    let line = |id: &str| serde_json::json!({"id": id, "text": text}).to_string();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    write!(gz, "{}\n{}\n", line("x"), line("y")).unwrap();
    let gz = gz.finish().unwrap();
    let o = slst_with_input(dir.path(), &["batch", "-", "--format", "jsonl", "-q"], gz);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout.clone()).unwrap();
    assert!(out.starts_with(r#"{"a":"x","b":"y","#), "{out}");
    assert_eq!(out.lines().count(), 1);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn unwritable_output_is_an_error_naming_it() {
    let dir = corpus_dir();
    let o = slst_in(
        dir.path(),
        &["batch", "-q", "corpus", "--out", "no/such/dir/pairs.jsonl"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no/such/dir/pairs.jsonl"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn other_methods_join_on_their_keys_and_equal_all_pairs() {
    let dir = corpus_dir();
    for method in [
        "shingle",
        "megashingle",
        "md5",
        "polyhash",
        "spotsigs",
        "sentlen",
    ] {
        let index = slst_in(
            dir.path(),
            &[
                "batch",
                "-q",
                "corpus",
                "--method",
                method,
                "--threshold",
                "0.2",
            ],
        );
        let all = slst_in(
            dir.path(),
            &[
                "batch",
                "-q",
                "corpus",
                "--method",
                method,
                "--threshold",
                "0.2",
                "--candidates",
                "all",
            ],
        );
        assert!(index.status.success(), "{method}: {}", stderr(&index));
        assert_eq!(index.stdout, all.stdout, "{method}");
        let out = String::from_utf8(index.stdout).unwrap();
        let first = out
            .lines()
            .next()
            .unwrap_or_else(|| panic!("{method} reports the copies"));
        let v: serde_json::Value = serde_json::from_str(first).unwrap();
        assert_eq!(v["method"], method);
        assert!(
            v.get("block_count").is_none(),
            "{method}: no blocks outside SL+ST"
        );
    }
    let o = slst_in(
        dir.path(),
        &["batch", "-q", "corpus", "--method", "simhash"],
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn every_batch_path_counts_documents_decoded_by_the_fallback() {
    // One Windows-1252 file (a curly apostrophe is byte 0x92) beside a UTF-8 one: paper mode,
    // the robust mode's own join and the key join of the baselines all count it.
    // The outputs are written beside the corpus folder: a file in it would be an input.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("c")).unwrap();
    let text = "The theorem relates the conditional and marginal probabilities of two events. \
                It is often used to compute posterior probabilities given observations.";
    std::fs::write(dir.path().join("c/a.txt"), text).unwrap();
    let latin = text.replace("two events", "two events\u{0}").into_bytes();
    let latin: Vec<u8> = latin
        .into_iter()
        .map(|b| if b == 0 { 0x92 } else { b })
        .collect();
    std::fs::write(dir.path().join("c/b.txt"), &latin).unwrap();
    assert!(std::str::from_utf8(&latin).is_err());
    for extra in [
        &["--mode", "paper"][..],
        &["--mode", "robust"],
        &["--method", "shingle"],
    ] {
        let mut args = vec![
            "batch",
            "c",
            "--summary",
            "summary.json",
            "--out",
            "pairs.jsonl",
            "-q",
        ];
        args.extend(extra);
        let o = slst_in(dir.path(), &args);
        assert!(
            o.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let summary = std::fs::read_to_string(dir.path().join("summary.json")).unwrap();
        let v: serde_json::Value = serde_json::from_str(&summary).unwrap();
        assert_eq!(v["documents_read"], 2, "{extra:?}");
        assert_eq!(v["documents_fallback_decoded"], 1, "{extra:?}");
    }
}

#[test]
fn a_missing_input_or_nothing_read_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = slst_in(d, &["batch", "nonexistent.txt", "-q"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("nonexistent.txt: cannot read"),
        "{}",
        stderr(&out)
    );
    std::fs::create_dir(d.join("empty")).unwrap();
    let out = slst_in(d, &["batch", "empty", "-q", "--out", "p.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no document was read"),
        "{}",
        stderr(&out)
    );
    assert!(slst_in(d, &["index", "create", "i.db"]).status.success());
    let out = slst_in(d, &["index", "add", "i.db", "missing.txt"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("missing.txt: cannot read"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_repeated_id_is_a_skipped_document_not_a_pair() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let record = r#"{"id":"d0","text":"The central bank raised rates sharply on Monday. Markets fell in early trading. Bond yields rose."}"#;
    std::fs::write(d.join("a.jsonl"), format!("{record}\n")).unwrap();
    std::fs::write(d.join("b.jsonl"), format!("{record}\n")).unwrap();
    let out = slst_in(d, &["batch", "a.jsonl", "b.jsonl", "--out", "p.jsonl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(d.join("p.jsonl")).unwrap(), "");
    assert!(
        stderr(&out).contains("skipped: d0: the id of an earlier document"),
        "{}",
        stderr(&out)
    );
}

#[cfg(unix)]
#[test]
fn symbolic_link_loops_end_and_a_file_reached_twice_is_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let corpus = d.join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    for name in ["g0pA_taskb.txt", "orig_taskb.txt"] {
        std::fs::copy(repo().join("corpora/clough").join(name), corpus.join(name)).unwrap();
    }
    // A link to the folder itself (a loop) and a second name for a file.
    std::os::unix::fs::symlink(".", corpus.join("self")).unwrap();
    std::os::unix::fs::symlink(corpus.join("orig_taskb.txt"), corpus.join("z.txt")).unwrap();
    let out = slst_in(d, &["batch", "corpus", "--out", "p.jsonl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("documents: 2 read"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn reuters_sgml_is_recognised_by_its_content() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let story = "<TEXT><TITLE>COCOA EXPORTS RISE</TITLE><BODY>Cocoa exports from the Ivory Coast rose \
                 sharply in February. Traders said the crop was larger than expected. Prices fell \
                 on the news.</BODY></TEXT>";
    let sgml = format!(
        "<!DOCTYPE lewis SYSTEM \"lewis.dtd\">\n<REUTERS NEWID=\"1\">{story}</REUTERS>\n\
         <REUTERS NEWID=\"2\">{story}</REUTERS>\n"
    );
    std::fs::write(d.join("reut2-000.sgm"), sgml).unwrap();
    let out = slst_in(d, &["batch", "reut2-000.sgm", "--out", "p.jsonl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let pairs = std::fs::read_to_string(d.join("p.jsonl")).unwrap();
    assert!(pairs.starts_with(r#"{"a":"1","b":"2","#), "{pairs}");
}

/// The ids `slst batch` reports in pairs, for a folder whose files all hold the same text.
fn ids_read(dir: &std::path::Path, extra: &[&str]) -> Vec<String> {
    let mut args = vec!["batch", "corpus", "--out", "p.jsonl"];
    args.extend_from_slice(extra);
    let out = slst_in(dir, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    let pairs = std::fs::read_to_string(dir.join("p.jsonl")).unwrap();
    let mut ids: Vec<String> = pairs
        .lines()
        .flat_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            [
                v["a"].as_str().unwrap().to_string(),
                v["b"].as_str().unwrap().to_string(),
            ]
        })
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

#[test]
fn folder_files_are_chosen_by_glob_and_exclude() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let c = d.join("corpus");
    let text = std::fs::read(repo().join("corpora/clough/orig_taskb.txt")).unwrap();
    for name in ["a.txt", "b.md", "sub/c.txt", "drafts/d.txt", "drafts/e.md"] {
        let path = c.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &text).unwrap();
    }
    assert_eq!(
        ids_read(d, &[]),
        ["a.txt", "b.md", "drafts/d.txt", "drafts/e.md", "sub/c.txt"]
    );
    // `*` matches across folders; --exclude prunes a whole subfolder.
    assert_eq!(
        ids_read(d, &["--glob", "*.txt", "--exclude", "drafts"]),
        ["a.txt", "sub/c.txt"]
    );
    // Repeated patterns: any include, any exclude.
    assert_eq!(
        ids_read(
            d,
            &["--glob", "*.md", "--glob", "sub/*", "--exclude", "b.*"]
        ),
        ["drafts/e.md", "sub/c.txt"]
    );
    // A bad pattern is an error naming the flag, before anything is read.
    let out = slst_in(d, &["batch", "corpus", "--glob", "[a-", "--out", "p.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--glob"), "{}", stderr(&out));
}

#[cfg(unix)]
#[test]
fn no_follow_leaves_symbolic_links_out() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let c = d.join("corpus");
    std::fs::create_dir_all(&c).unwrap();
    std::fs::create_dir_all(d.join("elsewhere")).unwrap();
    let text = std::fs::read(repo().join("corpora/clough/orig_taskb.txt")).unwrap();
    std::fs::write(c.join("a.txt"), &text).unwrap();
    std::fs::write(c.join("b.txt"), &text).unwrap();
    std::fs::write(d.join("elsewhere/c.txt"), &text).unwrap();
    std::os::unix::fs::symlink(d.join("elsewhere"), c.join("linked")).unwrap();
    std::os::unix::fs::symlink(d.join("elsewhere/c.txt"), c.join("z.txt")).unwrap();
    std::os::unix::fs::symlink("..", c.join("up")).unwrap();
    // Followed: the file outside once (by the first path the walk reaches it by: files of a
    // folder before its subfolders), and the link up the tree ends.
    assert_eq!(ids_read(d, &[]), ["a.txt", "b.txt", "z.txt"]);
    assert_eq!(ids_read(d, &["--no-follow"]), ["a.txt", "b.txt"]);
}

#[test]
fn sgml_in_unknown_elements_is_not_read_as_text_but_explained() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let xml = "<?xml version=\"1.0\"?>\n\
               <article id=\"a1\"><title>Cocoa exports rise</title><body>Cocoa exports from the \
               Ivory Coast rose sharply in February. Traders said the crop was larger than \
               expected.</body></article>\n\
               <article id=\"a2\"><title>Cocoa exports rise</title><body>Cocoa exports from the \
               Ivory Coast rose sharply in February. Traders said the crop was larger than \
               expected.</body></article>\n";
    std::fs::write(d.join("news.xml"), xml).unwrap();
    std::fs::write(
        d.join("one.xml"),
        "<article id=\"x\"><p>One article only. Fine.</p></article>\n",
    )
    .unwrap();
    let hint = "news.xml: looks like SGML with repeated <article> elements, one document each; \
                read it with --format sgml --doc-tag article --id-attr id --text-tags title,body";
    // Named to compare: an error with the flags that read it.
    let out = slst_in(d, &["compare", "news.xml", "one.xml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains(hint), "{}", stderr(&out));
    // In a batch: skipped with the same hint; a single element is still a text.
    // news.xml was named and not read: the results of one.xml are written, status 1.
    let out = slst_in(d, &["batch", "news.xml", "one.xml", "--out", "p.jsonl"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains(hint), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("documents: 1 read, 1 skipped"),
        "{}",
        stderr(&out)
    );
    // The hint's flags read it.
    let out = slst_in(
        d,
        &[
            "batch",
            "news.xml",
            "--format",
            "sgml",
            "--doc-tag",
            "article",
            "--id-attr",
            "id",
            "--text-tags",
            "title,body",
            "--out",
            "p.jsonl",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let pairs = std::fs::read_to_string(d.join("p.jsonl")).unwrap();
    assert!(pairs.starts_with(r#"{"a":"a1","b":"a2","#), "{pairs}");
}

#[test]
fn json_lines_without_the_text_field_name_the_fields_they_have() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("docs.jsonl"),
        "{\"id\":\"1\",\"title\":\"T\",\"body\":\"The body is here. It is long.\"}\n\
         {\"id\":\"2\",\"title\":\"U\",\"body\":\"Another body. Also long.\"}\n",
    )
    .unwrap();
    let out = slst_in(d, &["batch", "docs.jsonl", "--out", "p.jsonl"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(
            "docs.jsonl:1: no field \"text\" in 1 (fields: id, title, body; use --text-field body)"
        ),
        "{err}"
    );
    assert!(err.contains("slst: error: no document was read"), "{err}");
    let out = slst_in(d, &["batch", "-qq", "docs.jsonl", "--text-field", "body"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn the_summary_says_in_words_where_candidates_came_from_and_which_were_scored() {
    let dir = corpus_dir();
    std::fs::write(
        dir.path().join("corpus/latin1.txt"),
        b"Caf\xe9 cr\xe8me is good. It is.",
    )
    .unwrap();
    let o = slst_in(
        dir.path(),
        &["batch", "--mode", "paper", "corpus", "--out", "p.jsonl"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(
            "candidate pairs: 1 (documents sharing a run of sentences, from the suffix array); \
             0 scored, 1 ruled out unscored (a bound on their score, or what their sketches hold, shows the rule cannot keep them)"
        ),
        "{err}"
    );
    assert!(
        err.contains("documents: 6 read (1 not UTF-8, decoded as Windows-1252)"),
        "{err}"
    );
    let o = slst_in(
        dir.path(),
        &[
            "batch",
            "--mode",
            "paper",
            "corpus",
            "--candidates",
            "all",
            "--out",
            "p.jsonl",
        ],
    );
    assert!(
        stderr(&o).contains(
            "candidate pairs: 10 (every pair of documents with something to compare); all 10 scored"
        ),
        "{}",
        stderr(&o)
    );
}
