//! Each kind of edit does what the module docs say, on real text.

use super::*;
use crate::corpus::sgml::{SgmlOptions, read_sgml};
use crate::text::{StopWords, for_each_word, split_sentences};

/// Real documents: the Bible sample (Genesis 1–3, KJV and Webster) and the two Clough texts.
fn real_docs() -> Vec<Document> {
    let sgml = include_str!("../../corpora/bible/sample.trec");
    let mut docs: Vec<Document> = read_sgml(sgml, &SgmlOptions::trec())
        .unwrap()
        .into_iter()
        .map(|d| Document::new(d.id, d.text))
        .collect();
    docs.push(Document::new(
        "orig_taskb",
        include_str!("../../corpora/clough/orig_taskb.txt"),
    ));
    docs.push(Document::new(
        "g0pA_taskb",
        include_str!("../../corpora/clough/g0pA_taskb.txt"),
    ));
    docs
}

fn plant(kind: EditKind, setting: f64, seed: u64) -> (Synthetic, Vec<Document>) {
    let docs = real_docs();
    let config = SynthConfig {
        docs: 4,
        seed,
        kinds: vec![KindSpec { kind, setting }],
        ..SynthConfig::default()
    };
    (synthesize(docs.clone(), &config).unwrap(), docs)
}

/// The sentences of a text, white space collapsed.
fn sentences(text: &str) -> Vec<String> {
    split_sentences(text)
        .into_iter()
        .map(|r| text[r].split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// (original text, variant text, record) for every planted pair.
fn pairs(s: &Synthetic) -> Vec<(&str, &str, &EditRecord)> {
    s.records
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let (o, v) = (&s.documents[2 * k], &s.documents[2 * k + 1]);
            assert_eq!(
                (o.id.as_str(), v.id.as_str()),
                (r.original.as_str(), r.id.as_str())
            );
            (o.text.as_str(), v.text.as_str(), r)
        })
        .collect()
}

fn words(s: &str) -> Vec<String> {
    let mut w = Vec::new();
    for_each_word(s, |x| w.push(x.to_string()));
    w
}

#[test]
fn same_seed_same_bytes_other_seed_other_bytes() {
    let config = SynthConfig {
        docs: 5,
        seed: 11,
        ..SynthConfig::default()
    };
    let bytes = |c: &SynthConfig| {
        let s = synthesize(real_docs(), c).unwrap();
        let (mut a, mut b, mut l) = (Vec::new(), Vec::new(), Vec::new());
        s.write_corpus(&mut a).unwrap();
        s.write_truth(&mut b).unwrap();
        s.write_log(&mut l).unwrap();
        (a, b, l)
    };
    let first = bytes(&config);
    assert_eq!(first, bytes(&config));
    let other = bytes(&SynthConfig {
        seed: 12,
        ..config.clone()
    });
    assert_ne!(first.0, other.0);
    assert_ne!(first.2, other.2);
}

#[test]
fn kinds_are_dealt_out_evenly() {
    let config = SynthConfig {
        docs: 5,
        seed: 3,
        kinds: vec![
            KindSpec::new(EditKind::Delete),
            KindSpec::new(EditKind::Reorder),
        ],
        ..SynthConfig::default()
    };
    let s = synthesize(real_docs(), &config).unwrap();
    let deletes = s
        .records
        .iter()
        .filter(|r| r.kind == EditKind::Delete)
        .count();
    assert!(deletes == 2 || deletes == 3, "{deletes}");
    assert_eq!(s.documents.len(), 10);
}

#[test]
fn last_paragraph_rewrites_exactly_the_last_eighth() {
    for seed in 0..4 {
        let (s, _) = plant(EditKind::LastParagraph, 8.0, seed);
        for (o, v, r) in pairs(&s) {
            let (so, sv) = (sentences(o), sentences(v));
            assert_eq!(so.len(), sv.len(), "{}", r.id);
            let n = so.len();
            let first_changed = n - n.div_ceil(8);
            for i in 0..n {
                assert_eq!(so[i] != sv[i], i >= first_changed, "{} sentence {i}", r.id);
            }
            assert!((r.amount - (n - first_changed) as f64 / n as f64).abs() < 1e-12);
        }
    }
}

#[test]
fn every_nth_rewrites_every_5th_or_6th_sentence() {
    for seed in 0..4 {
        let (s, _) = plant(EditKind::EveryNth, 5.0, seed);
        for (o, v, r) in pairs(&s) {
            let (so, sv) = (sentences(o), sentences(v));
            assert_eq!(so.len(), sv.len(), "{}", r.id);
            let changed: Vec<usize> = (0..so.len()).filter(|&i| so[i] != sv[i]).collect();
            assert!(changed[0] < 5, "{changed:?}");
            assert!(
                changed
                    .windows(2)
                    .all(|w| w[1] - w[0] == 5 || w[1] - w[0] == 6),
                "{changed:?}"
            );
            assert!(so.len() - changed.last().unwrap() <= 6);
            // The log says which sentences and what each became.
            let logged: Vec<usize> = r
                .edits
                .iter()
                .map(|e| match e {
                    Edit::Rewrite {
                        sentence, after, ..
                    } => {
                        assert_eq!(collapse(after), sv[*sentence]);
                        *sentence
                    }
                    other => panic!("{other:?}"),
                })
                .collect();
            assert_eq!(logged, changed);
        }
    }
}

#[test]
fn rewritten_sentence_word_counts_follow_the_log() {
    let (s, _) = plant(EditKind::LastParagraph, 2.0, 5);
    let mut ops = [0usize; 3];
    for (_, _, r) in pairs(&s) {
        for e in &r.edits {
            if let Edit::Rewrite {
                before,
                after,
                words: w,
                ..
            } = e
            {
                let (mut ins, mut del) = (0, 0);
                for op in w {
                    match op {
                        WordOp::Substitute { .. } => ops[0] += 1,
                        WordOp::Delete { .. } => {
                            ops[1] += 1;
                            del += 1
                        }
                        WordOp::Insert { .. } => {
                            ops[2] += 1;
                            ins += 1
                        }
                    }
                }
                assert_eq!(
                    words(after).len() + del,
                    words(before).len() + ins,
                    "{before} → {after}"
                );
            }
        }
    }
    // About a third of each at rate 0.3 over half of each document.
    assert!(ops.iter().all(|&c| c > 20), "{ops:?}");
}

#[test]
fn delete_removes_exactly_the_logged_sentences() {
    for seed in 0..4 {
        let (s, _) = plant(EditKind::Delete, 0.2, seed);
        for (o, v, r) in pairs(&s) {
            let so = sentences(o);
            let gone: Vec<usize> = r
                .edits
                .iter()
                .map(|e| match e {
                    Edit::Delete { sentence, .. } => *sentence,
                    other => panic!("{other:?}"),
                })
                .collect();
            let expected: Vec<String> = (0..so.len())
                .filter(|i| !gone.contains(i))
                .map(|i| so[i].clone())
                .collect();
            assert_eq!(sentences(v), expected, "{}", r.id);
            assert_eq!(gone.len(), (0.2 * so.len() as f64).round() as usize);
        }
    }
}

#[test]
fn insert_adds_sentences_of_other_documents_where_logged() {
    for seed in 0..4 {
        let (s, docs) = plant(EditKind::Insert, 0.2, seed);
        let originals: Vec<&str> = s.records.iter().map(|r| r.original.as_str()).collect();
        for (o, v, r) in pairs(&s) {
            let so = sentences(o);
            let mut expected = Vec::new();
            for i in 0..=so.len() {
                for e in &r.edits {
                    let Edit::Insert {
                        before,
                        donor,
                        donor_sentence,
                        text,
                    } = e
                    else {
                        panic!("{e:?}")
                    };
                    assert!(!originals.contains(&donor.as_str()));
                    let d = docs.iter().find(|d| &d.id == donor).unwrap();
                    assert_eq!(sentences(&d.text)[*donor_sentence], collapse(text));
                    if *before == i {
                        expected.push(collapse(text));
                    }
                }
                if i < so.len() {
                    expected.push(so[i].clone());
                }
            }
            assert_eq!(sentences(v), expected, "{}", r.id);
        }
    }
}

#[test]
fn reorder_moves_whole_runs() {
    for seed in 0..4 {
        let (s, _) = plant(EditKind::Reorder, 4.0, seed);
        for (o, v, r) in pairs(&s) {
            let so = sentences(o);
            let [Edit::Reorder { runs, order }] = r.edits.as_slice() else {
                panic!("{:?}", r.edits)
            };
            assert_eq!(runs.len(), 4);
            assert_ne!(order, &[0, 1, 2, 3]);
            let expected: Vec<String> = order
                .iter()
                .flat_map(|&k| so[runs[k][0]..runs[k][1]].to_vec())
                .collect();
            assert_eq!(sentences(v), expected, "{}", r.id);
            let mut sorted = sentences(v);
            sorted.sort();
            let mut so_sorted = so.clone();
            so_sorted.sort();
            assert_eq!(sorted, so_sorted);
            assert!(r.amount > 0.0);
        }
    }
}

#[test]
fn substitute_swaps_classes_and_so_sentence_lengths() {
    let stop = StopWords::english();
    let terms = |s: &str| words(s).iter().filter(|w| !stop.contains(w)).count();
    let mut swaps = 0;
    for seed in 0..4 {
        let (s, _) = plant(EditKind::Substitute, 0.1, seed);
        for (o, v, r) in pairs(&s) {
            let (so, sv) = (sentences(o), sentences(v));
            assert_eq!(so.len(), sv.len(), "{}", r.id);
            for (i, (a, b)) in so.iter().zip(&sv).enumerate() {
                let subs: Vec<&Substitution> = r
                    .edits
                    .iter()
                    .filter_map(|e| match e {
                        Edit::Substitute(x) if x.sentence == i => Some(x),
                        _ => None,
                    })
                    .collect();
                let (wa, wb) = (words(a), words(b));
                assert_eq!(wa.len(), wb.len());
                let differing = wa.iter().zip(&wb).filter(|(x, y)| x != y).count();
                assert_eq!(differing, subs.len(), "{a} → {b}");
                // Each swap to a content word adds a term, each swap to a stop word removes one.
                let delta: isize = subs
                    .iter()
                    .filter(|x| x.class_swap)
                    .map(|x| {
                        if stop.contains(&x.to.to_lowercase()) {
                            -1
                        } else {
                            1
                        }
                    })
                    .sum();
                assert_eq!(terms(b) as isize - terms(a) as isize, delta, "{a} → {b}");
                swaps += subs.iter().filter(|x| x.class_swap).count();
            }
            let total_words = words(o).len() as f64;
            assert!((r.amount * total_words - r.edits.len() as f64).abs() < 1e-9);
        }
    }
    assert!(swaps > 20, "{swaps}");
}

#[test]
fn figures_are_written_another_way_in_place() {
    // The Bible sample writes its numbers out (`five`, `twenty`): each becomes digits.
    let mut rewritten = 0;
    for seed in 0..4 {
        let (s, _) = plant(EditKind::Figures, 1.0, seed);
        for (o, v, r) in pairs(&s) {
            let (so, sv) = (sentences(o), sentences(v));
            assert_eq!(so.len(), sv.len(), "{}", r.id);
            let figures: Vec<(usize, &str, &str)> = r
                .edits
                .iter()
                .map(|e| match e {
                    Edit::Figure {
                        sentence,
                        before,
                        after,
                    } => (*sentence, before.as_str(), after.as_str()),
                    other => panic!("{other:?}"),
                })
                .collect();
            if figures.is_empty() {
                assert_eq!((o, r.amount), (v, 0.0), "{}", r.id);
                continue;
            }
            assert!(r.amount > 0.0 && r.amount <= 1.0, "{}", r.amount);
            for (i, before, after) in &figures {
                assert!(so[*i].contains(&collapse(before)), "{before} in {}", so[*i]);
                assert!(sv[*i].contains(after), "{after} in {}", sv[*i]);
                assert_ne!(collapse(before), *after);
            }
            // Only the figures changed: the other sentences are the original's.
            for (i, (a, b)) in so.iter().zip(&sv).enumerate() {
                if !figures.iter().any(|f| f.0 == i) {
                    assert_eq!(a, b);
                }
            }
            rewritten += figures.len();
        }
    }
    assert!(rewritten >= 4, "{rewritten}");
    // Not in the default mix.
    assert!(!KindSpec::all().iter().any(|k| k.kind == EditKind::Figures));
    assert_eq!("figures:0.5".parse::<KindSpec>().unwrap().setting, 0.5);
    assert!("figures:0".parse::<KindSpec>().is_err());
}

#[test]
fn paste_puts_the_passage_inside_a_host_sentence() {
    for seed in 0..4 {
        let (s, docs) = plant(EditKind::Paste, 5.0, seed);
        for (o, v, r) in pairs(&s) {
            let [
                Edit::Paste {
                    sentences: [a, b],
                    host,
                    host_sentence,
                    after_word,
                },
            ] = r.edits.as_slice()
            else {
                panic!("{:?}", r.edits)
            };
            assert_eq!(b - a, 5);
            let ranges = split_sentences(o);
            let passage = &o[ranges[*a].start..ranges[b - 1].end];
            let h = docs.iter().find(|d| &d.id == host).unwrap();
            // The variant is the host with " passage" after one word, mid-sentence.
            let at = v.find(passage).expect("the passage is in the variant");
            assert_eq!(
                format!("{}{}", &v[..at - 1], &v[at + passage.len()..]),
                h.text
            );
            let hs = &h.text[split_sentences(&h.text)[*host_sentence].clone()];
            let w = edit::word_spans(hs);
            assert!(*after_word + 1 < w.len());
            assert!((r.amount - 5.0 / ranges.len() as f64).abs() < 1e-12);
        }
    }
}

#[test]
fn paste_variants_take_different_hosts_while_there_are_some() {
    // Four pastes, four documents besides the originals: two variants pasted into one host
    // would be near-duplicates of each other that the truth does not list.
    for seed in 0..8 {
        let (s, docs) = plant(EditKind::Paste, 5.0, seed);
        assert_eq!(docs.len() - s.records.len(), 4);
        let hosts: HashSet<&str> = s
            .records
            .iter()
            .map(|r| match r.edits.as_slice() {
                [Edit::Paste { host, .. }] => host.as_str(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(hosts.len(), s.records.len(), "seed {seed}");
    }
}

#[test]
fn boilerplate_wraps_the_text() {
    let (s, _) = plant(EditKind::Boilerplate, 6.0, 1);
    for (o, v, r) in pairs(&s) {
        assert!(v.starts_with(BOILERPLATE_HEADER[0]));
        assert!(v.contains(o.trim()));
        assert!(v.trim_end().ends_with(BOILERPLATE_FOOTER[2]));
        assert_eq!(r.sentences_after, r.sentences_before + 6, "{}", r.id);
        let so = sentences(o);
        assert_eq!(sentences(v)[3..3 + so.len()], so[..]);
    }
}

#[test]
fn truth_file_reads_with_the_eval_reader() {
    let config = SynthConfig {
        docs: 6,
        seed: 2,
        ..SynthConfig::default()
    };
    let s = synthesize(real_docs(), &config).unwrap();
    let mut out = Vec::new();
    s.write_truth(&mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("id_a\tid_b\tkind\tamount\n"));
    let all: Vec<&str> = EditKind::ALL.iter().map(|k| k.name()).collect();
    let t = crate::eval::truth::read_pairs(&text, &all).unwrap();
    assert_eq!((t.positives.len(), t.negatives.len()), (6, 0));
    let t = crate::eval::truth::read_pairs(&text, &["delete"]).unwrap();
    let deletes = s
        .records
        .iter()
        .filter(|r| r.kind == EditKind::Delete)
        .count();
    assert_eq!(
        (t.positives.len(), t.negatives.len()),
        (deletes, 6 - deletes)
    );
}

#[test]
fn too_few_documents_or_no_donors_is_an_error() {
    let config = SynthConfig {
        docs: 9,
        ..SynthConfig::default()
    };
    let e = synthesize(real_docs(), &config).unwrap_err().to_string();
    assert!(e.contains("only 8 documents"), "{e}");
    let config = SynthConfig {
        docs: 8,
        kinds: vec![KindSpec::new(EditKind::Paste)],
        ..SynthConfig::default()
    };
    assert!(synthesize(real_docs(), &config).is_err());
}

#[test]
fn repeated_ids_keep_the_first_document() {
    let mut docs = real_docs();
    docs.push(Document::new(
        "KJV-01-001",
        "Another text with the same id.",
    ));
    let config = SynthConfig {
        docs: 2,
        kinds: vec![KindSpec::new(EditKind::Delete)],
        ..SynthConfig::default()
    };
    let s = synthesize(docs, &config).unwrap();
    assert_eq!(s.duplicate_ids, ["KJV-01-001"]);
}
