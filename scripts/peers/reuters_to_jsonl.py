#!/usr/bin/env python3
"""Reuters-21578 as shipped (reut2-*.sgm) -> JSON lines {"id": NEWID, "text": ...}.

The text is made exactly as `slst batch --format sgml --doc-tag REUTERS --id-attr NEWID
--text-tags TITLE,BODY` makes it (src/corpus/sgml.rs), so that every tool of a benchmark reads
the same documents:

- a document is a <REUTERS ...> element, up to its </REUTERS> (or the next <REUTERS ...>);
- its bytes are decoded as UTF-8, or as Windows-1252 when they are not valid UTF-8;
- its id is the NEWID attribute of the opening tag;
- its text is the content of every <TITLE> element, then of every <BODY> element, separated by
  a blank line ("\\n\\n"), each with character entities decoded (&amp; &lt; &gt; &quot; &apos;
  &nbsp; and numeric ones) and any tag inside replaced by spaces of the same length (<P> and
  <BR> by two line breaks first);
- documents without TITLE and BODY (the UNPROC ones) have an empty text; they are kept.

Usage: reuters_to_jsonl.py OUT.jsonl [reut2-000.sgm ...]
       (default input: ../shared/corpora/reuters21578/reut2-*.sgm from the repository root)

The module also offers read_reuters(paths) -> [(id, text)], used by make_synthetic.py.
"""
import codecs
import glob
import json
import os
import re
import sys

DEFAULT_GLOB = os.path.join("..", "shared", "corpora", "reuters21578", "reut2-*.sgm")


def _c1_fallback(err):
    # encoding_rs's windows-1252 maps the five bytes Python's cp1252 leaves undefined to the
    # C1 control characters of the same value.
    bad = err.object[err.start:err.end]
    return "".join(chr(b) for b in bad), err.end


codecs.register_error("slst_c1", _c1_fallback)


def decode(raw):
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="slst_c1")


def _open_tag_re(tag):
    return re.compile(rb"<" + re.escape(tag.encode()) + rb"(?:>|\s[^>]*>)", re.I)


def _close_tag_re(tag):
    return re.compile(rb"</" + re.escape(tag.encode()) + rb"\s*>", re.I)


DOC_OPEN = _open_tag_re("REUTERS")
DOC_CLOSE = _close_tag_re("REUTERS")
NAMED = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'", "nbsp": "\u00a0"}


def _entity_at(s, i):
    """(char, length) of the entity starting at s[i] == '&', or None (as entity_at in sgml.rs)."""
    window = s[i:i + 12]
    # sgml.rs looks for ';' in the first 12 bytes; the corpus is ASCII around entities.
    end = window.find(";")
    if end < 0:
        return None
    name = s[i + 1:i + end]
    if name in NAMED:
        c = NAMED[name]
    elif name.startswith("#"):
        num = name[1:]
        try:
            code = int(num[1:], 16) if num[:1] in ("x", "X") else int(num, 10)
        except ValueError:
            return None
        if num[:1] not in ("x", "X") and not num.isdigit():
            return None
        if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            return None
        c = chr(code)
    else:
        return None
    if len(c.encode("utf-8")) > end + 1:
        return None
    return c, end + 1


def blank_inner_tags(raw):
    """Entities decoded, inner tags blanked to the same byte length (blank_inner_tags in sgml.rs)."""
    out = []
    i, copied, n = 0, 0, len(raw)
    while i < n:
        ch = raw[i]
        if ch == "&":
            ent = _entity_at(raw, i)
            if ent:
                out.append(raw[copied:i])
                out.append(ent[0])
                i += ent[1]
                copied = i
                continue
        if ch == "<":
            name_start = i + 1 + (1 if raw[i + 1:i + 2] == "/" else 0)
            nxt = raw[name_start:name_start + 1]
            if nxt and ((nxt.isascii() and nxt.isalpha()) or nxt == "!"):
                gt = raw.find(">", i)
                if gt >= 0:
                    tag_end = gt + 1
                    out.append(raw[copied:i])
                    m = re.match(r"[A-Za-z0-9]*", raw[name_start:tag_end - 1])
                    para = m.group(0).upper() in ("P", "BR")
                    width = len(raw[i:tag_end].encode("utf-8"))
                    breaks = min(width, 2) if para else 0
                    out.append("\n" * breaks + " " * (width - breaks))
                    i = tag_end
                    copied = i
                    continue
        i += 1
    out.append(raw[copied:])
    return "".join(out)


def _contents(body, tag):
    """Contents of every <tag ...>...</tag> in body (an unclosed one runs to the end)."""
    open_re = re.compile(r"<" + tag + r"(?:>|\s[^>]*>)", re.I)
    close_re = re.compile(r"</" + tag + r"\s*>", re.I)
    pos = 0
    while True:
        m = open_re.search(body, pos)
        if not m:
            return
        c = close_re.search(body, m.end())
        if c:
            yield body[m.end():c.start()]
            pos = c.end()
        else:
            yield body[m.end():]
            return


NEWID = re.compile(r"""(?:^|\s)newid=(?:"([^"]*)"|'([^']*)'|([^\s>]*))""", re.I)


def parse_element(element):
    """(id, text) of one <REUTERS> element (decoded str)."""
    m = re.match(r"<REUTERS(?:>|\s[^>]*>)", element, re.I)
    open_tag, body = element[:m.end()], element[m.end():]
    idm = NEWID.search(open_tag)
    doc_id = next(g for g in idm.groups() if g is not None).strip() if idm else ""
    text = ""
    for tag in ("TITLE", "BODY"):
        for content in _contents(body, tag):
            if text:
                text += "\n\n"
            text += blank_inner_tags(content)
    return doc_id, text


def read_file(path):
    data = open(path, "rb").read()
    opens = [m.start() for m in DOC_OPEN.finditer(data)]
    for k, start in enumerate(opens):
        nxt = opens[k + 1] if k + 1 < len(opens) else len(data)
        close = DOC_CLOSE.search(data, start + 1, nxt)
        end = close.end() if close else nxt
        yield parse_element(decode(data[start:end]))


def read_reuters(paths):
    for path in paths:
        yield from read_file(path)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    out, paths = argv[1], argv[2:] or sorted(glob.glob(DEFAULT_GLOB))
    if not paths:
        sys.exit(f"no input: {DEFAULT_GLOB} not found (run from the repository root or give paths)")
    n = empty = 0
    with open(out, "w", encoding="utf-8") as f:
        for doc_id, text in read_reuters(sorted(paths)):
            f.write(json.dumps({"id": doc_id, "text": text}, ensure_ascii=False) + "\n")
            n += 1
            empty += not text.strip()
    print(f"{out}: {n} documents ({empty} with empty text) from {len(paths)} files", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
