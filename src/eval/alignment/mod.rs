//! Text-alignment evaluation, PAN style: which *characters* of which pairs of documents a
//! method finds reused, against cases located to the character in both documents.
//!
//! The truth is a set of **cases** ([`Annotation`]s: a suspicious and a source document and a
//! character span in each), read from a cases table or PAN's XML files ([`truth`]). For every
//! pair of documents the truth names, [`evaluate`] sketches and compares the two documents with a
//! method, takes the method's **passages** ([`crate::align`]) or, when asked, its blocks, and
//! converts their byte spans into character spans: the detections. [`measures`] scores them as
//! PAN does (micro-averaged character precision and recall, granularity, plagdet), over all
//! detections and over a sweep of thresholds on the detections' similarity. [`pan_xml`] writes
//! the detections as PAN's detection files, for PAN's own tools to score.

pub mod measures;
pub mod pan_xml;
mod report;
pub mod truth;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

pub use self::report::{AlignmentEval, AlignmentPoint, AlignmentReport};
use crate::align::AlignConfig;
use crate::document::Document;
use crate::error::{Error, Result};
use crate::method::{Comparison, Detector};

/// A passage of a pair of documents: its character spans `[start, end)` in the suspicious and
/// in the source document. A case of the truth, or a detection.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Annotation {
    /// The suspicious document's id.
    pub susp: String,
    /// The source document's id.
    pub src: String,
    /// Characters `[start, end)` in the suspicious document.
    pub susp_chars: [usize; 2],
    /// Characters `[start, end)` in the source document.
    pub src_chars: [usize; 2],
}

impl Annotation {
    /// An annotation from the two ids and the two character spans.
    pub fn new(susp: &str, src: &str, susp_chars: [usize; 2], src_chars: [usize; 2]) -> Self {
        Annotation {
            susp: susp.to_string(),
            src: src.to_string(),
            susp_chars,
            src_chars,
        }
    }

    /// Its characters on both sides.
    pub fn len(&self) -> usize {
        let side = |s: [usize; 2]| s[1].saturating_sub(s[0]);
        side(self.susp_chars) + side(self.src_chars)
    }

    /// Whether it covers no character on either side.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One detection of a pair of documents: character spans in both and the similarity of the two
/// texts (see [`crate::align::Passage::similarity`]), which the threshold sweep filters on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Detection {
    /// Characters `[start, end)` in the suspicious document.
    pub susp_chars: [usize; 2],
    /// Characters `[start, end)` in the source document.
    pub src_chars: [usize; 2],
    /// The Jaccard coefficient of the two spans' word bigrams (1: the same words in order).
    pub similarity: f64,
}

/// A pair of documents of the truth and what a method detected in it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairDetections {
    /// The suspicious document's id (as the truth names it).
    pub susp: String,
    /// The source document's id (as the truth names it).
    pub src: String,
    /// The detections, by start in the suspicious document.
    pub detections: Vec<Detection>,
}

/// Annotations read from a truth (or detections) file, and the pairs of documents it lists.
#[derive(Debug, Clone, PartialEq)]
pub struct AlignmentTruth {
    /// Where it was read from (named in errors).
    pub source: PathBuf,
    /// The cases.
    pub cases: Vec<Annotation>,
    /// Every pair of documents evaluated, (suspicious, source), sorted, distinct: the pairs of
    /// the cases and pairs listed without a case.
    pub pairs: Vec<(String, String)>,
}

impl AlignmentTruth {
    /// Cases read from `source`, with pairs listed without a case besides. The cases are a set,
    /// as in PAN's script: a case given twice is kept once (the first time).
    pub fn new(source: &Path, cases: Vec<Annotation>, pairs: Vec<(String, String)>) -> Self {
        let mut seen = HashSet::new();
        let cases: Vec<Annotation> = cases
            .into_iter()
            .filter(|c| seen.insert(c.clone()))
            .collect();
        let mut all: Vec<(String, String)> = cases
            .iter()
            .map(|c| (c.susp.clone(), c.src.clone()))
            .chain(pairs)
            .collect();
        all.sort_unstable();
        all.dedup();
        AlignmentTruth {
            source: source.to_path_buf(),
            cases,
            pairs: all,
        }
    }
}

/// What the detections of a pair are.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DetectionKind {
    /// The passages grown from the method's blocks ([`crate::align::passages`]).
    Passages(AlignConfig),
    /// The method's blocks as they are (their spans from the first sentence's start to the last
    /// sentence's end).
    Blocks,
}

/// Settings of a text-alignment evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct AlignmentConfig {
    /// Passages (the default) or blocks.
    pub detections: DetectionKind,
    /// The similarity thresholds swept (default: pair evaluation's 0.05, 0.10, …, 1.00).
    pub thresholds: Vec<f64>,
}

impl Default for AlignmentConfig {
    fn default() -> Self {
        AlignmentConfig {
            detections: DetectionKind::Passages(AlignConfig::default()),
            thresholds: super::metrics::default_thresholds(),
        }
    }
}

/// The evaluation set: documents, pairs and cases.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlignmentSetSummary {
    /// Documents read.
    pub documents: usize,
    /// Pairs of documents evaluated.
    pub pairs: usize,
    /// Cases.
    pub cases: usize,
    /// Document ids read more than once (the first is used).
    pub duplicate_ids: usize,
    /// Ids of the truth found as a document's file name rather than its id (a folder read
    /// from above names its files by their path inside it).
    pub matched_by_file_name: usize,
    /// Cases reaching past the end of one of their documents (offsets that do not fit the
    /// text as read).
    pub cases_out_of_range: usize,
}

/// A pair of the truth matched to the documents read.
#[derive(Debug, Clone)]
struct Pair {
    susp: usize,
    src: usize,
    ids: (String, String),
}

/// The truth matched to the documents read.
#[derive(Debug, Clone)]
pub struct AlignmentSet<'a> {
    docs: &'a [Document],
    pairs: Vec<Pair>,
    cases: Vec<Annotation>,
    summary: AlignmentSetSummary,
}

impl AlignmentSet<'_> {
    /// The set's counts.
    pub fn summary(&self) -> &AlignmentSetSummary {
        &self.summary
    }

    /// The cases.
    pub fn cases(&self) -> &[Annotation] {
        &self.cases
    }
}

/// The last component of a path-like id (`susp/a.txt` → `a.txt`).
fn file_name(id: &str) -> &str {
    id.rsplit(['/', '\\']).next().unwrap_or(id)
}

/// Match the truth's documents to the documents read: by id, else by file name (when exactly
/// one document read has that file name).
///
/// # Errors
/// [`Error::MissingDocument`] naming the truth and the first id not found.
pub fn prepare<'a>(docs: &'a [Document], truth: &AlignmentTruth) -> Result<AlignmentSet<'a>> {
    let mut by_id: HashMap<&str, usize> = HashMap::new();
    let mut by_name: HashMap<&str, Option<usize>> = HashMap::new();
    let mut duplicate_ids = 0;
    for (i, d) in docs.iter().enumerate() {
        if by_id.contains_key(d.id.as_str()) {
            duplicate_ids += 1;
            continue;
        }
        by_id.insert(&d.id, i);
        by_name
            .entry(file_name(&d.id))
            .and_modify(|e| *e = None)
            .or_insert(Some(i));
    }
    let mut by_name_used: HashSet<&str> = HashSet::new();
    let mut missing: Vec<&str> = Vec::new();
    let mut find = |id| -> Option<usize> {
        let found = by_id.get(id).copied().or_else(|| {
            let i = by_name.get(file_name(id)).copied().flatten()?;
            by_name_used.insert(id);
            Some(i)
        });
        if found.is_none() && !missing.contains(&id) {
            missing.push(id);
        }
        found
    };
    let pairs: Vec<Option<Pair>> = truth
        .pairs
        .iter()
        .map(|(s, r)| {
            let (susp, src) = (find(s.as_str()), find(r.as_str()));
            Some(Pair {
                susp: susp?,
                src: src?,
                ids: (s.clone(), r.clone()),
            })
        })
        .collect();
    if let Some(first) = missing.first() {
        return Err(Error::MissingDocument {
            path: truth.source.clone(),
            id: first.to_string(),
            count: missing.len(),
        });
    }
    let pairs: Vec<Pair> = pairs.into_iter().flatten().collect();
    let summary = AlignmentSetSummary {
        documents: docs.len(),
        pairs: pairs.len(),
        cases: truth.cases.len(),
        duplicate_ids,
        matched_by_file_name: by_name_used.len(),
        cases_out_of_range: out_of_range(docs, &pairs, &truth.cases),
    };
    Ok(AlignmentSet {
        docs,
        pairs,
        cases: truth.cases.clone(),
        summary,
    })
}

/// Cases whose spans reach past the end of their documents' text.
fn out_of_range(docs: &[Document], pairs: &[Pair], cases: &[Annotation]) -> usize {
    let length: HashMap<(&str, &str), (usize, usize)> = pairs
        .iter()
        .map(|p| {
            let chars = |i: usize| docs[i].text.chars().count();
            (
                (p.ids.0.as_str(), p.ids.1.as_str()),
                (chars(p.susp), chars(p.src)),
            )
        })
        .collect();
    cases
        .iter()
        .filter(|c| {
            let (s, r) = length[&(c.susp.as_str(), c.src.as_str())];
            c.susp_chars[1] > s || c.src_chars[1] > r
        })
        .count()
}

/// The character offset of byte offset `byte` of `text` (the characters before it; a byte
/// inside a character counts that character as before it).
///
/// # Example
/// ```
/// use slst::eval::alignment::char_offset;
/// assert_eq!(char_offset("“Yes,” he said.", 8), 6); // “ and ” are 3 bytes each
/// ```
pub fn char_offset(text: &str, byte: usize) -> usize {
    let bytes = &text.as_bytes()[..byte.min(text.len())];
    // Every byte but UTF-8 continuation bytes (0b10xx_xxxx) starts a character.
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// A byte span of a text as a character span.
fn char_span(text: &str, ascii: bool, span: [usize; 2]) -> [usize; 2] {
    if ascii {
        span
    } else {
        [char_offset(text, span[0]), char_offset(text, span[1])]
    }
}

/// Evaluate one method: compare every pair of the truth ([`crate::batch::verify_pairs`], no
/// rule: each is scored whatever it scores), detect in each (in parallel; the result does not
/// depend on the thread count), then score all detections and each threshold of the sweep.
/// A method without blocks detects nothing.
pub fn evaluate<D: Detector>(
    set: &AlignmentSet,
    detector: &D,
    config: &AlignmentConfig,
) -> AlignmentEval {
    let t = Instant::now();
    let mut needed = vec![false; set.docs.len()];
    for p in &set.pairs {
        needed[p.susp] = true;
        needed[p.src] = true;
    }
    let sketches: Vec<Option<D::Sketch>> = set
        .docs
        .par_iter()
        .zip(needed)
        .map(|(d, need)| need.then(|| detector.sketch(d)))
        .collect();
    let sketch = |i: usize| sketches[i].as_ref().expect("sketched above");
    let listed: Vec<(&D::Sketch, &D::Sketch)> = set
        .pairs
        .iter()
        .map(|p| (sketch(p.susp), sketch(p.src)))
        .collect();
    let comparisons = crate::batch::verify_pairs(detector, &listed, None);
    let pairs: Vec<PairDetections> = set
        .pairs
        .par_iter()
        .zip(comparisons)
        .map(|(p, verdict)| {
            let comparison = verdict.kept().expect("kept: no rule");
            let a = (&set.docs[p.susp], sketch(p.susp));
            let b = (&set.docs[p.src], sketch(p.src));
            PairDetections {
                susp: p.ids.0.clone(),
                src: p.ids.1.clone(),
                detections: detect(detector, a, b, &comparison, &config.detections),
            }
        })
        .collect();
    let seconds = t.elapsed().as_secs_f64();
    AlignmentEval::new(detector, &set.cases, pairs, &config.thresholds, seconds)
}

/// The detections of one pair: the passages or blocks of its comparison, in characters.
fn detect<D: Detector>(
    detector: &D,
    a: (&Document, &D::Sketch),
    b: (&Document, &D::Sketch),
    comparison: &Comparison<D::Evidence>,
    kind: &DetectionKind,
) -> Vec<Detection> {
    let spans: Vec<([usize; 2], [usize; 2], f64)> = match kind {
        DetectionKind::Passages(align) => crate::align::passages(detector, a, b, comparison, align)
            .unwrap_or_default()
            .into_iter()
            .map(|p| (p.a_span, p.b_span, p.similarity))
            .collect(),
        DetectionKind::Blocks => {
            use crate::method::Evidence;
            let blocks = comparison.evidence.blocks().unwrap_or_default();
            blocks
                .iter()
                .map(|f| {
                    let (x, y) = crate::method::locate(detector, (a.1, b.1), f);
                    (
                        x,
                        y,
                        crate::align::similarity(&a.0.text[x[0]..x[1]], &b.0.text[y[0]..y[1]]),
                    )
                })
                .collect()
        }
    };
    let (ascii_a, ascii_b) = (a.0.text.is_ascii(), b.0.text.is_ascii());
    let mut out: Vec<Detection> = spans
        .into_iter()
        .map(|(x, y, similarity)| Detection {
            susp_chars: char_span(&a.0.text, ascii_a, x),
            src_chars: char_span(&b.0.text, ascii_b, y),
            similarity,
        })
        .collect();
    out.sort_by_key(|d| (d.susp_chars, d.src_chars));
    out
}

#[cfg(test)]
mod tests;
