//! PNG plots of an evaluation: precision, recall and F1 against the threshold for each method
//! (seed 004, figures 8–9), and the number of reported pairs against the threshold (seed 000,
//! figure 3).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::prelude::*;

use super::MethodEval;
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
    Error::Io {
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
    std::fs::create_dir_all(dir).map_err(|source| Error::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let text = font_ready(font);
    let mut written = Vec::new();
    for m in methods {
        let path = dir.join(format!("prf-{}.png", m.file_stem()));
        prf_plot(&path, &format!("{title}: {}", m.label()), m, text)
            .map_err(|e| plot_error(&path, e))?;
        written.push(path);
    }
    let path = dir.join("reported-pairs.png");
    reported_plot(&path, &format!("{title}: pairs reported"), methods, text)
        .map_err(|e| plot_error(&path, e))?;
    written.push(path);
    Ok(written)
}

type DrawResult = std::result::Result<(), Box<dyn std::error::Error>>;

/// A curve of the P/R/F1 plot: its name, colour and the measure it draws.
type Curve = (
    &'static str,
    RGBColor,
    fn(&super::metrics::SweepPoint) -> f64,
);

fn prf_plot(path: &Path, title: &str, m: &MethodEval, text: bool) -> DrawResult {
    let root = BitMapBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut builder = ChartBuilder::on(&root);
    builder
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(50);
    if text {
        builder.caption(title, ("sans-serif", 22));
    }
    let mut chart = builder.build_cartesian_2d(0f64..1.0, 0f64..1.02)?;
    if text {
        chart
            .configure_mesh()
            .x_desc("threshold θ")
            .y_desc("score")
            .draw()?;
    } else {
        chart
            .configure_mesh()
            .disable_x_mesh()
            .disable_y_mesh()
            .x_labels(0)
            .y_labels(0)
            .draw()?;
    }
    let series: [Curve; 3] = [
        ("precision", RGBColor(31, 119, 180), |p| p.precision),
        ("recall", RGBColor(214, 39, 40), |p| p.recall),
        ("F1", RGBColor(44, 160, 44), |p| p.f1),
    ];
    for (name, color, f) in series {
        let drawn = chart.draw_series(LineSeries::new(
            m.sweep.iter().map(|p| (p.threshold, f(p))),
            color.stroke_width(2),
        ))?;
        if text {
            drawn.label(name).legend(move |(x, y)| {
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

fn reported_plot(path: &Path, title: &str, methods: &[MethodEval], text: bool) -> DrawResult {
    let root = BitMapBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let max = methods
        .iter()
        .flat_map(|m| m.sweep.iter().map(|p| p.reported))
        .max()
        .unwrap_or(1)
        .max(1);
    let mut builder = ChartBuilder::on(&root);
    builder
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(70);
    if text {
        builder.caption(title, ("sans-serif", 22));
    }
    let mut chart = builder.build_cartesian_2d(0f64..1.0, 0f64..(max as f64 * 1.05))?;
    if text {
        chart
            .configure_mesh()
            .x_desc("threshold θ")
            .y_desc("pairs reported")
            .draw()?;
    } else {
        chart.configure_mesh().x_labels(0).y_labels(0).draw()?;
    }
    for (k, m) in methods.iter().enumerate() {
        let color = Palette99::pick(k).to_rgba();
        let drawn = chart.draw_series(LineSeries::new(
            m.sweep.iter().map(|p| (p.threshold, p.reported as f64)),
            color.stroke_width(2),
        ))?;
        if text {
            drawn.label(m.label()).legend(move |(x, y)| {
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
