//! `slst synth SOURCE… --docs N --seed S --out FILE --truth FILE`: planted near-duplicates of
//! real documents, with ground truth and an edit log.

use std::path::{Path, PathBuf};

use clap::Args;
use slst::batch::output::write_atomically;
use slst::corpus::{Item, SourceOptions, read_sources};
use slst::synth::{self, EditKind, KindSpec, SynthConfig};
use slst::text::StopWords;
use slst::{Document, Result};

use crate::args::{FolderArgs, InputArgs, QuietArgs};

/// The end of the help: examples and the page to read.
const HELP: &str = "\
Examples:
  slst synth kjv.trec.gz --docs 200 --seed 1 --out synth.trec --truth truth.tsv

Docs: docs/sets.md";

/// Arguments of `slst synth`.
#[derive(Args, Debug)]
#[command(after_help = HELP)]
pub struct SynthArgs {
    /// The real documents: files, folders or `-` (any format `slst batch` reads).
    #[arg(required = true)]
    pub sources: Vec<PathBuf>,
    /// How many documents to take as originals (each gets one variant).
    #[arg(long, value_name = "N")]
    pub docs: usize,
    /// The seed of every random choice: the same input and seed give the same bytes.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
    /// Where to write originals and variants (TREC SGML).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Where to write the truth (id_a<TAB>id_b<TAB>kind<TAB>amount); read it with
    /// `slst eval --truth FILE --positive KIND,…`.
    #[arg(long, value_name = "FILE")]
    pub truth: PathBuf,
    /// Also write every edit, one JSON object per variant, to this file.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// The kinds to plant, each KIND or KIND:SETTING, dealt out evenly: last-paragraph[:8],
    /// every-nth[:5], delete[:0.2], insert[:0.2], reorder[:4], substitute[:0.1], paste[:5],
    /// boilerplate[:6], figures[:1] (each figure written another way: `5 pct` as `5%`).
    /// Default: the first eight with those settings.
    #[arg(long, value_delimiter = ',', value_name = "KIND[:A],…")]
    pub kinds: Vec<String>,
    /// Chance that a word of a rewritten sentence is substituted, deleted or followed by an
    /// inserted word (last-paragraph, every-nth).
    #[arg(
        hide_short_help = true,
        long,
        default_value_t = 0.3,
        value_name = "RATE"
    )]
    pub word_rate: f64,
    /// Only documents with at least this many sentences become originals.
    #[arg(hide_short_help = true, long, default_value_t = 8, value_name = "N")]
    pub min_sentences: usize,
    /// Stop words for substitute's stop word ↔ content word swaps (as `compare --stopwords`
    /// takes them: a language, `none` or a file; not `auto`).
    #[arg(
        hide_short_help = true,
        long,
        default_value = "english",
        value_name = "LANGUAGE|none|FILE"
    )]
    pub stopwords: String,
    #[command(flatten)]
    pub quiet: QuietArgs,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub folders: FolderArgs,
}

/// What `slst synth` refuses before it starts (see [`crate::refuse`]).
pub fn refuse(args: &SynthArgs) -> std::result::Result<(), crate::refuse::Refusal> {
    use crate::refuse::{self, Output};
    refuse::inputs(&args.sources)?;
    let mut inputs: Vec<&Path> = args.sources.iter().map(PathBuf::as_path).collect();
    inputs.extend(refuse::stopword_file(&args.stopwords));
    let mut outputs = vec![
        Output::file("--out", &args.out),
        Output::file("--truth", &args.truth),
    ];
    outputs.extend(args.log.as_deref().map(|p| Output::file("--log", p)));
    refuse::outputs(&inputs, &outputs)
}

pub fn run(args: SynthArgs) -> Result<()> {
    let kinds = if args.kinds.is_empty() {
        KindSpec::all()
    } else {
        args.kinds
            .iter()
            .map(|k| k.parse())
            .collect::<Result<Vec<KindSpec>>>()?
    };
    let stopwords = StopWords::named(&args.stopwords)?;
    let config = SynthConfig {
        docs: args.docs,
        seed: args.seed,
        kinds,
        word_rate: args.word_rate,
        min_sentences: args.min_sentences,
        stopwords,
    };
    config.validate()?;
    let docs = read_documents(
        &args.sources,
        &args.input.source_options(&args.folders)?,
        args.quiet,
    );
    let out = synth::synthesize(docs, &config)?;
    write_atomically(&args.out, |w| out.write_corpus(w))?;
    write_atomically(&args.truth, |w| out.write_truth(w))?;
    if let Some(log) = &args.log {
        write_atomically(log, |w| out.write_log(w))?;
    }
    if args.quiet.verbose() {
        if !out.duplicate_ids.is_empty() {
            eprintln!(
                "slst: note: {} documents repeat an earlier id and were left out (first: {})",
                out.duplicate_ids.len(),
                out.duplicate_ids[0]
            );
        }
        let counts: Vec<String> = EditKind::ALL
            .iter()
            .filter_map(|k| {
                let n = out.records.iter().filter(|r| r.kind == *k).count();
                (n > 0).then(|| format!("{k} {n}"))
            })
            .collect();
        eprintln!(
            "slst synth: {} originals + {} variants → {} ({}); truth → {}",
            out.records.len(),
            out.records.len(),
            args.out.display(),
            counts.join(", "),
            args.truth.display()
        );
    }
    Ok(())
}

/// Every document of the sources; what cannot be read is reported and skipped.
pub fn read_documents(
    sources: &[PathBuf],
    options: &SourceOptions,
    quiet: QuietArgs,
) -> Vec<Document> {
    let mut docs = Vec::new();
    let mut skipped = Vec::new();
    for item in read_sources(sources, options) {
        match item {
            Item::Document(d) => docs.push(d),
            Item::Skipped(s) => {
                if quiet.verbose() {
                    eprintln!(
                        "slst: skipped {}{}: {}",
                        s.location,
                        s.id.as_ref().map(|i| format!(" ({i})")).unwrap_or_default(),
                        s.reason
                    );
                }
                skipped.push(s);
            }
        }
    }
    if quiet.verbose() {
        if let Some(line) = crate::args::skipped_line(&skipped, docs.len()) {
            eprintln!("slst: {line}");
        }
    } else {
        quiet.skipped_line(&skipped, docs.len(), "run without -q to see them");
    }
    docs
}
