//! The settings an index is created with, as its `meta` table stores them, and the detector they
//! build.
//!
//! What is stored is derived from the method's configuration ([`MethodConfig`]): a JSON object
//! with the method's name, SL+ST's mode when it is the robust one, every field of the
//! configuration by its serde name, and the stop words as their list's id and words
//! (`stopwords_id`, `stopwords`), so that a list read from a file survives. Reading takes what
//! any earlier version stored: a field it lacks takes its default, except the settings robust
//! SL+ST gained after its indexes could be made, which take the value that reproduces the
//! decisions of the indexes made before them ([`ROBUST_ADDED_LATER`]). An SL+ST index without a
//! mode is in paper mode, as every index made before the robust mode could be indexed.

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::method::{Detector, Method, MethodConfig, MethodDetector, MethodSettings, SlstMode};
use crate::text::StopWords;

/// Settings of robust SL+ST absent from the indexes made before them, with the value (JSON)
/// that gives those indexes' decisions: the condition or rule was off.
const ROBUST_ADDED_LATER: [(&str, &str); 8] = [
    ("matched_containment_from", "0"),
    ("flash_leads", "false"),
    ("flash_edits", "0"),
    ("headline_subjects", "false"),
    ("figure_swaps", "0"),
    ("vocabulary", "0.0"),
    // Every pair of anchors: the keys those indexes hold.
    ("pair_keys", "0"),
    ("rare_df", "0"),
];

/// The methods an index can hold (SL+ST in either mode).
pub(super) const INDEXED: [Method; 3] = [Method::Slst, Method::Shingle, Method::MegaShingle];

/// The stored form of a method's configuration.
fn stored<C: MethodConfig>(method: Method, mode: Option<SlstMode>, config: &C) -> String {
    let mut out = Map::new();
    out.insert("method".into(), method.name().into());
    if let Some(mode) = mode {
        out.insert("mode".into(), mode.name().into());
    }
    for (field, value) in config.to_map() {
        if field != "stopwords" {
            out.insert(field, value);
        }
    }
    let stopwords = config.stopwords();
    out.insert("stopwords_id".into(), stopwords.id().into());
    out.insert("stopwords".into(), stopwords.words().into());
    Value::Object(out).to_string()
}

/// A configuration from its stored form; `None` when it cannot be read.
fn read<C: MethodConfig + Default>(
    mut map: Map<String, Value>,
    added_later: &[(&str, &str)],
) -> Option<C> {
    let id = map.remove("stopwords_id")?.as_str()?.to_string();
    let words: Vec<String> = serde_json::from_value(map.remove("stopwords")?).ok()?;
    map.remove("method");
    map.remove("mode");
    for (field, value) in added_later {
        if !map.contains_key(*field) {
            map.insert((*field).into(), serde_json::from_str(value).ok()?);
        }
    }
    let mut config = C::default().with_map(map).ok()?;
    // `auto` holds no words: it is kept as the setting, each document's list chosen anew. A
    // built-in list with the words stored is that list, with its language (and stemmer).
    *config.stopwords_mut() = StopWords::builtin(&id)
        .filter(|list| list.is_auto() || list.words() == words)
        .unwrap_or_else(|| StopWords::parse(&id, &words.join("\n")));
    Some(config)
}

/// The method and settings of a detector as an index stores them.
///
/// # Errors
/// [`Error::InvalidParameter`] for a method an index cannot hold.
pub(super) fn to_json(detector: &MethodDetector) -> Result<String> {
    Ok(match detector {
        MethodDetector::Slst(d) if d.method() == Method::Slst => {
            stored(Method::Slst, None, d.config())
        }
        MethodDetector::SlstRobust(d) if d.config().rare_df > 0 => {
            return Err(Error::InvalidParameter {
                name: "rare_df",
                value: d.config().rare_df.to_string(),
                expected: "0 in an index (a query looks up every key of its sentences; rare \
                           keys alone are a corpus run's)",
            });
        }
        MethodDetector::SlstRobust(d) => stored(Method::Slst, Some(SlstMode::Robust), d.config()),
        MethodDetector::Shingle(d) => stored(Method::Shingle, None, d.config()),
        MethodDetector::MegaShingle(d) => stored(Method::MegaShingle, None, d.config()),
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
    })
}

/// The method and settings stored under `method`; `Ok(None)` when they cannot be read.
///
/// # Errors
/// A stored setting out of range.
pub(super) fn from_json(method: Method, json: &str) -> Result<Option<(Method, MethodSettings)>> {
    let Ok(Value::Object(map)) = serde_json::from_str::<Value>(json) else {
        return Ok(None);
    };
    let robust = map.get("mode").and_then(Value::as_str) == Some(SlstMode::Robust.name());
    let mut settings = MethodSettings::default();
    let read_all = match method {
        Method::Slst if robust => {
            settings.slst_mode = SlstMode::Robust;
            read(map, &ROBUST_ADDED_LATER).map(|c| settings.robust = c)
        }
        Method::Slst => read(map, &[]).map(|c| settings.slst = c),
        Method::Shingle => read(map, &[]).map(|c| settings.shingle = c),
        Method::MegaShingle => read(map, &[]).map(|c| settings.megashingle = c),
        _ => None,
    };
    if read_all.is_none() {
        return Ok(None);
    }
    settings.detector(method)?;
    Ok(Some((method, settings)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Settings of every indexed method as the first format version wrote them (`slst index
    /// create` with default settings), and robust SL+ST's as indexes made before its later
    /// settings wrote them: each reads back as the settings it was made with.
    #[test]
    fn settings_written_by_earlier_versions_read_back() {
        let fixture = |name: &str| {
            let path = format!(
                "{}/tests/fixtures/index-settings/{name}.json",
                env!("CARGO_MANIFEST_DIR")
            );
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
        };
        let read = |method: Method, name: &str| {
            from_json(method, fixture(name).trim())
                .unwrap()
                .unwrap_or_else(|| panic!("{name} did not read"))
                .1
        };
        let defaults = MethodSettings::default();
        assert_eq!(read(Method::Slst, "slst-paper"), defaults);
        assert_eq!(read(Method::Shingle, "shingle"), defaults);
        assert_eq!(read(Method::MegaShingle, "megashingle"), defaults);
        let robust = MethodSettings {
            slst_mode: SlstMode::Robust,
            ..MethodSettings::default()
        };
        assert_eq!(read(Method::Slst, "slst-robust"), robust);
        let early = read(Method::Slst, "slst-robust-early");
        let r = &early.robust;
        assert_eq!(early.slst_mode, SlstMode::Robust);
        assert!(!r.flash_leads && !r.headline_subjects);
        assert_eq!(
            (
                r.matched_containment_from,
                r.flash_edits,
                r.figure_swaps,
                r.pair_keys
            ),
            (0, 0, 0, 0)
        );
        assert_eq!(r.vocabulary, 0.0);
        assert_eq!(r.term_similarity, robust.robust.term_similarity);
    }

    /// What is written reads back as the settings written, a stop-word list from a file too.
    #[test]
    fn stored_settings_round_trip() {
        let mut settings = MethodSettings {
            slst_mode: SlstMode::Robust,
            ..MethodSettings::default()
        };
        settings.robust.stopwords = StopWords::parse("file:mine.txt", "alpha\nbeta");
        settings.robust.window = 12;
        settings.shingle.size = 6;
        for method in INDEXED {
            let json = to_json(&settings.detector(method).unwrap()).unwrap();
            let (m, read) = from_json(method, &json).unwrap().unwrap();
            assert_eq!(m, method);
            assert_eq!(
                read.detector(method).unwrap().params(),
                settings.detector(method).unwrap().params(),
                "{json}"
            );
        }
        let json = to_json(&settings.detector(Method::Slst).unwrap()).unwrap();
        let read = from_json(Method::Slst, &json).unwrap().unwrap().1;
        assert_eq!(read.robust, settings.robust);
        assert!(read.robust.stopwords.contains("alpha"));
        // `auto` reads back as `auto`, not as an empty list of that name.
        settings.robust.stopwords = StopWords::auto();
        let json = to_json(&settings.detector(Method::Slst).unwrap()).unwrap();
        let read = from_json(Method::Slst, &json).unwrap().unwrap().1;
        assert!(read.robust.stopwords.is_auto());
        assert_eq!(read.robust, settings.robust);
    }

    /// An index looks up every key of a query's sentences: rare keys alone are refused.
    #[test]
    fn an_index_refuses_rare_keys_alone() {
        let mut settings = MethodSettings {
            slst_mode: SlstMode::Robust,
            ..MethodSettings::default()
        };
        settings.robust.rare_df = 10;
        let refused = to_json(&settings.detector(Method::Slst).unwrap());
        assert!(
            matches!(
                refused,
                Err(Error::InvalidParameter {
                    name: "rare_df",
                    ..
                })
            ),
            "{refused:?}"
        );
    }
}
