"""Tests of paper_checks/sec2_boundary.py: the claims pass in quick mode with every control
rejected, their certificates prove what they state, and the certificate helper rejects r < 1."""

from __future__ import annotations

from fractions import Fraction

import pytest

from countdp.arb.verdicts import Verdict
from countdp.harness.claims import checks_in

IDS = ["prop2.2a", "prop2.2b", "prop2.3"]


def test_claim_ids_are_the_assigned_ones(check_script):
    assert [s.id for s in checks_in(check_script("sec2_boundary"))] == IDS


@pytest.mark.parametrize("claim_id", IDS)
def test_checks_pass_in_quick_mode_with_every_control_rejected(run_claim, claim_id):
    res = run_claim(claim_id)
    assert res.status == "pass", (claim_id, res.reason, res.error)
    assert res.controls and all(ctl.rejected for ctl in res.controls), claim_id
    assert len(res.routes) >= 2


@pytest.mark.parametrize("claim_id", ["prop2.2b", "prop2.3"])
def test_certificates_prove_every_record(run_claim, check_spec, claim_id):
    assert check_spec(claim_id).certificates
    res = run_claim(claim_id, certify=True)
    assert res.status == "pass", (res.reason, res.error)
    assert res.certified["certified"] and res.certified["records"] == res.certified["proved"] == 1


def test_constant_release_certificate_fails_below_r_equal_one(check_script):
    mod = check_script("sec2_boundary")
    assert mod.release_meets_repaired_target(200).verdict is Verdict.PROVED_TRUE
    bad = mod.release_meets_repaired_target(200, r=Fraction(1, 2))
    assert bad.verdict is Verdict.PROVED_FALSE and bad.first_bad == 0 and bad.disproved == 201
    near = mod.release_meets_repaired_target(6000, r=Fraction(9999, 10000))
    assert near.verdict is Verdict.PROVED_FALSE and near.first_bad == 5000  # n - 1/2 < 0.9999 n iff n < 5000
