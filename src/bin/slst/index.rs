//! `slst index create|add|remove|stats|check` and `slst query`: search mode over a persistent
//! index.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use serde::Serialize;
use slst::corpus::read_sources;
use slst::index::{AddOptions, DEFAULT_BATCH_SIZE, Index, QueryOptions};
use slst::method::{DecidedBy, Method, MethodSettings, WithDetector};
use slst::report::{CompareRecord, DocumentSummary, SCHEMA_VERSION, Versioned, count};
use slst::{Detector, Document, MatchKey, Result};

use crate::args::{FolderArgs, InputArgs, MethodArg, ProfileFlags, QuietArgs};
use crate::batch::Bars;
use crate::methods::slst_config;
use crate::methods::{MegaShingleFlags, RobustFlags, ShingleFlags};

/// The `slst index` subcommands.
#[derive(Subcommand, Debug)]
pub enum IndexCommand {
    /// Create an empty index; the method and its settings are stored and used by every later
    /// command.
    Create(CreateArgs),
    /// Add documents (any source `slst batch` reads), one transaction per batch; an indexed id
    /// is replaced unless --no-replace.
    Add(AddArgs),
    /// Remove documents by id.
    Remove(RemoveArgs),
    /// Documents, sentences, keys and size on disk.
    Stats(PathArgs),
    /// Verify the index's integrity and say what is wrong (exit status 2 when anything is).
    Check(PathArgs),
}

/// The end of the help: examples and the page to read.
const CREATE_HELP: &str = "\
Examples:
  slst index create news.db --mode paper
  slst index create mega.db --method megashingle

Docs: docs/index.md";

/// Arguments of `slst index create`.
#[derive(Args, Debug)]
#[command(after_help = CREATE_HELP)]
pub struct CreateArgs {
    /// The index file to create.
    pub index: PathBuf,
    /// The method: slst, shingle or megashingle.
    #[arg(long, value_enum, default_value_t = MethodArg(Method::Slst), value_name = "NAME")]
    pub method: MethodArg,
    /// The default resemblance threshold θ of queries (slst; shingle unless
    /// --shingle-threshold) [default: 0.5].
    #[arg(long, value_name = "θ")]
    pub threshold: Option<f64>,
    /// Blocks shorter than this many sentences are dropped.
    #[arg(
        hide_short_help = true,
        long,
        default_value_t = 2,
        value_name = "SENTENCES"
    )]
    pub min_block: usize,
    #[command(flatten)]
    pub profile: ProfileFlags,
    #[command(flatten)]
    pub robust: RobustFlags,
    #[command(flatten)]
    pub shingle: ShingleFlags,
    #[command(flatten)]
    pub megashingle: MegaShingleFlags,
}

/// The end of the help: examples and the page to read.
const ADD_HELP: &str = "\
Examples:
  slst index add news.db reut2-*.sgm
  slst index add news.db update.jsonl --no-replace

Docs: docs/index.md";

/// Arguments of `slst index add`.
#[derive(Args, Debug)]
#[command(after_help = ADD_HELP)]
pub struct AddArgs {
    /// The index.
    pub index: PathBuf,
    /// Files, folders (read recursively, in path order) or `-` for standard input.
    #[arg(required = true)]
    pub sources: Vec<PathBuf>,
    /// Refuse (skip and report) documents whose id is already indexed instead of replacing them.
    #[arg(long)]
    pub no_replace: bool,
    /// Documents per transaction: a killed add keeps every committed batch.
    #[arg(hide_short_help = true, long, default_value_t = DEFAULT_BATCH_SIZE, value_name = "N")]
    pub batch_size: usize,
    #[command(flatten)]
    pub quiet: QuietArgs,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub folders: FolderArgs,
}

/// The end of the help: examples and the page to read.
const REMOVE_HELP: &str = "\
Examples:
  slst index remove news.db 12345 12346

Docs: docs/index.md";

/// Arguments of `slst index remove`.
#[derive(Args, Debug)]
#[command(after_help = REMOVE_HELP)]
pub struct RemoveArgs {
    /// The index.
    pub index: PathBuf,
    /// The ids to remove.
    #[arg(required = true)]
    pub ids: Vec<String>,
}

/// The end of the help: examples and the page to read.
const PATH_HELP: &str = "\
Examples:
  slst index stats news.db
  slst index check news.db --json

Docs: docs/index.md";

/// An index path alone.
#[derive(Args, Debug)]
#[command(after_help = PATH_HELP)]
pub struct PathArgs {
    /// The index.
    pub index: PathBuf,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// The end of the help: examples and the page to read.
const QUERY_HELP: &str = "\
Examples:
  slst query news.db incoming.txt
  slst query news.db new/ --containment 0.8 --top 5 --json
  slst query news.db incoming.txt --min-shared-words 60 --json

Docs: docs/index.md";

/// Arguments of `slst query`.
#[derive(Args, Debug)]
#[command(after_help = QUERY_HELP)]
pub struct QueryArgs {
    /// The index.
    pub index: PathBuf,
    /// Query documents: files, folders or collection files (any source `slst batch` reads).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Report documents with resemblance J at least this [default: the index's].
    #[arg(long, value_name = "θ")]
    pub threshold: Option<f64>,
    /// Report documents where either containment is at least this, instead of J ≥ θ.
    #[arg(long, value_name = "θc")]
    pub containment: Option<f64>,
    /// Only the k best hits per query.
    #[arg(long, value_name = "K")]
    pub top: Option<usize>,
    /// Also report every indexed document sharing at least this many words in one passage with
    /// the query, whatever the documents' lengths (an slst index, either mode).
    ///
    /// The blocks grown into passages as `slst compare` prints them; such hits carry
    /// `"passages"` (JSON), and those the rule alone would not report are decided by
    /// `passage`, as `slst batch --min-shared-words` reports pairs. Looks up and compares every
    /// indexed document sharing a block with the query.
    #[arg(long, value_name = "WORDS")]
    pub min_shared_words: Option<usize>,
    /// One JSON line per query document: its summary and a `slst compare --json` record per hit.
    #[arg(long)]
    pub json: bool,
    /// Write each query's time in milliseconds (index lookup and verification) to this file,
    /// one line per query: `id<TAB>ms<TAB>candidates<TAB>hits`.
    #[arg(hide_short_help = true, long, value_name = "FILE")]
    pub timings: Option<PathBuf>,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub folders: FolderArgs,
}

pub fn run(command: IndexCommand) -> Result<()> {
    match command {
        IndexCommand::Create(args) => create(args),
        IndexCommand::Add(args) => add(args),
        IndexCommand::Remove(args) => remove(args),
        IndexCommand::Stats(args) => stats(args),
        IndexCommand::Check(args) => check(args),
    }
}

/// What `slst index` refuses before it starts (see [`crate::refuse`]).
pub fn refuse(command: &IndexCommand) -> std::result::Result<(), crate::refuse::Refusal> {
    use crate::refuse::{self, Output};
    match command {
        IndexCommand::Create(a) => {
            a.robust.refuse_mode(&[a.method.0])?;
            refuse::outputs(&[], &[Output::file("the index", &a.index)])
        }
        IndexCommand::Add(a) => {
            refuse::inputs(&a.sources)?;
            let index = std::fs::canonicalize(&a.index).ok();
            match a
                .sources
                .iter()
                .find(|s| std::fs::canonicalize(s).ok() == index)
            {
                Some(s) if index.is_some() => Err(format!(
                    "{} is the index, also given as a source; give the documents to add",
                    s.display()
                )),
                _ => Ok(()),
            }
        }
        _ => Ok(()),
    }
}

/// What `slst query` refuses before it starts.
pub fn refuse_query(args: &QueryArgs) -> std::result::Result<(), crate::refuse::Refusal> {
    use crate::refuse::{self, Output};
    refuse::inputs(&args.files)?;
    refuse::threshold_or_containment(args.threshold, args.containment)?;
    let mut inputs: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
    inputs.push(&args.index);
    let timings = args.timings.as_deref();
    let outputs: Vec<Output> = timings
        .map(|p| Output::file("--timings", p))
        .into_iter()
        .collect();
    refuse::outputs(&inputs, &outputs)
}

fn create(args: CreateArgs) -> Result<()> {
    let profile = args.profile.config()?;
    let method = args.method.0;
    if method == Method::MegaShingle
        && let Some(theta) = args.threshold
    {
        return Err(slst::Error::InvalidParameter {
            name: "threshold",
            value: theta.to_string(),
            expected: "no threshold with --method megashingle (a duplicate shares a megashingle)",
        });
    }
    let slst = slst_config(
        &profile,
        args.min_block,
        args.threshold,
        MatchKey::default(),
    );
    let settings = MethodSettings {
        slst_mode: args.robust.mode()?,
        robust: args.robust.config(&slst)?,
        slst,
        shingle: args.shingle.config(args.threshold, &profile.stopwords),
        megashingle: args.megashingle.config(&profile.stopwords),
        ..MethodSettings::default()
    };
    Index::create_with(&args.index, method, settings)?;
    Ok(())
}

fn add(args: AddArgs) -> Result<()> {
    slst::corpus::check_sources(&args.sources)?;
    let mut index = Index::open(&args.index)?;
    let bars = Bars::new(!args.quiet.verbose());
    let items = read_sources(&args.sources, &args.input.source_options(&args.folders)?);
    let options = AddOptions {
        batch_size: args.batch_size,
        no_replace: args.no_replace,
    };
    let t = Instant::now();
    let summary = index.add(items, &options, &bars)?;
    if args.quiet.verbose() {
        eprintln!(
            "slst: added {} ({} replaced) in {}, {:.1} s",
            count(summary.added, "document", "documents"),
            summary.replaced,
            count(summary.batches, "batch", "batches"),
            t.elapsed().as_secs_f64()
        );
        for id in &summary.refused {
            eprintln!("slst: refused {id}: already indexed (--no-replace)");
        }
        for s in &summary.skipped {
            eprintln!("slst: skipped {}: {}", s.location, s.reason);
        }
    } else {
        args.quiet.skipped_line(
            &summary.skipped,
            summary.added + summary.refused.len(),
            "run without -q to see them",
        );
    }
    if summary.added == 0 && summary.refused.is_empty() {
        return Err(slst::Error::NothingRead {
            skipped: summary.skipped.len(),
            first: summary.skipped.first().map(crate::args::skip_text),
        });
    }
    crate::args::named_inputs_skipped(
        &args.sources,
        &summary.skipped,
        &args.input.source_options(&args.folders)?,
    )
}

fn remove(args: RemoveArgs) -> Result<()> {
    let mut index = Index::open(&args.index)?;
    let missing = index.remove(&args.ids)?;
    for id in &missing {
        eprintln!("slst: warning: {id} is not in the index");
    }
    Ok(())
}

fn stats(args: PathArgs) -> Result<()> {
    let index = Index::open(&args.index)?;
    let s = index.stats()?;
    if args.json {
        return crate::emit(&(crate::profile::to_json(&Versioned::new(&s)) + "\n"));
    }
    // SL+ST stores one key per kept sentence; the other methods store their sketch keys.
    let per_document = if index.method() == Method::Slst {
        "sentences     "
    } else {
        "stored keys   "
    };
    crate::emit(&format!(
        "format version  {}\nmethod          {}\ndocuments       {}\n{per_document}  {}\nkeys            {}\npostings        {}\nbatches         {}\nsize on disk    {} bytes\n",
        s.format_version,
        s.method,
        s.documents,
        s.sentences,
        s.keys,
        s.postings,
        s.batches,
        s.bytes_on_disk
    ))
}

fn check(args: PathArgs) -> Result<()> {
    let index = Index::open(&args.index)?;
    let problems = index.check()?;
    if args.json {
        crate::emit(&(crate::profile::to_json(&problems) + "\n"))?;
    } else if problems.is_empty() {
        crate::emit(&format!("{}: ok\n", args.index.display()))?;
    } else {
        let mut text = String::new();
        for p in &problems {
            let _ = writeln!(text, "{}: {p}", args.index.display());
        }
        crate::emit(&text)?;
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(slst::Error::Database {
            path: args.index,
            detail: format!("{} problems found", problems.len()),
        })
    }
}

/// One query's JSON line: the query document, how many candidates were looked at, and the
/// record `slst compare --json` gives for each hit.
#[derive(Serialize)]
struct QueryRecord<'a, E: Serialize> {
    schema_version: u32,
    query: DocumentSummary,
    candidates: usize,
    hits: Vec<CompareRecord<'a, E>>,
}

/// Every query of `slst query`, with the index's detector.
struct Queries<'a> {
    args: &'a QueryArgs,
    index: &'a Index,
    options: QueryOptions,
    sources: slst::corpus::SourceOptions,
}

impl WithDetector for Queries<'_> {
    type Output = Result<()>;

    fn with<D: Detector>(self, d: &D) -> Result<()> {
        let args = self.args;
        let mut timings = String::new();
        for doc in query_documents(args, &self.sources) {
            let t = Instant::now();
            let result = self.index.query(d, &doc, &self.options)?;
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            let _ = writeln!(
                timings,
                "{}\t{ms:.3}\t{}\t{}",
                doc.id,
                result.candidates,
                result.hits.len()
            );
            let records: Vec<CompareRecord<'_, D::Evidence>> = result
                .hits
                .iter()
                .map(|h| {
                    let mut r = CompareRecord::new(
                        d,
                        (&doc, &result.sketch),
                        (&h.document, &h.sketch),
                        &h.comparison,
                    );
                    if let Some(passages) = &h.passages {
                        r = r.with_passages(passages.clone(), &doc, &h.document);
                    }
                    if h.by_passage {
                        r.decided_by = DecidedBy::Passage;
                        r.condition = DecidedBy::Passage.condition();
                    }
                    match args.containment {
                        Some(theta) => r.with_containment_threshold(theta),
                        None => r,
                    }
                })
                .collect();
            let query = DocumentSummary::new(&doc, d.sentence_counts(&result.sketch))
                .with_stopwords(&doc, &d.params());
            if args.json {
                let record = QueryRecord {
                    schema_version: SCHEMA_VERSION,
                    query,
                    candidates: result.candidates,
                    hits: records,
                };
                crate::emit(&(crate::profile::to_json(&record) + "\n"))?;
            } else {
                crate::emit(&query_text(&query, d, &records))?;
            }
        }
        if let Some(path) = &args.timings {
            slst::batch::output::write_atomically(path, |w| w.write_all(timings.as_bytes()))?;
        }
        Ok(())
    }
}

/// The text of one query's hits: SL+ST's with their blocks, the others' with their evidence.
fn query_text<D: Detector>(
    query: &DocumentSummary,
    d: &D,
    records: &[CompareRecord<'_, D::Evidence>],
) -> String {
    // Hits kept by a shared passage alone are not near-duplicates: counted apart.
    let by_passage = records
        .iter()
        .filter(|r| r.decided_by == DecidedBy::Passage)
        .count();
    let mut found = count(
        records.len() - by_passage,
        "near-duplicate",
        "near-duplicates",
    );
    if by_passage > 0 {
        let _ = write!(
            found,
            ", {}",
            count(by_passage, "sharing a passage", "sharing passages")
        );
    }
    let mut text = match query.counts {
        Some(counts) => format!(
            "{}: {found} ({})\n",
            query.id,
            count(counts.sentences, "sentence", "sentences")
        ),
        None => format!("{}: {found} ({}, {})\n", query.id, d.method(), d.rule()),
    };
    let score = |x: Option<f64>| x.map_or("undefined".to_string(), |x| format!("{x:.3}"));
    for r in records {
        match &r.blocks {
            Some(blocks) => {
                let _ = writeln!(
                    text,
                    "  {}  J = {:.3}  containment {:.3} / {:.3}  {}",
                    r.b.id,
                    r.resemblance,
                    r.containment_a.unwrap_or_default(),
                    r.containment_b.unwrap_or_default(),
                    count(blocks.len(), "block", "blocks")
                );
                for b in blocks {
                    let _ = writeln!(
                        text,
                        "    sentences {}..{} = {}..{}  bytes {}..{} = {}..{}  \"{}\"",
                        b.a_start,
                        b.a_start + b.len,
                        b.b_start,
                        b.b_start + b.len,
                        b.a_span[0],
                        b.a_span[1],
                        b.b_span[0],
                        b.b_span[1],
                        b.a_opening
                    );
                }
            }
            None => {
                let evidence = r.evidence.map(crate::profile::to_json).unwrap_or_default();
                let _ = writeln!(
                    text,
                    "  {}  J = {:.3}  containment {} / {}  {}",
                    r.b.id,
                    r.resemblance,
                    score(r.containment_a),
                    score(r.containment_b),
                    evidence
                );
            }
        }
        if r.decided_by == DecidedBy::Passage {
            text.push_str("    kept by a shared passage alone (the rule does not keep it)\n");
        }
        for p in r.passages.iter().flatten() {
            let _ = writeln!(
                text,
                "    passage bytes {}..{} = {}..{}  similarity {:.3}  {} words shared  \"{}\"",
                p.a_span[0],
                p.a_span[1],
                p.b_span[0],
                p.b_span[1],
                p.similarity,
                p.shared_words,
                p.a_opening
            );
        }
    }
    text
}

pub fn query(args: QueryArgs) -> Result<()> {
    let index = Index::open(&args.index)?;
    if let Some(theta) = args.containment
        && index.method() != Method::Slst
    {
        return Err(slst::Error::InvalidParameter {
            name: "containment",
            value: theta.to_string(),
            expected: "no containment threshold with a shingle or megashingle index (a \
                       shingle index decides by the --measure it was created with)",
        });
    }
    if let Some(words) = args.min_shared_words {
        index.check_min_shared_words(words)?;
    }
    let options = QueryOptions {
        threshold: args.threshold,
        containment: args.containment,
        top: args.top,
        min_shared_words: args.min_shared_words,
    };
    let detector = index.query_detector(args.threshold)?;
    let sources = args.input.source_options(&args.folders)?;
    detector.visit(Queries {
        args: &args,
        index: &index,
        options,
        sources,
    })
}

/// The query documents of `args`, skipped ones reported on standard error.
fn query_documents(
    args: &QueryArgs,
    sources: &slst::corpus::SourceOptions,
) -> impl Iterator<Item = Document> + use<> {
    read_sources(&args.files, sources).filter_map(|item| match item {
        slst::corpus::Item::Document(doc) => Some(doc),
        slst::corpus::Item::Skipped(s) => {
            eprintln!("slst: skipped {}: {}", s.location, s.reason);
            None
        }
    })
}
