//! Parquet output of a batch run (the Cargo feature `parquet`): pair records with the flat
//! columns of [`PAIR_COLUMNS`] (and with details `blocks`, `note`, `evidence`), group records
//! with the group record's fields. Records are written a row group at a time, each passed on
//! to the output as soon as it is encoded, so memory holds one row group, never the file.

use std::io::Write;
use std::sync::Arc;

use arrow_array::builder::{Float64Builder, ListBuilder, StringBuilder, UInt64Builder};
use arrow_array::{
    ArrayRef, FixedSizeListArray, Float64Array, ListArray, RecordBatch, StructArray, UInt64Array,
};
use arrow_schema::{DataType, Field, Fields, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use serde::Serialize;

use super::output::{GroupRecord, PAIR_COLUMNS, PairBlock, PairRecord};

/// Rows per row group.
const ROWS: usize = 65_536;

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

/// The Arrow type of each flat pair column, in [`PAIR_COLUMNS`] order.
fn flat_fields() -> Vec<Field> {
    let types = [
        (DataType::Utf8, false),
        (DataType::Utf8, false),
        (DataType::Utf8, false),
        (DataType::Float64, false),
        (DataType::Float64, true),
        (DataType::Float64, true),
        (DataType::UInt64, true),
        (DataType::UInt64, true),
        (DataType::Utf8, true),
    ];
    PAIR_COLUMNS
        .iter()
        .zip(types)
        .map(|(name, (t, nullable))| Field::new(*name, t, nullable))
        .collect()
}

/// A span's type: two byte offsets.
fn span_type() -> DataType {
    DataType::FixedSizeList(Arc::new(Field::new("item", DataType::UInt64, false)), 2)
}

/// The fields of a block, as in the JSON line.
fn block_fields() -> Fields {
    Fields::from(vec![
        Field::new("a_start", DataType::UInt64, false),
        Field::new("b_start", DataType::UInt64, false),
        Field::new("len", DataType::UInt64, false),
        Field::new("a_span", span_type(), false),
        Field::new("b_span", span_type(), false),
        Field::new("min_term_similarity", DataType::Float64, true),
    ])
}

/// The pair records' schema; `details` adds `blocks` (a list of blocks), `note` and
/// `evidence` (the method's evidence as JSON text: its fields differ by method).
fn pair_schema(details: bool) -> SchemaRef {
    let mut fields = flat_fields();
    if details {
        let block = Field::new("item", DataType::Struct(block_fields()), false);
        fields.push(Field::new("blocks", DataType::List(Arc::new(block)), true));
        fields.push(Field::new("note", DataType::Utf8, true));
        fields.push(Field::new("evidence", DataType::Utf8, true));
    }
    Arc::new(Schema::new(fields))
}

/// Write pair records as Parquet ([`super::output::write_records`]).
pub(super) fn write_pairs<'a, E: Serialize + 'a>(
    out: &mut dyn Write,
    records: impl Iterator<Item = PairRecord<'a, E>>,
    details: bool,
) -> std::io::Result<()> {
    write_chunks(out, pair_schema(details), records, |schema, chunk| {
        pair_batch(schema, chunk, details)
    })
}

fn strings<'s>(values: impl Iterator<Item = Option<&'s str>>) -> ArrayRef {
    let mut b = StringBuilder::new();
    values.for_each(|v| b.append_option(v));
    Arc::new(b.finish())
}

fn floats(values: impl Iterator<Item = Option<f64>>) -> ArrayRef {
    let mut b = Float64Builder::new();
    values.for_each(|v| b.append_option(v));
    Arc::new(b.finish())
}

fn counts(values: impl Iterator<Item = Option<usize>>) -> ArrayRef {
    let mut b = UInt64Builder::new();
    values.for_each(|v| b.append_option(v.map(|n| n as u64)));
    Arc::new(b.finish())
}

/// One record batch of pair records.
fn pair_batch<E: Serialize>(
    schema: &SchemaRef,
    chunk: &[PairRecord<'_, E>],
    details: bool,
) -> std::io::Result<RecordBatch> {
    let mut columns = vec![
        strings(chunk.iter().map(|r| Some(r.a))),
        strings(chunk.iter().map(|r| Some(r.b))),
        strings(chunk.iter().map(|r| Some(r.method.name()))),
        floats(chunk.iter().map(|r| Some(r.resemblance))),
        floats(chunk.iter().map(|r| r.containment_a)),
        floats(chunk.iter().map(|r| r.containment_b)),
        counts(chunk.iter().map(|r| r.block_count)),
        counts(chunk.iter().map(|r| r.matched_sentences)),
        strings(chunk.iter().map(|r| r.template)),
    ];
    if details {
        columns.push(blocks_column(chunk)?);
        columns.push(strings(chunk.iter().map(|r| r.note)));
        let evidence: Vec<Option<String>> = chunk
            .iter()
            .map(|r| r.evidence.map(serde_json::to_string).transpose())
            .collect::<Result<_, _>>()?;
        columns.push(strings(evidence.iter().map(Option::as_deref)));
    }
    RecordBatch::try_new(schema.clone(), columns).map_err(io)
}

/// The `blocks` column: each record's blocks, null for a record without.
fn blocks_column<E: Serialize>(chunk: &[PairRecord<'_, E>]) -> std::io::Result<ArrayRef> {
    let all: Vec<&PairBlock> = chunk
        .iter()
        .flat_map(|r| r.blocks.iter().flatten())
        .collect();
    let spans = |span: fn(&PairBlock) -> [usize; 2]| -> std::io::Result<ArrayRef> {
        let values =
            UInt64Array::from_iter_values(all.iter().flat_map(|b| span(b).map(|x| x as u64)));
        let item = Arc::new(Field::new("item", DataType::UInt64, false));
        Ok(Arc::new(
            FixedSizeListArray::try_new(item, 2, Arc::new(values), None).map_err(io)?,
        ))
    };
    let column = |f: fn(&PairBlock) -> usize| -> ArrayRef {
        Arc::new(UInt64Array::from_iter_values(
            all.iter().map(|b| f(b) as u64),
        ))
    };
    let blocks = StructArray::try_new(
        block_fields(),
        vec![
            column(|b| b.a_start),
            column(|b| b.b_start),
            column(|b| b.len),
            spans(|b| b.a_span)?,
            spans(|b| b.b_span)?,
            Arc::new(Float64Array::from_iter(
                all.iter().map(|b| b.min_term_similarity),
            )),
        ],
        None,
    )
    .map_err(io)?;
    let offsets = arrow_array::builder::OffsetBufferBuilder::<i32>::new(chunk.len());
    let mut offsets = offsets;
    for r in chunk {
        offsets.push_length(r.blocks.as_ref().map_or(0, Vec::len));
    }
    let valid = arrow_array::builder::BooleanBufferBuilder::new(chunk.len());
    let mut valid = valid;
    chunk.iter().for_each(|r| valid.append(r.blocks.is_some()));
    let item = Arc::new(Field::new("item", DataType::Struct(block_fields()), false));
    let list = ListArray::try_new(
        item,
        offsets.finish(),
        Arc::new(blocks),
        Some(valid.finish().into()),
    )
    .map_err(io)?;
    Ok(Arc::new(list))
}

/// Write group records as Parquet: `group`, `method`, `kind`, `size`, `min_resemblance`,
/// `documents` (a list of ids).
pub(super) fn write_groups<'a>(
    out: &mut dyn Write,
    records: impl Iterator<Item = GroupRecord<'a>>,
) -> std::io::Result<()> {
    let documents = Field::new("item", DataType::Utf8, true);
    let schema = Arc::new(Schema::new(vec![
        Field::new("group", DataType::UInt64, false),
        Field::new("method", DataType::Utf8, false),
        Field::new("kind", DataType::Utf8, false),
        Field::new("size", DataType::UInt64, false),
        Field::new("min_resemblance", DataType::Float64, false),
        Field::new("documents", DataType::List(Arc::new(documents)), false),
    ]));
    write_chunks(out, schema, records, |schema, chunk: &[GroupRecord<'_>]| {
        let mut documents = ListBuilder::new(StringBuilder::new());
        for g in chunk {
            g.documents
                .iter()
                .for_each(|d| documents.values().append_value(d));
            documents.append(true);
        }
        let columns: Vec<ArrayRef> = vec![
            counts(chunk.iter().map(|g| Some(g.group))),
            strings(chunk.iter().map(|g| Some(g.method.name()))),
            strings(chunk.iter().map(|g| Some(g.kind))),
            counts(chunk.iter().map(|g| Some(g.size))),
            floats(chunk.iter().map(|g| Some(g.min_resemblance))),
            Arc::new(documents.finish()),
        ];
        RecordBatch::try_new(schema.clone(), columns).map_err(io)
    })
}
