//! The settings an index is created with, as its `meta` table stores them (JSON, one layout per
//! method, unchanged since format version 1), and the detector they build.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::method::{
    Detector, MatchKey, MegaShingleConfig, Method, MethodDetector, MethodSettings, RobustConfig,
    ShingleConfig, ShingleHash, ShingleMeasure, ShingleSketchKind, SlstConfig, SlstMode,
};
use crate::profile::ProfileConfig;
use crate::text::StopWords;

/// The settings of an SL+ST index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct StoredSettings {
    method: String,
    min_block: usize,
    threshold: f64,
    max_length: usize,
    leading_terms: usize,
    stopwords_id: String,
    stopwords: Vec<String>,
}

/// The settings of a robust SL+ST index (`"mode": "robust"`; an SL+ST index without a mode is
/// in paper mode, as every index before the robust mode could be indexed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct StoredRobustSettings {
    method: String,
    mode: SlstMode,
    max_length: usize,
    min_block: usize,
    length_tolerance: usize,
    term_similarity: f64,
    single_min_terms: usize,
    single_similarity: f64,
    clauses: bool,
    stem: bool,
    anchor_terms: usize,
    split_glued: bool,
    window: usize,
    threshold: f64,
    min_weighted: f64,
    min_figures: f64,
    contained: f64,
    min_figure_containment: f64,
    min_agreement: f64,
    min_term_containment: f64,
    /// Absent from indexes made before the setting: 0, their decision.
    #[serde(default)]
    matched_containment_from: usize,
    /// Absent from indexes made before the setting: off, their decision.
    #[serde(default)]
    flash_leads: bool,
    /// Absent from indexes made before the setting: off (0), their decision.
    #[serde(default)]
    flash_edits: usize,
    /// Absent from indexes made before the setting: off, their decision.
    #[serde(default)]
    headline_subjects: bool,
    /// Absent from indexes made before the setting: off (0), their decision.
    #[serde(default)]
    figure_swaps: usize,
    /// Absent from indexes made before the setting: off (0), their decision.
    #[serde(default)]
    vocabulary: f64,
    /// Absent from indexes made before the setting: every pair of anchors (0), their keys.
    #[serde(default)]
    pair_keys: usize,
    stopwords_id: String,
    stopwords: Vec<String>,
}

/// Only the mode of stored SL+ST settings.
#[derive(Deserialize)]
struct StoredMode {
    #[serde(default)]
    mode: SlstMode,
}

/// The settings of a shingle index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct StoredShingleSettings {
    method: String,
    size: usize,
    hash: ShingleHash,
    sketch: ShingleSketchKind,
    modulus: u64,
    sketch_size: usize,
    measure: ShingleMeasure,
    threshold: f64,
    stopwords_id: String,
    stopwords: Vec<String>,
}

/// The settings of a megashingle index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct StoredMegaShingleSettings {
    method: String,
    shingle_size: usize,
    minima: usize,
    supershingle_size: usize,
    seed: u64,
    stopwords_id: String,
    stopwords: Vec<String>,
}

/// A stop-word list as stored: its words (so that a list read from a file survives).
fn word_list(stopwords: &StopWords) -> Vec<String> {
    stopwords.words().into_iter().map(str::to_string).collect()
}

/// The stop-word list of stored settings.
fn stop_list(id: &str, words: &[String]) -> StopWords {
    StopWords::parse(id, &words.join("\n"))
}

/// The methods an index can hold (SL+ST in either mode).
pub(super) const INDEXED: [Method; 3] = [Method::Slst, Method::Shingle, Method::MegaShingle];

/// The method and settings of a detector as an index stores them.
///
/// # Errors
/// [`Error::InvalidParameter`] for a method an index cannot hold.
pub(super) fn to_json(detector: &MethodDetector) -> Result<String> {
    let json = match detector {
        MethodDetector::Slst(d) if d.method() == Method::Slst => {
            let c = d.config();
            serde_json::to_string(&StoredSettings {
                method: Method::Slst.name().into(),
                min_block: c.min_block,
                threshold: c.threshold,
                max_length: c.profile.max_length,
                leading_terms: c.profile.leading_terms,
                stopwords_id: c.profile.stopwords.id().to_string(),
                stopwords: word_list(&c.profile.stopwords),
            })
        }
        MethodDetector::SlstRobust(d) => {
            let c = d.config();
            serde_json::to_string(&StoredRobustSettings {
                method: Method::Slst.name().into(),
                mode: SlstMode::Robust,
                max_length: c.max_length,
                min_block: c.min_block,
                length_tolerance: c.length_tolerance,
                term_similarity: c.term_similarity,
                single_min_terms: c.single_min_terms,
                single_similarity: c.single_similarity,
                clauses: c.clauses,
                stem: c.stem,
                anchor_terms: c.anchor_terms,
                split_glued: c.split_glued,
                window: c.window,
                threshold: c.threshold,
                min_weighted: c.min_weighted,
                min_figures: c.min_figures,
                contained: c.contained,
                min_figure_containment: c.min_figure_containment,
                min_agreement: c.min_agreement,
                min_term_containment: c.min_term_containment,
                matched_containment_from: c.matched_containment_from,
                flash_leads: c.flash_leads,
                flash_edits: c.flash_edits,
                headline_subjects: c.headline_subjects,
                figure_swaps: c.figure_swaps,
                pair_keys: c.pair_keys,
                vocabulary: c.vocabulary,
                stopwords_id: c.stopwords.id().to_string(),
                stopwords: word_list(&c.stopwords),
            })
        }
        MethodDetector::Shingle(d) => {
            let c = d.config();
            serde_json::to_string(&StoredShingleSettings {
                method: Method::Shingle.name().into(),
                size: c.size,
                hash: c.hash,
                sketch: c.sketch,
                modulus: c.modulus,
                sketch_size: c.sketch_size,
                measure: c.measure,
                threshold: c.threshold,
                stopwords_id: c.stopwords.id().to_string(),
                stopwords: word_list(&c.stopwords),
            })
        }
        MethodDetector::MegaShingle(d) => {
            let c = d.config();
            serde_json::to_string(&StoredMegaShingleSettings {
                method: Method::MegaShingle.name().into(),
                shingle_size: c.shingle_size,
                minima: c.minima,
                supershingle_size: c.supershingle_size,
                seed: c.seed,
                stopwords_id: c.stopwords.id().to_string(),
                stopwords: word_list(&c.stopwords),
            })
        }
        other => {
            return Err(Error::InvalidParameter {
                name: "method",
                value: match other.mode() {
                    Some(mode) => format!("{} ({} mode)", other.method(), mode.name()),
                    None => other.method().to_string(),
                },
                expected: "slst (either mode), shingle or megashingle (the other methods are \
                           not indexed)",
            });
        }
    };
    Ok(json.unwrap_or_default())
}

/// The method and settings stored under `method`; `Ok(None)` when they cannot be read.
///
/// # Errors
/// A stored setting out of range.
pub(super) fn from_json(method: Method, json: &str) -> Result<Option<(Method, MethodSettings)>> {
    let mut settings = MethodSettings::default();
    let method = match method {
        Method::Slst
            if serde_json::from_str::<StoredMode>(json)
                .is_ok_and(|m| m.mode == SlstMode::Robust) =>
        {
            let Ok(s) = serde_json::from_str::<StoredRobustSettings>(json) else {
                return Ok(None);
            };
            settings.slst_mode = SlstMode::Robust;
            settings.robust = RobustConfig {
                stopwords: stop_list(&s.stopwords_id, &s.stopwords),
                max_length: s.max_length,
                min_block: s.min_block,
                length_tolerance: s.length_tolerance,
                term_similarity: s.term_similarity,
                single_min_terms: s.single_min_terms,
                single_similarity: s.single_similarity,
                clauses: s.clauses,
                stem: s.stem,
                anchor_terms: s.anchor_terms,
                split_glued: s.split_glued,
                window: s.window,
                threshold: s.threshold,
                min_weighted: s.min_weighted,
                min_figures: s.min_figures,
                contained: s.contained,
                min_figure_containment: s.min_figure_containment,
                min_agreement: s.min_agreement,
                min_term_containment: s.min_term_containment,
                matched_containment_from: s.matched_containment_from,
                flash_leads: s.flash_leads,
                flash_edits: s.flash_edits,
                headline_subjects: s.headline_subjects,
                figure_swaps: s.figure_swaps,
                pair_keys: s.pair_keys,
                vocabulary: s.vocabulary,
            };
            Method::Slst
        }
        Method::Slst => {
            let Ok(s) = serde_json::from_str::<StoredSettings>(json) else {
                return Ok(None);
            };
            settings.slst = SlstConfig {
                profile: ProfileConfig {
                    max_length: s.max_length,
                    leading_terms: s.leading_terms,
                    stopwords: stop_list(&s.stopwords_id, &s.stopwords),
                },
                min_block: s.min_block,
                threshold: s.threshold,
                match_key: MatchKey::LengthAndLeading,
            };
            Method::Slst
        }
        Method::Shingle => {
            let Ok(s) = serde_json::from_str::<StoredShingleSettings>(json) else {
                return Ok(None);
            };
            settings.shingle = ShingleConfig {
                size: s.size,
                hash: s.hash,
                sketch: s.sketch,
                modulus: s.modulus,
                sketch_size: s.sketch_size,
                measure: s.measure,
                threshold: s.threshold,
                stopwords: stop_list(&s.stopwords_id, &s.stopwords),
            };
            Method::Shingle
        }
        Method::MegaShingle => {
            let Ok(s) = serde_json::from_str::<StoredMegaShingleSettings>(json) else {
                return Ok(None);
            };
            settings.megashingle = MegaShingleConfig {
                shingle_size: s.shingle_size,
                minima: s.minima,
                supershingle_size: s.supershingle_size,
                seed: s.seed,
                stopwords: stop_list(&s.stopwords_id, &s.stopwords),
            };
            Method::MegaShingle
        }
        _ => return Ok(None),
    };
    settings.detector(method)?;
    Ok(Some((method, settings)))
}
