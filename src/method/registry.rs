//! Choosing a method at run time: the list of names and a constructor from a name and settings.

use serde_json::{Value, json};

use crate::document::Document;
use crate::error::{Error, Result};
use crate::profile::SentenceProfile;

use super::{
    AnyDetector, BlockFingerprint, Blocks, BlocksConfig, Comparison, Md5, Md5Config, MegaShingle,
    MegaShingleConfig, PolyHash, PolyHashConfig, RobustConfig, RobustSlst, SentLen, SentLenConfig,
    ShingleConfig, ShingleMeasure, Shingles, SlSt, SlstConfig, SlstMode, SlstText, SpotSigs,
    SpotSigsConfig,
};

/// Every method's name, in the order `slst compare --method all` reports them: the core method,
/// the baselines of SPEC §5 in its order, and the exact-match control last.
pub const METHODS: &[&str] = &[
    "slst",
    "shingle",
    "megashingle",
    "polyhash",
    "spotsigs",
    "sentlen",
    "md5",
    "slst-flat",
    "blocks-md5",
    "blocks-shingle",
    "specialchars",
    "blocks-specialchars",
];

/// What `--method` accepts, for error messages.
const EXPECTED: &str = "one of slst, shingle, megashingle, polyhash, spotsigs, sentlen, md5, \
     slst-blocks, slst-flat, blocks-md5, blocks-shingle, specialchars, blocks-specialchars";

/// The settings of every method, each defaulting to its paper's: what a method chosen by name
/// is built from.
///
/// # Example
/// ```
/// use slst::method::{METHODS, MethodSettings};
/// use slst::Document;
/// let settings = MethodSettings::default();
/// let (a, b) = (Document::new("a", "A rose is a rose."), Document::new("b", "A rose is a rose."));
/// for name in METHODS {
///     let d = settings.detector(name)?;
///     let c = d.compare_any(&*d.sketch_any(&a), &*d.sketch_any(&b));
///     assert_eq!(c.method, *name);
/// }
/// assert!(settings.detector("simhash").is_err());
/// # Ok::<(), slst::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MethodSettings {
    /// SL+ST.
    pub slst: SlstConfig,
    /// Which SL+ST `slst` names: the paper's method (default) or the robust mode.
    pub slst_mode: SlstMode,
    /// The robust mode's settings.
    pub robust: RobustConfig,
    /// Shingles.
    pub shingle: ShingleConfig,
    /// Megashingles.
    pub megashingle: MegaShingleConfig,
    /// Polynomial-hash character n-grams.
    pub polyhash: PolyHashConfig,
    /// SpotSigs.
    pub spotsigs: SpotSigsConfig,
    /// Sentence-length features.
    pub sentlen: SentLenConfig,
    /// The MD5 control.
    pub md5: Md5Config,
    /// The block methods of web pages (seed 004).
    pub blocks: BlocksConfig,
}

/// The error for a name that is not a method.
fn unknown(name: &str) -> Error {
    Error::InvalidParameter {
        name: "--method",
        value: name.to_string(),
        expected: EXPECTED,
    }
}

impl MethodSettings {
    /// Check the settings of every method.
    ///
    /// # Errors
    /// The first setting out of range.
    pub fn validate(&self) -> Result<()> {
        for name in METHODS {
            self.detector(name)?;
        }
        Ok(())
    }

    /// The detector called `name` (one of [`METHODS`]) with these settings.
    ///
    /// # Errors
    /// An unknown name, or a setting of that method out of range.
    pub fn detector(&self, name: &str) -> Result<Box<dyn AnyDetector>> {
        Ok(match name {
            "slst" if self.slst_mode == SlstMode::Robust => {
                Box::new(RobustSlst::new(self.robust.clone())?)
            }
            "slst" => Box::new(SlSt::new(self.slst.clone())?),
            "shingle" => Box::new(Shingles::new(self.shingle.clone())?),
            "megashingle" => Box::new(MegaShingle::new(self.megashingle.clone())?),
            "polyhash" => Box::new(PolyHash::new(self.polyhash.clone())?),
            "spotsigs" => Box::new(SpotSigs::new(self.spotsigs.clone())?),
            "sentlen" => Box::new(SentLen::new(self.sentlen.clone())?),
            "md5" => Box::new(Md5::new(self.md5.clone())?),
            "slst-blocks" => Box::new(SlSt::new(self.slst.clone())?.reading(SlstText::Blocks)),
            "slst-flat" => Box::new(SlSt::new(self.slst.clone())?.reading(SlstText::Flat)),
            _ => match block_method(name) {
                Some((kind, per_block)) => {
                    Box::new(Blocks::new(kind, per_block, self.blocks.clone())?)
                }
                None => return Err(unknown(name)),
            },
        })
    }

    /// The settings of method `name` as a JSON object, as reports record them.
    ///
    /// # Errors
    /// An unknown name.
    pub fn params(&self, name: &str) -> Result<Value> {
        Ok(match name {
            "slst" if self.slst_mode == SlstMode::Robust => self.robust.params(),
            "slst" | "slst-blocks" | "slst-flat" => json!({
                "mode": "paper",
                "min_block": self.slst.min_block,
                "max_length": self.slst.profile.max_length,
                "leading_terms": self.slst.profile.leading_terms,
                "stopwords": self.slst.profile.stopwords.id(),
                "threshold": self.slst.threshold,
            }),
            "shingle" => self.shingle.params(),
            "megashingle" => self.megashingle.params(),
            "polyhash" => self.polyhash.params(),
            "spotsigs" => self.spotsigs.params(),
            "sentlen" => self.sentlen.params(),
            "md5" => self.md5.params(),
            _ => match block_method(name) {
                Some((kind, per_block)) => self.blocks.params(kind, per_block),
                None => return Err(unknown(name)),
            },
        })
    }

    /// How method `name` decides "duplicate", in words (`J ≥ 0.5`, `equal digests`, …).
    ///
    /// # Errors
    /// An unknown name.
    pub fn rule(&self, name: &str) -> Result<String> {
        let at_least = |what: &str, theta: f64| format!("{what} ≥ {theta}");
        Ok(match name {
            "slst" if self.slst_mode == SlstMode::Robust => at_least("J", self.robust.threshold),
            "slst" | "slst-blocks" | "slst-flat" => at_least("J", self.slst.threshold),
            "shingle" => {
                let what = match self.shingle.measure {
                    ShingleMeasure::Resemblance => "J",
                    ShingleMeasure::Containment => "containment",
                    ShingleMeasure::Dice => "Dice",
                };
                at_least(what, self.shingle.threshold)
            }
            "megashingle" => "≥ 1 equal megashingle".to_string(),
            "polyhash" => at_least("J", self.polyhash.threshold),
            "spotsigs" => at_least("J", self.spotsigs.threshold),
            "sentlen" => at_least("J", self.sentlen.threshold),
            "md5" => "equal digests".to_string(),
            "specialchars" | "blocks-specialchars" => {
                at_least("sim", self.blocks.specialchars_threshold)
            }
            "blocks-md5" | "blocks-shingle" => at_least("sim", self.blocks.threshold),
            _ => return Err(unknown(name)),
        })
    }

    /// What method `name` keeps of `doc`, as one JSON object: `{"method", "id", …}` with the
    /// method's own fields — `fingerprints` (shingles, in text order), `minima`, `supershingles`
    /// and `megashingles`, the polyhash `canonical` string and its n-gram counts, the spot
    /// `signatures` with counts, the sentence-length `features`, the MD5 `digest`, or SL+ST's
    /// `length_string`.
    ///
    /// # Errors
    /// An unknown name, or a setting of that method out of range.
    ///
    /// # Example
    /// ```
    /// use slst::method::MethodSettings;
    /// use slst::text::StopWords;
    /// use slst::Document;
    /// let mut settings = MethodSettings::default();
    /// settings.shingle.size = 1;
    /// settings.shingle.hash = slst::method::ShingleHash::Crc32;
    /// settings.shingle.stopwords = StopWords::none();
    /// let v = settings.sketch_json("shingle", &Document::new("d", "My war is over."))?;
    /// assert_eq!(v["method"], "shingle");
    /// assert_eq!(v["fingerprints"][0], crc32fast::hash(b"my"));
    /// # Ok::<(), slst::Error>(())
    /// ```
    pub fn sketch_json(&self, name: &str, doc: &Document) -> Result<Value> {
        use crate::Detector;
        let mut v = match name {
            "slst" if self.slst_mode == SlstMode::Robust => {
                let d = RobustSlst::new(self.robust.clone())?;
                let p = d.sketch(doc);
                json!({
                    "mode": "robust",
                    "sentences": p.len(),
                    "lengths": p.sentences.iter().map(|s| s.length).collect::<Vec<_>>(),
                    "distinct_terms": p.sentences.iter().map(|s| s.terms.len()).collect::<Vec<_>>(),
                })
            }
            "slst" | "slst-blocks" | "slst-flat" => {
                let text = match name {
                    "slst-flat" => SlstText::Flat,
                    _ => SlstText::Document,
                };
                let d = SlSt::new(self.slst.clone())?.reading(text);
                let p: SentenceProfile = d.sketch(doc);
                json!({
                    "sentences": p.len(),
                    "length_string": p.length_string(),
                    "leading": p.sentences.iter().map(|s| &s.leading).collect::<Vec<_>>(),
                })
            }
            "shingle" => {
                let d = Shingles::new(self.shingle.clone())?;
                let s = d.sketch(doc);
                json!({
                    "shingles": s.shingles,
                    "distinct": s.distinct(),
                    "fingerprints": s.fingerprints,
                })
            }
            "megashingle" => {
                let d = MegaShingle::new(self.megashingle.clone())?;
                serde_json::to_value(d.sketch(doc)).unwrap_or(Value::Null)
            }
            "polyhash" => {
                let d = PolyHash::new(self.polyhash.clone())?;
                let s = d.sketch(doc);
                json!({
                    "canonical": s.canonical,
                    "ngrams": s.ngrams,
                    "distinct": s.hashes.len(),
                })
            }
            "spotsigs" => {
                let d = SpotSigs::new(self.spotsigs.clone())?;
                let s = d.sketch(doc);
                json!({
                    "total": s.total,
                    "distinct": s.signatures.len(),
                    "signatures": s.signatures.iter()
                        .map(|(sig, n)| json!({"signature": sig, "count": n}))
                        .collect::<Vec<_>>(),
                })
            }
            "sentlen" => {
                let d = SentLen::new(self.sentlen.clone())?;
                let s = d.sketch(doc);
                let k = self.sentlen.k;
                let unpack =
                    |f: u64| -> Vec<u64> { (0..k).rev().map(|i| (f >> (6 * i)) & 63).collect() };
                json!({
                    "length_string": s.length_string,
                    "k": k,
                    "features": s.features.iter().map(|&f| unpack(f)).collect::<Vec<_>>(),
                })
            }
            "md5" => {
                let d = Md5::new(self.md5.clone())?;
                serde_json::to_value(d.sketch(doc)).unwrap_or(Value::Null)
            }
            _ => match block_method(name) {
                Some((kind, per_block)) => {
                    let d = Blocks::new(kind, per_block, self.blocks.clone())?;
                    let s = d.sketch(doc);
                    json!({
                        "blocks": s.blocks.iter().map(|b| {
                            b.iter().map(|&(k, n)| match kind {
                                BlockFingerprint::SpecialChars => json!({
                                    "char": char::from_u32(k as u32).map(String::from),
                                    "count": n,
                                }),
                                _ => json!(format!("{k:016x}")),
                            }).collect::<Vec<_>>()
                        }).collect::<Vec<_>>(),
                        "empty_blocks": s.empty_blocks,
                    })
                }
                None => return Err(unknown(name)),
            },
        };
        if let Value::Object(fields) = &mut v {
            let mut head = serde_json::Map::new();
            head.insert("method".into(), json!(name));
            head.insert("id".into(), json!(doc.id));
            head.append(fields);
            head.insert("params".into(), self.params(name)?);
            v = Value::Object(head);
        }
        Ok(v)
    }
}

/// The block method called `name`: its fingerprint and whether it works per block.
fn block_method(name: &str) -> Option<(BlockFingerprint, bool)> {
    Some(match name {
        "blocks-md5" => (BlockFingerprint::Md5, true),
        "blocks-shingle" => (BlockFingerprint::Shingle, true),
        "blocks-specialchars" => (BlockFingerprint::SpecialChars, true),
        "specialchars" => (BlockFingerprint::SpecialChars, false),
        _ => return None,
    })
}

/// Sketch two documents with a run-time-chosen detector, on two threads, and compare them.
pub fn compare_documents(
    detector: &dyn AnyDetector,
    a: &Document,
    b: &Document,
) -> Comparison<Value> {
    let (sa, sb) = std::thread::scope(|scope| {
        let sb = scope.spawn(|| detector.sketch_any(b));
        let sa = detector.sketch_any(a);
        match sb.join() {
            Ok(sb) => (sa, sb),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    });
    detector.compare_any(&*sa, &*sb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_method_builds_and_reports_its_name() {
        let s = MethodSettings::default();
        s.validate().unwrap();
        let doc = Document::new("d", include_str!("../../corpora/clough/orig_taskb.txt"));
        for name in METHODS {
            let d = s.detector(name).unwrap();
            assert_eq!(d.name(), *name);
            let c = compare_documents(&*d, &doc, &doc);
            assert_eq!(c.similarity.resemblance, 1.0, "{name}");
            assert!(c.duplicate, "{name}");
            assert!(s.params(name).unwrap().is_object());
            assert!(!s.rule(name).unwrap().is_empty());
            let v = s.sketch_json(name, &doc).unwrap();
            assert_eq!(
                (v["method"].as_str(), v["id"].as_str()),
                (Some(*name), Some("d"))
            );
        }
    }

    #[test]
    fn unknown_method_is_an_invalid_parameter() {
        let s = MethodSettings::default();
        for result in [
            s.detector("simhash").map(|_| ()),
            s.params("simhash").map(|_| ()),
            s.rule("simhash").map(|_| ()),
            s.sketch_json("simhash", &Document::new("d", ""))
                .map(|_| ()),
        ] {
            let e = result.unwrap_err().to_string();
            assert!(e.contains("--method = simhash"), "{e}");
        }
    }

    #[test]
    fn sentlen_features_unpack_to_their_lengths() {
        let mut s = MethodSettings::default();
        s.sentlen.k = 2;
        let v = s
            .sketch_json(
                "sentlen",
                &Document::new(
                    "d",
                    "Stocks rose sharply. Bond yields fell to a low. Oil was flat.",
                ),
            )
            .unwrap();
        assert_eq!(v["length_string"], "342");
        assert_eq!(v["features"], json!([[3, 4], [4, 2]]));
    }
}
