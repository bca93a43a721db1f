//! Stop words: the words removed before a sentence's length is counted.
//!
//! The list *defines* every sentence length and so every signature: two runs with different lists
//! give different results. Each list therefore carries an id that reports record.

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

/// An in-memory hash (never persisted): foldhash is the fastest measured for short words.
type FastSet = HashSet<String, foldhash::fast::RandomState>;
use std::path::Path;

use crate::error::{Error, Result};
use rust_stemmers::Algorithm;

/// The built-in English list: NLTK's English stop-word list (179 words), shipped as data in
/// `src/text/data/en-nltk-179.txt`.
const ENGLISH_NLTK: &str = include_str!("data/en-nltk-179.txt");

/// Where a built-in list other than English comes from: NLTK's stop-word corpus (the Snowball
/// project's lists, and others NLTK added) or, for a language NLTK lacks, Stopwords-ISO; both as
/// the `stop-words` crate carries them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Nltk,
    Iso,
}

/// The built-in lists by language: English name, ISO 639-1 code, source. English is NLTK's
/// older list of 179 words ([`ENGLISH_NLTK`]), not the crate's longer one.
const LANGUAGES: &[(&str, &str, Source)] = &[
    ("albanian", "sq", Source::Nltk),
    ("arabic", "ar", Source::Nltk),
    ("azerbaijani", "az", Source::Nltk),
    ("basque", "eu", Source::Nltk),
    ("belarusian", "be", Source::Nltk),
    ("bengali", "bn", Source::Nltk),
    ("catalan", "ca", Source::Nltk),
    ("chinese", "zh", Source::Nltk),
    ("danish", "da", Source::Nltk),
    ("dutch", "nl", Source::Nltk),
    ("english", "en", Source::Nltk),
    ("finnish", "fi", Source::Nltk),
    ("french", "fr", Source::Nltk),
    ("german", "de", Source::Nltk),
    ("greek", "el", Source::Nltk),
    ("hebrew", "he", Source::Nltk),
    ("hungarian", "hu", Source::Nltk),
    ("indonesian", "id", Source::Nltk),
    ("italian", "it", Source::Nltk),
    ("kazakh", "kk", Source::Nltk),
    ("nepali", "ne", Source::Nltk),
    ("norwegian", "no", Source::Nltk),
    ("portuguese", "pt", Source::Nltk),
    ("romanian", "ro", Source::Nltk),
    ("russian", "ru", Source::Nltk),
    ("slovenian", "sl", Source::Nltk),
    ("spanish", "es", Source::Nltk),
    ("swedish", "sv", Source::Nltk),
    ("tajik", "tg", Source::Nltk),
    ("tamil", "ta", Source::Nltk),
    ("turkish", "tr", Source::Nltk),
    ("ukrainian", "uk", Source::Iso),
    ("uzbek", "uz", Source::Nltk),
];

/// A set of stop words with an id naming where it came from. Cheap to clone: the sets are
/// shared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StopWords {
    id: String,
    words: Arc<FastSet>,
    /// The words of more than [`PACKED_MAX`] bytes, with their spellings with `ё` ([`yo_spellings`]).
    long: Arc<FastSet>,
    /// The words of up to [`PACKED_MAX`] bytes, with their spellings with `ё`, packed ([`pack`]):
    /// looking up a packed word hashes one integer instead of a string, and every term is looked
    /// up.
    packed: Arc<HashSet<u128, foldhash::fast::RandomState>>,
    /// The longest word's byte length: a longer term cannot be a stop word.
    longest: usize,
    /// `auto`: no words of its own; each document takes its language's list
    /// ([`StopWords::for_text`]).
    auto: bool,
    /// The ISO 639-1 code of a built-in list's language; `None` for a list read from a file,
    /// `none` and `auto`.
    language: Option<&'static str>,
}

/// The Snowball stemmers (the `rust-stemmers` crate) by the ISO 639-1 code of the built-in
/// list of their language: the one mapping between stop-word lists and stemmers
/// ([`StopWords::stemmer`]).
const SNOWBALL: &[(&str, Algorithm)] = {
    use Algorithm::*;
    &[
        ("ar", Arabic),
        ("da", Danish),
        ("de", German),
        ("el", Greek),
        ("en", English),
        ("es", Spanish),
        ("fi", Finnish),
        ("fr", French),
        ("hu", Hungarian),
        ("it", Italian),
        ("nl", Dutch),
        ("no", Norwegian),
        ("pt", Portuguese),
        ("ro", Romanian),
        ("ru", Russian),
        ("sv", Swedish),
        ("ta", Tamil),
        ("tr", Turkish),
    ]
};

/// The longest word that [`pack`] packs.
const PACKED_MAX: usize = 15;

/// A word of at most [`PACKED_MAX`] bytes as one integer: its bytes, then its length in the top
/// byte (so no two words pack alike, NUL bytes or not).
///
/// Equal to [`pack_naive`] (the tests check every length), but with two overlapping loads
/// instead of a copy of variable length, which was a call to `memcpy` per term.
#[inline]
fn pack(word: &str) -> u128 {
    let b = word.as_bytes();
    let n = b.len();
    let bytes = if n >= 8 {
        // The first eight bytes, then bytes 8..n: the top n − 8 bytes of the last eight.
        let lo = u64::from_le_bytes(b[..8].try_into().unwrap_or_default());
        let hi = u64::from_le_bytes(b[n - 8..].try_into().unwrap_or_default());
        u128::from(lo) | u128::from(hi.checked_shr(8 * (16 - n) as u32).unwrap_or(0)) << 64
    } else if n >= 4 {
        let lo = u32::from_le_bytes(b[..4].try_into().unwrap_or_default());
        let hi = u32::from_le_bytes(b[n - 4..].try_into().unwrap_or_default());
        u128::from(lo) | u128::from(hi.checked_shr(8 * (8 - n) as u32).unwrap_or(0)) << 32
    } else {
        b.iter()
            .rev()
            .fold(0u128, |acc, &c| acc << 8 | u128::from(c))
    };
    bytes | (n as u128) << 120
}

/// What [`pack`] computes, written plainly: the bytes, zero-padded, little-endian, and the length
/// in the top byte.
#[cfg(test)]
fn pack_naive(word: &str) -> u128 {
    let mut bytes = [0u8; 16];
    bytes[..word.len()].copy_from_slice(word.as_bytes());
    bytes[15] = word.len() as u8;
    u128::from_le_bytes(bytes)
}

/// A word and its spellings with `ё` for any of its Cyrillic `е`s: Russian print mostly leaves
/// `ё` out, so lists spell `её`, `всё`, `ещё` with `е` while texts use both. (Words with more
/// than six `е`s, which no list holds, get only their first six varied.)
fn yo_spellings(word: &str) -> Vec<String> {
    let at: Vec<usize> = word
        .char_indices()
        .filter(|&(_, c)| c == 'е')
        .map(|(i, _)| i)
        .take(6)
        .collect();
    (0..1u32 << at.len())
        .map(|mask| {
            let mut out = String::with_capacity(word.len());
            let mut last = 0;
            for (bit, &i) in at.iter().enumerate() {
                out.push_str(&word[last..i]);
                out.push(if mask >> bit & 1 == 1 { 'ё' } else { 'е' });
                last = i + 'е'.len_utf8();
            }
            out.push_str(&word[last..]);
            out
        })
        .collect()
}

impl StopWords {
    /// A list from its id and words (already normalised).
    fn from_words(id: &str, words: FastSet) -> Self {
        let spellings: Vec<String> = words.iter().flat_map(|w| yo_spellings(w)).collect();
        let packed = spellings
            .iter()
            .filter(|w| w.len() <= PACKED_MAX)
            .map(|w| pack(w))
            .collect();
        let long = spellings
            .iter()
            .filter(|w| w.len() > PACKED_MAX)
            .cloned()
            .collect();
        let longest = spellings.iter().map(String::len).max().unwrap_or(0);
        StopWords {
            id: id.to_string(),
            words: Arc::new(words),
            long: Arc::new(long),
            packed: Arc::new(packed),
            longest,
            auto: false,
            language: None,
        }
    }

    /// The built-in list of a language (a row of [`LANGUAGES`]); its id is the ISO 639-1 code,
    /// the source and the number of words (`ru-nltk-151`).
    fn language(code: &'static str, source: Source) -> Self {
        if code == "en" {
            return Self::english();
        }
        let words = stop_words::lookup(code).unwrap_or_default();
        let list = Self::parse("", &words.join("\n"));
        let source = match source {
            Source::Nltk => "nltk",
            Source::Iso => "iso",
        };
        Self {
            language: Some(code),
            ..Self::from_words(&format!("{code}-{source}-{}", list.len()), list.words_set())
        }
    }

    /// The words as a set (a copy).
    fn words_set(&self) -> FastSet {
        self.words.as_ref().clone()
    }

    /// The languages with a built-in list: English name and ISO 639-1 code (`("russian",
    /// "ru")`), by name.
    pub fn builtin_languages() -> impl Iterator<Item = (&'static str, &'static str)> {
        LANGUAGES.iter().map(|&(name, code, _)| (name, code))
    }

    /// The names of the built-in lists, as `--stopwords` takes them: `auto`, `none`, then each
    /// language's English name and ISO 639-1 code (`russian`, `ru`, …). A list's id is taken
    /// too.
    pub fn builtin_names() -> Vec<String> {
        ["auto", "none"]
            .map(String::from)
            .into_iter()
            .chain(
                Self::builtin_languages()
                    .flat_map(|(name, code)| [name.to_string(), code.to_string()]),
            )
            .collect()
    }
}

impl StopWords {
    /// The built-in English list (id `en-nltk-179`).
    ///
    /// # Example
    /// ```
    /// let stop = slst::text::StopWords::english();
    /// assert!(stop.contains("the"));
    /// assert!(!stop.contains("pagerank"));
    /// ```
    pub fn english() -> Self {
        Self {
            language: Some("en"),
            ..Self::parse("en-nltk-179", ENGLISH_NLTK)
        }
    }

    /// Each document's own language's list (id `auto`): [`StopWords::for_text`] chooses it by
    /// [`crate::text::language`], and takes English when the language is not told reliably or
    /// has no list. Holds no words itself.
    pub fn auto() -> Self {
        Self {
            auto: true,
            ..Self::from_words("auto", FastSet::default())
        }
    }

    /// Whether this is [`StopWords::auto`].
    pub fn is_auto(&self) -> bool {
        self.auto
    }

    /// The list for a document of this text: this list, or for [`StopWords::auto`] the list of
    /// the text's language (English when there is none).
    ///
    /// # Example
    /// ```
    /// use slst::text::StopWords;
    /// let auto = StopWords::auto();
    /// let ru = "Утром над городом прошёл сильный дождь, и улицы быстро опустели. \
    ///           К полудню небо прояснилось, а ветер стих.";
    /// assert_eq!(auto.for_text(ru).id(), "ru-nltk-151");
    /// assert_eq!(auto.for_text("12 34").id(), "en-nltk-179");
    /// assert_eq!(StopWords::none().for_text(ru).id(), "none");
    /// ```
    pub fn for_text(&self, text: &str) -> &Self {
        if !self.auto {
            return self;
        }
        /// Each language's list, built once.
        static LISTS: [OnceLock<StopWords>; LANGUAGES.len()] =
            [const { OnceLock::new() }; LANGUAGES.len()];
        let position = |code: &str| LANGUAGES.iter().position(|&(_, c, _)| c == code);
        let at = super::language(text)
            .and_then(position)
            .or_else(|| position("en"))
            .unwrap_or_default();
        let (_, code, source) = LANGUAGES[at];
        LISTS[at].get_or_init(|| Self::language(code, source))
    }

    /// No stop words at all (id `none`): every word is a term.
    pub fn none() -> Self {
        Self::from_words("none", FastSet::default())
    }

    /// A built-in list by its name or id: `none`, `auto` ([`StopWords::auto`]), or a language's English name, ISO 639-1 code or
    /// list id (`english`, `en`, `en-nltk-179`; `russian`, `ru`, `ru-nltk-151`; `ukrainian`,
    /// `uk`, `uk-iso-73`; all in [`StopWords::builtin_names`]).
    ///
    /// # Example
    /// ```
    /// let stop = slst::text::StopWords::builtin("russian").unwrap();
    /// assert_eq!(stop.id(), "ru-nltk-151");
    /// assert!(stop.contains("и") && stop.contains("всё"));
    /// ```
    pub fn builtin(name: &str) -> Option<Self> {
        let name = name.trim();
        match name {
            "none" => return Some(Self::none()),
            "auto" => return Some(Self::auto()),
            _ => {}
        }
        LANGUAGES.iter().find_map(|&(language, code, source)| {
            if name == language || name == code {
                return Some(Self::language(code, source));
            }
            // An id: the code, then a dash (so `uk` is not taken for the start of `ukrainian`).
            let id = name.strip_prefix(code)?.strip_prefix('-')?;
            let list = Self::language(code, source);
            (list.id()[code.len() + 1..] == *id).then_some(list)
        })
    }

    /// A built-in list by its name (see [`StopWords::builtin`]), else the list in the file of
    /// that path ([`StopWords::from_file`]): what `--stopwords` and the `stopwords` setting take.
    ///
    /// # Errors
    /// The file cannot be read, or is not text.
    pub fn named(name: &str) -> Result<Self> {
        if let Some(list) = Self::builtin(name) {
            return Ok(list);
        }
        let path = Path::new(name.trim());
        Self::from_file(path).map_err(|e| match e {
            Error::Io { path, source } if source.kind() == std::io::ErrorKind::NotFound => {
                Error::UnknownStopWords {
                    path,
                    source,
                    names: Self::builtin_names().join(", "),
                }
            }
            e => e,
        })
    }

    /// A list given one word per line; blank lines and lines starting with `#` are ignored, words
    /// are lowercased. The id is `file:` followed by the path.
    ///
    /// # Errors
    /// The file cannot be read, or is not text.
    pub fn from_file(path: &Path) -> Result<Self> {
        let bytes = crate::document::read_bytes(path, crate::document::DEFAULT_MAX_BYTES)?;
        let (text, _) = crate::document::decode_text(&bytes).map_err(|e| Error::Binary {
            path: path.to_path_buf(),
            reason: e.0,
        })?;
        Ok(Self::parse(&format!("file:{}", path.display()), &text))
    }

    /// A list from text, one word per line (see [`StopWords::from_file`]).
    pub fn parse(id: &str, text: &str) -> Self {
        let words = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(super::normalize_term)
            .collect();
        Self::from_words(id, words)
    }

    /// Whether `term` (already normalised: lowercase, straight apostrophes) is a stop word.
    pub fn contains(&self, term: &str) -> bool {
        if term.len() <= PACKED_MAX {
            self.packed.contains(&pack(term))
        } else {
            term.len() <= self.longest && self.long.contains(term)
        }
    }

    /// The list's id, recorded in reports.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The Snowball stemmer for terms counted with this list: a built-in list's language's,
    /// where Snowball has one (`None` for Ukrainian or Chinese: a text is never stemmed by
    /// another language's rules), and English for a list of no language (a file, `none`).
    /// [`StopWords::auto`] has no stemmer of its own: take [`StopWords::for_text`]'s.
    ///
    /// # Example
    /// ```
    /// use rust_stemmers::Algorithm;
    /// use slst::text::StopWords;
    /// assert_eq!(StopWords::builtin("ru").unwrap().stemmer(), Some(Algorithm::Russian));
    /// assert_eq!(StopWords::builtin("uk").unwrap().stemmer(), None);
    /// assert_eq!(StopWords::none().stemmer(), Some(Algorithm::English));
    /// ```
    pub fn stemmer(&self) -> Option<Algorithm> {
        match self.language {
            Some(code) => SNOWBALL
                .iter()
                .find_map(|&(c, algorithm)| (c == code).then_some(algorithm)),
            None => Some(Algorithm::English),
        }
    }

    /// The words, sorted (an index stores them, so that a list read from a file is kept).
    pub fn words(&self) -> Vec<&str> {
        let mut words: Vec<&str> = self.words.iter().map(String::as_str).collect();
        words.sort_unstable();
        words
    }

    /// How many words the list holds.
    pub fn len(&self) -> usize {
        self.words.len()
    }

    /// True for the empty list.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

impl Default for StopWords {
    fn default() -> Self {
        Self::english()
    }
}

/// A list is written as its id (as reports record it). Only the built-in lists can be read back
/// from their ids; a list read from a file is stored with its words by whoever must keep it
/// (an index stores them beside its settings).
impl serde::Serialize for StopWords {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl<'de> serde::Deserialize<'de> for StopWords {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        let id = String::deserialize(deserializer)?;
        StopWords::builtin(&id).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "no built-in stop-word list {id:?} (one of: {})",
                StopWords::builtin_names().join(", ")
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_stemmer_is_the_one_of_its_lists_language() {
        for &(code, algorithm) in SNOWBALL {
            let (name, _, _) = LANGUAGES.iter().find(|&&(_, c, _)| c == code).unwrap();
            assert_eq!(format!("{algorithm:?}").to_lowercase(), *name);
            assert_eq!(StopWords::builtin(code).unwrap().stemmer(), Some(algorithm));
        }
        assert_eq!(StopWords::english().stemmer(), Some(Algorithm::English));
        assert_eq!(StopWords::builtin("zh").unwrap().stemmer(), None);
        assert_eq!(
            StopWords::parse("file:x", "a").stemmer(),
            Some(Algorithm::English)
        );
    }

    #[test]
    fn english_list_has_179_words() {
        assert_eq!(StopWords::english().len(), 179);
    }

    #[test]
    fn every_language_resolves_by_name_code_and_id() {
        for &(name, code, source) in LANGUAGES {
            let list = StopWords::builtin(name).unwrap();
            let tag = if source == Source::Iso { "iso" } else { "nltk" };
            assert_eq!(list.id(), format!("{code}-{tag}-{}", list.len()), "{name}");
            assert!(list.len() > 20, "{name}: {} words", list.len());
            assert_eq!(StopWords::builtin(code).as_ref(), Some(&list), "{code}");
            assert_eq!(
                StopWords::builtin(list.id()).as_ref(),
                Some(&list),
                "{name}"
            );
        }
        let names = StopWords::builtin_names();
        assert_eq!(names.len(), 2 + 2 * LANGUAGES.len());
        assert!(names.iter().all(|n| StopWords::builtin(n).is_some()));
        let auto = StopWords::builtin("auto").unwrap();
        assert!(auto.is_auto() && auto.is_empty() && auto.id() == "auto");
        assert!(!StopWords::english().is_auto() && !StopWords::none().is_auto());
        // Each language's list is built once and shared.
        let uk = "Коефіцієнт Жаккара обчислюється таким чином. У відповідність кожному з \
                  векторів ставиться відповідна множина хешів.";
        assert!(std::ptr::eq(auto.for_text(uk), auto.for_text(uk)));
        assert_eq!(auto.for_text(uk), &StopWords::builtin("uk").unwrap());
    }

    #[test]
    fn russian_ukrainian_and_english_ids_and_words() {
        let ru = StopWords::builtin("ru").unwrap();
        assert_eq!(ru.id(), "ru-nltk-151");
        for w in ["и", "в", "не", "что", "она", "между", "потому", "всегда"]
        {
            assert!(ru.contains(w), "{w}");
        }
        assert!(!ru.contains("дубликат") && !ru.contains("the"));
        let uk = StopWords::builtin("ukrainian").unwrap();
        assert_eq!(uk.id(), "uk-iso-73");
        for w in ["але", "від", "для", "що", "який"] {
            assert!(uk.contains(w), "{w}");
        }
        // The default stays the older NLTK list, byte for byte, under every name.
        for name in ["english", "en", "en-nltk-179"] {
            assert_eq!(StopWords::builtin(name), Some(StopWords::english()));
        }
        for unknown in ["klingon", "ru-nltk-150", "uk-nltk-73", "ukr", "e", ""] {
            assert!(StopWords::builtin(unknown).is_none(), "{unknown:?}");
        }
    }

    #[test]
    fn cyrillic_words_lowercase_and_match_with_yo() {
        let ru = StopWords::builtin("russian").unwrap();
        // Lists spell `ё` as `е`; texts write either.
        for w in ["ее", "её", "все", "всё", "еще", "ещё"] {
            assert!(ru.contains(w), "{w}");
        }
        assert!(!ru.contains("дом") && !ru.contains("ёж"));
        let t = crate::text::Terms::new("Её ВСЁ ЕЩЁ НЕТ дома.", &ru);
        assert_eq!(t.joined(), "дома");
        assert_eq!(yo_spellings("нее"), ["нее", "нёе", "неё", "нёё"]);
        assert_eq!(yo_spellings("the"), ["the"]);
        // A long word (more than PACKED_MAX bytes) with `е`.
        let long = StopWords::parse("t", "непременно");
        assert!(long.contains("непременно") && long.contains("непремённо"));
        assert_eq!(long.len(), 1);
    }

    #[test]
    fn parsed_list_ignores_comments_and_case() {
        let s = StopWords::parse("t", "# comment\nThe\n\n  of \nDon’t\n");
        assert_eq!(s.len(), 3);
        assert!(s.contains("the") && s.contains("of") && s.contains("don't"));
        assert_eq!(s.id(), "t");
    }

    #[test]
    fn packing_equals_the_plain_definition_at_every_length() {
        let text = "abcdefghijklmnoABCDEFGHIJKLMNO0123456789'._";
        for start in 0..4 {
            for n in 0..=PACKED_MAX {
                let w = &text[start..start + n];
                assert_eq!(pack(w), pack_naive(w), "{w:?}");
            }
        }
    }

    #[test]
    fn short_and_long_words_are_found_and_prefixes_are_not() {
        let long = "a-very-long-stop-word-indeed";
        let s = StopWords::parse(
            "t",
            &format!("of\nfifteen-bytes-x\nsixteen-bytes-xy\n{long}\na\0"),
        );
        for w in ["of", "fifteen-bytes-x", "sixteen-bytes-xy", long, "a\0"] {
            assert!(s.contains(w), "{w:?}");
        }
        for w in [
            "o",
            "off",
            "a",
            "fifteen-bytes-",
            "sixteen-bytes-x",
            "a-very-long-stop-word",
        ] {
            assert!(!s.contains(w), "{w:?}");
        }
        let english = StopWords::english();
        assert!(english.contains("yourselves") && english.contains("shouldn't"));
        assert!(!english.contains("pagerank") && !english.contains(""));
    }
}
