//! `slst._slst`: the Rust side of the Python package. The Python API (`slst/__init__.py`)
//! wraps these classes; everything that takes time here runs with the GIL released.
//!
//! Spans cross to Python as `slice` objects over the Python string (character offsets, so
//! that `text[block.a]` is the block) and as byte offsets (`a_bytes`, into the UTF-8 text, as
//! the CLI's JSON records give them).

use std::any::Any;
use std::sync::{Arc, Mutex};

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyIterator, PySlice, PyString, PyTuple};

use slst::align::AlignConfig;
use slst::batch::output::{GroupRecord, PairRecord};
use slst::batch::{self, BatchConfig, Candidates, Silent};
use slst::corpus::Item;
use slst::method::{Method, MethodDetector, MethodSettings, PairRule, SlstMode, WithDetector};
use slst::report::{CompareRecord, ProfileRecord, Versioned};
use slst::{Document, SentenceProfile};

create_exception!(
    _slst,
    SlstError,
    PyValueError,
    "An error of slst: a setting out of range or unknown, an unreadable input. The message is the one the `slst` command prints."
);

fn error(e: slst::Error) -> PyErr {
    SlstError::new_err(e.to_string())
}

/// Byte offsets into `text` as character offsets (what Python indexes a `str` by).
fn char_offsets(text: &str, offsets: &[usize]) -> Vec<usize> {
    if text.is_ascii() {
        return offsets.to_vec();
    }
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_unstable_by_key(|&i| offsets[i]);
    let mut out = vec![0; offsets.len()];
    let (mut byte, mut chars) = (0usize, 0usize);
    for i in order {
        let target = offsets[i].min(text.len());
        chars += text[byte..target].chars().count();
        byte = target;
        out[i] = chars;
    }
    out
}

fn slice(py: Python<'_>, span: (usize, usize)) -> Py<PySlice> {
    PySlice::new(py, span.0 as isize, span.1 as isize, 1).unbind()
}

/// A Python value as the text `MethodSettings::set` reads.
fn setting_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = value.cast::<pyo3::types::PyBool>() {
        return Ok(if b.is_true() { "true" } else { "false" }.to_string());
    }
    if value.is_instance_of::<PyString>() {
        return value.extract();
    }
    if value.is_instance_of::<pyo3::types::PyInt>()
        || value.is_instance_of::<pyo3::types::PyFloat>()
    {
        return Ok(value.str()?.to_string());
    }
    if let Ok(path) = value.call_method0("__fspath__") {
        return path.extract();
    }
    Err(PyTypeError::new_err(format!(
        "a setting is a bool, int, float or str, not {}",
        value.get_type().name()?
    )))
}

/// The settings of `method` in `mode`, with `params` set by name.
fn settings_of(
    method: &str,
    mode: &str,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Method, MethodSettings)> {
    let m = Method::from_name(method).ok_or_else(|| {
        let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
        SlstError::new_err(format!(
            "unknown method {method:?}; the methods are {}",
            names.join(", ")
        ))
    })?;
    let slst_mode = match mode {
        "robust" => SlstMode::Robust,
        "paper" => SlstMode::Paper,
        other => {
            return Err(SlstError::new_err(format!(
                "unknown mode {other:?}; the modes are robust (the default) and paper"
            )));
        }
    };
    let mut settings = MethodSettings {
        slst_mode,
        ..MethodSettings::default()
    };
    if let Some(params) = params {
        for (k, v) in params.iter() {
            let name: String = k.extract()?;
            settings.set(m, &name, &setting_text(&v)?).map_err(error)?;
        }
    }
    Ok((m, settings))
}

/// A method with its settings: sketches documents and compares sketches.
#[pyclass(frozen, module = "slst._slst")]
pub struct Detector {
    inner: Arc<MethodDetector>,
    method: Method,
    mode: String,
    settings: MethodSettings,
}

/// What a method keeps of one document. Opaque; `to_bytes()` for shipping it between
/// processes, `Detector.sketch_from_bytes` to read it back.
#[pyclass(frozen, module = "slst._slst")]
pub struct Sketch {
    /// The detector that made it.
    #[pyo3(get)]
    detector: Py<Detector>,
    inner: Arc<dyn Any + Send + Sync>,
    #[pyo3(get)]
    id: String,
    /// The text, when the sketch was made here (spans become slices of it).
    text: Option<Py<PyString>>,
}

/// One block of sentences common to both documents (SL+ST).
#[pyclass(frozen, get_all, module = "slst._slst")]
pub struct Block {
    /// The block in A, as a slice of A's text (None when the sketch came without its text).
    a: Option<Py<PySlice>>,
    /// The block in B.
    b: Option<Py<PySlice>>,
    /// Byte offsets [start, end) in A's UTF-8 text.
    a_bytes: (usize, usize),
    /// Byte offsets in B's.
    b_bytes: (usize, usize),
    /// First kept sentence of the block in A (from 0).
    a_start: usize,
    /// First kept sentence in B.
    b_start: usize,
    /// Sentences in the block.
    length: usize,
    /// The smallest term similarity of its sentence pairs (robust mode).
    min_term_similarity: Option<f64>,
}

/// One reused passage: grown from the blocks, word by word, with exact spans.
#[pyclass(frozen, get_all, module = "slst._slst")]
pub struct Passage {
    /// The passage in A, as a slice of A's text.
    a: Py<PySlice>,
    /// The passage in B.
    b: Py<PySlice>,
    /// Byte offsets in A's UTF-8 text.
    a_bytes: (usize, usize),
    /// Byte offsets in B's.
    b_bytes: (usize, usize),
    /// Jaccard coefficient of the two spans' word-bigram sets.
    similarity: f64,
}

/// The comparison of two documents.
#[pyclass(frozen, get_all, module = "slst._slst")]
pub struct Comparison {
    /// The method's name.
    method: String,
    /// Resemblance J.
    resemblance: f64,
    /// How much of A lies in B, where the method defines it.
    containment_a: Option<f64>,
    /// How much of B lies in A.
    containment_b: Option<f64>,
    /// The method's decision.
    duplicate: bool,
    /// The decision rule in words.
    rule: String,
    /// What is special about the pair, if anything (`no sentences`, a refusal's reason).
    note: Option<String>,
    /// Why the pair is a template and not a duplicate, when the method refused it as one
    /// (robust SL+ST: one text filled with other figures, one notice for another party).
    template: Option<String>,
    /// The blocks (SL+ST; empty for the other methods).
    blocks: Vec<Py<Block>>,
    /// The passages (when asked for and the method has blocks), else None.
    passages: Option<Vec<Py<Passage>>>,
    /// The record as `slst compare --json` prints it.
    json: String,
}

#[pymethods]
impl Comparison {
    fn __repr__(&self) -> String {
        format!(
            "Comparison(method={:?}, resemblance={}, duplicate={}, blocks={})",
            self.method,
            self.resemblance,
            if self.duplicate { "True" } else { "False" },
            self.blocks.len()
        )
    }

    /// The record as `slst compare --json` prints it, as a JSON string.
    fn to_json(&self) -> &str {
        &self.json
    }
}

/// A block or passage as plain data, before it becomes a Python object.
struct SpanData {
    a_span: [usize; 2],
    b_span: [usize; 2],
    a_start: usize,
    b_start: usize,
    len: usize,
    similarity: Option<f64>,
}

/// A comparison record as plain data (built where the typed record is, without the GIL).
struct Compared {
    json: String,
    method: String,
    resemblance: f64,
    containment_a: Option<f64>,
    containment_b: Option<f64>,
    duplicate: bool,
    rule: String,
    note: Option<String>,
    template: Option<String>,
    blocks: Vec<SpanData>,
    passages: Option<Vec<SpanData>>,
}

impl Compared {
    fn new<E: serde::Serialize>(record: &CompareRecord<'_, E>) -> Self {
        Compared {
            json: serde_json::to_string(&Versioned::new(record)).expect("a record serialises"),
            method: record.method.name().to_string(),
            resemblance: record.resemblance,
            containment_a: record.containment_a,
            containment_b: record.containment_b,
            duplicate: record.duplicate,
            rule: record.rule.clone(),
            note: record.note.clone(),
            template: record.template.clone(),
            blocks: record
                .blocks
                .iter()
                .flatten()
                .map(|b| SpanData {
                    a_span: b.a_span,
                    b_span: b.b_span,
                    a_start: b.a_start,
                    b_start: b.b_start,
                    len: b.len,
                    similarity: b.min_term_similarity,
                })
                .collect(),
            passages: record.passages.as_ref().map(|ps| {
                ps.iter()
                    .map(|p| SpanData {
                        a_span: p.a_span,
                        b_span: p.b_span,
                        a_start: 0,
                        b_start: 0,
                        len: 0,
                        similarity: Some(p.similarity),
                    })
                    .collect()
            }),
        }
    }

    /// The Python object; `texts` (when known) turn byte spans into slices.
    fn into_python(
        self,
        py: Python<'_>,
        texts: (Option<&str>, Option<&str>),
    ) -> PyResult<Comparison> {
        let chars = |text: Option<&str>, spans: Vec<[usize; 2]>| -> Option<Vec<(usize, usize)>> {
            let flat: Vec<usize> = spans.iter().flatten().copied().collect();
            let c = char_offsets(text?, &flat);
            Some(c.chunks(2).map(|p| (p[0], p[1])).collect())
        };
        let ca = chars(texts.0, self.blocks.iter().map(|b| b.a_span).collect());
        let cb = chars(texts.1, self.blocks.iter().map(|b| b.b_span).collect());
        let mut blocks = Vec::with_capacity(self.blocks.len());
        for (i, b) in self.blocks.iter().enumerate() {
            blocks.push(Py::new(
                py,
                Block {
                    a: ca.as_ref().map(|c| slice(py, c[i])),
                    b: cb.as_ref().map(|c| slice(py, c[i])),
                    a_bytes: (b.a_span[0], b.a_span[1]),
                    b_bytes: (b.b_span[0], b.b_span[1]),
                    a_start: b.a_start,
                    b_start: b.b_start,
                    length: b.len,
                    min_term_similarity: b.similarity,
                },
            )?);
        }
        let passages = match (&self.passages, texts) {
            (Some(ps), (Some(_), Some(_))) => {
                let ca = chars(texts.0, ps.iter().map(|p| p.a_span).collect()).unwrap_or_default();
                let cb = chars(texts.1, ps.iter().map(|p| p.b_span).collect()).unwrap_or_default();
                let mut out = Vec::with_capacity(ps.len());
                for (i, p) in ps.iter().enumerate() {
                    out.push(Py::new(
                        py,
                        Passage {
                            a: slice(py, ca[i]),
                            b: slice(py, cb[i]),
                            a_bytes: (p.a_span[0], p.a_span[1]),
                            b_bytes: (p.b_span[0], p.b_span[1]),
                            similarity: p.similarity.unwrap_or(0.0),
                        },
                    )?);
                }
                Some(out)
            }
            _ => None,
        };
        Ok(Comparison {
            method: self.method,
            resemblance: self.resemblance,
            containment_a: self.containment_a,
            containment_b: self.containment_b,
            duplicate: self.duplicate,
            rule: self.rule,
            note: self.note,
            template: self.template,
            blocks,
            passages,
            json: self.json,
        })
    }
}

/// Sketch a document (typed, boxed).
struct SketchOf<'a>(&'a Document);
impl WithDetector for SketchOf<'_> {
    type Output = Arc<dyn Any + Send + Sync>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        Arc::new(d.sketch(self.0))
    }
}

fn typed<D: slst::Detector>(s: &Arc<dyn Any + Send + Sync>) -> &D::Sketch {
    s.downcast_ref::<D::Sketch>()
        .expect("a sketch of this detector's method")
}

/// The exact join keys of a sketch.
struct KeysOf<'a>(&'a Arc<dyn Any + Send + Sync>, bool);
impl WithDetector for KeysOf<'_> {
    type Output = Option<Vec<u64>>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        let s = typed::<D>(self.0);
        if self.1 {
            d.duplicate_keys(s)
        } else {
            d.join_keys(s)
        }
    }
}

/// Witness keys, each `(key, unit, first length, second length)`, and the number of units of
/// a sketch.
type Witnesses = (Vec<(u64, u32, u8, u8)>, usize);

/// The witness keys and the unit count of a sketch.
struct WitnessOf<'a>(&'a Arc<dyn Any + Send + Sync>);
impl WithDetector for WitnessOf<'_> {
    type Output = Option<Witnesses>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        let s = typed::<D>(self.0);
        let keys = d.witness_keys(s)?;
        let units = d.sentence_counts(s).map_or(0, |c| c.sentences);
        let keys = keys
            .into_iter()
            .map(|w| (w.key, w.unit, w.lengths[0], w.lengths[1]))
            .collect();
        Some((keys, units))
    }
}

/// The word keys of a sketch.
struct WordKeysOf<'a>(&'a Arc<dyn Any + Send + Sync>);
impl WithDetector for WordKeysOf<'_> {
    type Output = Option<Vec<u64>>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        d.word_keys(typed::<D>(self.0))
    }
}

/// The vocabulary of a sketch.
struct VocabularyOf<'a>(&'a Arc<dyn Any + Send + Sync>);
impl WithDetector for VocabularyOf<'_> {
    type Output = Option<Vec<u64>>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        d.vocabulary(typed::<D>(self.0))
    }
}

/// The word rule's level and look-up cap.
struct WordJoin;
impl WithDetector for WordJoin {
    type Output = Option<(f64, usize)>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        d.word_join()
    }
}

/// How far two witnesses' lengths may differ.
struct Tolerance;
impl WithDetector for Tolerance {
    type Output = Option<usize>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        d.witness_tolerance()
    }
}

/// The join's bound for many (matched, units_a, units_b).
struct MayKeep<'a>(&'a [(usize, usize, usize)], PairRule);
impl WithDetector for MayKeep<'_> {
    type Output = Option<Vec<bool>>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        self.0
            .iter()
            .map(|&(m, na, nb)| d.may_keep_matched(m, na, nb, self.1))
            .collect()
    }
}

/// The witness join's fewest units in blocks per document size.
struct Fewest<'a>(&'a [usize], PairRule);
impl WithDetector for Fewest<'_> {
    type Output = Option<Vec<Option<usize>>>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        d.may_keep_matched(1, 1, 1, self.1)?;
        let rule = self.1;
        let may_keep =
            |m: usize, na: usize, nb: usize| d.may_keep_matched(m, na, nb, rule).unwrap_or(true);
        let fewest = slst::method::fewest_matched(self.0, &may_keep);
        Some(
            fewest
                .into_iter()
                .map(|f| (f != usize::MAX).then_some(f))
                .collect(),
        )
    }
}

struct ToBytes<'a>(&'a Arc<dyn Any + Send + Sync>);
impl WithDetector for ToBytes<'_> {
    type Output = serde_json::Result<Vec<u8>>;
    fn with<D: slst::Detector>(self, _d: &D) -> Self::Output {
        serde_json::to_vec(typed::<D>(self.0))
    }
}

struct FromBytes<'a>(&'a [u8]);
impl WithDetector for FromBytes<'_> {
    type Output = serde_json::Result<Arc<dyn Any + Send + Sync>>;
    fn with<D: slst::Detector>(self, _d: &D) -> Self::Output {
        let s: D::Sketch = serde_json::from_slice(self.0)?;
        Ok(Arc::new(s))
    }
}

/// Compare two sketches and build the record (with passages when both texts are there).
struct CompareSketches<'a> {
    a: (&'a Document, &'a Arc<dyn Any + Send + Sync>),
    b: (&'a Document, &'a Arc<dyn Any + Send + Sync>),
    passages: Option<AlignConfig>,
}

impl WithDetector for CompareSketches<'_> {
    type Output = Compared;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        let (sa, sb) = (typed::<D>(self.a.1), typed::<D>(self.b.1));
        compare_record(d, (self.a.0, sa), (self.b.0, sb), self.passages.as_ref())
    }
}

/// Compare two sketched documents and build the record `slst compare` prints (with passages
/// when asked for and the method has blocks).
fn compare_record<D: slst::Detector>(
    d: &D,
    a: (&Document, &D::Sketch),
    b: (&Document, &D::Sketch),
    passages: Option<&AlignConfig>,
) -> Compared {
    let c = d.compare(a.1, b.1);
    let mut record = CompareRecord::new(d, a, b, &c);
    if let Some(config) = passages
        && let Some(p) = slst::align::passages(d, a, b, &c, config)
    {
        record = record.with_passages(p, a.0, b.0);
    }
    Compared::new(&record)
}

/// The documents of a Python iterable, pulled one at a time (taking the GIL for each) while the
/// corpus run goes on without it. An item is `(id, text)`; text is `str`, or `bytes` decoded as
/// a file is (UTF-8, UTF-16 with a byte-order mark, else Windows-1252). The first bad item
/// stops the stream and is raised when the run returns.
struct PyDocs {
    iter: Py<PyIterator>,
    error: Arc<Mutex<Option<PyErr>>>,
    done: bool,
}

fn document_of(item: &Bound<'_, PyAny>, index: usize) -> PyResult<Document> {
    let tuple = item.cast::<PyTuple>().map_err(|_| {
        PyTypeError::new_err(format!(
            "item {index}: expected an (id, text) tuple, got {}",
            item.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    if tuple.len() != 2 {
        return Err(PyTypeError::new_err(format!(
            "item {index}: expected an (id, text) tuple, got {} values",
            tuple.len()
        )));
    }
    let id_value = tuple.get_item(0)?;
    let id: String = if id_value.is_instance_of::<PyString>() {
        id_value.extract()?
    } else {
        id_value.str()?.to_string()
    };
    let text_value = tuple.get_item(1)?;
    if let Ok(text) = text_value.cast::<PyString>() {
        return Ok(Document::new(id, text.to_cow()?));
    }
    if let Ok(bytes) = text_value.cast::<PyBytes>() {
        return match slst::corpus::decode_text(bytes.as_bytes()) {
            Ok((text, _)) => Ok(Document::new(id, text)),
            Err(e) => Err(SlstError::new_err(format!(
                "document {id:?}: looks like binary data ({}), not text",
                e.0
            ))),
        };
    }
    Err(PyTypeError::new_err(format!(
        "document {id:?}: the text is a str or bytes, not {}",
        text_value.get_type().name()?
    )))
}

impl Iterator for PyDocs {
    type Item = Item;
    fn next(&mut self) -> Option<Item> {
        if self.done {
            return None;
        }
        let next = Python::attach(|py| -> PyResult<Option<Document>> {
            let mut it = self.iter.bind(py).clone();
            match it.next() {
                None => Ok(None),
                Some(item) => document_of(&item?, 0).map(Some),
            }
        });
        match next {
            Ok(Some(doc)) => Some(Item::Document(doc)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                *self.error.lock().expect("not poisoned") = Some(e);
                None
            }
        }
    }
}

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

struct PairData {
    a: String,
    b: String,
    resemblance: f64,
    containment_a: Option<f64>,
    containment_b: Option<f64>,
    duplicate: bool,
    template: Option<String>,
    json: String,
}

/// What a corpus run gives: the pairs, the clusters and duplicate groups (as ids, and the
/// groups' records) and how many documents were read.
struct RunOutput {
    pairs: Vec<PairData>,
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
        let pairs = result
            .pairs
            .iter()
            .map(|p| {
                let record = PairRecord::new(d, &result, p, false);
                let c = &p.comparison;
                PairData {
                    a: ids[p.a].clone(),
                    b: ids[p.b].clone(),
                    resemblance: c.similarity.resemblance,
                    containment_a: c.similarity.containment_a,
                    containment_b: c.similarity.containment_b,
                    duplicate: c.duplicate,
                    template: record.template.map(str::to_string),
                    json: serde_json::to_string(&record).expect("a record serialises"),
                }
            })
            .collect();
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
    pairs: std::vec::IntoIter<PairData>,
    /// The clusters (connected components of the pairs), as lists of ids, largest first.
    #[pyo3(get)]
    clusters: Vec<Vec<String>>,
    /// The duplicate groups (documents every two of which are a pair at J ≥ `group_at`), as
    /// lists of ids in input order, as `slst batch` writes them.
    #[pyo3(get)]
    groups: Vec<Vec<String>>,
    /// The groups' records: the JSON lines `slst batch` writes for them.
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
            Some(p) => Ok(Some(Py::new(
                py,
                Pair {
                    a: p.a,
                    b: p.b,
                    resemblance: p.resemblance,
                    containment_a: p.containment_a,
                    containment_b: p.containment_b,
                    duplicate: p.duplicate,
                    template: p.template,
                    json: p.json,
                },
            )?)),
        }
    }

    fn __len__(&self) -> usize {
        self.pairs.len()
    }
}

/// One kept sentence of a paper-mode profile.
#[pyclass(frozen, get_all, module = "slst._slst")]
pub struct Sentence {
    /// The sentence, as a slice of the text.
    span: Py<PySlice>,
    /// Byte offsets [start, end) in the UTF-8 text.
    bytes: (usize, usize),
    /// Its length in terms after stop-word removal.
    length: u8,
    /// Its symbol in the length string (`1`–`9`, `a`–`z`).
    symbol: char,
    /// Its leading terms.
    leading: Vec<String>,
}

/// A paper-mode sentence profile: the length string and the kept sentences.
#[pyclass(frozen, get_all, module = "slst._slst")]
pub struct Profile {
    /// One character per kept sentence: its length in base 36.
    length_string: String,
    /// The kept sentences.
    sentences: Vec<Py<Sentence>>,
    /// Sentences with no term left after stop-word removal.
    skipped_empty: usize,
    /// Sentences longer than the maximum length.
    dropped_long: usize,
    /// The record as `slst profile --json` prints it.
    json: String,
}

#[pymethods]
impl Profile {
    fn __repr__(&self) -> String {
        format!("Profile(length_string={:?})", self.length_string)
    }

    /// The record as `slst profile --json` prints it, as a JSON string.
    fn to_json(&self) -> &str {
        &self.json
    }
}

#[pymethods]
impl Detector {
    /// A detector of `method` (`slst`, `shingle`, …) in `mode` (SL+ST: `robust`, the default,
    /// or `paper`) with settings by name (`min_block=3`, `term_similarity=0.5`).
    #[new]
    #[pyo3(signature = (method = "slst", mode = "robust", params = None))]
    fn new(method: &str, mode: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let (m, settings) = settings_of(method, mode, params)?;
        let inner = settings.detector(m).map_err(error)?;
        Ok(Detector {
            inner: Arc::new(inner),
            method: m,
            mode: mode.to_string(),
            settings,
        })
    }

    /// The method's name.
    #[getter]
    fn method(&self) -> &'static str {
        self.method.name()
    }

    /// SL+ST's mode (`robust` or `paper`; for the other methods, the mode given).
    #[getter]
    fn mode(&self) -> &str {
        &self.mode
    }

    /// How the method decides "duplicate", in words.
    #[getter]
    fn rule(&self) -> String {
        self.inner.rule()
    }

    /// The settings this method takes by name.
    #[getter]
    fn settings(&self) -> Vec<String> {
        self.settings.names(self.method)
    }

    fn __repr__(&self) -> String {
        format!(
            "Detector(method={:?}, mode={:?}, rule={:?})",
            self.method.name(),
            self.mode,
            self.inner.rule()
        )
    }

    /// Sketch one text (the GIL is released while it is profiled).
    #[pyo3(signature = (text, id = "doc"))]
    fn sketch(slf: &Bound<'_, Self>, text: Bound<'_, PyString>, id: &str) -> PyResult<Sketch> {
        let py = slf.py();
        let doc = Document::new(id, text.to_cow()?);
        let me = slf.get();
        let inner = py.detach(|| me.inner.visit(SketchOf(&doc)));
        Ok(Sketch {
            detector: slf.clone().unbind(),
            inner,
            id: id.to_string(),
            text: Some(text.unbind()),
        })
    }

    /// A sketch read back from `Sketch.to_bytes()` (made by a detector with the same settings).
    #[pyo3(signature = (data, id = "doc"))]
    fn sketch_from_bytes(slf: &Bound<'_, Self>, data: &[u8], id: &str) -> PyResult<Sketch> {
        let me = slf.get();
        let inner = slf
            .py()
            .detach(|| me.inner.visit(FromBytes(data)))
            .map_err(|e| SlstError::new_err(format!("not a sketch of this method: {e}")))?;
        Ok(Sketch {
            detector: slf.clone().unbind(),
            inner,
            id: id.to_string(),
            text: None,
        })
    }

    /// Keys such that any two documents the method could report share one: the join keys of
    /// a distributed join (duplicate keys when `duplicates`, else keys of every pair with a
    /// score above 0). None: the method has no such keys (every pair must be compared).
    #[pyo3(signature = (sketch, duplicates = true))]
    fn keys(&self, sketch: &Sketch, duplicates: bool) -> PyResult<Option<Vec<u64>>> {
        self.check(sketch)?;
        Ok(self.inner.visit(KeysOf(&sketch.inner, duplicates)))
    }

    /// Witness keys of a sketch and its number of units, for a distributed join that counts
    /// witnessed units per pair (robust SL+ST): `(keys, units)` with each key as
    /// `(key, unit, first_length, second_length)` — the lengths of the units of the key's step
    /// (a one-unit key: its unit's, twice). Two documents share a witness when they hold the
    /// same key with both lengths within `witness_tolerance`; None for a method without them.
    fn witness_keys(&self, sketch: &Sketch) -> PyResult<Option<Witnesses>> {
        self.check(sketch)?;
        Ok(self.inner.visit(WitnessOf(&sketch.inner)))
    }

    /// Word keys of a sketch, for the pairs a method reports on their words alone, which the
    /// witness count does not bound (robust SL+ST's `vocabulary` rule): one for each term of
    /// the vocabulary, so that any two documents it reports so share one among any
    /// |x| − ⌈v·|x|⌉ + 1 of x's keys (v from `word_join`): an index stores them all and looks
    /// a document up by its rarest. None for a method (or settings) without such pairs.
    fn word_keys(&self, sketch: &Sketch) -> PyResult<Option<Vec<u64>>> {
        self.check(sketch)?;
        Ok(self.inner.visit(WordKeysOf(&sketch.inner)))
    }

    /// The terms the word rule compares (robust SL+ST's `vocabulary` rule: the distinct terms of
    /// the whole text, as sorted 64-bit ids), for a distributed join that orders them by its own
    /// document frequencies as `slst batch` does (`word_join`). Every document's terms count in
    /// those, but one without a kept unit (`witness_keys` counts none) has no pair on words.
    /// None for a method (or settings) without the rule.
    fn vocabulary(&self, sketch: &Sketch) -> PyResult<Option<Vec<u64>>> {
        self.check(sketch)?;
        Ok(self.inner.visit(VocabularyOf(&sketch.inner)))
    }

    /// `(level, cap)` of the word rule: a pair whose vocabularies have a Jaccard coefficient of
    /// at least `level` may be reported on its words, and `slst batch` looks a prefix term up
    /// only if at most `min(cap, max_df)` documents index it. None without the rule.
    #[getter]
    fn word_join(&self) -> Option<(f64, usize)> {
        self.inner.visit(WordJoin)
    }

    /// How far the lengths of two witnesses of one key may differ, each, for the key to
    /// witness (robust SL+ST: the length tolerance δ); None for a method without witness keys.
    #[getter]
    fn witness_tolerance(&self) -> Option<usize> {
        self.inner.visit(Tolerance)
    }

    /// For each `(matched, units_a, units_b)`: whether that many units in blocks could
    /// satisfy `rule` (the bound of the witness join); None for a method without it.
    #[pyo3(signature = (items, rule = "duplicates", containment = 0.8))]
    fn may_keep_matched(
        &self,
        py: Python<'_>,
        items: Vec<(usize, usize, usize)>,
        rule: &str,
        containment: f64,
    ) -> PyResult<Option<Vec<bool>>> {
        let rule = pair_rule(rule, containment)?;
        Ok(py.detach(|| self.inner.visit(MayKeep(&items, rule))))
    }

    /// For each number of units n (the index, up to the largest of `sizes`): the fewest units
    /// in blocks with which a document of n units can satisfy `rule` against some document at
    /// least as long of a corpus whose documents have `sizes` units (None: against none). What
    /// a distributed witness join prunes its walk by, as `slst batch` does (each pair counted
    /// from its shorter document; of two as long, the earlier); None for a method without it.
    #[pyo3(signature = (sizes, rule = "duplicates", containment = 0.8))]
    fn fewest_matched(
        &self,
        py: Python<'_>,
        sizes: Vec<usize>,
        rule: &str,
        containment: f64,
    ) -> PyResult<Option<Vec<Option<usize>>>> {
        let rule = pair_rule(rule, containment)?;
        Ok(py.detach(|| self.inner.visit(Fewest(&sizes, rule))))
    }

    /// Compare two sketches; passages too when both sketches carry their texts.
    #[pyo3(signature = (a, b, passages = true))]
    fn verify(
        &self,
        py: Python<'_>,
        a: &Sketch,
        b: &Sketch,
        passages: bool,
    ) -> PyResult<Comparison> {
        self.check(a)?;
        self.check(b)?;
        let ta: Option<String> = a.text.as_ref().map(|t| t.bind(py).to_string());
        let tb: Option<String> = b.text.as_ref().map(|t| t.bind(py).to_string());
        let da = Document::new(a.id.clone(), ta.clone().unwrap_or_default());
        let db = Document::new(b.id.clone(), tb.clone().unwrap_or_default());
        let align = (passages && ta.is_some() && tb.is_some()).then(AlignConfig::default);
        let compared = py.detach(|| {
            self.inner.visit(CompareSketches {
                a: (&da, &a.inner),
                b: (&db, &b.inner),
                passages: align,
            })
        });
        compared.into_python(py, (ta.as_deref(), tb.as_deref()))
    }

    /// Compare two texts: sketch both (the GIL released), compare, and grow passages.
    #[pyo3(signature = (a, b, passages = true, a_id = "a", b_id = "b"))]
    fn compare(
        &self,
        py: Python<'_>,
        a: &str,
        b: &str,
        passages: bool,
        a_id: &str,
        b_id: &str,
    ) -> PyResult<Comparison> {
        let da = Document::new(a_id, a);
        let db = Document::new(b_id, b);
        let align = passages.then(AlignConfig::default);
        let compared = py.detach(|| {
            struct Both<'a>(&'a Document, &'a Document, Option<AlignConfig>);
            impl WithDetector for Both<'_> {
                type Output = Compared;
                fn with<D: slst::Detector>(self, d: &D) -> Compared {
                    // Two threads only where profiling is worth one.
                    let (sa, sb) = if self.0.text.len() + self.1.text.len() > 1 << 16 {
                        slst::sketch_pair(d, self.0, self.1)
                    } else {
                        (d.sketch(self.0), d.sketch(self.1))
                    };
                    compare_record(d, (self.0, &sa), (self.1, &sb), self.2.as_ref())
                }
            }
            self.inner.visit(Both(&da, &db, align))
        });
        compared.into_python(py, (Some(a), Some(b)))
    }

    /// Verify candidate pairs of a distributed join: each item is `(a_id, a_sketch_bytes,
    /// b_id, b_sketch_bytes)` with `a` the earlier document. Returns `(index, line)` for the
    /// pairs `rule` keeps, `line` being what `slst batch` writes for the pair. The GIL is
    /// released for the whole list.
    #[pyo3(signature = (items, rule = "duplicates", containment = 0.8))]
    fn verify_many(
        &self,
        py: Python<'_>,
        items: Vec<(String, Vec<u8>, String, Vec<u8>)>,
        rule: &str,
        containment: f64,
    ) -> PyResult<Vec<(usize, String)>> {
        let rule = pair_rule(rule, containment)?;
        py.detach(|| {
            self.inner.visit(VerifyMany {
                items: &items,
                rule,
            })
        })
        .map_err(|e| SlstError::new_err(format!("not a sketch of this method: {e}")))
    }

    /// Every near-duplicate pair of a corpus: `docs` is any iterable of `(id, text)`, read
    /// one item at a time while the run goes on with the GIL released; the same pairs, in the
    /// same order, as `slst batch --no-groups` on the same documents; the duplicate groups at
    /// J ≥ `group_at` as `slst batch` writes them.
    #[pyo3(signature = (docs, rule = "duplicates", containment = 0.8, max_df = 1000, threads = None, group_at = 0.9))]
    #[allow(clippy::too_many_arguments)]
    fn pairs(
        &self,
        py: Python<'_>,
        docs: &Bound<'_, PyAny>,
        rule: &str,
        containment: f64,
        max_df: usize,
        threads: Option<usize>,
        group_at: f64,
    ) -> PyResult<Pairs> {
        let rule = pair_rule(rule, containment)?;
        if !(0.0..=1.0).contains(&group_at) {
            return Err(PyValueError::new_err(format!(
                "group_at must be between 0 and 1, not {group_at}"
            )));
        }
        let error = Arc::new(Mutex::new(None));
        let stream = PyDocs {
            iter: docs.try_iter()?.unbind(),
            error: error.clone(),
            done: false,
        };
        let config = BatchConfig {
            rule,
            candidates: Candidates::Index,
            max_df,
            drop_boilerplate: None,
        };
        let work = RunCorpus {
            docs: stream,
            config,
            group_at,
        };
        let inner = self.inner.clone();
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
            clusters: out.clusters,
            groups: out.groups,
            group_records: out.group_records,
            documents: out.documents,
            compared: out.compared,
        })
    }
}

/// Verify candidate pairs given as (id, sketch bytes) twice: the lines a corpus run writes
/// for the pairs `rule` keeps, with each pair's index in the input.
struct VerifyMany<'a> {
    items: &'a [(String, Vec<u8>, String, Vec<u8>)],
    rule: PairRule,
}

impl WithDetector for VerifyMany<'_> {
    type Output = Result<Vec<(usize, String)>, String>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        // A document is in many candidate pairs: each sketch is read once (for a while).
        let mut cache: std::collections::HashMap<&str, std::rc::Rc<D::Sketch>> = Default::default();
        let mut out = Vec::new();
        for (i, (a_id, a_bytes, b_id, b_bytes)) in self.items.iter().enumerate() {
            let mut sketch =
                |id: &'_ str, bytes: &[u8]| -> Result<std::rc::Rc<D::Sketch>, String> {
                    if let Some(s) = cache.get(id) {
                        return Ok(s.clone());
                    }
                    let s: D::Sketch = serde_json::from_slice(bytes)
                        .map_err(|e| format!("sketch of {id:?}: {e}"))?;
                    if cache.len() > 4096 {
                        cache.clear();
                    }
                    Ok(std::rc::Rc::new(s))
                };
            let sa = sketch(a_id, a_bytes)?;
            let sb = sketch(b_id, b_bytes)?;
            cache.insert(a_id, sa.clone());
            cache.insert(b_id, sb.clone());
            if d.may_be_reported(&sa, &sb, self.rule) {
                let c = d.compare(&sa, &sb);
                if c.kept_by(self.rule) {
                    let record = PairRecord::of(d, (a_id, &sa), (b_id, &sb), &c, false);
                    out.push((
                        i,
                        serde_json::to_string(&record).map_err(|e| e.to_string())?,
                    ));
                }
            }
        }
        Ok(out)
    }
}

fn pair_rule(rule: &str, containment: f64) -> PyResult<PairRule> {
    Ok(match rule {
        "duplicates" => PairRule::Duplicates,
        "contained" => PairRule::Contained(containment),
        "scored" => PairRule::Scored,
        "templates" => PairRule::WithTemplates,
        other => {
            return Err(SlstError::new_err(format!(
                "unknown rule {other:?}; the rules are duplicates, contained, scored, templates"
            )));
        }
    })
}

impl Detector {
    fn check(&self, sketch: &Sketch) -> PyResult<()> {
        let other = &sketch.detector.get().inner;
        if Arc::ptr_eq(&self.inner, other)
            || (self.inner.method() == other.method() && self.inner.params() == other.params())
        {
            Ok(())
        } else {
            Err(SlstError::new_err(format!(
                "sketch {:?} was made by another method or other settings ({}); sketch both \
                 documents with this detector",
                sketch.id,
                other.method().name()
            )))
        }
    }
}

#[pymethods]
impl Sketch {
    /// The sketch as bytes (JSON), to ship between processes; read back with
    /// `Detector.sketch_from_bytes`.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = self
            .detector
            .get()
            .inner
            .visit(ToBytes(&self.inner))
            .map_err(|e| SlstError::new_err(e.to_string()))?;
        Ok(PyBytes::new(py, &bytes))
    }

    fn __repr__(&self) -> String {
        format!(
            "Sketch(id={:?}, method={:?})",
            self.id,
            self.detector.get().inner.method().name()
        )
    }
}

/// The paper-mode sentence profile of a text (settings: max_length, leading_terms,
/// stopwords).
#[pyfunction]
#[pyo3(signature = (text, params = None))]
fn profile(py: Python<'_>, text: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<Profile> {
    let (_, settings) = settings_of("slst", "paper", params)?;
    let config = settings.slst.profile.clone();
    config.validate().map_err(error)?;
    let doc = Document::new("doc", text);
    let p = py.detach(|| SentenceProfile::from_text("doc", text, &config));
    let record = ProfileRecord::new(&doc, &p, config.stopwords.id());
    let json = serde_json::to_string(&Versioned::new(&record))
        .map_err(|e| SlstError::new_err(e.to_string()))?;
    let flat: Vec<usize> = p
        .sentences
        .iter()
        .flat_map(|s| [s.start as usize, s.end as usize])
        .collect();
    let chars = char_offsets(text, &flat);
    let mut sentences = Vec::with_capacity(p.sentences.len());
    for (i, s) in p.sentences.iter().enumerate() {
        sentences.push(Py::new(
            py,
            Sentence {
                span: slice(py, (chars[2 * i], chars[2 * i + 1])),
                bytes: (s.start as usize, s.end as usize),
                length: s.length,
                symbol: s.symbol(),
                leading: s.leading.iter().map(str::to_string).collect(),
            },
        )?);
    }
    Ok(Profile {
        length_string: p.length_string(),
        sentences,
        skipped_empty: p.skipped_empty,
        dropped_long: p.dropped_long,
        json,
    })
}

/// How many of a set's first terms, in any one order of all terms, hold a term of every set
/// whose Jaccard coefficient with it is at least `tau` (|x| − ⌈τ·|x|⌉ + 1, with the slack of
/// `slst batch`, so that rounding only makes a prefix longer): the prefixes of the word join.
#[pyfunction]
fn prefix_len(size: usize, tau: f64) -> usize {
    slst::method::prefix_len(size, tau)
}

/// Which units of a document a witness join walks (the plan of `slst batch`'s own walk):
/// `cost` per unit (the postings of its witness keys held by at most `max_df` documents; keys
/// held by more are boilerplate and witness nothing), `least` from `Detector.fewest_matched`.
/// Returns `(walked, assumed)`: which units count when witnessed, and how many units (those
/// not walked) count as witnessed against every document.
#[pyfunction]
fn plan_walk(cost: Vec<usize>, least: usize) -> PyResult<(Vec<bool>, usize)> {
    if least == 0 {
        return Err(PyValueError::new_err(
            "plan_walk: least must be at least 1 (a pair needs a unit in a block)",
        ));
    }
    let plan = slst::method::plan_walk(&cost, least);
    Ok((plan.walked, plan.assumed))
}

/// Decode a file's bytes as `slst` does: UTF-8, UTF-16 with a byte-order mark, else
/// Windows-1252; binary data (NUL bytes, mostly control characters) raises `SlstError`.
#[pyfunction]
fn decode(data: &[u8]) -> PyResult<String> {
    slst::corpus::decode_text(data)
        .map(|(text, _)| text)
        .map_err(|e| SlstError::new_err(format!("looks like binary data ({}), not text", e.0)))
}

/// The method names.
#[pyfunction]
fn methods() -> Vec<&'static str> {
    Method::ALL.iter().map(|m| m.name()).collect()
}

#[pymodule]
fn _slst(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SlstError", m.py().get_type::<SlstError>())?;
    m.add_class::<Detector>()?;
    m.add_class::<Sketch>()?;
    m.add_class::<Comparison>()?;
    m.add_class::<Block>()?;
    m.add_class::<Passage>()?;
    m.add_class::<Pair>()?;
    m.add_class::<Pairs>()?;
    m.add_class::<Profile>()?;
    m.add_class::<Sentence>()?;
    m.add_function(wrap_pyfunction!(profile, m)?)?;
    m.add_function(wrap_pyfunction!(methods, m)?)?;
    m.add_function(wrap_pyfunction!(decode, m)?)?;
    m.add_function(wrap_pyfunction!(plan_walk, m)?)?;
    m.add_function(wrap_pyfunction!(prefix_len, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
