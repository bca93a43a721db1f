//! # slst — near-duplicate documents and reused text, by sentence structure
//!
//! slst finds near-duplicate documents with **SL+ST** (sentence length + suffix tree; Feng Jinbo,
//! 2015): each document becomes a string with one symbol per sentence — the sentence's length in
//! terms after stop-word removal, in base 36 — and each sentence keeps its first two terms. A
//! suffix structure finds the common runs of sentences of two documents, the runs are verified on
//! the leading terms, and the Jaccard coefficient over the sentences in verified blocks says how
//! alike the two documents are. Every reported block carries sentence indices and byte spans, so a
//! person can see *why* two documents were matched.
//!
//! ## The pipeline
//! Each stage is a module. They are listed — here and in the source — in layers: a module uses
//! only the modules before it (and [`error`], below them all), so dependencies point one way and
//! no two modules import each other. A piece that several layers share lives in the lowest one
//! that needs it: a web page's blocks beside [`Document`], the canonical [terms](text::Terms) in
//! [`text`], the file reader that corpora and word lists share in [`document`], the candidate set
//! and the located spans of blocks in [`method`]. `tests/architecture.rs` checks both rules from
//! the source: no import cycle between these modules, and nothing of the method layer names a
//! driver built on it (batch, index, eval, report).
//!
//! 1. [`document`] — a [`Document`] (id, text, [encoding](Encoding), a web page's
//!    [blocks](document::Segmentation)), and a file's bytes to text (size limits, gzip, lenient
//!    decoding);
//! 2. [`text`] — sentences (UAX #29 plus repairs), words, [stop words](text::StopWords),
//!    [terms](text::Terms);
//! 3. [`web`] — HTML to visible text cut into structural-semantic blocks; WARC records;
//!    recurring boilerplate blocks;
//! 4. [`corpus`] — files to [`Document`]s (TREC SGML, JSON lines, HTML, WARC);
//! 5. [`profile`] — a [`SentenceProfile`]: the length string, leading terms and spans;
//! 6. [`matcher`] — maximal common substrings ([`Match`]) with a generalized suffix array, and a
//!    naive diagonal scan as the oracle;
//! 7. [`block`] — verification, splitting and tiling into [`Block`]s;
//! 8. [`similarity`] — resemblance and containments ([`Similarity`]);
//! 9. [`method`] — the [`Detector`] interface, SL+ST behind it ([`SlSt`]) and the papers' other
//!    methods beside it (shingles, megashingles, polynomial-hash n-grams, SpotSigs, sentence-length
//!    runs, an MD5 control), each named in one registry ([`Method`]) and built with its settings
//!    ([`MethodSettings`]) as a [`MethodDetector`]; the candidate pairs a corpus join gives;
//! 10. [`align`] — blocks grown into passages, word by word, with exact spans;
//! 11. [`report`] — the typed JSON records (one schema for every method, versioned) and their
//!     human text;
//! 12. [`batch`] — corpus mode, one driver for every method: read → sketch → candidates →
//!     verify → pairs, clusters and a summary;
//! 13. [`index`] — search mode: a persistent SQLite index of profiles and block keys, queried
//!     one document at a time with the same answer as `slst compare` against every document;
//! 14. [`eval`] — labelled sets: precision, recall, F1 sweeps, χ², plots; text alignment scored
//!     by PAN's character measures ([`eval::alignment`]); [`synth`] and
//!     [`sample`] build evaluation sets.
//!
//! ## Glossary
//! - **term**: a word (UAX #29, containing a letter or digit, lowercased) that is not a stop word.
//! - **sentence length**: the number of terms of a sentence; 0 → skipped, above 35 → dropped.
//! - **length string**: one base-36 symbol per kept sentence (`1`–`9`, `a`–`z`).
//! - **leading terms**: a sentence's first two terms, used to verify matches.
//! - **match**: a maximal common substring of two symbol strings (unverified).
//! - **block**: a verified run of at least two sentences, one-to-one after tiling.
//! - **resemblance** J = m / (|A| + |B| − m), m = sentences in blocks; **containment** of A in B =
//!   m / |A|.
//!
//! ## Example
//! ```
//! use slst::{Detector, Document, SlSt, SlstConfig};
//!
//! let a = Document::new("a", "The central bank cut interest rates on Tuesday. \
//!     Markets rallied on the news. Analysts expect another cut in March. Oil was flat.");
//! let b = Document::new("b", "Gold rose. The central bank cut interest rates on Tuesday. \
//!     Markets rallied on the news. Analysts expect another cut in March.");
//!
//! let slst = SlSt::new(SlstConfig::default())?;
//! let c = slst.compare(&slst.sketch(&a), &slst.sketch(&b));
//! assert_eq!(c.evidence.blocks.len(), 1);           // sentences 0..3 of A = 1..4 of B
//! assert!((c.similarity.resemblance - 0.6).abs() < 1e-12); // 3 / (4 + 4 − 3)
//! assert!(c.duplicate);
//! # Ok::<(), slst::Error>(())
//! ```
//!
//! ## Choosing a method
//! SL+ST when you need to know which sentences match and where, or whether one document lies
//! inside another; shingles for word-level reuse (the classic baseline); megashingles for very
//! near duplicates at scale; polynomial-hash n-grams when word forms change; SpotSigs for web
//! pages with boilerplate; sentence-length runs as a cheap prefilter; MD5 as the exact control.
//! The [`method`] module has the table.
//!
//! ## References
//! - Feng Jinbo et al., 2015: SL+ST, a sentence-length and suffix-tree method for near-duplicate
//!   detection (the core method).
//! - Wang and Chang, AIRS 2009: sentence-length features, the method SL+ST builds on.
//! - Broder, 1997: shingles, resemblance and containment (the baseline family).
//! - Fetterly, Manasse, Najork and Wiener, 2003: megashingles.
//! - Theobald, Siddharth and Paepcke, SIGIR 2008: SpotSigs.
//! - Zagorulko, Salomatina, Sery, Sidorova and Shestakov, 2013: shingle variants and megashingles
//!   for thematic web collections.
//! - Rodnenko, 2009: a CRC-32 shingle implementation.
//! - Granik and Mesiura, 2016: polynomial-hash character n-grams for news.

#![deny(missing_docs)]

// The layers, each using only those above it (tests/architecture.rs checks it).
pub mod error; // the one error type
pub mod document; // Document: id + text + a page's blocks; a file's bytes → text
pub mod text; // sentences, words, stop words, terms
pub mod web; // HTML → visible text + structural-semantic blocks; WARC records
pub mod corpus; // files, folders, TREC/SGML, JSON lines, HTML, WARC → documents
pub mod profile; // document → SentenceProfile (length string, leading terms, spans)
pub mod matcher; // symbol strings → maximal common substrings (suffix array)
pub mod block; // matches → verified, tiled blocks
pub mod similarity; // blocks → resemblance, containments
pub mod method; // the Detector interface; SL+ST and the baseline methods; candidate sets
pub mod align; // blocks → passages: extended word by word, merged, with exact spans
pub mod report; // JSON records and human text of compare/profile
pub mod batch; // corpus mode: candidates, verification, clusters, outputs
#[cfg(feature = "index")]
pub mod index; // search mode: a persistent, incremental near-duplicate index (SQLite)
pub mod eval; // labelled sets: precision, recall, F1 sweeps, χ², plots
pub mod synth; // planted near-duplicates of real documents: corpus, truth, edit log
#[cfg(feature = "sample")]
pub mod sample; // AP90-S-like subsets: BM25 top k of query documents, with a manifest

/// The README's examples, compiled as doctests (it has no Rust code today; kept so that any it
/// gains is tested).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The Rust examples of the library guide (`docs/library.md`), compiled and run as doctests so
/// they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
pub struct LibraryGuideDoctests;

pub use block::Block;
pub use document::{Document, Encoding};
pub use error::{Error, Result};
pub use matcher::Match;
pub use method::{
    Comparison, Detector, Evidence, MatchKey, Method, MethodDetector, MethodSettings, SlSt,
    SlstComparison, SlstConfig, SlstSketch, sketch_pair,
};
pub use profile::{ProfileConfig, SentenceProfile};
pub use similarity::Similarity;
