//! Choosing a method at run time: the registry of names ([`Method`]), every method's settings
//! ([`MethodSettings`]), and the detector they build ([`MethodDetector`]), reached through a
//! visitor so that its sketches and evidence keep their types.

use serde::{Deserialize, Serialize};

use crate::document::Document;
use crate::error::Result;

use super::{
    BlockFingerprint, Blocks, BlocksConfig, BlocksParams, Comparison, Detector, Md5, Md5Config,
    Md5Params, MegaShingle, MegaShingleConfig, MegaShingleParams, PolyHash, PolyHashConfig,
    PolyHashParams, RobustConfig, RobustParams, RobustSlst, SentLen, SentLenConfig, SentLenParams,
    ShingleConfig, ShingleParams, Shingles, SlSt, SlstConfig, SlstMode, SlstParams, SlstText,
    SpotSigs, SpotSigsConfig, SpotSigsParams,
};

/// Every method slst knows, by the name the CLI and the reports use.
///
/// SL+ST is one method in two modes (the paper's and the robust one, [`SlstMode`]): the mode is a
/// setting ([`MethodSettings::slst_mode`]) and reports carry it in their `params`, never in the
/// name.
///
/// # Example
/// ```
/// use slst::method::Method;
/// assert_eq!("polyhash".parse::<Method>(), Ok(Method::PolyHash));
/// assert_eq!(Method::BlocksMd5.to_string(), "blocks-md5");
/// assert_eq!("slst-blocks".parse::<Method>(), Ok(Method::Slst)); // an older name
/// assert!("simhash".parse::<Method>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// SL+ST (Feng 2015), paper or robust mode.
    Slst,
    /// Broder's w-shingles.
    Shingle,
    /// Fetterly et al.'s megashingles.
    MegaShingle,
    /// Polynomial-hash character n-grams (seed 003).
    PolyHash,
    /// Spot signatures (Theobald et al. 2008).
    SpotSigs,
    /// Runs of sentence lengths (Wang and Chang 2009).
    SentLen,
    /// The MD5 of the canonical text (the exact-duplicate control).
    Md5,
    /// SL+ST on a web page read as one flow of text (block boundaries as spaces).
    SlstFlat,
    /// The MD5 of each structural-semantic block of a web page (seed 004).
    BlocksMd5,
    /// Shingles spread over a web page's blocks (seed 004).
    BlocksShingle,
    /// Counts of special characters over a page (seed 004).
    SpecialChars,
    /// Counts of special characters per block (seed 004).
    BlocksSpecialChars,
}

impl Method {
    /// Every method, in the order `slst compare --method all` reports them: the core method, the
    /// baselines of SPEC §5 in its order, the exact-match control, then the web-page methods.
    pub const ALL: [Method; 12] = [
        Method::Slst,
        Method::Shingle,
        Method::MegaShingle,
        Method::PolyHash,
        Method::SpotSigs,
        Method::SentLen,
        Method::Md5,
        Method::SlstFlat,
        Method::BlocksMd5,
        Method::BlocksShingle,
        Method::SpecialChars,
        Method::BlocksSpecialChars,
    ];

    /// The method's name (`slst`, `shingle`, …).
    pub fn name(self) -> &'static str {
        match self {
            Method::Slst => "slst",
            Method::Shingle => "shingle",
            Method::MegaShingle => "megashingle",
            Method::PolyHash => "polyhash",
            Method::SpotSigs => "spotsigs",
            Method::SentLen => "sentlen",
            Method::Md5 => "md5",
            Method::SlstFlat => "slst-flat",
            Method::BlocksMd5 => "blocks-md5",
            Method::BlocksShingle => "blocks-shingle",
            Method::SpecialChars => "specialchars",
            Method::BlocksSpecialChars => "blocks-specialchars",
        }
    }

    /// The method of a name, or of an older name that still reads (`slst-blocks`).
    pub fn from_name(name: &str) -> Option<Method> {
        if name == "slst-blocks" {
            return Some(Method::Slst);
        }
        Method::ALL.into_iter().find(|m| m.name() == name)
    }

    /// True for the methods that read the block structure of web pages (on plain text, a
    /// document is one block).
    pub fn reads_page_blocks(self) -> bool {
        matches!(
            self,
            Method::SlstFlat
                | Method::BlocksMd5
                | Method::BlocksShingle
                | Method::SpecialChars
                | Method::BlocksSpecialChars
        )
    }
}

impl Serialize for Method {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Method {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Method::from_name(&name).ok_or_else(|| serde::de::Error::custom(UnknownMethod(name)))
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a method.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownMethod(pub String);

impl std::fmt::Display for UnknownMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
        write!(f, "no method {:?} (one of {})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownMethod {}

impl std::str::FromStr for Method {
    type Err = UnknownMethod;

    fn from_str(s: &str) -> std::result::Result<Self, Self::Err> {
        Method::from_name(s).ok_or_else(|| UnknownMethod(s.to_string()))
    }
}

/// The settings a method ran with, as reports record them (each variant its method's own
/// record; serialised as that record's fields).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Params {
    /// SL+ST, paper mode (`slst`, `slst-flat`).
    Slst(SlstParams),
    /// SL+ST, robust mode.
    Robust(RobustParams),
    /// Shingles.
    Shingle(ShingleParams),
    /// Megashingles.
    MegaShingle(MegaShingleParams),
    /// Polynomial-hash n-grams.
    PolyHash(PolyHashParams),
    /// SpotSigs.
    SpotSigs(SpotSigsParams),
    /// Sentence-length runs.
    SentLen(SentLenParams),
    /// The MD5 control.
    Md5(Md5Params),
    /// The block methods of web pages.
    Blocks(BlocksParams),
}

impl Params {
    /// SL+ST's mode, for SL+ST's settings.
    pub fn mode(&self) -> Option<SlstMode> {
        match self {
            Params::Slst(_) => Some(SlstMode::Paper),
            Params::Robust(_) => Some(SlstMode::Robust),
            _ => None,
        }
    }

    /// The maximum sentence length in terms, for the methods that count sentences.
    pub fn max_length(&self) -> Option<usize> {
        match self {
            Params::Slst(p) => Some(p.max_length),
            Params::Robust(p) => Some(p.config.max_length),
            Params::SentLen(p) => Some(p.max_length),
            _ => None,
        }
    }

    /// The id of the stop-word list (`auto` for [`crate::text::StopWords::auto`]), for the
    /// methods that use one.
    pub fn stopwords(&self) -> Option<&str> {
        match self {
            Params::Slst(p) => Some(&p.stopwords),
            Params::Robust(p) => Some(p.config.stopwords.id()),
            Params::Shingle(p) => Some(&p.stopwords),
            Params::MegaShingle(p) => Some(&p.stopwords),
            Params::PolyHash(p) => Some(&p.stopwords),
            Params::SpotSigs(p) => Some(&p.stopwords),
            Params::SentLen(p) => Some(&p.stopwords),
            Params::Md5(p) => Some(&p.stopwords),
            Params::Blocks(p) => p.stopwords.as_deref(),
        }
    }

    /// The stop words `auto` ([`crate::text::StopWords::auto`]) when they are the setting: each
    /// document's list is then its own, `auto.for_text(text)`, which reports name beside the
    /// document (`compare --json`'s `a` and `b`, batch's `stopwords_a` and `stopwords_b`).
    pub fn auto_stopwords(&self) -> Option<crate::text::StopWords> {
        self.stopwords()
            .and_then(crate::text::StopWords::builtin)
            .filter(crate::text::StopWords::is_auto)
    }

    /// The threshold θ of the decision, for the methods that have one.
    pub fn threshold(&self) -> Option<f64> {
        match self {
            Params::Slst(p) => Some(p.threshold),
            Params::Robust(p) => Some(p.config.threshold),
            Params::Shingle(p) => Some(p.threshold),
            Params::MegaShingle(_) | Params::Md5(_) => None,
            Params::PolyHash(p) => Some(p.threshold),
            Params::SpotSigs(p) => Some(p.threshold),
            Params::SentLen(p) => Some(p.threshold),
            Params::Blocks(p) => Some(p.threshold),
        }
    }
}

/// The settings of every method, each defaulting to its paper's: what a method chosen by name
/// is built from.
///
/// # Example
/// ```
/// use slst::method::{Method, MethodSettings};
/// let settings = MethodSettings::default();
/// for method in Method::ALL {
///     assert_eq!(settings.detector(method)?.method(), method);
/// }
/// # Ok::<(), slst::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MethodSettings {
    /// SL+ST, paper mode.
    pub slst: SlstConfig,
    /// Which SL+ST [`Method::Slst`] builds: the paper's method (default) or the robust mode.
    pub slst_mode: SlstMode,
    /// SL+ST, robust mode.
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

impl MethodSettings {
    /// Check the settings of every method.
    ///
    /// # Errors
    /// The first setting out of range.
    pub fn validate(&self) -> Result<()> {
        for method in Method::ALL {
            self.detector(method)?;
        }
        Ok(())
    }

    /// The detector of `method` with these settings.
    ///
    /// # Errors
    /// A setting of that method out of range.
    pub fn detector(&self, method: Method) -> Result<MethodDetector> {
        Ok(match method {
            Method::Slst if self.slst_mode == SlstMode::Robust => {
                MethodDetector::SlstRobust(RobustSlst::new(self.robust.clone())?)
            }
            Method::Slst => MethodDetector::Slst(SlSt::new(self.slst.clone())?),
            Method::SlstFlat => {
                MethodDetector::Slst(SlSt::new(self.slst.clone())?.reading(SlstText::Flat))
            }
            Method::Shingle => MethodDetector::Shingle(Shingles::new(self.shingle.clone())?),
            Method::MegaShingle => {
                MethodDetector::MegaShingle(MegaShingle::new(self.megashingle.clone())?)
            }
            Method::PolyHash => MethodDetector::PolyHash(PolyHash::new(self.polyhash.clone())?),
            Method::SpotSigs => MethodDetector::SpotSigs(SpotSigs::new(self.spotsigs.clone())?),
            Method::SentLen => MethodDetector::SentLen(SentLen::new(self.sentlen.clone())?),
            Method::Md5 => MethodDetector::Md5(Md5::new(self.md5.clone())?),
            Method::BlocksMd5 => self.blocks_detector(BlockFingerprint::Md5, true)?,
            Method::BlocksShingle => self.blocks_detector(BlockFingerprint::Shingle, true)?,
            Method::SpecialChars => self.blocks_detector(BlockFingerprint::SpecialChars, false)?,
            Method::BlocksSpecialChars => {
                self.blocks_detector(BlockFingerprint::SpecialChars, true)?
            }
        })
    }

    fn blocks_detector(&self, kind: BlockFingerprint, per_block: bool) -> Result<MethodDetector> {
        Ok(MethodDetector::Blocks(Blocks::new(
            kind,
            per_block,
            self.blocks.clone(),
        )?))
    }
}

/// Work to do with whichever detector was chosen at run time, written once, generic over the
/// method: [`MethodDetector::visit`] calls [`WithDetector::with`] with the typed detector.
///
/// # Example
/// ```
/// use slst::method::{Method, MethodSettings, WithDetector};
/// use slst::{Detector, Document};
///
/// struct Resemblance<'a>(&'a Document, &'a Document);
/// impl WithDetector for Resemblance<'_> {
///     type Output = f64;
///     fn with<D: Detector>(self, d: &D) -> f64 {
///         d.compare(&d.sketch(self.0), &d.sketch(self.1)).similarity.resemblance
///     }
/// }
/// let a = Document::new("a", "Rain fell on the old town. The river rose by a metre.");
/// let detector = MethodSettings::default().detector(Method::Shingle)?;
/// assert_eq!(detector.visit(Resemblance(&a, &a)), 1.0);
/// # Ok::<(), slst::Error>(())
/// ```
pub trait WithDetector {
    /// What the work gives.
    type Output;
    /// Do the work with the typed detector.
    fn with<D: Detector>(self, detector: &D) -> Self::Output;
}

/// A detector chosen at run time: one variant per detector type, each with its settings.
#[derive(Debug, Clone)]
pub enum MethodDetector {
    /// SL+ST, paper mode (`slst`, `slst-flat`).
    Slst(SlSt),
    /// SL+ST, robust mode (`slst --mode robust`).
    SlstRobust(RobustSlst),
    /// Shingles.
    Shingle(Shingles),
    /// Megashingles.
    MegaShingle(MegaShingle),
    /// Polynomial-hash n-grams.
    PolyHash(PolyHash),
    /// SpotSigs.
    SpotSigs(SpotSigs),
    /// Sentence-length runs.
    SentLen(SentLen),
    /// The MD5 control.
    Md5(Md5),
    /// The block methods of web pages.
    Blocks(Blocks),
}

/// Call `$body` with `$d` bound to the typed detector inside a [`MethodDetector`].
macro_rules! dispatch {
    ($self:expr, $d:ident => $body:expr) => {
        match $self {
            MethodDetector::Slst($d) => $body,
            MethodDetector::SlstRobust($d) => $body,
            MethodDetector::Shingle($d) => $body,
            MethodDetector::MegaShingle($d) => $body,
            MethodDetector::PolyHash($d) => $body,
            MethodDetector::SpotSigs($d) => $body,
            MethodDetector::SentLen($d) => $body,
            MethodDetector::Md5($d) => $body,
            MethodDetector::Blocks($d) => $body,
        }
    };
}

impl MethodDetector {
    /// Do `work` with the typed detector.
    pub fn visit<V: WithDetector>(&self, work: V) -> V::Output {
        dispatch!(self, d => work.with(d))
    }

    /// The method.
    pub fn method(&self) -> Method {
        dispatch!(self, d => d.method())
    }

    /// The settings in force.
    pub fn params(&self) -> Params {
        dispatch!(self, d => d.params())
    }

    /// The decision rule in words.
    pub fn rule(&self) -> String {
        dispatch!(self, d => d.rule())
    }

    /// SL+ST's mode, for SL+ST.
    pub fn mode(&self) -> Option<SlstMode> {
        self.params().mode()
    }

    /// Sketch two documents (on two threads) and compare them: the scores and the decision,
    /// without the method's evidence (for that, [`MethodDetector::visit`] with the typed
    /// detector).
    ///
    /// # Example
    /// ```
    /// use slst::method::{Method, MethodSettings};
    /// use slst::Document;
    /// let a = Document::new("a", "Rain fell on the old town. The river rose by a metre.");
    /// let md5 = MethodSettings::default().detector(Method::Md5)?;
    /// assert!(md5.compare_documents(&a, &a).duplicate);
    /// # Ok::<(), slst::Error>(())
    /// ```
    pub fn compare_documents(&self, a: &Document, b: &Document) -> Comparison<()> {
        struct Scores<'a>(&'a Document, &'a Document);
        impl WithDetector for Scores<'_> {
            type Output = Comparison<()>;
            fn with<D: Detector>(self, d: &D) -> Comparison<()> {
                let (a, b) = super::sketch_pair(d, self.0, self.1);
                let c = d.compare(&a, &b);
                Comparison {
                    method: c.method,
                    similarity: c.similarity,
                    duplicate: c.duplicate,
                    evidence: (),
                }
            }
        }
        self.visit(Scores(a, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_builds_reports_its_name_and_scores_itself_one() {
        struct Identity<'a>(&'a Document);
        impl WithDetector for Identity<'_> {
            type Output = (Method, f64, bool);
            fn with<D: Detector>(self, d: &D) -> Self::Output {
                let s = d.sketch(self.0);
                let c = d.compare(&s, &s);
                (c.method, c.similarity.resemblance, c.duplicate)
            }
        }
        let doc = Document::new("d", include_str!("../../corpora/clough/orig_taskb.txt"));
        let mut s = MethodSettings::default();
        s.validate().unwrap();
        for mode in [SlstMode::Paper, SlstMode::Robust] {
            s.slst_mode = mode;
            for method in Method::ALL {
                let d = s.detector(method).unwrap();
                assert_eq!(d.method(), method);
                assert_eq!(d.visit(Identity(&doc)), (method, 1.0, true), "{method}");
                assert!(!d.rule().is_empty());
                assert_eq!(Method::from_name(method.name()), Some(method));
                assert_eq!(
                    serde_json::to_string(&method).unwrap(),
                    format!("\"{method}\"")
                );
            }
            assert_eq!(s.detector(Method::Slst).unwrap().mode(), Some(mode));
        }
    }
}
