//! A query: the indexed documents that the index's method keeps against one query document.

use std::collections::HashSet;

use rusqlite::OptionalExtension;

use super::{Index, QueryOptions, fingerprint, keys_blob, postings};
use crate::align::Passage;
use crate::batch::passage::verify_with_passages;
use crate::batch::verify_pair;
use crate::document::Document;
use crate::error::Result;
use crate::method::{Comparison, Detector, MethodDetector, PairRule, Witness, seed_index_keys};

/// The most rows a key of a query's witnesses may be held by to witness (a corpus run's
/// default, [`crate::batch::DEFAULT_MAX_DF`]); a word key held by more is not read when counting
/// shared words (it counts as shared).
pub const MAX_DF: usize = crate::batch::DEFAULT_MAX_DF;

/// One indexed near-duplicate of a query document.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit<S, E> {
    /// The indexed document (its text as stored).
    pub document: Document,
    /// Its stored sketch.
    pub sketch: S,
    /// `compare(query, document)`: exactly what `slst compare QUERY DOCUMENT` computes.
    pub comparison: Comparison<E>,
    /// With [`QueryOptions::min_shared_words`]: the passages sharing at least that many words the
    /// two share (spans in the query and in the document); `None` without it.
    pub passages: Option<Vec<Passage>>,
    /// Kept by [`QueryOptions::min_shared_words`] alone: the rule does not keep the comparison.
    pub by_passage: bool,
}

/// A query's answer: the query's sketch and its hits, best first.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryResult<S, E> {
    /// The query document's sketch.
    pub sketch: S,
    /// Hits by resemblance, then containment of the query, descending; ties by id.
    pub hits: Vec<Hit<S, E>>,
    /// Candidates found by shared keys (with witness keys: those whose witnessed units could
    /// satisfy the rule).
    pub candidates: usize,
    /// Candidates compared exactly (the others were ruled out by the method's bound).
    pub compared: usize,
}

impl Index {
    /// The index's detector for a query: the stored settings, with `threshold` in place of the
    /// stored threshold when given.
    ///
    /// # Errors
    /// A threshold out of range, or one for a method without a threshold (megashingles).
    pub fn query_detector(&self, threshold: Option<f64>) -> Result<MethodDetector> {
        let Some(theta) = threshold else {
            return Ok(self.detector.clone());
        };
        let mut settings = self.settings.clone();
        settings.set_threshold(self.method, theta)?;
        settings.detector(self.method)
    }

    /// Whether a query can keep the documents sharing at least `words` words in one passage
    /// ([`QueryOptions::min_shared_words`]) with this index: as `slst batch` refuses the
    /// criterion ([`crate::batch::passage::check_method`]).
    ///
    /// # Errors
    /// [`crate::Error::InvalidParameter`] (`min_shared_words`): 0 words, or a method without
    /// blocks.
    pub fn check_min_shared_words(&self, words: usize) -> Result<()> {
        crate::batch::passage::check_method(self.method, words)
    }

    /// Every indexed document that `detector` — the index's own ([`Index::query_detector`]) —
    /// keeps against `query` (its decision, or either containment ≥ θc with something in
    /// common), with the comparison, best first. The answer equals comparing the query with
    /// every indexed document (module docs).
    ///
    /// With [`QueryOptions::min_shared_words`], also every document sharing a passage of at
    /// least that many words with the query, as `slst batch --min-shared-words` keeps pairs
    /// ([`crate::batch::passage`]): the candidates are then also every document that may share
    /// a seed of a passage with the query — SL+ST: sharing [`Detector::index_keys_needed`] keys
    /// under [`PairRule::Scored`] (`min_block`, the keys of a block); robust SL+ST: holding a
    /// witness key of the query's seed sketch ([`Detector::seed_sketch`]) held by at most [`MAX_DF`]
    /// documents — each compared unbounded, its passages grown from the seeds.
    ///
    /// # Errors
    /// A detector of another method, a containment out of range, a criterion the index cannot
    /// honour ([`Index::check_min_shared_words`]), SQLite fails, or a candidate's row is
    /// damaged.
    pub fn query<D: Detector>(
        &self,
        detector: &D,
        query: &Document,
        options: &QueryOptions,
    ) -> Result<QueryResult<D::Sketch, D::Evidence>> {
        self.check_detector(detector)?;
        if let Some(theta) = options.containment {
            crate::error::check_fraction("containment", theta)?;
        }
        if let Some(words) = options.min_shared_words {
            self.check_min_shared_words(words)?;
        }
        let rule = options.rule();
        let sketch = detector.sketch(query);
        let keys = seed_index_keys(detector, &sketch).unwrap_or_default();
        // One read transaction: one snapshot of the index, and its lock taken once rather than
        // once a lookup.
        let _snapshot = self.conn.unchecked_transaction().map_err(self.err())?;
        let mut result = QueryResult {
            sketch,
            hits: Vec::new(),
            candidates: 0,
            compared: 0,
        };
        if keys.is_empty() {
            return Ok(result); // nothing to share with anything
        }
        let mut order: Vec<i64> = self
            .query_candidates(detector, &result.sketch, &keys, rule, options)?
            .into_iter()
            .collect();
        order.sort_unstable();
        result.candidates = order.len();
        for d in order {
            let (document, stored): (Document, D::Sketch) = self.load(d)?;
            let kept = match options.min_shared_words {
                Some(words) => {
                    result.compared += 1;
                    let q = (query.text.as_str(), &result.sketch);
                    let d = (document.text.as_str(), &stored);
                    verify_with_passages(detector, q, d, words, |c| c.kept_by(rule))
                        .map(|k| (k.comparison, Some(k.passages), k.by_passage))
                }
                None => {
                    let verdict = verify_pair(detector, &result.sketch, &stored, Some(rule), true);
                    result.compared += usize::from(verdict.compared());
                    verdict.kept().map(|c| (c, None, false))
                }
            };
            if let Some((comparison, passages, by_passage)) = kept {
                result.hits.push(Hit {
                    document,
                    sketch: stored,
                    comparison,
                    passages,
                    by_passage,
                });
            }
        }
        result.hits.sort_by(|x, y| {
            let (sx, sy) = (&x.comparison.similarity, &y.comparison.similarity);
            sy.resemblance
                .total_cmp(&sx.resemblance)
                .then(
                    sy.containment_a
                        .unwrap_or(0.0)
                        .total_cmp(&sx.containment_a.unwrap_or(0.0)),
                )
                .then_with(|| x.document.id.cmp(&y.document.id))
        });
        if let Some(k) = options.top {
            result.hits.truncate(k);
        }
        Ok(result)
    }

    /// The rows a query compares (module docs, [`Index::query`]): the rows sharing its witness
    /// keys whose count could satisfy the rule, with those alike in their words and, with
    /// [`QueryOptions::min_shared_words`], every row that may share a seed of a passage; else
    /// the rows sharing enough of its keys.
    fn query_candidates<D: Detector>(
        &self,
        detector: &D,
        sketch: &D::Sketch,
        keys: &[u64],
        rule: PairRule,
        options: &QueryOptions,
    ) -> Result<HashSet<i64>> {
        Ok(match detector.external_join() {
            Some(join) => {
                let witnesses = join.witness_keys(sketch);
                let units = detector.sentence_counts(sketch).map_or(0, |c| c.sentences);
                let may_keep =
                    |m: usize, n: usize| join.may_keep_matched(m.min(units).min(n), units, n, rule);
                let mut rows = self.witnessed_candidates(keys, &witnesses, &may_keep)?;
                // The rows a count of witnessed units does not bound: those alike in their
                // words.
                if let (Some(words), Some((level, _))) = (join.word_keys(sketch), join.word_join())
                {
                    self.add_word_candidates(&words, level, &mut rows)?;
                }
                if options.min_shared_words.is_some() {
                    // Every row with a block between the two seed sketches, the windows of
                    // over-long units among the units, as `slst batch` joins them.
                    let seeded = match detector.seed_sketch(sketch) {
                        Some(seeded) => join.witness_keys(&seeded),
                        None => witnesses.clone(),
                    };
                    rows.extend(self.witnessed_candidates(keys, &seeded, &|m, _| m > 0)?);
                }
                rows
            }
            None => {
                let mut needed = detector.index_keys_needed(sketch, rule);
                if options.min_shared_words.is_some() {
                    // Fewer keys needed look more up: the rule's candidates and every document
                    // with a block, which seeds a passage.
                    let seeded = detector.index_keys_needed(sketch, PairRule::Scored);
                    needed = needed.min(seeded);
                }
                self.candidates(keys, needed.max(1))?
            }
        })
    }

    /// For a method with witness keys (robust SL+ST): the rows holding one of the query's
    /// keys whose count of the query's units witnessed by their keys could satisfy the rule
    /// (`may_keep(witnessed, the row's units)`, the units from the inverted table, without
    /// loading the sketch), and the rows with the very same keys. Every unit of the query in a
    /// block of a comparison with a row has a witness key the row holds, so no row the query
    /// keeps is left out (the corpus join's bound, [`crate::method::WitnessJoin::witness_keys`]),
    /// but for those whose blocks rest on keys held by more than [`MAX_DF`] rows: as in a
    /// corpus run, such a key witnesses nothing.
    fn witnessed_candidates(
        &self,
        keys: &[u64],
        witnesses: &[Witness],
        may_keep: &dyn Fn(usize, usize) -> bool,
    ) -> Result<HashSet<i64>> {
        // Each distinct key with the units it witnesses.
        let mut by_key: Vec<(u64, u32)> = witnesses.iter().map(|w| (w.key, w.unit)).collect();
        by_key.sort_unstable();
        by_key.dedup();
        // (row, witnessed unit, the row's units) for every holder of a key. The index is exact
        // (no key is left out), so it counts every shared key: a chance witness only adds a
        // candidate.
        let mut witnessed: Vec<(u32, u32, u32)> = Vec::new();
        for run in by_key.chunk_by(|x, y| x.0 == y.0) {
            if let Some(list) = self.list(run[0].0, Some(MAX_DF))? {
                for (doc, n) in postings::entries(&list) {
                    witnessed.extend(run.iter().map(|&(_, u)| (doc, u, n)));
                }
            }
        }
        witnessed.sort_unstable();
        witnessed.dedup_by_key(|w| (w.0, w.1));
        let mut candidates: HashSet<i64> = witnessed
            .chunk_by(|x, y| x.0 == y.0)
            .filter(|run| may_keep(run.len(), run[0].2 as usize))
            .map(|run| i64::from(run[0].0))
            .collect();
        self.add_same_keys(keys, &mut candidates)?;
        Ok(candidates)
    }

    /// Adds the rows that may be alike in their words at the level `level` (a Jaccard
    /// coefficient of the vocabularies): those that share one of the query's
    /// |q| − ⌈level·|q|⌉ + 1 rarest word keys (prefix filtering) and could share ⌈level·|q|⌉
    /// of them — J ≥ level needs that many shared terms whatever the row's own vocabulary. The
    /// shared word keys are counted over the lists of at most [`MAX_DF`] rows; each longer list
    /// left unread counts as shared by every row.
    fn add_word_candidates(
        &self,
        words: &[u64],
        level: f64,
        candidates: &mut HashSet<i64>,
    ) -> Result<()> {
        // Each distinct word key: its occurrences, how many rows hold it, and its list when
        // they are at most MAX_DF.
        let mut keys: Vec<(u64, usize, usize, Option<Vec<u8>>)> = Vec::new();
        for run in words.chunk_by(|x, y| x == y) {
            let (df, list) = self.df_and_list(run[0], MAX_DF)?;
            keys.push((run[0], run.len(), df, list));
        }
        let probe = rarest_of(
            keys.iter().map(|k| (k.0, k.1, k.2)),
            crate::method::prefix_len(words.len(), level),
        );
        // The rows holding a probed key, in row order, each with the word keys it holds.
        let mut found: Vec<(u32, usize)> = Vec::new();
        for (key, _, df, list) in &mut keys {
            if probe.binary_search(key).is_ok() {
                if list.is_none() && *df > 0 {
                    *list = self.list(*key, None)?;
                }
                found.extend(
                    list.iter()
                        .flat_map(|l| postings::entries(l).map(|(d, _)| (d, 0))),
                );
            }
        }
        found.sort_unstable();
        found.dedup();
        if found.is_empty() {
            return Ok(());
        }
        let mut unread = 0usize;
        for (_, occurrences, df, list) in &keys {
            match list {
                // Both in row order: one merge.
                Some(list) => {
                    let mut at = 0;
                    for (doc, _) in postings::entries(list) {
                        at += found[at..].partition_point(|f| f.0 < doc);
                        match found.get_mut(at) {
                            Some(f) if f.0 == doc => f.1 += occurrences,
                            Some(_) => {}
                            None => break,
                        }
                    }
                }
                None if *df > 0 => unread += occurrences,
                None => {}
            }
        }
        let least = level * words.len() as f64 - 1e-6;
        candidates.extend(
            found
                .into_iter()
                .filter(|&(_, held)| (held + unread) as f64 >= least)
                .map(|(d, _)| i64::from(d)),
        );
        Ok(())
    }

    /// The rows that share `needed` of the query's key occurrences — found through the
    /// |q| − needed + 1 rarest of them (by their lists' lengths) — and the rows with the very
    /// same keys.
    fn candidates(&self, keys: &[u64], needed: usize) -> Result<HashSet<i64>> {
        let mut candidates: HashSet<i64> = HashSet::new();
        if needed <= keys.len() {
            for key in self.rarest(keys, keys.len() - needed + 1)? {
                if let Some(list) = self.list(key, None)? {
                    candidates.extend(postings::entries(&list).map(|(d, _)| i64::from(d)));
                }
            }
        }
        self.add_same_keys(keys, &mut candidates)?;
        Ok(candidates)
    }

    /// A key's list of holders; `None` when no row holds it or more than `cap` do.
    fn list(&self, key: u64, cap: Option<usize>) -> Result<Option<Vec<u8>>> {
        let cap = cap.map_or(i64::MAX, |c| (c * postings::ENTRY) as i64);
        self.conn
            .prepare_cached("SELECT docs FROM postings WHERE key = ?1 AND length(docs) <= ?2")
            .map_err(self.err())?
            .query_row(rusqlite::params![key as i64, cap], |r| r.get(0))
            .optional()
            .map_err(self.err())
    }

    /// How many rows hold a key (its list's length, read without the list).
    fn df(&self, key: u64) -> Result<usize> {
        Ok(self.df_and_list(key, 0)?.0)
    }

    /// How many rows hold a key, and its list when they are at most `cap`.
    fn df_and_list(&self, key: u64, cap: usize) -> Result<(usize, Option<Vec<u8>>)> {
        let row: Option<(i64, Option<Vec<u8>>)> = self
            .conn
            .prepare_cached(
                "SELECT length(docs), CASE WHEN length(docs) <= ?2 THEN docs END \
                 FROM postings WHERE key = ?1",
            )
            .map_err(self.err())?
            .query_row(
                rusqlite::params![key as i64, (cap * postings::ENTRY) as i64],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(self.err())?;
        Ok(row.map_or((0, None), |(len, list)| {
            (len.max(0) as usize / postings::ENTRY, list)
        }))
    }

    /// The distinct keys among the first `count` of the key occurrences `keys` in order of
    /// their document frequencies (rarest first, ties by key), those no row holds left out.
    fn rarest(&self, keys: &[u64], count: usize) -> Result<Vec<u64>> {
        let mut sorted = keys.to_vec();
        sorted.sort_unstable();
        let mut counted = Vec::new();
        for run in sorted.chunk_by(|x, y| x == y) {
            counted.push((run[0], run.len(), self.df(run[0])?));
        }
        Ok(rarest_of(counted.into_iter(), count))
    }

    /// Adds the rows with the very same keys as the query (found by the keys' fingerprint).
    fn add_same_keys(&self, keys: &[u64], candidates: &mut HashSet<i64>) -> Result<()> {
        let mut same = self
            .conn
            .prepare_cached("SELECT doc FROM documents WHERE fingerprint = ?1")
            .map_err(self.err())?;
        let docs = same
            .query_map([fingerprint(&keys_blob(keys))], |r| r.get::<_, i64>(0))
            .map_err(self.err())?;
        for d in docs {
            candidates.insert(d.map_err(self.err())?);
        }
        Ok(())
    }
}

/// The distinct keys among the first `count` key occurrences in order of their document
/// frequencies (rarest first, ties by key), those no row holds left out, sorted; `keys` gives
/// each distinct key with its occurrences and document frequency.
fn rarest_of(keys: impl Iterator<Item = (u64, usize, usize)>, count: usize) -> Vec<u64> {
    let mut keys: Vec<(u64, usize, usize)> = keys.collect();
    keys.sort_unstable_by_key(|&(k, _, df)| (df, k));
    let mut taken = 0;
    let mut prefix: Vec<u64> = keys
        .into_iter()
        .take_while(|&(_, n, _)| {
            let take = taken < count;
            taken += n;
            take
        })
        .filter(|&(_, _, df)| df > 0)
        .map(|(k, _, _)| k)
        .collect();
    prefix.sort_unstable();
    prefix
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_on_witness_keys_is_the_corpus_runs() {
        assert_eq!(MAX_DF, crate::batch::BatchConfig::default().max_df);
    }

    #[test]
    fn the_rarest_occurrences_are_taken_whole_keys_at_a_time() {
        // (key, occurrences, df), by df then key: 9 (df 0), 7 (df 1), 3 (df 2), 5 (df 2, twice).
        let keys = [(3, 1, 2), (5, 2, 2), (7, 1, 1), (9, 1, 0)];
        // A key no row holds counts among the occurrences but is never looked up.
        assert!(rarest_of(keys.into_iter(), 1).is_empty());
        assert_eq!(rarest_of(keys.into_iter(), 2), [7]);
        assert_eq!(rarest_of(keys.into_iter(), 3), [3, 7]);
        assert_eq!(rarest_of(keys.into_iter(), 4), [3, 5, 7]);
        assert_eq!(rarest_of(keys.into_iter(), 9), [3, 5, 7]);
        assert!(rarest_of(keys.into_iter(), 0).is_empty());
    }
}
