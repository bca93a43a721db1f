"""The Spark job on local[2]: exactly the pairs of `slst batch` on the same corpus, clusters
that are the connected components of those pairs, and bad records counted, never fatal."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

pyspark = pytest.importorskip("pyspark", reason="pyspark is not installed (pip install pyspark)")

from conftest import ROOT, run_slst  # noqa: E402
from slst import spark as job  # noqa: E402

CLOUGH = ROOT / "corpora" / "clough-short-answers" / "corpus-20090418"


@pytest.fixture(scope="module")
def spark(tmp_path_factory):
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("slst-tests")
        # Shuffle and spill files (about 2 GB for robust mode on Reuters-21578) go under
        # pytest's own temporary folder, which it prunes, not loose in the system's.
        .config("spark.local.dir", str(tmp_path_factory.mktemp("spark-local")))
        .config("spark.sql.shuffle.partitions", "8")
        # The job's own command line asks for 4 GB; Spark's default of 1 GB is at the edge for
        # robust mode on Reuters-21578 (its key join holds about 10⁷ rows).
        .config("spark.driver.memory", "2g")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def lines(folder: Path) -> list:
    return sorted(
        line for part in sorted(folder.glob("part-*")) for line in part.read_text().splitlines()
    )


def clusters_of(out: Path) -> set:
    by_cluster = {}
    for line in lines(out / "clusters.jsonl"):
        r = json.loads(line)
        by_cluster.setdefault(r["cluster"], set()).add(r["id"])
    return {frozenset(c) for c in by_cluster.values()}


@pytest.mark.parametrize(
    "mode, broadcast, rare",
    [
        ("robust", True, {}),
        ("robust", False, {}),
        # Rare keys alone, with no budget (every document by its rare keys) and with one
        # (the documents of the shipped corpus under it look every key up).
        ("robust", True, {"rare_df": 2, "rare_budget": 0}),
        ("robust", True, {"rare_df": 2, "rare_budget": 600}),
        ("paper", True, {}),
    ],
)
def test_the_job_finds_the_pairs_of_slst_batch_on_the_shipped_corpus(
    spark, tmp_path, monkeypatch, mode, broadcast, rare
):
    from slst.spark import candidates

    if not broadcast:  # plans and pairs joined by a shuffle, as for a large corpus
        monkeypatch.setattr(candidates, "BROADCAST_PLANS", 0)
        monkeypatch.setattr(candidates, "BROADCAST_PAIRS", 0)
    out = tmp_path / "out"
    params = dict(rare)
    record = job.run(spark, [str(CLOUGH)], str(out), fmt="text", mode=mode, params=params)
    cli = tmp_path / "batch.jsonl"
    flags = [x for k, v in rare.items() for x in ("--" + k.replace("_", "-"), str(v))]
    run_slst("batch", str(CLOUGH), "--mode", mode, *flags, "-qq", "--out", str(cli))
    expected = sorted(line.replace('"corpus-20090418/', '"') for line in cli.read_text().splitlines())
    assert lines(out / "pairs.jsonl") == expected
    assert record["pairs"] == len(expected) >= 3
    assert record["documents"] == len(list(CLOUGH.iterdir()))
    # Clusters: the connected components of the pairs.
    import slst

    docs = [(p.name, p.read_bytes()) for p in sorted(CLOUGH.iterdir())]
    want = {frozenset(c) for c in slst.pairs(docs, "slst", mode, **params).clusters}
    assert clusters_of(out) == want
    run = json.loads((out / "run.json").read_text())
    assert set(run["seconds"]) >= {"read_and_sketch", "candidates", "verify", "clusters", "total"}
    # Per stage, what it cost: the key join's shuffle is the candidates stage's.
    stages = run["stages"]
    assert set(stages) == set(run["seconds"]) - {"total"}
    assert stages["candidates"]["shuffle_write_bytes"] > 0
    assert stages["read_and_sketch"]["python_cpu_seconds"] > 0
    assert all(s["jvm_cpu_seconds"] > 0 for s in stages.values())
    assert run["shuffle_write_bytes"] == sum(s["shuffle_write_bytes"] for s in stages.values())
    if mode == "robust":
        assert record["pairs"] <= record["screened_pairs"] <= record["candidate_pairs"]


@pytest.mark.parametrize(
    "max_df, extra, rare",
    [
        (1000, None, None),
        (1000, 0, None),
        (3, None, None),
        (1000, None, (2, 0)),
        (1000, None, (2, 600)),
    ],
)
def test_the_witness_join_counts_every_unit_of_the_pairs_its_walk_lets_pass(
    spark, monkeypatch, max_df, extra, rare
):
    # The walk joins each document's cheapest units and assumes the rest witnessed; the pairs
    # it lets pass then have those units counted. So the candidates are exactly the pairs whose
    # units witnessed by the other document (a key both hold, lengths that fit), all of them
    # counted, could satisfy the rule: here by brute force over every pair of the corpus,
    # whether the walk takes the fewest units (`extra` 0) or more (the job's own). A key held
    # by more than `max_df` documents is boilerplate and witnesses nothing. With `rare_df`, a
    # key witnesses only the units that look it up: held by at most `rare_df` documents, or
    # among the unit's `slst.RARE_KEYS` rarest keys held by another document; unless the
    # frequencies of the document's shared keys (up to 255 each) sum to at most `rare_budget`.
    import slst
    from slst.spark import candidates
    from slst.spark.job import _sketched
    from slst.spark.metrics import Stages

    if extra is not None:
        monkeypatch.setattr(candidates, "WALK_EXTRA", extra)

    cpu = Stages(spark).python_cpu
    docs = job.read_documents(spark, [str(CLOUGH)], "text", "id", "text", 256 << 20)
    good = _sketched(spark, docs, "slst", "robust", {}, True, 256 << 20, True, False, False, cpu)
    good = good.where("problem is null")
    rare_df, budget = rare or (0, 0)
    params = {"rare_df": rare_df, "rare_budget": budget} if rare else {}
    pairs, dropped, walked = candidates._witness_candidates(
        spark, good, good.count(), max_df, "slst", "robust", params, "duplicates", 0.8, cpu
    )
    found = {(r.a, r.b) for r in pairs.collect()}

    detector = slst.Detector("slst", "robust")
    tolerance = detector.witness_tolerance
    keyed = {r.pos: (r.units, r.wkeys) for r in good.select("pos", "units", "wkeys").collect()}
    held = {pos: {} for pos in keyed}
    for pos, (_, wkeys) in keyed.items():
        for w in wkeys:
            held[pos].setdefault(w.key, []).append((w.l1, w.l2))
    df = {}
    for h in held.values():
        for k in h:
            df[k] = df.get(k, 0) + 1
    boilerplate = {k for k, n in df.items() if n > max_df}

    under_budget = []
    few = slst.RARE_KEYS  # the rarest shared keys a unit always looks up

    def looked_up(wkeys):
        # Each unit's bound: the highest frequency of a key it looks up.
        if not rare_df:
            return lambda w: True
        shared = {}
        for w in wkeys:
            if 2 <= df[w.key] <= max_df:
                shared.setdefault(w.unit, []).append(min(df[w.key], 255))
        if sum(map(sum, shared.values())) <= budget:
            under_budget.append(wkeys)
            return lambda w: True
        bound = {
            u: max(rare_df, sorted(f)[few - 1]) if len(f) >= few else 255 for u, f in shared.items()
        }
        return lambda w: min(df[w.key], 255) <= bound.get(w.unit, 255)

    items, named = [], []
    for x, (nx, wx) in keyed.items():
        looks = looked_up(wx)
        for y, (ny, _) in keyed.items():
            if nx == 0 or (nx, x) >= (ny, y):  # each pair from its shorter document
                continue
            witnessed = {
                w.unit
                for w in wx
                if w.key not in boilerplate
                and looks(w)
                and any(
                    abs(w.l1 - l1) <= tolerance and abs(w.l2 - l2) <= tolerance
                    for l1, l2 in held[y].get(w.key, ())
                )
            }
            if witnessed:
                items.append((min(len(witnessed), nx, ny), nx, ny))
                named.append((min(x, y), max(x, y)))
    keep = detector.may_keep_matched(items, rule="duplicates", containment=0.8)
    expected = {pair for pair, k in zip(named, keep) if k}
    assert found == expected and dropped == len(boilerplate)
    assert (len(boilerplate) > 10) == (max_df < 1000)
    if budget:  # the budget splits the corpus: some documents under it, some over
        assert 0 < len(under_budget) < len(keyed), len(under_budget)
    # Walking the fewest units, the walk alone lets many more pass than the count keeps: the
    # count is what rules them out. Walking more, it still lets every candidate pass.
    if extra == 0:
        assert walked > 2 * len(expected) > 40
    else:
        assert walked >= len(expected) > (20 if max_df == 1000 else 4)


def test_the_job_sees_exact_copies_and_boilerplate_as_slst_batch_does(spark, tmp_path):
    # Exact copies are collapsed before the joins, so a key's document frequency counts each
    # text once and boilerplate is what batch calls boilerplate; the pairs are widened to the
    # copies afterwards. A low --max-df makes many keys boilerplate, so that many pairs pass
    # the walks by units assumed witnessed: both joins then count those units, and give the
    # same pairs though they plan their walks by other costs. (Without the collapse, this
    # corpus at --max-df 3 gives 17 pairs batch does not.)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    files = sorted(CLOUGH.iterdir())
    for f in files:
        (corpus / f.name).write_bytes(f.read_bytes())
    for f in files[::3]:  # copies of a third of the answers, one of them twice
        (corpus / f"copy-{f.name}").write_bytes(f.read_bytes())
    (corpus / f"copy2-{files[0].name}").write_bytes(files[0].read_bytes())
    for max_df in (1000, 3, 5):
        out = tmp_path / f"out-{max_df}"
        record = job.run(spark, [str(corpus)], str(out), fmt="text", max_df=max_df)
        cli = tmp_path / f"batch-{max_df}.jsonl"
        run_slst("batch", str(corpus), "--max-df", str(max_df), "-qq", "--out", str(cli))
        expected = sorted(line.replace('"corpus/', '"') for line in cli.read_text().splitlines())
        assert lines(out / "pairs.jsonl") == expected, max_df
        assert record["exact_copies"] == len(files[::3]) + 1
        assert (record["boilerplate_keys"] > 10) == (max_df < 1000)


def test_bad_records_are_counted_and_the_rest_is_read(spark, tmp_path):
    story = (
        "The river rose overnight after three days of rain. Farmers moved their herds to the "
        "hills before dawn. Roads along the valley were closed by the police. The mayor asked "
        "people to stay at home until the water falls. "
    )
    a = story + "Schools will stay closed on Monday."
    b = story + "Schools will stay closed until Monday."
    src = tmp_path / "in.jsonl"
    with open(src, "w", encoding="utf-8") as f:
        f.write(json.dumps({"id": "a", "text": a}) + "\n")
        f.write("{not json\n")
    with open(src, "ab") as f:
        f.write(b'{"id": "latin1", "text": "Caf\xe9 prices rose."}\n')
    with open(src, "a", encoding="utf-8") as f:
        f.write(json.dumps({"id": "c", "body": a}) + "\n")
        f.write(json.dumps({"id": "huge", "text": "Word. " * 200_000}) + "\n")
        f.write(json.dumps({"id": "b", "text": b}) + "\n")
    out = tmp_path / "out"
    record = job.run(spark, [str(src)], str(out), max_bytes=1_000_000)
    assert record["bad_records"] == 4
    assert record["documents"] == 2
    bad = [json.loads(line) for line in lines(out / "bad.jsonl")]
    reasons = " | ".join(r["reason"] for r in bad)
    assert "not valid UTF-8" in reasons
    assert "not JSON" in reasons and "no 'text' text field (fields: body, id)" in reasons
    assert "more than the limit of 1000000 bytes" in reasons
    pairs = [json.loads(line) for line in lines(out / "pairs.jsonl")]
    assert [(p["a"], p["b"]) for p in pairs] == [("a", "b")]


def test_documents_are_read_in_partitions_of_a_few_megabytes(spark, tmp_path, monkeypatch):
    # Each partition's sketches stay in memory for the later stages, so the job reads its
    # input in splits of SPLIT_BYTES, not Spark's (32 MB or more); positions stay input order.
    from slst.spark import documents

    texts = [f"Document {i} says what it says. It has two sentences." for i in range(4000)]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps({"id": f"d{i}", "text": t}) + "\n" for i, t in enumerate(texts)))
    parquet = tmp_path / "in.parquet"
    # One file of small row groups (Parquet splits at row groups).
    spark.createDataFrame([(f"d{i}", t) for i, t in enumerate(texts)], "id string, text string") \
        .coalesce(1).write.option("parquet.block.size", 4096).parquet(str(parquet))
    setting = "spark.sql.files.maxPartitionBytes"
    before = spark.conf.get(setting)
    for fmt, path in (("jsonl", src), ("parquet", parquet)):
        default = documents.read_documents(spark, [str(path)], fmt, "id", "text")
        monkeypatch.setattr(documents, "SPLIT_BYTES", 16 << 10)
        small = documents.read_documents(spark, [str(path)], fmt, "id", "text")
        monkeypatch.undo()
        if fmt == "jsonl":  # a small file: Spark's default parallelism
            assert default.getNumPartitions() == spark.sparkContext.defaultParallelism
        filled = [sum(1 for n in rdd.glom().map(len).collect() if n) for rdd in (default, small)]
        assert filled[1] >= 2 * filled[0], (fmt, filled)
        rows = sorted(small.collect())
        assert [(r[0], r[1], r[2]) for r in rows] == [(i, f"d{i}", t) for i, t in enumerate(texts)], fmt
    # The session's own split setting is left as it was.
    assert spark.conf.get(setting) == before


def test_the_jobs_own_session_compresses_its_shuffle_with_zstd_unless_told_otherwise():
    from slst.spark.conf import session_settings

    assert session_settings("--master local[2] pyspark-shell") == {
        "spark.io.compression.codec": "zstd"}
    told = "--conf spark.io.compression.codec=lz4 pyspark-shell"
    assert "spark.io.compression.codec" not in session_settings(told)


@pytest.mark.parametrize("mode", ["robust", "paper"])
def test_the_job_equals_slst_batch_on_reuters(spark, tmp_path, reuters_jsonl, mode):
    out = tmp_path / "out"
    record = job.run(spark, [str(reuters_jsonl)], str(out), mode=mode)
    cli = tmp_path / "batch.jsonl"
    run_slst(
        "batch", str(reuters_jsonl), "--format", "jsonl", "--mode", mode, "-qq",
        "--out", str(cli),
    )
    expected = sorted(cli.read_text().splitlines())
    assert lines(out / "pairs.jsonl") == expected
    assert record["pairs"] == len(expected) > 1000
    if mode == "robust":
        # Most candidates are templates filled with other figures: the pair check screens
        # them out before their sketches move.
        assert record["screened_pairs"] < record["candidate_pairs"] / 2


@pytest.mark.parametrize("keep", ["first", "longest"])
def test_the_job_deduplicates_as_slst_dedup_decides(spark, tmp_path, keep):
    import slst

    docs = [(p.name, slst.decode(p.read_bytes())) for p in sorted(CLOUGH.iterdir())]
    # A fuller version of the first answer, later in the input: `first` keeps the answer,
    # `longest` this one.
    fuller = docs[0][1] + " " + docs[-1][1]
    docs.append(("fuller.txt", fuller))
    corpus = tmp_path / "corpus.jsonl"
    lines_in = [json.dumps({"id": i, "text": t}, ensure_ascii=False) for i, t in docs]
    corpus.write_text("\n".join(lines_in) + "\n")
    out = tmp_path / "out"
    record = job.run(spark, [str(corpus)], str(out), dedup=True, keep=keep)

    want = slst.dedup(docs, keep=keep)
    assert lines(out / "dropped.jsonl") == sorted(d.to_json() for d in want.dropped)
    assert lines(out / "deduplicated.jsonl") == sorted(lines_in[i] for i in want.kept_indices)
    assert (record["kept"], record["dropped"]) == (len(want.kept), len(want.dropped))
    assert record["kept"] + record["dropped"] == len(docs)
    dropped = {d.dropped: d.kept for d in want.dropped}
    if keep == "first":
        assert dropped.get("fuller.txt") == docs[0][0]
    else:
        assert dropped.get(docs[0][0]) == "fuller.txt"



@pytest.mark.parametrize("mode", ["robust", "paper"])
def test_the_job_keeps_the_pairs_sharing_a_passage_as_slst_batch_does(spark, tmp_path, mode):
    # Short answers copied in part from their source: most pairs sharing 40 words are no
    # duplicates, kept by the passage alone.
    out = tmp_path / "out"
    record = job.run(spark, [str(CLOUGH)], str(out), fmt="text", mode=mode, min_shared_words=40)
    cli = tmp_path / "batch.jsonl"
    run_slst(
        "batch", str(CLOUGH), "--mode", mode, "-qq", "--min-shared-words", "40", "--out", str(cli)
    )
    expected = sorted(line.replace('"corpus-20090418/', '"') for line in cli.read_text().splitlines())
    assert lines(out / "pairs.jsonl") == expected
    by_passage = [line for line in expected if '"decided_by":"passage"' in line]
    assert len(by_passage) >= 30 and all('"passages":[{' in line for line in expected)
    assert record["pairs"] == len(expected) and record["min_shared_words"] == 40
    # The Parquet pairs hold the columns of slst batch's Parquet pairs, the passages among them.
    table = spark.read.parquet(str(out / "pairs.parquet"))
    assert table.columns == [
        "a", "b", "method", "resemblance", "containment_a", "containment_b", "block_count",
        "matched_sentences", "template", "decided_by", "condition", "stopwords_a", "stopwords_b",
        "passages",
    ]
    rows = sorted(
        (r.asDict(recursive=True) for r in table.collect()), key=lambda r: (r["a"], r["b"])
    )
    wanted = sorted((json.loads(line) for line in expected), key=lambda r: (r["a"], r["b"]))
    assert len(rows) == len(wanted)
    for row, want in zip(rows, wanted):
        assert {k: v for k, v in row.items() if v is not None} == {
            k: v for k, v in want.items() if v is not None
        }
    if mode == "robust":
        # Many of them the rule's join does not find (without the join of seeds, the job keeps
        # 93 of these 149 pairs): the join of seeds finds every one.
        assert record["seeded_pairs"] >= len(expected) > 100


def test_the_job_refuses_what_slst_batch_refuses_with_min_shared_words(spark, tmp_path):
    import slst

    out = tmp_path / "out"
    with pytest.raises(slst.SlstError, match=r"min.shared.words = 0: at least 1 word"):
        job.run(spark, [str(CLOUGH)], str(out), fmt="text", min_shared_words=0)
    with pytest.raises(slst.SlstError, match="40 with shingle: the slst method"):
        job.run(spark, [str(CLOUGH)], str(out), fmt="text", method="shingle", min_shared_words=40)
    # slst dedup keeps no pair by a passage.
    with pytest.raises(ValueError, match="dedup: slst dedup keeps no pairs by shared passages"):
        job.run(spark, [str(CLOUGH)], str(out), fmt="text", dedup=True, min_shared_words=40)
    assert not out.exists()  # refused before any work


def test_the_lines_name_each_documents_stop_words_as_slst_batch_does(spark, tmp_path):
    # With the stop words `auto`, each document's language chooses its list, and every line
    # names the lists of its two documents (`stopwords_a`, `stopwords_b`), as batch's do.
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    ru = (ROOT / "tests" / "fixtures" / "languages" / "ru-rain.txt").read_text()
    (corpus / "ru-a.txt").write_text(ru)
    (corpus / "ru-b.txt").write_text(ru.replace("Вечером все соседи", "Вечером все жильцы"))
    for name in ("g0pA_taskb.txt", "orig_taskb.txt"):
        (corpus / name).write_bytes((ROOT / "corpora" / "clough" / name).read_bytes())
    out = tmp_path / "out"
    job.run(spark, [str(corpus)], str(out), fmt="text", params={"stopwords": "auto"})
    cli = tmp_path / "batch.jsonl"
    run_slst("batch", str(corpus), "-qq", "--stopwords", "auto", "--out", str(cli))
    expected = sorted(line.replace('"corpus/', '"') for line in cli.read_text().splitlines())
    assert lines(out / "pairs.jsonl") == expected
    named = sorted((r["a"], r["stopwords_a"], r["stopwords_b"]) for r in map(json.loads, expected))
    assert named == [
        ("g0pA_taskb.txt", "en-nltk-179", "en-nltk-179"),
        ("ru-a.txt", "ru-nltk-151", "ru-nltk-151"),
    ]
