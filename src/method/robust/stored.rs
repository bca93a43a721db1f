//! A robust profile as it is stored (JSON in an index, `slst sketch`): each sentence and window
//! with its own terms, the form profiles had before their terms moved into one list a profile.
//! Stored indexes read as they were written.

use serde::{Deserialize, Serialize};

use super::{RobustProfile, RobustSentence, TermList};

/// A stored sentence or window.
#[derive(Serialize, Deserialize)]
pub(super) struct Sentence<T> {
    start: u32,
    end: u32,
    length: u16,
    terms: T,
}

/// A stored profile: [`RobustProfile`]'s fields, each sentence with its terms; written from
/// borrowed parts, read into owned ones.
#[derive(Serialize, Deserialize)]
#[serde(bound(
    serialize = "S: Serialize, B: Serialize + Empty, R: Serialize + Empty",
    deserialize = "S: Deserialize<'de>, B: Deserialize<'de> + Default, R: Deserialize<'de> + Default"
))]
pub(super) struct Profile<S, B, R> {
    id: S,
    sentences: Vec<Sentence<B>>,
    skipped_empty: usize,
    dropped_long: usize,
    #[serde(default = "Vec::new", skip_serializing_if = "Vec::is_empty")]
    windows: Vec<Sentence<B>>,
    #[serde(default, skip_serializing_if = "is_empty")]
    figures: B,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lead: Option<u64>,
    #[serde(default, skip_serializing_if = "is_empty")]
    subject: B,
    #[serde(default, skip_serializing_if = "is_empty")]
    figure_runs: R,
}

/// A list left out of the JSON when empty.
pub(super) trait Empty {
    fn empty(&self) -> bool;
}

impl<T> Empty for Box<[T]> {
    fn empty(&self) -> bool {
        self.is_empty()
    }
}

impl<T> Empty for &[T] {
    fn empty(&self) -> bool {
        self.is_empty()
    }
}

fn is_empty(x: &impl Empty) -> bool {
    x.empty()
}

/// As read: owned.
type Owned = Profile<String, Box<[u64]>, Box<[(u64, u64)]>>;

impl From<Owned> for RobustProfile {
    fn from(p: Owned) -> Self {
        let mut terms = Vec::with_capacity(
            p.sentences
                .iter()
                .chain(&p.windows)
                .map(|s| s.terms.len())
                .sum(),
        );
        let mut unit = |s: Sentence<Box<[u64]>>| {
            let first_term = terms.len() as u32;
            terms.extend_from_slice(&s.terms);
            RobustSentence {
                start: s.start,
                end: s.end,
                length: s.length,
                // A sentence has no more distinct terms than terms.
                size: s.terms.len().min(u16::MAX as usize) as u16,
                first_term,
            }
        };
        let sentences = p.sentences.into_iter().map(&mut unit).collect();
        let windows = p.windows.into_iter().map(&mut unit).collect();
        RobustProfile {
            id: p.id,
            sentences,
            skipped_empty: p.skipped_empty,
            dropped_long: p.dropped_long,
            windows,
            figures: p.figures,
            lead: p.lead,
            subject: p.subject,
            figure_runs: p.figure_runs,
            terms: TermList::Ids(terms.into()),
            corpus: None,
        }
    }
}

impl<'de> Deserialize<'de> for RobustProfile {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Owned::deserialize(deserializer).map(Into::into)
    }
}

impl Serialize for RobustProfile {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // As ids, whatever form the profile holds its terms in.
        let ids = self.id_list();
        let unit = |s: &RobustSentence| Sentence {
            start: s.start,
            end: s.end,
            length: s.length,
            terms: &ids[s.first_term as usize..][..s.size()],
        };
        Profile {
            id: self.id.as_str(),
            sentences: self.sentences.iter().map(unit).collect(),
            skipped_empty: self.skipped_empty,
            dropped_long: self.dropped_long,
            windows: self.windows.iter().map(unit).collect(),
            figures: &*self.figures,
            lead: self.lead,
            subject: &*self.subject,
            figure_runs: &*self.figure_runs,
        }
        .serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{RobustConfig, RobustSlst};
    use super::*;
    use crate::document::Document;
    use crate::method::Detector;

    /// A profile with kept sentences and the windows of an over-long one.
    fn profile() -> RobustProfile {
        let d = RobustSlst::new(RobustConfig {
            max_length: 6,
            window: 4,
            ..RobustConfig::default()
        })
        .unwrap();
        d.sketch(&Document::new(
            "d",
            "Gold rose 3 percent in London. Heavy rain flooded the old town square on \
             Monday while the river kept rising past its banks. Silver fell.",
        ))
    }

    #[test]
    fn a_stored_profile_reads_back_the_same() {
        let p = profile();
        assert!(!p.windows.is_empty() && p.len() == 2);
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(serde_json::from_str::<RobustProfile>(&json).unwrap(), p);
    }

    #[test]
    fn each_stored_unit_carries_its_own_terms() {
        // The form indexes were written in before the terms moved into one list a profile.
        let p = profile();
        let json: serde_json::Value = serde_json::to_value(&p).unwrap();
        for (key, units) in [("sentences", &p.sentences), ("windows", &p.windows)] {
            let stored = json[key].as_array().unwrap();
            assert_eq!(stored.len(), units.len());
            for (s, u) in stored.iter().zip(units) {
                let terms: Vec<u64> = serde_json::from_value(s["terms"].clone()).unwrap();
                assert_eq!(terms, *p.terms(u));
                assert_eq!(s["start"], u.start);
                assert_eq!(s["length"], u.length);
            }
        }
        let written = r#"{"id":"x","sentences":[{"start":0,"end":9,"length":2,"terms":[5,9]},
            {"start":10,"end":20,"length":3,"terms":[1,7]}],"skipped_empty":0,"dropped_long":0}"#;
        let read: RobustProfile = serde_json::from_str(written).unwrap();
        assert_eq!(read.unit::<u64>(1).terms, [1, 7]);
        assert_eq!(
            (read.unit::<u64>(0).terms, read.unit::<u64>(0).length),
            (&[5, 9][..], 2)
        );
        assert!(read.windows.is_empty() && read.figures.is_empty());
    }
}
