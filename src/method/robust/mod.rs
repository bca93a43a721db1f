//! Robust SL+ST: sentence blocks that survive small edits.
//!
//! Faithful SL+ST ([`super::SlSt`]) matches two sentences only when their lengths in terms and
//! their two leading terms are equal, so one swapped word breaks a block. The robust mode keeps
//! the method's shape — one item per sentence, blocks = runs of matching sentences along a
//! diagonal, one-to-one tiling, the Jaccard coefficient over the sentences in blocks, every block
//! with sentence indices and byte spans — and replaces the sentence predicate:
//!
//! * two sentences **match** when their lengths differ by at most δ terms
//!   ([`RobustConfig::length_tolerance`]) and the Jaccard coefficient of their term sets is at
//!   least τ ([`RobustConfig::term_similarity`]), and — the *anchor rule*, on by default — they
//!   share one of their k longest terms ([`RobustConfig::anchor_terms`]; ties by hash);
//! * a **block** is a maximal run of matching sentence pairs on one diagonal, at least
//!   [`RobustConfig::min_block`] long — or a single pair of long sentences (both at least
//!   [`RobustConfig::single_min_terms`] terms) whose term sets agree closely (Jaccard at least
//!   [`RobustConfig::single_similarity`]) and that share two anchors: short reuse and reuse
//!   pasted mid-sentence then still form blocks;
//! * blocks are tiled longest first, as in SPEC §3.3, in the canonical order of the two sketches
//!   (so that `compare(b, a)` is `compare(a, b)` with the sides swapped).
//!
//! **Finding matching sentences without comparing all of them** is prefix filtering (Bayardo et
//! al., "Scaling up all pairs similarity search", 2007): order all terms by one global order; if
//! J(x, y) ≥ τ then the two sets share a term among the first |x| − ⌈τ·|x|⌉ + 1 of x and the
//! first |y| − ⌈τ·|y|⌉ + 1 of y (the smallest common term in that order). Within one comparison
//! the order is by frequency in the two documents, rarest first; in a corpus
//! ([`Detector::prepare_corpus`]) by document frequency over the corpus — or, with the anchor
//! rule, the anchors' own order (longest first), whose first k terms are the keys.
//!
//! **Anchors** make the keys few. Without them, a sentence of n terms has a prefix of about
//! 0.6·n terms at τ = 0.4, and a pair of sentences the product of two prefixes as keys (about 73
//! keys per sentence on Reuters-21578 already at τ = 0.5). With the anchor rule, two matching
//! sentences share an anchor, so the anchors stand in for the prefixes (at most k² pair keys per
//! pair of sentences and k(k−1)/2 single keys per sentence). A sentence of at most k terms keys
//! on all of them — more than its prefix would — so the rule saves keys on long sentences and
//! costs a few on short ones. The order is fixed by the terms themselves — longest first, as long words are
//! the rare ones — never by corpus statistics, so a pair scores the same in `compare` and in any
//! corpus. On the labelled sets the rule costs at most 0.001 of best F1 at k = 5
//! (results/RESULTS.md, "the anchor rule", from `scripts/anchors_robust.py`).
//!
//! **Corpus keys** ([`Detector::join_keys`]) follow from it. A pair with a score above 0 has a
//! block: either two consecutive matching pairs (A_i ~ B_j and A_{i+1} ~ B_{j+1}), which then
//! share a *pair key* hash(p, q) with p a prefix term (or anchor) of A_i and B_j and q one of
//! A_{i+1} and B_{j+1}; or one long pair, which shares a *single key* (a pair of prefix terms
//! under the single-sentence bound, or of anchors, of a sentence with at least
//! `single_min_terms` terms). Two documents without a shared
//! key therefore score 0 — provably, and checked against all pairs in `tests/robust.rs`.
//!
//! **Batch runs** go further ([`Detector::corpus_candidates`], module [`join`]): every sentence
//! in a block is *witnessed* by a key the other document holds, so counting, per pair, the
//! sentences witnessed bounds the sentences in blocks; pairs whose count cannot reach the
//! report's threshold are never listed.

mod join;

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, HashMap};

use serde::Serialize;

use crate::document::Document;
use crate::error::{Error, Result};
use crate::similarity::Similarity;
use crate::text::{self, StopWords};

use super::{Comparison, Detector};

/// Which SL+ST runs: the paper's method or the robust mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SlstMode {
    /// Faithful SL+ST (Feng 2015): equal lengths and leading terms ([`super::SlSt`]).
    #[default]
    Paper,
    /// Tolerant sentence matching ([`RobustSlst`]).
    Robust,
}

impl SlstMode {
    /// The name reports use: `paper` or `robust`.
    pub fn name(self) -> &'static str {
        match self {
            SlstMode::Paper => "paper",
            SlstMode::Robust => "robust",
        }
    }
}

/// Settings of robust SL+ST; every field is also a CLI flag.
#[derive(Debug, Clone, PartialEq)]
pub struct RobustConfig {
    /// The words removed before counting and comparing terms (default: NLTK's English list).
    pub stopwords: StopWords,
    /// Sentences with more terms than this are dropped (default 35, as in SL+ST).
    pub max_length: usize,
    /// Runs shorter than this many sentences are not blocks (default 2), unless they are a
    /// single close pair of long sentences.
    pub min_block: usize,
    /// δ: two matching sentences differ in length by at most this many terms.
    pub length_tolerance: usize,
    /// τ: two matching sentences have a term-set Jaccard coefficient of at least this.
    pub term_similarity: f64,
    /// A single sentence pair is a block when both have at least this many terms (0: never;
    /// with the anchor rule it also shares two anchors, so a one-term sentence never is).
    pub single_min_terms: usize,
    /// … and their term-set Jaccard is at least this (at least τ).
    pub single_similarity: f64,
    /// Also cut sentences at semicolons and colons: the units are then clauses, which survive
    /// a revision that re-punctuates (`;` in one version, `.` in the other).
    pub clauses: bool,
    /// Stem every term (Snowball English, as [`super::PolyHash`]; stop words are removed first,
    /// and the punctuation inside a word before stemming): `revised` and `revision`, `pages` and
    /// `page` are then one term. Terms only change, so the corpus keys stay exact.
    pub stem: bool,
    /// Two matching sentences must also share one of their `anchor_terms` longest terms (ties
    /// by hash), and a single-pair block two of them; 0 turns the rule off. Long words are the
    /// rare ones, so the rule keeps sentence pairs that share distinctive vocabulary, and a
    /// sentence needs keys over its anchors only — at most k² per pair of sentences instead of
    /// a prefix's square — without any corpus statistic, so `compare` and `batch` agree.
    pub anchor_terms: usize,
    /// Duplicate when the resemblance is at least this (default 0.5).
    pub threshold: f64,
}

impl Default for RobustConfig {
    fn default() -> Self {
        RobustConfig {
            stopwords: StopWords::english(),
            max_length: 35,
            min_block: 2,
            // Chosen on half A of the labelled sets (scripts/tune_robust.py, the grid in
            // results/tuning/grid-A.tsv).
            length_tolerance: 4,
            term_similarity: 0.4,
            single_min_terms: 4,
            single_similarity: 0.4,
            clauses: true,
            stem: false,
            anchor_terms: 5,
            threshold: 0.5,
        }
    }
}

impl RobustConfig {
    /// Check every setting.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the first setting out of range.
    pub fn validate(&self) -> Result<()> {
        if !(1..=u16::MAX as usize).contains(&self.max_length) {
            return Err(Error::InvalidParameter {
                name: "--max-length",
                value: self.max_length.to_string(),
                expected: "a whole number from 1 to 65535",
            });
        }
        if self.min_block == 0 {
            return Err(Error::InvalidParameter {
                name: "--min-block",
                value: "0".into(),
                expected: "at least 1 sentence",
            });
        }
        crate::error::check_fraction("--threshold", self.threshold)?;
        crate::error::check_fraction("--term-similarity", self.term_similarity)?;
        crate::error::check_fraction("--single-similarity", self.single_similarity)?;
        if self.term_similarity <= 0.0 {
            return Err(Error::InvalidParameter {
                name: "--term-similarity",
                value: self.term_similarity.to_string(),
                expected: "a number above 0 and at most 1",
            });
        }
        if self.anchor_terms == 1 {
            return Err(Error::InvalidParameter {
                name: "--anchor-terms",
                value: "1".into(),
                expected: "0 (off) or at least 2 (a single-pair block shares two anchors)",
            });
        }
        if self.single_similarity < self.term_similarity {
            return Err(Error::InvalidParameter {
                name: "--single-similarity",
                value: self.single_similarity.to_string(),
                expected: "at least --term-similarity",
            });
        }
        Ok(())
    }

    /// The settings as a JSON object, as reports record them.
    pub fn params(&self) -> serde_json::Value {
        serde_json::json!({
            "mode": "robust",
            "min_block": self.min_block,
            "max_length": self.max_length,
            "length_tolerance": self.length_tolerance,
            "term_similarity": self.term_similarity,
            "single_min_terms": self.single_min_terms,
            "single_similarity": self.single_similarity,
            "clauses": self.clauses,
            "stem": self.stem,
            "anchor_terms": self.anchor_terms,
            "stopwords": self.stopwords.id(),
            "threshold": self.threshold,
        })
    }
}

/// One kept sentence of a robust profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RobustSentence {
    /// First byte of the sentence in the document text.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// Number of terms, repeats counted (as SL+ST's length).
    pub length: u16,
    /// The distinct terms as 64-bit ids (255 − length, then the XXH3 hash), sorted:
    /// the longest terms come first.
    pub terms: Box<[u64]>,
}

/// What robust SL+ST keeps of a document: its kept sentences with their term sets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RobustProfile {
    /// The document id.
    pub id: String,
    /// Kept sentences in text order.
    pub sentences: Vec<RobustSentence>,
    /// Sentences without a term after stop-word removal.
    pub skipped_empty: usize,
    /// Sentences with more terms than the maximum length.
    pub dropped_long: usize,
    /// What the profile knows under a corpus-wide term order, set by
    /// [`Detector::prepare_corpus`].
    #[serde(skip)]
    corpus: Option<Box<CorpusView>>,
}

/// A profile under a corpus-wide term order: terms are *ranks* (0 = the rarest term of the
/// corpus, ties by id; with the anchor rule, 0 = the smallest id, i.e. the longest term), so
/// that a sentence's key terms (prefix or anchors) are its smallest ranks.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CorpusView {
    /// The join keys (see the module docs) with the sentences each witnesses, in the order of
    /// [`Slot`] codes.
    slots: Vec<Slot>,
    /// Each sentence's key-term ranks (prefix or anchors) as (rank, sentence) postings sorted by
    /// rank, then sentence; the two columns apart, so that merging two documents' lists reads
    /// only the ranks.
    posting_ranks: Box<[u32]>,
    posting_sentences: Box<[u32]>,
}

/// One join key of a document and the sentences it witnesses: a sentence that lies in a block
/// of a comparison has a witness key the other document shares (module docs). `code` is
/// `2·i` for a key of sentence `i` alone (a single key) and `2·i + 1` for a key of the pair of
/// sentences `i` and `i + 1` (a pair key): in code order, sentences are witnessed in text order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    key: u64,
    code: u32,
}

impl RobustProfile {
    /// Number of kept sentences.
    pub fn len(&self) -> usize {
        self.sentences.len()
    }

    /// True when no sentence was kept.
    pub fn is_empty(&self) -> bool {
        self.sentences.is_empty()
    }
}

/// A verified block of robust SL+ST with its byte spans.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RobustBlock {
    /// First sentence in A.
    pub a_start: usize,
    /// First sentence in B.
    pub b_start: usize,
    /// Number of sentences.
    pub len: usize,
    /// Byte span `[start, end)` of the block in A's text.
    pub a_span: [u32; 2],
    /// Byte span in B's text.
    pub b_span: [u32; 2],
    /// The smallest term-set Jaccard coefficient of the block's sentence pairs.
    pub min_term_similarity: f64,
}

impl RobustBlock {
    /// The same block seen from the other document (A and B exchanged).
    pub fn swapped(self) -> RobustBlock {
        RobustBlock {
            a_start: self.b_start,
            b_start: self.a_start,
            len: self.len,
            a_span: self.b_span,
            b_span: self.a_span,
            min_term_similarity: self.min_term_similarity,
        }
    }
}

/// What robust SL+ST found when comparing two profiles.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RobustComparison {
    /// Always `"robust"`.
    pub mode: &'static str,
    /// The kept blocks, sorted by start in A.
    pub blocks: Vec<RobustBlock>,
    /// Sentences covered by the blocks (the same on both sides).
    pub matched: usize,
    /// Kept sentences of A.
    pub len_a: usize,
    /// Kept sentences of B.
    pub len_b: usize,
    /// Matching sentence pairs found before tiling.
    pub sentence_pairs: usize,
}

/// The robust SL+ST detector.
///
/// # Example
/// One stop word swapped for a content word changes the first sentence's length and leading
/// terms: faithful SL+ST loses the block, the robust mode keeps it.
/// ```
/// use slst::{Detector, Document};
/// use slst::method::{RobustConfig, RobustSlst};
/// let d = RobustSlst::new(RobustConfig::default()).unwrap();
/// let a = Document::new("a", "Stocks rose sharply on Monday in Tokyo. Bond yields fell to a record low. Oil was flat.");
/// let b = Document::new("b", "Stocks rose sharply late Monday in Tokyo. Bond yields fell to a record low. Gold gained.");
/// let c = d.compare(&d.sketch(&a), &d.sketch(&b));
/// assert_eq!(c.evidence.matched, 2);
/// assert_eq!(c.evidence.blocks[0].a_span, [0, 73]);
/// ```
#[derive(Debug, Clone)]
pub struct RobustSlst {
    config: RobustConfig,
}

/// Below this many sentence pairs, a comparison checks every pair instead of indexing B.
const SMALL_PAIR: usize = 1024;

/// Marks the second sentence's term in a pair key, so that pair keys and single keys differ.
const PAIR_SEED: u64 = 0x5ee1_7e55_0b0c_0001;
/// Marks single keys.
const SINGLE_SEED: u64 = 0x5ee1_7e55_0b0c_0002;

/// A term's 64-bit id: 255 minus its length in characters (at most 255) in the top byte, the
/// top 56 bits of its XXH3 hash below. Sorted ids put the longest terms first (ties by hash): the
/// order of the anchor rule ([`RobustConfig::anchor_terms`]), fixed without any corpus.
pub(crate) fn term_id(term: &str) -> u64 {
    let length = term.chars().count().min(255) as u64;
    ((255 - length) << 56) | (xxhash_rust::xxh3::xxh3_64(term.as_bytes()) >> 8)
}

/// How many of two sentences' anchors (the first `k` of each sorted id list) they share.
fn shared_anchors(x: &[u64], y: &[u64], k: usize) -> usize {
    let (x, y) = (&x[..k.min(x.len())], &y[..k.min(y.len())]);
    x.iter().filter(|t| y.contains(t)).count()
}

/// A 64-bit key for an ordered pair of term ids and a seed: two rounds of the SplitMix64
/// finaliser. Keys only need to be equal for equal inputs: a collision can only add a candidate
/// pair, never lose one.
fn pair_key(p: u64, q: u64, seed: u64) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    // The seed is mixed first: seeds that differ in a few bits must not pair up ids that
    // differ in the same bits.
    mix(mix(p ^ mix(seed)).wrapping_add(q))
}

/// The Jaccard coefficient of two sorted sets of hashes, and the size of their intersection.
fn jaccard(x: &[u64], y: &[u64]) -> f64 {
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < x.len() && j < y.len() {
        match x[i].cmp(&y[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = x.len() + y.len() - common;
    if union == 0 {
        0.0
    } else {
        common as f64 / union as f64
    }
}

/// How many of a set's terms (in the global order) must be indexed so that any set with Jaccard
/// ≥ τ shares one of them: |x| − ⌈τ·|x|⌉ + 1, computed with a small slack so that rounding can
/// only make the prefix longer (never lose a candidate).
pub fn prefix_len(size: usize, tau: f64) -> usize {
    if size == 0 {
        return 0;
    }
    let needed = ((tau * size as f64) - 1e-9).ceil().max(1.0) as usize;
    (size + 1).saturating_sub(needed).clamp(1, size)
}

/// The prefix of a term set under an order given by `rank` (smaller first; ties by hash).
fn prefix(terms: &[u64], tau: f64, rank: &impl Fn(u64) -> u32) -> Vec<u64> {
    let mut ordered: Vec<u64> = terms.to_vec();
    ordered.sort_unstable_by_key(|&t| (rank(t), t));
    ordered.truncate(prefix_len(terms.len(), tau));
    ordered
}

/// The single keys of one long sentence, its term ids in the global order: two sentences with
/// term Jaccard ≥ τ1 share one.
///
/// J(x, y) ≥ τ1 means an overlap o ≥ α_x = ⌈τ1·|x|⌉ (and ≥ α_y). When o ≥ 2, the two smallest
/// common terms (in the global order) both lie among the first |x| − α_x + 2 terms of x, and
/// likewise of y: every *pair* of terms in that prefix is a key — far more selective than one
/// term. o can be 1 only when α_x = α_y = 1; such sentences also key on each term of their
/// ordinary prefix.
fn single_keys(ordered: &[u64], tau1: f64, mut key: impl FnMut(u64)) {
    let alpha = (ordered.len() + 1).saturating_sub(prefix_len(ordered.len(), tau1));
    if alpha <= 1 {
        for &t in ordered.iter().take(prefix_len(ordered.len(), tau1)) {
            key(pair_key(t, t, SINGLE_SEED));
        }
    }
    let n = (ordered.len() + 2).saturating_sub(alpha).min(ordered.len());
    for x in 0..n {
        for y in x + 1..n {
            key(pair_key(ordered[x], ordered[y], SINGLE_SEED));
        }
    }
}

impl RobustSlst {
    /// A robust SL+ST detector with the given settings.
    ///
    /// # Errors
    /// A setting out of range (see [`RobustConfig::validate`]).
    pub fn new(config: RobustConfig) -> Result<Self> {
        config.validate()?;
        Ok(RobustSlst { config })
    }

    /// The settings in force.
    pub fn config(&self) -> &RobustConfig {
        &self.config
    }

    /// Two sentences match: lengths within δ, term sets within τ and, with the anchor rule, one
    /// shared anchor. Returns their term Jaccard.
    fn matches(&self, x: &RobustSentence, y: &RobustSentence) -> Option<f64> {
        if x.length.abs_diff(y.length) as usize > self.config.length_tolerance {
            return None;
        }
        // Size filter: J ≤ min(|x|, |y|) / max(|x|, |y|).
        let (nx, ny) = (x.terms.len() as f64, y.terms.len() as f64);
        if nx.min(ny) < self.config.term_similarity * nx.max(ny) - 1e-9 {
            return None;
        }
        let j = jaccard(&x.terms, &y.terms);
        let k = self.config.anchor_terms;
        (j >= self.config.term_similarity && (k == 0 || shared_anchors(&x.terms, &y.terms, k) >= 1))
            .then_some(j)
    }

    /// A matching pair that forms a block on its own.
    fn single(&self, x: &RobustSentence, y: &RobustSentence, j: f64) -> bool {
        let s = self.config.single_min_terms;
        s > 0
            && x.length as usize >= s
            && y.length as usize >= s
            && j >= self.config.single_similarity
            && (self.config.anchor_terms == 0
                || shared_anchors(&x.terms, &y.terms, self.config.anchor_terms) >= 2)
    }

    /// How many of a sentence's terms, in the global order, any matching sentence shares one
    /// of: its anchors when the anchor rule is on, else its prefix.
    fn key_terms(&self, size: usize) -> usize {
        match self.config.anchor_terms {
            0 => prefix_len(size, self.config.term_similarity),
            k => k.min(size),
        }
    }

    /// The join keys of a profile whose sentences' term ids, each list sorted in the global
    /// order, are `ordered(i)`, as [`Slot`]s in code order.
    fn slots_of<'a>(&self, p: &RobustProfile, ordered: impl Fn(usize) -> &'a [u64]) -> Vec<Slot> {
        let prefix = |i: usize| {
            let o = ordered(i);
            &o[..self.key_terms(o.len())]
        };
        let mut slots = Vec::new();
        for i in 0..p.len() {
            let (single, pair) = (2 * i as u32, 2 * i as u32 + 1);
            if self.config.min_block <= 1 {
                // Every matching pair is a block: one prefix term suffices.
                for &t in prefix(i) {
                    let key = pair_key(t, t, SINGLE_SEED);
                    slots.push(Slot { key, code: single });
                }
                continue;
            }
            let s = self.config.single_min_terms;
            if s > 0 && p.sentences[i].length as usize >= s {
                let mut push = |key| slots.push(Slot { key, code: single });
                if self.config.anchor_terms > 0 {
                    // A single-pair block shares two anchors: every pair of them is a key.
                    let anchors = prefix(i);
                    for (x, &p) in anchors.iter().enumerate() {
                        for &q in &anchors[x + 1..] {
                            push(pair_key(p, q, SINGLE_SEED));
                        }
                    }
                } else {
                    single_keys(ordered(i), self.config.single_similarity, push);
                }
            }
            if i + 1 < p.len() {
                for &x in prefix(i) {
                    for &y in prefix(i + 1) {
                        let key = pair_key(x, y, PAIR_SEED);
                        slots.push(Slot { key, code: pair });
                    }
                }
            }
        }
        slots
    }

    /// Join keys from slots: sorted, without repeats.
    fn keys_from(slots: &[Slot]) -> Vec<u64> {
        let mut keys: Vec<u64> = slots.iter().map(|s| s.key).collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// A profile under a corpus order given as each term's rank.
    fn corpus_view(&self, p: &RobustProfile, rank: &impl Fn(u64) -> u32) -> CorpusView {
        // Each sentence's ranks, ascending (as u64 for the keys).
        let mut ordered: Vec<u64> =
            Vec::with_capacity(p.sentences.iter().map(|s| s.terms.len()).sum());
        let mut starts: Vec<usize> = Vec::with_capacity(p.len() + 1);
        starts.push(0);
        for s in &p.sentences {
            let from = ordered.len();
            ordered.extend(s.terms.iter().map(|&t| u64::from(rank(t))));
            ordered[from..].sort_unstable();
            starts.push(ordered.len());
        }
        let slots = self.slots_of(p, |i| &ordered[starts[i]..starts[i + 1]]);
        let mut postings: Vec<(u32, u32)> = Vec::new();
        for i in 0..p.len() {
            let o = &ordered[starts[i]..starts[i + 1]];
            postings.extend(
                o[..self.key_terms(o.len())]
                    .iter()
                    .map(|&r| (r as u32, i as u32)),
            );
        }
        postings.sort_unstable();
        CorpusView {
            slots,
            posting_ranks: postings.iter().map(|x| x.0).collect(),
            posting_sentences: postings.iter().map(|x| x.1).collect(),
        }
    }

    /// An upper bound on the sentences in blocks (per side) of `a` against `b`, or `None` when
    /// the corpus prefixes are not set ([`Detector::prepare_corpus`] has not run).
    ///
    /// A sentence lies in a block only if it matches some sentence of the other side, and two
    /// matching sentences differ in length by at most δ and share a key term: a prefix term
    /// under the corpus order (J ≥ τ, see the module docs), or with the anchor rule an anchor.
    /// So the number of sentences of A with such a partner in B bounds the matched sentences,
    /// and so does the number of B's; the bound is the smaller of the two. Cost: one merge of
    /// the two sorted key-term lists.
    fn max_matched(&self, a: &RobustProfile, b: &RobustProfile) -> Option<usize> {
        let (x, y) = (a.corpus.as_deref()?, b.corpus.as_deref()?);
        let delta = self.config.length_tolerance;
        // Sentences with a possible partner, as bit sets (on the stack for short documents).
        const WORDS: usize = 8;
        let (mut small_a, mut small_b) = ([0u64; WORDS], [0u64; WORDS]);
        let (mut large_a, mut large_b) = (Vec::new(), Vec::new());
        let in_a: &mut [u64] = if a.len() <= 64 * WORDS {
            &mut small_a
        } else {
            large_a.resize(a.len().div_ceil(64), 0);
            &mut large_a
        };
        let in_b: &mut [u64] = if b.len() <= 64 * WORDS {
            &mut small_b
        } else {
            large_b.resize(b.len().div_ceil(64), 0);
            &mut large_b
        };
        let (xt, yt) = (&*x.posting_ranks, &*y.posting_ranks);
        let (mut i, mut j) = (0, 0);
        while i < xt.len() && j < yt.len() {
            let (p, q) = (xt[i], yt[j]);
            if p != q {
                i += usize::from(p < q);
                j += usize::from(q < p);
                continue;
            }
            let ie = i + xt[i..].iter().take_while(|&&t| t == p).count();
            let je = j + yt[j..].iter().take_while(|&&t| t == p).count();
            for &u in &x.posting_sentences[i..ie] {
                let lu = a.sentences[u as usize].length;
                for &v in &y.posting_sentences[j..je] {
                    if lu.abs_diff(b.sentences[v as usize].length) as usize <= delta {
                        in_a[u as usize / 64] |= 1 << (u % 64);
                        in_b[v as usize / 64] |= 1 << (v % 64);
                    }
                }
            }
            i = ie;
            j = je;
        }
        let count = |v: &[u64]| v.iter().map(|w| w.count_ones() as usize).sum::<usize>();
        Some(count(in_a).min(count(in_b)))
    }

    /// Matching sentence pairs (i, j, Jaccard), by prefix filtering under the two documents'
    /// own term frequencies.
    fn sentence_pairs(&self, a: &RobustProfile, b: &RobustProfile) -> Vec<(usize, usize, f64)> {
        if a.len() * b.len() <= SMALL_PAIR {
            // Short documents (news items, answers): every pair, without building an index.
            self.all_sentence_pairs(a, b)
        } else {
            self.indexed_sentence_pairs(a, b)
        }
    }

    /// Matching sentence pairs by checking every pair (the oracle of the indexed search).
    fn all_sentence_pairs(&self, a: &RobustProfile, b: &RobustProfile) -> Vec<(usize, usize, f64)> {
        let mut out = Vec::new();
        for (i, x) in a.sentences.iter().enumerate() {
            for (j, y) in b.sentences.iter().enumerate() {
                if let Some(sim) = self.matches(x, y) {
                    out.push((i, j, sim));
                }
            }
        }
        out
    }

    /// Matching sentence pairs through an index over B's prefix terms. Matching sentences
    /// have J ≥ τ and so share a prefix term, anchors or not; under the local order below the
    /// prefixes are more selective than the anchors (measured on the Bible pair: 0.16 s against
    /// 0.38 s for the whole `compare`).
    fn indexed_sentence_pairs(
        &self,
        a: &RobustProfile,
        b: &RobustProfile,
    ) -> Vec<(usize, usize, f64)> {
        let tau = self.config.term_similarity;
        // Any global order is exact. Long documents: rarest first (by the number of sentences
        // holding a term in the two documents), so that common terms rarely enter a prefix.
        let mut freq: HashMap<u64, u32, foldhash::fast::RandomState> = HashMap::default();
        for s in a.sentences.iter().chain(&b.sentences) {
            for &t in s.terms.iter() {
                *freq.entry(t).or_insert(0) += 1;
            }
        }
        let rank = |t: u64| freq.get(&t).copied().unwrap_or(0);
        let mut index: HashMap<u64, Vec<u32>, foldhash::fast::RandomState> = HashMap::default();
        for (j, s) in b.sentences.iter().enumerate() {
            for t in prefix(&s.terms, tau, &rank) {
                index.entry(t).or_default().push(j as u32);
            }
        }
        let mut seen = vec![usize::MAX; b.len()];
        let mut out = Vec::new();
        for (i, s) in a.sentences.iter().enumerate() {
            for t in prefix(&s.terms, tau, &rank) {
                for &j in index.get(&t).map(Vec::as_slice).unwrap_or_default() {
                    let j = j as usize;
                    if seen[j] == i {
                        continue;
                    }
                    seen[j] = i;
                    if let Some(sim) = self.matches(s, &b.sentences[j]) {
                        out.push((i, j, sim));
                    }
                }
            }
        }
        out
    }

    /// Blocks of `a` against `b`, tiled with `a` first.
    fn tiled(&self, a: &RobustProfile, b: &RobustProfile) -> (Vec<RobustBlock>, usize) {
        let mut pairs = self.sentence_pairs(a, b);
        let found = pairs.len();
        // Diagonal runs.
        pairs.sort_unstable_by_key(|&(i, j, _)| (i as isize - j as isize, i));
        if pairs.is_empty() {
            return (Vec::new(), 0);
        }
        let mut by_pair: Vec<(usize, usize, f64)> = pairs.clone();
        by_pair.sort_unstable_by_key(|&(i, j, _)| (i, j));
        let lookup = |i: usize, j: usize| -> Option<f64> {
            by_pair
                .binary_search_by_key(&(i, j), |&(x, y, _)| (x, y))
                .ok()
                .map(|k| by_pair[k].2)
        };
        let single_at = |i: usize, j: usize| {
            lookup(i, j).is_some_and(|sim| self.single(&a.sentences[i], &b.sentences[j], sim))
        };
        let valid = |i: usize, j: usize, len: usize| {
            len >= self.config.min_block || (0..len).all(|k| single_at(i + k, j + k))
        };
        let mut candidates: Vec<(usize, usize, usize)> = Vec::new();
        for run in pairs.chunk_by(|x, y| {
            x.0 as isize - x.1 as isize == y.0 as isize - y.1 as isize && y.0 == x.0 + 1
        }) {
            let (i, j, len) = (run[0].0, run[0].1, run.len());
            if valid(i, j, len) {
                candidates.push((i, j, len));
            } else {
                candidates.extend(
                    run.iter()
                        .filter(|x| single_at(x.0, x.1))
                        .map(|x| (x.0, x.1, 1)),
                );
            }
        }
        // Greedy tiling, longest first (ties: start in A, then in B); a block cut around used
        // sentences goes back as its valid pieces.
        let mut used_a = vec![false; a.len()];
        let mut used_b = vec![false; b.len()];
        let key = |&(i, j, len): &(usize, usize, usize)| (len, Reverse(i), Reverse(j));
        let mut heap: BinaryHeap<_> = candidates.iter().map(|c| (key(c), *c)).collect();
        let mut kept: Vec<(usize, usize, usize)> = Vec::new();
        while let Some((_, (i, j, len))) = heap.pop() {
            let free = |k: usize| !used_a[i + k] && !used_b[j + k];
            if (0..len).all(free) {
                used_a[i..i + len].fill(true);
                used_b[j..j + len].fill(true);
                kept.push((i, j, len));
                continue;
            }
            let mut k = 0;
            while k < len {
                if !free(k) {
                    k += 1;
                    continue;
                }
                let start = k;
                while k < len && free(k) {
                    k += 1;
                }
                if valid(i + start, j + start, k - start) {
                    let piece = (i + start, j + start, k - start);
                    heap.push((key(&piece), piece));
                }
            }
        }
        kept.sort_unstable();
        let blocks = kept
            .into_iter()
            .map(|(i, j, len)| RobustBlock {
                a_start: i,
                b_start: j,
                len,
                a_span: [a.sentences[i].start, a.sentences[i + len - 1].end],
                b_span: [b.sentences[j].start, b.sentences[j + len - 1].end],
                min_term_similarity: (0..len)
                    .map(|k| lookup(i + k, j + k).unwrap_or(0.0))
                    .fold(1.0, f64::min),
            })
            .collect();
        (blocks, found)
    }
}

/// Snowball English stems of words, remembered: a text repeats its vocabulary, and the stemmer
/// allocates on every call. In memory only, so its randomly seeded hasher is harmless.
struct Stems {
    stemmer: rust_stemmers::Stemmer,
    seen: HashMap<String, String, foldhash::fast::RandomState>,
    buf: String,
}

impl Stems {
    fn new() -> Self {
        Stems {
            stemmer: rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English),
            seen: HashMap::default(),
            buf: String::new(),
        }
    }

    /// The stem of a word; the punctuation inside it (`team's`, `u.s`) goes first, as in
    /// [`super::PolyHash::canonical`], so that the stemmer sees a plain word.
    fn stem(&mut self, word: &str) -> &str {
        self.buf.clear();
        self.buf
            .extend(word.chars().filter(|c| c.is_alphanumeric()));
        if !self.seen.contains_key(self.buf.as_str()) {
            let stem = self.stemmer.stem(&self.buf).into_owned();
            self.seen.insert(self.buf.clone(), stem);
        }
        &self.seen[self.buf.as_str()]
    }
}

/// The canonical order of two robust profiles (their sentences' lengths and term sets,
/// lexicographically): tiling always runs with the smaller first, so that greedy ties cannot
/// make `compare(a, b)` and `compare(b, a)` differ.
fn canonical(a: &RobustProfile, b: &RobustProfile) -> Ordering {
    fn key(p: &RobustProfile) -> impl Iterator<Item = (u16, &[u64])> {
        p.sentences.iter().map(|s| (s.length, &*s.terms))
    }
    key(a).cmp(key(b))
}

impl Detector for RobustSlst {
    type Sketch = RobustProfile;
    type Evidence = RobustComparison;

    fn name(&self) -> &'static str {
        "slst"
    }

    fn sketch(&self, doc: &Document) -> RobustProfile {
        let text = &doc.text;
        let mut profile = RobustProfile {
            id: doc.id.clone(),
            sentences: Vec::new(),
            skipped_empty: 0,
            dropped_long: 0,
            corpus: None,
        };
        let mut terms: Vec<u64> = Vec::new();
        let mut stemmer = self.config.stem.then(Stems::new);
        let units = text::split_sentences(text).into_iter().flat_map(|span| {
            let mut pieces = Vec::new();
            if self.config.clauses {
                let mut start = span.start;
                for (k, c) in text[span.clone()].char_indices() {
                    if c == ';' || c == ':' {
                        let end = span.start + k + 1;
                        pieces.push(start..end);
                        start = end;
                    }
                }
                pieces.push(start..span.end);
                // Trim the white space a cut leaves at a piece's start.
                for p in &mut pieces {
                    let trimmed = text[p.clone()].trim_start();
                    p.start = p.end - trimmed.len();
                }
                pieces.retain(|p| !p.is_empty());
            } else {
                pieces.push(span);
            }
            pieces
        });
        for span in units {
            terms.clear();
            text::for_each_word(&text[span.clone()], |word| {
                if !self.config.stopwords.contains(word) {
                    let term = match &mut stemmer {
                        Some(s) => s.stem(word),
                        None => word,
                    };
                    terms.push(term_id(term));
                }
            });
            let length = terms.len();
            if length == 0 {
                profile.skipped_empty += 1;
            } else if length > self.config.max_length {
                profile.dropped_long += 1;
            } else {
                terms.sort_unstable();
                terms.dedup();
                profile.sentences.push(RobustSentence {
                    start: span.start as u32,
                    end: span.end as u32,
                    length: length as u16,
                    terms: terms.as_slice().into(),
                });
            }
        }
        profile
    }

    fn compare(&self, a: &RobustProfile, b: &RobustProfile) -> Comparison<RobustComparison> {
        let (len_a, len_b) = (a.len(), b.len());
        let (blocks, sentence_pairs) = if canonical(a, b) == Ordering::Greater {
            let (swapped, found) = self.tiled(b, a);
            let mut blocks: Vec<RobustBlock> =
                swapped.into_iter().map(RobustBlock::swapped).collect();
            blocks.sort_unstable_by_key(|x| (x.a_start, x.b_start));
            (blocks, found)
        } else {
            self.tiled(a, b)
        };
        let matched = blocks.iter().map(|b| b.len).sum();
        let similarity = Similarity::from_counts(matched, len_a, len_b);
        Comparison {
            method: self.name(),
            duplicate: similarity.resemblance >= self.config.threshold && matched > 0,
            similarity,
            evidence: RobustComparison {
                mode: "robust",
                blocks,
                matched,
                len_a,
                len_b,
                sentence_pairs,
            },
        }
    }

    /// Pair keys and single keys (see the module docs): any two documents with a block share
    /// one. Under the corpus-wide order when [`Detector::prepare_corpus`] has run, else under the
    /// order of the ids themselves (a global order too: the anchors' own, and for prefixes only
    /// a less selective one than document frequency).
    fn join_keys(&self, sketch: &RobustProfile) -> Option<Vec<u64>> {
        Some(match &sketch.corpus {
            Some(view) => Self::keys_from(&view.slots),
            // Id order (longest terms first): each sentence's term set is already sorted so.
            None => Self::keys_from(&self.slots_of(sketch, |i| &sketch.sentences[i].terms)),
        })
    }

    /// Ranks the corpus's terms — by document frequency (rarest first) for the prefixes, or in
    /// id order (longest first) for the anchors — and keeps each document's keys under that
    /// order.
    fn prepare_corpus(&self, sketches: &mut [RobustProfile]) {
        use rayon::prelude::*;
        // Every (term, document) once, sorted by term: runs give document frequencies.
        let mut occurrences: Vec<u64> = sketches
            .par_iter()
            .flat_map_iter(|p| {
                let mut terms: Vec<u64> = p
                    .sentences
                    .iter()
                    .flat_map(|s| s.terms.iter().copied())
                    .collect();
                terms.sort_unstable();
                terms.dedup();
                terms
            })
            .collect();
        occurrences.par_sort_unstable();
        let mut by_df: Vec<(u32, u64)> = occurrences
            .chunk_by(|x, y| x == y)
            .map(|run| (run.len() as u32, run[0]))
            .collect();
        drop(occurrences);
        // Rank = position in (document frequency, id) order: rarest first, a total order; with
        // anchors, the order their rule is stated in (ids were sorted by the run above).
        if self.config.anchor_terms == 0 {
            by_df.par_sort_unstable();
        }
        let rank_of: HashMap<u64, u32, foldhash::fast::RandomState> = by_df
            .iter()
            .enumerate()
            .map(|(r, &(_, t))| (t, r as u32))
            .collect();
        let rank = |t: u64| rank_of.get(&t).copied().unwrap_or(u32::MAX);
        sketches.par_iter_mut().for_each(|p| {
            p.corpus = Some(Box::new(self.corpus_view(p, &rank)));
        });
    }

    fn sentences(&self, sketch: &RobustProfile) -> Option<usize> {
        Some(sketch.len())
    }

    /// Pairs whose count of witnessed sentences could satisfy `keep` (see the module docs).
    fn corpus_candidates(
        &self,
        sketches: &[&RobustProfile],
        keep: &(dyn Fn(&Similarity, bool) -> bool + Sync),
        max_df: usize,
    ) -> Option<(Vec<(usize, usize)>, usize)> {
        self.witness_join(sketches, keep, max_df)
    }

    /// Scores bounded by `RobustSlst::max_matched`: a pair is ruled out when even that many
    /// sentences in blocks would not satisfy `keep` (every score is increasing in them).
    fn may_be_reported(
        &self,
        a: &RobustProfile,
        b: &RobustProfile,
        keep: &dyn Fn(&Similarity, bool) -> bool,
    ) -> bool {
        let may_keep = |m: usize| {
            let bound = Similarity::from_counts(m, a.len(), b.len());
            keep(&bound, m > 0 && bound.resemblance >= self.config.threshold)
        };
        // The size filter first (m ≤ min(|A|, |B|)), then the bound from the prefixes.
        if !may_keep(a.len().min(b.len())) {
            return false;
        }
        self.max_matched(a, b).is_none_or(may_keep)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detector() -> RobustSlst {
        RobustSlst::new(RobustConfig::default()).unwrap()
    }

    #[test]
    fn prefix_lengths_follow_the_bound() {
        assert_eq!(prefix_len(10, 0.5), 6);
        assert_eq!(prefix_len(10, 0.4), 7);
        assert_eq!(prefix_len(1, 0.4), 1);
        assert_eq!(prefix_len(3, 1.0), 1);
        assert_eq!(prefix_len(0, 0.5), 0);
    }

    #[test]
    fn a_content_word_for_a_stop_word_keeps_the_block() {
        let a = Document::new(
            "a",
            "In the beginning God created the heaven and the earth. And the earth was without form, and void. And God said, Let there be light.",
        );
        let b = Document::new(
            "b",
            "In the beginning God created the heavens and the earth. And the earth lay without form, and void. And God said, Let there be light.",
        );
        let d = detector();
        let c = d.compare(&d.sketch(&a), &d.sketch(&b));
        assert_eq!(c.evidence.matched, 3, "{:?}", c.evidence);
        assert_eq!(c.similarity.resemblance, 1.0);
    }

    #[test]
    fn unrelated_sentences_do_not_match() {
        let a = Document::new(
            "a",
            "Red apples grow on old trees. Green pears fall in autumn.",
        );
        let b = Document::new(
            "b",
            "Tall ships sail across oceans. Old dogs sleep by fires.",
        );
        let d = detector();
        let c = d.compare(&d.sketch(&a), &d.sketch(&b));
        assert_eq!(c.evidence.matched, 0);
        assert!(!c.duplicate);
    }

    #[test]
    fn one_long_sentence_is_a_block_a_short_one_is_not() {
        let long =
            "The central bank raised its benchmark interest rate by half a point on Tuesday.";
        let d = detector();
        let a = d.sketch(&Document::new("a", format!("Gold rose. {long}")));
        let b = d.sketch(&Document::new("b", format!("{long} Oil fell.")));
        assert_eq!(d.compare(&a, &b).evidence.matched, 1);
        let a = d.sketch(&Document::new("a", "Gold rose sharply. Silver fell."));
        let b = d.sketch(&Document::new("b", "Oil fell. Gold rose sharply."));
        assert_eq!(d.compare(&a, &b).evidence.matched, 0);
    }

    #[test]
    fn matching_sentences_share_one_of_their_longest_terms() {
        // Both have J = 3/6 (rain, old, town), but x's two longest terms are "flooded" and
        // "heavy", y's are 4-letter words: with two anchors they do not match, with three
        // (x adds "rain" or "town", y holds all of rain, fell, town) they do.
        let with = |anchor_terms: usize| {
            RobustSlst::new(RobustConfig {
                anchor_terms,
                min_block: 1,
                ..RobustConfig::default()
            })
            .unwrap()
        };
        let sentence =
            |d: &RobustSlst, text: &str| d.sketch(&Document::new("s", text)).sentences[0].clone();
        for (k, expected) in [(0, Some(0.5)), (2, None), (3, Some(0.5)), (5, Some(0.5))] {
            let d = with(k);
            let x = sentence(&d, "Heavy rain flooded the old town.");
            let y = sentence(&d, "Rain fell on the old town.");
            assert_eq!(d.matches(&x, &y), expected, "anchor_terms {k}");
        }
        // The ids sort the longest term first.
        assert!(term_id("flooded") < term_id("heavy") && term_id("heavy") < term_id("old"));
    }

    #[test]
    fn a_single_sentence_block_shares_two_anchors() {
        // J = 4/8 (rain, old, town, square). Three anchors each: flooded, square, heavy against
        // square, light and one 4-letter word: one shared, so no single block; five anchors
        // share square, rain and town.
        let a = "Gold rose. Heavy rain flooded the old town square.";
        let b = "Light rain fell on the old town square. Oil fell.";
        let with = |anchor_terms: usize| {
            RobustSlst::new(RobustConfig {
                anchor_terms,
                ..RobustConfig::default()
            })
            .unwrap()
        };
        let matched = |d: &RobustSlst| {
            let c = d.compare(
                &d.sketch(&Document::new("a", a)),
                &d.sketch(&Document::new("b", b)),
            );
            c.evidence.matched
        };
        for (k, expected) in [(0, 1), (3, 0), (5, 1)] {
            assert_eq!(matched(&with(k)), expected, "anchor_terms {k}");
        }
        // At every k the block forms exactly when two anchors are shared, and some k shares
        // exactly two (the boundary of the rule).
        let d = with(2);
        let (x, y) = (
            d.sketch(&Document::new("a", a)).sentences[1].clone(),
            d.sketch(&Document::new("b", b)).sentences[0].clone(),
        );
        let mut boundary = false;
        for k in 2..=6 {
            let shared = shared_anchors(&x.terms, &y.terms, k);
            boundary |= shared == 2;
            assert_eq!(
                matched(&with(k)),
                usize::from(shared >= 2),
                "anchor_terms {k}"
            );
        }
        assert!(boundary);
    }

    #[test]
    fn keys_under_any_order_are_shared_by_matching_documents() {
        let a = Document::new(
            "a",
            "Stocks rose sharply on Monday in Tokyo. Bond yields fell to a record low.",
        );
        let b = Document::new(
            "b",
            "Stocks rose sharply late Monday in Tokyo. Bond yields fell to a new record low.",
        );
        let d = detector();
        let (pa, pb) = (d.sketch(&a), d.sketch(&b));
        assert!(d.compare(&pa, &pb).evidence.matched > 0);
        let (ka, kb) = (d.join_keys(&pa).unwrap(), d.join_keys(&pb).unwrap());
        assert!(ka.iter().any(|k| kb.binary_search(k).is_ok()));
        let mut both = vec![pa, pb];
        d.prepare_corpus(&mut both);
        let (ka, kb) = (
            d.join_keys(&both[0]).unwrap(),
            d.join_keys(&both[1]).unwrap(),
        );
        assert!(ka.iter().any(|k| kb.binary_search(k).is_ok()));
    }

    /// The prefix-filtered search finds exactly the pairs that checking every pair finds, on
    /// two long real texts (KJV and Webster's revision of Genesis) and at several bounds.
    #[test]
    fn indexed_search_equals_checking_every_pair() {
        let kjv = include_str!("../../../corpora/bible/kjv-1mb.txt");
        let wbt = include_str!("../../../corpora/bible/wbt-1mb.txt");
        let cut = |t: &'static str| &t[..t.char_indices().nth(40_000).map_or(t.len(), |c| c.0)];
        for (tau, delta) in [(0.3, 35), (0.5, 4), (0.8, 1)] {
            let d = RobustSlst::new(RobustConfig {
                term_similarity: tau,
                length_tolerance: delta,
                single_similarity: f64::max(tau, 0.5),
                ..RobustConfig::default()
            })
            .unwrap();
            let (a, b) = (
                d.sketch(&Document::new("kjv", cut(kjv))),
                d.sketch(&Document::new("wbt", cut(wbt))),
            );
            assert!(a.len() * b.len() > SMALL_PAIR);
            let sorted = |mut v: Vec<(usize, usize, f64)>| {
                v.sort_by_key(|x| (x.0, x.1));
                v
            };
            let all = sorted(d.all_sentence_pairs(&a, &b));
            assert!(all.len() > 100, "τ {tau}: {}", all.len());
            assert_eq!(sorted(d.indexed_sentence_pairs(&a, &b)), all, "τ {tau}");
        }
    }

    /// The bound on sentences in blocks holds on two long real texts at several settings, and
    /// is absent (no pair ruled out) before the corpus order is set.
    #[test]
    fn the_matched_bound_is_at_least_the_matched_sentences() {
        let kjv = include_str!("../../../corpora/bible/kjv-1mb.txt");
        let wbt = include_str!("../../../corpora/bible/wbt-1mb.txt");
        for (tau, delta, start, len) in [
            (0.5, 4, 0, 20_000),
            (0.3, 35, 5_000, 8_000),
            (0.8, 1, 0, 3_000),
        ] {
            let d = RobustSlst::new(RobustConfig {
                term_similarity: tau,
                length_tolerance: delta,
                single_similarity: f64::max(tau, 0.5),
                ..RobustConfig::default()
            })
            .unwrap();
            let mut docs = vec![
                d.sketch(&Document::new("kjv", &kjv[..20_000])),
                d.sketch(&Document::new("wbt", &wbt[start..start + len])),
                d.sketch(&Document::new("gen", &kjv[40_000..50_000])),
            ];
            assert_eq!(d.max_matched(&docs[0], &docs[1]), None);
            d.prepare_corpus(&mut docs);
            for x in &docs {
                for y in &docs {
                    let matched = d.compare(x, y).evidence.matched;
                    let bound = d.max_matched(x, y).unwrap();
                    assert!(bound >= matched, "τ {tau}: {bound} < {matched}");
                    assert!(bound <= x.len().min(y.len()));
                }
            }
        }
    }

    #[test]
    fn invalid_settings_are_rejected() {
        for cfg in [
            RobustConfig {
                min_block: 0,
                ..RobustConfig::default()
            },
            RobustConfig {
                term_similarity: 0.0,
                ..RobustConfig::default()
            },
            RobustConfig {
                single_similarity: 0.2,
                ..RobustConfig::default()
            },
            RobustConfig {
                anchor_terms: 1,
                ..RobustConfig::default()
            },
        ] {
            assert!(RobustSlst::new(cfg).is_err());
        }
    }
}
