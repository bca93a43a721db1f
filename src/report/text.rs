//! The human-readable text of the records: what `slst compare`, `slst query` and
//! `slst compare --method all` print without `--json`.

use serde::Serialize;

use super::{CompareRecord, DocumentSummary};
use crate::method::DecidedBy;

/// "yes" or "no".
pub(crate) fn yes_no(b: bool) -> &'static str {
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

/// The fields of a record as `(name, plain text)`, in order (for the evidence and settings
/// lines: each method's own fields, whatever they are).
fn fields(record: &impl Serialize) -> Vec<(String, String)> {
    match serde_json::to_value(record) {
        Ok(serde_json::Value::Object(map)) => {
            map.into_iter().map(|(k, v)| (k, plain(&v))).collect()
        }
        _ => Vec::new(),
    }
}

impl<E: Serialize> CompareRecord<'_, E> {
    /// The human-readable report: for SL+ST the documents' sentence counts, the scores, the
    /// decision and every block with its sentences, bytes and opening words; for the other
    /// methods the scores, the decision, the evidence and the settings.
    pub fn to_text(&self) -> String {
        match &self.blocks {
            Some(_) => self.sentence_text(),
            None => self.method_text(),
        }
    }

    fn sentence_text(&self) -> String {
        let mut out = self.documents_text();
        if let Some(note) = &self.note {
            out.push_str(&format!("note: {note}\n"));
        }
        out.push_str(&self.scores_text());
        out.push('\n');
        out.push_str(&self.blocks_text());
        if let Some(passages) = &self.passages {
            out.push_str(&passages_text(passages));
        }
        out
    }

    /// The two documents' lines: id, sentences kept, skipped and dropped, and the encoding
    /// when it was a fallback; then a blank line.
    fn documents_text(&self) -> String {
        let mut out = String::new();
        let max_length = self.params.max_length().unwrap_or_default();
        let doc_line = |tag: &str, d: &DocumentSummary| {
            let c = d.counts.unwrap_or_default();
            format!(
                "{tag}  {}\n   {} kept, {} skipped as empty, {} dropped as longer than {} terms{}\n",
                d.id,
                super::count(c.sentences, "sentence", "sentences"),
                c.skipped_empty,
                c.dropped_long,
                max_length,
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
        out
    }

    /// The scores, the decision by the rule, and what decided it.
    fn scores_text(&self) -> String {
        let mut out = String::new();
        let score = |x: Option<f64>| x.unwrap_or_default();
        out.push_str(&format!("resemblance J        {:.4}\n", self.resemblance));
        out.push_str(&format!(
            "containment A in B   {:.4}\n",
            score(self.containment_a)
        ));
        out.push_str(&format!(
            "containment B in A   {:.4}\n",
            score(self.containment_b)
        ));
        let threshold = self.params.threshold().unwrap_or_default();
        if self.rule == format!("J ≥ {threshold}") {
            out.push_str(&format!(
                "duplicate at θ = {threshold}: {}\n",
                yes_no(self.duplicate)
            ));
        } else {
            out.push_str(&format!(
                "duplicate            {}{}\n  by the rule: {}\n",
                yes_no(self.duplicate),
                if self.template.is_some() {
                    " (a template)"
                } else {
                    ""
                },
                self.rule
            ));
        }
        out.push_str(&self.decided_by_line());
        if let Some(c) = self.contained {
            out.push_str(&c.to_text());
        }
        out
    }

    /// The blocks, one line of spans and one of openings each.
    fn blocks_text(&self) -> String {
        let mut out = String::new();
        let blocks = self.blocks.as_deref().unwrap_or_default();
        let matched = self.matched_sentences.unwrap_or_default();
        let n = blocks.len();
        out.push_str(&format!(
            "{n} block{} covering {} sentence{} of each document{}\n",
            if n == 1 { "" } else { "s" },
            matched,
            if matched == 1 { "" } else { "s" },
            if n == 0 {
                "."
            } else {
                " (sentences counted from 0, ranges half-open):"
            }
        ));
        for (k, b) in blocks.iter().enumerate() {
            let similarity = b
                .min_term_similarity
                .map(|j| format!(", term similarity ≥ {j:.3}"))
                .unwrap_or_default();
            out.push_str(&format!(
                "  #{:<3} A sentences {}..{} bytes {}..{}   B sentences {}..{} bytes {}..{}   ({}{similarity})\n",
                k + 1,
                b.a_start,
                b.a_start + b.len,
                b.a_span[0],
                b.a_span[1],
                b.b_start,
                b.b_start + b.len,
                b.b_span[0],
                b.b_span[1],
                super::count(b.len, "sentence", "sentences")
            ));
            out.push_str(&format!(
                "       A: {}\n       B: {}\n",
                b.a_opening, b.b_opening
            ));
        }
        out
    }

    /// `decided by: NAME[, condition CONDITION] (what it says)`: the condition when it is not
    /// the check's own name; a refusal's note is the record's note, shown above.
    fn decided_by_line(&self) -> String {
        let d = self.decided_by;
        let condition = if self.condition.name() == d.name() {
            String::new()
        } else {
            format!(", condition {}", self.condition.name())
        };
        if matches!(d, DecidedBy::Refused(_)) {
            format!("decided by: {}{condition}\n", d.name())
        } else {
            format!("decided by: {}{condition} ({})\n", d.name(), d.note())
        }
    }

    fn method_text(&self) -> String {
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
        out.push_str(&self.decided_by_line());
        if let Some(c) = self.contained {
            out.push_str(&c.to_text());
        }
        out.push_str("\nevidence\n");
        if let Some(evidence) = self.evidence {
            for (key, value) in fields(evidence) {
                out.push_str(&format!("  {key:<24} {value}\n"));
            }
        }
        let params: Vec<String> = fields(&self.params)
            .into_iter()
            .map(|(key, value)| format!("{key} {value}"))
            .collect();
        if !params.is_empty() {
            out.push_str(&format!("\nsettings: {}\n", params.join(", ")));
        }
        out
    }
}

/// The passages of a comparison as report lines.
fn passages_text(passages: &[super::PassageRecord]) -> String {
    let n = passages.len();
    let mut out = format!(
        "\n{n} reused passage{}{}\n",
        if n == 1 { "" } else { "s" },
        if n == 0 {
            "."
        } else {
            " (blocks extended word by word to the edges of the shared text, near ones merged; byte ranges half-open):"
        }
    );
    for (k, p) in passages.iter().enumerate() {
        out.push_str(&format!(
            "  #{:<3} A bytes {}..{}   B bytes {}..{}   (similarity {:.3}, {} words shared, from {} block{})\n",
            k + 1,
            p.a_span[0],
            p.a_span[1],
            p.b_span[0],
            p.b_span[1],
            p.similarity,
            p.shared_words,
            p.seeds,
            if p.seeds == 1 { "" } else { "s" }
        ));
        out.push_str(&format!(
            "       A: {}\n       B: {}\n",
            p.a_opening, p.b_opening
        ));
    }
    out
}
