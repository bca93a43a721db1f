//! SL+ST's mode and the robust mode's settings as flags.
//!
//! The robust mode's settings are defined once, in the library's `RobustConfig`; here each has
//! one line ([`ROBUST_FLAGS`]): its name, the name of its value in the help and its help. The
//! flag is the name with `-` for `_`; its type and its default come from the configuration's
//! default (a setting that is on or off is a switch, `--clauses` / `--no-clauses`), and its value
//! is set by name (`MethodSettings::set`), so a new setting needs a line here and nothing else.
//! They are expert knobs: `--help` lists them, `-h` does not. The settings every method shares (stop words,
//! maximum length, minimum block, threshold) have flags of their own, in `args.rs`.

use clap::builder::{ArgAction, ValueParser};
use clap::parser::ValueSource;
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches, ValueEnum};
use serde_json::Value;
use slst::method::{Method, MethodConfig, MethodSettings, RobustConfig, SlstMode};
use slst::{Error, Result, SlstConfig};

/// One robust setting's flag.
struct RobustFlag {
    /// The setting (a field of `RobustConfig`); the flag is this with `-` for `_`.
    name: &'static str,
    /// The value's name in the help (unused for a switch, a setting that is on or off).
    value: &'static str,
    /// The help line.
    help: &'static str,
}

const fn flag(name: &'static str, value: &'static str, help: &'static str) -> RobustFlag {
    RobustFlag { name, value, help }
}

/// The robust mode's flags, one line each.
#[rustfmt::skip]
const ROBUST_FLAGS: &[RobustFlag] = &[
    flag("length_tolerance", "TERMS", "Robust mode: two matching sentences differ in length by at most this many terms (δ)."),
    flag("term_similarity", "τ", "Robust mode: two matching sentences have a term-set Jaccard of at least this (τ)."),
    flag("single_min_terms", "TERMS", "Robust mode: one sentence pair is a block when both have at least this many terms (0: never) …"),
    flag("single_similarity", "τ1", "… and their term-set Jaccard is at least this."),
    flag("clauses", "", "Robust mode: also cut sentences at semicolons and colons (clauses as units)."),
    flag("stem", "", "Robust mode: stem terms (Snowball English) after stop-word removal."),
    flag("anchor_terms", "K", "Robust mode: two matching sentences also share one of their K longest terms, a single-pair block two of them (0: off; exact term-set matching, slower corpus runs)."),
    flag("split_glued", "", "Robust mode: cut sentences glued without a space (`organization.Coalition`)."),
    flag("window", "TERMS", "Robust mode: cut units longer than --max-length into windows of this many terms instead of dropping them (0: drop)."),
    flag("min_weighted", "J", "Robust mode: a duplicate also has a weighted resemblance (sentence pairs in blocks counted by their term-set Jaccard) of at least this (0: no such condition)."),
    flag("min_figures", "SHARE", "Robust mode: a duplicate also has at least this share of the figures (terms with a digit) in its blocks' sentence pairs the same on both sides (0: no such condition)."),
    flag("contained", "SHARE", "Robust mode: also a duplicate when at least this share of either document's sentences lie in blocks — a flash and its story, a story and its first paragraphs (0: J alone)."),
    flag("min_figure_containment", "SHARE", "Robust mode: a duplicate also has at least this share of the figures of the document with fewer figures (numbers, written-out cardinals) in the other (0: no such condition)."),
    flag("min_agreement", "SHARE", "Robust mode: a duplicate's matched sentence pairs have term-set Jaccard coefficients summing to at least this share of the smaller document's sentences (0: no condition)."),
    flag("min_term_containment", "SHARE", "Robust mode: a duplicate also has at least this share of the distinct terms of the document with fewer of them in the other (0: no such condition)."),
    flag("matched_containment_from", "SENTENCES", "Robust mode: two documents of at least this many kept sentences each, at J ≥ θ, may meet the figure and term conditions over the sentences they share: an edited copy's new sentences bring figures and words of their own (0: the whole texts decide)."),
    flag("flash_leads", "", "Robust mode: two one-sentence documents (headlines, flashes) are a duplicate only when the first word of either is in the other: the same notice for another bank or company."),
    flag("flash_edits", "WORDS", "Robust mode: two one-sentence documents (headlines, flashes) that each hold at least this many words the other lacks are not a duplicate: two events, not one flash sent again (0: off)."),
    flag("headline_subjects", "", "Robust mode: two documents whose headlines (first sentences) each name a figure, or a word their own text repeats, that the other document lacks are not a duplicate: the same notice or table for another fund, bank, market or hour."),
    flag("figure_swaps", "N", "Robust mode: two documents whose blocks hold at least this many sentence pairs with the same words around other figures are not a duplicate: the same table or estimate for another day, week or month (0: off)."),
    flag("vocabulary", "J", "Robust mode: also a duplicate when a block joins the two documents and the distinct terms of their whole texts have at least this Jaccard coefficient, whatever the share of their sentences in blocks: a story sent again with its sentences cut otherwise (0: off)."),
    flag("pair_keys", "N", "Robust mode, corpus runs and indexes: keys per pair of neighbouring sentences, picked by min-wise hashing among the pairs of their anchors (0: every pair, an exact join). Fewer keys make a run faster and smaller; a block of edited sentences may then be missed."),
    flag("rare_df", "DOCS", "Robust mode, corpus runs: look each sentence up by its keys held by at most this many documents and by its six rarest (0: by every key). Keeps a run's work per document from growing with the corpus; a sentence whose rare words were all edited away, or a repeated notice whose keys are all its template's, may then be missed."),
    flag("rare_budget", "POSTINGS", "Robust mode, corpus runs, with --rare-df: a document whose every key costs at most this many postings to look up (its shared keys' document frequencies, each counted up to 255, summed) looks every key up, so a short document loses nothing and the work per document stays bounded (0: every document by its rare keys)."),
];

/// The robust settings that have flags of their own, shared by every method.
#[cfg(test)]
const SHARED: [&str; 4] = ["min_block", "max_length", "stopwords", "threshold"];

/// SL+ST's mode and the robust mode's settings.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Method slst")]
pub struct RobustFlags {
    /// SL+ST's mode: `robust` or `paper` (the published method) [default: robust].
    ///
    /// Only --method slst has modes. `robust`: sentences match when their lengths and term sets are close, and a pair is
    /// decided as a reader would (one text contained in the other counts; other figures or other
    /// parties in the same words do not); `paper`: the published SL+ST (equal lengths and leading
    /// terms, J ≥ θ), to reproduce the paper. `slst eval` takes both (`paper,robust`) to score
    /// the two modes side by side.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "MODE")]
    pub mode: Vec<ModeArg>,
    #[command(flatten)]
    settings: RobustSettingFlags,
}

/// The CLI names of [`SlstMode`].
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeArg {
    /// Faithful SL+ST.
    Paper,
    /// Robust SL+ST.
    Robust,
}

impl RobustFlags {
    /// The modes chosen, in order, without repeats (robust when none is).
    pub fn modes(&self) -> Vec<SlstMode> {
        if self.mode.is_empty() {
            return vec![SlstMode::Robust];
        }
        let mut modes: Vec<SlstMode> = Vec::new();
        for m in &self.mode {
            let mode = match m {
                ModeArg::Paper => SlstMode::Paper,
                ModeArg::Robust => SlstMode::Robust,
            };
            if !modes.contains(&mode) {
                modes.push(mode);
            }
        }
        modes
    }

    /// The one mode chosen.
    ///
    /// # Errors
    /// More than one mode (only `slst eval` runs several).
    pub fn mode(&self) -> Result<SlstMode> {
        match self.modes()[..] {
            [mode] => Ok(mode),
            _ => Err(Error::InvalidParameter {
                name: "mode",
                value: self
                    .modes()
                    .iter()
                    .map(|m| m.name())
                    .collect::<Vec<_>>()
                    .join(","),
                expected: "one mode (only `slst eval` compares several)",
            }),
        }
    }

    /// `--mode` is given only when SL+ST is among `methods`: no other method has modes.
    ///
    /// # Errors
    /// `--mode` with no `--method slst`.
    pub fn refuse_mode(&self, methods: &[Method]) -> Result<(), crate::refuse::Refusal> {
        self.refuse_settings(methods)?;
        if self.mode.is_empty() || methods.contains(&Method::Slst) {
            return Ok(());
        }
        let names: Vec<&str> = self.modes().iter().map(|m| m.name()).collect();
        Err(format!(
            "--mode {} applies to --method slst only; {} has no modes",
            names.join(","),
            crate::refuse::method_names(methods)
        ))
    }

    /// A robust setting is given only when the robust mode of SL+ST runs: with `--mode paper`
    /// alone, or with no `--method slst`, it would change nothing.
    ///
    /// # Errors
    /// A robust setting given that no method of the run reads.
    fn refuse_settings(&self, methods: &[Method]) -> Result<(), crate::refuse::Refusal> {
        let Some(flag) = self.settings.given.first() else {
            return Ok(());
        };
        if !methods.contains(&Method::Slst) {
            return Err(format!(
                "{flag} is a setting of SL+ST's robust mode; {} does not read it",
                crate::refuse::method_names(methods)
            ));
        }
        if !self.modes().contains(&SlstMode::Robust) {
            return Err(format!(
                "{flag} is a setting of the robust mode; --mode paper does not read it \
                 (drop it, or run --mode robust)"
            ));
        }
        Ok(())
    }

    /// The robust settings: the flags' values, and SL+ST's stop words, maximum length, minimum
    /// block and threshold.
    ///
    /// # Errors
    /// A value the setting cannot take.
    pub fn config(&self, slst: &SlstConfig) -> Result<RobustConfig> {
        let mut settings = MethodSettings {
            slst_mode: SlstMode::Robust,
            robust: RobustConfig {
                stopwords: slst.profile.stopwords.clone(),
                max_length: slst.profile.max_length,
                min_block: slst.min_block,
                threshold: slst.threshold,
                ..RobustConfig::default()
            },
            ..MethodSettings::default()
        };
        for (name, value) in &self.settings.values {
            settings.set(Method::Slst, name, value)?;
        }
        Ok(settings.robust)
    }
}

/// The values of [`ROBUST_FLAGS`], each as text, in the table's order.
#[derive(Debug, Clone, Default)]
struct RobustSettingFlags {
    values: Vec<(&'static str, String)>,
    /// The flags given on the command line (`--clauses`, `--no-stem`); the other settings keep
    /// their defaults.
    given: Vec<String>,
}

/// The flag of one setting, typed and defaulted by the configuration's default value.
fn robust_arg(flag: &RobustFlag, default: &Value) -> Arg {
    let parser: ValueParser = match default {
        Value::Number(n) if n.is_u64() => clap::value_parser!(u64).into(),
        _ => clap::value_parser!(f64).into(),
    };
    let default = match default.as_f64() {
        Some(x) if default.is_f64() => x.to_string(),
        _ => default.to_string(),
    };
    Arg::new(flag.name)
        .long(flag.name.replace('_', "-"))
        .value_name(flag.value)
        .help(help(flag))
        .hide_short_help(true)
        .help_heading("Method slst")
        .value_parser(parser)
        .action(ArgAction::Set)
        .default_value(default)
}

/// As clap's derive writes a doc comment: the help without its closing full stop.
fn help(flag: &RobustFlag) -> &'static str {
    flag.help.strip_suffix('.').unwrap_or(flag.help)
}

/// The id of a switch's `--no-` flag.
fn off_id(name: &str) -> String {
    format!("no_{name}")
}

/// The two flags of a setting that is on or off: `--clauses` and `--no-clauses`, the later one
/// given winning; the help states the default.
fn switch_args(flag: &RobustFlag, on_by_default: bool) -> [Arg; 2] {
    let long = flag.name.replace('_', "-");
    let state = if on_by_default { "on" } else { "off" };
    let on = Arg::new(flag.name)
        .long(long.clone())
        .help(format!("{} [default: {state}]", help(flag)))
        .action(ArgAction::SetTrue)
        .overrides_with(off_id(flag.name));
    let off = Arg::new(off_id(flag.name))
        .long(format!("no-{long}"))
        .help(format!("Turn --{long} off"))
        .action(ArgAction::SetTrue)
        .overrides_with(flag.name);
    [on, off].map(|a| a.hide_short_help(true).help_heading("Method slst"))
}

impl Args for RobustSettingFlags {
    fn augment_args(cmd: Command) -> Command {
        let defaults = RobustConfig::default().to_map();
        ROBUST_FLAGS.iter().fold(cmd, |cmd, flag| {
            match defaults.get(flag.name).unwrap_or(&Value::Null) {
                Value::Bool(on) => cmd.args(switch_args(flag, *on)),
                default => cmd.arg(robust_arg(flag, default)),
            }
        })
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for RobustSettingFlags {
    fn from_arg_matches(matches: &ArgMatches) -> std::result::Result<Self, clap::Error> {
        let text = |name: &str| {
            if let Ok(Some(&on)) = matches.try_get_one::<bool>(name) {
                // A switch: set when either of its flags is given, else its default stays.
                let off = matches.get_flag(&off_id(name));
                (on || off).then(|| on.to_string())
            } else if let Ok(Some(n)) = matches.try_get_one::<u64>(name) {
                Some(n.to_string())
            } else if let Ok(Some(x)) = matches.try_get_one::<f64>(name) {
                Some(x.to_string())
            } else {
                None
            }
        };
        let values = ROBUST_FLAGS
            .iter()
            .filter_map(|flag| Some((flag.name, text(flag.name)?)))
            .collect();
        // A switch's `--no-` flag counts as giving the setting.
        let typed = |id: &str| {
            matches.try_contains_id(id).is_ok()
                && matches.value_source(id) == Some(ValueSource::CommandLine)
        };
        let given = ROBUST_FLAGS
            .iter()
            .flat_map(|flag| [flag.name.to_string(), off_id(flag.name)])
            .filter(|id| typed(id))
            .map(|id| format!("--{}", id.replace('_', "-")))
            .collect();
        Ok(RobustSettingFlags { values, given })
    }

    fn update_from_arg_matches(
        &mut self,
        matches: &ArgMatches,
    ) -> std::result::Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every robust setting has a flag here or among the shared ones, and every flag here is a
    /// robust setting.
    #[test]
    fn every_robust_setting_has_one_flag() {
        let robust = MethodSettings {
            slst_mode: SlstMode::Robust,
            ..MethodSettings::default()
        };
        let names = robust.names(Method::Slst);
        let flagged: Vec<&str> = ROBUST_FLAGS.iter().map(|f| f.name).chain(SHARED).collect();
        for name in &names {
            assert_eq!(
                flagged.iter().filter(|f| **f == name.as_str()).count(),
                1,
                "{name}"
            );
        }
        assert_eq!(flagged.len(), names.len());
    }
}
