//! The edit operations: a text cut into sentence units, and words inside a sentence.
//!
//! A text is a prefix of white space and a list of [`Unit`]s: a sentence (as
//! [`split_sentences`] finds it) with the white space that follows it. Operations that move,
//! drop or add whole sentences rebuild the list and put a blank line (a paragraph break) at every
//! seam they make, so the sentence boundary there is certain whatever the sentences look like.
//! Operations inside a sentence change only its words and leave alone every word that touches a
//! sentence-ending mark, so the sentence keeps its boundaries too.

use std::ops::Range;

use icu_segmenter::WordSegmenter;
use icu_segmenter::options::WordBreakInvariantOptions;
use serde::Serialize;

use super::rng::SeededRng;
use crate::text::{StopWords, normalize_term, split_sentences};

/// The seam an edit makes between two sentences: a blank line.
pub const SEAM: &str = "\n\n";

/// One sentence and the white space after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// The sentence.
    pub text: String,
    /// The white space up to the next sentence (or the end of the text).
    pub gap: String,
}

/// A text as sentence units.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Units {
    /// White space before the first sentence.
    pub prefix: String,
    /// The sentences, in order.
    pub units: Vec<Unit>,
}

impl Units {
    /// Cut `text` at its sentences.
    pub fn new(text: &str) -> Self {
        let ranges = split_sentences(text);
        let prefix = text[..ranges.first().map_or(text.len(), |r| r.start)].to_string();
        let units = ranges
            .iter()
            .enumerate()
            .map(|(i, r)| Unit {
                text: text[r.clone()].to_string(),
                gap: text[r.end..ranges.get(i + 1).map_or(text.len(), |n| n.start)].to_string(),
            })
            .collect();
        Units { prefix, units }
    }

    /// The text again.
    pub fn join(&self) -> String {
        let mut out = self.prefix.clone();
        for u in &self.units {
            out.push_str(&u.text);
            out.push_str(&u.gap);
        }
        out
    }

    /// The white space after the last sentence.
    pub fn trailing(&self) -> String {
        self.units.last().map(|u| u.gap.clone()).unwrap_or_default()
    }
}

/// Whether sentence `i` of `units` can become `text` without moving a sentence boundary: the
/// sentence splitter, run on the previous sentence, the new one and the next one with their
/// white space, must find exactly those sentences.
pub fn keeps_boundaries(units: &Units, i: usize, text: &str) -> bool {
    let mut context = String::new();
    let mut expected = Vec::with_capacity(3);
    if i > 0 {
        let prev = &units.units[i - 1];
        expected.push(prev.text.as_str());
        context.push_str(&prev.text);
        context.push_str(&prev.gap);
    }
    expected.push(text.trim());
    context.push_str(text);
    context.push_str(&units.units[i].gap);
    if let Some(next) = units.units.get(i + 1) {
        expected.push(next.text.as_str());
        context.push_str(&next.text);
    }
    let found = split_sentences(&context);
    found.len() == expected.len()
        && found
            .iter()
            .zip(&expected)
            .all(|(r, e)| context[r.clone()] == **e)
}

/// Rebuild a text from `pieces`: each a sentence and whether a seam follows it. The last piece
/// gets the original text's trailing white space.
pub fn assemble(prefix: &str, pieces: Vec<(Unit, bool)>, trailing: &str) -> String {
    let n = pieces.len();
    let mut out = prefix.to_string();
    for (i, (unit, seam)) in pieces.into_iter().enumerate() {
        out.push_str(&unit.text);
        if i + 1 == n {
            out.push_str(trailing);
        } else if seam {
            out.push_str(SEAM);
        } else {
            out.push_str(&unit.gap);
        }
    }
    out
}

/// The words of a text for the rewrites: every word of the source documents, each occurrence
/// once (so a draw follows word frequency), split into stop words and content words.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    stop: Vec<String>,
    content: Vec<String>,
}

impl Vocabulary {
    /// The vocabulary of `texts`: their words as [`crate::text::for_each_word`] gives them
    /// (lowercase), keeping only words of letters and digits with inner `'` or `-` (no `3.5`, no
    /// `u.s`: a word with a full stop could end or join a sentence).
    pub fn new<'a>(texts: impl IntoIterator<Item = &'a str>, stopwords: &StopWords) -> Self {
        let mut v = Vocabulary::default();
        for text in texts {
            crate::text::for_each_word(text, |w| {
                let plain = w
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '\'' || c == '-')
                    && w.starts_with(char::is_alphanumeric)
                    && w.ends_with(char::is_alphanumeric);
                if plain {
                    if stopwords.contains(w) {
                        v.stop.push(w.to_string());
                    } else {
                        v.content.push(w.to_string());
                    }
                }
            });
        }
        v
    }

    /// True when there is no word at all.
    pub fn is_empty(&self) -> bool {
        self.stop.is_empty() && self.content.is_empty()
    }

    /// A word drawn in proportion to its frequency.
    pub fn any(&self, rng: &mut SeededRng) -> &str {
        let k = rng.below(self.stop.len() + self.content.len());
        if k < self.stop.len() {
            &self.stop[k]
        } else {
            &self.content[k - self.stop.len()]
        }
    }

    /// A word of one class (stop words when `stop`), in proportion to its frequency; the other
    /// class when this one is empty.
    pub fn of_class(&self, stop: bool, rng: &mut SeededRng) -> &str {
        let list = match (stop, self.stop.is_empty(), self.content.is_empty()) {
            (true, false, _) | (false, _, true) => &self.stop,
            _ => &self.content,
        };
        &list[rng.below(list.len())]
    }
}

/// The byte ranges of the words of `sentence` (UAX #29 words with a letter or digit).
pub fn word_spans(sentence: &str) -> Vec<Range<usize>> {
    let segmenter =
        WordSegmenter::new_for_non_complex_scripts(WordBreakInvariantOptions::default());
    let mut out = Vec::new();
    let mut breaks = segmenter.segment_str(sentence);
    let mut start = 0;
    while let Some(end) = breaks.next() {
        if end > start
            && breaks.is_word_like()
            && sentence[start..end].chars().any(char::is_alphanumeric)
        {
            out.push(start..end);
        }
        start = end;
    }
    out
}

/// Marks that can end a sentence.
fn is_terminator(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '…' | '。' | '！' | '？')
}

/// Closing or opening quotes and brackets, looked through when deciding what a word touches.
fn is_quote(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | '’' | '‘' | '“' | '”' | '»' | '«' | ')' | '(' | ']' | '[' | '}' | '{'
    )
}

/// Whether the word at `span` may be edited: neither the next mark after it (through closing
/// quotes) nor the last mark before it (through white space and opening quotes) ends a sentence.
/// Changing such a word could move a boundary (`Gov. Cuomo`, `U.S. The`, `said I.`).
pub fn editable(sentence: &str, span: &Range<usize>) -> bool {
    let after = sentence[span.end..].chars().find(|&c| !is_quote(c));
    let before = sentence[..span.start]
        .chars()
        .rev()
        .find(|&c| !c.is_whitespace() && !is_quote(c));
    !after.is_some_and(is_terminator) && !before.is_some_and(is_terminator)
}

/// `word` (lowercase) in the case pattern of `like`: all capitals, a capital first letter, or as
/// it is.
pub fn in_case_of(word: &str, like: &str) -> String {
    let letters: Vec<char> = like.chars().filter(|c| c.is_alphabetic()).collect();
    if letters.len() > 1 && letters.iter().all(|c| c.is_uppercase()) {
        word.to_uppercase()
    } else if like.chars().next().is_some_and(char::is_uppercase) {
        capitalize(word)
    } else {
        word.to_string()
    }
}

/// `word` with its first character in upper case.
pub fn capitalize(word: &str) -> String {
    let mut c = word.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// One change to a word of a rewritten sentence; `word` is the index of the word in the original
/// sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum WordOp {
    /// The word was replaced.
    Substitute {
        /// Index of the word in the sentence.
        word: usize,
        /// The word before.
        from: String,
        /// The word after.
        to: String,
    },
    /// The word was removed (with one space next to it).
    Delete {
        /// Index of the word in the sentence.
        word: usize,
        /// The word removed.
        from: String,
    },
    /// A word was added after this one (with a space before it).
    Insert {
        /// Index of the word after which the new word stands.
        word: usize,
        /// The new word.
        to: String,
    },
}

/// Rewrite one sentence word by word: each editable word (see [`editable`]) is, with probability
/// `rate`, substituted by a vocabulary word, deleted, or followed by an inserted vocabulary word
/// (one of the three with equal chance). A sentence that draws no change has one editable word
/// substituted, so a rewritten sentence always differs. A deletion never leaves the sentence
/// without words. Replacements take the case pattern of the word they replace; if the first word
/// was capitalised, the sentence still starts with a capital. Returns the new sentence and the
/// changes, or `None` when no word is editable.
pub fn rewrite_sentence(
    sentence: &str,
    rate: f64,
    vocab: &Vocabulary,
    rng: &mut SeededRng,
) -> Option<(String, Vec<WordOp>)> {
    let spans = word_spans(sentence);
    let editable_words: Vec<usize> = (0..spans.len())
        .filter(|&i| editable(sentence, &spans[i]))
        .collect();
    if editable_words.is_empty() || vocab.is_empty() {
        return None;
    }
    let mut ops: Vec<WordOp> = Vec::new();
    let mut remaining = spans.len();
    for &i in &editable_words {
        if !rng.chance(rate) {
            continue;
        }
        let from = &sentence[spans[i].clone()];
        match rng.below(3) {
            0 => ops.push(WordOp::Substitute {
                word: i,
                from: from.to_string(),
                to: in_case_of(&different_word(from, vocab, rng), from),
            }),
            1 if remaining > 1 => {
                remaining -= 1;
                ops.push(WordOp::Delete {
                    word: i,
                    from: from.to_string(),
                });
            }
            1 => ops.push(WordOp::Substitute {
                word: i,
                from: from.to_string(),
                to: in_case_of(&different_word(from, vocab, rng), from),
            }),
            _ => ops.push(WordOp::Insert {
                word: i,
                to: vocab.any(rng).to_string(),
            }),
        }
    }
    if ops.is_empty() {
        let i = editable_words[rng.below(editable_words.len())];
        let from = &sentence[spans[i].clone()];
        ops.push(WordOp::Substitute {
            word: i,
            from: from.to_string(),
            to: in_case_of(&different_word(from, vocab, rng), from),
        });
    }
    let text = apply_word_ops(sentence, &spans, &ops);
    Some((text, ops))
}

/// A vocabulary word other than `from` (compared lowercase); after 16 draws of the same word the
/// last draw is taken.
fn different_word(from: &str, vocab: &Vocabulary, rng: &mut SeededRng) -> String {
    let from = normalize_term(from);
    let mut w = vocab.any(rng);
    for _ in 0..16 {
        if w != from {
            break;
        }
        w = vocab.any(rng);
    }
    w.to_string()
}

/// Apply word changes (at most one per word, in word order) to a sentence.
pub fn apply_word_ops(sentence: &str, spans: &[Range<usize>], ops: &[WordOp]) -> String {
    let mut out = String::with_capacity(sentence.len() + 16);
    let mut copied = 0;
    let first_capital = spans
        .first()
        .is_some_and(|s| sentence[s.clone()].starts_with(char::is_uppercase));
    for op in ops {
        match op {
            WordOp::Substitute { word, to, .. } => {
                let s = &spans[*word];
                out.push_str(&sentence[copied..s.start]);
                out.push_str(to);
                copied = s.end;
            }
            WordOp::Delete { word, .. } => {
                let s = &spans[*word];
                // Remove the word and the white space after it (or, at the end, before it).
                let after = sentence[s.end..]
                    .chars()
                    .take_while(|c| c.is_whitespace())
                    .map(char::len_utf8)
                    .sum::<usize>();
                if after > 0 {
                    out.push_str(&sentence[copied..s.start]);
                    copied = s.end + after;
                } else {
                    let before = sentence[copied..s.start].trim_end_matches(char::is_whitespace);
                    out.push_str(before);
                    copied = s.end;
                }
            }
            WordOp::Insert { word, to } => {
                let s = &spans[*word];
                out.push_str(&sentence[copied..s.end]);
                out.push(' ');
                out.push_str(to);
                copied = s.end;
            }
        }
    }
    out.push_str(&sentence[copied..]);
    if first_capital {
        let spans = word_spans(&out);
        if let Some(s) = spans.first()
            && out[s.clone()].starts_with(char::is_lowercase)
        {
            let cap = capitalize(&out[s.clone()]);
            out.replace_range(s.clone(), &cap);
        }
    }
    out
}

/// One word substitution of the `substitute` kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Substitution {
    /// Index of the sentence in the original.
    pub sentence: usize,
    /// Index of the word in the sentence.
    pub word: usize,
    /// The word before.
    pub from: String,
    /// The word after.
    pub to: String,
    /// Whether a stop word became a content word or the other way round (which changes the
    /// sentence's length in terms by one).
    pub class_swap: bool,
}

/// Substitute words of a sentence (the `substitute` kind): each editable word, with probability
/// `rate`, is replaced by a vocabulary word of the other class (stop word ↔ content word) with
/// probability ½, else by one of its own class, other than itself. With `only`, just that word
/// is replaced.
pub fn substitute_words(
    sentence: &str,
    index: usize,
    rate: f64,
    vocab: &Vocabulary,
    stopwords: &StopWords,
    rng: &mut SeededRng,
    only: Option<usize>,
) -> (String, Vec<Substitution>) {
    let spans = word_spans(sentence);
    let mut subs = Vec::new();
    let mut ops = Vec::new();
    if vocab.is_empty() {
        return (sentence.to_string(), subs);
    }
    for (i, span) in spans.iter().enumerate() {
        let chosen = match only {
            Some(w) => w == i,
            None => editable(sentence, span) && rng.chance(rate),
        };
        if !chosen {
            continue;
        }
        let from = &sentence[span.clone()];
        let from_stop = stopwords.contains(&normalize_term(from));
        let swap = rng.chance(0.5);
        let want_stop = from_stop != swap;
        let mut to = vocab.of_class(want_stop, rng);
        for _ in 0..16 {
            if to != normalize_term(from) {
                break;
            }
            to = vocab.of_class(want_stop, rng);
        }
        let to = in_case_of(to, from);
        let class_swap = stopwords.contains(&normalize_term(&to)) != from_stop;
        subs.push(Substitution {
            sentence: index,
            word: i,
            from: from.to_string(),
            to: to.clone(),
            class_swap,
        });
        ops.push(WordOp::Substitute {
            word: i,
            from: from.to_string(),
            to,
        });
    }
    (apply_word_ops(sentence, &spans, &ops), subs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_join_back_to_the_text() {
        let text = "  First one. Second one!\n\nThird\nline here.\n";
        let u = Units::new(text);
        assert_eq!(u.units.len(), 3);
        assert_eq!(u.prefix, "  ");
        assert_eq!(u.units[1].gap, "\n\n");
        assert_eq!(u.join(), text);
        assert_eq!(u.trailing(), "\n");
    }

    #[test]
    fn words_next_to_a_full_stop_are_frozen() {
        let s = "He met Gov. Cuomo in the U.S. Senate today.";
        let spans = word_spans(s);
        let frozen: Vec<&str> = spans
            .iter()
            .filter(|r| !editable(s, r))
            .map(|r| &s[r.clone()])
            .collect();
        assert_eq!(frozen, ["Gov", "Cuomo", "U.S", "Senate", "today"]);
        let q = "\"Is it over?\" she asked.";
        let spans = word_spans(q);
        let frozen: Vec<&str> = spans
            .iter()
            .filter(|r| !editable(q, r))
            .map(|r| &q[r.clone()])
            .collect();
        assert_eq!(frozen, ["over", "she", "asked"]);
    }

    #[test]
    fn case_is_carried_over() {
        assert_eq!(in_case_of("river", "The"), "River");
        assert_eq!(in_case_of("river", "NASA"), "RIVER");
        assert_eq!(in_case_of("river", "of"), "river");
        assert_eq!(in_case_of("river", "3"), "river");
    }

    #[test]
    fn word_ops_apply_and_keep_a_capital_start() {
        let s = "The cat sat on the mat.";
        let spans = word_spans(s);
        let ops = vec![
            WordOp::Delete {
                word: 0,
                from: "The".into(),
            },
            WordOp::Substitute {
                word: 2,
                from: "sat".into(),
                to: "slept".into(),
            },
            WordOp::Insert {
                word: 3,
                to: "top".into(),
            },
        ];
        assert_eq!(apply_word_ops(s, &spans, &ops), "Cat slept on top the mat.");
    }
}
