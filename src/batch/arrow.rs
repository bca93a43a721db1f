//! Records as Arrow record batches (the Cargo feature `arrow`): pair records with the flat
//! columns of [`PAIR_COLUMNS`] (and with details `blocks`, `note`, `evidence`), group records
//! with the group record's fields, dropped records ([`DroppedRecord`]) with
//! [`DROPPED_COLUMNS`]. The Parquet writer writes these batches; the Python package hands
//! them over as Arrow tables.

use std::sync::Arc;

use arrow_array::builder::{Float64Builder, ListBuilder, StringBuilder, UInt64Builder};
use arrow_array::{
    ArrayRef, FixedSizeListArray, Float64Array, ListArray, RecordBatch, StructArray, UInt64Array,
};
use arrow_schema::{ArrowError, DataType, Field, Fields, Schema, SchemaRef};
use serde::Serialize;

use super::dedup::{DROPPED_COLUMNS, DroppedRecord};
use super::output::{GroupRecord, PAIR_COLUMNS, PairBlock, PairRecord};

/// Rows per record batch (and per Parquet row group).
pub const BATCH_ROWS: usize = 65_536;

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
        (DataType::Utf8, false),
        (DataType::Utf8, true),
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
pub fn pair_schema(details: bool) -> SchemaRef {
    let mut fields = flat_fields();
    if details {
        let block = Field::new("item", DataType::Struct(block_fields()), false);
        fields.push(Field::new("blocks", DataType::List(Arc::new(block)), true));
        fields.push(Field::new("note", DataType::Utf8, true));
        fields.push(Field::new("evidence", DataType::Utf8, true));
    }
    Arc::new(Schema::new(fields))
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

/// One record batch of pair records, of `schema` ([`pair_schema`] with the same `details`).
///
/// # Errors
/// An evidence that does not serialise, or columns that do not fit the schema.
pub fn pair_batch<E: Serialize>(
    schema: &SchemaRef,
    chunk: &[PairRecord<'_, E>],
    details: bool,
) -> Result<RecordBatch, ArrowError> {
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
        strings(chunk.iter().map(|r| Some(r.decided_by.name()))),
        strings(chunk.iter().map(|r| r.stopwords_a)),
        strings(chunk.iter().map(|r| r.stopwords_b)),
    ];
    if details {
        columns.push(blocks_column(chunk)?);
        columns.push(strings(chunk.iter().map(|r| r.note)));
        let evidence: Vec<Option<String>> = chunk
            .iter()
            .map(|r| r.evidence.map(serde_json::to_string).transpose())
            .collect::<Result<_, _>>()
            .map_err(|e| ArrowError::ExternalError(Box::new(e)))?;
        columns.push(strings(evidence.iter().map(Option::as_deref)));
    }
    RecordBatch::try_new(schema.clone(), columns)
}

/// The `blocks` column: each record's blocks, null for a record without.
fn blocks_column<E: Serialize>(chunk: &[PairRecord<'_, E>]) -> Result<ArrayRef, ArrowError> {
    let all: Vec<&PairBlock> = chunk
        .iter()
        .flat_map(|r| r.blocks.iter().flatten())
        .collect();
    let spans = |span: fn(&PairBlock) -> [usize; 2]| -> Result<ArrayRef, ArrowError> {
        let values =
            UInt64Array::from_iter_values(all.iter().flat_map(|b| span(b).map(|x| x as u64)));
        let item = Arc::new(Field::new("item", DataType::UInt64, false));
        Ok(Arc::new(FixedSizeListArray::try_new(
            item,
            2,
            Arc::new(values),
            None,
        )?))
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
    )?;
    let mut offsets = arrow_array::builder::OffsetBufferBuilder::<i32>::new(chunk.len());
    for r in chunk {
        offsets.push_length(r.blocks.as_ref().map_or(0, Vec::len));
    }
    let mut valid = arrow_array::builder::BooleanBufferBuilder::new(chunk.len());
    chunk.iter().for_each(|r| valid.append(r.blocks.is_some()));
    let item = Arc::new(Field::new("item", DataType::Struct(block_fields()), false));
    let list = ListArray::try_new(
        item,
        offsets.finish(),
        Arc::new(blocks),
        Some(valid.finish().into()),
    )?;
    Ok(Arc::new(list))
}

/// The group records' schema: `group`, `method`, `kind`, `size`, `min_resemblance`,
/// `documents` (a list of ids).
pub fn group_schema() -> SchemaRef {
    let documents = Field::new("item", DataType::Utf8, true);
    Arc::new(Schema::new(vec![
        Field::new("group", DataType::UInt64, false),
        Field::new("method", DataType::Utf8, false),
        Field::new("kind", DataType::Utf8, false),
        Field::new("size", DataType::UInt64, false),
        Field::new("min_resemblance", DataType::Float64, false),
        Field::new("documents", DataType::List(Arc::new(documents)), false),
    ]))
}

/// One record batch of group records, of `schema` ([`group_schema`]).
///
/// # Errors
/// Columns that do not fit the schema.
pub fn group_batch(
    schema: &SchemaRef,
    chunk: &[GroupRecord<'_>],
) -> Result<RecordBatch, ArrowError> {
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
    RecordBatch::try_new(schema.clone(), columns)
}

/// The dropped records' schema: [`DROPPED_COLUMNS`], the containments nullable.
pub fn dropped_schema() -> SchemaRef {
    let types = [
        (DataType::Utf8, false),
        (DataType::Utf8, false),
        (DataType::Float64, false),
        (DataType::Float64, true),
        (DataType::Float64, true),
        (DataType::Utf8, false),
        (DataType::Utf8, false),
    ];
    let fields: Vec<Field> = DROPPED_COLUMNS
        .iter()
        .zip(types)
        .map(|(name, (t, nullable))| Field::new(*name, t, nullable))
        .collect();
    Arc::new(Schema::new(fields))
}

/// One record batch of dropped records, of `schema` ([`dropped_schema`]).
///
/// # Errors
/// Columns that do not fit the schema.
pub fn dropped_batch(
    schema: &SchemaRef,
    chunk: &[DroppedRecord<'_>],
) -> Result<RecordBatch, ArrowError> {
    let columns = vec![
        strings(chunk.iter().map(|r| Some(r.dropped))),
        strings(chunk.iter().map(|r| Some(r.kept))),
        floats(chunk.iter().map(|r| Some(r.resemblance))),
        floats(chunk.iter().map(|r| r.containment_dropped)),
        floats(chunk.iter().map(|r| r.containment_kept)),
        strings(chunk.iter().map(|r| Some(r.method.name()))),
        strings(chunk.iter().map(|r| Some(r.rule))),
    ];
    RecordBatch::try_new(schema.clone(), columns)
}
