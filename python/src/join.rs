//! What a distributed join (the Spark job) needs of a method besides its keys: the word rule's
//! level, the witnesses' length tolerance, the bound on units in blocks and the walk's plan,
//! each the very function `slst batch` prunes by. All come from the method's witness join
//! (`Detector::external_join`); a method without one gives None.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use slst::method::{MethodDetector, MethodSketch, PairRule, SketchMismatch, WithDetector};

/// Witness keys, each `(key, unit, first length, second length)`, and the number of units of
/// a sketch.
pub(crate) type Witnesses = (Vec<(u64, u32, u8, u8)>, usize);

/// The witness keys and the unit count of a sketch — with `seeds`, of its seed sketch
/// (`Detector::seed_sketch`: the units every seed of a passage lies in) — or None for a method
/// without witness keys.
pub(crate) fn witnesses(
    d: &MethodDetector,
    sketch: &MethodSketch,
    seeds: bool,
) -> Result<Option<Witnesses>, SketchMismatch> {
    let seeded = if seeds { d.seed_sketch(sketch)? } else { None };
    let sketch = seeded.as_ref().unwrap_or(sketch);
    let Some(keys) = d.witness_keys(sketch)? else {
        return Ok(None);
    };
    let units = d.sentence_counts(sketch)?.map_or(0, |c| c.sentences);
    let keys = keys
        .into_iter()
        .map(|w| (w.key, w.unit, w.lengths[0], w.lengths[1]))
        .collect();
    Ok(Some((keys, units)))
}

/// The word rule's level and look-up cap.
pub(crate) struct WordJoin;
impl WithDetector for WordJoin {
    type Output = Option<(f64, usize)>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        d.external_join()?.word_join()
    }
}

/// How far two witnesses' lengths may differ.
pub(crate) struct Tolerance;
impl WithDetector for Tolerance {
    type Output = Option<usize>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        Some(d.external_join()?.witness_tolerance())
    }
}

/// Whether each unit looks up its rare keys alone: `(rare_df, rare_budget)`.
pub(crate) struct RareKeys;
impl WithDetector for RareKeys {
    type Output = Option<(usize, usize)>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        d.external_join()?.rare_keys()
    }
}

/// The join's bound for many (matched, units_a, units_b).
pub(crate) struct MayKeep<'a>(pub(crate) &'a [(usize, usize, usize)], pub(crate) PairRule);
impl WithDetector for MayKeep<'_> {
    type Output = Option<Vec<bool>>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        let join = d.external_join()?;
        Some(
            self.0
                .iter()
                .map(|&(m, na, nb)| join.may_keep_matched(m, na, nb, self.1))
                .collect(),
        )
    }
}

/// The pair check of many `(units_a, values_a, units_b, values_b)`.
pub(crate) struct MayKeepPairs<'a>(pub(crate) &'a [PairCheck], pub(crate) PairRule);
/// One pair's units and pair-check values, each side.
pub(crate) type PairCheck = (usize, Vec<u64>, usize, Vec<u64>);
impl WithDetector for MayKeepPairs<'_> {
    type Output = Option<Vec<bool>>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        let join = d.external_join()?;
        Some(
            self.0
                .iter()
                .map(|(na, va, nb, vb)| join.may_keep_pair((*na, va), (*nb, vb), self.1))
                .collect(),
        )
    }
}

/// The witness join's fewest units in blocks per document size.
pub(crate) struct Fewest<'a>(pub(crate) &'a [usize], pub(crate) PairRule);
impl WithDetector for Fewest<'_> {
    type Output = Option<Vec<Option<usize>>>;
    fn with<D: slst::Detector>(self, d: &D) -> Self::Output {
        let join = d.external_join()?;
        let rule = self.1;
        let may_keep = |m: usize, na: usize, nb: usize| join.may_keep_matched(m, na, nb, rule);
        let fewest = slst::method::fewest_matched(self.0, &may_keep);
        Some(
            fewest
                .into_iter()
                .map(|f| (f != usize::MAX).then_some(f))
                .collect(),
        )
    }
}

/// How many of a set's first terms, in any one order of all terms, hold a term of every set
/// whose Jaccard coefficient with it is at least `tau` (|x| − ⌈τ·|x|⌉ + 1, with the slack of
/// `slst batch`, so that rounding only makes a prefix longer): the prefixes of the word join.
#[pyfunction]
pub(crate) fn prefix_len(size: usize, tau: f64) -> usize {
    slst::method::prefix_len(size, tau)
}

/// Per unit of a document of `units` units, the highest document frequency (255 for 255 and
/// more) of a key the unit looks up under `rare_df` and `rare_budget` (`slst batch --rare-df
/// --rare-budget`; `Detector.rare_keys`): `slots` holds unit · 2³² + df for each witness row of
/// the document whose key another document holds; keys held by more than `max_df` documents are
/// boilerplate and count for nothing.
#[pyfunction]
pub(crate) fn rare_bounds(
    units: usize,
    slots: Vec<u64>,
    max_df: usize,
    rare_df: usize,
    rare_budget: usize,
) -> Vec<u32> {
    let held = slots
        .iter()
        .map(|&p| ((p >> 32) as usize, (p & 0xFFFF_FFFF) as usize))
        .filter(|&(_, df)| (2..=max_df).contains(&df));
    // A list of numbers, not bytes, on the Python side.
    slst::method::rare_bounds(units, held, rare_df, rare_budget)
        .into_iter()
        .map(u32::from)
        .collect()
}

/// Which units of a document a witness join walks (the plan of `slst batch`'s own walk):
/// `cost` per unit (the postings of its witness keys held by at most `max_df` documents; keys
/// held by more are boilerplate and witness nothing), `least` from `Detector.fewest_matched`.
/// Returns `(walked, assumed)`: which units count when witnessed, and how many units (those
/// not walked) count as witnessed against every document.
#[pyfunction]
pub(crate) fn plan_walk(cost: Vec<usize>, least: usize) -> PyResult<(Vec<bool>, usize)> {
    if least == 0 {
        return Err(PyValueError::new_err(
            "plan_walk: least must be at least 1 (a pair needs a unit in a block)",
        ));
    }
    let plan = slst::method::plan_walk(&cost, least);
    Ok((plan.walked, plan.assumed))
}
