#!/usr/bin/env python3
"""Tests of the realistic corpus's pieces and of corpus_stats.py on hand-made cases
(python3 scripts/test_synthetic.py; standard library only, no corpus needed)."""
import json
import math
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


class NewWords(unittest.TestCase):
    RARE = ["Smith said Zorbatex Corp earned 1,234 dlrs in Qwerty.", "Jones said Zorbatex Corp lost 56 dlrs."]

    def new_words(self, rate=1.0):
        return synthetic_text.NewWords(TRAINING + self.RARE, rare=3, rate=rate)

    def test_rare_words_are_replaced_with_their_shape_and_punctuation(self):
        words = self.new_words()
        self.assertIn("zorbatex", words.rare)
        self.assertNotIn("said", words.rare)  # five times in the training sentences
        text = "Smith said Zorbatex Corp earned 1,234 dlrs in Qwerty."
        out = words.apply(text, 42).split(" ")
        self.assertEqual(len(out), 9)
        for old, new in zip(text.split(" "), out):
            if synthetic_text.core_of(old)[1].lower() in words.rare:
                self.assertNotEqual(old, new)
            else:
                self.assertEqual(old, new)
        self.assertRegex(out[0], r"^[A-Z][a-z]+$")
        self.assertRegex(out[2], r"^[A-Z][a-z]+$")
        self.assertRegex(out[5], r"^[1-9],[0-9]{3}$")
        self.assertRegex(out[8], r"^[A-Z][a-z]+\.$")

    def test_replacements_are_a_function_of_the_text_and_seed(self):
        a, b = self.new_words(rate=0.5), self.new_words(rate=0.5)
        text = "Smith said Zorbatex Corp earned 1,234 dlrs in Qwerty."
        self.assertEqual(a.apply(text, 7), b.apply(text, 7))
        self.assertEqual(len({a.apply(text, seed) for seed in range(50)}) > 1, True)

    def test_renamed_walks_are_cut_back_out_whole_by_the_splitter(self):
        model = synthetic_text.RenamingModel(synthetic_text.TrigramModel(TRAINING + self.RARE), self.new_words())
        rng = random.Random(5)
        walks = [w for w in (model.sentence(rng.getrandbits(63)) for _ in range(300)) if w]
        self.assertEqual(SPLIT.split(" ".join(walks)), walks)

    def test_the_vocabulary_keeps_growing(self):
        # variants of one word: distinct ones grow as uses^(1/alpha), about 0.57 (uses 1,000 -> 10,000)
        words = self.new_words()
        rng = random.Random(3)
        seen, distinct = set(), []
        for n in range(1, 10001):
            seen.add(words.variant_index(1.0 - rng.random()))
            if n in (1000, 10000):
                distinct.append(len(seen))
        beta = math.log10(distinct[1] / distinct[0])
        self.assertGreater(beta, 0.4)
        self.assertLess(beta, 0.75)
        self.assertEqual(words.variant("Zorbatex", 5), words.variant("Zorbatex", 5))
        self.assertEqual(words.variant("ZORBATEX", 5), words.variant("Zorbatex", 5).upper())


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
