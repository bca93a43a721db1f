//! `slst blocks FILE`: a web page's structural-semantic blocks, in extraction order.

use std::path::PathBuf;

use clap::Args;
use serde_json::json;
use slst::{Error, Result};

use crate::args::InputArgs;

/// Arguments of `slst blocks`.
#[derive(Args, Debug)]
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

/// The first `n` characters of `text` on one line, with an ellipsis when cut.
fn excerpt(text: &str, n: usize) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= n {
        flat
    } else {
        flat.chars().take(n).collect::<String>() + "…"
    }
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
    if args.json {
        let blocks: Vec<_> = seg
            .blocks
            .iter()
            .enumerate()
            .map(|(i, b)| {
                json!({
                    "block": i + 1,
                    "weight": b.weight,
                    "depth": b.depth,
                    "path": b.path,
                    "chars": b.chars,
                    "ranges": b.ranges.iter().map(|r| [r.start, r.end]).collect::<Vec<_>>(),
                    "excerpt": excerpt(&b.text(&doc.text), args.excerpt),
                })
            })
            .collect();
        let v = json!({
            "id": doc.id,
            "preset": seg.preset.name(),
            "text_bytes": doc.text.len(),
            "chars": seg.blocks.iter().map(|b| b.chars).sum::<usize>(),
            "notes": seg.notes,
            "blocks": blocks,
        });
        return crate::emit(&(crate::profile::to_json(&v) + "\n"));
    }
    let total: usize = seg.blocks.iter().map(|b| b.chars).sum();
    let mut out = format!(
        "{}\n  {} characters of visible text in {} blocks (preset {}); spans are byte offsets into the visible text\n\n",
        doc.id,
        total,
        seg.blocks.len(),
        seg.preset.name()
    );
    for note in &seg.notes {
        out.push_str(&format!("  note: {note}\n"));
    }
    if !seg.notes.is_empty() {
        out.push('\n');
    }
    out.push_str("    #    weight  depth   chars  share  path\n");
    for (i, b) in seg.blocks.iter().enumerate() {
        out.push_str(&format!(
            "  {:>3}  {:>8.3}  {:>5}  {:>6}  {:>4.0}%  {}\n",
            i + 1,
            b.weight,
            b.depth,
            b.chars,
            100.0 * b.chars as f64 / total.max(1) as f64,
            b.path
        ));
        let spans: Vec<String> = b
            .ranges
            .iter()
            .map(|r| format!("{}..{}", r.start, r.end))
            .collect();
        out.push_str(&format!("       bytes {}\n", spans.join(", ")));
        out.push_str(&format!(
            "       {}\n",
            excerpt(&b.text(&doc.text), args.excerpt)
        ));
    }
    crate::emit(&out)
}
