//! The records of a text-alignment evaluation (`slst eval --truth-format alignment|pan-xml
//! --json`) and their tables.

use serde::Serialize;

use super::measures::{CaseScore, Scores, score};
use super::{AlignmentSetSummary, Annotation, DetectionKind, PairDetections};
use crate::method::{Detector, Method, SlstMode};
use crate::report::SCHEMA_VERSION;

/// The figures at one similarity threshold: only detections with similarity ≥ θ are kept.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct AlignmentPoint {
    /// The threshold θ.
    pub threshold: f64,
    /// plagdet = F1 / log2(1 + granularity).
    pub plagdet: f64,
    /// Micro-averaged character precision.
    pub precision: f64,
    /// Micro-averaged character recall.
    pub recall: f64,
    /// The harmonic mean of precision and recall.
    pub f1: f64,
    /// Detections per detected case.
    pub granularity: f64,
    /// Detections kept.
    pub detections: usize,
    /// Cases detected.
    pub cases_detected: usize,
}

/// One method's text-alignment evaluation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlignmentEval {
    /// The method.
    pub method: Method,
    /// SL+ST's mode (SL+ST only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<SlstMode>,
    /// The figures over every detection (no threshold).
    pub overall: Scores,
    /// The point of the sweep with the best plagdet (ties: the lower threshold).
    pub best: AlignmentPoint,
    /// The whole sweep.
    pub sweep: Vec<AlignmentPoint>,
    /// Each case, in the order of the truth, against every detection.
    pub cases: Vec<CaseScore>,
    /// Each pair's detections, in the order of the truth's pairs.
    pub pairs: Vec<PairDetections>,
    /// Seconds to sketch, compare and detect.
    pub seconds: f64,
}

/// The detections of every pair with similarity ≥ `threshold`, as annotations.
fn annotations(pairs: &[PairDetections], threshold: Option<f64>) -> Vec<Annotation> {
    pairs
        .iter()
        .flat_map(|p| {
            p.detections
                .iter()
                .filter(move |d| threshold.is_none_or(|t| d.similarity >= t))
                .map(|d| Annotation::new(&p.susp, &p.src, d.susp_chars, d.src_chars))
        })
        .collect()
}

/// The figures of `scores` as a point of the sweep at `threshold`.
fn point(threshold: f64, s: &Scores) -> AlignmentPoint {
    AlignmentPoint {
        threshold,
        plagdet: s.plagdet,
        precision: s.precision,
        recall: s.recall,
        f1: s.f1,
        granularity: s.granularity,
        detections: s.detections,
        cases_detected: s.cases_detected,
    }
}

impl AlignmentEval {
    /// Score a method's detections against the cases: over all of them, and at each threshold.
    pub(super) fn new<D: Detector>(
        detector: &D,
        cases: &[Annotation],
        pairs: Vec<PairDetections>,
        thresholds: &[f64],
        seconds: f64,
    ) -> Self {
        let (overall, per_case) = score(cases, &annotations(&pairs, None));
        let sweep: Vec<AlignmentPoint> = thresholds
            .iter()
            .map(|&t| point(t, &score(cases, &annotations(&pairs, Some(t))).0))
            .collect();
        let best = sweep
            .iter()
            .copied()
            .reduce(|b, p| if p.plagdet > b.plagdet { p } else { b })
            .unwrap_or(point(0.0, &overall));
        AlignmentEval {
            method: detector.method(),
            mode: detector.params().mode(),
            overall,
            best,
            sweep,
            cases: per_case,
            pairs,
            seconds,
        }
    }

    /// The method's label in tables and plot legends (`slst (robust)`).
    pub fn label(&self) -> String {
        super::super::label(self.method, self.mode)
    }

    /// A file-name stem for the method (`slst-robust`).
    pub fn file_stem(&self) -> String {
        super::super::file_stem(self.method, self.mode)
    }
}

/// The passage settings a report records.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PassageSettings {
    /// Words skipped at most on one side to step over a difference.
    pub lookahead: usize,
    /// Extension stops this far below its best score.
    pub x_drop: i64,
    /// Passages merge across at most this many words on each side.
    pub merge_gap: usize,
    /// Passages with fewer words on either side are dropped.
    pub min_words: usize,
}

/// What a text-alignment evaluation found: the set, and each method's figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlignmentReport {
    /// The version of the output schema.
    pub schema_version: u32,
    /// `text-alignment` (pair evaluations have no `task`).
    pub task: &'static str,
    /// The documents, pairs and cases.
    pub set: AlignmentSetSummary,
    /// Documents that could not be read.
    pub documents_skipped: usize,
    /// `passages` or `blocks`.
    pub detections: &'static str,
    /// The passage settings (passages only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passages: Option<PassageSettings>,
    /// One evaluation per method (SL+ST once per mode asked for).
    pub methods: Vec<AlignmentEval>,
}

impl AlignmentReport {
    /// The report of evaluations against a set.
    pub fn new(
        set: AlignmentSetSummary,
        documents_skipped: usize,
        kind: &DetectionKind,
        methods: Vec<AlignmentEval>,
    ) -> Self {
        let (detections, passages) = match kind {
            DetectionKind::Passages(c) => (
                "passages",
                Some(PassageSettings {
                    lookahead: c.lookahead,
                    x_drop: c.x_drop,
                    merge_gap: c.merge_gap,
                    min_words: c.min_words,
                }),
            ),
            DetectionKind::Blocks => ("blocks", None),
        };
        AlignmentReport {
            schema_version: SCHEMA_VERSION,
            task: "text-alignment",
            set,
            documents_skipped,
            detections,
            passages,
            methods,
        }
    }

    /// The tables: the set's counts; per method its figures over all detections and at the
    /// best threshold; with `sweep` every threshold of every method.
    pub fn to_text(&self, sweep: bool) -> String {
        let set = &self.set;
        let mut out = format!(
            "{} cases in {} pairs of documents; {} documents read ({} skipped, {} ids found by file name); {} cases reach past the end of their text\n\
             detections: {}; PAN's character measures (micro-averaged, both documents of each case)\n\n",
            set.cases,
            set.pairs,
            set.documents,
            self.documents_skipped,
            set.matched_by_file_name,
            set.cases_out_of_range,
            self.detections,
        );
        let labels: Vec<String> = self.methods.iter().map(AlignmentEval::label).collect();
        let w = labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0)
            .max(12);
        out.push_str(&format!(
            "{:<w$}   similarity  plagdet  precision  recall  granularity   detected  detections  seconds\n",
            "method"
        ));
        for (m, label) in self.methods.iter().zip(&labels) {
            let (o, b) = (&m.overall, &m.best);
            let all = row("any", &point(0.0, o), o.cases);
            out.push_str(&format!("{label:<w$}  {all}  {:>7.2}\n", m.seconds));
            let at = format!("best ≥ {:.2}", b.threshold);
            out.push_str(&format!("{:<w$}  {}\n", "", row(&at, b, o.cases)));
        }
        if sweep {
            for (m, label) in self.methods.iter().zip(&labels) {
                out.push_str(&format!(
                    "\n{label}\n     θ  plagdet  precision  recall      F1  granularity   detected  detections\n"
                ));
                for p in &m.sweep {
                    out.push_str(&format!(
                        "  {:>4.2}  {:>7.4}  {:>9.4}  {:>6.4}  {:>6.4}  {:>11.4}  {:>9}  {:>10}\n",
                        p.threshold,
                        p.plagdet,
                        p.precision,
                        p.recall,
                        p.f1,
                        p.granularity,
                        p.cases_detected,
                        p.detections
                    ));
                }
            }
        }
        out
    }
}

/// One line of the summary table: the similarity kept, then the figures.
fn row(similarity: &str, p: &AlignmentPoint, cases: usize) -> String {
    format!(
        "{similarity:>11}  {:>7.4}  {:>9.4}  {:>6.4}  {:>11.4}  {:>9}  {:>10}",
        p.plagdet,
        p.precision,
        p.recall,
        p.granularity,
        format!("{}/{cases}", p.cases_detected),
        p.detections
    )
}
