//! The summary of a batch run: what was read, skipped, grouped, left out as boilerplate,
//! compared and reported, with the settings and time per stage.

use serde::Serialize;

use super::{BatchConfig, BatchResult, CandidateSource, DuplicateGroups, StageTimes};
use crate::corpus::Skipped;
use crate::method::{Detector, Method, Params};
use crate::report::SCHEMA_VERSION;

/// Where a run's candidate pairs came from, in words, for the summary text.
fn candidates_origin(source: CandidateSource) -> &'static str {
    match source {
        CandidateSource::SuffixArray => {
            "(documents sharing a run of sentences, from the suffix array)"
        }
        CandidateSource::MethodJoin => "(documents close enough by the method's own join)",
        CandidateSource::JoinKeys => "(documents sharing one of the method's keys)",
        CandidateSource::AllPairs => "(every pair of documents with something to compare)",
        CandidateSource::Listed => "(the pairs listed)",
    }
}

/// How many candidates were scored, and why the others were not.
fn scored(candidates: usize, compared: usize) -> String {
    if compared >= candidates {
        return format!("all {compared} scored");
    }
    format!(
        "{compared} scored, {} ruled out unscored (a bound on their score, or what their \
         sketches hold, shows the rule cannot keep them)",
        candidates - compared
    )
}

/// A boilerplate run in the summary, located by document id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoilerplateRecord {
    /// The earliest document holding it.
    pub document: String,
    /// Its first sentence there.
    pub sentence: usize,
    /// Its length in sentences.
    pub len: usize,
    /// How many distinct profiles hold it.
    pub documents: usize,
}

/// The summary of a batch run (`--summary FILE`, and on standard error).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BatchSummary {
    /// The version of the output schema ([`SCHEMA_VERSION`]).
    pub schema_version: u32,
    /// The method.
    pub method: Method,
    /// How candidates were found: `index` (SL+ST's suffix array), `method join`, `join keys`
    /// or `all`.
    pub candidates_mode: CandidateSource,
    /// Documents read.
    pub documents_read: usize,
    /// Documents (or files) skipped.
    pub documents_skipped: usize,
    /// Each skip: id when known, location, reason.
    pub skipped: Vec<Skipped>,
    /// Documents read without any kept sentence (in no pair).
    pub documents_without_sentences: usize,
    /// The ids of the first 100 of them.
    pub without_sentences: Vec<String>,
    /// Documents decoded by the Windows-1252 fallback.
    pub documents_fallback_decoded: usize,
    /// Kept sentences in all.
    pub sentences: usize,
    /// Groups of exact copies, each compared once, by its earliest document: documents with the
    /// same text (paper mode: the same profile, which equal texts have).
    pub exact_duplicate_groups: usize,
    /// Documents in those groups.
    pub documents_in_exact_duplicate_groups: usize,
    /// The resemblance at or above which reported pairs form duplicate groups (null: grouping
    /// off).
    pub group_resemblance: Option<f64>,
    /// Duplicate groups: sets of documents every two of which are a reported pair at
    /// `group_resemblance` or above.
    pub duplicate_groups: usize,
    /// Group records written (to the groups file; 0 without one).
    pub group_records_written: usize,
    /// Documents in duplicate groups.
    pub documents_in_duplicate_groups: usize,
    /// Reported pairs inside duplicate groups (with a groups file, written as pairs only with
    /// `--group-pairs`).
    pub pairs_in_duplicate_groups: usize,
    /// Boilerplate runs excluded from candidate generation.
    pub boilerplate_runs_excluded: usize,
    /// The first 100 of them.
    pub boilerplate: Vec<BoilerplateRecord>,
    /// Candidate pairs (of representatives).
    pub candidate_pairs: usize,
    /// Candidate pairs compared: the others share too few sentence keys to reach the report.
    pub pairs_compared: usize,
    /// Pairs reported (inside duplicate groups or not).
    pub pairs_reported: usize,
    /// Of those, pairs reported as templates, not duplicates (`--templates report`): in no
    /// cluster and no duplicate group.
    pub templates_reported: usize,
    /// Pair records written: every pair reported, or with a groups file those outside the
    /// groups (all with `--group-pairs`).
    pub pairs_written: usize,
    /// Clusters of two or more documents.
    pub clusters: usize,
    /// Worker threads.
    pub threads: usize,
    /// The method's settings (for SL+ST with its mode).
    pub params: Params,
    /// Containment threshold, when pairs are reported by containment.
    pub containment_threshold: Option<f64>,
    /// Seconds per stage (wall clock).
    pub seconds: StageTimes,
    /// The process's CPU seconds per stage, user and system over all its threads (`None`
    /// where the system does not tell them): what a stage cost where the wall clock also
    /// counts other work on a shared machine.
    pub cpu_seconds: Option<StageTimes>,
    /// With `--drop-boilerplate`: the web-page blocks left out for recurring on too many pages.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub boilerplate_blocks: Vec<crate::web::BoilerplateBlock>,
    /// Web pages that were read but are unusual (nesting flattened, no visible text): id,
    /// location and the note.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub page_notes: Vec<Skipped>,
}

impl BatchSummary {
    /// The summary of a result, its clusters and its duplicate groups; `written` is the number
    /// of pair records and of group records written.
    pub fn new<D: Detector>(
        detector: &D,
        result: &BatchResult<D>,
        clusters: &[Vec<usize>],
        duplicate_groups: &DuplicateGroups,
        (pairs_written, group_records_written): (usize, usize),
        config: &BatchConfig,
    ) -> Self {
        let corpus = &result.corpus;
        let counts: Vec<usize> = corpus
            .sketches
            .iter()
            .map(|s| detector.sentence_counts(s).map_or(0, |c| c.sentences))
            .collect();
        let counted = corpus
            .sketches
            .first()
            .is_some_and(|s| detector.sentence_counts(s).is_some());
        let without: Vec<usize> = if counted {
            (0..counts.len()).filter(|&i| counts[i] == 0).collect()
        } else {
            Vec::new()
        };
        let set = &result.candidates;
        let groups = set.groups.groups();
        BatchSummary {
            schema_version: SCHEMA_VERSION,
            method: detector.method(),
            candidates_mode: set.source,
            documents_read: corpus.ids.len(),
            documents_skipped: corpus.skipped.len(),
            skipped: corpus.skipped.clone(),
            documents_without_sentences: without.len(),
            without_sentences: without
                .iter()
                .take(100)
                .map(|&i| corpus.ids[i].clone())
                .collect(),
            documents_fallback_decoded: corpus.fallback_decoded,
            sentences: counts.iter().sum(),
            exact_duplicate_groups: groups.len(),
            documents_in_exact_duplicate_groups: groups.iter().map(Vec::len).sum(),
            group_resemblance: duplicate_groups.at,
            duplicate_groups: duplicate_groups.groups.len(),
            group_records_written,
            documents_in_duplicate_groups: duplicate_groups.documents(),
            pairs_in_duplicate_groups: duplicate_groups.pairs(),
            boilerplate_runs_excluded: set.boilerplate.len() + set.capped_keys,
            boilerplate: set
                .boilerplate
                .iter()
                .take(100)
                .map(|b| BoilerplateRecord {
                    document: corpus.ids[b.document].clone(),
                    sentence: b.sentence,
                    len: b.len,
                    documents: b.documents,
                })
                .collect(),
            candidate_pairs: set.pairs.len(),
            pairs_compared: result.pairs_compared,
            pairs_reported: result.pairs.len(),
            templates_reported: result.templates(),
            pairs_written,
            clusters: clusters.len(),
            threads: rayon::current_num_threads(),
            params: detector.params(),
            containment_threshold: config.rule.containment(),
            seconds: result.times,
            cpu_seconds: result.cpu_times,
            boilerplate_blocks: corpus.boilerplate_blocks.clone(),
            page_notes: corpus.page_notes.clone(),
        }
    }

    /// The duplicate groups' line, when there are groups: where they went.
    fn groups_text(&self) -> String {
        if self.duplicate_groups == 0 {
            return String::new();
        }
        let written = if self.group_records_written == 0 {
            "; every pair written as a pair (--groups FILE: each group once, as one record)"
                .to_string()
        } else if self.pairs_written < self.pairs_reported {
            format!(
                "; each group written as one record, and the other {} pairs as pairs \
                 (--group-pairs: every pair)",
                self.pairs_written
            )
        } else {
            "; each group written as one record, and every pair as a pair".to_string()
        };
        format!(
            "duplicate groups (J ≥ {}): {} of {} documents, holding {} of the pairs{written}\n",
            self.group_resemblance.unwrap_or(1.0),
            self.duplicate_groups,
            self.documents_in_duplicate_groups,
            self.pairs_in_duplicate_groups,
        )
    }

    /// The human-readable summary.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "documents: {} read{}, {} skipped, {} without sentences, {} sentences\n\
             {}boilerplate runs excluded: {}\n\
             candidate pairs: {} {}; {}\n\
             pairs reported: {}{}; clusters: {}\n{}\
             time: {:.2}s reading and profiling, {:.2}s candidates, {:.2}s scoring ({} threads{})\n",
            self.documents_read,
            if self.documents_fallback_decoded > 0 {
                format!(
                    " ({} not UTF-8, decoded as Windows-1252)",
                    self.documents_fallback_decoded
                )
            } else {
                String::new()
            },
            self.documents_skipped,
            self.documents_without_sentences,
            self.sentences,
            if self.exact_duplicate_groups > 0 {
                format!(
                    "exact copies: {} groups ({} documents), each compared once\n",
                    self.exact_duplicate_groups, self.documents_in_exact_duplicate_groups
                )
            } else {
                String::new()
            },
            self.boilerplate_runs_excluded,
            self.candidate_pairs,
            candidates_origin(self.candidates_mode),
            scored(self.candidate_pairs, self.pairs_compared),
            self.pairs_reported,
            if self.templates_reported > 0 {
                format!(" ({} of them templates)", self.templates_reported)
            } else {
                String::new()
            },
            self.clusters,
            self.groups_text(),
            self.seconds.sketch,
            self.seconds.candidates,
            self.seconds.verify,
            self.threads,
            self.cpu_seconds
                .map(|c| format!(", {:.2}s CPU", c.sketch + c.candidates + c.verify))
                .unwrap_or_default(),
        );
        for skip in self.skipped.iter().take(20) {
            s.push_str(&format!(
                "skipped: {}{}: {}\n",
                skip.location,
                // The id, unless the location says it already (a file's path).
                skip.id
                    .as_deref()
                    .filter(|i| !skip.location.ends_with(i))
                    .map(|i| format!(" ({i})"))
                    .unwrap_or_default(),
                skip.reason
            ));
        }
        if self.skipped.len() > 20 {
            s.push_str(&format!(
                "skipped: … and {} more (see --summary)\n",
                self.skipped.len() - 20
            ));
        }
        for note in self.page_notes.iter().take(20) {
            s.push_str(&format!("note: {}: {}\n", note.location, note.reason));
        }
        if self.page_notes.len() > 20 {
            s.push_str(&format!(
                "note: … and {} more (see --summary)\n",
                self.page_notes.len() - 20
            ));
        }
        if !self.boilerplate_blocks.is_empty() {
            s.push_str(&format!(
                "boilerplate blocks dropped: {}\n",
                self.boilerplate_blocks.len()
            ));
            for b in self.boilerplate_blocks.iter().take(20) {
                s.push_str(&format!(
                    "  on {} pages (first {}): {}\n",
                    b.pages, b.first_page, b.excerpt
                ));
            }
        }
        s
    }
}
