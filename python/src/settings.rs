//! Settings by name: a Python dict of settings read as `MethodSettings::set` reads the CLI's
//! flags, so that a setting is defined once, in the library.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use slst::method::{Method, MethodSettings, SlstMode};

use crate::{SlstError, error};

/// A Python value as the text `MethodSettings::set` reads.
fn setting_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(b) = value.cast::<pyo3::types::PyBool>() {
        return Ok(if b.is_true() { "true" } else { "false" }.to_string());
    }
    if value.is_instance_of::<PyString>() {
        return value.extract();
    }
    if value.is_instance_of::<pyo3::types::PyInt>()
        || value.is_instance_of::<pyo3::types::PyFloat>()
    {
        return Ok(value.str()?.to_string());
    }
    if let Ok(path) = value.call_method0("__fspath__") {
        return path.extract();
    }
    Err(PyTypeError::new_err(format!(
        "a setting is a bool, int, float or str, not {}",
        value.get_type().name()?
    )))
}

/// The settings of `method` in `mode`, with `params` set by name.
pub(crate) fn settings_of(
    method: &str,
    mode: &str,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Method, MethodSettings)> {
    let m = Method::from_name(method).ok_or_else(|| {
        let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
        SlstError::new_err(format!(
            "unknown method {method:?}; the methods are {}",
            names.join(", ")
        ))
    })?;
    // The library reads the mode's name; its error lists the modes.
    let slst_mode: SlstMode = mode
        .parse()
        .map_err(|e: slst::method::UnknownMode| SlstError::new_err(e.to_string()))?;
    let mut settings = MethodSettings {
        slst_mode,
        ..MethodSettings::default()
    };
    if let Some(params) = params {
        for (k, v) in params.iter() {
            let name: String = k.extract()?;
            settings.set(m, &name, &setting_text(&v)?).map_err(error)?;
        }
    }
    Ok((m, settings))
}
