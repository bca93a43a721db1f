//! BM25 top-k retrieval in memory, reproducing tantivy 0.27's scores bit for bit.
//!
//! The scores are those of a RAM index of tantivy 0.27 (one segment, term frequencies, no
//! positions) searched with a boolean query of one `SHOULD` term query per distinct query term,
//! each boosted by the term's count in the query document, collected by
//! `TopDocs::with_limit(k).order_by_score()`: the same job in a few hundred lines.
//!
//! **Why in-house rather than a lighter crate.** The job is not "BM25" but "tantivy 0.27's BM25
//! scores, to the last bit": recorded manifests hold every score of every ranked list, and a
//! rebuild compares them exactly. The BM25 crates (`bm25`, `bm25-turbo`, `rank-bm25`, …) each
//! have their own tokenizer, exact document lengths and their own order of floating-point
//! operations; none stores lengths in tantivy's one-byte code or adds term scores in the order
//! tantivy's Block-Max WAND does (below), so each would change the last bits of some scores and
//! fail those rebuilds. What has to be reproduced is small and fixed, so it is written here,
//! from tantivy's behaviour, and pinned by tests.
//!
//! What is reproduced:
//!
//! - **document length**: the number of terms the analyzer gives, stored in one byte
//!   ([`fieldnorm_id`], the table of [`FIELDNORMS`]: exact up to 40, then four significant bits)
//!   and read back as the table's value ([`fieldnorm`]) when scoring;
//! - **average length**: total terms (exact) / documents, in `f32`;
//! - **idf** = ln(1 + (N − n + 0.5) / (n + 0.5)), in `f32` ([`idf`]);
//! - **term score** = `idf · (1 + k1) · boost · tf / (tf + k1 · (1 − b + b · dl / avgdl))` with
//!   k1 = 1.2, b = 0.75, evaluated in exactly tantivy's order of `f32` operations (the weight
//!   `idf · 2.2`, times the boost, times the tf factor; the length factor from a 256-entry table);
//! - **the sum over terms**: tantivy finds the top k of a disjunction of term queries with
//!   Block-Max WAND, which adds the scores of the terms of a document in the order its cursors
//!   happen to be in when the document is scored. `f32` addition is not associative, so that
//!   order shows in the last bits, and it depends on the pruning, hence on k and on the posting
//!   lists' blocks of 128 documents with their stored block maxima. [`Index::top`] therefore
//!   runs the same algorithm over the same blocks, with the same cursor moves, the same
//!   shallow block seeks, the same ordering of cursors and the same top-k heap (ties: the
//!   earlier document wins), so that each document is scored with the same additions. A query
//!   of a single term is scored exhaustively, as tantivy does with a lone clause.
//!
//! Documents are numbered by their position in the corpus (tantivy's doc ids, with one indexing
//! thread and one segment).
//!
//! Before tantivy was removed, this module was compared with it on Reuters-21578 (as the shipped
//! manifest reads it): every one of the 21,578 documents as a query at k = 150, every tenth at
//! k = 1, 2, 10, 40, 1000 and 5000, short queries, queries with unknown terms, two documents
//! joined as one query, and every fifth document with [`Analyzer::Plain`]; all ranked lists and
//! all scores were identical to the bit. The tests keep digests of lists tantivy computed on the
//! King James chapters, and the shipped Reuters manifest rebuilds.

mod wand;

use std::cmp::Ordering;
use std::collections::HashMap;

use self::wand::{Cursor, TopHeap, block_max_wand};
use super::analyzer::Analyzer;

/// BM25's k1.
pub(crate) const K1: f32 = 1.2;
/// BM25's b.
pub(crate) const B: f32 = 0.75;

/// Documents per block of a posting list (each full block records its largest score factor).
const BLOCK: usize = 128;
/// The doc id past the end of a posting list.
const TERMINATED: u32 = i32::MAX as u32;
/// A block's best term frequency is stored in one byte: this value or more reads back as
/// `u32::MAX`.
const BLOCK_TF_CAP: u32 = u8::MAX as u32;

/// The document lengths that the 256 length codes stand for (Lucene's `SmallFloat` byte4
/// encoding, with lengths 0 to 23 exact): code `c` below 24 is `c`; above, with `e = c − 24`,
/// it is 24 + `e` if `e < 8`, else 24 + ((8 | (e & 7)) << ((e >> 3) − 1)).
pub(crate) const FIELDNORMS: [u32; 256] = fieldnorm_table();

const fn fieldnorm_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut code = 0;
    while code < 256 {
        table[code] = if code < 24 {
            code as u32
        } else {
            let e = (code - 24) as u32;
            let shift = e >> 3;
            let mantissa = if shift == 0 {
                e & 7
            } else {
                (8 | (e & 7)) << (shift - 1)
            };
            24 + mantissa
        };
        code += 1;
    }
    table
}

/// The one-byte code of a document of `len` terms: the largest code whose length is at most
/// `len`.
pub(crate) fn fieldnorm_id(len: u32) -> u8 {
    match FIELDNORMS.binary_search(&len) {
        Ok(code) => code as u8,
        Err(next) => (next - 1) as u8,
    }
}

/// The length a code stands for.
pub(crate) fn fieldnorm(code: u8) -> u32 {
    FIELDNORMS[code as usize]
}

/// BM25's idf of a term in `doc_freq` of `doc_count` documents, in `f32`.
pub(crate) fn idf(doc_freq: u64, doc_count: u64) -> f32 {
    let x = ((doc_count - doc_freq) as f32 + 0.5) / (doc_freq as f32 + 0.5);
    (1.0 + x).ln()
}

/// The length part of BM25's denominator for each length code: k1 · (1 − b + b · dl / avgdl).
fn length_factors(average_length: f32) -> [f32; 256] {
    let mut factors = [0.0; 256];
    for (code, factor) in factors.iter_mut().enumerate() {
        *factor = K1 * (1.0 - B + B * fieldnorm(code as u8) as f32 / average_length);
    }
    factors
}

/// tf / (tf + the length factor).
fn tf_factor(factors: &[f32; 256], code: u8, tf: u32) -> f32 {
    let tf = tf as f32;
    tf / (tf + factors[code as usize])
}

/// One term's weight in a query: idf · (1 + k1) · boost.
#[derive(Clone, Copy)]
struct Weight<'a> {
    weight: f32,
    factors: &'a [f32; 256],
}

impl Weight<'_> {
    fn score(&self, code: u8, tf: u32) -> f32 {
        self.weight * tf_factor(self.factors, code, tf)
    }

    /// An upper bound on any score of the term (the longest length code, a huge tf).
    fn max_score(&self) -> f32 {
        self.score(u8::MAX, FIELDNORMS[255])
    }
}

/// What a full block of a posting list records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct BlockMax {
    /// Its last document.
    last_doc: u32,
    /// The length code and term frequency of its best document (largest tf factor; the last
    /// of equals), the frequency capped as stored.
    code: u8,
    tf: u32,
}

/// The documents holding one term, with the term's frequency in each.
#[derive(Debug, Default)]
struct Postings {
    docs: Vec<u32>,
    tfs: Vec<u32>,
    /// One per full block of [`BLOCK`] documents; the rest form a last, partial block.
    blocks: Vec<BlockMax>,
}

/// An in-memory BM25 index of a corpus.
pub(crate) struct Index {
    analyzer: Analyzer,
    terms: HashMap<String, u32>,
    postings: Vec<Postings>,
    /// Each document's length code.
    codes: Vec<u8>,
    /// The length factor of each length code.
    factors: [f32; 256],
}

impl Index {
    /// Index `texts`, numbered by position.
    pub fn new<'a>(texts: impl IntoIterator<Item = &'a str>, analyzer: Analyzer) -> Self {
        let mut terms: HashMap<String, u32> = HashMap::new();
        let mut postings: Vec<Postings> = Vec::new();
        let mut codes = Vec::new();
        let mut total_terms = 0u64;
        let mut ids = Vec::new();
        for (doc, text) in texts.into_iter().enumerate() {
            let doc = doc as u32;
            ids.clear();
            analyzer.for_each_term(text, |t| {
                let id = match terms.get(t) {
                    Some(&id) => id,
                    None => {
                        let id = postings.len() as u32;
                        terms.insert(t.to_string(), id);
                        postings.push(Postings::default());
                        id
                    }
                };
                ids.push(id);
            });
            total_terms += ids.len() as u64;
            codes.push(fieldnorm_id(u32::try_from(ids.len()).unwrap_or(u32::MAX)));
            ids.sort_unstable();
            for run in ids.chunk_by(|a, b| a == b) {
                let p = &mut postings[run[0] as usize];
                p.docs.push(doc);
                p.tfs.push(run.len() as u32);
            }
        }
        let average_length = total_terms as f32 / codes.len() as f32;
        let factors = length_factors(average_length);
        for p in &mut postings {
            p.blocks = p
                .docs
                .chunks_exact(BLOCK)
                .zip(p.tfs.chunks_exact(BLOCK))
                .map(|(docs, tfs)| {
                    let (code, tf) = docs
                        .iter()
                        .zip(tfs)
                        .map(|(&d, &tf)| (codes[d as usize], tf))
                        .max_by(|a, b| {
                            tf_factor(&factors, a.0, a.1)
                                .partial_cmp(&tf_factor(&factors, b.0, b.1))
                                .unwrap_or(Ordering::Equal)
                        })
                        .unwrap_or((0, 0));
                    BlockMax {
                        last_doc: docs[BLOCK - 1],
                        code,
                        tf: if tf >= BLOCK_TF_CAP { u32::MAX } else { tf },
                    }
                })
                .collect();
        }
        Index {
            analyzer,
            terms,
            postings,
            codes,
            factors,
        }
    }

    /// Documents indexed.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// The `k` best documents for `query` (distinct terms in term order, each with its boost),
    /// as (position, score), best first; ties in score go to the earlier position.
    ///
    /// The scores are those slst reported with tantivy 0.27: it asked tantivy for the top k,
    /// then for twice as many until the last one collected scored below the k-th (so that the
    /// cut did not depend on tantivy's order of tied documents), and kept the scores of the last
    /// search. With several terms the scores depend on how many documents are asked for (see the
    /// [module docs](self)), so the same searches are run here.
    pub fn top(&self, query: &[(String, u32)], k: usize) -> Vec<(u32, f32)> {
        let cursors = || -> Vec<Cursor> {
            query
                .iter()
                .filter_map(|(term, boost)| {
                    let p = &self.postings[*self.terms.get(term)? as usize];
                    let idf = idf(p.docs.len() as u64, self.len() as u64);
                    let weight = Weight {
                        weight: idf * (1.0 + K1) * *boost as f32,
                        factors: &self.factors,
                    };
                    Some(Cursor::new(p, &self.codes, weight))
                })
                .collect()
        };
        let by_score = |a: &(u32, f32), b: &(u32, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
        let mut first = cursors();
        if k == 0 || first.is_empty() {
            return Vec::new();
        }
        let mut found = if query.len() == 1 || first.len() == 1 {
            // One clause, or one term in the index: every document of the term, scored alone
            // (the scores do not depend on k).
            let c = &mut first[0];
            let mut all = Vec::with_capacity(c.p.docs.len());
            while c.doc != TERMINATED {
                all.push((c.doc, c.score()));
                c.advance();
            }
            all
        } else {
            let mut limit = k;
            let mut run = first;
            loop {
                let mut heap = TopHeap::new(limit);
                block_max_wand(run, &mut |doc, score| heap.push(score, doc));
                let mut found = heap.into_vec();
                found.sort_by(by_score);
                if found.len() < limit || found[limit - 1].1 < found[k - 1].1 {
                    break found;
                }
                limit *= 2;
                run = cursors();
            }
        };
        found.sort_by(by_score);
        found.truncate(k);
        found
    }

    /// The analyzer.
    pub fn analyzer(&self) -> Analyzer {
        self.analyzer
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(texts: &[&str]) -> Index {
        Index::new(texts.iter().copied(), Analyzer::Plain)
    }

    fn query(terms: &[(&str, u32)]) -> Vec<(String, u32)> {
        terms.iter().map(|&(t, n)| (t.to_string(), n)).collect()
    }

    #[test]
    fn fieldnorm_table_is_exact_to_40_then_four_significant_bits() {
        assert!((0..=40).all(|n| FIELDNORMS[n as usize] == n));
        assert_eq!(
            &FIELDNORMS[40..=50],
            &[40, 42, 44, 46, 48, 50, 52, 54, 56, 60, 64]
        );
        assert_eq!(FIELDNORMS[56], 88);
        assert_eq!(FIELDNORMS[57], 96);
        assert_eq!(FIELDNORMS[255], 2_013_265_944);
        assert!(FIELDNORMS.is_sorted());
    }

    #[test]
    fn fieldnorm_round_trip_rounds_down() {
        for code in 0..=255u8 {
            assert_eq!(fieldnorm_id(fieldnorm(code)), code);
        }
        assert_eq!(fieldnorm_id(41), 40);
        assert_eq!(fieldnorm_id(42), 41);
        assert_eq!(fieldnorm_id(59), 48);
        assert_eq!(fieldnorm(fieldnorm_id(59)), 56);
        assert_eq!(fieldnorm(fieldnorm_id(100)), 96);
        assert_eq!(fieldnorm_id(u32::MAX), 255);
        for len in [0, 7, 41, 95, 1_000, 123_456, 3_000_000_000] {
            let code = fieldnorm_id(len);
            assert!(fieldnorm(code) <= len);
            assert!(code == 255 || fieldnorm(code + 1) > len);
        }
    }

    #[test]
    fn idf_by_hand() {
        // ln(1 + (2 − 1 + 0.5) / (1 + 0.5)) = ln 2
        assert!((idf(1, 2) - std::f32::consts::LN_2).abs() < 1e-7);
        // ln(1 + 2.5 / 1.5) = ln(8/3)
        assert!((idf(1, 3) - (8.0f32 / 3.0).ln()).abs() < 1e-6);
        // A term in every document still weighs a little: ln(1 + 0.5 / 3.5).
        assert!((idf(3, 3) - (1.0f32 + 1.0 / 7.0).ln()).abs() < 1e-7);
    }

    #[test]
    fn tf_normalisation_by_hand() {
        // 6 terms in 3 documents: avgdl = 2.
        let ix = index(&["a b", "a", "c c c"]);
        let factor = |dl: u32| ix.factors[fieldnorm_id(dl) as usize];
        // k1 · (1 − b + b · dl / avgdl): 1.2 at the average length, 0.75 at half of it.
        assert_eq!(factor(2), 1.2);
        assert_eq!(factor(1), 0.75);
        assert!((factor(3) - 1.65).abs() < 1e-6);
        // "a" (n = 2 of N = 3) in the document of average length, tf 1:
        // idf · 2.2 · 1 / (1 + 1.2) = idf = ln 1.6.
        let hits = ix.top(&query(&[("a", 1)]), 10);
        let ln16 = 1.6f32.ln();
        assert_eq!(hits[0].0, 1);
        assert!((hits[0].1 - ln16 * 2.2 / 1.75).abs() < 1e-6);
        assert_eq!(hits[1].0, 0);
        assert!((hits[1].1 - ln16).abs() < 1e-6);
        // "c": tf 3 in a document of 3 terms: ln(8/3) · 2.2 · 3 / (3 + 1.65).
        let hits = ix.top(&query(&[("c", 1)]), 10);
        let want = (8.0f32 / 3.0).ln() * 2.2 * 3.0 / 4.65;
        assert_eq!(hits.len(), 1);
        assert!((hits[0].1 - want).abs() < 1e-6, "{hits:?}");
        // A boost multiplies the score.
        let boosted = ix.top(&query(&[("c", 3)]), 10);
        assert!((boosted[0].1 - 3.0 * want).abs() < 1e-5);
    }

    #[test]
    fn terms_add_up_and_unknown_terms_are_ignored() {
        let ix = index(&["a b", "a", "c c c"]);
        let a = ix.top(&query(&[("a", 1)]), 10);
        let b = ix.top(&query(&[("b", 1)]), 10);
        let both = ix.top(&query(&[("a", 1), ("b", 1), ("zz", 4)]), 10);
        assert_eq!(both.len(), 2);
        assert_eq!(both[0].0, 0);
        assert!((both[0].1 - (a[1].1 + b[0].1)).abs() < 1e-6);
        assert!(ix.top(&query(&[("zz", 1)]), 10).is_empty());
        assert!(ix.top(&query(&[]), 10).is_empty());
        assert!(ix.top(&query(&[("a", 1)]), 0).is_empty());
    }

    #[test]
    fn ties_go_to_the_earlier_document_and_the_cut_is_exact() {
        let ix = index(&["x y", "q r", "x y", "y x", "x y", "x z"]);
        for q in [query(&[("x", 1)]), query(&[("x", 1), ("y", 1)])] {
            let hits = ix.top(&q, 2);
            assert_eq!(
                hits.iter().map(|h| h.0).collect::<Vec<_>>(),
                [0, 2],
                "{q:?}"
            );
            let hits = ix.top(&q, 4);
            assert_eq!(hits.iter().map(|h| h.0).collect::<Vec<_>>(), [0, 2, 3, 4]);
            assert!(hits.windows(2).all(|w| w[0].1 == w[1].1));
        }
    }

    /// A corpus where the common terms fill several blocks of 128 documents.
    fn synthetic(docs: usize) -> Vec<String> {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..docs)
            .map(|_| {
                let len = 3 + next() % 60;
                (0..len)
                    .map(|_| {
                        // Term t with chance about 1 / (t + 1)²: a few very common terms.
                        let r = (next() % 10_000) as f64 / 10_000.0;
                        format!("t{}", (1.0 / (1.0 - r * 0.9999)).sqrt() as u32)
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    }

    #[test]
    fn block_max_wand_finds_the_exhaustive_top_k() {
        let texts = synthetic(3_000);
        let ix = Index::new(texts.iter().map(String::as_str), Analyzer::Plain);
        assert!(ix.postings.iter().any(|p| p.blocks.len() > 10));
        for (qi, q) in texts.iter().step_by(37).enumerate() {
            let q: Vec<(String, u32)> = Analyzer::Plain.term_counts(q).into_iter().collect();
            // Exhaustive: every document's score, summed in query-term order.
            let mut all = vec![0.0f32; ix.len()];
            for (term, boost) in &q {
                let one = ix.top(&[(term.clone(), *boost)], ix.len());
                for (doc, s) in one {
                    all[doc as usize] += s;
                }
            }
            let mut want: Vec<(u32, f32)> = (0..ix.len() as u32)
                .map(|d| (d, all[d as usize]))
                .filter(|h| h.1 > 0.0)
                .collect();
            want.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            for k in [1, 5, 40, 300] {
                let got = ix.top(&q, k);
                assert_eq!(got.len(), k.min(want.len()), "query {qi}, k {k}");
                for (g, w) in got.iter().zip(&want) {
                    // The same documents, up to the order of additions (near ties may swap).
                    assert!(
                        (g.1 - w.1).abs() <= 1e-4 * w.1,
                        "query {qi}, k {k}: {g:?} {w:?}"
                    );
                    assert!((all[g.0 as usize] - g.1).abs() <= 1e-4 * g.1);
                }
                assert!(got.windows(2).all(|w| w[0].1 >= w[1].1));
            }
        }
    }
}
