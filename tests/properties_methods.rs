//! Property tests of the baseline methods on documents built from real sentences: every score
//! lies in [0, 1], comparing B with A gives the same resemblance and decision as A with B (with
//! the containments swapped), and a document compared with itself scores 1 unless the method
//! says why it cannot (a note: no terms, too few signatures or sentences).
//!
//! SL+ST's own properties are in `properties.rs`.

use std::sync::OnceLock;

use proptest::prelude::*;
use slst::method::{METHODS, MethodSettings, ShingleHash, ShingleMeasure, ShingleSketchKind};
use slst::text::split_sentences;
use slst::{AnyDetector, Document};

/// Real sentences, few enough that random documents repeat them and share runs.
fn pool() -> &'static [String] {
    static POOL: OnceLock<Vec<String>> = OnceLock::new();
    POOL.get_or_init(|| {
        let texts = [
            include_str!("../corpora/clough/orig_taskb.txt"),
            include_str!("../corpora/clough/g0pA_taskb.txt"),
            include_str!("../corpora/bible/kjv-1mb.txt"),
        ];
        let mut out = Vec::new();
        for text in texts {
            for r in split_sentences(&text[..text.len().min(20_000)]) {
                let s = text[r].split_whitespace().collect::<Vec<_>>().join(" ");
                if s.chars().next().is_some_and(char::is_uppercase) && s.ends_with('.') {
                    out.push(s);
                }
            }
        }
        out.sort();
        out.dedup();
        out.truncate(20);
        out
    })
}

/// A document of 0–30 sentences from the pool.
fn document() -> impl Strategy<Value = String> {
    proptest::collection::vec(0usize..20, 0..30).prop_map(|picks| {
        let pool = pool();
        picks
            .into_iter()
            .map(|k| pool[k % pool.len()].as_str())
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// Every baseline with its defaults, and the shingle variants that compute differently.
fn detectors() -> &'static [(String, Box<dyn AnyDetector>)] {
    static DETECTORS: OnceLock<Vec<(String, Box<dyn AnyDetector>)>> = OnceLock::new();
    DETECTORS.get_or_init(|| {
        let defaults = MethodSettings::default();
        let mut out: Vec<(String, Box<dyn AnyDetector>)> = METHODS
            .iter()
            // SL+ST has its own properties (tests/properties.rs); slst-flat is here for its
            // join keys.
            .filter(|name| **name != "slst")
            .map(|name| (name.to_string(), defaults.detector(name).unwrap()))
            .collect();
        for (sketch, measure, hash) in [
            (
                ShingleSketchKind::Mod,
                ShingleMeasure::Dice,
                ShingleHash::Crc32,
            ),
            (
                ShingleSketchKind::Mod,
                ShingleMeasure::Containment,
                ShingleHash::Rabin,
            ),
            (
                ShingleSketchKind::Min,
                ShingleMeasure::Resemblance,
                ShingleHash::Rabin,
            ),
        ] {
            let mut s = MethodSettings::default();
            s.shingle.sketch = sketch;
            s.shingle.measure = measure;
            s.shingle.hash = hash;
            s.shingle.modulus = 3;
            s.shingle.sketch_size = 8;
            let name = format!("shingle/{sketch:?}/{measure:?}/{hash:?}");
            out.push((name, s.detector("shingle").unwrap()));
        }
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn scores_are_in_range_and_symmetric(a in document(), b in document()) {
        let (da, db) = (Document::new("a", a), Document::new("b", b));
        for (name, d) in detectors() {
            let (sa, sb) = (d.sketch_any(&da), d.sketch_any(&db));
            let ab = d.compare_any(&*sa, &*sb);
            let ba = d.compare_any(&*sb, &*sa);
            let s = ab.similarity;
            for x in [Some(s.resemblance), s.containment_a, s.containment_b].into_iter().flatten() {
                prop_assert!((0.0..=1.0).contains(&x), "{}: {:?}", name, s);
            }
            prop_assert_eq!(s, ba.similarity.swapped(), "{}", name);
            prop_assert_eq!(ab.duplicate, ba.duplicate, "{}", name);
        }
    }

    /// The keys corpus runs and evaluation join on find every pair that matters: a positive
    /// score means shared join keys, a duplicate means shared duplicate keys.
    #[test]
    fn join_keys_cover_every_scored_pair(a in document(), b in document()) {
        use std::collections::HashSet;
        let (da, db) = (Document::new("a", a), Document::new("b", b));
        for (name, d) in detectors() {
            let (sa, sb) = (d.sketch_any(&da), d.sketch_any(&db));
            let c = d.compare_any(&*sa, &*sb);
            // Only the special-character methods have no keys (every pair is compared).
            let keyless = name.ends_with("specialchars");
            prop_assert_eq!(d.join_keys_any(&*sa).is_none(), keyless, "{}", name);
            if keyless {
                continue;
            }
            let shares = |x: Option<Vec<u64>>, y: Option<Vec<u64>>| {
                let x: HashSet<u64> = x.expect("every baseline has keys").into_iter().collect();
                y.expect("every baseline has keys").into_iter().any(|k| x.contains(&k))
            };
            if c.similarity.resemblance > 0.0 {
                prop_assert!(shares(d.join_keys_any(&*sa), d.join_keys_any(&*sb)), "{}", name);
            }
            if c.duplicate {
                prop_assert!(shares(d.duplicate_keys_any(&*sa), d.duplicate_keys_any(&*sb)), "{}", name);
            }
        }
    }

    #[test]
    fn identity_scores_one_or_says_why_not(a in document()) {
        let da = Document::new("a", a);
        for (name, d) in detectors().iter().filter(|(n, _)| n != "slst-flat") {
            let s = d.sketch_any(&da);
            let c = d.compare_any(&*s, &*s);
            if c.similarity.resemblance != 1.0 {
                prop_assert_eq!(c.similarity.resemblance, 0.0, "{}", name);
                prop_assert!(c.evidence["note"].is_string(), "{}: {}", name, c.evidence);
                prop_assert!(!c.duplicate, "{}", name);
            } else {
                prop_assert!(c.duplicate, "{}", name);
            }
        }
    }
}

/// The properties are only worth something if random documents are often partly alike.
#[test]
fn random_documents_from_the_pool_do_overlap() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let settings = MethodSettings::default();
    let d = settings.detector("shingle").unwrap();
    let mut runner = TestRunner::deterministic();
    let mut partial = 0;
    for _ in 0..100 {
        let a = document().new_tree(&mut runner).unwrap().current();
        let b = document().new_tree(&mut runner).unwrap().current();
        let c = d.compare_any(
            &*d.sketch_any(&Document::new("a", a)),
            &*d.sketch_any(&Document::new("b", b)),
        );
        partial += usize::from(c.similarity.resemblance > 0.0 && c.similarity.resemblance < 1.0);
    }
    assert!(
        partial >= 50,
        "only {partial} of 100 random pairs partly alike"
    );
}
