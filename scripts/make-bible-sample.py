#!/usr/bin/env python3
"""Rebuild corpora/bible/ from the bible-versions corpus (public domain).

Usage: python3 scripts/make-bible-sample.py [PATH/TO/bible-versions]

Writes
  corpora/bible/kjv-1mb.txt, wbt-1mb.txt: the same leading chapters of the King James
      Version (1769) and Webster's 1833 revision, whole chapters until the KJV side
      reaches 1 MiB, chapters separated by a blank line (benchmarks, examples);
  corpora/bible/sample.trec: three chapters in each version, TREC SGML (tests).
"""
import os
import re
import sys

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join("..", "shared", "corpora", "bible-versions")
out = os.path.join(os.path.dirname(__file__), "..", "corpora", "bible")
DOC = re.compile(r"<DOC>\s*<DOCNO>(.*?)</DOCNO>\s*<TEXT>\n?(.*?)</TEXT>\s*</DOC>", re.S)


def chapters(name):
    with open(os.path.join(src, name), encoding="utf-8") as f:
        return [(d.strip(), t) for d, t in DOC.findall(f.read())]


kjv, wbt = chapters("kjv.trec"), chapters("wbt.trec")
wbt_by_key = {d.split("-", 1)[1]: (d, t) for d, t in wbt}
pairs = [(k, wbt_by_key[k[0].split("-", 1)[1]]) for k in kjv if k[0].split("-", 1)[1] in wbt_by_key]

kjv_parts, wbt_parts, size = [], [], 0
for (kd, kt), (wd, wt) in pairs:
    if size >= 1 << 20:
        break
    kjv_parts.append(kt.strip())
    wbt_parts.append(wt.strip())
    size += len(kt.encode("utf-8"))
for name, parts in (("kjv-1mb.txt", kjv_parts), ("wbt-1mb.txt", wbt_parts)):
    with open(os.path.join(out, name), "w", encoding="utf-8") as f:
        f.write("\n\n".join(parts) + "\n")

with open(os.path.join(out, "sample.trec"), "w", encoding="utf-8") as f:
    for (kd, kt), (wd, wt) in pairs[:3]:
        for d, t in ((kd, kt), (wd, wt)):
            f.write(f"<DOC>\n<DOCNO>{d}</DOCNO>\n<TEXT>\n{t.strip()}\n</TEXT>\n</DOC>\n")
print(f"{len(kjv_parts)} chapters, KJV {size} bytes")
