//! Tests of finding matching sentences: their keys, the prefix-filtered search, and the bound
//! on sentences in blocks.

use super::*;

#[test]
fn prefix_lengths_follow_the_bound() {
    assert_eq!(prefix_len(10, 0.5), 6);
    assert_eq!(prefix_len(10, 0.4), 7);
    assert_eq!(prefix_len(1, 0.4), 1);
    assert_eq!(prefix_len(3, 1.0), 1);
    assert_eq!(prefix_len(0, 0.5), 0);
}

#[test]
fn a_content_word_for_a_stop_word_keeps_the_block() {
    let a = Document::new(
        "a",
        "In the beginning God created the heaven and the earth. And the earth was without form, and void. And God said, Let there be light.",
    );
    let b = Document::new(
        "b",
        "In the beginning God created the heavens and the earth. And the earth lay without form, and void. And God said, Let there be light.",
    );
    let d = detector();
    let c = d.compare(&d.sketch(&a), &d.sketch(&b));
    assert_eq!(c.evidence.matched, 3, "{:?}", c.evidence);
    assert_eq!(c.similarity.resemblance, 1.0);
}

#[test]
fn unrelated_sentences_do_not_match() {
    let a = Document::new(
        "a",
        "Red apples grow on old trees. Green pears fall in autumn.",
    );
    let b = Document::new(
        "b",
        "Tall ships sail across oceans. Old dogs sleep by fires.",
    );
    let d = detector();
    let c = d.compare(&d.sketch(&a), &d.sketch(&b));
    assert_eq!(c.evidence.matched, 0);
    assert!(!c.duplicate);
}

#[test]
fn one_long_sentence_is_a_block_a_short_one_is_not() {
    let long = "The central bank raised its benchmark interest rate by half a point on Tuesday.";
    let d = detector();
    let a = d.sketch(&Document::new("a", format!("Gold rose. {long}")));
    let b = d.sketch(&Document::new("b", format!("{long} Oil fell.")));
    assert_eq!(d.compare(&a, &b).evidence.matched, 1);
    let a = d.sketch(&Document::new("a", "Gold rose sharply. Silver fell."));
    let b = d.sketch(&Document::new("b", "Oil fell. Gold rose sharply."));
    assert_eq!(d.compare(&a, &b).evidence.matched, 0);
}

#[test]
fn matching_sentences_share_one_of_their_longest_terms() {
    // Both have J = 3/6 (rain, old, town), but x's two longest terms are "flooded" and
    // "heavy", y's are 4-letter words: with two anchors they do not match, with three
    // (x adds "rain" or "town", y holds all of rain, fell, town) they do.
    let with = |anchor_terms: usize| {
        RobustSlst::new(RobustConfig {
            anchor_terms,
            min_block: 1,
            ..RobustConfig::default()
        })
        .unwrap()
    };
    let sentence = |d: &RobustSlst, text: &str| d.sketch(&Document::new("s", text));
    for (k, expected) in [(0, Some(0.5)), (2, None), (3, Some(0.5)), (5, Some(0.5))] {
        let d = with(k);
        let x = sentence(&d, "Heavy rain flooded the old town.");
        let y = sentence(&d, "Rain fell on the old town.");
        assert_eq!(
            d.matches(x.unit::<u64>(0), y.unit::<u64>(0)),
            expected,
            "anchor_terms {k}"
        );
    }
    // The ids sort the longest term first.
    assert!(term_id("flooded") < term_id("heavy") && term_id("heavy") < term_id("old"));
}

#[test]
fn a_single_sentence_block_shares_two_anchors() {
    // J = 4/8 (rain, old, town, square). Three anchors each: flooded, square, heavy against
    // square, light and one 4-letter word: one shared, so no single block; five anchors
    // share square, rain and town.
    let a = "Gold rose. Heavy rain flooded the old town square.";
    let b = "Light rain fell on the old town square. Oil fell.";
    let with = |anchor_terms: usize| {
        RobustSlst::new(RobustConfig {
            anchor_terms,
            ..RobustConfig::default()
        })
        .unwrap()
    };
    let matched = |d: &RobustSlst| {
        let c = d.compare(
            &d.sketch(&Document::new("a", a)),
            &d.sketch(&Document::new("b", b)),
        );
        c.evidence.matched
    };
    for (k, expected) in [(0, 1), (3, 0), (5, 1)] {
        assert_eq!(matched(&with(k)), expected, "anchor_terms {k}");
    }
    // At every k the block forms exactly when two anchors are shared, and some k shares
    // exactly two (the boundary of the rule).
    let d = with(2);
    let (x, y) = (
        d.sketch(&Document::new("a", a)),
        d.sketch(&Document::new("b", b)),
    );
    let (x, y) = (x.unit::<u64>(1), y.unit::<u64>(0));
    let mut boundary = false;
    for k in 2..=6 {
        let shared = shared_anchors(x.terms, y.terms, k);
        boundary |= shared == 2;
        assert_eq!(
            matched(&with(k)),
            usize::from(shared >= 2),
            "anchor_terms {k}"
        );
    }
    assert!(boundary);
}

#[test]
fn keys_under_any_order_are_shared_by_matching_documents() {
    let a = Document::new(
        "a",
        "Stocks rose sharply on Monday in Tokyo. Bond yields fell to a record low.",
    );
    let b = Document::new(
        "b",
        "Stocks rose sharply late Monday in Tokyo. Bond yields fell to a new record low.",
    );
    let d = detector();
    let (pa, pb) = (d.sketch(&a), d.sketch(&b));
    assert!(d.compare(&pa, &pb).evidence.matched > 0);
    let (ka, kb) = (d.join_keys(&pa).unwrap(), d.join_keys(&pb).unwrap());
    assert!(ka.iter().any(|k| kb.binary_search(k).is_ok()));
    let mut both = vec![pa, pb];
    d.prepare_corpus(&mut both);
    let (ka, kb) = (
        d.join_keys(&both[0]).unwrap(),
        d.join_keys(&both[1]).unwrap(),
    );
    assert!(ka.iter().any(|k| kb.binary_search(k).is_ok()));
}

/// The prefix-filtered search finds exactly the pairs that checking every pair finds, on
/// two long real texts (KJV and Webster's revision of Genesis) and at several bounds.
#[test]
fn indexed_search_equals_checking_every_pair() {
    let kjv = include_str!("../../../../corpora/bible/kjv-1mb.txt");
    let wbt = include_str!("../../../../corpora/bible/wbt-1mb.txt");
    let cut = |t: &'static str| &t[..t.char_indices().nth(40_000).map_or(t.len(), |c| c.0)];
    for (tau, delta) in [(0.3, 35), (0.5, 4), (0.8, 1)] {
        let d = RobustSlst::new(RobustConfig {
            term_similarity: tau,
            length_tolerance: delta,
            single_similarity: f64::max(tau, 0.5),
            ..RobustConfig::default()
        })
        .unwrap();
        let (a, b) = (
            d.sketch(&Document::new("kjv", cut(kjv))),
            d.sketch(&Document::new("wbt", cut(wbt))),
        );
        assert!(a.len() * b.len() > SMALL_PAIR);
        let sorted = |mut v: Vec<(usize, usize, f64)>| {
            v.sort_by_key(|x| (x.0, x.1));
            v
        };
        let all = sorted(d.all_sentence_pairs::<u64>(&a, &b));
        assert!(all.len() > 100, "τ {tau}: {}", all.len());
        assert_eq!(
            sorted(d.indexed_sentence_pairs::<u64>(&a, &b)),
            all,
            "τ {tau}"
        );
    }
}

/// The bound on sentences in blocks holds on two long real texts at several settings, and
/// is absent (no pair ruled out) before the corpus order is set.
#[test]
fn the_matched_bound_is_at_least_the_matched_sentences() {
    let kjv = include_str!("../../../../corpora/bible/kjv-1mb.txt");
    let wbt = include_str!("../../../../corpora/bible/wbt-1mb.txt");
    for (tau, delta, start, len) in [
        (0.5, 4, 0, 20_000),
        (0.3, 35, 5_000, 8_000),
        (0.8, 1, 0, 3_000),
    ] {
        let d = RobustSlst::new(RobustConfig {
            term_similarity: tau,
            length_tolerance: delta,
            single_similarity: f64::max(tau, 0.5),
            ..RobustConfig::default()
        })
        .unwrap();
        let mut docs = vec![
            d.sketch(&Document::new("kjv", &kjv[..20_000])),
            d.sketch(&Document::new("wbt", &wbt[start..start + len])),
            d.sketch(&Document::new("gen", &kjv[40_000..50_000])),
        ];
        assert_eq!(d.max_matched(&docs[0], &docs[1]), None);
        d.prepare_corpus(&mut docs);
        for x in &docs {
            for y in &docs {
                let matched = d.compare(x, y).evidence.matched;
                let bound = d.max_matched(x, y).unwrap();
                assert!(bound >= matched, "τ {tau}: {bound} < {matched}");
                assert!(bound <= x.len().min(y.len()));
                assert_eq!(bound, brute_max_matched(&d, x, y), "τ {tau}");
            }
        }
    }
}

/// [`RobustSlst::max_matched`] by its definition: the sentences of each side with a partner
/// on the other that shares a key term at a length within δ; the fewer of the two.
fn brute_max_matched(d: &RobustSlst, a: &RobustProfile, b: &RobustProfile) -> usize {
    let (x, y) = (a.corpus.as_deref().unwrap(), b.corpus.as_deref().unwrap());
    let keys = |v: &CorpusView, p: &RobustProfile, i: usize| -> Vec<u32> {
        v.ranks_of(p, i)[..d.key_terms(p.sentences[i].size())].to_vec()
    };
    let partner = |u: usize, v: usize| {
        let (ku, kv) = (keys(x, a, u), keys(y, b, v));
        a.sentences[u].length.abs_diff(b.sentences[v].length) as usize <= d.config.length_tolerance
            && ku.iter().any(|r| kv.contains(r))
    };
    let in_a = (0..a.len())
        .filter(|&u| (0..b.len()).any(|v| partner(u, v)))
        .count();
    let in_b = (0..b.len())
        .filter(|&v| (0..a.len()).any(|u| partner(u, v)))
        .count();
    in_a.min(in_b)
}

/// A text of `entries` short sentences, one a line of a ledger: many sentences cheaply.
fn ledger(entries: usize) -> String {
    (0..entries)
        .map(|i| format!("Entry {i} closes ledger folio {}. ", i % 97))
        .collect()
}

/// A document with more sentences than the view numbers (over 65,536) has no bound: no pair
/// with it is ruled out before it is compared, and it is compared as any.
#[test]
fn a_document_too_long_for_the_view_is_never_ruled_out_by_the_bound() {
    let kjv = include_str!("../../../../corpora/bible/kjv-1mb.txt");
    let ledger = ledger(66_000);
    let d = RobustSlst::new(RobustConfig::default()).unwrap();
    let mut docs = vec![
        d.sketch(&Document::new("whole", format!("{kjv}\n\n{ledger}"))),
        d.sketch(&Document::new("part", &kjv[100_000..120_000])),
        d.sketch(&Document::new("other", &kjv[300_000..320_000])),
    ];
    d.prepare_corpus(&mut docs);
    assert!(docs[0].len() > 1 << 16, "{}", docs[0].len());
    assert_eq!(d.max_matched(&docs[0], &docs[1]), None);
    assert_eq!(d.max_matched(&docs[2], &docs[0]), None);
    assert!(d.max_matched(&docs[1], &docs[2]).is_some());
    assert!(d.may_be_reported(&docs[0], &docs[1], PairRule::Duplicates));
    assert!(d.compare(&docs[1], &docs[0]).evidence.matched > 0);
}

/// A document of more sentences than two-byte key places number (8,192 with anchors) keeps its
/// bound in four-byte places, and the bound is still its definition.
#[test]
fn a_long_document_keeps_its_bound_in_four_byte_places() {
    use super::super::keys::KeyPlaces;
    let kjv = include_str!("../../../../corpora/bible/kjv-1mb.txt");
    let ledger = ledger(9_000);
    let d = RobustSlst::new(RobustConfig::default()).unwrap();
    let mut docs = vec![
        d.sketch(&Document::new(
            "long",
            format!("{ledger}\n\n{}", &kjv[..30_000]),
        )),
        d.sketch(&Document::new("part", &kjv[10_000..14_000])),
    ];
    d.prepare_corpus(&mut docs);
    assert!(docs[0].len() > 1 << 13, "{}", docs[0].len());
    let places = |p: &RobustProfile| p.corpus.as_deref().unwrap().key_places(&d, p).cloned();
    assert!(matches!(places(&docs[0]), Some(KeyPlaces::Long(_))));
    assert!(matches!(
        places(&docs[1]),
        Some(KeyPlaces::Short { bits: 3, .. })
    ));
    let bound = d.max_matched(&docs[0], &docs[1]).unwrap();
    assert!(bound > 10, "{bound}");
    assert_eq!(bound, brute_max_matched(&d, &docs[0], &docs[1]));
    assert_eq!(d.max_matched(&docs[1], &docs[0]), Some(bound));
}

#[test]
fn key_places_are_made_by_the_first_bound_that_reads_them() {
    let kjv = include_str!("../../../../corpora/bible/kjv-1mb.txt");
    let d = RobustSlst::new(RobustConfig::default()).unwrap();
    let mut docs = vec![
        d.sketch(&Document::new("a", &kjv[..6_000])),
        d.sketch(&Document::new("b", &kjv[3_000..9_000])),
    ];
    d.prepare_corpus(&mut docs);
    let made = |p: &RobustProfile| p.corpus.as_deref().unwrap().key_places.0.get().is_some();
    // A corpus's views hold no places until a bound needs them (they are not the join's).
    assert!(!made(&docs[0]) && !made(&docs[1]));
    let before = docs.clone();
    let bound = d.max_matched(&docs[0], &docs[1]).unwrap();
    assert!(made(&docs[0]) && made(&docs[1]));
    assert_eq!(bound, brute_max_matched(&d, &docs[0], &docs[1]));
    // Made or not, a view is the same view.
    assert_eq!(docs, before);
    assert_eq!(d.max_matched(&before[0], &before[1]), Some(bound));
}
