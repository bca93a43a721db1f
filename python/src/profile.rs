//! The paper-mode sentence profile of a text, as `slst profile` shows it.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PySlice};

use slst::report::{ProfileRecord, Versioned};
use slst::{Document, SentenceProfile};

use crate::settings::settings_of;
use crate::spans::{char_offsets, slice};
use crate::{SlstError, error};

/// One kept sentence of a paper-mode profile.
#[pyclass(frozen, get_all, module = "slst._slst")]
pub struct Sentence {
    /// The sentence, as a slice of the text.
    span: Py<PySlice>,
    /// Byte offsets [start, end) in the UTF-8 text.
    bytes: (usize, usize),
    /// Its length in terms after stop-word removal.
    length: u8,
    /// Its symbol in the length string (`1`–`9`, `a`–`z`).
    symbol: char,
    /// Its leading terms.
    leading: Vec<String>,
}

/// A paper-mode sentence profile: the length string and the kept sentences.
#[pyclass(frozen, get_all, module = "slst._slst")]
pub struct Profile {
    /// One character per kept sentence: its length in base 36.
    length_string: String,
    /// The kept sentences.
    sentences: Vec<Py<Sentence>>,
    /// Sentences with no term left after stop-word removal.
    skipped_empty: usize,
    /// Sentences longer than the maximum length.
    dropped_long: usize,
    /// The record as `slst profile --json` prints it.
    json: String,
}

#[pymethods]
impl Profile {
    fn __repr__(&self) -> String {
        format!("Profile(length_string={:?})", self.length_string)
    }

    /// The record as `slst profile --json` prints it, as a JSON string.
    fn to_json(&self) -> &str {
        &self.json
    }
}

/// The paper-mode sentence profile of a text (settings: max_length, leading_terms,
/// stopwords).
#[pyfunction]
#[pyo3(signature = (text, params = None))]
pub(crate) fn profile(
    py: Python<'_>,
    text: &str,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<Profile> {
    let (_, settings) = settings_of("slst", "paper", params)?;
    let config = settings.slst.profile.clone();
    config.validate().map_err(error)?;
    let doc = Document::new("doc", text);
    let p = py.detach(|| SentenceProfile::from_text("doc", text, &config));
    let record = ProfileRecord::new(&doc, &p, config.stopwords.for_text(text).id());
    let json = serde_json::to_string(&Versioned::new(&record))
        .map_err(|e| SlstError::new_err(e.to_string()))?;
    let flat: Vec<usize> = p
        .sentences
        .iter()
        .flat_map(|s| [s.start as usize, s.end as usize])
        .collect();
    let chars = char_offsets(text, &flat);
    let mut sentences = Vec::with_capacity(p.sentences.len());
    for (i, s) in p.sentences.iter().enumerate() {
        sentences.push(Py::new(
            py,
            Sentence {
                span: slice(py, (chars[2 * i], chars[2 * i + 1])),
                bytes: (s.start as usize, s.end as usize),
                length: s.length,
                symbol: s.symbol(),
                leading: s.leading.iter().map(str::to_string).collect(),
            },
        )?);
    }
    Ok(Profile {
        length_string: p.length_string(),
        sentences,
        skipped_empty: p.skipped_empty,
        dropped_long: p.dropped_long,
        json,
    })
}
