//! Sentence boundaries: UAX #29 plus the repairs of SPEC §2.1.

use std::ops::Range;
use std::sync::OnceLock;

use icu_segmenter::SentenceSegmenter;
use icu_segmenter::options::SentenceBreakInvariantOptions;

use super::StopWords;

/// Titles: never the end of a sentence, whatever follows (`Mr. Smith`, `Gov. Cuomo`).
const TITLES: &[&str] = &[
    "adm", "atty", "brig", "capt", "cmdr", "col", "cpl", "det", "dr", "fr", "gen", "gov", "hon",
    "insp", "lt", "maj", "messrs", "mlle", "mme", "mr", "mrs", "ms", "msgr", "pres", "prof", "pvt",
    "rep", "reps", "rev", "sen", "sens", "sgt", "supt",
];

/// Abbreviations that may be followed by a proper name (`U.S. Treasury`, `St. Louis`): no break
/// before a capitalised word that is not a stop word, nor before a digit.
const NAME_PREFIXES: &[&str] = &["u.s", "u.k", "u.n", "e.u", "st", "mt", "ft", "ste"];

/// Months: no break before a digit (`Jan. 5`).
const MONTHS: &[&str] = &[
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
];

/// Other abbreviations: no break before a digit (`No. 5`, `Vol. 2`); before a lowercase word
/// there is never a break anyway.
const OTHERS: &[&str] = &[
    "approx", "art", "ave", "blvd", "bros", "ch", "co", "corp", "cos", "dept", "e.g", "est", "etc",
    "fig", "i.e", "inc", "jr", "ltd", "no", "nos", "p", "pct", "pp", "sec", "sr", "vol", "vols",
    "vs",
];

/// Split `text` into sentences; returns their byte ranges, ascending and disjoint, each trimmed
/// of surrounding white space.
///
/// 1. Paragraphs are separated by blank lines (and by U+2029, form feed and vertical tab). A
///    single line break (LF, CR, CRLF, NEL, U+2028) inside a paragraph is *not* a boundary: it
///    is read as a space, since news corpora are hard-wrapped.
/// 2. Each paragraph is cut at UAX #29 sentence boundaries.
/// 3. Repairs (news text): a piece whose next word starts lowercase continues the sentence
///    (`"Is it over?" she asked.`, `e.g. relevance`); no break after a title (`Mr.`, `Gov.`); no
///    break after a single capital initial or a name prefix (`U.S.`, `St.`) before a capitalised
///    word that is not a stop word (`J. R. R. Tolkien`, `U.S. Treasury`, but `the U.S. He …`
///    breaks); no break after a month or another common abbreviation before a digit (`Jan. 5`,
///    `No. 2`); a piece without any letter or digit (a stray closing quote) joins its neighbour.
///
/// # Example
/// ```
/// let text = "Mr. Smith went to\nWashington on Jan. 5. He met Gov. Cuomo.\n\nMARKETS\n\nStocks fell.";
/// let sentences: Vec<&str> =
///     slst::text::split_sentences(text).into_iter().map(|r| &text[r]).collect();
/// assert_eq!(
///     sentences,
///     ["Mr. Smith went to\nWashington on Jan. 5.", "He met Gov. Cuomo.", "MARKETS", "Stocks fell."]
/// );
/// ```
pub fn split_sentences(text: &str) -> Vec<Range<usize>> {
    split_with(text, Boundaries::AsciiFastPath)
}

/// [`split_sentences`] with every UAX #29 boundary taken from ICU4X, ASCII or not: the oracle
/// that the ASCII fast path is tested against (`tests/tokenise.rs`). Same output, slower.
pub fn split_sentences_icu(text: &str) -> Vec<Range<usize>> {
    split_with(text, Boundaries::Icu)
}

/// Where the UAX #29 sentence boundaries of a paragraph come from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Boundaries {
    /// [`super::ascii`] for an ASCII paragraph, ICU4X for any other.
    AsciiFastPath,
    /// ICU4X for every paragraph.
    Icu,
}

fn split_with(text: &str, boundaries: Boundaries) -> Vec<Range<usize>> {
    let breaks: Vec<LineBreak> = line_breaks(text.as_bytes()).collect();
    let unwrapped = unwrap_lines(text, &breaks);
    let mut out = Vec::new();
    let mut pieces = Vec::new();
    for para in paragraphs(text, &breaks) {
        let para_text = &unwrapped[para.clone()];
        uax29_pieces(para_text, boundaries, &mut pieces);
        split_paragraph(para_text, &pieces, para.start, &mut out);
    }
    out
}

/// A line break: its offset, byte length, and whether it is a hard paragraph break.
type LineBreak = (usize, usize, bool);

/// A copy of `text` with every line terminator (`breaks`, from [`line_breaks`]) replaced by
/// spaces of the same byte length, so that offsets into it are offsets into `text`.
fn unwrap_lines(text: &str, breaks: &[LineBreak]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for &(at, len, _) in breaks {
        bytes[at..at + len].fill(b' ');
    }
    // Only whole UTF-8 sequences (or ASCII bytes) were replaced by ASCII spaces.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Every line break of `b`: its offset, byte length, and whether it is a hard paragraph break.
fn line_breaks(b: &[u8]) -> impl Iterator<Item = LineBreak> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            i = next_line_break_byte(b, i)?;
            if let Some((len, hard)) = line_break_at(b, i) {
                let at = i;
                i += len;
                return Some((at, len, hard));
            }
            i += 1;
        }
        None
    })
}

/// The first offset from `i` on whose byte can start a line break (LF, CR, VT, FF, and the lead
/// bytes of NEL, U+2028 and U+2029).
#[inline]
fn next_line_break_byte(b: &[u8], mut i: usize) -> Option<usize> {
    let is_candidate = |c: u8| matches!(c, b'\n' | b'\r' | 0x0B | 0x0C | 0xC2 | 0xE2);
    // Sixteen bytes at a time with a test the compiler vectorises (a superset: any byte in
    // 0x0A..=0x0D or from 0xC2 up), then byte by byte inside a block that has one.
    const BLOCK: usize = 16;
    let maybe = |any: bool, &c: &u8| any | (c.wrapping_sub(0x0A) < 4) | (c >= 0xC2);
    while let Some(block) = b.get(i..).and_then(<[u8]>::first_chunk::<BLOCK>) {
        if block.iter().fold(false, maybe)
            && let Some(p) = block.iter().position(|&c| is_candidate(c))
        {
            return Some(i + p);
        }
        i += BLOCK;
    }
    b[i..].iter().position(|&c| is_candidate(c)).map(|p| i + p)
}

/// If a line break starts at `i`: its byte length and whether it is a hard paragraph break.
#[inline]
fn line_break_at(b: &[u8], i: usize) -> Option<(usize, bool)> {
    match b[i] {
        b'\n' => Some((1, false)),
        b'\r' => Some((if b.get(i + 1) == Some(&b'\n') { 2 } else { 1 }, false)),
        0x0B | 0x0C => Some((1, true)),
        0xC2 if b.get(i + 1) == Some(&0x85) => Some((2, false)),
        0xE2 if b.get(i + 1) == Some(&0x80) => match b.get(i + 2) {
            Some(0xA8) => Some((3, false)),
            Some(0xA9) => Some((3, true)),
            _ => None,
        },
        _ => None,
    }
}

/// Byte ranges of the paragraphs of `text`, from the first to the last non-space character of
/// each: runs of lines with content, ended by a blank line or a hard break.
fn paragraphs(text: &str, breaks: &[LineBreak]) -> Vec<Range<usize>> {
    let is_space = |c: char| c.is_whitespace() || c == '\u{FEFF}';
    let mut out = Vec::new();
    let mut para: Option<Range<usize>> = None;
    let mut line_start = 0;
    let ends = breaks
        .iter()
        .copied()
        .chain(std::iter::once((text.len(), 0, true)));
    for (at, len, hard) in ends {
        let line = &text[line_start..at];
        let content = line.trim_start_matches(is_space);
        if content.is_empty() {
            out.extend(para.take());
        } else {
            let first = at - content.len();
            let last = line_start + line.trim_end_matches(is_space).len();
            match &mut para {
                Some(p) => p.end = last,
                None => para = Some(first..last),
            }
            if hard {
                out.extend(para.take());
            }
        }
        line_start = at + len;
    }
    out
}

/// UAX #29 sentence boundaries of `para`: the byte ranges of its pieces, in order, into `out`
/// (cleared first). An empty paragraph has no piece.
fn uax29_pieces(para: &str, boundaries: Boundaries, out: &mut Vec<Range<usize>>) {
    out.clear();
    let mut start = 0;
    let mut piece_to = |end: usize| {
        if end > start {
            out.push(start..end);
            start = end;
        }
    };
    if boundaries == Boundaries::AsciiFastPath && super::ascii::applies(para) {
        super::ascii::for_each_sentence_break(para.as_bytes(), &mut piece_to);
        piece_to(para.len());
    } else {
        // ICU4X yields 0, every boundary, and the end.
        let segmenter = SentenceSegmenter::new(SentenceBreakInvariantOptions::default());
        segmenter.segment_str(para).for_each(piece_to);
    }
}

fn split_paragraph(para: &str, pieces: &[Range<usize>], base: usize, out: &mut Vec<Range<usize>>) {
    let mut current: Option<Range<usize>> = None;
    for piece_range in pieces.iter().cloned() {
        let piece = &para[piece_range.clone()];
        current = match current {
            None => Some(piece_range),
            Some(cur) => {
                let cur_text = &para[cur.clone()];
                if !has_alphanumeric(cur_text)
                    || !has_alphanumeric(piece)
                    || continues(cur_text, piece)
                {
                    Some(cur.start..piece_range.end)
                } else {
                    push_trimmed(para, cur, base, out);
                    Some(piece_range)
                }
            }
        };
    }
    if let Some(cur) = current {
        push_trimmed(para, cur, base, out);
    }
}

fn push_trimmed(para: &str, r: Range<usize>, base: usize, out: &mut Vec<Range<usize>>) {
    let s = &para[r.clone()];
    let lead = s.len() - s.trim_start().len();
    let trail = s.len() - s.trim_end().len();
    if lead + trail < s.len() {
        out.push(base + r.start + lead..base + r.end - trail);
    }
}

fn has_alphanumeric(s: &str) -> bool {
    s.chars().any(char::is_alphanumeric)
}

/// Whether `next` continues the sentence `cur` despite the UAX #29 boundary between them.
fn continues(cur: &str, next: &str) -> bool {
    let Some(word) = first_word(next) else {
        return true;
    };
    let first = word.chars().next().unwrap_or(' ');
    if first.is_lowercase() {
        return true;
    }
    let tail = cur.trim_end();
    let Some(before) = tail.strip_suffix('.') else {
        return false;
    };
    let token = before
        .rsplit(|c: char| c.is_whitespace() || matches!(c, '(' | '[' | '"' | '\'' | '“' | '‘'))
        .next()
        .unwrap_or("");
    if token.is_empty() {
        return false;
    }
    // Abbreviations are short; a longer token cannot be one (and needs no lowercasing).
    if token.len() > 8 {
        return false;
    }
    let lower = token.to_lowercase();
    let lower = lower.as_str();
    let digit = first.is_numeric();
    let proper_name =
        || first.is_uppercase() && !english_stop_words().contains(&word.to_lowercase());
    if TITLES.contains(&lower) {
        return true;
    }
    let mut chars = token.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && c.is_uppercase()
    {
        return proper_name();
    }
    if NAME_PREFIXES.contains(&lower) {
        return digit || proper_name();
    }
    digit && (MONTHS.contains(&lower) || OTHERS.contains(&lower))
}

/// The first run of alphanumeric characters in `s`.
fn first_word(s: &str) -> Option<&str> {
    let start = s.find(char::is_alphanumeric)?;
    let rest = &s[start..];
    let end = rest
        .find(|c: char| !c.is_alphanumeric())
        .unwrap_or(rest.len());
    Some(&rest[..end])
}

fn english_stop_words() -> &'static StopWords {
    static LIST: OnceLock<StopWords> = OnceLock::new();
    LIST.get_or_init(StopWords::english)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentences(text: &str) -> Vec<&str> {
        split_sentences(text)
            .into_iter()
            .map(|r| &text[r])
            .collect()
    }

    #[test]
    fn titles_do_not_end_sentences() {
        assert_eq!(
            sentences(
                "Mr. Smith met Dr. Jones. It was attended by Gov. Cuomo, Rep. Smith, and Lt. Col. Jones."
            ),
            [
                "Mr. Smith met Dr. Jones.",
                "It was attended by Gov. Cuomo, Rep. Smith, and Lt. Col. Jones."
            ]
        );
    }

    #[test]
    fn chinese_sentences_end_at_full_stop_exclamation_and_question_marks() {
        // 。！？ are STerm in UAX #29: a break after each, with no space needed; the ideographic
        // comma is not.
        assert_eq!(
            sentences("結果如何？新算法的準確率較高！實驗在AP90上進行，效率也較高。下一段"),
            [
                "結果如何？",
                "新算法的準確率較高！",
                "實驗在AP90上進行，效率也較高。",
                "下一段"
            ]
        );
    }

    #[test]
    fn initials_join_a_name() {
        assert_eq!(
            sentences("The book is by J. R. R. Tolkien. It sold well."),
            ["The book is by J. R. R. Tolkien.", "It sold well."]
        );
    }

    #[test]
    fn us_before_a_name_joins_but_before_a_pronoun_breaks() {
        assert_eq!(
            sentences("The U.S. Treasury sold bonds. He moved to the U.S. He now works there."),
            [
                "The U.S. Treasury sold bonds.",
                "He moved to the U.S.",
                "He now works there."
            ]
        );
    }

    #[test]
    fn dates_and_numbers_do_not_end_sentences() {
        assert_eq!(
            sentences(
                "Prices rose 3.5 pct on Jan. 5 after the No. 2 producer cut output. Shares fell."
            ),
            [
                "Prices rose 3.5 pct on Jan. 5 after the No. 2 producer cut output.",
                "Shares fell."
            ]
        );
    }

    #[test]
    fn abbreviation_before_a_new_sentence_still_breaks() {
        assert_eq!(
            sentences(
                "Shares of Acme Inc. fell. Analysts expected it in Nov. Analysts were wrong."
            ),
            [
                "Shares of Acme Inc. fell.",
                "Analysts expected it in Nov.",
                "Analysts were wrong."
            ]
        );
    }

    #[test]
    fn quotation_with_lowercase_continuation_is_one_sentence() {
        assert_eq!(
            sentences("\"Is it over?\" she asked. \"No.\" The talks went on."),
            [
                "\"Is it over?\" she asked.",
                "\"No.\"",
                "The talks went on."
            ]
        );
    }

    #[test]
    fn hard_wrapped_lines_are_unwrapped() {
        let text = "The central bank cut rates on\nWednesday, citing weakness that have\r\npersisted for months. Markets fell\u{85}sharply.";
        assert_eq!(split_sentences(text).len(), 2);
        assert_eq!(
            sentences(text)[1],
            "Markets fell\u{85}sharply.",
            "spans point into the original text, line breaks and all"
        );
    }

    #[test]
    fn blank_lines_separate_headlines_and_datelines() {
        let text = "OIL PRICES SURGE\n\nLONDON, March 3\n\nOil prices rose sharply on Tuesday. Traders said supply was tight.\n";
        assert_eq!(
            sentences(text),
            [
                "OIL PRICES SURGE",
                "LONDON, March 3",
                "Oil prices rose sharply on Tuesday.",
                "Traders said supply was tight."
            ]
        );
    }

    #[test]
    fn blank_line_with_spaces_and_crlf_is_a_break() {
        let text = "First line without a stop\r\n  \t \r\nSecond paragraph here";
        assert_eq!(
            sentences(text),
            ["First line without a stop", "Second paragraph here"]
        );
    }

    #[test]
    fn punctuation_only_pieces_join_their_neighbour() {
        let text = "“ \tVotes cast by pages that are themselves \"important\" weigh more heavily. \t” In other words, a PageRank results from a ballot.";
        let s = sentences(text);
        assert_eq!(s.len(), 2, "{s:?}");
        assert!(s[0].starts_with('“'));
    }

    #[test]
    fn question_mark_inside_a_word_does_not_split_before_lowercase() {
        // From the Clough corpus: a stray "?" after "PageRank" in copied text.
        assert_eq!(
            sentences("The PageRank? of a particular page is roughly based upon links."),
            ["The PageRank? of a particular page is roughly based upon links."]
        );
    }

    #[test]
    fn uax29_pieces_equal_the_unicode_segmentation_oracle() {
        use unicode_segmentation::UnicodeSegmentation;
        let texts = [
            include_str!("../../corpora/clough/orig_taskb.txt"),
            include_str!("../../corpora/clough/g0pA_taskb.txt"),
            include_str!("../../corpora/bible/sample.trec"),
            "Mr. Smith met Dr. J. R. R. Tolkien at 7 a.m. \"Really?\" he asked... Yes! (It was.) Then: 3.5 pct.",
        ];
        for text in texts {
            let breaks: Vec<LineBreak> = line_breaks(text.as_bytes()).collect();
            let unwrapped = unwrap_lines(text, &breaks);
            let mut ours = Vec::new();
            uax29_pieces(&unwrapped, Boundaries::Icu, &mut ours);
            let oracle: Vec<Range<usize>> = unwrapped
                .split_sentence_bound_indices()
                .map(|(i, s)| i..i + s.len())
                .collect();
            assert_eq!(ours, oracle);
        }
    }

    #[test]
    fn empty_and_blank_text_have_no_sentences() {
        assert!(split_sentences("").is_empty());
        assert!(split_sentences(" \n\n\t \r\n").is_empty());
    }

    #[test]
    fn spans_are_ascending_disjoint_and_trimmed() {
        let text = "  A first one.  B second one!\n\n\nC third one?  ";
        let spans = split_sentences(text);
        assert_eq!(spans.len(), 3);
        for w in spans.windows(2) {
            assert!(w[0].end <= w[1].start);
        }
        for r in &spans {
            let s = &text[r.clone()];
            assert_eq!(s, s.trim());
        }
    }
}
