//! The batch run's outputs: pair records (JSON lines, TSV, CSV, Parquet), group records, the
//! clusters file and the summary, each written atomically, each file holding one record shape.

use std::io::{BufWriter, Write};
use std::path::Path;

use serde::Serialize;

pub use super::summary::{BatchSummary, BoilerplateRecord};
use super::{BatchResult, DuplicateGroup, DuplicateGroups, PairResult};
use crate::error::{Error, Result};
pub use crate::method::locate;
use crate::method::{Comparison, Condition, DecidedBy, Detector, Evidence, Method};

/// The format of a pairs (or groups) file. Every format holds one record shape: a pairs file
/// holds pair records only, a groups file group records only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PairFormat {
    /// One JSON object per line (default).
    #[default]
    Jsonl,
    /// Tab-separated values with a header line: the flat columns ([`PAIR_COLUMNS`]).
    Tsv,
    /// Comma-separated values with a header line (RFC 4180 quoting): the flat columns.
    Csv,
    /// Apache Parquet (the Cargo feature `parquet`): the flat columns, and with details the
    /// nested ones; with a shared-passage criterion each pair's passages.
    Parquet,
}

/// What a build without the Cargo feature `parquet` says of a Parquet file, in or out.
pub use crate::corpus::NO_PARQUET;

impl PairFormat {
    /// The format's name, as `--out-format` takes it.
    pub fn name(self) -> &'static str {
        match self {
            PairFormat::Jsonl => "jsonl",
            PairFormat::Tsv => "tsv",
            PairFormat::Csv => "csv",
            PairFormat::Parquet => "parquet",
        }
    }

    /// The format a file name's extension says (`.jsonl`, `.ndjson`, `.tsv`, `.csv`,
    /// `.parquet`), if any.
    pub fn of_name(path: &Path) -> Option<PairFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "jsonl" | "ndjson" => PairFormat::Jsonl,
            "tsv" => PairFormat::Tsv,
            "csv" => PairFormat::Csv,
            "parquet" => PairFormat::Parquet,
            _ => return None,
        })
    }

    /// Whether the format holds nested values (blocks, evidence, a group's documents).
    pub fn nests(self) -> bool {
        matches!(self, PairFormat::Jsonl | PairFormat::Parquet)
    }

    /// The format of an output file: `given` (`--out-format`), else the one its name says,
    /// else JSON lines. `nested` names what the file must hold that only JSON lines and
    /// Parquet can (`"blocks"`, `"groups"`), if anything.
    ///
    /// # Errors
    /// [`Error::Output`] naming `path`: a name that says another format than `given`
    /// (`pairs.parquet` with `--out-format jsonl`), nested records in TSV or CSV, Parquet in a
    /// build without it ([`NO_PARQUET`]).
    ///
    /// # Example
    /// ```
    /// use std::path::Path;
    /// use slst::batch::output::PairFormat;
    /// let f = |p: &str, given, nested| PairFormat::for_file(Path::new(p), given, nested);
    /// assert_eq!(f("pairs.tsv", None, None).unwrap(), PairFormat::Tsv);
    /// assert_eq!(f("-", Some(PairFormat::Csv), None).unwrap(), PairFormat::Csv);
    /// assert_eq!(f("pairs", None, None).unwrap(), PairFormat::Jsonl);
    /// assert!(f("pairs.jsonl", Some(PairFormat::Tsv), None).is_err());
    /// let e = f("pairs.tsv", None, Some("blocks")).unwrap_err().to_string();
    /// assert!(e.contains("blocks are nested: use JSON lines or Parquet"), "{e}");
    /// ```
    pub fn for_file(
        path: &Path,
        given: Option<PairFormat>,
        nested: Option<&str>,
    ) -> Result<PairFormat> {
        let refuse = |detail: String| Error::Output {
            path: if path.as_os_str() == "-" {
                "<standard output>".into()
            } else {
                path.to_path_buf()
            },
            detail,
        };
        let named = PairFormat::of_name(path);
        let format = match (given, named) {
            (Some(g), Some(n)) if g != n => {
                return Err(refuse(format!(
                    "the name says {}, --out-format says {}",
                    n.name(),
                    g.name()
                )));
            }
            (Some(g), _) => g,
            (None, Some(n)) => n,
            (None, None) => PairFormat::Jsonl,
        };
        if let Some(what) = nested.filter(|_| !format.nests()) {
            return Err(refuse(format!(
                "{what} are nested: use JSON lines or Parquet, not {}",
                format.name()
            )));
        }
        if format == PairFormat::Parquet && !cfg!(feature = "parquet") {
            return Err(refuse(NO_PARQUET.into()));
        }
        Ok(format)
    }
}

/// The flat columns of a pair record, in order: the columns of TSV, CSV and Parquet, and the
/// JSON line's fields but the nested ones (`blocks`, `evidence`) and the `note` that comes with
/// them. A column a record lacks is empty (`null` in Parquet).
pub const PAIR_COLUMNS: [&str; 13] = [
    "a",
    "b",
    "method",
    "resemblance",
    "containment_a",
    "containment_b",
    "block_count",
    "matched_sentences",
    "template",
    "decided_by",
    "condition",
    "stopwords_a",
    "stopwords_b",
];

/// A block of a reported pair, located in both documents (as in `slst compare --json`).
#[derive(Debug, Clone, PartialEq, Serialize)]
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
    /// The smallest term similarity of the block's sentence pairs (robust SL+ST).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_term_similarity: Option<f64>,
}

/// One reported pair: `{"a","b","method","resemblance","containment_a","containment_b",
/// "block_count","matched_sentences"}` plus, with details, `"blocks"` (SL+ST in either mode) or
/// `"note"` and `"evidence"` (the other methods), `"template"` for a pair reported as a
/// template ([`crate::method::PairRule::WithTemplates`]), and last `"decided_by"`, the check
/// of the method's decision that decided the pair ([`DecidedBy`]), and `"condition"`, the named
/// condition it belongs to, then with the stop words
/// `auto` `"stopwords_a"` and `"stopwords_b"`, the list chosen for each document. `a` is the
/// earlier document. Methods other
/// than SL+ST have no blocks: `block_count` is absent, and a containment they cannot define is
/// `null`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairRecord<'a, E: Serialize> {
    /// The earlier document's id.
    pub a: &'a str,
    /// The later document's id.
    pub b: &'a str,
    /// The method.
    pub method: Method,
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
    /// The blocks (SL+ST), with details.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks: Option<Vec<PairBlock>>,
    /// The note of the comparison (the other methods), with details.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<&'a str>,
    /// The method's evidence (the other methods), with details.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<&'a E>,
    /// Why the pair is a template and not a duplicate, for a pair reported as one
    /// ([`Evidence::template`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub template: Option<&'a str>,
    /// With a shared-passage criterion ([`crate::batch::BatchConfig::min_shared_words`]): the
    /// passages of at least that many words the two share (JSON lines only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub passages: Option<&'a [crate::align::Passage]>,
    /// The check of the method's decision that decided the pair.
    pub decided_by: DecidedBy,
    /// The named condition that check belongs to ([`DecidedBy::condition`]).
    pub condition: Condition,
    /// With the stop words `auto`: the id of the list chosen for a
    /// ([`crate::batch::SketchedCorpus::stopwords`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopwords_a: Option<&'a str>,
    /// With the stop words `auto`: the id of the list chosen for b.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopwords_b: Option<&'a str>,
}

impl<'a, E: Evidence> PairRecord<'a, E> {
    /// The record of one pair of a batch result; `details` adds the blocks, or the note and
    /// the evidence.
    pub fn new<D: Detector<Evidence = E>>(
        detector: &D,
        result: &'a BatchResult<D>,
        pair: &'a PairResult<E>,
        details: bool,
    ) -> Self {
        let corpus = &result.corpus;
        let stopwords = |doc: usize| corpus.stopwords.get(doc).map(String::as_str);
        PairRecord {
            stopwords_a: stopwords(pair.a),
            stopwords_b: stopwords(pair.b),
            ..PairRecord::of_kept(
                detector,
                (&corpus.ids[pair.a], &corpus.sketches[pair.a]),
                (&corpus.ids[pair.b], &corpus.sketches[pair.b]),
                pair,
                details,
            )
        }
    }

    /// The record of a kept pair, its documents given by id and sketch (`a` the earlier): the
    /// comparison's ([`PairRecord::of`]) with the passages a shared-passage criterion found and
    /// what decided the pair ([`PairResult::decided_by`]), wherever the pair was verified (a
    /// distributed join verifies pairs outside [`crate::batch::run`]). The pair's document
    /// numbers are not read.
    pub fn of_kept<D: Detector<Evidence = E>>(
        detector: &D,
        a: (&'a str, &D::Sketch),
        b: (&'a str, &D::Sketch),
        pair: &'a PairResult<E>,
        details: bool,
    ) -> Self {
        PairRecord {
            passages: pair.passages.as_deref(),
            decided_by: pair.decided_by(),
            condition: pair.decided_by().condition(),
            ..PairRecord::of(detector, a, b, &pair.comparison, details)
        }
    }

    /// The record of the comparison `c` of two documents, given by id and sketch (`a` the
    /// earlier): the line a corpus run writes for the pair, wherever the pair was compared (a
    /// distributed join verifies pairs outside [`crate::batch::run`]).
    pub fn of<D: Detector<Evidence = E>>(
        detector: &D,
        (a_id, a): (&'a str, &D::Sketch),
        (b_id, b): (&'a str, &D::Sketch),
        c: &'a Comparison<E>,
        details: bool,
    ) -> Self {
        let found = c.evidence.blocks();
        let blocks = match (&found, details) {
            (Some(found), true) => Some(
                found
                    .iter()
                    .map(|f| {
                        let (a_span, b_span) = locate(detector, (a, b), f);
                        PairBlock {
                            a_start: f.block.a,
                            b_start: f.block.b,
                            len: f.block.len,
                            a_span,
                            b_span,
                            min_term_similarity: f.min_term_similarity,
                        }
                    })
                    .collect(),
            ),
            _ => None,
        };
        let others = found.is_none() && details;
        PairRecord {
            a: a_id,
            b: b_id,
            method: c.method,
            resemblance: c.similarity.resemblance,
            containment_a: c.similarity.containment_a,
            containment_b: c.similarity.containment_b,
            block_count: found.as_ref().map(Vec::len),
            matched_sentences: found.as_ref().map(|f| f.iter().map(|b| b.block.len).sum()),
            blocks,
            note: if others { c.evidence.note() } else { None },
            evidence: others.then_some(&c.evidence),
            template: c.template(),
            passages: None,
            decided_by: c.decided_by(),
            condition: c.decided_by().condition(),
            stopwords_a: None,
            stopwords_b: None,
        }
    }
}

/// The suffix of what is being written beside an output, renamed to it when complete.
pub(crate) const PARTIAL: &str = ".partial";

/// Where an output's temporary file or folder goes — the output's own folder, so that the
/// rename is atomic — and the prefix of its name (`.NAME.`: hidden, named after the output).
pub(crate) fn partial_beside(path: &Path) -> (&Path, String) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    (dir, format!(".{name}."))
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
    // The error names the file asked for, never the temporary file beside it, whose name the
    // operating system's message, or one that wraps it, would otherwise carry; a message of the
    // writer's own (`the input changed while dedup ran`) is kept.
    let (_, prefix) = partial_beside(path);
    let io = |source: std::io::Error| Error::Write {
        path: path.to_path_buf(),
        source: match source.raw_os_error() {
            Some(code) => std::io::Error::from_raw_os_error(code),
            None if source.to_string().contains(&prefix) => {
                std::io::Error::new(source.kind(), source.kind().to_string())
            }
            None => source,
        },
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
    let (dir, prefix) = partial_beside(path);
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(PARTIAL);
    // As any new file: read-write for all, less the umask (a temporary file would be 0600).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = builder.tempfile_in(dir).map_err(io)?;
    {
        let mut out = BufWriter::new(tmp.as_file_mut());
        write(&mut out).and_then(|()| out.flush()).map_err(io)?;
    }
    tmp.as_file().sync_all().map_err(io)?;
    tmp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// One duplicate group, written once instead of every pair among its documents:
/// `{"group","method","kind","size","min_resemblance","documents"}`. `kind` is `"exact"` when
/// every pair scores resemblance 1 (identical as far as the method sees), else `"near-exact"`.
/// Group records go to a file of their own (`slst batch --groups FILE`), never among pairs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupRecord<'a> {
    /// The group's number, from 1, in the order of the groups' earliest documents.
    pub group: usize,
    /// The method.
    pub method: Method,
    /// `"exact"` or `"near-exact"`.
    pub kind: &'static str,
    /// Documents in the group.
    pub size: usize,
    /// The smallest resemblance among the group's pairs.
    pub min_resemblance: f64,
    /// The documents' ids, in input order.
    pub documents: Vec<&'a str>,
}

impl<'a> GroupRecord<'a> {
    /// The record of group number `k` (from 1); `id` gives a document's id from its number.
    pub fn new(
        k: usize,
        method: Method,
        g: &DuplicateGroup,
        id: impl Fn(usize) -> &'a str,
    ) -> Self {
        GroupRecord {
            group: k,
            method,
            kind: if g.exact() { "exact" } else { "near-exact" },
            size: g.members.len(),
            min_resemblance: g.min_resemblance,
            documents: g.members.iter().map(|&m| id(m)).collect(),
        }
    }
}

/// Write the group records, as JSON lines or Parquet (the formats that nest: a group's
/// `documents` is a list). Returns the number of records written.
pub fn write_groups<'a>(
    out: &mut dyn Write,
    format: PairFormat,
    method: Method,
    groups: &DuplicateGroups,
    id: impl Fn(usize) -> &'a str + Copy,
) -> std::io::Result<usize> {
    let records = groups
        .groups
        .iter()
        .enumerate()
        .map(|(k, g)| GroupRecord::new(k + 1, method, g, id));
    match format {
        PairFormat::Jsonl => {
            for r in records {
                serde_json::to_writer(&mut *out, &r)?;
                out.write_all(b"\n")?;
            }
        }
        #[cfg(feature = "parquet")]
        PairFormat::Parquet => super::parquet::write_groups(out, records)?,
        _ => return Err(unwritable(format, "group records")),
    }
    Ok(groups.groups.len())
}

/// The error of a format asked to hold what it cannot (refused before a run by
/// [`PairFormat::for_file`]).
fn unwritable(format: PairFormat, what: &str) -> std::io::Error {
    let why = if format == PairFormat::Parquet {
        NO_PARQUET.to_string()
    } else {
        format!("{what} cannot be written as {}", format.name())
    };
    std::io::Error::new(std::io::ErrorKind::Unsupported, why)
}

impl<E: Serialize> PairRecord<'_, E> {
    /// The flat columns' cells as text ([`PAIR_COLUMNS`]): numbers as Rust prints them, an
    /// absent value empty.
    pub fn cells(&self) -> [String; PAIR_COLUMNS.len()] {
        let number = |x: Option<f64>| x.map(|v| v.to_string()).unwrap_or_default();
        let count = |x: Option<usize>| x.map(|v| v.to_string()).unwrap_or_default();
        [
            self.a.to_string(),
            self.b.to_string(),
            self.method.name().to_string(),
            self.resemblance.to_string(),
            number(self.containment_a),
            number(self.containment_b),
            count(self.block_count),
            count(self.matched_sentences),
            self.template.unwrap_or_default().to_string(),
            self.decided_by.name().to_string(),
            self.condition.name().to_string(),
            self.stopwords_a.unwrap_or_default().to_string(),
            self.stopwords_b.unwrap_or_default().to_string(),
        ]
    }
}

/// Write pair records in a format: JSON lines (each record as it is), TSV and CSV (the flat
/// columns, [`PAIR_COLUMNS`], whatever the records hold), Parquet (the flat columns, with
/// `details` the nested ones, with `passages` each pair's passages). Records with blocks or evidence cannot go to TSV or CSV:
/// [`PairFormat::for_file`] refuses that before a run.
pub fn write_records<'a, E: Serialize + 'a>(
    out: &mut dyn Write,
    records: impl Iterator<Item = PairRecord<'a, E>>,
    format: PairFormat,
    details: bool,
    passages: bool,
) -> std::io::Result<()> {
    if details && !format.nests() {
        return Err(unwritable(format, "blocks"));
    }
    // Only Parquet's schema names the passages: JSON lines carry them with each record.
    #[cfg(not(feature = "parquet"))]
    let _ = passages;
    match format {
        PairFormat::Jsonl => {
            for r in records {
                serde_json::to_writer(&mut *out, &r)?;
                out.write_all(b"\n")?;
            }
        }
        PairFormat::Tsv => {
            writeln!(out, "{}", PAIR_COLUMNS.join("\t"))?;
            for r in records {
                let cells = r.cells().map(|c| c.replace(['\t', '\n', '\r'], " "));
                writeln!(out, "{}", cells.join("\t"))?;
            }
        }
        PairFormat::Csv => {
            let mut w = csv::Writer::from_writer(out);
            w.write_record(PAIR_COLUMNS)?;
            for r in records {
                w.write_record(r.cells())?;
            }
            w.flush()?;
        }
        #[cfg(feature = "parquet")]
        PairFormat::Parquet => super::parquet::write_pairs(out, records, details, passages)?,
        #[cfg(not(feature = "parquet"))]
        PairFormat::Parquet => return Err(unwritable(format, "pairs")),
    }
    Ok(())
}

/// Write the pair records of a batch result but those inside the groups of `leave_out`;
/// `details` adds each pair's blocks, or its note and evidence (JSON lines and Parquet only);
/// `passages` (a run with [`crate::batch::BatchConfig::min_shared_words`]) gives Parquet its
/// `passages` column (JSON lines carry them whenever a pair has them). Returns the number of
/// pair records written.
pub fn write_pairs<D: Detector>(
    out: &mut dyn Write,
    detector: &D,
    result: &BatchResult<D>,
    format: PairFormat,
    (details, passages): (bool, bool),
    leave_out: Option<&DuplicateGroups>,
) -> std::io::Result<usize> {
    let mut written = 0;
    write_records(
        out,
        result
            .pairs
            .iter()
            .filter(|p| !leave_out.is_some_and(|g| g.inside(p.a, p.b)))
            .inspect(|_| written += 1)
            .map(|p| PairRecord::new(detector, result, p, details)),
        format,
        details,
        passages,
    )?;
    Ok(written)
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::FileTypeExt;

    /// Regression: `--out /dev/null` run as root renamed a file over the device.
    #[test]
    fn a_writers_own_message_is_kept_and_the_temporary_files_name_never_shown() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        let e = write_atomically(&path, |_| Err(std::io::Error::other("the input changed")))
            .unwrap_err()
            .to_string();
        assert!(e.contains("the input changed"), "{e}");
        let (_, prefix) = partial_beside(&path);
        let e = write_atomically(&path, |_| {
            Err(std::io::Error::other(format!(
                "failed at {prefix}x{PARTIAL}"
            )))
        })
        .unwrap_err()
        .to_string();
        assert!(!e.contains(&prefix) && e.contains("out.txt"), "{e}");
        assert!(!path.exists());
    }

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

    /// The process's umask, from /proc (Linux).
    fn umask() -> Option<u32> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        let line = status.lines().find(|l| l.starts_with("Umask:"))?;
        u32::from_str_radix(line.split_whitespace().nth(1)?, 8).ok()
    }

    #[test]
    fn written_files_follow_the_umask_not_the_temporary_files_mode() {
        use std::os::unix::fs::PermissionsExt;
        let Some(umask) = umask() else { return };
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pairs.jsonl");
        write_atomically(&path, |w| w.write_all(b"x\n")).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !umask);
    }

    #[test]
    fn an_unwritable_folder_is_a_write_error_naming_the_file_asked_for() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing-folder").join("pairs.jsonl");
        let e = write_atomically(&path, |w| w.write_all(b"x\n")).unwrap_err();
        let text = e.to_string();
        assert!(matches!(e, Error::Write { .. }), "{text}");
        assert!(
            text.starts_with(&format!("{}: cannot write: ", path.display())),
            "{text}"
        );
        assert!(!text.contains(".partial"), "{text}");
    }
}
