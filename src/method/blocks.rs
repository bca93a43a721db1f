//! Block methods for web pages (seed 004, SPEC §7.4–7.6): fingerprints per structural-semantic
//! block, and documents compared through fuzzy sets of block similarities.
//!
//! | name | a block's fingerprint | Sim(b_i, b_j) |
//! |---|---|---|
//! | `blocks-md5` | the MD5 of the block's canonical text ("Blocks+MD5") | 1 if equal, else 0 |
//! | `blocks-shingle` | the n_i smallest 4-term shingle fingerprints, n_i proportional to the block's share of the page's terms, n_i ≥ 1, Σ n_i ≤ 10 where the block count allows | \|S_i ∩ S_j\| / \|S_i ∪ S_j\| |
//! | `blocks-specialchars` | counts of each character that is neither alphanumeric nor white space | Σ min / Σ max |
//! | `specialchars` | the same counts over the whole page (one block) | Σ min / Σ max |
//!
//! All four use one block similarity: Σ_k min(c_i(k), c_j(k)) / Σ_k max(c_i(k), c_j(k)) over
//! count vectors, which for sets (every count 1) is |S_i ∩ S_j| / |S_i ∪ S_j|.
//!
//! **Document similarity** (SPEC §7.5): for every block b of A and of B, μ_A(b) = max over the
//! blocks a of A of Sim(a, b), likewise μ_B(b); with the equivalence x ↔ y = min(max(1 − x, y),
//! max(1 − y, x)), Sim(A, B) = the mean over those blocks of μ_A(b) ↔ μ_B(b). Since Sim(b, b) = 1,
//! a block of A has μ_A = 1 and contributes μ_B(b): the score is the share of blocks, counted
//! over both pages, that have a counterpart on the other page, weighted by how good it is. The
//! containment of A in B is the mean of μ_B over A's blocks.
//!
//! A document without a segmentation (plain text, TREC, …) is one block.
//!
//! **Joins in corpus mode.** Two pages score above 0 exactly when some block of one has a
//! positive similarity with some block of the other, that is when they share a fingerprint:
//! a digest (`blocks-md5`), a shingle fingerprint (`blocks-shingle`), or a special character.
//! The first two give those as join keys, so `batch` and `eval` find every pair with a positive
//! score through an inverted index (exact, up to keys capped by `--max-df`). Special characters
//! (`.` and `,` are on nearly every page) make useless keys: those two methods compare every pair.

use serde::{Deserialize, Serialize};

use crate::document::Document;
use crate::error::{Error, Result};
use crate::similarity::Similarity;
use crate::text::StopWords;

use super::shingle::{ShingleHash, shingle_fingerprints};
use super::{Comparison, Detector, Evidence, Method, Params};
use crate::text::Terms;

/// What a block's fingerprint is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BlockFingerprint {
    /// The MD5 of the block's canonical text.
    Md5,
    /// The smallest shingle fingerprints, a number in proportion to the block's length.
    Shingle,
    /// Counts of special characters.
    SpecialChars,
}

/// Settings of the block methods.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BlocksConfig {
    /// Words removed in the canonical text (MD5 and shingles).
    pub stopwords: StopWords,
    /// Terms per shingle (default 4).
    pub shingle_size: usize,
    /// Shingles kept per page (default 10, seed 004), at least one per block.
    pub shingles_per_page: usize,
    /// Duplicate when the document similarity is at least this (default 0.5; seed 004 reports
    /// thresholds 0.80–0.95).
    pub threshold: f64,
    /// The special-characters methods' threshold (default 0.9: two pages of one language share
    /// most of their punctuation, so the scores sit high).
    pub specialchars_threshold: f64,
}

impl Default for BlocksConfig {
    fn default() -> Self {
        BlocksConfig {
            stopwords: StopWords::english(),
            shingle_size: 4,
            shingles_per_page: 10,
            threshold: 0.5,
            specialchars_threshold: 0.9,
        }
    }
}

impl BlocksConfig {
    /// Check every setting.
    ///
    /// # Errors
    /// A setting out of range.
    pub fn validate(&self) -> Result<()> {
        if self.shingle_size == 0 {
            return Err(Error::InvalidParameter {
                name: "blocks.shingle_size",
                value: "0".into(),
                expected: "at least 1",
            });
        }
        if self.shingles_per_page == 0 {
            return Err(Error::InvalidParameter {
                name: "blocks.shingles_per_page",
                value: "0".into(),
                expected: "at least 1",
            });
        }
        crate::error::check_fraction("blocks.threshold", self.threshold)?;
        crate::error::check_fraction("blocks.specialchars_threshold", self.specialchars_threshold)?;
        Ok(())
    }

    /// The settings of method `kind` as reports record them.
    pub fn params(&self, kind: BlockFingerprint, per_block: bool) -> BlocksParams {
        let text = kind != BlockFingerprint::SpecialChars;
        let shingles = kind == BlockFingerprint::Shingle;
        BlocksParams {
            per_block,
            stopwords: text.then(|| self.stopwords.id().to_string()),
            shingle_size: shingles.then_some(self.shingle_size),
            shingles_per_page: shingles.then_some(self.shingles_per_page),
            threshold: if text {
                self.threshold
            } else {
                self.specialchars_threshold
            },
        }
    }
}

/// The settings of a block method as reports record them (the fields its fingerprint uses).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BlocksParams {
    /// Fingerprints per block (false: the whole page as one block).
    pub per_block: bool,
    /// The stop-word list's id (MD5 and shingle fingerprints).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopwords: Option<String>,
    /// Terms per shingle (shingle fingerprints).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shingle_size: Option<usize>,
    /// Shingles kept per page (shingle fingerprints).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shingles_per_page: Option<usize>,
    /// The threshold of the decision.
    pub threshold: f64,
}

/// One entry of a block's fingerprint as `slst sketch` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum BlockKeyView {
    /// A digest or shingle fingerprint, in hex.
    Key(String),
    /// A special character and its count.
    Char {
        /// The character.
        #[serde(rename = "char")]
        character: Option<String>,
        /// How often it occurs.
        count: u32,
    },
}

/// What `slst sketch` shows of a block sketch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BlocksSketchView {
    /// Each block's fingerprint.
    pub blocks: Vec<Vec<BlockKeyView>>,
    /// Blocks without a fingerprint, left out.
    pub empty_blocks: usize,
}

/// What a block method keeps of a document: per block, its fingerprint as sorted (key, count)
/// pairs (counts are 1 for digests and shingles; for special characters the key is the
/// character's code point).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlocksSketch {
    /// One entry per block with a fingerprint, in block order.
    pub blocks: Vec<Vec<(u64, u32)>>,
    /// Blocks without a fingerprint (no terms, or no special character), left out.
    pub empty_blocks: usize,
}

/// What comparing two block sketches found.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BlocksEvidence {
    /// Blocks of A and of B with a fingerprint.
    pub blocks_a: usize,
    /// Blocks of B with a fingerprint.
    pub blocks_b: usize,
    /// μ_B(a) for each block a of A: its best similarity with a block of B.
    pub best_a: Vec<f64>,
    /// μ_A(b) for each block b of B.
    pub best_b: Vec<f64>,
    /// Set when a document has no block with a fingerprint (reports give it as their
    /// `note`).
    #[serde(skip)]
    pub note: Option<String>,
}

impl Evidence for BlocksEvidence {
    fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    fn swapped(&self) -> Self {
        BlocksEvidence {
            blocks_a: self.blocks_b,
            blocks_b: self.blocks_a,
            best_a: self.best_b.clone(),
            best_b: self.best_a.clone(),
            note: self.note.clone(),
        }
    }
}

/// A block method: `blocks-md5`, `blocks-shingle`, `blocks-specialchars` or `specialchars`.
///
/// # Example
/// ```
/// use slst::method::{Blocks, BlocksConfig, BlockFingerprint};
/// use slst::{Detector, Document};
/// let d = Blocks::new(BlockFingerprint::SpecialChars, false, BlocksConfig::default())?;
/// let a = d.sketch(&Document::new("a", "Hello, world! (Twice.)"));
/// let b = d.sketch(&Document::new("b", "Hello, world!"));
/// // counts: a {, 1 ! 1 ( 1 . 1 ) 1}, b {, 1 ! 1}: Σ min / Σ max = 2 / 5
/// assert!((d.compare(&a, &b).similarity.resemblance - 0.4).abs() < 1e-12);
/// # Ok::<(), slst::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Blocks {
    kind: BlockFingerprint,
    per_block: bool,
    config: BlocksConfig,
}

impl Blocks {
    /// A block method with the given fingerprint; `per_block` false takes the whole page as one
    /// block (the `specialchars` method).
    ///
    /// # Errors
    /// A setting out of range.
    pub fn new(kind: BlockFingerprint, per_block: bool, config: BlocksConfig) -> Result<Self> {
        config.validate()?;
        Ok(Blocks {
            kind,
            per_block,
            config,
        })
    }

    fn threshold(&self) -> f64 {
        match self.kind {
            BlockFingerprint::SpecialChars => self.config.specialchars_threshold,
            _ => self.config.threshold,
        }
    }
}

/// Weighted Jaccard of two sorted (key, count) lists: Σ min / Σ max.
pub fn weighted_jaccard(a: &[(u64, u32)], b: &[(u64, u32)]) -> f64 {
    let (mut i, mut j) = (0, 0);
    let (mut min, mut max) = (0u64, 0u64);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            std::cmp::Ordering::Less => {
                max += u64::from(a[i].1);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                max += u64::from(b[j].1);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                min += u64::from(a[i].1.min(b[j].1));
                max += u64::from(a[i].1.max(b[j].1));
                i += 1;
                j += 1;
            }
        }
    }
    max += a[i..].iter().map(|x| u64::from(x.1)).sum::<u64>();
    max += b[j..].iter().map(|x| u64::from(x.1)).sum::<u64>();
    if max == 0 {
        0.0
    } else {
        min as f64 / max as f64
    }
}

/// The fuzzy equivalence x ↔ y = min(max(1 − x, y), max(1 − y, x)).
pub fn equivalence(x: f64, y: f64) -> f64 {
    (1.0 - x).max(y).min((1.0 - y).max(x))
}

/// Sorted (key, 1) pairs of distinct keys.
fn as_set(mut keys: Vec<u64>) -> Vec<(u64, u32)> {
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter().map(|k| (k, 1)).collect()
}

/// Counts of every character that is neither alphanumeric nor white space, by code point.
pub fn special_chars(text: &str) -> Vec<(u64, u32)> {
    let mut counts: Vec<(u64, u32)> = Vec::new();
    let mut chars: Vec<u64> = text
        .chars()
        .filter(|c| !c.is_alphanumeric() && !c.is_whitespace())
        .map(|c| u64::from(u32::from(c)))
        .collect();
    chars.sort_unstable();
    for c in chars {
        match counts.last_mut() {
            Some((k, n)) if *k == c => *n += 1,
            _ => counts.push((c, 1)),
        }
    }
    counts
}

impl Detector for Blocks {
    type Sketch = BlocksSketch;
    type Evidence = BlocksEvidence;
    type SketchView = BlocksSketchView;

    fn method(&self) -> Method {
        match (self.kind, self.per_block) {
            (BlockFingerprint::Md5, _) => Method::BlocksMd5,
            (BlockFingerprint::Shingle, _) => Method::BlocksShingle,
            (BlockFingerprint::SpecialChars, true) => Method::BlocksSpecialChars,
            (BlockFingerprint::SpecialChars, false) => Method::SpecialChars,
        }
    }

    fn params(&self) -> Params {
        Params::Blocks(self.config.params(self.kind, self.per_block))
    }

    fn rule(&self) -> String {
        format!("sim ≥ {}", self.threshold())
    }

    fn sketch_view(&self, s: &BlocksSketch) -> BlocksSketchView {
        let entry = |&(k, n): &(u64, u32)| match self.kind {
            BlockFingerprint::SpecialChars => BlockKeyView::Char {
                character: char::from_u32(k as u32).map(String::from),
                count: n,
            },
            _ => BlockKeyView::Key(format!("{k:016x}")),
        };
        BlocksSketchView {
            blocks: s
                .blocks
                .iter()
                .map(|b| b.iter().map(entry).collect())
                .collect(),
            empty_blocks: s.empty_blocks,
        }
    }

    fn sketch(&self, doc: &Document) -> BlocksSketch {
        let texts = if self.per_block {
            doc.block_texts()
        } else {
            vec![doc.text.clone()]
        };
        // The document's language chooses the list (`auto`), not each block's few words.
        let stopwords = self.config.stopwords.for_text(&doc.text);
        let prints: Vec<Vec<(u64, u32)>> = match self.kind {
            BlockFingerprint::SpecialChars => texts.iter().map(|t| special_chars(t)).collect(),
            BlockFingerprint::Md5 => texts
                .iter()
                .map(|t| {
                    use ::md5::Digest;
                    let terms = Terms::new(t, stopwords);
                    if terms.is_empty() {
                        return Vec::new();
                    }
                    let d = ::md5::Md5::digest(terms.joined().as_bytes());
                    let mut k = [0u8; 8];
                    k.copy_from_slice(&d[..8]);
                    vec![(u64::from_be_bytes(k), 1)]
                })
                .collect(),
            BlockFingerprint::Shingle => {
                let terms: Vec<Terms> = texts.iter().map(|t| Terms::new(t, stopwords)).collect();
                let total: usize = terms.iter().map(Terms::len).sum();
                terms
                    .iter()
                    .map(|t| {
                        if t.is_empty() {
                            return Vec::new();
                        }
                        // n_i = max(1, ⌊N · |b_i| / |d|⌋): Σ n_i ≤ N but for blocks rounded up
                        // to one.
                        let share = self.config.shingles_per_page * t.len() / total.max(1);
                        let n = share.max(1);
                        let mut f =
                            shingle_fingerprints(t, self.config.shingle_size, ShingleHash::Rabin);
                        f.sort_unstable();
                        f.dedup();
                        f.truncate(n);
                        as_set(f)
                    })
                    .collect()
            }
        };
        let empty_blocks = prints.iter().filter(|p| p.is_empty()).count();
        BlocksSketch {
            blocks: prints.into_iter().filter(|p| !p.is_empty()).collect(),
            empty_blocks,
        }
    }

    fn compare(&self, a: &BlocksSketch, b: &BlocksSketch) -> Comparison<BlocksEvidence> {
        let (na, nb) = (a.blocks.len(), b.blocks.len());
        let sims: Vec<Vec<f64>> = a
            .blocks
            .iter()
            .map(|x| b.blocks.iter().map(|y| weighted_jaccard(x, y)).collect())
            .collect();
        let best_a: Vec<f64> = sims
            .iter()
            .map(|row| row.iter().copied().fold(0.0, f64::max))
            .collect();
        let best_b: Vec<f64> = (0..nb)
            .map(|j| sims.iter().map(|row| row[j]).fold(0.0, f64::max))
            .collect();
        // μ_A over A's own blocks: the best similarity with a block of A (1 for the block
        // itself); likewise μ_B over B's.
        let self_best = |s: &BlocksSketch, i: usize| -> f64 {
            s.blocks
                .iter()
                .map(|y| weighted_jaccard(&s.blocks[i], y))
                .fold(0.0, f64::max)
        };
        let (resemblance, note) = if na == 0 || nb == 0 {
            (
                0.0,
                Some("a document has no block with a fingerprint".to_string()),
            )
        } else {
            let sum_a: f64 = (0..na)
                .map(|i| equivalence(self_best(a, i), best_a[i]))
                .sum();
            let sum_b: f64 = (0..nb)
                .map(|j| equivalence(best_b[j], self_best(b, j)))
                .sum();
            ((sum_a + sum_b) / (na + nb) as f64, None)
        };
        let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
        let per_block = self.kind != BlockFingerprint::SpecialChars || self.per_block;
        let (containment_a, containment_b) = if per_block && na > 0 && nb > 0 {
            (mean(&best_a), mean(&best_b))
        } else {
            (None, None)
        };
        Comparison {
            method: self.method(),
            similarity: Similarity {
                resemblance,
                containment_a,
                containment_b,
            },
            duplicate: na > 0 && nb > 0 && resemblance >= self.threshold(),
            evidence: BlocksEvidence {
                blocks_a: na,
                blocks_b: nb,
                best_a,
                best_b,
                note,
            },
        }
    }

    /// Digests or shingle fingerprints: two pages with a positive score share one. None for
    /// special characters (every pair is compared).
    fn join_keys(&self, sketch: &BlocksSketch) -> Option<Vec<u64>> {
        if self.kind == BlockFingerprint::SpecialChars {
            return None;
        }
        let mut keys: Vec<u64> = sketch.blocks.iter().flatten().map(|&(k, _)| k).collect();
        keys.sort_unstable();
        keys.dedup();
        Some(keys)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sketch(blocks: &[&[u64]]) -> BlocksSketch {
        BlocksSketch {
            blocks: blocks.iter().map(|b| as_set(b.to_vec())).collect(),
            empty_blocks: 0,
        }
    }

    #[test]
    fn fuzzy_similarity_is_the_share_of_blocks_with_a_counterpart() {
        let d = Blocks::new(BlockFingerprint::Md5, true, BlocksConfig::default()).unwrap();
        // A = {x, y, z}, B = {x, y, w}: x and y have counterparts, z and w not: 4 / 6.
        let a = sketch(&[&[1], &[2], &[3]]);
        let b = sketch(&[&[1], &[2], &[4]]);
        let c = d.compare(&a, &b);
        assert!((c.similarity.resemblance - 4.0 / 6.0).abs() < 1e-12);
        assert_eq!(c.similarity.containment_a, Some(2.0 / 3.0));
        assert!(c.duplicate);
        let c = d.compare(&a, &sketch(&[&[9]]));
        assert_eq!(c.similarity.resemblance, 0.0);
        assert_eq!(d.compare(&a, &sketch(&[])).similarity.resemblance, 0.0);
    }

    #[test]
    fn fuzzy_similarity_follows_spec_7_5_literally_for_partial_block_similarities() {
        let d = Blocks::new(BlockFingerprint::Shingle, true, BlocksConfig::default()).unwrap();
        // Block sims: Sim(a1, b1) = 1/3 ({1,2} vs {2,3}), Sim(a2, b1) = 0, Sim(a1, a2) = 0.
        let a = sketch(&[&[1, 2], &[7]]);
        let b = sketch(&[&[2, 3]]);
        // Over blocks a1, a2, b1: μ_A = (1, 1, 1/3), μ_B = (1/3, 0, 1);
        // ↔: (1/3, 0, 1/3) → mean 2/9.
        let c = d.compare(&a, &b);
        assert!(
            (c.similarity.resemblance - 2.0 / 9.0).abs() < 1e-12,
            "{c:?}"
        );
        let back = d.compare(&b, &a);
        assert_eq!(back.similarity.resemblance, c.similarity.resemblance);
        assert_eq!(back.similarity.containment_a, c.similarity.containment_b);
    }

    #[test]
    fn equivalence_is_one_for_equal_extremes_and_symmetric() {
        assert_eq!(equivalence(1.0, 1.0), 1.0);
        assert_eq!(equivalence(0.0, 0.0), 1.0);
        assert_eq!(equivalence(1.0, 0.0), 0.0);
        assert_eq!(equivalence(0.3, 0.8), equivalence(0.8, 0.3));
        assert!((equivalence(1.0, 0.25) - 0.25).abs() < 1e-12);
    }

    #[test]
    fn shingles_per_block_are_proportional_with_at_least_one() {
        let d = Blocks::new(BlockFingerprint::Shingle, true, BlocksConfig::default()).unwrap();
        let long = "Rivers carry sediment from mountains down to the sea over many years, \
                    building deltas where the current slows and drops its load of sand and mud, \
                    shaping coastlines that shift with every flood season across centuries.";
        let doc = Document::new("d", format!("{long}\n\nShort note here today."));
        // One block (no segmentation): 10 shingles at most.
        let s = d.sketch(&doc);
        assert_eq!(s.blocks.len(), 1);
        assert_eq!(s.blocks[0].len(), 10);
    }

    #[test]
    fn special_characters_are_counted_by_code_point() {
        assert_eq!(
            special_chars("a, b; c, «d» 3.5 — é"),
            vec![(44, 2), (46, 1), (59, 1), (171, 1), (187, 1), (8212, 1)]
        );
    }
}
