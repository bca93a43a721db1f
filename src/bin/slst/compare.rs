//! `slst compare A B`: is this pair a near-duplicate, how similar, and which blocks match.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use slst::align::AlignConfig;
use slst::method::{Method, MethodSettings, WithDetector};
use slst::report::{CompareRecord, MethodRow, Versioned, methods_table};
use slst::{Detector, Document, Error, MatchKey, Result};

use crate::args::{InputArgs, MethodList, PassageFlags, ProfileFlags};
use crate::methods::MethodFlags;
use crate::methods::slst_config;

/// The end of the help: examples and the page to read.
const HELP: &str = "\
Examples:
  slst compare a.txt b.txt
  slst compare --method all --json a.txt b.txt
  slst compare --doc-a 1 --doc-b 2 reut2-000.sgm reut2-000.sgm

Docs: docs/compare.md";

/// Arguments of `slst compare`.
#[derive(Args, Debug)]
#[command(after_help = HELP)]
pub struct CompareArgs {
    /// The first document (A): a file of any format slst reads, or `-` for standard input.
    pub a: PathBuf,
    /// The second document (B).
    pub b: PathBuf,
    /// The id to take from A when it holds several documents (TREC, SGML, JSON lines, WARC).
    #[arg(long, value_name = "ID")]
    pub doc_a: Option<String>,
    /// The id to take from B when it holds several documents.
    #[arg(long, value_name = "ID")]
    pub doc_b: Option<String>,
    /// The method, or `all` for every method side by side.
    ///
    /// slst (SL+ST), shingle, megashingle, polyhash, spotsigs, sentlen, md5, and for web pages
    /// slst-flat, blocks-md5, blocks-shingle, specialchars, blocks-specialchars; `all`: every
    /// method in one table (with --json, an array of their records).
    #[arg(long, default_value = Method::Slst.name(), value_name = "NAME|all", value_parser = MethodList::parse)]
    pub method: MethodList,
    /// Duplicate when J (or the method's score) is at least this [default: 0.5; spotsigs 0.85].
    #[arg(long, value_name = "θ")]
    pub threshold: Option<f64>,
    /// Also decide "A is contained in B" when containment_a is at least this.
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
    /// What the suffix array matches on: `terms` (length and leading terms in one symbol) or
    /// `length` (the paper's literal length string, verified afterwards). Same blocks either way.
    #[arg(hide_short_help = true, long, value_enum, default_value_t = MatchKeyArg::Terms)]
    pub match_key: MatchKeyArg,
    /// Print one JSON object instead of the report.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub passages: PassageFlags,
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

/// One comparison, as its JSON record, its row of the `--method all` table and its text.
struct Compare<'a> {
    a: &'a Document,
    b: &'a Document,
    containment: Option<f64>,
    passages: Option<AlignConfig>,
}

/// What [`Compare`] gives.
struct Compared {
    json: String,
    row: MethodRow,
    text: String,
}

impl WithDetector for Compare<'_> {
    type Output = Compared;

    fn with<D: Detector>(self, d: &D) -> Compared {
        let (sa, sb) = slst::sketch_pair(d, self.a, self.b);
        let c = d.compare(&sa, &sb);
        let mut record = CompareRecord::new(d, (self.a, &sa), (self.b, &sb), &c);
        if let Some(config) = &self.passages
            && let Some(p) = slst::align::passages(d, (self.a, &sa), (self.b, &sb), &c, config)
        {
            record = record.with_passages(p, self.a, self.b);
        }
        if let Some(theta) = self.containment {
            record = record.with_containment_threshold(theta);
        }
        Compared {
            json: crate::profile::to_json(&Versioned::new(&record)),
            row: MethodRow::from(&record),
            text: record.to_text(),
        }
    }
}

/// The settings of every method from the command line.
fn settings(args: &CompareArgs) -> Result<MethodSettings> {
    let match_key = match args.match_key {
        MatchKeyArg::Terms => MatchKey::LengthAndLeading,
        MatchKeyArg::Length => MatchKey::Length,
    };
    let profile = args.profile.config()?;
    let config = slst_config(&profile, args.min_block, args.threshold, match_key);
    args.methods.robust.mode()?;
    args.methods.settings(config, args.threshold)
}

pub fn run(args: CompareArgs) -> Result<()> {
    let settings = settings(&args)?;
    let methods = &args.method.0;
    let table = methods.len() > 1;
    // Every setting is checked before any file is read.
    let detectors = methods
        .iter()
        .map(|&m| settings.detector(m))
        .collect::<Result<Vec<_>>>()?;
    if let Some(theta) = args.containment {
        slst::error::check_fraction("containment", theta)?;
        if !table && methods[0] != Method::Slst {
            return Err(Error::InvalidParameter {
                name: "containment",
                value: methods[0].to_string(),
                expected: "--method slst or all (for shingles, --measure containment)",
            });
        }
    }
    let doc_a = args.input.read(&args.a, args.doc_a.as_deref())?;
    let doc_b = args.input.read(&args.b, args.doc_b.as_deref())?;
    let compared: Vec<Compared> = detectors
        .iter()
        .map(|d| {
            d.visit(Compare {
                a: &doc_a,
                b: &doc_b,
                // Containment decisions are SL+ST's (SPEC §3.5).
                containment: args.containment.filter(|_| d.method() == Method::Slst),
                passages: args.passages.config(),
            })
        })
        .collect();
    if !table {
        let c = &compared[0];
        return if args.json {
            crate::emit(&(c.json.clone() + "\n"))
        } else {
            crate::emit(&c.text)
        };
    }
    if args.json {
        let records: Vec<&str> = compared.iter().map(|c| c.json.as_str()).collect();
        crate::emit(&format!("[{}]\n", records.join(",")))
    } else {
        let rows: Vec<MethodRow> = compared.into_iter().map(|c| c.row).collect();
        crate::emit(&methods_table(&doc_a.id, &doc_b.id, &rows))
    }
}
