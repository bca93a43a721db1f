#!/usr/bin/env python3
"""Recall of a synthetic corpus's planted pairs (make_synthetic.py's truth TSV: a, b, kind,
resemblance, edits), by kind (near, exact, ...), for a tool's pairs or its clusters.

    scripts/planted_recall.py TRUTH.tsv --pairs FILE...
    scripts/planted_recall.py TRUTH.tsv --clusters DIR_OR_FILE --ids CORPUS.parquet \
        [--index row] [--vertex id] [--component component]

--pairs: JSON lines with `a` and `b` (slst's pairs.jsonl part files); a planted pair is
recalled when the tool reported that very pair (either order).
--clusters: a Parquet assignment of vertices to components (text-dedup's minhash_spark.py
--debug writes OUTPUT-assignment/assignment.parquet: `id`, `component`), whose vertices are the
values of the corpus's --index column; --ids maps them back to document ids. A planted pair is
recalled when both documents are in one component (a weaker reading than a reported pair:
the component may join them through other documents). Needs pyarrow.

Prints one line per kind: recalled / planted and the share; --json OUT writes the same.
"""
import argparse
import glob
import json
import sys
from collections import defaultdict


def read_truth(path):
    by_kind = defaultdict(set)
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        if header[:3] != ["a", "b", "kind"]:
            sys.exit(f"planted_recall.py: {path}: expected columns a, b, kind first, got {[h[:20] for h in header[:3]]}")
        for line in f:
            if line.strip():
                a, b, kind = line.rstrip("\n").split("\t")[:3]
                by_kind[kind].add(tuple(sorted((a, b))))
    return by_kind


def pairs_recalled(files):
    found = set()
    for path in files:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if line.strip():
                    try:
                        r = json.loads(line)
                        found.add(tuple(sorted((str(r["a"]), str(r["b"])))))
                    except (json.JSONDecodeError, KeyError) as e:
                        sys.exit(f"planted_recall.py: {path}: line {n}: not a pair with a and b ({e})")
    return lambda a, b: (a, b) in found


def clusters_recalled(clusters, ids, index, vertex, component):
    import pyarrow.parquet as pq

    corpus = pq.read_table(ids, columns=[index, "id"]).to_pydict()
    doc = dict(zip(corpus[index], map(str, corpus["id"])))
    table = pq.read_table(clusters, columns=[vertex, component]).to_pydict()
    comp = {doc[v]: c for v, c in zip(table[vertex], table[component])}
    return lambda a, b: a in comp and comp.get(b) == comp[a]


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("truth")
    p.add_argument("--pairs", nargs="+", help="JSON-lines pair files (globs are expanded)")
    p.add_argument("--clusters", help="Parquet file or folder of vertex -> component")
    p.add_argument("--ids", help="with --clusters: the corpus as Parquet, with `id` and --index")
    p.add_argument("--index", default="row", help="the corpus column the vertices are (default row)")
    p.add_argument("--vertex", default="id")
    p.add_argument("--component", default="component")
    p.add_argument("--json", help="also write the figures here")
    args = p.parse_args(argv)
    if bool(args.pairs) == bool(args.clusters) or (args.clusters and not args.ids):
        p.error("give either --pairs, or --clusters with --ids")
    if args.pairs:
        files = [f for pattern in args.pairs for f in sorted(glob.glob(pattern)) or [pattern]]
        recalled, reading = pairs_recalled(files), "the pair reported"
    else:
        recalled = clusters_recalled(args.clusters, args.ids, args.index, args.vertex, args.component)
        reading = "both documents in one cluster"
    out = {"recalled_means": reading}
    for kind, planted in sorted(read_truth(args.truth).items()):
        hits = sum(recalled(a, b) for a, b in planted)
        out[kind] = {"planted": len(planted), "recalled": hits, "recall": round(hits / len(planted), 4)}
        print(f"{kind}: {hits} / {len(planted)} = {hits / len(planted):.4f} ({reading})")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1:])
