//! The kinds of edit with their settings, and the settings of [`synthesize`](super::synthesize).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::text::StopWords;

/// A kind of planted edit (see the [module docs](super) for exactly what each does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EditKind {
    /// Rewrite the last of A paragraphs (seed papers' scenario, A = 8).
    LastParagraph,
    /// Rewrite every A-th or (A + 1)-th sentence (seed papers' scenario, A = 5).
    EveryNth,
    /// Delete a share of the sentences.
    Delete,
    /// Insert sentences of other documents.
    Insert,
    /// Cut into runs and reorder them.
    Reorder,
    /// Word substitutions, half of them stop word ↔ content word swaps.
    Substitute,
    /// A passage of the original pasted mid-sentence into another document.
    Paste,
    /// Boilerplate around the text.
    Boilerplate,
    /// Figures written in another form of the same number (`5 pct` → `5%`).
    Figures,
}

impl EditKind {
    /// Every kind, in the order of the module docs.
    pub const ALL: [EditKind; 9] = [
        EditKind::LastParagraph,
        EditKind::EveryNth,
        EditKind::Delete,
        EditKind::Insert,
        EditKind::Reorder,
        EditKind::Substitute,
        EditKind::Paste,
        EditKind::Boilerplate,
        EditKind::Figures,
    ];

    /// Whether the kind is planted when none are named: every kind but `figures`, which only
    /// news and other text with many figures can take (the default mix is the one every
    /// synthetic set of the project was made with).
    pub fn in_default_mix(self) -> bool {
        self != EditKind::Figures
    }

    /// The kind's name, as in the truth file and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            EditKind::LastParagraph => "last-paragraph",
            EditKind::EveryNth => "every-nth",
            EditKind::Delete => "delete",
            EditKind::Insert => "insert",
            EditKind::Reorder => "reorder",
            EditKind::Substitute => "substitute",
            EditKind::Paste => "paste",
            EditKind::Boilerplate => "boilerplate",
            EditKind::Figures => "figures",
        }
    }

    /// The setting used when none is given.
    pub fn default_setting(self) -> f64 {
        match self {
            EditKind::LastParagraph => 8.0,
            EditKind::EveryNth => 5.0,
            EditKind::Delete | EditKind::Insert => 0.2,
            EditKind::Reorder => 4.0,
            EditKind::Substitute => 0.1,
            EditKind::Paste => 5.0,
            EditKind::Boilerplate => 6.0,
            EditKind::Figures => 1.0,
        }
    }

    /// Whether the kind takes text from documents that are not originals.
    pub(super) fn needs_donors(self) -> bool {
        matches!(self, EditKind::Insert | EditKind::Paste)
    }

    /// Check a setting: `Err` says what would be valid.
    fn check(self, a: f64) -> std::result::Result<(), &'static str> {
        let whole = a.fract() == 0.0;
        let ok = match self {
            EditKind::LastParagraph | EditKind::EveryNth | EditKind::Paste => whole && a >= 1.0,
            EditKind::Reorder => whole && a >= 2.0,
            EditKind::Boilerplate => whole && (1.0..=8.0).contains(&a),
            EditKind::Delete => a > 0.0 && a < 1.0,
            EditKind::Insert => a > 0.0 && a <= 10.0,
            EditKind::Substitute | EditKind::Figures => a > 0.0 && a <= 1.0,
        };
        if ok {
            return Ok(());
        }
        Err(match self {
            EditKind::LastParagraph => "last-paragraph:A takes a whole number of paragraphs ≥ 1",
            EditKind::EveryNth => "every-nth:A takes a whole number ≥ 1",
            EditKind::Paste => "paste:A takes a whole number of sentences ≥ 1",
            EditKind::Reorder => "reorder:A takes a whole number of runs ≥ 2",
            EditKind::Boilerplate => "boilerplate:A takes a whole number of sentences from 1 to 8",
            EditKind::Delete => "delete:A takes a share above 0 and below 1",
            EditKind::Insert => "insert:A takes a share above 0 and at most 10",
            EditKind::Substitute => "substitute:A takes a share above 0 and at most 1",
            EditKind::Figures => "figures:A takes a share above 0 and at most 1",
        })
    }
}

impl fmt::Display for EditKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for EditKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl FromStr for EditKind {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        EditKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| Error::InvalidParameter {
                name: "synth.kinds",
                value: s.to_string(),
                expected: "last-paragraph, every-nth, delete, insert, reorder, substitute, paste, boilerplate or figures",
            })
    }
}

/// A kind with its setting, written `kind` or `kind:A` (e.g. `delete:0.3`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KindSpec {
    /// The kind.
    pub kind: EditKind,
    /// Its setting (see the table of the [module docs](super)).
    pub setting: f64,
}

impl KindSpec {
    /// The kind with its default setting.
    pub fn new(kind: EditKind) -> Self {
        KindSpec {
            kind,
            setting: kind.default_setting(),
        }
    }

    /// The kinds of the default mix ([`EditKind::in_default_mix`]), each with its default
    /// setting.
    pub fn all() -> Vec<KindSpec> {
        EditKind::ALL
            .into_iter()
            .filter(|k| k.in_default_mix())
            .map(KindSpec::new)
            .collect()
    }
}

impl FromStr for KindSpec {
    type Err = Error;

    /// # Example
    /// ```
    /// use slst::synth::{EditKind, KindSpec};
    /// let k: KindSpec = "delete:0.3".parse().unwrap();
    /// assert_eq!((k.kind, k.setting), (EditKind::Delete, 0.3));
    /// assert_eq!("reorder".parse::<KindSpec>().unwrap().setting, 4.0);
    /// assert!("reorder:1".parse::<KindSpec>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self> {
        let (name, setting) = match s.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (s, None),
        };
        let kind: EditKind = name.trim().parse()?;
        let setting = match setting {
            None => kind.default_setting(),
            Some(a) => a
                .trim()
                .parse::<f64>()
                .map_err(|_| Error::InvalidParameter {
                    name: "synth.kinds",
                    value: s.to_string(),
                    expected: "KIND or KIND:NUMBER",
                })?,
        };
        kind.check(setting)
            .map_err(|expected| Error::InvalidParameter {
                name: "synth.kinds",
                value: s.to_string(),
                expected,
            })?;
        Ok(KindSpec { kind, setting })
    }
}

/// Settings of [`synthesize`](super::synthesize).
#[derive(Debug, Clone, PartialEq)]
pub struct SynthConfig {
    /// How many originals to take (each gets one variant).
    pub docs: usize,
    /// The seed of every random choice.
    pub seed: u64,
    /// The kinds to plant, dealt out evenly over the originals (counts differ by at most one).
    pub kinds: Vec<KindSpec>,
    /// Chance that a word of a rewritten sentence is changed.
    pub word_rate: f64,
    /// Only documents with at least this many sentences become originals.
    pub min_sentences: usize,
    /// Stop words: which words are stop words for `substitute`'s class swaps.
    pub stopwords: StopWords,
}

impl Default for SynthConfig {
    fn default() -> Self {
        SynthConfig {
            docs: 100,
            seed: 0,
            kinds: KindSpec::all(),
            word_rate: 0.3,
            min_sentences: 8,
            stopwords: StopWords::english(),
        }
    }
}

/// Check every setting of `config`.
impl SynthConfig {
    /// Check the settings, before any document is read.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] naming the setting.
    pub fn validate(&self) -> Result<()> {
        check_config(self)
    }
}

/// What [`SynthConfig::validate`] checks.
pub(super) fn check_config(config: &SynthConfig) -> Result<()> {
    if config.stopwords.is_auto() {
        return Err(Error::InvalidParameter {
            name: "synth.stopwords",
            value: "auto".into(),
            expected: "one list (the substitutions draw from one vocabulary of every document)",
        });
    }
    if config.kinds.is_empty() {
        return Err(Error::InvalidParameter {
            name: "synth.kinds",
            value: String::new(),
            expected: "at least one kind",
        });
    }
    for k in &config.kinds {
        k.kind
            .check(k.setting)
            .map_err(|expected| Error::InvalidParameter {
                name: "synth.kinds",
                value: format!("{}:{}", k.kind, k.setting),
                expected,
            })?;
    }
    if !(config.word_rate > 0.0 && config.word_rate <= 1.0) {
        return Err(Error::InvalidParameter {
            name: "synth.word_rate",
            value: config.word_rate.to_string(),
            expected: "a share above 0 and at most 1",
        });
    }
    Ok(())
}
