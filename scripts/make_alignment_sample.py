#!/usr/bin/env python3
"""Build corpora/alignment-sample/, a tiny text-alignment set in PAN's layout, from texts the
repository already ships (nothing is written for it: every word comes from a shipped text).

    python3 scripts/make_alignment_sample.py           # write the set
    python3 scripts/make_alignment_sample.py --check   # rebuild in memory, compare with the files

Sources: the World English Bible's Genesis 1 (corpora/bible-versions/web.trec.gz, WEB-01-001)
and the Wikipedia extract on PageRank of Clough & Stevenson's corpus
(corpora/clough/orig_taskb.txt). Suspicious documents: the King James Version's Exodus 14
(kjv.trec.gz, KJV-02-014) with a passage of Genesis 1 pasted in mid-sentence and a paragraph of
the PageRank article pasted between two verses; the World English Bible's Exodus 3 (WEB-02-003)
with other verses of Genesis 1 pasted between two verses. The Bible texts have typographic quotes
and apostrophes (three bytes in UTF-8, one character), so character offsets differ from byte
offsets before and inside the passages.

Cases (`cases.tsv`, and one PAN XML file per pair in `pan-xml/`, the pair of the second
suspicious document and the PageRank article listed without a case) are the character offsets
of the pasted passages, computed here with Python's str indices (characters).
"""
import gzip
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "corpora" / "alignment-sample"
SUSP = ["suspicious-document00001.txt", "suspicious-document00002.txt"]
SRC = ["source-document00001.txt", "source-document00002.txt"]


def trec_text(name, docno):
    raw = gzip.open(ROOT / "corpora" / "bible-versions" / name, "rt", encoding="utf-8").read()
    m = re.search(r"<DOCNO>%s</DOCNO>\s*<TEXT>\n(.*?)\n?</TEXT>" % re.escape(docno), raw, re.S)
    return m.group(1)


def lines(text, first, last):
    """Lines first..last (1-based, inclusive) of a text, joined as they stand in it."""
    return "\n".join(text.split("\n")[first - 1 : last])


def paste(host, at, passage, sep):
    """Insert passage into host at character `at`, followed by sep; returns the text and the
    passage's character span."""
    return host[:at] + passage + sep + host[at:], (at, at + len(passage))


def build():
    """The files of the set, by path relative to OUT."""
    src1 = trec_text("web.trec.gz", "WEB-01-001")
    src2 = (ROOT / "corpora" / "clough" / "orig_taskb.txt").read_text(encoding="utf-8")
    host1 = trec_text("kjv.trec.gz", "KJV-02-014")
    host2 = trec_text("web.trec.gz", "WEB-02-003")
    cases = []  # (susp, src, susp span, src span)

    # Genesis 1:3-5 pasted into Exodus 14:6 (KJV) after "chariot, ", mid-sentence.
    p1 = lines(src1, 3, 5)
    at = host1.index("chariot, ") + len("chariot, ")
    susp1, s1 = paste(host1, at, p1, " ")
    # The PageRank article's second paragraph pasted between Exodus 14:20 and 14:21.
    p2 = src2.split("\n")[1]
    at = susp1.index("\nAnd Moses stretched out his hand over the sea;") + 1
    susp1, s2 = paste(susp1, at, p2, "\n")
    if s2[0] < s1[0]:
        raise SystemExit("the second paste must come after the first")
    cases.append((SUSP[0], SRC[0], s1, span(src1, p1)))
    cases.append((SUSP[0], SRC[1], s2, span(src2, p2)))

    # Genesis 1:14-18 pasted into Exodus 3 (WEB) between verses 11 and 12.
    p3 = lines(src1, 14, 18)
    at = host2.index("\nHe said, “Certainly I will be with you.") + 1
    susp2, s3 = paste(host2, at, p3, "\n")
    cases.append((SUSP[1], SRC[0], s3, span(src1, p3)))

    files = {
        f"susp/{SUSP[0]}": susp1 + "\n",
        f"susp/{SUSP[1]}": susp2 + "\n",
        f"src/{SRC[0]}": src1 + "\n",
        f"src/{SRC[1]}": src2,
    }
    header = "susp\tsrc\tsusp_offset\tsusp_length\tsrc_offset\tsrc_length\n"
    rows = "".join(
        f"{a}\t{b}\t{s[0]}\t{s[1] - s[0]}\t{r[0]}\t{r[1] - r[0]}\n" for a, b, s, r in cases
    )
    files["cases.tsv"] = header + rows
    for a in SUSP:
        for b in SRC:
            features = "".join(
                f'<feature name="plagiarism" type="artificial" obfuscation="none" '
                f'this_language="en" this_offset="{s[0]}" this_length="{s[1] - s[0]}" '
                f'source_reference="{b}" source_language="en" source_offset="{r[0]}" '
                f'source_length="{r[1] - r[0]}"/>\n'
                for x, y, s, r in cases
                if (x, y) == (a, b)
            )
            name = f"pan-xml/{a[:-4]}-{b[:-4]}.xml"
            files[name] = (
                '<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<document reference="{a}">\n{features}</document>\n'
            )
    # Every case reads the same text on both sides.
    for a, b, s, r in cases:
        susp_text = files[f"susp/{a}"][s[0] : s[1]]
        src_text = files[f"src/{b}"][r[0] : r[1]]
        assert susp_text == src_text, (a, b)
    return files


def span(text, passage):
    start = text.index(passage)
    return (start, start + len(passage))


def main():
    files = build()
    if "--check" in sys.argv[1:]:
        bad = [p for p, t in files.items() if (OUT / p).read_text(encoding="utf-8") != t]
        if bad:
            raise SystemExit(f"differs from the rebuild: {', '.join(bad)}")
        print(f"{len(files)} files as rebuilt")
        return
    for path, text in files.items():
        (OUT / path).parent.mkdir(parents=True, exist_ok=True)
        (OUT / path).write_text(text, encoding="utf-8")
    print(f"wrote {len(files)} files to {OUT}")


if __name__ == "__main__":
    main()
