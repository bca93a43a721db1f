//! CLI tests of web input: `slst blocks`, `compare` on HTML, `batch` and `eval` on WARC files
//! (built here from the real fixture pages, gzip'd and not), and damaged WARC records.

#![cfg(feature = "cli")]

mod common;

use std::io::Write;
use std::path::Path;

use common::{slst, slst_in, stderr, stdout};

const FIXTURES: &str = "corpora/web-fixtures/python-3.11";
const PAGES: &[&str] = &[
    "about.html",
    "bugs.html",
    "library/copy.html",
    "library/copyreg.html",
    "library/keyword.html",
];

fn fixture(name: &str) -> String {
    std::fs::read_to_string(common::repo().join(FIXTURES).join(name)).unwrap()
}

/// One WARC response record for `html` at `uri`; `declared` overrides the Content-Length.
fn record(uri: &str, html: &str, declared: Option<usize>) -> Vec<u8> {
    let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}");
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\nWARC-Record-ID: <urn:uuid:{:08}>\r\nContent-Length: {}\r\n\r\n",
        uri.len(),
        declared.unwrap_or(http.len())
    )
    .into_bytes();
    r.extend_from_slice(http.as_bytes());
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn request(uri: &str) -> Vec<u8> {
    let http = format!("GET {uri} HTTP/1.1\r\n\r\n");
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: request\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    r.extend_from_slice(http.as_bytes());
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn uri(page: &str) -> String {
    format!("https://docs.python.org/3.11/{page}")
}

/// Every fixture page twice (the second copy under `/mirror/`), with request records between.
fn crawl() -> Vec<u8> {
    let mut out = Vec::new();
    for p in PAGES {
        out.extend(request(&uri(p)));
        out.extend(record(&uri(p), &fixture(p), None));
    }
    for p in PAGES {
        out.extend(record(&uri(&format!("mirror/{p}")), &fixture(p), None));
    }
    out
}

fn gzip_per_record(records: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in records {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(r).unwrap();
        out.extend(gz.finish().unwrap());
    }
    out
}

/// Run `slst batch SOURCE --method METHOD` quietly in `dir`; it must succeed; its summary.
fn batch_summary(dir: &Path, source: &str, method: &str) -> serde_json::Value {
    let out = slst_in(
        dir,
        &[
            "batch",
            source,
            "--method",
            method,
            "--summary",
            "s.json",
            "-q",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_slice(&std::fs::read(dir.join("s.json")).unwrap()).unwrap()
}

#[test]
fn blocks_shows_a_page_in_extraction_order() {
    let out = slst(&[
        "blocks",
        &format!("{FIXTURES}/library/copy.html"),
        "--preset",
        "8-12",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("4054 characters of visible text in 4 blocks (preset 8-12)"),
        "{text}"
    );
    let rows: Vec<&str> = text.lines().filter(|l| l.contains("html>body")).collect();
    assert_eq!(rows.len(), 4, "{text}");
    assert!(rows[0].contains("19.128") && rows[0].ends_with("section#module-copy"));
    assert!(text.contains("copy — Shallow and deep copy operations¶"));
    let out = slst(&["blocks", "--json", &format!("{FIXTURES}/about.html")]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["preset"], "3-7");
    assert_eq!(v["blocks"][0]["chars"], 1068);
    assert_eq!(v["blocks"][0]["ranges"][0][0], 273);
    assert_eq!(v["blocks"][1]["path"], "html>body");
}

#[test]
fn blocks_of_a_text_file_is_an_error_naming_it() {
    let out = slst(&[
        "blocks",
        "--format",
        "text",
        "corpora/clough/orig_taskb.txt",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("orig_taskb.txt: not a web page"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn compare_html_pages_with_every_method() {
    let a = format!("{FIXTURES}/library/copy.html");
    let b = format!("{FIXTURES}/library/copyreg.html");
    let out = slst(&[
        "compare", "--method", "all", "--json", "--preset", "8-12", &a, &b,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let by_name = |n: &str| {
        v.as_array()
            .unwrap()
            .iter()
            .find(|r| r["method"] == n)
            .unwrap_or_else(|| panic!("{n} missing"))
            .clone()
    };
    assert_eq!(by_name("blocks-md5")["resemblance"], 0.0);
    assert_eq!(by_name("blocks-shingle")["resemblance"], 0.625);
    assert_eq!(by_name("blocks-shingle")["evidence"]["blocks_a"], 4);
    // The default method on pages reads the blocks: spans are offsets into the visible text.
    let out = slst(&["compare", "--json", &a, &a]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["resemblance"], 1.0);
}

#[test]
fn batch_over_a_warc_finds_the_mirrored_pages_plain_and_gzipped() {
    let dir = tempfile::tempdir().unwrap();
    let plain = crawl();
    std::fs::write(dir.path().join("crawl.warc"), &plain).unwrap();
    let mut records = Vec::new();
    for p in PAGES {
        records.push(request(&uri(p)));
        records.push(record(&uri(p), &fixture(p), None));
    }
    for p in PAGES {
        records.push(record(&uri(&format!("mirror/{p}")), &fixture(p), None));
    }
    std::fs::write(dir.path().join("crawl.warc.gz"), gzip_per_record(&records)).unwrap();
    for (file, method) in [
        ("crawl.warc", "blocks-md5"),
        ("crawl.warc.gz", "blocks-md5"),
        ("crawl.warc.gz", "slst"),
        ("crawl.warc", "specialchars"),
    ] {
        let out = slst_in(
            dir.path(),
            &[
                "batch",
                file,
                "--method",
                method,
                "--summary",
                "s.json",
                "--threshold",
                "0.99",
            ],
        );
        assert!(out.status.success(), "{file} {method}: {}", stderr(&out));
        let pairs: Vec<serde_json::Value> = stdout(&out)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let mut got: Vec<(String, String)> = pairs
            .iter()
            .map(|p| {
                (
                    p["a"].as_str().unwrap().into(),
                    p["b"].as_str().unwrap().into(),
                )
            })
            .collect();
        got.sort();
        let mut want: Vec<(String, String)> = PAGES
            .iter()
            .map(|p| (uri(p), uri(&format!("mirror/{p}"))))
            .collect();
        want.sort();
        assert_eq!(got, want, "{file} {method}");
        let summary: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("s.json")).unwrap()).unwrap();
        assert_eq!(summary["documents_read"], 10);
        assert_eq!(
            summary["skipped"][0]["reason"],
            "5 records are not HTML pages and were left out: 5 request records"
        );
    }
}

#[test]
fn damaged_warc_records_are_reported_one_by_one_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        fixture("about.html"),
        fixture("bugs.html"),
        fixture("library/copy.html"),
    );
    let mut warc = record(&uri("a"), &a, None);
    warc.extend(record(&uri("short"), &b, Some(300))); // Content-Length too small
    warc.extend(record(&uri("b"), &b, None));
    warc.extend(record(&uri("long"), &c, Some(c.len() + 5000))); // too large: swallows the next
    warc.extend(record(&uri("c"), &c, None));
    let mut truncated = record(&uri("cut"), &a, None);
    truncated.truncate(truncated.len() / 2);
    warc.extend(truncated);
    std::fs::write(dir.path().join("bad.warc"), &warc).unwrap();
    let summary = batch_summary(dir.path(), "bad.warc", "md5");
    assert_eq!(summary["documents_read"], 3, "{summary}");
    let reasons: Vec<&str> = summary["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons.len(), 3, "{reasons:?}");
    assert!(
        reasons[0].starts_with("wrong Content-Length (300)"),
        "{reasons:?}"
    );
    assert!(
        reasons[1].contains("the next record starts inside it"),
        "{reasons:?}"
    );
    assert!(reasons[2].starts_with("truncated record"), "{reasons:?}");
    assert!(
        summary["skipped"][0]["location"]
            .as_str()
            .unwrap()
            .contains("bad.warc: record 2")
    );
    // A gzip'd WARC cut in the middle of a member: the records before it are read.
    let gz = gzip_per_record(&[record(&uri("a"), &a, None), record(&uri("b"), &b, None)]);
    std::fs::write(dir.path().join("cut.warc.gz"), &gz[..gz.len() - 200]).unwrap();
    let summary = batch_summary(dir.path(), "cut.warc.gz", "md5");
    assert_eq!(summary["documents_read"], 1, "{summary}");
    assert!(
        summary["skipped"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("gzip"),
        "{summary}"
    );
}

#[test]
fn eval_on_a_folder_of_html_with_drop_boilerplate() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir_all(site.join("library")).unwrap();
    let licence = fixture("COPYRIGHT");
    let start = licence.find("1. This LICENSE AGREEMENT").unwrap();
    let notice: String = licence[start..].chars().take(1000).collect();
    for p in PAGES {
        let html = fixture(p).replacen(
            "<body>",
            &format!("<body><div class=licence><p>{notice}</p></div>"),
            1,
        );
        std::fs::write(site.join(p), &html).unwrap();
        let copy = Path::new(p).with_extension("copy.html");
        std::fs::write(site.join(copy), &html).unwrap();
    }
    let truth: String = PAGES
        .iter()
        .map(|p| {
            let copy = Path::new(p).with_extension("copy.html");
            format!("{p}\t{}\t1\n", copy.display())
        })
        .collect();
    std::fs::write(dir.path().join("truth.tsv"), truth).unwrap();
    let out = slst_in(
        dir.path(),
        &[
            "eval",
            "site",
            "--truth",
            "truth.tsv",
            "--json",
            "--drop-boilerplate",
            "--boilerplate-pages",
            "5",
            "--method",
            "md5,blocks-md5,blocks-shingle,specialchars,blocks-specialchars,slst,slst-flat",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["set"]["documents"], 10);
    assert_eq!(
        v["boilerplate_blocks"].as_array().unwrap().len(),
        1,
        "{}",
        v["boilerplate_blocks"]
    );
    assert_eq!(v["boilerplate_blocks"][0]["pages"], 10);
    for m in v["methods"].as_array().unwrap() {
        // Exact copies: every method finds all five at its best threshold.
        assert_eq!(m["best"]["tp"], 5, "{}", m["method"]);
    }
}

#[test]
fn deep_and_empty_pages_are_read_and_noted_in_the_batch_summary() {
    let dir = tempfile::tempdir().unwrap();
    let n = 100_000;
    // The about page, 100,000 levels down.
    std::fs::write(
        dir.path().join("deep.html"),
        format!(
            "<html><body>{}{}{}</body></html>",
            "<div>".repeat(n),
            fixture("about.html"),
            "</div>".repeat(n)
        ),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("empty.html"),
        "<!DOCTYPE html><html><head><title>Nothing</title></head><body><img src=x></body></html>",
    )
    .unwrap();
    std::fs::write(dir.path().join("about.html"), fixture("about.html")).unwrap();
    let summary = batch_summary(dir.path(), ".", "blocks-md5");
    assert_eq!(summary["documents_read"], 3);
    let notes = summary["page_notes"].as_array().unwrap();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert_eq!(notes[0]["id"], "deep.html");
    assert!(
        notes[0]["reason"]
            .as_str()
            .unwrap()
            .contains("nested more than 4096 levels")
    );
    assert_eq!(notes[1]["id"], "empty.html");
    assert!(
        notes[1]["reason"]
            .as_str()
            .unwrap()
            .starts_with("no visible text")
    );
    // --max-blocks caps the count; the last block is the root with the rest.
    let out = slst(&[
        "blocks",
        "--json",
        "--preset",
        "8-12",
        "--max-blocks",
        "2",
        &format!("{FIXTURES}/library/copy.html"),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["blocks"].as_array().unwrap().len(), 2);
    assert_eq!(v["blocks"][1]["path"], "html");
    assert_eq!(v["blocks"][1]["chars"], 4054 - 2909);
}

/// The labelled LLVM manual pages (`corpora/web-versions/`): a page of one version and of the
/// next.
const VERSIONS: &str = "corpora/web-versions/pages";

#[test]
fn the_3_7_preset_cuts_an_llvm_page_into_the_article_and_the_rest() {
    // Read literally (natural log; l and p the text left in the subtree and in its parent's
    // subtree after earlier cuts; html at depth 1), the weights leave this page in 2 blocks with
    // the 3–7 preset and 5 with the 8–12 one (results/web/README.md).
    let page = format!("{VERSIONS}/llvm-13.0.1/CommandGuide/llvm-as.html");
    let blocks = |preset: &str| -> serde_json::Value {
        let out = slst(&["blocks", &page, "--preset", preset, "--json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["blocks"].clone()
    };
    let b = blocks("3-7");
    assert_eq!(b.as_array().unwrap().len(), 2, "{b}");
    assert_eq!(
        b[0]["path"],
        "html>body>div.document>div.documentwrapper>div.bodywrapper>div.body>section#llvm-as-llvm-assembler"
    );
    assert_eq!(b[0]["chars"], 1321);
    assert_eq!(b[1]["path"], "html>body");
    assert_eq!(b[1]["chars"], 535);
    // body, once the article is out: l = 535, p = 535 (html holds nothing else), d = 2.
    let w = 535.0 / 536.0 * (0.15f64 * 535.0).ln() * (1.93f64 * 2.0 + 4.07).ln();
    assert!((b[1]["weight"].as_f64().unwrap() - w).abs() < 1e-9, "{w}");
    // The sidebar it beats: l = 233 of its parent's 233, d = 4 (8.73 < 9.06).
    let sidebar = 233.0 / 234.0 * (0.15f64 * 233.0).ln() * (1.93f64 * 4.0 + 4.07).ln();
    assert!(sidebar < w);
    let b = blocks("8-12");
    let paths: Vec<&str> = b
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths[1..],
        [
            "html>body>div.sphinxsidebar>div.sphinxsidebarwrapper",
            "html>body>div.related>ul",
            "html>body>div.related>ul",
            "html>body"
        ]
    );
}

#[test]
fn eval_on_llvm_versions_blocks_md5_finds_what_md5_misses() {
    // Two pages in LLVM 13.0.1 and 16.0.6 (one lightly, one heavily revised by their main text):
    // the version string and the neighbours' titles in the template make every page's MD5
    // differ, while with the 3–7 preset the article block of each pair is the same, and the
    // fuzzy block similarity of a pair is then 0.5 (one of two blocks on each side matches).
    let dir = tempfile::tempdir().unwrap();
    let pages = ["AMDGPU/gfx10_label.html", "AMDGPU/gfx10_tgt.html"];
    let mut truth = String::from("id_a\tid_b\tlabel\n");
    for (p, kind) in pages.iter().zip(["light", "heavy"]) {
        for v in ["llvm-13.0.1", "llvm-16.0.6"] {
            let to = dir.path().join("pages").join(v).join(p);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(common::repo().join(VERSIONS).join(v).join(p), &to).unwrap();
        }
        truth.push_str(&format!("llvm-13.0.1/{p}\tllvm-16.0.6/{p}\t{kind}\n"));
    }
    std::fs::write(dir.path().join("truth.tsv"), truth).unwrap();
    let out = slst_in(
        dir.path(),
        &[
            "eval",
            "pages",
            "--truth",
            "truth.tsv",
            "--positive",
            "light,heavy",
            "--method",
            "md5,blocks-md5",
            "--json",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["set"]["universe"], 6);
    assert_eq!(v["set"]["positives"], 2);
    let at = |method: &str, theta: f64| -> serde_json::Value {
        let m = v["methods"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["method"] == method)
            .unwrap();
        m["sweep"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| (p["threshold"].as_f64().unwrap() - theta).abs() < 1e-9)
            .unwrap()
            .clone()
    };
    assert_eq!(at("md5", 0.05)["reported"], 0);
    let half = at("blocks-md5", 0.5);
    assert_eq!(
        (half["tp"].as_u64(), half["fp"].as_u64()),
        (Some(2), Some(0))
    );
    assert_eq!(at("blocks-md5", 0.55)["reported"], 0);
}
