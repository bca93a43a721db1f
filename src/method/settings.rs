//! Settings by name, derived from each method's configuration struct.
//!
//! A method's settings are the fields of its configuration struct ([`super::RobustConfig`],
//! [`super::SlstConfig`], [`super::ShingleConfig`], …), each written there once with its default
//! and its meaning. Everything that names settings is derived from that struct's serde form
//! ([`MethodConfig`]): the names [`MethodSettings::set`] takes (the Python package's
//! `detector(name, **settings)`, a configuration file), the robust mode's report `params`, what an
//! index stores, and the command line's flags and defaults. A setting's name is its field's serde
//! name; the command line spells it with `-` for `_` (`term_similarity` is `--term-similarity`),
//! except for the few flags the binary lists in one table (`FLAG_NAMES`, src/bin/slst/methods.rs).
//!
//! A method's names are its configuration's fields less those that do not apply to it
//! ([`Schema::skip`]: setting them would change nothing the method does or reports), and a name
//! may stand for a field of another name ([`Schema::alias`]). A test checks, for every method and
//! every name, that setting it changes the built detector's reported `params`.

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use super::{Method, MethodSettings, SlstMode};
use crate::error::{Error, Result};
use crate::text::StopWords;

/// A method's configuration: a struct whose fields are its settings, with serde names equal to
/// the setting names and `#[serde(default)]`, so that a setting left out takes its default.
pub trait MethodConfig: Serialize + DeserializeOwned + Clone {
    /// The stop-word list (every method has one).
    fn stopwords(&self) -> &StopWords;
    /// The stop-word list, to replace it.
    fn stopwords_mut(&mut self) -> &mut StopWords;

    /// The settings as a JSON object, fields in their order, the stop words by their list's id.
    fn to_map(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        }
    }

    /// These settings with the fields of `map` instead (a field left out takes its default; a
    /// `stopwords` entry is ignored: the list stays this one, as only its id is written).
    ///
    /// # Errors
    /// A value of the wrong type or an unknown enum name, in serde's words.
    fn with_map(&self, mut map: Map<String, Value>) -> std::result::Result<Self, String> {
        map.remove("stopwords");
        let mut config: Self =
            serde_json::from_value(Value::Object(map)).map_err(|e| e.to_string())?;
        *config.stopwords_mut() = self.stopwords().clone();
        Ok(config)
    }
}

macro_rules! method_config {
    ($($t:ty => $($field:ident).+;)*) => {$(
        impl MethodConfig for $t {
            fn stopwords(&self) -> &StopWords {
                &self.$($field).+
            }
            fn stopwords_mut(&mut self) -> &mut StopWords {
                &mut self.$($field).+
            }
        }
    )*};
}
method_config! {
    super::SlstConfig => profile.stopwords;
    super::RobustConfig => stopwords;
    super::ShingleConfig => stopwords;
    super::MegaShingleConfig => stopwords;
    super::PolyHashConfig => stopwords;
    super::SpotSigsConfig => stopwords;
    super::SentLenConfig => profile.stopwords;
    super::Md5Config => stopwords;
    super::BlocksConfig => stopwords;
}

/// [`MethodConfig`] without its type, so that [`MethodSettings`] can hand out the configuration
/// of a method chosen at run time.
trait Fields {
    fn map(&self) -> Map<String, Value>;
    fn replace(&mut self, field: &str, value: Value) -> std::result::Result<(), String>;
    fn set_stopwords(&mut self, stopwords: StopWords);
}

impl<C: MethodConfig> Fields for C {
    fn map(&self) -> Map<String, Value> {
        self.to_map()
    }

    fn replace(&mut self, field: &str, value: Value) -> std::result::Result<(), String> {
        let mut map = self.to_map();
        map.insert(field.to_string(), value);
        *self = self.with_map(map)?;
        Ok(())
    }

    fn set_stopwords(&mut self, stopwords: StopWords) {
        *self.stopwords_mut() = stopwords;
    }
}

/// Which fields of its configuration are a method's settings.
struct Schema {
    /// Fields that do not apply to the method: setting them would change nothing it does.
    skip: &'static [&'static str],
    /// (setting name, field) where a name stands for a field of another name.
    alias: &'static [(&'static str, &'static str)],
}

impl Schema {
    /// The schema of `method`: the one table of the differences between a method's settings and
    /// its configuration's fields.
    fn of(method: Method) -> Schema {
        let (skip, alias): (&[&str], &[(&str, &str)]) = match method {
            // Corpus mode only, and not reported.
            Method::SpotSigs => (&["idf_band"], &[]),
            // Sentence lengths alone make its features.
            Method::SentLen => (&["leading_terms"], &[]),
            // One configuration serves the four block methods.
            Method::BlocksMd5 => (
                &[
                    "shingle_size",
                    "shingles_per_page",
                    "specialchars_threshold",
                ],
                &[],
            ),
            Method::BlocksShingle => (&["specialchars_threshold"], &[]),
            Method::SpecialChars | Method::BlocksSpecialChars => (
                &[
                    "stopwords",
                    "shingle_size",
                    "shingles_per_page",
                    "threshold",
                ],
                &[("threshold", "specialchars_threshold")],
            ),
            // The name megashingles and the block methods give their shingles' size too.
            Method::Shingle => (&[], &[("shingle_size", "size")]),
            _ => (&[], &[]),
        };
        Schema { skip, alias }
    }

    /// The setting name of a field, if the field is a setting.
    fn name_of(&self, field: &str) -> Option<String> {
        if self.skip.contains(&field) {
            return None;
        }
        let name = self
            .alias
            .iter()
            .find(|(_, f)| *f == field)
            .map(|(n, _)| *n);
        Some(name.unwrap_or(field).to_string())
    }

    /// The field a setting name sets.
    fn field_of<'a>(&self, name: &'a str) -> &'a str {
        self.alias
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(name, |(_, f)| f)
    }
}

/// A value read from text as the kind of value `like` is: `true`/`false` (or `1`/`0`,
/// `yes`/`no`), a whole number, a number, a name (lower case: an enum's variant, a language), or
/// a comma-separated list of these.
fn read_like(like: &Value, text: &str) -> Option<Value> {
    let text = text.trim();
    match like {
        Value::Bool(_) => match text.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" => Some(Value::Bool(true)),
            "false" | "0" | "no" => Some(Value::Bool(false)),
            _ => None,
        },
        Value::Number(n) if n.is_u64() => text.parse::<u64>().ok().map(Value::from),
        Value::Number(n) if n.is_i64() => text.parse::<i64>().ok().map(Value::from),
        Value::Number(_) => text
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number),
        Value::String(_) => Some(Value::String(text.to_ascii_lowercase())),
        Value::Array(items) => {
            let first = items
                .first()
                .cloned()
                .unwrap_or(Value::String(String::new()));
            let items: Option<Vec<Value>> = text
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| match &first {
                    Value::String(_) => Some(Value::String(s.to_string())),
                    other => read_like(other, s),
                })
                .collect();
            items.map(Value::Array)
        }
        Value::Null | Value::Object(_) => None,
    }
}

/// The built-in stop-word lists by name (`english`, `none`); a path is a file of one word per
/// line, as the CLI's `--stopwords` takes.
fn stopwords(value: &str) -> Result<StopWords> {
    match StopWords::builtin(value) {
        Some(list) => Ok(list),
        None => StopWords::from_file(std::path::Path::new(value.trim())),
    }
}

impl MethodSettings {
    /// The configuration `method` is built from (for SL+ST, that of the mode in force;
    /// `slst-flat` is always the paper's method).
    fn fields(&self, method: Method) -> &dyn Fields {
        match method {
            Method::Slst if self.slst_mode == SlstMode::Robust => &self.robust,
            Method::Slst | Method::SlstFlat => &self.slst,
            Method::Shingle => &self.shingle,
            Method::MegaShingle => &self.megashingle,
            Method::PolyHash => &self.polyhash,
            Method::SpotSigs => &self.spotsigs,
            Method::SentLen => &self.sentlen,
            Method::Md5 => &self.md5,
            Method::BlocksMd5
            | Method::BlocksShingle
            | Method::SpecialChars
            | Method::BlocksSpecialChars => &self.blocks,
        }
    }

    fn fields_mut(&mut self, method: Method) -> &mut dyn Fields {
        match method {
            Method::Slst if self.slst_mode == SlstMode::Robust => &mut self.robust,
            Method::Slst | Method::SlstFlat => &mut self.slst,
            Method::Shingle => &mut self.shingle,
            Method::MegaShingle => &mut self.megashingle,
            Method::PolyHash => &mut self.polyhash,
            Method::SpotSigs => &mut self.spotsigs,
            Method::SentLen => &mut self.sentlen,
            Method::Md5 => &mut self.md5,
            Method::BlocksMd5
            | Method::BlocksShingle
            | Method::SpecialChars
            | Method::BlocksSpecialChars => &mut self.blocks,
        }
    }

    /// The setting names [`MethodSettings::set`] takes for `method` (for SL+ST, in the mode
    /// these settings hold), in the order of its configuration's fields.
    ///
    /// # Example
    /// ```
    /// use slst::method::{Method, MethodSettings};
    /// let names = MethodSettings::default().names(Method::Shingle);
    /// assert_eq!(names[..3], ["shingle_size", "hash", "sketch"]);
    /// ```
    pub fn names(&self, method: Method) -> Vec<String> {
        let schema = Schema::of(method);
        self.fields(method)
            .map()
            .keys()
            .filter_map(|field| schema.name_of(field))
            .collect()
    }

    /// Set one setting of `method` by name, from its value written as text. For SL+ST the
    /// mode these settings hold ([`MethodSettings::slst_mode`]) picks which configuration is
    /// set. Values are checked for range when the detector is built
    /// ([`MethodSettings::detector`]). `stopwords` takes a built-in list's name (`english`,
    /// `none`) or a file of one word per line; a list takes its items comma-separated.
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
        let unknown = |detail: String| Error::UnknownParameter {
            method: method.name().to_string(),
            name: name.to_string(),
            detail,
        };
        let names = self.names(method);
        if !names.iter().any(|n| n == name) {
            return Err(unknown(format!(
                "no such setting; its settings are {}",
                names.join(", ")
            )));
        }
        let field = Schema::of(method).field_of(name);
        if field == "stopwords" {
            let list = stopwords(value)?;
            self.fields_mut(method).set_stopwords(list);
            return Ok(());
        }
        let current = self
            .fields(method)
            .map()
            .remove(field)
            .unwrap_or(Value::Null);
        let cannot_read = || unknown(format!("cannot read {value:?} as its value"));
        let new = read_like(&current, value).ok_or_else(cannot_read)?;
        self.fields_mut(method)
            .replace(field, new)
            .map_err(|e| unknown(format!("cannot read {value:?} as its value: {e}")))
    }

    /// Set the decision threshold of `method` (for SL+ST, of the mode in force).
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a method without a threshold (megashingles decide by a
    /// shared megashingle, MD5 by equal digests).
    pub fn set_threshold(&mut self, method: Method, threshold: f64) -> Result<()> {
        if !self.names(method).iter().any(|n| n == "threshold") {
            return Err(Error::InvalidParameter {
                name: "threshold",
                value: threshold.to_string(),
                expected: "no threshold for this method (megashingles decide by a shared \
                           megashingle, md5 by equal digests)",
            });
        }
        self.set(method, "threshold", &threshold.to_string())
    }
}

#[cfg(test)]
mod tests;
