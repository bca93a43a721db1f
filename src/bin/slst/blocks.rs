//! `slst blocks FILE`: a web page's structural-semantic blocks, in extraction order.

use std::path::PathBuf;

use clap::Args;
use slst::report::{PageRecord, Versioned};
use slst::{Error, Result};

use crate::args::InputArgs;

/// The end of the help: examples and the page to read.
const HELP: &str = "\
Examples:
  slst blocks page.html
  slst blocks --doc https://example.org/ crawl.warc.gz

Docs: docs/web.md";

/// Arguments of `slst blocks`.
#[derive(Args, Debug)]
#[command(after_help = HELP)]
pub struct BlocksArgs {
    /// The page: an HTML file, or a WARC file (with --doc URI when it holds several pages).
    pub file: PathBuf,
    /// The page to take from a WARC file holding several (its WARC-Target-URI or, with
    /// --warc-id record-id, its WARC-Record-ID).
    #[arg(long, value_name = "ID")]
    pub doc: Option<String>,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Characters of each block's text to show.
    #[arg(long, default_value_t = 72, value_name = "N")]
    pub excerpt: usize,
    #[command(flatten)]
    pub input: InputArgs,
}

pub fn run(args: BlocksArgs) -> Result<()> {
    let mut input = args.input.clone();
    if matches!(input.format, crate::args::FormatArg::Auto)
        && !slst::corpus::web::looks_like_html("", &args.file.display().to_string())
    {
        // A page without a doctype is still a page here; WARC is detected by content.
        let head = std::fs::read(&args.file)
            .map(|b| b.starts_with(b"WARC/") || b.starts_with(&[0x1F, 0x8B]))
            .unwrap_or(false);
        if !head {
            input.format = crate::args::FormatArg::Html;
        }
    }
    let doc = input.read(&args.file, args.doc.as_deref())?;
    let Some(seg) = &doc.segmentation else {
        return Err(Error::NotWebPage {
            path: args.file.clone(),
        });
    };
    let record = PageRecord::new(&doc, seg, args.excerpt);
    if args.json {
        crate::emit(&(crate::profile::to_json(&Versioned::new(&record)) + "\n"))
    } else {
        crate::emit(&record.to_text())
    }
}
