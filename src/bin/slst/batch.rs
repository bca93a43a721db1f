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
    /// Where to write the pairs (`-`: standard output).
    #[arg(long, default_value = "-", value_name = "FILE")]
    pub out: PathBuf,
    /// Format of the pairs file.
    #[arg(long, value_enum, default_value_t = PairFormatArg::Jsonl)]
    pub out_format: PairFormatArg,
    /// Include each pair's blocks (sentence ranges and byte spans) in JSON-lines output.
    #[arg(long)]
    pub blocks: bool,
    /// Also write clusters (`cluster_id<TAB>doc_id`, the earliest document first) to this file.
    #[arg(long, value_name = "FILE")]
    pub clusters: Option<PathBuf>,
    /// Copies are written once: documents every two of which are pairs at J ≥ this form one
    /// group record.
    ///
    /// A duplicate group is a set of documents every two of which are reported pairs with
    /// resemblance at or above this level. It is written once, as a group record (in JSON-lines
    /// output: before the pairs), instead of as all its pairs.
    #[arg(long, default_value_t = 0.9, value_name = "J")]
    pub group_at: f64,
    /// Write the group records to this file (JSON lines) instead of among the pairs.
    ///
    /// TSV and CSV output hold pairs only: there every pair is written unless this is given.
    #[arg(long, value_name = "FILE")]
    pub groups: Option<PathBuf>,
    /// Also write the pairs inside duplicate groups (their records are still written).
    #[arg(long)]
    pub group_pairs: bool,
    /// Every pair as a pair record, and no group records.
    #[arg(long, conflicts_with_all = ["groups", "group_pairs", "group_at"])]
    pub no_groups: bool,
    /// Also write the run's summary as JSON to this file.
    #[arg(long, value_name = "FILE")]
    pub summary: Option<PathBuf>,
    /// Pairs the decision refuses as templates (robust SL+ST: one text filled with other
    /// figures, one notice for another party): `drop` them, or `report` them as templates.
    ///
    /// `report`: each such pair whose scores reach the rule is written with the reason
    /// (`"template"` in JSON lines, a `template` column in TSV and CSV) and joins no cluster
    /// and no duplicate group.
    #[arg(hide_short_help = true, long, value_enum, default_value_t = TemplatesArg::Drop)]
    pub templates: TemplatesArg,
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
        let format = match args.out_format {
            PairFormatArg::Jsonl => PairFormat::Jsonl,
            PairFormatArg::Tsv => PairFormat::Tsv,
            PairFormatArg::Csv => PairFormat::Csv,
        };
        let clusters = result.clusters();
        let n = result.corpus.ids.len();
        // Group records go among JSON-lines pairs, or to their own file; TSV and CSV hold
        // pairs only, so without a file for the records there are no groups. A pair inside a
        // group is left out wherever its group's record is written, unless asked for.
        let inline = format == PairFormat::Jsonl && args.groups.is_none() && !args.no_groups;
        let grouped = inline || args.groups.is_some();
        let groups = if grouped {
            DuplicateGroups::of(n, &result.pairs, args.group_at)
        } else {
            DuplicateGroups::none(n)
        };
        let leave_out = (grouped && !args.group_pairs).then_some(&groups);
        let ids = &result.corpus.ids;
        let id = |d: usize| ids[d].as_str();
        let mut written = 0;
        output::write_atomically(&args.out, |w| {
            if inline {
                output::write_groups(w, detector.method(), &groups, id)?;
            }
            written = output::write_pairs(
                w,
                detector,
                &result,
                format,
                args.blocks,
                leave_out,
                args.templates == TemplatesArg::Report,
            )?;
            Ok(())
        })?;
        if let Some(path) = &args.groups {
            output::write_atomically(path, |w| {
                output::write_groups(w, detector.method(), &groups, id)
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
    slst::error::check_fraction("group-at", args.group_at)?;
    let (detector, config) = args.pairs.prepare(args.templates == TemplatesArg::Report)?;
    detector.visit(Run {
        args: &args,
        config,
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
