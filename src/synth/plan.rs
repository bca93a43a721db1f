//! The planting plan: which documents become originals, which kind of edit each gets, and
//! which documents may lend text to the edits that take it from elsewhere.

use std::collections::HashSet;

use super::config::SynthConfig;
use super::edit::Units;
use super::rng::SeededRng;
use crate::document::Document;
use crate::error::{Error, Result};

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

/// Who plays which part in [`synthesize`](super::synthesize).
pub(super) struct Plan {
    /// The originals, as indices into the documents, ascending.
    pub(super) originals: Vec<usize>,
    /// The kind of the *j*-th original, as an index into [`SynthConfig::kinds`].
    pub(super) slots: Vec<usize>,
    /// The documents that may lend text: not originals, and with a sentence.
    pub(super) pool: Vec<usize>,
}

impl Plan {
    /// Choose the originals among the documents cut into `units` and deal out the kinds (stream
    /// 0 of the seed), checking that there are enough originals and, if needed, lenders.
    pub(super) fn new(units: &[Units], config: &SynthConfig) -> Result<Plan> {
        let eligible: Vec<usize> = (0..units.len())
            .filter(|&i| units[i].units.len() >= config.min_sentences.max(1))
            .collect();
        if eligible.len() < config.docs {
            return Err(Error::InvalidParameter {
                name: "synth.docs",
                value: format!(
                    "{} (only {} documents have at least {} sentences)",
                    config.docs,
                    eligible.len(),
                    config.min_sentences
                ),
                expected: "at most the number of documents with min_sentences sentences",
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
        let pool: Vec<usize> = (0..units.len())
            .filter(|i| !is_original.contains(i) && !units[*i].units.is_empty())
            .collect();
        let needs_donors = slots.iter().any(|&s| config.kinds[s].kind.needs_donors());
        if needs_donors && pool.is_empty() {
            return Err(Error::InvalidParameter {
                name: "synth.docs",
                value: config.docs.to_string(),
                expected: "fewer than the documents read: insert and paste take text from documents that are not originals",
            });
        }
        Ok(Plan {
            originals,
            slots,
            pool,
        })
    }
}
