//! Scores (SPEC §3.4): resemblance (Jaccard) and the two containments.

use serde::Serialize;

/// How similar two documents are, by one method.
///
/// For SL+ST, with m the number of sentences covered by kept blocks (the same on both sides) and
/// |A|, |B| the numbers of kept sentences: resemblance J = m / (|A| + |B| − m), containment of A
/// in B = m / |A|, of B in A = m / |B|. A method that cannot define a containment leaves it
/// `None`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Similarity {
    /// Resemblance (Jaccard), in [0, 1].
    pub resemblance: f64,
    /// How much of A lies in B, in [0, 1], where the method defines it.
    pub containment_a: Option<f64>,
    /// How much of B lies in A, in [0, 1], where the method defines it.
    pub containment_b: Option<f64>,
}

impl Similarity {
    /// Scores from set sizes: `shared` = |A ∩ B|, `len_a` = |A|, `len_b` = |B|. Empty sets give
    /// 0 (two empty documents are not duplicates of each other: they have nothing to compare).
    ///
    /// # Example
    /// ```
    /// let s = slst::Similarity::from_counts(6, 9, 24);
    /// assert!((s.resemblance - 6.0 / 27.0).abs() < 1e-12);
    /// assert_eq!(s.containment_a, Some(6.0 / 9.0));
    /// ```
    pub fn from_counts(shared: usize, len_a: usize, len_b: usize) -> Self {
        debug_assert!(shared <= len_a && shared <= len_b);
        let ratio = |num: usize, den: usize| {
            if den == 0 {
                0.0
            } else {
                num as f64 / den as f64
            }
        };
        Similarity {
            resemblance: ratio(shared, len_a + len_b - shared),
            containment_a: Some(ratio(shared, len_a)),
            containment_b: Some(ratio(shared, len_b)),
        }
    }

    /// The scores seen from the other side: the containments swap.
    pub fn swapped(self) -> Self {
        Similarity {
            containment_a: self.containment_b,
            containment_b: self.containment_a,
            ..self
        }
    }
}
