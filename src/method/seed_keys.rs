//! The keys a store holds for a document so that every document sharing a seed of a passage
//! with it ([`Detector::seeds`]) is found (the index, under `--min-shared-words`).
//!
//! A method's seeds are its blocks, and its [`Detector::join_keys`] cover every pair with a
//! block, but for robust SL+ST: its passages also grow from the windows of its over-long units,
//! which are no units of the score, so its keys leave them out. Its seed sketch
//! ([`Detector::seed_sketch`]) holds them among its units; the keys of that sketch cover every
//! seed, as its corpus join of seeds ([`Detector::seed_candidates`]) finds them.

use super::Detector;

/// The keys a store holds for a document so that every document sharing a seed with it is
/// found: its [`Detector::index_keys`], and when it has a seed sketch of its own
/// ([`Detector::seed_sketch`]), that sketch's join keys too (sorted, without repeats, as
/// robust SL+ST's index keys are). `None`: the method cannot be indexed.
pub fn seed_index_keys<D: Detector + ?Sized>(detector: &D, sketch: &D::Sketch) -> Option<Vec<u64>> {
    let mut keys = detector.index_keys(sketch)?;
    if let Some(seeded) = detector.seed_sketch(sketch) {
        keys.extend(detector.join_keys(&seeded).unwrap_or_default());
        keys.sort_unstable();
        keys.dedup();
    }
    Some(keys)
}
