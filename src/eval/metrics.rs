//! Precision, recall and F1 over pairs, threshold sweeps, and Pearson's χ² (SPEC §6).

use serde::Serialize;

/// The confusion counts and derived measures at one threshold.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SweepPoint {
    /// The threshold θ: a pair is predicted duplicate when its score ≥ θ.
    pub threshold: f64,
    /// True positives.
    pub tp: u64,
    /// False positives.
    pub fp: u64,
    /// False negatives.
    pub fn_: u64,
    /// True negatives.
    pub tn: u64,
    /// TP / (TP + FP); 0 when nothing is predicted.
    pub precision: f64,
    /// TP / (TP + FN); 0 when there is no positive.
    pub recall: f64,
    /// Harmonic mean of precision and recall.
    pub f1: f64,
    /// FP / (TP + FP): the share of false positives among reported duplicates (seed 000's
    /// "error of the first kind"); 0 when nothing is predicted.
    pub false_positive_share: f64,
    /// Pairs predicted duplicate (TP + FP).
    pub reported: u64,
}

/// The thresholds of SPEC §6: 0.05, 0.10, …, 1.00.
pub fn default_thresholds() -> Vec<f64> {
    (1..=20).map(|k| k as f64 / 20.0).collect()
}

/// Sweep the thresholds.
///
/// `scored` holds every pair of the universe with a score above 0 and whether it is a positive;
/// pairs not in it score 0 and are predicted negative at every threshold. `positives` is the
/// number of positive pairs in the universe, `universe` the number of pairs in it.
///
/// # Example
/// ```
/// use slst::eval::metrics::sweep;
/// // Two positives in a universe of 10 pairs; one scored 0.9, one negative scored 0.6.
/// let points = sweep(&[(0.9, true), (0.6, false)], 2, 10, &[0.5, 0.7]);
/// assert_eq!((points[0].tp, points[0].fp, points[0].fn_, points[0].tn), (1, 1, 1, 7));
/// assert_eq!((points[1].precision, points[1].recall), (1.0, 0.5));
/// ```
pub fn sweep(
    scored: &[(f64, bool)],
    positives: u64,
    universe: u64,
    thresholds: &[f64],
) -> Vec<SweepPoint> {
    let mut sorted: Vec<(f64, bool)> = scored.to_vec();
    sorted.sort_by(|a, b| b.0.total_cmp(&a.0));
    thresholds
        .iter()
        .map(|&threshold| {
            let above = sorted.partition_point(|&(s, _)| s >= threshold);
            let tp = sorted[..above].iter().filter(|p| p.1).count() as u64;
            let fp = above as u64 - tp;
            let fn_ = positives.saturating_sub(tp);
            let tn = universe.saturating_sub(tp + fp + fn_);
            let ratio = |n: u64, d: u64| if d == 0 { 0.0 } else { n as f64 / d as f64 };
            let precision = ratio(tp, tp + fp);
            let recall = ratio(tp, positives);
            let f1 = if precision + recall == 0.0 {
                0.0
            } else {
                2.0 * precision * recall / (precision + recall)
            };
            SweepPoint {
                threshold,
                tp,
                fp,
                fn_,
                tn,
                precision,
                recall,
                f1,
                false_positive_share: ratio(fp, tp + fp),
                reported: tp + fp,
            }
        })
        .collect()
}

/// The point with the best F1 (ties: the lower threshold).
pub fn best(points: &[SweepPoint]) -> Option<SweepPoint> {
    points.iter().copied().fold(None, |best, p| match best {
        Some(b) if b.f1 >= p.f1 => Some(b),
        _ => Some(p),
    })
}

/// Pearson's χ² of the 2×2 table (predicted × actual), without continuity correction:
/// N (TP·TN − FP·FN)² / ((TP+FP)(FN+TN)(TP+FN)(FP+TN)); 0 when a margin is empty.
///
/// # Example
/// ```
/// // A perfect split of 10 positives and 90 negatives: χ² = N = 100.
/// assert_eq!(slst::eval::metrics::chi_square(10, 0, 0, 90), 100.0);
/// ```
pub fn chi_square(tp: u64, fp: u64, fn_: u64, tn: u64) -> f64 {
    let (a, b, c, d) = (tp as f64, fp as f64, fn_ as f64, tn as f64);
    let n = a + b + c + d;
    let den = (a + b) * (c + d) * (a + c) * (b + d);
    if den == 0.0 {
        0.0
    } else {
        n * (a * d - b * c).powi(2) / den
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_sweep() {
        // Universe of 6 pairs, 3 positives. Scores: P 0.9, P 0.5, N 0.5, N 0.2; one positive
        // unscored (0).
        let scored = [(0.9, true), (0.5, true), (0.5, false), (0.2, false)];
        let p = sweep(&scored, 3, 6, &[0.1, 0.5, 1.0]);
        // θ 0.1: TP 2, FP 2, FN 1, TN 1 → P 0.5, R 2/3, F1 4/7.
        assert_eq!((p[0].tp, p[0].fp, p[0].fn_, p[0].tn), (2, 2, 1, 1));
        assert!((p[0].f1 - 4.0 / 7.0).abs() < 1e-12);
        // θ 0.5: TP 2, FP 1 → P 2/3, R 2/3, F1 2/3; FP share 1/3.
        assert!((p[1].f1 - 2.0 / 3.0).abs() < 1e-12);
        assert!((p[1].false_positive_share - 1.0 / 3.0).abs() < 1e-12);
        // θ 1.0: nothing reported.
        assert_eq!((p[2].reported, p[2].precision, p[2].f1), (0, 0.0, 0.0));
        assert_eq!(best(&p).unwrap().threshold, 0.5);
    }

    #[test]
    fn chi_square_of_independence_is_zero() {
        assert_eq!(chi_square(10, 10, 10, 10), 0.0);
        // Hand-computed: N = 100, (30·50 − 10·10)² = 1 960 000, margins 40·60·40·60 = 5 760 000.
        assert!((chi_square(30, 10, 10, 50) - 100.0 * 1_960_000.0 / 5_760_000.0).abs() < 1e-9);
    }
}
