use std::collections::HashMap;
use std::ops::Range;

use super::super::keys::Slot;
use super::super::words::WORD_DF;
use super::postings::{BUCKETS, bucket};
use super::walk::FOLD_VISITS;
use super::*;
use crate::Detector;
use crate::document::Document;
use crate::method::RobustConfig;

/// 80 documents cut from Genesis (KJV) with much reuse: runs of verses that overlap, some
/// with a word changed, some repeated inside a document, a few one-verse documents.
fn genesis_corpus() -> Vec<Document> {
    let kjv = include_str!("../../../../corpora/bible/kjv-1mb.txt");
    let verses: Vec<&str> = kjv.lines().filter(|l| l.len() > 40).take(300).collect();
    (0..80)
        .map(|d| {
            let mut text: Vec<String> = verses[genesis_verses(d)]
                .iter()
                .map(|v| v.to_string())
                .collect();
            if d % 3 == 0 {
                text[0] = text[0].replacen(" the ", " a ", 1);
            }
            if d % 7 == 0 {
                let first = text[0].clone();
                text.push(first);
            }
            Document::new(format!("g{d}"), text.join("\n\n"))
        })
        .collect()
}

/// The verses document `d` of [`genesis_corpus`] is cut from.
fn genesis_verses(d: usize) -> std::ops::Range<usize> {
    let start = (d * 37) % 250;
    start..start + [1, 2, 4, 8, 12][d % 5]
}

/// The Genesis corpus sketched and prepared as a corpus by `d`.
fn genesis_sketches(d: &RobustSlst) -> Vec<RobustProfile> {
    let mut sketches: Vec<RobustProfile> = genesis_corpus().iter().map(|x| d.sketch(x)).collect();
    d.prepare_corpus(&mut sketches);
    sketches
}

/// With every pair of anchors as keys, whichever sentences the walk takes first and whether
/// it walks the rest, every pair the report's rule keeps is a candidate — at several
/// thresholds, for J and for containment, with and without keys left out.
#[test]
fn every_reportable_pair_is_a_candidate_whatever_the_walk() {
    // With the anchor rule (the default) and with exact prefixes.
    for anchor_terms in [5, 0] {
        let d = RobustSlst::new(RobustConfig {
            anchor_terms,
            pair_keys: 0,
            ..RobustConfig::default()
        })
        .unwrap();
        every_reportable_pair_is_a_candidate(&d);
    }
}

fn every_reportable_pair_is_a_candidate(d: &RobustSlst) {
    let sketches = genesis_sketches(d);
    let refs: Vec<&RobustProfile> = sketches.iter().collect();
    let comparisons: Vec<(usize, usize, Similarity)> = (0..refs.len())
        .flat_map(|a| (a + 1..refs.len()).map(move |b| (a, b)))
        .map(|(a, b)| (a, b, d.compare(refs[a], refs[b])))
        .filter(|(_, _, c)| c.evidence.matched > 0)
        .map(|(a, b, c)| (a, b, c.similarity))
        .collect();
    assert!(comparisons.len() > 100, "{}", comparisons.len());
    for theta in [0.0, 0.3, 0.5, 0.8] {
        let keep_j = move |s: &Similarity, _: bool| s.resemblance > 0.0 && s.resemblance >= theta;
        let keep_c = move |s: &Similarity, _: bool| {
            s.containment_a.is_some_and(|x| x > 0.0 && x >= theta)
                || s.containment_b.is_some_and(|x| x > 0.0 && x >= theta)
        };
        type Rule<'a> = &'a (dyn Fn(&Similarity, bool) -> bool + Sync);
        let rules: [Rule; 2] = [&keep_j, &keep_c];
        for keep in rules {
            let wanted: Vec<(usize, usize)> = comparisons
                .iter()
                .filter(|(_, _, s)| keep(s, true))
                .map(|&(a, b, _)| (a, b))
                .collect();
            // Costs between never and always walking more stop the sentence-by-sentence walk at
            // different places.
            // With single keys per sentence and per class of sentences.
            // And with the visits folded into the counters from the first (every walk folds
            // several times) or never.
            for (bound_cost, classes, fold_visits) in [0, 1, 10, BOUND_COST, 1000, usize::MAX]
                .into_iter()
                .flat_map(|cost| [(cost, 0), (cost, usize::MAX)])
                .flat_map(|(cost, classes)| [(cost, classes, 1), (cost, classes, FOLD_VISITS)])
            {
                let (found, _) = d
                    .witness_join_with(
                        &refs,
                        keep,
                        &|_, _| true,
                        usize::MAX,
                        &Tuning {
                            bound_cost,
                            min_class_size: classes,
                            fold_visits,
                            ..Tuning::default()
                        },
                    )
                    .unwrap();
                for pair in &wanted {
                    assert!(
                        found.binary_search(pair).is_ok(),
                        "θ {theta}, cost {bound_cost}, classes from {classes}, fold {fold_visits}: \
                         {pair:?} missing"
                    );
                }
            }
        }
    }
}

/// The candidates do not depend on which sentences the walk takes: the sentences it assumed
/// witnessed are counted exactly for the pairs that pass (a key left out as boilerplate
/// witnessing nothing, walked or not). So a join outside this library (the Spark job), which
/// plans its walk by other costs, finds the same candidates — with keys left out or not,
/// whatever the walk costs, single keys per class or per sentence.
#[test]
fn the_candidates_do_not_depend_on_the_walk() {
    let d = RobustSlst::new(RobustConfig::default()).unwrap();
    let sketches = genesis_sketches(&d);
    let refs: Vec<&RobustProfile> = sketches.iter().collect();
    for (theta, max_df) in [
        (0.1, 2),
        (0.1, 4),
        (0.3, 4),
        (0.3, 8),
        (0.5, 6),
        (0.5, usize::MAX),
    ] {
        let keep = move |s: &Similarity, _: bool| s.resemblance > 0.0 && s.resemblance >= theta;
        let mut seen: Option<Vec<(usize, usize)>> = None;
        for (bound_cost, classes, fold_visits) in [0, 1, 10, BOUND_COST, usize::MAX]
            .into_iter()
            .flat_map(|cost| [(cost, 0), (cost, usize::MAX)])
            .flat_map(|(cost, classes)| [(cost, classes, 3), (cost, classes, FOLD_VISITS)])
        {
            let (found, capped) = d
                .witness_join_with(
                    &refs,
                    &keep,
                    &|_, _| true,
                    max_df,
                    &Tuning {
                        bound_cost,
                        min_class_size: classes,
                        fold_visits,
                        ..Tuning::default()
                    },
                )
                .unwrap();
            assert_eq!(capped > 0, max_df < usize::MAX);
            match &seen {
                None => seen = Some(found),
                Some(first) => assert_eq!(
                    &found, first,
                    "θ {theta}, max_df {max_df}, cost {bound_cost}, classes from {classes}, \
                     fold {fold_visits}"
                ),
            }
        }
        assert!(seen.unwrap().len() > 5, "θ {theta}, max_df {max_df}");
    }
}

/// A profile's witness keys witness the same sentences whether its terms are ids (a profile
/// alone: the Spark job's, the index's) or corpus ranks (a corpus run's): the sampled pair keys
/// pick a step's terms by hashing their ids, not their ranks, so for every pair of documents the
/// sentences of one that the other witnesses are the same either way.
#[test]
fn witness_keys_witness_alike_as_ids_and_as_ranks() {
    use crate::method::{Witness, WitnessJoin};
    let d = RobustSlst::new(RobustConfig::default()).unwrap();
    let raw: Vec<RobustProfile> = genesis_corpus().iter().map(|x| d.sketch(x)).collect();
    let ranked = genesis_sketches(&d);
    let witnessed = |keys: &[Vec<Witness>], a: usize, b: usize| -> Vec<u32> {
        let mut units: Vec<u32> = keys[a]
            .iter()
            .filter(|x| keys[b].iter().any(|y| y.key == x.key && x.fits(*y, 4)))
            .map(|x| x.unit)
            .collect();
        units.sort_unstable();
        units.dedup();
        units
    };
    let as_ids: Vec<Vec<Witness>> = raw.iter().map(|p| d.witness_keys(p)).collect();
    let as_ranks: Vec<Vec<Witness>> = ranked.iter().map(|p| d.witness_keys(p)).collect();
    let mut shared = 0;
    for a in 0..raw.len() {
        for b in (0..raw.len()).filter(|&b| b != a) {
            let units = witnessed(&as_ids, a, b);
            assert_eq!(witnessed(&as_ranks, a, b), units, "{a} {b}");
            shared += usize::from(!units.is_empty());
        }
    }
    assert!(shared > 500, "{shared}");
}

/// With sampled pair keys (the default), a pair whose documents share a run of two or more
/// verses word for word — a block whose sentences have the same anchors on both sides, so
/// that every sampled key of its steps is shared — is a candidate whenever the rule keeps
/// it; pairs that rest only on tolerant matches of different verses may not be.
#[test]
fn sampled_keys_find_every_reportable_pair_that_shares_a_verbatim_block() {
    // Without single keys, so that the pair keys alone witness the blocks.
    let d = RobustSlst::new(RobustConfig {
        single_min_terms: 0,
        ..RobustConfig::default()
    })
    .unwrap();
    assert_eq!(d.config.pair_keys, 4);
    let sketches = genesis_sketches(&d);
    let refs: Vec<&RobustProfile> = sketches.iter().collect();
    // The pairs that share two verses or more, with their scores.
    let shared: Vec<(usize, usize, Similarity)> = (0..refs.len())
        .flat_map(|a| (a + 1..refs.len()).map(move |b| (a, b)))
        .filter(|&(a, b)| {
            let (x, y) = (genesis_verses(a), genesis_verses(b));
            x.end.min(y.end).saturating_sub(x.start.max(y.start)) >= 2
        })
        .map(|(a, b)| (a, b, d.compare(refs[a], refs[b]).similarity))
        .collect();
    let mut checked = 0;
    for theta in [0.0, 0.3, 0.5, 0.8] {
        let keep = move |s: &Similarity, _: bool| s.resemblance > 0.0 && s.resemblance >= theta;
        let (found, _) = d
            .witness_join_with(&refs, &keep, &|_, _| true, usize::MAX, &Tuning::default())
            .unwrap();
        for (a, b, s) in &shared {
            if keep(s, true) {
                checked += 1;
                assert!(found.binary_search(&(*a, *b)).is_ok(), "θ {theta}: {a} {b}");
            }
        }
    }
    assert!(checked > 50, "{checked}");
}

/// A step's sampled keys are pairs of its two sentences' anchors, `pair_keys` of them, and
/// depend on those sentences only: the same two sentences in another document give the same
/// keys. Every pair of anchors gives k² keys a step.
#[test]
fn sampled_keys_are_anchor_pairs_picked_by_the_sentences_alone() {
    let exact = RobustSlst::new(RobustConfig {
        pair_keys: 0,
        ..RobustConfig::default()
    })
    .unwrap();
    let sampled = RobustSlst::new(RobustConfig::default()).unwrap();
    let docs = genesis_corpus();
    let steps = |d: &RobustSlst, doc: &Document| {
        let p = d.sketch(doc);
        let slots = d.slots_of::<true, true, _>(&p, |i| p.unit::<u64>(i).terms, None);
        let mut by_step: HashMap<u32, Vec<u64>> = HashMap::new();
        for s in slots.iter().filter(|s| s.code & 1 == 1) {
            by_step.entry(s.code >> 1).or_default().push(s.key);
        }
        (p, by_step)
    };
    let mut checked = 0;
    for doc in &docs {
        let (p, all) = steps(&exact, doc);
        let (_, some) = steps(&sampled, doc);
        assert_eq!(all.len(), some.len());
        for (i, keys) in &some {
            assert_eq!(keys.len(), 4);
            assert!(keys.iter().all(|k| all[i].contains(k)), "{}", doc.id);
            let k = |u: u32| p.sentences[u as usize].size().min(5);
            assert_eq!(all[i].len(), k(*i) * k(i + 1));
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked}");
    // The same verses, alone and inside a longer document: the same keys for their step.
    let two = Document::new("two", docs[3].text.clone());
    let (_, alone) = steps(&sampled, &two);
    let longer = Document::new("longer", format!("{}\n\n{}", docs[0].text, docs[3].text));
    let (_, inside) = steps(&sampled, &longer);
    let shift = inside.len() - alone.len();
    for (i, keys) in &alone {
        assert_eq!(&inside[&(i + shift as u32)], keys);
    }
}

/// Listed pass by pass, without hashing the keys left, a document's slots are the slots
/// the walk and the key index make: each taken by exactly one pass, at its own place, with
/// its key and code — with the single keys and without, under the anchor rule, exact
/// prefixes, and blocks of one sentence.
#[test]
fn slots_listed_by_pass_are_the_slots_in_their_places() {
    for (anchor_terms, min_block) in [(5, 2), (0, 2), (5, 1)] {
        let d = RobustSlst::new(RobustConfig {
            anchor_terms,
            min_block,
            ..RobustConfig::default()
        })
        .unwrap();
        let sketches = genesis_sketches(&d);
        // Blocks of one sentence have no pair keys, so no slots without the single keys.
        let mut seen = [0, 0];
        for p in &sketches {
            let view = p.corpus.as_deref().unwrap();
            for singles in [true, false] {
                let ranks = |i| view.ranks_of(p, i);
                let slots = if singles {
                    d.slots_of::<true, true, _>(p, ranks, view.picks())
                } else {
                    d.slots_of::<true, false, _>(p, ranks, view.picks())
                };
                seen[usize::from(singles)] += slots.len();
                let mut listed = vec![None; slots.len()];
                for pass in 0..BUCKETS {
                    let take = |first| bucket(first) == pass;
                    let count = view.each_join_slot(&d, p, singles, take, |k, terms, code| {
                        assert_eq!(bucket(terms.first()), pass);
                        assert!(listed[k].is_none(), "slot {k} listed twice");
                        listed[k] = Some(Slot {
                            key: terms.key(),
                            code,
                        });
                    });
                    assert_eq!(count, slots.len());
                }
                let listed: Vec<Slot> = listed.into_iter().map(Option::unwrap).collect();
                assert_eq!(listed, slots, "{anchor_terms} {min_block} {singles}");
            }
        }
        assert!(seen[1] > 1000, "{seen:?}");
        assert_eq!(seen[0] > 1000, min_block > 1, "{seen:?}");
    }
}

/// The postings made in many passes over the keys' first terms hold what one pass makes: the
/// same candidates and the same keys left out, with keys left out or not; and so do they
/// with the lengths in a column of their own rather than packed in the holders.
#[test]
fn postings_made_in_passes_find_what_one_pass_finds() {
    for pair_keys in [4, 0] {
        postings_made_in_passes_find_what_one_pass_finds_with(pair_keys);
    }
}

fn postings_made_in_passes_find_what_one_pass_finds_with(pair_keys: usize) {
    let d = RobustSlst::new(RobustConfig {
        pair_keys,
        ..RobustConfig::default()
    })
    .unwrap();
    let sketches = genesis_sketches(&d);
    let refs: Vec<&RobustProfile> = sketches.iter().collect();
    let keep = |s: &Similarity, _: bool| s.resemblance >= 0.3;
    for max_df in [usize::MAX, 4] {
        let join = |pass_entries, pack| {
            d.witness_join_with(
                &refs,
                &keep,
                &|_, _| true,
                max_df,
                &Tuning {
                    pass_entries,
                    min_class_size: usize::MAX,
                    pack,
                    ..Tuning::default()
                },
            )
            .unwrap()
        };
        let (one, capped) = join(PASS_ENTRIES, true);
        assert!(one.len() > 30, "{}", one.len());
        assert_eq!(capped > 0, max_df == 4, "{capped}");
        // 1 entry per pass: as many passes as there are (16).
        for (pass_entries, pack) in [1, 2000, PASS_ENTRIES]
            .into_iter()
            .flat_map(|e| [(e, true), (e, false)])
        {
            let found = join(pass_entries, pack);
            assert_eq!(found, (one.clone(), capped), "{pass_entries} {pack}");
        }
    }
}

/// The word join finds every pair alike on its words (`may_match_words`) that it can reach:
/// the later of the two in (vocabulary size, index) order looks up a prefix term that the
/// earlier indexes and that no more than the cap of documents index. Terms over the cap are
/// left out of the lookups, not out of the bounds: a pair whose prefixes share such a term
/// before the one it is met by must not be pruned for the shared terms not counted (bounds
/// that ignored them lose a pair here at v 0.6, `max_df` 2). Low caps leave out terms of
/// every rank here, and low levels make many pairs alike on words.
#[test]
fn word_pairs_are_every_reachable_pair_alike_on_words() {
    // (No two of these documents are alike at the default level, 0.8.)
    for vocabulary in [0.6, 0.5, 0.4, 0.3, 0.2] {
        let d = RobustSlst::new(RobustConfig {
            vocabulary,
            ..RobustConfig::default()
        })
        .unwrap();
        let sketches = genesis_sketches(&d);
        let refs: Vec<&RobustProfile> = sketches.iter().collect();
        let alike: Vec<(usize, usize)> = (0..refs.len())
            .flat_map(|a| (a + 1..refs.len()).map(move |b| (a, b)))
            .filter(|&(a, b)| d.may_match_words(refs[a], refs[b]))
            .collect();
        assert!(alike.len() >= 3, "v {vocabulary}: {}", alike.len());
        let words = |x: usize| &refs[x].corpus.as_deref().unwrap().words;
        // How many documents index each term.
        let mut held: HashMap<u32, usize> = HashMap::new();
        for x in 0..refs.len() {
            for &t in d.indexed(words(x)) {
                *held.entry(t).or_default() += 1;
            }
        }
        for max_df in [usize::MAX, 8, 4, 3, 2] {
            let (found, _) = d.word_pairs(&refs, &|_, _| true, max_df);
            let cap = max_df.min(WORD_DF);
            let mut reachable = 0;
            for &(a, b) in &alike {
                // y is looked up by x.
                let key = |x: usize| (words(x).size, x);
                let (y, x) = if key(a) < key(b) { (a, b) } else { (b, a) };
                let indexed = d.indexed(words(y));
                if words(x)
                    .prefix
                    .iter()
                    .any(|t| indexed.contains(t) && held[t] <= cap)
                {
                    reachable += 1;
                    assert!(
                        found.binary_search(&(a, b)).is_ok(),
                        "v {vocabulary}, max_df {max_df}: ({a}, {b}) missing"
                    );
                }
            }
            assert!(reachable > 0, "v {vocabulary}, max_df {max_df}");
            // And nothing else: every pair found is alike, and reachable.
            for pair in &found {
                assert!(alike.binary_search(pair).is_ok(), "{pair:?} not alike");
            }
            assert_eq!(found.len(), reachable, "v {vocabulary}, max_df {max_df}");
        }
    }
}

/// Single keys kept per class of sentences find what they find kept per sentence: the same
/// candidates when every sentence is counted, and the same keys left out as boilerplate — a key is counted once per
/// document even when a document holds it in sentences of two classes, or one sentence
/// twice (the Genesis corpus has both).
#[test]
fn sentence_classes_find_what_single_sentences_find() {
    let d = RobustSlst::new(RobustConfig::default()).unwrap();
    let sketches = genesis_sketches(&d);
    let refs: Vec<&RobustProfile> = sketches.iter().collect();
    let keep = |s: &Similarity, _: bool| s.resemblance >= 0.1;
    for max_df in [usize::MAX, 6, 4, 2] {
        let join = |classes| {
            d.witness_join_with(
                &refs,
                &keep,
                &|_, _| true,
                max_df,
                // Every sentence walked, whatever it costs: the counts are then exact, and
                // the candidates do not depend on which sentences are walked first.
                &Tuning {
                    bound_cost: usize::MAX,
                    min_class_size: classes,
                    ..Tuning::default()
                },
            )
            .unwrap()
        };
        let (per_sentence, capped) = join(usize::MAX);
        assert!(per_sentence.len() > 10, "{}", per_sentence.len());
        assert_eq!(capped > 0, max_df < usize::MAX, "{capped}");
        assert_eq!(join(0), (per_sentence, capped), "max_df {max_df}");
    }
}

/// Two sentences that share their longest words but differ in length by far more than δ
/// hold the same single key by chance: it witnesses nothing, so the pair is no candidate —
/// while a sentence of a fitting length with those words is one.
#[test]
fn a_key_held_with_lengths_far_apart_witnesses_nothing() {
    let d = RobustSlst::new(RobustConfig::default()).unwrap();
    let short = "Extraordinary parliamentary committee meets.";
    // The same two longest words among twenty short ones (δ = 4 by default).
    let long = "Extraordinary parliamentary talk and a big red cat sat on the mat by the old                     oak tree near the pond with ten green frogs and two black dogs all day.";
    let close = "Extraordinary parliamentary committee meets again today.";
    let docs = [short, long, close].map(|t| Document::new("d", t));
    let mut sketches: Vec<RobustProfile> = docs.iter().map(|x| d.sketch(x)).collect();
    assert_eq!(
        sketches.iter().map(|p| p.len()).collect::<Vec<_>>(),
        [1, 1, 1]
    );
    let lengths: Vec<u16> = sketches.iter().map(|p| p.sentences[0].length).collect();
    assert!(lengths[1] > lengths[0] + 4, "{lengths:?}");
    d.prepare_corpus(&mut sketches);
    let refs: Vec<&RobustProfile> = sketches.iter().collect();
    let found = d
        .witness_join(&refs, PairRule::Scored, usize::MAX)
        .unwrap()
        .pairs;
    assert_eq!(found, [(0, 2)]);
}

/// Looking up each sentence's rare keys alone ([`RobustConfig::rare_df`]): the candidates
/// still do not depend on the walk, the passes or the packing; they are among those every key
/// finds, fewer when keys are common, all of them when no key is common; and a document whose
/// verses another holds, each verbatim (every sentence's keys shared, its rarest among them), is
/// still found. (A one-verse document held in another by a like verse of Genesis 5's
/// genealogies, other names and years around `lived` and `begat`, is not: it shares only common
/// keys.)
#[test]
fn rare_keys_find_the_same_whatever_the_walk_and_no_more_than_every_key() {
    let keep = |s: &Similarity, _: bool| s.resemblance > 0.0;
    let whole = |s: &Similarity, _: bool| {
        s.containment_a.is_some_and(|x| x >= 0.999) || s.containment_b.is_some_and(|x| x >= 0.999)
    };
    let join =
        |(rare_df, rare_budget), keep: &(dyn Fn(&Similarity, bool) -> bool + Sync), tuning| {
            let d = RobustSlst::new(RobustConfig {
                rare_df,
                rare_budget,
                ..RobustConfig::default()
            })
            .unwrap();
            let sketches = genesis_sketches(&d);
            let refs: Vec<&RobustProfile> = sketches.iter().collect();
            let found = d.witness_join_with(&refs, keep, &|_, _| true, usize::MAX, &tuning);
            found.unwrap().0
        };
    let every = join((0, 0), &keep, Tuning::default());
    let tunings = [0, BOUND_COST, usize::MAX]
        .into_iter()
        .flat_map(|bound_cost| {
            [(PASS_ENTRIES, true), (1, false)].map(|(pass_entries, pack)| Tuning {
                bound_cost,
                pass_entries,
                pack,
                fold_visits: 3,
                ..Tuning::default()
            })
        });
    // Rare keys alone; with a budget that some chapters' keys cost less than; with one they
    // all do (every key, then); and by every key held by up to 255 documents.
    let mut found = Vec::new();
    for rare in [(2, 0), (2, 1_000), (2, usize::MAX), (1000, 0)] {
        let first = join(rare, &keep, Tuning::default());
        for tuning in tunings.clone() {
            assert_eq!(join(rare, &keep, tuning), first, "{rare:?}, {tuning:?}");
        }
        assert!(first.iter().all(|p| every.binary_search(p).is_ok()));
        found.push(first.len());
    }
    assert!(
        found[0] < found[1] && found[1] < every.len(),
        "{found:?} {}",
        every.len()
    );
    assert_eq!(found[2..], [every.len(); 2]);
    let d = RobustSlst::new(RobustConfig::default()).unwrap();
    let sketches = genesis_sketches(&d);
    let held_whole: Vec<(usize, usize)> = (0..sketches.len())
        .flat_map(|a| (a + 1..sketches.len()).map(move |b| (a, b)))
        .filter(|&(a, b)| {
            let (x, y) = (genesis_verses(a), genesis_verses(b));
            let within = |x: &Range<usize>, y: &Range<usize>| y.start <= x.start && x.end <= y.end;
            (within(&x, &y) || within(&y, &x))
                && whole(&d.compare(&sketches[a], &sketches[b]).similarity, true)
        })
        .collect();
    assert!(held_whole.len() > 10, "{}", held_whole.len());
    let found = join((2, 0), &whole, Tuning::default());
    for pair in &held_whole {
        assert!(found.binary_search(pair).is_ok(), "{pair:?}");
    }
}
