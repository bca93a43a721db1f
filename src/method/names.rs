//! The names users give for SL+ST's mode and a corpus run's rule, read in one place.
//!
//! Every front end (the CLI, the Python package) reads these names through
//! [`SlstMode`]'s `FromStr` and [`PairRule::from_name`], so they accept the same spellings, and
//! an unknown name is an error that lists the valid ones. [`SlstMode::name`] and
//! [`PairRule::name`] give them back: reading a name and printing it again is the identity.

use std::fmt;

use super::{PairRule, SlstMode};

/// A name that is not one of SL+ST's modes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownMode(pub String);

impl fmt::Display for UnknownMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown mode {:?}; the modes are {}",
            self.0,
            SlstMode::NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownMode {}

impl SlstMode {
    /// The modes' names, in the order [`SlstMode::name`] gives them.
    pub const NAMES: [&'static str; 2] = ["paper", "robust"];
}

impl std::str::FromStr for SlstMode {
    type Err = UnknownMode;

    /// `paper` or `robust`.
    ///
    /// # Example
    /// ```
    /// use slst::method::SlstMode;
    /// assert_eq!("robust".parse::<SlstMode>().unwrap(), SlstMode::Robust);
    /// assert!("fast".parse::<SlstMode>().unwrap_err().to_string().contains("paper, robust"));
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "paper" => Ok(SlstMode::Paper),
            "robust" => Ok(SlstMode::Robust),
            other => Err(UnknownMode(other.to_string())),
        }
    }
}

/// A name that is not one of the rules of a corpus run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRule(pub String);

impl fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown rule {:?}; the rules are {}",
            self.0,
            PairRule::NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownRule {}

impl PairRule {
    /// The rules' names: [`PairRule::Duplicates`], [`PairRule::Contained`],
    /// [`PairRule::Scored`], [`PairRule::WithTemplates`].
    pub const NAMES: [&'static str; 4] = ["duplicates", "contained", "scored", "templates"];

    /// The rule's name.
    pub fn name(self) -> &'static str {
        match self {
            PairRule::Duplicates => "duplicates",
            PairRule::Contained(_) => "contained",
            PairRule::Scored => "scored",
            PairRule::WithTemplates => "templates",
        }
    }

    /// The rule named `name`; `containment` is the threshold of `contained` (unused by the
    /// others).
    ///
    /// # Example
    /// ```
    /// use slst::method::PairRule;
    /// assert_eq!(PairRule::from_name("contained", 0.8), Ok(PairRule::Contained(0.8)));
    /// assert_eq!(PairRule::from_name("templates", 0.8), Ok(PairRule::WithTemplates));
    /// assert!(PairRule::from_name("all", 0.8).is_err());
    /// ```
    pub fn from_name(name: &str, containment: f64) -> Result<PairRule, UnknownRule> {
        match name {
            "duplicates" => Ok(PairRule::Duplicates),
            "contained" => Ok(PairRule::Contained(containment)),
            "scored" => Ok(PairRule::Scored),
            "templates" => Ok(PairRule::WithTemplates),
            other => Err(UnknownRule(other.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mode_reads_back_from_its_name() {
        for mode in [SlstMode::Paper, SlstMode::Robust] {
            assert_eq!(mode.name().parse::<SlstMode>(), Ok(mode));
            assert!(SlstMode::NAMES.contains(&mode.name()));
        }
        let e = "Robust".parse::<SlstMode>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown mode \"Robust\"; the modes are paper, robust"
        );
    }

    #[test]
    fn every_rule_reads_back_from_its_name() {
        for rule in [
            PairRule::Duplicates,
            PairRule::Contained(0.7),
            PairRule::Scored,
            PairRule::WithTemplates,
        ] {
            assert_eq!(PairRule::from_name(rule.name(), 0.7), Ok(rule));
        }
        assert_eq!(
            PairRule::NAMES.map(|n| PairRule::from_name(n, 0.5).unwrap().name()),
            PairRule::NAMES
        );
        let e = PairRule::from_name("all", 0.5).unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown rule \"all\"; the rules are duplicates, contained, scored, templates"
        );
    }
}
