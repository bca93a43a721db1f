use super::*;

/// The terms of `text`, figures as `<key>` (a figure in digits) or `<key:w>` (in words); each
/// word other than a number's part is the text it stands for.
fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut figures = Figures::default();
    let mut take = |r: Range<usize>, t: &Term| {
        out.push(match t {
            Term::Word(w) => {
                if *w != PART {
                    assert_eq!(&text[r].to_lowercase(), w);
                }
                w.to_string()
            }
            Term::Figure { key, digits: true } => format!("<{key}>"),
            Term::Figure { key, digits: false } => format!("<{key}:w>"),
        });
    };
    crate::text::for_each_word_span(text, |r, w| figures.push(text, r, w, &mut take));
    figures.finish(&mut take);
    out
}

/// A unit has one term per word, whatever it reads as numbers.
fn words(text: &str) -> usize {
    let mut n = 0;
    crate::text::for_each_word(text, |_| n += 1);
    n
}

#[test]
fn thousands_separators_and_decimals_are_one_value() {
    assert_eq!(terms("1,000 tonnes"), ["<1000>", "tonnes"]);
    assert_eq!(terms("1000 tonnes"), ["<1000>", "tonnes"]);
    assert_eq!(terms("1,234,567.50 dlrs"), ["<1234567.5>", "dlrs"]);
    assert_eq!(terms("rate 07.50"), ["rate", "<7.5>"]);
    // Not a thousands separator: the word is kept as written.
    assert_eq!(terms("1,00 x"), ["1,00", "x"]);
}

#[test]
fn scale_words_are_read_into_the_number() {
    assert_eq!(terms("1.5 mln dlrs"), ["<1500000>", "mln", "dlrs"]);
    assert_eq!(terms("1.5 million dlrs"), ["<1500000>", "million", "dlrs"]);
    assert_eq!(terms("1,500,000 dlrs"), ["<1500000>", "dlrs"]);
    // Hyphenated, as in `a 40-mln-dlr purchase`.
    assert_eq!(
        terms("a 40-mln-dlr purchase"),
        ["a", "<40000000>", "mln", "dlr", "purchase"]
    );
    assert_eq!(terms("a 5-pct rise"), ["a", "<5%>", "pct", "rise"]);
    assert_eq!(
        terms("2 bn yen, 2 billion yen, 2 bln yen")[0],
        "<2000000000>"
    );
    assert_eq!(
        terms("two hundred thousand"),
        ["<200000:w>", "hundred", "thousand"]
    );
    assert_eq!(terms("3 trillion")[0], "<3000000000000>");
    // A scaled decimal is its value to the digits a double holds: 32.94 × 10⁹ is not exact.
    for (scaled, written) in [
        ("32.94 billion", "32,940,000,000"),
        ("33.42 billion", "33,420,000,000"),
        ("1.07 trillion", "1,070,000,000,000"),
        ("0.7 mln", "700,000"),
    ] {
        assert_eq!(terms(scaled)[0], terms(written)[0], "{scaled}");
    }
    // A scale word with no number before it is a word; a scaled number takes no second scale.
    assert_eq!(terms("million dlrs"), ["million", "dlrs"]);
    assert_eq!(terms("5 mln bn"), ["<5000000>", "mln", "bn"]);
}

#[test]
fn fractions_are_read_into_the_whole_number() {
    assert_eq!(
        terms("yield 6-1/4 pct"),
        ["yield", "<6.25%>", PART, PART, "pct"]
    );
    assert_eq!(
        terms("yield 6 1/4 pct"),
        ["yield", "<6.25%>", PART, PART, "pct"]
    );
    assert_eq!(terms("yield 6.25 pct"), ["yield", "<6.25%>", "pct"]);
    assert_eq!(
        terms("up 3/8 at 101"),
        ["up", "<0.375>", PART, "at", "<101>"]
    );
    assert_eq!(terms("at 101-3/8"), ["at", "<101.375>", PART, PART]);
    // Not a quoted fraction: a date, a year before a fraction, a ratio over one.
    assert_eq!(terms("on 3/12 x"), ["on", "<3>", "<12>", "x"]);
    assert_eq!(
        terms("in 1986 3/4 of"),
        ["in", "<1986>", "<0.75>", PART, "of"]
    );
    assert_eq!(terms("ratio 5/4"), ["ratio", "<5>", "<4>"]);
    // Two numbers that are not a fraction are two figures.
    assert_eq!(
        terms("from 1986 to 1987"),
        ["from", "<1986>", "to", "<1987>"]
    );
    assert_eq!(terms("in 1986 3 firms"), ["in", "<1986>", "<3>", "firms"]);
}

#[test]
fn percent_signs_and_words_are_one_percentage() {
    for text in ["5 pct", "5%", "5 %", "5 percent", "five percent"] {
        let t = terms(text);
        assert!(t[0].starts_with("<5%"), "{text}: {t:?}");
        assert_eq!(t.len(), words(text), "{text}: {t:?}");
    }
    // A percentage differs from the number.
    assert_ne!(terms("5 pct")[0], terms("5 dlrs")[0]);
}

#[test]
fn number_words_up_to_ninety_nine_are_values() {
    assert_eq!(terms("twenty-five ships"), ["<25:w>", PART, "ships"]);
    assert_eq!(terms("twenty five ships"), ["<25:w>", PART, "ships"]);
    assert_eq!(terms("seven ships"), ["<7:w>", "ships"]);
    assert_eq!(terms("zero"), ["<0:w>"]);
    // A unit word joins tens, not another unit or a number in digits.
    assert_eq!(terms("five six"), ["<5:w>", "<6:w>"]);
    assert_eq!(terms("20 five"), ["<20>", "<5:w>"]);
}

#[test]
fn words_with_digits_that_are_no_number_stay_as_written() {
    assert_eq!(
        terms("the 3rd a320 1987-88"),
        ["the", "3rd", "a320", "<1987>", "<88>"]
    );
    assert_eq!(parse("3rd"), None);
    assert_eq!(parse("a320"), None);
    assert_eq!(parse("."), None);
    assert_eq!(parse(".5"), Some(0.5));
}

#[test]
fn a_unit_keeps_one_term_per_word() {
    let text = "The Fed bought 1.5 mln dlrs at 6-1/4 pct, twenty-five banks and 1,000 firms said \
                on 3/12 in 1986-87.";
    assert_eq!(terms(text).len(), words(text));
}

#[test]
fn keys_are_rounded_and_have_no_exponent() {
    assert_eq!(key(1e12, false), "1000000000000");
    assert_eq!(key(0.1 + 0.2, false), "0.3");
    assert_eq!(key(2.0 / 3.0, true), "0.666667%");
    assert_eq!(key(1e20, false), "100000000000000000000");
}

/// The value of a word in digits as `parse` first computed it: the digits without separators,
/// `.`, the fraction and `0`, in a `String`.
fn parse_by_format(word: &str) -> Option<f64> {
    let (int, frac) = word.split_once('.').unwrap_or((word, ""));
    let digits: String = int.chars().filter(|&c| c != ',').collect();
    format!("{digits}.{frac}0").parse().ok()
}

#[test]
fn numbers_in_digits_parse_as_the_decimal_they_write() {
    let long = "9".repeat(70);
    let long_fraction = format!("0.{}1", "3".repeat(80));
    let grouped = format!("1{}", ",000".repeat(20));
    let words = [
        "0",
        "7",
        "1000",
        "1,000",
        "1,234,567.50",
        "07.50",
        ".5",
        "2.",
        "3.14159265358979323846",
        "123456789012345678",
        "9007199254740993",
        "0.1",
        "1e5",
    ];
    for word in words
        .iter()
        .copied()
        .chain([&*long, &*long_fraction, &*grouped])
    {
        let Some(value) = parse(word) else {
            assert_eq!(word, "1e5", "only `1e5` is no number here");
            continue;
        };
        assert_eq!(Some(value), parse_by_format(word), "{word}");
    }
    assert_eq!(parse(&long), Some(1e70));
}
