//! Corpus keys of robust SL+ST (module docs of [`super`]): pair keys and single keys, each a
//! *slot* with the sentences it witnesses, under a corpus-wide term order; and the bound on the
//! sentences in blocks that rules pairs out before they are compared.

use std::sync::{Arc, OnceLock};

mod hashing;
mod ranking;

use self::hashing::{KEPT_PICKS, pick, picks};
pub(super) use self::hashing::{PAIR_SEED, SINGLE_SEED, pair_key};
#[cfg(test)]
pub(super) use self::ranking::{DF_BATCH, document_frequencies};
use super::matching::prefix_len;
use super::words::Words;
use super::{RobustProfile, RobustSlst};

/// The single keys of one long sentence, its term ids in the global order: two sentences with
/// term Jaccard ≥ τ1 share one.
///
/// J(x, y) ≥ τ1 means an overlap o ≥ α_x = ⌈τ1·|x|⌉ (and ≥ α_y). When o ≥ 2, the two smallest
/// common terms (in the global order) both lie among the first |x| − α_x + 2 terms of x, and
/// likewise of y: every *pair* of terms in that prefix is a key — far more selective than one
/// term. o can be 1 only when α_x = α_y = 1; such sentences also key on each term of their
/// ordinary prefix.
///
/// Each key is given as what it is made of, with its place among them, when its first term is
/// taken ([`KeyTerms::first`]); returns how many keys there are.
pub(super) fn single_keys<T: Copy + Into<u64>>(
    ordered: &[T],
    tau1: f64,
    take: impl Fn(u64) -> bool,
    mut visit: impl FnMut(usize, KeyTerms),
) -> usize {
    let mut j = 0;
    let alpha = (ordered.len() + 1).saturating_sub(prefix_len(ordered.len(), tau1));
    if alpha <= 1 {
        for &t in ordered.iter().take(prefix_len(ordered.len(), tau1)) {
            if take(t.into()) {
                visit(j, KeyTerms::new(t, t, SINGLE_SEED));
            }
            j += 1;
        }
    }
    let n = (ordered.len() + 2).saturating_sub(alpha).min(ordered.len());
    for x in 0..n {
        if take(ordered[x].into()) {
            for y in x + 1..n {
                visit(
                    j + y - (x + 1),
                    KeyTerms::new(ordered[x], ordered[y], SINGLE_SEED),
                );
            }
        }
        j += n - (x + 1);
    }
    j
}

/// What a key is made of: an ordered pair of terms (ids or ranks) and a seed. Its key is their
/// [`pair_key`]; what makes a key is cheap to list, hashing it is not, so a corpus join that
/// sorts its keys in passes picks each pass's keys by their first term and hashes only those.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct KeyTerms {
    first: u64,
    second: u64,
    seed: u64,
}

impl KeyTerms {
    fn new<T: Into<u64>>(first: T, second: T, seed: u64) -> Self {
        KeyTerms {
            first: first.into(),
            second: second.into(),
            seed,
        }
    }

    /// The key.
    pub(super) fn key(self) -> u64 {
        pair_key(self.first, self.second, self.seed)
    }

    /// The first term: a pass of the postings build takes or leaves every key beginning with
    /// it together.
    pub(super) fn first(self) -> u64 {
        self.first
    }
}

/// A profile under a corpus-wide term order: terms are *ranks* (0 = the rarest term of the
/// corpus, ties by id; with the anchor rule, 0 = the smallest id, i.e. the longest term), so
/// that a sentence's key terms (prefix or anchors) are its smallest ranks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CorpusView {
    /// Each sentence's key-term ranks, ascending, as many as its join keys read
    /// ([`RobustSlst::keyed_terms`]). The keys themselves ([`CorpusView::slots`], ~50 per
    /// sentence) are made again where they are needed rather than kept: they would be most of a
    /// corpus run's memory.
    pub(super) ranks: KeyRanks,
    /// Each sentence's key terms as (sentence, place among them), made from `ranks` when first
    /// asked for ([`CorpusView::key_places`]).
    pub(super) key_places: PlacesCache,
    /// The document's word keys and vocabulary size ([`super::words`]).
    pub(super) words: Words,
    /// The corpus's distinct term ids in order, shared by every profile of the corpus: what
    /// the profile's term ranks index ([`super::TermList`]).
    pub(super) ids: Arc<[u64]>,
    /// [`RobustProfile::lead`] as a term rank.
    pub(super) lead: Option<u32>,
    /// Per sentence, `pair_keys` places among its key terms: those of the terms its min-wise
    /// hashes pick (or [`NO_PICK`]), made on the terms' ids, so that a step's sampled keys pair
    /// the same terms as in a profile of ids (the Spark job's, the index's) — hashing the ranks
    /// would pick other terms, and the witness keys of a sentence whose anchors differ would
    /// differ. Empty without sampled pair keys.
    pub(super) picks: Box<[u8]>,
    /// The words of [`RobustProfile::subject`] (not its figures) as term ranks, sorted.
    pub(super) subject_words: Box<[u32]>,
}

/// Where a view finds each sentence's key-term ranks ([`CorpusView::ranks`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum KeyRanks {
    /// Its own copy: sentence `i`'s are `ranks[starts[i]..starts[i + 1]]`, ranks in the join's
    /// order (by document frequency for prefixes, by id for anchors).
    Own {
        ranks: Box<[u32]>,
        starts: Box<[u32]>,
    },
    /// Under the anchor rule, in a corpus whose profiles hold term ranks: a sentence's anchors
    /// are its first `anchors` term ranks, which order as the ids do, the anchors' own order; so
    /// they are read there instead of copied (24 bytes a sentence).
    Terms { anchors: usize },
}

/// A view's key places ([`CorpusView::key_places`]), each (sentence << bits | place among the
/// sentence's key terms): in two bytes where the document's sentences and key-term counts fit
/// (anchors take 3 bits, so up to 8,192 sentences), else in four (16 bits each). Kept as
/// (rank, sentence) pairs, eight bytes each, they were a tenth of a sketched corpus's memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum KeyPlaces {
    Short { places: Box<[u16]>, bits: u32 },
    Long(Box<[u32]>),
}

/// [`CorpusView::key_places`] once made. What it holds follows from the view's other fields, so
/// two views are equal whether or not either has made it yet.
#[derive(Debug, Clone, Default)]
pub(super) struct PlacesCache(pub(super) OnceLock<Option<KeyPlaces>>);

impl PartialEq for PlacesCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for PlacesCache {}

impl KeyPlaces {
    /// The places of `p`'s key terms under view `v`: each sentence's first
    /// [`RobustSlst::key_terms`] ranks. `None` when the document has more sentences than 16 bits
    /// number.
    fn of(d: &RobustSlst, v: &CorpusView, p: &RobustProfile) -> Option<KeyPlaces> {
        if p.len() > 1 << 16 {
            return None;
        }
        // (rank << 32 | sentence << 16 | place), sorted.
        let mut keyed: Vec<u64> = Vec::new();
        for (i, s) in p.sentences.iter().enumerate() {
            let keys = &v.ranks_of(p, i)[..d.key_terms(s.size())];
            let sentence = ((i as u64) & 0xffff) << 16;
            keyed.extend(
                (0..)
                    .zip(keys)
                    .map(|(k, &r)| (r as u64) << 32 | sentence | k),
            );
        }
        keyed.sort_unstable();
        // Places in two bytes when every (sentence, place) fits, else in four: every place
        // among a sentence's (at most its size, a u16) fits in 16 bits, and so must every
        // sentence.
        let most = p.sentences.iter().map(|s| d.key_terms(s.size())).max();
        let bits = usize::BITS - most.unwrap_or(0).saturating_sub(1).leading_zeros();
        Some(if bits < 16 && p.len() <= 1 << (16 - bits) {
            let short = |k: u64| ((k as u32 >> 16) << bits | k as u32 & 0xffff) as u16;
            KeyPlaces::Short {
                places: keyed.iter().map(|&k| short(k)).collect(),
                bits,
            }
        } else {
            KeyPlaces::Long(keyed.iter().map(|&k| k as u32).collect())
        })
    }

    /// Each key term as (its rank, its sentence), in the order kept.
    fn ranked(&self, v: &CorpusView, p: &RobustProfile) -> Vec<(u32, u32)> {
        let entry = |k: u32, bits: u32| {
            let u = (k >> bits) as usize;
            (v.ranks_of(p, u)[(k & ((1 << bits) - 1)) as usize], u as u32)
        };
        match self {
            KeyPlaces::Short { places, bits } => {
                places.iter().map(|&k| entry(k as u32, *bits)).collect()
            }
            KeyPlaces::Long(places) => places.iter().map(|&k| entry(k, 16)).collect(),
        }
    }
}

/// One join key of a document and the sentences it witnesses: a sentence that lies in a block
/// of a comparison has a witness key the other document shares (module docs). `code` is
/// `2·i` for a key of sentence `i` alone (a single key) and `2·i + 1` for a key of the pair of
/// sentences `i` and `i + 1` (a pair key): in code order, sentences are witnessed in text order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Slot {
    pub(super) key: u64,
    pub(super) code: u32,
}

impl Slot {
    /// The units this slot witnesses: `i`, or `i` and `i + 1`.
    pub(super) fn units(self) -> std::ops::Range<usize> {
        let i = (self.code >> 1) as usize;
        i..i + 1 + (self.code & 1) as usize
    }

    /// The lengths of the units it witnesses in `p` (a single key's unit twice), capped at 255
    /// ([`crate::method::Witness`]).
    pub(super) fn lengths(self, p: &RobustProfile) -> [u8; 2] {
        let units = self.units();
        let length = |u: usize| p.sentences[u].length.min(255) as u8;
        [length(units.start), length(units.end - 1)]
    }
}

impl CorpusView {
    /// The join keys of the profile this view was made of, as [`Slot`]s in code order.
    pub(super) fn slots(&self, d: &RobustSlst, p: &RobustProfile) -> Vec<Slot> {
        d.slots_of::<true, true, _>(p, |i| self.ranks_of(p, i), self.picks())
    }

    /// [`CorpusView::picks`], if the view keeps them.
    pub(super) fn picks(&self) -> Option<&[u8]> {
        (!self.picks.is_empty()).then_some(&self.picks[..])
    }

    /// The slots a corpus join walks, each key 0 (the walk needs only which sentences each
    /// slot witnesses: no key is hashed); with the single keys (`singles`) or without, when the
    /// join keeps those per class of sentences ([`super::classes`]). The postings build lists
    /// the same slots with their keys ([`CorpusView::each_join_slot`]).
    pub(super) fn join_slots(&self, d: &RobustSlst, p: &RobustProfile, singles: bool) -> Vec<Slot> {
        let ranks = |i| self.ranks_of(p, i);
        if singles {
            d.slots_of::<false, true, _>(p, ranks, self.picks())
        } else {
            d.slots_of::<false, false, _>(p, ranks, self.picks())
        }
    }

    /// [`RobustSlst::each_slot`] over the slots [`CorpusView::join_slots`] makes (the single
    /// keys among them or not): for each one whose first term (a rank) is taken, its place
    /// among them, what it is made of and its code. Returns how many slots there are.
    pub(super) fn each_join_slot(
        &self,
        d: &RobustSlst,
        p: &RobustProfile,
        singles: bool,
        take: impl Fn(u64) -> bool,
        visit: impl FnMut(usize, KeyTerms, u32),
    ) -> usize {
        let ranks = |i| self.ranks_of(p, i);
        if singles {
            d.each_slot::<true, _>(p, ranks, self.picks(), take, visit)
        } else {
            d.each_slot::<false, _>(p, ranks, self.picks(), take, visit)
        }
    }

    /// Each sentence's key terms (prefix or anchors: the first [`RobustSlst::key_terms`] of its
    /// ranks) as (sentence, place among them), sorted by rank, then sentence: what
    /// [`RobustSlst::max_matched`] merges. `None` when the document has more sentences than 16
    /// bits number: the bound is then not known. Made at the first call, by the first bound
    /// that needs it: a corpus run's join, which does not, then holds none.
    pub(super) fn key_places(&self, d: &RobustSlst, p: &RobustProfile) -> Option<&KeyPlaces> {
        self.key_places
            .0
            .get_or_init(|| KeyPlaces::of(d, self, p))
            .as_ref()
    }

    /// Sentence `i`'s key-term ranks; `p` is the profile this view was made of.
    #[inline]
    pub(super) fn ranks_of<'a>(&'a self, p: &'a RobustProfile, i: usize) -> &'a [u32] {
        match &self.ranks {
            KeyRanks::Own { ranks, starts } => &ranks[starts[i] as usize..starts[i + 1] as usize],
            KeyRanks::Terms { anchors } => {
                let s = &p.sentences[i];
                &p.terms_of::<u32>(s)[..s.size().min(*anchors)]
            }
        }
    }
}

impl RobustSlst {
    /// How many of a sentence's terms, in the global order, any matching sentence shares one
    /// of: its anchors when the anchor rule is on, else its prefix.
    pub(super) fn key_terms(&self, size: usize) -> usize {
        match self.config.anchor_terms {
            0 => prefix_len(size, self.config.term_similarity),
            k => k.min(size),
        }
    }

    /// How many of a sentence's terms, in the global order, its join keys are made of: its
    /// anchors with the anchor rule, else all (single keys may read past the prefix).
    pub(super) fn keyed_terms(&self, size: usize) -> usize {
        match self.config.anchor_terms {
            0 => size,
            k => k.min(size),
        }
    }

    /// The join keys of a profile whose sentences' terms, sorted in the global order, begin
    /// with `ordered(i)` (at least [`RobustSlst::keyed_terms`] of them), as [`Slot`]s in code
    /// order; without `KEYED`, each key is 0 (see [`CorpusView::join_slots`]); without
    /// `SINGLES`, only the pair keys (the join's, when it keeps single keys per class).
    /// `picks`: [`CorpusView::picks`] when `ordered` gives corpus ranks (else the terms are ids,
    /// and picked by their own hashes).
    pub(super) fn slots_of<'a, const KEYED: bool, const SINGLES: bool, T: Copy + Into<u64> + 'a>(
        &self,
        p: &RobustProfile,
        ordered: impl Fn(usize) -> &'a [T],
        picks: Option<&[u8]>,
    ) -> Vec<Slot> {
        // Each sentence's size is its whole term set's, whatever `ordered` holds of it.
        let key_terms = |i: usize| {
            if i < p.len() {
                self.key_terms(p.sentences[i].size())
            } else {
                0
            }
        };
        // Sized once, as the anchor rule makes them (a hint otherwise), instead of grown by
        // doubling: this runs several times per document and corpus run.
        let mut slots = Vec::with_capacity(
            (0..p.len())
                .map(|i| {
                    let k = key_terms(i);
                    let singles = if SINGLES {
                        k * k.saturating_sub(1) / 2
                    } else {
                        0
                    };
                    let pairs = match self.config.pair_keys {
                        0 => k * key_terms(i + 1),
                        n if key_terms(i + 1) > 0 => n,
                        _ => 0,
                    };
                    singles + pairs
                })
                .sum(),
        );
        let count = self.each_slot::<SINGLES, T>(
            p,
            ordered,
            picks,
            |_| true,
            |k, terms, code| {
                debug_assert_eq!(k, slots.len(), "a slot's place is its place in code order");
                let key = if KEYED { terms.key() } else { 0 };
                slots.push(Slot { key, code });
            },
        );
        debug_assert_eq!(count, slots.len());
        slots
    }

    /// Calls `visit(k, terms, code)` for each join key of a profile (as [`RobustSlst::slots_of`]
    /// makes them, with or without the single keys) whose first term is taken (`take`): `k` is
    /// its place among all the profile's slots in code order, `terms` what it is made of, `code`
    /// its [`Slot`]'s code. Nothing is hashed. `picks` as [`RobustSlst::slots_of`] reads them.
    /// Returns how many slots the profile has.
    pub(super) fn each_slot<'a, const SINGLES: bool, T: Copy + Into<u64> + 'a>(
        &self,
        p: &RobustProfile,
        ordered: impl Fn(usize) -> &'a [T],
        picks_of: Option<&[u8]>,
        take: impl Fn(u64) -> bool,
        mut visit: impl FnMut(usize, KeyTerms, u32),
    ) -> usize {
        let prefix = |i: usize| &ordered(i)[..self.key_terms(p.sentences[i].size())];
        let n = self.config.pair_keys;
        let places = |i: usize| picks_of.map(|all| &all[i * n..][..n]);
        let mut k = 0;
        // The min-wise picks of sentence `picked`, made as the second sentence of a step.
        let (mut here, mut picked) = (None, None);
        for i in 0..p.len() {
            let (single, pair) = (2 * i as u32, 2 * i as u32 + 1);
            if SINGLES {
                let s = &p.sentences[i];
                k += self.single_terms_of(ordered(i), s.length, s.size(), &take, |j, terms| {
                    visit(k + j, terms, single)
                });
            }
            if self.config.min_block <= 1 {
                // Every matching pair is a block: single keys witness every one.
                continue;
            }
            if i + 1 < p.len() && n > 0 && n <= KEPT_PICKS {
                // Each sentence's picks are made once, as the next sentence of one step and
                // kept as this sentence of the next: a listing then hashes each anchor
                // `pair_keys` times, not twice as often.
                if picked != Some(i) {
                    here = picks(prefix(i), places(i), n);
                }
                let next = picks(prefix(i + 1), places(i + 1), n);
                if let (Some(x), Some(y)) = (&here, &next) {
                    for (&x, &y) in x[..n].iter().zip(&y[..n]) {
                        if take(x) {
                            visit(k, KeyTerms::new(x, y, PAIR_SEED), pair);
                        }
                        k += 1;
                    }
                }
                (here, picked) = (next, Some(i + 1));
            } else if i + 1 < p.len() && n > 0 {
                let (here, next) = (prefix(i), prefix(i + 1));
                for h in 0..n {
                    let (Some(x), Some(y)) =
                        (pick(here, places(i), h), pick(next, places(i + 1), h))
                    else {
                        break; // a sentence without terms: no keys
                    };
                    if take(x.into()) {
                        visit(k, KeyTerms::new(x, y, PAIR_SEED), pair);
                    }
                    k += 1;
                }
            } else if i + 1 < p.len() {
                let next = prefix(i + 1);
                for &x in prefix(i) {
                    if take(x.into()) {
                        for (j, &y) in next.iter().enumerate() {
                            visit(k + j, KeyTerms::new(x, y, PAIR_SEED), pair);
                        }
                    }
                    k += next.len();
                }
            }
        }
        k
    }

    /// The single keys of one sentence of `length` terms (repeats counted) and `size` distinct
    /// ones, whose terms in the global order begin with `ordered` (at least
    /// [`RobustSlst::keyed_terms`] of them): what a sentence keys on alone depends on these
    /// three only, so sentences equal in them share every single key ([`super::join`]'s
    /// sentence classes). Without `KEYED`, each key is 0.
    pub(super) fn single_keys_of<const KEYED: bool, T: Copy + Into<u64>>(
        &self,
        ordered: &[T],
        length: u16,
        size: usize,
        mut push: impl FnMut(u64),
    ) {
        self.single_terms_of(
            ordered,
            length,
            size,
            |_| true,
            |_, terms| push(if KEYED { terms.key() } else { 0 }),
        );
    }

    /// [`RobustSlst::single_keys_of`] as what each key is made of, with its place among them,
    /// for the keys whose first term is taken; returns how many keys there are.
    fn single_terms_of<T: Copy + Into<u64>>(
        &self,
        ordered: &[T],
        length: u16,
        size: usize,
        take: impl Fn(u64) -> bool,
        mut visit: impl FnMut(usize, KeyTerms),
    ) -> usize {
        let prefix = &ordered[..self.key_terms(size)];
        if self.config.min_block <= 1 {
            // Every matching pair is a block: one prefix term suffices.
            for (j, &t) in prefix.iter().enumerate() {
                if take(t.into()) {
                    visit(j, KeyTerms::new(t, t, SINGLE_SEED));
                }
            }
            return prefix.len();
        }
        let s = self.config.single_min_terms;
        if s == 0 || (length as usize) < s {
            return 0;
        }
        if self.config.anchor_terms == 0 {
            return single_keys(&ordered[..size], self.config.single_similarity, take, visit);
        }
        // A single-pair block shares two anchors: every pair of them is a key.
        let mut j = 0;
        for (x, &p) in prefix.iter().enumerate() {
            let rest = &prefix[x + 1..];
            if take(p.into()) {
                for (dy, &q) in rest.iter().enumerate() {
                    visit(j + dy, KeyTerms::new(p, q, SINGLE_SEED));
                }
            }
            j += rest.len();
        }
        j
    }

    /// Join keys from slots: sorted, without repeats.
    pub(super) fn keys_from(slots: &[Slot]) -> Vec<u64> {
        let mut keys: Vec<u64> = slots.iter().map(|s| s.key).collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// An upper bound on the sentences in blocks (per side) of `a` against `b`, or `None` when
    /// the corpus prefixes are not set ([`Detector::prepare_corpus`] has not run).
    ///
    /// A sentence lies in a block only if it matches some sentence of the other side, and two
    /// matching sentences differ in length by at most δ and share a key term: a prefix term
    /// under the corpus order (J ≥ τ, see the module docs), or with the anchor rule an anchor.
    /// So the number of sentences of A with such a partner in B bounds the matched sentences,
    /// and so does the number of B's; the bound is the smaller of the two. Cost: one merge of
    /// the two sorted key-term lists.
    pub(super) fn max_matched(&self, a: &RobustProfile, b: &RobustProfile) -> Option<usize> {
        let (x, y) = (a.corpus.as_deref()?, b.corpus.as_deref()?);
        let (xp, yp) = (x.key_places(self, a)?, y.key_places(self, b)?);
        let delta = self.config.length_tolerance;
        // Sentences with a possible partner, as bit sets (on the stack for short documents).
        const WORDS: usize = 8;
        let (mut small_a, mut small_b) = ([0u64; WORDS], [0u64; WORDS]);
        let (mut large_a, mut large_b) = (Vec::new(), Vec::new());
        let in_a: &mut [u64] = if a.len() <= 64 * WORDS {
            &mut small_a
        } else {
            large_a.resize(a.len().div_ceil(64), 0);
            &mut large_a
        };
        let in_b: &mut [u64] = if b.len() <= 64 * WORDS {
            &mut small_b
        } else {
            large_b.resize(b.len().div_ceil(64), 0);
            &mut large_b
        };
        // Each key term's rank (what the places are sorted by) and sentence, read once.
        let (xp, yp) = (xp.ranked(x, a), yp.ranked(y, b));
        let (xr, yr) = (|i: usize| xp[i].0, |j: usize| yp[j].0);
        let (mut i, mut j) = (0, 0);
        while i < xp.len() && j < yp.len() {
            let (p, q) = (xr(i), yr(j));
            if p != q {
                i += usize::from(p < q);
                j += usize::from(q < p);
                continue;
            }
            let ie = i + (i..xp.len()).take_while(|&k| xr(k) == p).count();
            let je = j + (j..yp.len()).take_while(|&k| yr(k) == p).count();
            for &(_, u) in &xp[i..ie] {
                let u = u as usize;
                let lu = a.sentences[u].length;
                for &(_, v) in &yp[j..je] {
                    let v = v as usize;
                    if lu.abs_diff(b.sentences[v].length) as usize <= delta {
                        in_a[u / 64] |= 1 << (u % 64);
                        in_b[v / 64] |= 1 << (v % 64);
                    }
                }
            }
            i = ie;
            j = je;
        }
        let count = |v: &[u64]| v.iter().map(|w| w.count_ones() as usize).sum::<usize>();
        Some(count(in_a).min(count(in_b)))
    }
}
