//! PNG plots of an evaluation: precision, recall and F1 against the threshold for each method
//! (seed 004, figures 8–9), and the number of reported pairs against the threshold (seed 000,
//! figure 3); for text alignment, plagdet, precision and recall against the passages'
//! similarity threshold, and the detections kept.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::prelude::*;

use super::MethodEval;
use super::alignment::AlignmentEval;
use super::alignment::AlignmentPoint;
use super::metrics::SweepPoint;
use crate::error::{Error, Result};

/// Where a sans-serif TrueType font is looked for (labels need one; DejaVu ships with Debian's
/// and most Linux base images), after the font the caller names.
const FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/Library/Fonts/Arial.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Register a font once — `font` if given and readable, else the first of [`FONT_PATHS`];
/// `false` when none could be found (plots are then drawn without text).
fn font_ready(font: Option<&Path>) -> bool {
    static READY: OnceLock<bool> = OnceLock::new();
    *READY.get_or_init(|| {
        let candidates = font
            .map(Path::to_path_buf)
            .into_iter()
            .chain(FONT_PATHS.iter().map(PathBuf::from));
        for path in candidates {
            if let Ok(bytes) = std::fs::read(&path) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                    return true;
                }
            }
        }
        false
    })
}

fn plot_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Write {
        path: path.to_path_buf(),
        source: std::io::Error::other(e.to_string()),
    }
}

/// Write `prf-<method>.png` for each method and `reported-pairs.png` into `dir` (created if
/// needed), labelled in `font` (a TrueType file; default: a system sans-serif); returns the
/// files written.
///
/// # Errors
/// The folder or a file cannot be written.
pub fn write_plots(
    dir: &Path,
    title: &str,
    methods: &[MethodEval],
    font: Option<&Path>,
) -> Result<Vec<PathBuf>> {
    let mut plots: Vec<Plot> = methods
        .iter()
        .map(|m| Plot {
            file: format!("prf-{}.png", m.file_stem()),
            title: format!("{title}: {}", m.label()),
            y_desc: "score",
            scores: true,
            series: measures(&m.sweep, PRF),
        })
        .collect();
    plots.push(Plot {
        file: "reported-pairs.png".into(),
        title: format!("{title}: pairs reported"),
        y_desc: "pairs reported",
        scores: false,
        series: per_method(methods.iter().map(|m| {
            let points = m.sweep.iter().map(|p| (p.threshold, p.reported as f64));
            (m.label(), points.collect())
        })),
    });
    draw_all(dir, &plots, font)
}

/// Write `plagdet-<method>.png` (plagdet, precision and recall against the similarity
/// threshold) for each method of a text-alignment evaluation and `detections.png` (detections
/// kept against the threshold) into `dir`, as [`write_plots`] does; returns the files written.
///
/// # Errors
/// The folder or a file cannot be written.
pub fn write_alignment_plots(
    dir: &Path,
    title: &str,
    methods: &[AlignmentEval],
    font: Option<&Path>,
) -> Result<Vec<PathBuf>> {
    let mut plots: Vec<Plot> = methods
        .iter()
        .map(|m| Plot {
            file: format!("plagdet-{}.png", m.file_stem()),
            title: format!("{title}: {}", m.label()),
            y_desc: "score",
            scores: true,
            series: measures(&m.sweep, PLAGDET),
        })
        .collect();
    plots.push(Plot {
        file: "detections.png".into(),
        title: format!("{title}: detections kept"),
        y_desc: "detections",
        scores: false,
        series: per_method(methods.iter().map(|m| {
            let points = m.sweep.iter().map(|p| (p.threshold, p.detections as f64));
            (m.label(), points.collect())
        })),
    });
    draw_all(dir, &plots, font)
}

/// One PNG: its file name, title, y axis and curves (x is always the threshold, 0 to 1).
struct Plot {
    file: String,
    title: String,
    y_desc: &'static str,
    /// Scores in [0, 1] (else counts, the axis reaching past the largest).
    scores: bool,
    series: Vec<Series>,
}

/// One curve: its legend, colour and points.
struct Series {
    name: String,
    color: RGBAColor,
    points: Vec<(f64, f64)>,
}

/// A measure drawn against θ: its legend, colour and value at a point of a sweep.
type Measure<P> = (&'static str, RGBColor, fn(&P) -> f64);

const BLUE: RGBColor = RGBColor(31, 119, 180);
const RED: RGBColor = RGBColor(214, 39, 40);
const GREEN: RGBColor = RGBColor(44, 160, 44);

/// Pair evaluation's curves.
const PRF: [Measure<SweepPoint>; 3] = [
    ("precision", BLUE, |p| p.precision),
    ("recall", RED, |p| p.recall),
    ("F1", GREEN, |p| p.f1),
];

/// Text alignment's curves.
const PLAGDET: [Measure<AlignmentPoint>; 3] = [
    ("precision", BLUE, |p| p.precision),
    ("recall", RED, |p| p.recall),
    ("plagdet", GREEN, |p| p.plagdet),
];

/// The curves of some measures over a sweep.
fn measures<P, const N: usize>(sweep: &[P], measures: [Measure<P>; N]) -> Vec<Series>
where
    P: HasThreshold,
{
    measures
        .iter()
        .map(|&(name, color, f)| Series {
            name: name.into(),
            color: color.to_rgba(),
            points: sweep.iter().map(|p| (p.threshold(), f(p))).collect(),
        })
        .collect()
}

/// One curve per method, in the palette's colours.
fn per_method(curves: impl Iterator<Item = (String, Vec<(f64, f64)>)>) -> Vec<Series> {
    curves
        .enumerate()
        .map(|(k, (name, points))| Series {
            name,
            color: Palette99::pick(k).to_rgba(),
            points,
        })
        .collect()
}

/// A point of a sweep: its threshold.
trait HasThreshold {
    fn threshold(&self) -> f64;
}

impl HasThreshold for SweepPoint {
    fn threshold(&self) -> f64 {
        self.threshold
    }
}

impl HasThreshold for AlignmentPoint {
    fn threshold(&self) -> f64 {
        self.threshold
    }
}

/// Draw every plot into `dir` (created if needed).
fn draw_all(dir: &Path, plots: &[Plot], font: Option<&Path>) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|source| Error::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    let text = font_ready(font);
    let mut written = Vec::new();
    for plot in plots {
        let path = dir.join(&plot.file);
        draw(&path, plot, text).map_err(|e| plot_error(&path, e))?;
        written.push(path);
    }
    Ok(written)
}

type DrawResult = std::result::Result<(), Box<dyn std::error::Error>>;

/// Draw one plot: the curves against θ in [0, 1], the y axis from 0 to 1.02 for scores or to
/// 5 % above the largest value for counts; legends and labels only when a font is ready.
fn draw(path: &Path, plot: &Plot, text: bool) -> DrawResult {
    let root = BitMapBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let largest = plot
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(1.0f64, f64::max);
    let y_max = if plot.scores { 1.02 } else { largest * 1.05 };
    let mut builder = ChartBuilder::on(&root);
    builder
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(if plot.scores { 50 } else { 70 });
    if text {
        builder.caption(&plot.title, ("sans-serif", 22));
    }
    let mut chart = builder.build_cartesian_2d(0f64..1.0, 0f64..y_max)?;
    if text {
        chart
            .configure_mesh()
            .x_desc("threshold θ")
            .y_desc(plot.y_desc)
            .draw()?;
    } else {
        chart.configure_mesh().x_labels(0).y_labels(0).draw()?;
    }
    for s in &plot.series {
        let color = s.color;
        let drawn = chart.draw_series(LineSeries::new(
            s.points.iter().copied(),
            color.stroke_width(2),
        ))?;
        if text {
            drawn.label(s.name.as_str()).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        }
    }
    if text {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
    }
    root.present()?;
    Ok(())
}
