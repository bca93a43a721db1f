//! Words for alignment: maximal runs of letters and digits, lowercased, hashed, with their byte
//! spans.
//!
//! Alignment compares two texts word by word, so the only requirement on a word is that the same
//! text gives the same words on both sides. Runs of alphanumeric characters meet it and, unlike
//! UAX #29 words, cut `study.Bachelor` (two sentences glued without a space) and `U.S.-based`
//! into their parts, so a glued boundary costs one word, not a mismatch of the whole token.

/// One word of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
    /// XXH3 of the lowercased word.
    pub hash: u64,
}

/// The words of `text`, in order.
pub fn words(text: &str) -> Vec<Word> {
    let mut out = Vec::with_capacity(text.len() / 6);
    let mut buf = String::new();
    let mut start: Option<usize> = None;
    let push = |s: usize, e: usize, buf: &mut String, out: &mut Vec<Word>| {
        let w = &text[s..e];
        let hash = if w.bytes().all(|b| !b.is_ascii_uppercase()) {
            xxhash_rust::xxh3::xxh3_64(w.as_bytes())
        } else {
            buf.clear();
            buf.extend(w.chars().flat_map(char::to_lowercase));
            xxhash_rust::xxh3::xxh3_64(buf.as_bytes())
        };
        out.push(Word {
            start: s as u32,
            end: e as u32,
            hash,
        });
    };
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() {
            start.get_or_insert(i);
        } else if let Some(s) = start.take() {
            push(s, i, &mut buf, &mut out);
        }
    }
    if let Some(s) = start {
        push(s, text.len(), &mut buf, &mut out);
    }
    out
}

/// The words of `words` that overlap the byte span `[start, end)`, as an index range.
pub fn covering(words: &[Word], span: [usize; 2]) -> std::ops::Range<usize> {
    let first = words.partition_point(|w| (w.end as usize) <= span[0]);
    let last = words.partition_point(|w| (w.start as usize) < span[1]);
    first..last.max(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glued_sentences_and_abbreviations_are_cut() {
        let text = "graduate study.Bachelor's U.S.-based";
        let spans: Vec<&str> = words(text)
            .iter()
            .map(|w| &text[w.start as usize..w.end as usize])
            .collect();
        assert_eq!(
            spans,
            ["graduate", "study", "Bachelor", "s", "U", "S", "based"]
        );
        assert_eq!(words("Study")[0].hash, words("study")[0].hash);
    }

    #[test]
    fn covering_takes_partly_covered_words() {
        let w = words("one two three four");
        assert_eq!(covering(&w, [5, 9]), 1..3);
        assert_eq!(covering(&w, [0, 3]), 0..1);
        assert_eq!(covering(&w, [3, 4]), 1..1);
    }
}
