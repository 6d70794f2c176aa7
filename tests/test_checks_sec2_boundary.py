"""Tests of paper_checks/sec2_boundary.py: the claims it declares, the number of records its
certificates prove, and that the certificate helper rejects r < 1.  That every claim passes in
quick mode with its certificates proved is tested once, in test_checks_all_claims.py."""

from __future__ import annotations

from fractions import Fraction

import pytest

from countdp.arb.verdicts import Verdict
from countdp.harness.claims import checks_in

IDS = ["prop2.2a", "prop2.2b", "prop2.3"]


def test_claim_ids_are_the_assigned_ones(check_script):
    assert [s.id for s in checks_in(check_script("sec2_boundary"))] == IDS


@pytest.mark.parametrize("claim_id", ["prop2.2b", "prop2.3"])
def test_certificates_prove_one_record(certify, claim_id):
    cert = certify(claim_id)
    assert not cert.errors and cert.certified and len(cert.records) == 1


def test_constant_release_certificate_fails_below_r_equal_one(check_script):
    mod = check_script("sec2_boundary")
    assert mod.release_meets_repaired_target(200).verdict is Verdict.PROVED_TRUE
    bad = mod.release_meets_repaired_target(200, r=Fraction(1, 2))
    assert bad.verdict is Verdict.PROVED_FALSE and bad.first_bad == 0 and bad.disproved == 201
    near = mod.release_meets_repaired_target(6000, r=Fraction(9999, 10000))
    assert near.verdict is Verdict.PROVED_FALSE and near.first_bad == 5000  # n - 1/2 < 0.9999 n iff n < 5000


# --- the fault catalogue -------------------------------------------------------------------


def _faults(check_script, claim_id):
    from countdp.harness.faults import faults_in

    return [f for f in faults_in(check_script("sec2_boundary")) if f.claim == claim_id]


def test_prop22a_lists_its_uncatchable_faults_with_the_reason(check_script):
    """The literal target vanishes at n = 0 whatever its factor, sign or power: listed, not dropped."""
    kinds = {f.kind for f in _faults(check_script, "prop2.2a") if not f.catchable}
    assert kinds == {"factor", "sign", "exponent"}


@pytest.mark.parametrize("claim_id,name", [
    ("prop2.2a", "eq (2)'s r max(n, 1) for eq (1)'s r n"),
    ("prop2.2a", "r (n - 1) for r n"),
    ("prop2.2a", "eq (1) read with <= (its weak version) for <"),
    ("prop2.2b", "the weak eq (1) at 0 with eq (2)'s r max(n, 1) (E|X| <= r, not <= 0)"),
    ("prop2.3", "eq (2)'s target 0.1 % too strong"),
    ("prop2.3", "release 1 for 1/2"),
])
def test_named_faults_are_caught_by_the_cases(run_with_fault, claim_id, name):
    assert run_with_fault("sec2_boundary", claim_id, name).status != "pass"


def test_certificate_scopes(check_spec):
    for claim_id in ("prop2.2b", "prop2.3"):  # certified instances: one law, counts 0..N
        assert [f.__countdp_certificate__.scope for f in check_spec(claim_id).certificates] == ["instance"]
