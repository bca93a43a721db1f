//! Rare keys ([`RobustConfig::rare_df`](super::super::RobustConfig::rare_df)): a corpus join
//! may look each sentence up by its rare keys alone.
//!
//! A sentence's keys (its single keys, and the pair keys of the steps it is in) are held by
//! more documents as a corpus grows: two long words of a sentence recur across news and across
//! a crawl, though the sentence does not (docs/benchmarks.md). Reading every holder of every key
//! then costs more per document the larger the corpus. A sentence and its copy, verbatim or
//! lightly edited, share most of their keys, and among them the sentence's rarest, held by the
//! few documents that copy it; the keys that the growth comes from are its commonest. So, with
//! `rare_df` T, a sentence is looked up by the keys held by at most T documents and by its
//! [`RARE_KEYS`] rarest shared ones (by the document frequency of the key, 255 and more counting
//! alike), and a key witnesses only the sentences that look it up (a pair key may witness one of
//! its two); every posting still lists every holder, so the other document of a pair needs no
//! rare key of its own. A key held by more than `max_df` documents is no sentence's, as ever. The count of
//! witnessed sentences is then over those keys, in the walk and in the count of the sentences
//! it assumed, so which sentences are walked still changes nothing. A sentence whose every
//! rare key was edited away, and whose other shared keys are common, goes unwitnessed.
//!
//! A document that every key costs little to look up looks every key up: when the frequencies
//! of its sentences' shared keys (each counted up to 255, a pair key once for each of its
//! sentences) sum to at most `rare_budget`
//! ([`RobustConfig::rare_budget`](super::super::RobustConfig::rare_budget)). Its walk is then
//! bounded by the budget instead of by its rare keys, so the work per document stays bounded,
//! and short documents lose nothing: a notice sent twice, both short, may share only the keys
//! its template's other notices hold too (docs/benchmarks.md, "Rare keys"). Under the budget
//! are the documents of a small corpus, and the short ones of a large one.

use std::ops::Range;

/// The rarest shared keys a sentence is always looked up by, whatever their frequency (the
/// Python package's `slst.RARE_KEYS`, which the Spark job's tests read). Six is
/// the most that keeps the postings a walk reads per document flat from 300,000 to a million
/// realistic documents (163 a document at a million, against 111 with four and 280 with eight),
/// and loses a third of the pairs four loses (docs/benchmarks.md, "Rare keys").
pub const RARE_KEYS: usize = 6;

/// [`rare_bounds`] of a document's slots: `codes` are their codes and `docs` their keys'
/// frequencies (0 for a key it alone holds, or left out).
pub(super) fn bounds(
    codes: &[u32],
    docs: &[u8],
    units: usize,
    (rare_df, budget): (usize, usize),
) -> Vec<u8> {
    let held = codes
        .iter()
        .zip(docs)
        .filter(|x| *x.1 > 0)
        .flat_map(|(&code, &df)| {
            let i = (code >> 1) as usize;
            (i..i + 1 + (code & 1) as usize).map(move |u| (u, usize::from(df)))
        });
    rare_bounds(units, held, rare_df, budget)
}

/// Per sentence of a document with `units` sentences: the highest document frequency of a key
/// it looks up ([`super::super::RobustConfig::rare_df`]) — `rare_df` (at most 255), or the
/// frequency of its sixth rarest shared key (`RARE_KEYS`) when higher, or 255 (every key) when it
/// has fewer; frequencies from 255 up count as 255. `held`: (sentence, document frequency) for
/// each key of a sentence held by another document too, and not left out as boilerplate (a pair
/// key once for each of its two sentences). A key is looked up by a sentence when its frequency,
/// so capped, is at most the sentence's bound. Every sentence's bound is 255 when those
/// frequencies, so capped, sum to at most `budget`
/// ([`RobustConfig::rare_budget`](super::super::RobustConfig::rare_budget)). The Spark job's
/// plans call this too.
pub fn rare_bounds(
    units: usize,
    held: impl IntoIterator<Item = (usize, usize)>,
    rare_df: usize,
    budget: usize,
) -> Vec<u8> {
    let mut rarest = vec![[u8::MAX; RARE_KEYS]; units];
    let mut counts = vec![0usize; units];
    let mut total = 0;
    for (u, df) in held {
        let Some(r) = rarest.get_mut(u) else {
            continue;
        };
        let df = df.min(255) as u8;
        total += usize::from(df);
        counts[u] += 1;
        // Insertion into the sorted few.
        if df < r[RARE_KEYS - 1] {
            let at = r.partition_point(|&x| x <= df);
            r.copy_within(at..RARE_KEYS - 1, at + 1);
            r[at] = df;
        }
    }
    if total <= budget {
        return vec![u8::MAX; units];
    }
    let held = counts;
    let floor = rare_df.min(255) as u8;
    rarest
        .iter()
        .zip(&held)
        .map(|(r, &h)| {
            if h < RARE_KEYS {
                u8::MAX
            } else {
                floor.max(r[RARE_KEYS - 1])
            }
        })
        .collect()
}

/// Which of the sentences `units` of a slot whose key is held by `docs` documents look it up,
/// under their `bounds`: bit i for the i-th of them (0 for none).
pub(super) fn looks(docs: u8, units: Range<usize>, bounds: &[u8]) -> u8 {
    units
        .enumerate()
        .filter(|&(_, u)| docs <= bounds[u])
        .fold(0, |m, (i, _)| m | 1 << i)
}

/// The sentences among a slot's `units` that look it up (`looks`, as [`looks`] gives it): one
/// or two neighbours, or none.
pub(super) fn looking(looks: u8, units: Range<usize>) -> Range<usize> {
    match looks & 3 {
        0 => units.start..units.start,
        1 => units.start..units.start + 1,
        2 => units.start + 1..units.end,
        _ => units,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sentence 0: single keys of frequencies 2, 40, 30, 50, 90, 60, 20 and a pair key (0, 1)
    /// of 7. Sentence 1: that pair key and three single keys, one held by this document alone:
    /// fewer than six shared keys.
    const CODES: [u32; 11] = [0, 0, 0, 0, 0, 0, 0, 1, 2, 2, 2];
    const DOCS: [u8; 11] = [2, 40, 30, 50, 90, 60, 20, 7, 0, 3, 255];

    #[test]
    fn a_sentence_looks_up_its_rare_keys_and_its_six_rarest() {
        let (codes, docs) = (CODES, DOCS);
        // The sixth rarest of sentence 0 is 50; sentence 1 has three shared keys.
        assert_eq!(bounds(&codes, &docs, 2, (10, 0)), vec![50, 255]);
        assert_eq!(bounds(&codes, &docs, 2, (70, 0)), vec![70, 255]);
        assert_eq!(bounds(&codes, &docs, 2, (1000, 0)), vec![255, 255]);
        // Six shared keys make the sixth the bound; five are fewer than six: every key.
        let six = [(0, 2), (0, 3), (0, 8), (0, 9), (0, 30), (0, 40)];
        assert_eq!(rare_bounds(1, six, 10, 0), vec![40]);
        assert_eq!(rare_bounds(1, six[..5].iter().copied(), 10, 0), vec![255]);
    }

    #[test]
    fn a_document_under_the_budget_looks_every_key_up() {
        let (codes, docs) = (CODES, DOCS);
        // Shared keys' frequencies, a pair key for each of its two sentences: 2 + 40 + 30 + 50
        // + 90 + 60 + 20 + 7 · 2 + 3 + 255 = 564.
        assert_eq!(bounds(&codes, &docs, 2, (10, 564)), vec![255, 255]);
        assert_eq!(bounds(&codes, &docs, 2, (10, 563)), vec![50, 255]);
        // Frequencies count up to 255, in the sum as in the bounds.
        // 2 + 3 + 30 + 40 + 8 + 9 + 255 = 347, where 5,000 uncounted would make 5,092.
        let held = [(0, 2), (0, 40), (0, 3), (0, 30), (0, 8), (0, 9), (0, 5000)];
        assert_eq!(rare_bounds(1, held, 10, 347), vec![255]);
        assert_eq!(rare_bounds(1, held, 10, 346), vec![40]);
    }

    #[test]
    fn a_pair_key_witnesses_the_sentences_that_look_it_up() {
        let bounds = [40, 255, 5];
        // A single key of sentence 0, and pair keys of (0, 1) and (1, 2).
        assert_eq!(looks(30, 0..1, &bounds), 1);
        assert_eq!(looks(50, 0..1, &bounds), 0);
        assert_eq!(looks(50, 0..2, &bounds), 2);
        assert_eq!(looks(3, 1..3, &bounds), 3);
        assert_eq!(looking(2, 0..2), 1..2);
        assert_eq!(looking(1, 1..3), 1..2);
        assert_eq!(looking(3, 1..3), 1..3);
        assert!(looking(0, 0..2).is_empty());
        assert!(looking(2, 4..5).is_empty());
    }
}
