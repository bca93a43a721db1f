//! The `slst` command: a thin shell over the slst library. Each subcommand lives in its own
//! file; this one only parses arguments, dispatches and maps errors to exit codes
//! (0 success, 2 error).

mod args;
mod batch;
mod blocks;
mod compare;
mod dedup;
mod eval;
mod eval_alignment;
#[cfg(feature = "index")]
mod index;
mod methods;
mod pair_args;
mod profile;
mod refuse;
#[cfg(feature = "sample")]
mod sample;
mod robust_flags;
mod sketch;
mod synth;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The end of the help: examples and where to read on.
const HELP: &str = "\
Examples:
  slst compare a.txt b.txt
  slst batch corpus/ --out pairs.jsonl --clusters clusters.tsv
  slst eval answers/ --truth pairs.tsv --positive cut,light --method all

Each command's -h shows its common options and --help all of them.
Docs: README.md, then docs/ (a page per command)";

/// Near-duplicate documents and reused text, by sentence structure (SL+ST).
#[derive(Parser)]
#[command(name = "slst", version, about, long_about = None, after_help = HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compare two documents: scores, decision and the matching sentence blocks.
    ///
    /// With --method, any other method's scores and evidence; with --method all, every method
    /// side by side.
    Compare(compare::CompareArgs),
    /// Find every near-duplicate pair and cluster of a corpus.
    ///
    /// Sources are files, folders and standard input: plain text, TREC and other SGML, JSON
    /// lines, HTML and WARC, gzip'd or not.
    Batch(batch::BatchArgs),
    /// Write a corpus without its near-duplicates, and the table of what was dropped for what.
    ///
    /// The pairs are those `slst batch` reports with the same flags; documents are ranked by
    /// --keep, and one that pairs with a document already kept is dropped.
    Dedup(dedup::DedupArgs),
    /// Score methods against labelled pairs, clusters or text-alignment cases.
    ///
    /// Labelled pairs or clusters: precision, recall and F1 over a threshold sweep, χ², plots.
    /// Text-alignment cases: PAN's character measures of the passages found.
    Eval(eval::EvalArgs),
    /// Plant near-duplicates of real documents, with ground truth and an edit log.
    Synth(synth::SynthArgs),
    /// Build an AP90-S-like subset (BM25 top k of q query documents), with a manifest.
    #[cfg(feature = "sample")]
    Sample(sample::SampleArgs),
    /// Keep a persistent near-duplicate index: create, add, remove, stats, check.
    #[cfg(feature = "index")]
    #[command(subcommand)]
    Index(index::IndexCommand),
    /// Ask an index for the near-duplicates of each query document.
    ///
    /// Scores and verified blocks with spans in both documents, as `slst compare` gives against
    /// each indexed document.
    #[cfg(feature = "index")]
    Query(index::QueryArgs),
    /// Show a document's sentence profile: spans, lengths, symbols, leading terms.
    ///
    /// Each kept sentence's byte span, length, symbol and leading terms, and the length string.
    Profile(profile::ProfileArgs),
    /// Show a web page's structural-semantic blocks.
    ///
    /// In extraction order: weight, depth, DOM path, text length, byte spans and an excerpt.
    Blocks(blocks::BlocksArgs),
    /// Show what a method keeps of a document (fingerprints, signatures, features).
    ///
    /// Shingle fingerprints, minima and super/megashingles, n-gram counts, spot signatures,
    /// sentence-length features, a digest.
    Sketch(sketch::SketchArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage(&e),
    };
    if let Err(refusal) = refuse::refuse(&cli.command) {
        eprintln!("slst: error: {refusal}");
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Command::Compare(args) => compare::run(args),
        Command::Batch(args) => batch::run(args),
        Command::Dedup(args) => dedup::run(args),
        Command::Eval(args) => eval::run(args),
        #[cfg(feature = "index")]
        Command::Index(command) => index::run(command),
        #[cfg(feature = "index")]
        Command::Query(args) => index::query(args),
        Command::Profile(args) => profile::run(args),
        Command::Synth(args) => synth::run(args),
        #[cfg(feature = "sample")]
        Command::Sample(args) => sample::run(args),
        Command::Sketch(args) => sketch::run(args),
        Command::Blocks(args) => blocks::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // Results written, but part of what was asked for is missing.
        Err(e @ slst::Error::NamedInputsSkipped { .. }) => {
            eprintln!("slst: error: {}", describe(&e));
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("slst: error: {}", describe(&e));
            ExitCode::from(2)
        }
    }
}

/// What clap stops at: help and the version on standard output (exit 0); a command line it
/// cannot parse as `slst: error: …` with its usage on standard error (exit 2), as every other
/// error the command prints.
fn usage(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let code = ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // A closed pipe (`slst --help | head`) is not an error.
            let _ = e.print();
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            eprintln!("slst: error: no command given\n");
            let _ = e.print();
        }
        _ => {
            let text = e.render().to_string();
            eprint!(
                "slst: error: {}",
                text.strip_prefix("error: ").unwrap_or(&text)
            );
        }
    }
    code
}

/// The library's error with what the command line adds: settings named by their flags, and
/// what to do about it in terms of commands and flags.
fn describe(e: &slst::Error) -> String {
    use slst::Error;
    match e {
        Error::InvalidParameter {
            name,
            value,
            expected,
        } => format!("invalid setting {} = {value}: {expected}", flag(name)),
        Error::TooLarge { .. } => format!("{e} (raise it with --max-bytes)"),
        Error::IsDirectory { .. } => format!("{e} (give a file; `slst batch` reads folders)"),
        Error::AmbiguousDocument {
            path,
            count,
            examples,
        } => format!(
            "{}: holds {count} documents ({examples}); pick one with --doc ID (compare: --doc-a, --doc-b)",
            path.display()
        ),
        Error::NotWebPage { path } => format!(
            "{}: not a web page (give an HTML or WARC file, or --format html)",
            path.display()
        ),
        Error::NoIndex { .. } => format!("{e} (create one with `slst index create`)"),
        Error::DamagedIndex { .. } => format!("{e} (run `slst index check`)"),
        _ => e.to_string(),
    }
}

/// The flag that sets a library setting named in an error (`method.setting`, or a
/// configuration's `robust.setting`, `profile.setting`, `synth.setting`): its own flag when the
/// method has one ([`methods::FLAG_NAMES`]), else the name with `-` for `_`. Thresholds are named
/// by the shared `--threshold`, which sets every method's.
fn flag(setting: &str) -> String {
    if setting.starts_with("--") {
        // A flag already (a setting the CLI itself checks).
        return setting.into();
    }
    if setting == "spotsigs.idf_band" {
        return "the IDF band".into();
    }
    let (prefix, name) = setting.rsplit_once('.').unwrap_or(("", setting));
    match slst::Method::from_name(prefix) {
        Some(method) if name != "threshold" => methods::flag_of(method, name),
        _ => format!("--{}", name.replace('_', "-")),
    }
}

/// Print to standard output; a closed pipe (`slst … | head`) is not an error.
fn emit(text: &str) -> Result<(), slst::Error> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(slst::Error::Write {
            path: "<standard output>".into(),
            source: e,
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::flag;

    #[test]
    fn settings_are_named_by_their_flags() {
        assert_eq!(flag("shingle.shingle_size"), "--shingle-size");
        assert_eq!(flag("megashingle.seed"), "--permutation-seed");
        assert_eq!(flag("shingle.threshold"), "--threshold");
        assert_eq!(flag("megashingle.shingle_size"), "--mega-shingle-size");
        assert_eq!(flag("robust.term_similarity"), "--term-similarity");
        assert_eq!(flag("profile.max_length"), "--max-length");
        assert_eq!(flag("synth.word_rate"), "--word-rate");
        assert_eq!(flag("containment"), "--containment");
        assert_eq!(flag("--threshold"), "--threshold");
    }
}
