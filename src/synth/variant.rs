//! Making a variant: each kind of edit applied to an original (see the table of the
//! [module docs](super)).

use std::cell::RefCell;
use std::collections::HashSet;

use super::config::{EditKind, KindSpec, SynthConfig};
use super::edit::{self, Unit, Units, Vocabulary};
use super::figures::{self as figure_forms, Choice};
use super::record::Edit;
use super::rng::SeededRng;
use super::{BOILERPLATE_FOOTER, BOILERPLATE_HEADER};
use crate::document::Document;
use crate::error::{Error, Result};

/// What every edit may look at.
pub(super) struct Context<'a> {
    /// The documents.
    pub(super) docs: &'a [Document],
    /// Their sentences.
    pub(super) units: &'a [Units],
    /// The documents that may lend text (see [`Plan::pool`](super::plan::Plan::pool)).
    pub(super) pool: &'a [usize],
    /// The words a rewrite or substitution draws from.
    pub(super) vocab: &'a Vocabulary,
    /// The settings.
    pub(super) config: &'a SynthConfig,
    /// The hosts earlier `paste` variants took: a host is not taken twice while the pool has
    /// others, or two variants would be near-duplicates of each other that the truth does not
    /// list.
    pub(super) hosts: RefCell<HashSet<usize>>,
}

/// How often an in-sentence edit is drawn before the sentence is left as it was.
const DRAWS: usize = 8;

/// A variant's text, its amount and its edits.
type Made = (String, f64, Vec<Edit>);

impl Context<'_> {
    /// The variant of document `o` by the edit `spec`.
    pub(super) fn variant(&self, o: usize, spec: KindSpec, rng: &mut SeededRng) -> Result<Made> {
        let u = &self.units[o];
        let n = u.units.len();
        let a = spec.setting;
        Ok(match spec.kind {
            EditKind::LastParagraph => {
                let size = n.div_ceil(a as usize);
                self.rewrite(u, (n - size..n).collect(), rng)
            }
            EditKind::EveryNth => {
                let step = a as usize;
                let mut chosen = Vec::new();
                let mut i = rng.below(step.min(n));
                while i < n {
                    chosen.push(i);
                    i += step + rng.below(2);
                }
                self.rewrite(u, chosen, rng)
            }
            EditKind::Delete => delete(u, a, rng),
            EditKind::Insert => self.insert(u, a, rng),
            EditKind::Reorder => reorder(u, a as usize, rng),
            EditKind::Substitute => self.substitute(u, a, rng),
            EditKind::Paste => self.paste(u, a as usize, rng)?,
            EditKind::Boilerplate => boilerplate(&self.docs[o].text, n, a as usize),
            EditKind::Figures => figures(u, a, rng),
        })
    }

    /// Rewrite the sentences `chosen` (ascending) in place.
    fn rewrite(&self, u: &Units, chosen: Vec<usize>, rng: &mut SeededRng) -> Made {
        let mut out = u.clone();
        let mut edits = Vec::new();
        let mut changed = 0;
        for i in chosen {
            let text = &u.units[i].text;
            let made = (0..DRAWS).find_map(|_| {
                edit::rewrite_sentence(text, self.config.word_rate, self.vocab, rng)
                    .filter(|(after, _)| edit::keeps_boundaries(&out, i, after))
            });
            match made {
                Some((after, words)) => {
                    changed += 1;
                    edits.push(Edit::Rewrite {
                        sentence: i,
                        before: text.clone(),
                        after: after.clone(),
                        words,
                    });
                    out.units[i].text = after;
                }
                None => edits.push(Edit::Unchanged { sentence: i }),
            }
        }
        (out.join(), share(changed, u.units.len()), edits)
    }

    /// Insert sentences of lending documents (`insert`).
    fn insert(&self, u: &Units, a: f64, rng: &mut SeededRng) -> Made {
        let n = u.units.len();
        let m = ((a * n as f64).round() as usize).max(1);
        let mut inserts: Vec<(usize, Unit, Edit)> = Vec::with_capacity(m);
        for _ in 0..m {
            let donor = self.pool[rng.below(self.pool.len())];
            let du = &self.units[donor].units;
            let k = rng.below(du.len());
            let before = rng.below(n + 1);
            let text = du[k].text.clone();
            inserts.push((
                before,
                Unit {
                    text: text.clone(),
                    gap: String::new(),
                },
                Edit::Insert {
                    before,
                    donor: self.docs[donor].id.clone(),
                    donor_sentence: k,
                    text,
                },
            ));
        }
        inserts.sort_by_key(|(before, _, _)| *before); // stable: draw order within a place
        let mut pieces: Vec<(Unit, bool)> = Vec::with_capacity(n + m);
        let mut edits = Vec::with_capacity(m);
        let mut next = inserts.into_iter().peekable();
        for i in 0..=n {
            while let Some((_, unit, edit)) = next.next_if(|(b, _, _)| *b == i) {
                if let Some(last) = pieces.last_mut() {
                    last.1 = true;
                }
                pieces.push((unit, true));
                edits.push(edit);
            }
            if i < n {
                pieces.push((u.units[i].clone(), false));
            }
        }
        (assemble(u, pieces), share(m, n), edits)
    }

    /// Substitute words (`substitute`).
    fn substitute(&self, u: &Units, a: f64, rng: &mut SeededRng) -> Made {
        let mut out = u.clone();
        let mut edits = Vec::new();
        let mut words = 0;
        for (i, unit) in u.units.iter().enumerate() {
            words += edit::word_spans(&unit.text).len();
            let made = (0..DRAWS).find_map(|_| {
                let (text, subs) = edit::substitute_words(
                    &unit.text,
                    i,
                    a,
                    self.vocab,
                    &self.config.stopwords,
                    rng,
                    None,
                );
                edit::keeps_boundaries(&out, i, &text).then_some((text, subs))
            });
            if let Some((text, subs)) = made {
                out.units[i].text = text;
                edits.extend(subs.into_iter().map(Edit::Substitute));
            }
        }
        if edits.is_empty() {
            // Nothing drawn: substitute one editable word, so the variant differs.
            let candidates: Vec<(usize, usize)> = u
                .units
                .iter()
                .enumerate()
                .flat_map(|(i, unit)| {
                    let spans = edit::word_spans(&unit.text);
                    (0..spans.len())
                        .filter(|&w| edit::editable(&unit.text, &spans[w]))
                        .map(|w| (i, w))
                        .collect::<Vec<_>>()
                })
                .collect();
            if !candidates.is_empty() {
                let (i, w) = candidates[rng.below(candidates.len())];
                let (text, subs) = edit::substitute_words(
                    &u.units[i].text,
                    i,
                    1.0,
                    self.vocab,
                    &self.config.stopwords,
                    rng,
                    Some(w),
                );
                if edit::keeps_boundaries(&out, i, &text) {
                    out.units[i].text = text;
                    edits.extend(subs.into_iter().map(Edit::Substitute));
                }
            }
        }
        let amount = share(edits.len(), words);
        (out.join(), amount, edits)
    }

    /// Paste a passage of the original into a lending document (`paste`).
    fn paste(&self, u: &Units, a: usize, rng: &mut SeededRng) -> Result<Made> {
        let n = u.units.len();
        let len = a.min(n);
        let start = rng.below(n - len + 1);
        let mut passage = String::new();
        for (k, unit) in u.units[start..start + len].iter().enumerate() {
            passage.push_str(&unit.text);
            if k + 1 < len {
                passage.push_str(&unit.gap);
            }
        }
        // A host: a document that is not an original and not an earlier variant's host, with a
        // sentence that has a word after which the passage can stand (not its last word, not
        // before a sentence-ending mark).
        let cut_points = |text: &str| -> Vec<usize> {
            let spans = edit::word_spans(text);
            (0..spans.len().saturating_sub(1))
                .filter(|&w| edit::editable(text, &(spans[w].end..spans[w].end)))
                .collect()
        };
        let has_place = |h: usize| {
            self.units[h]
                .units
                .iter()
                .any(|s| !cut_points(&s.text).is_empty())
        };
        let mut used = self.hosts.borrow_mut();
        let mut tries = 0;
        let (host, sentence, word) = loop {
            let host = if tries < 64 {
                self.pool[rng.below(self.pool.len())]
            } else {
                // Unlucky draws: the first document of the pool that has a place, one not
                // taken yet if there is one.
                let fresh = self
                    .pool
                    .iter()
                    .find(|&&h| !used.contains(&h) && has_place(h));
                match fresh.or_else(|| self.pool.iter().find(|&&h| has_place(h))) {
                    Some(&h) => h,
                    None => {
                        return Err(Error::InvalidParameter {
                            name: "synth.kinds",
                            value: "paste".into(),
                            expected: "documents besides the originals with a sentence of two words or more",
                        });
                    }
                }
            };
            tries += 1;
            if tries <= 64 && used.contains(&host) {
                continue;
            }
            let hu = &self.units[host].units;
            let places: Vec<usize> = (0..hu.len())
                .filter(|&s| !cut_points(&hu[s].text).is_empty())
                .collect();
            if places.is_empty() {
                continue;
            }
            let s = places[rng.below(places.len())];
            let cuts = cut_points(&hu[s].text);
            break (host, s, cuts[rng.below(cuts.len())]);
        };
        used.insert(host);
        let mut out = self.units[host].clone();
        let target = &mut out.units[sentence].text;
        let at = edit::word_spans(target)[word].end;
        target.insert_str(at, &format!(" {passage}"));
        let edits = vec![Edit::Paste {
            sentences: [start, start + len],
            host: self.docs[host].id.clone(),
            host_sentence: sentence,
            after_word: word,
        }];
        Ok((out.join(), share(len, n), edits))
    }
}

/// `part / whole`, 0 when `whole` is 0.
fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// Write each figure that has another form in that form with probability `a` (`figures`); at
/// least one when the text has any, so the variant differs. A sentence whose rewrite would move
/// a sentence boundary is drawn again, up to [`DRAWS`] times, then left as it was. The amount is
/// the share of the figures with another form that were rewritten (0 for a text without any:
/// the variant is then the original's text).
fn figures(u: &Units, a: f64, rng: &mut SeededRng) -> Made {
    let mut out = u.clone();
    let mut edits = Vec::new();
    // Rewrites sentence `i` as `choice` says: the figures rewritten, and those that could be.
    let mut rewrite = |out: &mut Units, i: usize, choice: Choice, rng: &mut SeededRng| {
        let text = &u.units[i].text;
        let mut candidates = 0;
        let made = (0..DRAWS).find_map(|_| {
            let (after, done, n) = figure_forms::rewrite(text, choice, rng);
            candidates = n;
            edit::keeps_boundaries(out, i, &after).then_some((after, done))
        });
        let Some((after, done)) = made else {
            return (0, candidates);
        };
        out.units[i].text = after;
        let n = done.len();
        edits.extend(done.into_iter().map(|f| Edit::Figure {
            sentence: i,
            before: f.before,
            after: f.after,
        }));
        (n, candidates)
    };
    let (mut changed, mut total) = (0, 0);
    let mut candidates = Vec::new();
    for i in 0..u.units.len() {
        let (n, of) = rewrite(&mut out, i, Choice::Each(a), rng);
        changed += n;
        total += of;
        candidates.extend((0..of).map(|k| (i, k)));
    }
    if changed == 0 && !candidates.is_empty() {
        let (i, k) = candidates[rng.below(candidates.len())];
        changed += rewrite(&mut out, i, Choice::Only(k), rng).0;
    }
    (out.join(), share(changed, total), edits)
}

/// The text of `pieces` with `u`'s prefix and trailing white space.
fn assemble(u: &Units, pieces: Vec<(Unit, bool)>) -> String {
    edit::assemble(&u.prefix, pieces, &u.trailing())
}

/// Delete sentences (`delete`).
fn delete(u: &Units, a: f64, rng: &mut SeededRng) -> Made {
    let n = u.units.len();
    let d = ((a * n as f64).round() as usize)
        .max(1)
        .min(n.saturating_sub(2));
    let mut gone = rng.choose(n, d);
    gone.sort_unstable();
    let gone_set: HashSet<usize> = gone.iter().copied().collect();
    let mut pieces: Vec<(Unit, bool)> = Vec::with_capacity(n - d);
    for (i, unit) in u.units.iter().enumerate() {
        if gone_set.contains(&i) {
            // The sentence before the gap ends at a seam.
            if let Some(last) = pieces.last_mut() {
                last.1 = true;
            }
        } else {
            pieces.push((unit.clone(), false));
        }
    }
    let edits = gone
        .iter()
        .map(|&i| Edit::Delete {
            sentence: i,
            text: u.units[i].text.clone(),
        })
        .collect();
    (assemble(u, pieces), share(d, n), edits)
}

/// Cut into runs and reorder them (`reorder`).
fn reorder(u: &Units, runs: usize, rng: &mut SeededRng) -> Made {
    let n = u.units.len();
    let runs = runs.min(n);
    if runs < 2 {
        return (u.join(), 0.0, Vec::new());
    }
    let mut cuts: Vec<usize> = rng
        .choose(n - 1, runs - 1)
        .into_iter()
        .map(|c| c + 1)
        .collect();
    cuts.sort_unstable();
    let bounds: Vec<[usize; 2]> = std::iter::once(0)
        .chain(cuts.iter().copied())
        .zip(cuts.iter().copied().chain(std::iter::once(n)))
        .map(|(s, e)| [s, e])
        .collect();
    let mut order: Vec<usize> = (0..runs).collect();
    rng.shuffle(&mut order);
    if order.iter().enumerate().all(|(i, &r)| i == r) {
        order.rotate_left(1);
    }
    let mut pieces = Vec::with_capacity(n);
    let mut moved = 0;
    for (pos, &r) in order.iter().enumerate() {
        let [s, e] = bounds[r];
        if pos != r {
            moved += e - s;
        }
        for i in s..e {
            pieces.push((u.units[i].clone(), i + 1 == e));
        }
    }
    let edits = vec![Edit::Reorder {
        runs: bounds,
        order,
    }];
    (assemble(u, pieces), share(moved, n), edits)
}

/// Put boilerplate around the text (`boilerplate`).
fn boilerplate(text: &str, n: usize, a: usize) -> Made {
    let header: Vec<String> = BOILERPLATE_HEADER[..a.div_ceil(2)]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let footer: Vec<String> = BOILERPLATE_FOOTER[..a / 2]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut out = header.join(edit::SEAM);
    out.push_str(edit::SEAM);
    out.push_str(text.trim());
    for f in &footer {
        out.push_str(edit::SEAM);
        out.push_str(f);
    }
    out.push('\n');
    let edits = vec![Edit::Boilerplate { header, footer }];
    (out, share(a, n), edits)
}
