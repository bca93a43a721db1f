//! Spans as Python sees them: character offsets into a `str` (what Python indexes by) and
//! `slice` objects over them. The library speaks in byte offsets into the UTF-8 text; every
//! span that crosses to Python goes through [`char_offsets`] once per text.

use pyo3::prelude::*;
use pyo3::types::PySlice;

/// Byte offsets into `text` as character offsets (what Python indexes a `str` by).
pub(crate) fn char_offsets(text: &str, offsets: &[usize]) -> Vec<usize> {
    if text.is_ascii() {
        return offsets.to_vec();
    }
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_unstable_by_key(|&i| offsets[i]);
    let mut out = vec![0; offsets.len()];
    let (mut byte, mut chars) = (0usize, 0usize);
    for i in order {
        let target = offsets[i].min(text.len());
        chars += text[byte..target].chars().count();
        byte = target;
        out[i] = chars;
    }
    out
}

pub(crate) fn slice(py: Python<'_>, span: (usize, usize)) -> Py<PySlice> {
    PySlice::new(py, span.0 as isize, span.1 as isize, 1).unbind()
}
