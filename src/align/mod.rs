//! Passages: the reused text of two documents, located to the word (the stage after a method's
//! blocks).
//!
//! A sentence-block method says which runs of *sentences* match. Reused text does not respect
//! sentence boundaries: a passage pasted mid-sentence starts and ends inside sentences, a
//! sentence too long to keep or mangled by scraping breaks a run of blocks in two, and one copied
//! passage then comes back as several blocks that each stop short of its edges. This stage takes
//! the blocks as *seeds* and turns them into passages, in three steps:
//!
//! 1. every seed is **extended** at both ends word by word into the text around it
//!    ([`extend`]: X-drop, tolerant of a substituted, inserted or deleted word), so a passage
//!    reaches into partial sentences and to the exact edge of the shared text;
//! 2. extended seeds that overlap or nearly touch in *both* documents, in the same order, are
//!    **merged** into one passage (gap at most [`AlignConfig::merge_gap`] words on each side);
//! 3. each passage gets its **similarity**: the Jaccard coefficient of the two spans' sets of
//!    word bigrams, 1 for a verbatim copy, and its **shared words**: the word bigrams the spans
//!    have in common, counted with repeats, plus one — N for a verbatim copy of N words, few for
//!    two tables whose figures all differ; passages with fewer than [`AlignConfig::min_words`]
//!    words on either side are dropped.
//!
//! Words here are runs of letters and digits ([`words()`]), so alignment is independent of the
//! method's own tokenisation, and every span starts at a word's first byte and ends at a word's
//! last byte (or at punctuation both texts share right after it).

pub mod extend;
pub mod words;

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use crate::document::Document;
use crate::method::{Comparison, Detector};

pub use self::extend::ExtendConfig;
use self::words::{Word, covering, words};

/// How far into a seed, in words on each side, its edge is searched for the first two words both
/// texts share: a unit pasted mid-sentence starts with words of the other text, as many as the
/// sentence it was pasted into had before the paste.
const EDGE_SEARCH: usize = 25;

/// Settings of the passage stage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlignConfig {
    /// Extension: the most words skipped on one side to resynchronise after a difference.
    pub lookahead: usize,
    /// Extension stops when its score falls this far below the best (+1 per equal word, −1 per
    /// word skipped).
    pub x_drop: i64,
    /// Two extended seeds in the same order in both documents merge when the gap between them
    /// is at most this many words on each side.
    pub merge_gap: usize,
    /// Passages with fewer words than this on either side are dropped.
    pub min_words: usize,
}

impl Default for AlignConfig {
    fn default() -> Self {
        AlignConfig {
            lookahead: 3,
            x_drop: 6,
            merge_gap: 30,
            // Chosen on half of the PAN 2013 text-alignment set (results/alignment/).
            min_words: 20,
        }
    }
}

/// One passage found in both documents.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Passage {
    /// Byte span `[start, end)` in A's text.
    pub a_span: [usize; 2],
    /// Byte span `[start, end)` in B's text.
    pub b_span: [usize; 2],
    /// The Jaccard coefficient of the two spans' sets of word bigrams (1: the same words in
    /// the same order).
    pub similarity: f64,
    /// The words the two spans share in order: their word bigrams in common, counted with
    /// repeats, plus one (a verbatim copy of N words shares N; two tables of the same layout
    /// with other figures share few). What reuse at any length counts ([`shared_passages`]).
    pub shared_words: usize,
    /// How many seeds (the method's blocks, [`Detector::seeds`]) the passage grew from.
    pub seeds: usize,
}

impl Passage {
    /// The same passage seen from the other document (A and B exchanged).
    pub fn swapped(self) -> Passage {
        Passage {
            a_span: self.b_span,
            b_span: self.a_span,
            ..self
        }
    }
}

/// A seed or a passage in word indices: `[a0, a1)` in A, `[b0, b1)` in B.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Segment {
    a: [usize; 2],
    b: [usize; 2],
    seeds: usize,
}

/// The passages of two texts grown from seeds (byte spans in A and in B, e.g. a method's
/// blocks), sorted by start in A. Symmetric: exchanging A and B (and each seed's spans) gives
/// the same passages with their spans exchanged.
pub fn align(
    a: &str,
    b: &str,
    seeds: &[([usize; 2], [usize; 2])],
    config: &AlignConfig,
) -> Vec<Passage> {
    // Extension and merging are greedy, and which document leads decides some of their steps
    // (which of two crossing seeds a passage takes first): the pair is aligned in one canonical
    // orientation — the smaller text first, for equal texts the smaller list of seeds — so that
    // exchanging A and B exchanges the passages and changes nothing else.
    let flipped: Vec<([usize; 2], [usize; 2])> = seeds.iter().map(|&(sa, sb)| (sb, sa)).collect();
    let flip = match a.cmp(b) {
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => {
            let sorted = |s: &[([usize; 2], [usize; 2])]| {
                let mut s = s.to_vec();
                s.sort_unstable();
                s
            };
            sorted(&flipped) < sorted(seeds)
        }
    };
    if !flip {
        return align_oriented(a, b, seeds, config);
    }
    let mut out: Vec<Passage> = align_oriented(b, a, &flipped, config)
        .into_iter()
        .map(Passage::swapped)
        .collect();
    out.sort_unstable_by_key(|p| (p.a_span, p.b_span));
    out
}

/// [`align`] with A leading.
fn align_oriented(
    a: &str,
    b: &str,
    seeds: &[([usize; 2], [usize; 2])],
    config: &AlignConfig,
) -> Vec<Passage> {
    let (wa, wb) = (words(a), words(b));
    let extend_config = ExtendConfig {
        lookahead: config.lookahead,
        x_drop: config.x_drop,
    };
    let segments: Vec<Segment> = seeds
        .iter()
        .filter_map(|&(sa, sb)| {
            let (ra, rb) = (covering(&wa, sa), covering(&wb, sb));
            if ra.is_empty() || rb.is_empty() {
                return None;
            }
            // Start from where the two texts agree word for word, inside the seed's edges.
            let (skip_a, skip_b) =
                extend::sync(&wa, ra.start, &wb, rb.start, true, EDGE_SEARCH).unwrap_or((0, 0));
            let (start_a, start_b) = (ra.start + skip_a, rb.start + skip_b);
            let (cut_a, cut_b) =
                extend::sync(&wa, ra.end, &wb, rb.end, false, EDGE_SEARCH).unwrap_or((0, 0));
            let (end_a, end_b) = (ra.end - cut_a, rb.end - cut_b);
            if end_a <= start_a || end_b <= start_b {
                return None;
            }
            let (back_a, back_b) = extend::extend(&wa, start_a, &wb, start_b, false, extend_config);
            let (fwd_a, fwd_b) = extend::extend(&wa, end_a, &wb, end_b, true, extend_config);
            Some(Segment {
                a: [start_a - back_a, end_a + fwd_a],
                b: [start_b - back_b, end_b + fwd_b],
                seeds: 1,
            })
        })
        .collect();
    let merged = merge(segments, config.merge_gap);
    let mut out: Vec<Passage> = merged
        .into_iter()
        .filter(|s| s.a[1] - s.a[0] >= config.min_words && s.b[1] - s.b[0] >= config.min_words)
        .map(|s| {
            let (a_span, b_span) = spans(a, &wa, s.a, b, &wb, s.b);
            let (x, y) = (&wa[s.a[0]..s.a[1]], &wb[s.b[0]..s.b[1]]);
            Passage {
                a_span,
                b_span,
                similarity: bigram_jaccard(x, y),
                shared_words: shared_words(x, y),
                seeds: s.seeds,
            }
        })
        .collect();
    out.sort_unstable_by_key(|p| (p.a_span, p.b_span));
    out
}

/// The passages of a comparison by a method with blocks: its blocks, located in the two
/// documents, are the seeds. `None` for a method without blocks.
pub fn passages<D: Detector>(
    detector: &D,
    a: (&Document, &D::Sketch),
    b: (&Document, &D::Sketch),
    comparison: &Comparison<D::Evidence>,
    config: &AlignConfig,
) -> Option<Vec<Passage>> {
    let seeds = detector.seeds(a.1, b.1, comparison)?;
    Some(align(&a.0.text, &b.0.text, &seeds, config))
}

/// The passages sharing at least `min_words` words ([`Passage::shared_words`]) that two texts
/// hold, grown from the seeds of their comparison ([`Detector::seeds`]) with the other settings
/// at their defaults, sorted by start in A: what a criterion of reuse at any length keeps a pair
/// by (`slst batch` and `slst query` with `--min-shared-words`). A passage as long as that whose
/// words mostly differ — two earnings tables of one layout, grown across their figures — is not
/// shared text and is left out. Empty for a method without blocks.
pub fn shared_passages<D: Detector + ?Sized>(
    detector: &D,
    (text_a, a): (&str, &D::Sketch),
    (text_b, b): (&str, &D::Sketch),
    comparison: &Comparison<D::Evidence>,
    min_words: usize,
) -> Vec<Passage> {
    let config = AlignConfig {
        min_words,
        ..AlignConfig::default()
    };
    match detector.seeds(a, b, comparison) {
        Some(seeds) if !seeds.is_empty() => {
            let mut out = align(text_a, text_b, &seeds, &config);
            out.retain(|p| p.shared_words >= min_words);
            out
        }
        _ => Vec::new(),
    }
}

/// The similarity passages carry, of two whole texts: the Jaccard coefficient of their sets of
/// word bigrams (of words when one has a single word).
///
/// # Example
/// ```
/// assert_eq!(slst::align::similarity("The cat sat.", "the CAT sat"), 1.0);
/// assert_eq!(slst::align::similarity("a b c", "c b a"), 0.0);
/// ```
pub fn similarity(a: &str, b: &str) -> f64 {
    bigram_jaccard(&words(a), &words(b))
}

/// Merge segments that overlap or lie within `gap` words of each other in both documents, in
/// the same order, until no two do.
fn merge(mut current: Vec<Segment>, gap: usize) -> Vec<Segment> {
    let near = |x: [usize; 2], y: [usize; 2]| y[0] <= x[1] + gap && x[0] <= y[1] + gap;
    loop {
        current.sort_unstable_by_key(|s| (s.a[0], s.b[0], s.a[1], s.b[1]));
        let mut out: Vec<Segment> = Vec::with_capacity(current.len());
        for s in &current {
            // The passage it continues, if any (the latest first: usually the last one).
            let joins = |p: &Segment| near(p.a, s.a) && near(p.b, s.b) && s.b[0] + gap >= p.b[0];
            match out.iter().rposition(joins) {
                Some(k) => {
                    let p = &mut out[k];
                    p.a = [p.a[0].min(s.a[0]), p.a[1].max(s.a[1])];
                    p.b = [p.b[0].min(s.b[0]), p.b[1].max(s.b[1])];
                    p.seeds += s.seeds;
                }
                None => out.push(*s),
            }
        }
        // A merge can bring two passages within reach of each other: again until stable.
        if out.len() == current.len() {
            return out;
        }
        current = out;
    }
}

/// The byte spans of a passage, words `wa` of A and `wb` of B: from the first word's start to the
/// last word's end, carried over the punctuation both texts have right after it.
fn spans(
    a: &str,
    wa: &[Word],
    sa: [usize; 2],
    b: &str,
    wb: &[Word],
    sb: [usize; 2],
) -> ([usize; 2], [usize; 2]) {
    let (end_a, end_b) = (wa[sa[1] - 1].end as usize, wb[sb[1] - 1].end as usize);
    let shared: usize = a[end_a..]
        .chars()
        .zip(b[end_b..].chars())
        .take_while(|(x, y)| x == y && !x.is_alphanumeric() && !x.is_whitespace())
        .map(|(x, _)| x.len_utf8())
        .sum();
    (
        [wa[sa[0]].start as usize, end_a + shared],
        [wb[sb[0]].start as usize, end_b + shared],
    )
}

/// The Jaccard coefficient of two word sequences' sets of bigrams (of unigrams when one side
/// has a single word).
fn bigram_jaccard(a: &[Word], b: &[Word]) -> f64 {
    fn grams(w: &[Word]) -> HashSet<u64, foldhash::fast::FixedState> {
        if w.len() < 2 {
            return w.iter().map(|x| x.hash).collect();
        }
        w.windows(2)
            .map(|p| p[0].hash.rotate_left(17) ^ p[1].hash)
            .collect()
    }
    let (x, y) = (grams(a), grams(b));
    let common = x.intersection(&y).count();
    let union = x.len() + y.len() - common;
    if union == 0 {
        0.0
    } else {
        common as f64 / union as f64
    }
}

/// The words two spans share in order ([`Passage::shared_words`]): their word bigrams in
/// common, each counted as often as it occurs in both, plus one (0 when they have none; the
/// words in common when a span has a single word).
fn shared_words(a: &[Word], b: &[Word]) -> usize {
    if a.len() < 2 || b.len() < 2 {
        let x: HashSet<u64> = a.iter().map(|w| w.hash).collect();
        return b
            .iter()
            .filter(|w| x.contains(&w.hash))
            .count()
            .min(a.len());
    }
    let gram = |p: &[Word]| p[0].hash.rotate_left(17) ^ p[1].hash;
    let mut counts: HashMap<u64, usize, foldhash::fast::FixedState> = HashMap::default();
    for p in a.windows(2) {
        *counts.entry(gram(p)).or_default() += 1;
    }
    let mut common = 0;
    for p in b.windows(2) {
        if let Some(c) = counts.get_mut(&gram(p)).filter(|c| **c > 0) {
            *c -= 1;
            common += 1;
        }
    }
    if common == 0 { 0 } else { common + 1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults, but short passages kept: the examples are short.
    const SHORT: AlignConfig = AlignConfig {
        lookahead: 3,
        x_drop: 6,
        merge_gap: 30,
        min_words: 1,
    };

    #[test]
    fn a_seed_grows_into_the_partial_sentences_around_it() {
        let a = "Unrelated opening words here. It was said that the central bank cut rates. \
                 Markets rallied on the news. Traders were surprised by the size and then left.";
        let b = "Something else entirely: the central bank cut rates. Markets rallied on the \
                 news. Traders were surprised by the size of it.";
        // The seed: the middle sentence on both sides.
        let seed_a = a.find("Markets").unwrap();
        let seed_b = b.find("Markets").unwrap();
        let len = "Markets rallied on the news.".len();
        let p = align(
            a,
            b,
            &[([seed_a, seed_a + len], [seed_b, seed_b + len])],
            &SHORT,
        );
        assert_eq!(p.len(), 1);
        assert_eq!(
            &a[p[0].a_span[0]..p[0].a_span[1]],
            "the central bank cut rates. Markets rallied on the news. Traders were surprised by the size"
        );
        assert_eq!(
            &b[p[0].b_span[0]..p[0].b_span[1]],
            "the central bank cut rates. Markets rallied on the \
                 news. Traders were surprised by the size"
        );
        assert_eq!(p[0].similarity, 1.0);
    }

    #[test]
    fn near_seeds_in_order_merge_and_crossed_ones_do_not() {
        let a = "one two three four five six seven eight nine ten";
        let b = "zero one two three four five six seven eight nine ten";
        let at = |t: &str, w: &str| {
            let s = t.find(w).unwrap();
            [s, s + w.len()]
        };
        let seeds = [
            (at(a, "one two"), at(b, "one two")),
            (at(a, "nine ten"), at(b, "nine ten")),
        ];
        let p = align(a, b, &seeds, &SHORT);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].seeds, 2);
        assert_eq!(p[0].a_span, [0, a.len()]);
    }

    #[test]
    fn shared_words_count_the_words_in_common_in_order() {
        let w = |t: &str| words(t);
        // A verbatim copy of N words shares N, repeated bigrams counted as often as both hold.
        assert_eq!(shared_words(&w("a b c d e"), &w("A B C D E")), 5);
        assert_eq!(shared_words(&w("a b a b a b"), &w("a b a b")), 4);
        // One word changed in the middle breaks two bigrams.
        assert_eq!(shared_words(&w("a b c d e"), &w("a b x d e")), 3);
        // Nothing in order, nothing shared; a single word shares itself.
        assert_eq!(shared_words(&w("a b c"), &w("c b a")), 0);
        assert_eq!(shared_words(&w("a"), &w("x a y")), 1);
    }

    #[test]
    fn a_long_passage_across_other_figures_shares_few_words() {
        // Two earnings tables of one layout: the robust mode matches their lines, and growing
        // carries the passage across every figure, but the two share little text.
        let a = "ACME CORP QTR LOSS. Shr loss two cts vs profit three cts. Net loss 80,333 vs \
                 profit 67,967. Revs 1,162,678 vs 1,009,731. Avg shrs 3,317,104 vs 2,494,049. \
                 Year. Shr loss 21 cts vs profit 40 cts. Net loss 692,000 vs profit 512,000.";
        let b = "BETA INC QTR LOSS. Shr loss nine cts vs profit 15 cts. Net loss 134,000 vs \
                 profit 649,000. Revs 4,812,000 vs 3,927,000. Avg shrs 5,030,000 vs 3,926,000. \
                 Year. Shr loss 80 cts vs profit 33 cts. Net loss 1,904,000 vs profit 812,000.";
        let d = crate::method::RobustSlst::new(Default::default()).unwrap();
        let (da, db) = (Document::new("a", a), Document::new("b", b));
        let (sa, sb) = (d.sketch(&da), d.sketch(&db));
        let c = d.compare(&sa, &sb);
        let all = passages(&d, (&da, &sa), (&db, &sb), &c, &SHORT).unwrap();
        let longest = all
            .iter()
            .max_by_key(|p| p.a_span[1] - p.a_span[0])
            .unwrap();
        let length = words(&a[longest.a_span[0]..longest.a_span[1]]).len();
        assert!(length >= 30, "{all:?}");
        assert!(longest.shared_words < length / 2, "{all:?}");
        // Reuse at any length counts the words shared, not the passage's length.
        assert!(shared_passages(&d, (a, &sa), (b, &sb), &c, 30).is_empty());
        let verbatim = shared_passages(&d, (a, &sa), (a, &sa), &d.compare(&sa, &sa), 30);
        assert_eq!(verbatim.len(), 1);
        assert_eq!(verbatim[0].shared_words, words(a).len());
    }
}
