//! AP90-S-like subsets: the union of the BM25 top k documents of q query documents.
//!
//! The SL+ST paper (section 3.1) built its AP90-S set so: pick 6 documents of AP90, run each as a
//! query against AP90 with Terrier, take the top 150 of each result list, and keep the union,
//! dropping repeated document ids. [`sample`] does the same on any corpus, with BM25 standing in
//! for Terrier:
//!
//! 1. every document is indexed in memory, with an [`Analyzer`] (default [`Analyzer::English`]:
//!    lowercase, stop words removed, Snowball stemming);
//! 2. the query documents are [`SampleConfig::query_ids`], or else
//!    [`SampleConfig::queries`] documents with at least [`SampleConfig::min_query_sentences`]
//!    sentences drawn at random with [`SampleConfig::seed`] (ChaCha8, stream 0; in draw order);
//! 3. a query is the query document's text, analysed like the index: one `SHOULD` clause per
//!    distinct term, boosted by the term's count in the query document (as repeated query words
//!    add up in Lucene), scored by BM25 (k1 = 1.2, b = 0.75, document lengths stored in one
//!    byte);
//! 4. **ties**: documents are ranked by score, highest first, and documents with the same score
//!    by their position in the corpus as read, earliest first; all documents tied with the k-th
//!    score are collected before the list is cut at k, so the cut is exact;
//! 5. the subset is the query lists concatenated in query order, each document at its first
//!    appearance.
//!
//! Earlier versions of slst indexed and searched with tantivy 0.27. The index and search are now
//! slst's own (the `bm25` and `analyzer` modules), written to give tantivy 0.27's scores to the
//! last bit, so that every manifest made with tantivy rebuilds unchanged: the same terms, the same
//! one-byte document lengths, the same `f32` arithmetic, and the same Block-Max WAND search,
//! whose order of adding term scores shows in the last bits of a score.
//!
//! A [`Manifest`] records what is needed to build the subset again bit for bit (sources, reader
//! settings, a fingerprint of the corpus read, query ids, seed, k, analyzer, the scoring version,
//! each query's ranked list and the selected ids) and what came out (a hash of the subset file);
//! [`Manifest::differences`] compares a rebuild with it.
//!
//! Nothing is parallel or hashed in an order that varies: the same corpus and settings give the
//! same scores and the same subset on any machine (up to the platform's `f32` logarithm, used in
//! the idf).

mod analyzer;
mod bm25;
mod manifest;
mod retrieval;

use serde::{Deserialize, Serialize};

use crate::document::Document;
use crate::error::{Error, Result};
use crate::synth::rng::SeededRng;
pub use analyzer::Analyzer;
pub use manifest::{
    CorpusRecord, MANIFEST_FORMAT, Manifest, OutputRecord, ReaderSettings, RetrievalRecord,
};
use retrieval::Retriever;
pub use retrieval::{BM25_B, BM25_K1, Hit};

/// Settings of [`sample`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampleConfig {
    /// How many query documents to draw when [`query_ids`](Self::query_ids) is empty.
    pub queries: usize,
    /// k: documents kept from each query's ranked list.
    pub top: usize,
    /// The query documents, by id; empty: draw them at random.
    pub query_ids: Vec<String>,
    /// The seed of the random draw of query documents.
    pub seed: u64,
    /// Documents with fewer sentences are never drawn as queries.
    pub min_query_sentences: usize,
    /// How text becomes index terms.
    pub analyzer: Analyzer,
}

impl Default for SampleConfig {
    fn default() -> Self {
        SampleConfig {
            queries: 6,
            top: 150,
            query_ids: Vec::new(),
            seed: 0,
            min_query_sentences: 3,
            analyzer: Analyzer::English,
        }
    }
}

/// One query and its ranked list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryResult {
    /// The query document's id.
    pub query_id: String,
    /// Distinct index terms of the query.
    pub terms: usize,
    /// Where the query document itself ranks in its own list (1 = first); `None` when it is not
    /// in the top k.
    pub self_rank: Option<usize>,
    /// The top k, best first.
    pub hits: Vec<Hit>,
}

/// The result of [`sample`].
#[derive(Debug, Clone, PartialEq)]
pub struct Subset {
    /// The selected documents, in selection order.
    pub documents: Vec<Document>,
    /// The queries, in order, with their lists.
    pub queries: Vec<QueryResult>,
    /// What was read.
    pub corpus: CorpusRecord,
}

impl Subset {
    /// The subset as TREC SGML (see [`write_trec`](crate::corpus::write_trec)).
    pub fn to_trec(&self) -> Vec<u8> {
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = crate::corpus::write_trec(&mut out, &self.documents);
        out
    }

    /// The ids of the selected documents, in order.
    pub fn selected_ids(&self) -> Vec<String> {
        self.documents.iter().map(|d| d.id.clone()).collect()
    }
}

/// Build an AP90-S-like subset of `docs` (see the [module docs](self)). Of documents that share
/// an id only the first is indexed.
///
/// # Errors
/// [`Error::InvalidParameter`] for a query id that is not in the corpus (or given twice), or
/// when fewer documents than [`SampleConfig::queries`] can be drawn.
///
/// # Example
/// ```
/// use slst::Document;
/// use slst::sample::{SampleConfig, sample};
/// let docs = vec![
///     Document::new("a", "Oil prices rose. Crude oil futures rallied. Oil traders cheered."),
///     Document::new("b", "Wheat harvest was late. Farmers waited for rain."),
///     Document::new("c", "Oil output fell in the gulf. Prices of crude went up."),
/// ];
/// let config = SampleConfig { top: 2, query_ids: vec!["a".into()], ..SampleConfig::default() };
/// let subset = sample(docs, &config)?;
/// assert_eq!(subset.selected_ids(), ["a", "c"]);
/// assert_eq!(subset.queries[0].self_rank, Some(1));
/// # Ok::<(), slst::Error>(())
/// ```
pub fn sample(docs: Vec<Document>, config: &SampleConfig) -> Result<Subset> {
    let corpus = CorpusRecord::of(&docs);
    let (docs, duplicates) = crate::synth::first_of_each_id(docs);
    let corpus = CorpusRecord {
        duplicate_ids: duplicates,
        ..corpus
    };
    if config.top == 0 {
        return Err(Error::InvalidParameter {
            name: "sample.top",
            value: "0".into(),
            expected: "at least 1",
        });
    }
    let queries = choose_queries(&docs, config)?;
    let retriever = Retriever::new(&docs, config.analyzer);
    let mut results = Vec::with_capacity(queries.len());
    let mut taken = vec![false; docs.len()];
    let mut selected = Vec::new();
    for &q in &queries {
        let ranked = retriever.top(&docs[q].text, config.top);
        let self_rank = ranked.iter().position(|&(p, _)| p == q).map(|r| r + 1);
        for &(p, _) in &ranked {
            if !std::mem::replace(&mut taken[p], true) {
                selected.push(p);
            }
        }
        results.push(QueryResult {
            query_id: docs[q].id.clone(),
            terms: retriever.terms(&docs[q].text).len(),
            self_rank,
            hits: ranked
                .iter()
                .map(|&(p, score)| Hit {
                    id: docs[p].id.clone(),
                    score,
                })
                .collect(),
        });
    }
    Ok(Subset {
        documents: selected.into_iter().map(|p| docs[p].clone()).collect(),
        queries: results,
        corpus,
    })
}

/// The positions of the query documents, in query order.
fn choose_queries(docs: &[Document], config: &SampleConfig) -> Result<Vec<usize>> {
    if !config.query_ids.is_empty() {
        let mut out: Vec<usize> = Vec::with_capacity(config.query_ids.len());
        for id in &config.query_ids {
            let p =
                docs.iter()
                    .position(|d| &d.id == id)
                    .ok_or_else(|| Error::InvalidParameter {
                        name: "sample.query_ids",
                        value: id.clone(),
                        expected: "ids of documents in the sources",
                    })?;
            if out.contains(&p) {
                return Err(Error::InvalidParameter {
                    name: "sample.query_ids",
                    value: id.clone(),
                    expected: "each id once",
                });
            }
            out.push(p);
        }
        return Ok(out);
    }
    let candidates: Vec<usize> = (0..docs.len())
        .filter(|&i| {
            crate::text::split_sentences(&docs[i].text).len() >= config.min_query_sentences
        })
        .collect();
    if candidates.len() < config.queries || config.queries == 0 {
        return Err(Error::InvalidParameter {
            name: "sample.queries",
            value: format!(
                "{} ({} documents have at least {} sentences)",
                config.queries,
                candidates.len(),
                config.min_query_sentences
            ),
            expected: "at least 1 and at most the documents with min_query_sentences sentences",
        });
    }
    let mut rng = SeededRng::new(config.seed, 0);
    Ok(rng
        .choose(candidates.len(), config.queries)
        .into_iter()
        .map(|k| candidates[k])
        .collect())
}

#[cfg(test)]
mod tests;
