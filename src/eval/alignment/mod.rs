//! Text-alignment evaluation, PAN style: which *characters* of which pairs of documents a
//! method finds reused, against cases located to the character in both documents.
//!
//! The truth is a set of **cases** ([`Annotation`]s: a suspicious and a source document and a
//! character span in each), read from a cases table or PAN's XML files ([`truth`]).
//! [`measures`] scores detections as PAN does (micro-averaged character precision and recall,
//! granularity, plagdet).

pub mod measures;
pub mod truth;

use std::path::{Path, PathBuf};

use serde::Serialize;


/// A passage of a pair of documents: its character spans `[start, end)` in the suspicious and
/// in the source document. A case of the truth, or a detection.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Annotation {
    /// The suspicious document's id.
    pub susp: String,
    /// The source document's id.
    pub src: String,
    /// Characters `[start, end)` in the suspicious document.
    pub susp_chars: [usize; 2],
    /// Characters `[start, end)` in the source document.
    pub src_chars: [usize; 2],
}

impl Annotation {
    /// An annotation from the two ids and the two character spans.
    pub fn new(susp: &str, src: &str, susp_chars: [usize; 2], src_chars: [usize; 2]) -> Self {
        Annotation {
            susp: susp.to_string(),
            src: src.to_string(),
            susp_chars,
            src_chars,
        }
    }

    /// Its characters on both sides.
    pub fn len(&self) -> usize {
        let side = |s: [usize; 2]| s[1].saturating_sub(s[0]);
        side(self.susp_chars) + side(self.src_chars)
    }

    /// Whether it covers no character on either side.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Annotations read from a truth (or detections) file, and the pairs of documents it lists.
#[derive(Debug, Clone, PartialEq)]
pub struct AlignmentTruth {
    /// Where it was read from (named in errors).
    pub source: PathBuf,
    /// The cases.
    pub cases: Vec<Annotation>,
    /// Every pair of documents evaluated, (suspicious, source), sorted, distinct: the pairs of
    /// the cases and pairs listed without a case.
    pub pairs: Vec<(String, String)>,
}

impl AlignmentTruth {
    /// Cases read from `source`, with pairs listed without a case besides.
    pub fn new(source: &Path, cases: Vec<Annotation>, pairs: Vec<(String, String)>) -> Self {
        let mut all: Vec<(String, String)> = cases
            .iter()
            .map(|c| (c.susp.clone(), c.src.clone()))
            .chain(pairs)
            .collect();
        all.sort_unstable();
        all.dedup();
        AlignmentTruth {
            source: source.to_path_buf(),
            cases,
            pairs: all,
        }
    }
}
