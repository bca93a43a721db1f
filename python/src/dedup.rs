//! `slst.dedup`: which documents of a corpus to keep, and what each dropped one copies — the
//! library's own dedup run ([`run`]), as `slst dedup` decides it.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use slst::batch::dedup::{DedupConfig, KeepPolicy, run};
use slst::batch::{BatchConfig, Candidates, Silent};
use slst::corpus::jsonl::{ID_FIELD, TEXT_FIELD};
use slst::method::{PairRule, WithDetector};

use crate::arrow::Table;
use crate::corpus::PyDocs;
use crate::detector::Detector;
use crate::{SlstError, error};

/// A dropped document: the row `slst dedup` writes for it.
#[pyclass(frozen, get_all, module = "slst._slst")]
pub struct Dropped {
    /// The dropped document's id.
    dropped: String,
    /// The id of the kept document it is a near-duplicate of.
    kept: String,
    /// Resemblance J of the two.
    resemblance: f64,
    /// How much of the dropped document lies in the kept one, where the method defines it.
    containment_dropped: Option<f64>,
    /// How much of the kept document lies in the dropped one.
    containment_kept: Option<f64>,
    /// The method.
    method: String,
    /// The rule that reported the pair: `duplicates`, `contained ≥ θc` or `scored`.
    rule: String,
    /// The row as `slst dedup --dropped FILE.jsonl` writes it.
    json: String,
}

#[pymethods]
impl Dropped {
    fn __repr__(&self) -> String {
        format!(
            "Dropped(dropped={:?}, kept={:?}, resemblance={})",
            self.dropped, self.kept, self.resemblance
        )
    }

    /// The row as `slst dedup` writes it in JSON lines (no newline).
    fn to_json(&self) -> &str {
        &self.json
    }
}

/// What a dedup run decided.
#[pyclass(frozen, module = "slst._slst")]
pub struct Dedup {
    /// The kept documents' ids, in input order.
    #[pyo3(get)]
    kept: Vec<String>,
    /// Their positions among the documents read, from 0.
    #[pyo3(get)]
    kept_indices: Vec<usize>,
    /// The dropped documents, in input order.
    #[pyo3(get)]
    dropped: Vec<Py<Dropped>>,
    /// Documents read.
    #[pyo3(get)]
    documents: usize,
    /// The dropped rows as Arrow record batches.
    table: Table,
    /// The Arrow table the documents came from, if they did.
    source: Option<Py<PyAny>>,
}

#[pymethods]
impl Dedup {
    fn __repr__(&self) -> String {
        format!(
            "Dedup(documents={}, kept={}, dropped={})",
            self.documents,
            self.kept.len(),
            self.dropped.len()
        )
    }

    /// The dropped rows as a `pyarrow.Table`, with the columns of `slst dedup`'s dropped
    /// table: `dropped`, `kept`, `resemblance`, `containment_dropped`, `containment_kept`,
    /// `method`, `rule`.
    fn to_arrow<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.table.to_pyarrow(py, "Dedup.to_arrow()")
    }

    /// For documents given as an Arrow table: its kept rows, every column, as a
    /// `pyarrow.Table` — `pyarrow.table(docs).take(kept_indices)`, which copies the kept
    /// rows' values once. The table is read again, so `docs` must be readable twice (a
    /// Table, a RecordBatch, a DataFrame; not a RecordBatchReader, which is read once: read
    /// it with `read_all()` first).
    fn kept_table<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let Some(source) = &self.source else {
            return Err(PyTypeError::new_err(
                "kept_table() is for documents given as an Arrow table; for an iterable, \
                 kept_indices are the positions of the kept items",
            ));
        };
        let pyarrow = crate::arrow::pyarrow(py, "Dedup.kept_table()")?;
        let once = "a stream such as a RecordBatchReader is read once: give dedup the table \
                    of its read_all()";
        let table = pyarrow
            .call_method1("table", (source.bind(py),))
            .map_err(|e| {
                SlstError::new_err(format!(
                    "kept_table(): the documents cannot be read again ({e}; {once})"
                ))
            })?;
        let rows = table.len()?;
        if rows != self.documents {
            return Err(SlstError::new_err(format!(
                "kept_table(): the documents' table has {rows} rows now, not the {} read \
                 ({once})",
                self.documents
            )));
        }
        table.call_method1("take", (self.kept_indices.clone(),))
    }
}

/// What crosses back from the run: kept ids and positions, dropped rows (and as a table),
/// documents read.
type Decided = (Vec<String>, Vec<usize>, Vec<Dropped>, Table, usize);

struct RunDedup {
    docs: PyDocs,
    config: DedupConfig,
}

impl WithDetector for RunDedup {
    type Output = Result<Decided, String>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        self.config.keep.check(d).map_err(|e| e.to_string())?;
        let items = self.docs.map(|item| (item, None));
        let result = run(items, d, &self.config, &Silent);
        let ids = &result.batch.corpus.ids;
        let kept_indices = result.decision.kept_documents();
        let kept = kept_indices.iter().map(|&i| ids[i].clone()).collect();
        let records: Vec<_> = result.dropped_records().collect();
        let mut dropped = Vec::new();
        for r in &records {
            dropped.push(Dropped {
                dropped: r.dropped.to_string(),
                kept: r.kept.to_string(),
                resemblance: r.resemblance,
                containment_dropped: r.containment_dropped,
                containment_kept: r.containment_kept,
                method: r.method.name().to_string(),
                rule: r.rule.to_string(),
                json: serde_json::to_string(r).map_err(|e| e.to_string())?,
            });
        }
        let table = crate::arrow::dropped_table(&records)?;
        Ok((kept, kept_indices, dropped, table, ids.len()))
    }
}

/// Dedup a corpus with `detector`: `docs` is any iterable of `(id, text)`, read one item at a
/// time while the run goes on with the GIL released, or an Arrow table read from its columns
/// `id_column` and `text_column`. The pairs are those of `Detector.pairs` with the same
/// `rule`; documents are ranked by `keep` (`first`, `longest`, `most-sentences`), and one
/// that pairs with a document already kept is dropped.
#[pyfunction]
#[pyo3(signature = (detector, docs, keep = "first", rule = "duplicates", containment = 0.8, max_df = 1000, threads = None, id_column = ID_FIELD, text_column = TEXT_FIELD))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn dedup(
    py: Python<'_>,
    detector: &Bound<'_, Detector>,
    docs: &Bound<'_, PyAny>,
    keep: &str,
    rule: &str,
    containment: f64,
    max_df: usize,
    threads: Option<usize>,
    id_column: &str,
    text_column: &str,
) -> PyResult<Dedup> {
    let keep = KeepPolicy::parse(keep).map_err(error)?;
    if keep.needs_record() {
        return Err(SlstError::new_err(format!(
            "keep={:?} ranks JSON-lines records (`slst dedup --keep field:NAME`); here, give the \
             documents in the order to keep them with keep=\"first\"",
            keep.name()
        )));
    }
    let rule =
        PairRule::from_name(rule, containment).map_err(|e| SlstError::new_err(e.to_string()))?;
    let source = docs
        .hasattr(crate::arrow::CAPSULE_METHOD)?
        .then(|| docs.clone().unbind());
    let (stream, error_slot) = PyDocs::of(docs, id_column, text_column)?;
    let work = RunDedup {
        docs: stream,
        config: DedupConfig {
            batch: BatchConfig {
                rule,
                candidates: Candidates::Index,
                max_df,
                drop_boilerplate: None,
                min_shared_words: None,
            },
            keep,
        },
    };
    let inner = detector.get().inner.clone();
    let out = py.detach(move || -> Result<Decided, String> {
        match threads {
            Some(n) => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| e.to_string())?;
                pool.install(|| inner.visit(work))
            }
            None => inner.visit(work),
        }
    });
    if let Some(e) = error_slot.lock().expect("not poisoned").take() {
        return Err(e);
    }
    let (kept, kept_indices, dropped, table, documents) = out.map_err(SlstError::new_err)?;
    let dropped = dropped
        .into_iter()
        .map(|d| Py::new(py, d))
        .collect::<PyResult<_>>()?;
    Ok(Dedup {
        kept,
        kept_indices,
        dropped,
        documents,
        table,
        source,
    })
}

/// The keep rule alone, on pairs found elsewhere (the Spark job's, one connected component at a
/// time): `n` documents, `pairs` as `(a, b)` positions, `order` the documents from the one kept
/// first. Returns whether each document is kept, and for each dropped one `(document, kept
/// document, index of the pair)`, in document order — what `slst dedup` decides on the same
/// pairs and order.
/// Whether each document is kept, and the dropped ones as `(document, kept, pair)`.
type Decision = (Vec<bool>, Vec<(usize, usize, usize)>);

#[pyfunction]
pub(crate) fn decide(
    n: usize,
    pairs: Vec<(usize, usize)>,
    order: Vec<usize>,
) -> PyResult<Decision> {
    let mut seen = vec![false; n];
    for &d in &order {
        if d >= n || std::mem::replace(&mut seen[d], true) {
            return Err(SlstError::new_err(format!(
                "order must list each of the {n} documents once (document {d})"
            )));
        }
    }
    if order.len() != n {
        return Err(SlstError::new_err(format!(
            "order lists {} documents, not {n}",
            order.len()
        )));
    }
    if let Some(&(a, b)) = pairs.iter().find(|&&(a, b)| a >= n || b >= n || a == b) {
        return Err(SlstError::new_err(format!(
            "pair ({a}, {b}) does not name two of the {n} documents"
        )));
    }
    let with_index = pairs.iter().enumerate().map(|(i, &(a, b))| (i, a, b));
    let decision = slst::batch::dedup::decide(n, with_index, &order);
    let dropped = decision
        .dropped
        .iter()
        .map(|d| (d.document, d.kept, d.pair))
        .collect();
    Ok((decision.kept, dropped))
}
