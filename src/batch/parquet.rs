//! Parquet output of a batch run (the Cargo feature `parquet`): the record batches of
//! [`super::arrow`] (pair records, with details or not; group records), written a row group at
//! a time, each passed on to the output as soon as it is encoded, so memory holds one row
//! group, never the file.

use std::io::Write;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use serde::Serialize;

use super::arrow::{BATCH_ROWS as ROWS, group_batch, group_schema, pair_batch, pair_schema};
use super::output::{GroupRecord, PairRecord};

pub(super) fn io(e: impl std::error::Error + Send + Sync + 'static) -> std::io::Error {
    std::io::Error::other(e)
}

/// An Arrow writer into a buffer that is emptied into `out` after each row group (also for
/// `slst dedup`'s kept rows of Parquet corpora).
pub(super) struct Sink<'o> {
    writer: ArrowWriter<Vec<u8>>,
    out: &'o mut dyn Write,
}

impl<'o> Sink<'o> {
    fn new(out: &'o mut dyn Write, schema: SchemaRef) -> std::io::Result<Self> {
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROWS))
            .build();
        Self::with_properties(out, schema, props)
    }

    /// A sink of `schema` written with `props`.
    pub(super) fn with_properties(
        out: &'o mut dyn Write,
        schema: SchemaRef,
        props: WriterProperties,
    ) -> std::io::Result<Self> {
        let writer = ArrowWriter::try_new(Vec::new(), schema, Some(props)).map_err(io)?;
        Ok(Sink { writer, out })
    }

    /// Write one batch as a row group, and pass its bytes on.
    fn write(&mut self, batch: &RecordBatch) -> std::io::Result<()> {
        self.append(batch)?;
        self.end_row_group()
    }

    /// Add a batch to the row group being made.
    pub(super) fn append(&mut self, batch: &RecordBatch) -> std::io::Result<()> {
        self.writer.write(batch).map_err(io)
    }

    /// End the row group being made, if any, and pass its bytes on.
    pub(super) fn end_row_group(&mut self) -> std::io::Result<()> {
        self.writer.flush().map_err(io)?;
        let buffer = self.writer.inner_mut();
        self.out.write_all(buffer)?;
        buffer.clear();
        Ok(())
    }

    /// Write the footer, and pass the rest on.
    pub(super) fn finish(self) -> std::io::Result<()> {
        let rest = self.writer.into_inner().map_err(io)?;
        self.out.write_all(&rest)
    }
}

/// Write `records` in chunks of [`ROWS`], each chunk a record batch made by `batch`.
fn write_chunks<T>(
    out: &mut dyn Write,
    schema: SchemaRef,
    records: impl Iterator<Item = T>,
    batch: impl Fn(&SchemaRef, &[T]) -> std::io::Result<RecordBatch>,
) -> std::io::Result<()> {
    let mut sink = Sink::new(out, schema.clone())?;
    let mut chunk = Vec::with_capacity(ROWS);
    for r in records {
        chunk.push(r);
        if chunk.len() == ROWS {
            sink.write(&batch(&schema, &chunk)?)?;
            chunk.clear();
        }
    }
    if !chunk.is_empty() {
        sink.write(&batch(&schema, &chunk)?)?;
    }
    sink.finish()
}

/// Write pair records as Parquet ([`super::output::write_records`]).
pub(super) fn write_pairs<'a, E: Serialize + 'a>(
    out: &mut dyn Write,
    records: impl Iterator<Item = PairRecord<'a, E>>,
    details: bool,
    passages: bool,
) -> std::io::Result<()> {
    write_chunks(
        out,
        pair_schema(details, passages),
        records,
        |schema, chunk| pair_batch(schema, chunk, details, passages).map_err(io),
    )
}

/// Write group records as Parquet ([`group_schema`]).
pub(super) fn write_groups<'a>(
    out: &mut dyn Write,
    records: impl Iterator<Item = GroupRecord<'a>>,
) -> std::io::Result<()> {
    write_chunks(out, group_schema(), records, |schema, chunk| {
        group_batch(schema, chunk).map_err(io)
    })
}
