//! Sentence-length features (Wang and Chang, AIRS 2009), SPEC §5.5: the method SL+ST builds on.
//!
//! Wang and Chang represent a document by its sequence of sentence lengths and take every run of
//! k consecutive lengths as one feature; two documents are compared with the Jaccard coefficient
//! of their feature sets. No word of the text is looked at after counting, which is what makes
//! the method cheap — and what SL+ST adds back with its leading-term verification.
//!
//! The lengths are SL+ST's own ([`SentenceProfile`]): the same sentence splitter, terms, stop
//! words and 35-term cap, so the two methods differ only in what they do with the length string.
//! A document with fewer than k kept sentences has no feature and scores 0.
//!
//! **k = 3 by default.** The sources at hand do not fix k: Wang and Chang's abstract does not
//! give it, and the SL+ST paper does not say which k it compared against. Lengths after stop-word removal cluster between 3 and 15
//! terms, so short runs of them recur by chance; unlike SL+ST's 2-sentence blocks, nothing
//! verifies a feature afterwards. On the Clough and Stevenson answers (`examples/sentlen_k.rs`,
//! 95 answers against their own and the four other sources):
//!
//! | k | cut | light | heavy | non | unrelated | best F1 |
//! |---|---|---|---|---|---|---|
//! | 2 | 0.74 | 0.68 | 0.68 | 0.37 | 0.33 | 0.467 |
//! | 3 | 0.63 | 0.32 | 0.16 | 0.05 | 0.03 | 0.452 |
//! | 4 | 0.47 | 0.26 | 0.05 | 0.03 | 0.00 | 0.405 |
//!
//! (share of pairs with at least one common feature, by label; best F1 of containment over
//! thresholds). At k = 2 a third of unrelated pairs share a feature, so a shared feature says
//! little, and chance sharing only grows with document length; k = 3 cuts it tenfold for 0.015 of
//! F1; k = 4 loses almost every heavy revision. k = 3 is the smallest k whose features are
//! evidence of reuse.

use serde::{Deserialize, Serialize};

use crate::document::Document;
use crate::error::{Error, Result};
use crate::profile::{ProfileConfig, SentenceProfile};
use crate::similarity::Similarity;

use super::polyhash::sorted_intersection;
use super::{Comparison, Detector, Evidence, Method, Params};

/// The largest k: a feature of k lengths (each below 64) is packed into one 64-bit word.
pub const MAX_RUN: usize = 10;

/// Settings of the sentence-length method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SentLenConfig {
    /// The profile stage shared with SL+ST: stop words and the maximum sentence length.
    #[serde(flatten)]
    pub profile: ProfileConfig,
    /// k: consecutive sentence lengths per feature (default 3, at most 10).
    pub k: usize,
    /// Duplicate when the Jaccard coefficient is at least this (default 0.5).
    pub threshold: f64,
}

impl Default for SentLenConfig {
    fn default() -> Self {
        SentLenConfig {
            profile: ProfileConfig::default(),
            k: 3,
            threshold: 0.5,
        }
    }
}

impl SentLenConfig {
    /// Check every setting.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for k outside 1..=10, a threshold outside [0, 1], or a
    /// profile setting out of range.
    pub fn validate(&self) -> Result<()> {
        self.profile.validate()?;
        if !(1..=MAX_RUN).contains(&self.k) {
            return Err(Error::InvalidParameter {
                name: "sentlen.k",
                value: self.k.to_string(),
                expected: "a whole number from 1 to 10",
            });
        }
        crate::error::check_fraction("sentlen.threshold", self.threshold)?;
        Ok(())
    }

    /// The settings as reports record them.
    pub fn params(&self) -> SentLenParams {
        SentLenParams {
            k: self.k,
            max_length: self.profile.max_length,
            stopwords: self.profile.stopwords.id().to_string(),
            threshold: self.threshold,
        }
    }
}

/// The settings of the sentence-length method as reports record them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SentLenParams {
    /// Consecutive sentence lengths per feature.
    pub k: usize,
    /// The maximum sentence length in terms.
    pub max_length: usize,
    /// The stop-word list's id.
    pub stopwords: String,
    /// The threshold of the decision.
    pub threshold: f64,
}

/// What `slst sketch --method sentlen` shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SentLenSketchView {
    /// The length string.
    pub length_string: String,
    /// Lengths per feature.
    pub k: usize,
    /// The distinct features, each as its k lengths.
    pub features: Vec<Vec<u64>>,
}

/// What the sentence-length method keeps of a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SentLenSketch {
    /// The length string: one base-36 symbol per kept sentence (as `slst profile` prints it).
    pub length_string: String,
    /// The distinct features, ascending: k lengths packed 6 bits each, the first in the highest
    /// bits.
    pub features: Vec<u64>,
}

/// What comparing two sentence-length sketches found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SentLenEvidence {
    /// Kept sentences of A.
    pub sentences_a: usize,
    /// Kept sentences of B.
    pub sentences_b: usize,
    /// Distinct features of A.
    pub features_a: usize,
    /// Distinct features of B.
    pub features_b: usize,
    /// Features in both.
    pub shared: usize,
    /// Why the scores are 0, when a document has fewer than k sentences (reports give it as
    /// their `note`).
    #[serde(skip)]
    pub note: Option<String>,
}

impl Evidence for SentLenEvidence {
    fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    fn swapped(&self) -> Self {
        SentLenEvidence {
            sentences_a: self.sentences_b,
            sentences_b: self.sentences_a,
            features_a: self.features_b,
            features_b: self.features_a,
            ..self.clone()
        }
    }
}

/// The sentence-length detector.
///
/// # Example
/// ```
/// use slst::method::{SentLen, SentLenConfig};
/// use slst::{Detector, Document};
/// let d = SentLen::new(SentLenConfig { k: 2, ..SentLenConfig::default() })?;
/// let a = d.sketch(&Document::new("a", "Stocks rose sharply. Bond yields fell to a low. Oil was flat."));
/// let b = d.sketch(&Document::new("b", "Gold gained. Stocks rose sharply. Bond yields fell to a low."));
/// assert_eq!((a.length_string.as_str(), b.length_string.as_str()), ("342", "234"));
/// // Features {34, 42} and {23, 34}: one of three.
/// assert_eq!(d.compare(&a, &b).similarity.resemblance, 1.0 / 3.0);
/// # Ok::<(), slst::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SentLen {
    config: SentLenConfig,
}

impl SentLen {
    /// A sentence-length detector with the given settings.
    ///
    /// # Errors
    /// A setting out of range (see [`SentLenConfig::validate`]).
    pub fn new(config: SentLenConfig) -> Result<Self> {
        config.validate()?;
        Ok(SentLen { config })
    }

    /// The settings in force.
    pub fn config(&self) -> &SentLenConfig {
        &self.config
    }

    /// The sketch of a profile.
    pub fn sketch_profile(&self, profile: &SentenceProfile) -> SentLenSketch {
        let lengths: Vec<u64> = profile
            .sentences
            .iter()
            .map(|s| u64::from(s.length))
            .collect();
        let mut features: Vec<u64> = lengths
            .windows(self.config.k)
            .map(|run| run.iter().fold(0, |acc, &l| acc << 6 | l))
            .collect();
        features.sort_unstable();
        features.dedup();
        SentLenSketch {
            length_string: profile.length_string(),
            features,
        }
    }
}

impl Detector for SentLen {
    type Sketch = SentLenSketch;
    type Evidence = SentLenEvidence;
    type SketchView = SentLenSketchView;

    fn method(&self) -> Method {
        Method::SentLen
    }

    fn params(&self) -> Params {
        Params::SentLen(self.config.params())
    }

    fn rule(&self) -> String {
        format!("J ≥ {}", self.config.threshold)
    }

    fn sketch_view(&self, s: &SentLenSketch) -> SentLenSketchView {
        let k = self.config.k;
        let unpack = |f: u64| -> Vec<u64> { (0..k).rev().map(|i| (f >> (6 * i)) & 63).collect() };
        SentLenSketchView {
            length_string: s.length_string.clone(),
            k,
            features: s.features.iter().map(|&f| unpack(f)).collect(),
        }
    }

    fn sketch(&self, doc: &Document) -> SentLenSketch {
        self.sketch_profile(&SentenceProfile::new(doc, &self.config.profile))
    }

    fn compare(&self, a: &SentLenSketch, b: &SentLenSketch) -> Comparison<SentLenEvidence> {
        let shared = sorted_intersection(&a.features, &b.features);
        let (features_a, features_b) = (a.features.len(), b.features.len());
        let similarity = Similarity::from_counts(shared, features_a, features_b);
        Comparison {
            method: self.method(),
            duplicate: shared > 0 && similarity.resemblance >= self.config.threshold,
            similarity,
            evidence: SentLenEvidence {
                sentences_a: a.length_string.len(),
                sentences_b: b.length_string.len(),
                features_a,
                features_b,
                shared,
                note: (features_a == 0 || features_b == 0).then(|| {
                    format!(
                        "no features: a document has fewer than k = {} kept sentences",
                        self.config.k
                    )
                }),
            },
        }
    }

    /// The features: a positive Jaccard needs a shared one.
    fn join_keys(&self, sketch: &SentLenSketch) -> Option<Vec<u64>> {
        Some(sketch.features.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detector(k: usize) -> SentLen {
        SentLen::new(SentLenConfig {
            k,
            ..SentLenConfig::default()
        })
        .unwrap()
    }

    #[test]
    fn features_are_runs_of_k_lengths() {
        let d = detector(3);
        let s = d.sketch(&Document::new(
            "a",
            "Aa bb. Cc dd ee. Ff gg hh ii. Jj. Kk mm.",
        ));
        assert_eq!(s.length_string, "23412");
        let pack = |x: [u64; 3]| x[0] << 12 | x[1] << 6 | x[2];
        let mut want = vec![pack([2, 3, 4]), pack([3, 4, 1]), pack([4, 1, 2])];
        want.sort_unstable();
        assert_eq!(s.features, want);
    }

    #[test]
    fn identity_symmetry_and_too_short() {
        let d = detector(3);
        let a = d.sketch(&Document::new(
            "a",
            include_str!("../../corpora/clough/orig_taskb.txt"),
        ));
        let b = d.sketch(&Document::new(
            "b",
            include_str!("../../corpora/clough/g0pA_taskb.txt"),
        ));
        assert_eq!(d.compare(&a, &a).similarity.resemblance, 1.0);
        let (ab, ba) = (d.compare(&a, &b), d.compare(&b, &a));
        assert_eq!(ab.similarity, ba.similarity.swapped());
        assert!(ab.evidence.shared > 0);
        let short = d.sketch(&Document::new("s", "One sentence. Two sentences here."));
        let c = d.compare(&short, &short);
        assert_eq!(c.similarity.resemblance, 0.0);
        assert!(c.evidence.note.is_some());
    }

    #[test]
    fn k_out_of_range_is_rejected() {
        for k in [0, 11] {
            assert!(
                SentLen::new(SentLenConfig {
                    k,
                    ..SentLenConfig::default()
                })
                .is_err()
            );
        }
    }
}
