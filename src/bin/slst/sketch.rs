//! `slst sketch --method NAME FILE`: what a method keeps of one document.

use std::path::PathBuf;

use clap::Args;
use serde_json::Value;
use slst::method::{Method, WithDetector};
use slst::report::{SketchRecord, Versioned};
use slst::{Detector, Document, Result, SlstConfig};

use crate::args::{InputArgs, MethodArg, ProfileFlags};
use crate::methods::MethodFlags;

/// The end of the help: examples and the page to read.
const HELP: &str = "\
Examples:
  slst sketch --method shingle a.txt
  slst sketch --method spotsigs --json a.txt

Docs: docs/compare.md";

/// Arguments of `slst sketch`.
#[derive(Args, Debug)]
#[command(after_help = HELP)]
pub struct SketchArgs {
    /// The document: a file of any format slst reads (gzip'd or not).
    pub file: PathBuf,
    /// The method.
    #[arg(long, value_enum, default_value_t = MethodArg(Method::Slst), value_name = "NAME")]
    pub method: MethodArg,
    /// The id to take from a file holding several documents (TREC DOCNO, Reuters-21578 NEWID,
    /// JSON-lines id field, WARC URI).
    #[arg(long, value_name = "ID")]
    pub doc: Option<String>,
    /// Print one JSON object (for shingles: `fingerprints` in text order).
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub profile: ProfileFlags,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub methods: MethodFlags,
}

/// What a method keeps of one document, as JSON.
struct Sketch<'a>(&'a Document);

impl WithDetector for Sketch<'_> {
    type Output = String;

    fn with<D: Detector>(self, d: &D) -> String {
        crate::profile::to_json(&Versioned::new(SketchRecord::new(d, self.0)))
    }
}

pub fn run(args: SketchArgs) -> Result<()> {
    let profile = args.profile.config()?;
    let slst = SlstConfig {
        profile,
        ..SlstConfig::default()
    };
    args.methods.robust.mode()?;
    let settings = args.methods.settings(slst, None)?;
    // Settings are checked before the file is read.
    let detector = settings.detector(args.method.0)?;
    let doc = args.input.read(&args.file, args.doc.as_deref())?;
    let json = detector.visit(Sketch(&doc));
    if args.json {
        crate::emit(&(json + "\n"))
    } else {
        // The text shows the record's fields as they come, whatever the method.
        let record: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
        crate::emit(&to_text(&record))
    }
}

/// How many numbers a line of the text output holds.
const PER_LINE: usize = 6;

/// The human-readable form of a sketch record: scalar fields one per line, lists below their
/// name with their length, the settings last.
fn to_text(sketch: &Value) -> String {
    let mut out = String::new();
    let Value::Object(fields) = sketch else {
        return format!("{sketch}\n");
    };
    for (key, value) in fields {
        match (key.as_str(), value) {
            ("schema_version", _) => {}
            ("params", Value::Object(params)) => {
                let list: Vec<String> = params
                    .iter()
                    .map(|(k, v)| format!("{k} {}", scalar(v)))
                    .collect();
                out.push_str(&format!("settings: {}\n", list.join(", ")));
            }
            (_, Value::Array(items)) => {
                out.push_str(&format!("{key} ({}):\n", items.len()));
                let cells: Vec<String> = items.iter().map(cell).collect();
                if items.iter().all(Value::is_number) {
                    let width = cells.iter().map(String::len).max().unwrap_or(0);
                    for line in cells.chunks(PER_LINE) {
                        let line: Vec<String> =
                            line.iter().map(|c| format!("{c:>width$}")).collect();
                        out.push_str(&format!("  {}\n", line.join("  ")));
                    }
                } else {
                    for c in cells {
                        out.push_str(&format!("  {c}\n"));
                    }
                }
            }
            _ => out.push_str(&format!("{key:<14} {}\n", scalar(value))),
        }
    }
    out
}

/// A scalar as plain text.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "—".into(),
        Value::Array(items) => items.iter().map(scalar).collect::<Vec<_>>().join(","),
        other => other.to_string(),
    }
}

/// One list element as plain text: `{signature, count}` as `count  signature`, lists of
/// numbers joined by `-`.
fn cell(v: &Value) -> String {
    match v {
        Value::Object(o) => match (o.get("count"), o.get("signature")) {
            (Some(count), Some(sig)) => format!("{:>6}  {}", scalar(count), scalar(sig)),
            _ => v.to_string(),
        },
        Value::Array(items) => items.iter().map(scalar).collect::<Vec<_>>().join("-"),
        other => scalar(other),
    }
}
