//! Corpus (batch) mode, SPEC §4: every near-duplicate pair and cluster of a collection, with
//! any method — one driver, generic over [`Detector`].
//!
//! Three steps, each over plain, serialisable records, so that they can run on one machine
//! (here) or be distributed later:
//!
//! 1. **sketch** ([`sketch_corpus`]): documents are read as a stream and sketched in parallel
//!    chunks, in input order; then the method's corpus-wide preparation runs
//!    ([`Detector::prepare_corpus`]);
//! 2. **candidates** ([`find_candidates`]): the method's own join when it has one (SL+ST:
//!    exact-duplicate groups and one generalized suffix array over block keys, [`candidates`];
//!    robust SL+ST: counting witnessed sentences), else an inverted index over its keys, else
//!    every pair;
//! 3. **verify** ([`verify`]): each candidate pair that the method's bound cannot rule out is
//!    compared with the very same [`Detector::compare`] as `slst compare`, in parallel, kept by
//!    the run's [`PairRule`], and expanded to every member of the exact-duplicate groups.
//!
//! The other drivers share these steps rather than loop on their own: the index and evaluations
//! sketch with [`sketch_documents`], and every pair anyone compares goes through [`verify_pair`]
//! (one pair: the index's candidate rows) or [`verify_pairs`] (a list of pairs: an alignment
//! truth's, a Spark job's).
//!
//! The contract: the reported pairs equal those of comparing every pair ([`Candidates::All`]),
//! apart from pairs whose only common ground is held by more than `max_df` documents
//! (boilerplate, listed in the summary). Results do not depend on the thread count.

#[cfg(feature = "arrow")]
pub mod arrow;
mod cluster;
pub mod dedup;
mod groups;
pub mod passage;
mod verify;
pub mod output;
#[cfg(feature = "parquet")]
mod parquet;
mod sketched;
mod summary;

use std::collections::HashSet;
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

pub use self::cluster::clusters;
pub use self::groups::{DuplicateGroup, DuplicateGroups};
pub use self::passage::SharedPassages;
pub use self::verify::{PairResult, Verdict, verify, verify_pair, verify_pairs};
pub use crate::method::{
    BoilerplateBlock, CandidateSet, CandidateSource, Groups, suffix_array_candidates as candidates,
};

use crate::corpus::{Item, Skipped};
use crate::document::Document;
use crate::method::{Detector, PairRule};
use sketched::Sketched;

/// How candidate pairs are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Candidates {
    /// The method's join (SL+ST's suffix array, a witness count, an inverted index over keys).
    #[default]
    Index,
    /// Every pair of documents that has something to compare: the slow, obviously correct path.
    All,
}

/// A key or run held by more documents than this is boilerplate, unless a run says otherwise
/// ([`BatchConfig::max_df`]); the index caps its keys the same way.
pub const DEFAULT_MAX_DF: usize = 1000;

/// Settings of a batch run.
#[derive(Debug, Clone, PartialEq)]
pub struct BatchConfig {
    /// Which pairs are kept: the method's duplicates (default), pairs contained either way at
    /// a threshold, or every pair with a score above 0.
    pub rule: PairRule,
    /// How candidates are found.
    pub candidates: Candidates,
    /// A run or key shared by more documents than this is boilerplate (default 1000).
    pub max_df: usize,
    /// Web pages: leave out the blocks that recur on more than this many pages before
    /// sketching (holds every page in memory). Default: none.
    pub drop_boilerplate: Option<usize>,
    /// Also keep every pair that shares at least this many words in one passage
    /// ([`crate::align::Passage::shared_words`]), whatever the documents' lengths and the rule
    /// ([`passage`]): the method's blocks (robust
    /// SL+ST: with the windows of its over-long sentences) grown into passages by
    /// [`crate::align`], as `slst compare` prints them. Such pairs are reported with their
    /// passages, and those the rule alone would not keep are decided by
    /// [`crate::method::DecidedBy::Passage`]. Holds every text in memory. Default: none (off).
    pub min_shared_words: Option<usize>,
}

impl Default for BatchConfig {
    fn default() -> Self {
        BatchConfig {
            rule: PairRule::Duplicates,
            candidates: Candidates::Index,
            max_df: DEFAULT_MAX_DF,
            drop_boilerplate: None,
            min_shared_words: None,
        }
    }
}

/// What a batch run reports as it goes; the CLI draws progress bars with it. Every method has a
/// default that does nothing.
pub trait Progress: Sync {
    /// A stage starts; `total` is its number of steps when known.
    fn stage(&self, _name: &'static str, _total: Option<u64>) {}
    /// `n` more steps of the current stage are done.
    fn advance(&self, _n: u64) {}
    /// The current stage is over.
    fn finish_stage(&self) {}
}

/// A [`Progress`] that reports nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {}

/// How many documents are sketched together in parallel while streaming.
const CHUNK: usize = 512;

/// The sketched corpus: ids and sketches in input order, and what could not be read.
#[derive(Debug, Clone)]
pub struct SketchedCorpus<S> {
    /// Document ids, in input order (index = document number).
    pub ids: Vec<String>,
    /// Sketches, in input order.
    pub sketches: Vec<S>,
    /// A 128-bit hash (XXH3) of each document's text, in input order: documents with the same
    /// text are one document to the join ([`find_candidates`]).
    pub content: Vec<u128>,
    /// Documents and files skipped, with where and why.
    pub skipped: Vec<Skipped>,
    /// Documents read whose text was not valid UTF-8 and was decoded by a fallback.
    pub fallback_decoded: usize,
    /// Web pages that were read but are unusual (nesting flattened, no visible text): id,
    /// location and the note.
    pub page_notes: Vec<Skipped>,
    /// With [`BatchConfig::drop_boilerplate`]: the web-page blocks left out.
    pub boilerplate_blocks: Vec<crate::web::BoilerplateBlock>,
    /// The documents' texts, in input order, when kept ([`BatchConfig::min_shared_words`]);
    /// else empty.
    pub texts: Vec<String>,
    /// With the stop words `auto`: the id of the list chosen for each document, in input order
    /// ([`crate::text::StopWords::for_text`]); else empty.
    pub stopwords: Vec<String>,
}

impl<S> Default for SketchedCorpus<S> {
    fn default() -> Self {
        SketchedCorpus {
            ids: Vec::new(),
            sketches: Vec::new(),
            content: Vec::new(),
            skipped: Vec::new(),
            fallback_decoded: 0,
            page_notes: Vec::new(),
            boilerplate_blocks: Vec::new(),
            texts: Vec::new(),
            stopwords: Vec::new(),
        }
    }
}

/// Read every item, drop the web-page blocks that recur on more than `max_pages` pages, and
/// give the items back in their order with what was dropped. Holds every page in memory.
pub fn without_boilerplate(
    items: impl Iterator<Item = Item>,
    max_pages: usize,
) -> (Vec<Item>, Vec<crate::web::BoilerplateBlock>) {
    let mut items: Vec<Item> = items.collect();
    let mut docs: Vec<Document> = items
        .iter_mut()
        .filter_map(|i| match i {
            Item::Document(d) => Some(std::mem::replace(d, Document::new("", ""))),
            Item::Skipped(_) => None,
        })
        .collect();
    let dropped = crate::web::drop_boilerplate(&mut docs, max_pages);
    let mut docs = docs.into_iter();
    for item in &mut items {
        if let Item::Document(d) = item
            && let Some(new) = docs.next()
        {
            *d = new;
        }
    }
    (items, dropped)
}

/// Step 1: read a stream of corpus items and sketch every document, in parallel chunks, keeping
/// input order, then prepare the sketches as a corpus ([`Detector::prepare_corpus`]). A chunk
/// is read while the one before is sketched (unless called from a thread of a rayon pool, whose
/// threads then sketch each chunk after it is read). Memory holds the sketches, never more than
/// three chunks of text (being read, waiting, being sketched; unless `drop_boilerplate` is set,
/// or `keep_texts`, which keeps every document's text, as sketched, in
/// [`SketchedCorpus::texts`]).
pub fn sketch_corpus<D: Detector>(
    items: impl Iterator<Item = Item>,
    detector: &D,
    drop_boilerplate: Option<usize>,
    keep_texts: bool,
    progress: &dyn Progress,
) -> SketchedCorpus<D::Sketch> {
    let mut corpus = SketchedCorpus::default();
    let mut notes = Vec::new();
    let items = items.inspect(|item| {
        if let Item::Document(d) = item
            && let Some(seg) = &d.segmentation
        {
            notes.extend(seg.notes.iter().map(|note| Skipped {
                id: Some(d.id.clone()),
                location: d.id.clone(),
                reason: note.clone(),
            }));
        }
    });
    let items: Box<dyn Iterator<Item = Item> + '_> = match drop_boilerplate {
        Some(max_pages) => {
            let (items, dropped) = without_boilerplate(items, max_pages);
            corpus.boilerplate_blocks = dropped;
            Box::new(items.into_iter())
        }
        None => Box::new(items),
    };
    progress.stage("reading and sketching", None);
    let sketched = if rayon::current_thread_index().is_some() {
        // Called from a thread of a rayon pool (a library caller's `install`, with its own
        // thread count): a thread started here would sketch on the global pool instead, so the
        // pool's threads sketch each chunk once it is read.
        let mut sketched = Sketched::new(detector, keep_texts);
        read_chunks(items, &mut corpus, |chunk| {
            sketched.add(chunk, detector, progress);
            true
        });
        sketched
    } else {
        // Reading runs on this thread while the previous chunk is sketched on the pool, handed
        // over by a channel that holds one chunk more: reading (parsing JSON lines or SGML,
        // inflating gzip, laying out HTML) is one thread's work, and it does not leave the
        // pool idle. The chunks are sketched in the order they are read, so the sketches keep
        // input order.
        let (sender, receiver) = std::sync::mpsc::sync_channel::<Vec<Document>>(1);
        std::thread::scope(|scope| {
            let sketcher = scope.spawn(move || {
                let mut sketched = Sketched::new(detector, keep_texts);
                for chunk in receiver {
                    sketched.add(chunk, detector, progress);
                }
                sketched
            });
            // The sketcher stops receiving only by panicking, which the join below passes on.
            read_chunks(items, &mut corpus, |chunk| sender.send(chunk).is_ok());
            drop(sender);
            sketcher
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        })
    };
    let s = sketched;
    (corpus.ids, corpus.sketches, corpus.content) = (s.ids, s.sketches, s.content);
    (corpus.texts, corpus.stopwords) = (s.texts, s.stopwords);
    corpus.page_notes = notes;
    // Corpus-wide adjustments (SpotSigs' IDF band, the robust mode's term order).
    detector.prepare_corpus(&mut corpus.sketches);
    release_free_memory();
    progress.finish_stage();
    corpus
}

/// Reads `items` into chunks of [`CHUNK`] documents, handing each full chunk and the last one
/// to `hand` (which returns false to stop reading), and keeps the skipped items and the count
/// of documents decoded by fallback in `corpus`.
fn read_chunks<S>(
    items: impl Iterator<Item = Item>,
    corpus: &mut SketchedCorpus<S>,
    mut hand: impl FnMut(Vec<Document>) -> bool,
) {
    let mut chunk: Vec<Document> = Vec::with_capacity(CHUNK);
    for item in items {
        match item {
            Item::Document(doc) => {
                corpus.fallback_decoded += usize::from(doc.encoding.is_fallback());
                chunk.push(doc);
                if chunk.len() == CHUNK {
                    let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK));
                    if !hand(full) {
                        return;
                    }
                }
            }
            Item::Skipped(s) => corpus.skipped.push(s),
        }
    }
    if !chunk.is_empty() {
        hand(chunk);
    }
}

/// The sketches of `docs`, in order, made in parallel on the current pool: what every driver
/// (a corpus run, the index, an evaluation) sketches documents with.
pub fn sketch_documents<D: Detector>(detector: &D, docs: &[Document]) -> Vec<D::Sketch> {
    docs.par_iter().map(|d| detector.sketch(d)).collect()
}

/// Hands the heap's free pages back to the system. Sketching leaves freed working memory among
/// the sketches kept (a robust corpus's 64-bit term ids, replaced by 32-bit ranks when the corpus
/// is prepared): the allocator keeps those pages, so they would count in every later stage's
/// memory.
fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory of glibc's heaps to the system; it touches
    // no memory in use.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The CPU time this process has used so far, user and system over all its threads, in
/// seconds (to the microsecond); `None` where the system does not tell it.
pub fn process_cpu_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: getrusage writes one `rusage` through the pointer, which points to one.
        let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) };
        if rc != 0 {
            return None;
        }
        // SAFETY: getrusage returned 0, so it filled the struct (all of it plain integers,
        // already valid as zeroed).
        let usage = unsafe { usage.assume_init() };
        let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
        Some(seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
    #[cfg(not(unix))]
    None
}

/// The items with every document whose id an earlier document has turned into a skipped item.
/// Ids name documents in every output, so each must be unique: two files that both number
/// their records from `d0` would otherwise give the pair (d0, d0).
pub fn unique_ids(items: impl Iterator<Item = Item>) -> impl Iterator<Item = Item> {
    unique_ids_of(items, |item| item)
}

/// [`unique_ids`] over values that each hold an item (`item` reaches it): the values in order,
/// each document whose id an earlier document has turned into a skipped item.
pub fn unique_ids_of<T>(
    items: impl Iterator<Item = T>,
    item: impl Fn(&mut T) -> &mut Item,
) -> impl Iterator<Item = T> {
    let mut seen: HashSet<String> = HashSet::new();
    items.map(move |mut value| {
        let slot = item(&mut value);
        if let Item::Document(doc) = slot
            && !seen.insert(doc.id.clone())
        {
            let id = std::mem::take(&mut doc.id);
            *slot = Item::Skipped(Skipped {
                id: Some(id.clone()),
                location: id,
                reason:
                    "the id of an earlier document: ids must be unique, this document is left out"
                        .into(),
            });
        }
        value
    })
}

/// Step 2: the candidate pairs of a sketched corpus under `config`: with [`Candidates::Index`],
/// the method's own join, else pairs sharing one of its keys held by at most `max_df`
/// documents ([`Detector::join_keys`] when every scored pair is kept, else
/// [`Detector::duplicate_keys`]), else every pair; with [`Candidates::All`], every pair of
/// documents that has something to compare.
///
/// With `content`, a hash of each document's text ([`SketchedCorpus::content`]; empty when not
/// known), documents with the same text are collapsed before the join: it sees one of each
/// (the earliest), and they form the set's exact-duplicate groups, which [`verify`] expands.
/// Equal texts compare equal with any document, so this changes no comparison; a key's
/// document frequency then counts each text once.
pub fn find_candidates<D: Detector>(
    detector: &D,
    sketches: &[D::Sketch],
    content: &[u128],
    config: &BatchConfig,
) -> CandidateSet {
    let n = sketches.len();
    if config.candidates == Candidates::All {
        // A document without a unit to compare may still seed passages (robust SL+ST's windows
        // of over-long sentences).
        let passages = config.min_shared_words.is_some();
        return CandidateSet::all_pairs(n, |i| !passages && detector.is_empty(&sketches[i]));
    }
    let (groups, seen) = if content.len() == n {
        Groups::of_content(content, |i| !detector.is_empty(&sketches[i]))
    } else {
        (Groups::new(n), (0..n).collect())
    };
    let refs: Vec<&D::Sketch> = seen.iter().map(|&i| &sketches[i]).collect();
    let mut set = join(detector, &refs, config);
    if groups.groups().is_empty() {
        // Every document was seen: the join's numbers are the documents'.
        return set;
    }
    for pair in &mut set.pairs {
        *pair = (seen[pair.0], seen[pair.1]);
    }
    for block in &mut set.boilerplate {
        block.document = seen[block.document];
    }
    set.groups = groups.lift(&seen, &set.groups);
    set
}

/// [`find_candidates`] over `sketches` as they are, with [`Candidates::Index`].
/// With [`BatchConfig::min_shared_words`], also every pair that may share a seed of a passage
/// ([`passage`]).
fn join<D: Detector>(detector: &D, refs: &[&D::Sketch], config: &BatchConfig) -> CandidateSet {
    let set = join_by(detector, refs, config.rule, config.max_df);
    if config.min_shared_words.is_none() {
        return set;
    }
    let seeded = detector
        .seed_candidates(refs, config.max_df)
        .unwrap_or_else(|| join_by(detector, refs, PairRule::Scored, config.max_df));
    passage::with_seeded(set, seeded)
}

/// The candidates `rule` may keep: the method's own join, else its keys', else every pair.
fn join_by<D: Detector>(
    detector: &D,
    refs: &[&D::Sketch],
    rule: PairRule,
    max_df: usize,
) -> CandidateSet {
    let n = refs.len();
    let all = || CandidateSet::all_pairs(n, |i| detector.is_empty(refs[i]));
    if let Some(set) = detector.corpus_candidates(refs, rule, max_df) {
        return set;
    }
    let keys: Option<Vec<Vec<u64>>> = refs
        .par_iter()
        .map(|s| match rule {
            PairRule::Scored => detector.join_keys(s),
            _ => detector.duplicate_keys(s),
        })
        .collect();
    match keys {
        Some(keys) => {
            let keys: Vec<&[u64]> = keys.iter().map(Vec::as_slice).collect();
            let (pairs, capped) = join_candidates(&keys, max_df);
            CandidateSet::from_pairs(n, pairs, capped, CandidateSource::JoinKeys)
        }
        None => all(),
    }
}

/// Pairs of documents (by index into `keys`) sharing a join key held by at most `max_df`
/// documents, sorted, without repeats; and the number of keys left out for being held by more.
pub fn join_candidates(keys: &[&[u64]], max_df: usize) -> (Vec<(usize, usize)>, usize) {
    let mut postings: Vec<(u64, u32)> = keys
        .iter()
        .enumerate()
        .flat_map(|(i, d)| d.iter().map(move |&k| (k, i as u32)))
        .collect();
    postings.par_sort_unstable();
    postings.dedup();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut capped = 0;
    for list in postings.chunk_by(|x, y| x.0 == y.0) {
        if list.len() > max_df {
            capped += 1;
            continue;
        }
        for (i, &(_, a)) in list.iter().enumerate() {
            pairs.extend(list[i + 1..].iter().map(|&(_, b)| (a as usize, b as usize)));
        }
    }
    pairs.par_sort_unstable();
    pairs.dedup();
    (pairs, capped)
}

/// Seconds spent in each stage: wall-clock time, or (in [`BatchResult::cpu_times`]) CPU time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct StageTimes {
    /// Reading and sketching.
    pub sketch: f64,
    /// Candidate generation.
    pub candidates: f64,
    /// Scoring candidate pairs.
    pub verify: f64,
}

/// Everything a batch run found.
pub struct BatchResult<D: Detector> {
    /// The sketched corpus.
    pub corpus: SketchedCorpus<D::Sketch>,
    /// The candidates (with exact-duplicate groups and boilerplate).
    pub candidates: CandidateSet,
    /// The kept pairs, sorted by (a, b).
    pub pairs: Vec<PairResult<D::Evidence>>,
    /// Candidate pairs compared (the rest could not be kept: see [`Detector::may_be_reported`]).
    pub pairs_compared: usize,
    /// Time per stage.
    pub times: StageTimes,
    /// The process's CPU time per stage (user and system, all its threads), where the system
    /// tells it (Unix): on a shared machine, where other work slows the wall clock, what a
    /// stage cost. A library caller's own threads count too, when they run beside the stage.
    pub cpu_times: Option<StageTimes>,
}

impl<D: Detector> BatchResult<D> {
    /// The clusters: connected components of the kept pairs but templates ([`clusters`],
    /// [`PairResult::template`]).
    pub fn clusters(&self) -> Vec<Vec<usize>> {
        clusters(
            self.corpus.ids.len(),
            self.pairs
                .iter()
                .filter(|p| p.template().is_none())
                .map(|p| (p.a, p.b)),
        )
    }

    /// Reported pairs that are templates ([`PairResult::template`]).
    pub fn templates(&self) -> usize {
        self.pairs.iter().filter(|p| p.template().is_some()).count()
    }
}

/// Run all three steps over a stream of corpus items.
///
/// # Example
/// ```
/// use slst::batch::{run, BatchConfig, Silent};
/// use slst::corpus::Item;
/// use slst::{Document, SlSt, SlstConfig};
/// let texts = [
///     "Stocks rose sharply on Monday. Bond yields fell to a low. Oil was flat.",
///     "Gold gained in late trade. The dollar weakened slightly.",
///     "Stocks rose sharply on Monday. Bond yields fell to a low. Oil was flat. Rain fell.",
/// ];
/// let items = texts.iter().enumerate().map(|(i, t)| Item::Document(Document::new(format!("d{i}"), *t)));
/// let result = run(items, &SlSt::new(SlstConfig::default())?, &BatchConfig::default(), &Silent);
/// assert_eq!(result.pairs.len(), 1);
/// assert_eq!((result.pairs[0].a, result.pairs[0].b), (0, 2));
/// # Ok::<(), slst::Error>(())
/// ```
pub fn run<D: Detector>(
    items: impl Iterator<Item = Item>,
    detector: &D,
    config: &BatchConfig,
    progress: &dyn Progress,
) -> BatchResult<D> {
    let started = Mark::now();
    let corpus = sketch_corpus(
        unique_ids(items),
        detector,
        config.drop_boilerplate,
        config.min_shared_words.is_some(),
        progress,
    );
    let sketched = Mark::now();
    progress.stage("finding candidate pairs", None);
    let candidate_set = find_candidates(detector, &corpus.sketches, &corpus.content, config);
    progress.finish_stage();
    let found = Mark::now();
    let shared = config.min_shared_words.map(|min_words| SharedPassages {
        texts: &corpus.texts,
        min_words,
    });
    let (pairs, pairs_compared) = verify(
        detector,
        &corpus.sketches,
        &candidate_set,
        config.rule,
        shared.as_ref(),
        progress,
    );
    let marks = [started, sketched, found, Mark::now()];
    let times = StageTimes::between(marks.map(|m| (m.wall - started.wall).as_secs_f64()));
    let cpu_times = match marks.map(|m| m.cpu) {
        [Some(a), Some(b), Some(c), Some(d)] => Some(StageTimes::between([a, b, c, d])),
        _ => None,
    };
    BatchResult {
        corpus,
        candidates: candidate_set,
        pairs,
        pairs_compared,
        times,
        cpu_times,
    }
}

/// The clocks at a stage boundary: the wall clock, and the process's CPU time where the system
/// tells it.
#[derive(Clone, Copy)]
struct Mark {
    wall: Instant,
    cpu: Option<f64>,
}

impl Mark {
    fn now() -> Self {
        Mark {
            wall: Instant::now(),
            cpu: process_cpu_seconds(),
        }
    }
}

impl StageTimes {
    /// The stages' times from one clock's readings, in seconds, at their four boundaries.
    fn between([a, b, c, d]: [f64; 4]) -> StageTimes {
        StageTimes {
            sketch: b - a,
            candidates: c - b,
            verify: d - c,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::Comparison;

    /// The MD5 control, noting the size of the rayon pool each sketch runs on.
    struct PoolNoting {
        inner: crate::method::Md5,
        pools: std::sync::Mutex<Vec<usize>>,
    }

    impl Detector for PoolNoting {
        type Sketch = <crate::method::Md5 as Detector>::Sketch;
        type Evidence = <crate::method::Md5 as Detector>::Evidence;
        type SketchView = <crate::method::Md5 as Detector>::SketchView;
        fn method(&self) -> crate::method::Method {
            self.inner.method()
        }
        fn params(&self) -> crate::method::Params {
            self.inner.params()
        }
        fn rule(&self) -> String {
            self.inner.rule()
        }
        fn sketch(&self, doc: &Document) -> Self::Sketch {
            self.pools
                .lock()
                .unwrap()
                .push(rayon::current_num_threads());
            self.inner.sketch(doc)
        }
        fn compare(&self, a: &Self::Sketch, b: &Self::Sketch) -> Comparison<Self::Evidence> {
            self.inner.compare(a, b)
        }
        fn sketch_view(&self, sketch: &Self::Sketch) -> Self::SketchView {
            self.inner.sketch_view(sketch)
        }
    }

    /// The CPU clock of the batch summary counts the process's work.
    #[cfg(unix)]
    #[test]
    fn process_cpu_time_moves_with_work() {
        let start = process_cpu_seconds().expect("the CPU time, on Unix");
        // Spin until 20 ms of CPU time are counted, for at most 20 s of wall time.
        let wall = std::time::Instant::now();
        let mut x = 1u64;
        let spent = loop {
            for _ in 0..100_000 {
                x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
            }
            let spent = process_cpu_seconds().unwrap() - start;
            if spent >= 0.02 || wall.elapsed().as_secs() >= 20 {
                break spent;
            }
        };
        assert!(
            spent >= 0.02,
            "{spent} s of CPU counted in {:?}",
            wall.elapsed()
        );
    }

    /// A library caller that runs a corpus in a pool of its own (as the Python package does for
    /// `threads=`) gets its documents sketched on that pool, not on the global one; the
    /// sketches are the same, in input order, from inside a pool or not.
    #[test]
    fn documents_are_sketched_on_the_callers_pool() {
        let detector = PoolNoting {
            inner: crate::method::Md5::new(Default::default()).unwrap(),
            pools: Default::default(),
        };
        // Documents across three chunks, and one item the reader skipped among them.
        let docs = |n: usize| {
            let skipped = Skipped {
                id: None,
                location: "bad.txt".to_string(),
                reason: "not UTF-8".to_string(),
            };
            (0..n)
                .map(|i| Item::Document(Document::new(format!("d{i}"), format!("Text {i}."))))
                .chain(std::iter::once(Item::Skipped(skipped)))
                .chain(std::iter::once(Item::Document(Document::new(
                    "last", "End.",
                ))))
        };
        let n = 2 * CHUNK + 3;
        // A size the global pool (where a thread outside every pool sketches) does not have.
        let threads = rayon::current_num_threads() + 1;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let inside = pool.install(|| sketch_corpus(docs(n), &detector, None, false, &Silent));
        let pools = std::mem::take(&mut *detector.pools.lock().unwrap());
        assert_eq!(pools.len(), n + 1);
        assert!(
            pools.iter().all(|&p| p == threads),
            "sketched on other pools: {pools:?}"
        );
        let outside = sketch_corpus(docs(n), &detector, None, false, &Silent);
        assert_eq!(inside.ids, outside.ids);
        assert_eq!(inside.sketches, outside.sketches);
        assert_eq!(inside.ids[n - 1], format!("d{}", n - 1));
        assert_eq!(inside.ids[n], "last");
        assert_eq!((inside.skipped.len(), outside.skipped.len()), (1, 1));
    }

    #[test]
    fn shared_join_keys_make_candidates_and_frequent_keys_are_capped() {
        let (pairs, capped) = join_candidates(&[&[1, 2], &[2, 3], &[3, 9], &[9]], 2);
        assert_eq!(pairs, [(0, 1), (1, 2), (2, 3)]);
        assert_eq!(capped, 0);
        let (pairs, capped) = join_candidates(&[&[7], &[7], &[7], &[1], &[1]], 2);
        assert_eq!((pairs, capped), (vec![(3, 4)], 1));
    }
}
