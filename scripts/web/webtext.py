"""Visible text of an HTML page and simple text similarities (standard library only).

Used by ``scripts/make_web_set.py`` to label page pairs and by ``scripts/web/sanity.py`` to
report how hard the labels are. The extraction is deliberately plain: every text node outside
``<script>``, ``<style>``, ``<template>``, ``<noscript>`` and ``<head>`` (the ``<title>`` is
kept), with block-level elements as line breaks, whitespace collapsed.
"""

from __future__ import annotations

import difflib
import gzip
import html.parser
import re
from pathlib import Path

_SKIP = {"script", "style", "template", "noscript"}
_BLOCK = {
    "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption",
    "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li",
    "main", "nav", "ol", "p", "pre", "section", "table", "td", "th", "title", "tr", "ul",
}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
         "track", "wbr"}


class _Text(html.parser.HTMLParser):
    def __init__(self, main_only: bool) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0
        self.in_head = False
        self.in_title = False
        # main_only: keep only the text inside the first element with role="main".
        self.main_only = main_only
        self.main_tag: str | None = None
        self.main_depth = 0
        self.main_done = False

    def handle_starttag(self, tag, attrs):
        if self.main_only and not self.main_done:
            if self.main_tag is None and ("role", "main") in attrs:
                self.main_tag, self.main_depth = tag, 1
                return
            if tag == self.main_tag:
                self.main_depth += 1
        if tag in _SKIP:
            self.skip += 1
        elif tag == "head":
            self.in_head = True
        elif tag == "body":
            self.in_head = False
        elif tag == "title":
            self.in_title = True
        if tag in _BLOCK:
            self.parts.append("\n")

    def handle_startendtag(self, tag, attrs):
        if tag in _BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if self.main_tag == tag and not self.main_done:
            self.main_depth -= 1
            if self.main_depth == 0:
                self.main_done = True
        if tag in _SKIP and self.skip:
            self.skip -= 1
        elif tag == "head":
            self.in_head = False
        elif tag == "title":
            self.in_title = False
        if tag in _BLOCK:
            self.parts.append("\n")

    def handle_data(self, data):
        if self.skip or (self.in_head and not self.in_title):
            return
        if self.main_only and (self.main_tag is None or self.main_done):
            return
        self.parts.append(data)


def read_html(path: Path) -> str:
    """The page's text as UTF-8 (gzip'd or not; undecodable bytes replaced)."""
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", errors="replace")


def visible_text(page: str, main_only: bool = False) -> str:
    """Visible text, one line per block, runs of spaces collapsed, blank lines dropped.

    With ``main_only``, only the text inside the first element with ``role="main"`` (the page's
    content in Sphinx's themes: no header, navigation, sidebar or footer); empty when the page
    has no such element.
    """
    p = _Text(main_only)
    p.feed(page)
    p.close()
    lines = (re.sub(r"\s+", " ", line).strip() for line in "".join(p.parts).split("\n"))
    return "\n".join(line for line in lines if line)


def words(text: str) -> list[str]:
    """Lower-cased word tokens (letters, digits, underscore)."""
    return re.findall(r"\w+", text.lower())


def diff_ratio(a: list[str], b: list[str]) -> float:
    """difflib's ratio over two word sequences: 2·matched / (len a + len b)."""
    if not a and not b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def shingles(ws: list[str], k: int = 3) -> set[tuple[str, ...]]:
    """The set of word k-shingles (the whole sequence when shorter than k)."""
    if len(ws) < k:
        return {tuple(ws)} if ws else set()
    return {tuple(ws[i : i + k]) for i in range(len(ws) - k + 1)}


def jaccard(a: set, b: set) -> float:
    """|a ∩ b| / |a ∪ b| (1 for two empty sets)."""
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)
