//! Records and pairs of corpus runs: the pairs of `Detector.pairs` (a run over a whole corpus)
//! and of `Detector.verify_many` (candidate pairs of a distributed join), each with the line
//! `slst batch` writes for it.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rayon::prelude::*;

use slst::batch::output::{GroupRecord, PairRecord};
use slst::batch::{self, BatchConfig, Silent};
use slst::method::{MethodDetector, PairRule, WithDetector};

use crate::SlstError;
use crate::arrow::Table;
use crate::corpus::{ErrorSlot, PyDocs};

/// A passage's byte spans: `((a_start, a_end), (b_start, b_end))`.
type PassageSpans = ((usize, usize), (usize, usize));

/// One near-duplicate pair of a corpus run.
#[pyclass(frozen, get_all, module = "slst._slst")]
pub struct Pair {
    /// The earlier document's id (in input order).
    a: String,
    /// The later document's id.
    b: String,
    /// Resemblance J.
    resemblance: f64,
    /// How much of a lies in b, where the method defines it.
    containment_a: Option<f64>,
    /// How much of b lies in a.
    containment_b: Option<f64>,
    /// The method's decision.
    duplicate: bool,
    /// Why the pair is a template and not a duplicate, for a pair reported as one
    /// (`rule="templates"`).
    template: Option<String>,
    /// The check of the method's decision that decided the pair (`resemblance`,
    /// `containment`, a refusal such as `other-figures`, …; docs/methods.md), or `passage`
    /// for a pair kept only by the passage it shares (`min_shared_words`).
    decided_by: String,
    /// The named condition that check belongs to (`resemblance`, `figures-differ`,
    /// `parties-differ`, …; docs/methods.md).
    condition: String,
    /// With `min_shared_words`: the passages in which the two share at least that many words,
    /// each `((a_start, a_end), (b_start, b_end))` in bytes of the UTF-8 texts; else None.
    passages: Option<Vec<PassageSpans>>,
    /// The line `slst batch` writes for this pair (JSON lines).
    json: String,
}

#[pymethods]
impl Pair {
    fn __repr__(&self) -> String {
        format!(
            "Pair(a={:?}, b={:?}, resemblance={})",
            self.a, self.b, self.resemblance
        )
    }

    /// The pair as `slst batch` writes it (one line of its JSON-lines output, no newline).
    fn to_json(&self) -> &str {
        &self.json
    }
}

/// What a corpus run gives: the pairs, the clusters and duplicate groups (as ids, and the
/// groups' records) and how many documents were read.
struct RunOutput {
    pairs: Vec<Pair>,
    table: Result<Table, String>,
    clusters: Vec<Vec<String>>,
    groups: Vec<Vec<String>>,
    group_records: Vec<String>,
    documents: usize,
    compared: usize,
}

struct RunCorpus {
    docs: PyDocs,
    config: BatchConfig,
    group_at: f64,
}

impl WithDetector for RunCorpus {
    type Output = RunOutput;
    fn with<D: slst::Detector>(self, d: &D) -> RunOutput {
        let result = batch::run(self.docs, d, &self.config, &Silent);
        let ids = &result.corpus.ids;
        let records: Vec<_> = result
            .pairs
            .iter()
            .map(|p| PairRecord::new(d, &result, p, false))
            .collect();
        let pairs = result
            .pairs
            .iter()
            .zip(&records)
            .map(|(p, record)| {
                let c = &p.comparison;
                Pair {
                    a: ids[p.a].clone(),
                    b: ids[p.b].clone(),
                    resemblance: c.similarity.resemblance,
                    containment_a: c.similarity.containment_a,
                    containment_b: c.similarity.containment_b,
                    duplicate: c.duplicate,
                    template: record.template.map(str::to_string),
                    decided_by: record.decided_by.name().to_string(),
                    condition: record.condition.name().to_string(),
                    passages: p.passages.as_ref().map(|ps| {
                        ps.iter()
                            .map(|x| ((x.a_span[0], x.a_span[1]), (x.b_span[0], x.b_span[1])))
                            .collect()
                    }),
                    json: serde_json::to_string(record).expect("a record serialises"),
                }
            })
            .collect();
        let table = crate::arrow::pair_table(&records, self.config.min_shared_words.is_some());
        let clusters = result
            .clusters()
            .into_iter()
            .map(|c| c.into_iter().map(|i| ids[i].clone()).collect())
            .collect();
        let groups = batch::DuplicateGroups::of(ids.len(), &result.pairs, self.group_at);
        let group_records = groups
            .groups
            .iter()
            .enumerate()
            .map(|(k, g)| {
                let record = GroupRecord::new(k + 1, d.method(), g, |i: usize| ids[i].as_str());
                serde_json::to_string(&record).expect("a record serialises")
            })
            .collect();
        let groups = groups
            .groups
            .iter()
            .map(|g| g.members.iter().map(|&i| ids[i].clone()).collect())
            .collect();
        RunOutput {
            pairs,
            table,
            clusters,
            groups,
            group_records,
            documents: ids.len(),
            compared: result.pairs_compared,
        }
    }
}

/// The pairs of a corpus run, yielded one at a time; `clusters` and `documents` once run.
#[pyclass(module = "slst._slst")]
pub struct Pairs {
    pairs: std::vec::IntoIter<Pair>,
    /// Every pair of the run as Arrow record batches, iterated or not.
    table: Table,
    /// The clusters (connected components of the pairs), as lists of ids, largest first.
    #[pyo3(get)]
    clusters: Vec<Vec<String>>,
    /// The duplicate groups (documents every two of which are a pair at J ≥ `group_at`), as
    /// lists of ids in input order, as `slst batch` writes them.
    #[pyo3(get)]
    groups: Vec<Vec<String>>,
    /// The groups' records: the JSON lines `slst batch --groups FILE` writes for them.
    #[pyo3(get)]
    group_records: Vec<String>,
    /// Documents read.
    #[pyo3(get)]
    documents: usize,
    /// Candidate pairs compared.
    #[pyo3(get)]
    compared: usize,
}

#[pymethods]
impl Pairs {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<Pair>>> {
        match self.pairs.next() {
            None => Ok(None),
            Some(p) => Ok(Some(Py::new(py, p)?)),
        }
    }

    fn __len__(&self) -> usize {
        self.pairs.len()
    }

    /// Every pair of the run as a `pyarrow.Table` (whether or not iterated), with the columns
    /// of `slst batch`'s Parquet output: `a`, `b`, `method`, `resemblance`,
    /// `containment_a`, `containment_b`, `block_count`, `matched_sentences`, `template`,
    /// `decided_by`, `condition`, `stopwords_a`, `stopwords_b`.
    fn to_arrow<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.table.to_pyarrow(py, "Pairs.to_arrow()")
    }

    /// The Arrow PyCapsule interface: the table of `to_arrow()`, for polars or any
    /// reader of `__arrow_c_stream__`, without pyarrow.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = requested_schema;
        self.table.capsule(py)
    }
}

/// Verify candidate pairs given as (id, sketch bytes) twice: the lines a corpus run writes
/// for the pairs `rule` keeps, with each pair's index in the input. The pairs go through the
/// library's own verification ([`batch::verify_pairs`]: the method's bound, the comparison,
/// the rule; in parallel, in input order), so they are kept exactly as `slst batch` keeps them.
pub(crate) struct VerifyMany<'a> {
    pub(crate) items: &'a [(String, Vec<u8>, String, Vec<u8>)],
    pub(crate) rule: PairRule,
    /// Per item, the stop-word lists chosen for a and b (the stop words `auto`), which the
    /// lines then name as a corpus run's do.
    pub(crate) stopwords: Option<&'a [StopLists]>,
}

/// The ids of the stop-word lists chosen for a pair's two documents (the stop words `auto`):
/// the `stopwords_a` and `stopwords_b` of its line.
pub(crate) type StopLists = (String, String);

/// `record` naming the stop-word lists of item `i`, if they are given.
fn with_lists<'a, E: slst::Evidence>(
    record: PairRecord<'a, E>,
    stopwords: Option<&'a [StopLists]>,
    i: usize,
) -> PairRecord<'a, E> {
    match stopwords.and_then(|s| s.get(i)) {
        Some((a, b)) => PairRecord {
            stopwords_a: Some(a),
            stopwords_b: Some(b),
            ..record
        },
        None => record,
    }
}

impl<'a> WithDetector for VerifyMany<'a> {
    type Output = Result<Vec<(usize, String)>, String>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        let sides = |(a_id, a, b_id, b): &'a (String, Vec<u8>, String, Vec<u8>)| {
            ((a_id.as_str(), a.as_slice()), (b_id.as_str(), b.as_slice()))
        };
        let sketches = read_sketches::<D>(self.items.iter().map(sides))?;
        let pairs: Vec<(&D::Sketch, &D::Sketch)> = self
            .items
            .iter()
            .map(|(a_id, _, b_id, _)| (&sketches[a_id.as_str()], &sketches[b_id.as_str()]))
            .collect();
        let verdicts = batch::verify_pairs(d, &pairs, Some(self.rule));
        let mut out = Vec::new();
        for (i, verdict) in verdicts.into_iter().enumerate() {
            if let Some(c) = verdict.kept() {
                let (a_id, _, b_id, _) = &self.items[i];
                let (sa, sb) = pairs[i];
                let record = PairRecord::of(d, (a_id, sa), (b_id, sb), &c, false);
                let record = with_lists(record, self.stopwords, i);
                out.push((
                    i,
                    serde_json::to_string(&record).map_err(|e| e.to_string())?,
                ));
            }
        }
        Ok(out)
    }
}

/// A candidate pair with its texts: `(a_id, a_sketch_bytes, a_text, b_id, b_sketch_bytes,
/// b_text)`.
pub(crate) type PassageItem = (String, Vec<u8>, String, String, Vec<u8>, String);

/// Verify candidate pairs given as (id, sketch bytes, text) twice under a shared-passage
/// criterion of `min_words` words: the lines a corpus run with it writes for the pairs kept,
/// with each pair's index in the input. Each pair goes through the library's own verification
/// ([`batch::passage::verify_with_passages`]: compared unbounded, kept by the rule or by a
/// passage; in parallel, in input order), its line built as a corpus run builds it
/// ([`PairRecord::of_kept`]).
pub(crate) struct VerifyPassages<'a> {
    pub(crate) items: &'a [PassageItem],
    pub(crate) rule: PairRule,
    pub(crate) min_words: usize,
    /// As [`VerifyMany::stopwords`].
    pub(crate) stopwords: Option<&'a [StopLists]>,
}

impl<'a> WithDetector for VerifyPassages<'a> {
    type Output = Result<Vec<(usize, String)>, String>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        let sides = |(a_id, a, _, b_id, b, _): &'a PassageItem| {
            ((a_id.as_str(), a.as_slice()), (b_id.as_str(), b.as_slice()))
        };
        let sketches = read_sketches::<D>(self.items.iter().map(sides))?;
        let rule = self.rule;
        let lines: Vec<Option<String>> = self
            .items
            .par_iter()
            .enumerate()
            .map(|(i, (a_id, _, a_text, b_id, _, b_text))| {
                let (sa, sb) = (&sketches[a_id.as_str()], &sketches[b_id.as_str()]);
                let found = batch::passage::verify_with_passages(
                    d,
                    (a_text, sa),
                    (b_text, sb),
                    self.min_words,
                    |c| c.kept_by(rule),
                )?;
                // The record reads the pair's comparison, passages and decision, not its
                // document numbers.
                let pair = found.into_pair(0, 1);
                let record = PairRecord::of_kept(d, (a_id, sa), (b_id, sb), &pair, false);
                let record = with_lists(record, self.stopwords, i);
                Some(serde_json::to_string(&record).expect("a record serialises"))
            })
            .collect();
        Ok(lines
            .into_iter()
            .enumerate()
            .filter_map(|(i, line)| Some((i, line?)))
            .collect())
    }
}

/// The sketches of candidate pairs' documents, each given as (id, sketch bytes) on either side
/// of a pair: each read once, by its id (a document is in many pairs); the first that does not
/// read is the error.
fn read_sketches<'a, D: slst::Detector>(
    sides: impl Iterator<Item = ((&'a str, &'a [u8]), (&'a str, &'a [u8]))>,
) -> Result<HashMap<&'a str, D::Sketch>, String> {
    let mut sketches: HashMap<&str, D::Sketch> = HashMap::new();
    for (a, b) in sides {
        for (id, bytes) in [a, b] {
            if let Entry::Vacant(slot) = sketches.entry(id) {
                let s =
                    serde_json::from_slice(bytes).map_err(|e| format!("sketch of {id:?}: {e}"))?;
                slot.insert(s);
            }
        }
    }
    Ok(sketches)
}

/// The pairs of a corpus run over documents from Python (their stream, and the slot its
/// first error goes to), with `threads` threads (None: rayon's pool), the GIL released while
/// it runs.
pub(crate) fn run_pairs(
    py: Python<'_>,
    detector: Arc<MethodDetector>,
    (stream, error): (PyDocs, ErrorSlot),
    config: BatchConfig,
    threads: Option<usize>,
    group_at: f64,
) -> PyResult<Pairs> {
    if !(0.0..=1.0).contains(&group_at) {
        return Err(PyValueError::new_err(format!(
            "group_at must be between 0 and 1, not {group_at}"
        )));
    }
    let work = RunCorpus {
        docs: stream,
        config,
        group_at,
    };
    let inner = detector;
    let out = py.detach(move || -> Result<RunOutput, String> {
        match threads {
            Some(n) => {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .map_err(|e| e.to_string())?;
                Ok(pool.install(|| inner.visit(work)))
            }
            None => Ok(inner.visit(work)),
        }
    });
    if let Some(e) = error.lock().expect("not poisoned").take() {
        return Err(e);
    }
    let out = out.map_err(SlstError::new_err)?;
    Ok(Pairs {
        pairs: out.pairs.into_iter(),
        table: out.table.map_err(SlstError::new_err)?,
        clusters: out.clusters,
        groups: out.groups,
        group_records: out.group_records,
        documents: out.documents,
        compared: out.compared,
    })
}
