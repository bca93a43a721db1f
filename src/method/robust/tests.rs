//! Unit tests of robust SL+ST.
use super::matching::*;
use super::sketch::*;
use super::*;
use crate::method::Evidence;

fn detector() -> RobustSlst {
    RobustSlst::new(RobustConfig::default()).unwrap()
}

/// J ≥ θ alone decides: no containment rule, no figure or word-agreement condition.
fn loose_config() -> RobustConfig {
    RobustConfig {
        contained: 0.0,
        min_figure_containment: 0.0,
        min_agreement: 0.0,
        min_term_containment: 0.0,
        figure_swaps: 0,
        flash_edits: 0,
        ..RobustConfig::default()
    }
}

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
    let kjv = include_str!("../../../corpora/bible/kjv-1mb.txt");
    let wbt = include_str!("../../../corpora/bible/wbt-1mb.txt");
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
    let kjv = include_str!("../../../corpora/bible/kjv-1mb.txt");
    let wbt = include_str!("../../../corpora/bible/wbt-1mb.txt");
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
    let kjv = include_str!("../../../corpora/bible/kjv-1mb.txt");
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
    use super::keys::KeyPlaces;
    let kjv = include_str!("../../../corpora/bible/kjv-1mb.txt");
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
    let kjv = include_str!("../../../corpora/bible/kjv-1mb.txt");
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

#[test]
fn invalid_settings_are_rejected() {
    for cfg in [
        RobustConfig {
            min_block: 0,
            ..RobustConfig::default()
        },
        RobustConfig {
            term_similarity: 0.0,
            ..RobustConfig::default()
        },
        RobustConfig {
            single_similarity: 0.2,
            ..RobustConfig::default()
        },
        RobustConfig {
            anchor_terms: 1,
            ..RobustConfig::default()
        },
    ] {
        assert!(RobustSlst::new(cfg).is_err());
    }
}

#[test]
fn clauses_are_cut_after_their_marks_in_text_of_any_script() {
    // Byte offsets found by a byte search: the characters before and after the marks are
    // several bytes long.
    let text = "Prix: café crème; thé vert — «fin»";
    let mut out = Vec::new();
    cut_clauses(text, 0..text.len(), &mut out);
    let pieces: Vec<&str> = out.iter().map(|r| &text[r.clone()]).collect();
    assert_eq!(pieces, ["Prix:", " café crème;", " thé vert — «fin»"]);
    out.clear();
    // A span inside the text, ending on a mark.
    let inner = text.find('c').unwrap()..text.find(';').unwrap() + 1;
    cut_clauses(text, inner, &mut out);
    let pieces: Vec<&str> = out.iter().map(|r| &text[r.clone()]).collect();
    assert_eq!(pieces, ["café crème;", ""]);
}

#[test]
fn glued_sentences_are_cut_and_abbreviations_are_not() {
    let text =
        "It grew.Coalition members met in the U.S.Army base, e.g.The one at example.com today.";
    let mut out = Vec::new();
    cut_glued(text, 0..text.len(), &mut out);
    let pieces: Vec<&str> = out.iter().map(|r| &text[r.clone()]).collect();
    assert_eq!(
        pieces,
        [
            "It grew.",
            "Coalition members met in the U.S.Army base, e.g.The one at example.com today."
        ]
    );
    let d = RobustSlst::new(RobustConfig {
        split_glued: true,
        ..RobustConfig::default()
    })
    .unwrap();
    let p = d.sketch(&Document::new(
        "a",
        "Prices rose sharply in March.Traders sold gold.",
    ));
    assert_eq!(p.len(), 2);
    assert_eq!(p.sentences[1].start, 29);
}

#[test]
fn long_units_are_dropped_from_the_score_and_kept_as_windows_for_seeds() {
    // 24 content words, no sentence punctuation: a scraped list.
    let list = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike \
                november oscar papa quebec romeo sierra tango uniform victor whiskey xray";
    let doc = Document::new("a", list);
    let without = RobustSlst::new(RobustConfig {
        max_length: 20,
        window: 0,
        ..RobustConfig::default()
    })
    .unwrap();
    let p = without.sketch(&doc);
    assert_eq!((p.len(), p.dropped_long, p.windows.len()), (0, 1, 0));
    let d = RobustSlst::new(RobustConfig {
        max_length: 20,
        window: 10,
        ..RobustConfig::default()
    })
    .unwrap();
    let p = d.sketch(&doc);
    assert_eq!((p.len(), p.dropped_long), (0, 1));
    let lengths: Vec<u16> = p.windows.iter().map(|s| s.length).collect();
    assert_eq!(lengths, [10, 10, 4]);
    // The windows tile the unit: each starts where the previous ended (after white space).
    let spans: Vec<&str> = p
        .windows
        .iter()
        .map(|s| &list[s.start as usize..s.end as usize])
        .collect();
    assert!(spans[0].starts_with("alpha") && spans[0].ends_with("juliet"));
    assert!(spans[1].starts_with("kilo") && spans[1].ends_with("tango"));
    assert_eq!(spans[2], "uniform victor whiskey xray");
    // The same list pasted into another text: no block, J = 0, but windows seed a passage.
    let other = Document::new(
        "b",
        format!("Notes from the meeting follow here.\n\n{list}"),
    );
    let q = d.sketch(&other);
    let c = d.compare(&p, &q);
    assert_eq!(c.similarity.resemblance, 0.0);
    let seeds = d.seeds(&p, &q, &c).unwrap();
    assert_eq!(seeds.len(), 1);
    assert_eq!(seeds[0].0, [0, list.len()]);
    assert_eq!(&other.text[seeds[0].1[0]..seeds[0].1[1]], list);
}

/// Two Reuters-21578 items (17990, 20196): one template, two days' figures.
const HOGS_1: &str = "HOG AND CATTLE SLAUGHTER GUESSTIMATES\n\nChicago Mercantile Exchange floor traders and commission house representatives are guesstimating today's hog slaughter at about 265,000 to 275,000 head versus 286,000 week ago and 278,000 a year ago.\n    Cattle slaughter is guesstimated at about 124,000 to 128,000 head versus 129,000 week ago and 130,000 a year ago.";
const HOGS_2: &str = "HOG AND CATTLE SLAUGHTER GUESSTIMATES\n\nChicago Mercantile Exchange floor traders and commission house representatives are guesstimating today's hog slaughter at about 310,000 to 325,000 head versus 327,000 a week ago and 291,000 a year ago.\n    Cattle slaughter is guesstimated at about 128,000 to 132,000 head versus 133,000 week ago and 127,000 a year ago.";

#[test]
fn figures_that_differ_make_a_template() {
    let off = RobustSlst::new(loose_config()).unwrap();
    let (a, b) = (Document::new("a", HOGS_1), Document::new("b", HOGS_2));
    let c = off.compare(&off.sketch(&a), &off.sketch(&b));
    // The wording matches sentence for sentence; the figures do not.
    assert!(c.duplicate, "{:?}", c.evidence);
    assert_eq!(c.evidence.matched, 3);
    let [shared, either] = c.evidence.figures;
    assert!(
        either >= 14 && shared * 4 < either,
        "{:?}",
        c.evidence.figures
    );
    // By default: the documents' figures (all their text) mostly differ.
    let d = detector();
    let c = d.compare(&d.sketch(&a), &d.sketch(&b));
    assert_eq!(c.similarity.resemblance, 1.0);
    assert!(!c.duplicate && c.evidence.figure_containment < 0.5);
    assert_eq!(
        c.evidence.note(),
        Some("the documents differ in their figures: one template filled twice?")
    );
    // Or the figures of the blocks' sentence pairs, when asked.
    let on = RobustSlst::new(RobustConfig {
        min_figures: 0.7,
        ..loose_config()
    })
    .unwrap();
    let c = on.compare(&on.sketch(&a), &on.sketch(&b));
    assert!(!c.duplicate);
    assert_eq!(
        c.evidence.note(),
        Some("the matched sentences differ in their figures: a template?")
    );
    // The same story sent twice keeps its figures, and stays a duplicate.
    let again = Document::new("c", HOGS_1.replace("GUESSTIMATES", "ESTIMATES"));
    let c = on.compare(&on.sketch(&a), &on.sketch(&again));
    assert!(c.duplicate && c.evidence.figures[0] == c.evidence.figures[1]);
    assert_eq!(c.evidence.note(), None);
    let c = d.compare(&d.sketch(&a), &d.sketch(&again));
    assert!(c.duplicate && c.evidence.figure_containment == 1.0);
}

#[test]
fn figures_include_cardinals_written_out() {
    // Reuters-21578 flashes of two days: only the written-out amount differs.
    let d = detector();
    let fed = |amount: &str| {
        Document::new(
            amount,
            format!(
                "FED ADDS RESERVES VIA CUSTOMER REPURCHASES\n\nThe Federal Reserve entered the \
                 government securities market to arrange {amount} billion dlrs of customer \
                 repurchase agreements, a Fed spokesman said. Dealers said Federal funds were \
                 trading at 6-1/8 pct when the Fed began its temporary and indirect supply of \
                 reserves to the banking system."
            ),
        )
    };
    let (two, one) = (d.sketch(&fed("two")), d.sketch(&fed("one")));
    // `two` and the pieces of 6-1/8.
    assert_eq!(two.figures.len(), 4);
    let c = d.compare(&two, &one);
    assert_eq!(c.similarity.resemblance, 1.0);
    assert_eq!(c.evidence.figure_containment, 0.75);
    assert!(!c.duplicate);
    assert!(d.compare(&two, &d.sketch(&fed("two"))).duplicate);
}

#[test]
fn a_figure_has_a_digit_or_is_a_cardinal_written_out() {
    for word in ["1.5", "6-1/8", "q3", "zero", "seven", "nineteen", "ninety"] {
        assert!(is_figure_word(word), "{word}");
    }
    // Scale words stay when the figure changes; near misses and other words are not figures.
    for word in [
        "million", "billion", "hundred", "nin", "sevens", "tenth", "", "once", "often",
    ] {
        assert!(!is_figure_word(word), "{word}");
    }
}

#[test]
fn one_notice_for_two_parties_is_not_one_story() {
    // Reuters-21578 items 11940 and 11960 (judged sample item 40): two banks raise their prime
    // rate on the same terms, in the same words.
    let marine = "MARINE MIDLAND <MMB> RAISES PRIME RATE\n\nMarine Midland Banks Inc said it is\n\
        raising its prime lending rate to 7-3/4 pct from 7-1/2 pct,\neffective immediately.\n Reuter\n";
    let mercantile = "MERCANTILE BANK N.A. <MTRC> RAISES PRIME RATE\n\nMercantile Bancorp said its \
        Mercantile\nBank N.A. raised its prime rate to 7-3/4 pct from 7-1/2 pct,\neffective \
        immediately.\n Reuter\n";
    let d = detector();
    let a = d.sketch(&Document::new("a", marine));
    let b = d.sketch(&Document::new("b", mercantile));
    let c = d.compare(&a, &b);
    assert_eq!(c.evidence.figure_containment, 1.0);
    assert!(c.evidence.term_containment < 0.8, "{:?}", c.evidence);
    assert!(!c.duplicate);
    assert_eq!(
        c.evidence.note(),
        Some("the documents differ in their words: one notice for two parties?"),
        "{:?} {:?}",
        c.similarity,
        c.evidence
    );
    // The same notice sent again, with another headline, is one story.
    let again = marine.replace("RAISES PRIME RATE", "LIFTS PRIME");
    let c = d.compare(&a, &d.sketch(&Document::new("c", again)));
    assert!(c.duplicate, "{:?}", c.evidence);
}

#[test]
fn a_flash_lies_in_its_story() {
    // A story and its first paragraph sent alone: J = 2/5, but all of the short one is in the
    // long one, and a reader calls them one story.
    let story = "GENCORP BOARD REJECTS TENDER OFFER\n\nGenCorp Inc said its board of directors \
        unanimously rejected the tender offer by General Partners as inadequate. The company said \
        its financial advisers considered the offer price too low for the shareholders. GenCorp \
        added that it was studying alternatives including a restructuring of its businesses. A \
        spokesman declined to say whether other bidders had approached the company. Shares of \
        GenCorp closed higher in heavy trading on the New York exchange.";
    let flash = &story[..story.find(" The company").unwrap()];
    let d = detector();
    let (s, f) = (
        d.sketch(&Document::new("story", story)),
        d.sketch(&Document::new("flash", flash)),
    );
    let c = d.compare(&f, &s);
    assert!(c.similarity.resemblance < 0.5, "{:?}", c.similarity);
    assert_eq!(c.similarity.containment_a, Some(1.0));
    assert!(c.duplicate, "{:?}", c.evidence);
    let loose = RobustSlst::new(loose_config()).unwrap();
    assert!(!loose.compare(&f, &s).duplicate);
}

#[test]
fn the_weighted_resemblance_counts_loose_matches_for_less() {
    // One headline each, sharing 3 of 6 terms: a block of one long pair, J = 1.
    let a = Document::new(
        "a",
        "Japan February consumer prices rise slightly, ministry says.",
    );
    let b = Document::new(
        "b",
        "Japan February unemployment rises slightly, ministry says.",
    );
    let d = RobustSlst::new(loose_config()).unwrap();
    let c = d.compare(&d.sketch(&a), &d.sketch(&b));
    assert_eq!(c.evidence.matched, 1, "{:?}", c.evidence);
    assert!(c.duplicate);
    let x = c.evidence.weighted;
    assert!(x > 0.0 && x < 1.0, "{x}");
    // By default the two headlines are compared on their words: 3 of 6 terms is too few.
    let default = detector();
    let c = default.compare(&default.sketch(&a), &default.sketch(&b));
    assert!(!c.duplicate);
    assert_eq!(
        c.evidence.note(),
        Some("the matched sentences agree only loosely in their words")
    );
    // A loose match is not a template: a corpus run never reports it as one.
    assert_eq!(c.template(), None);
    assert!(!c.kept_by(PairRule::WithTemplates));
    let strict = RobustSlst::new(RobustConfig {
        min_weighted: x + 0.01,
        ..loose_config()
    })
    .unwrap();
    let c = strict.compare(&strict.sketch(&a), &strict.sketch(&b));
    assert!(!c.duplicate);
    assert_eq!(
        c.evidence.note(),
        Some("the matched sentences agree only loosely in their words")
    );
    // Identical texts: every pair agrees fully, so the weighted resemblance is J = 1.
    let c = d.compare(&d.sketch(&a), &d.sketch(&a));
    assert_eq!(c.evidence.weighted, 1.0);
}

#[test]
fn agreement_counts_terms_and_figures_in_one_merge() {
    let ids = |words: &[&str]| {
        let mut v: Vec<u64> = words.iter().map(|w| term_id(w)).collect();
        v.sort_unstable();
        v
    };
    let x = ids(&["hog", "slaughter", "265,000", "286,000", "1987"]);
    let y = ids(&["hog", "slaughter", "310,000", "1987"]);
    let (j, shared, either) = agreement(&x, &y);
    // Common: hog, slaughter, 1987 of 6 distinct terms; figures: 1987 shared, 4 in all.
    assert_eq!((j, shared, either), (0.5, 1, 4));
    assert_eq!(j, jaccard(&x, &y));
    assert_eq!(agreement(&x, &[]), (0.0, 0, 3));
}

/// Genesis 1:1–10 (King James Version, public domain), one verse per sentence.
const GENESIS_1: [&str; 10] = [
    "In the beginning God created the heaven and the earth.",
    "And the earth was without form, and void; and darkness was upon the face of the deep.",
    "And the Spirit of God moved upon the face of the waters.",
    "And God said, Let there be light: and there was light.",
    "And God saw the light, that it was good: and God divided the light from the darkness.",
    "And God called the light Day, and the darkness he called Night.",
    "And God made the firmament, and divided the waters which were under the firmament from the waters which were above the firmament: and it was so.",
    "And God called the firmament Heaven.",
    "And God said, Let the waters under the heaven be gathered together unto one place, and let the dry land appear: and it was so.",
    "And God called the dry land Earth; and the gathering together of the waters called he Seas: and God saw that it was good.",
];

/// Genesis 7:6 and 6:15 (KJV): two sentences with figures.
const NOAH: &str =
    "And Noah was six hundred years old when the flood of waters was upon the earth.";
const ARK: &str = "The length of the ark shall be three hundred cubits, the breadth of it fifty cubits, and the height of it thirty cubits.";

#[test]
fn an_edited_copy_is_judged_on_the_text_it_shares() {
    // Two copies of one passage, each with a sentence of its own carrying other figures: over
    // the whole texts, the figures mostly differ.
    let with = |extra: &str| {
        let mut text: Vec<&str> = GENESIS_1.to_vec();
        text.insert(5, extra);
        text.join(" ")
    };
    let (a, b) = (
        Document::new("a", with(NOAH)),
        Document::new("b", with(ARK)),
    );
    let whole = RobustSlst::new(RobustConfig {
        matched_containment_from: 0,
        ..RobustConfig::default()
    })
    .unwrap();
    let (p, q) = (whole.sketch(&a), whole.sketch(&b));
    // 16 units: the verses cut at their colons and semicolons, and the added sentence.
    assert_eq!((p.len(), q.len()), (16, 16));
    let c = whole.compare(&p, &q);
    assert_eq!(c.evidence.matched, 15);
    assert!(!c.duplicate && c.evidence.figure_containment == 0.5);
    assert!(!whole.may_be_reported(&p, &q, PairRule::Duplicates));
    // By default two documents of 8 sentences or more at J ≥ θ may meet the condition over
    // their blocks, which hold no figure at all.
    let d = detector();
    assert_eq!(d.config().matched_containment_from, 8);
    let c = d.compare(&p, &q);
    assert!(c.duplicate, "{:?}", c.evidence);
    assert_eq!(c.evidence.figure_containment, 1.0);
    assert!(d.may_be_reported(&p, &q, PairRule::Duplicates));
    assert_eq!(d.compare(&q, &p).duplicate, c.duplicate);
    // Shorter copies are judged on every word, as a notice is.
    let short = |id: &str, extra: &str| {
        let mut text: Vec<&str> = GENESIS_1[..4].to_vec();
        text.push(extra);
        d.sketch(&Document::new(id, text.join(" ")))
    };
    let (p, q) = (short("a", NOAH), short("b", ARK));
    assert_eq!((p.len(), q.len()), (7, 7));
    assert!(!d.compare(&p, &q).duplicate);
    assert!(!d.may_be_reported(&p, &q, PairRule::Duplicates));
}

#[test]
fn two_flashes_that_each_say_two_things_the_other_does_not_are_two_events() {
    let d = detector();
    let sketch = |id: &str, text: &str| d.sketch(&Document::new(id, text));
    // Reuters-21578 items 12495 and 19545: one bank, two decisions.
    let (left, cut) = (
        sketch(
            "12495",
            " BANK OF FRANCE LEAVES INTERVENTION RATE UNCHANGED AT 7-3/4 PCT - OFFICIAL\n",
        ),
        sketch(
            "19545",
            "BANK OF FRANCE CUTS INTERVENTION RATE TO 7-1/2 PCT FROM\n7-3/4 PCT - OFFICIAL\n",
        ),
    );
    assert_eq!((left.len(), cut.len()), (1, 1));
    // {leaves, unchanged} against {cuts, 7-1/2}.
    assert_eq!(super::comparison::flash_edits::<u64>(&left, &cut), 2);
    let c = d.compare(&left, &cut);
    assert!(!c.duplicate, "{:?}", c.evidence);
    assert_eq!(
        c.evidence.note(),
        Some("two headlines that each say what the other does not: two events?")
    );
    assert!(c.kept_by(PairRule::WithTemplates));
    assert!(!d.compare(&cut, &left).duplicate);
    let off = RobustSlst::new(RobustConfig {
        flash_edits: 0,
        ..RobustConfig::default()
    })
    .unwrap();
    assert!(off.compare(&left, &cut).duplicate);
    // Items 10859 and 18750: one flash reworded, `DLR` against `DLRS ... AGREEMENTS` — one word
    // on one side.
    let (x, y) = (
        sketch(
            "10859",
            "FED SETS TWO BILLION DLR CUSTOMER REPURCHASE, FED SAYS\n",
        ),
        sketch(
            "18750",
            "FED SAYS IT SETS TWO BILLION DLRS OF CUSTOMER REPURCHASE\nAGREEMENTS\n",
        ),
    );
    assert_eq!(super::comparison::flash_edits::<u64>(&x, &y), 1);
    assert!(d.compare(&x, &y).duplicate);
    // Items 9282 and 10337: `buys ... for yen` against `bought ... against yen in`.
    let (x, y) = (
        sketch(
            "9282",
            "Bundesbank buys dollars for yen - Frankfurt dealers\n",
        ),
        sketch(
            "10337",
            "Bundesbank bought dollars against yen in Frankfurt - dealers\n",
        ),
    );
    assert!(d.compare(&x, &y).duplicate);
    // Only one-sentence documents are held to it: a flash against its story is not.
    let story = sketch(
        "story",
        "BANK OF FRANCE CUTS INTERVENTION RATE\n\nThe Bank of France cut its intervention rate \
         to 7-1/2 pct from 7-3/4 pct, the bank said. It left unchanged the rate on its \
         five-to-ten day repurchase facility, officials said.\n",
    );
    assert!(story.len() > 1);
    assert_ne!(
        d.compare(&left, &story).evidence.note(),
        Some("two headlines that each say what the other does not: two events?")
    );
}

#[test]
fn two_headlines_for_two_parties_are_not_one_story() {
    // Reuters-21578 items 6365 and 6366: one notice, two banks, the same figures.
    let barclays =
        "BARCLAYS BANK SAID ITS CUTTING BASE LENDING RATE TO 10 PCT PCT FROM 10.5 PCT.\n";
    let natwest = "NATIONAL WESTMINSTER BANK SAID IT CUTTING BASE RATE TO 10 PCT FROM 10.5 PCT.\n";
    let d = detector();
    let sketch = |id: &str, text: &str| d.sketch(&Document::new(id, text));
    let (a, b) = (sketch("6365", barclays), sketch("6366", natwest));
    assert_eq!((a.len(), b.len()), (1, 1));
    let c = d.compare(&a, &b);
    assert!(!c.duplicate, "{:?}", c.evidence);
    assert_eq!(
        c.evidence.note(),
        Some("two headlines that open on other words: one notice for two parties?")
    );
    assert!(!d.compare(&b, &a).duplicate);
    let off = RobustSlst::new(RobustConfig {
        flash_leads: false,
        flash_edits: 0,
        ..RobustConfig::default()
    })
    .unwrap();
    assert!(off.compare(&a, &b).duplicate);
    // The same bank's notice sent again, corrected, is still one story: the first word of one
    // is in the other.
    let corrected = sketch(
        "x",
        "CORRECTED - BARCLAYS BANK SAID IT IS CUTTING BASE LENDING RATE TO 10 PCT FROM 10.5 PCT.\n",
    );
    assert!(d.compare(&a, &corrected).duplicate);
    // An initial names no subject: `U S WEST` opens on WEST (items 20249 and 20463).
    let (x, y) = (
        sketch("a", "U S WEST <USW> 3RD QTR NET\n"),
        sketch("b", "US WEST INC <USW> 3RD QTR NET\n"),
    );
    assert_eq!(x.lead, Some(term_id("west")));
    assert!(d.compare(&x, &y).duplicate);
}

#[test]
fn headlines_that_name_other_subjects_are_not_one_story() {
    // Reuters-21578 items 690 and 700: one payout notice, two funds, named again in the NOTE.
    let notice = |fund_caps: &str, fund: &str| {
        format!(
            "FRANKLIN {fund_caps} TAX-FREE SETS PAYOUT\n\nMthly div 7.1 cts vs 7.1 cts prior\n    \
             Pay March 31\n    Record March 16\n    NOTE: Franklin {fund} Tax-Free Income Fund.\n \
             Reuter\n"
        )
    };
    let d = detector();
    let sketch = |id: &str, text: &str| d.sketch(&Document::new(id, text));
    let insured = sketch("690", &notice("INSURED", "Insured"));
    let puerto_rico = sketch("700", &notice("PUERTO RICO", "Puerto Rico"));
    assert!(insured.subject.contains(&term_id("insured")));
    assert!(
        !insured.subject.contains(&term_id("payout")),
        "not written as a name"
    );
    let c = d.compare(&insured, &puerto_rico);
    assert!(!c.duplicate, "{:?}", c.evidence);
    assert_eq!(
        c.evidence.note(),
        Some(
            "each headline names what the other document lacks: one notice for two parties or hours?"
        )
    );
    assert!(!d.compare(&puerto_rico, &insured).duplicate);
    let off = RobustSlst::new(RobustConfig {
        headline_subjects: false,
        ..RobustConfig::default()
    })
    .unwrap();
    assert!(off.compare(&insured, &puerto_rico).duplicate);
    // The same notice sent again with its headline reworded is one story: `REGULAR` is not a
    // name the other lacks, and the fund is the same.
    let again = sketch(
        "x",
        &notice("INSURED", "Insured").replace("SETS PAYOUT", "SETS REGULAR PAYOUT"),
    );
    assert!(d.compare(&insured, &again).duplicate);
    // A table of another hour: the headlines' figures differ (items 14011 and 14192).
    let table = |time: &str| {
        format!(
            "MIDWEST GRAIN FUTURES {time}   EDT\n\nMINNEAPOLIS WHEAT\n MAY7 284 3/4            UP  \
             1 1/4\n JUL7 280 1/4            OFF   1/2\n SEP7     277            UP      1\n"
        )
    };
    let (eleven, ten_to_noon) = (sketch("a", &table("11:00")), sketch("b", &table("11:50")));
    assert!(!d.compare(&eleven, &ten_to_noon).duplicate);
    assert!(d.compare(&eleven, &sketch("c", &table("11:00"))).duplicate);
}

#[test]
fn the_same_words_around_other_figures_are_a_template() {
    // After Reuters-21578 items 3315 and 15855: one estimate, two months, its words unchanged
    // and its figures moved on.
    let estimate = |yield_now: &str, before: &str, month: &str| {
        format!(
            "ORANGE JUICE YIELD ESTIMATE\n\nThe department projected an average yield of \
             {yield_now} gallons of concentrate per box from the 1986/87 crop.\n    That \
             compares with {before} gallons per box previously and 1.38 gallons per box from \
             the 1985/86 crop.\n    The board said the estimates rest on maturity tests as of \
             {month} 1.\n Reuter\n"
        )
    };
    let d = detector();
    let sketch = |id: &str, text: &str| d.sketch(&Document::new(id, text));
    let march = sketch("a", &estimate("1.47", "1.46", "March"));
    let april = sketch("b", &estimate("1.50", "1.47", "April"));
    // Two places filled with other figures: `yield … gallons`, `compares … gallons`.
    assert_eq!(super::comparison::swapped_figures(&march, &april), 2);
    let c = d.compare(&march, &april);
    assert!(!c.duplicate, "{:?}", c.evidence);
    assert_eq!(
        c.evidence.note(),
        Some("the same words around other figures: one template for another day?")
    );
    // A template: reported as one when templates are asked for, with the same reason.
    assert_eq!(c.template(), c.evidence.note());
    assert!(c.kept_by(PairRule::WithTemplates) && !c.kept_by(PairRule::Duplicates));
    assert!(!d.compare(&april, &march).duplicate);
    let off = RobustSlst::new(RobustConfig {
        figure_swaps: 0,
        ..RobustConfig::default()
    })
    .unwrap();
    assert!(off.compare(&march, &april).duplicate);
    // One figure corrected is still the same story, and so is the text sent again.
    let corrected = sketch("c", &estimate("1.47", "1.45", "March"));
    assert_eq!(super::comparison::swapped_figures(&march, &corrected), 1);
    assert!(d.compare(&march, &corrected).duplicate);
    assert!(
        d.compare(&march, &sketch("d", &estimate("1.47", "1.46", "March")))
            .duplicate
    );
    // A figure added where there was none is not a place filled twice.
    let added = sketch(
        "e",
        &estimate("1.47", "1.46", "March").replace("concentrate per", "concentrate 42.0 per"),
    );
    assert_eq!(super::comparison::swapped_figures(&march, &added), 0);
}

#[test]
fn a_story_cut_into_other_sentences_is_a_duplicate_on_its_words() {
    // The same story sent twice, the second time with the ticker in its headline and most of
    // its sentences merged otherwise: two sentences still match, too few for J ≥ θ, but the
    // two texts use the same words.
    let first = "NORTHERN MILLS RAISES QUARTERLY DIVIDEND\n\n\
        Northern Mills Corporation said its board raised the quarterly dividend to 24 cts a \
        share from 20 cts. The dividend is payable June 15 to holders of record May 29. \
        The company said earnings from flour and feed operations improved during the winter. \
        Sales of bakery mixes rose sharply in the southern region. Northern Mills expects \
        further gains as new capacity at its Kansas plant comes into service. \
        The expansion cost about 40 mln dlrs and was financed from internal funds. \
        Analysts said the increase reflects confidence in steady demand for milled products. \
        Reuter";
    let second = "NORTHERN MILLS <NML> RAISES QUARTERLY DIVIDEND\n\n\
        Northern Mills Corporation said its board raised the quarterly dividend to 24 cts a \
        share from 20 cts, payable June 15 to holders of record May 29, and said earnings \
        from flour and feed operations improved during the winter while sales of bakery \
        mixes rose sharply in the southern region. Northern Mills expects further gains as \
        new capacity at its Kansas plant comes into service, an expansion that cost about \
        40 mln dlrs and was financed from internal funds. Analysts said the increase \
        reflects confidence in steady demand for milled products. Reuter";
    let d = detector();
    let sketch = |id: &str, text: &str| d.sketch(&Document::new(id, text));
    let (a, b) = (sketch("a", first), sketch("b", second));
    let c = d.compare(&a, &b);
    let e = &c.evidence;
    assert!(c.duplicate, "{e:?}");
    assert!(e.by_words, "{e:?}");
    assert!(
        e.vocabulary >= 0.8 && c.similarity.resemblance < 0.5,
        "{e:?}"
    );
    assert!(!e.blocks.is_empty());
    assert!(d.compare(&b, &a).duplicate && d.compare(&b, &a).evidence.by_words);
    // Without the word rule the blocks alone decide, and they are too few.
    let off = RobustSlst::new(RobustConfig {
        vocabulary: 0.0,
        ..RobustConfig::default()
    })
    .unwrap();
    let sketch = |id: &str, text: &str| off.sketch(&Document::new(id, text));
    let c = off.compare(&sketch("a", first), &sketch("b", second));
    assert!(!c.duplicate && !c.evidence.by_words, "{:?}", c.evidence);
}

/// A prepared corpus holds its terms as 32-bit term ranks, and reads them as it read the ids:
/// every comparison, seed, word-rule test, stored form and term list of the ranked profiles is
/// the unranked ones', and a ranked profile compares with an unranked one (or one of another
/// corpus) as the two unranked profiles do. The corpus mixes edited Bible verses (blocks, single
/// blocks, an over-long verse cut into windows) with news flashes and notices (figures, leads,
/// headline subjects), so that every part of the decision reads terms.
#[test]
fn ranked_terms_decide_as_the_ids_they_stand_for() {
    let kjv = include_str!("../../../corpora/bible/kjv-1mb.txt");
    let wbt = include_str!("../../../corpora/bible/wbt-1mb.txt");
    let mut texts: Vec<String> = Vec::new();
    for (start, len) in [(0, 3_000), (1_000, 2_500), (20_000, 1_500)] {
        texts.push(kjv[start..start + len].to_string());
        texts.push(wbt[start..start + len].to_string());
    }
    // One over-long sentence (windows), once as is and once with a word changed.
    let long = kjv[5_000..6_500].replace(['.', ';', ':', '?', '!'], ",");
    texts.push(long.clone());
    texts.push(long.replacen(" the ", " a ", 3));
    for text in [
        "BANK OF MONTREAL CUTS PRIME RATE\nBank of Montreal said it cut its prime rate to 9.75 pct \
         from 10 pct, effective tomorrow. The move follows cuts by other Canadian banks.",
        "BANK OF MONTREAL CUTS PRIME RATE\nBank of Montreal said it cut its prime rate to 9.75 pct \
         from 10 pct, effective Tuesday. The move follows cuts by the other Canadian banks.",
        "BANK OF NOVA SCOTIA CUTS PRIME RATE\nBank of Nova Scotia said it cut its prime rate to \
         9.75 pct from 10 pct, effective tomorrow. The move follows cuts by other Canadian banks.",
        "U.S. T-BILL AVERAGES 5.51 PCT\nThe average yield on three-month Treasury bills was 5.51 \
         pct, the Treasury said. Six-month bills averaged 5.62 pct at the auction.",
        "U.S. T-BILL AVERAGES 5.72 PCT\nThe average yield on three-month Treasury bills was 5.72 \
         pct, the Treasury said. Six-month bills averaged 5.80 pct at the auction.",
        "GENCORP SETS QUARTERLY DIVIDEND",
        "GENCORP SETS QUARTERLY DIVIDEND OF 25 CTS",
        // Two flashes that open on other names (the lead check refuses them) ...
        "MONTREAL TRUST CUTS PRIME RATE",
        "ROYAL TRUST CUTS PRIME RATE",
        // ... and two notices whose headlines name other funds (the subject check).
        "FRANKLIN FUND SETS MONTHLY PAYOUT\n\nThe Franklin fund said it set a monthly \
         dividend payout of five cts a share. It is payable June one to holders of record May 15.",
        "TEMPLETON FUND SETS MONTHLY PAYOUT\n\nThe Templeton fund said it set a monthly \
         dividend payout of five cts a share. It is payable June one to holders of record May 15.",
    ] {
        texts.push(text.to_string());
    }
    let d = detector();
    let docs: Vec<Document> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| Document::new(format!("d{i}"), t))
        .collect();
    let plain: Vec<RobustProfile> = docs.iter().map(|doc| d.sketch(doc)).collect();
    let mut ranked = plain.clone();
    d.prepare_corpus(&mut ranked);
    // And a corpus of its own for the first two, whose ranks differ.
    let mut other = vec![plain[1].clone(), plain[0].clone()];
    d.prepare_corpus(&mut other);
    let (mut reported, mut seeded) = (0, 0);
    for (i, (x, px)) in ranked.iter().zip(&plain).enumerate() {
        assert!(matches!(x.terms, TermList::Ranks(_)), "d{i} holds ranks");
        assert_eq!(x.vocabulary(), px.vocabulary());
        for s in x.sentences.iter().chain(&x.windows) {
            assert_eq!(x.terms(s), px.terms(s));
        }
        assert_eq!(
            serde_json::to_string(x).unwrap(),
            serde_json::to_string(px).unwrap()
        );
        for (j, (y, py)) in ranked.iter().zip(&plain).enumerate() {
            let expected = d.compare(px, py);
            assert_eq!(d.compare(x, y), expected, "d{i} d{j}");
            assert_eq!(d.compare(x, py), expected, "d{i} d{j} ranked against ids");
            assert_eq!(d.compare(px, y), expected, "d{i} d{j} ids against ranked");
            let seeds = d.seeds(px, py, &expected);
            assert_eq!(d.seeds(x, y, &expected), seeds, "d{i} d{j}");
            assert_eq!(d.may_match_words(x, y), d.may_match_words(px, py));
            reported += usize::from(i < j && expected.duplicate);
            seeded += usize::from(seeds.is_some_and(|s| !s.is_empty()));
        }
    }
    // The corpus is not trivial: some pairs are reported, and some blocks seed passages.
    assert!(reported >= 4, "{reported} pairs reported");
    assert!(seeded >= 10, "{seeded} pairs with seeds");
    for (x, px) in other.iter().zip([&plain[1], &plain[0]]) {
        for (y, py) in ranked.iter().zip(&plain) {
            assert_eq!(d.compare(x, y), d.compare(px, py), "two corpora");
        }
    }
}

/// Under the anchor rule, a ranked corpus's views read each sentence's anchors from the
/// profile's term ranks instead of keeping a copy ([`super::keys::KeyRanks`]): every slot,
/// bound and candidate pair is the one the copy gives, only the keys' values differ (they hash
/// term ranks instead of places among the ids), and they tie the same slots together.
#[test]
fn anchors_read_from_term_ranks_join_as_their_own_copy() {
    use super::keys::KeyRanks;
    let kjv = include_str!("../../../corpora/bible/kjv-1mb.txt");
    let wbt = include_str!("../../../corpora/bible/wbt-1mb.txt");
    let mut texts: Vec<String> = Vec::new();
    for (start, len) in [(0, 4_000), (2_000, 3_000), (30_000, 2_000), (31_000, 2_500)] {
        texts.push(kjv[start..start + len].to_string());
        texts.push(wbt[start..start + len].to_string());
    }
    texts.push(kjv[60_000..63_000].replace(" the ", " a "));
    texts.push(wbt[60_500..63_500].to_string());
    // Every pair of anchors: sampled keys hash the terms' values, which the two forms number
    // differently (each picks consistently within its own corpus).
    let d = RobustSlst::new(RobustConfig {
        pair_keys: 0,
        ..RobustConfig::default()
    })
    .unwrap();
    let plain: Vec<RobustProfile> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| d.sketch(&Document::new(format!("d{i}"), t)))
        .collect();
    let (mut own, mut read) = (plain.clone(), plain);
    d.rank_corpus_as(&mut own, false);
    d.rank_corpus_as(&mut read, true);
    fn view(p: &RobustProfile) -> &KeyRanks {
        &p.corpus.as_deref().unwrap().ranks
    }
    assert!(own.iter().all(|p| matches!(view(p), KeyRanks::Own { .. })));
    assert!(
        read.iter()
            .all(|p| matches!(view(p), KeyRanks::Terms { .. }))
    );
    // Slots: the same codes in the same order, and a key shared by the same slots.
    let ties = |docs: &[RobustProfile]| {
        let mut by_key: std::collections::HashMap<u64, Vec<(usize, usize)>> = Default::default();
        let mut codes = Vec::new();
        for (x, p) in docs.iter().enumerate() {
            let slots = p.corpus.as_deref().unwrap().slots(&d, p);
            codes.push(slots.iter().map(|s| s.code).collect::<Vec<_>>());
            for (k, s) in slots.iter().enumerate() {
                by_key.entry(s.key).or_default().push((x, k));
            }
        }
        let mut groups: Vec<Vec<(usize, usize)>> = by_key.into_values().collect();
        groups.sort_unstable();
        (codes, groups)
    };
    let (own_ties, read_ties) = (ties(&own), ties(&read));
    assert_eq!(own_ties, read_ties);
    assert!(
        own_ties
            .1
            .iter()
            .any(|g| g.iter().any(|&(x, _)| x != g[0].0))
    );
    let mut bounded = 0;
    for (x, (a, pa)) in read.iter().zip(&own).enumerate() {
        for (b, pb) in read.iter().zip(&own).skip(x + 1) {
            let bound = d.max_matched(pa, pb);
            assert_eq!(d.max_matched(a, b), bound, "d{x}");
            bounded += usize::from(bound.is_some_and(|m| m > 0));
        }
    }
    assert!(bounded >= 5, "{bounded} pairs with a bound above 0");
    let candidates = |docs: &[RobustProfile]| {
        let refs: Vec<&RobustProfile> = docs.iter().collect();
        d.corpus_candidates(&refs, PairRule::Duplicates, 1000)
    };
    let found = candidates(&own);
    assert!(found.as_ref().is_some_and(|c| c.pairs.len() >= 4));
    assert_eq!(candidates(&read), found);
}

#[test]
fn document_frequencies_count_each_document_once_across_batches() {
    use super::keys::{DF_BATCH, document_frequencies};
    // More than two batches of documents, each a few verses of Genesis (some repeated within
    // it, which a document frequency counts once) after one they all hold, so that terms are
    // shared within and across batches.
    let kjv = include_str!("../../../corpora/bible/kjv-1mb.txt");
    let verses: Vec<&str> = kjv.lines().filter(|l| l.len() > 40).take(400).collect();
    let d = detector();
    let profiles: Vec<RobustProfile> = (0..2 * DF_BATCH + 37)
        .map(|i| {
            let (x, y) = (verses[i % verses.len()], verses[(i * 7 + 3) % verses.len()]);
            d.sketch(&Document::new(
                format!("d{i}"),
                format!("{} {x} {y} {x}", verses[0]),
            ))
        })
        .collect();
    let mut expected: std::collections::BTreeMap<u64, u32> = Default::default();
    for p in &profiles {
        for t in p.vocabulary() {
            *expected.entry(t).or_default() += 1;
        }
    }
    let expected: Vec<(u32, u64)> = expected.into_iter().map(|(t, df)| (df, t)).collect();
    assert!(expected.iter().any(|&(df, _)| df as usize > DF_BATCH));
    assert_eq!(document_frequencies(&profiles), expected);
}
