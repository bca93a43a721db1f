//! The flags that decide a corpus run's pairs — method, thresholds, candidates, reading — shared
//! by `slst batch` and `slst dedup`, so that both find the same pairs from the same flags.

use std::path::{Path, PathBuf};

use clap::Args;
use slst::batch::{BatchConfig, Candidates};
use slst::method::{Method, MethodDetector, PairRule};
use slst::{MatchKey, Result};

use crate::args::{FolderArgs, InputArgs, MethodArg, ProfileFlags, QuietArgs};
use crate::batch::CandidatesArg;
use crate::methods::slst_config;

/// Method, rule, candidates and reading of a corpus run.
#[derive(Args, Debug)]
pub struct PairArgs {
    /// The method.
    ///
    /// slst finds candidates with a suffix array; shingle, megashingle, polyhash, spotsigs,
    /// sentlen, md5 and the web-page methods with an inverted index over the method's keys.
    #[arg(long, value_enum, default_value_t = MethodArg(Method::Slst), value_name = "NAME")]
    pub method: MethodArg,
    /// Report pairs whose resemblance J is at least this [default: the method's own, 0.5 for
    /// slst].
    #[arg(long, value_name = "θ")]
    pub threshold: Option<f64>,
    /// Report pairs where either containment is at least this, instead of J ≥ θ.
    #[arg(long, value_name = "θc")]
    pub containment: Option<f64>,
    /// Blocks shorter than this many sentences are dropped.
    #[arg(
        hide_short_help = true,
        long,
        default_value_t = 2,
        value_name = "SENTENCES"
    )]
    pub min_block: usize,
    /// How candidate pairs are found: `index` (exact and fast) or `all` (every pair: slow).
    ///
    /// `index`: a suffix array over the sentence keys of blocks (or the method's own keys);
    /// `all`: compare every pair, slow and obviously correct, for checking.
    #[arg(hide_short_help = true, long, value_enum, default_value_t = CandidatesArg::Index)]
    pub candidates: CandidatesArg,
    /// A run of sentences shared by more documents than this is boilerplate: reported and left
    /// out of candidate generation.
    #[arg(hide_short_help = true, long, default_value_t = slst::batch::DEFAULT_MAX_DF, value_name = "F")]
    pub max_df: usize,
    /// Web pages: leave out blocks whose normalised text recurs on more than
    /// --boilerplate-pages pages
    /// (navigation, footers) before scoring; the summary lists them. Holds every page in memory.
    #[arg(hide_short_help = true, long)]
    pub drop_boilerplate: bool,
    /// With --drop-boilerplate: a block is boilerplate when it recurs on more than this many
    /// pages.
    #[arg(hide_short_help = true, long, default_value_t = 10, value_name = "N")]
    pub boilerplate_pages: usize,
    /// Worker threads: 0 (the default) one per core, at most 4 per core. The output is the same
    /// for any number.
    #[arg(hide_short_help = true, long, value_name = "N")]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub quiet: QuietArgs,
    #[command(flatten)]
    pub profile: ProfileFlags,
    #[command(flatten)]
    pub methods: crate::methods::MethodFlags,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub folders: FolderArgs,
}

impl PairArgs {
    /// Set the number of threads, check the settings, and build the detector and the run's
    /// settings; `templates`: report the pairs the method refuses as templates.
    pub fn prepare(&self, templates: bool) -> Result<(MethodDetector, BatchConfig)> {
        if let Ok(Some(n)) = crate::refuse::threads(self.threads) {
            // Fails only when a pool already exists, which cannot happen this early.
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build_global();
        }
        let profile = self.profile.config()?;
        let slst_config = slst_config(
            &profile,
            self.min_block,
            self.threshold,
            MatchKey::default(),
        );
        if let Some(theta) = self.containment {
            slst::error::check_fraction("containment", theta)?;
        }
        self.methods.robust.mode()?;
        let settings = self.methods.settings(slst_config, self.threshold)?;
        let detector = settings.detector(self.method.0)?;
        let config = BatchConfig {
            rule: match (self.containment, templates) {
                (Some(theta), _) => PairRule::Contained(theta),
                (None, false) => PairRule::Duplicates,
                (None, true) => PairRule::WithTemplates,
            },
            candidates: match self.candidates {
                CandidatesArg::Index => Candidates::Index,
                CandidatesArg::All => Candidates::All,
            },
            max_df: self.max_df,
            drop_boilerplate: self.drop_boilerplate.then_some(self.boilerplate_pages),
            min_shared_words: None,
        };
        Ok((detector, config))
    }

    /// What these flags refuse before a run starts: too many threads, a threshold beside a
    /// containment, a mode for a method that has none.
    pub fn refuse(&self) -> std::result::Result<(), crate::refuse::Refusal> {
        crate::refuse::threads(self.threads)?;
        crate::refuse::threshold_or_containment(self.threshold, self.containment)?;
        self.methods.robust.refuse_mode(&[self.method.0])
    }

    /// The files a run with these flags reads: `sources` and a stop-word file.
    pub fn inputs<'a>(&'a self, sources: &'a [PathBuf]) -> Vec<&'a Path> {
        let mut inputs: Vec<&Path> = sources.iter().map(PathBuf::as_path).collect();
        inputs.extend(crate::refuse::stopword_file(&self.profile.stopwords));
        inputs
    }
}
