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
//! | `paste` | paste A consecutive sentences of the original into a sentence of another document (not an original, nor another paste's host while there are others), after a random word of it: the variant is that host document with the passage | A = 5 | share of the original pasted |
//! | `boilerplate` | put ⌈A/2⌉ header and ⌊A/2⌋ footer sentences of one fixed site boilerplate ([`BOILERPLATE_HEADER`], [`BOILERPLATE_FOOTER`]) around the text | A = 6 | boilerplate sentences / n |
//! | `figures` | write each figure in another form of the same number (`5 pct` ↔ `5%`, `1.5 mln` → `1,500,000`, `6-1/4` → `6.25`, `1,000` ↔ `1000`, `5` ↔ `five`; the `figures` module) with probability A, at least one when there is any; not in the default mix ([`EditKind::in_default_mix`]) | A = 1 | share of the figures with another form rewritten |
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

mod config;
mod edit;
mod figures;
mod plan;
mod record;
mod variant;

use std::collections::HashSet;

use crate::document::Document;
use crate::error::Result;
use config::check_config;
pub use config::{EditKind, KindSpec, SynthConfig};
pub use edit::{Substitution, WordOp};
use edit::{Units, Vocabulary};
use plan::Plan;
pub(crate) use plan::first_of_each_id;
pub use record::{Edit, EditRecord, Synthetic};
use rng::SeededRng;
use variant::Context;

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

/// Plant near-duplicates of real documents (see the [module docs](self)).
///
/// # Errors
/// [`Error::InvalidParameter`](crate::Error::InvalidParameter) when the settings are out of range, when fewer than
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
    let Plan {
        originals,
        slots,
        pool,
    } = Plan::new(&units, config)?;
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
        hosts: Default::default(),
    };

    let mut documents = Vec::with_capacity(2 * originals.len());
    let mut records = Vec::with_capacity(originals.len());
    for (j, &o) in originals.iter().enumerate() {
        let spec = config.kinds[slots[j]];
        let mut rng = SeededRng::new(config.seed, j as u64 + 1);
        let (text, amount, edits) = ctx.variant(o, spec, &mut rng)?;
        let id = unique_id(&mut ids, &docs[o].id, spec.kind);
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

/// The id of a variant of `original` by `kind`: `original.kind`, or `original.kind~2`,
/// `original.kind~3`… when that is taken; added to `ids`.
fn unique_id(ids: &mut HashSet<String>, original: &str, kind: EditKind) -> String {
    let mut id = format!("{original}.{kind}");
    let mut k = 2;
    while ids.contains(&id) {
        id = format!("{original}.{kind}~{k}");
        k += 1;
    }
    ids.insert(id.clone());
    id
}

#[cfg(test)]
mod tests;
