//! Which files of a folder source are read: glob patterns, symbolic links, and the files left
//! out of a folder of collection files (its README, lists and DTD are not documents).

use std::collections::HashSet;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::Format;
use super::source::{Skipped, SourceOptions, detect_format, open};
use crate::error::Error;

/// Which files of a folder source are read: glob patterns over each file's path inside the
/// folder, and whether symbolic links are followed. Files named as sources are always read.
///
/// Patterns are [`globset`]'s: `*` and `?` also match `/` (so `*.txt` matches at any depth),
/// `**`, `[abc]` and `{a,b}` as usual.
///
/// # Example
/// ```
/// use slst::corpus::FolderOptions;
/// let f = FolderOptions::new(&["*.txt".into()], &["drafts/**".into()]).unwrap();
/// assert!(f.includes_file("a.txt".as_ref()) && f.includes_file("sub/b.txt".as_ref()));
/// assert!(!f.includes_file("drafts/c.txt".as_ref()) && !f.includes_file("d.html".as_ref()));
/// assert!(FolderOptions::new(&["[".into()], &[]).is_err());
/// ```
#[derive(Debug, Clone)]
pub struct FolderOptions {
    include: Vec<String>,
    exclude: Vec<String>,
    include_set: globset::GlobSet,
    exclude_set: globset::GlobSet,
    /// Follow symbolic links (each folder and file at most once, by its canonical path); when
    /// false, links inside a folder are left out. Default: true.
    pub follow_links: bool,
}

impl FolderOptions {
    /// Read only files matching one of `include` (every file when it is empty), and none
    /// matching one of `exclude` (a folder matching one is not entered).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming a pattern that is not a glob.
    pub fn new(include: &[String], exclude: &[String]) -> crate::error::Result<Self> {
        Ok(FolderOptions {
            include_set: glob_set(include, "--glob")?,
            exclude_set: glob_set(exclude, "--exclude")?,
            include: include.to_vec(),
            exclude: exclude.to_vec(),
            follow_links: true,
        })
    }

    /// The include patterns.
    pub fn include(&self) -> &[String] {
        &self.include
    }

    /// The exclude patterns.
    pub fn exclude(&self) -> &[String] {
        &self.exclude
    }

    /// Whether a file at `relative` (its path inside the folder) is read.
    pub fn includes_file(&self, relative: &Path) -> bool {
        (self.include.is_empty() || self.include_set.is_match(relative))
            && !self.exclude_set.is_match(relative)
    }

    /// Whether a folder at `relative` (its path inside the folder named) is entered.
    pub fn enters_folder(&self, relative: &Path) -> bool {
        !self.exclude_set.is_match(relative)
    }
}

impl Default for FolderOptions {
    fn default() -> Self {
        FolderOptions {
            include: Vec::new(),
            exclude: Vec::new(),
            include_set: globset::GlobSet::empty(),
            exclude_set: globset::GlobSet::empty(),
            follow_links: true,
        }
    }
}

impl PartialEq for FolderOptions {
    fn eq(&self, other: &Self) -> bool {
        (&self.include, &self.exclude, self.follow_links)
            == (&other.include, &other.exclude, other.follow_links)
    }
}

impl Eq for FolderOptions {}

fn glob_set(patterns: &[String], flag: &'static str) -> crate::error::Result<globset::GlobSet> {
    let mut set = globset::GlobSetBuilder::new();
    for p in patterns {
        let glob = globset::Glob::new(p).map_err(|e| Error::InvalidParameter {
            name: flag,
            value: format!("{p} ({})", e.kind()),
            expected: "a glob pattern: *, ?, **, [abc], {a,b}",
        })?;
        set.add(glob);
    }
    set.build().map_err(|e| Error::InvalidParameter {
        name: flag,
        value: e.to_string(),
        expected: "glob patterns",
    })
}

/// The files of a folder, recursively, sorted by path; hidden entries, and what `filter` leaves
/// out, are left out.
pub(super) fn folder_files(dir: &Path, filter: &FolderOptions) -> Result<Vec<PathBuf>, String> {
    // Symbolic links are followed (unless `filter` says not to), each folder and file at most
    // once (by its canonical path): a link back up the tree would otherwise be walked for ever,
    // and a file reached twice read twice.
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    seen.insert(canonical(dir));
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let mut entries = std::fs::read_dir(&d)
            .and_then(|e| {
                e.map(|x| x.map(|x| x.path()))
                    .collect::<std::io::Result<Vec<_>>>()
            })
            .map_err(|e| format!("cannot list {}: {e}", d.display()))?;
        // Sorted, so that which of two paths to one file is kept does not depend on the
        // order the file system lists them in.
        entries.sort();
        for path in entries {
            let hidden = path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'));
            if hidden {
                continue;
            }
            if !filter.follow_links && path.symlink_metadata().is_ok_and(|m| m.is_symlink()) {
                continue;
            }
            let relative = path.strip_prefix(dir).unwrap_or(&path);
            let is_dir = path.is_dir();
            let wanted = if is_dir {
                filter.enters_folder(relative)
            } else {
                filter.includes_file(relative)
            };
            if !wanted || !seen.insert(canonical(&path)) {
                continue;
            }
            if is_dir {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The files of a folder source that are documents, and the ones left out as not in the corpus's
/// format, each as a [`Skipped`] saying so. With the format detected per file
/// ([`Format::Auto`]): when files that hold many documents each (TREC, other SGML, JSON lines,
/// WARC) make up most of the folder's bytes, the files that would be one document each (plain
/// text, HTML) are taken for the collection's documentation (a README, lists of categories, a
/// DTD, a table of derived data) and left out. Every file is read when the format is given, or
/// when single documents make up most of the bytes; a file named as a source is always read.
pub(super) fn corpus_files(
    files: Vec<PathBuf>,
    options: &SourceOptions,
) -> (Vec<PathBuf>, Vec<Skipped>) {
    if options.format != Format::Auto {
        return (files, Vec::new());
    }
    let kinds: Vec<(Option<Format>, u64)> = files
        .iter()
        .map(|f| (collection_format(f), f.metadata().map_or(0, |m| m.len())))
        .collect();
    let collections: u64 = kinds.iter().filter(|k| k.0.is_some()).map(|k| k.1).sum();
    let singles: u64 = kinds.iter().filter(|k| k.0.is_none()).map(|k| k.1).sum();
    if collections <= singles {
        return (files, Vec::new());
    }
    let mut names: Vec<&str> = Vec::new();
    for format in kinds.iter().filter_map(|k| k.0) {
        let name = format_name(format);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let reason = format!(
        "not in the corpus's format (one text among {} collection files: their documentation, \
         not read; name the file to read it)",
        names.join(" and ")
    );
    let mut read = Vec::new();
    let mut left_out = Vec::new();
    for (file, (kind, _)) in files.into_iter().zip(kinds) {
        if kind.is_some() {
            read.push(file);
        } else {
            left_out.push(Skipped {
                id: None,
                location: file.display().to_string(),
                reason: reason.clone(),
            });
        }
    }
    (read, left_out)
}

/// The format of a file that holds many documents, by its first bytes; `None` for a file that
/// is one document (plain text, HTML) or cannot be read.
fn collection_format(path: &Path) -> Option<Format> {
    let reader = open(path).ok()?;
    let mut reader = std::io::BufReader::with_capacity(1024, reader);
    let head = reader.fill_buf().ok()?;
    match detect_format(head, &path.display().to_string()) {
        format @ (Format::Trec | Format::Sgml | Format::Jsonl | Format::Warc) => Some(format),
        _ => None,
    }
}

/// A collection format's name, as `--format` spells it.
fn format_name(format: Format) -> &'static str {
    match format {
        Format::Trec => "TREC",
        Format::Sgml => "SGML",
        Format::Jsonl => "JSON-lines",
        Format::Warc => "WARC",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_beside_collection_files_that_hold_most_bytes_are_left_out_and_named() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let trec = "<DOC>\n<DOCNO>A</DOCNO>\n<TEXT>\nThe first story of the volume, told at length.\n</TEXT>\n</DOC>\n";
        std::fs::write(d.join("vol1"), trec).unwrap();
        std::fs::write(d.join("README"), "Volume one.\n").unwrap();
        let files = folder_files(d, &FolderOptions::default()).unwrap();
        let (read, left_out) = corpus_files(files.clone(), &SourceOptions::default());
        assert_eq!(read, [d.join("vol1")]);
        assert_eq!(left_out.len(), 1);
        assert!(left_out[0].location.ends_with("README"), "{left_out:?}");
        assert!(
            left_out[0]
                .reason
                .starts_with("not in the corpus's format (one text among TREC"),
            "{left_out:?}"
        );
        // A format given reads every file as that format.
        let trec_format = SourceOptions {
            format: Format::Trec,
            ..SourceOptions::default()
        };
        assert_eq!(corpus_files(files, &trec_format).0.len(), 2);
    }
}
