//! Flags shared by several subcommands, and their translation into library settings.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use slst::corpus::{self, Format, ReadOptions, trec::TrecOptions};
use slst::profile::ProfileConfig;
use slst::text::StopWords;
use slst::{Document, Result};

/// How to read input files.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// Input format: auto (TREC SGML when the file starts with <DOC>, else text), text, trec.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    pub format: FormatArg,
    /// For TREC input: put headline elements (HEAD, HEADLINE, HL) before the body text.
    #[arg(long)]
    pub headlines: bool,
    /// Refuse files larger than this many bytes (after gzip decompression).
    #[arg(long, default_value_t = corpus::DEFAULT_MAX_BYTES, value_name = "BYTES")]
    pub max_bytes: u64,
}

/// The input formats.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum FormatArg {
    /// Detect: TREC SGML when the text starts with <DOC>, else plain text.
    Auto,
    /// Plain text: the whole file is one document.
    Text,
    /// TREC SGML: <DOC><DOCNO>…</DOCNO><TEXT>…</TEXT></DOC>.
    Trec,
}

impl InputArgs {
    /// Read one document, picking `docno` from a TREC file with several; reports a decoding
    /// fallback on standard error.
    pub fn read(&self, path: &Path, docno: Option<&str>) -> Result<Document> {
        let options = ReadOptions {
            format: match self.format {
                FormatArg::Auto => Format::Auto,
                FormatArg::Text => Format::Text,
                FormatArg::Trec => Format::Trec,
            },
            docno: docno.map(str::to_string),
            max_bytes: self.max_bytes,
            trec: TrecOptions {
                include_headlines: self.headlines,
                ..TrecOptions::default()
            },
        };
        let doc = corpus::read_document(path, &options)?;
        if doc.encoding.is_fallback() {
            eprintln!(
                "slst: note: {}: not valid UTF-8, decoded as {} (byte spans refer to the UTF-8 re-encoding)",
                path.display(),
                doc.encoding.name()
            );
        }
        Ok(doc)
    }
}

/// The settings of the profile stage (SPEC §2).
#[derive(Args, Debug, Clone)]
pub struct ProfileFlags {
    /// Sentences with more terms than this are dropped (1–35).
    #[arg(long, default_value_t = 35, value_name = "TERMS")]
    pub max_length: usize,
    /// Leading terms kept per sentence for verification.
    #[arg(long, default_value_t = 2, value_name = "K")]
    pub leading_terms: usize,
    /// Stop words: `english` (built-in list, the default), `none`, or a file with one word per
    /// line.
    #[arg(long, default_value = "english", value_name = "english|none|FILE")]
    pub stopwords: String,
}

impl ProfileFlags {
    /// The library settings these flags stand for.
    pub fn config(&self) -> Result<ProfileConfig> {
        let stopwords = match self.stopwords.as_str() {
            "english" | "en" => StopWords::english(),
            "none" => StopWords::none(),
            path => StopWords::from_file(&PathBuf::from(path))?,
        };
        let config = ProfileConfig {
            max_length: self.max_length,
            leading_terms: self.leading_terms,
            stopwords,
        };
        config.validate()?;
        Ok(config)
    }
}
