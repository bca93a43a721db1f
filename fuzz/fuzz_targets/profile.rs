//! Text to profiles: sentences and words (the ASCII fast paths against ICU4X, which they are
//! documented to equal), the paper's `SentenceProfile` under several settings with its record,
//! and the robust mode's profile.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slst::method::{RobustConfig, RobustSlst};
use slst::report::ProfileRecord;
use slst::text::{
    StopWords, for_each_word, for_each_word_icu, split_sentences, split_sentences_icu,
};
use slst::{Detector, Document, ProfileConfig, SentenceProfile};
use slst_fuzz::{Bytes, check_ascending, check_span, english, robust_defaults, text};

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let max_length = usize::from(input.byte() % 35) + 1;
    let leading_terms = usize::from(input.byte() % 4);
    let no_stopwords = input.flag();
    let robust_variant = input.byte();
    let text = text(input.rest());

    // Sentences: in the text, ascending, trimmed; the fast path equals ICU4X.
    let sentences = split_sentences(&text);
    for s in &sentences {
        check_span(&text, s.clone(), "sentence");
        let piece = &text[s.clone()];
        assert!(
            !piece.is_empty() && piece.trim() == piece,
            "sentence {s:?} not trimmed"
        );
    }
    check_ascending(&sentences, "sentences");
    assert_eq!(
        sentences,
        split_sentences_icu(&text),
        "sentences differ from ICU4X's"
    );
    let (mut fast, mut icu) = (Vec::new(), Vec::new());
    for_each_word(&text, |w| fast.push(w.to_string()));
    for_each_word_icu(&text, |w| icu.push(w.to_string()));
    assert_eq!(fast, icu, "words differ from ICU4X's");

    // The paper's profile.
    let config = ProfileConfig {
        max_length,
        leading_terms,
        stopwords: if no_stopwords {
            StopWords::none()
        } else {
            english().clone()
        },
    };
    let profile = SentenceProfile::from_text("d", &text, &config);
    assert_eq!(
        profile.len() + profile.skipped_empty + profile.dropped_long,
        sentences.len(),
        "sentences lost"
    );
    let spans: Vec<_> = profile.sentences.iter().map(|s| s.span()).collect();
    for (s, span) in profile.sentences.iter().zip(&spans) {
        check_span(&text, span.clone(), "profiled sentence");
        assert!(
            (1..=max_length).contains(&usize::from(s.length)),
            "length {}",
            s.length
        );
        assert_eq!(s.leading.len(), leading_terms, "leading terms");
    }
    check_ascending(&spans, "profiled sentences");
    assert_eq!(profile.length_string().chars().count(), profile.len());
    let doc = Document::new("d", text.clone());
    let record = ProfileRecord::new(&doc, &profile, config.stopwords.id());
    let _ = record.to_text(&doc);
    let _ = serde_json::to_string(&record).expect("a profile record serialises");

    // The robust mode's profile, with its defaults or with settings the input picks (one of
    // the two per input, as the compare target runs one detector per input).
    let variant = RobustConfig {
        clauses: robust_variant & 1 == 0,
        stem: robust_variant & 2 != 0,
        split_glued: robust_variant & 4 == 0,
        window: usize::from(robust_variant >> 5),
        max_length,
        ..robust_defaults().clone()
    };
    let config = if robust_variant & 8 == 0 {
        robust_defaults().clone()
    } else {
        variant
    };
    let detector = RobustSlst::new(config.clone()).expect("valid settings");
    let sketch = detector.sketch(&doc);
    let units: Vec<_> = sketch
        .sentences
        .iter()
        .map(|s| s.start as usize..s.end as usize)
        .collect();
    for (s, span) in sketch.sentences.iter().zip(&units) {
        check_span(&text, span.clone(), "robust unit");
        assert!(
            (1..=config.max_length).contains(&usize::from(s.length)),
            "length {}",
            s.length
        );
        assert!(
            s.terms.windows(2).all(|w| w[0] < w[1]),
            "terms not sorted and distinct"
        );
        assert!(!s.terms.is_empty() && s.terms.len() <= usize::from(s.length));
    }
    check_ascending(&units, "robust units");
    for w in &sketch.windows {
        check_span(&text, w.start as usize..w.end as usize, "window");
    }
    let _ = serde_json::to_string(&detector.sketch_view(&sketch)).expect("serialises");
});
