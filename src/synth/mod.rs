//! Synthetic near-duplicates of real documents, with known ground truth and an edit log.
//!
//! [`synthesize`] takes real documents, picks [`SynthConfig::docs`] of them at random (the
//! *originals*) and makes one *variant* of each by one kind of edit. Every original–variant pair
//! is a planted near-duplicate that carries its kind and the amount of text the edit touched; the
//! outputs are the corpus (originals and variants, as TREC SGML), a truth file that `slst eval
//! --truth FILE --positive KIND,…` reads, and a JSON-lines log of every edit.
//!
//! # The kinds of edit
//! Sentences are those of [`split_sentences`](crate::text::split_sentences); *n* is the
//! original's number of sentences. A *rewrite* of a sentence is word-level noise, not paraphrase:
//! each word that may be edited is, with probability [`SynthConfig::word_rate`] (default 0.3),
//! replaced by a vocabulary word, deleted, or followed by an inserted vocabulary word, one of the
//! three with equal chance (see [`WordOp`]); a sentence that draws no change gets one
//! substitution. The *vocabulary* is every word occurrence of the originals, so draws follow word
//! frequency (stop words included). Words touching a sentence-ending mark (`today.`, `Gov.
//! Cuomo`) are never edited, and the capital at the start of a sentence is kept. An edited
//! sentence must keep its boundaries as the sentence splitter sees them (checked on it and its
//! two neighbours: `page B. But, Google` must not become `page B. Let, Google`, which the splitter
//! reads as one sentence); a draw that fails is drawn again, up to 8 times, and then the sentence
//! stays as it was (logged as `unchanged` for the rewrites).
//!
//! | kind | what it does | setting (`kind:A`) | amount in the truth file |
//! |---|---|---|---|
//! | `last-paragraph` | cut the sentences into A nearly equal runs ("paragraphs"); rewrite every sentence of the last, i.e. the last ⌈n/A⌉ | A = 8 | share of sentences rewritten |
//! | `every-nth` | rewrite one of the first A sentences, then each sentence A or A + 1 (equal chance) after the last rewritten | A = 5 | share of sentences rewritten |
//! | `delete` | delete round(A·n) sentences chosen at random (at least 1, keeping at least 2) | A = 0.2 | share deleted |
//! | `insert` | insert max(1, round(A·n)) sentences, each a random sentence of a random document that is not an original, at a random place | A = 0.2 | inserted / n |
//! | `reorder` | cut the sentences at random into A runs and put the runs in a random other order | A = 4 | share of sentences in runs that moved |
//! | `substitute` | replace each editable word with probability A, by a word of the other class (stop word ↔ content word, which changes the sentence's length in terms) or of its own class, equal chance | A = 0.1 | share of the words replaced |
//! | `paste` | paste A consecutive sentences of the original into a sentence of another document (not an original), after a random word of it: the variant is that host document with the passage | A = 5 | share of the original pasted |
//! | `boilerplate` | put ⌈A/2⌉ header and ⌊A/2⌋ footer sentences of one fixed site boilerplate ([`BOILERPLATE_HEADER`], [`BOILERPLATE_FOOTER`]) around the text | A = 6 | boilerplate sentences / n |
//!
//! Every seam an edit makes between sentences (a deleted sentence's place, an inserted sentence,
//! the ends of a moved run, the boilerplate) is a blank line, so the boundary there is certain.
//! A pasted passage is the exception on purpose: it sits inside a host sentence, so its first and
//! last sentences run into the host sentence's halves, as in real copy-and-paste into running
//! text. All variants of kind `boilerplate` share the same boilerplate, as pages of one site do;
//! those pairs are not near-duplicates and are not listed.
//!
//! # Determinism
//! All randomness comes from ChaCha8 keyed with [`SynthConfig::seed`] (the `rng` module): stream
//! 0 chooses the originals and deals out the kinds, stream *j* + 1 makes the variant of the
//! *j*-th original (in source order). The same documents, settings and seed give byte-identical
//! outputs on any machine; nothing runs in parallel.

pub(crate) mod rng;

mod edit;

use std::collections::HashSet;
use std::fmt;
use std::io::{self, Write};
use std::str::FromStr;

use serde::Serialize;

use crate::document::Document;
use crate::error::{Error, Result};
use crate::text::StopWords;
pub use edit::{Substitution, WordOp};
use edit::{Unit, Units, Vocabulary};
use rng::SeededRng;

/// The header sentences of the `boilerplate` kind, used in this order.
pub const BOILERPLATE_HEADER: [&str; 4] = [
    "Home | World | Business | Markets | Technology | Sport | Contact",
    "You are reading an article from our online archive.",
    "Sign in or register to save articles, follow topics and receive alerts.",
    "Advertisement",
];

/// The footer sentences of the `boilerplate` kind, used in this order.
pub const BOILERPLATE_FOOTER: [&str; 4] = [
    "Share this article on Facebook, Twitter or by email.",
    "Subscribe to our newsletter to get the latest news delivered to your inbox every morning.",
    "This material may not be published, broadcast, rewritten or redistributed without permission.",
    "All rights reserved by the publisher and its licensors",
];

/// A kind of planted edit (see the [module docs](self) for exactly what each does).
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
}

impl EditKind {
    /// Every kind, in the order of the module docs.
    pub const ALL: [EditKind; 8] = [
        EditKind::LastParagraph,
        EditKind::EveryNth,
        EditKind::Delete,
        EditKind::Insert,
        EditKind::Reorder,
        EditKind::Substitute,
        EditKind::Paste,
        EditKind::Boilerplate,
    ];

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
        }
    }

    /// Whether the kind takes text from documents that are not originals.
    fn needs_donors(self) -> bool {
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
            EditKind::Substitute => a > 0.0 && a <= 1.0,
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
                name: "--kinds",
                value: s.to_string(),
                expected: "last-paragraph, every-nth, delete, insert, reorder, substitute, paste or boilerplate",
            })
    }
}

/// A kind with its setting, written `kind` or `kind:A` (e.g. `delete:0.3`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KindSpec {
    /// The kind.
    pub kind: EditKind,
    /// Its setting (see the table of the [module docs](self)).
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

    /// Every kind with its default setting: the default mix.
    pub fn all() -> Vec<KindSpec> {
        EditKind::ALL.into_iter().map(KindSpec::new).collect()
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
                    name: "--kinds",
                    value: s.to_string(),
                    expected: "KIND or KIND:NUMBER",
                })?,
        };
        kind.check(setting)
            .map_err(|expected| Error::InvalidParameter {
                name: "--kinds",
                value: s.to_string(),
                expected,
            })?;
        Ok(KindSpec { kind, setting })
    }
}

/// Settings of [`synthesize`].
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

/// One edit of a variant, as the log records it. Sentence indices are those of the original
/// (from 0), word indices those of the sentence (from 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum Edit {
    /// A sentence rewritten word by word.
    Rewrite {
        /// The sentence.
        sentence: usize,
        /// The sentence before.
        before: String,
        /// The sentence after.
        after: String,
        /// The word changes.
        words: Vec<WordOp>,
    },
    /// A sentence that was to be rewritten but has no word that may be edited.
    Unchanged {
        /// The sentence.
        sentence: usize,
    },
    /// A sentence deleted.
    Delete {
        /// The sentence.
        sentence: usize,
        /// Its text.
        text: String,
    },
    /// A sentence of another document inserted.
    Insert {
        /// The original sentence it was put before (n: at the end).
        before: usize,
        /// The document it came from.
        donor: String,
        /// Its index in that document.
        donor_sentence: usize,
        /// Its text.
        text: String,
    },
    /// Runs of sentences put in another order.
    Reorder {
        /// The runs, as [start, end) sentence ranges of the original.
        runs: Vec<[usize; 2]>,
        /// The variant's runs, as indices into `runs`.
        order: Vec<usize>,
    },
    /// A word replaced.
    Substitute(Substitution),
    /// A passage pasted into another document.
    Paste {
        /// The original's sentences pasted, [start, end).
        sentences: [usize; 2],
        /// The document pasted into (the variant is this document with the passage).
        host: String,
        /// The host's sentence that holds the passage.
        host_sentence: usize,
        /// The word of that sentence after which the passage stands.
        after_word: usize,
    },
    /// Boilerplate put around the text.
    Boilerplate {
        /// The sentences before the text.
        header: Vec<String>,
        /// The sentences after the text.
        footer: Vec<String>,
    },
}

/// A planted near-duplicate: an original, its variant and what was done.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EditRecord {
    /// The variant's id: the original's id, `.` and the kind (made unique with `~2`, `~3`… if it
    /// is taken).
    pub id: String,
    /// The original's id.
    pub original: String,
    /// The kind of edit.
    pub kind: EditKind,
    /// The setting it was made with.
    pub setting: f64,
    /// How much of the original was touched (the truth file's amount; see the module docs).
    pub amount: f64,
    /// The original's sentences.
    pub sentences_before: usize,
    /// The variant's sentences, as the sentence splitter sees them.
    pub sentences_after: usize,
    /// The edits, in text order.
    pub edits: Vec<Edit>,
}

/// The result of [`synthesize`].
#[derive(Debug, Clone, PartialEq)]
pub struct Synthetic {
    /// Originals and variants, each variant right after its original, originals in source order.
    pub documents: Vec<Document>,
    /// One record per variant, in the same order.
    pub records: Vec<EditRecord>,
    /// Ids met again after their first document; the later documents were left out.
    pub duplicate_ids: Vec<String>,
}

impl Synthetic {
    /// Write the corpus as TREC SGML.
    ///
    /// # Errors
    /// What the writer reports.
    pub fn write_corpus(&self, out: &mut dyn Write) -> io::Result<()> {
        crate::corpus::write_trec(out, &self.documents)
    }

    /// Write the truth file: a header line `id_a<TAB>id_b<TAB>kind<TAB>amount`, then one line per
    /// planted pair (original, variant, kind, amount with 4 decimals), as
    /// [`read_pairs`](crate::eval::truth::read_pairs) reads it with the kinds as positive labels.
    ///
    /// # Errors
    /// What the writer reports.
    pub fn write_truth(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "id_a\tid_b\tkind\tamount")?;
        for r in &self.records {
            writeln!(out, "{}\t{}\t{}\t{:.4}", r.original, r.id, r.kind, r.amount)?;
        }
        Ok(())
    }

    /// Write the edit log: one [`EditRecord`] as JSON per line.
    ///
    /// # Errors
    /// What the writer reports.
    pub fn write_log(&self, out: &mut dyn Write) -> io::Result<()> {
        for r in &self.records {
            serde_json::to_writer(&mut *out, r)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }
}

/// The documents of `docs` with the first document of each id; the ids met again.
pub(crate) fn first_of_each_id(docs: Vec<Document>) -> (Vec<Document>, Vec<String>) {
    let mut seen = HashSet::new();
    let mut kept = Vec::with_capacity(docs.len());
    let mut dropped = Vec::new();
    for d in docs {
        if seen.insert(d.id.clone()) {
            kept.push(d);
        } else {
            dropped.push(d.id);
        }
    }
    (kept, dropped)
}

/// Plant near-duplicates of real documents (see the [module docs](self)).
///
/// # Errors
/// [`Error::InvalidParameter`] when the settings are out of range, when fewer than
/// [`SynthConfig::docs`] documents have [`SynthConfig::min_sentences`] sentences, or when `insert`
/// or `paste` is asked for but every document is an original.
///
/// # Example
/// ```
/// use slst::Document;
/// use slst::synth::{EditKind, KindSpec, SynthConfig, synthesize};
/// let text = (1..=10).map(|i| format!("Sentence number {i} tells its own small story.")).collect::<Vec<_>>().join(" ");
/// let config = SynthConfig {
///     docs: 1,
///     seed: 7,
///     kinds: vec![KindSpec::new(EditKind::Delete)],
///     ..SynthConfig::default()
/// };
/// let out = synthesize(vec![Document::new("a", text)], &config)?;
/// assert_eq!(out.documents.len(), 2);
/// assert_eq!(out.records[0].id, "a.delete");
/// assert_eq!((out.records[0].sentences_before, out.records[0].sentences_after), (10, 8));
/// # Ok::<(), slst::Error>(())
/// ```
pub fn synthesize(docs: Vec<Document>, config: &SynthConfig) -> Result<Synthetic> {
    check_config(config)?;
    let (docs, duplicate_ids) = first_of_each_id(docs);
    let units: Vec<Units> = docs.iter().map(|d| Units::new(&d.text)).collect();
    let eligible: Vec<usize> = (0..docs.len())
        .filter(|&i| units[i].units.len() >= config.min_sentences.max(1))
        .collect();
    if eligible.len() < config.docs {
        return Err(Error::InvalidParameter {
            name: "--docs",
            value: format!(
                "{} (only {} documents have at least {} sentences)",
                config.docs,
                eligible.len(),
                config.min_sentences
            ),
            expected: "at most the number of documents with --min-sentences sentences",
        });
    }
    let mut select = SeededRng::new(config.seed, 0);
    let mut originals: Vec<usize> = select
        .choose(eligible.len(), config.docs)
        .into_iter()
        .map(|k| eligible[k])
        .collect();
    originals.sort_unstable();
    let mut slots: Vec<usize> = (0..config.docs).map(|j| j % config.kinds.len()).collect();
    select.shuffle(&mut slots);

    let is_original: HashSet<usize> = originals.iter().copied().collect();
    let pool: Vec<usize> = (0..docs.len())
        .filter(|i| !is_original.contains(i) && !units[*i].units.is_empty())
        .collect();
    let needs_donors = slots.iter().any(|&s| config.kinds[s].kind.needs_donors());
    if needs_donors && pool.is_empty() {
        return Err(Error::InvalidParameter {
            name: "--docs",
            value: config.docs.to_string(),
            expected: "fewer than the documents read: insert and paste take text from documents that are not originals",
        });
    }
    let vocab = Vocabulary::new(
        originals.iter().map(|&i| docs[i].text.as_str()),
        &config.stopwords,
    );
    let mut ids: HashSet<String> = docs.iter().map(|d| d.id.clone()).collect();
    let ctx = Context {
        docs: &docs,
        units: &units,
        pool: &pool,
        vocab: &vocab,
        config,
    };

    let mut documents = Vec::with_capacity(2 * originals.len());
    let mut records = Vec::with_capacity(originals.len());
    for (j, &o) in originals.iter().enumerate() {
        let spec = config.kinds[slots[j]];
        let mut rng = SeededRng::new(config.seed, j as u64 + 1);
        let (text, amount, edits) = ctx.variant(o, spec, &mut rng)?;
        let mut id = format!("{}.{}", docs[o].id, spec.kind);
        let mut k = 2;
        while ids.contains(&id) {
            id = format!("{}.{}~{k}", docs[o].id, spec.kind);
            k += 1;
        }
        ids.insert(id.clone());
        records.push(EditRecord {
            id: id.clone(),
            original: docs[o].id.clone(),
            kind: spec.kind,
            setting: spec.setting,
            amount,
            sentences_before: units[o].units.len(),
            sentences_after: crate::text::split_sentences(&text).len(),
            edits,
        });
        documents.push(docs[o].clone());
        documents.push(Document::new(id, text));
    }
    Ok(Synthetic {
        documents,
        records,
        duplicate_ids,
    })
}

fn check_config(config: &SynthConfig) -> Result<()> {
    if config.kinds.is_empty() {
        return Err(Error::InvalidParameter {
            name: "--kinds",
            value: String::new(),
            expected: "at least one kind",
        });
    }
    for k in &config.kinds {
        k.kind
            .check(k.setting)
            .map_err(|expected| Error::InvalidParameter {
                name: "--kinds",
                value: format!("{}:{}", k.kind, k.setting),
                expected,
            })?;
    }
    if !(config.word_rate > 0.0 && config.word_rate <= 1.0) {
        return Err(Error::InvalidParameter {
            name: "--word-rate",
            value: config.word_rate.to_string(),
            expected: "a share above 0 and at most 1",
        });
    }
    Ok(())
}

/// What every edit may look at.
struct Context<'a> {
    docs: &'a [Document],
    units: &'a [Units],
    pool: &'a [usize],
    vocab: &'a Vocabulary,
    config: &'a SynthConfig,
}

/// How often an in-sentence edit is drawn before the sentence is left as it was.
const DRAWS: usize = 8;

/// A variant's text, its amount and its edits.
type Made = (String, f64, Vec<Edit>);

impl Context<'_> {
    fn variant(&self, o: usize, spec: KindSpec, rng: &mut SeededRng) -> Result<Made> {
        let u = &self.units[o];
        let n = u.units.len();
        let a = spec.setting;
        Ok(match spec.kind {
            EditKind::LastParagraph => {
                let size = n.div_ceil(a as usize);
                self.rewrite(u, (n - size..n).collect(), rng)
            }
            EditKind::EveryNth => {
                let step = a as usize;
                let mut chosen = Vec::new();
                let mut i = rng.below(step.min(n));
                while i < n {
                    chosen.push(i);
                    i += step + rng.below(2);
                }
                self.rewrite(u, chosen, rng)
            }
            EditKind::Delete => delete(u, a, rng),
            EditKind::Insert => self.insert(u, a, rng),
            EditKind::Reorder => reorder(u, a as usize, rng),
            EditKind::Substitute => self.substitute(u, a, rng),
            EditKind::Paste => self.paste(u, a as usize, rng)?,
            EditKind::Boilerplate => boilerplate(&self.docs[o].text, n, a as usize),
        })
    }

    /// Rewrite the sentences `chosen` (ascending) in place.
    fn rewrite(&self, u: &Units, chosen: Vec<usize>, rng: &mut SeededRng) -> Made {
        let mut out = u.clone();
        let mut edits = Vec::new();
        let mut changed = 0;
        for i in chosen {
            let text = &u.units[i].text;
            let made = (0..DRAWS).find_map(|_| {
                edit::rewrite_sentence(text, self.config.word_rate, self.vocab, rng)
                    .filter(|(after, _)| edit::keeps_boundaries(&out, i, after))
            });
            match made {
                Some((after, words)) => {
                    changed += 1;
                    edits.push(Edit::Rewrite {
                        sentence: i,
                        before: text.clone(),
                        after: after.clone(),
                        words,
                    });
                    out.units[i].text = after;
                }
                None => edits.push(Edit::Unchanged { sentence: i }),
            }
        }
        (out.join(), share(changed, u.units.len()), edits)
    }

    fn insert(&self, u: &Units, a: f64, rng: &mut SeededRng) -> Made {
        let n = u.units.len();
        let m = ((a * n as f64).round() as usize).max(1);
        let mut inserts: Vec<(usize, Unit, Edit)> = Vec::with_capacity(m);
        for _ in 0..m {
            let donor = self.pool[rng.below(self.pool.len())];
            let du = &self.units[donor].units;
            let k = rng.below(du.len());
            let before = rng.below(n + 1);
            let text = du[k].text.clone();
            inserts.push((
                before,
                Unit {
                    text: text.clone(),
                    gap: String::new(),
                },
                Edit::Insert {
                    before,
                    donor: self.docs[donor].id.clone(),
                    donor_sentence: k,
                    text,
                },
            ));
        }
        inserts.sort_by_key(|(before, _, _)| *before); // stable: draw order within a place
        let mut pieces: Vec<(Unit, bool)> = Vec::with_capacity(n + m);
        let mut edits = Vec::with_capacity(m);
        let mut next = inserts.into_iter().peekable();
        for i in 0..=n {
            while let Some((_, unit, edit)) = next.next_if(|(b, _, _)| *b == i) {
                if let Some(last) = pieces.last_mut() {
                    last.1 = true;
                }
                pieces.push((unit, true));
                edits.push(edit);
            }
            if i < n {
                pieces.push((u.units[i].clone(), false));
            }
        }
        (assemble(u, pieces), share(m, n), edits)
    }

    fn substitute(&self, u: &Units, a: f64, rng: &mut SeededRng) -> Made {
        let mut out = u.clone();
        let mut edits = Vec::new();
        let mut words = 0;
        for (i, unit) in u.units.iter().enumerate() {
            words += edit::word_spans(&unit.text).len();
            let made = (0..DRAWS).find_map(|_| {
                let (text, subs) = edit::substitute_words(
                    &unit.text,
                    i,
                    a,
                    self.vocab,
                    &self.config.stopwords,
                    rng,
                    None,
                );
                edit::keeps_boundaries(&out, i, &text).then_some((text, subs))
            });
            if let Some((text, subs)) = made {
                out.units[i].text = text;
                edits.extend(subs.into_iter().map(Edit::Substitute));
            }
        }
        if edits.is_empty() {
            // Nothing drawn: substitute one editable word, so the variant differs.
            let candidates: Vec<(usize, usize)> = u
                .units
                .iter()
                .enumerate()
                .flat_map(|(i, unit)| {
                    let spans = edit::word_spans(&unit.text);
                    (0..spans.len())
                        .filter(|&w| edit::editable(&unit.text, &spans[w]))
                        .map(|w| (i, w))
                        .collect::<Vec<_>>()
                })
                .collect();
            if !candidates.is_empty() {
                let (i, w) = candidates[rng.below(candidates.len())];
                let (text, subs) = edit::substitute_words(
                    &u.units[i].text,
                    i,
                    1.0,
                    self.vocab,
                    &self.config.stopwords,
                    rng,
                    Some(w),
                );
                if edit::keeps_boundaries(&out, i, &text) {
                    out.units[i].text = text;
                    edits.extend(subs.into_iter().map(Edit::Substitute));
                }
            }
        }
        let amount = share(edits.len(), words);
        (out.join(), amount, edits)
    }

    fn paste(&self, u: &Units, a: usize, rng: &mut SeededRng) -> Result<Made> {
        let n = u.units.len();
        let len = a.min(n);
        let start = rng.below(n - len + 1);
        let mut passage = String::new();
        for (k, unit) in u.units[start..start + len].iter().enumerate() {
            passage.push_str(&unit.text);
            if k + 1 < len {
                passage.push_str(&unit.gap);
            }
        }
        // A host: a document that is not an original, with a sentence that has a word after
        // which the passage can stand (not its last word, not before a sentence-ending mark).
        let cut_points = |text: &str| -> Vec<usize> {
            let spans = edit::word_spans(text);
            (0..spans.len().saturating_sub(1))
                .filter(|&w| edit::editable(text, &(spans[w].end..spans[w].end)))
                .collect()
        };
        let mut tries = 0;
        let (host, sentence, word) = loop {
            let host = if tries < 64 {
                self.pool[rng.below(self.pool.len())]
            } else {
                // Unlucky draws: the first document of the pool that has a place.
                match self.pool.iter().find(|&&h| {
                    self.units[h]
                        .units
                        .iter()
                        .any(|s| !cut_points(&s.text).is_empty())
                }) {
                    Some(&h) => h,
                    None => {
                        return Err(Error::InvalidParameter {
                            name: "--kinds",
                            value: "paste".into(),
                            expected: "documents besides the originals with a sentence of two words or more",
                        });
                    }
                }
            };
            tries += 1;
            let hu = &self.units[host].units;
            let places: Vec<usize> = (0..hu.len())
                .filter(|&s| !cut_points(&hu[s].text).is_empty())
                .collect();
            if places.is_empty() {
                continue;
            }
            let s = places[rng.below(places.len())];
            let cuts = cut_points(&hu[s].text);
            break (host, s, cuts[rng.below(cuts.len())]);
        };
        let mut out = self.units[host].clone();
        let target = &mut out.units[sentence].text;
        let at = edit::word_spans(target)[word].end;
        target.insert_str(at, &format!(" {passage}"));
        let edits = vec![Edit::Paste {
            sentences: [start, start + len],
            host: self.docs[host].id.clone(),
            host_sentence: sentence,
            after_word: word,
        }];
        Ok((out.join(), share(len, n), edits))
    }
}

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// The text of `pieces` with `u`'s prefix and trailing white space.
fn assemble(u: &Units, pieces: Vec<(Unit, bool)>) -> String {
    edit::assemble(&u.prefix, pieces, &u.trailing())
}

fn delete(u: &Units, a: f64, rng: &mut SeededRng) -> Made {
    let n = u.units.len();
    let d = ((a * n as f64).round() as usize)
        .max(1)
        .min(n.saturating_sub(2));
    let mut gone = rng.choose(n, d);
    gone.sort_unstable();
    let gone_set: HashSet<usize> = gone.iter().copied().collect();
    let mut pieces: Vec<(Unit, bool)> = Vec::with_capacity(n - d);
    for (i, unit) in u.units.iter().enumerate() {
        if gone_set.contains(&i) {
            // The sentence before the gap ends at a seam.
            if let Some(last) = pieces.last_mut() {
                last.1 = true;
            }
        } else {
            pieces.push((unit.clone(), false));
        }
    }
    let edits = gone
        .iter()
        .map(|&i| Edit::Delete {
            sentence: i,
            text: u.units[i].text.clone(),
        })
        .collect();
    (assemble(u, pieces), share(d, n), edits)
}

fn reorder(u: &Units, runs: usize, rng: &mut SeededRng) -> Made {
    let n = u.units.len();
    let runs = runs.min(n);
    if runs < 2 {
        return (u.join(), 0.0, Vec::new());
    }
    let mut cuts: Vec<usize> = rng
        .choose(n - 1, runs - 1)
        .into_iter()
        .map(|c| c + 1)
        .collect();
    cuts.sort_unstable();
    let bounds: Vec<[usize; 2]> = std::iter::once(0)
        .chain(cuts.iter().copied())
        .zip(cuts.iter().copied().chain(std::iter::once(n)))
        .map(|(s, e)| [s, e])
        .collect();
    let mut order: Vec<usize> = (0..runs).collect();
    rng.shuffle(&mut order);
    if order.iter().enumerate().all(|(i, &r)| i == r) {
        order.rotate_left(1);
    }
    let mut pieces = Vec::with_capacity(n);
    let mut moved = 0;
    for (pos, &r) in order.iter().enumerate() {
        let [s, e] = bounds[r];
        if pos != r {
            moved += e - s;
        }
        for i in s..e {
            pieces.push((u.units[i].clone(), i + 1 == e));
        }
    }
    let edits = vec![Edit::Reorder {
        runs: bounds,
        order,
    }];
    (assemble(u, pieces), share(moved, n), edits)
}

fn boilerplate(text: &str, n: usize, a: usize) -> Made {
    let header: Vec<String> = BOILERPLATE_HEADER[..a.div_ceil(2)]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let footer: Vec<String> = BOILERPLATE_FOOTER[..a / 2]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut out = header.join(edit::SEAM);
    out.push_str(edit::SEAM);
    out.push_str(text.trim());
    for f in &footer {
        out.push_str(edit::SEAM);
        out.push_str(f);
    }
    out.push('\n');
    let edits = vec![Edit::Boilerplate { header, footer }];
    (out, share(a, n), edits)
}

#[cfg(test)]
mod tests;
