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
}

/// Open `path` and find its id and text columns, or say why not.
#[cfg(feature = "parquet")]
fn open(path: &Path, options: &SourceOptions) -> Result<Rows, String> {
    use parquet::arrow::ProjectionMask;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file)
        .map_err(|e| format!("not a readable Parquet file ({e})"))?;
    let fields = builder.schema().fields().clone();
    let names: Vec<&str> = fields.iter().map(|f| f.name().as_str()).collect();
    let find = |name: &str, what: &str, flag: &str| -> Result<usize, String> {
        names.iter().position(|n| *n == name).ok_or_else(|| {
            format!(
                "no column {name:?} (columns: {}; name the {what} column with {flag})",
                names.join(", ")
            )
        })
    };
    let id = find(&options.jsonl.id_field, "id", "--id-column")?;
    let text = find(&options.jsonl.text_field, "text", "--text-column")?;
    for (i, ok) in [
        (id, id_type(fields[id].data_type())),
        (text, is_string(fields[text].data_type())),
    ] {
        if !ok {
            return Err(format!(
                "column {:?} is {}, not {}",
                names[i],
                fields[i].data_type(),
                if i == text {
                    "a string"
                } else {
                    "a string or an integer"
                }
            ));
        }
    }
    let mask = ProjectionMask::roots(builder.parquet_schema(), [id, text]);
    let reader = builder
        .with_projection(mask)
        .with_batch_size(BATCH_ROWS)
        .build()
        .map_err(|e| format!("cannot read: {e}"))?;
    Ok(Rows { reader })
}

#[cfg(feature = "parquet")]
fn is_string(t: &arrow_schema::DataType) -> bool {
    use arrow_schema::DataType;
    matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

#[cfg(feature = "parquet")]
fn id_type(t: &arrow_schema::DataType) -> bool {
    is_string(t) || t.is_integer()
}

#[cfg(feature = "parquet")]
impl Rows {
    /// The rows as items, a record batch at a time.
    fn items(self, location: String, max_bytes: u64) -> Box<dyn Iterator<Item = Item>> {
        let mut row = 0usize;
        let mut failed = false;
        let reader = self.reader;
        Box::new(
            reader
                .map_while(move |batch| {
                    if failed {
                        return None;
                    }
                    Some(match batch {
                        Ok(batch) => {
                            let items = batch_items(&batch, row, &location, max_bytes);
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

/// The items of one record batch (id, then text column) whose first row is row `first` of the
/// file (rows counted from 1 in locations).
#[cfg(feature = "parquet")]
fn batch_items(
    batch: &arrow_array::RecordBatch,
    first: usize,
    location: &str,
    max_bytes: u64,
) -> Vec<Item> {
    use arrow_array::cast::AsArray;
    let ids = arrow_cast_to_strings(batch.column(0));
    let texts = batch.column(1);
    let text_at = |i: usize| -> Option<&str> {
        use arrow_schema::DataType;
        if texts.is_null(i) {
            return None;
        }
        Some(match texts.data_type() {
            DataType::Utf8 => texts.as_string::<i32>().value(i),
            DataType::LargeUtf8 => texts.as_string::<i64>().value(i),
            _ => texts.as_string_view().value(i),
        })
    };
    (0..batch.num_rows())
        .map(|i| {
            let at = format!("{location}: row {}", first + i + 1);
            let Some(id) = ids[i].clone() else {
                return skip(None, at, "the id is null".into());
            };
            match text_at(i) {
                None => skip(Some(id), at, "the text is null".into()),
                Some(t) if t.len() as u64 > max_bytes => skip(
                    Some(id),
                    at,
                    format!(
                        "over the limit of {max_bytes} bytes (a text of {} bytes)",
                        t.len()
                    ),
                ),
                Some(t) => Item::Document(Document::new(id, t.to_string())),
            }
        })
        .collect()
}

/// An id column's values as text: strings as they are, integers in decimal.
#[cfg(feature = "parquet")]
fn arrow_cast_to_strings(column: &arrow_array::ArrayRef) -> Vec<Option<String>> {
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{
        Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
    };
    use arrow_schema::DataType;
    let n = column.len();
    let each = |f: &dyn Fn(usize) -> String| -> Vec<Option<String>> {
        (0..n).map(|i| (!column.is_null(i)).then(|| f(i))).collect()
    };
    macro_rules! ints {
        ($t:ty) => {{
            let a = column.as_primitive::<$t>();
            each(&|i| a.value(i).to_string())
        }};
    }
    match column.data_type() {
        DataType::Utf8 => each(&|i| column.as_string::<i32>().value(i).to_string()),
        DataType::LargeUtf8 => each(&|i| column.as_string::<i64>().value(i).to_string()),
        DataType::Utf8View => each(&|i| column.as_string_view().value(i).to_string()),
        DataType::Int8 => ints!(Int8Type),
        DataType::Int16 => ints!(Int16Type),
        DataType::Int32 => ints!(Int32Type),
        DataType::Int64 => ints!(Int64Type),
        DataType::UInt8 => ints!(UInt8Type),
        DataType::UInt16 => ints!(UInt16Type),
        DataType::UInt32 => ints!(UInt32Type),
        DataType::UInt64 => ints!(UInt64Type),
        // Refused when the file was opened.
        other => vec![Some(format!("<{other}>")); n],
    }
}
