//! SL+ST: sentence lengths + suffix structure (Feng Jinbo, 2015), SPEC §2–3. Its corpus join
//! (exact-duplicate groups and one suffix array over block keys) is in `join.rs`.

mod join;

use std::cmp::Ordering;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::block::{self, Block};
use crate::document::Document;
use crate::error::{Error, Result};
use crate::matcher::{self, Match};
use crate::profile::{LeadingTerms, ProfileConfig, SentenceProfile};
use crate::similarity::Similarity;

pub use join::suffix_array_candidates;

use super::{
    CandidateSet, Comparison, Detector, Evidence, FoundBlock, Method, PairRule, Params,
    SentenceCounts, SlstMode,
};

/// Which sentence symbol the suffix structure matches on.
///
/// Both give the same blocks (a test proves it): a block is a run of sentences that agree on
/// length *and* leading terms, whether the leading terms are checked after matching or folded
/// into the symbol before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum MatchKey {
    /// One symbol per (length, leading terms): the suffix structure only ever reports runs that
    /// will pass verification. Far fewer chance matches on long documents and in corpora, where
    /// lengths alone agree by chance everywhere.
    #[default]
    #[serde(rename = "terms")]
    LengthAndLeading,
    /// The paper's literal procedure: match on the length string alone, then verify.
    #[serde(rename = "length")]
    Length,
}

impl MatchKey {
    /// Whether this is the default, [`MatchKey::LengthAndLeading`] (which reports leave out).
    pub fn is_default(&self) -> bool {
        *self == MatchKey::default()
    }
}

/// Settings of SL+ST (SPEC §2–3), paper mode: the one place each is written. Setting names,
/// what an index stores and the command line's defaults come from its serde form
/// ([`crate::method::MethodConfig`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SlstConfig {
    /// The profile stage: maximum length, leading terms, stop words.
    #[serde(flatten)]
    pub profile: ProfileConfig,
    /// Blocks shorter than this many sentences are dropped (default 2).
    pub min_block: usize,
    /// Duplicate when the resemblance is at least this (default 0.5).
    pub threshold: f64,
    /// What the suffix structure matches on.
    pub match_key: MatchKey,
}

impl Default for SlstConfig {
    fn default() -> Self {
        SlstConfig {
            profile: ProfileConfig::default(),
            min_block: 2,
            threshold: 0.5,
            match_key: MatchKey::default(),
        }
    }
}

impl SlstConfig {
    /// Check every setting.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the first setting out of range.
    pub fn validate(&self) -> Result<()> {
        self.profile.validate()?;
        if self.min_block == 0 {
            return Err(Error::InvalidParameter {
                name: "slst.min_block",
                value: "0".into(),
                expected: "at least 1 sentence",
            });
        }
        crate::error::check_fraction("slst.threshold", self.threshold)?;
        Ok(())
    }

    /// The settings as reports record them.
    pub fn params(&self) -> SlstParams {
        SlstParams {
            mode: SlstMode::Paper,
            min_block: self.min_block,
            max_length: self.profile.max_length,
            leading_terms: self.profile.leading_terms,
            stopwords: self.profile.stopwords.id().to_string(),
            threshold: self.threshold,
            match_key: self.match_key,
        }
    }
}

/// The settings of paper-mode SL+ST as reports record them (`"params"` of its records).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SlstParams {
    /// Always [`SlstMode::Paper`] (the robust mode has [`super::RobustParams`]).
    pub mode: SlstMode,
    /// Minimum block length in sentences.
    pub min_block: usize,
    /// Maximum sentence length in terms.
    pub max_length: usize,
    /// Leading terms per sentence.
    pub leading_terms: usize,
    /// The stop-word list's id.
    pub stopwords: String,
    /// The resemblance threshold.
    pub threshold: f64,
    /// What the suffix structure matches on, when not the default.
    #[serde(skip_serializing_if = "MatchKey::is_default")]
    pub match_key: MatchKey,
}

/// What paper-mode SL+ST keeps of a document: its sentence profile and one 64-bit *block key*
/// per kept sentence, a hash of (length, leading terms) — the fused symbol of
/// [`MatchKey::LengthAndLeading`] — which corpus runs and the index join on. Serialised as the
/// profile alone (the keys are rebuilt when it is read back).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "SentenceProfile", into = "SentenceProfile")]
pub struct SlstSketch {
    /// The sentence profile.
    pub profile: SentenceProfile,
    /// One key per kept sentence: [`sentence_key`] of its length and leading terms.
    pub keys: Vec<u64>,
}

impl From<SentenceProfile> for SlstSketch {
    fn from(profile: SentenceProfile) -> Self {
        let keys = profile
            .sentences
            .iter()
            .map(|s| sentence_key(s.length, &s.leading))
            .collect();
        SlstSketch { profile, keys }
    }
}

impl From<SlstSketch> for SentenceProfile {
    fn from(sketch: SlstSketch) -> Self {
        sketch.profile
    }
}

/// A sketch reads as its profile: its sentences, length string and counts.
impl std::ops::Deref for SlstSketch {
    type Target = SentenceProfile;

    fn deref(&self) -> &SentenceProfile {
        &self.profile
    }
}

/// The 64-bit block key of a sentence: XXH3 of its length and leading terms, stable across
/// runs, platforms and versions. Two sentences with equal keys almost surely agree on length and
/// leading terms; candidates are verified exactly, so a collision could only add a candidate.
pub fn sentence_key(length: u8, leading: &LeadingTerms) -> u64 {
    xxhash_rust::xxh3::xxh3_64_with_seed(leading.encoded().as_bytes(), u64::from(length))
}

/// The most sentences two documents can have in blocks: the size of the multiset intersection
/// of their block keys (a block pairs sentences with equal keys, one to one).
///
/// # Example
/// ```
/// assert_eq!(slst::method::shared_keys(&[1, 2, 2, 3], &[2, 2, 2, 3, 4]), 3);
/// ```
pub fn shared_keys(a: &[u64], b: &[u64]) -> usize {
    let (mut x, mut y) = (a.to_vec(), b.to_vec());
    x.sort_unstable();
    y.sort_unstable();
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < x.len() && j < y.len() {
        match x[i].cmp(&y[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    shared
}

/// What SL+ST found when comparing two profiles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SlstComparison {
    /// The kept blocks, sorted by start in A.
    pub blocks: Vec<Block>,
    /// Sentences covered by the blocks (the same on both sides).
    pub matched: usize,
    /// Kept sentences of A.
    pub len_a: usize,
    /// Kept sentences of B.
    pub len_b: usize,
    /// The two profiles are identical (same symbols and leading terms); they then form one block
    /// whatever their length.
    pub identical: bool,
    /// How many maximal matches the suffix structure reported before verification.
    pub matches_found: usize,
}

impl Evidence for SlstComparison {
    fn blocks(&self) -> Option<Vec<FoundBlock>> {
        Some(
            self.blocks
                .iter()
                .map(|&block| FoundBlock {
                    block,
                    min_term_similarity: None,
                })
                .collect(),
        )
    }

    fn note(&self) -> Option<&str> {
        if self.len_a == 0 || self.len_b == 0 {
            Some("no sentences")
        } else if self.identical {
            Some("identical profiles")
        } else {
            None
        }
    }

    fn swapped(&self) -> Self {
        let mut blocks: Vec<Block> = self.blocks.iter().map(|b| b.swapped()).collect();
        blocks.sort_unstable();
        SlstComparison {
            blocks,
            len_a: self.len_b,
            len_b: self.len_a,
            ..self.clone()
        }
    }
}

/// What `slst sketch` shows of a paper-mode sketch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SlstSketchView {
    /// Kept sentences.
    pub sentences: usize,
    /// One base-36 symbol per kept sentence.
    pub length_string: String,
    /// Each kept sentence's leading terms.
    pub leading: Vec<LeadingTerms>,
}

/// The SL+ST detector.
///
/// # Example
/// ```
/// use slst::{Detector, Document, SlSt, SlstConfig};
/// let slst = SlSt::new(SlstConfig::default()).unwrap();
/// let a = Document::new("a", "Stocks rose sharply on Monday. Bond yields fell to a low. Oil was flat.");
/// let b = Document::new("b", "Stocks rose sharply on Monday. Bond yields fell to a low. Gold gained.");
/// let c = slst.compare(&slst.sketch(&a), &slst.sketch(&b));
/// assert_eq!(c.evidence.matched, 2);
/// assert!((c.similarity.resemblance - 0.5).abs() < 1e-12); // 2 / (3 + 3 - 2)
/// assert!(c.duplicate);
/// ```
#[derive(Debug, Clone)]
pub struct SlSt {
    config: SlstConfig,
    text: SlstText,
}

/// Which text of a web page SL+ST reads (SPEC §7.7). For documents without a segmentation all
/// three are the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SlstText {
    /// The document text as it is: for a web page, the text of its blocks, each block ending
    /// in a hard sentence break (method name `slst`).
    #[default]
    Document,
    /// The same, under the name `slst-blocks`, for reports that set it beside `slst-flat`.
    Blocks,
    /// A web page read as one flow of text: block boundaries are read as spaces, so a sentence
    /// may run from one block into the next (`slst-flat`, the ablation of block boundaries).
    Flat,
}

impl SlSt {
    /// An SL+ST detector with the given settings.
    ///
    /// # Errors
    /// A setting out of range (see [`SlstConfig::validate`]).
    pub fn new(config: SlstConfig) -> Result<Self> {
        config.validate()?;
        Ok(SlSt {
            config,
            text: SlstText::Document,
        })
    }

    /// The same detector reading web pages as `text` says.
    pub fn reading(mut self, text: SlstText) -> Self {
        self.text = text;
        self
    }

    /// The settings in force.
    pub fn config(&self) -> &SlstConfig {
        &self.config
    }

    /// The sentence symbols of two profiles under the configured [`MatchKey`].
    fn symbols(&self, a: &SentenceProfile, b: &SentenceProfile) -> (Vec<u32>, Vec<u32>) {
        match self.config.match_key {
            MatchKey::Length => {
                let lengths =
                    |p: &SentenceProfile| p.sentences.iter().map(|s| u32::from(s.length)).collect();
                (lengths(a), lengths(b))
            }
            MatchKey::LengthAndLeading => {
                // In memory only, never output: the fastest hasher will do.
                let mut ids: HashMap<(u8, &LeadingTerms), u32, foldhash::fast::RandomState> =
                    HashMap::default();
                let encode = |p: &SentenceProfile| -> Vec<u32> { Vec::with_capacity(p.len()) };
                let (mut sa, mut sb) = (encode(a), encode(b));
                for (p, out) in [(a, &mut sa), (b, &mut sb)] {
                    for s in &p.sentences {
                        let next = ids.len() as u32;
                        out.push(*ids.entry((s.length, &s.leading)).or_insert(next));
                    }
                }
                (sa, sb)
            }
        }
    }
}

impl SlSt {
    /// Match, verify and tile with `a` as the first document (whose positions break ties).
    /// Returns the kept blocks and the number of matches the suffix structure reported.
    fn tiled_blocks(&self, a: &SentenceProfile, b: &SentenceProfile) -> (Vec<Block>, usize) {
        let (sa, sb) = self.symbols(a, b);
        let matches: Vec<Match> = matcher::maximal_matches(&sa, &sb, self.config.min_block);
        let mut verified = Vec::new();
        for &m in &matches {
            block::verify(
                m,
                |i, j| a.sentences[i].leading == b.sentences[j].leading,
                self.config.min_block,
                &mut verified,
            );
        }
        let blocks = block::tile(&verified, self.config.min_block, a.len(), b.len());
        (blocks, matches.len())
    }
}

/// The order in which two profiles are tiled.
///
/// Greedy tiling breaks ties between equally long blocks by their start in the first document
/// (SPEC §3.3), so tiling (A, B) and (B, A) can keep different blocks when equal-length
/// candidates compete — and SPEC §3.6 requires sim(A, B) = sim(B, A). slst therefore always tiles
/// with the profiles in this canonical order: their sentence sequences (length, leading terms)
/// compared lexicographically. `compare(b, a)` is then exactly `compare(a, b)` with the sides
/// swapped.
pub fn canonical_order(a: &SentenceProfile, b: &SentenceProfile) -> Ordering {
    fn key(p: &SentenceProfile) -> impl Iterator<Item = (u8, &LeadingTerms)> {
        p.sentences.iter().map(|s| (s.length, &s.leading))
    }
    key(a).cmp(key(b))
}

impl Detector for SlSt {
    type Sketch = SlstSketch;
    type Evidence = SlstComparison;
    type SketchView = SlstSketchView;

    fn method(&self) -> Method {
        match self.text {
            SlstText::Document | SlstText::Blocks => Method::Slst,
            SlstText::Flat => Method::SlstFlat,
        }
    }

    fn params(&self) -> Params {
        Params::Slst(self.config.params())
    }

    fn rule(&self) -> String {
        format!("J ≥ {}", self.config.threshold)
    }

    fn sketch(&self, doc: &Document) -> SlstSketch {
        let profile = match (&doc.segmentation, self.text) {
            (Some(seg), SlstText::Flat) => {
                let flat = Document::decoded(doc.id.clone(), seg.flatten(&doc.text), doc.encoding);
                SentenceProfile::new(&flat, &self.config.profile)
            }
            _ => SentenceProfile::new(doc, &self.config.profile),
        };
        SlstSketch::from(profile)
    }

    fn sketch_view(&self, sketch: &SlstSketch) -> SlstSketchView {
        let p = &sketch.profile;
        SlstSketchView {
            sentences: p.len(),
            length_string: p.length_string(),
            leading: p.sentences.iter().map(|s| s.leading.clone()).collect(),
        }
    }

    fn sentence_counts(&self, sketch: &SlstSketch) -> Option<SentenceCounts> {
        let p = &sketch.profile;
        Some(SentenceCounts {
            sentences: p.len(),
            skipped_empty: p.skipped_empty,
            dropped_long: p.dropped_long,
        })
    }

    fn unit_span(&self, sketch: &SlstSketch, unit: usize) -> Option<[usize; 2]> {
        let s = sketch.profile.sentences.get(unit)?;
        Some([s.start as usize, s.end as usize])
    }

    /// One key per run of `min_block` consecutive sentences (their block keys hashed together)
    /// and one for the whole profile: a positive score needs a verified block — `min_block`
    /// consecutive sentences equal in length and leading terms, so a shared run key — or
    /// identical profiles (score 1 however short), which share the whole-profile key.
    fn join_keys(&self, sketch: &SlstSketch) -> Option<Vec<u64>> {
        let keys = &sketch.keys;
        if keys.is_empty() {
            return Some(Vec::new());
        }
        let bytes = |k: &[u64]| k.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let mut out: Vec<u64> = keys
            .windows(self.config.min_block)
            .map(|w| xxhash_rust::xxh3::xxh3_64_with_seed(&bytes(w), 1))
            .collect();
        out.push(xxhash_rust::xxh3::xxh3_64_with_seed(&bytes(keys), 2));
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    fn compare(&self, a: &SlstSketch, b: &SlstSketch) -> Comparison<SlstComparison> {
        let (a, b) = (&a.profile, &b.profile);
        let (len_a, len_b) = (a.len(), b.len());
        let identical = len_a > 0
            && len_a == len_b
            && a.sentences
                .iter()
                .zip(&b.sentences)
                .all(|(x, y)| x.length == y.length && x.leading == y.leading);
        let (blocks, matches_found) = if identical {
            (
                vec![Block {
                    a: 0,
                    b: 0,
                    len: len_a,
                }],
                1,
            )
        } else if canonical_order(a, b) == Ordering::Greater {
            let (swapped, found) = self.tiled_blocks(b, a);
            let mut blocks: Vec<Block> = swapped.into_iter().map(Block::swapped).collect();
            blocks.sort_unstable();
            (blocks, found)
        } else {
            self.tiled_blocks(a, b)
        };
        let matched = blocks.iter().map(|b| b.len).sum();
        let similarity = Similarity::from_counts(matched, len_a, len_b);
        Comparison {
            method: self.method(),
            duplicate: similarity.resemblance >= self.config.threshold && matched > 0,
            similarity,
            evidence: SlstComparison {
                blocks,
                matched,
                len_a,
                len_b,
                identical,
                matches_found,
            },
        }
    }

    /// Exact-duplicate groups, then one generalized suffix array over the groups' block-key
    /// strings ([`suffix_array_candidates`]): exactly the pairs that can have a verified block.
    fn corpus_candidates(
        &self,
        sketches: &[&SlstSketch],
        _rule: PairRule,
        max_df: usize,
    ) -> Option<CandidateSet> {
        Some(suffix_array_candidates(
            sketches,
            self.config.min_block,
            max_df,
        ))
    }

    /// The pair's shared block keys bound the matched sentences m from above (a block pairs
    /// sentences with equal keys, one to one), and every score is increasing in m; equal key
    /// strings may be identical profiles, one block whatever their length.
    fn may_be_reported(&self, a: &SlstSketch, b: &SlstSketch, rule: PairRule) -> bool {
        if a.keys == b.keys {
            return !a.keys.is_empty();
        }
        let m = shared_keys(&a.keys, &b.keys);
        if m < self.config.min_block.max(1) {
            return false;
        }
        let bound = Similarity::from_counts(m, a.len(), b.len());
        rule.keeps(&bound, bound.resemblance >= self.config.threshold)
    }

    /// The block keys, one per kept sentence.
    fn index_keys(&self, sketch: &SlstSketch) -> Option<Vec<u64>> {
        Some(sketch.keys.clone())
    }

    /// A kept document shares a block, so at least `min_block` keys; at J ≥ θ it shares at
    /// least θ·|q| of them (J ≤ m / |q|; floored, never stricter than exact).
    fn index_keys_needed(&self, sketch: &SlstSketch, rule: PairRule) -> usize {
        let min_block = self.config.min_block.max(1);
        match rule {
            PairRule::Duplicates | PairRule::WithTemplates => {
                min_block.max((self.config.threshold * sketch.len() as f64).floor() as usize)
            }
            PairRule::Contained(_) | PairRule::Scored => min_block,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::StopWords;

    fn slst(key: MatchKey) -> SlSt {
        SlSt::new(SlstConfig {
            match_key: key,
            ..SlstConfig::default()
        })
        .unwrap()
    }

    #[test]
    fn identity_scores_one_even_for_a_single_sentence() {
        let d = SlSt::new(SlstConfig::default()).unwrap();
        let p = d.sketch(&Document::new("x", "Only one sentence lives here."));
        let c = d.compare(&p, &p);
        assert_eq!(c.similarity.resemblance, 1.0);
        assert!(c.duplicate && c.evidence.identical);
        assert_eq!(c.evidence.blocks, [Block { a: 0, b: 0, len: 1 }]);
    }

    #[test]
    fn empty_documents_score_zero() {
        let d = SlSt::new(SlstConfig::default()).unwrap();
        let e = d.sketch(&Document::new("e", ""));
        let c = d.compare(&e, &e);
        assert_eq!(c.similarity.resemblance, 0.0);
        assert!(!c.duplicate);
        assert!(c.evidence.blocks.is_empty());
    }

    #[test]
    fn same_lengths_with_different_leading_terms_do_not_match() {
        let a = Document::new("a", "Red apples grow. Green pears fall. Blue plums rot.");
        let b = Document::new("b", "Tall trees sway. Old dogs sleep. Blue plums rot.");
        for key in [MatchKey::Length, MatchKey::LengthAndLeading] {
            let d = slst(key);
            let c = d.compare(&d.sketch(&a), &d.sketch(&b));
            assert_eq!(c.evidence.matched, 0, "{key:?}");
        }
        // On lengths alone ("333" against "333") the suffix structure sees runs on three
        // diagonals (0, +1, -1); verification removes all of them.
        let d = slst(MatchKey::Length);
        assert_eq!(
            d.compare(&d.sketch(&a), &d.sketch(&b))
                .evidence
                .matches_found,
            3
        );
    }

    #[test]
    fn zero_threshold_still_needs_a_block_to_be_a_duplicate() {
        let d = SlSt::new(SlstConfig {
            threshold: 0.0,
            profile: ProfileConfig {
                stopwords: StopWords::none(),
                ..ProfileConfig::default()
            },
            ..SlstConfig::default()
        })
        .unwrap();
        let c = d.compare(
            &d.sketch(&Document::new("a", "One two. Three four.")),
            &d.sketch(&Document::new("b", "Five six. Seven eight.")),
        );
        assert!(!c.duplicate);
    }

    /// Regression: tiling ties were broken by position in whichever document came first, so
    /// compare(A, B) and compare(B, A) could keep different blocks. Sentences x y z w v stand
    /// for real ones; A = x y z x w y v, B = z x y v. Candidate 2-blocks: A[0..2]~B[1..3],
    /// A[2..4]~B[0..2], A[5..7]~B[2..4]; tie-breaking on A's start keeps only the first (m = 2),
    /// on B's start the second and third (m = 4).
    #[test]
    fn tiling_is_symmetric_when_equal_blocks_compete() {
        let s = [
            "Cain knew his wife.",
            "A hyperlink counts as a vote.",
            "Cain said unto the Lord.",
            "A page links to pages.",
            "A window shalt thou make.",
        ];
        let doc = |ids: &[usize]| {
            Document::new("d", ids.iter().map(|&i| s[i]).collect::<Vec<_>>().join(" "))
        };
        let (a, b) = (doc(&[0, 1, 2, 0, 3, 1, 4]), doc(&[2, 0, 1, 4]));
        let d = SlSt::new(SlstConfig::default()).unwrap();
        let (pa, pb) = (d.sketch(&a), d.sketch(&b));
        let ab = d.compare(&pa, &pb);
        let ba = d.compare(&pb, &pa);
        assert_eq!(ab.similarity, ba.similarity.swapped());
        let flipped: Vec<Block> = {
            let mut v: Vec<Block> = ba
                .evidence
                .blocks
                .iter()
                .map(|x| Block {
                    a: x.b,
                    b: x.a,
                    len: x.len,
                })
                .collect();
            v.sort_unstable();
            v
        };
        assert_eq!(ab.evidence.blocks, flipped);
    }

    #[test]
    fn invalid_settings_are_rejected() {
        for cfg in [
            SlstConfig {
                min_block: 0,
                ..SlstConfig::default()
            },
            SlstConfig {
                threshold: 1.5,
                ..SlstConfig::default()
            },
        ] {
            assert!(SlSt::new(cfg).is_err());
        }
    }
}
