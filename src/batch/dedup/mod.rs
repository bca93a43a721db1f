//! Dedup: the corpus without its near-duplicates. A batch run finds the pairs ([`super::run`],
//! unchanged: same candidates, same rule, same pairs); then documents are ranked by a
//! [`KeepPolicy`] and walked in that order, and a document is *dropped* when it forms a
//! reported pair with a document already *kept* — its duplicate being the highest-ranked such
//! document — else it is kept ([`decide`]).
//!
//! So no two kept documents form a reported pair, and every dropped document names a kept
//! document it is itself a near-duplicate of, with that pair's scores. Keeping one document
//! per connected component would not give either: a component can chain A ~ B ~ C with A and C
//! unrelated, and dropping C for A would drop it for a document it does not resemble.
//!
//! [`write`](mod@write) writes the kept records as they were read (copied from the places the
//! first pass noted, [`run_records`]) and the table of dropped documents.

#[cfg(feature = "parquet")]
mod parquet;
mod policy;
pub mod write;

use std::io::Write;
use std::sync::Arc;

use serde::Serialize;

pub use self::policy::{KeepPolicy, RankKey, order};
use self::write::Places;
use super::{BatchConfig, BatchResult, Progress};
use crate::corpus::{Item, Origin, Place, Record};
use crate::method::{Detector, Method, PairRule};

/// Settings of a dedup run: the batch run's, and which copy is kept.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DedupConfig {
    /// How pairs are found and which are reported (as `slst batch`).
    pub batch: BatchConfig,
    /// Which document of a pair is kept.
    pub keep: KeepPolicy,
}

/// A dropped document: its number, the kept document it is a near-duplicate of, and the
/// reported pair of the two (an index into [`BatchResult::pairs`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dropped {
    /// The dropped document (input order).
    pub document: usize,
    /// The kept document it duplicates: of the kept documents it forms a pair with, the one
    /// ranked first.
    pub kept: usize,
    /// The pair of the two.
    pub pair: usize,
}

/// Which documents are kept, and why the others are not.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Decision {
    /// For each document, in input order: whether it is kept.
    pub kept: Vec<bool>,
    /// The dropped documents, in input order.
    pub dropped: Vec<Dropped>,
}

impl Decision {
    /// The kept documents' numbers, in input order.
    pub fn kept_documents(&self) -> Vec<usize> {
        (0..self.kept.len()).filter(|&d| self.kept[d]).collect()
    }
}

/// Decide which of `n` documents are kept: walking them in `order` (every document once,
/// the first to keep first), a document is dropped when it forms one of `pairs` (index, a, b)
/// with a document already kept — the kept document being the earliest in `order` — and kept
/// otherwise.
///
/// # Example
/// ```
/// use slst::batch::dedup::decide;
/// // 0 ~ 1 and 1 ~ 2, but not 0 ~ 2: ranked 1, 0, 2, document 1 is kept and both others go;
/// // ranked 0, 1, 2, documents 0 and 2 are kept (2 is no copy of 0).
/// let pairs = [(0, 0, 1), (1, 1, 2)];
/// let d = decide(3, pairs.iter().copied(), &[1, 0, 2]);
/// assert_eq!(d.kept, [false, true, false]);
/// let d = decide(3, pairs.iter().copied(), &[0, 1, 2]);
/// assert_eq!(d.kept, [true, false, true]);
/// assert_eq!((d.dropped[0].document, d.dropped[0].kept, d.dropped[0].pair), (1, 0, 0));
/// ```
///
/// # Panics
/// When `order` is not an order of `0..n`, or a pair names a document outside it.
pub fn decide(
    n: usize,
    pairs: impl Iterator<Item = (usize, usize, usize)>,
    order: &[usize],
) -> Decision {
    assert_eq!(order.len(), n, "an order of every document");
    let mut rank = vec![usize::MAX; n];
    for (r, &d) in order.iter().enumerate() {
        assert_eq!(rank[d], usize::MAX, "document {d} ranked twice");
        rank[d] = r;
    }
    // Each document's partners, ranked before it: a document can only be dropped for those.
    let mut earlier: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for (i, a, b) in pairs {
        let (first, second) = if rank[a] < rank[b] { (a, b) } else { (b, a) };
        earlier[second].push((rank[first], i));
    }
    let mut kept = vec![false; n];
    let mut dropped = Vec::new();
    for &d in order {
        let duplicate = earlier[d]
            .iter()
            .filter(|&&(r, _)| kept[order[r]])
            .min_by_key(|&&(r, _)| r);
        match duplicate {
            Some(&(r, pair)) => dropped.push(Dropped {
                document: d,
                kept: order[r],
                pair,
            }),
            None => kept[d] = true,
        }
    }
    dropped.sort_unstable_by_key(|x| x.document);
    Decision { kept, dropped }
}

/// What a dedup run found: the batch run and the decision.
pub struct DedupResult<D: Detector> {
    /// The batch run: documents, pairs, times.
    pub batch: BatchResult<D>,
    /// Which documents are kept, and why the others are not.
    pub decision: Decision,
    /// The rule that reported the pairs, by name ([`rule_name`]).
    pub rule: String,
}

/// Run a batch over `items` (each a corpus item with, for [`KeepPolicy::Field`], the bytes of
/// the JSON line it was read from) and decide which documents to keep by `config.keep`.
/// Template pairs ([`PairRule::WithTemplates`]) are not duplicates: they drop nothing.
///
/// # Example
/// ```
/// use slst::batch::dedup::{run, DedupConfig, KeepPolicy};
/// use slst::batch::Silent;
/// use slst::corpus::Item;
/// use slst::{Document, SlSt, SlstConfig};
/// let texts = [
///     "Stocks rose sharply on Monday. Bond yields fell to a low. Oil was flat.",
///     "Gold gained in late trade. The dollar weakened slightly.",
///     "Stocks rose sharply on Monday. Bond yields fell to a low. Oil was flat. Rain fell.",
/// ];
/// let items = texts.iter().enumerate()
///     .map(|(i, t)| (Item::Document(Document::new(format!("d{i}"), *t)), None));
/// let config = DedupConfig { keep: KeepPolicy::Longest, ..Default::default() };
/// let result = run(items, &SlSt::new(SlstConfig::default())?, &config, &Silent);
/// assert_eq!(result.decision.kept, [false, true, true]);
/// assert_eq!(result.decision.dropped[0].kept, 2);
/// # Ok::<(), slst::Error>(())
/// ```
pub fn run<D: Detector>(
    items: impl Iterator<Item = (Item, Option<Vec<u8>>)>,
    detector: &D,
    config: &DedupConfig,
    progress: &dyn Progress,
) -> DedupResult<D> {
    let inputs = items.map(|(item, raw)| Input {
        item,
        raw,
        from: None,
    });
    run_inputs(inputs, detector, config, progress, None)
}

/// [`run`] over corpus records ([`read_records`](crate::corpus::read_records), with each
/// record's bytes for [`KeepPolicy::Field`]), noting where each document lies, for
/// [`write::write_kept`].
pub fn run_records<D: Detector>(
    records: impl Iterator<Item = Record>,
    detector: &D,
    config: &DedupConfig,
    progress: &dyn Progress,
) -> (DedupResult<D>, Places) {
    let mut places = Places::default();
    let inputs = records.map(|r| Input {
        item: r.item,
        raw: r.raw,
        from: Some((r.origin, r.place)),
    });
    let result = run_inputs(inputs, detector, config, progress, Some(&mut places));
    (result, places)
}

/// One item read: the item, its record's bytes, and the file and place it was read from.
struct Input {
    item: Item,
    raw: Option<Vec<u8>>,
    from: Option<(Arc<Origin>, Option<Place>)>,
}

/// [`run`], noting each document's file and place in `places` when given.
fn run_inputs<D: Detector>(
    inputs: impl Iterator<Item = Input>,
    detector: &D,
    config: &DedupConfig,
    progress: &dyn Progress,
    mut places: Option<&mut Places>,
) -> DedupResult<D> {
    let policy = &config.keep;
    let mut keys = Vec::new();
    // Ids are made unique here, as the batch run makes them, so that a key (and a place) is
    // taken for each document the run keeps.
    let items = super::unique_ids_of(inputs, |input| &mut input.item).map(|input| {
        if let Item::Document(doc) = &input.item {
            if let Some(key) = policy.key_as_read(doc, input.raw.as_deref()) {
                keys.push(key);
            }
            if let (Some(places), Some((origin, place))) = (places.as_deref_mut(), &input.from) {
                places.note(origin, *place);
            }
        }
        input.item
    });
    let batch = super::run(items, detector, &config.batch, progress);
    let n = batch.corpus.ids.len();
    let keys = match policy {
        KeepPolicy::MostSentences => batch
            .corpus
            .sketches
            .iter()
            .map(|s| RankKey::count(detector.sentence_counts(s).map(|c| c.sentences)))
            .collect(),
        _ => keys,
    };
    let order = order(&keys, n);
    let pairs = batch.pairs.iter().enumerate();
    let duplicates = pairs.filter(|(_, p)| p.template().is_none());
    let decision = decide(n, duplicates.map(|(i, p)| (i, p.a, p.b)), &order);
    let rule = rule_name(config.batch.rule);
    DedupResult {
        batch,
        decision,
        rule,
    }
}

/// The rule that reports pairs, by name: `duplicates` (the method's decision, whose rule
/// [`Detector::rule`] states), `contained ≥ θc` (either containment at least θc) or `scored`
/// (any score above 0).
///
/// # Example
/// ```
/// use slst::batch::dedup::rule_name;
/// use slst::method::PairRule;
/// assert_eq!(rule_name(PairRule::Duplicates), "duplicates");
/// assert_eq!(rule_name(PairRule::Contained(0.8)), "contained ≥ 0.8");
/// ```
pub fn rule_name(rule: PairRule) -> String {
    match rule {
        PairRule::Duplicates | PairRule::WithTemplates => "duplicates".into(),
        PairRule::Contained(theta) => format!("contained ≥ {theta}"),
        PairRule::Scored => "scored".into(),
    }
}

/// The dropped table's columns ([`DroppedRecord`]'s fields), as the TSV header names them.
pub const DROPPED_COLUMNS: [&str; 7] = [
    "dropped",
    "kept",
    "resemblance",
    "containment_dropped",
    "containment_kept",
    "method",
    "rule",
];

/// One dropped document: `{"dropped","kept","resemblance","containment_dropped",
/// "containment_kept","method","rule"}`; a containment the method cannot define is `null`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DroppedRecord<'a> {
    /// The dropped document's id.
    pub dropped: &'a str,
    /// The id of the kept document it is a near-duplicate of.
    pub kept: &'a str,
    /// Resemblance J of the two.
    pub resemblance: f64,
    /// How much of the dropped document lies in the kept one.
    pub containment_dropped: Option<f64>,
    /// How much of the kept document lies in the dropped one.
    pub containment_kept: Option<f64>,
    /// The method.
    pub method: Method,
    /// The rule that reported the pair ([`rule_name`]).
    pub rule: &'a str,
}

impl<D: Detector> DedupResult<D> {
    /// The records of the dropped documents, in input order.
    pub fn dropped_records(&self) -> impl Iterator<Item = DroppedRecord<'_>> {
        let ids = &self.batch.corpus.ids;
        self.decision.dropped.iter().map(move |d| {
            let pair = &self.batch.pairs[d.pair];
            let s = &pair.comparison.similarity;
            let (mine, theirs) = if pair.a == d.document {
                (s.containment_a, s.containment_b)
            } else {
                (s.containment_b, s.containment_a)
            };
            DroppedRecord {
                dropped: &ids[d.document],
                kept: &ids[d.kept],
                resemblance: s.resemblance,
                containment_dropped: mine,
                containment_kept: theirs,
                method: pair.comparison.method,
                rule: &self.rule,
            }
        })
    }
}

/// The format of the dropped table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DroppedFormat {
    /// Tab-separated values with a header line (default).
    #[default]
    Tsv,
    /// One JSON object per line.
    Jsonl,
}

impl DroppedFormat {
    /// The format a file name asks for: JSON lines for `.jsonl`, `.ndjson` and `.json`, else
    /// TSV.
    pub fn of_name(path: &std::path::Path) -> DroppedFormat {
        let name = path.to_string_lossy();
        if [".jsonl", ".ndjson", ".json"]
            .iter()
            .any(|e| name.ends_with(e))
        {
            DroppedFormat::Jsonl
        } else {
            DroppedFormat::Tsv
        }
    }
}

/// Write the dropped table: a header line and one row per record in TSV (tabs and line breaks
/// in ids become spaces, a containment the method cannot define is empty), or JSON lines.
///
/// # Errors
/// What the writer reports.
pub fn write_dropped<'a>(
    out: &mut dyn Write,
    records: impl Iterator<Item = DroppedRecord<'a>>,
    format: DroppedFormat,
) -> std::io::Result<()> {
    match format {
        DroppedFormat::Jsonl => {
            for r in records {
                serde_json::to_writer(&mut *out, &r)?;
                out.write_all(b"\n")?;
            }
        }
        DroppedFormat::Tsv => {
            writeln!(out, "{}", DROPPED_COLUMNS.join("\t"))?;
            let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
            let number = |x: Option<f64>| x.map(|v| v.to_string()).unwrap_or_default();
            for r in records {
                writeln!(
                    out,
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    clean(r.dropped),
                    clean(r.kept),
                    r.resemblance,
                    number(r.containment_dropped),
                    number(r.containment_kept),
                    r.method.name(),
                    clean(r.rule)
                )?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
