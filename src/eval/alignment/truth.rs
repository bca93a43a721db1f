//! Reading text-alignment annotations: a table of cases, or PAN's XML files.
//!
//! - **Cases table** (TSV): `susp<TAB>src<TAB>susp_offset<TAB>susp_length<TAB>src_offset<TAB>
//!   src_length` per line, a header line allowed, blank lines and `#` comments skipped.
//! - **PAN XML** (PAN 2013 text alignment): one file per pair of documents,
//!   `<document reference="suspicious-documentXXXXX.txt">` holding one
//!   `<feature name="plagiarism" this_offset=".." this_length=".." source_reference=".."
//!   source_offset=".." source_length=".."/>` per case; detection files have the same shape with
//!   `name="detected-plagiarism"`. Features with another name are ignored. A file named
//!   `<suspicious stem>-<source stem>.xml` (PAN's naming) also lists its pair when it holds no
//!   case: a pair on which every detection is a false positive.
//!
//! Offsets and lengths count characters (Unicode scalar values) of the documents as read.

use std::path::{Path, PathBuf};

use super::{AlignmentTruth, Annotation};
use crate::error::{Error, Result};

/// The feature name of a case in PAN's truth files.
pub const PAN_CASE: &str = "plagiarism";
/// The feature name of a detection in PAN's detection files.
pub const PAN_DETECTION: &str = "detected-plagiarism";

/// A problem at a 1-based line.
type LineError = (usize, String);

/// Parse a cases table (see the module documentation).
///
/// # Errors
/// The 1-based line and what is wrong with it.
///
/// # Example
/// ```
/// use slst::eval::alignment::truth::parse_cases;
/// let text = "susp\tsrc\tsusp_offset\tsusp_length\tsrc_offset\tsrc_length\n\
///             s.txt\tr.txt\t10\t5\t0\t6\n";
/// let cases = parse_cases(text).unwrap();
/// assert_eq!((cases[0].susp_chars, cases[0].src_chars), ([10, 15], [0, 6]));
/// ```
pub fn parse_cases(text: &str) -> std::result::Result<Vec<Annotation>, LineError> {
    let mut cases = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').map(str::trim).collect();
        if f.len() != 6 {
            return Err((
                k + 1,
                format!(
                    "expected susp, src, susp_offset, susp_length, src_offset, src_length \
                     separated by tabs, found {} field(s)",
                    f.len()
                ),
            ));
        }
        let numbers: Vec<Option<usize>> = f[2..].iter().map(|x| x.parse().ok()).collect();
        if k == 0 && numbers.iter().all(Option::is_none) {
            continue; // the header
        }
        let mut n = [0; 4];
        for (i, (value, field)) in numbers.iter().zip(&f[2..]).enumerate() {
            n[i] = value.ok_or_else(|| {
                (
                    k + 1,
                    format!("{field:?} is not a character offset or length"),
                )
            })?;
        }
        cases.push(Annotation::new(
            f[0],
            f[1],
            [n[0], n[0] + n[1]],
            [n[2], n[2] + n[3]],
        ));
    }
    Ok(cases)
}

/// Read a cases table.
///
/// # Errors
/// The file cannot be read ([`Error::Io`], …), or [`Error::Truth`] naming the file and line.
pub fn read_cases(path: &Path) -> Result<AlignmentTruth> {
    let text = read_text(path)?;
    let cases = parse_cases(&text).map_err(|e| truth_error(path, e))?;
    Ok(AlignmentTruth::new(path, cases, Vec::new()))
}

/// One PAN XML file: the suspicious document it is about and its annotations.
#[derive(Debug, Clone, PartialEq)]
pub struct PanFile {
    /// The `reference` of the `document` element: the suspicious document.
    pub reference: String,
    /// The features named `feature`, as annotations.
    pub annotations: Vec<Annotation>,
}

/// Parse one PAN XML file, keeping the features named `feature` ([`PAN_CASE`],
/// [`PAN_DETECTION`]).
///
/// # Errors
/// The 1-based line and what is wrong: no `document` element or no `reference`, a feature
/// without an offset, length or source, a value that is not a number.
///
/// # Example
/// ```
/// use slst::eval::alignment::truth::{parse_pan_xml, PAN_CASE};
/// let xml = r#"<document reference="suspicious-document00001.txt">
/// <feature name="plagiarism" this_offset="5" this_length="10"
///          source_reference="source-document00009.txt" source_offset="0" source_length="12"/>
/// <feature name="about" authors="x"/>
/// </document>"#;
/// let file = parse_pan_xml(xml, PAN_CASE).unwrap();
/// assert_eq!(file.annotations.len(), 1);
/// assert_eq!(file.annotations[0].src_chars, [0, 12]);
/// ```
pub fn parse_pan_xml(text: &str, feature: &str) -> std::result::Result<PanFile, LineError> {
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    let mut reference = None;
    let mut annotations = Vec::new();
    for (at, tag) in tags(text) {
        let (name, attrs) = attributes(tag);
        match name {
            "document" if reference.is_none() => {
                reference = Some(
                    get(&attrs, "reference")
                        .ok_or((line_of(at), "<document> has no reference".to_string()))?,
                );
            }
            "feature" if get(&attrs, "name").as_deref() == Some(feature) => {
                let Some(this) = &reference else {
                    return Err((line_of(at), "<feature> outside <document>".into()));
                };
                let a = feature_annotation(this, &attrs).map_err(|e| (line_of(at), e))?;
                annotations.push(a);
            }
            _ => {}
        }
    }
    let reference = reference.ok_or((1, "no <document reference=…> element".to_string()))?;
    Ok(PanFile {
        reference,
        annotations,
    })
}

/// Read PAN XML: one file, or every `*.xml` file of a folder and of its subfolders one level
/// down (as PAN's script does), in path order.
///
/// # Errors
/// A file cannot be read, or [`Error::Truth`] naming the file and line.
pub fn read_pan_xml(path: &Path, feature: &str) -> Result<AlignmentTruth> {
    let files = if path.is_dir() {
        xml_files(path)?
    } else {
        vec![path.to_path_buf()]
    };
    let mut annotations = Vec::new();
    let mut pairs = Vec::new();
    for file in &files {
        let text = read_text(file)?;
        let parsed = parse_pan_xml(&text, feature).map_err(|e| truth_error(file, e))?;
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
        if let Some(pair) = name.and_then(|n| named_pair(&n, &parsed.reference)) {
            pairs.push(pair);
        }
        annotations.extend(parsed.annotations);
    }
    Ok(AlignmentTruth::new(path, annotations, pairs))
}

/// The pair a file named PAN's way lists: `suspicious-document00001-source-document00009.xml`
/// about `suspicious-document00001.txt` → (that, `source-document00009.txt`).
fn named_pair(file_name: &str, reference: &str) -> Option<(String, String)> {
    let stem = file_name.strip_suffix(".xml")?;
    let (ref_stem, ext) = match reference.rsplit_once('.') {
        Some((s, e)) => (s, format!(".{e}")),
        None => (reference, String::new()),
    };
    let source = stem.strip_prefix(ref_stem)?.strip_prefix('-')?;
    (!source.is_empty()).then(|| (reference.to_string(), format!("{source}{ext}")))
}

/// The `*.xml` files of a folder and of its immediate subfolders, sorted.
pub(super) fn xml_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let list = |d: &Path| -> Result<Vec<PathBuf>> {
        let entries = std::fs::read_dir(d).map_err(|source| Error::Io {
            path: d.to_path_buf(),
            source,
        })?;
        Ok(entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
    };
    let is_xml = |p: &PathBuf| p.is_file() && p.extension().is_some_and(|e| e == "xml");
    let mut files = Vec::new();
    for entry in list(dir)? {
        if entry.is_dir() {
            files.extend(list(&entry)?.into_iter().filter(is_xml));
        } else if is_xml(&entry) {
            files.push(entry);
        }
    }
    files.sort();
    Ok(files)
}

/// A case or detection from a feature's attributes.
fn feature_annotation(
    this: &str,
    attrs: &[(&str, String)],
) -> std::result::Result<Annotation, String> {
    let number = |key: &str| -> std::result::Result<usize, String> {
        let value = get(attrs, key).ok_or_else(|| format!("<feature> has no {key}"))?;
        value
            .trim()
            .parse()
            .map_err(|_| format!("{key}={value:?} is not a character offset or length"))
    };
    let source = get(attrs, "source_reference").ok_or("<feature> has no source_reference")?;
    let (t_off, t_len) = (number("this_offset")?, number("this_length")?);
    let (s_off, s_len) = (number("source_offset")?, number("source_length")?);
    Ok(Annotation::new(
        this,
        &source,
        [t_off, t_off + t_len],
        [s_off, s_off + s_len],
    ))
}

/// The value of attribute `key`.
fn get(attrs: &[(&str, String)], key: &str) -> Option<String> {
    attrs
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.clone())
}

/// The tags of an XML text (without `<` and `>`, comments, processing instructions and
/// declarations left out), with their byte offsets.
fn tags(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    std::iter::from_fn(move || {
        loop {
            let start = at + text[at..].find('<')?;
            let rest = &text[start..];
            let skip_to = |end: &str| rest.find(end).map_or(text.len(), |e| start + e + end.len());
            if rest.starts_with("<!--") {
                at = skip_to("-->");
                continue;
            }
            if rest.starts_with("<?") || rest.starts_with("<!") {
                at = skip_to(">");
                continue;
            }
            // The tag ends at the first `>` outside quotes.
            let mut quote = None;
            let end = rest.char_indices().skip(1).find(|&(_, c)| match quote {
                Some(q) if c == q => {
                    quote = None;
                    false
                }
                Some(_) => false,
                None if c == '"' || c == '\'' => {
                    quote = Some(c);
                    false
                }
                None => c == '>',
            });
            let end = end.map_or(rest.len(), |(e, _)| e);
            at = (start + end + 1).min(text.len());
            return Some((start, &rest[1..end]));
        }
    })
}

/// A tag's name and attributes (values unquoted, entities decoded).
fn attributes(tag: &str) -> (&str, Vec<(&str, String)>) {
    let tag = tag.trim_end_matches('/');
    let name_end = tag
        .find(|c: char| c.is_whitespace() || c == '/')
        .unwrap_or(tag.len());
    let mut rest = &tag[name_end..];
    let mut attrs = Vec::new();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim();
        let value = rest[eq + 1..].trim_start();
        let Some(q) = value.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            break;
        };
        let Some(close) = value[1..].find(q) else {
            break;
        };
        attrs.push((
            key,
            crate::corpus::sgml::decode_entities(&value[1..1 + close]),
        ));
        rest = &value[close + 2..];
    }
    (&tag[..name_end], attrs)
}

/// A text file, decoded as documents are.
fn read_text(path: &Path) -> Result<String> {
    let bytes = crate::corpus::read_bytes(path, crate::corpus::DEFAULT_MAX_BYTES)?;
    crate::corpus::decode_text(&bytes)
        .map(|(text, _)| text)
        .map_err(|e| Error::Binary {
            path: path.to_path_buf(),
            reason: e.0,
        })
}

fn truth_error(path: &Path, (line, detail): LineError) -> Error {
    Error::Truth {
        path: path.to_path_buf(),
        line,
        detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_table_with_header_comments_and_errors() {
        let t = "susp\tsrc\tsusp_offset\tsusp_length\tsrc_offset\tsrc_length\n# note\n\n\
                 a.txt\tb.txt\t3593\t698\t1300\t698\r\n";
        let c = parse_cases(t).unwrap();
        assert_eq!(
            c,
            [Annotation::new(
                "a.txt",
                "b.txt",
                [3593, 4291],
                [1300, 1998]
            )]
        );
        assert_eq!(parse_cases("a\tb\t1\t2\t3\n").unwrap_err().0, 1);
        let e = parse_cases("a\tb\t1\t2\t3\t4\na\tb\t1\tx\t3\t4\n").unwrap_err();
        assert_eq!(e.0, 2);
        assert!(e.1.contains("\"x\""), "{}", e.1);
    }

    #[test]
    fn pan_xml_features_by_name_comments_and_entities() {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
            <document reference='s&amp;1.txt'>\n\
            <!-- <feature name=\"plagiarism\" this_offset=\"0\"/> -->\n\
            <feature name=\"detected-plagiarism\" this_offset=\"1\" this_length=\"2\" \
              source_reference=\"r.txt\" source_offset=\"3\" source_length=\"4\" />\n\
            <feature name=\"plagiarism\" type=\"artificial\" obfuscation=\"none\" \
              this_offset=\"10\" this_length=\"20\" source_reference=\"r.txt\" \
              source_offset=\"30\" source_length=\"40\"></feature>\n\
            </document>\n";
        let f = parse_pan_xml(xml, PAN_CASE).unwrap();
        assert_eq!(f.reference, "s&1.txt");
        assert_eq!(
            f.annotations,
            [Annotation::new("s&1.txt", "r.txt", [10, 30], [30, 70])]
        );
        let d = parse_pan_xml(xml, PAN_DETECTION).unwrap();
        assert_eq!(d.annotations[0].src_chars, [3, 7]);
    }

    #[test]
    fn pan_xml_errors_name_the_line() {
        let e = parse_pan_xml("<document reference=\"s.txt\">\n\n<feature name=\"plagiarism\" this_offset=\"1\" this_length=\"2\"/>", PAN_CASE).unwrap_err();
        assert_eq!(e.0, 3);
        assert!(e.1.contains("source_reference"), "{}", e.1);
        assert!(parse_pan_xml("<doc/>", PAN_CASE).is_err());
        let e = parse_pan_xml("<document reference=\"s\">\n<feature name=\"plagiarism\" this_offset=\"-1\" this_length=\"2\" source_reference=\"r\" source_offset=\"0\" source_length=\"1\"/>", PAN_CASE).unwrap_err();
        assert_eq!(e.0, 2);
    }

    #[test]
    fn pairs_from_pan_file_names() {
        assert_eq!(
            named_pair(
                "suspicious-document00001-source-document00009.xml",
                "suspicious-document00001.txt"
            ),
            Some((
                "suspicious-document00001.txt".into(),
                "source-document00009.txt".into()
            ))
        );
        assert_eq!(
            named_pair("other.xml", "suspicious-document00001.txt"),
            None
        );
        assert_eq!(
            named_pair(
                "suspicious-document00001.xml",
                "suspicious-document00001.txt"
            ),
            None
        );
    }
}
