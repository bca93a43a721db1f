//! Reports: the stable JSON records and the human-readable text of `slst compare` and
//! `slst profile`.
//!
//! The JSON field names are a public interface: fields may be added, none renamed or removed.

use serde::Serialize;

use crate::block::Block;
use crate::document::{Document, Encoding};
use crate::method::{Comparison, SlstComparison, SlstConfig};
use crate::profile::SentenceProfile;

/// How many words of a block's first sentence the reports quote.
const OPENING_WORDS: usize = 10;

/// One document's line in a comparison record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DocumentSummary {
    /// The document id.
    pub id: String,
    /// Kept sentences.
    pub sentences: usize,
    /// Sentences skipped: no term left after stop-word removal.
    pub skipped_empty: usize,
    /// Sentences dropped: longer than the maximum length.
    pub dropped_long: usize,
    /// How the text was decoded.
    pub encoding: Encoding,
}

impl DocumentSummary {
    /// The summary of a document and its profile.
    pub fn new(doc: &Document, profile: &SentenceProfile) -> Self {
        DocumentSummary {
            id: doc.id.clone(),
            sentences: profile.len(),
            skipped_empty: profile.skipped_empty,
            dropped_long: profile.dropped_long,
            encoding: doc.encoding,
        }
    }
}

/// One kept block, located in both documents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
}

impl BlockRecord {
    /// Locate a block in the two documents.
    pub fn new(
        block: Block,
        a: (&Document, &SentenceProfile),
        b: (&Document, &SentenceProfile),
    ) -> Self {
        let span = |p: &SentenceProfile, start: usize| {
            [
                p.sentences[start].start as usize,
                p.sentences[start + block.len - 1].end as usize,
            ]
        };
        let a_span = span(a.1, block.a);
        let b_span = span(b.1, block.b);
        BlockRecord {
            a_start: block.a,
            b_start: block.b,
            len: block.len,
            a_span,
            b_span,
            a_opening: opening(&a.0.text[a_span[0]..a_span[1]]),
            b_opening: opening(&b.0.text[b_span[0]..b_span[1]]),
        }
    }
}

/// The settings a comparison ran with, recorded so that a result can be reproduced.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ParamsRecord {
    /// Which SL+ST: `paper` (this record is only made for paper mode; robust-mode records carry
    /// `"mode":"robust"` in their `params` and `evidence`).
    pub mode: &'static str,
    /// Minimum block length in sentences.
    pub min_block: usize,
    /// Maximum sentence length in terms.
    pub max_length: usize,
    /// Leading terms per sentence.
    pub leading_terms: usize,
    /// The stop-word list's id.
    pub stopwords: String,
    /// The resemblance threshold.
    pub threshold: f64,
}

impl From<&SlstConfig> for ParamsRecord {
    fn from(c: &SlstConfig) -> Self {
        ParamsRecord {
            mode: "paper",
            min_block: c.min_block,
            max_length: c.profile.max_length,
            leading_terms: c.profile.leading_terms,
            stopwords: c.profile.stopwords.id().to_string(),
            threshold: c.threshold,
        }
    }
}

/// The JSON record of `slst compare` for SL+ST:
/// `{"method","resemblance","containment_a","containment_b","duplicate","a","b","blocks",…}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CompareRecord {
    /// The method's name.
    pub method: &'static str,
    /// Resemblance (Jaccard over sentences in blocks).
    pub resemblance: f64,
    /// Containment of A in B.
    pub containment_a: f64,
    /// Containment of B in A.
    pub containment_b: f64,
    /// The decision at the threshold.
    pub duplicate: bool,
    /// Document A.
    pub a: DocumentSummary,
    /// Document B.
    pub b: DocumentSummary,
    /// Sentences covered by blocks (the same in both documents).
    pub matched_sentences: usize,
    /// The kept blocks, sorted by start in A.
    pub blocks: Vec<BlockRecord>,
    /// `"no sentences"` when a document has no kept sentence, `"identical profiles"` when the
    /// two profiles are the same; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'static str>,
    /// With a containment threshold θc: whether A lies in B (containment_a ≥ θc) and B in A.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contained: Option<Contained>,
    /// The settings used.
    pub params: ParamsRecord,
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
    fn to_text(self) -> String {
        format!(
            "A contained in B at θc = {}: {}\nB contained in A at θc = {}: {}\n",
            self.threshold,
            yes_no(self.a_in_b),
            self.threshold,
            yes_no(self.b_in_a)
        )
    }
}

impl CompareRecord {
    /// Add the containment decisions at `threshold`.
    pub fn with_containment_threshold(mut self, threshold: f64) -> Self {
        self.contained = Some(Contained::at(
            threshold,
            self.matched_sentences > 0,
            self.containment_a,
            self.containment_b,
        ));
        self
    }

    /// Assemble the record of one SL+ST comparison.
    pub fn new(
        a: (&Document, &SentenceProfile),
        b: (&Document, &SentenceProfile),
        comparison: &Comparison<SlstComparison>,
        config: &SlstConfig,
    ) -> Self {
        let ev = &comparison.evidence;
        let note = if a.1.is_empty() || b.1.is_empty() {
            Some("no sentences")
        } else if ev.identical {
            Some("identical profiles")
        } else {
            None
        };
        let s = comparison.similarity;
        CompareRecord {
            method: comparison.method,
            resemblance: s.resemblance,
            containment_a: s.containment_a.unwrap_or(0.0),
            containment_b: s.containment_b.unwrap_or(0.0),
            duplicate: comparison.duplicate,
            a: DocumentSummary::new(a.0, a.1),
            b: DocumentSummary::new(b.0, b.1),
            matched_sentences: ev.matched,
            blocks: ev
                .blocks
                .iter()
                .map(|&blk| BlockRecord::new(blk, a, b))
                .collect(),
            note,
            contained: None,
            params: ParamsRecord::from(config),
        }
    }

    /// The human-readable report.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let doc_line = |tag: &str, d: &DocumentSummary| {
            format!(
                "{tag}  {}\n   {} sentences kept, {} skipped as empty, {} dropped as longer than {} terms{}\n",
                d.id,
                d.sentences,
                d.skipped_empty,
                d.dropped_long,
                self.params.max_length,
                if d.encoding.is_fallback() {
                    format!(" (decoded as {})", d.encoding.name())
                } else {
                    String::new()
                }
            )
        };
        out.push_str(&doc_line("A", &self.a));
        out.push_str(&doc_line("B", &self.b));
        out.push('\n');
        if let Some(note) = self.note {
            out.push_str(&format!("note: {note}\n"));
        }
        out.push_str(&format!("resemblance J        {:.4}\n", self.resemblance));
        out.push_str(&format!("containment A in B   {:.4}\n", self.containment_a));
        out.push_str(&format!("containment B in A   {:.4}\n", self.containment_b));
        out.push_str(&format!(
            "duplicate at θ = {}: {}\n",
            self.params.threshold,
            if self.duplicate { "yes" } else { "no" }
        ));
        if let Some(c) = self.contained {
            out.push_str(&c.to_text());
        }
        out.push('\n');
        let n = self.blocks.len();
        out.push_str(&format!(
            "{n} block{} covering {} sentence{} of each document{}\n",
            if n == 1 { "" } else { "s" },
            self.matched_sentences,
            if self.matched_sentences == 1 { "" } else { "s" },
            if n == 0 {
                "."
            } else {
                " (sentences counted from 0, ranges half-open):"
            }
        ));
        for (k, b) in self.blocks.iter().enumerate() {
            out.push_str(&format!(
                "  #{:<3} A sentences {}..{} bytes {}..{}   B sentences {}..{} bytes {}..{}   ({} sentences)\n",
                k + 1,
                b.a_start,
                b.a_start + b.len,
                b.a_span[0],
                b.a_span[1],
                b.b_start,
                b.b_start + b.len,
                b.b_span[0],
                b.b_span[1],
                b.len
            ));
            out.push_str(&format!(
                "       A: {}\n       B: {}\n",
                b.a_opening, b.b_opening
            ));
        }
        out
    }
}

/// A document as the record of a baseline method names it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DocumentRef {
    /// The document id.
    pub id: String,
    /// How the text was decoded.
    pub encoding: Encoding,
}

impl From<&Document> for DocumentRef {
    fn from(doc: &Document) -> Self {
        DocumentRef {
            id: doc.id.clone(),
            encoding: doc.encoding,
        }
    }
}

/// The JSON record of `slst compare --method NAME` for every method but SL+ST:
/// `{"method","resemblance","containment_a","containment_b","duplicate","a","b","note","rule",
/// "evidence","params"}`.
///
/// The top-level fields are SL+ST's (see [`CompareRecord`]); a containment a method cannot define
/// is `null`, and `note` says why. `evidence` is the method's own (shingle counts, equal
/// megashingles, …), `rule` says in words how the decision was made.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MethodRecord {
    /// The method's name.
    pub method: &'static str,
    /// Resemblance, as the method defines it.
    pub resemblance: f64,
    /// Containment of A in B, where the method defines it.
    pub containment_a: Option<f64>,
    /// Containment of B in A, where the method defines it.
    pub containment_b: Option<f64>,
    /// The decision.
    pub duplicate: bool,
    /// Document A.
    pub a: DocumentRef,
    /// Document B.
    pub b: DocumentRef,
    /// Why a score is undefined or necessarily 0, when one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// How the decision was made, in words (`J ≥ 0.5`, `≥ 1 equal megashingle`, …).
    pub rule: String,
    /// With a containment threshold θc, for a method that defines both containments: whether A
    /// lies in B and B in A.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contained: Option<Contained>,
    /// The method's own evidence.
    pub evidence: serde_json::Value,
    /// The settings used.
    pub params: serde_json::Value,
}

impl MethodRecord {
    /// Assemble the record of one comparison. A `note` field of the evidence moves to the top
    /// level.
    pub fn new(
        a: &Document,
        b: &Document,
        comparison: Comparison<serde_json::Value>,
        rule: String,
        params: serde_json::Value,
    ) -> Self {
        let mut evidence = comparison.evidence;
        let note = match &mut evidence {
            serde_json::Value::Object(fields) => match fields.remove("note") {
                Some(serde_json::Value::String(note)) => Some(note),
                _ => None,
            },
            _ => None,
        };
        let s = comparison.similarity;
        let note = note.or_else(|| {
            (s.containment_a.is_none() || s.containment_b.is_none())
                .then(|| format!("containment is not defined for {}", comparison.method))
        });
        MethodRecord {
            method: comparison.method,
            resemblance: s.resemblance,
            containment_a: s.containment_a,
            containment_b: s.containment_b,
            duplicate: comparison.duplicate,
            a: a.into(),
            b: b.into(),
            note,
            rule,
            contained: None,
            evidence,
            params,
        }
    }

    /// Add the containment decisions at `threshold` (nothing when the method leaves a
    /// containment undefined). Something matched when the resemblance is above 0.
    pub fn with_containment_threshold(mut self, threshold: f64) -> Self {
        if let (Some(a), Some(b)) = (self.containment_a, self.containment_b) {
            self.contained = Some(Contained::at(threshold, self.resemblance > 0.0, a, b));
        }
        self
    }

    /// The human-readable report: scores, decision, evidence and settings.
    pub fn to_text(&self) -> String {
        let score = |x: Option<f64>| match x {
            Some(x) => format!("{x:.4}"),
            None => "undefined".to_string(),
        };
        let mut out = format!("A  {}\nB  {}\n\n", self.a.id, self.b.id);
        out.push_str(&format!("method               {}\n", self.method));
        if let Some(note) = &self.note {
            out.push_str(&format!("note: {note}\n"));
        }
        out.push_str(&format!("resemblance J        {:.4}\n", self.resemblance));
        out.push_str(&format!(
            "containment A in B   {}\n",
            score(self.containment_a)
        ));
        out.push_str(&format!(
            "containment B in A   {}\n",
            score(self.containment_b)
        ));
        out.push_str(&format!(
            "duplicate ({}): {}\n",
            self.rule,
            yes_no(self.duplicate)
        ));
        if let Some(c) = self.contained {
            out.push_str(&c.to_text());
        }
        out.push_str("\nevidence\n");
        if let serde_json::Value::Object(fields) = &self.evidence {
            for (key, value) in fields {
                out.push_str(&format!("  {key:<24} {}\n", plain(value)));
            }
        }
        if let serde_json::Value::Object(fields) = &self.params {
            let params: Vec<String> = fields
                .iter()
                .map(|(key, value)| format!("{key} {}", plain(value)))
                .collect();
            out.push_str(&format!("\nsettings: {}\n", params.join(", ")));
        }
        out
    }
}

/// "yes" or "no".
fn yes_no(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// A JSON value as plain text: numbers with 4 decimals where fractional, strings bare, `—` for
/// null.
fn plain(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => "—".to_string(),
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) if n.is_f64() => format!("{:.4}", n.as_f64().unwrap_or(0.0)),
        serde_json::Value::Array(items) => items.iter().map(plain).collect::<Vec<_>>().join(","),
        other => other.to_string(),
    }
}

/// One method's line in the side-by-side table of `slst compare --method all`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MethodRow {
    /// The method's name.
    pub method: &'static str,
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

impl From<&MethodRecord> for MethodRow {
    fn from(r: &MethodRecord) -> Self {
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

impl MethodRow {
    /// The row of an SL+ST record.
    pub fn from_slst(r: &CompareRecord) -> Self {
        MethodRow {
            method: r.method,
            resemblance: r.resemblance,
            containment_a: Some(r.containment_a),
            containment_b: Some(r.containment_b),
            duplicate: r.duplicate,
            rule: format!("J ≥ {}", r.params.threshold),
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
        .map(|r| r.method.chars().count() + 1)
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
            r.method,
            format!("{:.4}", r.resemblance),
            score(r.containment_a),
            score(r.containment_b),
            yes_no(r.duplicate),
            r.rule
        ));
    }
    out
}

/// One kept sentence in a profile record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SentenceRecord {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// Number of terms.
    pub length: u8,
    /// The base-36 symbol of the length.
    pub symbol: char,
    /// The leading terms (empty strings where the sentence has fewer terms).
    pub leading: Vec<String>,
}

/// The JSON record of `slst profile`: `{"id","length_string","sentences":[…],…}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProfileRecord {
    /// The document id.
    pub id: String,
    /// One base-36 symbol per kept sentence.
    pub length_string: String,
    /// The kept sentences.
    pub sentences: Vec<SentenceRecord>,
    /// Sentences skipped as empty.
    pub skipped_empty: usize,
    /// Sentences dropped as too long.
    pub dropped_long: usize,
    /// How the text was decoded.
    pub encoding: Encoding,
    /// The stop-word list's id.
    pub stopwords: String,
}

impl ProfileRecord {
    /// The record of a profile.
    pub fn new(doc: &Document, profile: &SentenceProfile, stopwords_id: &str) -> Self {
        ProfileRecord {
            id: profile.id.clone(),
            length_string: profile.length_string(),
            sentences: profile
                .sentences
                .iter()
                .map(|s| SentenceRecord {
                    start: s.start,
                    end: s.end,
                    length: s.length,
                    symbol: s.symbol(),
                    leading: s.leading.iter().map(|t| t.to_string()).collect(),
                })
                .collect(),
            skipped_empty: profile.skipped_empty,
            dropped_long: profile.dropped_long,
            encoding: doc.encoding,
            stopwords: stopwords_id.to_string(),
        }
    }

    /// The human-readable report: one line per kept sentence, then the length string.
    pub fn to_text(&self, doc: &Document) -> String {
        let mut out = format!(
            "{}\n{} sentences kept, {} skipped as empty, {} dropped as too long; stop words: {}\n\n",
            self.id,
            self.sentences.len(),
            self.skipped_empty,
            self.dropped_long,
            self.stopwords
        );
        out.push_str("   #  bytes          len sym  leading terms         opening\n");
        for (k, s) in self.sentences.iter().enumerate() {
            let span = format!("{}..{}", s.start, s.end);
            let leading = s
                .leading
                .iter()
                .map(|t| if t.is_empty() { "-" } else { t.as_str() })
                .collect::<Vec<_>>()
                .join(" ");
            out.push_str(&format!(
                "{k:>4}  {span:<14} {:>3}  {}   {leading:<20}  {}\n",
                s.length,
                s.symbol,
                opening(&doc.text[s.start as usize..s.end as usize])
            ));
        }
        out.push_str(&format!("\nlength string: {}\n", self.length_string));
        out
    }
}

/// The first words of a text on one line, with "…" when cut.
fn opening(text: &str) -> String {
    let mut words = text.split_whitespace();
    let head: Vec<&str> = words.by_ref().take(OPENING_WORDS).collect();
    let mut s = head.join(" ");
    if words.next().is_some() {
        s.push_str(" …");
    }
    s
}
