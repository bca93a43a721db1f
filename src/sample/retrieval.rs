//! BM25 retrieval: an in-memory index of the corpus ([`bm25`]), and the top k
//! documents for a query document.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::analyzer::Analyzer;
use super::bm25;
use crate::document::Document;

/// One retrieved document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    /// The document's id.
    pub id: String,
    /// Its BM25 score for the query.
    pub score: f32,
}

/// BM25's k1 (tantivy's, whose scores slst reproduces; recorded in manifests).
pub const BM25_K1: f32 = bm25::K1;
/// BM25's b (see [`BM25_K1`]).
pub const BM25_B: f32 = bm25::B;

/// A BM25 index of a corpus; documents are known by their position in it.
pub(crate) struct Retriever {
    index: bm25::Index,
}

impl Retriever {
    /// Index `docs`.
    pub fn new(docs: &[Document], analyzer: Analyzer) -> Self {
        Retriever {
            index: bm25::Index::new(docs.iter().map(|d| d.text.as_str()), analyzer),
        }
    }

    /// The distinct terms of `text` with their counts, in term order.
    pub fn terms(&self, text: &str) -> BTreeMap<String, u32> {
        self.index.analyzer().term_counts(text)
    }

    /// The `k` best documents for the query `text`, as (position, score), best first; ties in
    /// score go to the earlier position. The query is one clause per distinct term of `text`,
    /// boosted by the term's count in `text` (as repeated query words add up in Lucene).
    pub fn top(&self, text: &str, k: usize) -> Vec<(usize, f32)> {
        let query: Vec<(String, u32)> = self.terms(text).into_iter().collect();
        self.index
            .top(&query, k)
            .into_iter()
            .map(|(doc, score)| (doc as usize, score))
            .collect()
    }
}
