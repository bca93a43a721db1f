#!/usr/bin/env python3
"""Which output differences between a schema-1 slst and a schema-2 slst are the announced ones.

    scripts/diff_outputs_v1.py OLD_DIR NEW_DIR [COMMAND ...]

OLD_DIR and NEW_DIR are the `old/` and `new/` folders of a `scripts/diff_outputs.sh` run (OLD a
binary from before the one-pipeline change, NEW one after it). For every command given (default:
every command of NEW_DIR), both sides are read as diff_outputs.sh reads them (run-dependent parts
normalised), then NEW's JSON is mapped back to schema 1 by undoing exactly the changes that
docs/schema.md lists:

  - `schema_version` removed from every top-level JSON document;
  - `rule` removed from SL+ST's comparison records (schema 1 gave it to the other methods only);
  - the robust mode's comparison record turned back into its schema-1 shape (blocks under
    `evidence` with `mode`, `matched`, `len_a`, `len_b`; documents as `id` and `encoding`; the
    openings dropped; `sentence_pairs`, which schema 2 no longer prints, dropped on both sides);
    likewise `slst-flat`'s, which schema 1 printed as a generic method record (blocks as
    `{a, b, len}` under `evidence`; its `identical` and `matches_found` dropped on the old side);
  - in batch pair lines: the robust mode's `block_count` and `matched_sentences` dropped, its
    blocks compared with schema 1's `evidence.blocks`; the other methods' `note` put back into
    their `evidence`;
  - the batch summary's `params` dropped where schema 1 had none (every method but paper SL+ST);
  - evaluations: SL+ST's `mode` folded back into the name (`slst-robust`), and `pairs_compared`
    dropped on both sides (it now counts the pairs compared after the method's bound for every
    method, where schema 1 counted SL+ST's candidates).

Text outputs are compared as they are. Prints `same`, or `DIFFERENT` with the first lines of
the difference that remains; a remaining difference is either a documented behaviour change or
a bug.
"""
import difflib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from diff_outputs import PLACEHOLDER, read_side, subcommand  # noqa: E402


def strip_version(v):
    if isinstance(v, dict):
        v.pop("schema_version", None)
    return v


def is_compare_record(v):
    return isinstance(v, dict) and "resemblance" in v and "params" in v and "a" in v


def robust(v):
    return isinstance(v.get("params"), dict) and v["params"].get("mode") == "robust"


def compare_record_v1(v):
    """A schema-2 comparison record in its schema-1 shape."""
    strip_version(v)
    if "blocks" not in v:
        return v
    if v["method"] == "slst-flat":
        return flat_record_v1(v)
    if not robust(v):
        v.pop("rule", None)
        return v
    blocks = [{k: b[k] for k in ("a_start", "b_start", "len", "a_span", "b_span",
                                 "min_term_similarity")} for b in v.pop("blocks")]
    a, b = v["a"], v["b"]
    evidence = {"mode": "robust", "blocks": blocks, "matched": v.pop("matched_sentences"),
                "len_a": a.get("sentences"), "len_b": b.get("sentences")}
    out = {}
    for key in ("method", "resemblance", "containment_a", "containment_b", "duplicate"):
        out[key] = v[key]
    out["a"] = {"id": a["id"], "encoding": a["encoding"]}
    out["b"] = {"id": b["id"], "encoding": b["encoding"]}
    if v.get("note") and v["note"] != "no sentences":  # schema 1 had no note for robust
        out["note"] = v["note"]
    out["rule"] = v["rule"]
    if "contained" in v:
        out["contained"] = v["contained"]
    out["evidence"] = evidence
    out["params"] = v["params"]
    return out


def flat_record_v1(v):
    """`slst-flat`'s schema-2 record (SL+ST's) as schema 1's generic method record."""
    blocks = [{"a": b["a_start"], "b": b["b_start"], "len": b["len"]} for b in v["blocks"]]
    a, b = v["a"], v["b"]
    out = {k: v[k] for k in ("method", "resemblance", "containment_a", "containment_b",
                             "duplicate")}
    out["a"] = {"id": a["id"], "encoding": a["encoding"]}
    out["b"] = {"id": b["id"], "encoding": b["encoding"]}
    out["rule"] = v["rule"]
    if "contained" in v:
        out["contained"] = v["contained"]
    out["evidence"] = {"blocks": blocks, "matched": v["matched_sentences"],
                       "len_a": a.get("sentences"), "len_b": b.get("sentences")}
    out["params"] = v["params"]
    return out


def old_compare_record(v):
    if isinstance(v.get("evidence"), dict):
        v["evidence"].pop("sentence_pairs", None)
        if v.get("method") == "slst-flat":
            v["evidence"].pop("identical", None)
            v["evidence"].pop("matches_found", None)
    return v


def pair_line_v1(new, old):
    """A schema-2 batch pair line against its schema-1 counterpart."""
    if "block_count" in new and "block_count" not in old:  # the robust mode
        new.pop("block_count")
        new.pop("matched_sentences")
        if "blocks" in new and isinstance(old.get("evidence"), dict):
            new["evidence"] = {"blocks": new.pop("blocks")}
            old["evidence"] = {"blocks": old["evidence"].get("blocks")}
    if "note" in new and isinstance(new.get("evidence"), dict):
        new["evidence"]["note"] = new.pop("note")
    return new, old


def eval_v1(v):
    strip_version(v)
    for m in v.get("methods", []):
        if m.pop("mode", None) == "robust":
            m["method"] = "slst-robust"
        m.pop("pairs_compared", None)
    return v


def json_pair(rel, kind, old_text, new_text):
    """Both sides' JSON text, the new mapped to schema 1; None when either is not JSON."""
    def parse(text):
        # Run-dependent numbers were replaced by a placeholder: quote it to keep JSON.
        text = text.strip().replace(PLACEHOLDER, '"' + PLACEHOLDER + '"')
        if not text:
            return []
        try:
            return [json.loads(text)]
        except json.JSONDecodeError:
            pass
        try:
            return [json.loads(line) for line in text.split("\n") if line.strip()]
        except json.JSONDecodeError:
            return None
    old, new = parse(old_text), parse(new_text)
    if old is None or new is None:
        return None
    out_old, out_new = [], []
    for i, n in enumerate(new):
        o = old[i] if i < len(old) else None
        if kind == "eval" and isinstance(n, dict):
            n, o = eval_v1(n), eval_v1(o) if isinstance(o, dict) else o
        elif isinstance(n, list):
            n = [compare_record_v1(x) if is_compare_record(x) else strip_version(x) for x in n]
            if isinstance(o, list):
                o = [old_compare_record(x) if is_compare_record(x) else x for x in o]
        elif is_compare_record(n):
            n = compare_record_v1(n)
            o = old_compare_record(o) if isinstance(o, dict) else o
        elif isinstance(n, dict) and "hits" in n:  # a query line
            strip_version(n)
            n["hits"] = [compare_record_v1(h) for h in n["hits"]]
            if isinstance(o, dict):
                o["hits"] = [old_compare_record(h) for h in o.get("hits", [])]
        elif isinstance(n, dict) and "candidates_mode" in n:  # a batch summary
            strip_version(n)
            if isinstance(o, dict) and "params" not in o:
                n.pop("params", None)
        elif isinstance(n, dict) and "resemblance" in n and "a" in n and isinstance(o, dict):
            n, o = pair_line_v1(n, o)
        else:
            strip_version(n)
        out_new.append(n)
        out_old.append(o)
    out_old.extend(old[len(new):])
    dump = lambda xs: "\n".join(json.dumps(x, ensure_ascii=False, sort_keys=False) for x in xs)
    return dump(out_old), dump(out_new)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    old_dir, new_dir, names = argv[0], argv[1], argv[2:]
    if not names:
        for root, dirs, files in os.walk(new_dir):
            if "command" in files:
                names.append(os.path.relpath(root, new_dir))
        names.sort()
    different = 0
    for name in names:
        kind = subcommand(os.path.join(new_dir, name, "command"))
        old = read_side(os.path.join(old_dir, name), kind, []) or {}
        new = read_side(os.path.join(new_dir, name), kind, []) or {}
        lines = []
        for rel in sorted(set(old) | set(new)):
            o, n = old.get(rel, ""), new.get(rel, "")
            if o == n:
                continue
            mapped = json_pair(rel, kind, o, n)
            if mapped is not None:
                o, n = mapped
            if o.strip() == n.strip():
                continue
            lines.extend(difflib.unified_diff(o.split("\n"), n.split("\n"), f"old/{rel}",
                                              f"new/{rel}", lineterm="", n=0))
        if lines:
            different += 1
            print(f"DIFFERENT  {name}")
            for line in lines[:8]:
                print("    " + line[:220])
        else:
            print(f"same       {name}")
    print(f"{len(names)} commands: {len(names) - different} same once mapped to schema 1, "
          f"{different} different")
    return 1 if different else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
