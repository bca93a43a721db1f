//! The tolerant matcher (robust SL+ST) under settings the input picks, on up to four
//! documents: every pair's blocks one-to-one and inside the texts, scores in range and
//! symmetric, a pair with a score above 0 sharing a join key (a duplicate a duplicate key), and
//! the corpus run through the witness join (or every pair, as the input picks) finding exactly
//! the pairs that comparing every pair finds.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use slst::batch::{self, BatchConfig, Candidates, Silent};
use slst::corpus::Item;
use slst::method::{PairRule, RobustConfig, RobustSlst};
use slst::{Detector, Document};
use slst_fuzz::{Bytes, check_fraction, check_span, parts, robust_defaults, text};

/// One worker thread: a fuzzer run uses one core.
fn pool() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("a thread pool")
    })
}

fn shares(x: Option<Vec<u64>>, y: Option<Vec<u64>>) -> bool {
    let x = x.expect("keys");
    y.expect("keys").iter().any(|k| x.contains(k))
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let pick = |b: u8, from: &[f64]| from[usize::from(b) % from.len()];
    let term_similarity = pick(input.byte(), &[0.4, 0.2, 0.5, 0.7, 1.0]);
    let config = RobustConfig {
        length_tolerance: usize::from(input.byte() % 6),
        term_similarity,
        single_min_terms: usize::from(input.byte() % 6),
        single_similarity: term_similarity.max(pick(input.byte(), &[0.4, 0.6, 0.9])),
        anchor_terms: [5, 0, 2, 3][usize::from(input.byte() % 4)],
        clauses: !input.flag(),
        stem: input.flag(),
        split_glued: !input.flag(),
        window: usize::from(input.byte() % 12),
        min_block: usize::from(input.byte() % 3) + 1,
        max_length: [35, 5, 60][usize::from(input.byte() % 3)],
        threshold: pick(input.byte(), &[0.5, 0.1, 0.3, 0.8]),
        min_weighted: pick(input.byte(), &[0.0, 0.5]),
        min_figures: pick(input.byte(), &[0.0, 0.5]),
        ..robust_defaults().clone()
    };
    let every_pair = input.flag();
    let rule = match input.byte() % 3 {
        0 => PairRule::Duplicates,
        1 => PairRule::Contained(0.5),
        _ => PairRule::Scored,
    };
    let Ok(detector) = RobustSlst::new(config.clone()) else {
        return;
    };
    let docs: Vec<Document> = parts(input.rest(), 4)
        .into_iter()
        .enumerate()
        .map(|(i, p)| Document::new(format!("d{i}"), text(p)))
        .collect();
    let sketches: Vec<_> = docs.iter().map(|d| detector.sketch(d)).collect();
    let mut expected = Vec::new();
    for i in 0..docs.len() {
        for j in i + 1..docs.len() {
            let (sa, sb) = (&sketches[i], &sketches[j]);
            let c = detector.compare(sa, sb);
            let s = c.similarity;
            check_fraction(s.resemblance, "resemblance");
            check_fraction(c.evidence.weighted, "weighted resemblance");
            assert_eq!(
                s,
                detector.compare(sb, sa).similarity.swapped(),
                "not symmetric"
            );
            // Blocks: one-to-one, inside both profiles and texts.
            let (mut used_a, mut used_b) = (vec![false; sa.len()], vec![false; sb.len()]);
            for b in &c.evidence.blocks {
                // (Shorter than the minimum block only as a run of single-pair blocks.)
                assert!(b.len >= 1, "an empty block");
                for k in 0..b.len {
                    let (x, y) = (b.a_start + k, b.b_start + k);
                    assert!(!used_a[x] && !used_b[y], "a sentence in two blocks");
                    used_a[x] = true;
                    used_b[y] = true;
                }
                check_fraction(b.min_term_similarity, "block similarity");
                check_span(
                    &docs[i].text,
                    b.a_span[0] as usize..b.a_span[1] as usize,
                    "block",
                );
                check_span(
                    &docs[j].text,
                    b.b_span[0] as usize..b.b_span[1] as usize,
                    "block",
                );
            }
            assert_eq!(c.evidence.matched, used_a.iter().filter(|&&u| u).count());
            // The corpus keys are exact: any scored pair shares one.
            if s.resemblance > 0.0 {
                assert!(
                    shares(detector.join_keys(sa), detector.join_keys(sb)),
                    "a scored pair shares no join key"
                );
            }
            if c.duplicate {
                assert!(
                    shares(detector.duplicate_keys(sa), detector.duplicate_keys(sb)),
                    "a duplicate shares no duplicate key"
                );
            }
            if rule.keeps(&s, c.duplicate) {
                expected.push((i, j));
            }
        }
    }

    // A corpus run: the witness join, and every pair, find the pairs comparing finds.
    let run = |candidates| {
        let items = docs.iter().cloned().map(Item::Document);
        let config = BatchConfig {
            rule,
            candidates,
            ..BatchConfig::default()
        };
        let result = pool().install(|| batch::run(items, &detector, &config, &Silent));
        result.pairs.iter().map(|p| (p.a, p.b)).collect::<Vec<_>>()
    };
    // (One of the two per execution, so that executions stay fast.)
    if every_pair {
        let all = run(Candidates::All);
        assert_eq!(all, expected, "every pair differs from comparing");
    } else {
        let joined = run(Candidates::Index);
        assert_eq!(joined, expected, "the witness join lost or added a pair");
    }
});
