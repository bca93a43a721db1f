//! Detection methods behind one interface.
//!
//! A [`Detector`] turns each document into a sketch once ([`Detector::sketch`]) and compares two
//! sketches ([`Detector::compare`]) into a [`Comparison`]. SL+ST ([`SlSt`]) is the core method;
//! the cross-check baselines implement the same trait, so every command can run any of them.

mod slst;

pub use self::slst::{MatchKey, SlSt, SlstComparison, SlstConfig};

use crate::document::Document;
use crate::similarity::Similarity;

/// A near-duplicate detection method.
pub trait Detector {
    /// What the method keeps of a document.
    type Sketch;
    /// What a comparison yields besides the scores (e.g. SL+ST's blocks).
    type Evidence;

    /// The method's name as the CLI and reports spell it (`slst`, `shingle`, …).
    fn name(&self) -> &'static str;

    /// Sketch one document. Pure: the same document always gives the same sketch.
    fn sketch(&self, doc: &Document) -> Self::Sketch;

    /// Compare two sketches. Symmetric: `compare(b, a)` has the same resemblance as
    /// `compare(a, b)` with the containments swapped.
    fn compare(&self, a: &Self::Sketch, b: &Self::Sketch) -> Comparison<Self::Evidence>;
}

/// Sketch two documents at once, on two threads: the whole of a pairwise comparison's
/// profiling cost is then that of the larger document.
pub fn sketch_pair<D>(detector: &D, a: &Document, b: &Document) -> (D::Sketch, D::Sketch)
where
    D: Detector + Sync,
    D::Sketch: Send,
{
    std::thread::scope(|scope| {
        let b_sketch = scope.spawn(|| detector.sketch(b));
        let a_sketch = detector.sketch(a);
        let b_sketch = match b_sketch.join() {
            Ok(sketch) => sketch,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        (a_sketch, b_sketch)
    })
}

/// The outcome of comparing two documents with one method.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison<E> {
    /// The method's name.
    pub method: &'static str,
    /// The scores.
    pub similarity: Similarity,
    /// The decision: resemblance at or above the method's threshold.
    pub duplicate: bool,
    /// The method's own evidence.
    pub evidence: E,
}
