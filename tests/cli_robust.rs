//! End-to-end tests of `--mode robust`: compare, batch (index = all pairs) and eval.

#![cfg(feature = "cli")]

mod common;
use common::{repo, slst, slst_in, stdout};

#[test]
fn compare_robust_json_names_the_mode_and_gives_spans() {
    let o = slst(&[
        "compare",
        "--mode",
        "robust",
        "--json",
        "corpora/clough/g0pA_taskb.txt",
        "corpora/clough/orig_taskb.txt",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    // One method in two modes: the name is the method's, the mode is a setting.
    assert_eq!(v["method"], "slst");
    assert_eq!(v["params"]["mode"], "robust");
    assert!(v.get("evidence").is_none());
    // The whole answer sits in the article (paper mode finds 5 of its 8 sentences).
    assert_eq!(v["containment_a"], 1.0);
    let a = std::fs::read_to_string(repo().join("corpora/clough/g0pA_taskb.txt")).unwrap();
    let b = std::fs::read_to_string(repo().join("corpora/clough/orig_taskb.txt")).unwrap();
    // Blocks where paper mode puts them, with its fields and the smallest term similarity.
    let blocks = v["blocks"].as_array().unwrap();
    assert!(!blocks.is_empty());
    let matched: u64 = blocks.iter().map(|b| b["len"].as_u64().unwrap()).sum();
    assert_eq!(v["matched_sentences"], matched);
    assert_eq!(v["a"]["sentences"], matched);
    for block in blocks {
        assert!(block["a_opening"].is_string() && block["b_opening"].is_string());
        assert!(block["min_term_similarity"].as_f64().unwrap() > 0.0);
        let span = |side: &str| {
            let s = block[side].as_array().unwrap();
            s[0].as_u64().unwrap() as usize..s[1].as_u64().unwrap() as usize
        };
        // Cut-and-paste: each block's two spans hold the same words (the answer's copy has
        // stray `?` after some words and other line breaks).
        let words = |t: &str| {
            t.split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(words(&a[span("a_span")]), words(&b[span("b_span")]));
    }
}

#[test]
fn the_default_mode_is_robust_and_paper_mode_is_the_published_method() {
    let args = [
        "compare",
        "--json",
        "corpora/clough/g0pA_taskb.txt",
        "corpora/clough/orig_taskb.txt",
    ];
    let default = stdout(&slst(&args));
    let mut with_mode = args.to_vec();
    with_mode.extend(["--mode", "robust"]);
    assert_eq!(default, stdout(&slst(&with_mode)));
    let v: serde_json::Value = serde_json::from_str(&default).unwrap();
    assert_eq!(v["params"]["mode"], "robust");
    // The answer lies whole in the article: a near-duplicate by containment.
    assert_eq!(v["matched_sentences"], 9);
    assert_eq!(v["duplicate"], true);
    let mut paper = args.to_vec();
    paper.extend(["--mode", "paper"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&slst(&paper))).unwrap();
    assert_eq!(v["params"]["mode"], "paper");
    assert_eq!(v["matched_sentences"], 5);
    assert_eq!(v["duplicate"], false);
}

#[test]
fn robust_batch_index_equals_all_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let clough = repo().join("corpora/clough-short-answers/corpus-20090418");
    let run = |candidates: &str, out: &str| {
        let o = slst_in(
            dir.path(),
            &[
                "batch",
                clough.to_str().unwrap(),
                "--mode",
                "robust",
                "--threshold",
                "0.2",
                "--blocks",
                "--candidates",
                candidates,
                "--out",
                out,
                "--summary",
                "summary.json",
                "-q",
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(dir.path().join(out)).unwrap()
    };
    let index = run("index", "index.jsonl");
    assert_eq!(index, run("all", "all.jsonl"));
    assert!(index.lines().count() > 10);
    // Pair records as paper mode writes them, blocks with their term similarity.
    let first: serde_json::Value = serde_json::from_str(index.lines().next().unwrap()).unwrap();
    assert_eq!(first["method"], "slst");
    assert!(first["block_count"].as_u64().unwrap() >= 1);
    assert!(first["blocks"][0]["min_term_similarity"].is_f64());
    // The summary says which mode ran.
    let summary = std::fs::read_to_string(dir.path().join("summary.json")).unwrap();
    let summary: serde_json::Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(summary["params"]["mode"], "robust");
}

#[test]
fn eval_reports_both_modes_side_by_side() {
    let o = slst(&[
        "eval",
        "corpora/clough-short-answers/corpus-20090418",
        "--universe",
        "listed",
        "--truth",
        "corpora/truth/clough-pairs.tsv",
        "--positive",
        "cut,light",
        "--method",
        "slst",
        "--mode",
        "paper,robust",
        "--json",
    ]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let methods = v["methods"].as_array().unwrap();
    assert_eq!(methods.len(), 2);
    for (m, mode) in methods.iter().zip(["paper", "robust"]) {
        assert_eq!(
            (m["method"].as_str(), m["mode"].as_str()),
            (Some("slst"), Some(mode))
        );
    }
    let f1 = |i: usize| methods[i]["best"]["f1"].as_f64().unwrap();
    assert!(f1(1) > f1(0) + 0.1, "paper {} robust {}", f1(0), f1(1));
}

/// `--containment θc` decides "A lies in B" in robust mode too: the Clough answer sits whole in
/// its source article, the article is not inside the answer.
#[test]
fn robust_containment_decision_and_bad_settings() {
    let args = |json: bool| {
        let mut a = vec!["compare", "--mode", "robust", "--containment", "0.9"];
        if json {
            a.push("--json");
        }
        a.extend([
            "corpora/clough/g0pA_taskb.txt",
            "corpora/clough/orig_taskb.txt",
        ]);
        slst(&a)
    };
    let o = args(true);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["contained"]["threshold"], 0.9);
    assert_eq!(v["contained"]["a_in_b"], true);
    assert_eq!(v["contained"]["b_in_a"], false);
    // Every unit of the answer lies in the article: a duplicate by the robust decision's own
    // containment rule (`--contained`, 0.8), which a reader shares (one text is part of the
    // other); J alone (`--contained 0`) says no.
    assert_eq!(v["duplicate"], true, "{v}");
    assert!(
        v["rule"].as_str().unwrap().contains("contained ≥ 0.8"),
        "{v}"
    );
    let o = slst(&[
        "compare",
        "--mode",
        "robust",
        "--contained",
        "0",
        "--json",
        "corpora/clough/g0pA_taskb.txt",
        "corpora/clough/orig_taskb.txt",
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["duplicate"], false, "{v}");
    assert_eq!(
        v["rule"],
        "J ≥ 0.5, or a block and the texts' terms J ≥ 0.8; unless figures-differ (shared figures < 0.8, or other figures in 2 places), parties-differ (shared terms < 0.8, or one-sentence documents with other first words or 2 words each the other lacks, or a headline naming what the other lacks), loose-words (word agreement < 0.6; not for the terms' J); shared figures and terms read in the blocks from 8 sentences at J ≥ 0.5"
    );
    let text = stdout(&args(false));
    assert!(text.contains("A contained in B at θc = 0.9: yes"), "{text}");
    assert!(text.contains("B contained in A at θc = 0.9: no"), "{text}");
    // Methods without both containments still refuse the decision.
    let o = slst(&[
        "compare",
        "--method",
        "megashingle",
        "--containment",
        "0.5",
        "corpora/clough/g0pA_taskb.txt",
        "corpora/clough/orig_taskb.txt",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = slst(&[
        "compare",
        "--mode",
        "robust",
        "--term-similarity",
        "0.6",
        "--single-similarity",
        "0.5",
        "corpora/clough/g0pA_taskb.txt",
        "corpora/clough/orig_taskb.txt",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--single-similarity"));
}

#[test]
fn anchor_terms_flag_reaches_the_rule() {
    // J = 3/6 between the two sentences (rain, old, town); x's two longest terms are "flooded"
    // and "heavy", y's are 4-letter words: they match with three anchors, not with two.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.txt"), "Heavy rain flooded the old town.").unwrap();
    std::fs::write(dir.path().join("y.txt"), "Rain fell on the old town.").unwrap();
    let run = |k: &str| {
        let o = slst_in(
            dir.path(),
            &[
                "compare",
                "--mode",
                "robust",
                "--min-block",
                "1",
                "--anchor-terms",
                k,
                "--json",
                "x.txt",
                "y.txt",
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_str::<serde_json::Value>(&stdout(&o)).unwrap()
    };
    for (k, j) in [("0", 1.0), ("2", 0.0), ("3", 1.0)] {
        let v = run(k);
        assert_eq!(v["params"]["anchor_terms"], k.parse::<u64>().unwrap());
        assert_eq!(v["resemblance"], j, "--anchor-terms {k}");
    }
    let o = slst_in(
        dir.path(),
        &[
            "compare",
            "--mode",
            "robust",
            "--anchor-terms",
            "1",
            "x.txt",
            "y.txt",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--anchor-terms"));
}

/// Words of a text, lowercased, punctuation and layout aside.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[test]
fn compare_locates_pasted_passages_to_the_word_on_both_sides() {
    // corpora/alignment-sample: passages of shipped texts pasted into others, one mid-sentence.
    let dir = repo().join("corpora/alignment-sample");
    let truth = std::fs::read_to_string(dir.join("cases.tsv")).unwrap();
    for line in truth.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (a, b) = (dir.join("susp").join(f[0]), dir.join("src").join(f[1]));
        let (ta, tb) = (
            std::fs::read_to_string(&a).unwrap(),
            std::fs::read_to_string(&b).unwrap(),
        );
        let out = slst(&[
            "compare",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--mode",
            "robust",
            "--json",
        ]);
        let r: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let passages = r["passages"].as_array().unwrap();
        // The pasted text, in characters in the truth: find it in B and in A by its words.
        let chars = |t: &str, from: &str, len: &str| -> String {
            let (from, len) = (from.parse().unwrap(), len.parse().unwrap());
            t.chars().skip(from).take(len).collect()
        };
        let pasted = words(&chars(&tb, f[4], f[5]));
        let found = passages.iter().any(|p| {
            let span = |t: &str, k: &str| {
                let s = p[k].as_array().unwrap();
                words(&t[s[0].as_u64().unwrap() as usize..s[1].as_u64().unwrap() as usize])
            };
            let (in_a, in_b) = (span(&ta, "a_span"), span(&tb, "b_span"));
            // Both spans hold the same words, and they include the whole pasted passage.
            in_a == in_b && in_a.windows(pasted.len()).any(|w| w == pasted.as_slice())
        });
        assert!(found, "{line}: {passages:?}");
    }
    // The text report lists them.
    let text = stdout(&slst(&[
        "compare",
        dir.join("susp/suspicious-document00001.txt")
            .to_str()
            .unwrap(),
        dir.join("src/source-document00001.txt").to_str().unwrap(),
        "--mode",
        "robust",
    ]));
    assert!(text.contains("1 reused passage"), "{text}");
}

/// `--templates report`: the pairs the decision refuses as templates come out marked with the
/// reason, in JSON lines and as a TSV column, and join no cluster and no group; by default they
/// are not reported.
#[test]
fn templates_are_dropped_or_reported_as_such() {
    let dir = tempfile::tempdir().unwrap();
    // One estimate for two months (a template), and the March one with a figure corrected.
    let estimate = |yield_now: &str, before: &str, month: &str| {
        format!(
            "ORANGE JUICE YIELD ESTIMATE\n\nThe department projected an average yield of \
             {yield_now} gallons of concentrate per box from the 1986/87 crop.\n    That \
             compares with {before} gallons per box previously and 1.38 gallons per box from \
             the 1985/86 crop.\n    The board said the estimates rest on maturity tests as of \
             {month} 1.\n Reuter\n"
        )
    };
    let docs = dir.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    for (name, text) in [
        ("a-march.txt", estimate("1.47", "1.46", "March")),
        ("b-april.txt", estimate("1.50", "1.47", "April")),
        ("c-march-corrected.txt", estimate("1.47", "1.45", "March")),
    ] {
        std::fs::write(docs.join(name), text).unwrap();
    }
    let run = |extra: &[&str]| {
        let mut args = vec!["batch", "docs", "-q", "--clusters", "clusters.tsv"];
        args.extend_from_slice(extra);
        let o = slst_in(dir.path(), &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let clusters = std::fs::read_to_string(dir.path().join("clusters.tsv")).unwrap();
        (String::from_utf8(o.stdout).unwrap(), clusters)
    };
    let records = |out: &str| -> Vec<serde_json::Value> {
        out.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let (dropped, clusters) = run(&[]);
    let dropped = records(&dropped);
    assert_eq!(dropped.len(), 1, "{dropped:?}");
    assert_eq!(
        (&dropped[0]["a"], &dropped[0]["b"]),
        (&"a-march.txt".into(), &"c-march-corrected.txt".into())
    );
    assert!(dropped[0].get("template").is_none());
    let one_cluster = "cluster_id\tdoc_id\n1\ta-march.txt\n1\tc-march-corrected.txt\n";
    assert_eq!(clusters, one_cluster);

    let (reported, clusters) = run(&["--templates", "report"]);
    let reported = records(&reported);
    let template = |a: &str, b: &str| {
        reported
            .iter()
            .find(|r| r["a"] == a && r["b"] == b)
            .map(|r| r.get("template").cloned())
    };
    assert_eq!(reported.len(), 3, "{reported:?}");
    assert_eq!(template("a-march.txt", "c-march-corrected.txt"), Some(None));
    let reason = serde_json::Value::from(
        "the same words around other figures: one template for another day?",
    );
    assert_eq!(
        template("a-march.txt", "b-april.txt"),
        Some(Some(reason.clone()))
    );
    assert_eq!(
        template("b-april.txt", "c-march-corrected.txt"),
        Some(Some(reason))
    );
    // Templates join no cluster, and no duplicate group.
    assert_eq!(clusters, one_cluster);
    let (_, _) = run(&["--templates", "report", "--groups", "groups.jsonl"]);
    let groups = records(&std::fs::read_to_string(dir.path().join("groups.jsonl")).unwrap());
    assert_eq!(groups.len(), 1, "{groups:?}");
    assert_eq!(
        groups[0]["documents"],
        serde_json::json!(["a-march.txt", "c-march-corrected.txt"])
    );

    // TSV: the column before `decided_by`, empty for a duplicate.
    let (tsv, _) = run(&["--out-format", "tsv", "--templates", "report"]);
    let rows: Vec<Vec<&str>> = tsv.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows[0][8..10], ["template", "decided_by"]);
    assert!(rows.iter().all(|r| r.len() == 13), "{tsv}");
    assert_eq!(
        rows.iter()
            .filter(|r| r[8].starts_with("the same words"))
            .count(),
        2
    );
    // And the summary counts them.
    let o = slst_in(
        dir.path(),
        &[
            "batch",
            "docs",
            "--templates",
            "report",
            "--out",
            "/dev/null",
        ],
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("pairs reported: 3 (2 of them templates)"),
        "{stderr}"
    );
    // `compare` says so too.
    let o = slst_in(&docs, &["compare", "a-march.txt", "b-april.txt"]);
    assert!(
        stdout(&o).contains("duplicate            no (a template)"),
        "{}",
        stdout(&o)
    );
    let o = slst_in(
        &docs,
        &["compare", "a-march.txt", "c-march-corrected.txt", "--json"],
    );
    let record: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (record["duplicate"].as_bool(), record.get("template")),
        (Some(true), None)
    );
}
