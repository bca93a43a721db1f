//! The library's layering, checked from its source: dependencies between the top-level modules of
//! `src/lib.rs` point one way (no cycle), and the method layer names none of the drivers built on
//! it (`batch`, `index`, `eval`, `report`), in code or in doc links.
//!
//! Every `.rs` file under `src/` (the command under `src/bin/` aside) is read with its comments and
//! the insides of its string and character literals blanked; each `crate::x` path — and each name
//! of a `crate::{a, b::c}` group — is an edge from the file's top-level module to `x`. Names the
//! crate root re-exports (`crate::Document`) count as edges to the module they come from. The
//! order in which `src/lib.rs` declares the modules is the layering: each uses only those before
//! it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The drivers the method layer must not name.
const ABOVE_METHOD: [&str; 4] = ["batch", "index", "eval", "report"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted, skipping `src/bin`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path != src().join("bin") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `code` with comments removed and the contents of string and character literals blanked, so
/// that neither prose nor data reads as a path.
fn strip(code: &str) -> String {
    let b = code.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(b' ');
        } else if let Some(hashes) = raw_string_start(b, i) {
            // r"…" or r#"…"#: skip to the closing quote followed by as many hashes.
            i += 2 + hashes;
            let close: Vec<u8> = std::iter::once(b'"')
                .chain(std::iter::repeat_n(b'#', hashes))
                .collect();
            while i < b.len() && !b[i..].starts_with(&close) {
                i += 1;
            }
            i += close.len();
            out.extend_from_slice(b"\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.extend_from_slice(b"\"\"");
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            let end = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..]
                    .iter()
                    .position(|&c| c == b'\'')
                    .map(|p| i + 2 + p)
            } else {
                let len = std::str::from_utf8(&b[i + 1..(i + 5).min(b.len())])
                    .ok()
                    .or_else(|| std::str::from_utf8(&b[i + 1..]).ok())
                    .and_then(|s| s.chars().next())
                    .map_or(1, char::len_utf8);
                (b.get(i + 1 + len) == Some(&b'\'')).then_some(i + 1 + len)
            };
            match end {
                Some(end) => {
                    out.extend_from_slice(b"' '");
                    i = end + 1;
                }
                None => {
                    out.push(b'\'');
                    i += 1;
                }
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The number of `#`s of a raw string literal starting at `i` (`r"`, `r#"`, `br"` …), if one does.
fn raw_string_start(b: &[u8], i: usize) -> Option<usize> {
    if b[i] != b'r' || (i > 0 && is_ident(b[i - 1]) && b[i - 1] != b'b') {
        return None;
    }
    if i > 1 && b[i - 1] == b'b' && is_ident(b[i - 2]) {
        return None;
    }
    let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
    (b.get(i + 1 + hashes) == Some(&b'"')).then_some(hashes)
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The first segment of every `crate::…` path in stripped `code`, group members included.
fn crate_paths(code: &str) -> BTreeSet<String> {
    let b = code.as_bytes();
    let mut names = BTreeSet::new();
    let mut i = 0;
    while let Some(p) = code[i..].find("crate") {
        let start = i + p;
        i = start + 5;
        if (start > 0 && (is_ident(b[start - 1]) || b[start - 1] == b'$'))
            || b.get(i).is_some_and(|&c| is_ident(c))
        {
            continue;
        }
        let mut j = skip_ws(b, i);
        if !b[j..].starts_with(b"::") {
            continue;
        }
        j = skip_ws(b, j + 2);
        if b.get(j) == Some(&b'{') {
            group_heads(b, j + 1, &mut names);
        } else {
            let name = ident_at(b, j);
            if !name.is_empty() {
                names.insert(name);
            }
        }
    }
    names
}

/// The first segment of each item of a `{…}` group whose contents start at `i`.
fn group_heads(b: &[u8], mut i: usize, names: &mut BTreeSet<String>) {
    let mut depth = 1;
    let mut at_item = true;
    while i < b.len() && depth > 0 {
        match b[i] {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            b',' if depth == 1 => at_item = true,
            c if at_item && depth == 1 && is_ident(c) => {
                let name = ident_at(b, i);
                i += name.len();
                if name != "self" {
                    names.insert(name);
                }
                at_item = false;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

fn ident_at(b: &[u8], i: usize) -> String {
    let end = b[i..]
        .iter()
        .position(|&c| !is_ident(c))
        .map_or(b.len(), |p| i + p);
    String::from_utf8_lossy(&b[i..end]).into_owned()
}

/// The top-level modules `src/lib.rs` declares, in its order, and the module each name it
/// re-exports comes from.
fn root() -> (Vec<String>, BTreeMap<String, String>) {
    let lib = strip(&fs::read_to_string(src().join("lib.rs")).unwrap());
    let mut modules = Vec::new();
    let mut reexports = BTreeMap::new();
    for statement in lib.split(';') {
        let words: Vec<&str> = statement.split_whitespace().collect();
        if let Some(k) = words.iter().position(|&w| w == "mod")
            && let Some(name) = words.get(k + 1)
        {
            modules.push(name.to_string());
        }
        if let Some(k) = words.iter().position(|&w| w == "use") {
            let path: String = words[k + 1..].concat();
            let Some((module, rest)) = path.split_once("::") else {
                continue;
            };
            for name in rest.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                if !name.is_empty() && name != "self" {
                    reexports.insert(name.to_string(), module.to_string());
                }
            }
        }
    }
    (modules, reexports)
}

/// Edges `from → to` between top-level modules, with a file that makes each.
fn graph() -> BTreeMap<String, BTreeMap<String, PathBuf>> {
    let (modules, reexports) = root();
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut edges: BTreeMap<String, BTreeMap<String, PathBuf>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src()).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let from = first.trim_end_matches(".rs").to_string();
        if !modules.contains(&from) {
            continue; // lib.rs itself
        }
        for name in crate_paths(&strip(&fs::read_to_string(&file).unwrap())) {
            let to = if modules.contains(&name) {
                name
            } else if let Some(module) = reexports.get(&name) {
                module.clone()
            } else {
                continue;
            };
            if to != from {
                edges
                    .entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_insert_with(|| rel.into());
            }
        }
    }
    edges
}

/// A cycle of the graph, as the modules along it with the first repeated at the end.
fn find_cycle(edges: &BTreeMap<String, BTreeMap<String, PathBuf>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeMap<String, PathBuf>>,
        done: &mut BTreeSet<String>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(k) = stack.iter().position(|n| n == node) {
            let mut cycle = stack[k..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        stack.push(node.to_string());
        for next in edges.get(node).into_iter().flat_map(|e| e.keys()) {
            if let Some(cycle) = visit(next, edges, done, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|node| visit(node, edges, &mut done, &mut Vec::new()))
}

#[test]
fn top_level_modules_have_no_import_cycle() {
    let edges = graph();
    if let Some(cycle) = find_cycle(&edges) {
        let steps: Vec<String> = cycle
            .windows(2)
            .map(|w| format!("{} -> {} ({})", w[0], w[1], edges[&w[0]][&w[1]].display()))
            .collect();
        panic!(
            "import cycle between top-level modules:\n  {}",
            steps.join("\n  ")
        );
    }
}

#[test]
fn modules_use_only_those_declared_before_them() {
    let order = root().0;
    let rank = |m: &str| order.iter().position(|x| x == m).unwrap();
    let mut offences = Vec::new();
    for (from, tos) in &graph() {
        for (to, file) in tos {
            if rank(to) > rank(from) {
                offences.push(format!(
                    "{from} uses {to} ({}), declared after it in src/lib.rs",
                    file.display()
                ));
            }
        }
    }
    assert!(offences.is_empty(), "{}", offences.join("\n"));
}

#[test]
fn the_method_layer_names_no_driver() {
    let mut files = Vec::new();
    rust_files(&src().join("method"), &mut files);
    let mut offences = Vec::new();
    for file in files {
        // Unstripped: a doc link to a driver counts too.
        let names = crate_paths(&fs::read_to_string(&file).unwrap());
        for driver in ABOVE_METHOD {
            if names.contains(driver) {
                offences.push(format!("{} names crate::{driver}", file.display()));
            }
        }
    }
    assert!(offences.is_empty(), "{}", offences.join("\n"));
}

#[test]
fn the_scanner_reads_paths_groups_and_skips_prose() {
    let code = strip(
        "use crate::{a, b::{c, d}, self};\n// crate::commented\n/* crate::blocked */\n\
         let s = \"crate::quoted\"; let r = r#\"crate::raw\"#; let c = '\"';\n\
         fn f<'a>(x: &'a crate::e::E) {} $crate::macro_path; crate :: g;",
    );
    let names: Vec<String> = crate_paths(&code).into_iter().collect();
    assert_eq!(names, ["a", "b", "e", "g"]);
    let mut edges = BTreeMap::new();
    edges.insert(
        "x".into(),
        BTreeMap::from([("y".to_string(), PathBuf::new())]),
    );
    edges.insert(
        "y".into(),
        BTreeMap::from([("x".to_string(), PathBuf::new())]),
    );
    assert_eq!(find_cycle(&edges).unwrap(), ["x", "y", "x"]);
}

/// The backquoted words of ARCHITECTURE.md that name a file or folder of the repository
/// (`src/…`, `python/…`, `tests/…`, `scripts/…`, `docs/…`, `benches/…`, or a path under `src/`
/// written from its module, such as `batch/output.rs`).
fn named_paths(text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for (k, piece) in text.split('`').enumerate() {
        let looks_like_path = piece.contains('/')
            && !piece.contains(' ')
            && (piece.ends_with(".rs")
                || piece.ends_with(".py")
                || piece.ends_with(".md")
                || piece.ends_with(".sh")
                || piece.ends_with('/'));
        if k % 2 == 1 && looks_like_path {
            paths.push(piece.to_string());
        }
    }
    paths
}

/// ARCHITECTURE.md names only files that exist, and names every top-level module.
#[test]
fn the_architecture_page_names_what_exists() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = fs::read_to_string(repo.join("ARCHITECTURE.md")).unwrap();
    let tops = ["src/", "python/", "tests/", "scripts/", "docs/", "benches/"];
    let mut missing = Vec::new();
    for path in named_paths(&text) {
        let exists = if let Some((before, after)) = path.split_once('*') {
            // A glob: some file of the folder matches it.
            let (dir, prefix) = before.rsplit_once('/').unwrap_or(("", before));
            fs::read_dir(repo.join(dir)).is_ok_and(|entries| {
                entries.flatten().any(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    name.starts_with(prefix) && name.ends_with(after)
                })
            })
        } else if tops.iter().any(|t| path.starts_with(t)) {
            repo.join(&path).exists()
        } else {
            // A path written from its module (`batch/output.rs`) or its crate (`python/`).
            src().join(&path).exists() || repo.join(&path).exists()
        };
        if !exists {
            missing.push(path);
        }
    }
    assert!(missing.is_empty(), "named but missing: {missing:?}");
    let (modules, _) = root();
    for module in modules {
        assert!(
            text.contains(&format!("`{module}`")),
            "ARCHITECTURE.md does not name the module `{module}`"
        );
    }
}

/// No source file of the library, the command or the Python package is longer than a reader can
/// hold: 800 lines.
#[test]
fn no_source_file_is_over_800_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    all_sources(&root.join("src"), &mut files);
    all_sources(&root.join("python/src"), &mut files);
    all_sources(&root.join("python/slst"), &mut files);
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let lines = fs::read_to_string(f).ok()?.lines().count();
            (lines > 800).then(|| format!("{} ({lines} lines)", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "{}", long.join("\n"));
}

/// Every `.rs` and `.py` file under `dir`.
fn all_sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            all_sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs" || e == "py") {
            out.push(path);
        }
    }
}
