//! What a command line is refused for before any work starts: an output that would overwrite an
//! input or another output, or that cannot be written where it is named; standard input named
//! twice; flags that cannot be honoured together. Each refusal is one sentence, printed after
//! `slst: error: ` (exit status 2).

use std::path::{Path, PathBuf};

use slst::method::Method;

use crate::Command;

/// Why a command line is refused.
pub type Refusal = String;

/// Check a parsed command line.
///
/// # Errors
/// The first thing that cannot be done as asked.
pub fn refuse(command: &Command) -> Result<(), Refusal> {
    match command {
        Command::Compare(a) => {
            inputs([&a.a, &a.b])?;
            a.methods.robust.refuse_mode(&a.method.0)
        }
        Command::Batch(a) => crate::batch::refuse(a),
        Command::Dedup(a) => {
            inputs(&a.sources)?;
            a.pairs.refuse()
        }
        Command::Eval(a) => crate::eval::refuse(a),
        Command::Synth(a) => crate::synth::refuse(a),
        #[cfg(feature = "sample")]
        Command::Sample(a) => crate::sample::refuse(a),
        #[cfg(feature = "index")]
        Command::Index(c) => crate::index::refuse(c),
        #[cfg(feature = "index")]
        Command::Query(a) => crate::index::refuse_query(a),
        Command::Sketch(a) => a.methods.robust.refuse_mode(&[a.method.0]),
        // One file read, nothing written.
        _ => Ok(()),
    }
}

/// The inputs named can be read as named: standard input (`-`) at most once, since it can be
/// read only once; and no `true` or `false` left over from a switch's old spelling
/// (`--clauses true`), which would be taken for a file.
///
/// # Errors
/// `-` twice, or a `true`/`false` that is not a file.
pub fn inputs<'a>(paths: impl IntoIterator<Item = &'a PathBuf>) -> Result<(), Refusal> {
    let paths: Vec<&PathBuf> = paths.into_iter().collect();
    let stdin = paths.iter().filter(|p| p.as_os_str() == "-").count();
    if stdin > 1 {
        return Err(format!(
            "`-` (standard input) is named {stdin} times; it can be read only once, so name it \
             once and give the other inputs as files"
        ));
    }
    let value = paths
        .iter()
        .find(|p| (p.as_os_str() == "true" || p.as_os_str() == "false") && !p.exists());
    if let Some(value) = value {
        return Err(format!(
            "{}: no such file; settings that are on or off take no value: write the switch \
             alone (--clauses) or with no- (--no-clauses)",
            value.display()
        ));
    }
    Ok(())
}

/// One output of a run: the flag that names it and the path (`-`: standard output).
pub struct Output<'a> {
    /// The flag, as the help spells it (`--out`).
    pub flag: &'static str,
    /// The path given.
    pub path: &'a Path,
    /// A folder that slst creates and fills (`eval --plots`), rather than one file.
    pub folder: bool,
    /// The path is the flag's default, standard output.
    pub default: bool,
}

impl<'a> Output<'a> {
    /// A file named by `flag`.
    pub fn file(flag: &'static str, path: &'a Path) -> Self {
        Output {
            flag,
            path,
            folder: false,
            default: false,
        }
    }

    /// A folder named by `flag`, created when it does not exist.
    pub fn folder(flag: &'static str, path: &'a Path) -> Self {
        Output {
            folder: true,
            ..Output::file(flag, path)
        }
    }

    fn is_stdout(&self) -> bool {
        !self.folder && self.path.as_os_str() == "-"
    }

    /// The flag as a refusal names it: `--out (standard output, its default)`.
    fn named(&self) -> String {
        if self.default {
            format!("{} (standard output, its default)", self.flag)
        } else {
            self.flag.to_string()
        }
    }
}

/// Every output of a run can be written, and none overwrites an input (a file named, or a file in
/// a folder named) or another output.
///
/// Paths are compared as the file system resolves them: an existing file or folder by its
/// canonical path, a new file by its folder's canonical path and its name. Devices and pipes
/// (`/dev/null`) are written in place and may be named more than once.
///
/// # Errors
/// Two outputs naming one file (or both standard output), an output naming an input or an
/// existing file in an input folder, a folder of outputs inside an input folder, a file output
/// that is a folder, or whose folder does not exist.
pub fn outputs(inputs: &[&Path], outputs: &[Output]) -> Result<(), Refusal> {
    let stdout: Vec<&Output> = outputs.iter().filter(|o| o.is_stdout()).collect();
    if let [first, second, ..] = stdout[..] {
        return Err(format!(
            "{} and {} both write to standard output (-); give one of them a file",
            first.named(),
            second.named()
        ));
    }
    let inputs: Vec<(PathBuf, &Path)> = inputs
        .iter()
        .filter(|p| p.as_os_str() != "-")
        .filter_map(|p| Some((std::fs::canonicalize(p).ok()?, *p)))
        .collect();
    let mut seen: Vec<(PathBuf, &Output)> = Vec::new();
    for output in outputs.iter().filter(|o| !o.is_stdout()) {
        let Some(key) = writable(output)? else {
            continue;
        };
        if let Some((_, input)) = inputs.iter().find(|(k, _)| *k == key) {
            return Err(format!(
                "{} {} names an input ({}); it would be overwritten",
                output.flag,
                output.path.display(),
                input.display()
            ));
        }
        // A file already in an input folder is an input too; a new folder of outputs there
        // would be read with the inputs next time.
        let among = output.folder || key.is_file();
        let folder = inputs
            .iter()
            .find(|(k, _)| among && k.is_dir() && key.starts_with(k));
        if let Some((_, folder)) = folder {
            return Err(format!(
                "{} {} is inside the input folder {}; {}",
                output.flag,
                output.path.display(),
                folder.display(),
                if output.folder {
                    "its files would be read as inputs; give a folder outside it"
                } else {
                    "it would overwrite one of its files"
                }
            ));
        }
        if let Some((_, earlier)) = seen.iter().find(|(k, _)| *k == key) {
            return Err(format!(
                "{} and {} both name {}; give each output its own {}",
                earlier.flag,
                output.flag,
                output.path.display(),
                if output.folder { "folder" } else { "file" }
            ));
        }
        seen.push((key, output));
    }
    Ok(())
}

/// The path an output resolves to, once it is known to be writable there; `None` for a device
/// or a pipe, written in place.
fn writable(output: &Output) -> Result<Option<PathBuf>, Refusal> {
    let path = output.path;
    if let Ok(meta) = std::fs::metadata(path) {
        return match (meta.is_dir(), output.folder) {
            (true, false) => Err(format!(
                "cannot write {} ({}): it is a folder; give a file name",
                path.display(),
                output.flag
            )),
            (false, true) if meta.is_file() => Err(format!(
                "cannot write into {} ({}): it is a file, not a folder",
                path.display(),
                output.flag
            )),
            _ if !meta.is_file() && !meta.is_dir() => Ok(None),
            _ => Ok(std::fs::canonicalize(path).ok()),
        };
    }
    // A new file: its folder must be there (a new folder output is created with its parents).
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if output.folder {
        return Ok(Some(resolved(path)));
    }
    match std::fs::metadata(parent) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            return Err(format!(
                "cannot write {}: {} is not a folder",
                path.display(),
                parent.display()
            ));
        }
        Err(_) => {
            return Err(format!(
                "cannot write {}: folder {} does not exist",
                path.display(),
                parent.display()
            ));
        }
    }
    Ok(Some(resolved(path)))
}

/// A path that does not exist yet as the file system would resolve it: its nearest existing
/// folder's canonical path (links followed), then the rest.
fn resolved(path: &Path) -> PathBuf {
    let path = absolute(path);
    let mut rest = Vec::new();
    let mut at = path.as_path();
    while !at.exists() {
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return path,
        }
    }
    let mut out = std::fs::canonicalize(at).unwrap_or_else(|_| at.to_path_buf());
    out.extend(rest.iter().rev());
    out
}

/// `path` made absolute and normalised (`.` and `..` taken out), without asking the file system.
fn absolute(path: &Path) -> PathBuf {
    let joined = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The stop-word list's file, when `--stopwords` names one (not a built-in list).
pub fn stopword_file(name: &str) -> Option<&Path> {
    slst::text::StopWords::builtin(name)
        .is_none()
        .then(|| Path::new(name.trim()))
}

/// The `--threads` value to use: `None` for every core (rayon's default).
///
/// # Errors
/// More than [`MAX_THREADS_PER_CORE`] threads per available core.
pub fn threads(n: Option<usize>) -> Result<Option<usize>, Refusal> {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    match n {
        None | Some(0) => Ok(None),
        Some(n) if n > MAX_THREADS_PER_CORE * cores => Err(format!(
            "--threads {n}: more than {MAX_THREADS_PER_CORE} per core ({} here, for {cores} cores); \
             give at most that, or 0 for one thread per core",
            MAX_THREADS_PER_CORE * cores
        )),
        Some(n) => Ok(Some(n)),
    }
}

/// The most worker threads `--threads` takes per available core: more only add switching.
pub const MAX_THREADS_PER_CORE: usize = 4;

/// `--threshold` is not given with `--containment`, which reports pairs by containment alone.
///
/// # Errors
/// Both given.
pub fn threshold_or_containment(
    threshold: Option<f64>,
    containment: Option<f64>,
) -> Result<(), Refusal> {
    match (threshold, containment) {
        (Some(t), Some(c)) => Err(format!(
            "--threshold {t} and --containment {c} cannot both be honoured: with --containment a \
             pair is reported when either containment is at least {c}, whatever its J and the \
             method's decision, so the threshold would be ignored; give one of them \
             (`slst compare` takes both)"
        )),
        _ => Ok(()),
    }
}

/// The names of `methods`, for a refusal.
pub fn method_names(methods: &[Method]) -> String {
    methods
        .iter()
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_paths_are_made_absolute_without_dots() {
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(absolute(Path::new("a/./b/../c")), cwd.join("a/c"));
        assert_eq!(absolute(Path::new("/x/../y")), PathBuf::from("/y"));
    }
}
