//! Which condition of a method's decision decided a pair ([`DecidedBy`]): the one place its
//! names and notes are written. Reports carry it as `decided_by` (`slst compare --json` and its
//! text, `slst query`, the pair records of `slst batch`, the Python package).
//!
//! Robust SL+ST names the clause that accepted a pair (`resemblance`, `containment`, `blocks`,
//! `words`), the condition that refused it (one name per [`Refusal`]), or `below-threshold`.
//! Every other method has one rule (the record's `rule`): `rule` when it holds, else
//! `below-threshold`. Each name belongs to one of fewer, named *conditions*
//! ([`DecidedBy::condition`], reported as `condition`): the clauses that accept a pair, and
//! three that refuse one — the matched sentences agree only loosely in their words
//! (`loose-words`), the two texts disagree in their figures (`figures-differ`), or they are one
//! notice sent for another party, hour or day (`parties-differ`). The field names the
//! *method's* decision: a pair a corpus run reports by another rule (`--containment`, every
//! scored pair) may carry a refusal or `below-threshold`, but for one rule of the corpus run
//! itself: a pair kept only because the two documents share at least so many words in one
//! passage (`--min-shared-words`) is `passage`.

use serde::Serialize;

use super::Refusal;

/// The condition that decided a pair, accepted or refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecidedBy {
    /// Robust SL+ST: the resemblance reaches the threshold, and no condition refuses the pair.
    Resemblance,
    /// Robust SL+ST: the resemblance falls short, but one document lies in the other
    /// ([`crate::method::RobustConfig::contained`]).
    Containment,
    /// Robust SL+ST: the whole texts fall short of the conditions on figures or words, and the
    /// sentences the two share meet them
    /// ([`crate::method::RobustConfig::matched_containment_from`]).
    Blocks,
    /// Robust SL+ST: the two texts share their words ([`crate::method::RobustConfig::vocabulary`]),
    /// whatever their blocks.
    Words,
    /// Any other method: its one rule holds.
    Rule,
    /// A corpus run's own criterion, not the method's decision: the two documents share at
    /// least the run's number of words in one passage, whatever their lengths
    /// (`min_shared_words` of a batch run), and the run's rule alone would not keep the pair.
    Passage,
    /// Robust SL+ST: a condition refuses the pair.
    Refused(Refusal),
    /// No clause accepts the pair: its scores fall short of the rule.
    BelowThreshold,
}

impl DecidedBy {
    /// Every name, accepted first, then refused, then not reached (for the docs and tests).
    pub const ALL: [DecidedBy; 15] = [
        DecidedBy::Resemblance,
        DecidedBy::Containment,
        DecidedBy::Blocks,
        DecidedBy::Words,
        DecidedBy::Rule,
        DecidedBy::Passage,
        DecidedBy::Refused(Refusal::LooseWords),
        DecidedBy::Refused(Refusal::FiguresInBlocks),
        DecidedBy::Refused(Refusal::FiguresInDocuments),
        DecidedBy::Refused(Refusal::OtherFigures),
        DecidedBy::Refused(Refusal::HeadlineLeads),
        DecidedBy::Refused(Refusal::HeadlineEdits),
        DecidedBy::Refused(Refusal::OtherWords),
        DecidedBy::Refused(Refusal::HeadlineSubjects),
        DecidedBy::BelowThreshold,
    ];

    /// The stable short name reports write (kebab-case).
    pub fn name(self) -> &'static str {
        match self {
            DecidedBy::Resemblance => "resemblance",
            DecidedBy::Containment => "containment",
            DecidedBy::Blocks => "blocks",
            DecidedBy::Words => "words",
            DecidedBy::Rule => "rule",
            DecidedBy::Passage => "passage",
            DecidedBy::Refused(r) => r.name(),
            DecidedBy::BelowThreshold => "below-threshold",
        }
    }

    /// What the condition says of the pair, in words (a refusal's own note).
    pub fn note(self) -> &'static str {
        match self {
            DecidedBy::Resemblance => "the resemblance reaches the threshold",
            DecidedBy::Containment => "one document's sentences lie in the other",
            DecidedBy::Blocks => {
                "judged on the text the two share: its figures and words agree where the whole texts' do not"
            }
            DecidedBy::Words => "the two texts share their words, whatever their sentences",
            DecidedBy::Rule => "the method's rule holds",
            DecidedBy::Passage => "the two share at least the run's number of words in one passage",
            DecidedBy::Refused(r) => r.note(),
            DecidedBy::BelowThreshold => "the scores fall short of the rule",
        }
    }

    /// Whether the condition makes the pair a duplicate.
    pub fn accepts(self) -> bool {
        matches!(
            self,
            DecidedBy::Resemblance
                | DecidedBy::Containment
                | DecidedBy::Blocks
                | DecidedBy::Words
                | DecidedBy::Rule
                | DecidedBy::Passage
        )
    }

    /// The named condition this check belongs to.
    pub fn condition(self) -> Condition {
        match self {
            DecidedBy::Resemblance | DecidedBy::Blocks => Condition::Resemblance,
            DecidedBy::Containment => Condition::Containment,
            DecidedBy::Words => Condition::Words,
            DecidedBy::Rule => Condition::Rule,
            DecidedBy::Passage => Condition::Passage,
            DecidedBy::Refused(r) => r.condition(),
            DecidedBy::BelowThreshold => Condition::BelowThreshold,
        }
    }

    /// The name of a method with one rule: `rule` for a duplicate, else `below-threshold`.
    pub fn of_rule(duplicate: bool) -> DecidedBy {
        if duplicate {
            DecidedBy::Rule
        } else {
            DecidedBy::BelowThreshold
        }
    }
}

/// The named condition of a decision that a [`DecidedBy`] belongs to: a clause that accepts a
/// pair, one of three kinds of refusal, or neither. What `condition` reports beside `decided_by`
/// (docs/methods.md, "decided by"): `decided_by` names the check, `condition` what it tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// J reaches the threshold ([`DecidedBy::Resemblance`], and [`DecidedBy::Blocks`], which
    /// reads the checks on figures and words over the shared text of two long documents).
    Resemblance,
    /// One document lies in the other ([`DecidedBy::Containment`]).
    Containment,
    /// The two texts share their words ([`DecidedBy::Words`]).
    Words,
    /// Any other method's one rule ([`DecidedBy::Rule`]).
    Rule,
    /// A corpus run's shared-passage criterion ([`DecidedBy::Passage`]).
    Passage,
    /// Refused: the matched sentences agree only loosely in their words.
    LooseWords,
    /// Refused: the two texts disagree in their figures — too few shared, other figures in the
    /// same places, or (when set) other figures in the matched sentences.
    FiguresDiffer,
    /// Refused: the same notice for another party, hour or day — read in the words of the
    /// whole texts, or in the headlines of short ones.
    PartiesDiffer,
    /// No clause accepts the pair.
    BelowThreshold,
}

impl Condition {
    /// Every condition, accepted first, then refused, then not reached (for the docs and tests).
    pub const ALL: [Condition; 9] = [
        Condition::Resemblance,
        Condition::Containment,
        Condition::Words,
        Condition::Rule,
        Condition::Passage,
        Condition::LooseWords,
        Condition::FiguresDiffer,
        Condition::PartiesDiffer,
        Condition::BelowThreshold,
    ];

    /// The stable short name reports write (kebab-case).
    pub fn name(self) -> &'static str {
        match self {
            Condition::Resemblance => "resemblance",
            Condition::Containment => "containment",
            Condition::Words => "words",
            Condition::Rule => "rule",
            Condition::Passage => "passage",
            Condition::LooseWords => "loose-words",
            Condition::FiguresDiffer => "figures-differ",
            Condition::PartiesDiffer => "parties-differ",
            Condition::BelowThreshold => "below-threshold",
        }
    }
}

impl Serialize for Condition {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl Serialize for DecidedBy {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl Refusal {
    /// The refusal's stable short name, as `decided_by` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Refusal::LooseWords => "loose-words",
            Refusal::FiguresInBlocks => "figures-in-blocks",
            Refusal::FiguresInDocuments => "figures-in-documents",
            Refusal::OtherFigures => "other-figures",
            Refusal::HeadlineLeads => "headline-leads",
            Refusal::HeadlineEdits => "headline-edits",
            Refusal::OtherWords => "other-words",
            Refusal::HeadlineSubjects => "headline-subjects",
        }
    }

    /// The named condition the refusal belongs to.
    pub fn condition(self) -> Condition {
        match self {
            Refusal::LooseWords => Condition::LooseWords,
            Refusal::FiguresInBlocks | Refusal::FiguresInDocuments | Refusal::OtherFigures => {
                Condition::FiguresDiffer
            }
            Refusal::HeadlineLeads
            | Refusal::HeadlineEdits
            | Refusal::OtherWords
            | Refusal::HeadlineSubjects => Condition::PartiesDiffer,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_kebab_case_and_unique_and_only_refusals_refuse() {
        let mut names: Vec<&str> = DecidedBy::ALL.iter().map(|d| d.name()).collect();
        for name in &names {
            assert!(
                name.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                    && !name.starts_with('-')
                    && !name.ends_with('-'),
                "{name}"
            );
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), DecidedBy::ALL.len());
        for d in DecidedBy::ALL {
            assert_eq!(
                d.accepts(),
                !matches!(d, DecidedBy::Refused(_) | DecidedBy::BelowThreshold)
            );
            assert_eq!(serde_json::to_value(d).unwrap(), d.name());
        }
        let refused = DecidedBy::Refused(Refusal::OtherFigures);
        assert_eq!(refused.note(), Refusal::OtherFigures.note());
    }

    #[test]
    fn every_check_belongs_to_one_condition_that_accepts_as_it_does() {
        let mut names: Vec<&str> = Condition::ALL.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Condition::ALL.len());
        for d in DecidedBy::ALL {
            let c = d.condition();
            assert!(Condition::ALL.contains(&c));
            // A condition accepts, refuses or is not reached as each of its checks does.
            for e in DecidedBy::ALL.iter().filter(|e| e.condition() == c) {
                assert_eq!(e.accepts(), d.accepts(), "{} {}", d.name(), e.name());
            }
        }
        // Every condition holds a check; an accepting clause's condition is named after it.
        for c in Condition::ALL {
            assert!(DecidedBy::ALL.iter().any(|d| d.condition() == c));
        }
        for d in DecidedBy::ALL
            .iter()
            .filter(|d| d.accepts() && **d != DecidedBy::Blocks)
        {
            assert_eq!(d.condition().name(), d.name());
        }
        assert_eq!(
            DecidedBy::Refused(Refusal::HeadlineSubjects).condition(),
            Condition::PartiesDiffer
        );
        assert_eq!(DecidedBy::Blocks.condition(), Condition::Resemblance);
    }
}
