//! PAN's character-level measures of text alignment (Potthast, Stein, Barrón-Cedeño and Rosso,
//! "An Evaluation Framework for Plagiarism Detection", COLING 2010; the PAN 2013 text-alignment
//! `perfmeasures` script).
//!
//! - A detection **detects** a case when it is for the same pair of documents and overlaps the
//!   case in the suspicious document *and* in the source document.
//! - **Characters** are counted per document, suspicious and source side separately, as sets:
//!   characters covered by two annotations of one document count once.
//! - **Recall** (micro-averaged) = characters of the true detections / characters of the cases,
//!   where the true detections are, for every case and every detection that detects it, their
//!   intersection (in both documents). **Precision** = characters of the true detections /
//!   characters of all detections.
//! - **Granularity** = the mean number of detections per detected case (1 when no case is
//!   detected).
//! - **plagdet** = F1 / log2(1 + granularity), 0 when precision and recall are both 0.
//! - No cases and no detections: precision and recall 1; either side empty: both 0.

use std::collections::HashMap;

use serde::Serialize;

use super::Annotation;

/// The set-level figures of a set of detections against a set of cases.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Scores {
    /// plagdet = F1 / log2(1 + granularity).
    pub plagdet: f64,
    /// Micro-averaged character precision.
    pub precision: f64,
    /// Micro-averaged character recall.
    pub recall: f64,
    /// The harmonic mean of precision and recall.
    pub f1: f64,
    /// Detections per detected case (≥ 1).
    pub granularity: f64,
    /// Cases.
    pub cases: usize,
    /// Cases detected by at least one detection.
    pub cases_detected: usize,
    /// Detections.
    pub detections: usize,
    /// Characters of the cases (both sides, each counted once per document).
    pub case_chars: usize,
    /// Characters of the detections (both sides, each counted once per document).
    pub detected_chars: usize,
    /// Characters of the cases that detections detect (both sides).
    pub true_chars: usize,
}

/// How one case was detected.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaseScore {
    /// The case.
    #[serde(flatten)]
    pub case: Annotation,
    /// Its characters (both sides) covered by the detections that detect it, over its length
    /// (both sides): PAN's case recall.
    pub recall: f64,
    /// The detections that detect it.
    pub detections: usize,
    /// Whether any detection detects it.
    pub detected: bool,
}

/// Whether two half-open spans share a character.
fn overlaps(x: [usize; 2], y: [usize; 2]) -> bool {
    x[0] < y[1] && y[0] < x[1]
}

/// The shared part of two overlapping spans.
fn intersection(x: [usize; 2], y: [usize; 2]) -> [usize; 2] {
    [x[0].max(y[0]), x[1].min(y[1])]
}

/// Whether `detection` detects `case`: same pair, overlapping in both documents.
pub fn detects(case: &Annotation, detection: &Annotation) -> bool {
    case.susp == detection.susp
        && case.src == detection.src
        && overlaps(case.susp_chars, detection.susp_chars)
        && overlaps(case.src_chars, detection.src_chars)
}

/// Characters covered by a set of spans, each counted once.
fn union_length(spans: &mut [[usize; 2]]) -> usize {
    spans.sort_unstable();
    let (mut total, mut reach) = (0, 0);
    for s in spans.iter() {
        let start = s[0].max(reach);
        if s[1] > start {
            total += s[1] - start;
        }
        reach = reach.max(s[1]);
    }
    total
}

/// Characters covered by annotations, per document on each side, each counted once.
pub fn count_chars<'a>(annotations: impl IntoIterator<Item = &'a Annotation>) -> usize {
    let mut susp: HashMap<&str, Vec<[usize; 2]>> = HashMap::new();
    let mut src: HashMap<&str, Vec<[usize; 2]>> = HashMap::new();
    for a in annotations {
        susp.entry(&a.susp).or_default().push(a.susp_chars);
        src.entry(&a.src).or_default().push(a.src_chars);
    }
    susp.values_mut()
        .chain(src.values_mut())
        .map(|spans| union_length(spans))
        .sum()
}

/// The detections of each pair of documents.
fn by_pair(detections: &[Annotation]) -> HashMap<(&str, &str), Vec<&Annotation>> {
    let mut index: HashMap<(&str, &str), Vec<&Annotation>> = HashMap::new();
    for d in detections {
        index.entry((&d.susp, &d.src)).or_default().push(d);
    }
    index
}

/// Score `detections` against `cases`: the set's figures, and each case's (in the order of
/// `cases`).
///
/// # Example
/// ```
/// use slst::eval::alignment::{Annotation, measures::score};
/// let a = |s: [usize; 2], r: [usize; 2]| Annotation::new("s.txt", "r.txt", s, r);
/// // One case of 100 + 100 characters; one detection covering its first half on both sides.
/// let (scores, cases) = score(&[a([0, 100], [0, 100])], &[a([0, 50], [0, 50])]);
/// assert_eq!((scores.precision, scores.recall, scores.granularity), (1.0, 0.5, 1.0));
/// assert_eq!((cases[0].recall, cases[0].detections), (0.5, 1));
/// ```
pub fn score(cases: &[Annotation], detections: &[Annotation]) -> (Scores, Vec<CaseScore>) {
    let index = by_pair(detections);
    let mut true_parts: Vec<Annotation> = Vec::new();
    let per_case: Vec<CaseScore> = cases
        .iter()
        .map(|case| {
            let found: Vec<&Annotation> = index
                .get(&(case.susp.as_str(), case.src.as_str()))
                .into_iter()
                .flatten()
                .copied()
                .filter(|d| detects(case, d))
                .collect();
            let parts: Vec<Annotation> = found
                .iter()
                .map(|d| Annotation {
                    susp_chars: intersection(case.susp_chars, d.susp_chars),
                    src_chars: intersection(case.src_chars, d.src_chars),
                    ..case.clone()
                })
                .collect();
            let mut susp: Vec<[usize; 2]> = parts.iter().map(|p| p.susp_chars).collect();
            let mut src: Vec<[usize; 2]> = parts.iter().map(|p| p.src_chars).collect();
            let covered = union_length(&mut susp) + union_length(&mut src);
            let length = case.len();
            true_parts.extend(parts);
            CaseScore {
                case: case.clone(),
                recall: if length == 0 {
                    0.0
                } else {
                    covered as f64 / length as f64
                },
                detections: found.len(),
                detected: !found.is_empty(),
            }
        })
        .collect();
    let detected: Vec<usize> = per_case
        .iter()
        .filter(|c| c.detected)
        .map(|c| c.detections)
        .collect();
    let (case_chars, detected_chars) = (count_chars(cases), count_chars(detections));
    let true_chars = count_chars(&true_parts);
    let (precision, recall) = match (cases.is_empty(), detections.is_empty()) {
        (true, true) => (1.0, 1.0),
        (true, false) | (false, true) => (0.0, 0.0),
        (false, false) => (
            ratio(true_chars, detected_chars),
            ratio(true_chars, case_chars),
        ),
    };
    let granularity = if detected.is_empty() {
        1.0
    } else {
        detected.iter().sum::<usize>() as f64 / detected.len() as f64
    };
    let scores = Scores {
        plagdet: plagdet(precision, recall, granularity),
        precision,
        recall,
        f1: f1(precision, recall),
        granularity,
        cases: cases.len(),
        cases_detected: detected.len(),
        detections: detections.len(),
        case_chars,
        detected_chars,
        true_chars,
    };
    (scores, per_case)
}

/// n / d, 0 when d is 0.
fn ratio(n: usize, d: usize) -> f64 {
    if d == 0 { 0.0 } else { n as f64 / d as f64 }
}

/// The harmonic mean of precision and recall (0 when both are 0).
fn f1(precision: f64, recall: f64) -> f64 {
    if precision + recall == 0.0 {
        0.0
    } else {
        2.0 * precision * recall / (precision + recall)
    }
}

/// plagdet = F1 / log2(1 + granularity); 0 when precision and recall are both 0 (PAN's
/// `plagdet_score`).
///
/// # Example
/// ```
/// use slst::eval::alignment::measures::plagdet;
/// assert_eq!(plagdet(1.0, 1.0, 1.0), 1.0);
/// assert!((plagdet(1.0, 1.0, 3.0) - 0.5).abs() < 1e-12); // log2(4) = 2
/// ```
pub fn plagdet(precision: f64, recall: f64, granularity: f64) -> f64 {
    if (precision == 0.0 && recall == 0.0) || precision < 0.0 || recall < 0.0 || granularity < 1.0 {
        return 0.0;
    }
    f1(precision, recall) / (1.0 + granularity).log2()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(susp: &str, s: [usize; 2], src: &str, r: [usize; 2]) -> Annotation {
        Annotation::new(susp, src, s, r)
    }

    #[test]
    fn a_detection_overlapping_the_case_in_one_document_only_does_not_count() {
        let cases = [a("s1", [0, 100], "r1", [0, 100])];
        // Overlaps in the suspicious document, not in the source.
        let (s, per) = score(&cases, &[a("s1", [0, 100], "r1", [100, 200])]);
        assert_eq!((s.true_chars, s.cases_detected), (0, 0));
        assert_eq!((s.precision, s.recall, s.plagdet), (0.0, 0.0, 0.0));
        assert!(!per[0].detected);
        // The same spans, but for another source document.
        let (s, _) = score(&cases, &[a("s1", [0, 100], "r2", [0, 100])]);
        assert_eq!((s.precision, s.recall), (0.0, 0.0));
        // Touching ([100, 200) after [0, 100)) is not overlapping.
        let (s, _) = score(&cases, &[a("s1", [100, 200], "r1", [0, 100])]);
        assert_eq!(s.cases_detected, 0);
    }

    #[test]
    fn only_the_intersection_with_the_case_is_true() {
        // Case: 100 + 100 characters. Detection: [50, 150) on both sides → 50 + 50 true of
        // 100 + 100 detected.
        let (s, per) = score(
            &[a("s", [0, 100], "r", [0, 100])],
            &[a("s", [50, 150], "r", [50, 150])],
        );
        assert_eq!(
            (s.case_chars, s.detected_chars, s.true_chars),
            (200, 200, 100)
        );
        assert_eq!((s.precision, s.recall), (0.5, 0.5));
        assert_eq!(per[0].recall, 0.5);
        assert_eq!(s.plagdet, 0.5); // F1 0.5, granularity 1 → log2(2) = 1
    }

    #[test]
    fn two_detections_of_one_case_give_granularity_two() {
        let cases = [a("s", [0, 100], "r", [0, 100])];
        let dets = [
            a("s", [0, 50], "r", [0, 50]),
            a("s", [50, 100], "r", [50, 100]),
        ];
        let (s, per) = score(&cases, &dets);
        assert_eq!((s.precision, s.recall, s.granularity), (1.0, 1.0, 2.0));
        assert!((s.plagdet - 1.0 / 3f64.log2()).abs() < 1e-12);
        assert_eq!((per[0].detections, per[0].recall), (2, 1.0));
        // With a second case detected once: (2 + 1) / 2.
        let cases = [cases[0].clone(), a("s", [500, 600], "r", [500, 600])];
        let dets = [dets[0].clone(), dets[1].clone(), cases[1].clone()];
        assert_eq!(score(&cases, &dets).0.granularity, 1.5);
    }

    #[test]
    fn overlapping_detections_count_their_characters_once() {
        // Two detections covering [0, 80) and [40, 120) of a 100 + 100 case: 120 + 120 detected
        // characters, 100 + 100 true — not 160 + 160 and 140 + 140.
        let (s, per) = score(
            &[a("s", [0, 100], "r", [0, 100])],
            &[
                a("s", [0, 80], "r", [0, 80]),
                a("s", [40, 120], "r", [40, 120]),
            ],
        );
        assert_eq!((s.detected_chars, s.true_chars), (240, 200));
        assert_eq!(s.recall, 1.0);
        assert!((s.precision - 200.0 / 240.0).abs() < 1e-12);
        assert_eq!(per[0].recall, 1.0);
        // Overlapping cases count once too: [0, 100) and [50, 150) in one document pair.
        let cases = [
            a("s", [0, 100], "r", [0, 100]),
            a("s", [50, 150], "r", [50, 150]),
        ];
        assert_eq!(count_chars(&cases), 300);
    }

    #[test]
    fn characters_are_counted_per_document_on_each_side() {
        // One source document reused in two suspicious documents at the same offsets: its
        // characters count once; the two suspicious documents count separately.
        let cases = [
            a("s1", [0, 10], "r", [0, 10]),
            a("s2", [0, 10], "r", [0, 10]),
        ];
        assert_eq!(count_chars(&cases), 10 + 10 + 10);
        // The same name on both sides is two documents (suspicious and source side).
        assert_eq!(count_chars(&[a("x", [0, 10], "x", [0, 10])]), 20);
    }

    #[test]
    fn empty_sides_follow_pan() {
        let case = [a("s", [0, 10], "r", [0, 10])];
        let (s, _) = score(&[], &[]);
        assert_eq!(
            (s.precision, s.recall, s.granularity, s.plagdet),
            (1.0, 1.0, 1.0, 1.0)
        );
        let (s, per) = score(&case, &[]);
        assert_eq!(
            (s.precision, s.recall, s.granularity, s.plagdet),
            (0.0, 0.0, 1.0, 0.0)
        );
        assert!(!s.precision.is_nan() && !per[0].detected);
        let (s, _) = score(&[], &case);
        assert_eq!((s.precision, s.recall, s.plagdet), (0.0, 0.0, 0.0));
    }

    #[test]
    fn pan_unit_test_values() {
        // perfmeasures' own test annotations (ann1, ann4, ann7, ann9, ann10).
        let ann1 = a("tref1", [0, 100], "sref1", [0, 100]);
        let ann4 = a("tref1", [0, 200], "sref1", [0, 200]);
        let ann7 = a("tref2", [0, 100], "sref2", [0, 100]);
        let ann9 = a("tref2", [50, 150], "sref2", [50, 150]);
        let ann10 = a("tref2", [25, 100], "sref2", [25, 100]);
        let recall_of = |case: &Annotation, dets: &[Annotation]| {
            score(std::slice::from_ref(case), dets).1[0].recall
        };
        assert_eq!(recall_of(&ann1, std::slice::from_ref(&ann4)), 1.0);
        assert_eq!(recall_of(&ann1, &[ann4.clone(), ann7.clone()]), 1.0);
        assert_eq!(recall_of(&ann1, &[ann7.clone(), ann9.clone()]), 0.0);
        assert_eq!(recall_of(&ann7, std::slice::from_ref(&ann9)), 0.5);
        assert_eq!(recall_of(&ann7, std::slice::from_ref(&ann10)), 0.75);
        assert_eq!(recall_of(&ann7, &[ann9, ann10]), 0.75);
        // Micro precision of ann4 for case ann1: 200 true of 400 detected.
        let (s, _) = score(&[ann1], &[ann4]);
        assert_eq!((s.precision, s.recall), (0.5, 1.0));
    }
}
