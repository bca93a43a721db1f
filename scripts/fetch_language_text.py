#!/usr/bin/env python3
"""Fetch real Russian and Ukrainian prose from Debian's packages and write one corpus per
language that `slst` reads (JSON lines, one document per manual page).

Usage (from the repository root):

  python3 scripts/fetch_language_text.py [--work DIR] [--lang ru,uk]

Needs: a Debian system (apt-get download and dpkg-deb reaching the bookworm archive; no root
install) and groff (renders the pages). Python standard library only.

The text: the Linux manual pages translated by the manpages-l10n project, as Debian 12
("bookworm") ships them: manpages-ru and manpages-ru-dev, manpages-uk and manpages-uk-dev, all
version 4.18.1-1 (pinned below with the SHA-256 of each .deb). They are technical prose written
by translators: descriptions of commands, system calls, library functions, file formats and
overviews (man7). What the script does:

1. Downloads the four packages (once) into WORK/debs with `apt-get download NAME=VERSION`, checks
   their SHA-256, unpacks them with dpkg-deb into WORK/unpacked.
2. Renders every page under usr/share/man/LANG/ with groff (`-k -Tutf8 -man`, one paragraph a
   line, no hyphenation, no overstriking); a page that is only a link (`.so`) is skipped.
3. Keeps the prose: the running header and footer are dropped, and so are the sections that are
   not prose or are the same in every page (synopsis, library, attributes, examples, see also,
   the translators' credits, authors, copyright, where to report bugs, availability, standards,
   trademark, home page; their titles per language are in DROP_SECTIONS). Of what is left, a
   paragraph whose letters are less than half Cyrillic (an untranslated English paragraph, a
   code line) is dropped too. Paragraphs are separated by blank lines; section titles are
   dropped, a subsection title is a paragraph of its own.
4. Keeps pages with at least MIN_PARAGRAPHS paragraphs left, and of those, in id order, leaves
   out a page that is a near-duplicate of one kept before it (word 3-shingle Jaccard of
   SAME_JACCARD or more, or SAME_CONTAINED of either's shingles shared): the packages install
   some pages under several names (the xdr_* functions share one page), and different documents
   of the set must not be near-duplicates, or the planted pairs are not the only ones.
5. Writes WORK/LANG.jsonl ({"id": "man7/signal.7", "text": …}, by id) and WORK/sources.json:
   the packages (name, version, SHA-256), groff's version, and per language the pages rendered,
   left out and written.
"""
import argparse
import gzip
import hashlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

# name -> (version, SHA-256 of the .deb), Debian 12 "bookworm".
DEBS = {
    "manpages-ru": ("4.18.1-1", "5d5821dad5840652ba9c1c6b85bdc785c1fc52148a71c18fab6658c9659244c0"),
    "manpages-ru-dev": ("4.18.1-1", "7182289b9a0af78422e48412f149907b6d84d16c78544db97e48b6ab2562bb55"),
    "manpages-uk": ("4.18.1-1", "7ad64b12010584a6cc10a341ba561a6774e8493166524f386bcd9fd7cbebdd5b"),
    "manpages-uk-dev": ("4.18.1-1", "70b304069853174d7f3cd92babac1b9cf68223d39f36356022e15f50410229de"),
}
PACKAGES = {"ru": ["manpages-ru", "manpages-ru-dev"], "uk": ["manpages-uk", "manpages-uk-dev"]}

# Section titles (as rendered) whose text is not prose or is shared by every page.
DROP_SECTIONS = {
    "ru": {"СИНТАКСИС", "LIBRARY", "АТРИБУТЫ", "ПРИМЕРЫ", "ПРИМЕР", "СМ. ТАКЖЕ", "ПЕРЕВОД",
           "АВТОРЫ", "АВТОР", "АВТОРСКИЕ ПРАВА", "СТАНДАРТЫ", "ИНФОРМАЦИЯ ОБ ОШИБКАХ",
           "COLOPHON"},
    "uk": {"КОРОТКИЙ ОПИС", "LIBRARY", "АТРИБУТИ", "ПРИКЛАДИ", "ПРИКЛАД", "ДИВ. ТАКОЖ",
           "ПЕРЕКЛАД", "АВТОРИ", "АВТОР", "АВТОРСЬКІ ПРАВА", "СТАНДАРТИ", "ВІДПОВІДНІСТЬ",
           "ЗВІТИ ПРО ВАДИ", "ДОСТУПНІСТЬ", "ТОРГОВА МАРКА", "ДОМАШНЯ СТОРІНКА", "COLOPHON"},
}
MIN_CYRILLIC = 0.5  # a paragraph with a smaller share of Cyrillic letters is dropped
MIN_PARAGRAPHS = 3  # pages with fewer paragraphs left are not written
SAME_JACCARD = 0.5  # a page this similar to one kept before it (word 3-shingle Jaccard) is left out
SAME_CONTAINED = 0.8  # and so is one whose shingles are this much contained in one kept, or vice versa
SUBSECTION_INDENT = 7  # groff -man indents running text 7 columns, subsection titles 3
GROFF = ["groff", "-k", "-Tutf8", "-man", "-rLL=5000n", "-rHY=0", "-P-cbou"]


def run(cmd: list[str], cwd: Path | None = None) -> None:
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, cwd=cwd, check=True)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch(work: Path, name: str) -> Path:
    """Download (once), check and unpack one package; its unpacked root."""
    version, digest = DEBS[name]
    debs = work / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    found = [p for p in debs.glob(f"{name}_*.deb") if sha256(p) == digest]
    if not found:
        run(["apt-get", "download", f"{name}={version}"], cwd=debs)
        found = [p for p in debs.glob(f"{name}_*.deb") if sha256(p) == digest]
        if not found:
            sys.exit(f"fetch_language_text: {name} {version}: no downloaded .deb has SHA-256 {digest}")
    unpacked = work / "unpacked" / name
    if not (unpacked / "usr").is_dir():
        shutil.rmtree(unpacked, ignore_errors=True)
        unpacked.mkdir(parents=True)
        run(["dpkg-deb", "-x", str(found[0]), str(unpacked)])
    return unpacked


def cyrillic_share(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    return sum("\u0400" <= c <= "\u04ff" for c in letters) / len(letters) if letters else 0.0


def render(page: Path) -> str:
    with gzip.open(page, "rb") as f:
        source = f.read()
    out = subprocess.run(GROFF, input=source, capture_output=True, check=True)
    return out.stdout.decode("utf-8")


def paragraphs(rendered: str, drop: set[str]) -> list[str]:
    """The prose paragraphs of a rendered page (see the module docs, step 3)."""
    lines = rendered.split("\n")
    # The running header is the first non-blank line, the footer the last.
    body = [line.rstrip() for line in lines]
    while body and not body[0]:
        body.pop(0)
    while body and not body[-1]:
        body.pop()
    body = body[1:-1]
    kept: list[str] = []
    current: list[str] = []
    dropping = False

    def close() -> None:
        text = "\n".join(current)
        if current and not dropping and cyrillic_share(text) >= MIN_CYRILLIC:
            kept.append(text)
        current.clear()

    for line in body:
        if not line:
            close()
        elif not line[0].isspace():  # a section title: decides, is not kept
            close()
            dropping = line.strip() in drop
        elif len(line) - len(line.lstrip()) < SUBSECTION_INDENT:  # a subsection title
            close()
            current.append(line.strip())
            close()
        else:
            current.append(" ".join(line.split()))
    close()
    return kept


def shingles(text: str) -> set[str]:
    words = re.findall(r"\w+", text.lower())
    return {" ".join(words[i:i + 3]) for i in range(len(words) - 2)}


def same_text(docs: list[tuple[str, str]]) -> set[str]:
    """The ids of the documents that are near-duplicates of an earlier one (step 4)."""
    kept: list[set[str]] = []
    postings: dict[str, list[int]] = {}
    dropped = set()
    for page_id, text in docs:
        mine = shingles(text)
        shared: dict[int, int] = {}
        for s in mine:
            for k in postings.get(s, ()):
                shared[k] = shared.get(k, 0) + 1
        if any(n >= SAME_JACCARD * (len(mine) + len(kept[k]) - n)
               or n >= SAME_CONTAINED * min(len(mine), len(kept[k])) for k, n in shared.items()):
            dropped.add(page_id)
            continue
        for s in mine:
            postings.setdefault(s, []).append(len(kept))
        kept.append(mine)
    return dropped


def corpus(work: Path, lang: str) -> dict:
    pages = []
    for name in PACKAGES[lang]:
        root = fetch(work, name) / "usr" / "share" / "man" / lang
        pages += [(p.relative_to(root).as_posix().removesuffix(".gz"), p) for p in root.rglob("*.gz")]
    pages.sort()
    docs = []
    for page_id, path in pages:
        paras = paragraphs(render(path), DROP_SECTIONS[lang])
        if len(paras) >= MIN_PARAGRAPHS:
            docs.append((page_id, "\n\n".join(paras)))
    short = len(pages) - len(docs)
    dropped = same_text(docs)
    docs = [(page_id, text) for page_id, text in docs if page_id not in dropped]
    out = work / f"{lang}.jsonl"
    tmp = out.with_suffix(".jsonl.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for page_id, text in docs:
            f.write(json.dumps({"id": page_id, "text": text}, ensure_ascii=False) + "\n")
    tmp.replace(out)
    print(f"{out}: {len(docs)} documents ({len(pages)} pages, {short} too short, "
          f"{len(dropped)} near-duplicates of another)", file=sys.stderr)
    return {"file": out.name, "pages": len(pages), "documents": len(docs), "skipped_short": short,
            "skipped_same_text": len(dropped),
            "packages": [{"name": n, "version": DEBS[n][0], "sha256": DEBS[n][1]} for n in PACKAGES[lang]]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path("bench-results/languages"))
    parser.add_argument("--lang", default="ru,uk", help="languages, comma-separated: ru, uk")
    args = parser.parse_args()
    langs = args.lang.split(",")
    unknown = [lang for lang in langs if lang not in PACKAGES]
    if unknown:
        sys.exit(f"fetch_language_text: unknown language(s) {','.join(unknown)} (known: ru, uk)")
    if shutil.which("groff") is None:
        sys.exit("fetch_language_text: groff is needed to render the pages (apt-get install groff)")
    args.work.mkdir(parents=True, exist_ok=True)
    groff = subprocess.run(["groff", "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    record = {"source": "Debian 12 (bookworm) manpages-l10n packages", "groff": groff,
              "languages": {lang: corpus(args.work, lang) for lang in langs}}
    (args.work / "sources.json").write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(record, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
