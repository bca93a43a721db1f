"""The Python API against the `slst` command on the shipped corpora: the same records, the
same pairs; spans as slices of the Python strings; errors as exceptions with the command's
messages."""

from __future__ import annotations

import json
import threading

import pytest

import slst
from conftest import ROOT, cli_compare, run_slst

CLOUGH = ROOT / "corpora" / "clough-short-answers" / "corpus-20090418"
PAIRS = [
    ("corpora/clough/g0pA_taskb.txt", "corpora/clough/orig_taskb.txt"),
    (
        "corpora/clough-short-answers/corpus-20090418/g0pB_taskc.txt",
        "corpora/clough-short-answers/corpus-20090418/orig_taskc.txt",
    ),
    (
        "corpora/clough-short-answers/corpus-20090418/g0pC_taskd.txt",
        "corpora/clough-short-answers/corpus-20090418/orig_taskd.txt",
    ),
]


def read(path: str) -> str:
    return (ROOT / path).read_text(encoding="utf-8")


@pytest.mark.parametrize("a,b", PAIRS)
@pytest.mark.parametrize(
    "method,mode,flags",
    [
        ("slst", "robust", []),
        ("slst", "paper", ["--mode", "paper"]),
        ("shingle", "robust", ["--method", "shingle"]),
        ("polyhash", "robust", ["--method", "polyhash"]),
    ],
)
def test_compare_gives_the_record_of_slst_compare(a, b, method, mode, flags):
    ours = json.loads(
        slst.detector(method, mode).compare(read(a), read(b), a_id=a, b_id=b).to_json()
    )
    assert ours == cli_compare(a, b, *flags)


def test_settings_by_name_match_the_flags():
    a, b = PAIRS[0]
    ours = slst.detector("slst", "robust", min_block=3, term_similarity=0.3, stem=True)
    got = json.loads(ours.compare(read(a), read(b), a_id=a, b_id=b).to_json())
    flags = ["--min-block", "3", "--term-similarity", "0.3", "--stem"]
    assert got == cli_compare(a, b, *flags)


def test_spans_are_slices_of_the_python_strings():
    # Non-ASCII text: character offsets differ from byte offsets.
    a = "Café prices rose in Zürich. Bakers blamed the cost of flour. Buyers queued anyway. " * 3
    b = "Naïve readers smiled. Café prices rose in Zürich. Bakers blamed the cost of flour."
    r = slst.compare(a, b)
    assert r.blocks, r
    for block in r.blocks:
        assert a[block.a] == a.encode()[slice(*block.a_bytes)].decode()
        assert b[block.b] == b.encode()[slice(*block.b_bytes)].decode()
        assert a[block.a].startswith("Café")
    for p in r.passages or []:
        assert a[p.a] == a.encode()[slice(*p.a_bytes)].decode()


def test_identity_scores_one_and_comparison_is_symmetric():
    a, b = (read(p) for p in PAIRS[1])
    assert slst.compare(a, a).resemblance == 1.0
    ab, ba = slst.compare(a, b), slst.compare(b, a)
    assert ab.resemblance == ba.resemblance
    assert (ab.containment_a, ab.containment_b) == (ba.containment_b, ba.containment_a)
    assert ab.duplicate == ba.duplicate


def test_profile_gives_the_record_of_slst_profile():
    path = PAIRS[0][1]
    text = read(path)
    p = slst.profile(text)
    cli = json.loads(run_slst("profile", path, "--json"))
    ours = json.loads(p.to_json())
    cli.pop("id")
    ours.pop("id")
    assert ours == cli
    assert p.length_string == cli["length_string"]
    assert [text[s.span] for s in p.sentences][:3] == [
        text.encode()[slice(*s.bytes)].decode() for s in p.sentences[:3]
    ]


@pytest.mark.parametrize("method,mode", [("slst", "robust"), ("slst", "paper"), ("shingle", "robust")])
def test_sketches_travel_as_bytes_and_verify_as_compare_does(method, mode):
    a, b = (read(p) for p in PAIRS[1])
    d = slst.detector(method, mode)
    sa, sb = d.sketch(a, id="a"), d.sketch(b, id="b")
    back_a = d.sketch_from_bytes(sa.to_bytes(), id="a")
    back_b = d.sketch_from_bytes(sb.to_bytes(), id="b")
    direct = json.loads(d.compare(a, b, passages=False).to_json())
    assert json.loads(slst.verify(sa, sb, passages=False).to_json()) == direct
    # Without their texts the blocks keep their byte spans; the scores are the same.
    shipped = slst.verify(back_a, back_b)
    assert shipped.resemblance == direct["resemblance"]
    assert [x.a_bytes for x in shipped.blocks] == [tuple(x["a_span"]) for x in direct.get("blocks", [])]
    assert shipped.passages is None and all(x.a is None for x in shipped.blocks)


def test_a_reported_pair_shares_a_key():
    a, b = (read(p) for p in PAIRS[1])
    assert slst.compare(a, b).duplicate
    assert set(slst.keys(a)) & set(slst.keys(b))
    for mode in ("robust", "paper"):
        assert slst.compare(a, b, "slst", mode).resemblance > 0
        ka = set(slst.keys(a, "slst", mode, duplicates=False))
        assert ka & set(slst.keys(b, "slst", mode, duplicates=False))


def test_texts_alike_in_their_words_share_a_word_key():
    # One story cut into sentences two ways: the witness count does not bound such a pair, the
    # word keys find it (robust mode's word rule).
    a = ("Brazilian President Jose Sarney will reshuffle part of his cabinet next month. He will "
         "preserve his finance minister, a presidential source said.")
    b = ("Brazilian President Jose Sarney will reshuffle part of his cabinet next month but will "
         "preserve his finance minister, a presidential source said.")
    d = slst.Detector("slst", "robust")
    ka, kb = (d.word_keys(d.sketch(t)) for t in (a, b))
    # One key a term: the keys are as alike as the vocabularies, so any |x| − ⌈v·|x|⌉ + 1 of
    # one text's keys hold one of the other's (an index looks up the rarest).
    assert len(ka) == len(d.vocabulary(d.sketch(a))) and ka == sorted(set(ka))
    assert len(set(ka) & set(kb)) / len(set(ka) | set(kb)) >= d.word_join[0]
    assert not set(ka) & set(d.word_keys(d.sketch("Oil prices fell sharply in London trading.")))
    off = slst.Detector("slst", "robust", {"vocabulary": 0})
    assert off.word_keys(off.sketch(a)) is None
    paper = slst.Detector("slst", "paper")
    assert paper.word_keys(paper.sketch(a)) is None
    # The vocabularies a distributed join ranks itself: sorted distinct term ids, their
    # Jaccard coefficient at the rule's level here.
    va, vb = (d.vocabulary(d.sketch(t)) for t in (a, b))
    assert va == sorted(set(va)) and vb == sorted(set(vb))
    level, cap = d.word_join
    # The prefix lengths a distributed word join uses are the library's own.
    assert [slst.prefix_len(n, level) for n in (0, 1, 10, 59)] == [0, 1, 3, 12]
    assert len(set(va) & set(vb)) / len(set(va) | set(vb)) >= level == 0.8 and cap >= 1
    assert d.vocabulary(d.sketch("")) == []
    # A text of one over-long sentence keeps no unit (no block, no pair on words), but its
    # terms count in a join's document frequencies, as in slst batch.
    long = " ".join(f"word{k}" for k in range(60)) + "."
    assert d.witness_keys(d.sketch(long))[1] == 0 and len(d.vocabulary(d.sketch(long))) == 60
    assert off.vocabulary(off.sketch(a)) is None and off.word_join is None
    assert paper.vocabulary(paper.sketch(a)) is None and paper.word_join is None


def test_the_pair_check_screens_out_a_template_filled_twice_and_keeps_a_copy():
    # The Fed's customer repurchases on two days (Reuters-21578): one template, other figures.
    # Comparing refuses the pair on its figures; the pair check, which reads only the units
    # and figure ids, refuses it too, and keeps an edited copy.
    a = ("The Federal Reserve entered the government securities market to arrange 1.5 billion "
         "dlrs of customer repurchase agreements, a Fed spokesman said. Dealers said Federal "
         "funds were trading at 6-1/8 pct when the Fed began its temporary and indirect supply "
         "of reserves to the banking system.")
    b = a.replace("1.5 billion", "2.5 billion").replace("6-1/8", "6-3/16")
    copy = a.replace("a Fed spokesman said", "the spokesman for the Fed said")
    d = slst.Detector("slst", "robust")
    sa, sb, sc = (d.sketch(t) for t in (a, b, copy))
    refused = d.verify(sa, sb)
    assert (refused.decided_by, refused.condition) == ("figures-in-documents", "figures-differ")
    assert not refused.duplicate
    assert d.verify(sa, sc).duplicate
    units = [d.witness_keys(s)[1] for s in (sa, sb, sc)]
    va, vb, vc = (d.pair_check_values(s) for s in (sa, sb, sc))
    assert va == sorted(set(va)) and len(va) >= 2 and va != vb
    assert d.may_keep_pairs([(units[0], va, units[1], vb), (units[0], va, units[2], vc)]) == [
        False,
        True,
    ]
    # Only duplicates are screened on their figures; a method without the check has none.
    assert d.may_keep_pairs([(units[0], va, units[1], vb)], rule="scored") == [True]
    paper = slst.Detector("slst", "paper")
    assert paper.pair_check_values(paper.sketch(a)) is None
    assert paper.may_keep_pairs([(2, [], 2, [])]) is None


def folder_docs():
    """The shipped folder as `slst batch` reads it: files in path order, ids relative to it."""
    for path in sorted(CLOUGH.iterdir()):
        yield path.name, path.read_bytes()


@pytest.mark.parametrize("mode", ["robust", "paper"])
def test_pairs_are_the_lines_of_slst_batch(mode, tmp_path):
    out = tmp_path / "pairs.jsonl"
    run_slst("batch", str(CLOUGH), "--mode", mode, "-qq", "--out", str(out))
    cli = out.read_text().splitlines()
    got = slst.pairs(folder_docs(), "slst", mode)
    lines = [p.to_json() for p in got]
    assert lines == [line.replace('"corpus-20090418/', '"') for line in cli]
    assert len(lines) >= 3
    assert got.documents == len(list(CLOUGH.iterdir()))
    assert got.clusters and all(len(c) >= 2 for c in got.clusters)

    # The duplicate groups are the group records `slst batch --groups FILE` writes.
    grouped = tmp_path / "groups.jsonl"
    run_slst("batch", str(CLOUGH), "--mode", mode, "-qq", "--out", str(out), "--groups", str(grouped))
    records = grouped.read_text().splitlines()
    assert records and got.group_records == [l.replace('"corpus-20090418/', '"') for l in records]
    assert got.groups == [json.loads(r)["documents"] for r in got.group_records]
    for g in got.groups:
        members = set(g)
        inside = [p for p in lines if {json.loads(p)["a"], json.loads(p)["b"]} <= members]
        assert len(inside) == len(g) * (len(g) - 1) // 2
    with pytest.raises(ValueError, match="group_at"):
        slst.pairs(folder_docs(), "slst", mode, group_at=1.5)


def test_pairs_take_any_iterable_and_release_the_gil():
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.001)

    t = threading.Thread(target=tick)
    t.start()
    import random

    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = sorted({"".join(rng.choice(letters) for _ in range(7)) for _ in range(5000)})

    def text():
        return " ".join(
            " ".join(rng.choice(words) for _ in range(rng.randint(4, 12))).capitalize() + "."
            for _ in range(8)
        )

    # 2,000 distinct texts, 100 of them twice: 100 pairs.
    texts = [text() for _ in range(2000)]
    docs = [(f"d{i}", t) for i, t in enumerate(texts)] + [
        (f"copy{i}", texts[i]) for i in range(100)
    ]
    try:
        pairs = list(slst.pairs(iter(docs), "slst", "robust"))
    finally:
        stop.set()
        t.join()
    assert sorted((p.a, p.b) for p in pairs) == sorted((f"d{i}", f"copy{i}") for i in range(100))
    assert ticks


def test_pairs_at_scale_equal_slst_batch_on_reuters(reuters_jsonl, tmp_path):
    for mode in ("robust", "paper"):
        out = tmp_path / f"{mode}.jsonl"
        run_slst("batch", str(reuters_jsonl), "--format", "jsonl", "--mode", mode, "-qq", "--out", str(out))

        def docs():
            with open(reuters_jsonl, encoding="utf-8") as f:
                for line in f:
                    r = json.loads(line)
                    yield r["id"], r["text"]

        lines = [p.to_json() for p in slst.pairs(docs(), "slst", mode)]
        assert sorted(lines) == sorted(out.read_text().splitlines()), mode
        assert len(lines) > 500


def test_templates_are_reported_as_slst_batch_reports_them_on_reuters(reuters_jsonl, tmp_path):
    out = tmp_path / "templates.jsonl"
    clusters = tmp_path / "clusters.tsv"
    run_slst("batch", str(reuters_jsonl), "--format", "jsonl", "--templates", "report",
             "-qq", "--out", str(out), "--clusters", str(clusters))

    def docs():
        with open(reuters_jsonl, encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                yield r["id"], r["text"]

    result = slst.pairs(docs(), rule="templates")
    pairs = list(result)
    lines = [p.to_json() for p in pairs]
    assert sorted(lines) == sorted(out.read_text().splitlines())
    templates = [p for p in pairs if p.template is not None]
    assert 0 < len(templates) < len(lines)
    assert all(not p.duplicate and json.loads(p.to_json())["template"] == p.template for p in templates)
    # Each pair names what decided it, as its line does: a refusal for a template.
    assert all(json.loads(p.to_json())["decided_by"] == p.decided_by for p in pairs)
    assert all(json.loads(p.to_json())["condition"] == p.condition for p in pairs)
    assert {p.decided_by for p in pairs if p.duplicate} <= {"resemblance", "containment", "blocks", "words"}
    assert "other-figures" in {p.decided_by for p in templates}
    # Each check belongs to one named condition; templates are refused for their figures or
    # for another party, never for loose words.
    assert {p.condition for p in templates} <= {"figures-differ", "parties-differ"}
    assert {(p.decided_by, p.condition) for p in templates} >= {("other-figures", "figures-differ")}
    # compare names the same reason.
    texts = dict(docs())
    t = templates[0]
    c = slst.compare(texts[t.a], texts[t.b])
    assert (c.template, c.decided_by, c.condition) == (t.template, t.decided_by, t.condition)
    # Templates join no cluster: the clusters are those of the duplicates alone.
    rows = [r.split("\t") for r in clusters.read_text().splitlines()[1:]]
    by_cluster = {}
    for c, d in rows:
        by_cluster.setdefault(c, []).append(d)
    assert sorted(map(sorted, result.clusters)) == sorted(map(sorted, by_cluster.values()))
    with pytest.raises(slst.SlstError, match="the rules are duplicates, contained, scored, templates"):
        slst.pairs([], rule="nosuch")


def test_errors_are_exceptions_with_the_commands_messages():
    with pytest.raises(slst.SlstError, match="unknown method"):
        slst.compare("a", "b", "nosuch")
    with pytest.raises(slst.SlstError, match="no such setting; its settings are"):
        slst.compare("a", "b", no_such_setting=1)
    with pytest.raises(slst.SlstError, match="cannot read"):
        slst.compare("a", "b", min_block="two")
    with pytest.raises(slst.SlstError, match="invalid setting"):
        slst.compare("a", "b", threshold=1.5)
    with pytest.raises(TypeError, match=r"\(id, text\)"):
        list(slst.pairs(["just text"]))
    with pytest.raises(slst.SlstError, match="binary"):
        list(slst.pairs([("x", b"\x00\x01\x02" * 100)]))
    d = slst.detector("slst", "paper")
    with pytest.raises(slst.SlstError, match="another method or other settings"):
        d.verify(d.sketch("A. B."), slst.sketch("A. B.", "shingle"))
    # A distributed join's stop-word lists: one pair per item, and a list only with `auto`.
    item = ("a", d.sketch("A. B.").to_bytes(), "b", d.sketch("A. B.").to_bytes())
    with pytest.raises(slst.SlstError, match="0 pairs of list ids for 1 items"):
        d.verify_many([item], stopwords=[])
    assert d.stopwords_of("Утром над городом прошёл сильный дождь.") is None
    auto = slst.detector("slst", "paper", stopwords="auto")
    assert auto.stopwords_of("Утром над городом прошёл сильный дождь.") == "ru-nltk-151"


def test_settings_reach_the_detector_in_either_mode():
    # slst-flat is SL+ST's paper method on a page's flat text: its settings are the paper
    # mode's whatever the mode, and a setting given by name shows in the record's params.
    text = "Rain fell on the old town. The river rose by a metre. Boats were tied up."
    for mode in ("robust", "paper"):
        record = json.loads(slst.compare(text, text, "slst-flat", mode, min_block=3).to_json())
        assert record["params"]["min_block"] == 3, mode
    record = json.loads(slst.compare(text, text, "specialchars", threshold=0.7).to_json())
    assert record["params"]["threshold"] == 0.7


def test_min_shared_words_finds_short_passages_as_slst_batch_does(tmp_path):
    # The alignment sample: passages of 48, 69 and 118 words pasted into chapters of 800 to
    # 1,000 words, which the default rule does not report.
    sample = ROOT / "corpora" / "alignment-sample"
    files = sorted((sample / "susp").iterdir()) + sorted((sample / "src").iterdir())
    docs = [(f.name, f.read_text(encoding="utf-8")) for f in files]
    assert list(slst.pairs(docs)) == []
    out = tmp_path / "pairs.jsonl"
    run_slst("batch", str(sample / "susp"), str(sample / "src"), "--min-shared-words", "60",
             "-qq", "--out", str(out))
    pairs = list(slst.pairs(docs, min_shared_words=60))
    assert [p.to_json() for p in pairs] == out.read_text().splitlines()
    assert [(p.a, p.b, p.decided_by) for p in pairs] == [
        ("suspicious-document00001.txt", "source-document00002.txt", "passage"),
        ("suspicious-document00002.txt", "source-document00001.txt", "passage"),
    ]
    texts = {name: text.encode("utf-8") for name, text in docs}
    (a0, a1), (b0, b1) = pairs[1].passages[0]
    assert texts[pairs[1].a][a0:a1] == texts[pairs[1].b][b0:b1]
    assert texts[pairs[1].a][a0:a1].startswith("God said, “Let there be lights".encode("utf-8"))
    # The comparison's passage shares each of its 118 words, as `slst compare` counts them.
    text = dict(docs)
    (p,) = slst.compare(text[pairs[1].a], text[pairs[1].b]).passages
    assert p.shared_words == 118 and p.similarity == 1.0
    with pytest.raises(slst.SlstError, match="only its blocks locate passages"):
        slst.pairs(docs, method="shingle", min_shared_words=60)
