"""Tests of paper_checks/sec1_main_theorem.py (Theorem 1.1): the claim it declares, with a
certificate, its converse constant as the exact limit of the two-count bound, the release at r = 1
compared at neighbouring counts, and the named transcription faults caught by a case.  That the
claim passes in quick mode with its certificates proved is tested once, in
test_checks_all_claims.py."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from countdp import formulas
from countdp.harness.claims import checks_in

pytestmark = pytest.mark.mp_dps(30)


def test_script_declares_theorem_1_1(check_script):
    specs = checks_in(check_script("sec1_main_theorem"))
    assert [s.id for s in specs] == ["thm1.1"]
    assert all(s.certificates for s in specs)


#: the named transcription faults of this claim: each must make it fail a case
NAMED = {
    "thm1.1": ["converse constant with 12.8 for 128 (10x too strong)", "converse constant 100x too strong"],
}


@pytest.mark.slow
def test_the_named_faults_are_caught_by_a_case(named_faults_caught_by_a_case):
    named_faults_caught_by_a_case("sec1_main_theorem", NAMED)


def test_converse_constant_is_the_limit_of_the_two_count_bound_exactly():
    """eq (15) = (1-r)^2/(2 (C_r - 1)^2) = n^2 (14) at n = denominator of C_r, in exact arithmetic;
    a constant 100x too strong is not, although it stays below the mechanism's limit at r = 1/2."""
    for r in (Fraction(1, 10), Fraction(1, 2), Fraction(9, 10)):
        c = formulas.two_count_ratio.exact(r)
        n = c.denominator
        assert formulas.two_count_limit.exact(r) == n * n * formulas.two_count_bound.exact(n, r)
        assert formulas.two_count_limit.exact(r) == (1 - r) ** 2 / (2 * (c - 1) ** 2)
    with mpmath.workdps(30):
        assert 100 * formulas.two_count_limit("0.5") < formulas.large_count_coefficient(1, "0.25", 1)


def test_release_at_r_equal_one_is_compared_at_neighbouring_counts(run_claim):
    res = run_claim("thm1.1")
    routes = [c.route or "" for c in res.cases if c.params.get("r") == 1]
    assert any("neighbouring counts" in r for r in routes)
    assert any("exact rational margins" in r for r in routes)
