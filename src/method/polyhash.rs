//! Polynomial-hash character n-grams (Granik and Mesiura 2016; seed 003), SPEC §5.3.
//!
//! Seed 003's algorithm for the similarity of news texts:
//! 1. stem every word (Porter);
//! 2. remove the stop words;
//! 3. remove all white space and punctuation;
//! 4. lowercase;
//! 5. cut the result into character n-grams (n = 6), one per start position;
//! 6. hash each n-gram with a polynomial hash, H = (Σᵢ aᵢ·pⁱ) mod M for i = 1…n, where aᵢ is the
//!    code of the i-th character and p = 257 (a prime above the 256 codes of ASCII); "to avoid
//!    collisions one often computes several hashes of a string, e.g. modulo two different
//!    moduli";
//! 7. the similarity is the Jaccard coefficient of the two sets of hashes.
//!
//! Here: the words are UAX #29 words, lowercased ([`crate::text::for_each_word`]); stop words are
//! removed *before* stemming, because stop lists hold surface forms (`was` would stem to `wa` and
//! no longer be found), and so is the punctuation inside words (`u.s` → `us`, `team's` →
//! `teams`), so that the stemmer sees plain words; the stemmer is Snowball's English ("Porter2", the `rust-stemmers` crate),
//! Porter's own revision of the algorithm the paper names — the two differ on a few suffixes
//! only. Character codes are Unicode scalar values (ASCII codes for ASCII text). The two moduli
//! default to 10⁹ + 7 and 10⁹ + 9; the pair of hashes is one 64-bit key, so two different n-grams
//! collide with probability about 10⁻¹⁸.
//!
//! A text shorter than n characters (but not empty) is one n-gram: itself.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::document::Document;
use crate::error::{Error, Result};
use crate::similarity::Similarity;
use crate::text::{self, StopWords};

use super::{Comparison, Detector, Evidence, Method, Params};

pub use rust_stemmers::Algorithm as StemmerLanguage;

/// Settings of the polynomial-hash method; defaults are seed 003's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PolyHashConfig {
    /// Characters per n-gram (default 6).
    pub ngram: usize,
    /// The polynomial's base p (default 257).
    pub base: u64,
    /// The two prime moduli (default 10⁹ + 7 and 10⁹ + 9), each below 2³².
    pub moduli: [u64; 2],
    /// The stemmer's language (default English); `None` keeps words as they are. Written by
    /// its name ([`stemmer_name`]).
    #[serde(with = "stemmer_by_name")]
    pub stemmer: Option<StemmerLanguage>,
    /// Words removed before stemming (default the built-in English list).
    pub stopwords: StopWords,
    /// Duplicate when the Jaccard coefficient is at least this (default 0.5). Seed 003 measured
    /// 0.050–0.069 between news texts on the same story and 0.004–0.009 between unrelated ones:
    /// a threshold of about 0.03 groups stories rather than near-duplicates.
    pub threshold: f64,
}

impl Default for PolyHashConfig {
    fn default() -> Self {
        PolyHashConfig {
            ngram: 6,
            base: 257,
            moduli: [1_000_000_007, 1_000_000_009],
            stemmer: Some(StemmerLanguage::English),
            stopwords: StopWords::english(),
            threshold: 0.5,
        }
    }
}

/// Whether `n` is prime (trial division; n < 2³²).
fn is_prime(n: u64) -> bool {
    n >= 2
        && (2..)
            .take_while(|d| d * d <= n)
            .all(|d| !n.is_multiple_of(d))
}

/// The name of a stemmer language, as the CLI spells it.
pub fn stemmer_name(language: Option<StemmerLanguage>) -> String {
    match language {
        None => "none".into(),
        Some(l) => format!("{l:?}").to_lowercase(),
    }
}

/// Every Snowball language the polynomial-hash method can stem in.
pub const STEMMER_LANGUAGES: [StemmerLanguage; 18] = {
    use StemmerLanguage::*;
    [
        Arabic, Danish, Dutch, English, Finnish, French, German, Greek, Hungarian, Italian,
        Norwegian, Portuguese, Romanian, Russian, Spanish, Swedish, Tamil, Turkish,
    ]
};

/// The stemmer language of a name ([`stemmer_name`]'s spelling, any case): `Some(None)` for
/// `none`, `None` for a name that is no language.
pub fn stemmer_from_name(name: &str) -> Option<Option<StemmerLanguage>> {
    let name = name.trim().to_lowercase();
    if name == "none" {
        return Some(None);
    }
    STEMMER_LANGUAGES
        .into_iter()
        .find(|&l| stemmer_name(Some(l)) == name)
        .map(Some)
}

/// A stemmer language written by its name (`english`, `none`).
mod stemmer_by_name {
    use super::{STEMMER_LANGUAGES, StemmerLanguage, stemmer_from_name, stemmer_name};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        language: &Option<StemmerLanguage>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&stemmer_name(*language))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<StemmerLanguage>, D::Error> {
        let name = String::deserialize(deserializer)?;
        stemmer_from_name(&name).ok_or_else(|| {
            let names: Vec<String> = STEMMER_LANGUAGES
                .iter()
                .map(|&l| stemmer_name(Some(l)))
                .collect();
            serde::de::Error::custom(format!(
                "no stemmer {name:?} (none or one of {})",
                names.join(", ")
            ))
        })
    }
}

impl PolyHashConfig {
    /// Check every setting.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for an n-gram size of 0, a base below 2, a modulus that is
    /// not a prime below 2³² and above the base, equal moduli, or a threshold outside [0, 1].
    pub fn validate(&self) -> Result<()> {
        if self.ngram == 0 {
            return Err(Error::InvalidParameter {
                name: "polyhash.ngram",
                value: "0".into(),
                expected: "at least 1 character",
            });
        }
        if self.base < 2 {
            return Err(Error::InvalidParameter {
                name: "polyhash.base",
                value: self.base.to_string(),
                expected: "at least 2",
            });
        }
        for m in self.moduli {
            if m >= 1 << 32 || m <= self.base || !is_prime(m) {
                return Err(Error::InvalidParameter {
                    name: "polyhash.moduli",
                    value: m.to_string(),
                    expected: "primes above the base and below 2^32",
                });
            }
        }
        if self.moduli[0] == self.moduli[1] {
            return Err(Error::InvalidParameter {
                name: "polyhash.moduli",
                value: format!("{},{}", self.moduli[0], self.moduli[1]),
                expected: "two different primes",
            });
        }
        crate::error::check_fraction("polyhash.threshold", self.threshold)?;
        Ok(())
    }

    /// The settings as reports record them.
    pub fn params(&self) -> PolyHashParams {
        PolyHashParams {
            ngram: self.ngram,
            base: self.base,
            moduli: self.moduli,
            stemmer: stemmer_name(self.stemmer),
            stopwords: self.stopwords.id().to_string(),
            threshold: self.threshold,
        }
    }
}

/// The settings of the polynomial-hash method as reports record them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PolyHashParams {
    /// Characters per n-gram.
    pub ngram: usize,
    /// The polynomial's base.
    pub base: u64,
    /// The two prime moduli.
    pub moduli: [u64; 2],
    /// The stemmer's language, or `none`.
    pub stemmer: String,
    /// The stop-word list's id.
    pub stopwords: String,
    /// The threshold of the decision.
    pub threshold: f64,
}

/// What `slst sketch --method polyhash` shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PolyHashSketchView {
    /// The canonical string.
    pub canonical: String,
    /// Its n-grams (one per start position).
    pub ngrams: usize,
    /// Distinct n-gram hashes.
    pub distinct: usize,
}

/// What the polynomial-hash method keeps of a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PolyHashSketch {
    /// The canonical string (steps 1–4).
    pub canonical: String,
    /// How many n-grams it has (one per start position).
    pub ngrams: usize,
    /// The distinct n-gram hashes, ascending: the first modulus's hash in the high 32 bits, the
    /// second's in the low 32.
    pub hashes: Vec<u64>,
}

/// What comparing two polynomial-hash sketches found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PolyHashEvidence {
    /// Distinct n-gram hashes of A.
    pub distinct_a: usize,
    /// Distinct n-gram hashes of B.
    pub distinct_b: usize,
    /// Hashes in both.
    pub shared: usize,
    /// Hashes in either.
    pub union: usize,
    /// Why the scores are 0, when a text is empty (reports give it as their `note`).
    #[serde(skip)]
    pub note: Option<String>,
}

impl Evidence for PolyHashEvidence {
    fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    fn swapped(&self) -> Self {
        PolyHashEvidence {
            distinct_a: self.distinct_b,
            distinct_b: self.distinct_a,
            ..self.clone()
        }
    }
}

/// The polynomial-hash detector.
///
/// # Example
/// Seed 003's own example: the canonical BBC and CNN strings it prints share 8 of 188 distinct
/// 6-grams.
/// ```
/// use slst::method::{PolyHash, PolyHashConfig};
/// use slst::Detector;
/// let d = PolyHash::new(PolyHashConfig::default())?;
/// let bbc = d.sketch_canonical("englandsuffertheirworsthumilisintheyknockout1950worldcupbyusain\
///     brazilasicelandshocktheminalstof16euro2016".into());
/// let cnn = d.sketch_canonical("icelandpulloffoneofmostastonishresultinhistoriofeuropeanfootball\
///     onmondayknockenglandoutofeuro2016final".into());
/// let c = d.compare(&bbc, &cnn);
/// assert_eq!((c.evidence.shared, c.evidence.union), (8, 188));
/// assert_eq!(c.similarity.resemblance, 8.0 / 188.0);
/// # Ok::<(), slst::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct PolyHash {
    config: PolyHashConfig,
}

/// One modulus's rolling polynomial hash, formula (1): H = Σᵢ aᵢ·pⁱ mod M, i = 1…n.
#[derive(Debug, Clone, Copy)]
struct Rolling {
    m: u64,
    /// ⌊(2⁶⁴ − 1) / M⌋, for Barrett reduction.
    r: u64,
    p: u64,
    /// p⁻¹ mod M.
    p_inv: u64,
    /// pⁿ mod M.
    p_n: u64,
}

/// bᵉ mod m, for m < 2³².
fn pow_mod(mut b: u64, mut e: u64, m: u64) -> u64 {
    let mut r = 1 % m;
    b %= m;
    while e > 0 {
        if e & 1 == 1 {
            r = r * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    r
}

impl Rolling {
    fn new(p: u64, m: u64, n: usize) -> Self {
        let p = p % m;
        Rolling {
            m,
            r: u64::MAX / m,
            p,
            p_inv: pow_mod(p, m - 2, m), // Fermat: m is prime
            p_n: pow_mod(p, n as u64, m),
        }
    }

    /// x mod M by Barrett reduction: the quotient estimate ⌊x·r / 2⁶⁴⌋ is at most 2 short, so
    /// at most two subtractions finish the job (a hardware division is several times slower).
    fn reduce(&self, x: u64) -> u64 {
        let q = ((u128::from(x) * u128::from(self.r)) >> 64) as u64;
        let mut t = x - q * self.m;
        while t >= self.m {
            t -= self.m;
        }
        t
    }

    /// H of `codes` directly.
    fn direct(&self, codes: &[u32]) -> u64 {
        let mut h = 0;
        let mut power = self.p;
        for &a in codes {
            h = (h + u64::from(a) % self.m * power) % self.m;
            power = power * self.p % self.m;
        }
        h
    }

    /// H of the window one to the right: drop `first`, append `next`:
    /// H' = (H − a₁·p)·p⁻¹ + a_new·pⁿ = H·p⁻¹ − a₁ + a_new·pⁿ (mod M).
    fn roll(&self, h: u64, first: u32, next: u32) -> u64 {
        let shifted = self.reduce(h * self.p_inv); // h, p⁻¹ < M < 2³²
        let added = self.reduce(u64::from(next) * self.p_n); // next < 2²¹
        let dropped = self.reduce(u64::from(first));
        self.reduce(shifted + added + self.m - dropped)
    }
}

impl PolyHash {
    /// A polynomial-hash detector with the given settings.
    ///
    /// # Errors
    /// A setting out of range (see [`PolyHashConfig::validate`]).
    pub fn new(config: PolyHashConfig) -> Result<Self> {
        config.validate()?;
        Ok(PolyHash { config })
    }

    /// The settings in force.
    pub fn config(&self) -> &PolyHashConfig {
        &self.config
    }

    /// Steps 1–4: the words of `text`, stop words removed, inner punctuation removed, stemmed,
    /// concatenated.
    pub fn canonical(&self, text: &str) -> String {
        let stemmer = self.config.stemmer.map(rust_stemmers::Stemmer::create);
        let stopwords = self.config.stopwords.for_text(text);
        let mut out = String::with_capacity(text.len());
        let mut word_buf = String::new();
        // Stems of the words seen so far: a text repeats its vocabulary, and the stemmer
        // allocates on every call. In memory only, so its randomly seeded hasher is harmless.
        let mut stems: HashMap<String, String, foldhash::fast::RandomState> = HashMap::default();
        text::for_each_word(text, |word| {
            if stopwords.contains(word) {
                return;
            }
            // Words may hold inner punctuation ("u.s", "team's", "3.5"): step 3 removes it
            // before the stemmer sees the word, which would otherwise read "u.s" as a plural.
            word_buf.clear();
            word_buf.extend(word.chars().filter(|c| c.is_alphanumeric()));
            match &stemmer {
                Some(s) => match stems.get(word_buf.as_str()) {
                    Some(stem) => out.push_str(stem),
                    None => {
                        let stem = s.stem(&word_buf).into_owned();
                        out.push_str(&stem);
                        stems.insert(word_buf.clone(), stem);
                    }
                },
                None => out.push_str(&word_buf),
            }
        });
        out
    }

    /// Steps 5–6 on a canonical string: the sketch of its n-gram hashes.
    pub fn sketch_canonical(&self, canonical: String) -> PolyHashSketch {
        let codes: Vec<u32> = canonical.chars().map(u32::from).collect();
        let n = self.config.ngram.min(codes.len());
        let mut hashes = Vec::with_capacity(codes.len().saturating_sub(n) + 1);
        if n > 0 {
            let [r1, r2] = self
                .config
                .moduli
                .map(|m| Rolling::new(self.config.base, m, n));
            let (mut h1, mut h2) = (r1.direct(&codes[..n]), r2.direct(&codes[..n]));
            hashes.push(h1 << 32 | h2);
            for i in 0..codes.len() - n {
                h1 = r1.roll(h1, codes[i], codes[i + n]);
                h2 = r2.roll(h2, codes[i], codes[i + n]);
                hashes.push(h1 << 32 | h2);
            }
        }
        let ngrams = hashes.len();
        hashes.sort_unstable();
        hashes.dedup();
        PolyHashSketch {
            canonical,
            ngrams,
            hashes,
        }
    }
}

/// |A ∩ B| of two ascending distinct lists.
pub(crate) fn sorted_intersection(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

impl Detector for PolyHash {
    type Sketch = PolyHashSketch;
    type Evidence = PolyHashEvidence;
    type SketchView = PolyHashSketchView;

    fn method(&self) -> Method {
        Method::PolyHash
    }

    fn params(&self) -> Params {
        Params::PolyHash(self.config.params())
    }

    fn rule(&self) -> String {
        format!("J ≥ {}", self.config.threshold)
    }

    fn sketch_view(&self, s: &PolyHashSketch) -> PolyHashSketchView {
        PolyHashSketchView {
            canonical: s.canonical.clone(),
            ngrams: s.ngrams,
            distinct: s.hashes.len(),
        }
    }

    fn sketch(&self, doc: &Document) -> PolyHashSketch {
        self.sketch_canonical(self.canonical(&doc.text))
    }

    fn compare(&self, a: &PolyHashSketch, b: &PolyHashSketch) -> Comparison<PolyHashEvidence> {
        let shared = sorted_intersection(&a.hashes, &b.hashes);
        let (distinct_a, distinct_b) = (a.hashes.len(), b.hashes.len());
        let similarity = Similarity::from_counts(shared, distinct_a, distinct_b);
        Comparison {
            method: self.method(),
            duplicate: shared > 0 && similarity.resemblance >= self.config.threshold,
            similarity,
            evidence: PolyHashEvidence {
                distinct_a,
                distinct_b,
                shared,
                union: distinct_a + distinct_b - shared,
                note: (distinct_a == 0 || distinct_b == 0)
                    .then(|| "no n-grams: a document has no terms".to_string()),
            },
        }
    }

    /// The n-gram hashes: a positive Jaccard needs a shared one.
    fn join_keys(&self, sketch: &PolyHashSketch) -> Option<Vec<u64>> {
        Some(sketch.hashes.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The article's two canonical strings (steps 1–4 done by its authors), as printed.
    const BBC: &str = "englandsuffertheirworsthumilisintheyknockout1950worldcupbyusainbrazilasicelandshocktheminalstof16euro2016";
    const CNN: &str = "icelandpulloffoneofmostastonishresultinhistoriofeuropeanfootballonmondayknockenglandoutofeuro2016final";

    fn detector() -> PolyHash {
        PolyHash::new(PolyHashConfig::default()).unwrap()
    }

    #[test]
    fn seed_003_example_8_shared_188_in_union() {
        let d = detector();
        let c = d.compare(
            &d.sketch_canonical(BBC.into()),
            &d.sketch_canonical(CNN.into()),
        );
        assert_eq!((c.evidence.shared, c.evidence.union), (8, 188));
        assert_eq!(c.similarity.resemblance, 8.0 / 188.0);
        assert_eq!(format!("{:.3}", c.similarity.resemblance), "0.043");
    }

    #[test]
    fn hashes_equal_exactly_when_ngrams_do() {
        // No collisions among the example's n-grams: distinct hashes = distinct 6-grams.
        for s in [BBC, CNN] {
            let chars: Vec<char> = s.chars().collect();
            let mut grams: Vec<&[char]> = chars.windows(6).collect();
            grams.sort();
            grams.dedup();
            assert_eq!(
                detector().sketch_canonical(s.into()).hashes.len(),
                grams.len()
            );
        }
    }

    #[test]
    fn rolled_hash_equals_formula_one() {
        let codes: Vec<u32> = "the quick brown fox, naïve café 1950"
            .chars()
            .map(u32::from)
            .collect();
        for m in [1_000_000_007, 1_000_000_009, 4_294_967_291] {
            for n in [1, 2, 6] {
                let r = Rolling::new(257, m, n);
                let mut h = r.direct(&codes[..n]);
                for i in 0..codes.len() - n {
                    h = r.roll(h, codes[i], codes[i + n]);
                    assert_eq!(h, r.direct(&codes[i + 1..i + 1 + n]), "m {m} n {n} at {i}");
                }
            }
        }
        // Formula (1) by hand for "ab": 97·257 + 98·257² = 6 497 731 (below M, no reduction);
        // for "abc" 99·257³ = 1 680 484 707 is reduced once: 6 497 731 + 680 484 700.
        let r = Rolling::new(257, 1_000_000_007, 2);
        assert_eq!(r.direct(&[97, 98]), 6_497_731);
        assert_eq!(r.direct(&[97, 98, 99]), 686_982_431);
    }

    #[test]
    fn barrett_reduction_equals_remainder() {
        let mut x: u64 = 0x0123_4567_89AB_CDEF;
        for m in [263, 1_000_000_007, 1_000_000_009, 4_294_967_291] {
            let r = Rolling::new(257, m, 6);
            for edge in [0, 1, m - 1, m, m + 1, u64::MAX, u64::MAX - 1] {
                assert_eq!(r.reduce(edge), edge % m, "{edge} mod {m}");
            }
            for _ in 0..10_000 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                assert_eq!(r.reduce(x), x % m, "{x} mod {m}");
            }
        }
    }

    #[test]
    fn canonical_stems_drops_stop_words_and_punctuation() {
        let d = detector();
        assert_eq!(
            d.canonical("Iceland pulled off one of the most astonishing results."),
            "icelandpulloneastonishresult" // "off", "of", "the", "most" are NLTK stop words
        );
        assert_eq!(
            d.canonical("The U.S. team's 3.5-point win"),
            "usteam35pointwin"
        );
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
        assert_eq!(d.compare(&a, &a).similarity.resemblance, 1.0);
        assert_eq!(
            d.compare(&a, &b).similarity,
            d.compare(&b, &a).similarity.swapped()
        );
        let e = d.sketch(&Document::new("e", "the of and"));
        let c = d.compare(&e, &e);
        assert_eq!(c.similarity.resemblance, 0.0);
        assert!(!c.duplicate && c.evidence.note.is_some());
        let short = d.sketch(&Document::new("s", "cats"));
        assert_eq!((short.canonical.as_str(), short.ngrams), ("cat", 1));
    }

    #[test]
    fn invalid_settings_are_rejected() {
        for cfg in [
            PolyHashConfig {
                ngram: 0,
                ..PolyHashConfig::default()
            },
            PolyHashConfig {
                moduli: [1_000_000_008, 1_000_000_009],
                ..PolyHashConfig::default()
            },
            PolyHashConfig {
                moduli: [1_000_000_007, 1_000_000_007],
                ..PolyHashConfig::default()
            },
            PolyHashConfig {
                moduli: [1_000_000_007, 1 << 33],
                ..PolyHashConfig::default()
            },
            PolyHashConfig {
                base: 1,
                ..PolyHashConfig::default()
            },
        ] {
            assert!(PolyHash::new(cfg).is_err());
        }
    }
}
