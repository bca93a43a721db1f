//! The batch run's outputs: pair records (JSON lines, TSV, CSV), the clusters file and the
//! summary, each written atomically.

use std::io::{BufWriter, Write};
use std::path::Path;

use serde::Serialize;

use super::{BatchConfig, BatchResult, Candidates, PairResult, StageTimes};
use crate::corpus::Skipped;
use crate::error::{Error, Result};
use crate::method::SlstConfig;
use crate::report::ParamsRecord;

/// The format of the pairs file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PairFormat {
    /// One JSON object per line (default).
    #[default]
    Jsonl,
    /// Tab-separated values with a header line.
    Tsv,
    /// Comma-separated values with a header line (RFC 4180 quoting).
    Csv,
}

/// A block of a reported pair, located in both documents (as in `slst compare --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PairBlock {
    /// First sentence in a (kept sentences, from 0).
    pub a_start: usize,
    /// First sentence in b.
    pub b_start: usize,
    /// Number of sentences.
    pub len: usize,
    /// Byte span `[start, end)` in a's text.
    pub a_span: [usize; 2],
    /// Byte span `[start, end)` in b's text.
    pub b_span: [usize; 2],
}

/// One reported pair: `{"a","b","method","resemblance","containment_a","containment_b",
/// "block_count"}` plus `"blocks"` when asked. `a` is the earlier document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairRecord<'a> {
    /// The earlier document's id.
    pub a: &'a str,
    /// The later document's id.
    pub b: &'a str,
    /// The method.
    pub method: &'static str,
    /// Resemblance J.
    pub resemblance: f64,
    /// Containment of a in b.
    pub containment_a: f64,
    /// Containment of b in a.
    pub containment_b: f64,
    /// Number of kept blocks.
    pub block_count: usize,
    /// Sentences in blocks.
    pub matched_sentences: usize,
    /// The blocks, with `--blocks`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks: Option<Vec<PairBlock>>,
}

impl<'a> PairRecord<'a> {
    /// The record of one pair of a batch result.
    pub fn new(result: &'a BatchResult, pair: &PairResult, with_blocks: bool) -> Self {
        let docs = &result.corpus.documents;
        let (da, db) = (&docs[pair.a], &docs[pair.b]);
        let c = &pair.comparison;
        let blocks = with_blocks.then(|| {
            c.evidence
                .blocks
                .iter()
                .map(|blk| {
                    let span = |p: &crate::SentenceProfile, s: usize| {
                        [
                            p.sentences[s].start as usize,
                            p.sentences[s + blk.len - 1].end as usize,
                        ]
                    };
                    PairBlock {
                        a_start: blk.a,
                        b_start: blk.b,
                        len: blk.len,
                        a_span: span(&da.profile, blk.a),
                        b_span: span(&db.profile, blk.b),
                    }
                })
                .collect()
        });
        PairRecord {
            a: &da.id,
            b: &db.id,
            method: c.method,
            resemblance: c.similarity.resemblance,
            containment_a: c.similarity.containment_a.unwrap_or(0.0),
            containment_b: c.similarity.containment_b.unwrap_or(0.0),
            block_count: c.evidence.blocks.len(),
            matched_sentences: c.evidence.matched,
            blocks,
        }
    }
}

/// Write `path` atomically: everything goes to a temporary file in the same folder, which is
/// renamed over `path` only when `write` succeeded; an interrupted run leaves no partial file
/// under the final name. `-` writes to standard output.
///
/// # Errors
/// [`Error::Io`] naming `path`.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    if path.as_os_str() == "-" {
        let stdout = std::io::stdout();
        let mut out = BufWriter::new(stdout.lock());
        return match write(&mut out).and_then(|()| out.flush()) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            other => other.map_err(io),
        };
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(
            ".{}.",
            path.file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default()
        ))
        .suffix(".partial")
        .tempfile_in(dir)
        .map_err(io)?;
    {
        let mut out = BufWriter::new(tmp.as_file_mut());
        write(&mut out).and_then(|()| out.flush()).map_err(io)?;
    }
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Write the pair records.
pub fn write_pairs(
    out: &mut dyn Write,
    result: &BatchResult,
    format: PairFormat,
    with_blocks: bool,
) -> std::io::Result<()> {
    match format {
        PairFormat::Jsonl => {
            for pair in &result.pairs {
                serde_json::to_writer(&mut *out, &PairRecord::new(result, pair, with_blocks))?;
                out.write_all(b"\n")?;
            }
        }
        PairFormat::Tsv => {
            writeln!(
                out,
                "a\tb\tmethod\tresemblance\tcontainment_a\tcontainment_b\tblock_count"
            )?;
            for pair in &result.pairs {
                let r = PairRecord::new(result, pair, false);
                let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
                writeln!(
                    out,
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    clean(r.a),
                    clean(r.b),
                    r.method,
                    r.resemblance,
                    r.containment_a,
                    r.containment_b,
                    r.block_count
                )?;
            }
        }
        PairFormat::Csv => {
            let mut w = csv::Writer::from_writer(out);
            w.write_record([
                "a",
                "b",
                "method",
                "resemblance",
                "containment_a",
                "containment_b",
                "block_count",
            ])?;
            for pair in &result.pairs {
                let r = PairRecord::new(result, pair, false);
                w.write_record([
                    r.a,
                    r.b,
                    r.method,
                    &r.resemblance.to_string(),
                    &r.containment_a.to_string(),
                    &r.containment_b.to_string(),
                    &r.block_count.to_string(),
                ])?;
            }
            w.flush()?;
        }
    }
    Ok(())
}

/// Write the clusters file: `cluster_id<TAB>doc_id`, the representative (earliest document)
/// first in each cluster, clusters numbered from 1 in the order of their representatives.
pub fn write_clusters(
    out: &mut dyn Write,
    result: &BatchResult,
    clusters: &[Vec<usize>],
) -> std::io::Result<()> {
    writeln!(out, "cluster_id\tdoc_id")?;
    for (k, cluster) in clusters.iter().enumerate() {
        for &d in cluster {
            writeln!(
                out,
                "{}\t{}",
                k + 1,
                result.corpus.documents[d]
                    .id
                    .replace(['\t', '\n', '\r'], " ")
            )?;
        }
    }
    Ok(())
}

/// A boilerplate run in the summary, located by document id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoilerplateRecord {
    /// The earliest document holding it.
    pub document: String,
    /// Its first sentence there.
    pub sentence: usize,
    /// Its length in sentences.
    pub len: usize,
    /// How many distinct profiles hold it.
    pub documents: usize,
}

/// The summary of a batch run (`--summary FILE`, and on standard error).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BatchSummary {
    /// The method.
    pub method: &'static str,
    /// `index` or `all`.
    pub candidates_mode: &'static str,
    /// Documents read.
    pub documents_read: usize,
    /// Documents (or files) skipped.
    pub documents_skipped: usize,
    /// Each skip: id when known, location, reason.
    pub skipped: Vec<Skipped>,
    /// Documents read without any kept sentence (in no pair).
    pub documents_without_sentences: usize,
    /// The ids of the first 100 of them.
    pub without_sentences: Vec<String>,
    /// Documents decoded by the Windows-1252 fallback.
    pub documents_fallback_decoded: usize,
    /// Kept sentences in all.
    pub sentences: usize,
    /// Groups of documents with identical profiles.
    pub exact_duplicate_groups: usize,
    /// Documents in those groups.
    pub documents_in_exact_duplicate_groups: usize,
    /// Boilerplate runs excluded from candidate generation.
    pub boilerplate_runs_excluded: usize,
    /// The first 100 of them.
    pub boilerplate: Vec<BoilerplateRecord>,
    /// Candidate pairs compared (of representatives).
    pub candidate_pairs: usize,
    /// Pairs reported.
    pub pairs_reported: usize,
    /// Clusters of two or more documents.
    pub clusters: usize,
    /// Worker threads.
    pub threads: usize,
    /// The method's settings.
    pub params: ParamsRecord,
    /// Containment threshold, when pairs are reported by containment.
    pub containment_threshold: Option<f64>,
    /// Seconds per stage.
    pub seconds: StageTimes,
}

impl BatchSummary {
    /// The summary of a result.
    pub fn new(
        result: &BatchResult,
        clusters: &[Vec<usize>],
        slst: &SlstConfig,
        config: &BatchConfig,
    ) -> Self {
        let docs = &result.corpus.documents;
        let groups = result.candidates.groups.groups();
        BatchSummary {
            method: "slst",
            candidates_mode: match config.candidates {
                Candidates::Index => "index",
                Candidates::All => "all",
            },
            documents_read: docs.len(),
            documents_skipped: result.corpus.skipped.len(),
            skipped: result.corpus.skipped.clone(),
            documents_without_sentences: docs.iter().filter(|d| d.keys.is_empty()).count(),
            without_sentences: docs
                .iter()
                .filter(|d| d.keys.is_empty())
                .take(100)
                .map(|d| d.id.clone())
                .collect(),
            documents_fallback_decoded: result.corpus.fallback_decoded,
            sentences: docs.iter().map(|d| d.keys.len()).sum(),
            exact_duplicate_groups: groups.len(),
            documents_in_exact_duplicate_groups: groups.iter().map(Vec::len).sum(),
            boilerplate_runs_excluded: result.candidates.boilerplate.len(),
            boilerplate: result
                .candidates
                .boilerplate
                .iter()
                .take(100)
                .map(|b| BoilerplateRecord {
                    document: docs[b.document].id.clone(),
                    sentence: b.sentence,
                    len: b.len,
                    documents: b.documents,
                })
                .collect(),
            candidate_pairs: result.candidates.pairs.len(),
            pairs_reported: result.pairs.len(),
            clusters: clusters.len(),
            threads: rayon::current_num_threads(),
            params: ParamsRecord::from(slst),
            containment_threshold: config.containment,
            seconds: result.times,
        }
    }

    /// The human-readable summary.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "documents: {} read, {} skipped, {} without sentences, {} sentences\n\
             exact-duplicate groups: {} ({} documents)\n\
             boilerplate runs excluded: {}\n\
             candidate pairs: {} ({} candidates)\n\
             pairs reported: {}; clusters: {}\n\
             time: {:.2}s reading and profiling, {:.2}s candidates, {:.2}s scoring ({} threads)\n",
            self.documents_read,
            self.documents_skipped,
            self.documents_without_sentences,
            self.sentences,
            self.exact_duplicate_groups,
            self.documents_in_exact_duplicate_groups,
            self.boilerplate_runs_excluded,
            self.candidate_pairs,
            self.candidates_mode,
            self.pairs_reported,
            self.clusters,
            self.seconds.sketch,
            self.seconds.candidates,
            self.seconds.verify,
            self.threads,
        );
        for skip in self.skipped.iter().take(20) {
            s.push_str(&format!(
                "skipped: {}{}: {}\n",
                skip.location,
                skip.id
                    .as_deref()
                    .map(|i| format!(" ({i})"))
                    .unwrap_or_default(),
                skip.reason
            ));
        }
        if self.skipped.len() > 20 {
            s.push_str(&format!(
                "skipped: … and {} more (see --summary)\n",
                self.skipped.len() - 20
            ));
        }
        s
    }
}
