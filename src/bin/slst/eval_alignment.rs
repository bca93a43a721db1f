//! `slst eval SOURCE… --truth FILE --truth-format alignment|pan-xml`: PAN's character measures
//! of the passages (or blocks) each method finds in the truth's pairs of documents; with
//! `--detections-out`, those detections as PAN's detection files.

use std::path::PathBuf;

use slst::eval::alignment::{
    self, AlignmentConfig, AlignmentEval, AlignmentReport, AlignmentSet, DetectionKind, pan_xml,
    truth,
};
use slst::method::{Method, MethodDetector, WithDetector};
use slst::{Detector, Error, Result};

use crate::eval::{EvalArgs, TruthFormat};

/// One method's text-alignment evaluation.
struct Evaluate<'a> {
    set: &'a AlignmentSet<'a>,
    config: &'a AlignmentConfig,
}

impl WithDetector for Evaluate<'_> {
    type Output = AlignmentEval;

    fn with<D: Detector>(self, d: &D) -> AlignmentEval {
        alignment::evaluate(self.set, d, self.config)
    }
}

/// Refuse what text-alignment evaluation cannot use: methods without blocks (nothing to grow
/// passages from) and the flags of pair evaluation.
fn check(args: &EvalArgs, detectors: &[MethodDetector]) -> Result<()> {
    for d in detectors {
        // The methods whose comparisons have sentence blocks with spans.
        if !matches!(d.method(), Method::Slst | Method::SlstFlat) {
            return Err(Error::InvalidParameter {
                name: "method",
                value: d.method().to_string(),
                expected: "a method with blocks (slst, slst-flat) for text-alignment truth",
            });
        }
    }
    let refuse = |flag: &'static str, given: bool| {
        if given {
            Err(Error::InvalidParameter {
                name: flag,
                value: "given".into(),
                expected: "not given with --truth-format alignment or pan-xml (it is for pairs)",
            })
        } else {
            Ok(())
        }
    };
    refuse("--positive", !args.positive.is_empty())?;
    refuse("--ignore", args.ignore.is_some())?;
    refuse("--min-shared-words", args.min_shared_words.is_some())?;
    // Dropping boilerplate lays pages out again, which moves every character offset.
    refuse("--drop-boilerplate", args.drop_boilerplate)
}

pub fn run(args: &EvalArgs, detectors: &[MethodDetector]) -> Result<()> {
    check(args, detectors)?;
    let truth = match args.truth_format {
        TruthFormat::PanXml => truth::read_pan_xml(&args.truth, truth::PAN_CASE)?,
        _ => truth::read_cases(&args.truth)?,
    };
    // Checked before the evaluation, so that it does not end in an error.
    let outputs = detection_folders(args, detectors, &truth.pairs)?;
    let (docs, skipped) = crate::eval::read_documents(args)?;
    let set = alignment::prepare(&docs, &truth)?;
    let config = AlignmentConfig {
        detections: match args.passages.config() {
            Some(align) => DetectionKind::Passages(align),
            None => DetectionKind::Blocks,
        },
        ..AlignmentConfig::default()
    };
    let results: Vec<AlignmentEval> = detectors
        .iter()
        .map(|d| {
            d.visit(Evaluate {
                set: &set,
                config: &config,
            })
        })
        .collect();
    if let Some(dir) = &args.plots {
        plots(dir, args, &results)?;
    }
    for (dir, result) in outputs.iter().zip(&results) {
        let files = pan_xml::write_pairs(dir, &result.pairs)?;
        if !args.json && args.quiet.verbose() {
            eprintln!("slst: wrote {files} detection files to {}", dir.display());
        }
    }
    let report = AlignmentReport::new(set.summary().clone(), skipped, &config.detections, results);
    if args.json {
        crate::emit(&(crate::profile::to_json(&report) + "\n"))
    } else {
        crate::emit(&report.to_text(args.sweep))
    }
}

/// The folder of each method's detection files with --detections-out (none without): the folder
/// itself for one method, a subfolder per method for several; each checked to take the files.
fn detection_folders(
    args: &EvalArgs,
    detectors: &[MethodDetector],
    pairs: &[(String, String)],
) -> Result<Vec<PathBuf>> {
    let Some(dir) = &args.detections_out else {
        return Ok(Vec::new());
    };
    let folders: Vec<PathBuf> = match detectors {
        [_] => vec![dir.clone()],
        _ => detectors
            .iter()
            .map(|d| dir.join(pan_xml::method_folder(d.method(), d.mode())))
            .collect(),
    };
    for folder in &folders {
        pan_xml::check_folder(folder, pairs)?;
    }
    Ok(folders)
}

/// Write the plots (`SLST_FONT` names the TrueType font for their labels).
#[cfg(feature = "plots")]
fn plots(dir: &std::path::Path, args: &EvalArgs, results: &[AlignmentEval]) -> Result<()> {
    let font = std::env::var_os("SLST_FONT").map(std::path::PathBuf::from);
    let files =
        slst::eval::plot::write_alignment_plots(dir, &args.title, results, font.as_deref())?;
    if !args.json && args.quiet.verbose() {
        eprintln!("slst: wrote {} plots to {}", files.len(), dir.display());
    }
    Ok(())
}

/// Plots need the `plots` feature.
#[cfg(not(feature = "plots"))]
fn plots(dir: &std::path::Path, _args: &EvalArgs, _results: &[AlignmentEval]) -> Result<()> {
    Err(Error::InvalidParameter {
        name: "plots",
        value: dir.display().to_string(),
        expected: "a build with the `plots` feature",
    })
}
