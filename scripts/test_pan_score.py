#!/usr/bin/env python3
"""Tests of scripts/pan_score.py on hand-made cases (python3 scripts/test_pan_score.py)."""
import math
import pathlib
import sys
import tempfile
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from pan_score import measures, read_cases_tsv, read_pan_xml, xml_runs  # noqa: E402


def a(susp, s, src, r):
    return (susp, src, s, r)


class Measures(unittest.TestCase):
    def test_a_detection_must_overlap_the_case_in_both_documents(self):
        case = [a("s", (0, 100), "r", (0, 100))]
        m, per = measures(case, [a("s", (0, 100), "r", (100, 200))])
        self.assertEqual((m["precision"], m["recall"], m["plagdet"]), (0.0, 0.0, 0.0))
        self.assertEqual(per, [(0.0, 0)])
        m, _ = measures(case, [a("s", (0, 100), "r2", (0, 100))])
        self.assertEqual(m["cases_detected"], 0)

    def test_only_the_intersection_is_true(self):
        m, per = measures([a("s", (0, 100), "r", (0, 100))], [a("s", (50, 150), "r", (50, 150))])
        self.assertEqual((m["precision"], m["recall"], m["plagdet"]), (0.5, 0.5, 0.5))
        self.assertEqual(per, [(0.5, 1)])

    def test_two_detections_of_one_case_give_granularity_two(self):
        m, _ = measures([a("s", (0, 100), "r", (0, 100))],
                        [a("s", (0, 50), "r", (0, 50)), a("s", (50, 100), "r", (50, 100))])
        self.assertEqual((m["precision"], m["recall"], m["granularity"]), (1.0, 1.0, 2.0))
        self.assertAlmostEqual(m["plagdet"], 1 / math.log2(3))

    def test_overlapping_detections_count_once(self):
        m, _ = measures([a("s", (0, 100), "r", (0, 100))],
                        [a("s", (0, 80), "r", (0, 80)), a("s", (40, 120), "r", (40, 120))])
        self.assertEqual(m["recall"], 1.0)
        self.assertAlmostEqual(m["precision"], 200 / 240)

    def test_empty_sides(self):
        self.assertEqual(measures([], [])[0]["precision"], 1.0)
        m, _ = measures([a("s", (0, 10), "r", (0, 10))], [])
        self.assertEqual((m["precision"], m["recall"], m["granularity"]), (0.0, 0.0, 1.0))

    def test_pan_perfmeasures_case_recall(self):
        ann7 = a("tref2", (0, 100), "sref2", (0, 100))
        ann9 = a("tref2", (50, 150), "sref2", (50, 150))
        ann10 = a("tref2", (25, 100), "sref2", (25, 100))
        self.assertEqual(measures([ann7], [ann9])[1], [(0.5, 1)])
        self.assertEqual(measures([ann7], [ann9, ann10])[1], [(0.75, 2)])


class Readers(unittest.TestCase):
    def test_the_tsv_and_the_xml_of_the_shipped_sample_agree(self):
        root = pathlib.Path(__file__).resolve().parent.parent / "corpora" / "alignment-sample"
        tsv = read_cases_tsv(root / "cases.tsv")
        self.assertEqual(len(tsv), 3)
        self.assertEqual(sorted(tsv), sorted(read_pan_xml(root / "pan-xml", "plagiarism")))

    def test_detections_are_read_by_their_feature_name(self):
        with tempfile.TemporaryDirectory() as d:
            f = pathlib.Path(d) / "x.xml"
            f.write_text('<document reference="s.txt"><feature name="detected-plagiarism" '
                         'this_offset="1" this_length="2" source_reference="r.txt" '
                         'source_offset="3" source_length="4"/></document>')
            self.assertEqual(read_pan_xml(d, "detected-plagiarism"),
                             [("s.txt", "r.txt", (1, 3), (3, 7))])
            self.assertEqual(read_pan_xml(f, "plagiarism"), [])

    def test_a_folder_of_method_folders_is_scored_per_method(self):
        def write(path, offset):
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text('<document reference="s.txt"><feature name="detected-plagiarism" '
                            f'this_offset="{offset}" this_length="2" source_reference="r.txt" '
                            'source_offset="3" source_length="4"/></document>')

        with tempfile.TemporaryDirectory() as d:
            d = pathlib.Path(d)
            write(d / "slst-paper" / "s-r.xml", 1)
            write(d / "slst-robust" / "s-r.xml", 5)
            runs = xml_runs(d)
            self.assertEqual([pathlib.Path(name).name for name, _ in runs],
                             ["slst-paper", "slst-robust"])
            self.assertEqual([dets for _, dets in runs],
                             [[("s.txt", "r.txt", (1, 3), (3, 7))],
                              [("s.txt", "r.txt", (5, 7), (3, 7))]])
            # One method's folder (files of its own), as PAN's script reads it.
            self.assertEqual(len(xml_runs(d / "slst-paper")), 1)
            write(d / "s-q.xml", 9)
            self.assertEqual(len(xml_runs(d)), 1)
            self.assertEqual(len(xml_runs(d)[0][1]), 3)


if __name__ == "__main__":
    unittest.main()
