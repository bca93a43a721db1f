//! The flags of every method's settings (SL+ST's mode and the baselines of SPEC §5), shared by
//! the commands that run methods, and their translation into library settings.
//!
//! Each flag's default is its configuration's default. A flag is its setting's name with `-` for
//! `_` (`MethodSettings::names`), except the few in [`FLAG_NAMES`].

use clap::{Args, ValueEnum};
use slst::method::{
    BlocksConfig, DEFAULT_ANTECEDENTS, MatchKey, MegaShingleConfig, Method, MethodSettings,
    PolyHashConfig, STEMMER_LANGUAGES, SentLenConfig, ShingleConfig, ShingleHash, ShingleMeasure,
    ShingleSketchKind, SpotSigsConfig, StemmerLanguage, stemmer_name,
};
use slst::profile::ProfileConfig;
use slst::text::StopWords;
use slst::{Error, Result, SlstConfig};

pub use crate::robust_flags::RobustFlags;

/// The settings whose flag is not their name with `-` for `_`: (method, setting, flag). A
/// method's own threshold flag stands beside the shared `--threshold`, which sets every method's.
pub const FLAG_NAMES: &[(Method, &str, &str)] = &[
    (Method::Shingle, "threshold", "--shingle-threshold"),
    (Method::MegaShingle, "shingle_size", "--mega-shingle-size"),
    (Method::MegaShingle, "seed", "--permutation-seed"),
    (Method::PolyHash, "base", "--poly-base"),
    (Method::PolyHash, "moduli", "--poly-moduli"),
    (Method::PolyHash, "threshold", "--polyhash-threshold"),
    (Method::SpotSigs, "threshold", "--spotsigs-threshold"),
    (Method::SentLen, "k", "--sentlen-k"),
    (Method::SentLen, "threshold", "--sentlen-threshold"),
    (Method::BlocksMd5, "threshold", "--blocks-threshold"),
    (Method::BlocksShingle, "threshold", "--blocks-threshold"),
    (
        Method::SpecialChars,
        "threshold",
        "--specialchars-threshold",
    ),
    (
        Method::BlocksSpecialChars,
        "threshold",
        "--specialchars-threshold",
    ),
];

/// The flag that sets `method`'s setting `name`.
pub fn flag_of(method: Method, name: &str) -> String {
    FLAG_NAMES
        .iter()
        .find(|(m, n, _)| *m == method && *n == name)
        .map_or_else(
            || format!("--{}", name.replace('_', "-")),
            |(_, _, f)| f.to_string(),
        )
}

/// SL+ST's paper settings from the flags every command that runs a method shares; the threshold,
/// when not given, is the configuration's default.
pub fn slst_config(
    profile: &ProfileConfig,
    min_block: usize,
    threshold: Option<f64>,
    match_key: MatchKey,
) -> SlstConfig {
    SlstConfig {
        profile: profile.clone(),
        min_block,
        threshold: threshold.unwrap_or(SlstConfig::default().threshold),
        match_key,
    }
}

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
    #[arg(hide_short_help = true, long, default_value_t = BlocksConfig::default().shingles_per_page, value_name = "N")]
    pub shingles_per_page: usize,
    /// Threshold of blocks-md5 and blocks-shingle [default: --threshold, else 0.5].
    #[arg(hide_short_help = true, long, value_name = "θ")]
    pub blocks_threshold: Option<f64>,
    /// Threshold of specialchars and blocks-specialchars [default: --threshold, else 0.9].
    #[arg(hide_short_help = true, long, value_name = "θ")]
    pub specialchars_threshold: Option<f64>,
}

/// Shingles (Broder 1997; seeds 000, 001).
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Method shingle")]
pub struct ShingleFlags {
    /// Terms per shingle, w.
    #[arg(hide_short_help = true, long, default_value_t = ShingleConfig::default().size, value_name = "W")]
    pub shingle_size: usize,
    /// Fingerprint: Karp–Rabin (64-bit word, 61 bits) or CRC-32 of the shingle text.
    #[arg(hide_short_help = true, long, value_enum, default_value_t = ShingleConfig::default().hash.into())]
    pub hash: HashArg,
    /// Which fingerprints to keep: all, those ≡ 0 mod m, or the n smallest.
    #[arg(hide_short_help = true, long, value_enum, default_value_t = ShingleConfig::default().sketch.into())]
    pub sketch: SketchArg,
    /// m of `--sketch mod`.
    #[arg(hide_short_help = true, long, default_value_t = ShingleConfig::default().modulus, value_name = "M")]
    pub modulus: u64,
    /// n of `--sketch min`.
    #[arg(hide_short_help = true, long, default_value_t = ShingleConfig::default().sketch_size, value_name = "N")]
    pub sketch_size: usize,
    /// The score that decides: resemblance, containment (either way) or Dice over shingle lists.
    #[arg(hide_short_help = true, long, value_enum, default_value_t = ShingleConfig::default().measure.into())]
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
    #[arg(hide_short_help = true, long, default_value_t = MegaShingleConfig::default().shingle_size, value_name = "W")]
    pub mega_shingle_size: usize,
    /// Min-wise permutations, i.e. minima per signature.
    #[arg(hide_short_help = true, long, default_value_t = MegaShingleConfig::default().minima, value_name = "N")]
    pub minima: usize,
    /// Minima per supershingle (84 / 14 = 6 supershingles, 15 megashingles).
    #[arg(hide_short_help = true, long, default_value_t = MegaShingleConfig::default().supershingle_size, value_name = "N")]
    pub supershingle_size: usize,
    /// Seed of the fixed family of permutations.
    #[arg(
        hide_short_help = true,
        long,
        default_value_t = MegaShingleConfig::default().seed,
        value_name = "SEED"
    )]
    pub permutation_seed: u64,
}

/// Polynomial-hash character n-grams (seed 003).
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Method polyhash")]
pub struct PolyHashFlags {
    /// Characters per n-gram.
    #[arg(hide_short_help = true, long, default_value_t = PolyHashConfig::default().ngram, value_name = "N")]
    pub ngram: usize,
    /// Base p of the polynomial hash.
    #[arg(hide_short_help = true, long, default_value_t = PolyHashConfig::default().base, value_name = "P")]
    pub poly_base: u64,
    /// The two prime moduli.
    #[arg(hide_short_help = true, long, value_delimiter = ',', default_values_t = PolyHashConfig::default().moduli, value_name = "M1,M2")]
    pub poly_moduli: Vec<u64>,
    /// Snowball stemmer language (english, russian, french, …) or `none`.
    #[arg(hide_short_help = true, long, default_value_t = StemmerArg(PolyHashConfig::default().stemmer), value_parser = parse_stemmer, value_name = "LANG|none")]
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
    #[arg(hide_short_help = true, long, default_value_t = SpotSigsConfig::default().spot_distance, value_name = "D")]
    pub spot_distance: usize,
    /// Words per chain.
    #[arg(hide_short_help = true, long, default_value_t = SpotSigsConfig::default().chain_length, value_name = "C")]
    pub chain_length: usize,
    /// Documents with fewer signatures are not compared.
    #[arg(hide_short_help = true, long, default_value_t = SpotSigsConfig::default().min_signatures, value_name = "N")]
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
    #[arg(hide_short_help = true, long, default_value_t = SentLenConfig::default().k, value_name = "K")]
    pub sentlen_k: usize,
    /// Threshold of the sentlen method [default: --threshold, else 0.5].
    #[arg(hide_short_help = true, long, value_name = "θ")]
    pub sentlen_threshold: Option<f64>,
}

/// A Snowball stemmer language, or none.
#[derive(Debug, Clone, Copy)]
pub struct StemmerArg(pub Option<StemmerLanguage>);

impl std::fmt::Display for StemmerArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&stemmer_name(self.0))
    }
}

/// A Snowball language by its lowercase English name, or `none`.
fn parse_stemmer(s: &str) -> std::result::Result<StemmerArg, String> {
    slst::method::stemmer_from_name(s)
        .map(StemmerArg)
        .ok_or_else(|| {
            let names: Vec<String> = STEMMER_LANGUAGES
                .iter()
                .map(|&l| stemmer_name(Some(l)))
                .collect();
            format!("expected none or one of {}", names.join(", "))
        })
}

/// The CLI names of a library enum, both ways: the flag's default is the library's.
macro_rules! cli_names {
    ($arg:ident <-> $lib:ident { $($a:ident = $l:ident),* }) => {
        impl From<$lib> for $arg {
            fn from(value: $lib) -> Self {
                match value { $($lib::$l => $arg::$a),* }
            }
        }
        impl From<$arg> for $lib {
            fn from(value: $arg) -> Self {
                match value { $($arg::$a => $lib::$l),* }
            }
        }
    };
}
cli_names!(HashArg <-> ShingleHash { Rabin = Rabin, Crc32 = Crc32 });
cli_names!(SketchArg <-> ShingleSketchKind { Full = Full, Mod = Mod, Min = Min });
cli_names!(MeasureArg <-> ShingleMeasure {
    Resemblance = Resemblance,
    Containment = Containment,
    Dice = Dice
});

impl ShingleFlags {
    /// The shingle settings: the threshold from --shingle-threshold, else `threshold`, else 0.5.
    pub fn config(&self, threshold: Option<f64>, stopwords: &StopWords) -> ShingleConfig {
        let default = ShingleConfig::default();
        ShingleConfig {
            size: self.shingle_size,
            hash: self.hash.into(),
            sketch: self.sketch.into(),
            modulus: self.modulus,
            sketch_size: self.sketch_size,
            measure: self.measure.into(),
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
    /// The settings of every method: SL+ST's as given (see [`slst_config`]), its stop words
    /// and profile for every method, and a threshold per method from its own flag, else
    /// `threshold`, else its default.
    ///
    /// # Errors
    /// A robust setting's value it cannot take.
    pub fn settings(&self, slst: SlstConfig, threshold: Option<f64>) -> Result<MethodSettings> {
        let profile = &slst.profile.clone();
        let mut s = MethodSettings {
            slst_mode: self.robust.modes().first().copied().unwrap_or_default(),
            robust: self.robust.config(&slst)?,
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

#[cfg(test)]
mod tests {
    use super::*;
    use slst::method::SlstMode;

    /// Every setting of every method, in either SL+ST mode, is set by a flag of `slst compare`
    /// (the command that takes every method): its name with `-`, or the flag of [`FLAG_NAMES`].
    #[test]
    fn every_setting_has_a_flag() {
        let cmd = crate::compare::CompareArgs::augment_args(clap::Command::new("compare"));
        let flags: Vec<String> = cmd
            .get_arguments()
            .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
            .collect();
        for mode in [SlstMode::Paper, SlstMode::Robust] {
            let settings = MethodSettings {
                slst_mode: mode,
                ..MethodSettings::default()
            };
            for method in Method::ALL {
                for name in settings.names(method) {
                    let flag = flag_of(method, &name);
                    assert!(flags.contains(&flag), "{method} {name}: no {flag}");
                }
            }
        }
    }
}
