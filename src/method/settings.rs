//! Settings by name: `MethodSettings::set(method, "min_block", "3")`, for callers that hold
//! settings as names and values (the Python package's `**params`, a configuration file). The
//! names are the command line's flags with `_` for `-` (`--term-similarity` is
//! `term_similarity`), and a value is checked when the detector is built, as the CLI's are.

use serde::de::DeserializeOwned;

use super::{Method, MethodSettings, RobustConfig, SlstMode};
use crate::MatchKey;
use crate::error::{Error, Result};
use crate::profile::ProfileConfig;
use crate::text::StopWords;

/// A value read from text: numbers as Rust parses them, `true`/`false` (or `1`/`0`), and the
/// lower-case names of an enum (`crc32`, `min`, `containment`).
trait FromSetting: Sized {
    fn from_setting(value: &str) -> Option<Self>;
}

macro_rules! from_str_setting {
    ($($t:ty),*) => {$(
        impl FromSetting for $t {
            fn from_setting(value: &str) -> Option<Self> {
                value.trim().parse().ok()
            }
        }
    )*};
}
from_str_setting!(usize, u64, f64);

impl FromSetting for bool {
    fn from_setting(value: &str) -> Option<Self> {
        match value.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" => Some(true),
            "false" | "0" | "no" => Some(false),
            _ => None,
        }
    }
}

/// An enum that serde reads from its lower-case name.
fn by_name<T: DeserializeOwned>(value: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(value.trim().to_ascii_lowercase())).ok()
}

/// The built-in stop-word lists by name (`english`, `none`); a path is a file of one word per
/// line, as the CLI's `--stopwords` takes.
fn stopwords(value: &str) -> Result<StopWords> {
    Ok(match value.trim() {
        "english" | "en" => StopWords::english(),
        "none" => StopWords::none(),
        path => StopWords::from_file(std::path::Path::new(path))?,
    })
}

fn parse<T: FromSetting>(name: &str, value: &str) -> Result<T> {
    T::from_setting(value).ok_or_else(|| Error::UnknownParameter {
        method: String::new(),
        name: name.to_string(),
        detail: format!("cannot read {value:?} as its value"),
    })
}

/// The names each method takes (besides `mode` for SL+ST, which picks the mode).
const SLST: &[&str] = &[
    "min_block",
    "threshold",
    "match_key",
    "max_length",
    "leading_terms",
    "stopwords",
];
const ROBUST: &[&str] = &[
    "min_block",
    "threshold",
    "max_length",
    "stopwords",
    "length_tolerance",
    "term_similarity",
    "single_min_terms",
    "single_similarity",
    "clauses",
    "stem",
    "anchor_terms",
    "split_glued",
    "window",
    "min_weighted",
    "min_figures",
    "contained",
    "min_figure_containment",
    "min_agreement",
    "min_term_containment",
    "matched_containment_from",
    "flash_leads",
    "flash_edits",
    "headline_subjects",
    "figure_swaps",
    "vocabulary",
    "pair_keys",
];
const SHINGLE: &[&str] = &[
    "shingle_size",
    "hash",
    "sketch",
    "modulus",
    "sketch_size",
    "measure",
    "threshold",
    "stopwords",
];
const MEGASHINGLE: &[&str] = &[
    "shingle_size",
    "minima",
    "supershingle_size",
    "seed",
    "stopwords",
];
const POLYHASH: &[&str] = &["ngram", "base", "threshold", "stopwords"];
const SPOTSIGS: &[&str] = &[
    "spot_distance",
    "chain_length",
    "min_signatures",
    "with_antecedent",
    "threshold",
    "stopwords",
];
const SENTLEN: &[&str] = &["k", "threshold", "max_length", "leading_terms", "stopwords"];
const MD5: &[&str] = &["stopwords"];
const BLOCKS: &[&str] = &[
    "shingle_size",
    "shingles_per_page",
    "threshold",
    "specialchars_threshold",
    "stopwords",
];

impl MethodSettings {
    /// The setting names [`MethodSettings::set`] takes for `method` (for SL+ST, in the mode
    /// these settings hold).
    pub fn names(&self, method: Method) -> &'static [&'static str] {
        match method {
            Method::Slst | Method::SlstFlat if self.slst_mode == SlstMode::Robust => ROBUST,
            Method::Slst | Method::SlstFlat => SLST,
            Method::Shingle => SHINGLE,
            Method::MegaShingle => MEGASHINGLE,
            Method::PolyHash => POLYHASH,
            Method::SpotSigs => SPOTSIGS,
            Method::SentLen => SENTLEN,
            Method::Md5 => MD5,
            Method::BlocksMd5
            | Method::BlocksShingle
            | Method::SpecialChars
            | Method::BlocksSpecialChars => BLOCKS,
        }
    }

    /// Set one setting of `method` by name, from its value written as text. For SL+ST the
    /// mode these settings hold ([`MethodSettings::slst_mode`]) picks which configuration is
    /// set. Values are checked for range when the detector is built
    /// ([`MethodSettings::detector`]).
    ///
    /// # Errors
    /// [`Error::UnknownParameter`]: the method has no setting of that name (the error lists
    /// the names it has), or the value cannot be read as the setting's type. A stop-word file
    /// that cannot be read.
    ///
    /// # Example
    /// ```
    /// use slst::method::{Method, MethodSettings, SlstMode};
    /// let mut settings = MethodSettings { slst_mode: SlstMode::Robust, ..Default::default() };
    /// settings.set(Method::Slst, "term_similarity", "0.5")?;
    /// settings.set(Method::Shingle, "shingle_size", "4")?;
    /// assert_eq!(settings.robust.term_similarity, 0.5);
    /// assert_eq!(settings.shingle.size, 4);
    /// assert!(settings.set(Method::Slst, "shingle_size", "4").is_err());
    /// # Ok::<(), slst::Error>(())
    /// ```
    pub fn set(&mut self, method: Method, name: &str, value: &str) -> Result<()> {
        self.set_inner(method, name, value).map_err(|e| match e {
            Error::UnknownParameter {
                name: n, detail, ..
            } => Error::UnknownParameter {
                method: method.name().to_string(),
                name: n,
                detail,
            },
            other => other,
        })
    }

    fn set_inner(&mut self, method: Method, name: &str, value: &str) -> Result<()> {
        let names = self.names(method);
        if !names.contains(&name) {
            return Err(Error::UnknownParameter {
                method: String::new(),
                name: name.to_string(),
                detail: format!("no such setting; its settings are {}", names.join(", ")),
            });
        }
        let v = value;
        let profile = |p: &mut ProfileConfig| -> Result<()> {
            match name {
                "max_length" => p.max_length = parse(name, v)?,
                "leading_terms" => p.leading_terms = parse(name, v)?,
                "stopwords" => p.stopwords = stopwords(v)?,
                _ => unreachable!("PROFILE names"),
            }
            Ok(())
        };
        let enum_value = |what: &str| -> Error {
            Error::UnknownParameter {
                method: String::new(),
                name: name.to_string(),
                detail: format!("{v:?} is not one of {what}"),
            }
        };
        match method {
            Method::Slst | Method::SlstFlat if self.slst_mode == SlstMode::Robust => {
                set_robust(&mut self.robust, name, v)?;
            }
            Method::Slst | Method::SlstFlat => {
                let s = &mut self.slst;
                match name {
                    "min_block" => s.min_block = parse(name, v)?,
                    "threshold" => s.threshold = parse(name, v)?,
                    "match_key" => {
                        s.match_key = match v.trim() {
                            "terms" => MatchKey::LengthAndLeading,
                            "length" => MatchKey::Length,
                            _ => return Err(enum_value("terms, length")),
                        }
                    }
                    _ => profile(&mut s.profile)?,
                }
            }
            Method::Shingle => {
                let s = &mut self.shingle;
                match name {
                    "shingle_size" => s.size = parse(name, v)?,
                    "hash" => s.hash = by_name(v).ok_or_else(|| enum_value("rabin, crc32"))?,
                    "sketch" => {
                        s.sketch = by_name(v).ok_or_else(|| enum_value("full, mod, min"))?;
                    }
                    "modulus" => s.modulus = parse(name, v)?,
                    "sketch_size" => s.sketch_size = parse(name, v)?,
                    "measure" => {
                        s.measure = by_name(v)
                            .ok_or_else(|| enum_value("resemblance, containment, dice"))?;
                    }
                    "threshold" => s.threshold = parse(name, v)?,
                    "stopwords" => s.stopwords = stopwords(v)?,
                    _ => unreachable!("SHINGLE names"),
                }
            }
            Method::MegaShingle => {
                let s = &mut self.megashingle;
                match name {
                    "shingle_size" => s.shingle_size = parse(name, v)?,
                    "minima" => s.minima = parse(name, v)?,
                    "supershingle_size" => s.supershingle_size = parse(name, v)?,
                    "seed" => s.seed = parse(name, v)?,
                    "stopwords" => s.stopwords = stopwords(v)?,
                    _ => unreachable!("MEGASHINGLE names"),
                }
            }
            Method::PolyHash => {
                let s = &mut self.polyhash;
                match name {
                    "ngram" => s.ngram = parse(name, v)?,
                    "base" => s.base = parse(name, v)?,
                    "threshold" => s.threshold = parse(name, v)?,
                    "stopwords" => s.stopwords = stopwords(v)?,
                    _ => unreachable!("POLYHASH names"),
                }
            }
            Method::SpotSigs => {
                let s = &mut self.spotsigs;
                match name {
                    "spot_distance" => s.spot_distance = parse(name, v)?,
                    "chain_length" => s.chain_length = parse(name, v)?,
                    "min_signatures" => s.min_signatures = parse(name, v)?,
                    "with_antecedent" => s.with_antecedent = parse(name, v)?,
                    "threshold" => s.threshold = parse(name, v)?,
                    "stopwords" => s.stopwords = stopwords(v)?,
                    _ => unreachable!("SPOTSIGS names"),
                }
            }
            Method::SentLen => {
                let s = &mut self.sentlen;
                match name {
                    "k" => s.k = parse(name, v)?,
                    "threshold" => s.threshold = parse(name, v)?,
                    _ => profile(&mut s.profile)?,
                }
            }
            Method::Md5 => self.md5.stopwords = stopwords(v)?,
            Method::BlocksMd5
            | Method::BlocksShingle
            | Method::SpecialChars
            | Method::BlocksSpecialChars => {
                let s = &mut self.blocks;
                match name {
                    "shingle_size" => s.shingle_size = parse(name, v)?,
                    "shingles_per_page" => s.shingles_per_page = parse(name, v)?,
                    "threshold" => s.threshold = parse(name, v)?,
                    "specialchars_threshold" => s.specialchars_threshold = parse(name, v)?,
                    "stopwords" => s.stopwords = stopwords(v)?,
                    _ => unreachable!("BLOCKS names"),
                }
            }
        }
        Ok(())
    }
}

/// Sets robust SL+ST's setting `name` (one of its names) to `v`.
fn set_robust(r: &mut RobustConfig, name: &str, v: &str) -> Result<()> {
    match name {
        "min_block" => r.min_block = parse(name, v)?,
        "threshold" => r.threshold = parse(name, v)?,
        "max_length" => r.max_length = parse(name, v)?,
        "stopwords" => r.stopwords = stopwords(v)?,
        "length_tolerance" => r.length_tolerance = parse(name, v)?,
        "term_similarity" => r.term_similarity = parse(name, v)?,
        "single_min_terms" => r.single_min_terms = parse(name, v)?,
        "single_similarity" => r.single_similarity = parse(name, v)?,
        "clauses" => r.clauses = parse(name, v)?,
        "stem" => r.stem = parse(name, v)?,
        "anchor_terms" => r.anchor_terms = parse(name, v)?,
        "split_glued" => r.split_glued = parse(name, v)?,
        "window" => r.window = parse(name, v)?,
        "min_weighted" => r.min_weighted = parse(name, v)?,
        "min_figures" => r.min_figures = parse(name, v)?,
        "contained" => r.contained = parse(name, v)?,
        "min_figure_containment" => r.min_figure_containment = parse(name, v)?,
        "min_agreement" => r.min_agreement = parse(name, v)?,
        "min_term_containment" => r.min_term_containment = parse(name, v)?,
        "matched_containment_from" => r.matched_containment_from = parse(name, v)?,
        "flash_leads" => r.flash_leads = parse(name, v)?,
        "flash_edits" => r.flash_edits = parse(name, v)?,
        "headline_subjects" => r.headline_subjects = parse(name, v)?,
        "figure_swaps" => r.figure_swaps = parse(name, v)?,
        "pair_keys" => r.pair_keys = parse(name, v)?,
        "vocabulary" => r.vocabulary = parse(name, v)?,
        _ => unreachable!("ROBUST names"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_name_is_set_and_others_are_refused() {
        for mode in [SlstMode::Paper, SlstMode::Robust] {
            for method in Method::ALL {
                let mut s = MethodSettings {
                    slst_mode: mode,
                    ..MethodSettings::default()
                };
                for &name in s.names(method) {
                    let value = match name {
                        "stopwords" => "none",
                        "match_key" => "length",
                        "hash" => "crc32",
                        "sketch" => "min",
                        "measure" => "containment",
                        "clauses" | "stem" | "split_glued" | "with_antecedent" | "flash_leads"
                        | "headline_subjects" => "true",
                        "k" => "5",
                        "threshold"
                        | "term_similarity"
                        | "single_similarity"
                        | "contained"
                        | "min_weighted"
                        | "min_figures"
                        | "min_figure_containment"
                        | "min_agreement"
                        | "min_term_containment"
                        | "vocabulary"
                        | "specialchars_threshold" => "0.25",
                        _ => "3",
                    };
                    let before = s.clone();
                    s.set(method, name, value).unwrap();
                    if s == before && value == "true" {
                        s.set(method, name, "false").unwrap();
                    }
                    assert!(s != before, "{} {name} changed nothing", method.name());
                }
                let e = s.set(method, "no_such_setting", "1").unwrap_err();
                assert!(e.to_string().contains(method.name()), "{e}");
            }
        }
    }

    #[test]
    fn a_value_of_the_wrong_type_is_named() {
        let mut s = MethodSettings::default();
        let e = s.set(Method::Slst, "min_block", "two").unwrap_err();
        assert_eq!(
            e.to_string(),
            "slst: setting min_block: cannot read \"two\" as its value"
        );
    }
}
