#!/usr/bin/env python3
"""PAN's text-alignment measures, written out independently of slst, to cross-check it.

    python3 scripts/pan_score.py TRUTH DETECTIONS [--check] [--threshold θ]

TRUTH is a cases table (`susp src susp_offset susp_length src_offset src_length`, characters,
a header line) or PAN XML truth (a file or a folder of `*.xml`, features named `plagiarism`).
DETECTIONS is either the output of `slst eval … --truth-format alignment|pan-xml --json` (each
method's `pairs`, scored per method) or PAN XML detections (a file or folder, features named
`detected-plagiarism`, as `slst eval … --detections-out DIR` writes them; a folder holding no
XML file itself but subfolders that do, as DIR is with several methods, is scored per
subfolder). Prints plagdet, precision, recall and granularity over all detections
(or those with similarity ≥ θ). With `--check` and slst's JSON, every figure slst reports —
overall, each point of the sweep, each case's recall and count — is recomputed here and
compared; any difference is printed and the exit code is 1.

The measures (Potthast et al., COLING 2010; PAN 2013's perfmeasures script): characters are
counted per document, suspicious and source side separately, as sets; a detection detects a
case when it is for the same pair and overlaps it in both documents, and then only its
intersection with the case is true; recall and precision are micro-averaged over characters;
granularity is the mean number of detections per detected case; plagdet = F1 / log2(1 + gran).
No cases and no detections: precision = recall = 1; either side empty: 0.
"""
import json
import math
import pathlib
import sys
import xml.etree.ElementTree as ET


def read_cases_tsv(path):
    cases = []
    for k, line in enumerate(pathlib.Path(path).read_text(encoding="utf-8").splitlines()):
        f = line.rstrip("\r").split("\t")
        if not line.strip() or line.startswith("#") or (k == 0 and not f[2].isdigit()):
            continue
        s_off, s_len, r_off, r_len = map(int, f[2:6])
        cases.append((f[0], f[1], (s_off, s_off + s_len), (r_off, r_off + r_len)))
    return cases


def read_pan_xml(path, name):
    path = pathlib.Path(path)
    files = sorted(path.glob("*.xml")) + sorted(path.glob("*/*.xml")) if path.is_dir() else [path]
    out = []
    for f in files:
        root = ET.parse(f).getroot()
        this = root.get("reference")
        for feat in root.findall("feature"):
            if feat.get("name") != name:
                continue
            t_off, t_len = int(feat.get("this_offset")), int(feat.get("this_length"))
            s_off, s_len = int(feat.get("source_offset")), int(feat.get("source_length"))
            out.append((this, feat.get("source_reference"), (t_off, t_off + t_len),
                        (s_off, s_off + s_len)))
    return out


def xml_runs(path):
    """PAN XML detections to score: (name, detections) for a file or a folder, or one per
    subfolder for a folder whose XML files are all in subfolders (one per method)."""
    path = pathlib.Path(path)
    if path.is_dir() and not list(path.glob("*.xml")):
        subfolders = sorted(d for d in path.iterdir() if d.is_dir() and list(d.glob("*.xml")))
        if subfolders:
            return [(str(d), read_pan_xml(d, "detected-plagiarism")) for d in subfolders]
    return [(str(path), read_pan_xml(path, "detected-plagiarism"))]


def read_truth(path):
    p = pathlib.Path(path)
    if p.is_dir() or p.suffix == ".xml":
        return read_pan_xml(p, "plagiarism")
    return read_cases_tsv(p)


def count_chars(annotations):
    susp, src = {}, {}
    for s, r, a, b in annotations:
        susp.setdefault(s, set()).update(range(*a))
        src.setdefault(r, set()).update(range(*b))
    return sum(map(len, susp.values())) + sum(map(len, src.values()))


def overlap(x, y):
    return x[0] < y[1] and y[0] < x[1]


def detects(case, det):
    return case[:2] == det[:2] and overlap(case[2], det[2]) and overlap(case[3], det[3])


def measures(cases, dets):
    """plagdet, precision, recall, granularity, and per case (recall, detections)."""
    per_case, true = [], []
    for c in cases:
        found = [d for d in dets if detects(c, d)]
        parts = [(c[0], c[1], (max(c[2][0], d[2][0]), min(c[2][1], d[2][1])),
                  (max(c[3][0], d[3][0]), min(c[3][1], d[3][1]))) for d in found]
        true.extend(parts)
        length = (c[2][1] - c[2][0]) + (c[3][1] - c[3][0])
        covered = count_chars(parts)  # one case: its own two documents
        per_case.append((covered / length if length else 0.0, len(found)))
    if not cases and not dets:
        prec = rec = 1.0
    elif not cases or not dets:
        prec = rec = 0.0
    else:
        tp = count_chars(true)
        rec, prec = tp / count_chars(cases), tp / count_chars(dets)
    detected = [n for _, n in per_case if n > 0]
    gran = sum(detected) / len(detected) if detected else 1.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    plagdet = f1 / math.log2(1 + gran) if prec + rec else 0.0
    return {"plagdet": plagdet, "precision": prec, "recall": rec, "granularity": gran,
            "detections": len(dets), "cases_detected": len(detected)}, per_case


def slst_detections(method, threshold=None):
    return [(p["susp"], p["src"], tuple(d["susp_chars"]), tuple(d["src_chars"]))
            for p in method["pairs"] for d in p["detections"]
            if threshold is None or d["similarity"] >= threshold]


def label(method):
    mode = method.get("mode")
    return method["method"] + (f" ({mode})" if mode == "robust" else "")


def check(cases, method):
    """Differences between slst's figures and the ones recomputed here."""
    problems = []

    def compare(what, ours, theirs):
        for key, value in ours.items():
            if abs(value - theirs[key]) > 1e-9:
                problems.append(f"{label(method)} {what} {key}: slst {theirs[key]}, here {value}")

    ours, per_case = measures(cases, slst_detections(method))
    compare("overall", ours, method["overall"])
    for point in method["sweep"]:
        compare(f"θ = {point['threshold']:.2f}",
                measures(cases, slst_detections(method, point["threshold"]))[0], point)
    for (recall, n), theirs in zip(per_case, method["cases"]):
        compare(f"case {theirs['susp']} {theirs['susp_chars']}",
                {"recall": recall, "detections": n}, theirs)
    return problems


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    if len(args) < 2:
        raise SystemExit(__doc__)
    threshold = None
    if "--threshold" in argv:
        threshold = float(argv[argv.index("--threshold") + 1])
        args.remove(argv[argv.index("--threshold") + 1])
    cases = read_truth(args[0])
    det_path = pathlib.Path(args[1])
    if det_path.suffix == ".json":
        report = json.loads(det_path.read_text(encoding="utf-8"))
        runs = [(label(m), slst_detections(m, threshold), m) for m in report["methods"]]
    else:
        runs = [(name, dets, None) for name, dets in xml_runs(det_path)]
    problems = []
    for name, dets, method in runs:
        m, _ = measures(cases, dets)
        print(f"{name}: plagdet {m['plagdet']:.4f} prec {m['precision']:.4f} "
              f"rec {m['recall']:.4f} gran {m['granularity']:.4f} cases {len(cases)} "
              f"detected {m['cases_detected']} dets {m['detections']}")
        if "--check" in argv and method is not None:
            problems.extend(check(cases, method))
    for p in problems:
        print("DIFFERENT:", p, file=sys.stderr)
    if "--check" in argv and not problems:
        print("slst's figures agree with these")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
