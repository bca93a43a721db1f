//! What sketching a corpus keeps of its documents, chunk by chunk ([`super::sketch_corpus`]).

use rayon::prelude::*;

use super::{Progress, sketch_documents};
use crate::document::Document;
use crate::method::Detector;
use crate::text::StopWords;

/// What sketching keeps of the documents read so far, in input order.
pub(super) struct Sketched<S> {
    pub(super) ids: Vec<String>,
    pub(super) sketches: Vec<S>,
    pub(super) content: Vec<u128>,
    /// The texts, when kept.
    pub(super) texts: Vec<String>,
    keep_texts: bool,
    /// With the stop words `auto`: the id of each document's list ([`Self::auto`]).
    pub(super) stopwords: Vec<String>,
    /// The stop words `auto`, when they are the method's setting.
    auto: Option<StopWords>,
}

impl<S: Send> Sketched<S> {
    pub(super) fn new<D: Detector>(detector: &D, keep_texts: bool) -> Self {
        Sketched {
            ids: Vec::new(),
            sketches: Vec::new(),
            content: Vec::new(),
            texts: Vec::new(),
            keep_texts,
            stopwords: Vec::new(),
            auto: detector.params().auto_stopwords(),
        }
    }

    /// Sketches and hashes one chunk of documents, in parallel on the current pool.
    pub(super) fn add<D: Detector<Sketch = S>>(
        &mut self,
        chunk: Vec<Document>,
        detector: &D,
        progress: &dyn Progress,
    ) {
        let n = chunk.len() as u64;
        match &self.auto {
            // Each document's list chosen right after its sketch, on the same thread, which
            // remembers the language it just told (`text::language`).
            Some(auto) => {
                let (sketches, lists): (Vec<S>, Vec<String>) = chunk
                    .par_iter()
                    .map(|d| (detector.sketch(d), auto.for_text(&d.text).id().to_string()))
                    .unzip();
                self.sketches.extend(sketches);
                self.stopwords.extend(lists);
            }
            None => self.sketches.extend(sketch_documents(detector, &chunk)),
        }
        self.content.par_extend(
            chunk
                .par_iter()
                .map(|d| xxhash_rust::xxh3::xxh3_128(d.text.as_bytes())),
        );
        for d in chunk {
            self.ids.push(d.id);
            if self.keep_texts {
                self.texts.push(d.text);
            }
        }
        progress.advance(n);
    }
}
