#!/usr/bin/env python3
"""Helpers of scripts/diff_outputs.sh (standard library only).

    diff_outputs.py collect SRC DEST      the files a command wrote into SRC, kept in DEST:
                                          text as is, PNG plots as `sha256  bytes  name` lines
                                          in DEST/png.sha256, SQLite files as an SQL dump
    diff_outputs.py dumpdb DB DEST        an SQLite file (its -wal too) as an SQL dump
    diff_outputs.py compare OLD NEW DIFF [--work OLD_WORK NEW_WORK] [--head N]
                                          normalise both sides' outputs of one command and
                                          compare them byte for byte; exit 0 when equal, 1 when
                                          not (the unified diff goes to DIFF, its first N lines
                                          to standard output)

What is normalised (run-dependent parts only; everything else must be byte-identical):
  - the work folder of each side (`--work`), then any other absolute path of the run given with
    `--path NAME=PATH`, replaced by a placeholder;
  - eval: the `"seconds"` field of each method in --json output, and the seconds column of the
    text table;
  - batch: the `time:` line of the summary on standard error (wall and CPU seconds), and the
    `seconds` and `cpu_seconds` objects of --summary JSON files;
  - index add: the run time at the end of its summary line (`…, 0.2 s`);
  - index SQL dumps: the commit time of each batch (`batches.committed_at`);
  - query --timings files: the milliseconds column.
"""
import difflib
import hashlib
import os
import re
import shutil
import sqlite3
import sys
import tempfile

PLACEHOLDER = "<s>"


def collect(src, dest):
    os.makedirs(dest, exist_ok=True)
    pngs = []
    for root, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src)
            if name.endswith(("-wal", "-shm", "-journal")):
                continue  # part of an SQLite file, dumped with it
            with open(path, "rb") as f:
                head = f.read(16)
            if head == b"SQLite format 3\x00":
                out = os.path.join(dest, rel + ".sql")
                os.makedirs(os.path.dirname(out), exist_ok=True)
                dumpdb(path, out)
            elif name.endswith(".png"):
                with open(path, "rb") as f:
                    data = f.read()
                pngs.append(f"{hashlib.sha256(data).hexdigest()}  {len(data)}  {rel}\n")
            else:
                out = os.path.join(dest, rel)
                os.makedirs(os.path.dirname(out), exist_ok=True)
                shutil.copyfile(path, out)
    if pngs:
        with open(os.path.join(dest, "png.sha256"), "w") as f:
            f.writelines(pngs)


def dumpdb(db, out):
    """Dump a copy (the command's file is never opened here, so nothing is checkpointed)."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "index.db")
        shutil.copyfile(db, copy)
        for suffix in ("-wal",):
            if os.path.exists(db + suffix):
                shutil.copyfile(db + suffix, copy + suffix)
        con = sqlite3.connect(copy)
        try:
            with open(out, "w", encoding="utf-8") as f:
                for line in con.iterdump():
                    f.write(line + "\n")
        finally:
            con.close()


# --- normalisation -----------------------------------------------------------------------------

NUMBER = r"-?[0-9][0-9.eE+-]*"
EVAL_JSON_SECONDS = re.compile(r'("seconds":\s*)' + NUMBER)
SECONDS_OBJECT = re.compile(r'("(?:cpu_)?seconds":\s*\{)([^{}]*)(\})')
NUMBER_VALUE = re.compile(r"(:\s*)" + NUMBER)
BATCH_TIME = re.compile(
    r"^time: [0-9.]+s reading and profiling, [0-9.]+s candidates, [0-9.]+s scoring", re.M)
BATCH_CPU = re.compile(r"^(time: .* threads, )[0-9.]+s CPU\)$", re.M)
EVAL_TABLE_HEADER = re.compile(r"^method\s+best θ .*\bseconds$")
EVAL_SECONDS_CELL = re.compile(r"\s+[0-9]+\.[0-9]+$")
INDEX_ADD_TIME = re.compile(r"^(slst: added .* batches, )[0-9.]+ s$", re.M)
BATCH_COMMITTED_AT = re.compile(
    r"^(INSERT INTO \"batches\" VALUES\([0-9]+,[0-9]+,')[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z('\);)$",
    re.M)


def subcommand(command_file):
    """`eval`, `batch`, `index add`, … from the recorded command line."""
    try:
        with open(command_file, encoding="utf-8") as f:
            words = f.read().split()
    except OSError:
        return ""
    words = words[1:]  # the binary
    if words[:1] == ["index"]:
        return " ".join(words[:2])
    return words[0] if words else ""


def normalise(text, rel, kind, paths):
    for placeholder, path in paths:
        if path:
            text = text.replace(path, placeholder)
    if kind == "eval" and rel == "stdout":
        text = EVAL_JSON_SECONDS.sub(lambda m: m.group(1) + PLACEHOLDER, text)
        lines = text.split("\n")
        in_table = False
        for i, line in enumerate(lines):
            if EVAL_TABLE_HEADER.match(line):
                in_table = True
            elif in_table and line.strip():
                lines[i] = EVAL_SECONDS_CELL.sub("  " + PLACEHOLDER, line)
            else:
                in_table = False
        text = "\n".join(lines)
    if kind == "batch" and rel == "stderr":
        text = BATCH_TIME.sub(
            f"time: {PLACEHOLDER} reading and profiling, {PLACEHOLDER} candidates, "
            f"{PLACEHOLDER} scoring", text)
        text = BATCH_CPU.sub(lambda m: m.group(1) + PLACEHOLDER + " CPU)", text)
    if kind == "batch" and rel.startswith("files/") and rel.endswith(".json"):
        text = SECONDS_OBJECT.sub(
            lambda m: m.group(1) + NUMBER_VALUE.sub(lambda n: n.group(1) + PLACEHOLDER,
                                                    m.group(2)) + m.group(3), text)
    if kind == "index add" and rel == "stderr":
        text = INDEX_ADD_TIME.sub(lambda m: m.group(1) + PLACEHOLDER + " s", text)
    if rel.endswith(".sql"):
        text = BATCH_COMMITTED_AT.sub(lambda m: m.group(1) + PLACEHOLDER + m.group(2), text)
    if kind == "query" and "timings" in os.path.basename(rel):
        text = "\n".join(
            re.sub(r"^([^\t]*\t)[0-9.]+(\t)", lambda m: m.group(1) + PLACEHOLDER + m.group(2), l)
            for l in text.split("\n"))
    return text


def read_side(folder, kind, paths):
    out = {}
    if not os.path.isdir(folder):
        return None
    for root, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            rel = os.path.relpath(path, folder)
            if rel in ("command", "seconds"):
                continue
            with open(path, "rb") as f:
                data = f.read()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                out[rel] = f"<binary: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}>\n"
                continue
            out[rel] = normalise(text, rel, kind, paths)
    return out


def reflow(text):
    """For display only: break very long lines (one-line JSON) before keys and objects."""
    lines = []
    for line in text.split("\n"):
        if len(line) > 200:
            lines.extend(re.sub(r',(?=["{\[])', ",\n", line).split("\n"))
        else:
            lines.append(line)
    return lines


def compare(old, new, diff_file, work, head, extra_paths):
    kind = subcommand(os.path.join(old, "command")) or subcommand(os.path.join(new, "command"))
    sides = []
    for folder, w in ((old, work[0]), (new, work[1])):
        paths = []
        if w:
            paths.append(("<WORK>", w))
            paths.append(("<TMP>", os.path.dirname(w)))
        paths.extend(extra_paths)
        sides.append(read_side(folder, kind, paths))
    if sides[0] is None or sides[1] is None:
        missing = "old" if sides[0] is None else "new"
        message = f"no {missing} outputs for this command\n"
        with open(diff_file, "w", encoding="utf-8") as f:
            f.write(message)
        print("    " + message, end="")
        return 1
    a, b = sides
    diff = []
    for rel in sorted(set(a) | set(b)):
        ta, tb = a.get(rel), b.get(rel)
        if ta == tb:
            continue
        if ta is None or tb is None:
            diff.append(f"--- {rel}: only in {'new' if ta is None else 'old'}\n")
            continue
        body = list(difflib.unified_diff(reflow(ta), reflow(tb), f"old/{rel}", f"new/{rel}",
                                         n=2, lineterm=""))
        if not body:  # the difference is in line ends or a final newline
            body = list(difflib.unified_diff(ta.splitlines(True), tb.splitlines(True),
                                             f"old/{rel}", f"new/{rel}", n=1))
            body = [repr(l) if not l.startswith(("---", "+++", "@@")) else l.rstrip("\n")
                    for l in body]
        diff.extend(l + "\n" for l in body)
    if not diff:
        return 0
    os.makedirs(os.path.dirname(diff_file), exist_ok=True)
    with open(diff_file, "w", encoding="utf-8") as f:
        f.writelines(diff)
    for line in diff[:head]:
        line = line.rstrip("\n")
        print("    " + (line[:157] + "…" if len(line) > 160 else line))
    if len(diff) > head:
        print(f"    … {len(diff) - head} more lines in {diff_file}")
    return 1


def main(argv):
    if len(argv) >= 3 and argv[0] == "collect":
        collect(argv[1], argv[2])
        return 0
    if len(argv) >= 3 and argv[0] == "dumpdb":
        os.makedirs(os.path.dirname(argv[2]) or ".", exist_ok=True)
        dumpdb(argv[1], argv[2])
        return 0
    if len(argv) >= 4 and argv[0] == "compare":
        old, new, diff_file = argv[1:4]
        work, head, extra = (None, None), 12, []
        rest = argv[4:]
        while rest:
            if rest[0] == "--work" and len(rest) >= 3:
                work, rest = (rest[1], rest[2]), rest[3:]
            elif rest[0] == "--head" and len(rest) >= 2:
                head, rest = int(rest[1]), rest[2:]
            elif rest[0] == "--path" and len(rest) >= 2:
                name, _, path = rest[1].partition("=")
                extra.append((f"<{name}>", path))
                rest = rest[2:]
            else:
                print(f"diff_outputs.py: unknown argument {rest[0]}", file=sys.stderr)
                return 2
        return compare(old, new, diff_file, work, head, extra)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
