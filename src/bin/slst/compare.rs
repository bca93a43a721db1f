//! `slst compare A B`: is this pair a near-duplicate, how similar, and which blocks match.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use slst::report::CompareRecord;
use slst::{Detector, MatchKey, Result, SlSt, SlstConfig};

use crate::args::{InputArgs, ProfileFlags};

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
    /// Duplicate when the resemblance J is at least this.
    #[arg(long, default_value_t = 0.5, value_name = "θ")]
    pub threshold: f64,
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
        threshold: args.threshold,
        match_key: match args.match_key {
            MatchKeyArg::Terms => MatchKey::LengthAndLeading,
            MatchKeyArg::Length => MatchKey::Length,
        },
    };
    let detector = SlSt::new(config)?;
    let doc_a = args.input.read(&args.a, args.doc_a.as_deref())?;
    let doc_b = args.input.read(&args.b, args.doc_b.as_deref())?;
    let (pa, pb) = slst::sketch_pair(&detector, &doc_a, &doc_b);
    let comparison = detector.compare(&pa, &pb);
    let mut record =
        CompareRecord::new((&doc_a, &pa), (&doc_b, &pb), &comparison, detector.config());
    if let Some(theta) = args.containment {
        if !(0.0..=1.0).contains(&theta) {
            return Err(slst::Error::InvalidParameter {
                name: "--containment",
                value: theta.to_string(),
                expected: "a number from 0 to 1",
            });
        }
        record = record.with_containment_threshold(theta);
    }
    if args.json {
        crate::emit(&(crate::profile::to_json(&record) + "\n"))
    } else {
        crate::emit(&record.to_text())
    }
}
