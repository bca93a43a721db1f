//! Flags shared by several subcommands, and their translation into library settings.

use std::path::{Path, PathBuf};

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};
use slst::align::AlignConfig;
use slst::corpus::jsonl::{self, JsonlOptions};
use slst::corpus::sgml::{IdSource, SgmlOptions};
use slst::corpus::{self, FolderOptions, Format, ReadOptions, SourceOptions, WarcId, WebOptions};
use slst::method::Method;
use slst::profile::ProfileConfig;
use slst::text::StopWords;
use slst::web::{Preset, SegmentConfig};
use slst::{Document, Result};

/// A method named on the command line: the registry's own names ([`Method`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MethodArg(pub Method);

impl ValueEnum for MethodArg {
    fn value_variants<'a>() -> &'a [Self] {
        const ALL: [MethodArg; 12] = {
            let mut all = [MethodArg(Method::Slst); 12];
            let mut i = 0;
            while i < 12 {
                all[i] = MethodArg(Method::ALL[i]);
                i += 1;
            }
            all
        };
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let value = PossibleValue::new(self.0.name());
        Some(match self.0 {
            Method::Slst => value.alias("slst-blocks"),
            _ => value,
        })
    }
}

/// Methods named on the command line: one name, a comma-separated list, or `all` (every method
/// in the registry's order).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodList(pub Vec<Method>);

impl MethodList {
    /// Parse `all` or a comma-separated list of method names.
    pub fn parse(s: &str) -> std::result::Result<MethodList, String> {
        let mut methods = Vec::new();
        for name in s.split(',').map(str::trim) {
            if name == "all" {
                methods.extend(Method::ALL);
            } else {
                methods.push(name.parse::<Method>().map_err(|e| e.to_string())?);
            }
        }
        Ok(MethodList(methods))
    }
}

/// How to read input files.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Input")]
pub struct InputArgs {
    /// Input format (auto: by content).
    ///
    /// auto decides by content, the same rule for every command: WARC/ → warc, a doctype or
    /// <html> or a .html/.htm name → html, <DOC> → trec, Reuters-21578's <REUTERS> → sgml with
    /// its elements, `{` or a .jsonl/.ndjson name → jsonl, else text. sgml takes --doc-tag,
    /// --id-tag or --id-attr, --text-tags (none: a Reuters-21578 file's own, else TREC's); jsonl
    /// takes --id-field, --text-field. In a folder mostly of collection files (trec, sgml, jsonl,
    /// warc), auto leaves out the plain texts and pages beside them (a README, a DTD) and lists
    /// them as skipped.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    pub format: FormatArg,
    /// For TREC input: put headline elements (HEAD, HEADLINE, HL) before the body text.
    #[arg(hide_short_help = true, long)]
    pub headlines: bool,
    /// For --format sgml: the element holding one document [default: DOC].
    ///
    /// When no element is named, a Reuters-21578 file is read with its own (REUTERS, NEWID,
    /// TITLE and BODY), any other with TREC's.
    #[arg(hide_short_help = true, long, value_name = "TAG")]
    pub doc_tag: Option<String>,
    /// For --format sgml: the element holding the id [default: DOCNO].
    #[arg(
        hide_short_help = true,
        long,
        value_name = "TAG",
        conflicts_with = "id_attr"
    )]
    pub id_tag: Option<String>,
    /// For --format sgml: take the id from this attribute of the document element instead
    /// (Reuters-21578: NEWID).
    #[arg(hide_short_help = true, long, value_name = "ATTR")]
    pub id_attr: Option<String>,
    /// For --format sgml: the elements whose text makes the document, in order [default: TEXT].
    #[arg(
        hide_short_help = true,
        long,
        value_name = "TAG,…",
        value_delimiter = ','
    )]
    pub text_tags: Vec<String>,
    /// For JSON lines and Parquet: the field (column) holding the id.
    #[arg(
        hide_short_help = true,
        long,
        visible_alias = "id-column",
        default_value = jsonl::ID_FIELD,
        value_name = "FIELD"
    )]
    pub id_field: String,
    /// For JSON lines and Parquet: the field (column) holding the text.
    #[arg(
        hide_short_help = true,
        long,
        visible_alias = "text-column",
        default_value = jsonl::TEXT_FIELD,
        value_name = "FIELD"
    )]
    pub text_field: String,
    /// For plain-text files: drop a mail/Usenet header block (up to the first blank line).
    #[arg(hide_short_help = true, long)]
    pub mail_body: bool,
    /// Refuse larger files or documents (bytes, after gzip decompression).
    ///
    /// Commands that read one document refuse the file; commands that read a corpus skip the
    /// document (or file) and go on.
    #[arg(
        hide_short_help = true,
        long,
        default_value_t = corpus::DEFAULT_MAX_BYTES,
        value_name = "BYTES"
    )]
    pub max_bytes: u64,
    /// For web pages: the block coefficients, by the number of blocks wanted (seed 004).
    #[arg(hide_short_help = true, long, value_enum, default_value_t = PresetArg::P3to7)]
    pub preset: PresetArg,
    /// For web pages: stop cutting after this many blocks, the rest being the last one
    /// [default: the preset's upper bound, 4, 7 or 12].
    #[arg(hide_short_help = true, long, value_name = "N")]
    pub max_blocks: Option<usize>,
    /// For WARC files: the field that is a page's id.
    #[arg(hide_short_help = true, long, value_enum, default_value_t = WarcIdArg::Uri)]
    pub warc_id: WarcIdArg,
}

/// Which files of a folder source are read.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Input")]
pub struct FolderArgs {
    /// Folders: read only files whose path inside the folder matches (repeatable).
    ///
    /// Patterns are globs: `*` also matches `/`, so `*.txt` matches at any depth; `**`,
    /// `?`, `[abc]` and `{a,b}` as usual.
    #[arg(long = "glob", value_name = "PATTERN")]
    pub glob: Vec<String>,
    /// Folders: leave out files and subfolders whose path inside the folder matches this glob
    /// (repeatable).
    #[arg(long, value_name = "PATTERN")]
    pub exclude: Vec<String>,
    /// Folders: leave out symbolic links instead of following them (each once).
    #[arg(hide_short_help = true, long)]
    pub no_follow: bool,
}

impl FolderArgs {
    /// The library's folder settings.
    pub fn options(&self) -> Result<FolderOptions> {
        let mut options = FolderOptions::new(&self.glob, &self.exclude)?;
        options.follow_links = !self.no_follow;
        Ok(options)
    }
}

/// The block coefficient presets.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum PresetArg {
    /// 2–4 blocks: (k1, k2, k3, k4) = (0.21, 1.08, 7.80, 1).
    #[value(name = "2-4")]
    P2to4,
    /// 3–7 blocks: (0.15, 1.93, 4.07, 1).
    #[value(name = "3-7")]
    P3to7,
    /// 8–12 blocks: (0.50, 1.94, 0.26, 1).
    #[value(name = "8-12")]
    P8to12,
}

/// Which WARC field is a page's id.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum WarcIdArg {
    /// WARC-Target-URI.
    Uri,
    /// WARC-Record-ID.
    RecordId,
}

/// The input formats.
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum FormatArg {
    /// Detect by content.
    Auto,
    /// Plain text: the whole file is one document.
    Text,
    /// TREC SGML: <DOC><DOCNO>…</DOCNO><TEXT>…</TEXT></DOC>.
    Trec,
    /// Generic SGML with the elements given by --doc-tag, --id-tag or --id-attr, --text-tags.
    Sgml,
    /// JSON lines, one object per line, with --id-field and --text-field.
    Jsonl,
    /// An HTML page (its visible text, cut into blocks).
    Html,
    /// A WARC file, gzip'd or not: every HTML response record is a page.
    Warc,
    /// Parquet, one document per row, with --id-column and --text-column (a build with the
    /// `parquet` feature).
    Parquet,
}

impl InputArgs {
    fn format(&self) -> Format {
        match self.format {
            FormatArg::Auto => Format::Auto,
            FormatArg::Text => Format::Text,
            FormatArg::Trec => Format::Trec,
            FormatArg::Sgml => Format::Sgml,
            FormatArg::Jsonl => Format::Jsonl,
            FormatArg::Html => Format::Html,
            FormatArg::Warc => Format::Warc,
            FormatArg::Parquet => Format::Parquet,
        }
    }

    /// The web-page settings.
    pub fn web(&self) -> WebOptions {
        WebOptions {
            segment: SegmentConfig {
                preset: match self.preset {
                    PresetArg::P2to4 => Preset::Few,
                    PresetArg::P3to7 => Preset::Default,
                    PresetArg::P8to12 => Preset::Many,
                },
                max_blocks: self.max_blocks,
            },
            warc_id: match self.warc_id {
                WarcIdArg::Uri => WarcId::TargetUri,
                WarcIdArg::RecordId => WarcId::RecordId,
            },
        }
    }

    /// The SGML elements: TREC's unless --format sgml names some. TREC's stand for "none
    /// named", which reads a Reuters-21578 file with its own elements, detected or not.
    fn sgml(&self) -> SgmlOptions {
        let trec = SgmlOptions {
            include_headlines: self.headlines,
            ..SgmlOptions::trec()
        };
        let named = self.doc_tag.is_some()
            || self.id_tag.is_some()
            || self.id_attr.is_some()
            || !self.text_tags.is_empty();
        if !matches!(self.format, FormatArg::Sgml) || !named {
            return trec;
        }
        SgmlOptions {
            doc_tag: self.doc_tag.clone().unwrap_or(trec.doc_tag),
            id: match (&self.id_attr, &self.id_tag) {
                (Some(attr), _) => IdSource::Attr(attr.clone()),
                (None, Some(tag)) => IdSource::Tag(tag.clone()),
                (None, None) => trec.id,
            },
            text_tags: if self.text_tags.is_empty() {
                trec.text_tags
            } else {
                self.text_tags.clone()
            },
            headline_tags: Vec::new(),
            include_headlines: false,
        }
    }

    fn jsonl(&self) -> JsonlOptions {
        JsonlOptions {
            id_field: self.id_field.clone(),
            text_field: self.text_field.clone(),
        }
    }

    /// The settings of a streaming corpus read, folders filtered by `folders`.
    pub fn source_options(&self, folders: &FolderArgs) -> Result<SourceOptions> {
        if matches!(self.format, FormatArg::Parquet) && !cfg!(feature = "parquet") {
            return Err(slst::Error::InvalidParameter {
                name: "--format",
                value: "parquet".into(),
                expected: corpus::NO_PARQUET,
            });
        }
        Ok(SourceOptions {
            format: self.format(),
            sgml: self.sgml(),
            jsonl: self.jsonl(),
            max_bytes: self.max_bytes,
            mail_body: self.mail_body,
            web: self.web(),
            folders: folders.options()?,
        })
    }

    /// Read one document, picking `docno` from a collection file with several; reports what
    /// the file held that could not be read, and a decoding fallback, on standard error.
    pub fn read(&self, path: &Path, docno: Option<&str>) -> Result<Document> {
        let options = ReadOptions {
            format: self.format(),
            docno: docno.map(str::to_string),
            max_bytes: self.max_bytes,
            sgml: self.sgml(),
            jsonl: self.jsonl(),
            web: self.web(),
        };
        let (doc, skipped) = corpus::read_one(path, &options)?;
        for s in &skipped {
            eprintln!("slst: note: {}: {}", s.location, s.reason);
        }
        for note in doc.segmentation.iter().flat_map(|s| &s.notes) {
            eprintln!("slst: note: {}: {note}", path.display());
        }
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
#[command(next_help_heading = "Sentences")]
pub struct ProfileFlags {
    /// Sentences with more terms than this are dropped (1–35).
    #[arg(
        hide_short_help = true,
        long,
        default_value_t = ProfileConfig::default().max_length,
        value_name = "TERMS"
    )]
    pub max_length: usize,
    /// Leading terms kept per sentence for verification.
    #[arg(hide_short_help = true, long, default_value_t = ProfileConfig::default().leading_terms, value_name = "K")]
    pub leading_terms: usize,
    #[arg(
        long,
        default_value = "english",
        value_name = "LANGUAGE|auto|none|FILE",
        help = STOPWORDS_HELP,
        long_help = stopwords_long_help()
    )]
    pub stopwords: String,
}

/// `--stopwords`' short help.
pub const STOPWORDS_HELP: &str = "Stop words: a built-in list by language (english, the default; \
     russian, ukrainian, … or ISO 639-1 codes; all in --help), auto (each document's language's), \
     none, or a file with one word per line";

/// `--stopwords`' long help: every built-in list by name and code.
pub fn stopwords_long_help() -> String {
    let languages: Vec<String> = StopWords::builtin_languages()
        .map(|(name, code)| format!("{name}/{code}"))
        .collect();
    format!(
        "Stop words: a built-in list by language: {} (NLTK's lists; Ukrainian's is \
         Stopwords-ISO's; english, the default, is NLTK's older list of 179 words); auto: each \
         document's list by its language as whatlang tells it, English when it is not told \
         reliably or has no list (compare's a and b records name the list chosen); none; or a \
         file with one word per line (a built-in name wins: write ./ru for a file named ru). The \
         list's id is in every report (ru-nltk-151: language, source, words)",
        languages.join(", ")
    )
}

impl ProfileFlags {
    /// The library settings these flags stand for.
    pub fn config(&self) -> Result<ProfileConfig> {
        let config = ProfileConfig {
            max_length: self.max_length,
            leading_terms: self.leading_terms,
            stopwords: StopWords::named(&self.stopwords)?,
        };
        config.validate()?;
        Ok(config)
    }
}

/// The settings of the passage stage ([`slst::align`]).
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Passages")]
pub struct PassageFlags {
    /// Do not grow passages from the blocks.
    #[arg(long)]
    pub no_passages: bool,
    /// Passages: two extended blocks in the same order in both documents merge when at most
    /// this many words lie between them on each side.
    #[arg(hide_short_help = true, long, default_value_t = AlignConfig::default().merge_gap, value_name = "WORDS")]
    pub merge_gap: usize,
    /// Passages: extension stops this far below its best score (+1 per equal word, −1 per word
    /// skipped).
    #[arg(hide_short_help = true, long, default_value_t = AlignConfig::default().x_drop, value_name = "POINTS")]
    pub x_drop: i64,
    /// Passages: the most words skipped on one side to step over a difference.
    #[arg(hide_short_help = true, long, default_value_t = AlignConfig::default().lookahead, value_name = "WORDS")]
    pub lookahead: usize,
    /// Passages with fewer words than this on either side are dropped.
    #[arg(hide_short_help = true, long, default_value_t = AlignConfig::default().min_words, value_name = "WORDS")]
    pub min_passage_words: usize,
}

impl PassageFlags {
    /// The library settings these flags stand for (`None`: no passages).
    pub fn config(&self) -> Option<AlignConfig> {
        (!self.no_passages).then_some(AlignConfig {
            lookahead: self.lookahead,
            x_drop: self.x_drop,
            merge_gap: self.merge_gap,
            min_words: self.min_passage_words,
        })
    }
}

/// `-q`: no progress bars and no summary, but one line when documents were skipped; `-qq`:
/// nothing at all on standard error (errors still are).
#[derive(Args, Debug, Clone, Copy)]
pub struct QuietArgs {
    /// -q: no progress or summary, one line if documents were skipped; -qq: nothing.
    #[arg(short, long, action = clap::ArgAction::Count)]
    pub quiet: u8,
}

impl QuietArgs {
    /// Whether the full report (progress, summary, each skipped document) is printed.
    pub fn verbose(self) -> bool {
        self.quiet == 0
    }

    /// Print the one-line count of skipped documents, at `-q` only. `read`: documents read;
    /// `hint`: where the list is.
    pub fn skipped_line(self, skipped: &[slst::corpus::Skipped], read: usize, hint: &str) {
        if self.quiet == 1
            && let Some(line) = skipped_line(skipped, read)
        {
            eprintln!("slst: {line}; {hint}");
        }
    }
}

/// A skipped document as one line: where, its id when known, and why.
/// [`slst::Error::NamedInputsSkipped`] when some of the files named on the command line (not
/// folders) gave no document while others did. A file with a note at its own location (a WARC
/// file's records left out, a repeated id) may still have given documents: such a file is read
/// once more, alone, to tell.
pub fn named_inputs_skipped(
    sources: &[PathBuf],
    skipped: &[slst::corpus::Skipped],
    options: &SourceOptions,
) -> Result<()> {
    let unread: Vec<&slst::corpus::Skipped> = sources
        .iter()
        .filter(|p| !p.is_dir() && p.as_os_str() != "-")
        .filter_map(|p| {
            let at = p.display().to_string();
            let skip = skipped.iter().find(|s| s.location == at)?;
            let gave_one = corpus::read_sources(std::slice::from_ref(p), options)
                .any(|item| matches!(item, corpus::Item::Document(_)));
            (!gave_one).then_some(skip)
        })
        .collect();
    match unread.first() {
        None => Ok(()),
        Some(first) => Err(slst::Error::NamedInputsSkipped {
            skipped: unread.len(),
            first: skip_text(first),
        }),
    }
}

pub fn skip_text(s: &slst::corpus::Skipped) -> String {
    match &s.id {
        Some(id) if !s.location.ends_with(id.as_str()) => {
            format!("{} ({id}): {}", s.location, s.reason)
        }
        _ => format!("{}: {}", s.location, s.reason),
    }
}

/// "skipped 3 of 120 documents (2 looks like a binary file, 1 not JSON)", or `None` when
/// nothing was skipped. Reasons are grouped by their first words (up to a `:` or `(`), the most
/// frequent first.
pub fn skipped_line(skipped: &[slst::corpus::Skipped], read: usize) -> Option<String> {
    if skipped.is_empty() {
        return None;
    }
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    for s in skipped {
        let kind = s
            .reason
            .split([':', '('])
            .next()
            .unwrap_or(&s.reason)
            .trim();
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, n)) => *n += 1,
            None => kinds.push((kind, 1)),
        }
    }
    // Stable: equal counts keep the order they were first met in.
    kinds.sort_by_key(|k| std::cmp::Reverse(k.1));
    let mut parts: Vec<String> = kinds
        .iter()
        .take(3)
        .map(|(k, n)| format!("{n} {k}"))
        .collect();
    if kinds.len() > 3 {
        let rest: usize = kinds[3..].iter().map(|(_, n)| n).sum();
        parts.push(format!("{rest} other"));
    }
    Some(format!(
        "skipped {} of {} ({})",
        skipped.len(),
        slst::report::count(
            skipped.len() + read,
            "document or file",
            "documents or files"
        ),
        parts.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::skipped_line;
    use slst::corpus::Skipped;

    fn skip(reason: &str) -> Skipped {
        Skipped {
            id: None,
            location: "f".into(),
            reason: reason.into(),
        }
    }

    #[test]
    fn skipped_documents_are_counted_by_reason_in_one_line() {
        assert_eq!(skipped_line(&[], 5), None);
        let skipped = [
            skip("not JSON: expected value at line 1 column 19"),
            skip("looks like a binary file (NUL byte at offset 3)"),
            skip("not JSON: EOF while parsing"),
        ];
        assert_eq!(
            skipped_line(&skipped, 117).unwrap(),
            "skipped 3 of 120 documents or files (2 not JSON, 1 looks like a binary file)"
        );
    }
}
