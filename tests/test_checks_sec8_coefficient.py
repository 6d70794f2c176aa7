"""Tests of paper_checks/sec8_coefficient.py (Section 8 and eq 32, the bounds on C*): the claims it
declares, each with a certificate, the maximisers that produce the Table 2 constants, the Table 2
control rejected directly, the admissible range of the upper family, and the named transcription
faults caught by a case.  That every claim passes in quick mode with its certificates proved is
tested once, in test_checks_all_claims.py."""

from __future__ import annotations

import mpmath
import pytest

from countdp import formulas
from countdp.harness.claims import checks_in
from countdp.harness.results import holds

IDS = ["eq32", "table2", "sec8.two_count"]


pytestmark = pytest.mark.mp_dps(30)


def test_script_declares_the_coefficient_claims(check_script):
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


#: the named transcription faults of these claims: each must make its claim fail a case
NAMED = {
    "eq32": ["the two bounds exchanged (lower 1/pi, upper pi/(4e^2))", "ratio 4e/pi^2 for 4e^2/pi^2"],
    "table2": ["uniform-prior constant 3/(2e^2) for 3/(2e^3)", "two-count constant 1/64 for 1/128"],
    "sec8.two_count": ["maximiser a = 4 for a = 8",
                       "template without the square: (2/a^2)(1 - 1/(a theta(1-theta)))_+"],
}


@pytest.mark.slow
def test_the_named_faults_are_caught_by_a_case(named_faults_caught_by_a_case):
    named_faults_caught_by_a_case("sec8_coefficient", NAMED)
