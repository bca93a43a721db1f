//! Detections written as PAN 2013's detection files, for PAN's own evaluation tools (the
//! text-alignment task's `perfmeasures` script, `scripts/pan_score.py`) to score:
//! `slst eval … --truth-format alignment|pan-xml --detections-out DIR`.
//!
//! One file per pair of documents evaluated, named `<susp stem>-<src stem>.xml` as PAN's
//! text-alignment task names them ([`file_name`]), holding one feature per detection:
//!
//! ```xml
//! <?xml version="1.0" encoding="UTF-8"?>
//! <document reference="suspicious-document00001.txt">
//! <feature name="detected-plagiarism" this_offset="766" this_length="258" source_reference="source-document00001.txt" source_offset="192" source_length="258"/>
//! </document>
//! ```
//!
//! Offsets and lengths count characters, those of the detections scored ([`Detection`]); a pair
//! without detections is an empty `document`. The references are the ids as the truth names
//! them, so the files score against the same truth. [`render`] makes one pair's file;
//! [`check_folder`] (before evaluating) and [`write_pairs`] (after) put a method's files in a
//! folder.
//!
//! [`Detection`]: super::Detection

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::PairDetections;
use super::truth::PAN_DETECTION;
use crate::error::{Error, Result};
use crate::method::{Method, SlstMode};

/// The most bytes of a document's stem kept in a file name (a name may have 255).
const MAX_STEM: usize = 120;

/// The file of a pair's detections: `<susp stem>-<src stem>.xml`, the stems being the ids' file
/// names without their last extension (`suspicious-document00001.txt`,
/// `source-document00009.txt` → `suspicious-document00001-source-document00009.xml`).
///
/// Any id gives a usable name: characters file systems refuse (`/ \ : * ? " < > |` and control
/// characters) become `_`, as does a leading `.` (a hidden file, which PAN's script would not
/// read) or an empty stem, and a stem is cut to 120 bytes.
///
/// # Example
/// ```
/// use slst::eval::alignment::pan_xml::file_name;
/// assert_eq!(
///     file_name("suspicious-document00001.txt", "source-document00009.txt"),
///     "suspicious-document00001-source-document00009.xml"
/// );
/// assert_eq!(file_name("dir/a:b.txt", ".hidden"), "a_b-_hidden.xml");
/// ```
pub fn file_name(susp: &str, src: &str) -> String {
    format!("{}-{}.xml", stem(susp), stem(src))
}

/// An id's file name without its last extension, safe in a file name (see [`file_name`]).
fn stem(id: &str) -> String {
    let name = super::file_name(id);
    let stem = match name.rsplit_once('.') {
        Some((s, _)) if !s.is_empty() => s,
        _ => name,
    };
    let mut out = String::new();
    for c in stem.chars() {
        if out.len() + c.len_utf8() > MAX_STEM {
            break;
        }
        let refused =
            c.is_control() || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|');
        out.push(if refused { '_' } else { c });
    }
    if out.is_empty() {
        out.push('_');
    } else if out.starts_with('.') {
        out.replace_range(..1, "_");
    }
    out
}

/// The folder of a method's files when several methods are evaluated at once: SL+ST's name and
/// mode (`slst-paper`, `slst-robust`), another method's name (`slst-flat`).
///
/// # Example
/// ```
/// use slst::eval::alignment::pan_xml::method_folder;
/// use slst::method::{Method, SlstMode};
/// assert_eq!(method_folder(Method::Slst, Some(SlstMode::Robust)), "slst-robust");
/// assert_eq!(method_folder(Method::SlstFlat, Some(SlstMode::Paper)), "slst-flat");
/// ```
pub fn method_folder(method: Method, mode: Option<SlstMode>) -> String {
    match (method, mode) {
        (Method::Slst, Some(mode)) => format!("{method}-{}", mode.name()),
        _ => method.to_string(),
    }
}

/// One pair's detections as a PAN 2013 detection file (see the module documentation): every
/// detection, whatever its similarity, in the order given.
///
/// # Example
/// ```
/// use slst::eval::alignment::{Detection, PairDetections};
/// use slst::eval::alignment::pan_xml::render;
/// let pair = PairDetections {
///     susp: "s.txt".into(),
///     src: "R&D.txt".into(),
///     detections: vec![Detection { susp_chars: [10, 25], src_chars: [0, 15], similarity: 0.8 }],
/// };
/// assert_eq!(
///     render(&pair),
///     "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
///      <document reference=\"s.txt\">\n\
///      <feature name=\"detected-plagiarism\" this_offset=\"10\" this_length=\"15\" \
///      source_reference=\"R&amp;D.txt\" source_offset=\"0\" source_length=\"15\"/>\n\
///      </document>\n"
/// );
/// ```
pub fn render(pair: &PairDetections) -> String {
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<document reference=\"{}\">\n",
        escape(&pair.susp)
    );
    let src = escape(&pair.src);
    let length = |s: [usize; 2]| s[1].saturating_sub(s[0]);
    for d in &pair.detections {
        let (t, s) = (d.susp_chars, d.src_chars);
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "<feature name=\"{PAN_DETECTION}\" this_offset=\"{}\" this_length=\"{}\" \
             source_reference=\"{src}\" source_offset=\"{}\" source_length=\"{}\"/>",
            t[0],
            length(t),
            s[0],
            length(s),
        );
    }
    out.push_str("</document>\n");
    out
}

/// An attribute value as XML 1.0 holds it between double quotes: `& < > " '` as entities, tabs
/// and line breaks as character references (a parser would read them as spaces otherwise), and
/// the characters XML 1.0 cannot hold at all (other control characters below U+0020, U+FFFE,
/// U+FFFF) as U+FFFD.
fn escape(value: &str) -> Cow<'_, str> {
    let plain =
        |c: char| !matches!(c, '&' | '<' | '>' | '"' | '\'' | '\u{FFFE}' | '\u{FFFF}') && c >= ' ';
    if value.chars().all(plain) {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len() + 16);
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => {
                let _ = write!(out, "&#{};", u32::from(c));
            }
            c if plain(c) => out.push(c),
            _ => out.push('\u{FFFD}'),
        }
    }
    Cow::Owned(out)
}

/// The file of each pair, checked to be distinct, ignoring case as some file systems do.
///
/// # Errors
/// [`Error::Output`] naming `dir`, the file name and the two pairs that share it.
fn names<'a>(dir: &Path, pairs: impl Iterator<Item = (&'a str, &'a str)>) -> Result<Vec<String>> {
    let mut seen: HashMap<String, (&str, &str)> = HashMap::new();
    let mut names = Vec::new();
    for (susp, src) in pairs {
        let name = file_name(susp, src);
        if let Some((s, r)) = seen.insert(name.to_lowercase(), (susp, src))
            && (s, r) != (susp, src)
        {
            return Err(Error::Output {
                path: dir.to_path_buf(),
                detail: format!(
                    "the pairs ({s}, {r}) and ({susp}, {src}) would both be written to {name}"
                ),
            });
        }
        names.push(name);
    }
    Ok(names)
}

/// Check, before evaluating, that `dir` can take the detection files of `pairs` (suspicious,
/// source): their names are distinct, and `dir` — if it exists, a folder — holds no XML file
/// the evaluation will not write, neither in it nor in a folder one level down. PAN's scorers
/// read all of those, so a file left over from another run would be scored with the detections.
///
/// # Errors
/// [`Error::Output`] naming `dir` and what is wrong; [`Error::Io`] if it cannot be listed.
pub fn check_folder(dir: &Path, pairs: &[(String, String)]) -> Result<()> {
    let names = names(dir, pairs.iter().map(|(s, r)| (s.as_str(), r.as_str())))?;
    if !dir.exists() {
        return Ok(());
    }
    if !dir.is_dir() {
        return Err(Error::Output {
            path: dir.to_path_buf(),
            detail: "not a folder".into(),
        });
    }
    let ours: std::collections::HashSet<PathBuf> = names.iter().map(|n| dir.join(n)).collect();
    let others: Vec<PathBuf> = super::truth::xml_files(dir)?
        .into_iter()
        .filter(|f| !ours.contains(f))
        .collect();
    match others.first() {
        None => Ok(()),
        Some(first) => Err(Error::Output {
            path: dir.to_path_buf(),
            detail: format!(
                "it holds {} XML file(s) this evaluation does not write ({}{}), which PAN's \
                 scorers would read with the detections (they read a folder's XML files and \
                 those one folder down); give an empty or new folder",
                others.len(),
                first.strip_prefix(dir).unwrap_or(first).display(),
                if others.len() > 1 { ", …" } else { "" },
            ),
        }),
    }
}

/// Write one detection file per pair into `dir` (created if need be), each atomically (a
/// temporary file renamed into place); the number written. Call [`check_folder`] first: files
/// already in `dir` are left as they are, those of the same name replaced.
///
/// # Errors
/// [`Error::Output`] naming the folder or file: two pairs with one file name (see
/// [`check_folder`]), or the folder or a file cannot be written.
pub fn write_pairs(dir: &Path, pairs: &[PairDetections]) -> Result<usize> {
    let names = names(dir, pairs.iter().map(|p| (p.susp.as_str(), p.src.as_str())))?;
    let failed = |path: &Path, e: &dyn std::fmt::Display| Error::Output {
        path: path.to_path_buf(),
        detail: e.to_string(),
    };
    std::fs::create_dir_all(dir).map_err(|e| failed(dir, &e))?;
    for (pair, name) in pairs.iter().zip(&names) {
        let path = dir.join(name);
        crate::batch::output::write_atomically(&path, |w| w.write_all(render(pair).as_bytes()))
            .map_err(|e| match e {
                Error::Io { path, source } => failed(&path, &source),
                e => e,
            })?;
    }
    Ok(names.len())
}

#[cfg(test)]
mod tests {
    use super::super::Detection;
    use super::super::truth::{PAN_CASE, parse_pan_xml};
    use super::*;

    fn pair(susp: &str, src: &str, spans: &[([usize; 2], [usize; 2])]) -> PairDetections {
        PairDetections {
            susp: susp.into(),
            src: src.into(),
            detections: spans
                .iter()
                .map(|&(a, b)| Detection {
                    susp_chars: a,
                    src_chars: b,
                    similarity: 0.5,
                })
                .collect(),
        }
    }

    #[test]
    fn odd_ids_read_back_as_they_were() {
        for (susp, src) in [
            ("suspicious-document00001.txt", "source-document00009.txt"),
            ("a&b <c> \"d\" 'e'.txt", "tab\there\nand\r\nthere"),
            ("dir/naïve “quotes”.txt", "&amp;.txt"),
        ] {
            let p = pair(
                susp,
                src,
                &[([766, 1024], [192, 450]), ([2000, 2001], [0, 5])],
            );
            let xml = render(&p);
            let read = parse_pan_xml(&xml, PAN_DETECTION).unwrap();
            assert_eq!(read.reference, susp);
            let back: Vec<_> = read
                .annotations
                .iter()
                .map(|a| {
                    assert_eq!((a.susp.as_str(), a.src.as_str()), (susp, src));
                    (a.susp_chars, a.src_chars)
                })
                .collect();
            assert_eq!(back, [([766, 1024], [192, 450]), ([2000, 2001], [0, 5])]);
            // Detections are not cases.
            assert!(
                parse_pan_xml(&xml, PAN_CASE)
                    .unwrap()
                    .annotations
                    .is_empty()
            );
        }
    }

    #[test]
    fn a_pair_without_detections_is_an_empty_document() {
        let xml = render(&pair("s.txt", "r.txt", &[]));
        assert_eq!(
            xml,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<document reference=\"s.txt\">\n</document>\n"
        );
        let read = parse_pan_xml(&xml, PAN_DETECTION).unwrap();
        assert_eq!(
            (read.reference.as_str(), read.annotations.len()),
            ("s.txt", 0)
        );
    }

    #[test]
    fn characters_xml_cannot_hold_are_replaced() {
        assert_eq!(escape("plain.txt"), "plain.txt");
        assert!(matches!(escape("plain.txt"), Cow::Borrowed(_)));
        assert_eq!(escape("a\u{1}b\u{FFFF}"), "a\u{FFFD}b\u{FFFD}");
        assert_eq!(escape("a\tb"), "a&#9;b");
    }

    #[test]
    fn file_names_are_safe_and_checked_for_clashes() {
        assert_eq!(file_name("", "."), "_-_.xml");
        assert_eq!(file_name("a/b/", "x.y.z"), "_-x.y.xml");
        assert_eq!(file_name("c:\\dir\\s*?.txt", "r\u{0}|.txt"), "s__-r__.xml");
        let long = "é".repeat(200);
        let name = file_name(&long, "r.txt");
        assert_eq!(name, format!("{}-r.xml", "é".repeat(60)));
        let dir = Path::new("out");
        let pairs = |list: &[(&'static str, &'static str)]| -> Vec<(String, String)> {
            list.iter().map(|&(s, r)| (s.into(), r.into())).collect()
        };
        // `a-b` + `c` and `a` + `b-c` are both `a-b-c.xml`; so are names differing in case only.
        for clash in [
            pairs(&[("a-b.txt", "c.txt"), ("a.txt", "b-c.txt")]),
            pairs(&[("S.txt", "r.txt"), ("s.txt", "r.txt")]),
            pairs(&[("x/s.txt", "r.txt"), ("y/s.txt", "r.txt")]),
        ] {
            let e = check_folder(dir, &clash).unwrap_err().to_string();
            assert!(e.starts_with("out: cannot write: the pairs ("), "{e}");
        }
        // A pair listed twice is one file.
        let twice = pairs(&[("s.txt", "r.txt"), ("s.txt", "r.txt")]);
        assert!(check_folder(Path::new("no/such/folder"), &twice).is_ok());
    }

    #[test]
    fn leftover_xml_files_are_refused_and_written_files_replaced() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("detections");
        let pairs = [
            pair("s.txt", "r.txt", &[([0, 5], [5, 10])]),
            pair("s.txt", "q.txt", &[]),
        ];
        let ids: Vec<(String, String)> = pairs
            .iter()
            .map(|p| (p.susp.clone(), p.src.clone()))
            .collect();
        check_folder(&dir, &ids).unwrap();
        assert_eq!(write_pairs(&dir, &pairs).unwrap(), 2);
        let written = std::fs::read_to_string(dir.join("s-r.xml")).unwrap();
        assert_eq!(written, render(&pairs[0]));
        // Written again over its own files: fine; other files than XML do not matter.
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        check_folder(&dir, &ids).unwrap();
        assert_eq!(write_pairs(&dir, &pairs).unwrap(), 2);
        // An XML file of another run, in the folder or one level down, is refused.
        for leftover in ["s-old.xml", "slst-robust/s-r.xml"] {
            let path = dir.join(leftover);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, "<document reference=\"s.txt\"/>").unwrap();
            let e = check_folder(&dir, &ids).unwrap_err().to_string();
            assert!(
                e.contains("detections: cannot write: it holds 1 XML file(s)")
                    && e.contains(leftover),
                "{e}"
            );
            std::fs::remove_file(&path).unwrap();
        }
        // A file where the folder should be.
        let file = tmp.path().join("file");
        std::fs::write(&file, "x").unwrap();
        assert!(
            check_folder(&file, &ids)
                .unwrap_err()
                .to_string()
                .contains("not a folder")
        );
        let e = write_pairs(&file.join("sub"), &pairs)
            .unwrap_err()
            .to_string();
        assert!(e.contains("file/sub: cannot write"), "{e}");
    }
}
