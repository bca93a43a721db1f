#!/usr/bin/env python3
"""Ablation of the robust decision: each check, and each named condition, turned off, measured
on four sources.

    python3 scripts/ablation_decision.py [--corpora ../shared/corpora] [--out results]
                                         [--bin target/release/slst] [--only SOURCE,...]

For the default decision, for each of its checks turned off (its setting at the neutral value,
one at a time; the flags are those of `slst --help-all`, "Method slst") and for each named
condition that refuses a pair (`figures-differ`, `parties-differ`: every check it holds turned
off together), this measures:

- reuters: Reuters-21578 (`slst batch` over the collection as JSON lines, as
  scripts/evaluate_judged_pairs.sh makes it). The pairs gained and lost against the default,
  and of those the ones people judged (every verdict of results/judged-pairs/*/verdicts.tsv,
  pooled): a condition earns its place when turning it off gains more pairs judged `no`, or
  loses more judged `yes`, than the other way round.
- labelled: the Bible and Clough sets as scripts/evaluate.sh runs them (Bible light, Bible
  light+heavy, Clough cut+light, Clough cut+light+heavy) and the 20 Newsgroups cross-posts
  (when the shared corpora hold them): the F1 of the decision itself (`decision` of `slst eval
  --json`); best F1 sweeps the resemblance alone, which no condition changes. Earns its place
  when turning it off lowers the mean F1 at the default by more than 0.001.
- pan: the PAN 2013 text-alignment half of results/alignment (`slst batch` over its suspicious
  and source documents): its 263 pairs of documents with a plagiarism case are the positives,
  every other reported pair a false one; pair F1. (Passage detection does not read the
  decision: its figures are the same in every row.)
- synthetic: one `slst synth` set per edit kind (150 Reuters-21578 originals, seed 7, as
  scripts/synth_robust.py): mean decision F1 over the kinds.

With the default settings, a batch run of each source with `--templates report` counts the
pairs each condition decides (`decided_by`; a loose match is not a template, so `loose-words`
is not counted there). A refusal that refuses no pair of a labelled set or synthetic kind cannot
change its figures: that row is not run, and says so. Writes OUT/ablation-decision.json and
OUT/ablation-decision.md; `--only` runs some sources and keeps the other sources' figures
(`--only ''` only writes the page again).
"""
import argparse
import csv
import glob
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")

# (decided_by name, accepts or refuses, the setting at its default, flags that turn it off)
CONDITIONS = [
    ("containment", "accepts", "contained 0.8", ["--contained", "0"]),
    ("words", "accepts", "vocabulary 0.8", ["--vocabulary", "0"]),
    ("blocks", "accepts", "matched_containment_from 8", ["--matched-containment-from", "0"]),
    ("figures-in-documents", "refuses", "min_figure_containment 0.8",
     ["--min-figure-containment", "0"]),
    ("other-figures", "refuses", "figure_swaps 2", ["--figure-swaps", "0"]),
    ("loose-words", "refuses", "min_agreement 0.6", ["--min-agreement", "0"]),
    ("headline-leads", "refuses", "flash_leads on", ["--no-flash-leads"]),
    ("headline-edits", "refuses", "flash_edits 2", ["--flash-edits", "0"]),
    ("other-words", "refuses", "min_term_containment 0.8", ["--min-term-containment", "0"]),
    ("headline-subjects", "refuses", "headline_subjects on", ["--no-headline-subjects"]),
]
# Conditions whose settings are off by default: nothing to turn off.
OFF_BY_DEFAULT = [("figures-in-blocks", "min_figures 0"),
                  ("loose-words (weighted)", "min_weighted 0")]
# The named conditions the refusals fold into (`condition` of each record; docs/methods.md,
# "decided by"), each with its checks, turned off together.
GROUPS = [
    ("figures-differ", ["figures-in-documents", "other-figures"]),
    ("parties-differ", ["headline-leads", "headline-edits", "other-words", "headline-subjects"]),
]
FLAGS = {n: flags for n, _, _, flags in CONDITIONS}
ALL_OFF = [f for _, _, _, flags in CONDITIONS for f in flags]
ROWS = [("default", None, [])] + [(n, n, flags) for n, _, _, flags in CONDITIONS] + [
    (g, g, [f for c in checks for f in FLAGS[c]]) for g, checks in GROUPS
] + [("every condition off (J ≥ θ alone)", None, ALL_OFF)]
KINDS = ["last-paragraph", "every-nth", "delete", "insert", "reorder", "substitute", "paste",
         "boilerplate"]
SGML = ["--format", "sgml", "--doc-tag", "REUTERS", "--id-attr", "NEWID"]
# A change of F1 smaller than this is no change.
EPSILON = 0.001


def run(bin_, *args):
    return subprocess.run([bin_, *args], check=True, capture_output=True, text=True).stdout


def batch_pairs(bin_, inputs, flags, work, name, templates=False):
    """`slst batch` → {(a, b): decided_by}, each pair's ids sorted."""
    out = os.path.join(work, f"{name}.tsv")
    extra = ["--templates", "report"] if templates else []
    run(bin_, "batch", *inputs, "--out", out, "--out-format", "tsv", "-qq", *extra, *flags)
    with open(out, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    return {tuple(sorted((r["a"], r["b"]))): (r["decided_by"], r["condition"]) for r in rows}


def tally(pairs):
    """How many pairs each check and each named condition decides: {name: count}."""
    return dict(Counter(d for d, _ in pairs.values()) + Counter(
        c for d, c in pairs.values() if c != d))


def judged_verdicts():
    """Every Reuters-21578 pair judged by reading: (a, b) → True for a near-duplicate."""
    verdicts = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "results", "judged-pairs", "*",
                                              "verdicts.tsv"))):
        with open(path, encoding="utf-8", newline="") as f:
            for r in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
                if r.get("verdict") in ("yes", "no"):
                    pair = tuple(sorted((r["a"], r["b"])))
                    # A pair read twice keeps its first verdict (the files agree where they
                    # overlap; the count of disagreements is reported).
                    if pair in verdicts and verdicts[pair] != (r["verdict"] == "yes"):
                        judged_verdicts.disagreements += 1
                    verdicts.setdefault(pair, r["verdict"] == "yes")
    return verdicts


judged_verdicts.disagreements = 0


def reuters(bin_, corpora, work):
    jsonl = os.path.join(ROOT, "bench-results", "data", "reuters21578.jsonl")
    if not os.path.exists(jsonl):
        os.makedirs(os.path.dirname(jsonl), exist_ok=True)
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "peers",
                                                     "reuters_to_jsonl.py"), jsonl,
                        *sorted(glob.glob(os.path.join(corpora, "reuters21578", "reut2-*.sgm")))],
                       check=True, capture_output=True)
    inputs = [jsonl, "--format", "jsonl"]
    verdicts = judged_verdicts()
    decides = tally(batch_pairs(bin_, inputs, [], work, "reuters-templates", True))
    default = None
    rows = {}
    for label, _, flags in ROWS:
        pairs = set(batch_pairs(bin_, inputs, flags, work, "reuters").keys())
        default = pairs if default is None else default
        gained, lost = pairs - default, default - pairs
        judged = lambda s, v: sum(1 for p in s if verdicts.get(p) is v)  # noqa: E731
        rows[label] = {
            "pairs": len(pairs), "gained": len(gained), "lost": len(lost),
            "gained_yes": judged(gained, True), "gained_no": judged(gained, False),
            "lost_yes": judged(lost, True), "lost_no": judged(lost, False),
            "reported_yes": judged(pairs, True), "reported_judged": judged(pairs, True)
            + judged(pairs, False),
        }
        print("reuters", label, rows[label], file=sys.stderr)
    return {"decides": dict(decides), "rows": rows, "judged": len(verdicts),
            "disagreements": judged_verdicts.disagreements}


def labelled_sets(corpora):
    bible = os.path.join(ROOT, "corpora", "bible-versions")
    clough = os.path.join(ROOT, "corpora", "clough-short-answers", "corpus-20090418")
    truth = os.path.join(ROOT, "corpora", "truth")
    versions = [os.path.join(bible, f"{v}.trec.gz") for v in ("kjv", "wbt", "web")]
    b = ["--truth", os.path.join(truth, "bible-pairs.tsv"), "--ignore",
         os.path.join(truth, "bible-ignore.tsv")]
    c = [clough, "--universe", "listed", "--truth", os.path.join(truth, "clough-pairs.tsv")]
    sets = [
        ("bible-light", versions[:2] + b + ["--positive", "light"], versions[:2]),
        ("bible-light-heavy", versions + b + ["--positive", "light,heavy"], versions),
        ("clough-cut-light", c + ["--positive", "cut,light"], [clough]),
        ("clough-cut-light-heavy", c + ["--positive", "cut,light,heavy"], None),
    ]
    news = os.path.join(corpora, "mini-newsgroups", "mini_newsgroups")
    if os.path.isdir(news):
        n = [news, "--mail-body", "--truth", os.path.join(truth, "newsgroups-pairs.tsv"),
             "--ignore", os.path.join(truth, "newsgroups-unquoted.tsv")]
        sets.append(("newsgroups-crossposts", n + ["--positive", "crosspost"],
                     [news, "--mail-body"]))
    return sets


def changes_nothing(name, decides):
    """Whether turning `name` off cannot change a decision of a source: a refusal that refuses
    no pair there (every pair it refuses is a template, so the batch run with templates
    reported counts it). Not `loose-words` (no template, not counted), nor the accepting clauses
    (`--matched-containment-from 0` also holds long documents to the headline check)."""
    kinds = {n: k for n, k, _, _ in CONDITIONS} | {g: "refuses" for g, _ in GROUPS}
    return kinds.get(name) == "refuses" and name != "loose-words" and not decides.get(name)


def decision_f1(bin_, args, flags):
    out = json.loads(run(bin_, "eval", *args, "--method", "slst", "--mode", "robust", "--json",
                         *flags))
    m = out["methods"][0]
    return {k: m["decision"][k] for k in ("f1", "precision", "recall")} | {
        "best_f1": m["best"]["f1"]}


def f1_rows(bin_, source, runs, decides):
    """Per row of ROWS: the decision's F1 on each (name, eval arguments) of `runs` and their
    mean; a row whose condition decides no pair of the source copies the default."""
    rows = {}
    for label, name, flags in ROWS:
        if changes_nothing(name, decides):
            rows[label] = dict(rows["default"], skipped=True)
            continue
        rows[label] = {run_name: decision_f1(bin_, args, flags) for run_name, args in runs}
        rows[label]["mean_f1"] = sum(rows[label][n]["f1"] for n, _ in runs) / len(runs)
        print(source, label, round(rows[label]["mean_f1"], 4), file=sys.stderr)
    return rows


def labelled(bin_, corpora, work):
    sets = labelled_sets(corpora)
    decides = Counter()
    for name, _, inputs in sets:
        if inputs:
            decides.update(tally(batch_pairs(bin_, inputs, [], work, f"{name}-templates", True)))
    rows = f1_rows(bin_, "labelled", [(n, args) for n, args, _ in sets], decides)
    return {"decides": dict(decides), "rows": rows, "sets": [s[0] for s in sets]}


def pan(bin_, corpora, work):
    folder = os.path.join(corpora, "pan13-text-alignment-a")
    with open(os.path.join(folder, "cases.tsv"), encoding="utf-8") as f:
        truth = {tuple(sorted(line.split("\t")[:2])) for line in list(f)[1:]}
    inputs = [os.path.join(folder, "susp"), os.path.join(folder, "src")]
    base = lambda pairs: {tuple(sorted(os.path.basename(x) for x in p)): d  # noqa: E731
                          for p, d in pairs.items()}
    decides = tally(base(batch_pairs(bin_, inputs, [], work, "pan-templates", True)))
    rows = {}
    for label, _, flags in ROWS:
        pairs = set(base(batch_pairs(bin_, inputs, flags, work, "pan")))
        tp = len(pairs & truth)
        fp, fn = len(pairs) - tp, len(truth) - tp
        rows[label] = {"pairs": len(pairs), "tp": tp, "fp": fp, "fn": fn,
                       "f1": 2 * tp / (2 * tp + fp + fn)}
        print("pan", label, rows[label], file=sys.stderr)
    return {"decides": dict(decides), "rows": rows, "truth_pairs": len(truth)}


def synthetic(bin_, corpora, work):
    reuters = sorted(glob.glob(os.path.join(corpora, "reuters21578", "reut2-*.sgm")))[:3]
    made = []
    for kind in KINDS:
        corpus, truth = os.path.join(work, f"{kind}.trec"), os.path.join(work, f"{kind}.tsv")
        run(bin_, "synth", *reuters, *SGML, "--text-tags", "TITLE,BODY", "--docs", "150",
            "--seed", "7", "--kinds", kind, "--out", corpus, "--truth", truth)
        made.append((kind, [corpus, "--truth", truth, "--positive", kind], corpus))
    decides = Counter()
    for kind, _, corpus in made:
        decides.update(tally(batch_pairs(bin_, [corpus], [], work, f"synth-{kind}", True)))
    rows = f1_rows(bin_, "synthetic", [(k, args) for k, args, _ in made], decides)
    return {"decides": dict(decides), "rows": rows, "kinds": KINDS}


SOURCES = {"reuters": reuters, "labelled": labelled, "pan": pan, "synthetic": synthetic}


def verdicts(result):
    """Per condition and source: `earns`, `costs`, `no change`, or (Reuters) `undecided`: pairs
    change, but as many judged ones for the condition as against it."""
    out = {}
    for name in [n for n, _, _, _ in CONDITIONS] + [g for g, _ in GROUPS]:
        v = {}
        if "reuters" in result:
            r = result["reuters"]["rows"][name]
            harm, benefit = r["gained_no"] + r["lost_yes"], r["gained_yes"] + r["lost_no"]
            v["reuters"] = ("earns" if harm > benefit else "costs" if benefit > harm
                            else "no change" if r["gained"] + r["lost"] == 0
                            else "undecided")
        for source, key in (("labelled", "mean_f1"), ("pan", "f1"), ("synthetic", "mean_f1")):
            if source in result:
                rows = result[source]["rows"]
                delta = rows["default"][key] - rows[name][key]
                v[source] = ("earns" if delta > EPSILON else "costs" if delta < -EPSILON
                             else "no change")
        earns = [s for s, x in v.items() if x == "earns"]
        costs = [s for s, x in v.items() if x == "costs"]
        v["overall"] = (f"earns its place on {len(earns)} sources ({', '.join(earns)})"
                        if len(earns) >= 2
                        else f"earns its place on {earns[0]} only" if earns
                        else "earns its place on no source")
        if costs:
            v["overall"] += f"; costs on {', '.join(costs)}"
        out[name] = v
    return out


def made_by(made):
    """The commands that made the figures, each with the sources it measured."""
    by_command = {}
    for source, command in made.items():
        by_command.setdefault(command, []).append(source)
    return "; ".join(f"`{c.split(' (git ')[0]}` (git {c.split(' (git ')[1].rstrip(')')}: "
                     f"{', '.join(s)})" for c, s in by_command.items())


HAND = "<!-- Written by hand below this line; scripts/ablation_decision.py keeps it. -->"


def markdown(result, kept):
    v = result["verdicts"]
    sources = [s for s in SOURCES if s in result]
    lines = ["# The robust decision, one check and one condition at a time (issue 59)", "",
             "Made by " + made_by(result["made"]) + ". Each row turns one check of the default "
             "decision off (its setting at the neutral value), or one named condition (all its "
             "checks), and keeps the others; *decides* is how many pairs the check or condition "
             "decides with the default settings (`decided_by` and `condition` over a batch run "
             "with `--templates report`; a loose match is no template, so `loose-words` is not "
             "counted there). How each source is measured: the docstring of "
             "`scripts/ablation_decision.py`.", "",
             "## Verdicts", "",
             "| condition | setting | " + " | ".join(sources) + " | verdict |",
             "|---|---|" + "---|" * len(sources) + "---|"]
    for name, _, setting, _ in CONDITIONS:
        counted = (lambda s: "—") if name == "loose-words" else (  # noqa: E731
            lambda s: result[s]["decides"].get(name, 0))
        cells = [f"{v[name][s]} ({counted(s)})" for s in sources]
        lines.append(f"| `{name}` | `{setting}` | " + " | ".join(cells)
                     + f" | {v[name]['overall']} |")
    for name, checks in GROUPS:
        cells = [f"{v[name][s]} ({result[s]['decides'].get(name, 0)})" for s in sources]
        lines.append(f"| **`{name}`** | its checks: " + ", ".join(f"`{c}`" for c in checks)
                     + " | " + " | ".join(cells) + f" | {v[name]['overall']} |")
    lines += ["", "In bold: a named condition (`condition` of each record), its checks turned "
              "off together. In brackets: the pairs the check or condition decides on that "
              "source. "
              + "; ".join(f"`{n}` (`{s}`)" for n, s in OFF_BY_DEFAULT)
              + ": off by default, not measured.", ""]
    if "reuters" in result:
        r = result["reuters"]
        lines += ["## Reuters-21578: pairs gained and lost, and their verdicts", "",
                  f"{r['judged']} pairs judged by reading, pooled from "
                  "results/judged-pairs/*/verdicts.tsv "
                  f"({r['disagreements']} read twice with other verdicts; the first kept). "
                  "*Judged yes* among the pairs reported is over the judged pairs only, not an "
                  "estimate of the whole output.", "",
                  "| row | pairs | gained | of them judged yes / no | lost | of them judged yes / no | judged yes among reported |",
                  "|---|---|---|---|---|---|---|"]
        for label, _, _ in ROWS:
            x = r["rows"][label]
            lines.append(f"| {label} | {x['pairs']} | {x['gained']} | {x['gained_yes']} / "
                         f"{x['gained_no']} | {x['lost']} | {x['lost_yes']} / {x['lost_no']} | "
                         f"{x['reported_yes']}/{x['reported_judged']} |")
        lines += ["", "Default decisions by check and condition (with templates reported): "
                  + ", ".join(f"`{k}` {n}" for k, n in sorted(r["decides"].items(),
                                                             key=lambda kv: -kv[1])), ""]
    for source, what, key in (("labelled", "sets", "mean_f1"), ("synthetic", "kinds", "mean_f1")):
        if source not in result:
            continue
        r = result[source]
        names = r[what]
        title = ("Labelled sets: F1 of the decision" if source == "labelled"
                 else "Synthetic edit kinds (`slst synth`): F1 of the decision")
        lines += [f"## {title}", "", "| row | " + " | ".join(names) + " | mean |",
                  "|---|" + "---|" * (len(names) + 1)]
        for label, _, _ in ROWS:
            x = r["rows"][label]
            mark = " (refuses no pair here: not run)" if x.get("skipped") else ""
            lines.append(f"| {label}{mark} | " + " | ".join(f"{x[n]['f1']:.4f}" for n in names)
                         + f" | {x[key]:.4f} |")
        best = {n: r["rows"]["default"][n]["best_f1"] for n in names}
        same = all(r["rows"][label][n]["best_f1"] == best[n] for label, _, _ in ROWS
                   for n in names)
        lines += ["", "Best F1 over the resemblance sweep: "
                  + ", ".join(f"{n} {b:.4f}" for n, b in best.items())
                  + (", the same in every row." if same else " (it changes between rows).")]
        lines += ["Default decisions by check and condition: "
                  + ", ".join(f"`{k}` {n}" for k, n in sorted(r["decides"].items(),
                                                             key=lambda kv: -kv[1])), ""]
    if "pan" in result:
        r = result["pan"]
        lines += ["## PAN 2013 text alignment, half A: the pairs with a case", "",
                  f"{r['truth_pairs']} pairs of documents hold a plagiarism case; any other "
                  "pair reported counts as false.", "",
                  "| row | pairs | with a case | other | F1 |", "|---|---|---|---|---|"]
        for label, _, _ in ROWS:
            x = r["rows"][label]
            lines.append(f"| {label} | {x['pairs']} | {x['tp']} | {x['fp']} | {x['f1']:.4f} |")
        lines += ["", "Default decisions by check and condition: "
                  + ", ".join(f"`{k}` {n}" for k, n in sorted(r["decides"].items(),
                                                             key=lambda kv: -kv[1])), ""]
    lines += [HAND, kept]
    return "\n".join(lines).rstrip() + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpora", default=os.path.join(ROOT, "..", "shared", "corpora"))
    ap.add_argument("--out", default=os.path.join(ROOT, "results"))
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "slst"))
    ap.add_argument("--only", default=",".join(SOURCES),
                    help="the sources to measure, comma-separated: " + ", ".join(SOURCES))
    a = ap.parse_args()
    only = [s for s in a.only.split(",") if s]
    unknown = [s for s in only if s not in SOURCES]
    if unknown:
        ap.error(f"unknown source {unknown[0]}: the sources are {', '.join(SOURCES)}")
    if not os.access(a.bin, os.X_OK):
        ap.error(f"no binary {a.bin}: cargo build --release first, or give --bin")
    json_path = os.path.join(a.out, "ablation-decision.json")
    md_path = os.path.join(a.out, "ablation-decision.md")
    # A run of some sources keeps the other sources' figures of an earlier run.
    result = {}
    if only != list(SOURCES) and os.path.exists(json_path):
        with open(json_path, encoding="utf-8") as f:
            result = {k: v for k, v in json.load(f).items() if k in SOURCES or k == "made"}
    command = "python3 scripts/ablation_decision.py" + (
        "" if only == list(SOURCES) else f" --only {','.join(only)}")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip()
    made = result.setdefault("made", {})
    with tempfile.TemporaryDirectory() as work:
        for source in only:
            result[source] = SOURCES[source](a.bin, a.corpora, work)
            made[source] = f"{command} (git {commit})"
    result["verdicts"] = verdicts(result)
    os.makedirs(a.out, exist_ok=True)
    kept = ""
    if os.path.exists(md_path):
        text = open(md_path, encoding="utf-8").read()
        if HAND in text:
            kept = text.split(HAND, 1)[1]
    with open(json_path, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1, ensure_ascii=False)
        f.write("\n")
    with open(md_path, "w", encoding="utf-8") as f:
        f.write(markdown(result, kept))
    print(f"wrote {md_path}", file=sys.stderr)


if __name__ == "__main__":
    main()
