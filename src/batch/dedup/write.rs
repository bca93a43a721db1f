//! The kept documents written as they were read: the records of JSON-lines and SGML files
//! (their lines, their elements) and the rows of Parquet files into one file, or a folder
//! holding each kept file under its path (whole files copied, collection files with their kept
//! records or rows). The first pass notes where each document lies ([`Places`]); the second
//! copies the kept ones from there, reading each file again as bytes (or, for Parquet, record
//! batches) without parsing a record, so memory holds no record the run did not.
//!
//! [`plan`] decides the output's [`Layout`] from the sources and refuses, before any work, what
//! cannot be honoured; [`write_kept`] writes it atomically (a temporary file or folder beside
//! the output, renamed into place once complete).

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::KeepPolicy;
#[cfg(feature = "parquet")]
use super::parquet::Rows;
use crate::corpus::{Format, Origin, Place, SourceOptions, Stamp, open_read, read_records};
use crate::error::{Error, Result};

/// The formats whose documents dedup can write, in words.
const WRITABLE: &str =
    "JSON lines, TREC or other SGML, Parquet, and whole files (plain text, HTML)";

/// Whether dedup writes documents of a format: not WARC records (whose bytes the reader does
/// not keep), nor Parquet without the Cargo feature `parquet`.
fn can_write(format: Format) -> bool {
    format != Format::Warc && (format != Format::Parquet || cfg!(feature = "parquet"))
}

/// Why documents of the file at `path`, of `format`, are not written.
fn unwritable(path: &Path, format: Format) -> Error {
    let detail = match format {
        Format::Parquet => format!("Parquet: {}", crate::corpus::NO_PARQUET),
        f => format!("{}: dedup writes {WRITABLE}", name(f)),
    };
    Error::UnknownFormat {
        path: path.to_path_buf(),
        detail,
    }
}

/// How the kept documents are written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Layout {
    /// One file holding the kept records of collection files of one format (JSON lines, TREC
    /// or other SGML; gzip'd when its name ends in `.gz`), or the kept rows of Parquet files
    /// of one schema, in input order.
    File(Format),
    /// A folder holding each file that has a kept document under its path inside the folder
    /// read (a file named as a source: its file name): a whole file copied byte for byte, a
    /// collection file with its kept records (gzip'd when its name ends in `.gz`), a Parquet
    /// file with its kept rows.
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
/// input that dedup cannot write (WARC, Parquet without the feature, collections of two formats
/// or Parquet files of two schemas into one file, a Parquet file named `.gz`), and `field:`
/// ranking of input that is not JSON lines. A folder is read by its layout as a
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
    if layout == Layout::File(Format::Parquet) && gzipped(out) {
        return Err(refuse(
            out,
            "Parquet compresses its columns itself: name the output without .gz".into(),
        ));
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
            Some(f) if !can_write(f) => return Err(unwritable(source, f)),
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
        Some((f, _)) if !whole => {
            #[cfg(feature = "parquet")]
            if f == Format::Parquet {
                super::parquet::one_schema(sources)?;
            }
            Layout::File(f)
        }
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
        Some(f) if !can_write(f) => Err(unwritable(&origin.path, f)),
        _ => Ok(()),
    }
}

/// Where each document of a run lies: the file it was read from and its record's place there,
/// noted while the run reads ([`super::run_records`]), so that the kept records are copied from
/// their places, the corpus not read again as a corpus. A few bytes a document.
#[derive(Debug, Default)]
pub struct Places {
    /// Each file that has documents, with the number of its first.
    files: Vec<(usize, Arc<Origin>)>,
    /// Each document's place in its file; `None`: the whole file.
    places: Vec<Option<Place>>,
}

impl Places {
    /// Note the next document: read from `origin`, at `place`.
    pub fn note(&mut self, origin: &Arc<Origin>, place: Option<Place>) {
        if !matches!(self.files.last(), Some((_, o)) if Arc::ptr_eq(o, origin)) {
            self.files.push((self.places.len(), origin.clone()));
        }
        self.places.push(place);
    }

    /// The number of documents noted.
    pub fn len(&self) -> usize {
        self.places.len()
    }

    /// Whether no document was noted.
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }

    /// Each file, with the numbers of its documents.
    fn files(&self) -> impl Iterator<Item = (&Origin, Range<usize>)> {
        let ends = self.files.iter().skip(1).map(|(first, _)| *first);
        let ends = ends.chain(std::iter::once(self.places.len()));
        self.files
            .iter()
            .zip(ends)
            .map(|((first, origin), end)| (origin.as_ref(), *first..end))
    }
}

/// Why the kept documents could not be written: the input is not as the run read it (what is
/// wrong, naming the file), or writing failed.
pub(super) enum Failure {
    Input(String),
    Write(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Write(e)
    }
}

impl Failure {
    /// The file read has changed since the run read it.
    pub(super) fn changed(path: &Path, what: &str) -> Failure {
        Failure::Input(format!(
            "the input changed while dedup ran ({}: {what}); nothing was written",
            path.display()
        ))
    }

    /// The file read cannot be read again.
    pub(super) fn unreadable(path: &Path, what: impl std::fmt::Display) -> Failure {
        Failure::Input(format!(
            "{} cannot be read again ({what}); nothing was written",
            path.display()
        ))
    }
}

/// Write the kept documents: each from its place in the file it was read from (`places`, one
/// per document, in input order), those `kept` marks. Each file read is first checked to be as
/// it was (its length and modification time). Returns the number written.
///
/// # Errors
/// [`Error::Output`] naming the output: a file read changed since, or cannot be read again,
/// two files written under one name, or a write that failed.
///
/// # Panics
/// When `kept` does not hold one mark per document of `places`.
pub fn write_kept(output: &Output, places: &Places, kept: &[bool]) -> Result<usize> {
    assert_eq!(places.len(), kept.len(), "one mark per document");
    let failed = |f: Failure| Error::Output {
        path: output.path.clone(),
        detail: match f {
            Failure::Input(detail) => detail,
            Failure::Write(e) => e.to_string(),
        },
    };
    let Layout::File(format) = output.layout else {
        return write_folder(&output.path, places, kept).map_err(failed);
    };
    // A failure to read the input is told as such, not as a failure to write.
    let (mut failure, mut written) = (None, 0);
    let gzip = gzipped(&output.path);
    let result = crate::batch::output::write_atomically(&output.path, |w| {
        match write_file(w, format, places, kept, gzip) {
            Ok(n) => {
                written = n;
                Ok(())
            }
            Err(Failure::Write(e)) => Err(e),
            Err(f) => {
                failure = Some(f);
                Err(io::Error::other("the input"))
            }
        }
    });
    match failure {
        Some(f) => Err(failed(f)),
        None => result.map(|()| written),
    }
}

/// One file of the kept records of every file read, gzip'd with `gzip`; Parquet for Parquet.
fn write_file(
    w: &mut dyn Write,
    format: Format,
    places: &Places,
    kept: &[bool],
    gzip: bool,
) -> std::result::Result<usize, Failure> {
    let mut written = 0;
    if format == Format::Parquet {
        let mut rows = Rows::new(w);
        for (origin, docs) in places.files() {
            written += copy_rows(&mut rows, origin, &places.places[docs.clone()], &kept[docs])?;
        }
        rows.finish()?;
        return Ok(written);
    }
    let mut w = Compressed::new(w, gzip);
    for (origin, docs) in places.files() {
        if kept[docs.clone()].contains(&true) {
            written += copy_records(origin, &places.places[docs.clone()], &kept[docs], &mut w)?;
        }
    }
    w.finish()?;
    Ok(written)
}

/// Check that the file at `origin` is as the run read it, and open it as read.
fn reopen(origin: &Origin) -> std::result::Result<Box<dyn Read>, Failure> {
    let path = &origin.path;
    if Stamp::of(path) != origin.stamp {
        return Err(Failure::changed(path, "its length or modification time"));
    }
    open_read(path).map_err(|e| Failure::unreadable(path, e))
}

/// Copy the records of one file that `kept` marks (one mark per document, with `places`) from
/// their places to `out`, each followed by a line end if it has none (the last line of a file,
/// an SGML element). The number copied.
fn copy_records(
    origin: &Origin,
    places: &[Option<Place>],
    kept: &[bool],
    out: &mut dyn Write,
) -> std::result::Result<usize, Failure> {
    let path = &origin.path;
    let mut reader = reopen(origin)?;
    let unreadable = |e: io::Error| Failure::unreadable(path, e);
    let (mut at, mut written) = (0u64, 0);
    let mut buf = Vec::new();
    for (place, _) in places.iter().zip(kept).filter(|(_, k)| **k) {
        let Some(Place::Bytes { start, len }) = *place else {
            return Err(Failure::changed(path, "a record without its place"));
        };
        let gap = start.saturating_sub(at);
        let skipped =
            io::copy(&mut (&mut reader).take(gap), &mut io::sink()).map_err(unreadable)?;
        buf.clear();
        (&mut reader)
            .take(len)
            .read_to_end(&mut buf)
            .map_err(unreadable)?;
        if skipped != gap || buf.len() as u64 != len {
            return Err(Failure::changed(path, "shorter"));
        }
        out.write_all(&buf)?;
        if !buf.ends_with(b"\n") {
            out.write_all(b"\n")?;
        }
        at = start + len;
        written += 1;
    }
    Ok(written)
}

/// Copy the rows of one Parquet file that `kept` marks (one mark per document, with `places`).
#[cfg(feature = "parquet")]
fn copy_rows(
    rows: &mut Rows<'_>,
    origin: &Origin,
    places: &[Option<Place>],
    kept: &[bool],
) -> std::result::Result<usize, Failure> {
    if Stamp::of(&origin.path) != origin.stamp {
        return Err(Failure::changed(
            &origin.path,
            "its length or modification time",
        ));
    }
    let marks = places
        .iter()
        .zip(kept)
        .filter(|(_, k)| **k)
        .map(|(place, _)| match place {
            Some(Place::Row(row)) => Ok(*row),
            _ => Err(Failure::changed(&origin.path, "a row without its number")),
        });
    rows.copy(
        &origin.path,
        marks.collect::<std::result::Result<Vec<u64>, _>>()?,
    )
}

/// Without the feature, no Parquet file is read, and none is written.
#[cfg(not(feature = "parquet"))]
fn copy_rows(
    _rows: &mut Rows<'_>,
    origin: &Origin,
    _places: &[Option<Place>],
    _kept: &[bool],
) -> std::result::Result<usize, Failure> {
    Err(Failure::unreadable(&origin.path, crate::corpus::NO_PARQUET))
}

/// Without the feature, no Parquet output.
#[cfg(not(feature = "parquet"))]
struct Rows<'o>(std::marker::PhantomData<&'o ()>);

#[cfg(not(feature = "parquet"))]
impl<'o> Rows<'o> {
    fn new(_out: &'o mut dyn Write) -> Self {
        Rows(std::marker::PhantomData)
    }

    fn finish(self) -> io::Result<()> {
        Ok(())
    }
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

/// The folder: written into a temporary folder beside `out`, renamed to `out` when complete;
/// each file read that has a kept document under its path inside the folder read (a file named
/// as a source: its file name).
fn write_folder(out: &Path, places: &Places, kept: &[bool]) -> std::result::Result<usize, Failure> {
    let (parent, prefix) = crate::batch::output::partial_beside(out);
    let mut builder = tempfile::Builder::new();
    builder
        .prefix(&prefix)
        .suffix(crate::batch::output::PARTIAL);
    // As any new folder: the umask decides (a temporary folder would be 0700).
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o777));
    let tmp = builder.tempdir_in(parent)?;
    let mut written = 0;
    for (origin, docs) in places.files() {
        let (places, kept) = (&places.places[docs.clone()], &kept[docs]);
        if kept.contains(&true) {
            written += write_one(tmp.path(), origin, places, kept)?;
        }
    }
    // An empty folder at `out` (checked by `plan`) is replaced.
    if out.is_dir() {
        std::fs::remove_dir(out)?;
    }
    std::fs::rename(tmp.path(), out)?;
    // Renamed: nothing is left to remove.
    let _ = tmp.keep();
    Ok(written)
}

/// One file of the output folder `root`: a whole file copied, or a collection file with its
/// kept records (gzip'd when its name ends in `.gz`), or a Parquet file with its kept rows.
fn write_one(
    root: &Path,
    origin: &Origin,
    places: &[Option<Place>],
    kept: &[bool],
) -> std::result::Result<usize, Failure> {
    let relative = match &origin.in_folder {
        Some(p) => p.as_path(),
        None => Path::new(origin.path.file_name().unwrap_or_default()),
    };
    let target = root.join(relative);
    if target.exists() {
        return Err(Failure::Write(io::Error::other(format!(
            "two files read would both be written to {}",
            relative.display()
        ))));
    }
    if let Some(dir) = target.parent() {
        std::fs::create_dir_all(dir)?;
    }
    if places.first().is_some_and(Option::is_none) {
        if Stamp::of(&origin.path) != origin.stamp {
            return Err(Failure::changed(
                &origin.path,
                "its length or modification time",
            ));
        }
        std::fs::copy(&origin.path, target)?;
        return Ok(1);
    }
    let mut file = BufWriter::new(File::create_new(&target)?);
    let written = if origin.format == Some(Format::Parquet) {
        let mut rows = Rows::new(&mut file);
        let n = copy_rows(&mut rows, origin, places, kept)?;
        rows.finish()?;
        n
    } else {
        let mut w = Compressed::new(&mut file, gzipped(&target));
        let n = copy_records(origin, places, kept, &mut w)?;
        w.finish()?;
        n
    };
    file.flush()?;
    Ok(written)
}
