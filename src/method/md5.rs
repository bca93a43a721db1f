//! Exact duplicates of the canonical text, by MD5 (SPEC §5.6): the control.
//!
//! Two documents are duplicates exactly when their canonical texts ([`Terms::joined`]: terms
//! lowercased, punctuation and stop words gone, joined by single spaces) have the same MD5 digest.
//! Any method that calls such a pair anything but identical is broken; any pair this method
//! misses and another finds is a *near*-duplicate. A digest says nothing about one text lying
//! inside another, so there is no containment.

use serde::{Deserialize, Serialize};

use crate::document::Document;
use crate::error::Result;
use crate::similarity::Similarity;
use crate::text::StopWords;

use super::{Comparison, Detector, Evidence, Method, Params};
use crate::text::Terms;

/// Settings of the MD5 control.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Md5Config {
    /// Words removed in the canonical form (default the built-in English list).
    pub stopwords: StopWords,
}

impl Md5Config {
    /// The settings as reports record them.
    pub fn params(&self) -> Md5Params {
        Md5Params {
            stopwords: self.stopwords.id().to_string(),
        }
    }
}

/// The settings of the MD5 control as reports record them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Md5Params {
    /// The stop-word list's id.
    pub stopwords: String,
}

/// What the MD5 control keeps of a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Md5Sketch {
    /// The MD5 digest of the canonical text in lowercase hex; `None` when the text has no terms.
    pub digest: Option<String>,
    /// Number of terms in the canonical text.
    pub terms: usize,
}

/// What comparing two digests found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Md5Evidence {
    /// A's digest.
    pub digest_a: Option<String>,
    /// B's digest.
    pub digest_b: Option<String>,
    /// Whether they are equal (and not empty).
    pub equal: bool,
    /// Why there is no containment, or why the scores are 0 (reports give it as their
    /// `note`).
    #[serde(skip)]
    pub note: String,
}

impl Evidence for Md5Evidence {
    fn note(&self) -> Option<&str> {
        Some(&self.note)
    }

    fn swapped(&self) -> Self {
        Md5Evidence {
            digest_a: self.digest_b.clone(),
            digest_b: self.digest_a.clone(),
            ..self.clone()
        }
    }
}

/// The MD5 control.
///
/// # Example
/// ```
/// use slst::method::{Md5, Md5Config};
/// use slst::{Detector, Document};
/// let d = Md5::new(Md5Config::default())?;
/// let a = d.sketch(&Document::new("a", "The cat sat on the mat."));
/// let b = d.sketch(&Document::new("b", "the CAT sat... on a mat"));
/// assert!(d.compare(&a, &b).duplicate); // both are "cat sat mat"
/// # Ok::<(), slst::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Md5 {
    config: Md5Config,
}

impl Md5 {
    /// The MD5 control with the given settings.
    ///
    /// # Errors
    /// None at present; the signature matches the other methods'.
    pub fn new(config: Md5Config) -> Result<Self> {
        Ok(Md5 { config })
    }

    /// The settings in force.
    pub fn config(&self) -> &Md5Config {
        &self.config
    }
}

/// Lowercase hex of bytes.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl Detector for Md5 {
    type Sketch = Md5Sketch;
    type Evidence = Md5Evidence;
    type SketchView = Md5Sketch;

    fn method(&self) -> Method {
        Method::Md5
    }

    fn params(&self) -> Params {
        Params::Md5(self.config.params())
    }

    fn rule(&self) -> String {
        "equal digests".to_string()
    }

    fn sketch_view(&self, sketch: &Md5Sketch) -> Md5Sketch {
        sketch.clone()
    }

    fn sketch(&self, doc: &Document) -> Md5Sketch {
        use ::md5::Digest;
        let terms = Terms::new(&doc.text, self.config.stopwords.for_text(&doc.text));
        Md5Sketch {
            digest: (!terms.is_empty())
                .then(|| hex(&::md5::Md5::digest(terms.joined().as_bytes()))),
            terms: terms.len(),
        }
    }

    fn compare(&self, a: &Md5Sketch, b: &Md5Sketch) -> Comparison<Md5Evidence> {
        let equal = a.digest.is_some() && a.digest == b.digest;
        let note = if a.digest.is_none() || b.digest.is_none() {
            "no terms: a document's canonical text is empty"
        } else {
            "containment is not defined for an exact-match digest"
        };
        Comparison {
            method: self.method(),
            similarity: Similarity {
                resemblance: if equal { 1.0 } else { 0.0 },
                containment_a: None,
                containment_b: None,
            },
            duplicate: equal,
            evidence: Md5Evidence {
                digest_a: a.digest.clone(),
                digest_b: b.digest.clone(),
                equal,
                note: note.to_string(),
            },
        }
    }

    /// The digest: duplicates have the same one (an empty text has none).
    fn join_keys(&self, sketch: &Md5Sketch) -> Option<Vec<u64>> {
        Some(
            sketch
                .digest
                .iter()
                .map(|d| xxhash_rust::xxh3::xxh3_64(d.as_bytes()))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_is_md5_of_the_canonical_text() {
        let d = Md5::new(Md5Config {
            stopwords: StopWords::none(),
        })
        .unwrap();
        let s = d.sketch(&Document::new("x", "Hello, World!"));
        // md5("hello world"), as `printf 'hello world' | md5sum` prints it.
        assert_eq!(
            s.digest.as_deref(),
            Some("5eb63bbbe01eeed093cb22bb8f5acdc3")
        );
        assert_eq!(s.terms, 2);
    }

    #[test]
    fn identity_difference_and_empty() {
        let d = Md5::new(Md5Config::default()).unwrap();
        let a = d.sketch(&Document::new("a", "Rain falls on the plain."));
        let b = d.sketch(&Document::new("b", "Rain falls on the plains."));
        assert_eq!(d.compare(&a, &a).similarity.resemblance, 1.0);
        let c = d.compare(&a, &b);
        assert_eq!(c.similarity.resemblance, 0.0);
        assert!(!c.duplicate);
        assert_eq!(c.similarity.containment_a, None);
        let e = d.sketch(&Document::new("e", "the of"));
        assert!(!d.compare(&e, &e).duplicate);
    }
}
