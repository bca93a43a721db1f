//! The `figures` kind: a figure written in another of the forms a reader takes for the same
//! number, as a copy edited to another house style writes it.
//!
//! | written | rewritten |
//! |---|---|
//! | `5 pct`, `5 percent` | `5%` |
//! | `5%` | `5 pct` |
//! | `1.5 mln`, `2 billion` | `1,500,000`, `2,000,000,000` |
//! | `6-1/4` | `6.25` |
//! | `1,000`, `12,345.6` | `1000`, `12345.6` |
//! | `25000` | `25,000` |
//! | `5`, `21` (1 to 99) | `five`, `twenty-one` |
//! | `five`, `Twenty-one` | `5`, `21` |
//!
//! Years and other numbers of four digits without a separator are left alone (`1987` is not
//! written `1,987`), and so is `one`, more often a pronoun than a number. A word touching a
//! sentence-ending mark is never rewritten, as in every kind that edits inside a sentence.
//! Rewriting is done here, on the text, without [`crate::text::figures`]: the kind tests that
//! reading.

use super::rng::SeededRng;

/// One figure rewritten: its words before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Rewritten {
    /// The figure's words as the original writes them.
    pub(super) before: String,
    /// As the variant writes them.
    pub(super) after: String,
}

/// Which of a sentence's figures [`rewrite`] rewrites.
#[derive(Debug, Clone, Copy)]
pub(super) enum Choice {
    /// Each with this probability.
    Each(f64),
    /// Only the figure of this place among the sentence's figures that have another form.
    Only(usize),
}

/// A sentence's words, each with the white space after it.
struct Words<'a> {
    prefix: &'a str,
    words: Vec<(&'a str, &'a str)>,
}

impl<'a> Words<'a> {
    fn new(text: &'a str) -> Self {
        let start = text.len() - text.trim_start().len();
        let mut words = Vec::new();
        let mut rest = &text[start..];
        while !rest.is_empty() {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let gap_end = rest[end..]
                .find(|c: char| !c.is_whitespace())
                .map_or(rest.len(), |g| end + g);
            words.push((&rest[..end], &rest[end..gap_end]));
            rest = &rest[gap_end..];
        }
        Words {
            prefix: &text[..start],
            words,
        }
    }
}

/// A word split into what leads it, its core and what trails it: `(5,` is `(`, `5`, `,`.
fn parts(word: &str) -> (&str, &str, &str) {
    let lead = word.len() - word.trim_start_matches(['(', '"', '\'']).len();
    let core_end = word
        .trim_end_matches([',', ';', ':', ')', '"', '\''])
        .len()
        .max(lead);
    (&word[..lead], &word[lead..core_end], &word[core_end..])
}

/// Whether a word touches a sentence-ending mark.
fn ends_sentence(word: &str) -> bool {
    word.ends_with(['.', '!', '?'])
}

/// Digits, then optionally a point and digits: `12`, `1.5`.
fn is_decimal(s: &str) -> bool {
    let (int, frac) = s.split_once('.').unwrap_or((s, "0"));
    !int.is_empty()
        && !frac.is_empty()
        && int.bytes().all(|c| c.is_ascii_digit())
        && frac.bytes().all(|c| c.is_ascii_digit())
}

/// The integer part of a decimal with a comma every three digits.
fn with_commas(s: &str) -> String {
    let (int, frac) = s.split_once('.').map_or((s, None), |(i, f)| (i, Some(f)));
    let mut out = String::with_capacity(int.len() + int.len() / 3 + 8);
    for (k, c) in int.chars().enumerate() {
        if k > 0 && (int.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(frac) = frac {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// `1,000` or `12,345.6`: groups of three digits after the first one to three.
fn has_commas(s: &str) -> bool {
    let int = s.split_once('.').map_or(s, |(i, f)| {
        if f.is_empty() || !f.bytes().all(|c| c.is_ascii_digit()) {
            ""
        } else {
            i
        }
    });
    let mut groups = int.split(',');
    let first_ok = groups
        .next()
        .is_some_and(|g| (1..=3).contains(&g.len()) && g.bytes().all(|c| c.is_ascii_digit()));
    let rest: Vec<&str> = groups.collect();
    first_ok
        && !rest.is_empty()
        && rest
            .iter()
            .all(|g| g.len() == 3 && g.bytes().all(|c| c.is_ascii_digit()))
}

/// `number` (a decimal) times 10^`zeros`, as a whole number, if it is one.
fn scaled(number: &str, zeros: usize) -> Option<String> {
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    if frac.len() > zeros {
        return None;
    }
    let mut digits = format!("{int}{frac}{}", "0".repeat(zeros - frac.len()));
    while digits.len() > 1 && digits.starts_with('0') {
        digits.remove(0);
    }
    Some(digits)
}

/// `6-1/4` as `6.25`: a fraction of a denominator prices are quoted in, below one.
fn fraction(s: &str) -> Option<String> {
    let (whole, rest) = s.split_once('-')?;
    let (num, den) = rest.split_once('/')?;
    let all_digits = |x: &str| !x.is_empty() && x.bytes().all(|c| c.is_ascii_digit());
    if !(all_digits(whole) && all_digits(num) && all_digits(den)) || whole.len() > 6 {
        return None;
    }
    let (w, n, d): (u64, u64, u64) = (whole.parse().ok()?, num.parse().ok()?, den.parse().ok()?);
    if ![2, 4, 8, 16, 32, 64].contains(&d) || n == 0 || n >= d {
        return None;
    }
    // Exact: 1/64 is 0.015625, six decimal places.
    let millionths = w * 1_000_000 + n * 1_000_000 / d;
    let text = format!("{}.{:06}", millionths / 1_000_000, millionths % 1_000_000);
    Some(text.trim_end_matches('0').to_string())
}

const ONES: [&str; 20] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
];
const TENS: [&str; 10] = [
    "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
];

/// 1 to 99 in words: `five`, `twenty-one`.
fn in_words(n: usize) -> String {
    match n {
        0..=19 => ONES[n].to_string(),
        _ if n.is_multiple_of(10) => TENS[n / 10].to_string(),
        _ => format!("{}-{}", TENS[n / 10], ONES[n % 10]),
    }
}

/// The number a word writes out, 2 to 99 (`one` is left alone: more often a pronoun).
fn from_words(word: &str) -> Option<usize> {
    let w = word.to_ascii_lowercase();
    let (tens, ones) = w.split_once('-').unwrap_or((&w, ""));
    let value = |x: &str, table: &[&str]| table.iter().position(|t| !t.is_empty() && *t == x);
    let n = match (value(tens, &ONES), value(tens, &TENS)) {
        (Some(n), None) if ones.is_empty() => n,
        (None, Some(t)) if ones.is_empty() => 10 * t,
        (None, Some(t)) => 10 * t + value(ones, &ONES).filter(|&o| (1..10).contains(&o))?,
        _ => return None,
    };
    (n >= 2).then_some(n)
}

/// Whether a word makes a percent of the number before it.
fn is_percent_word(w: &str) -> bool {
    matches!(w.to_ascii_lowercase().as_str(), "pct" | "percent")
}

/// The power of ten a scale word multiplies the number before it by.
fn scale_zeros(w: &str) -> Option<usize> {
    match w.to_ascii_lowercase().as_str() {
        "mln" | "million" => Some(6),
        "billion" | "bln" => Some(9),
        _ => None,
    }
}

/// Another form of the figure that starts at word `i` of `words`: the new core and whether it
/// took the next word in (a percent or scale word).
fn another_form(words: &[(&str, &str)], i: usize) -> Option<(String, bool)> {
    let (word, _) = words[i];
    if ends_sentence(word) {
        return None;
    }
    let (_, core, tail) = parts(word);
    // The next word, when nothing stands between them.
    let next = words
        .get(i + 1)
        .filter(|(w, _)| tail.is_empty() && !ends_sentence(w))
        .map(|(w, _)| parts(w))
        .filter(|(lead, _, _)| lead.is_empty())
        .map(|(_, core, _)| core);
    if is_decimal(core) {
        if let Some(next) = next {
            if is_percent_word(next) {
                return Some((format!("{core}%"), true));
            }
            if let Some(zeros) = scale_zeros(next) {
                return scaled(core, zeros).map(|n| (with_commas(&n), true));
            }
        }
        let int = core.split('.').next().unwrap_or(core);
        if int.len() >= 5 {
            return Some((with_commas(core), false));
        }
        let small = core.parse::<usize>().ok().filter(|n| (1..=99).contains(n));
        let before_unit = next.is_some_and(|w| w.starts_with('%'));
        if let Some(n) = small.filter(|_| !before_unit && !core.starts_with('0')) {
            let words = in_words(n);
            return Some((capitalised(words, i == 0), false));
        }
        return None;
    }
    if has_commas(core) {
        return Some((core.replace(',', ""), false));
    }
    if let Some(number) = core.strip_suffix('%').filter(|n| is_decimal(n)) {
        return Some((format!("{number} pct"), false));
    }
    if let Some(decimal) = fraction(core) {
        return Some((decimal, false));
    }
    from_words(core).map(|n| (n.to_string(), false))
}

/// `word` with a capital first letter when `first` (the sentence's first word).
fn capitalised(word: String, first: bool) -> String {
    if !first {
        return word;
    }
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `text` (one sentence) with its figures that have another form rewritten as `choice` says;
/// the figures rewritten, and how many have another form.
pub(super) fn rewrite(
    text: &str,
    choice: Choice,
    rng: &mut SeededRng,
) -> (String, Vec<Rewritten>, usize) {
    let Words { prefix, words } = Words::new(text);
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(prefix);
    let (mut done, mut candidates) = (Vec::new(), 0);
    let mut i = 0;
    while i < words.len() {
        let (word, gap) = words[i];
        let Some((core, took_next)) = another_form(&words, i) else {
            out.push_str(word);
            out.push_str(gap);
            i += 1;
            continue;
        };
        let take = match choice {
            Choice::Each(p) => rng.chance(p),
            Choice::Only(k) => k == candidates,
        };
        candidates += 1;
        let last = if took_next { i + 1 } else { i };
        if !take {
            for (w, g) in &words[i..=last] {
                out.push_str(w);
                out.push_str(g);
            }
            i = last + 1;
            continue;
        }
        let (lead, _, _) = parts(word);
        let (_, _, tail) = parts(words[last].0);
        let after = format!("{lead}{core}{tail}");
        let mut before = String::new();
        for (k, (w, g)) in words[i..=last].iter().enumerate() {
            before.push_str(w);
            if k + i < last {
                before.push_str(g);
            }
        }
        out.push_str(&after);
        out.push_str(words[last].1);
        done.push(Rewritten { before, after });
        i = last + 1;
    }
    (out, done, candidates)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str) -> String {
        rewrite(text, Choice::Each(1.0), &mut SeededRng::new(1, 1)).0
    }

    #[test]
    fn each_form_is_written_another_way() {
        assert_eq!(
            all("Profit rose 5 pct on the year"),
            "Profit rose 5% on the year"
        );
        assert_eq!(
            all("Profit rose 5.5 percent, it said"),
            "Profit rose 5.5%, it said"
        );
        assert_eq!(
            all("Profit rose 5% on the year"),
            "Profit rose 5 pct on the year"
        );
        assert_eq!(all("a loss of 1.5 mln dlrs"), "a loss of 1,500,000 dlrs");
        assert_eq!(
            all("a loss of 2 billion dlrs"),
            "a loss of 2,000,000,000 dlrs"
        );
        assert_eq!(all("bonds at 6-1/4 and"), "bonds at 6.25 and");
        assert_eq!(all("bonds at 101-1/64 and"), "bonds at 101.015625 and");
        assert_eq!(all("sold 1,000 tonnes and"), "sold 1000 tonnes and");
        assert_eq!(all("sold 12,345.6 tonnes and"), "sold 12345.6 tonnes and");
        assert_eq!(all("sold 25000 tonnes and"), "sold 25,000 tonnes and");
        assert_eq!(
            all("sold 5 ships and 21 barges in"),
            "sold five ships and twenty-one barges in"
        );
        assert_eq!(
            all("Five ships and twenty-one barges in"),
            "5 ships and 21 barges in"
        );
        assert_eq!(all("7 ships sailed in"), "Seven ships sailed in");
        assert_eq!(all("(40 pct) of it"), "(40%) of it");
    }

    #[test]
    fn years_pronouns_codes_and_other_fractions_are_left_alone() {
        for text in [
            "In 1987 one of them said",
            "the A320 and 3rd quarter and 05 code and $5 fee",
            "a 6-1/3 split and 7-5/4 and",
        ] {
            assert_eq!(all(text), text);
        }
    }

    #[test]
    fn a_word_touching_the_end_is_not_taken_in() {
        // `pct.` ends the sentence: the number stays apart from it, and is written out.
        assert_eq!(all("it rose 5 pct."), "it rose five pct.");
        assert_eq!(all("it sold 1,000."), "it sold 1,000.");
        assert_eq!(all("sold 1.234 mln shares"), "sold 1,234,000 shares");
    }

    #[test]
    fn only_one_figure_is_rewritten_when_asked() {
        let text = "sold 5 ships for 1,000 dlrs";
        let (out, done, n) = rewrite(text, Choice::Only(1), &mut SeededRng::new(1, 1));
        assert_eq!(
            (out.as_str(), done.len(), n),
            ("sold 5 ships for 1000 dlrs", 1, 2)
        );
        assert_eq!(
            done[0],
            Rewritten {
                before: "1,000".into(),
                after: "1000".into()
            }
        );
        let (out, _, _) = rewrite(text, Choice::Each(0.0), &mut SeededRng::new(1, 1));
        assert_eq!(out, text);
    }

    #[test]
    fn white_space_is_kept() {
        assert_eq!(all("  sold\t5  ships\n"), "  sold\tfive  ships\n");
    }
}
