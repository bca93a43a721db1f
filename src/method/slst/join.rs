//! SL+ST's own corpus join: documents with identical profiles grouped, then one generalized
//! suffix array over the groups' block-key strings, which yields exactly the pairs that can have
//! a verified block. Runs shared by more than `max_df` profiles are boilerplate: reported, and no
//! pair comes from them alone.

use std::collections::HashMap;

use crate::matcher::{GeneralizedSuffixArray, Libsais};

use super::SlstSketch;
use crate::method::{BoilerplateBlock, CandidateSet, CandidateSource, Groups};

/// Group documents with identical profiles (same length and leading terms, sentence by
/// sentence). Returns the groups and the representatives (earliest member of each group, and
/// every ungrouped document with at least one sentence), ascending.
fn exact_groups(corpus: &[&SlstSketch]) -> (Groups, Vec<usize>) {
    let mut groups = Groups::new(corpus.len());
    let mut by_hash: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut representatives = Vec::new();
    for (i, doc) in corpus.iter().enumerate() {
        if doc.keys.is_empty() {
            continue;
        }
        let bytes: Vec<u8> = doc.keys.iter().flat_map(|k| k.to_le_bytes()).collect();
        let hash = xxhash_rust::xxh3::xxh3_64(&bytes);
        let same = |j: usize| {
            let (p, q) = (&corpus[j].profile.sentences, &doc.profile.sentences);
            p.len() == q.len()
                && p.iter()
                    .zip(q)
                    .all(|(x, y)| x.length == y.length && x.leading == y.leading)
        };
        let bucket = by_hash.entry(hash).or_default();
        match bucket.iter().copied().find(|&j| same(j)) {
            Some(rep) => match groups.group_of[rep] {
                Some(g) => {
                    groups.groups[g as usize].push(i);
                    groups.group_of[i] = Some(g);
                }
                None => {
                    let g = groups.groups.len() as u32;
                    groups.groups.push(vec![rep, i]);
                    groups.group_of[rep] = Some(g);
                    groups.group_of[i] = Some(g);
                }
            },
            None => {
                bucket.push(i);
                representatives.push(i);
            }
        }
    }
    (groups, representatives)
}

/// Step 2: every pair of representatives that shares a run of at least `min_block` block keys
/// that is not boilerplate.
///
/// A pair of documents has a verified block exactly when their fused (length, leading terms)
/// strings share a run of `min_block` symbols, i.e. when two of their suffixes fall into one
/// range of the suffix array with LCP ≥ `min_block`. A range holding more than `max_df`
/// distinct profiles is boilerplate: reported, and no pair is emitted from it. Within other
/// ranges a pair is emitted only where its two suffixes are preceded by different symbols (or
/// the run one to the left is boilerplate), which keeps emission near the number of distinct
/// shared runs instead of their total length.
pub fn suffix_array_candidates(
    corpus: &[&SlstSketch],
    min_block: usize,
    max_df: usize,
) -> CandidateSet {
    let (groups, reps) = exact_groups(corpus);
    let strings: Vec<&[u64]> = reps.iter().map(|&r| corpus[r].keys.as_slice()).collect();
    let gsa = GeneralizedSuffixArray::build(&strings, &Libsais);
    let k = min_block.max(1);
    // Pass 1: which k-symbol runs are boilerplate (held by more than `max_df` profiles). A
    // position is marked when the run starting there is one.
    let mut boilerplate_at = vec![false; gsa.index().sa.len()];
    let mut boilerplate = Vec::new();
    let mut docs_seen: Vec<u32> = Vec::new();
    for range in gsa.shared_prefix_ranges(k) {
        if range.len() <= max_df {
            continue; // cannot hold more than max_df documents
        }
        docs_seen.clear();
        let mut earliest = (usize::MAX, 0);
        for rank in range.clone() {
            let (doc, offset) = gsa.locate(gsa.suffix_at(rank));
            earliest = earliest.min((doc, offset));
            docs_seen.push(doc as u32);
        }
        docs_seen.sort_unstable();
        docs_seen.dedup();
        if docs_seen.len() > max_df {
            for rank in range {
                boilerplate_at[gsa.suffix_at(rank)] = true;
            }
            boilerplate.push(BoilerplateBlock {
                document: reps[earliest.0],
                sentence: earliest.1,
                len: k,
                documents: docs_seen.len(),
            });
        }
    }
    // Pass 2: emit pairs. Two suffixes preceded by the same symbol also meet one position to the
    // left, in the range of the run that starts there, and are emitted there — unless that run is
    // boilerplate, in which case they are emitted here. So a pair is emitted exactly when it
    // shares a run of k symbols that is not boilerplate.
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    // (representative number, preceding symbol or a unique stand-in) of each suffix in a range.
    let mut entries: Vec<(u32, i64)> = Vec::new();
    // Per distinct document of a range: its preceding symbol if it has exactly one.
    let mut docs: Vec<(u32, Option<i64>)> = Vec::new();
    for range in gsa.shared_prefix_ranges(k) {
        if boilerplate_at[gsa.suffix_at(range.start)] {
            continue;
        }
        entries.clear();
        for rank in range {
            let pos = gsa.suffix_at(rank);
            let left = if pos > 0 && boilerplate_at[pos - 1] {
                -2 - pos as i64 // unique: never equal to another suffix's
            } else {
                i64::from(gsa.preceding_symbol(pos))
            };
            entries.push((gsa.locate(pos).0 as u32, left));
        }
        entries.sort_unstable();
        entries.dedup();
        docs.clear();
        for &(d, left) in &entries {
            match docs.last_mut() {
                Some((last, single)) if *last == d => *single = None,
                _ => docs.push((d, Some(left))),
            }
        }
        for (i, &(x, sx)) in docs.iter().enumerate() {
            for &(y, sy) in &docs[i + 1..] {
                if sx.is_none() || sx != sy {
                    pairs.push((x, y));
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    CandidateSet {
        pairs: pairs
            .into_iter()
            .map(|(x, y)| (reps[x as usize], reps[y as usize]))
            .collect(),
        groups,
        boilerplate,
        capped_keys: 0,
        source: CandidateSource::SuffixArray,
    }
}
