//! The flags of every method's settings (SL+ST's mode and the baselines of SPEC §5), shared by
//! the commands that run methods, and their translation into library settings.

use clap::{Args, ValueEnum};
use slst::method::{
    DEFAULT_ANTECEDENTS, MegaShingleConfig, MethodSettings, RobustConfig, ShingleConfig,
    ShingleHash, ShingleMeasure, ShingleSketchKind, SlstMode, StemmerLanguage,
};
use slst::profile::ProfileConfig;
use slst::text::StopWords;
use slst::{Error, Result, SlstConfig};

/// The settings of every baseline, each with its paper's default.
#[derive(Args, Debug, Clone)]
pub struct MethodFlags {
    #[command(flatten)]
    pub robust: RobustFlags,
    #[command(flatten)]
    pub shingle: ShingleFlags,
    #[command(flatten)]
    pub megashingle: MegaShingleFlags,
    #[command(flatten)]
    pub polyhash: PolyHashFlags,
    #[command(flatten)]
    pub spotsigs: SpotSigsFlags,
    #[command(flatten)]
    pub sentlen: SentLenFlags,
    #[command(flatten)]
    pub blocks: BlocksFlags,
}

/// The block methods of web pages (seed 004): blocks-md5, blocks-shingle, specialchars,
/// blocks-specialchars.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Block methods (web pages)")]
pub struct BlocksFlags {
    /// blocks-shingle: shingles kept per page, spread over its blocks in proportion to their
    /// length (at least one per block); the shingle size is --shingle-size.
    #[arg(hide_short_help = true, long, default_value_t = 10, value_name = "N")]
    pub shingles_per_page: usize,
    /// Threshold of blocks-md5 and blocks-shingle [default: --threshold, else 0.5].
    #[arg(hide_short_help = true, long, value_name = "θ")]
    pub blocks_threshold: Option<f64>,
    /// Threshold of specialchars and blocks-specialchars [default: --threshold, else 0.9].
    #[arg(hide_short_help = true, long, value_name = "θ")]
    pub specialchars_threshold: Option<f64>,
}

/// SL+ST's mode and the robust mode's tolerances.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Method slst")]
pub struct RobustFlags {
    /// SL+ST's mode: `robust` (the default) or `paper` (the published method).
    ///
    /// `robust`: sentences match when their lengths and term sets are close, and a pair is
    /// decided as a reader would (one text contained in the other counts; other figures or other
    /// parties in the same words do not); `paper`: the published SL+ST (equal lengths and leading
    /// terms, J ≥ θ), to reproduce the paper. `slst eval` takes both (`paper,robust`) to score
    /// the two modes side by side.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "robust",
        value_name = "MODE"
    )]
    pub mode: Vec<ModeArg>,
    /// Robust mode: two matching sentences differ in length by at most this many terms (δ).
    #[arg(hide_short_help = true, long, default_value_t = RobustConfig::default().length_tolerance, value_name = "TERMS")]
    pub length_tolerance: usize,
    /// Robust mode: two matching sentences have a term-set Jaccard of at least this (τ).
    #[arg(hide_short_help = true, long, default_value_t = RobustConfig::default().term_similarity, value_name = "τ")]
    pub term_similarity: f64,
    /// Robust mode: one sentence pair is a block when both have at least this many terms
    /// (0: never) …
    #[arg(hide_short_help = true, long, default_value_t = RobustConfig::default().single_min_terms, value_name = "TERMS")]
    pub single_min_terms: usize,
    /// … and their term-set Jaccard is at least this.
    #[arg(hide_short_help = true, long, default_value_t = RobustConfig::default().single_similarity, value_name = "τ1")]
    pub single_similarity: f64,
    /// Robust mode: also cut sentences at semicolons and colons (clauses as units).
    #[arg(hide_short_help = true, long, default_value_t = RobustConfig::default().clauses, value_name = "true|false",
          action = clap::ArgAction::Set)]
    pub clauses: bool,
    /// Robust mode: stem terms (Snowball English) after stop-word removal.
    #[arg(hide_short_help = true, long, default_value_t = RobustConfig::default().stem, value_name = "true|false",
          action = clap::ArgAction::Set)]
    pub stem: bool,
    /// Robust mode: two matching sentences also share one of their K longest terms, a
    /// single-pair block two of them (0: off; exact term-set matching, slower corpus runs).
    #[arg(hide_short_help = true, long, default_value_t = RobustConfig::default().anchor_terms, value_name = "K")]
    pub anchor_terms: usize,
    /// Robust mode: cut sentences glued without a space (`organization.Coalition`).
    #[arg(hide_short_help = true, long, default_value_t = RobustConfig::default().split_glued, value_name = "true|false",
          action = clap::ArgAction::Set)]
    pub split_glued: bool,
    /// Robust mode: cut units longer than --max-length into windows of this many terms instead
    /// of dropping them (0: drop).
    #[arg(hide_short_help = true, long, default_value_t = RobustConfig::default().window, value_name = "TERMS")]
    pub window: usize,
    /// Robust mode: a duplicate also has a weighted resemblance (sentence pairs in blocks
    /// counted by their term-set Jaccard) of at least this (0: no such condition).
    #[arg(hide_short_help = true, long, default_value_t = RobustConfig::default().min_weighted, value_name = "J")]
    pub min_weighted: f64,
    /// Robust mode: a duplicate also has at least this share of the figures (terms with a
    /// digit) in its blocks' sentence pairs the same on both sides (0: no such condition).
    #[arg(hide_short_help = true, long, default_value_t = RobustConfig::default().min_figures, value_name = "SHARE")]
    pub min_figures: f64,
    /// Robust mode: also a duplicate when at least this share of either document's sentences
    /// lie in blocks — a flash and its story, a story and its first paragraphs (0: J alone).
    #[arg(long, default_value_t = RobustConfig::default().contained, value_name = "SHARE")]
    pub contained: f64,
    /// Robust mode: a duplicate also has at least this share of the figures of the document
    /// with fewer figures (numbers, written-out cardinals) in the other (0: no such condition).
    #[arg(long, default_value_t = RobustConfig::default().min_figure_containment, value_name = "SHARE")]
    pub min_figure_containment: f64,
    /// Robust mode: a duplicate's matched sentence pairs have term-set Jaccard coefficients
    /// summing to at least this share of the smaller document's sentences (0: no condition).
    #[arg(long, default_value_t = RobustConfig::default().min_agreement, value_name = "SHARE")]
    pub min_agreement: f64,
    /// Robust mode: a duplicate also has at least this share of the distinct terms of the
    /// document with fewer of them in the other (0: no such condition).
    #[arg(long, default_value_t = RobustConfig::default().min_term_containment, value_name = "SHARE")]
    pub min_term_containment: f64,
    /// Robust mode: two documents of at least this many kept sentences each, at J ≥ θ, may meet
    /// the figure and term conditions over the sentences they share: an edited copy's new
    /// sentences bring figures and words of their own (0: the whole texts decide).
    #[arg(long, default_value_t = RobustConfig::default().matched_containment_from, value_name = "SENTENCES")]
    pub matched_containment_from: usize,
    /// Robust mode: two one-sentence documents (headlines, flashes) are a duplicate only when
    /// the first word of either is in the other: the same notice for another bank or company.
    #[arg(long, default_value_t = RobustConfig::default().flash_leads, value_name = "true|false",
          action = clap::ArgAction::Set)]
    pub flash_leads: bool,
    /// Robust mode: two one-sentence documents (headlines, flashes) that each hold at least
    /// this many words the other lacks are not a duplicate: two events, not one flash sent
    /// again (0: off).
    #[arg(long, default_value_t = RobustConfig::default().flash_edits, value_name = "WORDS")]
    pub flash_edits: usize,
    /// Robust mode: two documents whose headlines (first sentences) each name a figure, or a
    /// word their own text repeats, that the other document lacks are not a duplicate: the
    /// same notice or table for another fund, bank, market or hour.
    #[arg(long, default_value_t = RobustConfig::default().headline_subjects, value_name = "true|false",
          action = clap::ArgAction::Set)]
    pub headline_subjects: bool,
    /// Robust mode: two documents whose blocks hold at least this many sentence pairs with the
    /// same words around other figures are not a duplicate: the same table or estimate for
    /// another day, week or month (0: off).
    #[arg(long, default_value_t = RobustConfig::default().figure_swaps, value_name = "N")]
    pub figure_swaps: usize,
    /// Robust mode: also a duplicate when a block joins the two documents and the distinct
    /// terms of their whole texts have at least this Jaccard coefficient, whatever the share of
    /// their sentences in blocks: a story sent again with its sentences cut otherwise (0: off).
    #[arg(long, default_value_t = RobustConfig::default().vocabulary, value_name = "J")]
    pub vocabulary: f64,
    /// Robust mode, corpus runs and indexes: keys per pair of neighbouring sentences, picked by
    /// min-wise hashing among the pairs of their anchors (0: every pair, an exact join). Fewer
    /// keys make a run faster and smaller; a block of edited sentences may then be missed.
    #[arg(hide_short_help = true, long, default_value_t = RobustConfig::default().pair_keys, value_name = "N")]
    pub pair_keys: usize,
}

/// The CLI names of [`SlstMode`].
#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeArg {
    /// Faithful SL+ST.
    Paper,
    /// Robust SL+ST.
    Robust,
}

impl RobustFlags {
    /// The modes chosen, in order, without repeats.
    pub fn modes(&self) -> Vec<SlstMode> {
        let mut modes: Vec<SlstMode> = Vec::new();
        for m in &self.mode {
            let mode = match m {
                ModeArg::Paper => SlstMode::Paper,
                ModeArg::Robust => SlstMode::Robust,
            };
            if !modes.contains(&mode) {
                modes.push(mode);
            }
        }
        modes
    }

    /// The one mode chosen.
    ///
    /// # Errors
    /// More than one mode (only `slst eval` runs several).
    pub fn mode(&self) -> Result<SlstMode> {
        match self.modes()[..] {
            [mode] => Ok(mode),
            _ => Err(Error::InvalidParameter {
                name: "mode",
                value: self
                    .modes()
                    .iter()
                    .map(|m| m.name())
                    .collect::<Vec<_>>()
                    .join(","),
                expected: "one mode (only `slst eval` compares several)",
            }),
        }
    }

    /// The robust settings, sharing SL+ST's stop words, maximum length, minimum block and
    /// threshold.
    pub fn config(&self, slst: &SlstConfig) -> RobustConfig {
        RobustConfig {
            stopwords: slst.profile.stopwords.clone(),
            max_length: slst.profile.max_length,
            min_block: slst.min_block,
            length_tolerance: self.length_tolerance,
            term_similarity: self.term_similarity,
            single_min_terms: self.single_min_terms,
            single_similarity: self.single_similarity,
            clauses: self.clauses,
            stem: self.stem,
            anchor_terms: self.anchor_terms,
            split_glued: self.split_glued,
            window: self.window,
            threshold: slst.threshold,
            min_weighted: self.min_weighted,
            min_figures: self.min_figures,
            contained: self.contained,
            min_figure_containment: self.min_figure_containment,
            min_agreement: self.min_agreement,
            min_term_containment: self.min_term_containment,
            matched_containment_from: self.matched_containment_from,
            flash_leads: self.flash_leads,
            flash_edits: self.flash_edits,
            headline_subjects: self.headline_subjects,
            figure_swaps: self.figure_swaps,
            vocabulary: self.vocabulary,
            pair_keys: self.pair_keys,
        }
    }
}

/// Shingles (Broder 1997; seeds 000, 001).
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Method shingle")]
pub struct ShingleFlags {
    /// Terms per shingle, w.
    #[arg(hide_short_help = true, long, default_value_t = 4, value_name = "W")]
    pub shingle_size: usize,
    /// Fingerprint: Karp–Rabin (64-bit word, 61 bits) or CRC-32 of the shingle text.
    #[arg(hide_short_help = true, long, value_enum, default_value_t = HashArg::Rabin)]
    pub hash: HashArg,
    /// Which fingerprints to keep: all, those ≡ 0 mod m, or the n smallest.
    #[arg(hide_short_help = true, long, value_enum, default_value_t = SketchArg::Full)]
    pub sketch: SketchArg,
    /// m of `--sketch mod`.
    #[arg(hide_short_help = true, long, default_value_t = 25, value_name = "M")]
    pub modulus: u64,
    /// n of `--sketch min`.
    #[arg(hide_short_help = true, long, default_value_t = 160, value_name = "N")]
    pub sketch_size: usize,
    /// The score that decides: resemblance, containment (either way) or Dice over shingle lists.
    #[arg(hide_short_help = true, long, value_enum, default_value_t = MeasureArg::Resemblance)]
    pub measure: MeasureArg,
    /// Threshold of the shingle method [default: --threshold, else 0.5].
    #[arg(hide_short_help = true, long, value_name = "θ")]
    pub shingle_threshold: Option<f64>,
}

/// The CLI names of [`ShingleHash`].
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum HashArg {
    /// Karp–Rabin over the terms' hashes, mod 2^61 − 1.
    Rabin,
    /// CRC-32 of the shingle's text, terms joined by single spaces (Rodnenko 2009).
    Crc32,
}

/// The CLI names of [`ShingleSketchKind`].
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum SketchArg {
    /// Every shingle.
    Full,
    /// Fingerprints ≡ 0 mod m.
    Mod,
    /// The n smallest fingerprints.
    Min,
}

/// The CLI names of [`ShingleMeasure`].
#[derive(ValueEnum, Debug, Clone, Copy)]
pub enum MeasureArg {
    /// |X ∩ Y| / |X ∪ Y|.
    Resemblance,
    /// max(|X ∩ Y| / |X|, |X ∩ Y| / |Y|).
    Containment,
    /// 2·|X ∩ Y| / (|X| + |Y|) over shingle lists (Rodnenko 2009).
    Dice,
}

/// Megashingles (Fetterly et al. 2003; seed 000).
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Method megashingle")]
pub struct MegaShingleFlags {
    /// Terms per shingle.
    #[arg(hide_short_help = true, long, default_value_t = 5, value_name = "W")]
    pub mega_shingle_size: usize,
    /// Min-wise permutations, i.e. minima per signature.
    #[arg(hide_short_help = true, long, default_value_t = 84, value_name = "N")]
    pub minima: usize,
    /// Minima per supershingle (84 / 14 = 6 supershingles, 15 megashingles).
    #[arg(hide_short_help = true, long, default_value_t = 14, value_name = "N")]
    pub supershingle_size: usize,
    /// Seed of the fixed family of permutations.
    #[arg(
        hide_short_help = true,
        long,
        default_value_t = 2003,
        value_name = "SEED"
    )]
    pub permutation_seed: u64,
}

/// Polynomial-hash character n-grams (seed 003).
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Method polyhash")]
pub struct PolyHashFlags {
    /// Characters per n-gram.
    #[arg(hide_short_help = true, long, default_value_t = 6, value_name = "N")]
    pub ngram: usize,
    /// Base p of the polynomial hash.
    #[arg(hide_short_help = true, long, default_value_t = 257, value_name = "P")]
    pub poly_base: u64,
    /// The two prime moduli.
    #[arg(hide_short_help = true, long, value_delimiter = ',', default_values_t = [1_000_000_007u64, 1_000_000_009], value_name = "M1,M2")]
    pub poly_moduli: Vec<u64>,
    /// Snowball stemmer language (english, russian, french, …) or `none`.
    #[arg(hide_short_help = true, long, default_value = "english", value_parser = parse_stemmer, value_name = "LANG|none")]
    pub stemmer: StemmerArg,
    /// Threshold of the polyhash method [default: --threshold, else 0.5].
    #[arg(hide_short_help = true, long, value_name = "θ")]
    pub polyhash_threshold: Option<f64>,
}

/// SpotSigs (Theobald et al. 2008).
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Method spotsigs")]
pub struct SpotSigsFlags {
    /// Antecedents, comma-separated [default: the, be, is, are, was, will, would, shall, should,
    /// can, could, has, have, had, do, did, does, done, un, une, le, la, el, al].
    #[arg(
        hide_short_help = true,
        long,
        value_delimiter = ',',
        value_name = "WORDS"
    )]
    pub antecedents: Option<Vec<String>>,
    /// Spot distance d: each chain word is the first non-stop word ≥ d words on.
    #[arg(hide_short_help = true, long, default_value_t = 1, value_name = "D")]
    pub spot_distance: usize,
    /// Words per chain.
    #[arg(hide_short_help = true, long, default_value_t = 1, value_name = "C")]
    pub chain_length: usize,
    /// Documents with fewer signatures are not compared.
    #[arg(hide_short_help = true, long, default_value_t = 4, value_name = "N")]
    pub min_signatures: usize,
    /// Write the antecedent into each signature (`the:president`, as the paper's examples do).
    #[arg(hide_short_help = true, long)]
    pub with_antecedent: bool,
    /// Threshold of SpotSigs [default: --threshold, else 0.85].
    #[arg(hide_short_help = true, long, value_name = "θ")]
    pub spotsigs_threshold: Option<f64>,
}

/// Sentence-length features (Wang and Chang 2009).
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Method sentlen")]
pub struct SentLenFlags {
    /// Consecutive sentence lengths per feature.
    #[arg(hide_short_help = true, long, default_value_t = 3, value_name = "K")]
    pub sentlen_k: usize,
    /// Threshold of the sentlen method [default: --threshold, else 0.5].
    #[arg(hide_short_help = true, long, value_name = "θ")]
    pub sentlen_threshold: Option<f64>,
}

/// A Snowball stemmer language, or none.
#[derive(Debug, Clone, Copy)]
pub struct StemmerArg(pub Option<StemmerLanguage>);

/// A Snowball language by its lowercase English name, or `none`.
fn parse_stemmer(s: &str) -> std::result::Result<StemmerArg, String> {
    use StemmerLanguage::*;
    let all = [
        Arabic, Danish, Dutch, English, Finnish, French, German, Greek, Hungarian, Italian,
        Norwegian, Portuguese, Romanian, Russian, Spanish, Swedish, Tamil, Turkish,
    ];
    if s == "none" {
        return Ok(StemmerArg(None));
    }
    all.into_iter()
        .find(|l| slst::method::stemmer_name(Some(*l)) == s.to_lowercase())
        .map(|l| StemmerArg(Some(l)))
        .ok_or_else(|| {
            let names: Vec<String> = all
                .iter()
                .map(|l| slst::method::stemmer_name(Some(*l)))
                .collect();
            format!("expected none or one of {}", names.join(", "))
        })
}

impl ShingleFlags {
    /// The shingle settings: the threshold from --shingle-threshold, else `threshold`, else 0.5.
    pub fn config(&self, threshold: Option<f64>, stopwords: &StopWords) -> ShingleConfig {
        let default = ShingleConfig::default();
        ShingleConfig {
            size: self.shingle_size,
            hash: match self.hash {
                HashArg::Rabin => ShingleHash::Rabin,
                HashArg::Crc32 => ShingleHash::Crc32,
            },
            sketch: match self.sketch {
                SketchArg::Full => ShingleSketchKind::Full,
                SketchArg::Mod => ShingleSketchKind::Mod,
                SketchArg::Min => ShingleSketchKind::Min,
            },
            modulus: self.modulus,
            sketch_size: self.sketch_size,
            measure: match self.measure {
                MeasureArg::Resemblance => ShingleMeasure::Resemblance,
                MeasureArg::Containment => ShingleMeasure::Containment,
                MeasureArg::Dice => ShingleMeasure::Dice,
            },
            threshold: self
                .shingle_threshold
                .or(threshold)
                .unwrap_or(default.threshold),
            stopwords: stopwords.clone(),
        }
    }
}

impl MegaShingleFlags {
    /// The megashingle settings.
    pub fn config(&self, stopwords: &StopWords) -> MegaShingleConfig {
        MegaShingleConfig {
            shingle_size: self.mega_shingle_size,
            minima: self.minima,
            supershingle_size: self.supershingle_size,
            seed: self.permutation_seed,
            stopwords: stopwords.clone(),
        }
    }
}

impl MethodFlags {
    /// The settings of every method: SL+ST's as given, the stop words of `profile` for every
    /// method, and a threshold per method from its own flag, else `threshold`, else its default.
    pub fn settings(
        &self,
        slst: SlstConfig,
        profile: &ProfileConfig,
        threshold: Option<f64>,
    ) -> Result<MethodSettings> {
        let mut s = MethodSettings {
            slst_mode: self.robust.modes().first().copied().unwrap_or_default(),
            robust: self.robust.config(&slst),
            slst,
            ..MethodSettings::default()
        };
        let pick = |own: Option<f64>, default: f64| own.or(threshold).unwrap_or(default);
        let stop = &profile.stopwords;

        s.shingle = self.shingle.config(threshold, stop);
        s.megashingle = self.megashingle.config(stop);

        let f = &self.polyhash;
        s.polyhash.ngram = f.ngram;
        s.polyhash.base = f.poly_base;
        match f.poly_moduli[..] {
            [m1, m2] => s.polyhash.moduli = [m1, m2],
            _ => {
                return Err(Error::InvalidParameter {
                    name: "polyhash.moduli",
                    value: format!("{:?}", f.poly_moduli),
                    expected: "two primes, comma-separated",
                });
            }
        }
        s.polyhash.stemmer = f.stemmer.0;
        s.polyhash.threshold = pick(f.polyhash_threshold, s.polyhash.threshold);
        s.polyhash.stopwords = stop.clone();

        let f = &self.spotsigs;
        s.spotsigs.antecedents = match &f.antecedents {
            Some(words) => words.clone(),
            None => DEFAULT_ANTECEDENTS.iter().map(|w| w.to_string()).collect(),
        };
        s.spotsigs.spot_distance = f.spot_distance;
        s.spotsigs.chain_length = f.chain_length;
        s.spotsigs.min_signatures = f.min_signatures;
        s.spotsigs.with_antecedent = f.with_antecedent;
        s.spotsigs.threshold = pick(f.spotsigs_threshold, s.spotsigs.threshold);
        s.spotsigs.stopwords = stop.clone();

        let f = &self.sentlen;
        s.sentlen.profile = profile.clone();
        s.sentlen.k = f.sentlen_k;
        s.sentlen.threshold = pick(f.sentlen_threshold, s.sentlen.threshold);

        s.md5.stopwords = stop.clone();

        let f = &self.blocks;
        s.blocks.stopwords = stop.clone();
        s.blocks.shingle_size = self.shingle.shingle_size;
        s.blocks.shingles_per_page = f.shingles_per_page;
        s.blocks.threshold = pick(f.blocks_threshold, s.blocks.threshold);
        s.blocks.specialchars_threshold =
            pick(f.specialchars_threshold, s.blocks.specialchars_threshold);
        Ok(s)
    }
}
