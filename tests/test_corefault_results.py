"""countdp.harness.results: the relations of a case by truth table (strict and weak, exact
endpoints, tolerances, infinities, a negative tolerance), and how statuses combine."""

from __future__ import annotations

import math

import mpmath
import pytest

from countdp.harness.results import ClaimResult, Run, ScriptRun, Settings, holds, worst_status

INF = math.inf


@pytest.mark.parametrize("lhs, rel, rhs, tol, expected", [
    (1, "<=", 1, 0, True), (1, "<", 1, 0, False), (1, ">=", 1, 0, True), (1, ">", 1, 0, False),
    (1, "<", 2, "0.5", True), (1, "<", 2, 1, False),             # strict beyond the error bar
    ("1.5", "<=", 1, "0.5", True), ("1.6", "<=", 1, "0.5", False),
    (1, "==", "1.25", "0.25", True), (1, "==", "1.25", "0.2", False),
    (3, ">=", 4, 1, True), (3, ">", 4, 1, False),
    (1, "<=", 0, -1, False), (1, "==", 1, -1, False),          # a negative tolerance holds nothing
    (INF, "==", INF, 0, True), (INF, "==", 1e300, 1e300, False), (-INF, "==", INF, 0, False),
    (1, "<", INF, 0, True), (INF, "<=", 1, 0, False),
    (float("nan"), "<=", 1, 0, False), (1, "==", 1, float("nan"), False),
])
def test_holds_truth_table(lhs, rel, rhs, tol, expected):
    with mpmath.workdps(30):
        assert holds(lhs, rel, rhs, tol) is expected


def test_worst_status_and_run_ok():
    assert worst_status([]) == "pass"
    assert worst_status(["pass", "fail"]) == "fail"
    assert worst_status(["fail", "error", "pass"]) == "error"
    assert worst_status(["error", "fail"]) == "error"
    assert worst_status(["skipped"]) == "error"
    for statuses, ok in ((["pass", "pass"], True), (["pass", "fail"], False),
                         (["pass", "error"], False)):
        results = [ClaimResult(cid, "", "paper", s, ["a", "b"])
                   for cid, s in zip(("eq3", "eq4"), statuses)]
        run = Run(Settings(quick=True), [ScriptRun("s", "s.py", None, results)], [])
        assert run.ok() is ok and run.exit_code() == (0 if ok else 1)
