"""Tests of paper_checks/sec8_coefficient.py (Section 8): the claims it declares, each with a
certificate, the maximisers that produce the Table 2 constants, the Table 2 control rejected
directly, the admissible range of the upper family, Theorem 1.1's converse constant as the exact
limit of the two-count bound, and the fault catalogue (three catchable faults of two kinds per
claim; the named transcription faults caught by a case).  That every claim passes in quick mode
with its certificates proved is tested once, in test_checks_all_claims.py."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from countdp import formulas
from countdp.harness.claims import checks_in
from countdp.harness.results import holds

IDS = ["eq32", "table2", "sec8.two_count", "sec8.small_r", "sec8.composition", "sec8.bias", "thm1.1"]


pytestmark = pytest.mark.mp_dps(30)


def test_script_declares_the_section_8_claims(check_script):
    specs = checks_in(check_script("sec8_coefficient"))
    assert [s.id for s in specs] == IDS
    assert all(s.certificates for s in specs)


def test_maximisers(check_script):
    mod = check_script("sec8_coefficient")
    two = mod.maximise_two_count()
    assert abs(two.argmax[0] - 8) < 1e-15 and abs(two.argmax[1] - 0.5) < 1e-15
    gau = mod.maximise_gaussian_prior()
    assert abs(gau.value - formulas.gaussian_prior_constant()) <= gau.error
    uni = mod.maximise_uniform_prior()
    assert abs(uni.argmax[0] - formulas.uniform_prior_best_scale()) < 1e-15
    assert abs(uni.value - formulas.uniform_prior_constant()) <= uni.error


def test_table2_constants_and_ordering(check_script):
    vals = list(check_script("sec8_coefficient").table2_constants().values())
    assert vals == sorted(vals)
    assert abs(vals[0] - mpmath.mpf(1) / 128) == 0
    assert abs(formulas.upper_to_lower_ratio() - vals[3] / vals[2]) < 1e-25
    assert abs(formulas.uniform_prior_limit(formulas.uniform_prior_best_scale(), 0)
               - formulas.uniform_prior_constant()) < 1e-25


def test_table2_control_rejected_directly(check_script):
    two = check_script("sec8_coefficient").maximise_two_count()
    assert not holds(two.value, "==", mpmath.mpf(1) / 64, two.error)
    assert holds(two.value, "==", mpmath.mpf(1) / 128, two.error)


def test_upper_family_is_admissible_only_inside_the_unit_interval(check_script):
    family = check_script("sec8_coefficient").upper_family
    mech = family(mpmath.mpf("0.1"))
    assert mech.r0 < mech.r and mech.c == mech.r
    for r in (1, 0):
        with pytest.raises(ValueError):
            family(r)


# ---------------------------------------------------------------------------------------------
# The fault catalogue
# ---------------------------------------------------------------------------------------------

#: the named transcription faults of these claims: each must make its claim fail a case
NAMED = {
    "thm1.1": ["converse constant with 12.8 for 128 (10x too strong)", "converse constant 100x too strong"],
    "eq32": ["the two bounds exchanged (lower 1/pi, upper pi/(4e^2))", "ratio 4e/pi^2 for 4e^2/pi^2"],
    "table2": ["uniform-prior constant 3/(2e^2) for 3/(2e^3)", "two-count constant 1/64 for 1/128"],
    "sec8.two_count": ["maximiser a = 4 for a = 8",
                       "template without the square: (2/a^2)(1 - 1/(a theta(1-theta)))_+"],
    "sec8.small_r": ["remainder O_L1(sigma) for O_L1(sigma^2)"],
    "sec8.composition": ["composition by the maximum, v_tot = max_t v_t"],
    "sec8.bias": ["the mean-one drift -sigma^2/2 for -sigma^2"],
}


def test_the_named_faults_are_caught_by_a_case(named_faults_caught_by_a_case):
    named_faults_caught_by_a_case("sec8_coefficient", NAMED)


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
