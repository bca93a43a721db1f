//! Two documents compared by a method the input picks (SL+ST in both modes and every baseline,
//! under four sets of settings; one per execution, so that executions stay fast): scores in
//! [0, 1], `compare(b, a)` = `compare(a, b).swapped()`, a document against itself 1 (or 0 with a
//! note), the passages grown from the blocks (inside the texts, symmetric), and the comparison
//! record. Also (as the input picks) the matcher and the tiling against their documented oracles.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slst::align::{AlignConfig, Passage, passages};
use slst::block::{Block, tile, tile_naive};
use slst::matcher::{maximal_matches, naive_maximal_matches};
use std::sync::OnceLock;

use slst::method::{Method, MethodDetector, MethodSettings, Params, SlstMode, WithDetector};
use slst::report::CompareRecord;
use slst::{Detector, Document, Evidence, MatchKey};
use slst_fuzz::{Bytes, check_fraction, check_span, parts, text};

/// Every check of one method on one pair.
struct Check<'a>(&'a Document, &'a Document);

impl WithDetector for Check<'_> {
    type Output = ();
    fn with<D: Detector>(self, d: &D) {
        let (a, b) = (self.0, self.1);
        let (sa, sb) = (d.sketch(a), d.sketch(b));
        let ab = d.compare(&sa, &sb);
        let ba = d.compare(&sb, &sa);
        let s = ab.similarity;
        let name = d.name();
        check_fraction(s.resemblance, name);
        for x in [s.containment_a, s.containment_b].into_iter().flatten() {
            check_fraction(x, name);
        }
        assert_eq!(s, ba.similarity.swapped(), "{name}: not symmetric");
        assert_eq!(ab.duplicate, ba.duplicate, "{name}: decision not symmetric");
        let json = |e: &D::Evidence| serde_json::to_string(e).expect("evidence serialises");
        assert_eq!(
            json(&ab.evidence),
            json(&ba.evidence.swapped()),
            "{name}: evidence not symmetric"
        );
        if let Some(blocks) = ab.evidence.blocks() {
            for f in &blocks {
                if let Some(x) = f.min_term_similarity {
                    check_fraction(x, name);
                }
            }
        }

        // Against itself: 1 and a duplicate, or 0 with a note saying why. (The robust mode has
        // no identical-profiles rule, unlike the paper's: fewer units than its minimum block
        // and no single-pair block score 0 against themselves, without a note.)
        let aa = d.compare(&sa, &sa);
        let short = match d.params() {
            Params::Robust(p) => d
                .sentence_counts(&sa)
                .is_some_and(|c| c.sentences < p.min_block),
            _ => false,
        };
        if aa.similarity.resemblance == 1.0 {
            assert!(aa.duplicate, "{name}: identical, not a duplicate");
        } else {
            assert!(
                aa.similarity.resemblance == 0.0
                    && (aa.evidence.note().is_some() || short)
                    && !aa.duplicate,
                "{name}: a document against itself: {:?}, note {:?}",
                aa.similarity,
                aa.evidence.note()
            );
        }

        // Passages: inside both texts; the same from the other side.
        let config = AlignConfig {
            min_words: 2,
            ..AlignConfig::default()
        };
        let found = passages(d, (a, &sa), (b, &sb), &ab, &config);
        if let Some(found) = &found {
            for p in found {
                check_span(&a.text, p.a_span[0]..p.a_span[1], "passage in A");
                check_span(&b.text, p.b_span[0]..p.b_span[1], "passage in B");
                check_fraction(p.similarity, "passage similarity");
            }
            let back = passages(d, (b, &sb), (a, &sa), &ba, &config).expect("passages");
            let mut back: Vec<Passage> = back.into_iter().map(Passage::swapped).collect();
            back.sort_unstable_by_key(|p| (p.a_span, p.b_span));
            assert_eq!(found, &back, "{name}: passages not symmetric");
        }
        let record = CompareRecord::new(d, (a, &sa), (b, &sb), &ab);
        let record = match found {
            Some(found) => record.with_passages(found, a, b),
            None => record,
        };
        let _ = record.to_text();
        let _ = serde_json::to_string(&record).expect("a comparison record serialises");
    }
}

/// Every method with its defaults (with SL+ST in both modes), and with other SL+ST settings:
/// four sets, built once.
fn detectors() -> &'static [Vec<MethodDetector>; 4] {
    static DETECTORS: OnceLock<[Vec<MethodDetector>; 4]> = OnceLock::new();
    DETECTORS.get_or_init(|| {
        std::array::from_fn(|variant| {
            let mut settings = MethodSettings::default();
            if variant & 1 != 0 {
                settings.slst.min_block = 1;
                settings.slst.match_key = MatchKey::Length;
                settings.slst.profile.leading_terms = 1;
            }
            let mut out: Vec<MethodDetector> = Method::ALL
                .iter()
                .map(|&m| settings.detector(m).expect("valid settings"))
                .collect();
            settings.slst_mode = SlstMode::Robust;
            if variant & 2 != 0 {
                settings.robust.anchor_terms = 0;
                settings.robust.min_block = 1;
                settings.robust.length_tolerance = 0;
            }
            out.push(settings.detector(Method::Slst).expect("valid settings"));
            out
        })
    })
}

fuzz_target!(|data: &[u8]| {
    let mut input = Bytes(data);
    let variant = input.byte();
    let which = input.byte();
    let data = input.rest();
    let mut halves = parts(data, 2).into_iter();
    let a = Document::new("a", text(halves.next().unwrap_or_default()));
    let b = Document::new("b", text(halves.next().unwrap_or_default()));

    let set = &detectors()[usize::from(variant & 3)];
    set[usize::from(which) % set.len()].visit(Check(&a, &b));
    if variant & 4 == 0 {
        return;
    }

    // The suffix-array matcher and the greedy tiling against their oracles, on short symbol
    // strings read from the input (a small alphabet, so that runs repeat), on one execution in
    // two: the naive oracles cost as much as the comparison.
    let cut = data.len() / 2;
    let symbols = |s: &[u8]| -> Vec<u32> { s.iter().take(96).map(|&x| u32::from(x % 4)).collect() };
    let (x, y) = (symbols(&data[..cut]), symbols(&data[cut..]));
    let min_len = usize::from(variant >> 4) % 4 + 1;
    let mut fast = maximal_matches(&x, &y, min_len);
    let mut naive = naive_maximal_matches(&x, &y, min_len);
    fast.sort_unstable_by_key(|m| (m.a, m.b, m.len));
    naive.sort_unstable_by_key(|m| (m.a, m.b, m.len));
    assert_eq!(fast, naive, "suffix-array matches differ from the oracle");
    let blocks: Vec<Block> = fast
        .iter()
        .map(|m| Block {
            a: m.a,
            b: m.b,
            len: m.len,
        })
        .collect();
    assert_eq!(
        tile(&blocks, min_len, x.len(), y.len()),
        tile_naive(&blocks, min_len, x.len(), y.len()),
        "tiling differs from the oracle"
    );
});
