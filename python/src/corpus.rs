//! Corpus input: documents pulled from a Python iterable while a corpus run goes on without
//! the GIL, and bytes decoded as `slst` decodes files.

use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyIterator, PyString, PyTuple};

use slst::Document;
use slst::corpus::Item;

use crate::SlstError;

/// Where the first bad document's error waits while the run returns.
pub(crate) type ErrorSlot = Arc<Mutex<Option<PyErr>>>;

/// The documents of a corpus given from Python, pulled one at a time while the corpus run goes
/// on without the GIL: from an iterable of `(id, text)` (taking the GIL for each item; text is
/// `str`, or `bytes` decoded as a file is: UTF-8, UTF-16 with a byte-order mark, else
/// Windows-1252), or from an Arrow table (any object with `__arrow_c_stream__`, a record
/// batch at a time: [`crate::arrow`]). The first bad document stops the stream and is raised
/// when the run returns.
pub(crate) struct PyDocs {
    source: Source,
    error: ErrorSlot,
    done: bool,
}

enum Source {
    Iterable(Py<PyIterator>),
    #[cfg(feature = "arrow")]
    Arrow(crate::arrow::ArrowDocs),
}

impl PyDocs {
    /// The documents of `docs`, an iterable of `(id, text)` or an Arrow table whose columns
    /// `id_column` and `text_column` hold them; and the slot its first error goes to.
    pub(crate) fn of(
        docs: &Bound<'_, PyAny>,
        id_column: &str,
        text_column: &str,
    ) -> PyResult<(PyDocs, ErrorSlot)> {
        let source = if docs.hasattr(crate::arrow::CAPSULE_METHOD)? {
            arrow_source(docs, id_column, text_column)?
        } else {
            Source::Iterable(docs.try_iter()?.unbind())
        };
        let error = ErrorSlot::default();
        let docs = PyDocs {
            source,
            error: error.clone(),
            done: false,
        };
        Ok((docs, error))
    }

    /// The next document, taking the GIL for the time it is read.
    fn next_document(&mut self) -> PyResult<Option<Document>> {
        match &mut self.source {
            Source::Iterable(iter) => Python::attach(|py| {
                let mut it = iter.bind(py).clone();
                match it.next() {
                    None => Ok(None),
                    Some(item) => document_of(&item?, 0).map(Some),
                }
            }),
            #[cfg(feature = "arrow")]
            Source::Arrow(docs) => docs.next_document(),
        }
    }
}

#[cfg(feature = "arrow")]
fn arrow_source(docs: &Bound<'_, PyAny>, id_column: &str, text_column: &str) -> PyResult<Source> {
    crate::arrow::ArrowDocs::new(docs, id_column, text_column).map(Source::Arrow)
}

#[cfg(not(feature = "arrow"))]
fn arrow_source(_: &Bound<'_, PyAny>, _: &str, _: &str) -> PyResult<Source> {
    Err(SlstError::new_err(crate::arrow::NO_ARROW))
}

fn document_of(item: &Bound<'_, PyAny>, index: usize) -> PyResult<Document> {
    let tuple = item.cast::<PyTuple>().map_err(|_| {
        PyTypeError::new_err(format!(
            "item {index}: expected an (id, text) tuple, got {}",
            item.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    if tuple.len() != 2 {
        return Err(PyTypeError::new_err(format!(
            "item {index}: expected an (id, text) tuple, got {} values",
            tuple.len()
        )));
    }
    let id_value = tuple.get_item(0)?;
    let id: String = if id_value.is_instance_of::<PyString>() {
        id_value.extract()?
    } else {
        id_value.str()?.to_string()
    };
    let text_value = tuple.get_item(1)?;
    if let Ok(text) = text_value.cast::<PyString>() {
        return Ok(Document::new(id, text.to_cow()?));
    }
    if let Ok(bytes) = text_value.cast::<PyBytes>() {
        return match slst::corpus::decode_text(bytes.as_bytes()) {
            Ok((text, _)) => Ok(Document::new(id, text)),
            Err(e) => Err(SlstError::new_err(format!(
                "document {id:?}: looks like binary data ({}), not text",
                e.0
            ))),
        };
    }
    Err(PyTypeError::new_err(format!(
        "document {id:?}: the text is a str or bytes, not {}",
        text_value.get_type().name()?
    )))
}

impl Iterator for PyDocs {
    type Item = Item;
    fn next(&mut self) -> Option<Item> {
        if self.done {
            return None;
        }
        match self.next_document() {
            Ok(Some(doc)) => Some(Item::Document(doc)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                *self.error.lock().expect("not poisoned") = Some(e);
                None
            }
        }
    }
}

/// Decode a file's bytes as `slst` does: UTF-8, UTF-16 with a byte-order mark, else
/// Windows-1252; binary data (NUL bytes, mostly control characters) raises `SlstError`.
#[pyfunction]
pub(crate) fn decode(data: &[u8]) -> PyResult<String> {
    slst::corpus::decode_text(data)
        .map(|(text, _)| text)
        .map_err(|e| SlstError::new_err(format!("looks like binary data ({}), not text", e.0)))
}
