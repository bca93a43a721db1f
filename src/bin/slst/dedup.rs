//! `slst dedup SOURCE… --out OUT --dropped FILE`: the corpus without its near-duplicates.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use slst::batch::dedup::{self, DedupConfig, DroppedFormat, KeepPolicy, write::Output};
use slst::batch::output::{self, BatchSummary};
use slst::batch::{DuplicateGroups, Progress};
use slst::corpus::{Item, SourceOptions, read_records};
use slst::method::WithDetector;
use slst::{Detector, Result};

use crate::batch::Bars;
use crate::pair_args::PairArgs;

/// Arguments of `slst dedup`.
#[derive(Args, Debug)]
pub struct DedupArgs {
    /// Files or folders (read recursively, in path order); not standard input, which dedup
    /// would have to read twice.
    #[arg(required = true)]
    pub sources: Vec<PathBuf>,
    /// Where to write the kept documents: a file for JSON-lines or SGML files (gzip'd if the
    /// name ends in .gz) or Parquet files, a new or empty folder for folders.
    #[arg(long, value_name = "OUT")]
    pub out: PathBuf,
    /// Where to write the dropped documents, one row each with the kept document it copies
    /// (`-`: standard output).
    #[arg(long, value_name = "FILE")]
    pub dropped: PathBuf,
    /// Format of the dropped table [default: by its name: .jsonl, .ndjson or .json → jsonl,
    /// else tsv].
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub dropped_format: Option<DroppedFormatArg>,
    /// Which document of near-duplicates is kept: first (input order), longest (most bytes of
    /// text), most-sentences (most kept sentences), field:NAME (JSON lines: the largest value of
    /// that field).
    #[arg(long, default_value = "first", value_name = "POLICY")]
    pub keep: String,
    #[command(flatten)]
    pub pairs: PairArgs,
}

/// Dropped-table formats.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum DroppedFormatArg {
    /// Tab-separated, with a header line.
    Tsv,
    /// JSON lines.
    Jsonl,
}

pub fn run(args: DedupArgs) -> Result<()> {
    slst::corpus::check_sources(&args.sources)?;
    let keep = KeepPolicy::parse(&args.keep)?;
    let options = args.pairs.input.source_options(&args.pairs.folders)?;
    let output = dedup::write::plan(&args.sources, &args.out, &args.dropped, &options, &keep)?;
    let (detector, batch) = args.pairs.prepare(false)?;
    detector.visit(Run {
        args: &args,
        config: DedupConfig { batch, keep },
        options,
        output,
    })
}

/// One dedup run with the chosen method.
struct Run<'a> {
    args: &'a DedupArgs,
    config: DedupConfig,
    options: SourceOptions,
    output: Output,
}

impl WithDetector for Run<'_> {
    type Output = Result<()>;

    fn with<D: Detector>(self, detector: &D) -> Result<()> {
        let (args, config) = (self.args, &self.config);
        config.keep.check(detector)?;
        let bars = Bars::new(!args.pairs.quiet.verbose());
        // The first pass stops at a document dedup could not write (a WARC record in a folder).
        let mut unwritable = None;
        let records = read_records(&args.sources, &self.options, config.keep.needs_record())
            .map_while(|r| {
                if let (Item::Document(_), Err(e)) = (&r.item, dedup::write::writable(&r.origin)) {
                    unwritable = Some(e);
                    return None;
                }
                Some(r)
            });
        let (result, places) = dedup::run_records(records, detector, config, &bars);
        if let Some(e) = unwritable {
            return Err(e);
        }
        let ids = &result.batch.corpus.ids;
        if ids.is_empty() {
            let skipped = &result.batch.corpus.skipped;
            return Err(slst::Error::NothingRead {
                skipped: skipped.len(),
                first: skipped.first().map(crate::args::skip_text),
            });
        }
        bars.stage("writing kept documents", None);
        let kept = &result.decision.kept;
        let written = dedup::write::write_kept(&self.output, &places, kept)?;
        bars.finish_stage();
        let format = match args.dropped_format {
            Some(DroppedFormatArg::Tsv) => DroppedFormat::Tsv,
            Some(DroppedFormatArg::Jsonl) => DroppedFormat::Jsonl,
            None => DroppedFormat::of_name(&args.dropped),
        };
        output::write_atomically(&args.dropped, |w| {
            dedup::write_dropped(w, result.dropped_records(), format)
        })?;
        self.report(detector, &result, written);
        let outcome = crate::args::named_inputs_skipped(
            &args.sources,
            &result.batch.corpus.skipped,
            &self.options,
        );
        std::mem::forget(result);
        outcome
    }
}

impl Run<'_> {
    /// The summary on standard error: the batch run's, and what was kept and dropped.
    fn report<D: Detector>(&self, detector: &D, result: &dedup::DedupResult<D>, written: usize) {
        let quiet = self.args.pairs.quiet;
        let batch = &result.batch;
        let n = batch.corpus.ids.len();
        let skipped = &batch.corpus.skipped;
        if quiet.verbose() {
            let clusters = batch.clusters();
            let groups = DuplicateGroups::none(n);
            let summary = BatchSummary::new(
                detector,
                batch,
                &clusters,
                &groups,
                (0, 0),
                &self.config.batch,
            );
            eprintln!(
                "{}dedup (keep {}): {n} documents read, {written} kept, {} dropped, {} bad \
                 documents skipped",
                summary.to_text(),
                self.config.keep.name(),
                result.decision.dropped.len(),
                skipped.len(),
            );
        } else {
            quiet.skipped_line(skipped, n, "run without -q to see them");
        }
    }
}
