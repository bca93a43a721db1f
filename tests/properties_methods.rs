//! Property tests of the baseline methods on documents built from real sentences: every score
//! lies in [0, 1], comparing B with A gives the same resemblance and decision as A with B (with
//! the containments swapped, and the evidence seen from the other side), and a document compared
//! with itself scores 1 unless the method says why it cannot (a note: no terms, too few
//! signatures or sentences).
//!
//! SL+ST's own properties are in `properties.rs`.

use std::sync::OnceLock;

use proptest::prelude::*;
use slst::method::{
    Method, MethodDetector, MethodSettings, ShingleHash, ShingleMeasure, ShingleSketchKind,
    WithDetector,
};
use slst::text::split_sentences;
use slst::{Detector, Document, Evidence};

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
fn detectors() -> &'static [(String, MethodDetector)] {
    static DETECTORS: OnceLock<Vec<(String, MethodDetector)>> = OnceLock::new();
    DETECTORS.get_or_init(|| {
        let defaults = MethodSettings::default();
        let mut out: Vec<(String, MethodDetector)> = Method::ALL
            .iter()
            // SL+ST has its own properties (tests/properties.rs); slst-flat is here for its
            // join keys.
            .filter(|m| **m != Method::Slst)
            .map(|m| (m.to_string(), defaults.detector(*m).unwrap()))
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
            out.push((name, s.detector(Method::Shingle).unwrap()));
        }
        out
    })
}

/// Scores in range and symmetric, evidence seen from the other side.
struct Symmetric<'a>(&'a Document, &'a Document);

impl WithDetector for Symmetric<'_> {
    type Output = Result<(), String>;
    fn with<D: Detector>(self, d: &D) -> Self::Output {
        let (sa, sb) = (d.sketch(self.0), d.sketch(self.1));
        let ab = d.compare(&sa, &sb);
        let ba = d.compare(&sb, &sa);
        let s = ab.similarity;
        for x in [Some(s.resemblance), s.containment_a, s.containment_b]
            .into_iter()
            .flatten()
        {
            if !(0.0..=1.0).contains(&x) {
                return Err(format!("{s:?} out of range"));
            }
        }
        if s != ba.similarity.swapped() || ab.duplicate != ba.duplicate {
            return Err(format!("{s:?} against {:?}", ba.similarity));
        }
        let json = |e: &D::Evidence| serde_json::to_string(e).unwrap();
        if json(&ab.evidence) != json(&ba.evidence.swapped()) {
            return Err(format!(
                "evidence {} against {}",
                json(&ab.evidence),
                json(&ba.evidence)
            ));
        }
        Ok(())
    }
}

/// A positive score means shared join keys, a duplicate means shared duplicate keys; `None`
/// for a method without keys.
struct Keys<'a>(&'a Document, &'a Document);

impl WithDetector for Keys<'_> {
    type Output = Option<Result<(), String>>;
    fn with<D: Detector>(self, d: &D) -> Self::Output {
        use std::collections::HashSet;
        let (sa, sb) = (d.sketch(self.0), d.sketch(self.1));
        let c = d.compare(&sa, &sb);
        d.join_keys(&sa)?;
        let shares = |x: Option<Vec<u64>>, y: Option<Vec<u64>>| {
            let x: HashSet<u64> = x.expect("keys").into_iter().collect();
            y.expect("keys").into_iter().any(|k| x.contains(&k))
        };
        if c.similarity.resemblance > 0.0 && !shares(d.join_keys(&sa), d.join_keys(&sb)) {
            return Some(Err("a scored pair shares no join key".into()));
        }
        if c.duplicate && !shares(d.duplicate_keys(&sa), d.duplicate_keys(&sb)) {
            return Some(Err("a duplicate shares no duplicate key".into()));
        }
        Some(Ok(()))
    }
}

/// A document against itself: 1 and a duplicate, or 0 with a note saying why.
struct Identity<'a>(&'a Document);

impl WithDetector for Identity<'_> {
    type Output = Result<(), String>;
    fn with<D: Detector>(self, d: &D) -> Self::Output {
        let s = d.sketch(self.0);
        let c = d.compare(&s, &s);
        let ok = if c.similarity.resemblance != 1.0 {
            c.similarity.resemblance == 0.0 && c.evidence.note().is_some() && !c.duplicate
        } else {
            c.duplicate
        };
        if ok {
            Ok(())
        } else {
            Err(format!("{:?}, note {:?}", c.similarity, c.evidence.note()))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn scores_are_in_range_and_symmetric(a in document(), b in document()) {
        let (da, db) = (Document::new("a", a), Document::new("b", b));
        for (name, d) in detectors() {
            let r = d.visit(Symmetric(&da, &db));
            prop_assert!(r.is_ok(), "{}: {:?}", name, r);
        }
    }

    /// The keys corpus runs and evaluation join on find every pair that matters: a positive
    /// score means shared join keys, a duplicate means shared duplicate keys.
    #[test]
    fn join_keys_cover_every_scored_pair(a in document(), b in document()) {
        let (da, db) = (Document::new("a", a), Document::new("b", b));
        for (name, d) in detectors() {
            let r = d.visit(Keys(&da, &db));
            // Only the special-character methods have no keys (every pair is compared).
            prop_assert_eq!(r.is_none(), name.ends_with("specialchars"), "{}", name);
            if let Some(r) = r {
                prop_assert!(r.is_ok(), "{}: {:?}", name, r);
            }
        }
    }

    #[test]
    fn identity_scores_one_or_says_why_not(a in document()) {
        let da = Document::new("a", a);
        for (name, d) in detectors().iter().filter(|(n, _)| n != "slst-flat") {
            let r = d.visit(Identity(&da));
            prop_assert!(r.is_ok(), "{}: {:?}", name, r);
        }
    }
}

/// The properties are only worth something if random documents are often partly alike.
#[test]
fn random_documents_from_the_pool_do_overlap() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let settings = MethodSettings::default();
    let d = settings.detector(Method::Shingle).unwrap();
    let mut runner = TestRunner::deterministic();
    let mut partial = 0;
    for _ in 0..100 {
        let a = document().new_tree(&mut runner).unwrap().current();
        let b = document().new_tree(&mut runner).unwrap().current();
        let c = d.compare_documents(&Document::new("a", a), &Document::new("b", b));
        partial += usize::from(c.similarity.resemblance > 0.0 && c.similarity.resemblance < 1.0);
    }
    assert!(
        partial >= 50,
        "only {partial} of 100 random pairs partly alike"
    );
}
