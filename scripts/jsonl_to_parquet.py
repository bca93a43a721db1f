#!/usr/bin/env python3
"""A corpus of JSON lines as a Parquet file: the `id` and `text` fields as two string columns
(ids written as text; neither null), Snappy, one row group up to a million rows — the layout the benchmarks'
Parquet corpora have (scripts/runs/*dedup-speed*). With --row NAME, also a third column NAME,
the record's number in the file from 0 (int64: for a tool that indexes documents by a number).
Needs pyarrow.

    scripts/jsonl_to_parquet.py IN.jsonl OUT.parquet [--row NAME]
"""
import json
import sys

import pyarrow as pa
import pyarrow.parquet as pq


def main(argv):
    row = None
    if len(argv) == 4 and argv[2] == "--row":
        argv, row = argv[:2], argv[3]
    if len(argv) != 2:
        sys.exit(__doc__)
    ids, texts = [], []
    with open(argv[0], encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            record = json.loads(line)
            if "text" not in record:
                sys.exit(f"{argv[0]}: line {n}: no 'text' field")
            ids.append(str(record.get("id", n)))
            texts.append(record["text"])
    schema = pa.schema([pa.field("id", pa.string(), False), pa.field("text", pa.string(), False)])
    columns = [pa.array(ids, pa.string()), pa.array(texts, pa.string())]
    if row:
        schema = schema.append(pa.field(row, pa.int64(), False))
        columns.append(pa.array(range(len(ids)), pa.int64()))
    table = pa.table(columns, schema=schema)
    pq.write_table(table, argv[1], compression="snappy", row_group_size=1_000_000)


if __name__ == "__main__":
    main(sys.argv[1:])
