//! Shingles (Broder 1997; seeds 000 and 001), SPEC §5.1.
//!
//! A document's canonical terms ([`Terms`]) are cut into *w-shingles*: every run of w consecutive
//! terms, overlapping ("внахлест", seed 001). Each shingle is reduced to a fingerprint, and a
//! sketch keeps all fingerprints or a sample of them:
//!
//! - `full`: every shingle;
//! - `mod`: the fingerprints ≡ 0 (mod m) (Broder's MOD_m, default m = 25; seed 001 suggests it
//!   for long texts, seed 000 tests it) — a sample that grows with the document;
//! - `min`: the n smallest distinct fingerprints (Broder's MIN_n, default n = 160, seed 000) — a
//!   sample of fixed size.
//!
//! Measures, with S(A) the kept fingerprints of A as a set:
//! - resemblance r(A, B) = |S(A) ∩ S(B)| / |S(A) ∪ S(B)|; for `min`, Broder's estimate
//!   |MIN_n(S(A) ∪ S(B)) ∩ S(A) ∩ S(B)| / |MIN_n(S(A) ∪ S(B))|;
//! - containment c(A, B) = |S(A) ∩ S(B)| / |S(A)|, for `full` and `mod` only: the n smallest
//!   fingerprints of A and of B do not sample the same shingles of A, so Broder defines no
//!   containment estimate for MIN_n (seed 000: "может использоваться только в вычислениях по
//!   формуле (1)");
//! - Dice, seed 001's score: 2·|X ∩ Y| / (|X| + |Y|) over the *lists* of fingerprints, a shingle
//!   that occurs k times counting k times. Seed 001 counts every element of list A found anywhere
//!   in list B, which exceeds 1 when A repeats a shingle that B has once; here |X ∩ Y| is the
//!   multiset intersection (Σ min of the two counts), which is the same whenever no shingle
//!   repeats and stays symmetric and within [0, 1] when one does.
//!
//! A document with fewer than w terms (but at least one) has one shingle: all its terms. A
//! document without terms has none and scores 0 against everything.

use serde::{Deserialize, Serialize};

use crate::document::Document;
use crate::error::{Error, Result};
use crate::similarity::Similarity;
use crate::text::StopWords;

mod fingerprint;
#[cfg(test)]
mod tests;

pub use self::fingerprint::{MERSENNE_61, karp_rabin_windows, shingle_fingerprints, term_hash};
use super::{Comparison, Detector, Evidence, Method, Params};
use crate::text::Terms;

/// How a shingle becomes a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShingleHash {
    /// Karp–Rabin (seed 000's "алгоритм Карпа – Рабина"): each term is hashed with XXH3-64
    /// (reduced mod 2⁶¹ − 1), and the shingle t₁…t_w gets
    /// F = Σ h(t_k)·B^(w−k) mod (2⁶¹ − 1) for a fixed base B. Rolled in O(1) per shingle;
    /// values have 61 significant bits, stored in 64.
    #[default]
    Rabin,
    /// CRC-32 (IEEE) of the shingle's UTF-8 text with the terms joined by single spaces, as
    /// seed 001 computes it with Python's `binascii.crc32` (unsigned here; the blog prints signed
    /// 32-bit values).
    Crc32,
}

impl ShingleHash {
    /// The CLI spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ShingleHash::Rabin => "rabin",
            ShingleHash::Crc32 => "crc32",
        }
    }
}

/// Which fingerprints a sketch keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShingleSketchKind {
    /// Every shingle.
    #[default]
    Full,
    /// Fingerprints ≡ 0 (mod m): Broder's MOD_m.
    Mod,
    /// The n smallest distinct fingerprints: Broder's MIN_n.
    Min,
}

impl ShingleSketchKind {
    /// The CLI spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ShingleSketchKind::Full => "full",
            ShingleSketchKind::Mod => "mod",
            ShingleSketchKind::Min => "min",
        }
    }
}

/// Which score decides "duplicate".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ShingleMeasure {
    /// Resemblance (Jaccard over fingerprint sets) at least θ.
    #[default]
    Resemblance,
    /// Either containment (A in B or B in A) at least θ. Not for the `min` sketch.
    Containment,
    /// Seed 001's Dice score over fingerprint lists at least θ. Not for the `min` sketch.
    Dice,
}

impl ShingleMeasure {
    /// The CLI spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ShingleMeasure::Resemblance => "resemblance",
            ShingleMeasure::Containment => "containment",
            ShingleMeasure::Dice => "dice",
        }
    }
}

/// Settings of the shingle method; defaults from seed 000's experiments (w = 4, m = 25,
/// n = 160) with the Karp–Rabin fingerprints it names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ShingleConfig {
    /// Terms per shingle, w (default 4; seed 001 uses 10); the setting `shingle_size`.
    pub size: usize,
    /// The fingerprint function (default Karp–Rabin).
    pub hash: ShingleHash,
    /// Which fingerprints the sketch keeps (default all).
    pub sketch: ShingleSketchKind,
    /// m of the `mod` sketch (default 25).
    pub modulus: u64,
    /// n of the `min` sketch (default 160).
    pub sketch_size: usize,
    /// The score the decision uses (default resemblance).
    pub measure: ShingleMeasure,
    /// Duplicate when the measure is at least this (default 0.5; seed 000 found its best
    /// thresholds between 0.5 and 0.6).
    pub threshold: f64,
    /// Words removed in the canonical form (default the built-in English list).
    pub stopwords: StopWords,
}

impl Default for ShingleConfig {
    fn default() -> Self {
        ShingleConfig {
            size: 4,
            hash: ShingleHash::default(),
            sketch: ShingleSketchKind::default(),
            modulus: 25,
            sketch_size: 160,
            measure: ShingleMeasure::default(),
            threshold: 0.5,
            stopwords: StopWords::english(),
        }
    }
}

impl ShingleConfig {
    /// Check every setting.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the first setting out of range, or a measure the
    /// sketch cannot give (containment or Dice with `min`).
    pub fn validate(&self) -> Result<()> {
        let invalid = |name, value: String, expected| {
            Err(Error::InvalidParameter {
                name,
                value,
                expected,
            })
        };
        if self.size == 0 {
            return invalid("shingle.shingle_size", "0".into(), "at least 1 term");
        }
        if self.modulus == 0 {
            return invalid("shingle.modulus", "0".into(), "at least 1");
        }
        if self.sketch_size == 0 {
            return invalid("shingle.sketch_size", "0".into(), "at least 1 fingerprint");
        }
        crate::error::check_fraction("shingle.threshold", self.threshold)?;
        if self.sketch == ShingleSketchKind::Min && self.measure != ShingleMeasure::Resemblance {
            return invalid(
                "shingle.measure",
                self.measure.as_str().into(),
                "resemblance with the min sketch (Broder 1997 defines only resemblance for the n \
                 smallest fingerprints; use the full or mod sketch for containment or dice)",
            );
        }
        Ok(())
    }

    /// The settings as reports record them.
    pub fn params(&self) -> ShingleParams {
        ShingleParams {
            shingle_size: self.size,
            hash: self.hash,
            sketch: self.sketch,
            modulus: self.modulus,
            sketch_size: self.sketch_size,
            measure: self.measure,
            threshold: self.threshold,
            stopwords: self.stopwords.id().to_string(),
        }
    }
}

/// The settings of the shingle method as reports record them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShingleParams {
    /// Terms per shingle, w.
    pub shingle_size: usize,
    /// The fingerprint function.
    pub hash: ShingleHash,
    /// Which fingerprints the sketch keeps.
    pub sketch: ShingleSketchKind,
    /// m of the `mod` sketch.
    pub modulus: u64,
    /// n of the `min` sketch.
    pub sketch_size: usize,
    /// The score the decision uses.
    pub measure: ShingleMeasure,
    /// The threshold of the decision.
    pub threshold: f64,
    /// The stop-word list's id.
    pub stopwords: String,
}

/// What `slst sketch --method shingle` shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShingleSketchView {
    /// Shingles of the document before sampling.
    pub shingles: usize,
    /// Distinct kept fingerprints.
    pub distinct: usize,
    /// The kept fingerprints in text order.
    pub fingerprints: Vec<u64>,
}

/// What the shingle method keeps of a document. Serialised as its fingerprints and shingle
/// count (the counts are rebuilt when it is read back).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "StoredShingleSketch")]
pub struct ShingleSketch {
    /// The kept fingerprints in the order their shingles occur in the text; a shingle that
    /// occurs twice is here twice.
    pub fingerprints: Vec<u64>,
    /// How many shingles the document has before sampling.
    pub shingles: usize,
    /// The kept fingerprints, distinct and ascending, each with how often it occurs.
    #[serde(skip)]
    counts: Vec<(u64, u32)>,
}

/// A [`ShingleSketch`] as stored: what the counts are rebuilt from.
#[derive(Deserialize)]
struct StoredShingleSketch {
    fingerprints: Vec<u64>,
    shingles: usize,
}

impl From<StoredShingleSketch> for ShingleSketch {
    fn from(s: StoredShingleSketch) -> Self {
        ShingleSketch {
            counts: counts(&s.fingerprints),
            fingerprints: s.fingerprints,
            shingles: s.shingles,
        }
    }
}

impl ShingleSketch {
    /// Number of distinct kept fingerprints, |S(A)|.
    pub fn distinct(&self) -> usize {
        self.counts.len()
    }
}

/// What comparing two shingle sketches found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ShingleEvidence {
    /// Shingles of A before sampling.
    pub shingles_a: usize,
    /// Shingles of B before sampling.
    pub shingles_b: usize,
    /// Distinct fingerprints in A's sketch, |S(A)|.
    pub kept_a: usize,
    /// Distinct fingerprints in B's sketch, |S(B)|.
    pub kept_b: usize,
    /// |S(A) ∩ S(B)|; for `min`, those among the n smallest of the union.
    pub shared: usize,
    /// |S(A) ∪ S(B)|; for `min`, |MIN_n(S(A) ∪ S(B))|.
    pub union: usize,
    /// Seed 001's Dice score over the fingerprint lists (`full` and `mod` only).
    pub dice: Option<f64>,
    /// The measure the decision used.
    pub measure: ShingleMeasure,
    /// Its value.
    pub score: f64,
    /// Why a score is undefined or necessarily 0, when one is (reports give it as their
    /// `note`).
    #[serde(skip)]
    pub note: Option<String>,
}

impl Evidence for ShingleEvidence {
    fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    fn swapped(&self) -> Self {
        ShingleEvidence {
            shingles_a: self.shingles_b,
            shingles_b: self.shingles_a,
            kept_a: self.kept_b,
            kept_b: self.kept_a,
            ..self.clone()
        }
    }
}

/// The shingle detector.
///
/// # Example
/// Broder's own example (1997): with no stop words and 2-shingles, "a rose is a rose is a rose"
/// and "a rose is a flower which is a rose" share 3 of 6 distinct shingles.
/// ```
/// use slst::method::{ShingleConfig, Shingles};
/// use slst::text::StopWords;
/// use slst::{Detector, Document};
/// let d = Shingles::new(ShingleConfig { size: 2, stopwords: StopWords::none(), ..ShingleConfig::default() })?;
/// let a = d.sketch(&Document::new("a", "a rose is a rose is a rose"));
/// let b = d.sketch(&Document::new("b", "a rose is a flower which is a rose"));
/// assert_eq!(d.compare(&a, &b).similarity.resemblance, 0.5);
/// # Ok::<(), slst::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Shingles {
    config: ShingleConfig,
}

impl Shingles {
    /// A shingle detector with the given settings.
    ///
    /// # Errors
    /// A setting out of range (see [`ShingleConfig::validate`]).
    pub fn new(config: ShingleConfig) -> Result<Self> {
        config.validate()?;
        Ok(Shingles { config })
    }

    /// The settings in force.
    pub fn config(&self) -> &ShingleConfig {
        &self.config
    }

    /// Sketch a list of fingerprints (every shingle of a document, in text order) with the
    /// configured sampling.
    pub fn sketch_fingerprints(&self, all: Vec<u64>) -> ShingleSketch {
        let shingles = all.len();
        let fingerprints = match self.config.sketch {
            ShingleSketchKind::Full => all,
            ShingleSketchKind::Mod => {
                let m = self.config.modulus;
                all.into_iter().filter(|f| f % m == 0).collect()
            }
            ShingleSketchKind::Min => {
                let mut distinct = all.clone();
                distinct.sort_unstable();
                distinct.dedup();
                match distinct.get(self.config.sketch_size) {
                    // Keep the occurrences of the n smallest distinct values.
                    Some(&cut) => all.into_iter().filter(|&f| f < cut).collect(),
                    None => all,
                }
            }
        };
        ShingleSketch {
            counts: counts(&fingerprints),
            fingerprints,
            shingles,
        }
    }
}

/// The distinct values of a list, ascending, with their counts.
fn counts(list: &[u64]) -> Vec<(u64, u32)> {
    let mut sorted = list.to_vec();
    sorted.sort_unstable();
    let mut out: Vec<(u64, u32)> = Vec::with_capacity(sorted.len());
    for f in sorted {
        match out.last_mut() {
            Some((last, n)) if *last == f => *n += 1,
            _ => out.push((f, 1)),
        }
    }
    out
}

/// |X ∩ Y| over two ascending distinct lists, and the multiset intersection Σ min of counts.
fn intersect(a: &[(u64, u32)], b: &[(u64, u32)]) -> (usize, u64) {
    let (mut i, mut j, mut shared, mut multi) = (0, 0, 0, 0u64);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                multi += u64::from(a[i].1.min(b[j].1));
                i += 1;
                j += 1;
            }
        }
    }
    (shared, multi)
}

/// Broder's MIN_n estimate: among the n smallest values of X ∪ Y, how many lie in both, and how
/// many there are.
fn min_n_estimate(a: &[(u64, u32)], b: &[(u64, u32)], n: usize) -> (usize, usize) {
    let (mut i, mut j, mut taken, mut shared) = (0, 0, 0, 0);
    while taken < n && (i < a.len() || j < b.len()) {
        let x = a.get(i).map(|e| e.0);
        let y = b.get(j).map(|e| e.0);
        match (x, y) {
            (Some(x), Some(y)) if x == y => {
                shared += 1;
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x < y => i += 1,
            (Some(_), None) => i += 1,
            _ => j += 1,
        }
        taken += 1;
    }
    (shared, taken)
}

impl Detector for Shingles {
    type Sketch = ShingleSketch;
    type Evidence = ShingleEvidence;
    type SketchView = ShingleSketchView;

    fn method(&self) -> Method {
        Method::Shingle
    }

    fn params(&self) -> Params {
        Params::Shingle(self.config.params())
    }

    fn rule(&self) -> String {
        let what = match self.config.measure {
            ShingleMeasure::Resemblance => "J",
            ShingleMeasure::Containment => "containment",
            ShingleMeasure::Dice => "Dice",
        };
        format!("{what} ≥ {}", self.config.threshold)
    }

    fn sketch_view(&self, s: &ShingleSketch) -> ShingleSketchView {
        ShingleSketchView {
            shingles: s.shingles,
            distinct: s.distinct(),
            fingerprints: s.fingerprints.clone(),
        }
    }

    fn sketch(&self, doc: &Document) -> ShingleSketch {
        let terms = Terms::new(&doc.text, self.config.stopwords.for_text(&doc.text));
        self.sketch_fingerprints(shingle_fingerprints(
            &terms,
            self.config.size,
            self.config.hash,
        ))
    }

    fn compare(&self, a: &ShingleSketch, b: &ShingleSketch) -> Comparison<ShingleEvidence> {
        let c = &self.config;
        let (kept_a, kept_b) = (a.distinct(), b.distinct());
        let mut note = None;
        let (similarity, shared, union, dice) = if c.sketch == ShingleSketchKind::Min {
            let (shared, union) = min_n_estimate(&a.counts, &b.counts, c.sketch_size);
            let resemblance = if union == 0 {
                0.0
            } else {
                shared as f64 / union as f64
            };
            note = Some(
                "containment is not defined for the min-n sketch (Broder 1997): the n smallest \
                 fingerprints of A and of B are not samples of the same shingles"
                    .to_string(),
            );
            let s = Similarity {
                resemblance,
                containment_a: None,
                containment_b: None,
            };
            (s, shared, union, None)
        } else {
            let (shared, multi) = intersect(&a.counts, &b.counts);
            let lists = a.fingerprints.len() + b.fingerprints.len();
            let dice = if lists == 0 {
                0.0
            } else {
                2.0 * multi as f64 / lists as f64
            };
            let s = Similarity::from_counts(shared, kept_a, kept_b);
            (s, shared, kept_a + kept_b - shared, Some(dice))
        };
        if kept_a == 0 || kept_b == 0 {
            note = Some(if a.shingles == 0 || b.shingles == 0 {
                "no shingles: a document has no terms".to_string()
            } else {
                format!(
                    "a sketch is empty: no fingerprint is ≡ 0 mod {} (use --sketch full or a \
                     smaller --modulus for short documents)",
                    c.modulus
                )
            });
        }
        let score = match c.measure {
            ShingleMeasure::Resemblance => similarity.resemblance,
            ShingleMeasure::Containment => similarity
                .containment_a
                .unwrap_or(0.0)
                .max(similarity.containment_b.unwrap_or(0.0)),
            ShingleMeasure::Dice => dice.unwrap_or(0.0),
        };
        Comparison {
            method: self.method(),
            similarity,
            duplicate: shared > 0 && score >= c.threshold,
            evidence: ShingleEvidence {
                shingles_a: a.shingles,
                shingles_b: b.shingles,
                kept_a,
                kept_b,
                shared,
                union,
                dice,
                measure: c.measure,
                score,
                note,
            },
        }
    }

    /// The kept fingerprints: a positive score needs a shared one (for the min-n sketch too: a
    /// fingerprint among the n smallest of A ∪ B that both hold is among each one's n smallest).
    fn join_keys(&self, sketch: &ShingleSketch) -> Option<Vec<u64>> {
        Some(sketch.fingerprints.clone())
    }
}
