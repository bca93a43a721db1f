//! `slst profile FILE`: the sentence profile of one document.

use std::path::PathBuf;

use clap::Args;
use slst::report::ProfileRecord;
use slst::{Result, SentenceProfile};

use crate::args::{InputArgs, ProfileFlags};

/// The end of the help: examples and the page to read.
const HELP: &str = "\
Examples:
  slst profile a.txt
  slst profile --doc 5 reut2-000.sgm --json

Docs: docs/compare.md";

/// Arguments of `slst profile`.
#[derive(Args, Debug)]
#[command(after_help = HELP)]
pub struct ProfileArgs {
    /// The document: a file of any format slst reads (gzip'd or not).
    pub file: PathBuf,
    /// The id to take from a file holding several documents (TREC DOCNO, Reuters-21578 NEWID,
    /// JSON-lines id field, WARC URI).
    #[arg(long, value_name = "ID")]
    pub doc: Option<String>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub profile: ProfileFlags,
    #[command(flatten)]
    pub input: InputArgs,
}

pub fn run(args: ProfileArgs) -> Result<()> {
    let config = args.profile.config()?;
    let doc = args.input.read(&args.file, args.doc.as_deref())?;
    let profile = SentenceProfile::new(&doc, &config);
    let record = ProfileRecord::new(&doc, &profile, config.stopwords.for_text(&doc.text).id());
    if args.json {
        crate::emit(&(to_json(&slst::report::Versioned::new(&record)) + "\n"))
    } else {
        crate::emit(&record.to_text(&doc))
    }
}

/// Serialise a record; the records hold only strings, numbers and booleans, which always
/// serialise.
pub fn to_json<T: serde::Serialize>(record: &T) -> String {
    serde_json::to_string(record).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}
