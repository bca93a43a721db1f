//! The kept rows of Parquet corpora, written as Parquet (the Cargo feature `parquet`): every
//! column of the input, its schema as Arrow reads it, each column compressed as the input's
//! first row group compresses it. Each input file is read a record batch at a time, every
//! column, and each batch is cut down to its kept rows; an input row group's kept rows make one
//! row group of the output (none when it keeps none), so memory holds one row group.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use arrow_array::{BooleanArray, RecordBatch};
use arrow_schema::SchemaRef;
use parquet::arrow::arrow_reader::{ArrowReaderMetadata, ParquetRecordBatchReaderBuilder};
use parquet::file::properties::WriterProperties;

use super::write::Failure;
use crate::batch::parquet::{Sink, io};
use crate::error::Error;

/// Rows read at a time.
const BATCH_ROWS: usize = 4096;

/// Refuse Parquet files whose kept rows cannot go to one file: files of different columns.
/// One that cannot be read is left to the run, which skips it and writes nothing of it.
///
/// # Errors
/// [`Error::UnknownFormat`] naming the second file.
pub(super) fn one_schema(sources: &[PathBuf]) -> crate::error::Result<()> {
    let mut first: Option<(SchemaRef, &Path)> = None;
    for source in sources {
        let Ok(schema) = open(source).map(|m| m.schema().clone()) else {
            continue;
        };
        match &first {
            Some((s, path)) if s.fields() != schema.fields() => {
                let columns = |s: &SchemaRef| {
                    let fields = s.fields().iter();
                    let named: Vec<String> = fields
                        .map(|f| format!("{} {}", f.name(), f.data_type()))
                        .collect();
                    named.join(", ")
                };
                return Err(Error::UnknownFormat {
                    path: source.clone(),
                    detail: format!(
                        "its columns ({}) are not those of {} ({}): the kept rows of one run go \
                         to one Parquet file of one schema",
                        columns(&schema),
                        path.display(),
                        columns(s)
                    ),
                });
            }
            Some(_) => {}
            None => first = Some((schema, source)),
        }
    }
    Ok(())
}

fn open(path: &Path) -> Result<ArrowReaderMetadata, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    ArrowReaderMetadata::load(&file, Default::default())
        .map_err(|e| format!("not a readable Parquet file ({e})"))
}

/// How a file's columns are written: as the input's first row group compresses each (snappy,
/// the writer's default, for a file without rows).
fn properties(metadata: &ArrowReaderMetadata) -> WriterProperties {
    let mut props = WriterProperties::builder();
    if let Some(group) = metadata.metadata().row_groups().first() {
        for column in group.columns() {
            props =
                props.set_column_compression(column.column_path().clone(), column.compression());
        }
    }
    props.set_max_row_group_row_count(None).build()
}

/// One Parquet output: the kept rows of one or more input files of one schema, written to `out`
/// with the first file's schema and compression.
pub(super) struct Rows<'o> {
    out: Option<&'o mut dyn Write>,
    sink: Option<Sink<'o>>,
}

impl<'o> Rows<'o> {
    pub(super) fn new(out: &'o mut dyn Write) -> Self {
        Rows {
            out: Some(out),
            sink: None,
        }
    }

    /// Copy the rows of the Parquet file at `path` numbered in `kept` (increasing), in order.
    /// Returns the number written.
    ///
    /// # Errors
    /// The input cannot be read as it was, or writing failed.
    pub(super) fn copy(&mut self, path: &Path, kept: Vec<u64>) -> Result<usize, Failure> {
        let unreadable = |e: &dyn std::fmt::Display| Failure::unreadable(path, e);
        let metadata = open(path).map_err(|e| unreadable(&e))?;
        if self.sink.is_none() {
            let out = self.out.take().expect("a sink or its output");
            let props = properties(&metadata);
            self.sink = Some(Sink::with_properties(
                out,
                metadata.schema().clone(),
                props,
            )?);
        }
        let sink = self.sink.as_mut().expect("made above");
        if kept.is_empty() {
            return Ok(0);
        }
        let rows = usize::try_from(metadata.metadata().file_metadata().num_rows()).unwrap_or(0);
        let mut marks = vec![false; rows];
        for &row in &kept {
            match usize::try_from(row).ok().and_then(|r| marks.get_mut(r)) {
                Some(mark) => *mark = true,
                None => return Err(Failure::changed(path, &format!("{rows} rows"))),
            }
        }
        // The rows at which the input's row groups end.
        let ends: Vec<usize> = metadata
            .metadata()
            .row_groups()
            .iter()
            .scan(0, |end, g| {
                *end += usize::try_from(g.num_rows()).unwrap_or(0);
                Some(*end)
            })
            .collect();
        let file = std::fs::File::open(path).map_err(|e| unreadable(&e))?;
        let reader = ParquetRecordBatchReaderBuilder::new_with_metadata(file, metadata)
            .with_batch_size(BATCH_ROWS)
            .build()
            .map_err(|e| unreadable(&e))?;
        let mut row = 0;
        let mut group = ends.iter().peekable();
        for batch in reader {
            let batch = batch.map_err(|e| unreadable(&e))?;
            let mut done = 0;
            while done < batch.num_rows() {
                // Past the groups that end here (a group may have no rows).
                while group.next_if(|&&e| e <= row).is_some() {}
                let end = group.peek().map_or(usize::MAX, |&&e| e);
                let n = (batch.num_rows() - done).min(end - row);
                let Some(marks) = marks.get(row..row + n) else {
                    return Err(Failure::changed(path, &format!("more than {rows} rows")));
                };
                append(sink, &batch.slice(done, n), marks)?;
                (row, done) = (row + n, done + n);
                if row == end {
                    sink.end_row_group()?;
                }
            }
        }
        Ok(kept.len())
    }

    /// Write the footer (when no file was copied, nothing: there is no schema).
    pub(super) fn finish(self) -> io::Result<()> {
        match self.sink {
            Some(sink) => sink.finish(),
            None => Ok(()),
        }
    }
}

/// Add the rows of `batch` that `kept` marks (one mark a row) to the row group being made.
fn append(sink: &mut Sink<'_>, batch: &RecordBatch, kept: &[bool]) -> Result<(), Failure> {
    if !kept.contains(&true) {
        return Ok(());
    }
    let mask = BooleanArray::from(kept.to_vec());
    let rows = arrow_select::filter::filter_record_batch(batch, &mask).map_err(io)?;
    sink.append(&rows)?;
    Ok(())
}
