//! `slst._slst`: the Rust side of the Python package. The Python API (`slst/__init__.py`)
//! wraps these classes; everything that takes time here runs with the GIL released.
//!
//! Spans cross to Python as `slice` objects over the Python string (character offsets, so
//! that `text[block.a]` is the block) and as byte offsets (`a_bytes`, into the UTF-8 text, as
//! the CLI's JSON records give them).
//!
//! The bindings are a thin shell: settings, modes and rules are read by the library, a sketch
//! is the library's typed `MethodSketch`, and every record's JSON is the one the CLI writes.
//! Modules by what they do: [`detector`] (the class everything starts from), [`sketch`],
//! [`comparison`] (two documents), [`pairs`] (corpus runs' records), [`dedup`] (which
//! documents to keep), [`corpus`] (documents from Python), [`arrow`] (Arrow tables in and
//! out), [`join`] (a distributed join's bounds), [`profile`], [`settings`] (by name) and
//! [`spans`] (byte to character offsets).

mod arrow;
mod comparison;
mod corpus;
mod dedup;
mod detector;
mod join;
mod pairs;
mod profile;
mod settings;
mod sketch;
mod spans;

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use slst::method::Method;

pub use crate::comparison::{Block, Comparison, Passage};
pub use crate::dedup::{Dedup, Dropped};
pub use crate::detector::Detector;
pub use crate::pairs::{Pair, Pairs};
pub use crate::profile::{Profile, Sentence};
pub use crate::sketch::Sketch;

create_exception!(
    _slst,
    SlstError,
    PyValueError,
    "An error of slst: a setting out of range or unknown, an unreadable input. The message is the one the `slst` command prints."
);

pub(crate) fn error(e: slst::Error) -> PyErr {
    SlstError::new_err(e.to_string())
}

/// The method names.
#[pyfunction]
fn methods() -> Vec<&'static str> {
    Method::ALL.iter().map(|m| m.name()).collect()
}

#[pymodule]
fn _slst(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("SlstError", m.py().get_type::<SlstError>())?;
    m.add_class::<Detector>()?;
    m.add_class::<Sketch>()?;
    m.add_class::<Comparison>()?;
    m.add_class::<Block>()?;
    m.add_class::<Passage>()?;
    m.add_class::<Pair>()?;
    m.add_class::<Pairs>()?;
    m.add_class::<Dedup>()?;
    m.add_class::<Dropped>()?;
    m.add_class::<Profile>()?;
    m.add_class::<Sentence>()?;
    m.add_function(wrap_pyfunction!(profile::profile, m)?)?;
    m.add_function(wrap_pyfunction!(methods, m)?)?;
    m.add_function(wrap_pyfunction!(dedup::dedup, m)?)?;
    m.add_function(wrap_pyfunction!(dedup::decide, m)?)?;
    m.add_function(wrap_pyfunction!(corpus::decode, m)?)?;
    m.add_function(wrap_pyfunction!(join::plan_walk, m)?)?;
    m.add_function(wrap_pyfunction!(join::rare_bounds, m)?)?;
    m.add("RARE_KEYS", slst::method::RARE_KEYS)?;
    m.add_function(wrap_pyfunction!(join::prefix_len, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::pair_columns_ddl, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("ID_COLUMN", slst::corpus::jsonl::ID_FIELD)?;
    m.add("TEXT_COLUMN", slst::corpus::jsonl::TEXT_FIELD)?;
    Ok(())
}
