//! Figures as values: the words of a text that write one number, read as that number, so that a
//! figure written another way is the same figure.
//!
//! [`Figures`] takes a unit's words one at a time, in order, and gives back one *term* for each:
//! the word as it is, except that the first word of a number comes out as the number, named by
//! its value in a canonical decimal form (its *key*), and the number's other words as words
//! that are no figure — a scale or percent word as itself, a fraction's parts and a unit after
//! tens written out as [`PART`]. A unit keeps as many terms as it has words, so its length is
//! the same as without this reading, and only the figure differs:
//!
//! | written | terms |
//! |---|---|
//! | `1,000`, `1000` | `<1000>` |
//! | `1.5 mln`, `1.5 million` | `<1500000>` `mln`/`million` |
//! | `1,500,000` | `<1500000>` |
//! | `6-1/4`, `6 1/4` | `<6.25>` `⁄` `⁄` |
//! | `6.25` | `<6.25>` |
//! | `5%` | `<5%>` |
//! | `5 pct`, `5 percent`, `five percent` | `<5%>` `pct`/`percent` |
//! | `twenty-five`, `twenty five` | `<25>` `⁄` |
//!
//! Scale words (`hundred`, `thousand`, `million`/`mln`, `billion`/`bn`/`bln`,
//! `trillion`/`trn`) and percent words (`pct`, `percent`) right after a number are read into it;
//! a fraction is read into the whole number before it (`6-1/4`; `6 1/4` under a thousand) when
//! its denominator is one a price or a rate is quoted in (2, 3, 4, 8, 16, 32, 64) and it is less
//! than one. A word with a digit that is not a number (`3rd`, `a320`) is a term as it is.
//! Numbers are values to 6 decimal places (a key has no trailing zeros); a number word is a
//! cardinal from zero to ninety-nine.

use std::ops::Range;

/// The term that stands for a word of a number that adds to its value and is not a word of its
/// own: a fraction's numerator and denominator, a unit after tens (`twenty-five`). The fraction
/// slash, which no word of a text is.
pub const PART: &str = "\u{2044}";

/// A unit's term, as [`Figures`] gives it.
#[derive(Debug, Clone, PartialEq)]
pub enum Term<'a> {
    /// A word as it was given, or a word of a number (a scale or percent word, [`PART`]);
    /// never a word that [`parse`] reads as a number.
    Word(&'a str),
    /// A number, at its first word.
    Figure {
        /// Its value, as [`key`] writes it.
        key: &'a str,
        /// Whether any of its words has a digit (`5`, not `five`).
        digits: bool,
    },
}

/// A number being read: its value so far, where its words are, and what may still join it.
#[derive(Debug, Clone, Copy)]
struct Number {
    value: f64,
    /// The first word, where the number's term stands.
    first: (usize, usize),
    /// Where its last word ends.
    end: usize,
    digits: bool,
    percent: bool,
    /// A whole number written in digits alone (a fraction's numerator or denominator may be).
    integer: bool,
    /// Ends in a multiple of ten written as a word (`twenty`): a unit word may join it.
    tens: bool,
    /// Scaled by a word (`1.5 mln`): nothing else joins it but `pct`.
    scaled: bool,
}

/// Reads a unit's words into terms, numbers as values; see the module's documentation.
///
/// # Example
/// ```
/// use slst::text::figures::{Figures, Term};
/// let text = "Profit rose 1.5 mln dlrs, or 6-1/4 pct";
/// let mut keys: Vec<String> = Vec::new();
/// let mut show = |_: std::ops::Range<usize>, t: &Term| {
///     keys.push(match t {
///         Term::Word(w) => w.to_string(),
///         Term::Figure { key, .. } => format!("<{key}>"),
///     })
/// };
/// let mut figures = Figures::default();
/// slst::text::for_each_word_span(text, |r, w| figures.push(text, r, w, &mut show));
/// figures.finish(&mut show);
/// assert_eq!(keys, ["profit", "rose", "<1500000>", "mln", "dlrs", "or", "<6.25%>", "⁄", "⁄", "pct"]);
/// ```
#[derive(Debug, Default)]
pub struct Figures {
    /// The number being read, and a whole number before it that a fraction may join.
    pending: Option<Number>,
    whole: Option<Number>,
    /// The words of the pending number after its first, in order: where each is, its term.
    parts: Vec<(Range<usize>, &'static str)>,
    /// Where a number's key is written, kept from one number to the next: a corpus run reads
    /// millions of numbers.
    key: String,
}

impl Figures {
    /// Take the next word (`span` its range in `text`, `word` normalised as
    /// [`super::for_each_word_span`] gives it); `emit` receives the terms that are complete, with
    /// their words' ranges in `text`, in the words' order.
    pub fn push(
        &mut self,
        text: &str,
        span: Range<usize>,
        word: &str,
        mut emit: impl FnMut(Range<usize>, &Term),
    ) {
        let gap = text.get(self.end()..span.start).unwrap_or(" ");
        if let Some(n) = self.pending.as_mut()
            && let Some(part) = join(n, gap, word, span.end)
        {
            self.parts.push((span, part));
            return;
        }
        if let Some(value) = parse(word) {
            let digits = word.bytes().any(|c| c.is_ascii_digit());
            let number = Number {
                value,
                first: (span.start, span.end),
                end: span.end,
                digits,
                percent: text[span.end..].trim_start().starts_with('%'),
                integer: digits && word.bytes().all(|c| c.is_ascii_digit()),
                tens: !digits && value >= 20.0 && value % 10.0 == 0.0,
                scaled: false,
            };
            if self.fraction(gap, &number) {
                return;
            }
            self.flush(&mut emit);
            self.pending = Some(number);
            return;
        }
        self.flush(&mut emit);
        emit(span, &Term::Word(word));
    }

    /// The unit has ended: the terms still held.
    pub fn finish(&mut self, mut emit: impl FnMut(Range<usize>, &Term)) {
        self.flush(&mut emit);
    }

    /// Where the number being read ends (0 when none is).
    fn end(&self) -> usize {
        self.pending.as_ref().map_or(0, |n| n.end)
    }

    /// `number` after `gap` completes a fraction with the pending numerator (`1/4`, and a whole
    /// number before it: `6-1/4`), or starts one (`6` then `1`, held until the `/` is seen).
    fn fraction(&mut self, gap: &str, number: &Number) -> bool {
        let Some(pending) = self.pending else {
            return false;
        };
        let plain = |n: &Number| n.integer && !n.percent && !n.scaled;
        if gap == "/" && plain(&pending) && plain(number) {
            let fraction = pending.value / number.value;
            if !DENOMINATORS.contains(&number.value) || fraction >= 1.0 {
                return false;
            }
            let denominator = number.first.0..number.first.1;
            let mut first = pending;
            if let Some(w) = self.whole.take() {
                // The numerator becomes a part of the whole number.
                self.parts.push((pending.first.0..pending.first.1, PART));
                first = w;
            }
            self.parts.push((denominator, PART));
            self.pending = Some(Number {
                value: if first.first == pending.first {
                    0.0
                } else {
                    first.value
                } + fraction,
                end: number.end,
                integer: false,
                percent: number.percent,
                ..first
            });
            return true;
        }
        // `101-3/8`, `6 1/4`; not `in 1986 3/4 of`.
        let whole = gap == "-" || (gap == " " && pending.value < 1000.0);
        if whole && plain(&pending) && plain(number) && self.whole.is_none() {
            // Perhaps a whole number and a fraction's numerator: hold both.
            self.whole = Some(pending);
            self.pending = Some(*number);
            return true;
        }
        false
    }

    /// Emit what is held: a whole number that no fraction joined, then the pending number and
    /// its other words.
    fn flush(&mut self, emit: &mut impl FnMut(Range<usize>, &Term)) {
        if let Some(w) = self.whole.take() {
            emit(w.first.0..w.first.1, &figure(&w, &mut self.key));
        }
        if let Some(n) = self.pending.take() {
            emit(n.first.0..n.first.1, &figure(&n, &mut self.key));
            for (span, part) in self.parts.drain(..) {
                emit(span, &Term::Word(part));
            }
        }
    }
}

/// The denominators of the fractions read into a number.
const DENOMINATORS: [f64; 7] = [2.0, 3.0, 4.0, 8.0, 16.0, 32.0, 64.0];

/// Whether `word` after `gap` joins the number `n` (which it then extends to `end`): a scale
/// word, a percent word, or a unit word after tens written out; the term it stands as.
fn join(n: &mut Number, gap: &str, word: &str, end: usize) -> Option<&'static str> {
    if !gap.chars().all(char::is_whitespace) && gap != "-" {
        return None;
    }
    // `40 mln` and `40-mln-dlr`, `5 pct` and `5-pct`.
    let part = if let Some(p) = percent_word(word).filter(|_| !n.percent) {
        n.percent = true;
        p
    } else if let Some((w, s)) = scale(word).filter(|_| !n.percent && !n.scaled) {
        // `two hundred` is 200 and may go on (`two hundred thousand`); `1.5 mln` is done.
        n.value *= s;
        n.scaled = s > 100.0;
        w
    } else if let Some(v) = number_word(word).filter(|v| n.tens && *v > 0.0 && *v < 10.0) {
        n.value += v;
        PART
    } else {
        return None;
    };
    n.end = end;
    n.integer = false;
    n.tens = false;
    Some(part)
}

/// The figure term of a number, its key written in `buf`.
fn figure<'a>(n: &Number, buf: &'a mut String) -> Term<'a> {
    buf.clear();
    write_key(n.value, n.percent, buf);
    Term::Figure {
        key: buf,
        digits: n.digits,
    }
}

/// A value's key: the value rounded to 6 decimal places (to 15 significant digits from
/// 10⁹ up, what a double holds), in Rust's shortest decimal form (no exponent, no trailing
/// zeros), `%` after a percentage.
///
/// ```
/// assert_eq!(slst::text::figures::key(1_500_000.0, false), "1500000");
/// assert_eq!(slst::text::figures::key(6.25, true), "6.25%");
/// assert_eq!(slst::text::figures::key(1.0 / 3.0, false), "0.333333");
/// ```
pub fn key(value: f64, percent: bool) -> String {
    let mut key = String::new();
    write_key(value, percent, &mut key);
    key
}

/// [`key`], appended to `out`.
fn write_key(value: f64, percent: bool, out: &mut String) {
    use std::fmt::Write;
    // To 6 decimal places, or fewer where a double holds fewer: it holds 15 significant digits,
    // so `32.94 billion`, computed as 32,939,999,999.999996, is the 32,940,000,000 written out.
    let whole_digits = (value.abs().max(1.0).log10().floor() as i32) + 1;
    let scale = 10f64.powi((15 - whole_digits).clamp(0, 6));
    let rounded = (value * scale).round() / scale;
    // Writing to a String cannot fail.
    let _ = if rounded.abs() < 1e15 && rounded.fract() == 0.0 {
        write!(out, "{}", rounded as i64)
    } else {
        write!(out, "{rounded}")
    };
    if percent {
        out.push('%');
    }
}

/// The value of a word that writes a number on its own: digits with thousands separators and a
/// decimal point (`1,000.5`, `.5`), or a cardinal written out (`seven`); `None` for any other
/// word.
///
/// ```
/// use slst::text::figures::parse;
/// assert_eq!(parse("1,000"), Some(1000.0));
/// assert_eq!(parse("2.75"), Some(2.75));
/// assert_eq!(parse("seventy"), Some(70.0));
/// assert_eq!(parse("1987-88"), None);
/// assert_eq!(parse("3rd"), None);
/// assert_eq!(parse("1,00"), None);
/// ```
pub fn parse(word: &str) -> Option<f64> {
    if !word.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return number_word(word);
    }
    let (int, frac) = word.split_once('.').unwrap_or((word, ""));
    if !frac.bytes().all(|c| c.is_ascii_digit()) || (int.is_empty() && frac.is_empty()) {
        return None;
    }
    let mut groups = int.split(',');
    let first = groups.next().unwrap_or("");
    let separated = int.contains(',');
    let first_ok =
        first.bytes().all(|c| c.is_ascii_digit()) && (!separated || (1..=3).contains(&first.len()));
    if !first_ok || !groups.all(|g| g.len() == 3 && g.bytes().all(|c| c.is_ascii_digit())) {
        return None;
    }
    // `int` without its commas, `.`, `frac`, `0`: a decimal that `f64` parses correctly
    // rounded, written on the stack when it fits (every term of a corpus is asked).
    let decimal = int
        .bytes()
        .filter(|&c| c != b',')
        .chain(*b".")
        .chain(frac.bytes())
        .chain(*b"0");
    let mut buf = [0u8; 64];
    let mut n = 0;
    for c in decimal {
        let Some(slot) = buf.get_mut(n) else {
            let digits: String = int.chars().filter(|&c| c != ',').collect();
            return format!("{digits}.{frac}0").parse().ok();
        };
        *slot = c;
        n += 1;
    }
    // Only ASCII digits and `.` were written.
    std::str::from_utf8(&buf[..n]).ok()?.parse().ok()
}

/// A scale word, as a term, and its factor.
fn scale(word: &str) -> Option<(&'static str, f64)> {
    Some(match word {
        "hundred" => ("hundred", 1e2),
        "thousand" => ("thousand", 1e3),
        "million" => ("million", 1e6),
        "mln" => ("mln", 1e6),
        "billion" => ("billion", 1e9),
        "bn" => ("bn", 1e9),
        "bln" => ("bln", 1e9),
        "trillion" => ("trillion", 1e12),
        "trn" => ("trn", 1e12),
        _ => return None,
    })
}

/// A percent word, as a term.
fn percent_word(word: &str) -> Option<&'static str> {
    match word {
        "pct" => Some("pct"),
        "percent" => Some("percent"),
        _ => None,
    }
}

/// The value of a cardinal from zero to ninety written as one word. A `match`, which compiles
/// to a switch on the length and a comparison or two: every term of a corpus is asked.
fn number_word(word: &str) -> Option<f64> {
    Some(match word {
        "zero" => 0.0,
        "one" => 1.0,
        "two" => 2.0,
        "three" => 3.0,
        "four" => 4.0,
        "five" => 5.0,
        "six" => 6.0,
        "seven" => 7.0,
        "eight" => 8.0,
        "nine" => 9.0,
        "ten" => 10.0,
        "eleven" => 11.0,
        "twelve" => 12.0,
        "thirteen" => 13.0,
        "fourteen" => 14.0,
        "fifteen" => 15.0,
        "sixteen" => 16.0,
        "seventeen" => 17.0,
        "eighteen" => 18.0,
        "nineteen" => 19.0,
        "twenty" => 20.0,
        "thirty" => 30.0,
        "forty" => 40.0,
        "fifty" => 50.0,
        "sixty" => 60.0,
        "seventy" => 70.0,
        "eighty" => 80.0,
        "ninety" => 90.0,
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
