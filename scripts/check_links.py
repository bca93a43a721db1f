#!/usr/bin/env python3
"""Check that every relative link of the project's Markdown pages resolves.

Usage: python3 scripts/check_links.py [FILE.md ...]

Without arguments it checks README.md, ARCHITECTURE.md, docs/*.md, scripts/README.md,
corpora/README.md and the Markdown files under results/. A link `[text](target)` whose target
is not a URL must name a file or folder of the repository, and its `#anchor`, if any, a heading
of that Markdown file (GitHub's rule: lowercase, punctuation dropped, spaces as hyphens).
Prints each broken link as FILE:LINE: TARGET (reason) and exits 1 if there is any.
Standard library only.
"""
import glob
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def slug(heading):
    text = re.sub(r"`|\*|_(?=\W)|(?<=\W)_", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    seen, found = {}, set()
    in_fence = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if FENCE.match(line):
                in_fence = not in_fence
            elif not in_fence and line.startswith("#"):
                base = slug(line.lstrip("#"))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
    return found


def check(md):
    errors = []
    in_fence = False
    with open(md, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                in_fence = not in_fence
                continue
            if in_fence:
                continue
            for target in LINK.findall(re.sub(r"`[^`]*`", "", line)):
                if re.match(r"[a-z][a-z0-9+.-]*:", target):
                    continue  # a URL
                path, _, anchor = target.partition("#")
                full = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
                rel = os.path.relpath(md, ROOT)
                if not full.startswith(ROOT):
                    errors.append(f"{rel}:{number}: {target} (outside the repository)")
                elif not os.path.exists(full):
                    errors.append(f"{rel}:{number}: {target} (no such file)")
                elif anchor and (not full.endswith(".md") or anchor not in anchors(full)):
                    errors.append(f"{rel}:{number}: {target} (no such heading)")
    return errors


def main():
    files = sys.argv[1:] or (
        ["README.md", "ARCHITECTURE.md", "scripts/README.md", "corpora/README.md"]
        + sorted(glob.glob("docs/*.md"))
        + sorted(glob.glob("results/**/*.md", recursive=True))
    )
    errors = [e for md in files for e in check(os.path.join(ROOT, md) if not os.path.isabs(md) else md)]
    print("\n".join(errors) if errors else f"{len(files)} files, every relative link resolves")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
