//! `slst sample SOURCE… --queries 6 --top 150 --out FILE --manifest FILE`: an AP90-S-like subset
//! (BM25 top k of q query documents, union), or `--rebuild MANIFEST` to build one again.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use slst::batch::output::write_atomically;
use slst::sample::{self, Analyzer, Manifest, SampleConfig};
use slst::{Error, Result};

use crate::args::{FolderArgs, InputArgs, QuietArgs};

/// The end of the help: examples and the page to read.
const HELP: &str = "\
Examples:
  slst sample reut2-*.sgm --queries 6 --top 150 --out s.trec --manifest s.json
  slst sample --rebuild s.json --out again.trec

Docs: docs/sets.md";

/// Arguments of `slst sample`.
#[derive(Args, Debug)]
#[command(after_help = HELP)]
pub struct SampleArgs {
    /// The corpus: files, folders or `-` (any format `slst batch` reads).
    #[arg(required_unless_present = "rebuild", conflicts_with = "rebuild")]
    pub sources: Vec<PathBuf>,
    /// q: how many query documents to draw at random (ignored with --query-ids).
    #[arg(long, default_value_t = 6, value_name = "Q")]
    pub queries: usize,
    /// k: documents kept from each query's BM25 ranking.
    #[arg(long, default_value_t = 150, value_name = "K")]
    pub top: usize,
    /// The query documents, by id, instead of a random draw.
    #[arg(long, value_delimiter = ',', value_name = "ID,…")]
    pub query_ids: Vec<String>,
    /// The seed of the random draw of query documents.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub seed: u64,
    /// Documents with fewer sentences are never drawn as queries.
    #[arg(hide_short_help = true, long, default_value_t = 3, value_name = "N")]
    pub min_query_sentences: usize,
    /// How text becomes index terms: english (lowercase, stop words, Snowball stemming) or plain
    /// (lowercase only).
    #[arg(hide_short_help = true, long, value_enum, default_value_t = AnalyzerArg::English)]
    pub analyzer: AnalyzerArg,
    /// Where to write the subset (TREC SGML).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Where to write the manifest (JSON). Required unless --rebuild.
    #[arg(long, value_name = "FILE", required_unless_present = "rebuild")]
    pub manifest: Option<PathBuf>,
    /// Build the subset of this manifest again (same sources, reader settings, queries, k,
    /// analyzer) and fail unless it comes out bit for bit the same.
    #[arg(long, value_name = "MANIFEST", conflicts_with_all = ["query_ids", "queries", "top", "seed"])]
    pub rebuild: Option<PathBuf>,
    #[command(flatten)]
    pub quiet: QuietArgs,
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub folders: FolderArgs,
}

/// Analyzers.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum AnalyzerArg {
    /// Lowercase, English stop words, Snowball English stemmer.
    English,
    /// Lowercase only.
    Plain,
}

/// What `slst sample` refuses before it starts (see [`crate::refuse`]): with --rebuild, the
/// manifest and the sources it names are inputs.
pub fn refuse(args: &SampleArgs) -> std::result::Result<(), crate::refuse::Refusal> {
    use crate::refuse::{self, Output};
    refuse::inputs(&args.sources)?;
    let recorded = args.rebuild.as_deref().and_then(|p| Manifest::read(p).ok());
    let mut inputs: Vec<&Path> = args.sources.iter().map(PathBuf::as_path).collect();
    inputs.extend(args.rebuild.as_deref());
    let sources = recorded.map(|m| m.source_paths()).unwrap_or_default();
    inputs.extend(sources.iter().map(PathBuf::as_path));
    let mut outputs = vec![Output::file("--out", &args.out)];
    outputs.extend(
        args.manifest
            .as_deref()
            .map(|p| Output::file("--manifest", p)),
    );
    refuse::outputs(&inputs, &outputs)
}

pub fn run(args: SampleArgs) -> Result<()> {
    let (sources, options, config, recorded) = match &args.rebuild {
        Some(path) => {
            let m = Manifest::read(path)?;
            (
                m.source_paths(),
                m.reader.to_options()?,
                m.config(),
                Some((path, m)),
            )
        }
        None => (
            args.sources.clone(),
            args.input.source_options(&args.folders)?,
            SampleConfig {
                queries: args.queries,
                top: args.top,
                query_ids: args.query_ids.clone(),
                seed: args.seed,
                min_query_sentences: args.min_query_sentences,
                analyzer: match args.analyzer {
                    AnalyzerArg::English => Analyzer::English,
                    AnalyzerArg::Plain => Analyzer::Plain,
                },
            },
            None,
        ),
    };
    let docs = crate::synth::read_documents(&sources, &options, args.quiet);
    let subset = sample::sample(docs, &config)?;
    let trec = subset.to_trec();
    let manifest = Manifest::new(&subset, &config, &sources, &options, &trec);
    if let Some((path, recorded)) = &recorded {
        let diff = recorded.differences(&manifest);
        if !diff.is_empty() {
            return Err(Error::Rebuild {
                path: path.to_path_buf(),
                detail: diff.join("; "),
            });
        }
    }
    write_atomically(&args.out, |w| w.write_all(&trec))?;
    if let Some(path) = &args.manifest {
        write_atomically(path, |w| {
            serde_json::to_writer_pretty(&mut *w, &manifest)?;
            w.write_all(b"\n")
        })?;
    }
    if args.quiet.verbose() {
        for q in &subset.queries {
            eprintln!(
                "slst sample: query {} ({} terms): {} hits, itself at rank {}",
                q.query_id,
                q.terms,
                q.hits.len(),
                q.self_rank
                    .map_or_else(|| format!("> {}", config.top), |r| r.to_string())
            );
        }
        eprintln!(
            "slst sample: {} of {} documents selected → {}{}",
            subset.documents.len(),
            subset.corpus.documents,
            args.out.display(),
            if recorded.is_some() {
                " (identical to the manifest)"
            } else {
                ""
            }
        );
    }
    Ok(())
}
