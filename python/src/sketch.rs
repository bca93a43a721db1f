//! A sketch as a Python object: the library's typed [`MethodSketch`] with the detector that
//! made it, the document's id and (when sketched here) its text.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use slst::method::{MethodSketch, SketchMismatch};

use crate::SlstError;
use crate::detector::Detector;

/// What a method keeps of one document. Opaque; `to_bytes()` for shipping it between
/// processes, `Detector.sketch_from_bytes` to read it back.
#[pyclass(frozen, module = "slst._slst")]
pub struct Sketch {
    /// The detector that made it.
    #[pyo3(get)]
    pub(crate) detector: Py<Detector>,
    /// The typed sketch.
    pub(crate) inner: MethodSketch,
    #[pyo3(get)]
    pub(crate) id: String,
    /// The text, when the sketch was made here (spans become slices of it).
    pub(crate) text: Option<Py<PyString>>,
}

#[pymethods]
impl Sketch {
    /// The sketch as bytes (JSON), to ship between processes; read back with
    /// `Detector.sketch_from_bytes`.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = self
            .inner
            .to_bytes()
            .map_err(|e| SlstError::new_err(e.to_string()))?;
        Ok(PyBytes::new(py, &bytes))
    }

    fn __repr__(&self) -> String {
        format!(
            "Sketch(id={:?}, method={:?})",
            self.id,
            self.detector.get().inner.method().name()
        )
    }
}

/// A sketch handed to a detector of another type, as the error Python sees.
pub(crate) fn mismatch(e: SketchMismatch) -> PyErr {
    SlstError::new_err(e.to_string())
}
