#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks kunit.py's JSON report (kunit.py run --json=FILE) for stacker's suites.

Usage: kunit-check.py REPORT.json SUITE...

Prints "kunit: SUITE: STATUS, P passed, F failed, S skipped" for each
suite named, and exits non-zero unless each one ran, with at least one
test, every test passed and none was skipped, failed or crashed (kunit.py
itself exits 0 when tests are skipped, and a suite that is not built in
is simply absent from its report). A parameterised test is a group of
its own in the report: its cases count as the suite's.
"""
import json
import sys


def leaves(group):
    """Every test case of a group, its nested groups' included."""
    for case in group.get("test_cases", []):
        yield case
    for sub in group.get("sub_groups", []):
        yield from leaves(sub)


def suite_result(group):
    """(status, passed, failed, skipped, problems) of one suite's group."""
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0, "ERROR": 0}
    bad = []
    for case in leaves(group):
        status = case.get("status", "FAIL")
        counts[status if status in counts else "FAIL"] += 1
        if status != "PASS":
            bad.append(f"{case.get('name', '?')}: {status}")
    misc = group.get("misc", {})
    crashed = misc.get("crashed", 0) + misc.get("errors", 0) + counts["ERROR"]
    if crashed:
        status = "CRASHED"
    elif counts["FAIL"]:
        status = "FAILED"
    elif not counts["PASS"] and not counts["SKIP"]:
        status = "NO_TESTS"
    elif counts["SKIP"] and not counts["PASS"]:
        status = "SKIPPED"
    else:
        status = "PASSED"
    return status, counts["PASS"], counts["FAIL"] + counts["ERROR"], counts["SKIP"], bad


def check(report, suites, out=sys.stdout):
    """Prints each suite's line; the list of problems (empty when all passed)."""
    problems = []
    groups = {g.get("name"): g for g in report.get("sub_groups", [])}
    total = 0
    for suite in suites:
        group = groups.get(suite)
        if group is None:
            # A suite that crashed before its first test is a test case of
            # the top level (kunit_json.py), not a group.
            case = next((c for c in report.get("test_cases", []) if c.get("name") == suite), None)
            why = f"{case.get('status', '?')}, no test ran" if case else "did not run"
            print(f"kunit: {suite}: {why}", file=out)
            problems.append(f"{suite} {why}")
            continue
        status, p, f, s, bad = suite_result(group)
        print(f"kunit: {suite}: {status}, {p} passed, {f} failed, {s} skipped", file=out)
        total += p
        if status != "PASSED" or f or s or not p:
            problems.append(f"{suite} {status} ({p} passed, {f} failed, {s} skipped)"
                            + (f": {', '.join(bad)}" if bad else ""))
    return problems, total


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(sys.argv[1]) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        print(f"kunit: cannot read the report {sys.argv[1]}: {e}", file=sys.stderr)
        return 1
    suites = sys.argv[2:]
    problems, total = check(report, suites)
    if problems:
        print(f"[stacker] KUnit FAILED: {'; '.join(problems)} (report: {sys.argv[1]})",
              file=sys.stderr)
        return 1
    print(f"[stacker] KUnit: {len(suites)} suites, {total} tests, all passed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
