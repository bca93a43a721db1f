#!/usr/bin/env python3
"""Tests of the realistic corpus's pieces and of corpus_stats.py on hand-made cases
(python3 scripts/test_synthetic.py; standard library only, no corpus needed)."""
import json
import pathlib
import random
import sys
import tempfile
import unittest
from collections import Counter

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import corpus_stats  # noqa: E402
import synthetic_text  # noqa: E402
from make_synthetic import SPLIT  # noqa: E402

TRAINING = [
    "The company said it expects higher earnings in 1987.",
    "The bank said the rate cut was not expected before June.",
    "And he said unto them, Go ye into the city.",
    "Smith said the U.S. dollar was firm against the yen.",
    "The Treasury said it would sell bills on Monday.",
    "he said",  # not a sentence start: left out of the model
]


class Trigrams(unittest.TestCase):
    def test_walks_are_cut_back_out_whole_by_the_splitter(self):
        self.assertTrue(all(SPLIT.split(s) == [s] for s in TRAINING))  # as the pool's sentences are
        model = synthetic_text.TrigramModel(TRAINING)
        self.assertEqual(model.sentences, 5)
        rng = random.Random(3)
        walks = [model.sentence(rng.getrandbits(63)) for _ in range(200)]
        walks = [w for w in walks if w]
        self.assertTrue(walks)
        text = " ".join(walks)
        self.assertEqual(SPLIT.split(text), walks)

    def test_a_walk_is_a_function_of_its_seed(self):
        model = synthetic_text.TrigramModel(TRAINING)
        self.assertEqual(model.sentence(12345), model.sentence(12345))


class Novelty(unittest.TestCase):
    def test_a_sentence_is_new_once_whatever_its_case(self):
        seen = synthetic_text.Novelty()
        self.assertTrue(seen.add("The company said so."))
        self.assertFalse(seen.add("the company said so."))
        self.assertTrue(seen.add("The company said no."))

    def test_new_sentence_never_repeats(self):
        model = synthetic_text.TrigramModel(TRAINING)
        seen = synthetic_text.Novelty()
        for s in TRAINING:
            seen.add(s)
        rng = random.Random(1)
        texts = []
        try:
            for _ in range(30):
                texts.append(synthetic_text.new_sentence(model, seen, rng)[1].lower())
        except RuntimeError:
            pass  # a five-sentence model runs out of new walks
        self.assertEqual(len(texts), len(set(texts)))
        self.assertFalse(set(texts) & {s.lower() for s in TRAINING})


class Shared(unittest.TestCase):
    def test_each_item_serves_exactly_d_uses(self):
        made = iter(range(10**6))
        items = synthetic_text.SharedItems([(2, 0.5), (5, 0.5)], lambda rng: next(made))
        rng = random.Random(7)
        uses = Counter(items.draw(rng) for _ in range(10000))
        sizes = Counter(uses.values())
        self.assertTrue(set(sizes) <= {2, 5} | {1, 3, 4})  # the last item of a class may be partial
        self.assertLessEqual(sum(n for d, n in sizes.items() if d not in (2, 5)), 2)

    def test_body_classes_sum_to_the_share(self):
        classes = synthetic_text.body_classes(0.06)
        self.assertAlmostEqual(sum(r for _, r in classes), 0.06)
        self.assertEqual(classes[0][0], 2)
        self.assertGreater(classes[0][1], classes[1][1])


class Stats(unittest.TestCase):
    def test_figures_of_a_small_corpus(self):
        docs = [
            ("a", "One two three four. Five six seven eight."),
            ("b", "One two three four. Nine ten eleven twelve."),
            ("c", "ONE TWO THREE FOUR. Too short."),  # lowercased; "Too short." has 2 words
            ("d", "One two three four. Five six seven eight."),  # exact duplicate of a
            ("e", "Nine ten eleven twelve. Something else entirely here."),  # planted copy
        ]
        with tempfile.TemporaryDirectory() as tmp:
            path = pathlib.Path(tmp, "c.jsonl")
            path.write_text("".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in docs))
            truth = pathlib.Path(tmp, "t.tsv")
            truth.write_text("a\tb\tkind\tresemblance\tedits\nb\te\tnear\t0.3\t-\n")
            n, exact, planted, df = corpus_stats.count(str(path), str(truth))
            self.assertEqual((n, exact, planted), (3, 1, 1))
            s = corpus_stats.stats(n, df, 1000)
        # sentences: "one two three four" df 3, "five six seven eight" 1, "nine ten eleven twelve" 1
        self.assertEqual(s["occurrences"], 5)
        self.assertAlmostEqual(s["share_ge2"], 3 / 5)
        self.assertAlmostEqual(s["mean_df"], (9 + 1 + 1) / 5)
        self.assertAlmostEqual(s["pairs_per_doc"], 3 / 3)
        self.assertEqual(corpus_stats.stats(n, df, 2)["pairs_per_doc"], 0)


if __name__ == "__main__":
    unittest.main()
