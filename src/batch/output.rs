//! The batch run's outputs: pair records (JSON lines, TSV, CSV), the clusters file and the
//! summary, each written atomically.

use std::io::{BufWriter, Write};
use std::path::Path;

use serde::Serialize;

use super::generic::{AnyBatchResult, AnyPair, CandidateSource};
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
/// "block_count"}` plus `"blocks"` when asked. `a` is the earlier document. Methods other than
/// SL+ST have no blocks: `block_count` is absent, a containment they cannot define is `null`,
/// and `--blocks` adds their `evidence` instead.
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
    /// Containment of a in b, where the method defines it.
    pub containment_a: Option<f64>,
    /// Containment of b in a, where the method defines it.
    pub containment_b: Option<f64>,
    /// Number of kept blocks (SL+ST).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_count: Option<usize>,
    /// Sentences in blocks (SL+ST).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched_sentences: Option<usize>,
    /// The blocks (SL+ST), with `--blocks`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks: Option<Vec<PairBlock>>,
    /// The method's evidence (other methods), with `--blocks`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<&'a serde_json::Value>,
}

impl<'a> PairRecord<'a> {
    /// The record of one pair of an SL+ST batch result.
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
            containment_a: c.similarity.containment_a,
            containment_b: c.similarity.containment_b,
            block_count: Some(c.evidence.blocks.len()),
            matched_sentences: Some(c.evidence.matched),
            blocks,
            evidence: None,
        }
    }

    /// The record of one pair of a run with another method.
    pub fn from_any(result: &'a AnyBatchResult, pair: &'a AnyPair, with_evidence: bool) -> Self {
        let c = &pair.comparison;
        PairRecord {
            a: &result.ids[pair.a],
            b: &result.ids[pair.b],
            method: c.method,
            resemblance: c.similarity.resemblance,
            containment_a: c.similarity.containment_a,
            containment_b: c.similarity.containment_b,
            block_count: None,
            matched_sentences: None,
            blocks: None,
            evidence: with_evidence.then_some(&c.evidence),
        }
    }
}

/// Write `path` atomically: everything goes to a temporary file in the same folder, which is
/// renamed over `path` only when `write` succeeded; an interrupted run leaves no partial file
/// under the final name. `-` writes to standard output. A `path` that exists and is not a regular
/// file (`/dev/null`, `/dev/stdout`, a named pipe) is written in place: renaming over it would
/// replace the device with a file.
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
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(io)?;
        let mut out = BufWriter::new(file);
        return write(&mut out).and_then(|()| out.flush()).map_err(io);
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

/// Write pair records in a format.
pub fn write_records<'a>(
    out: &mut dyn Write,
    records: impl Iterator<Item = PairRecord<'a>>,
    format: PairFormat,
) -> std::io::Result<()> {
    let number = |x: Option<f64>| x.map(|v| v.to_string()).unwrap_or_default();
    let count = |x: Option<usize>| x.map(|v| v.to_string()).unwrap_or_default();
    match format {
        PairFormat::Jsonl => {
            for r in records {
                serde_json::to_writer(&mut *out, &r)?;
                out.write_all(b"\n")?;
            }
        }
        PairFormat::Tsv => {
            writeln!(
                out,
                "a\tb\tmethod\tresemblance\tcontainment_a\tcontainment_b\tblock_count"
            )?;
            let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
            for r in records {
                writeln!(
                    out,
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    clean(r.a),
                    clean(r.b),
                    r.method,
                    r.resemblance,
                    number(r.containment_a),
                    number(r.containment_b),
                    count(r.block_count)
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
            for r in records {
                w.write_record([
                    r.a,
                    r.b,
                    r.method,
                    &r.resemblance.to_string(),
                    &number(r.containment_a),
                    &number(r.containment_b),
                    &count(r.block_count),
                ])?;
            }
            w.flush()?;
        }
    }
    Ok(())
}

/// Write the pair records of an SL+ST batch result.
pub fn write_pairs(
    out: &mut dyn Write,
    result: &BatchResult,
    format: PairFormat,
    with_blocks: bool,
) -> std::io::Result<()> {
    let blocks = with_blocks && format == PairFormat::Jsonl;
    write_records(
        out,
        result
            .pairs
            .iter()
            .map(|p| PairRecord::new(result, p, blocks)),
        format,
    )
}

/// Write the pair records of a run with another method.
pub fn write_any_pairs(
    out: &mut dyn Write,
    result: &AnyBatchResult,
    format: PairFormat,
    with_evidence: bool,
) -> std::io::Result<()> {
    let evidence = with_evidence && format == PairFormat::Jsonl;
    write_records(
        out,
        result
            .pairs
            .iter()
            .map(|p| PairRecord::from_any(result, p, evidence)),
        format,
    )
}

/// Write the clusters file: `cluster_id<TAB>doc_id`, the representative (earliest document)
/// first in each cluster, clusters numbered from 1 in the order of their representatives.
/// `id` gives a document's id from its number.
pub fn write_clusters<'a>(
    out: &mut dyn Write,
    id: impl Fn(usize) -> &'a str,
    clusters: &[Vec<usize>],
) -> std::io::Result<()> {
    writeln!(out, "cluster_id\tdoc_id")?;
    for (k, cluster) in clusters.iter().enumerate() {
        for &d in cluster {
            writeln!(out, "{}\t{}", k + 1, id(d).replace(['\t', '\n', '\r'], " "))?;
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
    /// Candidate pairs (of representatives).
    pub candidate_pairs: usize,
    /// Candidate pairs compared: the others share too few sentence keys to reach the report.
    pub pairs_compared: usize,
    /// Pairs reported.
    pub pairs_reported: usize,
    /// Clusters of two or more documents.
    pub clusters: usize,
    /// Worker threads.
    pub threads: usize,
    /// SL+ST's settings (other methods: absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<ParamsRecord>,
    /// Containment threshold, when pairs are reported by containment.
    pub containment_threshold: Option<f64>,
    /// Seconds per stage.
    pub seconds: StageTimes,
    /// With `--drop-boilerplate`: the web-page blocks left out for recurring on too many pages.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub boilerplate_blocks: Vec<crate::web::BoilerplateBlock>,
    /// Web pages that were read but are unusual (nesting flattened, no visible text): id,
    /// location and the note.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub page_notes: Vec<Skipped>,
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
            pairs_compared: result.pairs_compared,
            pairs_reported: result.pairs.len(),
            clusters: clusters.len(),
            threads: rayon::current_num_threads(),
            params: Some(ParamsRecord::from(slst)),
            containment_threshold: config.containment,
            seconds: result.times,
            boilerplate_blocks: Vec::new(),
            page_notes: Vec::new(),
        }
    }

    /// The summary of a run with a method other than SL+ST.
    pub fn from_any(
        result: &AnyBatchResult,
        clusters: &[Vec<usize>],
        config: &BatchConfig,
    ) -> Self {
        BatchSummary {
            method: result.method,
            candidates_mode: match result.source {
                CandidateSource::MethodJoin => "method join",
                CandidateSource::JoinKeys => "join keys",
                CandidateSource::AllPairs => "all",
            },
            documents_read: result.ids.len(),
            documents_skipped: result.skipped.len(),
            skipped: result.skipped.clone(),
            documents_without_sentences: result
                .sentences
                .as_ref()
                .map_or(0, |s| s.iter().filter(|&&n| n == 0).count()),
            without_sentences: result.sentences.as_ref().map_or_else(Vec::new, |s| {
                s.iter()
                    .zip(&result.ids)
                    .filter(|(n, _)| **n == 0)
                    .take(100)
                    .map(|(_, id)| id.clone())
                    .collect()
            }),
            documents_fallback_decoded: result.fallback_decoded,
            sentences: result.sentences.as_ref().map_or(0, |s| s.iter().sum()),
            exact_duplicate_groups: 0,
            documents_in_exact_duplicate_groups: 0,
            boilerplate_runs_excluded: result.capped_keys,
            boilerplate: Vec::new(),
            candidate_pairs: result.candidate_pairs,
            pairs_compared: result.pairs_compared,
            pairs_reported: result.pairs.len(),
            clusters: clusters.len(),
            threads: rayon::current_num_threads(),
            params: None,
            containment_threshold: config.containment,
            seconds: result.times,
            boilerplate_blocks: Vec::new(),
            page_notes: Vec::new(),
        }
    }

    /// The human-readable summary.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "documents: {} read, {} skipped, {} without sentences, {} sentences\n\
             exact-duplicate groups: {} ({} documents)\n\
             boilerplate runs excluded: {}\n\
             candidate pairs: {} ({} candidates), {} compared\n\
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
            self.pairs_compared,
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
        for note in self.page_notes.iter().take(20) {
            s.push_str(&format!("note: {}: {}\n", note.location, note.reason));
        }
        if self.page_notes.len() > 20 {
            s.push_str(&format!(
                "note: … and {} more (see --summary)\n",
                self.page_notes.len() - 20
            ));
        }
        if !self.boilerplate_blocks.is_empty() {
            s.push_str(&format!(
                "boilerplate blocks dropped: {}\n",
                self.boilerplate_blocks.len()
            ));
            for b in self.boilerplate_blocks.iter().take(20) {
                s.push_str(&format!(
                    "  on {} pages (first {}): {}\n",
                    b.pages, b.first_page, b.excerpt
                ));
            }
        }
        s
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::FileTypeExt;

    /// Regression: `--out /dev/null` run as root renamed a file over the device.
    #[test]
    fn write_atomically_writes_a_named_pipe_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(&fifo).unwrap())
        };
        write_atomically(&fifo, |w| w.write_all(b"pairs\n")).unwrap();
        // Checked first: had the pipe been replaced, the reader would wait for ever.
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(reader.join().unwrap(), b"pairs\n");
    }
}
