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


@pytest.mark.parametrize("claim_id", IDS)
def test_every_claim_has_three_catchable_faults_of_two_kinds(check_script, claim_id):
    faults = _faults(check_script, claim_id)
    catchable = [f for f in faults if f.catchable]
    assert len(catchable) >= 3 and len({f.kind for f in catchable}) >= 2
    assert all(f.reason for f in faults if not f.catchable)


def test_prop22a_lists_its_uncatchable_faults_with_the_reason(check_script):
    """The literal target vanishes at n = 0 whatever its factor, sign or power: listed, not dropped."""
    kinds = {f.kind for f in _faults(check_script, "prop2.2a") if not f.catchable}
    assert kinds == {"factor", "sign", "exponent"}


def _caught(check_script, run_claim, monkeypatch, claim_id, name) -> bool:
    """Run the claim (quick, no certificates) with the named fault applied; True when it fails."""
    import sys

    mod = check_script("sec2_boundary")
    monkeypatch.setitem(sys.modules, mod.__name__, mod)  # set_attribute(__name__, ...) patches this module
    (flt,) = [f for f in _faults(check_script, claim_id) if f.name == name]
    with flt.applied():
        res = run_claim(claim_id, quick=True, certify=False, stop_at_first_failure=True)
    return res.status != "pass"


@pytest.mark.parametrize("claim_id,name", [
    ("prop2.2a", "eq (2)'s r max(n, 1) for eq (1)'s r n"),
    ("prop2.2a", "r (n - 1) for r n"),
    ("prop2.2a", "eq (1) read with <= (its weak version) for <"),
    ("prop2.2b", "the weak eq (1) at 0 with eq (2)'s r max(n, 1) (E|X| <= r, not <= 0)"),
    ("prop2.3", "eq (2)'s target 0.1 % too strong"),
    ("prop2.3", "release 1 for 1/2"),
])
def test_named_faults_are_caught_by_the_cases(check_script, run_claim, monkeypatch, claim_id, name):
    assert _caught(check_script, run_claim, monkeypatch, claim_id, name)


def test_certificate_scopes(check_spec):
    for claim_id in ("prop2.2b", "prop2.3"):  # certified instances: one law, counts 0..N
        assert [f.__countdp_certificate__.scope for f in check_spec(claim_id).certificates] == ["instance"]
