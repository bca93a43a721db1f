//! The JSON Schemas of `docs/schemas/` against real output: every record kind slst writes as
//! JSON, produced by the binary on shipped corpora, validated line by line.

#![cfg(all(feature = "cli", feature = "index"))]

mod common;
use std::path::Path;

use common::{repo, slst_in, stderr};

/// The schemas, compiled once per test.
struct Schemas {
    schemas: boon::Schemas,
    compiler: boon::Compiler,
}

impl Schemas {
    fn new() -> Self {
        Schemas {
            schemas: boon::Schemas::new(),
            compiler: boon::Compiler::new(),
        }
    }

    /// The schema `docs/schemas/<name>.schema.json`.
    fn get(&mut self, name: &str) -> boon::SchemaIndex {
        let path = repo().join(format!("docs/schemas/{name}.schema.json"));
        let path = path.to_str().unwrap();
        self.compiler
            .compile(path, &mut self.schemas)
            .unwrap_or_else(|e| panic!("{name}: {e:#}"))
    }

    /// Whether `value` is valid under the schema `name`, and why not.
    fn check(&mut self, name: &str, value: &serde_json::Value) -> Result<(), String> {
        let schema = self.get(name);
        self.schemas
            .validate(value, schema)
            .map_err(|e| format!("{e:#}"))
    }

    /// Every line of `text` (JSON lines), or `text` as one document, is valid under `name`;
    /// returns how many records were checked.
    fn validate(&mut self, name: &str, text: &str, lines: bool) -> usize {
        let records: Vec<&str> = if lines {
            text.lines().collect()
        } else {
            vec![text]
        };
        for r in &records {
            let value: serde_json::Value = serde_json::from_str(r).unwrap();
            if let Err(e) = self.check(name, &value) {
                panic!("{name}: {e}\n{r}");
            }
        }
        records.len()
    }
}

/// Run slst in `dir`; its standard output.
fn run(dir: &Path, args: &[&str]) -> String {
    let o = slst_in(dir, args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

const CLOUGH: &str = "corpora/clough-short-answers/corpus-20090418";

#[test]
fn batch_pairs_groups_and_summaries_follow_their_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let clough = repo().join(CLOUGH);
    let clough = clough.to_str().unwrap();
    // A copy of a Clough answer, so that there is an exact group besides the near-exact ones.
    let copies = d.join("copies");
    std::fs::create_dir(&copies).unwrap();
    for name in ["g0pA_taskb.txt", "orig_taskb.txt"] {
        std::fs::copy(repo().join("corpora/clough").join(name), copies.join(name)).unwrap();
    }
    std::fs::copy(
        repo().join("corpora/clough/orig_taskb.txt"),
        copies.join("again.txt"),
    )
    .unwrap();
    let copies = copies.to_str().unwrap();
    let mut s = Schemas::new();
    let (mut pairs, mut groups) = (0, 0);
    for (source, extra) in [
        (clough, &[][..]),
        (clough, &["--blocks"]),
        (clough, &["--mode", "paper", "--blocks"]),
        (clough, &["--templates", "report", "--blocks"]),
        (
            clough,
            &["--method", "shingle", "--blocks", "--threshold", "0.3"],
        ),
        (clough, &["--containment", "0.8"]),
        (clough, &["--min-shared-words", "30", "--blocks"]),
        (clough, &["--stopwords", "auto", "--blocks"]),
        (copies, &["--method", "md5"]),
        (copies, &["--blocks", "--group-pairs"]),
    ] {
        let mut args = vec![
            "batch",
            source,
            "-q",
            "--out",
            "p.jsonl",
            "--summary",
            "s.json",
        ];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--groups", "g.jsonl"]);
        run(d, &args);
        pairs += s.validate("pair", &read(d, "p.jsonl"), true);
        s.validate("batch-summary", &read(d, "s.json"), false);
        groups += s.validate("group", &read(d, "g.jsonl"), true);
    }
    assert!(
        pairs > 150 && groups >= 10,
        "{pairs} pairs, {groups} groups checked"
    );
}

#[test]
fn web_page_summaries_with_boilerplate_and_notes_follow_the_schema() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let web = repo().join("corpora/web-mirror/pages");
    run(
        d,
        &[
            "batch",
            web.to_str().unwrap(),
            "-q",
            "--out",
            "p.jsonl",
            "--summary",
            "s.json",
            "--drop-boilerplate",
            "--method",
            "blocks-md5",
            "--blocks",
        ],
    );
    let summary = read(d, "s.json");
    let v: serde_json::Value = serde_json::from_str(&summary).unwrap();
    assert!(
        v["boilerplate_blocks"]
            .as_array()
            .is_some_and(|b| !b.is_empty())
    );
    let mut s = Schemas::new();
    s.validate("batch-summary", &summary, false);
    assert!(s.validate("pair", &read(d, "p.jsonl"), true) > 5);
}

#[test]
fn compare_eval_query_and_index_output_follow_their_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let file = |p: &str| repo().join(p).to_str().unwrap().to_string();
    let (a, b) = (
        file("corpora/clough/g0pA_taskb.txt"),
        file("corpora/clough/orig_taskb.txt"),
    );
    let mut s = Schemas::new();
    for extra in [
        &[][..],
        &["--mode", "paper"],
        &["--containment", "0.5"],
        &["--method", "all"],
        &["--method", "spotsigs"],
        &["--method", "all", "--stopwords", "auto"],
    ] {
        let mut args = vec!["compare", "--json", &a, &b];
        args.extend_from_slice(extra);
        s.validate("compare", &run(d, &args), false);
    }
    let clough = file(CLOUGH);
    let truth = file("corpora/truth/clough-pairs.tsv");
    let eval = run(
        d,
        &[
            "eval",
            &clough,
            "--truth",
            &truth,
            "--json",
            "-q",
            "--positive",
            "cut,light,heavy",
            "--method",
            "slst,shingle",
        ],
    );
    s.validate("eval", &eval, false);
    let sample = file("corpora/alignment-sample");
    let alignment = run(
        d,
        &[
            "eval",
            &format!("{sample}/susp"),
            &format!("{sample}/src"),
            "--truth",
            &format!("{sample}/cases.tsv"),
            "--truth-format",
            "alignment",
            "--json",
            "-q",
        ],
    );
    s.validate("eval-alignment", &alignment, false);
    run(d, &["index", "create", "i.db"]);
    run(d, &["index", "add", "i.db", &clough, "-q"]);
    let hits = run(d, &["query", "i.db", &a, &b, "--json"]);
    assert_eq!(s.validate("query", &hits, true), 2);
    let reuse = [
        "query",
        "i.db",
        &a,
        &b,
        "--json",
        "--min-shared-words",
        "20",
    ];
    let reuse = run(d, &reuse);
    assert_eq!(s.validate("query", &reuse, true), 2);
    assert!(reuse.contains("\"passages\""), "{reuse}");
    s.validate(
        "index-stats",
        &run(d, &["index", "stats", "i.db", "--json"]),
        false,
    );
}

/// The schemas tell the records apart: a group record is no pair record, a pair record no
/// group record, and an undocumented field or a wrong type is refused.
#[test]
fn the_schemas_refuse_what_slst_does_not_write() {
    let mut s = Schemas::new();
    let pair = serde_json::json!({"a": "x", "b": "y", "method": "slst", "resemblance": 0.5,
        "containment_a": 1.0, "containment_b": null, "block_count": 1, "matched_sentences": 2,
        "decided_by": "resemblance", "condition": "resemblance"});
    let group = serde_json::json!({"group": 1, "method": "slst", "kind": "exact", "size": 2,
        "min_resemblance": 1.0, "documents": ["x", "y"]});
    assert_eq!(s.check("pair", &pair), Ok(()));
    assert_eq!(s.check("group", &group), Ok(()));
    assert!(s.check("pair", &group).is_err());
    assert!(s.check("group", &pair).is_err());
    let mut extra = pair.clone();
    extra["score"] = 1.into();
    assert!(s.check("pair", &extra).is_err());
    let mut wrong = pair.clone();
    wrong["resemblance"] = "0.5".into();
    assert!(s.check("pair", &wrong).is_err());
    let mut unnamed = pair.clone();
    unnamed["decided_by"] = "luck".into();
    assert!(s.check("pair", &unnamed).is_err());
    let mut unfolded = pair.clone();
    unfolded["condition"] = "figures-in-documents".into();
    assert!(s.check("pair", &unfolded).is_err());
    unfolded.as_object_mut().unwrap().remove("condition");
    assert!(s.check("pair", &unfolded).is_err());
    let mut lone = pair.clone();
    lone.as_object_mut().unwrap().remove("matched_sentences");
    assert!(s.check("pair", &lone).is_err());
    // The lists chosen with `auto` come as a pair.
    let mut auto = pair;
    auto["stopwords_a"] = "ru-nltk-151".into();
    assert!(s.check("pair", &auto).is_err());
    auto["stopwords_b"] = "en-nltk-179".into();
    assert_eq!(s.check("pair", &auto), Ok(()));
}

/// The schemas list exactly the names of `decided_by` and `condition` the library writes.
#[test]
fn the_schemas_name_every_condition_that_decides_a_pair() {
    let common: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("docs/schemas/common.schema.json")).unwrap(),
    )
    .unwrap();
    let listed = |def: &str| -> Vec<String> {
        let values = common["$defs"][def]["enum"].as_array().unwrap();
        values
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    let checks = slst::method::DecidedBy::ALL.map(|d| d.name().to_string());
    let conditions = slst::method::Condition::ALL.map(|c| c.name().to_string());
    assert_eq!(listed("decided_by"), checks);
    assert_eq!(listed("condition"), conditions);
}
