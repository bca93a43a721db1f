//! `slst batch SOURCE…`: every near-duplicate pair and cluster of a corpus.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use slst::batch::output::{self, BatchSummary, PairFormat};
use slst::batch::{self, BatchConfig, CandidateSource, Candidates, DuplicateGroups, Progress};
use slst::corpus::read_sources;
use slst::method::WithDetector;
use slst::{Detector, Result};

use crate::pair_args::PairArgs;

/// The end of the help: examples and the page to read.
const HELP: &str = "\
Examples:
  slst batch corpus/ --out pairs.jsonl --clusters clusters.tsv
  slst batch docs.jsonl --id-field url --text-field body --containment 0.8
  slst batch reut2-*.sgm --method shingle --summary summary.json

Docs: docs/batch.md";

/// Arguments of `slst batch`.
#[derive(Args, Debug)]
#[command(after_help = HELP)]
pub struct BatchArgs {
    /// Files, folders (read recursively, in path order) or `-` for standard input.
    #[arg(required = true)]
    pub sources: Vec<PathBuf>,
    /// Where to write the pairs (`-`: standard output); a .jsonl, .tsv, .csv or .parquet name
    /// says the format.
    #[arg(long, default_value = "-", value_name = "FILE")]
    pub out: PathBuf,
    /// Format of the pairs file [default: the one --out's name says, else jsonl].
    ///
    /// Every format holds pair records only, with the same flat columns; TSV and CSV cannot
    /// hold --blocks.
    #[arg(long, value_enum)]
    pub out_format: Option<PairFormatArg>,
    /// Include each pair's blocks (sentence ranges and byte spans): JSON lines and Parquet.
    #[arg(long)]
    pub blocks: bool,
    /// Also write clusters (`cluster_id<TAB>doc_id`, the earliest document first) to this file.
    #[arg(long, value_name = "FILE")]
    pub clusters: Option<PathBuf>,
    /// Duplicate groups are documents every two of which are pairs at J ≥ this.
    ///
    /// A duplicate group is a set of documents every two of which are reported pairs with
    /// resemblance at or above this level. The summary counts them; with --groups FILE each is
    /// written there once, as a group record, instead of as all its pairs.
    #[arg(long, default_value_t = 0.9, value_name = "J")]
    pub group_at: f64,
    /// Write each duplicate group once, as a group record, to this file, and leave the pairs
    /// inside groups out of the pairs file.
    ///
    /// JSON lines, or Parquet for a .parquet name (or with --out-format parquet). Without it,
    /// every pair is written and no group record.
    #[arg(long, value_name = "FILE")]
    pub groups: Option<PathBuf>,
    /// With --groups: also write the pairs inside duplicate groups to the pairs file.
    #[arg(long, requires = "groups")]
    pub group_pairs: bool,
    /// Gone: every pair is written unless --groups FILE is given (refused).
    #[arg(long, hide = true)]
    pub no_groups: bool,
    /// Also write the run's summary as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// Pairs the decision refuses as templates (robust SL+ST: one text filled with other
    /// figures, one notice for another party): `drop` them, or `report` them as templates.
    ///
    /// `report`: each such pair whose scores reach the rule is written with the reason
    /// (`"template"` in JSON lines, the `template` column of the other formats) and joins no
    /// cluster and no duplicate group.
    #[arg(hide_short_help = true, long, value_enum, default_value_t = TemplatesArg::Drop)]
    pub templates: TemplatesArg,
    /// Also report every pair sharing at least this many words in one passage, whatever the
    /// documents' lengths (slst, either mode).
    ///
    /// The blocks (robust mode: with the windows of over-long sentences) grown into passages as
    /// `slst compare` prints them; such pairs carry `"passages"` (JSON lines), and those the
    /// rule alone would not report are decided by `passage`. Holds every text in memory.
    #[arg(long, value_name = "WORDS")]
    pub min_shared_words: Option<usize>,
    #[command(flatten)]
    pub pairs: PairArgs,
}

/// Pair file formats.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum PairFormatArg {
    /// JSON lines.
    Jsonl,
    /// Tab-separated.
    Tsv,
    /// Comma-separated.
    Csv,
    /// Apache Parquet (a build with the `parquet` feature).
    Parquet,
}

impl From<PairFormatArg> for PairFormat {
    fn from(f: PairFormatArg) -> Self {
        match f {
            PairFormatArg::Jsonl => PairFormat::Jsonl,
            PairFormatArg::Tsv => PairFormat::Tsv,
            PairFormatArg::Csv => PairFormat::Csv,
            PairFormatArg::Parquet => PairFormat::Parquet,
        }
    }
}

/// The formats of the pairs file and of the groups file (if any), refused before a run when
/// they cannot hold what was asked.
fn output_formats(args: &BatchArgs) -> Result<(PairFormat, Option<PairFormat>)> {
    if args.no_groups {
        return Err(slst::Error::InvalidParameter {
            name: "--no-groups",
            value: "on".into(),
            expected: "no longer a flag: without --groups FILE every pair is written, and no \
                       group record; leave it out",
        });
    }
    let blocks = args.blocks.then_some("blocks");
    let pairs = PairFormat::for_file(&args.out, args.out_format.map(Into::into), blocks)?;
    let groups = match &args.groups {
        // A name that says no format: the pairs' format if it nests, else JSON lines.
        Some(path) => Some(PairFormat::for_file(
            path,
            PairFormat::of_name(path)
                .is_none()
                .then_some(if pairs.nests() {
                    pairs
                } else {
                    PairFormat::Jsonl
                }),
            Some("group records"),
        )?),
        None => None,
    };
    Ok((pairs, groups))
}

/// What becomes of template pairs.
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum TemplatesArg {
    /// Not reported.
    Drop,
    /// Reported, marked as templates.
    Report,
}

/// Candidate modes.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum CandidatesArg {
    /// Exact-duplicate groups and a generalized suffix array.
    Index,
    /// Every pair.
    All,
}

/// Progress bars on standard error, one per stage.
pub struct Bars {
    hidden: bool,
    bar: Mutex<Option<ProgressBar>>,
}

impl Bars {
    /// Bars drawn on standard error, unless quiet or not a terminal.
    pub fn new(quiet: bool) -> Self {
        Bars {
            hidden: quiet || !std::io::stderr().is_terminal(),
            bar: Mutex::new(None),
        }
    }
}

/// A rate for a progress bar: whole numbers with thousands separators from 100 up
/// (`1,234 docs/s`), one decimal below (`12.3 docs/s`).
pub fn rate(per_sec: f64, unit: &str) -> String {
    if !per_sec.is_finite() || per_sec <= 0.0 {
        return format!("0 {unit}/s");
    }
    if per_sec < 99.95 {
        return format!("{per_sec:.1} {unit}/s");
    }
    let digits = format!("{per_sec:.0}");
    let mut grouped = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    format!("{grouped} {unit}/s")
}

/// What a stage counts, for its rate.
fn unit(stage: &str) -> &'static str {
    if stage.contains("pairs") {
        "pairs"
    } else {
        "docs"
    }
}

impl Progress for Bars {
    fn stage(&self, name: &'static str, total: Option<u64>) {
        let target = if self.hidden {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let unit = unit(name);
        let rate_key = move |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(&rate(state.per_sec(), unit));
        };
        let bar = match total {
            Some(n) => ProgressBar::with_draw_target(Some(n), target).with_style(
                ProgressStyle::with_template(
                    "{msg:>26} [{bar:30}] {human_pos}/{human_len} ({rate}, {eta})",
                )
                .map(|s| s.with_key("rate", rate_key))
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            ),
            None => ProgressBar::with_draw_target(None, target).with_style(
                ProgressStyle::with_template("{msg:>26} {spinner} {human_pos} ({rate}) {elapsed}")
                    .map(|s| s.with_key("rate", rate_key))
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            ),
        };
        bar.set_message(name);
        if let Ok(mut slot) = self.bar.lock() {
            *slot = Some(bar);
        }
    }

    fn advance(&self, n: u64) {
        if let Ok(slot) = self.bar.lock()
            && let Some(bar) = slot.as_ref()
        {
            bar.inc(n);
        }
    }

    fn finish_stage(&self) {
        if let Ok(mut slot) = self.bar.lock()
            && let Some(bar) = slot.take()
        {
            bar.finish();
        }
    }
}

/// One batch run with the chosen method: pairs, clusters, summary.
struct Run<'a> {
    args: &'a BatchArgs,
    config: BatchConfig,
    /// The formats of the pairs file and of the groups file.
    formats: (PairFormat, Option<PairFormat>),
}

impl WithDetector for Run<'_> {
    type Output = Result<()>;

    fn with<D: Detector>(self, detector: &D) -> Result<()> {
        let args = self.args;
        let pairs = &args.pairs;
        let bars = Bars::new(!pairs.quiet.verbose());
        let items = read_sources(&args.sources, &pairs.input.source_options(&pairs.folders)?);
        let result = batch::run(items, detector, &self.config, &bars);
        if result.candidates.source == CandidateSource::AllPairs
            && self.config.candidates == Candidates::Index
            && pairs.quiet.quiet < 2
        {
            eprintln!(
                "slst: warning: {} has no join keys here: every pair of the {} documents is compared",
                detector.method(),
                result.corpus.ids.len()
            );
        }
        let (format, groups_format) = self.formats;
        let clusters = result.clusters();
        let n = result.corpus.ids.len();
        // The groups are always found, for the summary; they are written only to a file of
        // their own, and then the pairs inside them are left out of the pairs file unless asked
        // for.
        let groups = DuplicateGroups::of(n, &result.pairs, args.group_at);
        let leave_out = (args.groups.is_some() && !args.group_pairs).then_some(&groups);
        let ids = &result.corpus.ids;
        let id = |d: usize| ids[d].as_str();
        let mut written = (0, 0);
        output::write_atomically(&args.out, |w| {
            let nested = (args.blocks, args.min_shared_words.is_some());
            written.0 = output::write_pairs(w, detector, &result, format, nested, leave_out)?;
            Ok(())
        })?;
        if let (Some(path), Some(format)) = (&args.groups, groups_format) {
            output::write_atomically(path, |w| {
                written.1 = output::write_groups(w, format, detector.method(), &groups, id)?;
                Ok(())
            })?;
        }
        if let Some(path) = &args.clusters {
            output::write_atomically(path, |w| output::write_clusters(w, id, &clusters))?;
        }
        let summary =
            BatchSummary::new(detector, &result, &clusters, &groups, written, &self.config);
        finish(args, &summary)?;
        if result.corpus.ids.is_empty() {
            return Err(slst::Error::NothingRead {
                skipped: result.corpus.skipped.len(),
                first: result.corpus.skipped.first().map(crate::args::skip_text),
            });
        }
        let outcome = crate::args::named_inputs_skipped(
            &args.sources,
            &result.corpus.skipped,
            &pairs.input.source_options(&pairs.folders)?,
        );
        // The process ends here: its memory goes back whole, where dropping the sketches would
        // free them one allocation at a time (one per kept sentence).
        std::mem::forget(result);
        outcome
    }
}

/// What `slst batch` refuses before it starts (see [`crate::refuse`]).
pub fn refuse(args: &BatchArgs) -> std::result::Result<(), crate::refuse::Refusal> {
    use crate::refuse::{self, Output};
    refuse::inputs(&args.sources)?;
    args.pairs.refuse()?;
    let inputs = args.pairs.inputs(&args.sources);
    let mut outputs = vec![Output {
        default: args.out.as_os_str() == "-",
        ..Output::file("--out", &args.out)
    }];
    let named = [
        ("--clusters", &args.clusters),
        ("--groups", &args.groups),
        ("--summary", &args.summary),
    ];
    for (flag, path) in named {
        outputs.extend(path.as_deref().map(|p| Output::file(flag, p)));
    }
    refuse::outputs(&inputs, &outputs)
}

pub fn run(args: BatchArgs) -> Result<()> {
    slst::corpus::check_sources(&args.sources)?;
    let formats = output_formats(&args)?;
    slst::error::check_fraction("group-at", args.group_at)?;
    let (detector, mut config) = args.pairs.prepare(args.templates == TemplatesArg::Report)?;
    if let Some(words) = args.min_shared_words {
        slst::batch::passage::check_method(detector.method(), words)?;
        config.min_shared_words = Some(words);
    }
    detector.visit(Run {
        args: &args,
        config,
        formats,
    })
}

/// Write the summary file and print the summary.
fn finish(args: &BatchArgs, summary: &BatchSummary) -> Result<()> {
    if let Some(path) = &args.summary {
        output::write_atomically(path, |w| {
            serde_json::to_writer_pretty(&mut *w, summary)?;
            w.write_all(b"\n")
        })?;
    }
    let quiet = args.pairs.quiet;
    if quiet.verbose() {
        eprint!("{}", summary.to_text());
    } else {
        let hint = match &args.summary {
            Some(path) => format!("{} lists them", path.display()),
            None => "--summary FILE lists them".into(),
        };
        quiet.skipped_line(&summary.skipped, summary.documents_read, &hint);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::rate;

    #[test]
    fn rates_are_whole_numbers_with_separators_or_one_decimal() {
        assert_eq!(rate(1234.5678, "docs"), "1,235 docs/s");
        assert_eq!(rate(12.3456, "docs"), "12.3 docs/s");
        assert_eq!(rate(99.96, "pairs"), "100 pairs/s");
        assert_eq!(rate(100.0, "pairs"), "100 pairs/s");
        assert_eq!(rate(7_902_300.4, "pairs"), "7,902,300 pairs/s");
        assert_eq!(rate(0.0, "docs"), "0 docs/s");
        assert_eq!(rate(f64::NAN, "docs"), "0 docs/s");
    }
}
