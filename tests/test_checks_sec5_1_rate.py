"""paper_checks/sec5_1_rate.py in quick mode: every claim passes with its controls rejected and its
certificates proved."""

from __future__ import annotations

import mpmath
import pytest

from countdp.harness.claims import checks_in

IDS = ["sec5.1.conv", "sec5.1.limit_c", "sec5.1.c_equals_r", "eq13"]


def test_script_declares_the_section_5_1_claims(check_script):
    specs = checks_in(check_script("sec5_1_rate"))
    assert [s.id for s in specs] == IDS
    assert all(s.certificates for s in specs)


@pytest.mark.parametrize("claim_id", IDS)
def test_claim_passes_quick_and_is_certified(run_claim, claim_id):
    res = run_claim(claim_id, quick=True, certify=True)
    assert res.status == "pass", (res.reason, res.error)
    assert res.controls and all(ctl.rejected for ctl in res.controls)
    assert len(res.routes) >= 2
    assert res.certified["certified"] and res.certified["records"] == res.certified["proved"] > 0


def test_remainder_over_power_keeps_relative_accuracy(check_script):
    mod = check_script("sec5_1_rate")
    with mpmath.workdps(30):
        r = mpmath.mpf("1e-5")
        x = mod.remainder_over_power(r, 3)
        with mpmath.workdps(80):
            ref = (mpmath.sqrt(2) * mpmath.erfinv(r) - r * mpmath.sqrt(mpmath.pi / 2)) / r ** 3
        assert abs(x - ref) < 1e-25
