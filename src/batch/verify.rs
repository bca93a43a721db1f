//! Step 3: verification. Every pair a driver compares goes through [`verify_pair`]: the
//! method's bound first ([`Detector::may_be_reported`]), then the comparison, then the report's
//! rule. [`verify`] runs it over a candidate set (expanded to the exact-duplicate groups),
//! [`verify_pairs`] over a list of pairs given by the caller (an alignment truth, a Spark job's
//! candidates); the index runs it on each candidate row it loads.

use rayon::prelude::*;

use super::Progress;
use super::passage::{SharedPassages, verify_shared};
use crate::align::Passage;
use crate::method::{
    CandidateSet, CandidateSource, Comparison, DecidedBy, Detector, Evidence, Groups, PairRule,
};

/// What verifying one pair came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict<E> {
    /// The method's bound ruled the pair out: not compared.
    RuledOut,
    /// Compared, and not kept by the rule.
    Dropped,
    /// Compared and kept.
    Kept(Comparison<E>),
}

impl<E> Verdict<E> {
    /// Whether the pair was compared.
    pub fn compared(&self) -> bool {
        !matches!(self, Verdict::RuledOut)
    }

    /// The comparison, when the pair was kept.
    pub fn kept(self) -> Option<Comparison<E>> {
        match self {
            Verdict::Kept(c) => Some(c),
            _ => None,
        }
    }
}

/// Verify one pair: with `rule`, rule it out by the method's bound when `bounded`
/// ([`Detector::may_be_reported`]), compare a against b, and keep the comparison when `rule`
/// does; without a rule, compare and keep whatever the scores.
pub fn verify_pair<D: Detector + ?Sized>(
    detector: &D,
    a: &D::Sketch,
    b: &D::Sketch,
    rule: Option<PairRule>,
    bounded: bool,
) -> Verdict<D::Evidence> {
    if let Some(rule) = rule
        && bounded
        && !detector.may_be_reported(a, b, rule)
    {
        return Verdict::RuledOut;
    }
    let c = detector.compare(a, b);
    match rule {
        Some(rule) if !c.kept_by(rule) => Verdict::Dropped,
        _ => Verdict::Kept(c),
    }
}

/// Verify each of a list of pairs of sketches, a against b, in parallel: the verdicts in the
/// order of `pairs`. With `rule`, each pair is bounded and kept as [`verify_pair`] does (the
/// pairs of a Spark job's join); without, every pair is compared and kept (an alignment truth's
/// pairs, each scored whatever it scores).
pub fn verify_pairs<D: Detector + ?Sized>(
    detector: &D,
    pairs: &[(&D::Sketch, &D::Sketch)],
    rule: Option<PairRule>,
) -> Vec<Verdict<D::Evidence>> {
    pairs
        .par_iter()
        .map(|&(a, b)| verify_pair(detector, a, b, rule, true))
        .collect()
}

/// A kept pair: document numbers (a < b, input order) and the comparison of a against b.
#[derive(Debug, Clone, PartialEq)]
pub struct PairResult<E> {
    /// The earlier document.
    pub a: usize,
    /// The later document.
    pub b: usize,
    /// The comparison of a against b.
    pub comparison: Comparison<E>,
    /// With a shared-passage criterion ([`super::BatchConfig::min_shared_words`]): the passages
    /// of at least that many words the two share, spans in a and in b; `None` without it.
    pub passages: Option<Vec<Passage>>,
    /// Kept by the shared-passage criterion alone: the run's rule does not keep the comparison.
    pub by_passage: bool,
}

impl<E: Evidence> PairResult<E> {
    /// A pair kept by the run's rule, without passages.
    pub fn kept(a: usize, b: usize, comparison: Comparison<E>) -> Self {
        PairResult {
            a,
            b,
            comparison,
            passages: None,
            by_passage: false,
        }
    }

    /// The same pair seen from the other document (A and B exchanged).
    fn swapped(&self) -> Self {
        PairResult {
            a: self.b,
            b: self.a,
            comparison: self.comparison.swapped(),
            passages: self
                .passages
                .as_ref()
                .map(|p| p.iter().map(|p| p.swapped()).collect()),
            by_passage: self.by_passage,
        }
    }

    /// What decided the pair's report: [`DecidedBy::Passage`] when the shared-passage criterion
    /// alone kept it, else the method's decision ([`Comparison::decided_by`]).
    pub fn decided_by(&self) -> DecidedBy {
        if self.by_passage {
            DecidedBy::Passage
        } else {
            self.comparison.decided_by()
        }
    }

    /// Why the pair is a template, when it was reported as one ([`PairRule::WithTemplates`],
    /// or a containment rule, which keeps pairs whatever the method's decision).
    pub fn template(&self) -> Option<&str> {
        self.comparison.template()
    }
}

/// Step 3: compare every candidate pair that can be kept (in parallel; with a join, the
/// method's bound rules the others out first, [`Detector::may_be_reported`]) and keep those
/// `rule` keeps — with `shared`, also those sharing a passage of enough words, none ruled out
/// unscored ([`super::passage`]) — expanded to every member of the exact-duplicate groups,
/// sorted by (a, b). Also returns how many pairs were compared.
pub fn verify<D: Detector>(
    detector: &D,
    sketches: &[D::Sketch],
    set: &CandidateSet,
    rule: PairRule,
    shared: Option<&SharedPassages>,
    progress: &dyn Progress,
) -> (Vec<PairResult<D::Evidence>>, usize) {
    progress.stage("scoring candidate pairs", Some(set.pairs.len() as u64));
    let bounded = !matches!(
        set.source,
        CandidateSource::AllPairs | CandidateSource::Listed
    );
    let one = |(x, y): (usize, usize)| -> (bool, Option<PairResult<D::Evidence>>) {
        if let Some(shared) = shared {
            let kept = |c: &Comparison<D::Evidence>| c.kept_by(rule);
            return (
                true,
                verify_shared(detector, sketches, shared, (x, y), kept),
            );
        }
        let verdict = verify_pair(detector, &sketches[x], &sketches[y], Some(rule), bounded);
        let compared = verdict.compared();
        (compared, verdict.kept().map(|c| PairResult::kept(x, y, c)))
    };
    // Progress (and the count of pairs compared) is kept per chunk of pairs: a shared counter
    // bumped per pair costs more than ruling a pair out.
    let compared = std::sync::atomic::AtomicUsize::new(0);
    let kept: Vec<PairResult<D::Evidence>> = set
        .pairs
        .par_chunks(64)
        .flat_map_iter(|chunk| {
            let mut compared_here = 0;
            let kept: Vec<_> = chunk
                .iter()
                .filter_map(|&pair| {
                    let (was_compared, kept) = one(pair);
                    compared_here += usize::from(was_compared);
                    kept
                })
                .collect();
            progress.advance(chunk.len() as u64);
            compared.fetch_add(compared_here, std::sync::atomic::Ordering::Relaxed);
            kept
        })
        .collect();
    let mut out = expand_groups(detector, sketches, &set.groups, kept, rule, shared);
    out.sort_unstable_by_key(|p| (p.a, p.b));
    progress.finish_stage();
    (out, compared.into_inner())
}

/// Kept pairs of representatives expanded to every pair of their groups' members (each seen
/// from its earlier document), and the pairs inside each exact-duplicate group. With `shared`,
/// a pair of members takes the representatives' passages when both have their representative's
/// text, and is verified itself otherwise (SL+ST groups identical profiles, whose texts may
/// differ).
fn expand_groups<D: Detector>(
    detector: &D,
    sketches: &[D::Sketch],
    groups: &Groups,
    kept: Vec<PairResult<D::Evidence>>,
    rule: PairRule,
    shared: Option<&SharedPassages>,
) -> Vec<PairResult<D::Evidence>> {
    // The pair (a, b) of members standing for representatives (x, y), from `from`, the
    // representatives' result seen from a's side.
    let member = |(a, b): (usize, usize), (x, y): (usize, usize), from: Option<&PairResult<_>>| {
        let (a, b, x, y) = if a < b { (a, b, x, y) } else { (b, a, y, x) };
        match shared {
            Some(s) if s.texts[a] != s.texts[x] || s.texts[b] != s.texts[y] => {
                verify_shared(detector, sketches, s, (a, b), |c| c.kept_by(rule))
            }
            _ => from.map(|from| PairResult {
                a,
                b,
                ..from.clone()
            }),
        }
    };
    let mut out = Vec::with_capacity(kept.len());
    for pair in kept {
        let (gx, gy) = (groups.members(pair.a), groups.members(pair.b));
        if gx.len() == 1 && gy.len() == 1 {
            out.push(pair);
            continue;
        }
        let swapped = pair.swapped();
        for &a in gx {
            for &b in gy {
                let from = if a < b { &pair } else { &swapped };
                out.extend(member((a, b), (pair.a, pair.b), Some(from)));
            }
        }
    }
    // Pairs inside a group: the representative against itself.
    for group in groups.groups() {
        let rep = group[0];
        let kept = match shared {
            Some(shared) => {
                verify_shared(detector, sketches, shared, (rep, rep), |c| c.kept_by(rule))
            }
            None => {
                let c = detector.compare(&sketches[rep], &sketches[rep]);
                c.kept_by(rule).then(|| PairResult::kept(rep, rep, c))
            }
        };
        for (i, &a) in group.iter().enumerate() {
            for &b in &group[i + 1..] {
                out.extend(member((a, b), (rep, rep), kept.as_ref()));
            }
        }
    }
    out
}
