#!/usr/bin/env python3
"""Split the labelled sets into two halves by group, for honest parameter choice.

    scripts/split_halves.py [OUT_DIR]        (default: bench-results/split)

A pair never straddles the halves: the Bible sets are split by chapter (book and chapter: every
version of a chapter falls in the same half), the Clough & Stevenson set by task (every answer
and the source of one task together). A group's half is the parity of the first byte of the MD5
of its name: fixed, independent of any method's scores. Half A is for choosing parameters,
half B for reporting.

Writes, for h in A, B:
  bible-{kjv,wbt,web}-h.trec   the chapters of half h of each version (TREC SGML)
  bible-pairs-h.tsv            the Bible truth pairs inside half h
  clough-pairs-h.tsv           the Clough truth pairs of the tasks of half h
(pairs across the halves — Clough's other-task negatives — are in neither) and prints how many documents and positive pairs each half holds.
"""
import gzip
import hashlib
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def half(group):
    return "A" if hashlib.md5(group.encode()).digest()[0] % 2 == 0 else "B"


def bible_group(docno):
    # KJV-01-001: version, book, chapter.
    return docno.split("-", 1)[1]


def clough_group(doc_id):
    # g0pA_taska.txt, orig_taska.txt: the task.
    return re.search(r"task[a-e]", doc_id).group(0)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "bench-results", "split")
    os.makedirs(out, exist_ok=True)
    bible = os.path.join(ROOT, "corpora", "bible-versions")
    for version in ("kjv", "wbt", "web"):
        with gzip.open(os.path.join(bible, f"{version}.trec.gz"), "rt", encoding="utf-8") as f:
            text = f.read()
        docs = re.findall(r"<DOC>.*?</DOC>\n?", text, flags=re.S)
        parts = {"A": [], "B": []}
        for d in docs:
            docno = re.search(r"<DOCNO>\s*(.*?)\s*</DOCNO>", d).group(1)
            parts[half(bible_group(docno))].append(d)
        for h, ds in parts.items():
            with open(os.path.join(out, f"bible-{version}-{h}.trec"), "w", encoding="utf-8") as f:
                f.write("".join(ds))
            print(f"bible {version} half {h}: {len(ds)} chapters")
    for name, group in (("bible", bible_group), ("clough", clough_group)):
        with open(os.path.join(ROOT, "corpora", "truth", f"{name}-pairs.tsv"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        header, rows = lines[0], lines[1:]
        for h in ("A", "B"):
            # Pairs across halves (Clough's other-task negatives) are left out of both.
            kept = [r for r in rows if all(half(group(x)) == h for x in r.split("\t")[:2])]
            with open(os.path.join(out, f"{name}-pairs-{h}.tsv"), "w", encoding="utf-8") as f:
                f.write("\n".join([header] + kept) + "\n")
            labels = {}
            for r in kept:
                labels[r.split("\t")[2]] = labels.get(r.split("\t")[2], 0) + 1
            print(f"{name} half {h}: {len(kept)} pairs {dict(sorted(labels.items()))}")


if __name__ == "__main__":
    main()
