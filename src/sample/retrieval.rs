//! BM25 retrieval with tantivy: an in-RAM index of the corpus, and the top k documents for a
//! query document.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tantivy::collector::TopDocs;
use tantivy::columnar::Column;
use tantivy::indexer::NoMergePolicy;
use tantivy::query::{BooleanQuery, BoostQuery, Occur, Query, TermQuery};
use tantivy::schema::{FAST, Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions};
use tantivy::tokenizer::{
    Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer, StopWordFilter, TextAnalyzer,
};
use tantivy::{Index, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, Term};

use crate::document::Document;
use crate::error::{Error, Result};

/// How text becomes index terms (the same for documents and queries).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Analyzer {
    /// tantivy's `SimpleTokenizer` (runs of letters and digits), tokens over 40 bytes dropped,
    /// lowercase, tantivy's English stop words (Lucene's 33), Snowball English stemmer: close to
    /// Terrier's default pipeline (stop words and Porter stemming) that built AP90-S.
    #[default]
    English,
    /// tantivy's `default` analyzer: `SimpleTokenizer`, tokens over 40 bytes dropped, lowercase.
    Plain,
}

impl Analyzer {
    /// The name used on the command line and in manifests.
    pub fn name(self) -> &'static str {
        match self {
            Analyzer::English => "english",
            Analyzer::Plain => "plain",
        }
    }

    /// What the analyzer does, in words, for the manifest.
    pub fn description(self) -> &'static str {
        match self {
            Analyzer::English => {
                "tantivy SimpleTokenizer (runs of alphanumeric characters) → RemoveLongFilter(40 bytes) → LowerCaser → StopWordFilter(English: Lucene's 33 words) → Stemmer(English, Snowball)"
            }
            Analyzer::Plain => {
                "tantivy SimpleTokenizer (runs of alphanumeric characters) → RemoveLongFilter(40 bytes) → LowerCaser"
            }
        }
    }

    fn build(self) -> TextAnalyzer {
        let base = TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(RemoveLongFilter::limit(40))
            .filter(LowerCaser);
        match self {
            Analyzer::Plain => base.build(),
            Analyzer::English => {
                let stop = StopWordFilter::new(Language::English)
                    .unwrap_or_else(|| StopWordFilter::remove(Vec::new()));
                base.filter(stop)
                    .filter(Stemmer::new(Language::English))
                    .build()
            }
        }
    }
}

/// One retrieved document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    /// The document's id.
    pub id: String,
    /// Its BM25 score for the query.
    pub score: f32,
}

/// The BM25 parameters of tantivy's scorer (fixed in tantivy, recorded in manifests).
pub const BM25_K1: f32 = 1.2;
/// See [`BM25_K1`].
pub const BM25_B: f32 = 0.75;

fn index_error(e: tantivy::TantivyError) -> Error {
    Error::Index {
        detail: e.to_string(),
    }
}

/// An in-RAM tantivy index of a corpus; documents are known by their position in it.
pub(crate) struct Retriever {
    index: Index,
    searcher: Searcher,
    body: Field,
    /// Per segment: the column giving each document's position in the corpus.
    positions: Vec<Column<u64>>,
}

impl Retriever {
    /// Index `docs` with one indexing thread and no merges.
    pub fn new(docs: &[Document], analyzer: Analyzer) -> Result<Self> {
        Self::build(docs, analyzer).map_err(index_error)
    }

    fn build(docs: &[Document], analyzer: Analyzer) -> tantivy::Result<Self> {
        let mut schema = Schema::builder();
        let indexing = TextFieldIndexing::default()
            .set_tokenizer("slst")
            .set_index_option(IndexRecordOption::WithFreqs);
        let body = schema.add_text_field(
            "body",
            TextOptions::default().set_indexing_options(indexing),
        );
        let position = schema.add_u64_field("position", FAST);
        let index = Index::create_in_ram(schema.build());
        index.tokenizers().register("slst", analyzer.build());
        let mut writer: IndexWriter<TantivyDocument> =
            index.writer_with_num_threads(1, 512 << 20)?;
        writer.set_merge_policy(Box::new(NoMergePolicy));
        for (i, d) in docs.iter().enumerate() {
            let mut doc = TantivyDocument::default();
            doc.add_text(body, &d.text);
            doc.add_u64(position, i as u64);
            writer.add_document(doc)?;
        }
        writer.commit()?;
        writer.wait_merging_threads()?;
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let searcher = reader.searcher();
        let positions = searcher
            .segment_readers()
            .iter()
            .map(|s| s.fast_fields().u64("position"))
            .collect::<tantivy::Result<Vec<_>>>()?;
        Ok(Retriever {
            index,
            searcher,
            body,
            positions,
        })
    }

    /// The distinct terms of `text` with their counts, in term order.
    pub fn terms(&self, text: &str) -> Result<BTreeMap<String, u32>> {
        let mut analyzer = self
            .index
            .tokenizer_for_field(self.body)
            .map_err(index_error)?;
        let mut stream = analyzer.token_stream(text);
        let mut counts = BTreeMap::new();
        while stream.advance() {
            *counts.entry(stream.token().text.clone()).or_insert(0) += 1;
        }
        Ok(counts)
    }

    /// The `k` best documents for the query `text`, as (position, score), best first; ties in
    /// score go to the earlier position. Every document tied with the k-th score is collected
    /// before the cut (the limit doubles until the last collected score is below it), so the
    /// result does not depend on how tantivy orders tied documents.
    pub fn top(&self, text: &str, k: usize) -> Result<Vec<(usize, f32)>> {
        let terms = self.terms(text)?;
        if terms.is_empty() || k == 0 {
            return Ok(Vec::new());
        }
        let clauses: Vec<(Occur, Box<dyn Query>)> = terms
            .iter()
            .map(|(t, &count)| {
                let q = TermQuery::new(
                    Term::from_field_text(self.body, t),
                    IndexRecordOption::WithFreqs,
                );
                let q: Box<dyn Query> = Box::new(BoostQuery::new(Box::new(q), count as f32));
                (Occur::Should, q)
            })
            .collect();
        let query = BooleanQuery::new(clauses);
        let mut limit = k;
        let found = loop {
            let found = self
                .searcher
                .search(&query, &TopDocs::with_limit(limit).order_by_score())
                .map_err(index_error)?;
            let exhausted = found.len() < limit;
            if exhausted || found[limit - 1].0 < found[k - 1].0 {
                break found;
            }
            limit *= 2;
        };
        let mut ranked: Vec<(usize, f32)> = found
            .into_iter()
            .map(|(score, at)| {
                let column = &self.positions[at.segment_ord as usize];
                let position = column.first(at.doc_id).unwrap_or(u64::MAX) as usize;
                (position, score)
            })
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked.truncate(k);
        Ok(ranked)
    }
}
