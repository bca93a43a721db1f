//! UAX #29 word and sentence boundaries for ASCII text — with English typographic quotes and
//! dashes (`‘ ’ “ ” – —`) and the pilcrow `¶` — computed directly on bytes.
//!
//! Most text of every corpus slst reads is ASCII, and on it the general segmenters (ICU4X's
//! rule tables over all of Unicode) spent about two thirds of profile extraction. On ASCII only
//! a handful of the rules can apply, so they are written out here by hand; the six typographic
//! characters, common in book text (the Bible versions, the synthetic corpora made from them),
//! add one class each (Close, SContinue, MidNumLet) and nothing else, and the pilcrow of the
//! KJV texts is Other for both. The callers in [`super`]
//! take this path only when [`applies`] says the text they segment is made of these characters,
//! and the ICU4X path otherwise; the tests (the `oracle` module below, and `tests/tokenise.rs`
//! on whole corpora) hold the two paths to the same boundaries, which makes ICU4X the oracle of
//! this module.
//!
//! The property values are those of the Unicode Character Database (`WordBreakProperty.txt`,
//! `SentenceBreakProperty.txt`), as ICU4X uses them (its rules are the standard's, untailored:
//! the colon stays MidLetter, so `a:b` is one word; the semicolon is SContinue since Unicode
//! 15.1).

use std::ops::Range;

/// Word_Break: ALetter (A–Z, a–z) — the only ASCII letters.
#[inline]
fn is_letter(c: u8) -> bool {
    c.is_ascii_alphabetic()
}

/// Bits of [`WORD_CLASS`]: a byte that belongs to a word (ALetter, Numeric or ExtendNumLet `_`;
/// any two of them are never separated: WB5, WB8, WB9, WB10, WB13a, WB13b) …
const WORD: u8 = 1;
/// … that is a letter or a digit (a kept word has one) …
const ALNUM: u8 = 2;
/// … that is an uppercase letter (the word then needs lowercasing).
const UPPER: u8 = 4;

/// The word classes of every byte, looked up once per byte of text.
static WORD_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() {
            t[c] = WORD | ALNUM;
        }
        if b.is_ascii_uppercase() {
            t[c] |= UPPER;
        }
        if b == b'_' {
            t[c] = WORD;
        }
        c += 1;
    }
    t
};

/// The characters besides ASCII that the fast path knows, all `E2 80 xx` in UTF-8: the
/// typographic quotes and dashes of English text. Their properties:
///
/// | char | UTF-8 | Word_Break | Sentence_Break |
/// |---|---|---|---|
/// | `–` U+2013, `—` U+2014 | `E2 80 93`, `E2 80 94` | Other | SContinue |
/// | `‘` U+2018, `’` U+2019 | `E2 80 98`, `E2 80 99` | MidNumLet | Close |
/// | `“` U+201C, `”` U+201D | `E2 80 9C`, `E2 80 9D` | Other | Close |
const KNOWN_THIRD_BYTES: [u8; 6] = [0x93, 0x94, 0x98, 0x99, 0x9C, 0x9D];

/// The third byte of the known character at `i` (see [`KNOWN_THIRD_BYTES`]), if one starts there.
#[inline]
fn known_at(b: &[u8], i: usize) -> Option<u8> {
    match b.get(i..i + 3) {
        Some(&[0xE2, 0x80, c]) if KNOWN_THIRD_BYTES.contains(&c) => Some(c),
        _ => None,
    }
}

/// The pilcrow `¶` (U+00B6, `C2 B6`), which the KJV texts put before paragraphs: Word_Break
/// Other, Sentence_Break Other, so the scans below skip it like any byte that is not ASCII.
const PILCROW: [u8; 2] = [0xC2, 0xB6];

/// Whether the fast path applies to `text`: it is ASCII but for the characters of
/// [`KNOWN_THIRD_BYTES`] and [`PILCROW`].
pub(crate) fn applies(text: &str) -> bool {
    // The standard library's test reads a word at a time: the common case first.
    if text.is_ascii() {
        return true;
    }
    let b = text.as_bytes();
    let mut i = 0;
    loop {
        match b[i..].iter().position(|&c| c >= 0x80) {
            None => return true,
            Some(p) => {
                i += p;
                if known_at(b, i).is_some() {
                    i += 3;
                } else if b[i..].starts_with(&PILCROW) {
                    i += 2;
                } else {
                    return false;
                }
            }
        }
    }
}

/// If the character at `i` keeps the characters around it in one word, its byte length:
/// WB6/WB7 (ALetter (MidLetter | MidNumLetQ) ALetter: `:`, `.`, `'`, `‘`, `’`) and WB11/WB12
/// (Numeric (MidNum | MidNumLetQ) Numeric: `,`, `;`, `.`, `'`, `‘`, `’`). 0 < `i` ≤ the length.
#[inline]
fn join_len(b: &[u8], i: usize) -> usize {
    let Some(&mid) = b.get(i) else {
        return 0;
    };
    let (len, letters, digits) = match mid {
        b'.' | b'\'' => (1, true, true),
        b':' => (1, true, false),
        b',' | b';' => (1, false, true),
        0xE2 if matches!(known_at(b, i), Some(0x98 | 0x99)) => (3, true, true),
        _ => return 0,
    };
    let (prev, Some(&next)) = (b[i - 1], b.get(i + len)) else {
        return 0;
    };
    let joined = (letters && is_letter(prev) && is_letter(next))
        || (digits && prev.is_ascii_digit() && next.is_ascii_digit());
    if joined { len } else { 0 }
}

/// Call `f` with the byte range of every word of `b` (a text the fast path [`applies`] to) that
/// contains a letter or a digit, in order — the UAX #29 word segments that
/// [`super::for_each_word`] keeps — and whether the word is its own term: no uppercase letter,
/// no typographic apostrophe.
///
/// Outside words, every boundary rule of UAX #29 either breaks or concerns bytes that are never
/// part of a kept word (CR LF, runs of spaces), so only the runs of word bytes and the joins
/// through a middle byte need to be found.
pub(crate) fn for_each_word_range(b: &[u8], mut f: impl FnMut(Range<usize>, bool)) {
    let n = b.len();
    let mut i = 0;
    while i < n {
        if WORD_CLASS[b[i] as usize] & WORD == 0 {
            i += 1;
            continue;
        }
        let start = i;
        let mut seen = 0u8;
        loop {
            while i < n {
                let class = WORD_CLASS[b[i] as usize];
                if class & WORD == 0 {
                    break;
                }
                seen |= class;
                i += 1;
            }
            match join_len(b, i) {
                0 => break,
                1 => i += 1,
                len => {
                    seen |= UPPER; // a typographic apostrophe: not its own term either
                    i += len;
                }
            }
        }
        if seen & ALNUM != 0 {
            f(start..i, seen & UPPER == 0);
        }
    }
}

/// The byte length of the Close character at `j` (Sentence_Break Close: quotation marks,
/// apostrophe, brackets, and `‘ ’ “ ”`), or 0.
#[inline]
fn close_len(b: &[u8], j: usize) -> usize {
    if is_close(b[j]) {
        1
    } else if matches!(known_at(b, j), Some(0x98 | 0x99 | 0x9C | 0x9D)) {
        3
    } else {
        0
    }
}

/// Sentence_Break: Sp (tab, vertical tab, form feed, space).
#[inline]
fn is_sp(c: u8) -> bool {
    matches!(c, b'\t' | 0x0B | 0x0C | b' ')
}

/// Sentence_Break: Close (quotation marks, apostrophe, brackets).
#[inline]
fn is_close(c: u8) -> bool {
    matches!(c, b'"' | b'\'' | b'(' | b')' | b'[' | b']' | b'{' | b'}')
}

/// Sentence_Break: ATerm (`.`) or STerm (`!`, `?`).
#[inline]
fn is_saterm(c: u8) -> bool {
    matches!(c, b'.' | b'!' | b'?')
}

/// Sentence_Break: SContinue (`,`, `-`, `:`, and `;` since Unicode 15.1).
#[inline]
fn is_scontinue(c: u8) -> bool {
    matches!(c, b',' | b'-' | b':' | b';')
}

/// Sentence_Break: CR or LF (ASCII has no other ParaSep).
#[inline]
fn is_para_sep(c: u8) -> bool {
    matches!(c, b'\r' | b'\n')
}

/// Length of the paragraph separator starting at `j` (CR LF is one, SB3).
#[inline]
fn para_sep_len(b: &[u8], j: usize) -> usize {
    if b[j] == b'\r' && b.get(j + 1) == Some(&b'\n') {
        2
    } else {
        1
    }
}

/// SB8's look-ahead from `j`: after ATerm Close* Sp*, no break if the next letter comes before
/// any paragraph separator or terminator and is lowercase.
#[inline]
fn sb8_lowercase_follows(b: &[u8], j: usize) -> bool {
    b[j..]
        .iter()
        .find(|&&c| is_letter(c) || is_para_sep(c) || is_saterm(c))
        .is_some_and(u8::is_ascii_lowercase)
}

/// The first offset from `i` on of a byte after which a sentence may end: a terminator (`.`,
/// `!`, `?`), CR or LF. Sixteen bytes at a time with a test the compiler vectorises, since
/// these bytes are rare.
#[inline]
fn next_sentence_byte(b: &[u8], mut i: usize) -> Option<usize> {
    let hit = |c: u8| is_saterm(c) || is_para_sep(c);
    const BLOCK: usize = 16;
    while let Some(block) = b.get(i..).and_then(<[u8]>::first_chunk::<BLOCK>) {
        if block.iter().fold(false, |any, &c| any | hit(c)) {
            return block.iter().position(|&c| hit(c)).map(|p| i + p);
        }
        i += BLOCK;
    }
    b.get(i..)?.iter().position(|&c| hit(c)).map(|p| i + p)
}

/// The UAX #29 sentence boundaries of `b` (a text the fast path [`applies`] to), except 0 and
/// the end: every offset where a new sentence starts, ascending. [`super::sentence`] turns them
/// into pieces.
///
/// These characters include no Extend, Format, OLetter or Sep, so the rules left are SB3/SB4 (CR LF, breaks
/// after CR and LF) and those after a terminator: ATerm or STerm, then Close*, then Sp*, then an
/// optional paragraph separator — SB9/SB10 keep that run together, and the break after it
/// (SB11) is undone by SB6 (`.` before a digit), SB7 (a letter, `.`, an uppercase letter), SB8
/// (after `.`, the next letter is lowercase) and SB8a (a continuation or another terminator
/// follows).
pub(crate) fn for_each_sentence_break(b: &[u8], mut f: impl FnMut(usize)) {
    let n = b.len();
    let mut i = 0;
    while let Some(at) = next_sentence_byte(b, i) {
        i = at;
        let c = b[i];
        if is_para_sep(c) {
            i += para_sep_len(b, i);
            if i < n {
                f(i);
            }
            continue;
        }
        let aterm = c == b'.';
        let mut j = i + 1;
        while j < n {
            match close_len(b, j) {
                0 => break,
                len => j += len,
            }
        }
        while j < n && is_sp(b[j]) {
            j += 1;
        }
        if j == n {
            return;
        }
        if is_para_sep(b[j]) {
            // SB9/SB10 keep the separator with the terminator; SB11 breaks after it.
            i = j + para_sep_len(b, j);
            if i < n {
                f(i);
            }
            continue;
        }
        let next = b[j];
        let adjacent = j == i + 1;
        let keep = (aterm && adjacent && next.is_ascii_digit()) // SB6
            || (aterm
                && adjacent
                && next.is_ascii_uppercase()
                && i > 0
                && is_letter(b[i - 1])) // SB7
            || (aterm && sb8_lowercase_follows(b, j)) // SB8
            || is_scontinue(next)
            || matches!(known_at(b, j), Some(0x93 | 0x94)) // SContinue `–` `—`
            || is_saterm(next); // SB8a
        if !keep {
            f(j);
        }
        i = j;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<&str> {
        let mut out = Vec::new();
        for_each_word_range(s.as_bytes(), |r, own_term| {
            assert_eq!(
                own_term,
                s[r.clone()] == super::super::normalize_term(&s[r.clone()])
            );
            out.push(&s[r]);
        });
        out
    }

    fn pieces(s: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut start = 0;
        for_each_sentence_break(s.as_bytes(), |b| {
            out.push(&s[start..b]);
            start = b;
        });
        if start < s.len() {
            out.push(&s[start..]);
        }
        out
    }

    #[test]
    fn words_join_across_middle_punctuation_only_between_letters_or_digits() {
        assert_eq!(
            words("The U.S. rate, 3.5 pct, rose 1,000; O'Neill's a:b x.1 _ __ a_b 2_"),
            [
                "The",
                "U.S",
                "rate",
                "3.5",
                "pct",
                "rose",
                "1,000",
                "O'Neill's",
                "a:b",
                "x",
                "1",
                "a_b",
                "2_"
            ]
        );
    }

    #[test]
    fn sentences_follow_the_terminator_rules() {
        assert_eq!(
            pieces("It fell 3.5 pct. He said \"no.\" Then: e.g. this. U.S.A. Next! ok? no. 5 up."),
            [
                "It fell 3.5 pct. ",
                "He said \"no.\" ",
                "Then: e.g. this. ",
                "U.S.A. ",
                "Next! ",
                "ok? ",
                "no. 5 up."
            ]
        );
        assert_eq!(pieces("a\r\nb\rc.\n"), ["a\r\n", "b\r", "c.\n"]);
    }
}

/// The oracle: ICU4X must give the same boundaries on any ASCII string. The alphabet is heavy in
/// the bytes the rules treat specially, so short strings already meet every rule.
#[cfg(test)]
mod oracle {
    use super::*;
    use icu_segmenter::options::{SentenceBreakInvariantOptions, WordBreakInvariantOptions};
    use icu_segmenter::{SentenceSegmenter, WordSegmenter};
    use proptest::prelude::*;

    /// Letters (upper and lower), digits, every byte with a rule of its own, other punctuation
    /// and controls, and the typographic quotes and dashes the fast path knows; repeated entries
    /// weigh more. (Other non-ASCII text never reaches the fast path: [`applies`] is false.)
    const ALPHABET: &[&str] = &[
        "a", "A", "b", "B", "x", "X", "e", "E", "g", "G", "s", "S", "u", "U", "i", "I", "0", "1",
        "2", "3", "5", "9", ".", ".", ",", ",", ";", ";", ":", ":", "'", "'", "\"", "\"", "(", ")",
        "[", "]", "{", "}", "!", "!", "?", "?", "-", "-", "_", "_", " ", " ", " ", "\t", "\n",
        "\r", "\x0B", "\x0C", "$", "%", "&", "*", "+", "/", "<", "=", ">", "@", "\\", "^", "`",
        "|", "~", "#", "\x00", "\x01", "\x1F", "\x7F", "\u{2013}", "\u{2014}", "\u{2018}",
        "\u{2019}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{B6}",
    ];

    fn ascii_text() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(ALPHABET), 0..48).prop_map(|v| v.concat())
    }

    fn icu_words(s: &str) -> Vec<Range<usize>> {
        let segmenter =
            WordSegmenter::new_for_non_complex_scripts(WordBreakInvariantOptions::default());
        let mut breaks = segmenter.segment_str(s);
        let mut out = Vec::new();
        let mut start = 0;
        while let Some(end) = breaks.next() {
            if end > start
                && breaks.is_word_like()
                && s[start..end].chars().any(char::is_alphanumeric)
            {
                out.push(start..end);
            }
            start = end;
        }
        out
    }

    fn icu_sentence_breaks(s: &str) -> Vec<usize> {
        let segmenter = SentenceSegmenter::new(SentenceBreakInvariantOptions::default());
        segmenter
            .segment_str(s)
            .filter(|&b| b > 0 && b < s.len())
            .collect()
    }

    fn fast_words(s: &str) -> Vec<Range<usize>> {
        let mut out = Vec::new();
        for_each_word_range(s.as_bytes(), |r, _| out.push(r));
        out
    }

    fn fast_sentence_breaks(s: &str) -> Vec<usize> {
        let mut out = Vec::new();
        for_each_sentence_break(s.as_bytes(), |b| out.push(b));
        out
    }

    #[test]
    fn applies_to_ascii_and_the_known_characters_only() {
        assert!(applies("") && applies("plain") && applies("¶ “Don’t” – no—‘x’"));
        for s in [
            "café",
            "a\u{A0}b",
            "§ 1",
            "\u{B7}",
            "\u{2015}",
            "\u{2020}",
            "\u{201E}",
            "x\u{200B}",
        ] {
            assert!(!applies(s), "{s:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        #[test]
        fn words_equal_icu(s in ascii_text()) {
            prop_assert_eq!(fast_words(&s), icu_words(&s), "{:?}", s);
        }

        #[test]
        fn sentence_breaks_equal_icu(s in ascii_text()) {
            prop_assert_eq!(fast_sentence_breaks(&s), icu_sentence_breaks(&s), "{:?}", s);
        }
    }

    /// Every pair and triple of distinct rule classes, exhaustively (the random strings above
    /// could miss a rare one).
    #[test]
    fn every_short_string_of_representatives_equals_icu() {
        let reps = [
            "a", "A", "0", ".", "_", ",", ";", ":", "'", "\"", "(", "!", "?", "-", " ", "\t", "\n",
            "\r", "\x0C", "$", "\u{2014}", "\u{2019}", "\u{201C}", "\u{B6}",
        ];
        for a in reps {
            for b in reps {
                for c in reps {
                    for d in reps {
                        let t = [a, b, c, d].concat();
                        assert!(applies(&t));
                        assert_eq!(fast_words(&t), icu_words(&t), "{t:?}");
                        assert_eq!(fast_sentence_breaks(&t), icu_sentence_breaks(&t), "{t:?}");
                    }
                }
            }
        }
    }
}
