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

use super::canonical::Terms;
use super::{Comparison, Detector, Evidence, Method, Params};

/// The Mersenne prime 2⁶¹ − 1, the modulus of the Karp–Rabin fingerprints.
pub const MERSENNE_61: u64 = (1 << 61) - 1;

/// The base of the Karp–Rabin polynomial: the 64-bit golden-ratio constant with its top four
/// bits cleared (so below 2⁶¹ − 1). Fixed, so fingerprints are the same on every run and
/// platform.
const KARP_RABIN_BASE: u64 = 0x0E37_79B9_7F4A_7C15;

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
#[derive(Debug, Clone, PartialEq)]
pub struct ShingleConfig {
    /// Terms per shingle, w (default 4; seed 001 uses 10).
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
            return invalid("shingle.size", "0".into(), "at least 1 term");
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

/// The fingerprints of every w-shingle of `terms`, in text order; one shingle of all the terms
/// when there are fewer than w (and none when there are no terms).
///
/// # Panics
/// When `w == 0`.
///
/// # Example
/// Seed 001's example: the canonical Belinsky quotation, 10-word shingles, CRC-32.
/// ```
/// use slst::method::{Terms, ShingleHash, shingle_fingerprints};
/// use slst::text::StopWords;
/// let t = Terms::new("разум дан человеку того чтобы разумно жил того только чтобы понимал \
///     неразумно живет", &StopWords::none());
/// assert_eq!(shingle_fingerprints(&t, 10, ShingleHash::Crc32),
///            [1313803605, 3217022851, 2285677181, 1772759749]);
/// ```
pub fn shingle_fingerprints(terms: &Terms, w: usize, hash: ShingleHash) -> Vec<u64> {
    assert!(w > 0, "a shingle holds at least one term");
    let n = terms.len();
    if n == 0 {
        return Vec::new();
    }
    let w = w.min(n);
    match hash {
        ShingleHash::Crc32 => (0..=n - w)
            .map(|i| u64::from(crc32fast::hash(terms.window(i, w).as_bytes())))
            .collect(),
        ShingleHash::Rabin => {
            let h: Vec<u64> = terms.iter().map(term_hash).collect();
            karp_rabin_windows(&h, w)
        }
    }
}

/// A term's hash for Karp–Rabin: XXH3-64 of its UTF-8 bytes, reduced mod 2⁶¹ − 1.
pub fn term_hash(term: &str) -> u64 {
    xxhash_rust::xxh3::xxh3_64(term.as_bytes()) % MERSENNE_61
}

/// a·b mod 2⁶¹ − 1, for a, b < 2⁶¹ − 1.
fn mul_mod(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    let r = (p as u64 & MERSENNE_61) + (p >> 61) as u64;
    if r >= MERSENNE_61 { r - MERSENNE_61 } else { r }
}

/// a + b mod 2⁶¹ − 1, for a, b < 2⁶¹ − 1.
fn add_mod(a: u64, b: u64) -> u64 {
    let r = a + b;
    if r >= MERSENNE_61 { r - MERSENNE_61 } else { r }
}

/// The Karp–Rabin fingerprint Σ h_k·B^(w−1−k) mod 2⁶¹ − 1 of every window of `w` values of
/// `h` (each below 2⁶¹ − 1), rolled: F(i+1) = (F(i) − h_i·B^(w−1))·B + h_(i+w).
///
/// # Panics
/// When `w == 0` or `w > h.len()`.
pub fn karp_rabin_windows(h: &[u64], w: usize) -> Vec<u64> {
    assert!(
        w > 0 && w <= h.len(),
        "window of {w} over {} values",
        h.len()
    );
    let b = KARP_RABIN_BASE;
    let top = (1..w).fold(1, |acc, _| mul_mod(acc, b)); // B^(w−1)
    let mut f = h[..w].iter().fold(0, |acc, &x| add_mod(mul_mod(acc, b), x));
    let mut out = Vec::with_capacity(h.len() - w + 1);
    out.push(f);
    for i in 0..h.len() - w {
        let drop = mul_mod(h[i], top);
        f = add_mod(mul_mod(add_mod(f, MERSENNE_61 - drop), b), h[i + w]);
        out.push(f);
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
        let terms = Terms::new(&doc.text, &self.config.stopwords);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn detector(config: ShingleConfig) -> Shingles {
        Shingles::new(config).unwrap()
    }

    fn no_stop(size: usize) -> ShingleConfig {
        ShingleConfig {
            size,
            stopwords: StopWords::none(),
            ..ShingleConfig::default()
        }
    }

    fn compare(d: &Shingles, a: &str, b: &str) -> Comparison<ShingleEvidence> {
        d.compare(
            &d.sketch(&Document::new("a", a)),
            &d.sketch(&Document::new("b", b)),
        )
    }

    const ROSE_A: &str = "a rose is a rose is a rose";
    const ROSE_B: &str = "a rose is a flower which is a rose";

    #[test]
    fn broder_rose_example_for_both_hashes() {
        for hash in [ShingleHash::Rabin, ShingleHash::Crc32] {
            for (w, want) in [(1, 0.6), (2, 0.5), (3, 3.0 / 7.0)] {
                let d = detector(ShingleConfig { hash, ..no_stop(w) });
                let c = compare(&d, ROSE_A, ROSE_B);
                assert_eq!(c.similarity.resemblance, want, "w = {w}, {hash:?}");
            }
        }
        // w = 1: S(A) = {a, rose, is} lies wholly in S(B) = {a, rose, is, flower, which}.
        let c = compare(&detector(no_stop(1)), ROSE_A, ROSE_B);
        assert_eq!(c.similarity.containment_a, Some(1.0));
        assert_eq!(c.similarity.containment_b, Some(0.6));
    }

    #[test]
    fn rolled_karp_rabin_equals_direct_polynomial() {
        let h: Vec<u64> = (0..50u64)
            .map(|i| term_hash(&format!("t{}", i % 7)))
            .collect();
        for w in [1, 2, 4, 10, 50] {
            let rolled = karp_rabin_windows(&h, w);
            for (i, &f) in rolled.iter().enumerate() {
                let direct = h[i..i + w]
                    .iter()
                    .fold(0, |acc, &x| add_mod(mul_mod(acc, KARP_RABIN_BASE), x));
                assert_eq!(f, direct, "w = {w}, window {i}");
            }
        }
    }

    #[test]
    fn fingerprints_are_stable_across_runs_and_platforms() {
        // Pinned values: a change here changes every stored sketch.
        let t = Terms::new("a rose is a rose", &StopWords::none());
        assert_eq!(
            term_hash("rose"),
            xxhash_rust::xxh3::xxh3_64(b"rose") % MERSENNE_61
        );
        let f = shingle_fingerprints(&t, 2, ShingleHash::Rabin);
        assert_eq!(f.len(), 4);
        assert_eq!(f[0], f[3]); // "a rose" twice
        assert_eq!(
            shingle_fingerprints(&t, 2, ShingleHash::Crc32)[0],
            u64::from(crc32fast::hash(b"a rose"))
        );
    }

    #[test]
    fn identity_scores_one_and_comparison_is_symmetric() {
        let text = include_str!("../../corpora/clough/orig_taskb.txt");
        let other = include_str!("../../corpora/clough/g0pA_taskb.txt");
        for sketch in [
            ShingleSketchKind::Full,
            ShingleSketchKind::Mod,
            ShingleSketchKind::Min,
        ] {
            let d = detector(ShingleConfig {
                sketch,
                modulus: 5,
                sketch_size: 20,
                ..ShingleConfig::default()
            });
            let c = compare(&d, text, text);
            assert_eq!(c.similarity.resemblance, 1.0, "{sketch:?}");
            assert!(c.duplicate);
            let ab = compare(&d, text, other);
            let ba = compare(&d, other, text);
            assert_eq!(ab.similarity, ba.similarity.swapped(), "{sketch:?}");
            assert!(ab.similarity.resemblance > 0.0 && ab.similarity.resemblance < 1.0);
        }
    }

    #[test]
    fn empty_documents_score_zero_with_a_note() {
        let d = detector(ShingleConfig::default());
        let c = compare(&d, "", "");
        assert_eq!(c.similarity.resemblance, 0.0);
        assert!(!c.duplicate);
        assert_eq!(
            c.evidence.note.as_deref(),
            Some("no shingles: a document has no terms")
        );
    }

    #[test]
    fn short_document_is_one_shingle() {
        let d = detector(no_stop(4));
        let s = d.sketch(&Document::new("s", "Hello, world!"));
        assert_eq!(s.shingles, 1);
        let c = compare(&d, "Hello, world!", "hello world");
        assert_eq!(c.similarity.resemblance, 1.0);
    }

    #[test]
    fn min_sketch_has_no_containment_and_keeps_n_smallest() {
        let d = detector(ShingleConfig {
            sketch: ShingleSketchKind::Min,
            sketch_size: 3,
            ..no_stop(1)
        });
        let s = d.sketch(&Document::new("x", "e d c b a a"));
        assert_eq!(s.distinct(), 3);
        assert_eq!(s.shingles, 6);
        let all = shingle_fingerprints(
            &Terms::new("e d c b a a", &StopWords::none()),
            1,
            ShingleHash::Rabin,
        );
        let mut smallest = all.clone();
        smallest.sort_unstable();
        smallest.dedup();
        assert!(s.fingerprints.iter().all(|f| smallest[..3].contains(f)));
        let c = compare(&d, ROSE_A, ROSE_B);
        assert_eq!(c.similarity.containment_a, None);
        assert!(c.evidence.note.unwrap().contains("not defined"));
    }

    #[test]
    fn min_sketch_equals_full_resemblance_when_sets_are_small() {
        let full = detector(no_stop(2));
        let min = detector(ShingleConfig {
            sketch: ShingleSketchKind::Min,
            ..no_stop(2)
        });
        assert_eq!(
            compare(&full, ROSE_A, ROSE_B).similarity.resemblance,
            compare(&min, ROSE_A, ROSE_B).similarity.resemblance
        );
    }

    #[test]
    fn mod_sketch_keeps_multiples_of_m_in_text_order() {
        let d = detector(ShingleConfig {
            sketch: ShingleSketchKind::Mod,
            modulus: 3,
            ..no_stop(1)
        });
        let text = "one two three four five six seven eight nine ten";
        let all =
            shingle_fingerprints(&Terms::new(text, &StopWords::none()), 1, ShingleHash::Rabin);
        let s = d.sketch(&Document::new("x", text));
        let want: Vec<u64> = all.into_iter().filter(|f| f % 3 == 0).collect();
        assert_eq!(s.fingerprints, want);
    }

    #[test]
    fn dice_counts_repeated_shingles_as_a_multiset() {
        let d = detector(ShingleConfig {
            measure: ShingleMeasure::Dice,
            ..no_stop(1)
        });
        // Lists [x, x] and [x]: seed 001's loop would give 2·2/3 > 1; the multiset gives 2·1/3.
        let c = compare(&d, "x x", "x");
        assert_eq!(c.evidence.dice, Some(2.0 / 3.0));
        assert_eq!(c.evidence.score, 2.0 / 3.0);
        assert!(c.duplicate);
        // Without repeats it is 2|X∩Y| / (|X| + |Y|): rose w = 1 lists have 8 and 9 shingles.
        let c = compare(&d, ROSE_A, ROSE_B);
        // multiset ∩: a×3, rose×2 (B has rose twice), is×2 = 7 → 14 / 17.
        assert_eq!(c.evidence.dice, Some(14.0 / 17.0));
    }

    #[test]
    fn containment_measure_decides_on_the_larger_containment() {
        let d = detector(ShingleConfig {
            measure: ShingleMeasure::Containment,
            threshold: 0.9,
            ..no_stop(1)
        });
        let c = compare(&d, ROSE_A, ROSE_B);
        assert_eq!(c.evidence.score, 1.0);
        assert!(c.duplicate);
    }

    #[test]
    fn invalid_settings_are_rejected() {
        for cfg in [
            ShingleConfig {
                size: 0,
                ..ShingleConfig::default()
            },
            ShingleConfig {
                modulus: 0,
                ..ShingleConfig::default()
            },
            ShingleConfig {
                sketch: ShingleSketchKind::Min,
                measure: ShingleMeasure::Containment,
                ..ShingleConfig::default()
            },
            ShingleConfig {
                sketch: ShingleSketchKind::Min,
                measure: ShingleMeasure::Dice,
                ..ShingleConfig::default()
            },
            ShingleConfig {
                threshold: -0.1,
                ..ShingleConfig::default()
            },
        ] {
            assert!(Shingles::new(cfg).is_err());
        }
    }
}
