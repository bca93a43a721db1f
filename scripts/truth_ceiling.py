#!/usr/bin/env python3
"""How much of PAN's score the truth's own offset errors cost: the ceiling of a perfect aligner.

    python3 scripts/truth_ceiling.py SET [SLST_JSON] [--repaired-out FILE]

SET is a text-alignment set folder (`susp/`, `src/`, `cases.tsv`, as the shared PAN 2013 half).
The mirror's texts differ from the original release, so some truth offsets miss the copied text
(shifted by tens to thousands of characters, mostly on the suspicious side). This script repairs
each case by locating its text: the words of one truth span are looked up, as runs of 6 words,
in the whole other document; the diagonal (offset between the two word positions) with the most
hits is the copy, and the repaired case is the stretch of matching words on both sides — never
wider than the truth span it started from. Both directions are tried (the suspicious span found
in the source, the source span found in the suspicious document) and the one matching more
words is kept. A case whose text is found nowhere is kept as it was.

Printed: PAN's measures of the repaired cases *as detections* against the original truth — what
an aligner that finds exactly the copied text would score, the ceiling of every method on this
copy — and, given slst's `eval --json` output (SLST_JSON), each method's measures against the
original truth and against the repaired truth. The measures are those of scripts/pan_score.py.
"""
import collections
import json
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import pan_score  # noqa: E402

GRAM = 6
WORD = re.compile(r"\w+")


def words(text):
    """(lowercased word, start, end) for every run of word characters."""
    return [(m.group().lower(), m.start(), m.end()) for m in WORD.finditer(text)]


def locate(a_words, a_span, b_words):
    """The copy of a_words[a_span] in b_words: (matched words, a chars, b chars) or None."""
    lo, hi = a_span
    inside = [i for i, w in enumerate(a_words) if w[1] >= lo and w[2] <= hi]
    if len(inside) < GRAM:
        return None
    index = collections.defaultdict(list)
    for j in range(len(b_words) - GRAM + 1):
        index[tuple(w[0] for w in b_words[j:j + GRAM])].append(j)
    hits = []
    for i in range(inside[0], inside[-1] - GRAM + 2):
        for j in index.get(tuple(w[0] for w in a_words[i:i + GRAM]), ()):
            hits.append((i, j))
    if not hits:
        return None
    diagonal = collections.Counter(j - i for i, j in hits).most_common(1)[0][0]
    # Small insertions or deletions in the mirror move the diagonal by a few words.
    near = sorted((i, j) for i, j in hits if abs((j - i) - diagonal) <= 20)
    a0, b0 = near[0]
    a1, b1 = near[-1]
    a1, b1 = a1 + GRAM - 1, b1 + GRAM - 1
    matched = len({i + k for i, _ in near for k in range(GRAM)})
    return matched, (a_words[a0][1], a_words[a1][2]), (b_words[b0][1], b_words[b1][2])


def repair(set_dir, cases):
    cache = {}

    def doc(kind, name):
        key = (kind, name)
        if key not in cache:
            text = (set_dir / kind / name).read_text(encoding="utf-8")
            cache[key] = words(text)
        return cache[key]

    repaired, moved = [], 0
    for susp, src, s_span, r_span in cases:
        sw, rw = doc("susp", susp), doc("src", src)
        best = None
        found = locate(sw, s_span, rw)
        if found:
            best = (found[0], found[1], found[2])
        found = locate(rw, r_span, sw)
        if found and (best is None or found[0] > best[0]):
            best = (found[0], found[2], found[1])
        if best is None:
            repaired.append((susp, src, s_span, r_span))
            continue
        case = (susp, src, best[1], best[2])
        if abs(case[2][0] - s_span[0]) > 50 or abs(case[3][0] - r_span[0]) > 50:
            moved += 1
        repaired.append(case)
    return repaired, moved


def row(label, m):
    return "%-44s %7.3f %9.3f %7.3f %11.3f" % (
        label, m["plagdet"], m["precision"], m["recall"], m["granularity"])


def main(argv):
    args, out = [], None
    it = iter(argv)
    for a in it:
        if a == "--repaired-out":
            out = next(it)
        else:
            args.append(a)
    if not args or len(args) > 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    set_dir = pathlib.Path(args[0])
    cases = pan_score.read_cases_tsv(set_dir / "cases.tsv")
    repaired, moved = repair(set_dir, cases)
    print(f"{len(cases)} cases; {moved} moved by more than 50 characters when repaired")
    methods = []
    if len(args) == 2:
        report = json.loads(pathlib.Path(args[1]).read_text(encoding="utf-8"))
        methods = [(pan_score.label(m), pan_score.slst_detections(m)) for m in report["methods"]]
    # The halves of scripts/ablation_alignment.sh: suspicious documents at even (tune) and odd
    # (report) positions in sorted order.
    susp = sorted({c[0] for c in cases})
    for part, keep in (("all", lambda k: True), ("tune", lambda k: k % 2 == 0),
                       ("report", lambda k: k % 2 == 1)):
        names = {s for k, s in enumerate(susp) if keep(k)}
        orig = [c for c in cases if c[0] in names]
        fixed = [c for c in repaired if c[0] in names]
        print()
        print("%-44s %7s %9s %7s %11s" % (f"{part}: detections vs truth", "plagdet", "precision",
                                           "recall", "granularity"))
        print(row("repaired cases vs original truth (ceiling)", pan_score.measures(orig, fixed)[0]))
        for name, dets in methods:
            dets = [d for d in dets if d[0] in names]
            print(row(f"{name} vs original truth", pan_score.measures(orig, dets)[0]))
            print(row(f"{name} vs repaired truth", pan_score.measures(fixed, dets)[0]))
    if out:
        with open(out, "w", encoding="utf-8") as f:
            f.write("susp\tsrc\tsusp_offset\tsusp_length\tsrc_offset\tsrc_length\n")
            for susp, src, s, r in repaired:
                f.write(f"{susp}\t{src}\t{s[0]}\t{s[1] - s[0]}\t{r[0]}\t{r[1] - r[0]}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
