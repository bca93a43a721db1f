//! `slst compare A B`: is this pair a near-duplicate, how similar, and which blocks match.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use slst::report::CompareRecord;
use slst::{Detector, MatchKey, Result, SlSt, SlstConfig};

use crate::args::{InputArgs, ProfileFlags};
use crate::methods::MethodFlags;

/// Arguments of `slst compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// The first document (A): a text file, or a TREC SGML file (gzip'd or not).
    pub a: PathBuf,
    /// The second document (B).
    pub b: PathBuf,
    /// The DOCNO to take from A when it is a TREC file with several documents.
    #[arg(long, value_name = "ID")]
    pub doc_a: Option<String>,
    /// The DOCNO to take from B when it is a TREC file with several documents.
    #[arg(long, value_name = "ID")]
    pub doc_b: Option<String>,
    /// The method: slst (SL+ST), shingle, megashingle, polyhash, spotsigs, sentlen, md5, or
    /// `all` (every method side by side in one table; with --json, an array of their records).
    #[arg(long, default_value = "slst", value_name = "NAME|all")]
    pub method: String,
    /// Duplicate when the resemblance J (or the method's own score) is at least this
    /// [default: the method's own: 0.5; 0.85 for spotsigs].
    #[arg(long, value_name = "θ")]
    pub threshold: Option<f64>,
    /// Also decide containment: "A is contained in B" when containment_a is at least this.
    #[arg(long, value_name = "θc")]
    pub containment: Option<f64>,
    /// Blocks shorter than this many sentences are dropped.
    #[arg(long, default_value_t = 2, value_name = "SENTENCES")]
    pub min_block: usize,
    /// What the suffix array matches on: `terms` (length and leading terms in one symbol) or
    /// `length` (the paper's literal length string, verified afterwards). Same blocks either way.
    #[arg(long, value_enum, default_value_t = MatchKeyArg::Terms)]
    pub match_key: MatchKeyArg,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub profile: ProfileFlags,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub methods: MethodFlags,
}

/// The CLI names of [`MatchKey`].
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum MatchKeyArg {
    /// One symbol per (length, leading terms).
    Terms,
    /// The length string alone.
    Length,
}

pub fn run(args: CompareArgs) -> Result<()> {
    let config = SlstConfig {
        profile: args.profile.config()?,
        min_block: args.min_block,
        threshold: args.threshold.unwrap_or(SlstConfig::default().threshold),
        match_key: match args.match_key {
            MatchKeyArg::Terms => MatchKey::LengthAndLeading,
            MatchKeyArg::Length => MatchKey::Length,
        },
    };
    if args.method != "slst" || args.methods.robust.mode() == slst::method::SlstMode::Robust {
        return crate::methods::compare(&args, config);
    }
    let detector = SlSt::new(config)?;
    let doc_a = args.input.read(&args.a, args.doc_a.as_deref())?;
    let doc_b = args.input.read(&args.b, args.doc_b.as_deref())?;
    let (pa, pb) = slst::sketch_pair(&detector, &doc_a, &doc_b);
    let comparison = detector.compare(&pa, &pb);
    let mut record =
        CompareRecord::new((&doc_a, &pa), (&doc_b, &pb), &comparison, detector.config());
    if let Some(theta) = containment_threshold(&args)? {
        record = record.with_containment_threshold(theta);
    }
    if args.json {
        crate::emit(&(crate::profile::to_json(&record) + "\n"))
    } else {
        crate::emit(&record.to_text())
    }
}

/// The `--containment` threshold, checked.
pub fn containment_threshold(args: &CompareArgs) -> Result<Option<f64>> {
    if let Some(theta) = args.containment {
        slst::error::check_fraction("--containment", theta)?;
    }
    Ok(args.containment)
}
