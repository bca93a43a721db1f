//! `slst query --min-shared-words`: every indexed document sharing a passage of at least N
//! words with the query, whatever the documents' lengths. On the shipped text-alignment sample
//! (`corpora/alignment-sample/`, its SOURCE.md says what was pasted where): passages of 48, 69
//! and 118 words pasted into chapters of 800 to 1,000 words, indexed, and the sources asked
//! about; and on Clough & Stevenson's short answers, the same pairs as `slst batch` with the
//! criterion.

#![cfg(all(feature = "cli", feature = "index"))]

mod common;
use common::{alignment_sample as sample, alignment_span as span, repo, slst, stderr, stdout};

use std::collections::BTreeSet;
use std::path::Path;

fn ok(args: &[&str]) -> String {
    let o = slst(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// A new index at `dir/name` with `flags`, holding the documents of `sources`.
fn index(dir: &Path, name: &str, flags: &[&str], sources: &str) -> String {
    let path = dir.join(name).to_string_lossy().into_owned();
    let mut create = vec!["index", "create", path.as_str()];
    create.extend_from_slice(flags);
    ok(&create);
    ok(&["index", "add", &path, sources, "-q"]);
    path
}

/// The query lines of `slst query INDEX QUERIES --json` with `extra` flags.
fn query(index: &str, queries: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let mut args = vec!["query", index, queries, "--json"];
    args.extend_from_slice(extra);
    ok(&args)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// (query, hit, decided_by) of every hit.
fn hits(lines: &[serde_json::Value]) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for line in lines {
        for hit in line["hits"].as_array().unwrap() {
            out.push((
                line["query"]["id"].as_str().unwrap().to_string(),
                hit["b"]["id"].as_str().unwrap().to_string(),
                hit["decided_by"].as_str().unwrap().to_string(),
            ));
        }
    }
    out
}

#[test]
fn the_hosts_of_short_passages_are_found_at_any_length() {
    let dir = tempfile::tempdir().unwrap();
    let (src, susp) = (sample("src"), sample("susp"));
    for (name, flags) in [
        ("robust.db", &[][..]),
        ("paper.db", &["--mode", "paper"][..]),
    ] {
        let idx = index(dir.path(), name, flags, &susp);
        // The rule reports no host: each passage is a few percent of its chapter.
        assert!(hits(&query(&idx, &src, &[])).is_empty(), "{name}");
        // 60 words: the 118 words of Genesis 1:14–18 and the 69-word PageRank paragraph, not
        // the 48 of Genesis 1:3–5.
        let lines = query(&idx, &src, &["--min-shared-words", "60"]);
        let pair = |q: &str, h: &str| (q.to_string(), h.to_string(), "passage".to_string());
        assert_eq!(
            hits(&lines),
            [
                pair("source-document00001.txt", "suspicious-document00002.txt"),
                pair("source-document00002.txt", "suspicious-document00001.txt"),
            ],
            "{name}"
        );
        // Each passage is the pasted text, the same words in the query and in its host.
        let p = &lines[0]["hits"][0]["passages"][0];
        let a = span("src/source-document00001.txt", &p["a_span"]);
        assert_eq!(a, span("susp/suspicious-document00002.txt", &p["b_span"]));
        assert!(a.starts_with("God said, “Let there be lights"), "{a}");
        assert!(a.ends_with("God saw that it was good."), "{a}");
        let p = &lines[1]["hits"][0]["passages"][0];
        let a = span("src/source-document00002.txt", &p["a_span"]);
        assert_eq!(a, span("susp/suspicious-document00001.txt", &p["b_span"]));
        assert!(a.starts_with("The name \"PageRank\""), "{a}");
        // 40 words: Genesis 1:3–5 too; 120: none.
        let lines = query(&idx, &src, &["--min-shared-words", "40"]);
        assert_eq!(hits(&lines).len(), 3, "{name}");
        let lines = query(&idx, &src, &["--min-shared-words", "120"]);
        assert!(hits(&lines).is_empty(), "{name}");
    }
    // The text report says what kept a hit and where its passages lie.
    let idx = dir.path().join("robust.db").to_string_lossy().into_owned();
    let text = ok(&["query", &idx, &src, "--min-shared-words", "60"]);
    assert_eq!(
        text.matches("kept by a shared passage alone").count(),
        2,
        "{text}"
    );
    assert!(
        text.contains("passage bytes 1434..1996 = 1670..2232  similarity 1.000"),
        "{text}"
    );
    // A hit kept by its passage alone is not counted as a near-duplicate.
    assert!(
        text.contains("source-document00001.txt: 0 near-duplicates, 1 sharing a passage ("),
        "{text}"
    );
}

/// Each pair as (a, b, decided_by, passages), a before b, spans exchanged with the documents.
type Pair = (String, String, String, Vec<([u64; 2], [u64; 2])>);

fn pair(a: &str, b: &str, decided: &str, passages: &serde_json::Value) -> Pair {
    let spans = |p: &serde_json::Value, side: &str| {
        [p[side][0].as_u64().unwrap(), p[side][1].as_u64().unwrap()]
    };
    let mut ps: Vec<_> = passages
        .as_array()
        .map(|ps| {
            ps.iter()
                .map(|p| (spans(p, "a_span"), spans(p, "b_span")))
                .collect()
        })
        .unwrap_or_default();
    let (a, b) = if a < b {
        (a, b)
    } else {
        ps = ps.into_iter().map(|(x, y)| (y, x)).collect();
        (b, a)
    };
    ps.sort_unstable();
    (a.into(), b.into(), decided.into(), ps)
}

#[test]
fn every_document_asked_about_finds_the_pairs_batch_finds() {
    let answers = repo().join("corpora/clough-short-answers/corpus-20090418");
    let answers = answers.to_string_lossy().into_owned();
    let dir = tempfile::tempdir().unwrap();
    for mode in ["robust", "paper"] {
        let idx = index(dir.path(), mode, &["--mode", mode], &answers);
        for words in ["20", "40"] {
            // Each document against the index of all of them (itself left out), and from both
            // sides: what the batch run reports of every pair.
            let mut asked = BTreeSet::new();
            for line in query(&idx, &answers, &["--min-shared-words", words]) {
                let q = line["query"]["id"].as_str().unwrap();
                for hit in line["hits"].as_array().unwrap() {
                    let h = hit["b"]["id"].as_str().unwrap();
                    if h != q {
                        let decided = hit["decided_by"].as_str().unwrap();
                        asked.insert(pair(q, h, decided, &hit["passages"]));
                    }
                }
            }
            let flags = ["--mode", mode, "--min-shared-words", words];
            let mut args = vec!["batch", answers.as_str(), "-q"];
            args.extend_from_slice(&flags);
            let batch: BTreeSet<Pair> = ok(&args)
                .lines()
                .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
                .map(|r| {
                    let (a, b) = (r["a"].as_str().unwrap(), r["b"].as_str().unwrap());
                    pair(a, b, r["decided_by"].as_str().unwrap(), &r["passages"])
                })
                .collect();
            assert!(batch.len() > 30, "{mode} {words}: {}", batch.len());
            assert!(batch.iter().any(|p| p.2 == "passage"));
            assert_eq!(asked, batch, "{mode} {words}");
        }
    }
}

#[test]
fn the_criterion_is_refused_where_it_cannot_be_honoured() {
    let dir = tempfile::tempdir().unwrap();
    let (src, susp) = (sample("src"), sample("susp"));
    let refused = |idx: &str, words: &str| {
        let o = slst(&["query", idx, &src, "--min-shared-words", words]);
        assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
        let e = stderr(&o);
        assert!(e.starts_with("slst: error:"), "{e}");
        e
    };
    // A method without blocks locates no passage.
    let shingle = index(dir.path(), "shingle.db", &["--method", "shingle"], &susp);
    let e = refused(&shingle, "40");
    assert!(e.contains("--min-shared-words = 40 with shingle"), "{e}");
    assert!(e.contains("only its blocks locate passages"), "{e}");
    // Zero words.
    let slst_index = index(dir.path(), "slst.db", &[], &susp);
    assert!(refused(&slst_index, "0").contains("at least 1 word"));
}
