//! Property tests on documents built from real sentences: the fast path equals the oracle, the
//! scores behave like similarities, and spans point where they should.

use std::sync::OnceLock;

use proptest::prelude::*;
use slst::block::{self, Block};
use slst::matcher;
use slst::method::canonical_order;
use slst::text::split_sentences;
use slst::{Detector, Document, MatchKey, SentenceProfile, SlSt, SlstConfig};

/// Real sentences: the Clough sources and the Bible sample. Few enough that random documents
/// repeat sentences and share runs.
fn pool() -> &'static [String] {
    static POOL: OnceLock<Vec<String>> = OnceLock::new();
    POOL.get_or_init(|| {
        let texts = [
            include_str!("../corpora/clough/orig_taskb.txt"),
            include_str!("../corpora/bible/kjv-1mb.txt"),
        ];
        let mut out = Vec::new();
        for text in texts {
            for r in split_sentences(&text[..text.len().min(40_000)]) {
                let s = text[r].split_whitespace().collect::<Vec<_>>().join(" ");
                // Keep sentences that start a new sentence when joined (capitalised).
                if s.chars().next().is_some_and(char::is_uppercase) && s.ends_with('.') {
                    out.push(s);
                }
            }
        }
        out.sort();
        out.dedup();
        out.truncate(24);
        out
    })
}

/// A document of 0–40 sentences drawn from a small pool (so runs repeat), joined into text
/// with a mix of spaces and line breaks.
fn document() -> impl Strategy<Value = String> {
    proptest::collection::vec((0usize..24, 0u8..4), 0..40).prop_map(|picks| {
        let pool = pool();
        let mut text = String::new();
        for (k, sep) in picks {
            text.push_str(&pool[k % pool.len()]);
            text.push_str(match sep {
                0 => "\n",
                1 => "\n\n",
                _ => " ",
            });
        }
        text
    })
}

fn detector(key: MatchKey) -> SlSt {
    SlSt::new(SlstConfig {
        match_key: key,
        ..SlstConfig::default()
    })
    .unwrap()
}

/// The whole of SPEC §3 with the obviously correct pieces: diagonal scan over the length
/// string, verification on leading terms, step-by-step tiling — in the canonical orientation
/// (see `canonical_order`), like the detector.
fn oracle_blocks(a: &SentenceProfile, b: &SentenceProfile, min_block: usize) -> Vec<Block> {
    if canonical_order(a, b) == std::cmp::Ordering::Greater {
        let mut flipped: Vec<Block> = oracle_blocks_in_order(b, a, min_block)
            .into_iter()
            .map(|x| Block {
                a: x.b,
                b: x.a,
                len: x.len,
            })
            .collect();
        flipped.sort_unstable();
        return flipped;
    }
    oracle_blocks_in_order(a, b, min_block)
}

fn oracle_blocks_in_order(
    a: &SentenceProfile,
    b: &SentenceProfile,
    min_block: usize,
) -> Vec<Block> {
    let lengths =
        |p: &SentenceProfile| -> Vec<u32> { p.sentences.iter().map(|s| s.length.into()).collect() };
    let mut verified = Vec::new();
    for m in matcher::naive_maximal_matches(&lengths(a), &lengths(b), min_block) {
        block::verify(
            m,
            |i, j| a.sentences[i].leading == b.sentences[j].leading,
            min_block,
            &mut verified,
        );
    }
    block::tile_naive(&verified, min_block, a.len(), b.len())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn fast_path_equals_the_oracle(a in document(), b in document()) {
        let d = detector(MatchKey::LengthAndLeading);
        let (pa, pb) = (d.sketch(&Document::new("a", a)), d.sketch(&Document::new("b", b)));
        let c = d.compare(&pa, &pb);
        if !c.evidence.identical {
            prop_assert_eq!(&c.evidence.blocks, &oracle_blocks(&pa, &pb, 2));
        }
    }

    #[test]
    fn both_match_keys_give_the_same_blocks(a in document(), b in document()) {
        let (x, y) = (detector(MatchKey::LengthAndLeading), detector(MatchKey::Length));
        let (da, db) = (Document::new("a", a), Document::new("b", b));
        let cx = x.compare(&x.sketch(&da), &x.sketch(&db));
        let cy = y.compare(&y.sketch(&da), &y.sketch(&db));
        prop_assert_eq!(cx.evidence.blocks, cy.evidence.blocks);
        prop_assert_eq!(cx.similarity, cy.similarity);
    }

    #[test]
    fn resemblance_is_symmetric_and_in_range(a in document(), b in document()) {
        let d = detector(MatchKey::default());
        let (pa, pb) = (d.sketch(&Document::new("a", a)), d.sketch(&Document::new("b", b)));
        let ab = d.compare(&pa, &pb);
        let ba = d.compare(&pb, &pa);
        prop_assert!((0.0..=1.0).contains(&ab.similarity.resemblance));
        prop_assert_eq!(ab.similarity.resemblance, ba.similarity.resemblance);
        prop_assert_eq!(ab.similarity, ba.similarity.swapped());
        prop_assert_eq!(ab.evidence.matched, ba.evidence.matched);
        prop_assert_eq!(ab.duplicate, ba.duplicate);
    }

    #[test]
    fn identity_scores_one(a in document()) {
        let d = detector(MatchKey::default());
        let p = d.sketch(&Document::new("a", a));
        let c = d.compare(&p, &p);
        let expected = if p.is_empty() { 0.0 } else { 1.0 };
        prop_assert_eq!(c.similarity.resemblance, expected);
    }

    #[test]
    fn sentence_spans_are_ascending_disjoint_trimmed_and_inside(a in document()) {
        let p = detector(MatchKey::default()).sketch(&Document::new("a", a.clone()));
        let mut previous_end = 0;
        for s in &p.sentences {
            prop_assert!(previous_end <= s.start && s.start < s.end && s.end as usize <= a.len());
            let text = &a[s.span()];
            prop_assert_eq!(text, text.trim());
            previous_end = s.end;
        }
    }

    #[test]
    fn blocks_cover_equal_leading_terms_one_to_one(a in document(), b in document()) {
        let d = detector(MatchKey::default());
        let (pa, pb) = (d.sketch(&Document::new("a", a)), d.sketch(&Document::new("b", b)));
        let c = d.compare(&pa, &pb);
        let (mut used_a, mut used_b) = (vec![false; pa.len()], vec![false; pb.len()]);
        for blk in &c.evidence.blocks {
            for k in 0..blk.len {
                let (x, y) = (&pa.sentences[blk.a + k], &pb.sentences[blk.b + k]);
                prop_assert_eq!(x.length, y.length);
                prop_assert_eq!(&x.leading, &y.leading);
                prop_assert!(!used_a[blk.a + k] && !used_b[blk.b + k]);
                used_a[blk.a + k] = true;
                used_b[blk.b + k] = true;
            }
        }
    }
}

/// The properties above are only worth something if random documents share blocks often: with
/// 24 sentences in the pool, documents of a few dozen sentences do.
#[test]
fn random_documents_from_the_pool_do_share_blocks() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    assert_eq!(pool().len(), 24);
    let d = detector(MatchKey::default());
    let mut runner = TestRunner::deterministic();
    let mut with_blocks = 0;
    for _ in 0..100 {
        let a = document().new_tree(&mut runner).unwrap().current();
        let b = document().new_tree(&mut runner).unwrap().current();
        let c = d.compare(
            &d.sketch(&Document::new("a", a)),
            &d.sketch(&Document::new("b", b)),
        );
        with_blocks += usize::from(!c.evidence.blocks.is_empty());
    }
    assert!(
        with_blocks >= 30,
        "only {with_blocks} of 100 random pairs share a block"
    );
}
