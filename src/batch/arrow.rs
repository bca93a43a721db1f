//! Records as Arrow record batches (the Cargo feature `arrow`): pair records with the flat
//! columns of [`PAIR_COLUMNS`] (and with details `blocks`, `note`, `evidence`; with a
//! shared-passage criterion `passages`), group records
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
use crate::align::Passage;

/// Rows per record batch (and per Parquet row group).
pub const BATCH_ROWS: usize = 65_536;

/// The Arrow type of each flat pair column, in [`PAIR_COLUMNS`] order.
fn flat_fields() -> Vec<Field> {
    // One type a column: the array's length is the columns' count, so a column added to
    // `PAIR_COLUMNS` without its type here does not compile.
    let types: [(DataType, bool); PAIR_COLUMNS.len()] = [
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

/// The fields of a passage, as in the JSON line ([`crate::align::Passage`]).
fn passage_fields() -> Fields {
    Fields::from(vec![
        Field::new("a_span", span_type(), false),
        Field::new("b_span", span_type(), false),
        Field::new("similarity", DataType::Float64, false),
        Field::new("shared_words", DataType::UInt64, false),
        Field::new("seeds", DataType::UInt64, false),
    ])
}

/// A list column of structs with `fields`.
fn list_field(name: &str, fields: Fields) -> Field {
    let item = Field::new("item", DataType::Struct(fields), false);
    Field::new(name, DataType::List(Arc::new(item)), true)
}

/// The pair records' schema; `details` adds `blocks` (a list of blocks), `note` and
/// `evidence` (the method's evidence as JSON text: its fields differ by method); `passages`
/// (a run with a shared-passage criterion) adds `passages`, each pair's list of passages.
pub fn pair_schema(details: bool, passages: bool) -> SchemaRef {
    let mut fields = flat_fields();
    if details {
        fields.push(list_field("blocks", block_fields()));
        fields.push(Field::new("note", DataType::Utf8, true));
        fields.push(Field::new("evidence", DataType::Utf8, true));
    }
    if passages {
        fields.push(list_field("passages", passage_fields()));
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

/// One record batch of pair records, of `schema` ([`pair_schema`] with the same `details`
/// and `passages`).
///
/// # Errors
/// An evidence that does not serialise, or columns that do not fit the schema.
pub fn pair_batch<E: Serialize>(
    schema: &SchemaRef,
    chunk: &[PairRecord<'_, E>],
    details: bool,
    passages: bool,
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
        strings(chunk.iter().map(|r| Some(r.condition.name()))),
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
    if passages {
        columns.push(passages_column(chunk)?);
    }
    RecordBatch::try_new(schema.clone(), columns)
}

/// A column of spans: two byte offsets each.
fn spans(values: impl Iterator<Item = [usize; 2]>) -> Result<ArrayRef, ArrowError> {
    let values = UInt64Array::from_iter_values(values.flat_map(|s| s.map(|x| x as u64)));
    let item = Arc::new(Field::new("item", DataType::UInt64, false));
    Ok(Arc::new(FixedSizeListArray::try_new(
        item,
        2,
        Arc::new(values),
        None,
    )?))
}

/// A list column over `chunk`: each record's items (`lengths`: how many, `None` for a null
/// list), the items of every record, in order, as the struct of `fields` and `values`.
fn list_column(
    fields: Fields,
    values: Vec<ArrayRef>,
    lengths: &[Option<usize>],
) -> Result<ArrayRef, ArrowError> {
    let items = StructArray::try_new(fields.clone(), values, None)?;
    let mut offsets = arrow_array::builder::OffsetBufferBuilder::<i32>::new(lengths.len());
    let mut valid = arrow_array::builder::BooleanBufferBuilder::new(lengths.len());
    for n in lengths {
        offsets.push_length(n.unwrap_or(0));
        valid.append(n.is_some());
    }
    let item = Arc::new(Field::new("item", DataType::Struct(fields), false));
    let list = ListArray::try_new(
        item,
        offsets.finish(),
        Arc::new(items),
        Some(valid.finish().into()),
    )?;
    Ok(Arc::new(list))
}

/// The `blocks` column: each record's blocks, null for a record without.
fn blocks_column<E: Serialize>(chunk: &[PairRecord<'_, E>]) -> Result<ArrayRef, ArrowError> {
    let all: Vec<&PairBlock> = chunk
        .iter()
        .flat_map(|r| r.blocks.iter().flatten())
        .collect();
    let column = |f: fn(&PairBlock) -> usize| -> ArrayRef {
        Arc::new(UInt64Array::from_iter_values(
            all.iter().map(|b| f(b) as u64),
        ))
    };
    let values = vec![
        column(|b| b.a_start),
        column(|b| b.b_start),
        column(|b| b.len),
        spans(all.iter().map(|b| b.a_span))?,
        spans(all.iter().map(|b| b.b_span))?,
        Arc::new(Float64Array::from_iter(
            all.iter().map(|b| b.min_term_similarity),
        )),
    ];
    let lengths: Vec<Option<usize>> = chunk
        .iter()
        .map(|r| r.blocks.as_ref().map(Vec::len))
        .collect();
    list_column(block_fields(), values, &lengths)
}

/// The `passages` column: each record's passages, null for a record without (a run without
/// the criterion).
fn passages_column<E: Serialize>(chunk: &[PairRecord<'_, E>]) -> Result<ArrayRef, ArrowError> {
    let all: Vec<&Passage> = chunk
        .iter()
        .flat_map(|r| r.passages.into_iter().flatten())
        .collect();
    let values: Vec<ArrayRef> = vec![
        spans(all.iter().map(|p| p.a_span))?,
        spans(all.iter().map(|p| p.b_span))?,
        Arc::new(Float64Array::from_iter_values(
            all.iter().map(|p| p.similarity),
        )),
        Arc::new(UInt64Array::from_iter_values(
            all.iter().map(|p| p.shared_words as u64),
        )),
        Arc::new(UInt64Array::from_iter_values(
            all.iter().map(|p| p.seeds as u64),
        )),
    ];
    let lengths: Vec<Option<usize>> = chunk.iter().map(|r| r.passages.map(<[_]>::len)).collect();
    list_column(passage_fields(), values, &lengths)
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
