//! Tests of the decision on a pair: templates, notices, flashes, headlines, the weighted
//! resemblance and pairs judged on their words.

use super::*;

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
    assert_eq!(super::super::comparison::flash_edits::<u64>(&left, &cut), 2);
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
    assert_eq!(super::super::comparison::flash_edits::<u64>(&x, &y), 1);
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
    assert_eq!(super::super::comparison::swapped_figures(&march, &april), 2);
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
    assert_eq!(
        super::super::comparison::swapped_figures(&march, &corrected),
        1
    );
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
    assert_eq!(super::super::comparison::swapped_figures(&march, &added), 0);
}

#[test]
fn a_fraction_written_as_a_decimal_is_the_same_figure_in_its_place() {
    // After Reuters-21578 item 481, with its price changes written as decimals: the fraction's
    // parts are not words around the figures, so no place holds other figures.
    let prices = |a: &str, b: &str, c: &str| {
        format!(
            "PAPER STOCKS RISE\n\nTemple Inland jumped {a} to 73 and International Paper \
             rose {b} to {c} in active trading.\n    Traders said paper makers gained on \
             higher prices for containerboard this month.\n Reuter\n"
        )
    };
    let d = detector();
    let sketch = |id: &str, text: &str| d.sketch(&Document::new(id, text));
    let fractions = sketch("a", &prices("2-7/8", "1-1/4", "91-1/4"));
    let decimals = sketch("b", &prices("2.875", "1.25", "91-1/4"));
    assert_eq!(
        super::super::comparison::swapped_figures(&fractions, &decimals),
        0
    );
    assert!(d.compare(&fractions, &decimals).duplicate);
    // Other prices in the same places are still a template.
    let other_day = sketch("c", &prices("1-1/8", "3-1/2", "95-1/4"));
    assert_eq!(
        super::super::comparison::swapped_figures(&fractions, &other_day),
        2
    );
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
