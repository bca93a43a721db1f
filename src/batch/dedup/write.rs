//! The kept documents written as they were read: the records of JSON-lines and SGML files
//! (their lines, their elements) into one file, or a folder holding each kept file under its
//! path (whole files copied, collection files with their kept records). Each is made by a
//! second pass over the input ([`read_records`]), so memory holds no record the run did not.
//!
//! [`plan`] decides the output's [`Layout`] from the sources and refuses, before any work, what
//! cannot be honoured; [`write_kept`] writes it atomically (a temporary file or folder beside
//! the output, renamed into place once complete).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::KeepPolicy;
use crate::batch::unique_ids_of;
use crate::corpus::{Format, Item, Origin, SourceOptions, read_records};
use crate::error::{Error, Result};

/// The formats whose documents dedup can write, in words.
const WRITABLE: &str = "JSON lines, TREC or other SGML, and whole files (plain text, HTML)";

/// How the kept documents are written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layout {
    /// One file holding the kept records of collection files of one format (JSON lines, TREC
    /// or other SGML), in input order; gzip'd when its name ends in `.gz`.
    File(Format),
    /// A folder holding each file that has a kept document under its path inside the folder
    /// read (a file named as a source: its file name): a whole file copied byte for byte, a
    /// collection file with its kept records (gzip'd when its name ends in `.gz`).
    Folder,
}

/// Where and how the kept documents are written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The file or folder.
    pub path: PathBuf,
    /// File or folder.
    pub layout: Layout,
}

/// Decide how the kept documents of `sources` are written to `out`, and refuse before any work
/// what cannot be: standard input (read once only), `out` or `dropped` being an input, `out`
/// being `dropped`, a folder `out` that exists and is not empty or lies inside an input folder,
/// input that dedup cannot write (WARC, or collections of two formats into one file), and
/// `field:` ranking of input that is not JSON lines. A folder is read by its layout as a
/// whole (its files' formats are checked as they are read, [`writable`]).
///
/// # Errors
/// [`Error::Output`] naming `out` or `dropped`, [`Error::UnknownFormat`] naming an input, or
/// [`Error::InvalidParameter`] naming `keep`.
pub fn plan(
    sources: &[PathBuf],
    out: &Path,
    dropped: &Path,
    options: &SourceOptions,
    keep: &KeepPolicy,
) -> Result<Output> {
    let refuse = |path: &Path, detail: String| Error::Output {
        path: path.to_path_buf(),
        detail,
    };
    if out.as_os_str() == "-" {
        return Err(refuse(
            out,
            "the kept documents go to a file or folder".into(),
        ));
    }
    if same_path(out, dropped) {
        return Err(refuse(
            out,
            "it is also the table of dropped documents".into(),
        ));
    }
    for source in sources {
        if source.as_os_str() == "-" {
            return Err(Error::UnknownFormat {
                path: source.clone(),
                detail: "dedup reads its input twice (to find the copies, then to copy what it \
                         keeps), and standard input can be read once: write it to a file"
                    .into(),
            });
        }
        for (path, what) in [(out, "the output"), (dropped, "the dropped table")] {
            if same_path(path, source) || (path.is_file() && inside(path, source)) {
                return Err(refuse(path, format!("{what} would overwrite an input")));
            }
        }
    }
    let layout = layout(sources, options)?;
    let jsonl = layout == Layout::File(Format::Jsonl) || options.format == Format::Jsonl;
    if keep.needs_record() && !jsonl {
        return Err(Error::InvalidParameter {
            name: "keep",
            value: keep.name(),
            expected: "first, longest or most-sentences: field:NAME ranks JSON-lines records \
                       (files detected as JSON lines, or folders read with --format jsonl)",
        });
    }
    if layout == Layout::Folder {
        check_folder(out, sources)?;
    } else if out.is_dir() {
        return Err(refuse(
            out,
            "a folder: the kept records go to one file".into(),
        ));
    }
    Ok(Output {
        path: out.to_path_buf(),
        layout,
    })
}

/// The layout the sources ask for: a folder when one is read, or when a file named is a whole
/// document; else one file of the format of every file named.
fn layout(sources: &[PathBuf], options: &SourceOptions) -> Result<Layout> {
    if sources.iter().any(|s| s.is_dir()) {
        return Ok(Layout::Folder);
    }
    let mut collection: Option<(Format, &Path)> = None;
    let mut whole = false;
    for source in sources {
        let format = read_records(std::slice::from_ref(source), options, false)
            .next()
            .and_then(|r| r.origin.format);
        match format {
            // Unreadable: the run skips it, and writes nothing of it.
            None => {}
            Some(f @ (Format::Warc | Format::Parquet)) => {
                return Err(Error::UnknownFormat {
                    path: source.clone(),
                    detail: format!("{}: dedup writes {WRITABLE}", name(f)),
                });
            }
            Some(Format::Text | Format::Html | Format::Auto) => whole = true,
            Some(f) => match collection {
                Some((g, first)) if g != f => {
                    return Err(Error::UnknownFormat {
                        path: source.clone(),
                        detail: format!(
                            "{} while {} is {}: the kept records of one run go to one file of \
                             one format",
                            name(f),
                            first.display(),
                            name(g)
                        ),
                    });
                }
                _ => collection = Some((f, source)),
            },
        }
    }
    Ok(match collection {
        Some((f, _)) if !whole => Layout::File(f),
        _ => Layout::Folder,
    })
}

/// A format's name in messages.
fn name(format: Format) -> &'static str {
    match format {
        Format::Jsonl => "JSON lines",
        Format::Trec => "TREC SGML",
        Format::Sgml => "SGML",
        Format::Warc => "WARC",
        Format::Parquet => "Parquet",
        Format::Html => "HTML",
        Format::Text | Format::Auto => "plain text",
    }
}

/// Refuse a folder output that exists and is not an empty folder, or lies inside a folder
/// read (the next run would read it with the corpus).
fn check_folder(out: &Path, sources: &[PathBuf]) -> Result<()> {
    let refuse = |detail: String| Error::Output {
        path: out.to_path_buf(),
        detail,
    };
    if out.exists() {
        let empty = std::fs::read_dir(out).map(|mut d| d.next().is_none());
        if !matches!(empty, Ok(true)) {
            return Err(refuse(
                "exists and is not an empty folder: give a new or empty folder".into(),
            ));
        }
    }
    for source in sources.iter().filter(|s| s.is_dir()) {
        if inside(out, source) {
            return Err(refuse(format!(
                "inside the input folder {}: the kept files would be read with it next time",
                source.display()
            )));
        }
    }
    Ok(())
}

/// A path made absolute and free of `.`, `..` and links as far as it exists.
fn resolved(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            resolved(parent).join(name)
        }
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
    }
}

/// Whether two paths name one file or folder.
fn same_path(a: &Path, b: &Path) -> bool {
    resolved(a) == resolved(b)
}

/// Whether `path` lies inside the folder `dir`.
fn inside(path: &Path, dir: &Path) -> bool {
    dir.is_dir() && resolved(path).starts_with(resolved(dir)) && !same_path(path, dir)
}

/// Whether documents of a file of this origin can be written; called on each document of the
/// first pass, so that a run over a folder holding WARC files stops before writing anything.
///
/// # Errors
/// [`Error::UnknownFormat`] naming the file.
pub fn writable(origin: &Origin) -> Result<()> {
    match origin.format {
        Some(f @ (Format::Warc | Format::Parquet)) => Err(Error::UnknownFormat {
            path: origin.path.clone(),
            detail: format!("{}: dedup writes {WRITABLE}", name(f)),
        }),
        _ => Ok(()),
    }
}

/// Write the kept documents: read `sources` again, number the documents as the run did (ids
/// made unique the same way), check each against `ids` (the run's, in input order), and write
/// those `kept` marks. Returns the number written.
///
/// # Errors
/// [`Error::Output`] naming the output: a document that is not the run's (the input changed
/// since), two files written under one name, or a write that failed.
pub fn write_kept(
    output: &Output,
    sources: &[PathBuf],
    options: &SourceOptions,
    ids: &[String],
    kept: &[bool],
) -> Result<usize> {
    let failed = |e: io::Error| Error::Output {
        path: output.path.clone(),
        detail: e.to_string(),
    };
    let records = read_records(sources, options, true).map(|r| (r.item, r.origin, r.raw));
    let mut documents = unique_ids_of(records, |(item, _, _)| item)
        .filter_map(|(item, origin, raw)| match item {
            Item::Document(d) => Some((d.id, origin, raw)),
            Item::Skipped(_) => None,
        })
        .enumerate();
    let mut walk = |sink: &mut dyn FnMut(Kept<'_>) -> io::Result<()>| -> io::Result<usize> {
        let mut written = 0;
        let mut seen = 0;
        for (i, (id, origin, raw)) in documents.by_ref() {
            if ids.get(i) != Some(&id) {
                return Err(changed(format!("document {} is {id:?}", i + 1)));
            }
            seen = i + 1;
            if kept[i] {
                sink(Kept {
                    origin: &origin,
                    raw: raw.as_deref(),
                })?;
                written += 1;
            }
        }
        if seen != ids.len() {
            return Err(changed(format!("{seen} documents")));
        }
        Ok(written)
    };
    match &output.layout {
        Layout::File(_) => write_file(&output.path, &mut walk),
        Layout::Folder => write_folder(&output.path, &mut walk).map_err(failed),
    }
}

/// The input read again is not the one the run read.
fn changed(what: String) -> io::Error {
    io::Error::other(format!(
        "the input changed while dedup ran ({what} now); nothing was written"
    ))
}

/// A kept document: the file it was read from, and its record's bytes (none for a whole file).
struct Kept<'a> {
    origin: &'a Arc<Origin>,
    raw: Option<&'a [u8]>,
}

/// Walks the documents, handing each kept one to a sink; the number kept.
type Walk<'a> = dyn FnMut(&mut dyn FnMut(Kept<'_>) -> io::Result<()>) -> io::Result<usize> + 'a;

/// One file of the kept records, atomically, gzip'd when its name ends in `.gz`.
fn write_file(path: &Path, walk: &mut Walk<'_>) -> Result<usize> {
    let mut written = 0;
    crate::batch::output::write_atomically(path, |w| {
        let mut w = Compressed::new(w, gzipped(path));
        written = walk(&mut |k| record(&mut w, k.raw))?;
        w.finish()
    })?;
    Ok(written)
}

/// Write one record: its bytes, then a line end if they have none (the last line of a file,
/// an SGML element).
fn record(w: &mut dyn Write, raw: Option<&[u8]>) -> io::Result<()> {
    let raw = raw.ok_or_else(|| io::Error::other("a document without its record"))?;
    w.write_all(raw)?;
    if !raw.ends_with(b"\n") {
        w.write_all(b"\n")?;
    }
    Ok(())
}

/// Whether a file is written gzip'd: its name ends in `.gz`.
fn gzipped(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "gz")
}

/// A writer, gzip'd or not.
enum Compressed<W: Write> {
    Plain(W),
    Gzip(flate2::write::GzEncoder<W>),
}

impl<W: Write> Compressed<W> {
    fn new(w: W, gzip: bool) -> Self {
        if gzip {
            Compressed::Gzip(flate2::write::GzEncoder::new(
                w,
                flate2::Compression::default(),
            ))
        } else {
            Compressed::Plain(w)
        }
    }

    fn finish(self) -> io::Result<()> {
        match self {
            Compressed::Plain(mut w) => w.flush(),
            Compressed::Gzip(g) => g.finish()?.flush(),
        }
    }
}

impl<W: Write> Write for Compressed<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Compressed::Plain(w) => w.write(buf),
            Compressed::Gzip(g) => g.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Compressed::Plain(w) => w.flush(),
            Compressed::Gzip(g) => g.flush(),
        }
    }
}

/// The folder: written into a temporary folder beside `out`, renamed to `out` when complete.
fn write_folder(out: &Path, walk: &mut Walk<'_>) -> io::Result<usize> {
    let (parent, prefix) = crate::batch::output::partial_beside(out);
    let mut builder = tempfile::Builder::new();
    builder
        .prefix(&prefix)
        .suffix(crate::batch::output::PARTIAL);
    // As any new folder: the umask decides (a temporary folder would be 0700).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o777));
    let tmp = builder.tempdir_in(parent)?;
    let mut files = FolderFiles::new(tmp.path());
    let written = walk(&mut |k| files.add(k))?;
    files.close()?;
    // An empty folder at `out` (checked by `plan`) is replaced.
    if out.is_dir() {
        std::fs::remove_dir(out)?;
    }
    std::fs::rename(tmp.path(), out)?;
    // Renamed: nothing is left to remove.
    let _ = tmp.keep();
    Ok(written)
}

/// The files of the output folder being written: whole files copied, a collection file's
/// records appended to its file while its documents come (they come together).
struct FolderFiles<'a> {
    root: &'a Path,
    open: Option<(Arc<Origin>, Compressed<BufWriter<File>>)>,
}

impl<'a> FolderFiles<'a> {
    fn new(root: &'a Path) -> Self {
        FolderFiles { root, open: None }
    }

    /// Where a file read is written: its path inside its folder, or its file name.
    fn target(&self, origin: &Origin) -> io::Result<PathBuf> {
        let relative = match &origin.in_folder {
            Some(p) => p.as_path(),
            None => Path::new(origin.path.file_name().unwrap_or_default()),
        };
        let target = self.root.join(relative);
        if target.exists() {
            return Err(io::Error::other(format!(
                "two files read would both be written to {}",
                relative.display()
            )));
        }
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir)?;
        }
        Ok(target)
    }

    fn add(&mut self, kept: Kept<'_>) -> io::Result<()> {
        let Some(raw) = kept.raw else {
            self.close()?;
            let target = self.target(kept.origin)?;
            std::fs::copy(&kept.origin.path, target)?;
            return Ok(());
        };
        let same = matches!(&self.open, Some((o, _)) if Arc::ptr_eq(o, kept.origin));
        if !same {
            self.close()?;
            let target = self.target(kept.origin)?;
            let file = BufWriter::new(File::create_new(&target)?);
            let w = Compressed::new(file, gzipped(&target));
            self.open = Some((kept.origin.clone(), w));
        }
        let (_, w) = self.open.as_mut().expect("opened above");
        record(w, Some(raw))
    }

    /// Finish the collection file being written, if any.
    fn close(&mut self) -> io::Result<()> {
        match self.open.take() {
            Some((_, w)) => w.finish(),
            None => Ok(()),
        }
    }
}
