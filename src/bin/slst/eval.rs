//! `slst eval SOURCE… --truth FILE`: precision, recall and F1 against labelled pairs; with
//! text-alignment truth, PAN's character measures of the passages found (`eval_alignment.rs`).

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use slst::corpus::{Item, read_sources};
use slst::eval::{self, EvalConfig, EvalReport, MethodEval, Prepared, ScoreKind, Universe, truth};
use slst::method::{Method, WithDetector};
use slst::{Detector, Error, MatchKey, Result};

use crate::methods::slst_config;

use crate::args::{FolderArgs, InputArgs, MethodList, PassageFlags, ProfileFlags, QuietArgs};

/// The end of the help: examples and the page to read.
const HELP: &str = "\
Examples:
  slst eval answers/ --truth pairs.tsv --positive cut,light --method all
  slst eval susp/ src/ --truth cases.tsv --truth-format alignment --mode paper,robust

Docs: docs/eval.md";

/// Arguments of `slst eval`.
#[derive(Args, Debug)]
#[command(after_help = HELP)]
pub struct EvalArgs {
    /// The documents: files, folders or `-`.
    #[arg(required = true)]
    pub sources: Vec<PathBuf>,
    /// The ground truth file (with --truth-format pan-xml: a file or a folder of them).
    #[arg(long, value_name = "FILE")]
    pub truth: PathBuf,
    /// The truth's layout: labelled pairs or clusters, or text-alignment cases.
    ///
    /// `pairs` (id_a<TAB>id_b<TAB>label), `clusters` (cluster_id<TAB>doc_id, or
    /// cluster_id<TAB>space-separated ids); text alignment, scored by PAN's character measures:
    /// `alignment` (susp<TAB>src<TAB>susp_offset<TAB>susp_length<TAB>src_offset<TAB>src_length,
    /// in characters) or `pan-xml` (PAN 2013's XML files, one per pair of documents).
    #[arg(long, value_enum, default_value_t = TruthFormat::Pairs)]
    pub truth_format: TruthFormat,
    /// Labels of a pairs file that count as positive (default `1`).
    #[arg(long, value_delimiter = ',', value_name = "LABEL,…")]
    pub positive: Vec<String>,
    /// Pairs left out of scoring (id_a<TAB>id_b per line), e.g. genuine quotations.
    #[arg(hide_short_help = true, long, value_name = "FILE")]
    pub ignore: Option<PathBuf>,
    /// `all`: every pair of documents, unlisted pairs negative; `listed`: only the truth's pairs.
    #[arg(long, value_enum, default_value_t = UniverseArg::All)]
    pub universe: UniverseArg,
    /// The score thresholded: resemblance, or the larger containment.
    #[arg(hide_short_help = true, long, value_enum, default_value_t = ScoreArg::Resemblance)]
    pub score: ScoreArg,
    /// The methods to evaluate: a comma-separated list, or `all`.
    ///
    /// slst, shingle, megashingle, polyhash, spotsigs, sentlen, md5 and the web-page methods.
    /// SL+ST is evaluated once per --mode (`--mode paper,robust`: both side by side). Every
    /// method is scored by its own resemblance (or containment with --score), so its own
    /// threshold does not matter here.
    #[arg(long, default_value = Method::Slst.name(), value_name = "NAME,…|all", value_parser = MethodList::parse)]
    pub method: MethodList,
    /// Print one JSON object instead of the tables.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub quiet: QuietArgs,
    /// Web pages: leave out blocks whose normalised text recurs on more than
    /// --boilerplate-pages pages
    /// (navigation, footers) before scoring; they are listed on standard error (and in --json).
    #[arg(hide_short_help = true, long)]
    pub drop_boilerplate: bool,
    /// With --drop-boilerplate: a block is boilerplate when it recurs on more than this many
    /// pages.
    #[arg(hide_short_help = true, long, default_value_t = 10, value_name = "N")]
    pub boilerplate_pages: usize,
    /// Write PNG plots (P/R/F1 against θ per method; pairs reported against θ) into this folder.
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
    /// Text alignment: write the detections scored (all of them, whatever their similarity) as
    /// PAN 2013 detection files into this folder, one `SUSP-SRC.xml` per pair of documents, for
    /// PAN's own scorers; with several methods, one subfolder each (`slst-paper`, `slst-robust`,
    /// `slst-flat`). A folder holding other XML files is refused.
    #[arg(hide_short_help = true, long, value_name = "DIR")]
    pub detections_out: Option<PathBuf>,
    /// A title for the plots.
    #[arg(hide_short_help = true, long, default_value = "evaluation")]
    pub title: String,
    /// Reuse at any length: the decision row also counts every pair sharing at least this many
    /// words in one passage as reported, as `slst batch --min-shared-words` does (SL+ST only;
    /// the sweep still thresholds the score).
    #[arg(hide_short_help = true, long, value_name = "WORDS")]
    pub min_shared_words: Option<usize>,
    /// Print the whole threshold sweep of each method (text alignment: over the passages'
    /// similarity).
    #[arg(long)]
    pub sweep: bool,
    /// Blocks shorter than this many sentences are dropped (SL+ST).
    #[arg(
        hide_short_help = true,
        long,
        default_value_t = 2,
        value_name = "SENTENCES"
    )]
    pub min_block: usize,
    #[command(flatten)]
    pub profile: ProfileFlags,
    // Text alignment: the passage settings; --no-passages scores the blocks instead.
    #[command(flatten)]
    pub passages: PassageFlags,
    #[command(flatten)]
    pub methods: crate::methods::MethodFlags,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub folders: FolderArgs,
}

/// Truth file layouts.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum TruthFormat {
    /// Labelled pairs.
    Pairs,
    /// Clusters.
    Clusters,
    /// Text alignment: a table of cases located by characters in both documents.
    Alignment,
    /// Text alignment: PAN's XML files (features named `plagiarism`).
    PanXml,
}

impl TruthFormat {
    /// Whether the truth locates passages (scored by characters) rather than labelling pairs.
    pub fn is_alignment(self) -> bool {
        matches!(self, TruthFormat::Alignment | TruthFormat::PanXml)
    }
}

/// Universes.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum UniverseArg {
    /// Every pair of documents.
    All,
    /// Only the listed pairs.
    Listed,
}

/// Scores.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum ScoreArg {
    /// Resemblance (Jaccard).
    Resemblance,
    /// The larger containment.
    Containment,
}

fn read_text(path: &std::path::Path) -> Result<String> {
    let bytes = slst::corpus::read_bytes(path, slst::corpus::DEFAULT_MAX_BYTES)?;
    slst::corpus::decode_text(&bytes)
        .map(|(t, _)| t)
        .map_err(|e| Error::Binary {
            path: path.to_path_buf(),
            reason: e.0,
        })
}

/// One method's evaluation.
struct Evaluate<'a> {
    prepared: &'a Prepared<'a>,
    config: &'a EvalConfig,
}

impl WithDetector for Evaluate<'_> {
    type Output = MethodEval;

    fn with<D: Detector>(self, d: &D) -> MethodEval {
        eval::evaluate(self.prepared, d, self.config)
    }
}

/// The truth file, read in its format (pairs or clusters).
fn read_truth(args: &EvalArgs) -> Result<truth::Truth> {
    let truth_text = read_text(&args.truth)?;
    let positive: Vec<&str> = args.positive.iter().map(String::as_str).collect();
    let parsed = match args.truth_format {
        TruthFormat::Pairs => truth::read_pairs(&truth_text, &positive),
        TruthFormat::Clusters => truth::read_clusters(&truth_text),
        TruthFormat::Alignment | TruthFormat::PanXml => {
            return Err(Error::InvalidParameter {
                name: "--truth-format",
                value: "alignment".into(),
                expected: "pairs or clusters (text-alignment truth has its own evaluation)",
            });
        }
    };
    parsed.map_err(|(line, detail)| Error::Jsonl {
        path: args.truth.clone(),
        line,
        detail,
    })
}

/// The detectors asked for: SL+ST once per mode, every other method once; every setting is
/// checked before anything is read.
pub fn detectors(args: &EvalArgs) -> Result<Vec<slst::method::MethodDetector>> {
    let profile = args.profile.config()?;
    let slst_config = slst_config(&profile, args.min_block, None, MatchKey::default());
    let mut settings = args.methods.settings(slst_config, None)?;
    let mut detectors = Vec::new();
    for &method in &args.method.0 {
        let modes = match method {
            Method::Slst => args.methods.robust.modes(),
            _ => vec![settings.slst_mode],
        };
        for mode in modes {
            settings.slst_mode = mode;
            detectors.push(settings.detector(method)?);
        }
    }
    Ok(detectors)
}

/// Every document of the sources (what cannot be read is reported on standard error and
/// counted).
///
/// # Errors
/// No document at all was read.
pub fn read_documents(args: &EvalArgs) -> Result<(Vec<slst::Document>, usize)> {
    let mut skipped = Vec::new();
    let docs: Vec<slst::Document> =
        read_sources(&args.sources, &args.input.source_options(&args.folders)?)
            .filter_map(|item| match item {
                Item::Document(d) => Some(d),
                Item::Skipped(s) => {
                    if args.quiet.verbose() {
                        eprintln!("slst: skipped {}", crate::args::skip_text(&s));
                    }
                    skipped.push(s);
                    None
                }
            })
            .collect();
    if docs.is_empty() {
        return Err(slst::Error::NothingRead {
            skipped: skipped.len(),
            first: skipped.first().map(crate::args::skip_text),
        });
    }
    args.quiet
        .skipped_line(&skipped, docs.len(), "run without -q to see them");
    Ok((docs, skipped.len()))
}

/// What `slst eval` refuses before it starts (see [`crate::refuse`]).
pub fn refuse(args: &EvalArgs) -> std::result::Result<(), crate::refuse::Refusal> {
    use crate::refuse::{self, Output};
    refuse::inputs(&args.sources)?;
    args.methods.robust.refuse_mode(&args.method.0)?;
    let mut inputs: Vec<&Path> = args.sources.iter().map(PathBuf::as_path).collect();
    inputs.push(&args.truth);
    inputs.extend(args.ignore.as_deref());
    inputs.extend(refuse::stopword_file(&args.profile.stopwords));
    let mut outputs = Vec::new();
    outputs.extend(args.plots.as_deref().map(|p| Output::folder("--plots", p)));
    let detections = args.detections_out.as_deref();
    outputs.extend(detections.map(|p| Output::folder("--detections-out", p)));
    refuse::outputs(&inputs, &outputs)
}

pub fn run(args: EvalArgs) -> Result<()> {
    slst::corpus::check_sources(&args.sources)?;
    let detectors = detectors(&args)?;
    if args.truth_format.is_alignment() {
        return crate::eval_alignment::run(&args, &detectors);
    }
    if let Some(dir) = &args.detections_out {
        return Err(Error::InvalidParameter {
            name: "--detections-out",
            value: dir.display().to_string(),
            expected: "given only with --truth-format alignment or pan-xml (pairs have no passages)",
        });
    }
    if let Some(words) = args.min_shared_words {
        for d in &detectors {
            slst::batch::passage::check_method(d.method(), words)?;
        }
    }
    let truth = read_truth(&args)?;
    let ignore = match &args.ignore {
        Some(path) => truth::read_ignore(&read_text(path)?),
        None => Default::default(),
    };
    let (mut docs, skipped) = read_documents(&args)?;
    let dropped = if args.drop_boilerplate {
        slst::web::drop_boilerplate(&mut docs, args.boilerplate_pages)
    } else {
        Vec::new()
    };
    if !dropped.is_empty() && !args.json && args.quiet.verbose() {
        eprintln!("slst: {} boilerplate blocks dropped:", dropped.len());
        for b in dropped.iter().take(20) {
            eprintln!(
                "  on {} pages (first {}): {}",
                b.pages, b.first_page, b.excerpt
            );
        }
    }
    let config = EvalConfig {
        universe: match args.universe {
            UniverseArg::All => Universe::All,
            UniverseArg::Listed => Universe::Listed,
        },
        score: match args.score {
            ScoreArg::Resemblance => ScoreKind::Resemblance,
            ScoreArg::Containment => ScoreKind::Containment,
        },
        min_shared_words: args.min_shared_words,
        ..EvalConfig::default()
    };
    let prepared = eval::prepare(&docs, &truth, &ignore, config.universe);
    let results: Vec<MethodEval> = detectors
        .iter()
        .map(|d| {
            d.visit(Evaluate {
                prepared: &prepared,
                config: &config,
            })
        })
        .collect();
    if let Some(dir) = &args.plots {
        plots(dir, &args, &results)?;
    }
    let report = EvalReport::new(
        prepared.set().clone(),
        skipped,
        dropped,
        config.universe,
        config.score,
        results,
    );
    if args.json {
        crate::emit(&(crate::profile::to_json(&report) + "\n"))
    } else {
        crate::emit(&report.to_text(args.sweep))
    }
}

/// Write the plots (`SLST_FONT` names the TrueType font for their labels).
#[cfg(feature = "plots")]
fn plots(dir: &std::path::Path, args: &EvalArgs, results: &[MethodEval]) -> Result<()> {
    let font = std::env::var_os("SLST_FONT").map(std::path::PathBuf::from);
    let files = eval::plot::write_plots(dir, &args.title, results, font.as_deref())?;
    if !args.json && args.quiet.verbose() {
        eprintln!("slst: wrote {} plots to {}", files.len(), dir.display());
    }
    Ok(())
}

/// Plots need the `plots` feature.
#[cfg(not(feature = "plots"))]
fn plots(dir: &std::path::Path, _args: &EvalArgs, _results: &[MethodEval]) -> Result<()> {
    Err(Error::InvalidParameter {
        name: "plots",
        value: dir.display().to_string(),
        expected: "a build with the `plots` feature",
    })
}
