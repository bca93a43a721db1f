//! Tests of how a text is cut into units (sentences, clauses, windows) and of figures.

use super::*;

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
    // Two billion, and 6-1/8 (one value, 6.125).
    assert_eq!(two.figures.len(), 2);
    let c = d.compare(&two, &one);
    assert_eq!(c.similarity.resemblance, 1.0);
    assert_eq!(c.evidence.figure_containment, 0.5);
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
fn a_figure_written_another_way_is_the_same_figure() {
    // Reuters-21578 style: the same story with its figures written two ways.
    let d = detector();
    let story = |amount: &str, rate: &str| {
        Document::new(
            amount,
            format!(
                "BANK RAISES LENDING\n\nThe bank said it lent {amount} dlrs to the company last \
                 month at {rate}, against a year earlier. The company said the loan would fund \
                 its new plant, which opens next year."
            ),
        )
    };
    let a = d.sketch(&story("1.5 mln", "6-1/4 pct"));
    for (amount, rate) in [("1,500,000", "6.25 pct"), ("1.5 million", "6-1/4 percent")] {
        let b = d.sketch(&story(amount, rate));
        assert_eq!(a.figures, b.figures, "{amount} {rate}");
        let c = d.compare(&a, &b);
        assert_eq!(c.evidence.figure_containment, 1.0, "{amount} {rate}");
        assert!(c.duplicate, "{amount} {rate}: {:?}", c.evidence);
    }
    // Another amount is another figure.
    let c = d.compare(&a, &d.sketch(&story("2.5 mln", "6-1/4 pct")));
    assert!(c.evidence.figure_containment < 1.0);
}
