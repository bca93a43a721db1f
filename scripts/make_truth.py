#!/usr/bin/env python3
"""Derive the truth files `slst eval` reads from the labelled corpora beside the repository.

Usage: python3 scripts/make_truth.py [PATH/TO/shared/corpora]

Writes corpora/truth/ (small text files, no corpus text):
  clough-pairs.tsv        every answer x every source: the answer's category (cut, light,
                          heavy, non) against its own task's source, "other-task" against the
                          other four sources (negatives). Universe: listed.
  bible-pairs.tsv         the corpus's pairs.tsv as it is (light: KJV-Webster, heavy: to WEB).
  bible-ignore.tsv        within_version_parallels.tsv: genuine quotations inside one version.
  newsgroups-pairs.tsv    cross-posts (label "crosspost": identical bodies) and replies that
                          quote their ancestor (label "quote"; quoted_lines_from_ancestor > 0).
  newsgroups-unquoted.tsv reply links without a quoted line (to ignore: related, unlabelled).
  reuters-exact.tsv       exact-duplicate body groups, one cluster per line: group<TAB>NEWIDs.
"""
import csv
import os
import sys

src = sys.argv[1] if len(sys.argv) > 1 else os.path.join("..", "shared", "corpora")
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpora", "truth")
os.makedirs(out, exist_ok=True)


def write(name, header, rows):
    with open(os.path.join(out, name), "w", encoding="utf-8", newline="") as f:
        f.write("\t".join(header) + "\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    print(f"{name}: {len(rows)} rows")


# Clough & Stevenson: answers against sources.
with open(os.path.join(src, "clough-short-answers", "file_list.csv"), encoding="utf-8") as f:
    answers = list(csv.DictReader(f))
rows = []
for a in answers:
    for task in "abcde":
        label = a["Category"] if a["Task"] == task else "other-task"
        rows.append((a["File"], f"orig_task{task}.txt", label))
write("clough-pairs.tsv", ("id_a", "id_b", "label"), rows)

# Bible versions.
bible = os.path.join(src, "bible-versions")
with open(os.path.join(bible, "pairs.tsv"), encoding="utf-8") as f:
    rows = [line.rstrip("\n").split("\t") for line in f][1:]
write("bible-pairs.tsv", ("id_a", "id_b", "label"), rows)
with open(os.path.join(bible, "within_version_parallels.tsv"), encoding="utf-8") as f:
    rows = [line.rstrip("\n").split("\t")[:2] for line in f][1:]
write("bible-ignore.tsv", ("id_a", "id_b"), rows)

# mini-newsgroups.
news = os.path.join(src, "mini-newsgroups", "derived")
rows, unquoted = [], []
with open(os.path.join(news, "crossposts.tsv"), encoding="utf-8") as f:
    for line in list(f)[1:]:
        _, files = line.rstrip("\n").split("\t")
        ids = files.split()
        rows += [(ids[i], ids[j], "crosspost") for i in range(len(ids)) for j in range(i + 1, len(ids))]
with open(os.path.join(news, "reply_links.tsv"), encoding="utf-8") as f:
    for line in list(f)[1:]:
        reply, ancestor, _direct, quoted = line.rstrip("\n").split("\t")
        (rows if int(quoted) > 0 else unquoted).append((reply, ancestor, "quote" if int(quoted) > 0 else "unquoted"))
write("newsgroups-pairs.tsv", ("id_a", "id_b", "label"), rows)
write("newsgroups-unquoted.tsv", ("id_a", "id_b", "label"), unquoted)

# Reuters-21578 exact-duplicate bodies.
with open(os.path.join(src, "reuters21578", "derived", "exact_body_duplicates.tsv"), encoding="utf-8") as f:
    rows = [line.rstrip("\n").split("\t")[:2] for line in f][1:]
write("reuters-exact.tsv", ("cluster_id", "newids"), rows)
