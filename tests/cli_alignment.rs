//! End-to-end tests of `slst eval` with text-alignment truth (PAN's character measures).
//!
//! `corpora/alignment-sample` (built by `scripts/make_alignment_sample.py`): two suspicious
//! documents with three passages pasted verbatim from two sources, one of them mid-sentence,
//! with typographic quotes before and inside the passages (so characters are not bytes).

#![cfg(feature = "cli")]

mod common;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::{repo, shared_corpus, slst, stderr, stdout};
use serde_json::Value;

fn sample(part: &str) -> String {
    repo()
        .join("corpora/alignment-sample")
        .join(part)
        .display()
        .to_string()
}

/// `slst eval` on the sample with `truth` in `format`, as JSON.
fn eval_json(sources: &[&str], truth: &str, format: &str, extra: &[&str]) -> Value {
    let mut args = vec!["eval"];
    args.extend(sources);
    args.extend(["--truth", truth, "--truth-format", format, "--json"]);
    args.extend(extra);
    let o = slst(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn figures(m: &Value) -> [f64; 4] {
    let o = &m["overall"];
    ["plagdet", "precision", "recall", "granularity"].map(|k| o[k].as_f64().unwrap())
}

#[test]
fn the_sample_is_found_to_the_character_in_both_modes() {
    let (susp, src) = (sample("susp"), sample("src"));
    let v = eval_json(
        &[&susp, &src],
        &sample("cases.tsv"),
        "alignment",
        &["--mode", "paper,robust"],
    );
    assert_eq!(v["task"], "text-alignment");
    assert_eq!(v["detections"], "passages");
    assert_eq!(v["set"]["documents"], 4);
    assert_eq!(v["set"]["pairs"], 3);
    assert_eq!(v["set"]["cases"], 3);
    assert_eq!(v["set"]["cases_out_of_range"], 0);
    let (paper, robust) = (&v["methods"][0], &v["methods"][1]);
    assert_eq!(
        (&paper["method"], &paper["mode"]),
        (&Value::from("slst"), &Value::from("paper"))
    );
    assert_eq!(robust["mode"], "robust");
    // Paper mode: each pasted passage exactly, one detection per case. The first case starts
    // at character 766 of its suspicious document, after a ’ and a ¶ (byte 771).
    assert_eq!(figures(paper), [1.0, 1.0, 1.0, 1.0]);
    let cases = paper["cases"].as_array().unwrap();
    assert_eq!(cases[0]["susp_chars"], serde_json::json!([766, 1024]));
    for (case, pair) in cases.iter().zip(paper["pairs"].as_array().unwrap()) {
        let d = &pair["detections"][0];
        assert_eq!(
            (&d["susp_chars"], &d["src_chars"]),
            (&case["susp_chars"], &case["src_chars"])
        );
        assert_eq!(
            (case["recall"].as_f64(), case["detections"].as_u64()),
            (Some(1.0), Some(1))
        );
    }
    // Robust mode: every case detected once; the passage pasted mid-sentence takes in a few
    // words of the sentence around it.
    let [plagdet, precision, recall, granularity] = figures(robust);
    assert_eq!(granularity, 1.0);
    assert!(
        precision > 0.95 && recall > 0.99 && plagdet > 0.95,
        "{:?}",
        figures(robust)
    );
    assert_eq!(robust["overall"]["cases_detected"], 3);
    // The sweep: pair evaluation's 20 thresholds, the best no worse than all detections.
    assert_eq!(robust["sweep"].as_array().unwrap().len(), 20);
    assert!(robust["best"]["plagdet"].as_f64() >= Some(plagdet));
}

#[test]
fn pan_xml_truth_gives_the_same_figures_and_lists_a_pair_without_case() {
    let (susp, src) = (sample("susp"), sample("src"));
    for extra in [
        &["--mode", "paper,robust"][..],
        &["--mode", "paper,robust", "--no-passages"],
    ] {
        let tsv = eval_json(&[&susp, &src], &sample("cases.tsv"), "alignment", extra);
        let xml = eval_json(&[&susp, &src], &sample("pan-xml"), "pan-xml", extra);
        // The fourth pair (second suspicious document, second source) has no case and nothing
        // is detected in it.
        assert_eq!(
            (tsv["set"]["pairs"].as_u64(), xml["set"]["pairs"].as_u64()),
            (Some(3), Some(4))
        );
        for (a, b) in tsv["methods"]
            .as_array()
            .unwrap()
            .iter()
            .zip(xml["methods"].as_array().unwrap())
        {
            assert_eq!(figures(a), figures(b), "{extra:?}");
            assert_eq!(a["cases"], b["cases"]);
        }
    }
    // Blocks stop at sentence boundaries: paper mode misses the partial sentences of the
    // passage pasted mid-sentence.
    let blocks = eval_json(
        &[&susp, &src],
        &sample("cases.tsv"),
        "alignment",
        &["--no-passages", "--mode", "paper"],
    );
    assert_eq!(blocks["detections"], "blocks");
    let [_, precision, recall, _] = figures(&blocks["methods"][0]);
    assert!(
        precision == 1.0 && recall < 1.0,
        "{:?}",
        figures(&blocks["methods"][0])
    );
}

/// `--detections-out` writes PAN 2013 detection files; read back as detections by the PAN XML
/// reader and scored, they give exactly the figures `slst eval` printed, for passages and
/// blocks, in both modes.
#[test]
fn detection_files_score_as_slst_eval_did() {
    use slst::eval::alignment::{measures, truth};
    let (susp, src) = (sample("susp"), sample("src"));
    let cases = truth::read_pan_xml(Path::new(&sample("pan-xml")), truth::PAN_CASE).unwrap();
    let names = [
        "suspicious-document00001-source-document00001.xml",
        "suspicious-document00001-source-document00002.xml",
        "suspicious-document00002-source-document00001.xml",
        "suspicious-document00002-source-document00002.xml",
    ];
    for blocks in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("detections");
        let (truth, out_arg) = (sample("pan-xml"), out.display().to_string());
        let mut args = vec!["eval", &susp, &src, "--truth", &truth, "--truth-format"];
        args.extend(["pan-xml", "--mode", "paper,robust", "--json"]);
        args.extend(["--detections-out", &out_arg]);
        if blocks {
            args.push("--no-passages");
        }
        let o = slst(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let (raw, v): (String, Value) = (stdout(&o), serde_json::from_slice(&o.stdout).unwrap());
        // The i-th method's record of `key`, as printed (compared as text: parsing JSON numbers
        // may be a unit in the last place off).
        let printed = |key: &str, i: usize| -> &str {
            let at = raw.match_indices(key).nth(i).expect(key).0;
            &raw[at + key.len()..]
        };
        for (i, (m, folder)) in v["methods"]
            .as_array()
            .unwrap()
            .iter()
            .zip(["slst-paper", "slst-robust"])
            .enumerate()
        {
            let folder = out.join(folder);
            let mut files: Vec<String> = std::fs::read_dir(&folder)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            files.sort();
            assert_eq!(files, names);
            // The pair without a case or a detection: an empty document.
            assert_eq!(
                std::fs::read_to_string(folder.join(names[3])).unwrap(),
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
                 <document reference=\"suspicious-document00002.txt\">\n</document>\n"
            );
            let read = truth::read_pan_xml(&folder, truth::PAN_DETECTION).unwrap();
            assert_eq!(read.pairs, cases.pairs);
            let (scores, per_case) = measures::score(&cases.cases, &read.cases);
            let (scores, per_case) = (
                serde_json::to_string(&scores).unwrap(),
                serde_json::to_string(&per_case).unwrap(),
            );
            assert!(
                printed("\"overall\":", i).starts_with(&scores),
                "{blocks} {i}: {scores}\n{raw}"
            );
            assert!(
                printed("\"cases\":[", i).starts_with(&per_case[1..]),
                "{blocks} {i}: {per_case}\n{raw}"
            );
            assert_same_detections(m, &read.cases);
        }
    }
}

/// The detections read back from the files are the report's, pair by pair.
fn assert_same_detections(method: &Value, read: &[slst::eval::alignment::Annotation]) {
    for pair in method["pairs"].as_array().unwrap() {
        let mine: Vec<Value> = read
            .iter()
            .filter(|a| {
                (a.susp.as_str(), a.src.as_str())
                    == (
                        pair["susp"].as_str().unwrap(),
                        pair["src"].as_str().unwrap(),
                    )
            })
            .map(|a| serde_json::json!([a.susp_chars, a.src_chars]))
            .collect();
        let theirs: Vec<Value> = pair["detections"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| serde_json::json!([d["susp_chars"], d["src_chars"]]))
            .collect();
        assert_eq!(mine, theirs);
    }
}

/// With one method the detection files are in the folder itself; another evaluation's files
/// there, or a pair evaluation (no detections), are refused before any work.
#[test]
fn one_method_writes_its_detection_files_into_the_folder_and_refuses_old_ones() {
    let (susp, src) = (sample("susp"), sample("src"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("one");
    let truth = sample("cases.tsv");
    let args = [
        "eval",
        &susp,
        &src,
        "--truth",
        &truth,
        "--truth-format",
        "alignment",
    ];
    let out_arg = out.display().to_string();
    let o = slst(&[&args[..], &["--detections-out", &out_arg]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("slst: wrote 3 detection files to {out_arg}")),
        "{}",
        stderr(&o)
    );
    let file = out.join("suspicious-document00001-source-document00001.xml");
    let xml = std::fs::read_to_string(file).unwrap();
    assert!(
        xml.contains(
            "<document reference=\"suspicious-document00001.txt\">\n<feature \
             name=\"detected-plagiarism\" this_offset=\"766\" this_length=\"258\" \
             source_reference=\"source-document00001.txt\" source_offset=\"192\" \
             source_length=\"258\"/>\n</document>\n"
        ),
        "{xml}"
    );
    // Another evaluation's files are refused before evaluating, naming the folder and a file.
    std::fs::write(out.join("old-run.xml"), "<document reference=\"x\"/>").unwrap();
    let o = slst(&[&args[..], &["--detections-out", &out_arg]].concat());
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(2), ""));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{out_arg}: cannot write")) && err.contains("old-run.xml"),
        "{err}"
    );
    // Pair evaluation has no detections to write.
    let o = slst(&[
        "eval",
        &susp,
        "--truth",
        &truth,
        "--detections-out",
        &out_arg,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--detections-out"), "{}", stderr(&o));
}

#[test]
fn ids_are_matched_by_file_name_when_a_folder_is_read_from_above() {
    let dir = tempfile::tempdir().unwrap();
    for part in ["susp", "src"] {
        let to = dir.path().join("docs").join(part);
        std::fs::create_dir_all(&to).unwrap();
        for f in std::fs::read_dir(sample(part)).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, to.join(f.file_name().unwrap())).unwrap();
        }
    }
    let docs = dir.path().join("docs").display().to_string();
    let v = eval_json(&[&docs], &sample("cases.tsv"), "alignment", &[]);
    assert_eq!(v["set"]["matched_by_file_name"], 4);
    assert_eq!(figures(&v["methods"][0]), [1.0, 1.0, 1.0, 1.0]);
}

#[test]
fn refusals_name_the_problem() {
    let susp = sample("susp");
    let truth = sample("cases.tsv");
    // A source document not read: an error naming the truth and the id, exit code 2.
    let o = slst(&[
        "eval",
        &susp,
        "--truth",
        &truth,
        "--truth-format",
        "alignment",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("cases.tsv") && err.contains("source-document00001.txt"),
        "{err}"
    );
    // A method without blocks.
    let src = sample("src");
    let args = [
        "eval",
        &susp,
        &src,
        "--truth",
        &truth,
        "--truth-format",
        "alignment",
    ];
    let o = slst(&[&args[..], &["--method", "shingle"]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("a method with blocks"),
        "{}",
        stderr(&o)
    );
    // A malformed truth file: its line.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.tsv");
    std::fs::write(&bad, "a.txt\tb.txt\t1\t2\t3\n").unwrap();
    let o = slst(&[
        "eval",
        &susp,
        &src,
        "--truth",
        bad.to_str().unwrap(),
        "--truth-format",
        "alignment",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("bad.tsv: line 1"), "{}", stderr(&o));
}

#[test]
fn the_table_and_the_plots() {
    let (susp, src) = (sample("susp"), sample("src"));
    let dir = tempfile::tempdir().unwrap();
    let plots = dir.path().join("plots");
    let mut args = vec!["eval", &susp, &src, "--truth"];
    let truth = sample("cases.tsv");
    args.extend([
        truth.as_str(),
        "--truth-format",
        "alignment",
        "--mode",
        "paper,robust",
        "--sweep",
    ]);
    let plots_arg = plots.display().to_string();
    if cfg!(feature = "plots") {
        args.extend(["--plots", &plots_arg]);
    }
    let o = slst(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("3 cases in 3 pairs of documents; 4 documents read"),
        "{out}"
    );
    let paper = out.lines().find(|l| l.starts_with("slst  ")).unwrap();
    assert!(
        paper.contains("any   1.0000     1.0000  1.0000       1.0000        3/3"),
        "{paper}"
    );
    assert!(out.contains("slst (robust)"), "{out}");
    assert_eq!(out.matches("\n  1.00  ").count(), 2, "{out}");
    if cfg!(feature = "plots") {
        for f in [
            "plagdet-slst.png",
            "plagdet-slst-robust.png",
            "detections.png",
        ] {
            let bytes = std::fs::read(plots.join(f)).unwrap();
            assert!(bytes.starts_with(b"\x89PNG"), "{f} is a PNG");
        }
    }
}

/// The character spans of `slst compare --json`'s passages (or blocks) for one pair.
fn compare_detections(susp: &Path, src: &Path, flags: &[&str]) -> Vec<([usize; 2], [usize; 2])> {
    let (a, b) = (susp.display().to_string(), src.display().to_string());
    let o = slst(&[&["compare", &a, &b, "--json"][..], flags].concat());
    let v: Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("{}", stderr(&o)));
    let key = if v.get("passages").is_some() {
        "passages"
    } else {
        "blocks"
    };
    let (ta, tb) = (
        std::fs::read_to_string(susp).unwrap(),
        std::fs::read_to_string(src).unwrap(),
    );
    let chars = |t: &str, s: &Value| {
        let byte = |i: usize| t[..s[i].as_u64().unwrap() as usize].chars().count();
        [byte(0), byte(1)]
    };
    v[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (chars(&ta, &d["a_span"]), chars(&tb, &d["b_span"])))
        .collect()
}

type Annotation = (String, String, [usize; 2], [usize; 2]);

/// PAN's measures, written out with sets of characters (as a cross-check of the library):
/// plagdet, precision, recall, granularity.
fn pan_measures(cases: &[Annotation], dets: &[Annotation]) -> [f64; 4] {
    let count = |anns: &[Annotation]| {
        let mut susp: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
        let mut src: BTreeMap<&str, BTreeSet<usize>> = BTreeMap::new();
        for (s, r, a, b) in anns {
            susp.entry(s).or_default().extend(a[0]..a[1]);
            src.entry(r).or_default().extend(b[0]..b[1]);
        }
        susp.values()
            .chain(src.values())
            .map(BTreeSet::len)
            .sum::<usize>() as f64
    };
    let overlap = |x: [usize; 2], y: [usize; 2]| x[0] < y[1] && y[0] < x[1];
    let detects = |c: &Annotation, d: &Annotation| {
        c.0 == d.0 && c.1 == d.1 && overlap(c.2, d.2) && overlap(c.3, d.3)
    };
    let mut true_parts = Vec::new();
    let mut per_case = Vec::new();
    for c in cases {
        let found: Vec<&Annotation> = dets.iter().filter(|d| detects(c, d)).collect();
        for d in &found {
            let cut = |x: [usize; 2], y: [usize; 2]| [x[0].max(y[0]), x[1].min(y[1])];
            true_parts.push((c.0.clone(), c.1.clone(), cut(c.2, d.2), cut(c.3, d.3)));
        }
        per_case.push(found.len());
    }
    let tp = count(&true_parts);
    let (recall, precision) = (tp / count(cases), tp / count(dets));
    let detected: Vec<usize> = per_case.into_iter().filter(|&n| n > 0).collect();
    let granularity = detected.iter().sum::<usize>() as f64 / detected.len() as f64;
    let f1 = 2.0 * precision * recall / (precision + recall);
    [
        f1 / (1.0 + granularity).log2(),
        precision,
        recall,
        granularity,
    ]
}

/// On PAN 2013 half A (shared corpora), `slst eval` gives exactly what scoring `slst compare
/// --json`'s spans of every pair gives, for robust passages and paper-mode blocks.
#[test]
fn pan13_half_a_equals_scoring_compare_output() {
    let Some(dir) = shared_corpus("pan13-text-alignment-a") else {
        return;
    };
    let text = std::fs::read_to_string(dir.join("cases.tsv")).unwrap();
    let cases: Vec<Annotation> = text
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let n = |i: usize| f[i].parse::<usize>().unwrap();
            (
                f[0].into(),
                f[1].into(),
                [n(2), n(2) + n(3)],
                [n(4), n(4) + n(5)],
            )
        })
        .collect();
    let pairs: BTreeSet<(String, String)> =
        cases.iter().map(|c| (c.0.clone(), c.1.clone())).collect();
    let (susp, src) = (dir.join("susp"), dir.join("src"));
    let truth = dir.join("cases.tsv").display().to_string();
    let sources = [susp.display().to_string(), src.display().to_string()];
    for flags in [
        &["--mode", "robust"][..],
        &["--mode", "paper", "--no-passages"],
    ] {
        let v = eval_json(&[&sources[0], &sources[1]], &truth, "alignment", flags);
        assert_eq!(v["set"]["pairs"].as_u64(), Some(pairs.len() as u64));
        let mut dets: Vec<Annotation> = Vec::new();
        for (s, r) in &pairs {
            for (a, b) in compare_detections(&susp.join(s), &src.join(r), flags) {
                dets.push((s.clone(), r.clone(), a, b));
            }
        }
        let expected = pan_measures(&cases, &dets);
        let got = figures(&v["methods"][0]);
        for (g, e) in got.iter().zip(expected) {
            assert!(
                (g - e).abs() < 1e-12,
                "{flags:?}: eval {got:?}, compare {expected:?}"
            );
        }
        assert_eq!(
            v["methods"][0]["overall"]["detections"].as_u64(),
            Some(dets.len() as u64)
        );
    }
}
