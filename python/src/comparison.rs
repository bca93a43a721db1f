//! The comparison of two documents as Python objects: [`Comparison`] with its [`Block`]s and
//! [`Passage`]s. A record is built as plain data ([`Compared`]) where the typed comparison is,
//! with the GIL released, and becomes Python objects afterwards; its JSON is exactly what
//! `slst compare --json` prints.

use pyo3::prelude::*;
use pyo3::types::PySlice;

use slst::Document;
use slst::align::AlignConfig;
use slst::method::{WithDetector, WithSketches};
use slst::report::{CompareRecord, Versioned};

use crate::spans::{char_offsets, slice};

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
    /// The words the two spans share in order (word bigrams in common, plus one).
    shared_words: usize,
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
    /// The check of the decision that decided the pair (`resemblance`, `containment`, a
    /// refusal such as `other-figures`, …; docs/methods.md).
    decided_by: String,
    /// The named condition that check belongs to (`resemblance`, `figures-differ`,
    /// `parties-differ`, …; docs/methods.md).
    condition: String,
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
    shared_words: usize,
}

/// A comparison record as plain data (built where the typed record is, without the GIL).
pub(crate) struct Compared {
    json: String,
    method: String,
    resemblance: f64,
    containment_a: Option<f64>,
    containment_b: Option<f64>,
    duplicate: bool,
    rule: String,
    note: Option<String>,
    template: Option<String>,
    decided_by: String,
    condition: String,
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
            decided_by: record.decided_by.name().to_string(),
            condition: record.condition.name().to_string(),
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
                    shared_words: 0,
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
                        shared_words: p.shared_words,
                    })
                    .collect()
            }),
        }
    }

    /// The Python object; `texts` (when known) turn byte spans into slices.
    pub(crate) fn into_python(
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
                            shared_words: p.shared_words,
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
            decided_by: self.decided_by,
            condition: self.condition,
            blocks,
            passages,
            json: self.json,
        })
    }
}

/// Compare two sketches and build the record (with passages when both texts are there).
pub(crate) struct CompareSketches<'a> {
    /// The two documents (their texts empty when a sketch came without its text).
    pub(crate) docs: (&'a Document, &'a Document),
    /// How to grow passages, when they are wanted.
    pub(crate) passages: Option<AlignConfig>,
}

impl WithSketches for CompareSketches<'_> {
    type Output = Compared;
    fn with<D: slst::Detector>(self, d: &D, a: &D::Sketch, b: &D::Sketch) -> Compared {
        compare_record(
            d,
            (self.docs.0, a),
            (self.docs.1, b),
            self.passages.as_ref(),
        )
    }
}

/// Sketch two texts and compare them (with passages when asked for).
pub(crate) struct CompareTexts<'a>(
    pub(crate) &'a Document,
    pub(crate) &'a Document,
    pub(crate) Option<AlignConfig>,
);

impl WithDetector for CompareTexts<'_> {
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
