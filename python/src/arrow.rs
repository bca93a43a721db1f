//! Arrow in and out, through the Arrow C stream interface (the Cargo feature `arrow`, on in the
//! wheel): any object with `__arrow_c_stream__` (a pyarrow Table, RecordBatch or
//! RecordBatchReader, a polars DataFrame, …) is read a record batch at a time, each document's
//! id and text taken from its columns by the library's Arrow reader (`slst::corpus::arrow`),
//! with no Python object per row; results go out as record batches of the library's schemas
//! (`slst::batch::arrow`) behind an object of our own with `__arrow_c_stream__`, which
//! `pyarrow.table` (or polars) reads without a copy. pyarrow is imported only to
//! build a `pyarrow.Table` for `to_arrow()`.

use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;

/// The method of the Arrow PyCapsule interface a tabular object has.
pub(crate) const CAPSULE_METHOD: &str = "__arrow_c_stream__";

/// What a build without the Cargo feature `arrow` says of Arrow input or output.
#[cfg_attr(feature = "arrow", allow(dead_code))]
pub(crate) const NO_ARROW: &str =
    "this slst was built without Arrow support; build the package with the `arrow` feature";

/// `pyarrow`, or an ImportError that says what needs it.
pub(crate) fn pyarrow<'py>(py: Python<'py>, what: &str) -> PyResult<Bound<'py, PyModule>> {
    py.import("pyarrow").map_err(|e| {
        if e.is_instance_of::<PyImportError>(py) {
            PyImportError::new_err(format!(
                "{what} needs pyarrow (pip install pyarrow); without it, read the results with \
                 any library that takes objects with __arrow_c_stream__"
            ))
        } else {
            e
        }
    })
}

#[cfg(feature = "arrow")]
pub(crate) use with_arrow::{ArrowDocs, Table};

/// Pair records as a table of the library's pair schema (the flat columns of `slst batch`'s
/// Parquet output, and `passages` for a run with a shared-passage criterion).
#[cfg(feature = "arrow")]
pub(crate) fn pair_table<E: serde::Serialize>(
    records: &[slst::batch::output::PairRecord<'_, E>],
    passages: bool,
) -> Result<Table, String> {
    use slst::batch::arrow::{pair_batch, pair_schema};
    Table::of(pair_schema(false, passages), records, |s, c| {
        pair_batch(s, c, false, passages)
    })
    .map_err(|e| e.to_string())
}

/// The columns of `slst batch`'s Parquet pairs (`passages`: with a shared-passage criterion)
/// as a Spark SQL schema (DDL), so that the Spark job writes its pairs in the same columns
/// from the same lines: strings, doubles, counts as BIGINT (Spark has no unsigned integer),
/// lists as ARRAY and records as STRUCT.
#[cfg(feature = "arrow")]
#[pyfunction]
#[pyo3(signature = (passages = false))]
pub(crate) fn pair_columns_ddl(passages: bool) -> PyResult<String> {
    use arrow_schema::{DataType, Fields};
    /// `name<sep>type, …`: a struct's fields take `: `, the top level a space.
    fn typed(fields: &Fields, sep: &str) -> PyResult<String> {
        let typed: PyResult<Vec<String>> = fields
            .iter()
            .map(|f| Ok(format!("{}{sep}{}", f.name(), ddl(f.data_type())?)))
            .collect();
        Ok(typed?.join(", "))
    }
    fn ddl(t: &DataType) -> PyResult<String> {
        Ok(match t {
            DataType::Utf8 => "STRING".into(),
            DataType::Float64 => "DOUBLE".into(),
            DataType::UInt64 => "BIGINT".into(),
            DataType::List(item) | DataType::FixedSizeList(item, _) => {
                format!("ARRAY<{}>", ddl(item.data_type())?)
            }
            DataType::Struct(fields) => format!("STRUCT<{}>", typed(fields, ": ")?),
            other => {
                return Err(crate::SlstError::new_err(format!(
                    "no Spark type for the pair column type {other}"
                )));
            }
        })
    }
    typed(
        slst::batch::arrow::pair_schema(false, passages).fields(),
        " ",
    )
}

/// Without the feature: an error where the columns are asked for.
#[cfg(not(feature = "arrow"))]
#[pyfunction]
#[pyo3(signature = (passages = false))]
pub(crate) fn pair_columns_ddl(passages: bool) -> PyResult<String> {
    let _ = passages;
    Err(crate::SlstError::new_err(NO_ARROW))
}

/// Dropped records as a table of the library's dropped schema.
#[cfg(feature = "arrow")]
pub(crate) fn dropped_table(
    records: &[slst::batch::dedup::DroppedRecord<'_>],
) -> Result<Table, String> {
    use slst::batch::arrow::{dropped_batch, dropped_schema};
    Table::of(dropped_schema(), records, dropped_batch).map_err(|e| e.to_string())
}

/// Without the feature: no table, and an error where one is asked for.
#[cfg(not(feature = "arrow"))]
pub(crate) struct Table;

#[cfg(not(feature = "arrow"))]
impl Table {
    pub(crate) fn to_pyarrow<'py>(&self, _: Python<'py>, _: &str) -> PyResult<Bound<'py, PyAny>> {
        Err(crate::SlstError::new_err(NO_ARROW))
    }

    pub(crate) fn capsule<'py>(&self, _: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Err(crate::SlstError::new_err(NO_ARROW))
    }
}

#[cfg(not(feature = "arrow"))]
pub(crate) fn pair_table<E: serde::Serialize>(
    _: &[slst::batch::output::PairRecord<'_, E>],
    _: bool,
) -> Result<Table, String> {
    Ok(Table)
}

#[cfg(not(feature = "arrow"))]
pub(crate) fn dropped_table(_: &[slst::batch::dedup::DroppedRecord<'_>]) -> Result<Table, String> {
    Ok(Table)
}

#[cfg(feature = "arrow")]
mod with_arrow {
    use arrow_array::ffi_stream::{FFI_ArrowArrayStream, RecordBatchStreamReader};
    use arrow_array::{RecordBatch, RecordBatchIterator, RecordBatchReader};
    use arrow_schema::{ArrowError, SchemaRef};
    use pyo3::prelude::*;
    use pyo3::types::PyCapsule;

    use slst::Document;
    use slst::corpus::arrow::{Columns, Row, rows};

    use super::CAPSULE_METHOD;
    use crate::SlstError;

    /// The capsule name of an `ArrowArrayStream`.
    const STREAM: &std::ffi::CStr = c"arrow_array_stream";

    /// The documents of an Arrow stream, a record batch at a time.
    pub(crate) struct ArrowDocs {
        /// None once read to the end (released then, with the GIL).
        reader: Option<RecordBatchStreamReader>,
        columns: Columns,
        /// The columns' names, for messages.
        names: [String; 2],
        /// The documents of the batch being read, and the row of its first.
        batch: std::vec::IntoIter<Document>,
        next_row: usize,
    }

    impl ArrowDocs {
        /// Import the stream of `docs` (its `__arrow_c_stream__` capsule, moved out of it) and
        /// find its columns.
        pub(crate) fn new(docs: &Bound<'_, PyAny>, id: &str, text: &str) -> PyResult<Self> {
            let capsule = docs.call_method0(CAPSULE_METHOD)?;
            let capsule = capsule.cast::<PyCapsule>()?;
            let pointer = capsule.pointer_checked(Some(STREAM))?;
            // SAFETY: a capsule named "arrow_array_stream" holds an ArrowArrayStream (the
            // PyCapsule interface's contract); `from_raw` moves it out and leaves a released
            // one, which the capsule's destructor skips.
            let reader = unsafe { RecordBatchStreamReader::from_raw(pointer.cast().as_ptr()) }
                .map_err(|e| {
                    SlstError::new_err(format!("docs: not a readable Arrow stream ({e})"))
                })?;
            let columns = Columns::find(&reader.schema(), id, text).map_err(|e| {
                SlstError::new_err(format!("docs: {}", e.message(|r| format!("{r}_column="))))
            })?;
            Ok(ArrowDocs {
                reader: Some(reader),
                columns,
                names: [id.to_string(), text.to_string()],
                batch: Vec::new().into_iter(),
                next_row: 0,
            })
        }

        /// The next document; a null id or text is an error naming its row and column.
        pub(crate) fn next_document(&mut self) -> PyResult<Option<Document>> {
            loop {
                if let Some(doc) = self.batch.next() {
                    return Ok(Some(doc));
                }
                let Some(reader) = self.reader.as_mut() else {
                    return Ok(None);
                };
                // The producer may be Python code (a reader over a generator): the GIL is
                // held while it makes a batch.
                match Python::attach(|_| reader.next()) {
                    None => {
                        self.release();
                        return Ok(None);
                    }
                    Some(Err(e)) => {
                        self.release();
                        return Err(SlstError::new_err(format!("docs: cannot read ({e})")));
                    }
                    Some(Ok(batch)) => self.batch = self.documents(&batch)?.into_iter(),
                }
            }
        }

        /// The documents of one batch, copying each text once.
        fn documents(&mut self, batch: &RecordBatch) -> PyResult<Vec<Document>> {
            let first = self.next_row;
            self.next_row += batch.num_rows();
            let null = |i: usize, what: &str, column: &str| {
                SlstError::new_err(format!(
                    "docs: row {} (counting from 0): the {what} is null (column {column:?})",
                    first + i
                ))
            };
            rows(batch, self.columns)
                .enumerate()
                .map(|(i, row)| match row {
                    Row::Document { id, text } => Ok(Document::new(id, text.to_string())),
                    Row::NullId => Err(null(i, "id", &self.names[0])),
                    Row::NullText { .. } => Err(null(i, "text", &self.names[1])),
                })
                .collect()
        }

        /// Release the stream (its producer's callback may need the GIL).
        fn release(&mut self) {
            if let Some(reader) = self.reader.take() {
                Python::attach(|_| drop(reader));
            }
        }
    }

    impl Drop for ArrowDocs {
        fn drop(&mut self) {
            self.release();
        }
    }

    /// Record batches of one schema, kept in memory, handed out through the Arrow C stream
    /// interface (each call a new stream over the same batches, no copy).
    #[pyclass(frozen, module = "slst._slst")]
    pub(crate) struct Table {
        schema: SchemaRef,
        batches: Vec<RecordBatch>,
    }

    impl Table {
        /// `records` in record batches of at most `BATCH_ROWS`, each made by `batch`.
        pub(crate) fn of<T>(
            schema: SchemaRef,
            records: &[T],
            batch: impl Fn(&SchemaRef, &[T]) -> Result<RecordBatch, ArrowError>,
        ) -> Result<Self, ArrowError> {
            let batches = records
                .chunks(slst::batch::arrow::BATCH_ROWS)
                .map(|chunk| batch(&schema, chunk))
                .collect::<Result<_, _>>()?;
            Ok(Table { schema, batches })
        }

        /// The same batches as a `pyarrow.Table` (pyarrow imported here).
        pub(crate) fn to_pyarrow<'py>(
            &self,
            py: Python<'py>,
            what: &str,
        ) -> PyResult<Bound<'py, PyAny>> {
            let pyarrow = super::pyarrow(py, what)?;
            let copy = Table {
                schema: self.schema.clone(),
                batches: self.batches.clone(),
            };
            pyarrow.call_method1("table", (Py::new(py, copy)?,))
        }

        /// An `ArrowArrayStream` capsule over the batches.
        pub(crate) fn capsule<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
            let batches = self.batches.clone().into_iter().map(Ok);
            let reader = RecordBatchIterator::new(batches, self.schema.clone());
            let stream = FFI_ArrowArrayStream::new(Box::new(reader));
            Ok(PyCapsule::new(py, stream, Some(STREAM.to_owned()))?.into_any())
        }
    }

    #[pymethods]
    impl Table {
        /// The Arrow PyCapsule interface: a stream of the batches (a requested schema is not
        /// honoured: the batches are of the schema they have).
        #[pyo3(signature = (requested_schema = None))]
        fn __arrow_c_stream__<'py>(
            &self,
            py: Python<'py>,
            requested_schema: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let _ = requested_schema;
            self.capsule(py)
        }
    }
}
