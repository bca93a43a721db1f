//! How the Wang–Chang method's k (consecutive sentence lengths per feature) was chosen.
//!
//! Runs the `sentlen` method for k = 1…5 on the Clough and Stevenson corpus of plagiarised short
//! answers (95 answers to 5 tasks, each labelled cut, light, heavy or non against its Wikipedia
//! source): for each label, the share of answers that share at least one feature with their
//! source; the same for each answer against the four *other* tasks' sources (unrelated pairs);
//! and the best F1 over containment thresholds 0.05, 0.10, … when cut/light/heavy answers are
//! the positives and non answers and unrelated pairs the negatives.
//!
//! Run: `cargo run --release --example sentlen_k [CORPUS_DIR]`, where CORPUS_DIR holds
//! `file_list.csv` and `corpus-20090418/` (default `../shared/corpora/clough-short-answers`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use slst::corpus::{ReadOptions, read_document};
use slst::method::{SentLen, SentLenConfig, SentLenSketch};
use slst::{Detector, Document};

const TASKS: [&str; 5] = ["a", "b", "c", "d", "e"];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "../shared/corpora/clough-short-answers".into()),
    );
    let read = |name: &str| -> Result<Document, slst::Error> {
        read_document(
            &dir.join("corpus-20090418").join(name),
            &ReadOptions::default(),
        )
    };
    // File,Group,Person,Task,Category,…
    let list = std::fs::read_to_string(Path::new(&dir).join("file_list.csv"))?;
    let answers: Vec<(Document, String, String)> = list
        .lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            Ok((read(f[0])?, f[3].to_string(), f[4].to_string()))
        })
        .collect::<Result<_, slst::Error>>()?;
    println!("k   cut   light heavy non   unrelated  best F1 (at containment)");
    for k in 1..=5 {
        let d = SentLen::new(SentLenConfig {
            k,
            ..SentLenConfig::default()
        })?;
        let sources: BTreeMap<&str, SentLenSketch> = TASKS
            .iter()
            .map(|t| Ok((*t, d.sketch(&read(&format!("orig_task{t}.txt"))?))))
            .collect::<Result<_, slst::Error>>()?;
        // label → (pairs, pairs sharing a feature); and (containment, positive) for the sweep.
        let mut shares: BTreeMap<String, (usize, usize)> = BTreeMap::new();
        let mut scored: Vec<(f64, bool)> = Vec::new();
        for (doc, task, label) in &answers {
            let s = d.sketch(doc);
            for t in TASKS {
                let c = d.compare(&s, &sources[t]);
                let own = t == task.as_str();
                let key = if own {
                    label.clone()
                } else {
                    "unrelated".into()
                };
                let e = shares.entry(key).or_default();
                e.0 += 1;
                e.1 += usize::from(c.evidence.shared > 0);
                let containment = c.similarity.containment_a.unwrap_or(0.0);
                scored.push((containment, own && label != "non"));
            }
        }
        let share = |label: &str| {
            let (n, hit) = shares[label];
            hit as f64 / n as f64
        };
        let positives = scored.iter().filter(|s| s.1).count() as f64;
        let (mut best, mut at) = (0.0, 0.0);
        for step in 1..=20 {
            let theta = f64::from(step) * 0.05;
            let tp = scored.iter().filter(|s| s.1 && s.0 >= theta).count() as f64;
            let fp = scored.iter().filter(|s| !s.1 && s.0 >= theta).count() as f64;
            if tp == 0.0 {
                continue;
            }
            let (precision, recall) = (tp / (tp + fp), tp / positives);
            let f1 = 2.0 * precision * recall / (precision + recall);
            if f1 > best {
                (best, at) = (f1, theta);
            }
        }
        println!(
            "{k}   {:.2}  {:.2}  {:.2}  {:.2}  {:.2}       {best:.3} ({at:.2})",
            share("cut"),
            share("light"),
            share("heavy"),
            share("non"),
            share("unrelated"),
        );
    }
    Ok(())
}
