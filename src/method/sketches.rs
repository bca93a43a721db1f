//! Sketches of a method chosen at run time, still typed.
//!
//! A [`MethodDetector`] holds one typed detector; a [`MethodSketch`] holds one typed sketch,
//! with one variant per detector variant. Code that keeps sketches beyond one
//! [`MethodDetector::visit`] call (a Python object, a sketch shipped between processes) holds a
//! [`MethodSketch`] and hands it back to the detector that made it: every operation pairs the
//! detector's variant with the sketch's and fails with a [`SketchMismatch`] — never a panic —
//! when they differ.
//!
//! Invariants:
//! - [`MethodDetector::sketch`] gives the variant of the detector, holding exactly what
//!   [`Detector::sketch`] gives; [`MethodSketch::to_bytes`] writes exactly what serialising
//!   that typed sketch writes (JSON), so bytes are interchangeable with every other place that
//!   stores typed sketches.
//! - A variant says which detector type made a sketch, not which settings: two detectors of one
//!   type with different settings accept each other's sketches, as the typed API does. Callers
//!   that must refuse those compare [`MethodDetector::params`].

use std::fmt;

use super::{
    BlocksSketch, Comparison, Detector, Md5Sketch, MegaShingleSketch, MethodDetector,
    PolyHashSketch, RobustProfile, SentLenSketch, SentenceCounts, ShingleSketch, SlstSketch,
    SpotSigsSketch, Witness,
};
use crate::document::Document;

/// Calls macro `$m` with the list of method variants — each a variant of both
/// [`MethodDetector`] and [`MethodSketch`], with the name messages give its type — first, then
/// `$args`: the one place the dispatch macros of this file learn the variants.
macro_rules! with_variants {
    ($m:ident!($($args:tt)*)) => {
        $m!([
            Slst "slst (paper mode)",
            SlstRobust "slst (robust mode)",
            Shingle "shingle",
            MegaShingle "megashingle",
            PolyHash "polyhash",
            SpotSigs "spotsigs",
            SentLen "sentlen",
            Md5 "md5",
            Blocks "blocks"
        ] $($args)*)
    };
}

/// The name of the type of `$x`, a [`MethodDetector`] or [`MethodSketch`] (`$enum`).
macro_rules! kind_arms {
    ([$($v:ident $name:literal),*] $x:expr, $enum:ident) => {
        match $x {
            $($enum::$v(_) => $name,)*
        }
    };
}

/// [`MethodSketch::to_bytes`]'s match, one arm per variant.
macro_rules! to_bytes_arms {
    ([$($v:ident $name:literal),*] $x:expr) => {
        match $x {
            $(MethodSketch::$v(s) => serde_json::to_vec(s),)*
        }
    };
}

/// The sketch of one document by a [`MethodDetector`]: one variant per detector variant,
/// holding that detector's typed sketch.
#[derive(Debug, Clone, PartialEq)]
pub enum MethodSketch {
    /// SL+ST, paper mode.
    Slst(SlstSketch),
    /// SL+ST, robust mode.
    SlstRobust(RobustProfile),
    /// Shingles.
    Shingle(ShingleSketch),
    /// Megashingles.
    MegaShingle(MegaShingleSketch),
    /// Polynomial-hash n-grams.
    PolyHash(PolyHashSketch),
    /// SpotSigs.
    SpotSigs(SpotSigsSketch),
    /// Sentence-length runs.
    SentLen(SentLenSketch),
    /// The MD5 control.
    Md5(Md5Sketch),
    /// The block methods of web pages.
    Blocks(BlocksSketch),
}

/// Which detector type a variant of [`MethodDetector`] or [`MethodSketch`] belongs to, as
/// messages name it.
fn kind_of_detector(d: &MethodDetector) -> &'static str {
    with_variants!(kind_arms!(d, MethodDetector))
}

impl MethodSketch {
    /// The detector type that made the sketch (`shingle`, `slst (robust mode)`, …).
    pub fn kind(&self) -> &'static str {
        with_variants!(kind_arms!(self, MethodSketch))
    }

    /// The typed sketch as JSON: the bytes [`MethodDetector::read_sketch`] reads back.
    pub fn to_bytes(&self) -> serde_json::Result<Vec<u8>> {
        with_variants!(to_bytes_arms!(self))
    }
}

/// A sketch handed to a detector of another type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SketchMismatch {
    /// The detector's type.
    pub detector: &'static str,
    /// The type of the detector that made the sketch.
    pub sketch: &'static str,
}

impl fmt::Display for SketchMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a sketch of {} given to a detector of {}",
            self.sketch, self.detector
        )
    }
}

impl std::error::Error for SketchMismatch {}

/// Work on two typed sketches with the detector that made them
/// ([`MethodDetector::visit_sketches`]).
pub trait WithSketches {
    /// What the work gives.
    type Output;
    /// Do the work with the typed detector and sketches.
    fn with<D: Detector>(self, detector: &D, a: &D::Sketch, b: &D::Sketch) -> Self::Output;
}

/// Match a detector with a sketch of its variant, binding both typed (and, when named, `$w` to
/// the variant's constructor, which wraps a typed sketch); `Err` otherwise.
macro_rules! with_typed {
    ($detector:expr, $sketch:expr, $d:ident, $s:ident => $body:expr) => {
        with_typed!($detector, $sketch, $d, $s, _wrap => $body)
    };
    ($detector:expr, $sketch:expr, $d:ident, $s:ident, $w:ident => $body:expr) => {
        with_variants!(with_typed_arms!($detector, $sketch, $d, $s, $w, $body))
    };
}

/// [`with_typed`]'s match, one arm per variant.
macro_rules! with_typed_arms {
    ([$($v:ident $name:literal),*] $detector:expr, $sketch:expr, $d:ident, $s:ident, $w:ident, $body:expr) => {
        match ($detector, $sketch) {
            $((MethodDetector::$v($d), MethodSketch::$v($s)) => {
                let $w = MethodSketch::$v;
                Ok($body)
            })*
            (d, s) => Err(SketchMismatch {
                detector: kind_of_detector(d),
                sketch: s.kind(),
            }),
        }
    };
}

/// Match a detector with two sketches of its variant, binding all three typed; `Err` otherwise.
macro_rules! with_typed_pair {
    ($detector:expr, $a:expr, $b:expr, $d:ident, $sa:ident, $sb:ident => $body:expr) => {
        with_variants!(with_typed_pair_arms!(
            $detector, $a, $b, $d, $sa, $sb, $body
        ))
    };
}

/// [`with_typed_pair`]'s match, one arm per variant.
macro_rules! with_typed_pair_arms {
    ([$($v:ident $name:literal),*] $detector:expr, $a:expr, $b:expr, $d:ident, $sa:ident, $sb:ident, $body:expr) => {
        match ($detector, $a, $b) {
            $((MethodDetector::$v($d), MethodSketch::$v($sa), MethodSketch::$v($sb)) => Ok($body),)*
            (d, a, b) => Err(SketchMismatch {
                detector: kind_of_detector(d),
                sketch: if a.kind() == kind_of_detector(d) {
                    b.kind()
                } else {
                    a.kind()
                },
            }),
        }
    };
}

/// A typed sketch of the detector behind `$d`, wrapped in its variant.
macro_rules! wrap {
    ($detector:expr, $d:ident => $body:expr) => {
        with_variants!(wrap_arms!($detector, $d, $body))
    };
}

/// [`wrap`]'s match, one arm per variant.
macro_rules! wrap_arms {
    ([$($v:ident $name:literal),*] $detector:expr, $d:ident, $body:expr) => {
        match $detector {
            $(MethodDetector::$v($d) => MethodSketch::$v($body),)*
        }
    };
}

impl MethodDetector {
    /// Sketch one document ([`Detector::sketch`] of the typed detector).
    pub fn sketch(&self, doc: &Document) -> MethodSketch {
        wrap!(self, d => d.sketch(doc))
    }

    /// A sketch read back from [`MethodSketch::to_bytes`], as this detector's type.
    pub fn read_sketch(&self, bytes: &[u8]) -> serde_json::Result<MethodSketch> {
        /// The typed sketch of `D` in `bytes`.
        fn read<D: Detector>(_: &D, bytes: &[u8]) -> serde_json::Result<D::Sketch> {
            serde_json::from_slice(bytes)
        }
        Ok(wrap!(self, d => read(d, bytes)?))
    }

    /// Do `work` with the typed detector and both sketches; `Err` when either is of another
    /// type.
    pub fn visit_sketches<V: WithSketches>(
        &self,
        a: &MethodSketch,
        b: &MethodSketch,
        work: V,
    ) -> Result<V::Output, SketchMismatch> {
        with_typed_pair!(self, a, b, d, sa, sb => work.with(d, sa, sb))
    }

    /// Compare two sketches: the scores and the decision ([`Detector::compare`] without the
    /// method's evidence; for that, [`MethodDetector::visit_sketches`]).
    pub fn compare_sketches(
        &self,
        a: &MethodSketch,
        b: &MethodSketch,
    ) -> Result<Comparison<()>, SketchMismatch> {
        struct Scores;
        impl WithSketches for Scores {
            type Output = Comparison<()>;
            fn with<D: Detector>(self, d: &D, a: &D::Sketch, b: &D::Sketch) -> Comparison<()> {
                let c = d.compare(a, b);
                Comparison {
                    method: c.method,
                    similarity: c.similarity,
                    duplicate: c.duplicate,
                    evidence: (),
                }
            }
        }
        self.visit_sketches(a, b, Scores)
    }

    /// The sketch's join keys ([`Detector::join_keys`]).
    pub fn join_keys(&self, sketch: &MethodSketch) -> Result<Option<Vec<u64>>, SketchMismatch> {
        with_typed!(self, sketch, d, s => d.join_keys(s))
    }

    /// The sketch's duplicate keys ([`Detector::duplicate_keys`]).
    pub fn duplicate_keys(
        &self,
        sketch: &MethodSketch,
    ) -> Result<Option<Vec<u64>>, SketchMismatch> {
        with_typed!(self, sketch, d, s => d.duplicate_keys(s))
    }

    /// The sketch's witness keys ([`crate::method::WitnessJoin::witness_keys`]); `None` for a method
    /// without a witness join ([`Detector::external_join`]).
    pub fn witness_keys(
        &self,
        sketch: &MethodSketch,
    ) -> Result<Option<Vec<Witness>>, SketchMismatch> {
        with_typed!(self, sketch, d, s => d.external_join().map(|j| j.witness_keys(s)))
    }

    /// The sketch whose units cover every seed of a passage ([`Detector::seed_sketch`]); `None`
    /// when the sketch's own do.
    pub fn seed_sketch(
        &self,
        sketch: &MethodSketch,
    ) -> Result<Option<MethodSketch>, SketchMismatch> {
        with_typed!(self, sketch, d, s, wrap => d.seed_sketch(s).map(wrap))
    }

    /// The sketch's pair-check values ([`crate::method::WitnessJoin::pair_check_values`]);
    /// `None` for a method without them.
    pub fn pair_check_values(
        &self,
        sketch: &MethodSketch,
    ) -> Result<Option<Vec<u64>>, SketchMismatch> {
        with_typed!(self, sketch, d, s => d.external_join().and_then(|j| j.pair_check_values(s)))
    }

    /// The sketch's word keys ([`crate::method::WitnessJoin::word_keys`]).
    pub fn word_keys(&self, sketch: &MethodSketch) -> Result<Option<Vec<u64>>, SketchMismatch> {
        with_typed!(self, sketch, d, s => d.external_join().and_then(|j| j.word_keys(s)))
    }

    /// The terms the word rule compares ([`crate::method::WitnessJoin::vocabulary`]).
    pub fn vocabulary(&self, sketch: &MethodSketch) -> Result<Option<Vec<u64>>, SketchMismatch> {
        with_typed!(self, sketch, d, s => d.external_join().and_then(|j| j.vocabulary(s)))
    }

    /// Sentences kept and left out ([`Detector::sentence_counts`]).
    pub fn sentence_counts(
        &self,
        sketch: &MethodSketch,
    ) -> Result<Option<SentenceCounts>, SketchMismatch> {
        with_typed!(self, sketch, d, s => d.sentence_counts(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::{Method, MethodSettings, SlstMode};

    fn pair() -> (Document, Document) {
        (
            Document::new("a", include_str!("../../corpora/clough/g0pA_taskb.txt")),
            Document::new("b", include_str!("../../corpora/clough/orig_taskb.txt")),
        )
    }

    /// Through [`MethodSketch`], every method gives what its typed detector gives: the same
    /// scores, the same keys, and bytes that read back to the same sketch.
    #[test]
    fn every_method_agrees_with_its_typed_detector() {
        struct Typed<'a>(&'a Document, &'a Document);
        impl crate::method::WithDetector for Typed<'_> {
            type Output = (Comparison<()>, Option<Vec<u64>>, Vec<u8>);
            fn with<D: Detector>(self, d: &D) -> Self::Output {
                let (a, b) = (d.sketch(self.0), d.sketch(self.1));
                let c = d.compare(&a, &b);
                let scores = Comparison {
                    method: c.method,
                    similarity: c.similarity,
                    duplicate: c.duplicate,
                    evidence: (),
                };
                (
                    scores,
                    d.duplicate_keys(&a),
                    serde_json::to_vec(&a).unwrap(),
                )
            }
        }
        let (a, b) = pair();
        for mode in [SlstMode::Paper, SlstMode::Robust] {
            let settings = MethodSettings {
                slst_mode: mode,
                ..MethodSettings::default()
            };
            for method in Method::ALL {
                let d = settings.detector(method).unwrap();
                let (scores, keys, bytes) = d.visit(Typed(&a, &b));
                let (sa, sb) = (d.sketch(&a), d.sketch(&b));
                assert_eq!(d.compare_sketches(&sa, &sb).unwrap(), scores, "{method}");
                assert_eq!(d.duplicate_keys(&sa).unwrap(), keys, "{method}");
                assert_eq!(sa.to_bytes().unwrap(), bytes, "{method}");
                assert_eq!(d.read_sketch(&bytes).unwrap(), sa, "{method}");
            }
        }
    }

    /// Through [`MethodSketch`], the seed sketch is the typed detector's: robust SL+ST's
    /// profile with the windows of an over-long sentence among its units; none for a text
    /// without one, nor for another method or mode.
    #[test]
    fn the_seed_sketch_is_the_typed_detectors() {
        struct Seed<'a>(&'a Document);
        impl crate::method::WithDetector for Seed<'_> {
            type Output = Option<Vec<u8>>;
            fn with<D: Detector>(self, d: &D) -> Self::Output {
                let seeded = d.seed_sketch(&d.sketch(self.0))?;
                Some(serde_json::to_vec(&seeded).unwrap())
            }
        }
        let (a, _) = pair();
        // One sentence of some 200 words: over robust SL+ST's longest.
        let long = Document::new("long", a.text.replace(". ", ", "));
        for mode in [SlstMode::Paper, SlstMode::Robust] {
            let settings = MethodSettings {
                slst_mode: mode,
                ..MethodSettings::default()
            };
            for method in Method::ALL {
                let d = settings.detector(method).unwrap();
                for doc in [&a, &long] {
                    let seeded = d.seed_sketch(&d.sketch(doc)).unwrap();
                    let bytes = seeded.as_ref().map(|s| s.to_bytes().unwrap());
                    assert_eq!(bytes, d.visit(Seed(doc)), "{method}");
                    let windows = doc.id == "long" && method == Method::Slst;
                    assert_eq!(seeded.is_some(), windows && mode == SlstMode::Robust);
                }
            }
        }
    }

    /// A sketch of another detector type is an error, never a panic, for one sketch or two.
    #[test]
    fn a_sketch_of_another_type_is_an_error() {
        let (a, _) = pair();
        let settings = MethodSettings::default();
        let shingle = settings.detector(Method::Shingle).unwrap();
        let md5 = settings.detector(Method::Md5).unwrap();
        let (s, m) = (shingle.sketch(&a), md5.sketch(&a));
        let e = shingle.join_keys(&m).unwrap_err();
        assert_eq!(
            e,
            SketchMismatch {
                detector: "shingle",
                sketch: "md5"
            }
        );
        assert_eq!(
            e.to_string(),
            "a sketch of md5 given to a detector of shingle"
        );
        assert_eq!(shingle.compare_sketches(&s, &m).unwrap_err().sketch, "md5");
        assert_eq!(shingle.compare_sketches(&m, &s).unwrap_err().sketch, "md5");
        assert!(md5.witness_keys(&s).is_err());
        assert!(shingle.compare_sketches(&s, &s).is_ok());
        // Bytes of another method do not read as this method's sketch.
        assert!(md5.read_sketch(&s.to_bytes().unwrap()).is_err());
    }

    /// The robust mode's witness keys, word keys and unit counts come through as typed.
    #[test]
    fn robust_keys_come_through() {
        let (a, _) = pair();
        let settings = MethodSettings {
            slst_mode: SlstMode::Robust,
            ..MethodSettings::default()
        };
        let d = settings.detector(Method::Slst).unwrap();
        let s = d.sketch(&a);
        assert_eq!(s.kind(), "slst (robust mode)");
        assert!(!d.witness_keys(&s).unwrap().unwrap().is_empty());
        assert!(d.sentence_counts(&s).unwrap().unwrap().sentences > 0);
        assert!(d.vocabulary(&s).unwrap().is_some() || d.word_keys(&s).unwrap().is_none());
    }
}
