//! Documents from Arrow record batches (the Cargo feature `arrow`): one document per row, its
//! id and text from two columns found by name. Parquet corpora are read through it, and so are
//! the Arrow tables the Python package is given.
//!
//! The text column is a string column (`Utf8`, `LargeUtf8` or `Utf8View`); the id column a
//! string or an integer column, integers written in decimal. Texts are read where the batch
//! holds them ([`Row::Document`] borrows them), so a caller copies each text once, into its
//! [`Document`](crate::Document).

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Schema};

/// The positions of the id and text columns in a schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Columns {
    /// The id column.
    pub id: usize,
    /// The text column.
    pub text: usize,
}

/// Why a schema has no usable id or text column.
#[derive(Debug, Clone, PartialEq)]
pub enum ColumnError {
    /// No column of that name: the name, which column it was to be (`id` or `text`), and the
    /// names present.
    Missing {
        /// The name looked for.
        name: String,
        /// `id` or `text`.
        role: &'static str,
        /// The columns' names.
        present: Vec<String>,
    },
    /// A column of the wrong type: its name, its type, and what it must be.
    Type {
        /// The column's name.
        name: String,
        /// Its type.
        found: DataType,
        /// What it must be: `a string`, `a string or an integer`.
        wanted: &'static str,
    },
}

impl ColumnError {
    /// The message, `name_it` telling how to name another column for a role (`id` or `text`):
    /// `--id-column` on the command line, `id_column=` in Python.
    pub fn message(&self, name_it: impl Fn(&str) -> String) -> String {
        match self {
            ColumnError::Missing {
                name,
                role,
                present,
            } => format!(
                "no column {name:?} (columns: {}; name the {role} column with {})",
                present.join(", "),
                name_it(role)
            ),
            ColumnError::Type {
                name,
                found,
                wanted,
            } => format!("column {name:?} is {found}, not {wanted}"),
        }
    }
}

impl Columns {
    /// Find the columns named `id` and `text` in `schema`, of types they can be read from.
    ///
    /// # Errors
    /// The first column missing or of the wrong type, id first.
    pub fn find(schema: &Schema, id: &str, text: &str) -> Result<Columns, ColumnError> {
        let position = |name: &str, role: &'static str| {
            schema.index_of(name).map_err(|_| ColumnError::Missing {
                name: name.to_string(),
                role,
                present: schema.fields().iter().map(|f| f.name().clone()).collect(),
            })
        };
        let id = position(id, "id")?;
        let text = position(text, "text")?;
        for (i, ok, wanted) in [
            (
                id,
                is_id(schema.field(id).data_type()),
                "a string or an integer",
            ),
            (text, is_string(schema.field(text).data_type()), "a string"),
        ] {
            if !ok {
                let field = schema.field(i);
                return Err(ColumnError::Type {
                    name: field.name().clone(),
                    found: field.data_type().clone(),
                    wanted,
                });
            }
        }
        Ok(Columns { id, text })
    }
}

fn is_string(t: &DataType) -> bool {
    matches!(t, DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View)
}

fn is_id(t: &DataType) -> bool {
    is_string(t) || t.is_integer()
}

/// One row of a record batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Row<'a> {
    /// A document: its id, and its text where the batch holds it.
    Document {
        /// The id, as text.
        id: String,
        /// The text.
        text: &'a str,
    },
    /// The id is null.
    NullId,
    /// The text is null (the id given).
    NullText {
        /// The id, as text.
        id: String,
    },
}

/// The rows of `batch`, from its `columns` (found in its own schema: [`Columns::find`]).
pub fn rows(batch: &RecordBatch, columns: Columns) -> impl Iterator<Item = Row<'_>> {
    let ids = ids_as_text(batch.column(columns.id));
    let texts = batch.column(columns.text);
    ids.into_iter().enumerate().map(move |(i, id)| match id {
        None => Row::NullId,
        Some(id) => match text_at(texts, i) {
            None => Row::NullText { id },
            Some(text) => Row::Document { id, text },
        },
    })
}

/// Row `i` of a string column (null: `None`).
fn text_at(texts: &ArrayRef, i: usize) -> Option<&str> {
    if texts.is_null(i) {
        return None;
    }
    Some(match texts.data_type() {
        DataType::Utf8 => texts.as_string::<i32>().value(i),
        DataType::LargeUtf8 => texts.as_string::<i64>().value(i),
        _ => texts.as_string_view().value(i),
    })
}

/// An id column's values as text: strings as they are, integers in decimal.
fn ids_as_text(column: &ArrayRef) -> Vec<Option<String>> {
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
        // Refused by `Columns::find`.
        other => vec![Some(format!("<{other}>")); n],
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::{Int32Array, LargeStringArray, StringArray, StringViewArray};
    use arrow_schema::Field;

    use super::*;

    fn batch(columns: Vec<(&str, ArrayRef)>) -> RecordBatch {
        RecordBatch::try_from_iter(columns).unwrap()
    }

    #[test]
    fn columns_are_found_by_name_in_any_order() {
        let b = batch(vec![
            ("text", Arc::new(StringArray::from(vec!["One. Two."])) as _),
            ("id", Arc::new(Int32Array::from(vec![7])) as _),
        ]);
        let c = Columns::find(&b.schema(), "id", "text").unwrap();
        assert_eq!(c, Columns { id: 1, text: 0 });
        let rows: Vec<Row> = rows(&b, c).collect();
        assert_eq!(
            rows,
            [Row::Document {
                id: "7".into(),
                text: "One. Two."
            }]
        );
    }

    #[test]
    fn every_string_layout_reads_and_nulls_are_rows_of_their_own() {
        let texts: [ArrayRef; 3] = [
            Arc::new(StringArray::from(vec![Some("a"), None, Some("c")])),
            Arc::new(LargeStringArray::from(vec![Some("a"), None, Some("c")])),
            Arc::new(StringViewArray::from(vec![Some("a"), None, Some("c")])),
        ];
        for text in texts {
            let ids: ArrayRef = Arc::new(StringArray::from(vec![Some("x"), Some("y"), None]));
            let b = batch(vec![("id", ids), ("text", text)]);
            let c = Columns::find(&b.schema(), "id", "text").unwrap();
            let rows: Vec<Row> = rows(&b, c).collect();
            assert_eq!(
                rows,
                [
                    Row::Document {
                        id: "x".into(),
                        text: "a"
                    },
                    Row::NullText { id: "y".into() },
                    Row::NullId,
                ]
            );
        }
    }

    #[test]
    fn a_missing_or_mistyped_column_is_named() {
        let schema = Schema::new(vec![
            Field::new("doc", DataType::Utf8, false),
            Field::new("body", DataType::Int32, false),
        ]);
        let missing = Columns::find(&schema, "id", "body").unwrap_err();
        assert_eq!(
            missing.message(|role| format!("--{role}-column")),
            "no column \"id\" (columns: doc, body; name the id column with --id-column)"
        );
        let mistyped = Columns::find(&schema, "doc", "body").unwrap_err();
        assert_eq!(
            mistyped.message(|_| unreachable!()),
            "column \"body\" is Int32, not a string"
        );
    }
}
