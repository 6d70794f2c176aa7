"""Tests of paper_checks/sec5_1_rate.py (Section 5.1): the claims it declares, each with a
certificate, and its remainder helper keeps relative accuracy at small r.  That every claim
passes in quick mode with its certificates proved is tested once, in test_checks_all_claims.py."""

from __future__ import annotations

import mpmath

from countdp.harness.claims import checks_in

IDS = ["sec5.1.conv", "sec5.1.limit_c", "sec5.1.c_equals_r", "eq13"]


def test_script_declares_the_section_5_1_claims(check_script):
    specs = checks_in(check_script("sec5_1_rate"))
    assert [s.id for s in specs] == IDS
    assert all(s.certificates for s in specs)


def test_remainder_over_power_keeps_relative_accuracy(check_script):
    mod = check_script("sec5_1_rate")
    with mpmath.workdps(30):
        r = mpmath.mpf("1e-5")
        x = mod.remainder_over_power(r, 3)
        with mpmath.workdps(80):
            ref = (mpmath.sqrt(2) * mpmath.erfinv(r) - r * mpmath.sqrt(mpmath.pi / 2)) / r ** 3
        assert abs(x - ref) < 1e-25
