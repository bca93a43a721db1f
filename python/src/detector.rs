//! `Detector`: a method with its settings, the class every operation of the package starts
//! from. Its methods parse their arguments, release the GIL and hand the work to the library
//! (typed sketches, batch runs) or to the modules beside this one; the Python API is the
//! contract, and the library's names and errors are used as they are.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use slst::Document;
use slst::align::AlignConfig;
use slst::batch::{BatchConfig, Candidates};
use slst::corpus::jsonl::{ID_FIELD, TEXT_FIELD};
use slst::method::{Method, MethodDetector, MethodSettings, PairRule};

use crate::comparison::{CompareSketches, CompareTexts, Comparison};
use crate::corpus::PyDocs;
use crate::join::{
    Fewest, MayKeep, MayKeepPairs, PairCheck, RareKeys, Tolerance, Witnesses, WordJoin, witnesses,
};
use crate::pairs::{Pairs, PassageItem, StopLists, VerifyMany, VerifyPassages, run_pairs};
use crate::settings::settings_of;
use crate::sketch::{Sketch, mismatch};
use crate::{SlstError, error};

/// A method with its settings: sketches documents and compares sketches.
#[pyclass(frozen, module = "slst._slst")]
pub struct Detector {
    pub(crate) inner: Arc<MethodDetector>,
    method: Method,
    mode: String,
    settings: MethodSettings,
}

#[pymethods]
impl Detector {
    /// A detector of `method` (`slst`, `shingle`, …) in `mode` (SL+ST: `robust`, the default,
    /// or `paper`) with settings by name (`min_block=3`, `term_similarity=0.5`).
    #[new]
    #[pyo3(signature = (method = "slst", mode = "robust", params = None))]
    fn new(method: &str, mode: &str, params: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let (m, settings) = settings_of(method, mode, params)?;
        let inner = settings.detector(m).map_err(error)?;
        Ok(Detector {
            inner: Arc::new(inner),
            method: m,
            mode: mode.to_string(),
            settings,
        })
    }

    /// The method's name.
    #[getter]
    fn method(&self) -> &'static str {
        self.method.name()
    }

    /// SL+ST's mode (`robust` or `paper`; for the other methods, the mode given).
    #[getter]
    fn mode(&self) -> &str {
        &self.mode
    }

    /// How the method decides "duplicate", in words.
    #[getter]
    fn rule(&self) -> String {
        self.inner.rule()
    }

    /// The settings this method takes by name.
    #[getter]
    fn settings(&self) -> Vec<String> {
        self.settings.names(self.method)
    }

    fn __repr__(&self) -> String {
        format!(
            "Detector(method={:?}, mode={:?}, rule={:?})",
            self.method.name(),
            self.mode,
            self.inner.rule()
        )
    }

    /// Sketch one text (the GIL is released while it is profiled).
    #[pyo3(signature = (text, id = "doc"))]
    fn sketch(slf: &Bound<'_, Self>, text: Bound<'_, PyString>, id: &str) -> PyResult<Sketch> {
        let py = slf.py();
        let doc = Document::new(id, text.to_cow()?);
        let me = slf.get();
        let inner = py.detach(|| me.inner.sketch(&doc));
        Ok(Sketch {
            detector: slf.clone().unbind(),
            inner,
            id: id.to_string(),
            text: Some(text.unbind()),
        })
    }

    /// A sketch read back from `Sketch.to_bytes()` (made by a detector with the same settings).
    #[pyo3(signature = (data, id = "doc"))]
    fn sketch_from_bytes(slf: &Bound<'_, Self>, data: &[u8], id: &str) -> PyResult<Sketch> {
        let me = slf.get();
        let inner = slf
            .py()
            .detach(|| me.inner.read_sketch(data))
            .map_err(|e| SlstError::new_err(format!("not a sketch of this method: {e}")))?;
        Ok(Sketch {
            detector: slf.clone().unbind(),
            inner,
            id: id.to_string(),
            text: None,
        })
    }

    /// Keys such that any two documents the method could report share one: the join keys of
    /// a distributed join (duplicate keys when `duplicates`, else keys of every pair with a
    /// score above 0). None: the method has no such keys (every pair must be compared).
    #[pyo3(signature = (sketch, duplicates = true))]
    fn keys(&self, sketch: &Sketch, duplicates: bool) -> PyResult<Option<Vec<u64>>> {
        self.check(sketch)?;
        let keys = if duplicates {
            self.inner.duplicate_keys(&sketch.inner)
        } else {
            self.inner.join_keys(&sketch.inner)
        };
        keys.map_err(mismatch)
    }

    /// Witness keys of a sketch and its number of units, for a distributed join that counts
    /// witnessed units per pair (robust SL+ST): `(keys, units)` with each key as
    /// `(key, unit, first_length, second_length)` — the lengths of the units of the key's step
    /// (a one-unit key: its unit's, twice). Two documents share a witness when they hold the
    /// same key with both lengths within `witness_tolerance`; None for a method without them.
    /// With `seeds`, those of the units every seed of a passage lies in (robust SL+ST: the
    /// profile with the windows of its over-long sentences among its units), which a join of
    /// the pairs that may share a passage (`min_shared_words`) counts with the rule `scored`.
    #[pyo3(signature = (sketch, seeds = false))]
    fn witness_keys(&self, sketch: &Sketch, seeds: bool) -> PyResult<Option<Witnesses>> {
        self.check(sketch)?;
        witnesses(&self.inner, &sketch.inner, seeds).map_err(mismatch)
    }

    /// Word keys of a sketch, for the pairs a method reports on their words alone, which the
    /// witness count does not bound (robust SL+ST's `vocabulary` rule): one for each term of
    /// the vocabulary, so that any two documents it reports so share one among any
    /// |x| − ⌈v·|x|⌉ + 1 of x's keys (v from `word_join`): an index stores them all and looks
    /// a document up by its rarest. None for a method (or settings) without such pairs.
    fn word_keys(&self, sketch: &Sketch) -> PyResult<Option<Vec<u64>>> {
        self.check(sketch)?;
        self.inner.word_keys(&sketch.inner).map_err(mismatch)
    }

    /// The terms the word rule compares (robust SL+ST's `vocabulary` rule: the distinct terms of
    /// the whole text, as sorted 64-bit ids), for a distributed join that orders them by its own
    /// document frequencies as `slst batch` does (`word_join`). Every document's terms count in
    /// those, but one without a kept unit (`witness_keys` counts none) has no pair on words.
    /// None for a method (or settings) without the rule.
    fn vocabulary(&self, sketch: &Sketch) -> PyResult<Option<Vec<u64>>> {
        self.check(sketch)?;
        self.inner.vocabulary(&sketch.inner).map_err(mismatch)
    }

    /// `(level, cap)` of the word rule: a pair whose vocabularies have a Jaccard coefficient of
    /// at least `level` may be reported on its words, and `slst batch` looks a prefix term up
    /// only if at most `min(cap, max_df)` documents index it. None without the rule.
    #[getter]
    fn word_join(&self) -> Option<(f64, usize)> {
        self.inner.visit(WordJoin)
    }

    /// How far the lengths of two witnesses of one key may differ, each, for the key to
    /// witness (robust SL+ST: the length tolerance δ); None for a method without witness keys.
    #[getter]
    fn witness_tolerance(&self) -> Option<usize> {
        self.inner.visit(Tolerance)
    }

    /// `(rare_df, rare_budget)` when each unit looks up its rare keys alone (robust SL+ST with
    /// `rare_df`; what `slst.rare_bounds` takes), else None: every key.
    #[getter]
    fn rare_keys(&self) -> Option<(usize, usize)> {
        self.inner.visit(RareKeys)
    }

    /// For each `(matched, units_a, units_b)`: whether that many units in blocks could
    /// satisfy `rule` (the bound of the witness join); None for a method without it.
    #[pyo3(signature = (items, rule = "duplicates", containment = 0.8))]
    fn may_keep_matched(
        &self,
        py: Python<'_>,
        items: Vec<(usize, usize, usize)>,
        rule: &str,
        containment: f64,
    ) -> PyResult<Option<Vec<bool>>> {
        let rule = pair_rule(rule, containment)?;
        Ok(py.detach(|| self.inner.visit(MayKeep(&items, rule))))
    }

    /// What `may_keep_pairs` reads of a sketch besides its units, as sorted 64-bit values
    /// (robust SL+ST: its figures' ids); None for a method without such a check.
    fn pair_check_values(&self, sketch: &Sketch) -> PyResult<Option<Vec<u64>>> {
        self.check(sketch)?;
        self.inner
            .pair_check_values(&sketch.inner)
            .map_err(mismatch)
    }

    /// For each `(units_a, values_a, units_b, values_b)` (`pair_check_values`): whether the
    /// pair could be kept under `rule` — false only for a pair that `verify` would surely not
    /// keep (robust SL+ST: figures that disagree), so that a distributed join can screen its
    /// candidates before it moves their sketches, as `slst batch` screens before it compares.
    /// None for a method without the check.
    #[pyo3(signature = (items, rule = "duplicates", containment = 0.8))]
    fn may_keep_pairs(
        &self,
        py: Python<'_>,
        items: Vec<PairCheck>,
        rule: &str,
        containment: f64,
    ) -> PyResult<Option<Vec<bool>>> {
        let rule = pair_rule(rule, containment)?;
        Ok(py.detach(|| self.inner.visit(MayKeepPairs(&items, rule))))
    }

    /// For each number of units n (the index, up to the largest of `sizes`): the fewest units
    /// in blocks with which a document of n units can satisfy `rule` against some document at
    /// least as long of a corpus whose documents have `sizes` units (None: against none). What
    /// a distributed witness join prunes its walk by, as `slst batch` does (each pair counted
    /// from its shorter document; of two as long, the earlier); None for a method without it.
    #[pyo3(signature = (sizes, rule = "duplicates", containment = 0.8))]
    fn fewest_matched(
        &self,
        py: Python<'_>,
        sizes: Vec<usize>,
        rule: &str,
        containment: f64,
    ) -> PyResult<Option<Vec<Option<usize>>>> {
        let rule = pair_rule(rule, containment)?;
        Ok(py.detach(|| self.inner.visit(Fewest(&sizes, rule))))
    }

    /// Compare two sketches; passages too when both sketches carry their texts.
    #[pyo3(signature = (a, b, passages = true))]
    fn verify(
        &self,
        py: Python<'_>,
        a: &Sketch,
        b: &Sketch,
        passages: bool,
    ) -> PyResult<Comparison> {
        self.check(a)?;
        self.check(b)?;
        let ta: Option<String> = a.text.as_ref().map(|t| t.bind(py).to_string());
        let tb: Option<String> = b.text.as_ref().map(|t| t.bind(py).to_string());
        let da = Document::new(a.id.clone(), ta.clone().unwrap_or_default());
        let db = Document::new(b.id.clone(), tb.clone().unwrap_or_default());
        let align = (passages && ta.is_some() && tb.is_some()).then(AlignConfig::default);
        let work = CompareSketches {
            docs: (&da, &db),
            passages: align,
        };
        let compared = py
            .detach(|| self.inner.visit_sketches(&a.inner, &b.inner, work))
            .map_err(mismatch)?;
        compared.into_python(py, (ta.as_deref(), tb.as_deref()))
    }

    /// Compare two texts: sketch both (the GIL released), compare, and grow passages.
    #[pyo3(signature = (a, b, passages = true, a_id = "a", b_id = "b"))]
    fn compare(
        &self,
        py: Python<'_>,
        a: &str,
        b: &str,
        passages: bool,
        a_id: &str,
        b_id: &str,
    ) -> PyResult<Comparison> {
        let da = Document::new(a_id, a);
        let db = Document::new(b_id, b);
        let align = passages.then(AlignConfig::default);
        let compared = py.detach(|| self.inner.visit(CompareTexts(&da, &db, align)));
        compared.into_python(py, (Some(a), Some(b)))
    }

    /// Verify candidate pairs of a distributed join: each item is `(a_id, a_sketch_bytes,
    /// b_id, b_sketch_bytes)` with `a` the earlier document. Returns `(index, line)` for the
    /// pairs `rule` keeps, `line` being what `slst batch` writes for the pair. With
    /// `stopwords`, per item the ids of the stop-word lists chosen for a and b
    /// (`Detector.stopwords_of`), which the lines name as `slst batch`'s do. The GIL is
    /// released for the whole list.
    #[pyo3(signature = (items, rule = "duplicates", containment = 0.8, stopwords = None))]
    fn verify_many(
        &self,
        py: Python<'_>,
        items: Vec<(String, Vec<u8>, String, Vec<u8>)>,
        rule: &str,
        containment: f64,
        stopwords: Option<Vec<StopLists>>,
    ) -> PyResult<Vec<(usize, String)>> {
        let rule = pair_rule(rule, containment)?;
        check_lists(&stopwords, items.len())?;
        py.detach(|| {
            self.inner.visit(VerifyMany {
                items: &items,
                rule,
                stopwords: stopwords.as_deref(),
            })
        })
        .map_err(|e| SlstError::new_err(format!("not a sketch of this method: {e}")))
    }

    /// Verify candidate pairs of a distributed join that also keeps every pair sharing at
    /// least `min_shared_words` words in one passage (`slst batch --min-shared-words`): each
    /// item is `(a_id, a_sketch_bytes, a_text, b_id, b_sketch_bytes, b_text)` with `a` the
    /// earlier document. Every pair is compared (no bound rules one out) and kept when `rule`
    /// keeps it or it shares such a passage. Returns `(index, line)` for the pairs kept,
    /// `line` being what `slst batch` writes for the pair; `stopwords` as `verify_many`'s.
    /// The GIL is released for the whole list.
    #[pyo3(signature = (items, min_shared_words, rule = "duplicates", containment = 0.8, stopwords = None))]
    fn verify_passages(
        &self,
        py: Python<'_>,
        items: Vec<PassageItem>,
        min_shared_words: usize,
        rule: &str,
        containment: f64,
        stopwords: Option<Vec<StopLists>>,
    ) -> PyResult<Vec<(usize, String)>> {
        let rule = pair_rule(rule, containment)?;
        self.check_min_shared_words(min_shared_words)?;
        check_lists(&stopwords, items.len())?;
        py.detach(|| {
            self.inner.visit(VerifyPassages {
                items: &items,
                rule,
                min_words: min_shared_words,
                stopwords: stopwords.as_deref(),
            })
        })
        .map_err(|e| SlstError::new_err(format!("not a sketch of this method: {e}")))
    }

    /// The id of the stop-word list this detector uses for `text` when its stop words are
    /// `auto` (each document's language chooses its list; the `stopwords_a` and
    /// `stopwords_b` of `slst batch`'s lines), else None: one list for every text.
    fn stopwords_of(&self, py: Python<'_>, text: &str) -> Option<String> {
        let auto = self.inner.params().auto_stopwords()?;
        Some(py.detach(|| auto.for_text(text).id().to_string()))
    }

    /// Refuse what `slst batch --min-shared-words` refuses: 0 words, or a method without
    /// blocks, whose comparisons locate no text to grow passages from.
    fn check_min_shared_words(&self, min_shared_words: usize) -> PyResult<()> {
        slst::batch::passage::check_method(self.inner.method(), min_shared_words)
            .map_err(|e| SlstError::new_err(e.to_string()))
    }

    /// Every near-duplicate pair of a corpus: `docs` is any iterable of `(id, text)`, read
    /// one item at a time while the run goes on with the GIL released, or an Arrow table
    /// (`__arrow_c_stream__`) read a batch at a time from its columns `id_column` and
    /// `text_column`; the same pairs, in the same order, as `slst batch` on the same
    /// documents; the duplicate groups at J ≥ `group_at` as `slst batch --groups FILE` writes
    /// them. With `min_shared_words`, also every pair sharing at least that many words in one
    /// passage (`slst batch --min-shared-words`).
    #[pyo3(signature = (docs, rule = "duplicates", containment = 0.8, max_df = 1000, threads = None, group_at = 0.9, id_column = ID_FIELD, text_column = TEXT_FIELD, min_shared_words = None))]
    #[allow(clippy::too_many_arguments)]
    fn pairs(
        &self,
        py: Python<'_>,
        docs: &Bound<'_, PyAny>,
        rule: &str,
        containment: f64,
        max_df: usize,
        threads: Option<usize>,
        group_at: f64,
        id_column: &str,
        text_column: &str,
        min_shared_words: Option<usize>,
    ) -> PyResult<Pairs> {
        let rule = pair_rule(rule, containment)?;
        if let Some(words) = min_shared_words {
            self.check_min_shared_words(words)?;
        }
        let config = BatchConfig {
            rule,
            candidates: Candidates::Index,
            max_df,
            drop_boilerplate: None,
            min_shared_words,
        };
        run_pairs(
            py,
            self.inner.clone(),
            PyDocs::of(docs, id_column, text_column)?,
            config,
            threads,
            group_at,
        )
    }
}

/// Refuse stop-word lists given for other than every item, one pair of ids each.
fn check_lists(stopwords: &Option<Vec<StopLists>>, items: usize) -> PyResult<()> {
    match stopwords {
        Some(lists) if lists.len() != items => Err(SlstError::new_err(format!(
            "stopwords: {} pairs of list ids for {items} items; give one pair per item",
            lists.len()
        ))),
        _ => Ok(()),
    }
}

/// The rule named `rule`, as the library reads it.
fn pair_rule(rule: &str, containment: f64) -> PyResult<PairRule> {
    PairRule::from_name(rule, containment).map_err(|e| SlstError::new_err(e.to_string()))
}

impl Detector {
    fn check(&self, sketch: &Sketch) -> PyResult<()> {
        let other = &sketch.detector.get().inner;
        if Arc::ptr_eq(&self.inner, other)
            || (self.inner.method() == other.method() && self.inner.params() == other.params())
        {
            Ok(())
        } else {
            Err(SlstError::new_err(format!(
                "sketch {:?} was made by another method or other settings ({}); sketch both \
                 documents with this detector",
                sketch.id,
                other.method().name()
            )))
        }
    }
}
