//! Reports: the typed records slst writes, one schema for every method.
//!
//! The records are the public output schema, documented in `docs/schema.md` and versioned by
//! [`SCHEMA_VERSION`]: fields may be added within a version, none renamed or removed. Every method
//! fills the same [`CompareRecord`]; a method that finds sentence blocks (SL+ST, in either mode)
//! reports them as `blocks` with their spans, the others their own `evidence`.

mod page;
mod profile;
mod text;

use serde::Serialize;

pub use self::page::{PageBlockRecord, PageRecord};
pub use self::profile::{ProfileRecord, SentenceRecord};
use self::text::yes_no;
use crate::align::Passage;
use crate::document::{Document, Encoding};
use crate::method::{
    Comparison, Condition, DecidedBy, Detector, Evidence, FoundBlock, Method, Params,
    SentenceCounts,
};

/// The version of the output schema (`docs/schema.md`). Version 2: one comparison record for
/// every method, blocks in one place, the mode in `params`; version 4: one record shape per
/// batch output file (group records only in the groups file).
pub const SCHEMA_VERSION: u32 = 4;

/// How many words of a block's first sentence the reports quote.
const OPENING_WORDS: usize = 10;

/// A top-level JSON document: the record with the schema version first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Versioned<T: Serialize> {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The record.
    #[serde(flatten)]
    pub record: T,
}

impl<T: Serialize> Versioned<T> {
    /// The record, versioned.
    pub fn new(record: T) -> Self {
        Versioned {
            schema_version: SCHEMA_VERSION,
            record,
        }
    }
}

/// One document's line in a comparison record: its id and encoding, and for a method that
/// works on sentences what it kept and left out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DocumentSummary {
    /// The document id.
    pub id: String,
    /// Kept sentences, and sentences skipped as empty or dropped as too long (SL+ST).
    #[serde(flatten)]
    pub counts: Option<SentenceCounts>,
    /// How the text was decoded.
    pub encoding: Encoding,
    /// The stop-word list chosen for this document, when the setting is `auto`
    /// ([`crate::text::StopWords::for_text`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopwords: Option<String>,
}

impl DocumentSummary {
    /// The summary of a document and what a method kept of it.
    pub fn new(doc: &Document, counts: Option<SentenceCounts>) -> Self {
        DocumentSummary {
            id: doc.id.clone(),
            counts,
            encoding: doc.encoding,
            stopwords: None,
        }
    }

    /// The summary, with the list chosen for the document when the method's stop words
    /// (`params`) are `auto`.
    pub fn with_stopwords(mut self, doc: &Document, params: &Params) -> Self {
        self.stopwords = params
            .auto_stopwords()
            .map(|auto| auto.for_text(&doc.text).id().to_string());
        self
    }
}

/// One kept block, located in both documents.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BlockRecord {
    /// First sentence in A (kept sentences, from 0).
    pub a_start: usize,
    /// First sentence in B.
    pub b_start: usize,
    /// Number of sentences.
    pub len: usize,
    /// Byte span `[start, end)` of the block in A's text.
    pub a_span: [usize; 2],
    /// Byte span `[start, end)` of the block in B's text.
    pub b_span: [usize; 2],
    /// The first words of the block in A.
    pub a_opening: String,
    /// The first words of the block in B.
    pub b_opening: String,
    /// The smallest term similarity of the block's sentence pairs (robust SL+ST).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_term_similarity: Option<f64>,
}

impl BlockRecord {
    /// Locate a found block in the two documents.
    pub fn new<D: Detector>(
        detector: &D,
        found: &FoundBlock,
        a: (&Document, &D::Sketch),
        b: (&Document, &D::Sketch),
    ) -> Self {
        let (a_span, b_span) = crate::method::locate(detector, (a.1, b.1), found);
        let quote = |doc: &Document, span: [usize; 2]| {
            opening(doc.text.get(span[0]..span[1]).unwrap_or_default())
        };
        BlockRecord {
            a_start: found.block.a,
            b_start: found.block.b,
            len: found.block.len,
            a_span,
            b_span,
            a_opening: quote(a.0, a_span),
            b_opening: quote(b.0, b_span),
            min_term_similarity: found.min_term_similarity,
        }
    }
}

/// One reused passage, located in both documents (see [`crate::align`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PassageRecord {
    /// Byte span `[start, end)` of the passage in A's text.
    pub a_span: [usize; 2],
    /// Byte span `[start, end)` of the passage in B's text.
    pub b_span: [usize; 2],
    /// The Jaccard coefficient of the two spans' sets of word bigrams.
    pub similarity: f64,
    /// The words the two spans share in order ([`Passage::shared_words`]).
    pub shared_words: usize,
    /// How many seeds (blocks, or blocks over windows of over-long sentences) the passage grew
    /// from.
    pub seeds: usize,
    /// The first words of the passage in A.
    pub a_opening: String,
    /// The first words of the passage in B.
    pub b_opening: String,
}

impl PassageRecord {
    /// Locate a passage in the two documents.
    pub fn new(p: Passage, a: &Document, b: &Document) -> Self {
        let quote = |doc: &Document, span: [usize; 2]| {
            opening(doc.text.get(span[0]..span[1]).unwrap_or_default())
        };
        PassageRecord {
            a_span: p.a_span,
            b_span: p.b_span,
            similarity: p.similarity,
            shared_words: p.shared_words,
            seeds: p.seeds,
            a_opening: quote(a, p.a_span),
            b_opening: quote(b, p.b_span),
        }
    }
}

/// A count with its noun, singular or plural as the count asks: `1 block`, `2 blocks`.
///
/// # Example
/// ```
/// assert_eq!(slst::report::count(1, "document", "documents"), "1 document");
/// assert_eq!(slst::report::count(0, "sentence", "sentences"), "0 sentences");
/// ```
pub fn count(n: usize, singular: &str, plural: &str) -> String {
    format!("{n} {}", if n == 1 { singular } else { plural })
}

/// The containment decisions at a threshold θc (SPEC §3.5).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Contained {
    /// The threshold θc.
    pub threshold: f64,
    /// containment_a ≥ θc (and at least one block).
    pub a_in_b: bool,
    /// containment_b ≥ θc (and at least one block).
    pub b_in_a: bool,
}

impl Contained {
    /// The decisions at `threshold` for two containments, when something matched at all.
    pub fn at(threshold: f64, found: bool, containment_a: f64, containment_b: f64) -> Contained {
        Contained {
            threshold,
            a_in_b: found && containment_a >= threshold,
            b_in_a: found && containment_b >= threshold,
        }
    }

    /// The two decisions as report lines.
    pub(crate) fn to_text(self) -> String {
        format!(
            "A contained in B at θc = {}: {}\nB contained in A at θc = {}: {}\n",
            self.threshold,
            yes_no(self.a_in_b),
            self.threshold,
            yes_no(self.b_in_a)
        )
    }
}

/// The record of one comparison, for every method (`slst compare --json`, and each hit of
/// `slst query --json`): `{"method","resemblance","containment_a","containment_b","duplicate",
/// "decided_by","condition","a","b",["matched_sentences","blocks"],["note"],"rule",["contained"],["evidence"],"params"}`.
///
/// A containment a method cannot define is `null`, and `note` says so. SL+ST (either mode)
/// gives `matched_sentences` and `blocks`; every other method gives its `evidence`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompareRecord<'a, E: Serialize> {
    /// The method.
    pub method: Method,
    /// Resemblance, as the method defines it.
    pub resemblance: f64,
    /// Containment of A in B, where the method defines it.
    pub containment_a: Option<f64>,
    /// Containment of B in A, where the method defines it.
    pub containment_b: Option<f64>,
    /// The decision.
    pub duplicate: bool,
    /// The check of the decision that decided the pair ([`DecidedBy`]).
    pub decided_by: DecidedBy,
    /// The named condition that check belongs to ([`DecidedBy::condition`]).
    pub condition: Condition,
    /// Document A.
    pub a: DocumentSummary,
    /// Document B.
    pub b: DocumentSummary,
    /// Sentences covered by blocks, the same in both documents (SL+ST).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_sentences: Option<usize>,
    /// The kept blocks, sorted by start in A (SL+ST).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks: Option<Vec<BlockRecord>>,
    /// The reused passages grown from the blocks ([`crate::align`]), sorted by start in A
    /// (methods with blocks, when asked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passages: Option<Vec<PassageRecord>>,
    /// Why a score is undefined or necessarily 0, or what is special about the pair
    /// (`no sentences`, `identical profiles`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Why the pair is a template and not a duplicate, when the method refused it as one
    /// ([`Evidence::template`]; `slst batch --templates report` reports such pairs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// How the decision was made, in words (`J ≥ 0.5`, `≥ 1 equal megashingle`, …).
    pub rule: String,
    /// With a containment threshold θc, for a method that defines both containments: whether A
    /// lies in B and B in A.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contained: Option<Contained>,
    /// The method's own evidence (methods without sentence blocks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<&'a E>,
    /// The settings used (for SL+ST with its `mode`).
    pub params: Params,
}

impl<'a, E: Evidence> CompareRecord<'a, E> {
    /// Assemble the record of one comparison of `a` against `b`.
    pub fn new<D: Detector<Evidence = E>>(
        detector: &D,
        a: (&Document, &D::Sketch),
        b: (&Document, &D::Sketch),
        comparison: &'a Comparison<E>,
    ) -> Self {
        let ev = &comparison.evidence;
        let found = ev.blocks();
        let s = comparison.similarity;
        let note = ev.note().map(str::to_string).or_else(|| {
            (s.containment_a.is_none() || s.containment_b.is_none())
                .then(|| format!("containment is not defined for {}", comparison.method))
        });
        let params = detector.params();
        CompareRecord {
            method: comparison.method,
            resemblance: s.resemblance,
            containment_a: s.containment_a,
            containment_b: s.containment_b,
            duplicate: comparison.duplicate,
            decided_by: comparison.decided_by(),
            condition: comparison.decided_by().condition(),
            a: DocumentSummary::new(a.0, detector.sentence_counts(a.1))
                .with_stopwords(a.0, &params),
            b: DocumentSummary::new(b.0, detector.sentence_counts(b.1))
                .with_stopwords(b.0, &params),
            matched_sentences: found.as_ref().map(|f| f.iter().map(|x| x.block.len).sum()),
            blocks: found.as_ref().map(|f| {
                f.iter()
                    .map(|x| BlockRecord::new(detector, x, a, b))
                    .collect()
            }),
            passages: None,
            note,
            template: comparison.template().map(str::to_string),
            rule: detector.rule(),
            contained: None,
            evidence: found.is_none().then_some(ev),
            params,
        }
    }

    /// Add the passages found in `a` and `b` ([`crate::align::passages`]).
    pub fn with_passages(mut self, passages: Vec<Passage>, a: &Document, b: &Document) -> Self {
        self.passages = Some(
            passages
                .into_iter()
                .map(|p| PassageRecord::new(p, a, b))
                .collect(),
        );
        self
    }

    /// Add the containment decisions at `threshold` (nothing when the method leaves a
    /// containment undefined). Something matched when the resemblance is above 0.
    pub fn with_containment_threshold(mut self, threshold: f64) -> Self {
        if let (Some(a), Some(b)) = (self.containment_a, self.containment_b) {
            self.contained = Some(Contained::at(threshold, self.resemblance > 0.0, a, b));
        }
        self
    }
}

/// What a method keeps of one document (`slst sketch --json`): `{"method","id",…,"params"}`
/// with the method's own fields between.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SketchRecord<V: Serialize> {
    /// The method.
    pub method: Method,
    /// The document id.
    pub id: String,
    /// The method's view of its sketch.
    #[serde(flatten)]
    pub sketch: V,
    /// The settings used.
    pub params: Params,
}

impl<V: Serialize> SketchRecord<V> {
    /// The record of what `detector` keeps of `doc`.
    pub fn new<D: Detector<SketchView = V>>(detector: &D, doc: &Document) -> Self {
        SketchRecord {
            method: detector.method(),
            id: doc.id.clone(),
            sketch: detector.sketch_view(&detector.sketch(doc)),
            params: detector.params(),
        }
    }
}

/// One method's line in the side-by-side table of `slst compare --method all`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MethodRow {
    /// The method.
    pub method: Method,
    /// Resemblance.
    pub resemblance: f64,
    /// Containment of A in B, where defined.
    pub containment_a: Option<f64>,
    /// Containment of B in A, where defined.
    pub containment_b: Option<f64>,
    /// The decision.
    pub duplicate: bool,
    /// How the decision was made.
    pub rule: String,
}

impl<E: Serialize> From<&CompareRecord<'_, E>> for MethodRow {
    fn from(r: &CompareRecord<'_, E>) -> Self {
        MethodRow {
            method: r.method,
            resemblance: r.resemblance,
            containment_a: r.containment_a,
            containment_b: r.containment_b,
            duplicate: r.duplicate,
            rule: r.rule.clone(),
        }
    }
}

/// The side-by-side table of `slst compare --method all`: one line per method with its
/// resemblance, containments (`—` where undefined), decision and rule.
pub fn methods_table(a: &str, b: &str, rows: &[MethodRow]) -> String {
    let score = |x: Option<f64>| x.map_or("—".to_string(), |x| format!("{x:.4}"));
    let mut out = format!("A  {a}\nB  {b}\n\n");
    let w = rows
        .iter()
        .map(|r| r.method.name().chars().count() + 1)
        .max()
        .unwrap_or(0)
        .max(13);
    out.push_str(&format!(
        "{:<w$} resemblance  A in B   B in A   duplicate  rule\n",
        "method"
    ));
    for r in rows {
        out.push_str(&format!(
            "{:<w$} {:>11}  {:>6}   {:>6}   {:<9}  {}\n",
            r.method.name(),
            format!("{:.4}", r.resemblance),
            score(r.containment_a),
            score(r.containment_b),
            yes_no(r.duplicate),
            r.rule
        ));
    }
    out
}

/// The first words of a text on one line, with "…" when cut.
pub(crate) fn opening(text: &str) -> String {
    let mut words = text.split_whitespace();
    let head: Vec<&str> = words.by_ref().take(OPENING_WORDS).collect();
    let mut s = head.join(" ");
    if words.next().is_some() {
        s.push_str(" …");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::{Method, MethodSettings, WithDetector};

    /// The schema's promise: every method's record has the same required fields, blocks only
    /// where a method finds them, evidence only where it does not.
    #[test]
    fn every_method_fills_one_record_shape() {
        struct Record<'a>(&'a Document, &'a Document);
        impl WithDetector for Record<'_> {
            type Output = serde_json::Value;
            fn with<D: Detector>(self, d: &D) -> serde_json::Value {
                let (a, b) = (d.sketch(self.0), d.sketch(self.1));
                let c = d.compare(&a, &b);
                let r = CompareRecord::new(d, (self.0, &a), (self.1, &b), &c);
                serde_json::to_value(Versioned::new(r)).unwrap()
            }
        }
        let a = Document::new("a", include_str!("../../corpora/clough/g0pA_taskb.txt"));
        let b = Document::new("b", include_str!("../../corpora/clough/orig_taskb.txt"));
        let mut settings = MethodSettings::default();
        for mode in [
            crate::method::SlstMode::Paper,
            crate::method::SlstMode::Robust,
        ] {
            settings.slst_mode = mode;
            for method in Method::ALL {
                let v = settings.detector(method).unwrap().visit(Record(&a, &b));
                let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
                for required in [
                    "schema_version",
                    "method",
                    "resemblance",
                    "containment_a",
                    "containment_b",
                    "duplicate",
                    "a",
                    "b",
                    "rule",
                    "params",
                ] {
                    assert!(keys.contains(&required), "{method}: {keys:?}");
                }
                let sentence_method = matches!(method, Method::Slst | Method::SlstFlat);
                assert_eq!(keys.contains(&"blocks"), sentence_method, "{method}");
                assert_eq!(keys.contains(&"evidence"), !sentence_method, "{method}");
                assert_eq!(v["schema_version"], SCHEMA_VERSION);
                assert_eq!(v["method"], method.name());
            }
        }
    }
}
