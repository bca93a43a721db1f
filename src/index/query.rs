//! A query: the indexed documents that the index's method keeps against one query document.

use std::collections::{HashMap, HashSet};

use rusqlite::OptionalExtension;

use super::{Index, QueryOptions, distinct, fingerprint, keys_blob};
use crate::batch::verify_pair;
use crate::document::Document;
use crate::error::Result;
use crate::method::{Comparison, Detector, MethodDetector, Witness};

/// One indexed near-duplicate of a query document.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit<S, E> {
    /// The indexed document (its text as stored).
    pub document: Document,
    /// Its stored sketch.
    pub sketch: S,
    /// `compare(query, document)`: exactly what `slst compare QUERY DOCUMENT` computes.
    pub comparison: Comparison<E>,
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

    /// Every indexed document that `detector` — the index's own ([`Index::query_detector`]) —
    /// keeps against `query` (its decision, or either containment ≥ θc with something in
    /// common), with the comparison, best first. The answer equals comparing the query with
    /// every indexed document (module docs).
    ///
    /// # Errors
    /// A detector of another method, a containment out of range, SQLite fails, or a
    /// candidate's row is damaged.
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
        let rule = options.rule();
        let sketch = detector.sketch(query);
        let keys = detector.index_keys(&sketch).unwrap_or_default();
        let mut result = QueryResult {
            sketch,
            hits: Vec::new(),
            candidates: 0,
            compared: 0,
        };
        if keys.is_empty() {
            return Ok(result); // nothing to share with anything
        }
        let mut order: Vec<i64> = match detector.external_join() {
            Some(join) => {
                let witnesses = join.witness_keys(&result.sketch);
                let units = detector
                    .sentence_counts(&result.sketch)
                    .map_or(0, |c| c.sentences);
                let may_keep =
                    |m: usize, n: usize| join.may_keep_matched(m.min(units).min(n), units, n, rule);
                let mut rows = self.witnessed_candidates(&keys, &witnesses, &may_keep)?;
                // The rows a count of witnessed units does not bound: those alike in their
                // words share one of the query's |q| − ⌈v·|q|⌉ + 1 rarest word keys.
                if let (Some(words), Some((level, _))) =
                    (join.word_keys(&result.sketch), join.word_join())
                {
                    let probe = crate::method::prefix_len(words.len(), level);
                    let rarest = self.rarest(&words, probe)?;
                    self.add_rows_with(&rarest, &mut rows)?;
                }
                rows
            }
            None => {
                let needed = detector.index_keys_needed(&result.sketch, rule).max(1);
                self.candidates(&keys, needed)?
            }
        }
        .into_iter()
        .collect();
        order.sort_unstable();
        result.candidates = order.len();
        for d in order {
            let (document, stored): (Document, D::Sketch) = self.load(d)?;
            let verdict = verify_pair(detector, &result.sketch, &stored, Some(rule), true);
            result.compared += usize::from(verdict.compared());
            if let Some(comparison) = verdict.kept() {
                result.hits.push(Hit {
                    document,
                    sketch: stored,
                    comparison,
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

    /// For a method with witness keys (robust SL+ST): the rows holding one of the query's
    /// keys whose count of the query's units witnessed by their keys could satisfy the rule
    /// (`may_keep(witnessed, the row's units)`, from the `sentences` column, without loading
    /// the sketch), and the rows with the very same keys. Every unit of the query in a block of
    /// a comparison with a row has a witness key the row holds, so no row the query keeps is
    /// left out (the corpus join's bound, [`crate::method::WitnessJoin::witness_keys`]).
    fn witnessed_candidates(
        &self,
        keys: &[u64],
        witnesses: &[Witness],
        may_keep: &dyn Fn(usize, usize) -> bool,
    ) -> Result<HashSet<i64>> {
        // Each distinct key with the units it witnesses.
        let mut by_key: HashMap<u64, Vec<u32>> = HashMap::new();
        // The index is exact (no key is left out), so it counts every shared key: a chance
        // witness only adds a candidate.
        for w in witnesses {
            by_key.entry(w.key).or_default().push(w.unit);
        }
        let mut postings = self
            .conn
            .prepare_cached(
                "SELECT p.doc, d.sentences FROM postings p JOIN documents d ON d.doc = p.doc \
                 WHERE p.key = ?1",
            )
            .map_err(self.err())?;
        // Per row: its units and the query's units witnessed so far.
        let mut seen: HashMap<i64, (usize, HashSet<u32>)> = HashMap::new();
        // The candidates are a set: the order of the lookups does not change them.
        for (&k, units) in &by_key {
            let rows = postings
                .query_map([k as i64], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
                })
                .map_err(self.err())?;
            for row in rows {
                let (doc, sentences) = row.map_err(self.err())?;
                let entry = seen
                    .entry(doc)
                    .or_insert_with(|| (sentences.max(0) as usize, HashSet::new()));
                entry.1.extend(units.iter().copied());
            }
        }
        let mut candidates: HashSet<i64> = seen
            .into_iter()
            .filter(|(_, (n, witnessed))| may_keep(witnessed.len(), *n))
            .map(|(doc, _)| doc)
            .collect();
        self.add_same_keys(keys, &mut candidates)?;
        Ok(candidates)
    }

    /// The rows that share `needed` of the query's key occurrences — found through the
    /// |q| − needed + 1 rarest of them (by the stored document frequencies) — and the rows with
    /// the very same keys.
    fn candidates(&self, keys: &[u64], needed: usize) -> Result<HashSet<i64>> {
        let mut candidates: HashSet<i64> = HashSet::new();
        if needed <= keys.len() {
            let prefix = self.rarest(keys, keys.len() - needed + 1)?;
            self.add_rows_with(&prefix, &mut candidates)?;
        }
        self.add_same_keys(keys, &mut candidates)?;
        Ok(candidates)
    }

    /// The distinct keys among the first `count` of the key occurrences `keys` in order of
    /// their stored document frequencies (rarest first, ties by key), those no row holds left
    /// out.
    fn rarest(&self, keys: &[u64], count: usize) -> Result<Vec<u64>> {
        let mut df_stmt = self
            .conn
            .prepare_cached("SELECT df FROM keys WHERE key = ?1")
            .map_err(self.err())?;
        let mut df: HashMap<u64, i64> = HashMap::new();
        for &k in keys {
            if let std::collections::hash_map::Entry::Vacant(slot) = df.entry(k) {
                let n: Option<i64> = df_stmt
                    .query_row([k as i64], |r| r.get(0))
                    .optional()
                    .map_err(self.err())?;
                slot.insert(n.unwrap_or(0));
            }
        }
        let mut occurrences: Vec<u64> = keys.to_vec();
        occurrences.sort_by_key(|k| (df[k], *k));
        let mut prefix = distinct(&occurrences[..count.min(keys.len())]);
        prefix.retain(|k| df[k] > 0);
        Ok(prefix)
    }

    /// Adds the rows holding any of `keys`.
    fn add_rows_with(&self, keys: &[u64], candidates: &mut HashSet<i64>) -> Result<()> {
        let mut postings = self
            .conn
            .prepare_cached("SELECT doc FROM postings WHERE key = ?1")
            .map_err(self.err())?;
        for &k in keys {
            let docs = postings
                .query_map([k as i64], |r| r.get::<_, i64>(0))
                .map_err(self.err())?;
            for d in docs {
                candidates.insert(d.map_err(self.err())?);
            }
        }
        Ok(())
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
