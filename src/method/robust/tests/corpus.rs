//! Tests of a prepared corpus: term ranks, views read from them, document frequencies.

use super::*;

/// A prepared corpus holds its terms as 32-bit term ranks, and reads them as it read the ids:
/// every comparison, seed, word-rule test, stored form and term list of the ranked profiles is
/// the unranked ones', and a ranked profile compares with an unranked one (or one of another
/// corpus) as the two unranked profiles do. The corpus mixes edited Bible verses (blocks, single
/// blocks, an over-long verse cut into windows) with news flashes and notices (figures, leads,
/// headline subjects), so that every part of the decision reads terms.
#[test]
fn ranked_terms_decide_as_the_ids_they_stand_for() {
    let kjv = include_str!("../../../../corpora/bible/kjv-1mb.txt");
    let wbt = include_str!("../../../../corpora/bible/wbt-1mb.txt");
    let mut texts: Vec<String> = Vec::new();
    for (start, len) in [(0, 3_000), (1_000, 2_500), (20_000, 1_500)] {
        texts.push(kjv[start..start + len].to_string());
        texts.push(wbt[start..start + len].to_string());
    }
    // One over-long sentence (windows), once as is and once with a word changed.
    let long = kjv[5_000..6_500].replace(['.', ';', ':', '?', '!'], ",");
    texts.push(long.clone());
    texts.push(long.replacen(" the ", " a ", 3));
    for text in [
        "BANK OF MONTREAL CUTS PRIME RATE\nBank of Montreal said it cut its prime rate to 9.75 pct \
         from 10 pct, effective tomorrow. The move follows cuts by other Canadian banks.",
        "BANK OF MONTREAL CUTS PRIME RATE\nBank of Montreal said it cut its prime rate to 9.75 pct \
         from 10 pct, effective Tuesday. The move follows cuts by the other Canadian banks.",
        "BANK OF NOVA SCOTIA CUTS PRIME RATE\nBank of Nova Scotia said it cut its prime rate to \
         9.75 pct from 10 pct, effective tomorrow. The move follows cuts by other Canadian banks.",
        "U.S. T-BILL AVERAGES 5.51 PCT\nThe average yield on three-month Treasury bills was 5.51 \
         pct, the Treasury said. Six-month bills averaged 5.62 pct at the auction.",
        "U.S. T-BILL AVERAGES 5.72 PCT\nThe average yield on three-month Treasury bills was 5.72 \
         pct, the Treasury said. Six-month bills averaged 5.80 pct at the auction.",
        "GENCORP SETS QUARTERLY DIVIDEND",
        "GENCORP SETS QUARTERLY DIVIDEND OF 25 CTS",
        // Two flashes that open on other names (the lead check refuses them) ...
        "MONTREAL TRUST CUTS PRIME RATE",
        "ROYAL TRUST CUTS PRIME RATE",
        // ... and two notices whose headlines name other funds (the subject check).
        "FRANKLIN FUND SETS MONTHLY PAYOUT\n\nThe Franklin fund said it set a monthly \
         dividend payout of five cts a share. It is payable June one to holders of record May 15.",
        "TEMPLETON FUND SETS MONTHLY PAYOUT\n\nThe Templeton fund said it set a monthly \
         dividend payout of five cts a share. It is payable June one to holders of record May 15.",
    ] {
        texts.push(text.to_string());
    }
    let d = detector();
    let docs: Vec<Document> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| Document::new(format!("d{i}"), t))
        .collect();
    let plain: Vec<RobustProfile> = docs.iter().map(|doc| d.sketch(doc)).collect();
    let mut ranked = plain.clone();
    d.prepare_corpus(&mut ranked);
    // And a corpus of its own for the first two, whose ranks differ.
    let mut other = vec![plain[1].clone(), plain[0].clone()];
    d.prepare_corpus(&mut other);
    let (mut reported, mut seeded) = (0, 0);
    for (i, (x, px)) in ranked.iter().zip(&plain).enumerate() {
        assert!(matches!(x.terms, TermList::Ranks(_)), "d{i} holds ranks");
        assert_eq!(x.vocabulary(), px.vocabulary());
        for s in x.sentences.iter().chain(&x.windows) {
            assert_eq!(x.terms(s), px.terms(s));
        }
        assert_eq!(
            serde_json::to_string(x).unwrap(),
            serde_json::to_string(px).unwrap()
        );
        for (j, (y, py)) in ranked.iter().zip(&plain).enumerate() {
            let expected = d.compare(px, py);
            assert_eq!(d.compare(x, y), expected, "d{i} d{j}");
            assert_eq!(d.compare(x, py), expected, "d{i} d{j} ranked against ids");
            assert_eq!(d.compare(px, y), expected, "d{i} d{j} ids against ranked");
            let seeds = d.seeds(px, py, &expected);
            assert_eq!(d.seeds(x, y, &expected), seeds, "d{i} d{j}");
            assert_eq!(d.may_match_words(x, y), d.may_match_words(px, py));
            reported += usize::from(i < j && expected.duplicate);
            seeded += usize::from(seeds.is_some_and(|s| !s.is_empty()));
        }
    }
    // The corpus is not trivial: some pairs are reported, and some blocks seed passages.
    assert!(reported >= 4, "{reported} pairs reported");
    assert!(seeded >= 10, "{seeded} pairs with seeds");
    for (x, px) in other.iter().zip([&plain[1], &plain[0]]) {
        for (y, py) in ranked.iter().zip(&plain) {
            assert_eq!(d.compare(x, y), d.compare(px, py), "two corpora");
        }
    }
}

/// Under the anchor rule, a ranked corpus's views read each sentence's anchors from the
/// profile's term ranks instead of keeping a copy ([`super::super::keys::KeyRanks`]): every slot,
/// bound and candidate pair is the one the copy gives, only the keys' values differ (they hash
/// term ranks instead of places among the ids), and they tie the same slots together.
#[test]
fn anchors_read_from_term_ranks_join_as_their_own_copy() {
    use super::super::keys::KeyRanks;
    let kjv = include_str!("../../../../corpora/bible/kjv-1mb.txt");
    let wbt = include_str!("../../../../corpora/bible/wbt-1mb.txt");
    let mut texts: Vec<String> = Vec::new();
    for (start, len) in [(0, 4_000), (2_000, 3_000), (30_000, 2_000), (31_000, 2_500)] {
        texts.push(kjv[start..start + len].to_string());
        texts.push(wbt[start..start + len].to_string());
    }
    texts.push(kjv[60_000..63_000].replace(" the ", " a "));
    texts.push(wbt[60_500..63_500].to_string());
    // Every pair of anchors: sampled keys hash the terms' values, which the two forms number
    // differently (each picks consistently within its own corpus).
    let d = RobustSlst::new(RobustConfig {
        pair_keys: 0,
        ..RobustConfig::default()
    })
    .unwrap();
    let plain: Vec<RobustProfile> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| d.sketch(&Document::new(format!("d{i}"), t)))
        .collect();
    let (mut own, mut read) = (plain.clone(), plain);
    d.rank_corpus_as(&mut own, false);
    d.rank_corpus_as(&mut read, true);
    fn view(p: &RobustProfile) -> &KeyRanks {
        &p.corpus.as_deref().unwrap().ranks
    }
    assert!(own.iter().all(|p| matches!(view(p), KeyRanks::Own { .. })));
    assert!(
        read.iter()
            .all(|p| matches!(view(p), KeyRanks::Terms { .. }))
    );
    // Slots: the same codes in the same order, and a key shared by the same slots.
    let ties = |docs: &[RobustProfile]| {
        let mut by_key: std::collections::HashMap<u64, Vec<(usize, usize)>> = Default::default();
        let mut codes = Vec::new();
        for (x, p) in docs.iter().enumerate() {
            let slots = p.corpus.as_deref().unwrap().slots(&d, p);
            codes.push(slots.iter().map(|s| s.code).collect::<Vec<_>>());
            for (k, s) in slots.iter().enumerate() {
                by_key.entry(s.key).or_default().push((x, k));
            }
        }
        let mut groups: Vec<Vec<(usize, usize)>> = by_key.into_values().collect();
        groups.sort_unstable();
        (codes, groups)
    };
    let (own_ties, read_ties) = (ties(&own), ties(&read));
    assert_eq!(own_ties, read_ties);
    assert!(
        own_ties
            .1
            .iter()
            .any(|g| g.iter().any(|&(x, _)| x != g[0].0))
    );
    let mut bounded = 0;
    for (x, (a, pa)) in read.iter().zip(&own).enumerate() {
        for (b, pb) in read.iter().zip(&own).skip(x + 1) {
            let bound = d.max_matched(pa, pb);
            assert_eq!(d.max_matched(a, b), bound, "d{x}");
            bounded += usize::from(bound.is_some_and(|m| m > 0));
        }
    }
    assert!(bounded >= 5, "{bounded} pairs with a bound above 0");
    let candidates = |docs: &[RobustProfile]| {
        let refs: Vec<&RobustProfile> = docs.iter().collect();
        d.corpus_candidates(&refs, PairRule::Duplicates, 1000)
    };
    let found = candidates(&own);
    assert!(found.as_ref().is_some_and(|c| c.pairs.len() >= 4));
    assert_eq!(candidates(&read), found);
}

#[test]
fn document_frequencies_count_each_document_once_across_batches() {
    use super::super::keys::{DF_BATCH, document_frequencies};
    // More than two batches of documents, each a few verses of Genesis (some repeated within
    // it, which a document frequency counts once) after one they all hold, so that terms are
    // shared within and across batches.
    let kjv = include_str!("../../../../corpora/bible/kjv-1mb.txt");
    let verses: Vec<&str> = kjv.lines().filter(|l| l.len() > 40).take(400).collect();
    let d = detector();
    let profiles: Vec<RobustProfile> = (0..2 * DF_BATCH + 37)
        .map(|i| {
            let (x, y) = (verses[i % verses.len()], verses[(i * 7 + 3) % verses.len()]);
            d.sketch(&Document::new(
                format!("d{i}"),
                format!("{} {x} {y} {x}", verses[0]),
            ))
        })
        .collect();
    let mut expected: std::collections::BTreeMap<u64, u32> = Default::default();
    for p in &profiles {
        for t in p.vocabulary() {
            *expected.entry(t).or_default() += 1;
        }
    }
    let expected: Vec<(u32, u64)> = expected.into_iter().map(|(t, df)| (df, t)).collect();
    assert!(expected.iter().any(|&(df, _)| df as usize > DF_BATCH));
    assert_eq!(document_frequencies(&profiles), expected);
}
