//! The record of a sample: everything needed to build it again, and what came out.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::Xxh3;

use super::analyzer::Analyzer;
use super::retrieval::{BM25_B, BM25_K1};
use super::{QueryResult, SampleConfig, Subset};
use crate::corpus::jsonl::JsonlOptions;
use crate::corpus::sgml::{IdSource, SgmlOptions};
use crate::corpus::{FolderOptions, Format, SourceOptions};
use crate::document::Document;
use crate::error::{Error, Result};

/// The manifest format written by this version.
pub const MANIFEST_FORMAT: &str = "slst-sample-manifest/1";

/// The tantivy version (as tantivy named itself) whose BM25 scores slst reproduces, recorded in
/// [`Manifest::tantivy_version`].
const SCORES_VERSION: &str = "tantivy v0.27.0, index_format v7";

/// How the tie between equal BM25 scores is broken, as the manifest says it.
const TIES: &str = "ranked by score, highest first; equal scores by the document's position in the corpus as read, earliest first; every document tied with the k-th score is collected before the list is cut at k";

/// What was read: a fingerprint of the corpus, to tell whether a rebuild reads the same.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusRecord {
    /// Documents read (before repeated ids were dropped).
    pub documents: usize,
    /// Ids met again after their first document; the later documents were not indexed.
    pub duplicate_ids: Vec<String>,
    /// XXH3-64 (hex) of every document read, in order: id, a NUL byte, text, a NUL byte.
    pub xxh3_64: String,
}

impl CorpusRecord {
    /// The record of `docs`, as read (no repeated ids noted yet).
    pub fn of(docs: &[Document]) -> Self {
        let mut h = Xxh3::new();
        for d in docs {
            h.update(d.id.as_bytes());
            h.update(&[0]);
            h.update(d.text.as_bytes());
            h.update(&[0]);
        }
        CorpusRecord {
            documents: docs.len(),
            duplicate_ids: Vec::new(),
            xxh3_64: format!("{:016x}", h.digest()),
        }
    }
}

/// How the documents were scored and ranked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RetrievalRecord {
    /// The scoring function.
    pub scoring: String,
    /// BM25's k1.
    pub k1: f32,
    /// BM25's b.
    pub b: f32,
    /// The analyzer's name.
    pub analyzer: Analyzer,
    /// What the analyzer does.
    pub tokenizer: String,
    /// How a query document becomes a query.
    pub query: String,
    /// How ties are broken.
    pub ties: String,
}

/// The subset file written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputRecord {
    /// Its format.
    pub format: String,
    /// Documents in it.
    pub documents: usize,
    /// Its size in bytes.
    pub bytes: u64,
    /// XXH3-64 (hex) of its bytes.
    pub xxh3_64: String,
}

/// The reader settings of a sample, as data (see [`SourceOptions`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReaderSettings {
    /// `auto`, `text`, `trec`, `sgml` or `jsonl`.
    pub format: String,
    /// SGML: the element holding one document.
    pub doc_tag: String,
    /// SGML: the element holding the id (when the id is not an attribute).
    pub id_tag: Option<String>,
    /// SGML: the attribute of the document element holding the id.
    pub id_attr: Option<String>,
    /// SGML: the elements whose text makes the document.
    pub text_tags: Vec<String>,
    /// SGML: headline elements.
    pub headline_tags: Vec<String>,
    /// SGML: whether headlines were put before the text.
    pub include_headlines: bool,
    /// JSON lines: the id field.
    pub id_field: String,
    /// JSON lines: the text field.
    pub text_field: String,
    /// Documents larger than this many bytes were skipped.
    pub max_bytes: u64,
    /// Plain text: mail/Usenet headers were dropped.
    #[serde(default)]
    pub mail_body: bool,
    /// Folders: only files matching one of these globs were read (all when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub glob: Vec<String>,
    /// Folders: files and subfolders matching one of these globs were left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
    /// Folders: symbolic links were left out instead of followed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_follow: bool,
}

impl From<&SourceOptions> for ReaderSettings {
    fn from(o: &SourceOptions) -> Self {
        let (id_tag, id_attr) = match &o.sgml.id {
            IdSource::Tag(t) => (Some(t.clone()), None),
            IdSource::Attr(a) => (None, Some(a.clone())),
        };
        ReaderSettings {
            format: match o.format {
                Format::Auto => "auto",
                Format::Text => "text",
                Format::Trec => "trec",
                Format::Sgml => "sgml",
                Format::Jsonl => "jsonl",
                Format::Html => "html",
                Format::Warc => "warc",
                Format::Parquet => "parquet",
            }
            .into(),
            doc_tag: o.sgml.doc_tag.clone(),
            id_tag,
            id_attr,
            text_tags: o.sgml.text_tags.clone(),
            headline_tags: o.sgml.headline_tags.clone(),
            include_headlines: o.sgml.include_headlines,
            id_field: o.jsonl.id_field.clone(),
            text_field: o.jsonl.text_field.clone(),
            max_bytes: o.max_bytes,
            mail_body: o.mail_body,
            glob: o.folders.include().to_vec(),
            exclude: o.folders.exclude().to_vec(),
            no_follow: !o.folders.follow_links,
        }
    }
}

impl ReaderSettings {
    /// The reader settings again.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for an unknown format or an SGML id source that is neither a
    /// tag nor an attribute.
    pub fn to_options(&self) -> Result<SourceOptions> {
        let bad = |value: &str, expected| Error::InvalidParameter {
            name: "manifest reader",
            value: value.to_string(),
            expected,
        };
        let format = match self.format.as_str() {
            "auto" => Format::Auto,
            "text" => Format::Text,
            "trec" => Format::Trec,
            "sgml" => Format::Sgml,
            "jsonl" => Format::Jsonl,
            "html" => Format::Html,
            "warc" => Format::Warc,
            "parquet" => Format::Parquet,
            other => {
                return Err(bad(
                    other,
                    "auto, text, trec, sgml, jsonl, html, warc or parquet",
                ));
            }
        };
        let id = match (&self.id_tag, &self.id_attr) {
            (Some(t), None) => IdSource::Tag(t.clone()),
            (None, Some(a)) => IdSource::Attr(a.clone()),
            _ => return Err(bad("id_tag/id_attr", "exactly one of id_tag and id_attr")),
        };
        Ok(SourceOptions {
            format,
            sgml: SgmlOptions {
                doc_tag: self.doc_tag.clone(),
                id,
                text_tags: self.text_tags.clone(),
                headline_tags: self.headline_tags.clone(),
                include_headlines: self.include_headlines,
            },
            jsonl: JsonlOptions {
                id_field: self.id_field.clone(),
                text_field: self.text_field.clone(),
            },
            max_bytes: self.max_bytes,
            mail_body: self.mail_body,
            web: Default::default(),
            folders: {
                let mut folders = FolderOptions::new(&self.glob, &self.exclude)?;
                folders.follow_links = !self.no_follow;
                folders
            },
        })
    }
}

/// Everything needed to build a subset again, and what it was (written as JSON by `slst sample
/// --manifest`, read back by `slst sample --rebuild`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`MANIFEST_FORMAT`].
    pub format: String,
    /// The slst version that wrote it.
    pub slst_version: String,
    /// The version of the scores: that of the tantivy whose BM25 scores they are. slst scored
    /// with tantivy 0.27.0 and now scores the same way itself, to the last bit, and records
    /// `tantivy v0.27.0, index_format v7`; a rebuild must record the same.
    pub tantivy_version: String,
    /// The sources, as given (relative paths are relative to where the command ran).
    pub sources: Vec<String>,
    /// How they were read.
    pub reader: ReaderSettings,
    /// What was read.
    pub corpus: CorpusRecord,
    /// q: query documents drawn (when `query_ids_given` is false).
    pub queries: usize,
    /// Whether the query ids were given rather than drawn.
    pub query_ids_given: bool,
    /// The seed of the draw.
    pub seed: u64,
    /// Documents with fewer sentences were never drawn as queries.
    pub min_query_sentences: usize,
    /// k.
    pub top: usize,
    /// Scoring, analyzer, query construction, ties.
    pub retrieval: RetrievalRecord,
    /// The query documents, in order.
    pub query_ids: Vec<String>,
    /// Each query's ranked list.
    pub per_query: Vec<QueryResult>,
    /// The selected ids, in the order of the subset file.
    pub selected: Vec<String>,
    /// The subset file.
    pub output: OutputRecord,
}

impl Manifest {
    /// The manifest of `subset`, built with `config` from `sources` read with `options`, written
    /// as `trec` (the bytes of [`Subset::to_trec`]).
    pub fn new(
        subset: &Subset,
        config: &SampleConfig,
        sources: &[PathBuf],
        options: &SourceOptions,
        trec: &[u8],
    ) -> Self {
        Manifest {
            format: MANIFEST_FORMAT.into(),
            slst_version: env!("CARGO_PKG_VERSION").into(),
            tantivy_version: SCORES_VERSION.into(),
            sources: sources.iter().map(|p| p.display().to_string()).collect(),
            reader: ReaderSettings::from(options),
            corpus: subset.corpus.clone(),
            queries: config.queries,
            query_ids_given: !config.query_ids.is_empty(),
            seed: config.seed,
            min_query_sentences: config.min_query_sentences,
            top: config.top,
            retrieval: RetrievalRecord {
                scoring: "BM25, tantivy's default scorer: idf = ln(1 + (N − n + 0.5) / (n + 0.5)); document length from tantivy's one-byte field norms".into(),
                k1: BM25_K1,
                b: BM25_B,
                analyzer: config.analyzer,
                tokenizer: config.analyzer.description().into(),
                query: "the query document's text, analysed like the index: one SHOULD term query per distinct term, boosted by the term's count in the query document".into(),
                ties: TIES.into(),
            },
            query_ids: subset.queries.iter().map(|q| q.query_id.clone()).collect(),
            per_query: subset.queries.clone(),
            selected: subset.selected_ids(),
            output: OutputRecord {
                format: "TREC SGML".into(),
                documents: subset.documents.len(),
                bytes: trec.len() as u64,
                xxh3_64: format!("{:016x}", xxhash_rust::xxh3::xxh3_64(trec)),
            },
        }
    }

    /// The settings that built the subset.
    pub fn config(&self) -> SampleConfig {
        SampleConfig {
            queries: self.queries,
            top: self.top,
            query_ids: if self.query_ids_given {
                self.query_ids.clone()
            } else {
                Vec::new()
            },
            seed: self.seed,
            min_query_sentences: self.min_query_sentences,
            analyzer: self.retrieval.analyzer,
        }
    }

    /// The sources, as paths.
    pub fn source_paths(&self) -> Vec<PathBuf> {
        self.sources.iter().map(PathBuf::from).collect()
    }

    /// Read a manifest.
    ///
    /// # Errors
    /// The file cannot be read ([`Error::Io`]) or is not a manifest ([`Error::Jsonl`]).
    pub fn read(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        serde_json::from_str(&text).map_err(|e| Error::Jsonl {
            path: path.to_path_buf(),
            line: e.line(),
            detail: format!("not a sample manifest: {e}"),
        })
    }

    /// How `rebuilt` differs from this manifest, in words (empty: the same subset, bit for bit).
    pub fn differences(&self, rebuilt: &Manifest) -> Vec<String> {
        let mut out = Vec::new();
        if self.tantivy_version != rebuilt.tantivy_version {
            out.push(format!(
                "scores of tantivy version: {} then, {} now",
                self.tantivy_version, rebuilt.tantivy_version
            ));
        }
        if self.corpus != rebuilt.corpus {
            out.push(format!(
                "corpus read: {} documents with fingerprint {} then, {} with {} now",
                self.corpus.documents,
                self.corpus.xxh3_64,
                rebuilt.corpus.documents,
                rebuilt.corpus.xxh3_64
            ));
        }
        if self.query_ids != rebuilt.query_ids {
            out.push(format!(
                "query documents: {:?} then, {:?} now",
                self.query_ids, rebuilt.query_ids
            ));
        }
        if self.per_query != rebuilt.per_query {
            out.push("ranked lists differ".into());
        }
        if self.selected != rebuilt.selected {
            out.push(format!(
                "selected ids: {} then, {} now",
                self.selected.len(),
                rebuilt.selected.len()
            ));
        }
        if self.output != rebuilt.output {
            out.push(format!(
                "subset file: {} bytes with hash {} then, {} bytes with {} now",
                self.output.bytes,
                self.output.xxh3_64,
                rebuilt.output.bytes,
                rebuilt.output.xxh3_64
            ));
        }
        out
    }
}
