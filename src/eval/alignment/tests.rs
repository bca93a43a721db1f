//! Tests of the text-alignment driver: id matching, byte → character conversion, detections.

use super::*;
use crate::{SlSt, SlstConfig};

const COPIED: &str = "The central bank cut interest rates on Tuesday. Markets rallied on the news \
    across the region. Analysts expect another cut in March.";

/// A suspicious document that pastes [`COPIED`] after text with typographic quotes (3 bytes, 1
/// character each), and its source, which has them too.
fn documents() -> Vec<Document> {
    let susp = format!("“Gold rose,” she said. “Oil was flat.” {COPIED} Nothing else happened.");
    let src = format!("It’s a “quiet” week. {COPIED}");
    vec![
        Document::new("dir/susp.txt", susp),
        Document::new("dir/src.txt", src),
        Document::new("other.txt", "Unrelated words only."),
    ]
}

/// The character span of `needle` in `text`.
fn chars_of(text: &str, needle: &str) -> [usize; 2] {
    let start = text[..text.find(needle).unwrap()].chars().count();
    [start, start + needle.chars().count()]
}

fn truth(docs: &[Document]) -> AlignmentTruth {
    let case = Annotation::new(
        "susp.txt",
        "src.txt",
        chars_of(&docs[0].text, COPIED),
        chars_of(&docs[1].text, COPIED),
    );
    AlignmentTruth::new(Path::new("cases.tsv"), vec![case], Vec::new())
}

#[test]
fn byte_spans_become_character_spans_on_non_ascii_text() {
    let docs = documents();
    let set = prepare(&docs, &truth(&docs)).unwrap();
    assert_eq!(set.summary().matched_by_file_name, 2);
    assert_eq!(set.summary().cases_out_of_range, 0);
    let slst = SlSt::new(SlstConfig::default()).unwrap();
    for kind in [
        DetectionKind::Passages(AlignConfig::default()),
        DetectionKind::Blocks,
    ] {
        let config = AlignmentConfig {
            detections: kind,
            ..AlignmentConfig::default()
        };
        let e = evaluate(&set, &slst, &config);
        let d = &e.pairs[0].detections;
        assert_eq!(d.len(), 1, "{kind:?}");
        // The detection, read back by characters, is the copied text on both sides.
        let read = |text: &str, s: [usize; 2]| -> String {
            text.chars().skip(s[0]).take(s[1] - s[0]).collect()
        };
        assert_eq!(read(&docs[0].text, d[0].susp_chars), COPIED, "{kind:?}");
        assert_eq!(read(&docs[1].text, d[0].src_chars), COPIED, "{kind:?}");
        assert_eq!(d[0].susp_chars, set.cases()[0].susp_chars);
        assert_eq!(d[0].similarity, 1.0);
        assert_eq!(e.overall.plagdet, 1.0);
        assert!(e.cases[0].detected);
        assert_eq!(e.sweep.len(), 20);
        assert_eq!(e.best.threshold, 0.05);
    }
}

#[test]
fn char_offset_counts_characters_before_a_byte() {
    let t = "a“b”c";
    assert_eq!(char_offset(t, 0), 0);
    assert_eq!(char_offset(t, 1), 1);
    assert_eq!(char_offset(t, 4), 2);
    assert_eq!(char_offset(t, t.len()), 5);
    assert_eq!(char_offset(t, 100), 5);
    assert_eq!(char_span(t, false, [1, 5]), [1, 3]);
}

#[test]
fn missing_documents_are_an_error_naming_the_id() {
    let docs = documents();
    let mut t = truth(&docs);
    t.pairs.push(("susp.txt".into(), "gone.txt".into()));
    t.pairs.push(("lost.txt".into(), "gone.txt".into()));
    match prepare(&docs, &t) {
        Err(Error::MissingDocument { path, id, count }) => {
            assert_eq!(
                (path.to_str(), id.as_str(), count),
                (Some("cases.tsv"), "gone.txt", 2)
            );
        }
        other => panic!("{other:?}"),
    }
    // A file name held by two documents does not match either.
    let mut two = documents();
    two.push(Document::new("elsewhere/src.txt", "x"));
    assert!(prepare(&two, &truth(&docs)).is_err());
    // An exact id wins over a file name.
    two.push(Document::new("src.txt", "exact"));
    let set = prepare(&two, &truth(&docs)).unwrap();
    assert_eq!(set.summary().matched_by_file_name, 1);
}

#[test]
fn pairs_without_cases_count_their_detections_as_false() {
    let docs = documents();
    let mut t = truth(&docs);
    // The source pasted into a second suspicious document, listed without a case.
    let mut docs2 = docs.clone();
    docs2.push(Document::new(
        "susp2.txt",
        format!("Prefix words here. {COPIED}"),
    ));
    t = AlignmentTruth::new(
        &t.source,
        t.cases,
        vec![("susp2.txt".into(), "src.txt".into())],
    );
    let set = prepare(&docs2, &t).unwrap();
    assert_eq!(set.summary().pairs, 2);
    let slst = SlSt::new(SlstConfig::default()).unwrap();
    let e = evaluate(&set, &slst, &AlignmentConfig::default());
    assert_eq!(e.overall.detections, 2);
    assert_eq!(e.overall.recall, 1.0);
    // The source side is the same characters in both pairs (counted once per document); the
    // second suspicious document's are false.
    let n = COPIED.chars().count();
    assert_eq!(e.overall.detected_chars, 3 * n);
    assert_eq!(e.overall.true_chars, 2 * n);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let docs = documents();
    let set = prepare(&docs, &truth(&docs)).unwrap();
    let slst = SlSt::new(SlstConfig::default()).unwrap();
    let run = |threads| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut e = pool.install(|| evaluate(&set, &slst, &AlignmentConfig::default()));
        e.seconds = 0.0;
        e
    };
    assert_eq!(run(1), run(4));
}

#[test]
fn a_case_given_twice_is_one_case() {
    let docs = documents();
    let t = truth(&docs);
    let twice = AlignmentTruth::new(&t.source, [t.cases.clone(), t.cases].concat(), Vec::new());
    assert_eq!((twice.cases.len(), twice.pairs.len()), (1, 1));
}

/// The shipped sample's documents (ids: their file names) and its PAN XML truth.
fn shipped_sample() -> (Vec<Document>, AlignmentTruth) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/alignment-sample");
    let sources = [root.join("susp"), root.join("src")];
    let docs = crate::corpus::read_sources(&sources, &Default::default())
        .map(|item| match item {
            crate::corpus::Item::Document(d) => d,
            other => panic!("{other:?}"),
        })
        .collect();
    let truth = truth::read_pan_xml(&root.join("pan-xml"), truth::PAN_CASE).unwrap();
    (docs, truth)
}

/// The detection files written for the shipped sample, read back as detections by the PAN XML
/// reader and scored, give exactly the figures of the evaluation, in both modes, for passages
/// and blocks.
#[test]
fn detection_files_score_as_the_evaluation_did() {
    let (docs, truth) = shipped_sample();
    let set = prepare(&docs, &truth).unwrap();
    let paper = SlSt::new(SlstConfig::default()).unwrap();
    let robust = crate::method::RobustSlst::new(crate::method::RobustConfig::default()).unwrap();
    for kind in [
        DetectionKind::Passages(AlignConfig::default()),
        DetectionKind::Blocks,
    ] {
        let config = AlignmentConfig {
            detections: kind,
            ..AlignmentConfig::default()
        };
        for e in [
            evaluate(&set, &paper, &config),
            evaluate(&set, &robust, &config),
        ] {
            let dir = tempfile::tempdir().unwrap();
            pan_xml::check_folder(dir.path(), &truth.pairs).unwrap();
            assert_eq!(pan_xml::write_pairs(dir.path(), &e.pairs).unwrap(), 4);
            let read = truth::read_pan_xml(dir.path(), truth::PAN_DETECTION).unwrap();
            // Every pair's file is there, the one without detections too.
            assert_eq!(read.pairs, truth.pairs, "{kind:?}");
            let (scores, per_case) = measures::score(set.cases(), &read.cases);
            assert_eq!(scores, e.overall, "{kind:?} {}", e.label());
            assert_eq!(per_case, e.cases, "{kind:?} {}", e.label());
            assert!(e.overall.detections > 0);
        }
    }
}
