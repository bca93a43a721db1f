//! SpotSigs (Theobald, Siddharth and Paepcke, SIGIR 2008), SPEC §5.4: one of the methods the
//! SL+ST paper compares against.
//!
//! A *spot signature* is found at every occurrence of an *antecedent* — one of a few very common
//! words (`the`, `is`, `have`, …, and the Romance articles `un`, `le`, `el`, …) that mark running
//! prose rather than navigation or advertising. It is the chain of the next c non-stop words after
//! it: the first non-stop word at least d words after the antecedent, then the first non-stop
//! word at least d words after that one, and so on (d = spot distance, c = chain length). A
//! document is the multiset of its signatures, and two documents are compared with the multiset
//! Jaccard coefficient Σ min(countA, countB) / Σ max(countA, countB).
//!
//! This follows the authors' reference implementation and its shipped configuration: the 24
//! antecedents below, d = 1, c = 1, a signature counted as its chain alone (the antecedent is not
//! part of it; [`SpotSigsConfig::with_antecedent`] adds it, as the paper's examples write it),
//! partial chains at the end of a text kept, documents with fewer than 4 signatures not compared,
//! and a Jaccard threshold of 0.85. Words are UAX #29 words, lowercased; the stop words that
//! chains skip are the `--stopwords` list (the reference ships its own list of about 570).
//!
//! In a corpus, the reference also drops every signature whose normalised inverse document
//! frequency idf = ln((N + 1)/df) / ln(N + 1) lies outside [0.2, 0.8] before comparing
//! ([`apply_idf_band`]). Between two documents alone that filter is meaningless — every signature
//! found in one document only would go — so a pairwise comparison does not apply it.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::document::Document;
use crate::error::{Error, Result};
use crate::similarity::Similarity;
use crate::text::StopWords;

use super::{Comparison, Detector, Evidence, Method, Params};
use crate::text::Terms;

/// The reference configuration's antecedents.
pub const DEFAULT_ANTECEDENTS: &[&str] = &[
    "the", "be", "is", "are", "was", "will", "would", "shall", "should", "can", "could", "has",
    "have", "had", "do", "did", "does", "done", "un", "une", "le", "la", "el", "al",
];

/// Settings of SpotSigs; defaults are the reference configuration's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SpotSigsConfig {
    /// The words that start a signature (default [`DEFAULT_ANTECEDENTS`]).
    pub antecedents: Vec<String>,
    /// d: each chain word is the first non-stop word at least d words after the previous one
    /// (default 1).
    pub spot_distance: usize,
    /// c: words per chain (default 1).
    pub chain_length: usize,
    /// Documents with fewer signatures are not compared (default 4).
    pub min_signatures: usize,
    /// Write the antecedent into the signature (`the:president` rather than `president`); the
    /// reference counts the chain alone (default false).
    pub with_antecedent: bool,
    /// The stop words chains skip (default the built-in English list).
    pub stopwords: StopWords,
    /// Duplicate when the multiset Jaccard coefficient is at least this (default 0.85, the
    /// reference configuration's confidence threshold).
    pub threshold: f64,
    /// The band of normalised IDF a signature must lie in, in corpus mode (default 0.2–0.8).
    pub idf_band: (f64, f64),
}

impl Default for SpotSigsConfig {
    fn default() -> Self {
        SpotSigsConfig {
            antecedents: DEFAULT_ANTECEDENTS.iter().map(|s| s.to_string()).collect(),
            spot_distance: 1,
            chain_length: 1,
            min_signatures: 4,
            with_antecedent: false,
            stopwords: StopWords::english(),
            threshold: 0.85,
            idf_band: (0.2, 0.8),
        }
    }
}

impl SpotSigsConfig {
    /// Check every setting.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for no antecedents, a distance or chain length of 0, a
    /// threshold outside [0, 1] or an IDF band that is not an interval within [0, 1].
    pub fn validate(&self) -> Result<()> {
        let invalid = |name, value: String, expected| {
            Err(Error::InvalidParameter {
                name,
                value,
                expected,
            })
        };
        if self.antecedents.is_empty() {
            return invalid("spotsigs.antecedents", String::new(), "at least one word");
        }
        if self.spot_distance == 0 {
            return invalid("spotsigs.spot_distance", "0".into(), "at least 1 word");
        }
        if self.chain_length == 0 {
            return invalid("spotsigs.chain_length", "0".into(), "at least 1 word");
        }
        crate::error::check_fraction("spotsigs.threshold", self.threshold)?;
        let (lo, hi) = self.idf_band;
        if !(0.0 <= lo && lo <= hi && hi <= 1.0) {
            return invalid(
                "spotsigs.idf_band",
                format!("{lo}–{hi}"),
                "0 ≤ low ≤ high ≤ 1",
            );
        }
        Ok(())
    }

    /// The settings as reports record them.
    pub fn params(&self) -> SpotSigsParams {
        SpotSigsParams {
            antecedents: self.antecedents.clone(),
            spot_distance: self.spot_distance,
            chain_length: self.chain_length,
            min_signatures: self.min_signatures,
            with_antecedent: self.with_antecedent,
            stopwords: self.stopwords.id().to_string(),
            threshold: self.threshold,
        }
    }
}

/// The settings of SpotSigs as reports record them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpotSigsParams {
    /// The antecedents.
    pub antecedents: Vec<String>,
    /// Spot distance d.
    pub spot_distance: usize,
    /// Words per chain.
    pub chain_length: usize,
    /// Documents with fewer signatures are not compared.
    pub min_signatures: usize,
    /// Whether signatures carry their antecedent.
    pub with_antecedent: bool,
    /// The stop-word list's id.
    pub stopwords: String,
    /// The threshold of the decision.
    pub threshold: f64,
}

/// One signature and its count, as `slst sketch --method spotsigs` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SignatureCount {
    /// The signature (chain words joined by `:`).
    pub signature: String,
    /// How often it occurs.
    pub count: u32,
}

/// What `slst sketch --method spotsigs` shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpotSigsSketchView {
    /// Signatures counted with repeats.
    pub total: usize,
    /// Distinct signatures.
    pub distinct: usize,
    /// The distinct signatures with their counts, ascending.
    pub signatures: Vec<SignatureCount>,
}

/// What SpotSigs keeps of a document: its signatures with their counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpotSigsSketch {
    /// Distinct signatures (chain words joined by `:`), ascending, each with its count.
    pub signatures: Vec<(String, u32)>,
    /// Number of signatures counted with repeats.
    pub total: usize,
}

/// What comparing two SpotSigs sketches found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SpotSigsEvidence {
    /// Signatures of A (with repeats).
    pub signatures_a: usize,
    /// Signatures of B (with repeats).
    pub signatures_b: usize,
    /// Σ min(countA, countB): the multiset intersection.
    pub shared: u64,
    /// Σ max(countA, countB): the multiset union.
    pub union: u64,
    /// Whether the pair was compared (both have at least the minimum number of signatures).
    pub compared: bool,
    /// Why the scores are 0, when the pair was not compared (reports give it as their
    /// `note`).
    #[serde(skip)]
    pub note: Option<String>,
}

impl Evidence for SpotSigsEvidence {
    fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    fn swapped(&self) -> Self {
        SpotSigsEvidence {
            signatures_a: self.signatures_b,
            signatures_b: self.signatures_a,
            ..self.clone()
        }
    }
}

/// The SpotSigs detector.
///
/// # Example
/// ```
/// use slst::method::{SpotSigs, SpotSigsConfig};
/// use slst::{Detector, Document};
/// let d = SpotSigs::new(SpotSigsConfig::default())?;
/// let s = d.sketch(&Document::new("a", "The senator is expected to vote. The bill has \
///     passed the house and the president will sign it."));
/// let chains: Vec<&str> = s.signatures.iter().map(|(sig, _)| sig.as_str()).collect();
/// assert_eq!(chains, ["bill", "expected", "house", "passed", "president", "senator", "sign"]);
/// # Ok::<(), slst::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SpotSigs {
    config: SpotSigsConfig,
    antecedents: HashSet<String>,
}

impl SpotSigs {
    /// A SpotSigs detector with the given settings.
    ///
    /// # Errors
    /// A setting out of range (see [`SpotSigsConfig::validate`]).
    pub fn new(config: SpotSigsConfig) -> Result<Self> {
        config.validate()?;
        let antecedents = config
            .antecedents
            .iter()
            .map(|a| crate::text::normalize_term(a.trim()))
            .collect();
        Ok(SpotSigs {
            config,
            antecedents,
        })
    }

    /// The settings in force.
    pub fn config(&self) -> &SpotSigsConfig {
        &self.config
    }

    /// The signatures of a text, in the order of their antecedents.
    pub fn signatures(&self, text: &str) -> Vec<String> {
        let words = Terms::new(text, &StopWords::none());
        let stopwords = self.config.stopwords.for_text(text);
        let n = words.len();
        // next[k]: the first non-stop word at or after k (n when there is none).
        let mut next = vec![n; n + 1];
        for k in (0..n).rev() {
            next[k] = if stopwords.contains(words.term(k)) {
                next[k + 1]
            } else {
                k
            };
        }
        let (d, c) = (self.config.spot_distance, self.config.chain_length);
        let mut out = Vec::new();
        for i in 0..n {
            let word = words.term(i);
            if !self.antecedents.contains(word) {
                continue;
            }
            let mut chain = String::new();
            if self.config.with_antecedent {
                chain.push_str(word);
            }
            let (mut pos, mut links) = (i, 0);
            while links < c {
                let k = next[(pos + d).min(n)];
                if k == n {
                    break;
                }
                if !chain.is_empty() {
                    chain.push(':');
                }
                chain.push_str(words.term(k));
                pos = k;
                links += 1;
            }
            if links > 0 {
                out.push(chain);
            }
        }
        out
    }

    /// The normalised-IDF filter of corpus mode with the configured band (see
    /// [`apply_idf_band`]).
    pub fn apply_idf_band(&self, sketches: &mut [SpotSigsSketch]) {
        apply_idf_band(sketches, self.config.idf_band);
    }
}

/// Count a list of signatures into a sketch.
fn sketch_of(mut signatures: Vec<String>) -> SpotSigsSketch {
    let total = signatures.len();
    signatures.sort_unstable();
    let mut out: Vec<(String, u32)> = Vec::new();
    for s in signatures {
        match out.last_mut() {
            Some((last, n)) if *last == s => *n += 1,
            _ => out.push((s, 1)),
        }
    }
    SpotSigsSketch {
        signatures: out,
        total,
    }
}

/// SpotSigs' corpus filter: drop from every sketch the signatures whose normalised inverse
/// document frequency ln((N + 1)/df) / ln(N + 1) — N sketches, df of them holding the signature —
/// lies outside `band` (the reference's 0.2–0.8 keeps signatures neither too rare nor too common).
///
/// # Example
/// ```
/// use slst::method::{SpotSigs, SpotSigsConfig, apply_idf_band};
/// use slst::{Detector, Document};
/// let d = SpotSigs::new(SpotSigsConfig::default())?;
/// let mut docs: Vec<_> = ["The cat sat. The dog ran.", "The cat hid. The dog flew.",
///     "The cat ate. The fox fled.", "The cat sat. The owl ran."]
///     .iter().enumerate().map(|(i, t)| d.sketch(&Document::new(i.to_string(), *t))).collect();
/// apply_idf_band(&mut docs, (0.2, 0.8));
/// // N = 4: "cat" (df 4, idf ln(5/4)/ln 5 = 0.14) is too common, "fox" and "owl" (df 1,
/// // idf 1.0) too rare; "dog" (df 2, idf 0.57) stays.
/// assert_eq!(docs[0].signatures, [("dog".to_string(), 1)]);
/// assert_eq!(docs[2].total, 0);
/// # Ok::<(), slst::Error>(())
/// ```
pub fn apply_idf_band(sketches: &mut [SpotSigsSketch], band: (f64, f64)) {
    let n = sketches.len() as f64;
    let mut df: HashMap<String, usize> = HashMap::new();
    for s in sketches.iter() {
        for (sig, _) in &s.signatures {
            *df.entry(sig.clone()).or_insert(0) += 1;
        }
    }
    let norm = (n + 1.0).ln();
    for s in sketches.iter_mut() {
        s.signatures.retain(|(sig, _)| {
            let idf = ((n + 1.0) / df[sig] as f64).ln() / norm;
            band.0 <= idf && idf <= band.1
        });
        s.total = s.signatures.iter().map(|(_, c)| *c as usize).sum();
    }
}

impl Detector for SpotSigs {
    type Sketch = SpotSigsSketch;
    type Evidence = SpotSigsEvidence;
    type SketchView = SpotSigsSketchView;

    fn method(&self) -> Method {
        Method::SpotSigs
    }

    fn params(&self) -> Params {
        Params::SpotSigs(self.config.params())
    }

    fn rule(&self) -> String {
        format!("J ≥ {}", self.config.threshold)
    }

    fn sketch_view(&self, s: &SpotSigsSketch) -> SpotSigsSketchView {
        SpotSigsSketchView {
            total: s.total,
            distinct: s.signatures.len(),
            signatures: s
                .signatures
                .iter()
                .map(|(signature, count)| SignatureCount {
                    signature: signature.clone(),
                    count: *count,
                })
                .collect(),
        }
    }

    fn sketch(&self, doc: &Document) -> SpotSigsSketch {
        sketch_of(self.signatures(&doc.text))
    }

    fn compare(&self, a: &SpotSigsSketch, b: &SpotSigsSketch) -> Comparison<SpotSigsEvidence> {
        let min = self.config.min_signatures;
        let compared = a.total >= min && b.total >= min && a.total > 0;
        let (mut i, mut j, mut shared, mut union) = (0, 0, 0u64, 0u64);
        let (sa, sb) = (&a.signatures, &b.signatures);
        while i < sa.len() || j < sb.len() {
            let order = match (sa.get(i), sb.get(j)) {
                (Some(x), Some(y)) => x.0.cmp(&y.0),
                (Some(_), None) => std::cmp::Ordering::Less,
                _ => std::cmp::Ordering::Greater,
            };
            match order {
                std::cmp::Ordering::Less => {
                    union += u64::from(sa[i].1);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    union += u64::from(sb[j].1);
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    shared += u64::from(sa[i].1.min(sb[j].1));
                    union += u64::from(sa[i].1.max(sb[j].1));
                    i += 1;
                    j += 1;
                }
            }
        }
        let ratio = |x: u64, y: usize| if y == 0 { 0.0 } else { x as f64 / y as f64 };
        let similarity = if compared {
            Similarity {
                resemblance: ratio(shared, union as usize),
                containment_a: Some(ratio(shared, a.total)),
                containment_b: Some(ratio(shared, b.total)),
            }
        } else {
            Similarity::from_counts(0, 0, 0)
        };
        Comparison {
            method: self.method(),
            duplicate: compared && shared > 0 && similarity.resemblance >= self.config.threshold,
            similarity,
            evidence: SpotSigsEvidence {
                signatures_a: a.total,
                signatures_b: b.total,
                shared,
                union,
                compared,
                note: (!compared).then(|| {
                    format!(
                        "not compared: a document has fewer than {} spot signatures",
                        min.max(1)
                    )
                }),
            },
        }
    }

    /// Corpus mode keeps the signatures whose normalised IDF lies in the band (0.2–0.8 by
    /// default), as the reference implementation does.
    fn prepare_corpus(&self, sketches: &mut [SpotSigsSketch]) {
        self.apply_idf_band(sketches);
    }

    /// XXH3 of each signature: a positive multiset Jaccard needs a shared one.
    fn join_keys(&self, sketch: &SpotSigsSketch) -> Option<Vec<u64>> {
        Some(
            sketch
                .signatures
                .iter()
                .map(|(s, _)| xxhash_rust::xxh3::xxh3_64(s.as_bytes()))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detector(config: SpotSigsConfig) -> SpotSigs {
        SpotSigs::new(config).unwrap()
    }

    /// The SpotSigs paper's running example sentence.
    const OBAMA: &str = "At a rally to kick off a weeklong campaign for the South Carolina \
        primary, Obama tried to set the record straight from an attack circulating widely on \
        the Internet that is designed to play into prejudices against Muslims and fears of \
        terrorism.";

    #[test]
    fn chains_skip_stop_words() {
        // Antecedent "a" as in the paper's example, chains of 2 at distance 1.
        let d = detector(SpotSigsConfig {
            antecedents: vec!["a".into(), "the".into(), "is".into()],
            chain_length: 2,
            with_antecedent: true,
            ..SpotSigsConfig::default()
        });
        let sigs = d.signatures(OBAMA);
        assert_eq!(
            sigs,
            [
                "a:rally:kick",
                "a:weeklong:campaign",
                "the:south:carolina",
                "the:record:straight",
                "the:internet:designed",
                "is:designed:play"
            ]
        );
    }

    #[test]
    fn spot_distance_takes_the_first_non_stop_word_at_least_d_words_on() {
        let d = detector(SpotSigsConfig {
            spot_distance: 2,
            chain_length: 2,
            ..SpotSigsConfig::default()
        });
        // the(0) → at least 2 words on: "red" (2); at least 2 on from there: "on" and "the" are
        // stop words, so "road" (6). The second "the" (5) has no word 2 on.
        assert_eq!(d.signatures("the big red car on the road"), ["red:road"]);
    }

    #[test]
    fn reference_defaults_count_the_chain_alone() {
        let d = detector(SpotSigsConfig::default());
        assert_eq!(
            d.signatures("The cat is the best. La casa"),
            ["cat", "best", "best", "casa"]
        );
        let s = d.sketch(&Document::new("x", "The cat is the best. La casa"));
        assert_eq!(s.total, 4);
        assert_eq!(s.signatures[0], ("best".to_string(), 2));
    }

    #[test]
    fn multiset_jaccard() {
        let d = detector(SpotSigsConfig {
            min_signatures: 1,
            threshold: 0.5,
            ..SpotSigsConfig::default()
        });
        let a = d.sketch(&Document::new("a", "the ox the ox the yak"));
        let b = d.sketch(&Document::new("b", "the ox the yak the yak the zebu"));
        let c = d.compare(&a, &b);
        // A = {ox:2, yak:1}, B = {ox:1, yak:2, zebu:1}: Σmin = 2, Σmax = 5.
        assert_eq!((c.evidence.shared, c.evidence.union), (2, 5));
        assert_eq!(c.similarity.resemblance, 0.4);
        assert_eq!(c.similarity.containment_a, Some(2.0 / 3.0));
        assert_eq!(c.similarity.containment_b, Some(0.5));
        assert_eq!(d.compare(&b, &a).similarity, c.similarity.swapped());
    }

    #[test]
    fn fewer_than_four_signatures_are_not_compared() {
        let d = detector(SpotSigsConfig::default());
        let s = d.sketch(&Document::new(
            "a",
            "The cat sat. The dog ran. The owl flew.",
        ));
        assert_eq!(s.total, 3);
        let c = d.compare(&s, &s);
        assert!(!c.evidence.compared && !c.duplicate);
        assert_eq!(c.similarity.resemblance, 0.0);
        let e = d.sketch(&Document::new("e", ""));
        assert_eq!(d.compare(&e, &e).similarity.resemblance, 0.0);
    }

    #[test]
    fn identity_scores_one() {
        let d = detector(SpotSigsConfig::default());
        let s = d.sketch(&Document::new(
            "a",
            include_str!("../../corpora/clough/orig_taskb.txt"),
        ));
        assert!(s.total >= 4);
        let c = d.compare(&s, &s);
        assert_eq!(c.similarity.resemblance, 1.0);
        assert!(c.duplicate);
    }

    #[test]
    fn idf_band_keeps_mid_frequency_signatures() {
        let d = detector(SpotSigsConfig::default());
        let texts = [
            "The cat sat. The dog ran.",
            "The cat hid. The dog flew.",
            "The cow ate. The fox fled.",
            "The cow sat. The owl ran.",
            "The ant sat. The bee ran.",
        ];
        let mut docs: Vec<SpotSigsSketch> = texts
            .iter()
            .map(|t| d.sketch(&Document::new("x", *t)))
            .collect();
        d.apply_idf_band(&mut docs);
        // N = 5, ln 6 = 1.79: df 2 → idf 0.61 (kept), df 1 → 1.0 (dropped).
        let kept: Vec<Vec<&str>> = docs
            .iter()
            .map(|s| s.signatures.iter().map(|(x, _)| x.as_str()).collect())
            .collect();
        assert_eq!(kept[0], ["cat", "dog"]);
        assert_eq!(kept[2], ["cow"]);
        assert!(kept[4].is_empty());
        assert_eq!(docs[0].total, 2);
    }

    #[test]
    fn invalid_settings_are_rejected() {
        for cfg in [
            SpotSigsConfig {
                antecedents: vec![],
                ..SpotSigsConfig::default()
            },
            SpotSigsConfig {
                chain_length: 0,
                ..SpotSigsConfig::default()
            },
            SpotSigsConfig {
                spot_distance: 0,
                ..SpotSigsConfig::default()
            },
            SpotSigsConfig {
                idf_band: (0.9, 0.1),
                ..SpotSigsConfig::default()
            },
        ] {
            assert!(SpotSigs::new(cfg).is_err());
        }
    }
}
