//! Finding the few tags and entities the reader needs in SGML text, case-insensitively and
//! tolerating everything else: opening and closing tags, attributes, element contents, inner
//! tags blanked to white space of the same byte length, and character entities.

/// The offset after white space, a byte-order mark, `<?…?>`, `<!…>` and comments from `at`.
pub(super) fn skip_prolog(bytes: &[u8], mut at: usize) -> usize {
    loop {
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        if bytes[at.min(bytes.len())..].starts_with("\u{FEFF}".as_bytes()) {
            at += 3;
            continue;
        }
        let end = if bytes[at.min(bytes.len())..].starts_with(b"<!--") {
            find(bytes, at, b"-->").map(|e| e + 3)
        } else if bytes[at.min(bytes.len())..].starts_with(b"<?")
            || bytes[at.min(bytes.len())..].starts_with(b"<!")
        {
            find(bytes, at, b">").map(|e| e + 1)
        } else {
            None
        };
        match end {
            Some(e) => at = e,
            None => return at,
        }
    }
}

pub(super) fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
}

/// An opening tag at `at`: its name, the text of its attributes and the offset after it.
pub(super) fn element_start(bytes: &[u8], at: usize) -> Option<(&str, &str, usize)> {
    if bytes.get(at) != Some(&b'<') || !bytes.get(at + 1)?.is_ascii_alphabetic() {
        return None;
    }
    let name_len = bytes[at + 1..]
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':')))?;
    let name_end = at + 1 + name_len;
    let gt = name_end + bytes[name_end..].iter().position(|&b| b == b'>')?;
    if !(bytes[name_end] == b'>'
        || bytes[name_end].is_ascii_whitespace()
        || bytes[name_end] == b'/')
    {
        return None;
    }
    let text = std::str::from_utf8(&bytes[at + 1..gt]).ok()?;
    let (name, attrs) = text.split_at(name_len);
    Some((name, attrs, gt + 1))
}

/// The names of the attributes in the text of an opening tag.
pub(super) fn attribute_names(attrs: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = attrs;
    while let Some(eq) = rest.find('=') {
        let name = rest[..eq]
            .trim()
            .rsplit(char::is_whitespace)
            .next()
            .unwrap_or("");
        if !name.is_empty() {
            names.push(name.to_string());
        }
        let value = rest[eq + 1..].trim_start();
        rest = match value.chars().next() {
            Some(q @ ('"' | '\'')) => value[1..].split_once(q).map_or("", |(_, r)| r),
            _ => value.split_once(char::is_whitespace).map_or("", |(_, r)| r),
        };
    }
    names
}

/// The value of attribute `name` (case-insensitive) in an opening tag, quoted or not.
pub(super) fn attribute(open_tag: &str, name: &str) -> Option<String> {
    let lower = open_tag.to_ascii_lowercase();
    let needle = format!("{}=", name.to_ascii_lowercase());
    let mut from = 0;
    while let Some(found) = lower[from..].find(&needle) {
        let at = from + found;
        let before_ok = at == 0 || lower.as_bytes()[at - 1].is_ascii_whitespace();
        let value = &open_tag[at + needle.len()..];
        if before_ok {
            let v = match value.chars().next() {
                Some(q @ ('"' | '\'')) => value[1..].split(q).next().unwrap_or(""),
                _ => value
                    .split(|c: char| c.is_whitespace() || c == '>')
                    .next()
                    .unwrap_or(""),
            };
            return Some(v.trim().to_string());
        }
        from = at + needle.len();
    }
    None
}

/// Decode the character entities of a short text (an id).
pub(crate) fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    blank_inner_tags(s, &mut out);
    out
}

/// The (start, end) byte ranges of the contents of every `<tag …>…</tag>` in `body`; an element
/// left open runs to the end of `body`.
pub(super) fn element_contents<'a>(
    body: &'a str,
    tag: &'a str,
) -> impl Iterator<Item = (usize, usize)> + 'a {
    let bytes = body.as_bytes();
    let mut pos = 0;
    std::iter::from_fn(move || {
        let (_, content_start) = find_open_tag(bytes, pos, tag)?;
        let (end, after) =
            find_close_tag(bytes, content_start, tag).unwrap_or((bytes.len(), bytes.len()));
        pos = after;
        Some((content_start, end))
    })
}

/// Copy `raw` into `out` with each markup tag replaced by spaces of the same byte length
/// (paragraph-like tags, `<P>` and `<BR>` and their closing forms, start with two line breaks so
/// they act as paragraph boundaries), and each character entity (`&amp;`, `&#39;`, …) replaced
/// by its character, so that `Smith&#39;s` stays one word. A bare `&` stays as it is.
pub(super) fn blank_inner_tags(raw: &str, out: &mut String) {
    let bytes = raw.as_bytes();
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        if bytes[i] == b'&'
            && let Some((decoded, len)) = entity_at(&raw[i..])
        {
            out.push_str(&raw[copied..i]);
            out.push(decoded);
            i += len;
            copied = i;
            continue;
        }
        if bytes[i] == b'<' {
            let name_start = i + 1 + usize::from(bytes.get(i + 1) == Some(&b'/'));
            let starts_tag = bytes
                .get(name_start)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'!');
            if starts_tag && let Some(len) = bytes[i..].iter().position(|&b| b == b'>') {
                let tag_end = i + len + 1;
                out.push_str(&raw[copied..i]);
                let name: String = raw[name_start..tag_end - 1]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric())
                    .collect();
                let para = matches!(name.to_ascii_uppercase().as_str(), "P" | "BR");
                let width = tag_end - i;
                let breaks = if para { width.min(2) } else { 0 };
                out.extend(std::iter::repeat_n('\n', breaks));
                out.extend(std::iter::repeat_n(' ', width - breaks));
                i = tag_end;
                copied = i;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&raw[copied..]);
}

/// The character of an SGML/HTML character entity at the start of `s` (named: the XML five and
/// `nbsp`; numeric: decimal or hex), and the entity's byte length.
pub(super) fn entity_at(s: &str) -> Option<(char, usize)> {
    let end = s.as_bytes().iter().take(12).position(|&b| b == b';')?;
    let name = &s[1..end];
    let c = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{A0}',
        _ => {
            let num = name.strip_prefix('#')?;
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => num.parse().ok()?,
            };
            char::from_u32(code)?
        }
    };
    (c.len_utf8() <= end + 1).then_some((c, end + 1))
}

/// Find `<tag>` or `<tag attr…>` (case-insensitive) at or after `from`; returns the tag's start
/// and the offset just after its `>`.
pub(super) fn find_open_tag(bytes: &[u8], from: usize, tag: &str) -> Option<(usize, usize)> {
    let mut i = from;
    while i < bytes.len() {
        let lt = i + bytes[i..].iter().position(|&b| b == b'<')?;
        if let Some(after) = open_tag_at(bytes, lt, tag) {
            return Some((lt, after));
        }
        i = lt + 1;
    }
    None
}

/// If an opening `tag` starts at `at`, the offset just after its `>`.
pub(super) fn open_tag_at(bytes: &[u8], at: usize, tag: &str) -> Option<usize> {
    let name = bytes.get(at + 1..at + 1 + tag.len())?;
    if bytes[at] != b'<' || !name.eq_ignore_ascii_case(tag.as_bytes()) {
        return None;
    }
    let after_name = at + 1 + tag.len();
    match bytes.get(after_name)? {
        b'>' => Some(after_name + 1),
        b if b.is_ascii_whitespace() => {
            let gt = bytes[after_name..].iter().position(|&b| b == b'>')?;
            Some(after_name + gt + 1)
        }
        _ => None,
    }
}

/// Find `</tag>` (case-insensitive, white space allowed before `>`); returns its start and the
/// offset just after it.
pub(super) fn find_close_tag(bytes: &[u8], from: usize, tag: &str) -> Option<(usize, usize)> {
    let mut i = from;
    while i < bytes.len() {
        let lt = i + bytes[i..].iter().position(|&b| b == b'<')?;
        let name_at = lt + 2;
        if bytes.get(lt + 1) == Some(&b'/')
            && bytes
                .get(name_at..name_at + tag.len())
                .is_some_and(|n| n.eq_ignore_ascii_case(tag.as_bytes()))
        {
            let mut j = name_at + tag.len();
            while bytes.get(j).is_some_and(u8::is_ascii_whitespace) {
                j += 1;
            }
            if bytes.get(j) == Some(&b'>') {
                return Some((lt, j + 1));
            }
        }
        i = lt + 1;
    }
    None
}
