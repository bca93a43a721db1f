//! Parquet corpora: one document per row, its id and text from two columns (the JSON-lines
//! field names, [`JsonlOptions`](super::jsonl::JsonlOptions): `id` and `text` by default).
//!
//! A file is Parquet by its `.parquet` name or [`Format::Parquet`]. It is read a record batch at
//! a time (only the two columns), never whole. A file whose columns are missing or of the wrong
//! type is one [`Skipped`] item naming the file and the column; a row with a null id or text,
//! or a text over the size limit, is skipped with its row number. Without the Cargo feature
//! `parquet` a Parquet file is skipped with [`NO_PARQUET`], and [`check_sources`] refuses one
//! named as a source.
//!
//! [`check_sources`]: super::check_sources

use std::path::Path;

#[cfg(feature = "parquet")]
use super::arrow::{Columns, Row, rows};
use super::source::{Item, SourceOptions};
use super::{Format, NO_PARQUET};
#[cfg(feature = "parquet")]
use crate::document::Document;
use crate::error::Error;

/// Whether the file at `path` is read as Parquet: `format` says so, or it is detected by name.
pub(super) fn is_parquet(path: &Path, format: Format) -> bool {
    format == Format::Parquet || (format == Format::Auto && has_parquet_name(path))
}

/// A `.parquet` name (any case).
fn has_parquet_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("parquet"))
}

/// A source named on the command line that this build cannot read.
///
/// # Errors
/// [`Error::UnknownFormat`] with [`NO_PARQUET`] for a `.parquet` file, without the feature.
pub(super) fn check_source(path: &Path) -> crate::error::Result<()> {
    if !cfg!(feature = "parquet") && has_parquet_name(path) {
        return Err(Error::UnknownFormat {
            path: path.to_path_buf(),
            detail: NO_PARQUET.into(),
        });
    }
    Ok(())
}

/// One skipped item.
fn skip(id: Option<String>, location: String, reason: String) -> Item {
    Item::Skipped(super::Skipped {
        id,
        location,
        reason,
    })
}

/// Why a stream (standard input) cannot be read as Parquet.
pub(super) fn not_a_stream() -> String {
    if cfg!(feature = "parquet") {
        "a Parquet file is read from a file, not standard input (its index is at its end)".into()
    } else {
        NO_PARQUET.into()
    }
}

/// The documents of the Parquet file at `path`, `location` naming it in skipped items.
#[cfg(not(feature = "parquet"))]
pub(super) fn items(
    _path: &Path,
    location: String,
    _options: &SourceOptions,
) -> Box<dyn Iterator<Item = Item>> {
    Box::new(std::iter::once(skip(None, location, NO_PARQUET.into())))
}

/// The documents of the Parquet file at `path`, `location` naming it in skipped items.
#[cfg(feature = "parquet")]
pub(super) fn items(
    path: &Path,
    location: String,
    options: &SourceOptions,
) -> Box<dyn Iterator<Item = Item>> {
    match open(path, options) {
        Ok(rows) => rows.items(location, options.max_bytes),
        Err(reason) => Box::new(std::iter::once(skip(None, location, reason))),
    }
}

/// Rows to read at a time.
#[cfg(feature = "parquet")]
const BATCH_ROWS: usize = 1024;

/// An open Parquet file, reading its id and text columns.
#[cfg(feature = "parquet")]
struct Rows {
    reader: parquet::arrow::arrow_reader::ParquetRecordBatchReader,
    /// The columns' positions in the batches read (the file's order, only the two).
    columns: Columns,
}

/// Open `path` and find its id and text columns, or say why not.
#[cfg(feature = "parquet")]
fn open(path: &Path, options: &SourceOptions) -> Result<Rows, String> {
    use arrow_array::RecordBatchReader;
    use parquet::arrow::ProjectionMask;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file)
        .map_err(|e| format!("not a readable Parquet file ({e})"))?;
    let (id, text) = (&options.jsonl.id_field, &options.jsonl.text_field);
    let flag = |role: &str| format!("--{role}-column");
    let found = Columns::find(builder.schema(), id, text).map_err(|e| e.message(flag))?;
    let mask = ProjectionMask::roots(builder.parquet_schema(), [found.id, found.text]);
    let reader = builder
        .with_projection(mask)
        .with_batch_size(BATCH_ROWS)
        .build()
        .map_err(|e| format!("cannot read: {e}"))?;
    let columns = Columns::find(&reader.schema(), id, text).map_err(|e| e.message(flag))?;
    Ok(Rows { reader, columns })
}

#[cfg(feature = "parquet")]
impl Rows {
    /// The rows as items, a record batch at a time.
    fn items(self, location: String, max_bytes: u64) -> Box<dyn Iterator<Item = Item>> {
        let mut row = 0usize;
        let mut failed = false;
        let Rows { reader, columns } = self;
        Box::new(
            reader
                .map_while(move |batch| {
                    if failed {
                        return None;
                    }
                    Some(match batch {
                        Ok(batch) => {
                            let items = batch_items(&batch, columns, row, &location, max_bytes);
                            row += batch.num_rows();
                            items
                        }
                        Err(e) => {
                            failed = true;
                            vec![skip(None, location.clone(), format!("cannot read: {e}"))]
                        }
                    })
                })
                .flatten(),
        )
    }
}

/// The items of one record batch whose first row is row `first` of the file (rows counted
/// from 1 in locations).
#[cfg(feature = "parquet")]
fn batch_items(
    batch: &arrow_array::RecordBatch,
    columns: Columns,
    first: usize,
    location: &str,
    max_bytes: u64,
) -> Vec<Item> {
    rows(batch, columns)
        .enumerate()
        .map(|(i, row)| {
            let at = format!("{location}: row {}", first + i + 1);
            match row {
                Row::NullId => skip(None, at, "the id is null".into()),
                Row::NullText { id } => skip(Some(id), at, "the text is null".into()),
                Row::Document { id, text } if text.len() as u64 > max_bytes => skip(
                    Some(id),
                    at,
                    format!(
                        "over the limit of {max_bytes} bytes (a text of {} bytes)",
                        text.len()
                    ),
                ),
                Row::Document { id, text } => Item::Document(Document::new(id, text.to_string())),
            }
        })
        .collect()
}
