#!/usr/bin/env python3
"""Build the two labelled sets of real web pages (corpora/web-versions, corpora/web-mirror) from
the package archives, or check that a rebuild reproduces the shipped files.

Usage (from the repository root):

  python3 scripts/make_web_set.py            # rebuild into the work folder, compare checksums
  python3 scripts/make_web_set.py --write    # rebuild and replace the shipped files
  options: --work DIR (default bench-results/web-build), --jobs N (sphinx-build, default 2),
           --reuse-render (take the Sphinx build already in the work folder)

Needs: a Debian system (apt-get and dpkg-deb reaching the bookworm archive; the Apache-2.0 text
from /usr/share/common-licenses), python3 with venv and pip (PyPI).
Python standard library only; the mirror's renderer (Sphinx and the Read the Docs theme, exact
versions below) is installed into a virtual environment inside the work folder.

What it does:
1. Downloads llvm-13-doc and llvm-16-doc (Debian 12 "bookworm", exact versions below) with
   `apt-get download`, checks their SHA-256 against the archive's, unpacks them with dpkg-deb.
2. Pages: the HTML manual pages (usr/share/doc/llvm-N-doc/html/**.html, outside the `_*`
   folders, not genindex/search) present under the same relative path in both versions and whose
   reST source ships in llvm-16-doc's `_sources/` (the mirror needs it), both files at most
   100,000 bytes, and whose main text (below) has at least 25 words in both (no stubs).
3. Kind of each pair, from the main content's text (the element with role="main": no header,
   navigation or footer; scripts/web/webtext.py), compared as word sequences with difflib:
   `identical` (equal text), `light` (ratio >= 0.9), `heavy` (ratio < 0.9).
4. Selection: every `heavy` page, and the `identical` and `light` pages whose two files are at most
   30,000 bytes each (to keep the set small); in path order, a page is left out when its main
   text, in either version, has a word 3-shingle Jaccard of 0.5 or more with a page already
   kept (different files must not be near-duplicates: per-GPU AMDGPU operand pages that say the
   same, the *-tblgen command pages).
5. versions set: corpora/web-versions/pages/llvm-13.0.1/PATH and .../llvm-16.0.6/PATH, the files
   byte for byte; truth corpora/truth/web-versions-pairs.tsv (one line per page: the two ids and
   the kind) and corpora/truth/web-versions-identical.tsv (the identical pairs, to ignore).
6. mirror set: the selected pages whose two files are at most 20,000 bytes each (any kind): the llvm-16.0.6 page again under corpora/web-mirror/pages/llvm-theme/PATH, and
   the same pages rendered from their reST sources (all 1,174 .rst sources of llvm-16-doc are
   built, so cross-references resolve) by Sphinx 7.2.6 with the Read the Docs theme 2.0.0 under
   corpora/web-mirror/pages/rtd-theme/PATH; truth corpora/truth/web-mirror-pairs.tsv (label
   `mirror`).
7. Licence files beside the pages, and SHA256SUMS in each set folder (repository-relative paths,
   truth files included): `sha256sum -c corpora/web-versions/SHA256SUMS` from the root checks
   the shipped files; this script without --write checks that a rebuild gives the same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "web"))
from webtext import diff_ratio, jaccard, read_html, shingles, visible_text, words  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# Debian 12 packages: name, version, SHA-256 of the .deb (from the archive's Packages index).
DEBS = {
    "llvm-13-doc": (
        "1:13.0.1-11",
        "b01bcec104899d0e2283d7f5b43f8c369db671010a58a6bf3c1cb779c75b4e3f",
    ),
    "llvm-16-doc": (
        "1:16.0.6-15~deb12u1",
        "6f2323357bad4aa2942bf815a8d1ced18fb808746583faeee28e0dc9238112da",
    ),
}
OLD, NEW = "llvm-13.0.1", "llvm-16.0.6"

# The mirror's renderer, every package pinned (installed with --no-deps).
SPHINX_PINS = """\
alabaster==0.7.16
babel==2.18.0
certifi==2026.10.18
charset-normalizer==3.5.2
docutils==0.20.1
idna==3.20
imagesize==2.0.1
Jinja2==3.1.6
MarkupSafe==3.0.4
packaging==26.3
Pygments==2.21.0
requests==2.34.2
snowballstemmer==3.1.1
Sphinx==7.2.6
sphinx-rtd-theme==2.0.0
sphinxcontrib-applehelp==2.0.0
sphinxcontrib-devhelp==2.0.0
sphinxcontrib-htmlhelp==2.1.0
sphinxcontrib-jquery==4.1
sphinxcontrib-jsmath==2.0.0
sphinxcontrib-qthelp==2.0.0
sphinxcontrib-serializinghtml==2.0.0
urllib3==2.8.0
"""

SPHINX_CONF = """\
# Rendering of llvm-16-doc's reST sources in another site template (the mirror set).
project = "LLVM"
copyright = "2003-2023, LLVM Project"
version = release = "16"
extensions = ["sphinx.ext.todo"]
html_theme = "sphinx_rtd_theme"
html_copy_source = False
html_show_sourcelink = False
"""

MAX_BYTES = 100_000  # larger pages are left out
SMALL_BYTES = 30_000  # identical and light pages are kept only when both files are this small
MIRROR_BYTES = 20_000  # the mirror set takes the versions set's pages this small (any kind)
LIGHT_MIN = 0.9  # difflib ratio of the main text: light at or above, heavy below
MIN_WORDS = 25  # pages whose main text is shorter (stubs, one-line pages) are left out
SAME_TEXT = 0.5  # main texts of two different pages this similar (3-shingle Jaccard): one is left out
SKIP_PAGES = {"genindex.html", "search.html", "py-modindex.html"}


def run(cmd: list[str], cwd: Path | None = None) -> None:
    print("+", " ".join(cmd), file=sys.stderr)
    subprocess.run(cmd, cwd=cwd, check=True)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch_debs(work: Path) -> dict[str, Path]:
    """Download (once) and unpack the two packages; the html folder of each."""
    debs = work / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    roots = {}
    for name, (version, digest) in DEBS.items():
        found = [p for p in debs.glob(f"{name}_*.deb") if sha256(p) == digest]
        if not found:
            run(["apt-get", "download", f"{name}={version}"], cwd=debs)
            found = [p for p in debs.glob(f"{name}_*.deb") if sha256(p) == digest]
            if not found:
                sys.exit(f"make_web_set: {name} {version}: no downloaded .deb has SHA-256 {digest}")
        unpacked = work / "unpacked" / name
        if not (unpacked / "usr").is_dir():
            shutil.rmtree(unpacked, ignore_errors=True)
            unpacked.mkdir(parents=True)
            run(["dpkg-deb", "-x", str(found[0]), str(unpacked)])
        roots[name] = unpacked / "usr" / "share" / "doc" / name
    return roots


def pages_of(html_root: Path) -> set[str]:
    out = set()
    for p in html_root.rglob("*.html"):
        rel = p.relative_to(html_root).as_posix()
        if not rel.startswith("_") and rel not in SKIP_PAGES:
            out.add(rel)
    return out


def select(old: Path, new: Path) -> list[tuple[str, str, bool]]:
    """(relative path, kind, small) of the selected pages, in path order; small: both files are
    at most MIRROR_BYTES (the mirror set's pages)."""
    common = sorted(pages_of(old) & pages_of(new))
    chosen = []
    kept: list[tuple[set, set]] = []  # main-text shingles of the kept pages, both versions
    for rel in common:
        if not (new / "_sources" / (rel[: -len(".html")] + ".rst.txt")).is_file():
            continue
        sa, sb = (old / rel).stat().st_size, (new / rel).stat().st_size
        if max(sa, sb) > MAX_BYTES:
            continue
        ta = visible_text(read_html(old / rel), main_only=True)
        tb = visible_text(read_html(new / rel), main_only=True)
        if min(len(words(ta)), len(words(tb))) < MIN_WORDS:
            continue
        ratio = 1.0 if ta == tb else diff_ratio(words(ta), words(tb))
        kind = "identical" if ta == tb else "light" if ratio >= LIGHT_MIN else "heavy"
        small = max(sa, sb) <= MIRROR_BYTES
        if not (kind == "heavy" or max(sa, sb) <= SMALL_BYTES):
            continue
        # Different files must not share their content (the negatives are every other pair):
        # a page whose main text is much like a kept page's, in either version, is left out
        # (e.g. per-GPU AMDGPU operand pages that repeat another GPU's).
        sh = (shingles(words(ta)), shingles(words(tb)))
        if any(jaccard(x, y) >= SAME_TEXT for k in kept for x in sh for y in k):
            print(f"left out (content like a kept page's): {rel}", file=sys.stderr)
            continue
        kept.append(sh)
        chosen.append((rel, kind, small))
    return chosen


def render_mirror(work: Path, new: Path, jobs: int, reuse: bool) -> Path:
    """Build every reST source of the new manual with the pinned Sphinx and RTD theme (with
    `reuse`, an earlier build in the work folder is taken as it is)."""
    venv = work / "venv-sphinx"
    pins = work / "sphinx-pins.txt"
    if not (venv / "bin" / "sphinx-build").exists() or (
        not pins.exists() or pins.read_text() != SPHINX_PINS
    ):
        shutil.rmtree(venv, ignore_errors=True)
        run([sys.executable, "-m", "venv", str(venv)])
        pins.write_text(SPHINX_PINS)
        run([str(venv / "bin" / "pip"), "install", "-q", "--no-deps", "-r", str(pins)])
    src, out = work / "mirror-src", work / "mirror-html"
    if reuse and (out / "index.html").is_file():
        return out
    shutil.rmtree(src, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    sources = new / "_sources"
    for s in sorted(sources.rglob("*.rst.txt")):
        dest = src / s.relative_to(sources).with_suffix("")  # X.rst.txt -> X.rst
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(s, dest)
    (src / "conf.py").write_text(SPHINX_CONF)
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000", PYTHONHASHSEED="0")
    cmd = [str(venv / "bin" / "sphinx-build"), "-b", "html", "-q", "-E", "-j", str(jobs)]
    print("+", " ".join(cmd + [str(src), str(out)]), "(warnings in the work folder)", file=sys.stderr)
    with open(work / "sphinx-warnings.txt", "w") as log:
        subprocess.run(cmd + [str(src), str(out)], check=True, stderr=log, env=env)
    return out


def write_tsv(path: Path, rows: list[tuple[str, str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write("id_a\tid_b\tlabel\n")
        for r in rows:
            f.write("\t".join(r) + "\n")


def copy(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)


def sums(out: Path, folder: str, extra: list[str]) -> None:
    """SHA256SUMS of a set folder and its truth files, repository-relative paths."""
    files = sorted(p for p in (out / folder).rglob("*") if p.is_file() and p.name != "SHA256SUMS")
    rels = [p.relative_to(out).as_posix() for p in files] + extra
    lines = [f"{sha256(out / r)}  {r}\n" for r in rels]
    (out / folder / "SHA256SUMS").write_text("".join(lines))


def build(work: Path, out: Path, jobs: int, reuse: bool) -> dict[str, int]:
    roots = fetch_debs(work)
    old, new = roots["llvm-13-doc"] / "html", roots["llvm-16-doc"] / "html"
    chosen = select(old, new)
    rtd = render_mirror(work, new, jobs, reuse)
    licence = roots["llvm-16-doc"] / "copyright"
    apache = Path("/usr/share/common-licenses/Apache-2.0")
    theme_licence = next((work / "venv-sphinx").glob("lib/python*/site-packages/sphinx_rtd_theme-*.dist-info/LICENSE"))

    vdir, mdir = out / "corpora" / "web-versions", out / "corpora" / "web-mirror"
    for d in (vdir, mdir):
        shutil.rmtree(d, ignore_errors=True)
    versions, identical, mirror = [], [], []
    counts: dict[str, int] = {}
    for rel, kind, small in chosen:
        a, b = f"{OLD}/{rel}", f"{NEW}/{rel}"
        copy(old / rel, vdir / "pages" / a)
        copy(new / rel, vdir / "pages" / b)
        versions.append((a, b, kind))
        if kind == "identical":
            identical.append((a, b, kind))
        counts[kind] = counts.get(kind, 0) + 1
        if not small:
            continue
        rendered = rtd / rel
        if not rendered.is_file():
            sys.exit(f"make_web_set: {rendered}: Sphinx did not render this page")
        copy(new / rel, mdir / "pages" / "llvm-theme" / rel)
        copy(rendered, mdir / "pages" / "rtd-theme" / rel)
        mirror.append((f"llvm-theme/{rel}", f"rtd-theme/{rel}", "mirror"))
    for d in (vdir, mdir):
        copy(licence, d / "copyright-llvm-16-doc.txt")
        copy(apache, d / "LICENSE-Apache-2.0.txt")
    copy(roots["llvm-13-doc"] / "copyright", vdir / "copyright-llvm-13-doc.txt")
    copy(theme_licence, mdir / "LICENSE-sphinx_rtd_theme.txt")
    truth = out / "corpora" / "truth"
    write_tsv(truth / "web-versions-pairs.tsv", versions)
    write_tsv(truth / "web-versions-identical.tsv", identical)
    write_tsv(truth / "web-mirror-pairs.tsv", mirror)
    sums(out, "corpora/web-versions", ["corpora/truth/web-versions-pairs.tsv", "corpora/truth/web-versions-identical.tsv"])
    sums(out, "corpora/web-mirror", ["corpora/truth/web-mirror-pairs.tsv"])
    counts["mirror"] = len(mirror)
    return counts


def compare(out: Path) -> bool:
    """Compare the rebuilt files with the shipped ones, through each set's SHA256SUMS."""
    ok = True
    for folder in ("corpora/web-versions", "corpora/web-mirror"):
        built = (out / folder / "SHA256SUMS").read_text().splitlines()
        shipped_file = ROOT / folder / "SHA256SUMS"
        if not shipped_file.is_file():
            print(f"{folder}/SHA256SUMS: not shipped", file=sys.stderr)
            ok = False
            continue
        shipped = shipped_file.read_text().splitlines()
        for line in sorted(set(built) ^ set(shipped)):
            side = "rebuilt" if line in built else "shipped"
            print(f"differs ({side} only): {line}", file=sys.stderr)
            ok = False
        for line in shipped:
            digest, rel = line.split("  ", 1)
            path = ROOT / rel
            if not path.is_file() or sha256(path) != digest:
                print(f"shipped file does not match SHA256SUMS: {rel}", file=sys.stderr)
                ok = False
        print(f"{folder}: {len(shipped)} files, rebuild {'matches' if ok else 'DIFFERS'}", file=sys.stderr)
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--work", type=Path, default=ROOT / "bench-results" / "web-build")
    ap.add_argument("--write", action="store_true", help="replace the shipped files")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--reuse-render", action="store_true",
                    help="take the Sphinx build already in the work folder (while iterating)")
    args = ap.parse_args()
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    out = work / "out"
    counts = build(work, out, args.jobs, args.reuse_render)
    print("pages per kind:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())), file=sys.stderr)
    if args.write:
        for folder in ("corpora/web-versions", "corpora/web-mirror"):
            shutil.rmtree(ROOT / folder, ignore_errors=True)
            shutil.copytree(out / folder, ROOT / folder)
        for name in ("web-versions-pairs.tsv", "web-versions-identical.tsv", "web-mirror-pairs.tsv"):
            shutil.copyfile(out / "corpora" / "truth" / name, ROOT / "corpora" / "truth" / name)
        print("wrote corpora/web-versions, corpora/web-mirror, corpora/truth/web-*.tsv", file=sys.stderr)
        return 0
    return 0 if compare(out) else 1


if __name__ == "__main__":
    sys.exit(main())
