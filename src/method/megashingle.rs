//! Megashingles (Fetterly, Manasse, Najork and Wiener 2003; seed 000), SPEC §5.2.
//!
//! Seed 000's account of the method: each document is cut into 5-word shingles with 64-bit
//! Rabin fingerprints (the "preimages"); 84 independent injective maps, drawn at random once from
//! a fixed family, are applied to them, and for each map the preimage with the smallest image is
//! kept — a signature of 84 minima. Because the i-th minima of two documents agree with
//! probability equal to the documents' resemblance p, the signature is cut into 6 *supershingles*
//! of 14 consecutive minima each; two documents whose supershingles agree in at least 2 of the 6
//! places are near-duplicates, and for speed the 15 pairs of supershingles are fingerprinted as
//! *megashingles*, so that one equal megashingle is the test. With q = p¹⁴ (one supershingle equal),
//! seed 000's formula (3):
//!
//! P(match) = 1 − (1 − q)⁶ − 6·q·(1 − q)⁵,
//!
//! 0.879 at p = 0.95, 0.415 at 0.90 and 0.026 at 0.80 ([`match_probability`]).
//!
//! Here the preimages are the shingle method's Karp–Rabin fingerprints over the same canonical
//! terms (seed 000 canonicalises the text, stop words removed, for every method it tests); the
//! family of maps is
//! π_i(x) = fmix64(x ⊕ s_i) — MurmurHash3's 64-bit finaliser, a bijection on 64-bit words, after
//! an exclusive-or with a per-map constant s_i drawn by SplitMix64 from one fixed seed — a
//! supershingle is XXH3-64 of its 14 minima (little-endian bytes) and a megashingle XXH3-64 of
//! its two supershingles. Minima, supershingles and megashingles are compared place by place
//! (the i-th with the i-th), which is formula (3)'s event.

use serde::{Deserialize, Serialize};

use crate::document::Document;
use crate::error::{Error, Result};
use crate::similarity::Similarity;
use crate::text::StopWords;

use super::shingle::{ShingleHash, shingle_fingerprints};
use super::{Comparison, Detector, Evidence, Method, Params};
use crate::text::Terms;

/// Seed 000's formula (3): the probability that two documents of resemblance `p` agree on at
/// least 2 of `groups` supershingles of `per_group` minima each (at least one megashingle).
///
/// # Example
/// ```
/// use slst::method::match_probability;
/// let rounded = |p: f64| (match_probability(p, 6, 14) * 1000.0).round() / 1000.0;
/// assert_eq!((rounded(0.95), rounded(0.90), rounded(0.80)), (0.879, 0.415, 0.026));
/// ```
pub fn match_probability(p: f64, groups: usize, per_group: usize) -> f64 {
    let q = p.powi(per_group as i32);
    let g = groups as i32;
    1.0 - (1.0 - q).powi(g) - f64::from(g) * q * (1.0 - q).powi(g - 1)
}

/// Settings of the megashingle method; defaults are Fetterly et al.'s.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MegaShingleConfig {
    /// Terms per shingle (default 5).
    pub shingle_size: usize,
    /// Number of min-wise maps, i.e. minima in the signature (default 84).
    pub minima: usize,
    /// Minima per supershingle (default 14, so 6 supershingles and 15 megashingles).
    pub supershingle_size: usize,
    /// The seed that draws the family of maps. Fixed (default 2003): a different seed gives
    /// sketches that cannot be compared with the old ones.
    pub seed: u64,
    /// Words removed in the canonical form (default the built-in English list).
    pub stopwords: StopWords,
}

impl Default for MegaShingleConfig {
    fn default() -> Self {
        MegaShingleConfig {
            shingle_size: 5,
            minima: 84,
            supershingle_size: 14,
            seed: 2003,
            stopwords: StopWords::english(),
        }
    }
}

impl MegaShingleConfig {
    /// Check every setting.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] when a size is 0, or the minima do not fall into at least two
    /// whole supershingles.
    pub fn validate(&self) -> Result<()> {
        if self.shingle_size == 0 {
            return Err(Error::InvalidParameter {
                name: "megashingle.shingle_size",
                value: "0".into(),
                expected: "at least 1 term",
            });
        }
        if self.supershingle_size == 0
            || !self.minima.is_multiple_of(self.supershingle_size)
            || self.minima / self.supershingle_size < 2
        {
            return Err(Error::InvalidParameter {
                name: "megashingle.minima",
                value: format!(
                    "{} with supershingle_size {}",
                    self.minima, self.supershingle_size
                ),
                expected: "a multiple of the supershingle size, at least two supershingles",
            });
        }
        Ok(())
    }

    /// Number of supershingles.
    pub fn supershingles(&self) -> usize {
        self.minima / self.supershingle_size
    }

    /// The settings as reports record them.
    pub fn params(&self) -> MegaShingleParams {
        MegaShingleParams {
            shingle_size: self.shingle_size,
            minima: self.minima,
            supershingle_size: self.supershingle_size,
            supershingles: self.supershingles(),
            megashingles: pairs(self.supershingles()),
            seed: self.seed,
            stopwords: self.stopwords.id().to_string(),
        }
    }
}

/// The settings of the megashingle method as reports record them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MegaShingleParams {
    /// Terms per shingle.
    pub shingle_size: usize,
    /// Min-wise permutations (minima per signature).
    pub minima: usize,
    /// Minima per supershingle.
    pub supershingle_size: usize,
    /// Supershingles per signature.
    pub supershingles: usize,
    /// Megashingles per signature (pairs of supershingles).
    pub megashingles: usize,
    /// Seed of the permutation family.
    pub seed: u64,
    /// The stop-word list's id.
    pub stopwords: String,
}

/// n·(n − 1)/2.
fn pairs(n: usize) -> usize {
    n * n.saturating_sub(1) / 2
}

/// What the megashingle method keeps of a document: empty vectors when it has no shingle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MegaShingleSketch {
    /// Shingles in the document.
    pub shingles: usize,
    /// The smallest image under each map (84 by default).
    pub minima: Vec<u64>,
    /// Fingerprints of consecutive groups of minima (6 by default).
    pub supershingles: Vec<u64>,
    /// Fingerprints of every pair of supershingles, in the order (0,1), (0,2), …, (1,2), …
    /// (15 by default).
    pub megashingles: Vec<u64>,
}

/// What comparing two megashingle sketches found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MegaShingleEvidence {
    /// Minima equal place by place (their share estimates the resemblance).
    pub matching_minima: usize,
    /// Number of minima per sketch.
    pub minima: usize,
    /// Supershingles equal place by place.
    pub matching_supershingles: usize,
    /// Megashingles equal place by place; the documents are near-duplicates when there is one.
    pub matching_megashingles: usize,
    /// Why the scores are what they are, where it needs saying (reports give it as their
    /// `note`).
    #[serde(skip)]
    pub note: String,
}

impl Evidence for MegaShingleEvidence {
    fn note(&self) -> Option<&str> {
        Some(&self.note)
    }

    fn swapped(&self) -> Self {
        self.clone()
    }
}

/// The megashingle detector.
///
/// # Example
/// ```
/// use slst::method::{MegaShingle, MegaShingleConfig};
/// use slst::{Detector, Document};
/// let d = MegaShingle::new(MegaShingleConfig::default())?;
/// let text = "Stocks rose sharply on Monday as bond yields fell to their lowest level in a year.";
/// let s = d.sketch(&Document::new("a", text));
/// assert_eq!((s.minima.len(), s.supershingles.len(), s.megashingles.len()), (84, 6, 15));
/// let c = d.compare(&s, &s);
/// assert_eq!(c.similarity.resemblance, 1.0);
/// assert!(c.duplicate);
/// # Ok::<(), slst::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct MegaShingle {
    config: MegaShingleConfig,
    /// The constants s_i of the maps π_i(x) = fmix64(x ⊕ s_i).
    keys: Vec<u64>,
}

/// SplitMix64's step: the next state and output.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// MurmurHash3's 64-bit finaliser: a bijection on 64-bit words with full avalanche.
fn fmix64(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    x ^= x >> 33;
    x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    x ^ (x >> 33)
}

/// XXH3-64 of 64-bit words, little-endian.
fn hash_words(words: &[u64]) -> u64 {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    xxhash_rust::xxh3::xxh3_64(&bytes)
}

impl MegaShingle {
    /// A megashingle detector with the given settings.
    ///
    /// # Errors
    /// A setting out of range (see [`MegaShingleConfig::validate`]).
    pub fn new(config: MegaShingleConfig) -> Result<Self> {
        config.validate()?;
        let mut state = config.seed;
        let keys = (0..config.minima).map(|_| splitmix64(&mut state)).collect();
        Ok(MegaShingle { config, keys })
    }

    /// The settings in force.
    pub fn config(&self) -> &MegaShingleConfig {
        &self.config
    }

    /// Sketch a set of preimages (shingle fingerprints; repeats do not matter).
    pub fn sketch_fingerprints(&self, preimages: &[u64]) -> MegaShingleSketch {
        if preimages.is_empty() {
            return MegaShingleSketch {
                shingles: 0,
                minima: Vec::new(),
                supershingles: Vec::new(),
                megashingles: Vec::new(),
            };
        }
        // One pass over the preimages, all maps at once: the minima stay in cache.
        let mut minima = vec![u64::MAX; self.keys.len()];
        for &x in preimages {
            for (min, &key) in minima.iter_mut().zip(&self.keys) {
                *min = (*min).min(fmix64(x ^ key));
            }
        }
        let supershingles: Vec<u64> = minima
            .chunks(self.config.supershingle_size)
            .map(hash_words)
            .collect();
        let mut megashingles = Vec::with_capacity(pairs(supershingles.len()));
        for i in 0..supershingles.len() {
            for j in i + 1..supershingles.len() {
                megashingles.push(hash_words(&[supershingles[i], supershingles[j]]));
            }
        }
        MegaShingleSketch {
            shingles: preimages.len(),
            minima,
            supershingles,
            megashingles,
        }
    }
}

/// How many places two lists agree in.
fn agreeing(a: &[u64], b: &[u64]) -> usize {
    a.iter().zip(b).filter(|(x, y)| x == y).count()
}

/// A key per (position, value): XXH3 of both, so equal values at different positions differ.
fn positional_keys(values: &[u64]) -> Vec<u64> {
    values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let mut bytes = [0u8; 16];
            bytes[..8].copy_from_slice(&(i as u64).to_le_bytes());
            bytes[8..].copy_from_slice(&v.to_le_bytes());
            xxhash_rust::xxh3::xxh3_64(&bytes)
        })
        .collect()
}

impl Detector for MegaShingle {
    type Sketch = MegaShingleSketch;
    type Evidence = MegaShingleEvidence;
    type SketchView = MegaShingleSketch;

    fn method(&self) -> Method {
        Method::MegaShingle
    }

    fn params(&self) -> Params {
        Params::MegaShingle(self.config.params())
    }

    fn rule(&self) -> String {
        "≥ 1 equal megashingle".to_string()
    }

    fn sketch_view(&self, sketch: &MegaShingleSketch) -> MegaShingleSketch {
        sketch.clone()
    }

    fn sketch(&self, doc: &Document) -> MegaShingleSketch {
        let terms = Terms::new(&doc.text, self.config.stopwords.for_text(&doc.text));
        let preimages = shingle_fingerprints(&terms, self.config.shingle_size, ShingleHash::Rabin);
        self.sketch_fingerprints(&preimages)
    }

    fn compare(
        &self,
        a: &MegaShingleSketch,
        b: &MegaShingleSketch,
    ) -> Comparison<MegaShingleEvidence> {
        let matching_minima = agreeing(&a.minima, &b.minima);
        let matching_megashingles = agreeing(&a.megashingles, &b.megashingles);
        let empty = a.minima.is_empty() || b.minima.is_empty();
        let note = if empty {
            "no shingles: a document has no terms".to_string()
        } else {
            "containment is not defined for megashingles: the signature is a fixed-size sample \
             of min-wise images; the resemblance is the share of equal minima"
                .to_string()
        };
        Comparison {
            method: self.method(),
            similarity: Similarity {
                resemblance: if empty {
                    0.0
                } else {
                    matching_minima as f64 / self.config.minima as f64
                },
                containment_a: None,
                containment_b: None,
            },
            duplicate: matching_megashingles > 0,
            evidence: MegaShingleEvidence {
                matching_minima,
                minima: self.config.minima,
                matching_supershingles: agreeing(&a.supershingles, &b.supershingles),
                matching_megashingles,
                note,
            },
        }
    }

    /// The minima with their permutation numbers: the resemblance estimate is the share of
    /// equal minima, so a positive one needs a shared (permutation, minimum).
    fn join_keys(&self, sketch: &MegaShingleSketch) -> Option<Vec<u64>> {
        Some(positional_keys(&sketch.minima))
    }

    /// The megashingles with their positions: a duplicate shares one (Fetterly et al. 2003).
    fn duplicate_keys(&self, sketch: &MegaShingleSketch) -> Option<Vec<u64>> {
        Some(positional_keys(&sketch.megashingles))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detector() -> MegaShingle {
        MegaShingle::new(MegaShingleConfig::default()).unwrap()
    }

    #[test]
    fn maps_are_bijective_on_a_sample() {
        let mut state = 1;
        let xs: Vec<u64> = (0..10_000).map(|_| splitmix64(&mut state)).collect();
        let mut images: Vec<u64> = xs.iter().map(|&x| fmix64(x ^ 12345)).collect();
        images.sort_unstable();
        images.dedup();
        assert_eq!(images.len(), xs.len());
    }

    #[test]
    fn family_is_fixed_by_the_seed() {
        let d = detector();
        assert_eq!(d.keys.len(), 84);
        // Pinned: SplitMix64's first output from seed 2003. Changing it changes every sketch.
        let mut state = 2003;
        assert_eq!(d.keys[0], splitmix64(&mut state));
        let other = MegaShingle::new(MegaShingleConfig {
            seed: 7,
            ..MegaShingleConfig::default()
        })
        .unwrap();
        assert_ne!(d.keys, other.keys);
    }

    #[test]
    fn megashingle_equal_exactly_when_both_its_supershingles_are() {
        let d = detector();
        let a: Vec<u64> = (0..60).collect();
        let mut b = a.clone();
        b[5] = 1000;
        let (sa, sb) = (d.sketch_fingerprints(&a), d.sketch_fingerprints(&b));
        let c = d.compare(&sa, &sb);
        let k = c.evidence.matching_supershingles;
        assert_eq!(
            c.evidence.matching_megashingles,
            k * k.saturating_sub(1) / 2
        );
        assert_eq!(c.duplicate, k >= 2);
    }

    #[test]
    fn identity_symmetry_and_empty() {
        let d = detector();
        let a = d.sketch(&Document::new(
            "a",
            include_str!("../../corpora/clough/orig_taskb.txt"),
        ));
        let b = d.sketch(&Document::new(
            "b",
            include_str!("../../corpora/clough/g0pA_taskb.txt"),
        ));
        let c = d.compare(&a, &a);
        assert_eq!(
            (c.similarity.resemblance, c.evidence.matching_megashingles),
            (1.0, 15)
        );
        assert_eq!(d.compare(&a, &b).similarity, d.compare(&b, &a).similarity);
        let e = d.sketch(&Document::new("e", ""));
        let c = d.compare(&e, &e);
        assert_eq!(c.similarity.resemblance, 0.0);
        assert!(!c.duplicate);
    }

    #[test]
    fn invalid_settings_are_rejected() {
        for cfg in [
            MegaShingleConfig {
                minima: 80,
                ..MegaShingleConfig::default()
            },
            MegaShingleConfig {
                minima: 14,
                ..MegaShingleConfig::default()
            },
            MegaShingleConfig {
                shingle_size: 0,
                ..MegaShingleConfig::default()
            },
        ] {
            assert!(MegaShingle::new(cfg).is_err());
        }
    }
}
