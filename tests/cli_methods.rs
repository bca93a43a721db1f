//! End-to-end tests of `slst compare --method NAME|all` and `slst sketch`: the shared JSON
//! schema, the side-by-side table, the published examples from the command line, and errors.

#![cfg(feature = "cli")]

mod common;
use common::{slst, stderr, stdout};

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{Value, json};

const METHODS: [&str; 12] = [
    "slst",
    "shingle",
    "megashingle",
    "polyhash",
    "spotsigs",
    "sentlen",
    "md5",
    "slst-flat",
    "blocks-md5",
    "blocks-shingle",
    "specialchars",
    "blocks-specialchars",
];

const CUT: &str = "corpora/clough/g0pA_taskb.txt";
const SOURCE: &str = "corpora/clough/orig_taskb.txt";

fn ok(args: &[&str]) -> Output {
    let o = slst(args);
    assert!(
        o.status.success(),
        "slst {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn json_of(args: &[&str]) -> Value {
    serde_json::from_slice(&ok(args).stdout).expect("one JSON value")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn every_method_prints_the_shared_top_level_schema() {
    for method in METHODS {
        let v = json_of(&["compare", "--json", "--method", method, CUT, SOURCE]);
        assert_eq!(v["method"], method);
        let r = v["resemblance"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&r), "{method}: {r}");
        assert!(v["duplicate"].is_boolean(), "{method}");
        assert_eq!(v["a"]["id"], CUT, "{method}");
        assert_eq!(v["b"]["id"], SOURCE, "{method}");
        for field in ["containment_a", "containment_b"] {
            let c = &v[field];
            assert!(c.is_f64() || c.is_null(), "{method}: {field} = {c}");
            if c.is_null() {
                assert!(
                    v["note"].is_string(),
                    "{method}: null {field} without a note"
                );
            }
        }
        assert_eq!(
            v["schema_version"],
            slst::report::SCHEMA_VERSION,
            "{method}"
        );
        assert!(v["params"].is_object(), "{method}");
        assert!(v["rule"].is_string(), "{method}");
        // Blocks in one place: SL+ST's (in any reading of a page) at the top level, every
        // other method's evidence under `evidence`.
        if method.starts_with("slst") {
            assert!(v["blocks"].is_array(), "{method}");
            assert!(v["matched_sentences"].is_u64(), "{method}");
            assert!(v.get("evidence").is_none(), "{method}");
        } else {
            assert!(v["evidence"].is_object(), "{method}");
            assert!(v.get("blocks").is_none(), "{method}");
        }
    }
}

#[test]
fn containment_is_null_with_a_note_where_undefined() {
    for args in [
        vec!["--method", "megashingle"],
        vec!["--method", "md5"],
        vec!["--method", "shingle", "--sketch", "min"],
    ] {
        let mut all = vec!["compare", "--json"];
        all.extend(&args);
        all.extend([CUT, SOURCE]);
        let v = json_of(&all);
        assert!(
            v["containment_a"].is_null() && v["containment_b"].is_null(),
            "{args:?}"
        );
        assert!(
            v["note"].as_str().unwrap().contains("not defined"),
            "{args:?}: {}",
            v["note"]
        );
    }
}

#[test]
fn method_slst_is_byte_for_byte_the_default() {
    for json in [false, true] {
        let mut plain = vec!["compare"];
        let mut named = vec!["compare", "--method", "slst"];
        if json {
            plain.push("--json");
            named.push("--json");
        }
        plain.extend([CUT, SOURCE]);
        named.extend([CUT, SOURCE]);
        assert_eq!(ok(&plain).stdout, ok(&named).stdout);
    }
}

#[test]
fn method_all_prints_one_table_with_every_method() {
    let out = stdout(&ok(&[
        "compare", "--mode", "paper", "--method", "all", CUT, SOURCE,
    ]));
    let header = out.lines().find(|l| l.starts_with("method")).unwrap();
    for column in ["resemblance", "A in B", "B in A", "duplicate", "rule"] {
        assert!(header.contains(column), "{out}");
    }
    for method in METHODS {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(method))
            .unwrap_or_else(|| panic!("no line for {method}:\n{out}"));
        assert!(line.contains(" no "), "{line}");
    }
    // SL+ST's figures from its own report, and "—" where a method has no containment.
    let slst_line = out.lines().find(|l| l.starts_with("slst ")).unwrap();
    let fields: Vec<&str> = slst_line.split_whitespace().collect();
    assert_eq!(fields[1..4], ["0.1852", "0.6250", "0.2083"], "{out}");
    let mega = out.lines().find(|l| l.starts_with("megashingle")).unwrap();
    assert!(
        mega.contains('—') && mega.contains("≥ 1 equal megashingle"),
        "{mega}"
    );
}

#[test]
fn method_all_json_is_the_array_of_per_method_records() {
    let v = json_of(&["compare", "--json", "--method", "all", CUT, SOURCE]);
    let records = v.as_array().unwrap();
    let names: Vec<&str> = records
        .iter()
        .map(|r| r["method"].as_str().unwrap())
        .collect();
    assert_eq!(names, METHODS);
    for (method, record) in METHODS.iter().zip(records) {
        let alone = json_of(&["compare", "--json", "--method", method, CUT, SOURCE]);
        assert_eq!(record, &alone, "{method}");
    }
}

#[test]
fn threshold_flags_pick_per_method_then_global_then_default() {
    let v = json_of(&["compare", "--json", "--method", "shingle", CUT, SOURCE]);
    assert_eq!(v["params"]["threshold"], 0.5);
    assert_eq!(v["duplicate"], false);
    let v = json_of(&[
        "compare",
        "--json",
        "--method",
        "shingle",
        "--threshold",
        "0.3",
        CUT,
        SOURCE,
    ]);
    assert_eq!(
        (v["params"]["threshold"].clone(), v["duplicate"].clone()),
        (json!(0.3), json!(true))
    );
    let v = json_of(&[
        "compare",
        "--json",
        "--method",
        "shingle",
        "--threshold",
        "0.3",
        "--shingle-threshold",
        "0.9",
        CUT,
        SOURCE,
    ]);
    assert_eq!(v["params"]["threshold"], 0.9);
    let v = json_of(&["compare", "--json", "--method", "spotsigs", CUT, SOURCE]);
    assert_eq!(v["params"]["threshold"], 0.85);
    assert_eq!(v["rule"], "J ≥ 0.85");
}

#[test]
fn human_report_of_a_baseline_shows_scores_rule_evidence_and_settings() {
    let out = stdout(&ok(&["compare", "--method", "shingle", CUT, SOURCE]));
    assert!(out.contains("method               shingle"), "{out}");
    assert!(out.contains("resemblance J        0.3522"), "{out}");
    assert!(out.contains("duplicate (J ≥ 0.5): no"), "{out}");
    assert!(out.contains("shingles_a"), "{out}");
    assert!(
        out.contains("settings: shingle_size 4, hash rabin"),
        "{out}"
    );
    let out = stdout(&ok(&["compare", "--method", "md5", CUT, CUT]));
    assert!(out.contains("containment A in B   undefined"), "{out}");
    assert!(out.contains("duplicate (equal digests): yes"), "{out}");
}

#[test]
fn broder_rose_example_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.txt", "a rose is a rose is a rose");
    let b = write(dir.path(), "b.txt", "a rose is a flower which is a rose");
    for (w, want) in [("1", 0.6), ("2", 0.5), ("3", 3.0 / 7.0)] {
        let v = json_of(&[
            "compare",
            "--json",
            "--method",
            "shingle",
            "--stopwords",
            "none",
            "--shingle-size",
            w,
            a.to_str().unwrap(),
            b.to_str().unwrap(),
        ]);
        assert_eq!(v["resemblance"].as_f64(), Some(want), "w = {w}");
    }
}

#[test]
fn seed_001_fingerprints_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let quote = write(
        dir.path(),
        "belinsky.txt",
        "«Разум дан человеку для того, чтобы он разумно жил, а не для того только, чтобы он \
         понимал, что он неразумно живет.»\n",
    );
    let v = json_of(&[
        "sketch",
        "--json",
        "--method",
        "shingle",
        "--hash",
        "crc32",
        "--shingle-size",
        "10",
        "--stopwords",
        "corpora/stopwords/ru-shingle-blog-2009.txt",
        quote.to_str().unwrap(),
    ]);
    assert_eq!(v["method"], "shingle");
    assert_eq!(
        v["fingerprints"],
        json!([1313803605u64, 3217022851u64, 2285677181u64, 1772759749u64])
    );
}

#[test]
fn seed_003_example_from_the_command_line() {
    // The article's canonical strings as files; no stop words, no stemming: they are already
    // canonical.
    let dir = tempfile::tempdir().unwrap();
    let bbc = write(
        dir.path(),
        "bbc.txt",
        "englandsuffertheirworsthumilisintheyknockout1950worldcupbyusainbrazilasicelandshocktheminalstof16euro2016",
    );
    let cnn = write(
        dir.path(),
        "cnn.txt",
        "icelandpulloffoneofmostastonishresultinhistoriofeuropeanfootballonmondayknockenglandoutofeuro2016final",
    );
    let v = json_of(&[
        "compare",
        "--json",
        "--method",
        "polyhash",
        "--stopwords",
        "none",
        "--stemmer",
        "none",
        bbc.to_str().unwrap(),
        cnn.to_str().unwrap(),
    ]);
    assert_eq!(v["evidence"]["shared"], 8);
    assert_eq!(v["evidence"]["union"], 188);
    assert_eq!(v["resemblance"].as_f64(), Some(8.0 / 188.0));
}

#[test]
fn sketch_shows_what_each_method_keeps() {
    let v = json_of(&["sketch", "--json", "--method", "megashingle", CUT]);
    assert_eq!(v["minima"].as_array().unwrap().len(), 84);
    assert_eq!(v["supershingles"].as_array().unwrap().len(), 6);
    assert_eq!(v["megashingles"].as_array().unwrap().len(), 15);
    let v = json_of(&["sketch", "--json", "--method", "shingle", CUT]);
    assert_eq!(v["fingerprints"].as_array().unwrap().len(), 117);
    let v = json_of(&["sketch", "--json", "--method", "spotsigs", CUT]);
    assert_eq!(v["total"], 29);
    assert!(v["signatures"][0]["count"].is_u64());
    let v = json_of(&["sketch", "--json", "--method", "sentlen", CUT]);
    assert_eq!(v["length_string"], "peae8dgk");
    assert_eq!(v["features"].as_array().unwrap().len(), 6);
    let v = json_of(&["sketch", "--json", "--method", "polyhash", CUT]);
    assert!(
        v["canonical"]
            .as_str()
            .unwrap()
            .starts_with("pageranklinkanalysi")
    );
    let v = json_of(&["sketch", "--json", "--method", "md5", CUT]);
    assert_eq!(v["digest"].as_str().unwrap().len(), 32);
    let v = json_of(&["sketch", "--mode", "paper", "--json", CUT]);
    assert_eq!(
        (v["method"].as_str(), v["length_string"].as_str()),
        (Some("slst"), Some("peae8dgk"))
    );
    let out = stdout(&ok(&["sketch", "--method", "megashingle", CUT]));
    assert!(
        out.contains("minima (84):") && out.contains("megashingles (15):"),
        "{out}"
    );
}

#[test]
fn unknown_method_and_impossible_settings_are_errors() {
    let o = slst(&["compare", "--method", "simhash", CUT, SOURCE]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("--method") && err.contains("no method \"simhash\""),
        "{err}"
    );
    let o = slst(&["sketch", "--method", "all", CUT]);
    assert_eq!(o.status.code(), Some(2));
    let o = slst(&[
        "compare",
        "--method",
        "shingle",
        "--sketch",
        "min",
        "--measure",
        "containment",
        CUT,
        SOURCE,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--measure = containment"),
        "{}",
        stderr(&o)
    );
    let o = slst(&[
        "compare",
        "--method",
        "shingle",
        "--containment",
        "0.5",
        CUT,
        SOURCE,
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = slst(&[
        "compare",
        "--method",
        "polyhash",
        "--poly-moduli",
        "12,1000000009",
        CUT,
        SOURCE,
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = slst(&[
        "compare",
        "--method",
        "polyhash",
        "--stemmer",
        "klingon",
        CUT,
        SOURCE,
    ]);
    assert_eq!(o.status.code(), Some(2));
    // Settings are checked before the files are read.
    let o = slst(&[
        "compare",
        "--method",
        "sentlen",
        "--sentlen-k",
        "0",
        "no/such/a",
        "no/such/b",
    ]);
    assert!(stderr(&o).contains("--sentlen-k = 0"), "{}", stderr(&o));
}

#[test]
fn identical_files_are_duplicates_for_every_method() {
    let v = json_of(&["compare", "--json", "--method", "all", SOURCE, SOURCE]);
    for record in v.as_array().unwrap() {
        assert_eq!(record["resemblance"], 1.0, "{}", record["method"]);
        assert_eq!(record["duplicate"], true, "{}", record["method"]);
    }
}
