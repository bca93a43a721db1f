//! The record of an evaluation (`slst eval --json`) and its tables.

use serde::Serialize;

use super::{EvalSet, MethodEval, ScoreKind, Universe};
use crate::report::SCHEMA_VERSION;
use crate::web::BoilerplateBlock;

/// What `slst eval` found: the set, and each method's sweep and best point.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalReport {
    /// The version of the output schema.
    pub schema_version: u32,
    /// The documents and truth evaluated against.
    pub set: EvalSet,
    /// Documents that could not be read.
    pub documents_skipped: usize,
    /// Web-page blocks left out as boilerplate before scoring.
    pub boilerplate_blocks: Vec<BoilerplateBlock>,
    /// Which pairs were scored.
    pub universe: Universe,
    /// Which score was thresholded.
    pub score: ScoreKind,
    /// One evaluation per method (SL+ST once per mode asked for).
    pub methods: Vec<MethodEval>,
}

impl EvalReport {
    /// The report of evaluations against a set.
    pub fn new(
        set: EvalSet,
        documents_skipped: usize,
        boilerplate_blocks: Vec<BoilerplateBlock>,
        universe: Universe,
        score: ScoreKind,
        methods: Vec<MethodEval>,
    ) -> Self {
        EvalReport {
            schema_version: SCHEMA_VERSION,
            set,
            documents_skipped,
            boilerplate_blocks,
            universe,
            score,
            methods,
        }
    }

    /// The tables: the set's counts, one line per method at its best threshold, and with
    /// `sweep` every threshold of every method.
    pub fn to_text(&self, sweep: bool) -> String {
        let set = &self.set;
        let mut out = format!(
            "{} documents ({} skipped); {} pairs in the universe, {} positive; {} truth pairs name documents not read; {} ignored\n\n",
            set.documents,
            self.documents_skipped,
            set.universe,
            set.positives,
            set.truth_pairs_missing,
            set.ignored
        );
        let labels: Vec<String> = self.methods.iter().map(MethodEval::label).collect();
        let w = labels
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0)
            .max(12);
        out.push_str(&format!("{:<w$}  best θ  precision  recall      F1       TP       FP       FN        χ²  compared  seconds\n", "method"));
        for (r, label) in self.methods.iter().zip(&labels) {
            let b = r.best;
            out.push_str(&format!(
                "{:<w$}  {:>6.2}  {:>9.4}  {:>6.4}  {:>6.4}  {:>7}  {:>7}  {:>7}  {:>8.1}  {:>8}  {:>7.2}\n",
                label, b.threshold, b.precision, b.recall, b.f1, b.tp, b.fp, b.fn_, r.chi_square, r.pairs_compared, r.seconds
            ));
        }
        out.push_str(&format!(
            "\nat each method's own decision (its rule at its settings)\n{:<w$}  precision  recall      F1       TP       FP       FN  rule\n",
            "method"
        ));
        for (r, label) in self.methods.iter().zip(&labels) {
            let d = r.decision;
            out.push_str(&format!(
                "{:<w$}  {:>9.4}  {:>6.4}  {:>6.4}  {:>7}  {:>7}  {:>7}  {}\n",
                label, d.precision, d.recall, d.f1, d.tp, d.fp, d.fn_, r.rule
            ));
        }
        if sweep {
            for (r, label) in self.methods.iter().zip(&labels) {
                out.push_str(&format!("\n{label}\n     θ  precision  recall      F1       TP       FP       FN  FP share  reported\n"));
                for p in &r.sweep {
                    out.push_str(&format!(
                        "  {:>4.2}  {:>9.4}  {:>6.4}  {:>6.4}  {:>7}  {:>7}  {:>7}  {:>8.4}  {:>8}\n",
                        p.threshold,
                        p.precision,
                        p.recall,
                        p.f1,
                        p.tp,
                        p.fp,
                        p.fn_,
                        p.false_positive_share,
                        p.reported
                    ));
                }
            }
        }
        out
    }
}
