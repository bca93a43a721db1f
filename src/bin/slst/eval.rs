//! `slst eval SOURCE… --truth FILE`: precision, recall and F1 against labelled pairs.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use slst::corpus::{Item, read_sources};
use slst::eval::{self, EvalConfig, MethodEval, ScoreKind, Universe, truth};
use slst::method::SlstMode;
use slst::{Error, MatchKey, Result, SlSt, SlstConfig};

use crate::args::{InputArgs, ProfileFlags};

/// Arguments of `slst eval`.
#[derive(Args, Debug)]
pub struct EvalArgs {
    /// The documents: files, folders or `-`.
    #[arg(required = true)]
    pub sources: Vec<PathBuf>,
    /// The ground truth file.
    #[arg(long, value_name = "FILE")]
    pub truth: PathBuf,
    /// `pairs` (id_a<TAB>id_b<TAB>label) or `clusters` (cluster_id<TAB>doc_id, or
    /// cluster_id<TAB>space-separated ids).
    #[arg(long, value_enum, default_value_t = TruthFormat::Pairs)]
    pub truth_format: TruthFormat,
    /// Labels of a pairs file that count as positive (default `1`).
    #[arg(long, value_delimiter = ',', value_name = "LABEL,…")]
    pub positive: Vec<String>,
    /// Pairs left out of scoring (id_a<TAB>id_b per line), e.g. genuine quotations.
    #[arg(long, value_name = "FILE")]
    pub ignore: Option<PathBuf>,
    /// `all`: every pair of documents, unlisted pairs negative; `listed`: only the truth's pairs.
    #[arg(long, value_enum, default_value_t = UniverseArg::All)]
    pub universe: UniverseArg,
    /// The score thresholded: resemblance, or the larger containment.
    #[arg(long, value_enum, default_value_t = ScoreArg::Resemblance)]
    pub score: ScoreArg,
    /// The methods to evaluate: slst, shingle, megashingle, polyhash, spotsigs, sentlen, md5,
    /// slst-robust (SL+ST's robust mode, whatever --mode says), a comma-separated list of them,
    /// or `all` (which may be followed by more, e.g. `all,slst-robust`). Every method is scored by its own resemblance (or containment with --score), so
    /// its own threshold does not matter here.
    #[arg(long, default_value = "slst")]
    pub method: String,
    /// Print one JSON object instead of the tables.
    #[arg(long)]
    pub json: bool,
    /// Web pages: leave out blocks whose normalised text recurs on more than
    /// --boilerplate-pages pages
    /// (navigation, footers) before scoring; they are listed on standard error (and in --json).
    #[arg(long)]
    pub drop_boilerplate: bool,
    /// With --drop-boilerplate: a block is boilerplate when it recurs on more than this many
    /// pages.
    #[arg(long, default_value_t = 10, value_name = "N")]
    pub boilerplate_pages: usize,
    /// Write PNG plots (P/R/F1 against θ per method; pairs reported against θ) into this folder.
    #[arg(long, value_name = "DIR")]
    pub plots: Option<PathBuf>,
    /// A title for the plots.
    #[arg(long, default_value = "evaluation")]
    pub title: String,
    /// Print the whole threshold sweep of each method.
    #[arg(long)]
    pub sweep: bool,
    /// Blocks shorter than this many sentences are dropped (SL+ST).
    #[arg(long, default_value_t = 2, value_name = "SENTENCES")]
    pub min_block: usize,
    #[command(flatten)]
    pub profile: ProfileFlags,
    #[command(flatten)]
    pub methods: crate::methods::MethodFlags,
    #[command(flatten)]
    pub input: InputArgs,
}

/// Truth file layouts.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum TruthFormat {
    /// Labelled pairs.
    Pairs,
    /// Clusters.
    Clusters,
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

pub fn run(args: EvalArgs) -> Result<()> {
    let slst_config = SlstConfig {
        profile: args.profile.config()?,
        min_block: args.min_block,
        threshold: 0.5,
        match_key: MatchKey::LengthAndLeading,
    };
    let profile_config = args.profile.config()?;
    let settings = args
        .methods
        .settings(slst_config.clone(), &profile_config, None)?;
    // `slst-robust` names the robust mode beside the others (`--method all,slst-robust`);
    // `--mode robust` makes `slst` itself robust.
    let mut robust_settings = settings.clone();
    robust_settings.slst_mode = SlstMode::Robust;
    let detectors: Vec<(Box<dyn slst::AnyDetector>, bool)> = args
        .method
        .split(',')
        .map(str::trim)
        .map(|name| match name {
            "slst-robust" => Ok(vec![(robust_settings.detector("slst")?, true)]),
            _ => Ok(crate::methods::detectors(name, &settings)?
                .into_iter()
                .map(|d| {
                    let robust = d.name() == "slst" && settings.slst_mode == SlstMode::Robust;
                    (d, robust)
                })
                .collect()),
        })
        .collect::<Result<Vec<_>>>()?
        .into_iter()
        .flatten()
        .collect();
    let truth_text = read_text(&args.truth)?;
    let positive: Vec<&str> = args.positive.iter().map(String::as_str).collect();
    let truth = match args.truth_format {
        TruthFormat::Pairs => truth::read_pairs(&truth_text, &positive),
        TruthFormat::Clusters => truth::read_clusters(&truth_text),
    }
    .map_err(|(line, detail)| Error::Jsonl {
        path: args.truth.clone(),
        line,
        detail,
    })?;
    let ignore = match &args.ignore {
        Some(path) => truth::read_ignore(&read_text(path)?),
        None => Default::default(),
    };
    let mut skipped = 0;
    let mut docs: Vec<slst::Document> = read_sources(&args.sources, &args.input.source_options())
        .filter_map(|item| match item {
            Item::Document(d) => Some(d),
            Item::Skipped(s) => {
                skipped += 1;
                eprintln!("slst: skipped {}: {}", s.location, s.reason);
                None
            }
        })
        .collect();
    let dropped = if args.drop_boilerplate {
        slst::web::drop_boilerplate(&mut docs, args.boilerplate_pages)
    } else {
        Vec::new()
    };
    if !dropped.is_empty() && !args.json {
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
        ..EvalConfig::default()
    };
    let prepared = eval::prepare(&docs, &truth, &ignore, config.universe);
    let slst = SlSt::new(slst_config)?;
    let results: Vec<MethodEval> = detectors
        .iter()
        .map(|(d, robust)| {
            let robust = *robust;
            let typed = (d.name() == "slst" && !robust).then_some(&slst);
            let mut r = eval::evaluate(&prepared, d.as_ref(), typed, &config);
            if d.name() == "slst" && robust {
                r.method = "slst-robust";
            }
            r
        })
        .collect();
    if let Some(dir) = &args.plots {
        let files = eval::plot::write_plots(dir, &args.title, &results)?;
        if !args.json {
            eprintln!("slst: wrote {} plots to {}", files.len(), dir.display());
        }
    }
    let set = prepared.set();
    if args.json {
        let v = serde_json::json!({
            "set": set,
            "documents_skipped": skipped,
            "boilerplate_blocks": dropped,
            "universe": match config.universe { Universe::All => "all", Universe::Listed => "listed" },
            "score": match config.score { ScoreKind::Resemblance => "resemblance", ScoreKind::Containment => "containment" },
            "methods": results,
        });
        return crate::emit(&(v.to_string() + "\n"));
    }
    let mut out = format!(
        "{} documents ({} skipped); {} pairs in the universe, {} positive; {} truth pairs name documents not read; {} ignored\n\n",
        set.documents, skipped, set.universe, set.positives, set.truth_pairs_missing, set.ignored
    );
    let w = results
        .iter()
        .map(|r| r.method.chars().count())
        .max()
        .unwrap_or(0)
        .max(12);
    out.push_str(&format!("{:<w$}  best θ  precision  recall      F1       TP       FP       FN        χ²  compared  seconds\n", "method"));
    for r in &results {
        let b = r.best;
        out.push_str(&format!(
            "{:<w$}  {:>6.2}  {:>9.4}  {:>6.4}  {:>6.4}  {:>7}  {:>7}  {:>7}  {:>8.1}  {:>8}  {:>7.2}\n",
            r.method, b.threshold, b.precision, b.recall, b.f1, b.tp, b.fp, b.fn_, r.chi_square, r.pairs_compared, r.seconds
        ));
    }
    if args.sweep {
        for r in &results {
            out.push_str(&format!("\n{}\n     θ  precision  recall      F1       TP       FP       FN  FP share  reported\n", r.method));
            for p in &r.sweep {
                out.push_str(&format!(
                    "  {:>4.2}  {:>9.4}  {:>6.4}  {:>6.4}  {:>7}  {:>7}  {:>7}  {:>8.4}  {:>8}\n",
                    p.threshold,
                    p.precision,
                    p.recall,
                    p.f1,
                    p.tp,
                    p.fp,
                    p.fn_,
                    p.false_positive_share,
                    p.reported
                ));
            }
        }
    }
    crate::emit(&out)
}
