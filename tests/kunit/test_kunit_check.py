# SPDX-License-Identifier: GPL-2.0
"""Unit tests of scripts/kunit-check.py on kunit.py's JSON report.

report.json is a real report (kunit.py run --json=FILE, all passing); the
other cases are made from it: a failed, a skipped and a crashed test, a
skipped or missing suite, a suite with no tests, and a failing case of a
parameterised test (a nested group)."""
import copy
import importlib.util
import io
import json
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "kunit_check", os.path.join(HERE, "..", "..", "scripts", "kunit-check.py"))
kc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kc)

SUITES = ["stacker", "stacker_denyname", "stacker_integrity"]
with open(os.path.join(HERE, "report.json")) as f:
    REPORT = json.load(f)


def suite(report, name):
    return next(g for g in report["sub_groups"] if g["name"] == name)


def problems(report):
    return kc.check(report, SUITES, out=io.StringIO())[0]


class Check(unittest.TestCase):
    def test_real_report_passes(self):
        self.assertEqual(problems(REPORT), [])
        self.assertEqual(kc.check(REPORT, SUITES, out=io.StringIO())[1], 7)

    def test_failed_test_fails(self):
        r = copy.deepcopy(REPORT)
        suite(r, "stacker_integrity")["test_cases"][1]["status"] = "FAIL"
        self.assertEqual(len(problems(r)), 1)
        self.assertIn("sha1_in_pieces_known_answer: FAIL", problems(r)[0])

    def test_skipped_test_fails(self):
        r = copy.deepcopy(REPORT)
        suite(r, "stacker_denyname")["test_cases"][0]["status"] = "SKIP"
        self.assertIn("stacker_denyname PASSED (1 passed, 0 failed, 1 skipped)", problems(r)[0])

    def test_skipped_suite_fails(self):
        r = copy.deepcopy(REPORT)
        for case in suite(r, "stacker")["test_cases"]:
            case["status"] = "SKIP"
        self.assertIn("stacker SKIPPED", problems(r)[0])

    def test_crash_fails(self):
        r = copy.deepcopy(REPORT)
        suite(r, "stacker")["misc"]["crashed"] = 1
        self.assertIn("stacker CRASHED", problems(r)[0])

    def test_missing_suite_fails(self):
        r = copy.deepcopy(REPORT)
        r["sub_groups"] = [g for g in r["sub_groups"] if g["name"] != "stacker_denyname"]
        self.assertEqual(problems(r), ["stacker_denyname did not run"])

    def test_suite_without_tests_fails(self):
        r = copy.deepcopy(REPORT)
        suite(r, "stacker")["test_cases"] = []
        self.assertIn("stacker NO_TESTS", problems(r)[0])

    def test_failing_parameter_fails(self):
        r = copy.deepcopy(REPORT)
        suite(r, "stacker")["sub_groups"] = [{
            "name": "params", "sub_groups": [], "misc": {},
            "test_cases": [{"name": "p-0", "status": "PASS"},
                           {"name": "p-1", "status": "FAIL"}]}]
        self.assertIn("p-1: FAIL", problems(r)[0])

    def test_suite_crashed_before_its_tests_fails(self):
        r = copy.deepcopy(REPORT)
        r["sub_groups"] = [g for g in r["sub_groups"] if g["name"] != "stacker"]
        r["test_cases"] = [{"name": "stacker", "status": "ERROR"}]
        self.assertEqual(problems(r)[0], "stacker ERROR, no test ran")

    def test_empty_report_fails(self):
        self.assertEqual(len(problems({"sub_groups": []})), 3)


if __name__ == "__main__":
    unittest.main()
