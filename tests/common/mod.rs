//! What the CLI test files share: running the built binary and reading its output.
#![allow(dead_code)] // each test file uses its own subset

use std::path::Path;
use std::process::{Command, Output};

/// Run `slst` with `args` in `dir`.
pub fn slst_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_slst"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the slst binary runs")
}

/// Run `slst` with `args` in the repository root.
pub fn slst(args: &[&str]) -> Output {
    slst_in(repo(), args)
}

/// The repository root.
pub fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
