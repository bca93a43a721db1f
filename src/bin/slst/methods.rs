//! Choosing methods by name.

use slst::{AnyDetector, Error, Result, SlSt, SlstConfig};

/// The detectors named by `--method` (`all` for every method).
pub fn detectors(name: &str, slst: &SlstConfig) -> Result<Vec<Box<dyn AnyDetector>>> {
    match name {
        "slst" | "all" => Ok(vec![Box::new(SlSt::new(slst.clone())?)]),
        other => Err(Error::InvalidParameter {
            name: "--method",
            value: other.to_string(),
            expected: "slst or all",
        }),
    }
}
