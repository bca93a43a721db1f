//! The sketch whose keys cover every seed of a passage ([`Detector::seeds`]), for a store that
//! looks documents up by their keys (the index) and must find every document sharing a seed
//! with a query.
//!
//! A method's seeds are its blocks, and its [`Detector::join_keys`] cover every pair with a
//! block, but for robust SL+ST: its passages also grow from the windows of its over-long units,
//! which are no units of the score, so its keys leave them out. Its *seed sketch* holds them
//! among its units ([`seed_sketch`]); the keys of that sketch cover every seed, as its corpus
//! join of seeds ([`Detector::seed_candidates`]) finds them. The sketch type tells which
//! method made it.

use std::any::Any;
use std::borrow::Cow;

use super::Detector;
use super::robust::RobustProfile;

/// The sketch whose units cover every seed of a passage: robust SL+ST's profile with its
/// windows among its units when it has windows; any other sketch itself.
pub fn seed_sketch<S: Clone + 'static>(sketch: &S) -> Cow<'_, S> {
    let seeded = (sketch as &dyn Any)
        .downcast_ref::<RobustProfile>()
        .and_then(RobustProfile::seed_profile)
        .and_then(|p| (Box::new(p) as Box<dyn Any>).downcast::<S>().ok());
    match seeded {
        Some(p) => Cow::Owned(*p),
        None => Cow::Borrowed(sketch),
    }
}

/// The keys a store holds for a document so that every document sharing a seed with it is
/// found: its [`Detector::index_keys`], and when its seed sketch differs from it
/// ([`seed_sketch`]), that sketch's join keys too (sorted, without repeats, as robust SL+ST's
/// index keys are). `None`: the method cannot be indexed.
pub fn seed_index_keys<D: Detector + ?Sized>(detector: &D, sketch: &D::Sketch) -> Option<Vec<u64>> {
    let mut keys = detector.index_keys(sketch)?;
    if let Cow::Owned(seeded) = seed_sketch(sketch) {
        keys.extend(detector.join_keys(&seeded).unwrap_or_default());
        keys.sort_unstable();
        keys.dedup();
    }
    Some(keys)
}
