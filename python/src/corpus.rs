//! Corpus input: documents pulled from a Python iterable while a corpus run goes on without
//! the GIL, and bytes decoded as `slst` decodes files.

use std::sync::{Arc, Mutex};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyIterator, PyString, PyTuple};

use slst::Document;
use slst::corpus::Item;

use crate::SlstError;

/// The documents of a Python iterable, pulled one at a time (taking the GIL for each) while the
/// corpus run goes on without it. An item is `(id, text)`; text is `str`, or `bytes` decoded as
/// a file is (UTF-8, UTF-16 with a byte-order mark, else Windows-1252). The first bad item
/// stops the stream and is raised when the run returns.
pub(crate) struct PyDocs {
    pub(crate) iter: Py<PyIterator>,
    pub(crate) error: Arc<Mutex<Option<PyErr>>>,
    pub(crate) done: bool,
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
        let next = Python::attach(|py| -> PyResult<Option<Document>> {
            let mut it = self.iter.bind(py).clone();
            match it.next() {
                None => Ok(None),
                Some(item) => document_of(&item?, 0).map(Some),
            }
        });
        match next {
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
