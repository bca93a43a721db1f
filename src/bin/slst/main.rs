//! The `slst` command: a thin shell over the slst library. Each subcommand lives in its own
//! file; this one only parses arguments, dispatches and maps errors to exit codes
//! (0 success, 2 error).

mod args;
mod compare;
mod methods;
mod profile;
mod sketch;

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Near-duplicate documents and reused text, by sentence structure (SL+ST).
#[derive(Parser)]
#[command(name = "slst", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compare two documents: scores, decision, and the matching sentence blocks (or any
    /// other method's evidence with --method; all of them side by side with --method all).
    Compare(compare::CompareArgs),
    /// Show a document's sentence profile: each kept sentence's span, length, symbol and
    /// leading terms, and the length string.
    Profile(profile::ProfileArgs),
    /// Show what a method keeps of a document: shingle fingerprints, minima and
    /// super/megashingles, n-gram counts, spot signatures, sentence-length features, a digest.
    Sketch(sketch::SketchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Compare(args) => compare::run(args),
        Command::Profile(args) => profile::run(args),
        Command::Sketch(args) => sketch::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("slst: error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Print to standard output; a closed pipe (`slst … | head`) is not an error.
fn emit(text: &str) -> Result<(), slst::Error> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(slst::Error::Io {
            path: "<standard output>".into(),
            source: e,
        }),
        _ => Ok(()),
    }
}
