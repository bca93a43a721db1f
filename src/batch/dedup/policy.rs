//! Keep policies: which document of a pair of near-duplicates is kept.

use std::cmp::Ordering;

use serde_json::Value;

use crate::document::Document;
use crate::error::{Error, Result};
use crate::method::Detector;

/// Which document of a pair of near-duplicates is kept: documents are ranked by it, and ties
/// (and [`KeepPolicy::First`]) go by input order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum KeepPolicy {
    /// The earliest in input order (`first`, the default): the order of the input decides, and
    /// what is kept does not change when a copy is added later.
    #[default]
    First,
    /// The most bytes of text (`longest`).
    Longest,
    /// The most kept sentences (`most-sentences`, also `most-complete`): for SL+ST in either
    /// mode, its kept sentences (or units); other methods do not count sentences.
    MostSentences,
    /// For JSON lines (`field:NAME`): the largest number in that field of the record, or else
    /// the lexicographically largest string; numbers rank before strings, and a record without
    /// the field (or with another kind of value there) ranks last.
    Field(String),
}

impl KeepPolicy {
    /// The policy a name gives: `first`, `longest`, `most-sentences` (or `most-complete`),
    /// `field:NAME`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `keep`.
    ///
    /// # Example
    /// ```
    /// use slst::batch::dedup::KeepPolicy;
    /// assert_eq!(KeepPolicy::parse("field:score")?, KeepPolicy::Field("score".into()));
    /// assert!(KeepPolicy::parse("field:").is_err() && KeepPolicy::parse("last").is_err());
    /// # Ok::<(), slst::Error>(())
    /// ```
    pub fn parse(name: &str) -> Result<KeepPolicy> {
        Ok(match name {
            "first" => KeepPolicy::First,
            "longest" => KeepPolicy::Longest,
            "most-sentences" | "most-complete" => KeepPolicy::MostSentences,
            _ => match name.strip_prefix("field:") {
                Some(field) if !field.is_empty() => KeepPolicy::Field(field.to_string()),
                _ => {
                    return Err(Error::InvalidParameter {
                        name: "keep",
                        value: name.to_string(),
                        expected: "first, longest, most-sentences or field:NAME",
                    });
                }
            },
        })
    }

    /// The policy's name, as [`KeepPolicy::parse`] reads it.
    pub fn name(&self) -> String {
        match self {
            KeepPolicy::First => "first".into(),
            KeepPolicy::Longest => "longest".into(),
            KeepPolicy::MostSentences => "most-sentences".into(),
            KeepPolicy::Field(f) => format!("field:{f}"),
        }
    }

    /// Whether the policy reads each document's record as read ([`KeepPolicy::Field`]).
    pub fn needs_record(&self) -> bool {
        matches!(self, KeepPolicy::Field(_))
    }

    /// Check that `detector` gives what the policy ranks by: [`KeepPolicy::MostSentences`]
    /// needs a method that counts sentences.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming `keep`.
    pub fn check<D: Detector + ?Sized>(&self, detector: &D) -> Result<()> {
        let counts = || detector.sentence_counts(&detector.sketch(&Document::new("", "")));
        if *self == KeepPolicy::MostSentences && counts().is_none() {
            return Err(Error::InvalidParameter {
                name: "keep",
                value: format!("most-sentences with {}", detector.method()),
                expected: "most-sentences with a method that counts sentences (slst), or \
                           first, longest, field:NAME",
            });
        }
        Ok(())
    }

    /// The key of a document taken while it is read: its length, or its record's field
    /// (`record`: the JSON line it was read from); `None` for a policy that ranks otherwise.
    pub fn key_as_read(&self, doc: &Document, record: Option<&[u8]>) -> Option<RankKey> {
        match self {
            KeepPolicy::First | KeepPolicy::MostSentences => None,
            KeepPolicy::Longest => Some(RankKey::Number(doc.text.len() as f64)),
            KeepPolicy::Field(name) => Some(record.map_or(RankKey::Missing, |r| field(r, name))),
        }
    }
}

/// The value of a field of a JSON object, as a key.
fn field(record: &[u8], name: &str) -> RankKey {
    let Ok(Value::Object(mut object)) = serde_json::from_slice::<Value>(record) else {
        return RankKey::Missing;
    };
    match object.remove(name) {
        Some(Value::Number(n)) => n.as_f64().map_or(RankKey::Missing, RankKey::Number),
        Some(Value::String(s)) => RankKey::Text(s),
        _ => RankKey::Missing,
    }
}

/// What a document is ranked by; a larger key ranks first. Numbers rank before strings, and
/// both before a missing value.
#[derive(Debug, Clone, PartialEq)]
pub enum RankKey {
    /// No value: ranked last.
    Missing,
    /// A string, compared lexicographically (by bytes).
    Text(String),
    /// A number.
    Number(f64),
}

impl RankKey {
    /// A count as a key (`None`: missing).
    pub fn count(n: Option<usize>) -> RankKey {
        n.map_or(RankKey::Missing, |n| RankKey::Number(n as f64))
    }

    fn cmp(&self, other: &RankKey) -> Ordering {
        let kind = |k: &RankKey| match k {
            RankKey::Missing => 0,
            RankKey::Text(_) => 1,
            RankKey::Number(_) => 2,
        };
        match (self, other) {
            (RankKey::Number(a), RankKey::Number(b)) => a.total_cmp(b),
            (RankKey::Text(a), RankKey::Text(b)) => a.cmp(b),
            _ => kind(self).cmp(&kind(other)),
        }
    }
}

/// The order in which `n` documents are walked: by `keys` (one per document; empty: input
/// order), the largest first, ties in input order.
///
/// # Example
/// ```
/// use slst::batch::dedup::{order, RankKey};
/// let keys = [RankKey::Number(3.0), RankKey::Missing, RankKey::Number(7.0), RankKey::Number(3.0)];
/// assert_eq!(order(&keys, 4), [2, 0, 3, 1]);
/// assert_eq!(order(&[], 3), [0, 1, 2]);
/// ```
///
/// # Panics
/// When `keys` is neither empty nor one per document.
pub fn order(keys: &[RankKey], n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    if keys.is_empty() {
        return order;
    }
    assert_eq!(keys.len(), n, "one key per document");
    // Stable: equal keys keep input order.
    order.sort_by(|&a, &b| keys[b].cmp(&keys[a]));
    order
}
