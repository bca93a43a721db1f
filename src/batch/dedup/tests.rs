use super::*;

/// Every decision keeps its promises: no two kept documents form a pair, each dropped
/// document's pair joins it to a kept document ranked before it, the first it has.
fn check(n: usize, pairs: &[(usize, usize)], order: &[usize]) {
    let d = decide(
        n,
        pairs.iter().enumerate().map(|(i, &(a, b))| (i, a, b)),
        order,
    );
    let rank = |x: usize| order.iter().position(|&y| y == x).unwrap();
    for &(a, b) in pairs {
        assert!(
            !(d.kept[a] && d.kept[b]),
            "{a} and {b} both kept: {pairs:?}"
        );
    }
    let mut dropped = 0;
    for x in &d.dropped {
        let (a, b) = pairs[x.pair];
        assert!((a, b) == (x.document, x.kept) || (b, a) == (x.document, x.kept));
        assert!(d.kept[x.kept] && !d.kept[x.document]);
        let first = pairs
            .iter()
            .filter_map(|&(a, b)| match (a == x.document, b == x.document) {
                (true, _) => Some(b),
                (_, true) => Some(a),
                _ => None,
            })
            .filter(|&p| d.kept[p] && rank(p) < rank(x.document))
            .min_by_key(|&p| rank(p));
        assert_eq!(first, Some(x.kept));
        dropped += 1;
    }
    assert_eq!(dropped + d.kept.iter().filter(|&&k| k).count(), n);
    assert!(d.dropped.windows(2).all(|w| w[0].document < w[1].document));
}

#[test]
fn decisions_keep_their_promises_on_every_small_graph() {
    // Every graph on 5 documents, in input order and in reverse.
    let all: Vec<(usize, usize)> = (0..5)
        .flat_map(|a| (a + 1..5).map(move |b| (a, b)))
        .collect();
    for mask in 0u32..(1 << all.len()) {
        let pairs: Vec<(usize, usize)> = (0..all.len())
            .filter(|&i| mask & (1 << i) != 0)
            .map(|i| all[i])
            .collect();
        check(5, &pairs, &[0, 1, 2, 3, 4]);
        check(5, &pairs, &[4, 3, 2, 1, 0]);
        check(5, &pairs, &[2, 0, 4, 1, 3]);
    }
}

#[test]
fn a_chain_keeps_its_ends_when_they_are_not_copies() {
    // A ~ B ~ C, A and C unrelated: keeping one per component would drop C for A.
    let d = decide(3, [(0, 0, 1), (1, 1, 2)].into_iter(), &[0, 1, 2]);
    assert_eq!(d.kept, [true, false, true]);
    assert_eq!(d.dropped.len(), 1);
}

#[test]
fn policies_are_read_by_name() {
    for name in ["first", "longest", "most-sentences", "field:score"] {
        assert_eq!(KeepPolicy::parse(name).unwrap().name(), name);
    }
    assert_eq!(
        KeepPolicy::parse("most-complete").unwrap(),
        KeepPolicy::MostSentences
    );
    let e = KeepPolicy::parse("biggest").unwrap_err().to_string();
    assert!(
        e.contains("first, longest, most-sentences or field:NAME"),
        "{e}"
    );
}

#[test]
fn fields_rank_numbers_then_strings_then_nothing() {
    let doc = crate::Document::new("d", "text");
    let key = |line: &str| {
        KeepPolicy::Field("q".into())
            .key_as_read(&doc, Some(line.as_bytes()))
            .unwrap()
    };
    let keys = [
        key(r#"{"q": "b"}"#),
        key(r#"{"q": 2}"#),
        key(r#"{"x": 9}"#),
        key(r#"{"q": 10.5}"#),
        key(r#"{"q": "c"}"#),
        key(r#"{"q": null}"#),
        key(r#"{"q": 2}"#),
    ];
    assert_eq!(order(&keys, 7), [3, 1, 6, 4, 0, 2, 5]);
}

#[test]
fn dropped_tables_have_a_header_and_a_row_each() {
    let record = DroppedRecord {
        dropped: "b\tc",
        kept: "a",
        resemblance: 0.75,
        containment_dropped: Some(1.0),
        containment_kept: None,
        method: Method::Slst,
        rule: "contained ≥ 0.8",
    };
    let mut tsv = Vec::new();
    write_dropped(&mut tsv, [record.clone()].into_iter(), DroppedFormat::Tsv).unwrap();
    assert_eq!(
        String::from_utf8(tsv).unwrap(),
        "dropped\tkept\tresemblance\tcontainment_dropped\tcontainment_kept\tmethod\trule\n\
         b c\ta\t0.75\t1\t\tslst\tcontained ≥ 0.8\n"
    );
    let mut jsonl = Vec::new();
    write_dropped(&mut jsonl, [record].into_iter(), DroppedFormat::Jsonl).unwrap();
    assert_eq!(
        String::from_utf8(jsonl).unwrap(),
        "{\"dropped\":\"b\\tc\",\"kept\":\"a\",\"resemblance\":0.75,\"containment_dropped\":1.0,\
         \"containment_kept\":null,\"method\":\"slst\",\"rule\":\"contained ≥ 0.8\"}\n"
    );
    assert_eq!(
        DroppedFormat::of_name("x/dropped.jsonl".as_ref()),
        DroppedFormat::Jsonl
    );
    assert_eq!(
        DroppedFormat::of_name("dropped.tsv".as_ref()),
        DroppedFormat::Tsv
    );
}

/// The kept records of a gzip'd JSON-lines file (a blank line, a bad line, a CRLF line and a
/// last line without its line end among them) are copied from the places the first pass noted,
/// byte for byte; a file changed since the run is refused, and nothing is written.
#[test]
fn kept_records_are_copied_from_their_places_and_a_changed_input_is_refused() {
    use std::io::Write as _;

    use crate::batch::Silent;
    use crate::corpus::{SourceOptions, read_records};
    use crate::{SlSt, SlstConfig};
    let corpora = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpora/clough-short-answers/corpus-20090418");
    let text = |name: &str| std::fs::read_to_string(corpora.join(name)).unwrap();
    let json = |id: &str, t: &str| serde_json::json!({"id": id, "text": t}).to_string();
    let (source, answer) = (text("orig_taskb.txt"), text("orig_taska.txt"));
    let lines = [
        format!("{}\r\n", json("a", &source)),
        "\n".into(),
        "{bad\n".into(),
        format!("{}\n", json("b", &answer)),
        format!("{}\n", json("copy", &source)),
        json("c", &text("orig_taskc.txt")),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("docs.jsonl.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(lines.concat().as_bytes()).unwrap();
    std::fs::write(&path, gz.finish().unwrap()).unwrap();
    let options = SourceOptions::default();
    let sources = [path.clone()];
    let detector = SlSt::new(SlstConfig::default()).unwrap();
    let records = read_records(&sources, &options, false);
    let (result, places) = run_records(records, &detector, &DedupConfig::default(), &Silent);
    assert_eq!(result.decision.kept, [true, true, false, true]);
    assert_eq!(places.len(), 4);
    let plan = |out: &str| {
        let (out, dropped) = (dir.path().join(out), dir.path().join("dropped.tsv"));
        write::plan(&sources, &out, &dropped, &options, &KeepPolicy::First).unwrap()
    };
    let output = plan("kept.jsonl");
    assert_eq!(
        output.layout,
        write::Layout::File(crate::corpus::Format::Jsonl)
    );
    let kept = &result.decision.kept;
    assert_eq!(write::write_kept(&output, &places, kept).unwrap(), 3);
    let expected = [&lines[0], &lines[3], &lines[5], "\n"].concat();
    assert_eq!(std::fs::read_to_string(&output.path).unwrap(), expected);
    // The same bytes, modified later: refused, and the output is not written.
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    file.set_modified(later).unwrap();
    let output = plan("again.jsonl");
    let e = write::write_kept(&output, &places, kept)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("again.jsonl: cannot write: the input changed while dedup ran (")
            && e.contains("docs.jsonl.gz: its length or modification time); nothing was written"),
        "{e}"
    );
    assert!(!output.path.exists());
}
