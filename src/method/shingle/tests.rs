//! Unit tests of the shingle method.
use super::fingerprint::{KARP_RABIN_BASE, add_mod, mul_mod};
use super::*;

fn detector(config: ShingleConfig) -> Shingles {
    Shingles::new(config).unwrap()
}

fn no_stop(size: usize) -> ShingleConfig {
    ShingleConfig {
        size,
        stopwords: StopWords::none(),
        ..ShingleConfig::default()
    }
}

fn compare(d: &Shingles, a: &str, b: &str) -> Comparison<ShingleEvidence> {
    d.compare(
        &d.sketch(&Document::new("a", a)),
        &d.sketch(&Document::new("b", b)),
    )
}

const ROSE_A: &str = "a rose is a rose is a rose";
const ROSE_B: &str = "a rose is a flower which is a rose";

#[test]
fn broder_rose_example_for_both_hashes() {
    for hash in [ShingleHash::Rabin, ShingleHash::Crc32] {
        for (w, want) in [(1, 0.6), (2, 0.5), (3, 3.0 / 7.0)] {
            let d = detector(ShingleConfig { hash, ..no_stop(w) });
            let c = compare(&d, ROSE_A, ROSE_B);
            assert_eq!(c.similarity.resemblance, want, "w = {w}, {hash:?}");
        }
    }
    // w = 1: S(A) = {a, rose, is} lies wholly in S(B) = {a, rose, is, flower, which}.
    let c = compare(&detector(no_stop(1)), ROSE_A, ROSE_B);
    assert_eq!(c.similarity.containment_a, Some(1.0));
    assert_eq!(c.similarity.containment_b, Some(0.6));
}

#[test]
fn rolled_karp_rabin_equals_direct_polynomial() {
    let h: Vec<u64> = (0..50u64)
        .map(|i| term_hash(&format!("t{}", i % 7)))
        .collect();
    for w in [1, 2, 4, 10, 50] {
        let rolled = karp_rabin_windows(&h, w);
        for (i, &f) in rolled.iter().enumerate() {
            let direct = h[i..i + w]
                .iter()
                .fold(0, |acc, &x| add_mod(mul_mod(acc, KARP_RABIN_BASE), x));
            assert_eq!(f, direct, "w = {w}, window {i}");
        }
    }
}

#[test]
fn fingerprints_are_stable_across_runs_and_platforms() {
    // Pinned values: a change here changes every stored sketch.
    let t = Terms::new("a rose is a rose", &StopWords::none());
    assert_eq!(
        term_hash("rose"),
        xxhash_rust::xxh3::xxh3_64(b"rose") % MERSENNE_61
    );
    let f = shingle_fingerprints(&t, 2, ShingleHash::Rabin);
    assert_eq!(f.len(), 4);
    assert_eq!(f[0], f[3]); // "a rose" twice
    assert_eq!(
        shingle_fingerprints(&t, 2, ShingleHash::Crc32)[0],
        u64::from(crc32fast::hash(b"a rose"))
    );
}

#[test]
fn identity_scores_one_and_comparison_is_symmetric() {
    let text = include_str!("../../../corpora/clough/orig_taskb.txt");
    let other = include_str!("../../../corpora/clough/g0pA_taskb.txt");
    for sketch in [
        ShingleSketchKind::Full,
        ShingleSketchKind::Mod,
        ShingleSketchKind::Min,
    ] {
        let d = detector(ShingleConfig {
            sketch,
            modulus: 5,
            sketch_size: 20,
            ..ShingleConfig::default()
        });
        let c = compare(&d, text, text);
        assert_eq!(c.similarity.resemblance, 1.0, "{sketch:?}");
        assert!(c.duplicate);
        let ab = compare(&d, text, other);
        let ba = compare(&d, other, text);
        assert_eq!(ab.similarity, ba.similarity.swapped(), "{sketch:?}");
        assert!(ab.similarity.resemblance > 0.0 && ab.similarity.resemblance < 1.0);
    }
}

#[test]
fn empty_documents_score_zero_with_a_note() {
    let d = detector(ShingleConfig::default());
    let c = compare(&d, "", "");
    assert_eq!(c.similarity.resemblance, 0.0);
    assert!(!c.duplicate);
    assert_eq!(
        c.evidence.note.as_deref(),
        Some("no shingles: a document has no terms")
    );
}

#[test]
fn short_document_is_one_shingle() {
    let d = detector(no_stop(4));
    let s = d.sketch(&Document::new("s", "Hello, world!"));
    assert_eq!(s.shingles, 1);
    let c = compare(&d, "Hello, world!", "hello world");
    assert_eq!(c.similarity.resemblance, 1.0);
}

#[test]
fn min_sketch_has_no_containment_and_keeps_n_smallest() {
    let d = detector(ShingleConfig {
        sketch: ShingleSketchKind::Min,
        sketch_size: 3,
        ..no_stop(1)
    });
    let s = d.sketch(&Document::new("x", "e d c b a a"));
    assert_eq!(s.distinct(), 3);
    assert_eq!(s.shingles, 6);
    let all = shingle_fingerprints(
        &Terms::new("e d c b a a", &StopWords::none()),
        1,
        ShingleHash::Rabin,
    );
    let mut smallest = all.clone();
    smallest.sort_unstable();
    smallest.dedup();
    assert!(s.fingerprints.iter().all(|f| smallest[..3].contains(f)));
    let c = compare(&d, ROSE_A, ROSE_B);
    assert_eq!(c.similarity.containment_a, None);
    assert!(c.evidence.note.unwrap().contains("not defined"));
}

#[test]
fn min_sketch_equals_full_resemblance_when_sets_are_small() {
    let full = detector(no_stop(2));
    let min = detector(ShingleConfig {
        sketch: ShingleSketchKind::Min,
        ..no_stop(2)
    });
    assert_eq!(
        compare(&full, ROSE_A, ROSE_B).similarity.resemblance,
        compare(&min, ROSE_A, ROSE_B).similarity.resemblance
    );
}

#[test]
fn mod_sketch_keeps_multiples_of_m_in_text_order() {
    let d = detector(ShingleConfig {
        sketch: ShingleSketchKind::Mod,
        modulus: 3,
        ..no_stop(1)
    });
    let text = "one two three four five six seven eight nine ten";
    let all = shingle_fingerprints(&Terms::new(text, &StopWords::none()), 1, ShingleHash::Rabin);
    let s = d.sketch(&Document::new("x", text));
    let want: Vec<u64> = all.into_iter().filter(|f| f % 3 == 0).collect();
    assert_eq!(s.fingerprints, want);
}

#[test]
fn dice_counts_repeated_shingles_as_a_multiset() {
    let d = detector(ShingleConfig {
        measure: ShingleMeasure::Dice,
        ..no_stop(1)
    });
    // Lists [x, x] and [x]: seed 001's loop would give 2·2/3 > 1; the multiset gives 2·1/3.
    let c = compare(&d, "x x", "x");
    assert_eq!(c.evidence.dice, Some(2.0 / 3.0));
    assert_eq!(c.evidence.score, 2.0 / 3.0);
    assert!(c.duplicate);
    // Without repeats it is 2|X∩Y| / (|X| + |Y|): rose w = 1 lists have 8 and 9 shingles.
    let c = compare(&d, ROSE_A, ROSE_B);
    // multiset ∩: a×3, rose×2 (B has rose twice), is×2 = 7 → 14 / 17.
    assert_eq!(c.evidence.dice, Some(14.0 / 17.0));
}

#[test]
fn containment_measure_decides_on_the_larger_containment() {
    let d = detector(ShingleConfig {
        measure: ShingleMeasure::Containment,
        threshold: 0.9,
        ..no_stop(1)
    });
    let c = compare(&d, ROSE_A, ROSE_B);
    assert_eq!(c.evidence.score, 1.0);
    assert!(c.duplicate);
}

#[test]
fn invalid_settings_are_rejected() {
    for cfg in [
        ShingleConfig {
            size: 0,
            ..ShingleConfig::default()
        },
        ShingleConfig {
            modulus: 0,
            ..ShingleConfig::default()
        },
        ShingleConfig {
            sketch: ShingleSketchKind::Min,
            measure: ShingleMeasure::Containment,
            ..ShingleConfig::default()
        },
        ShingleConfig {
            sketch: ShingleSketchKind::Min,
            measure: ShingleMeasure::Dice,
            ..ShingleConfig::default()
        },
        ShingleConfig {
            threshold: -0.1,
            ..ShingleConfig::default()
        },
    ] {
        assert!(Shingles::new(cfg).is_err());
    }
}
