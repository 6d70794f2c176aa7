"""Tests of paper_checks/cstar_lower_coupling.py (the C* lower bound, steps 1-3): the certificates
have the scope they state, and the named transcription fault is caught by a case.  That every
claim passes in quick mode with its controls rejected is tested once, in test_checks_all_claims.py."""

from __future__ import annotations

import pytest

from countdp.harness.claims import checks_in

CLAIMS = ["cstar.lower.coupling", "cstar.lower.fibres", "cstar.lower.dirichlet"]

pytestmark = pytest.mark.mp_dps(30)


def test_all_claims_declared(check_script):
    assert [s.id for s in checks_in(check_script("cstar_lower_coupling"))] == CLAIMS


SCOPES = {"cstar.lower.coupling": ["instance"], "cstar.lower.fibres": [], "cstar.lower.dirichlet": ["claim"]}


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_certificate_scopes(claim_id, check_spec):
    assert [c.__countdp_certificate__.scope for c in check_spec(claim_id).certificates] == SCOPES[claim_id]


def test_pointwise_inequalities_are_proved(certify):
    cert = certify("cstar.lower.dirichlet")
    assert not cert.errors and cert.certified and cert.proof and len(cert.records) == 6


NAMED = [("cstar.lower.dirichlet", "the constant 4 of the Dirichlet form off by 1 % (4.04)")]


@pytest.mark.parametrize("claim_id, name", NAMED)
def test_named_transcription_faults_are_caught(run_with_fault, claim_id, name):
    res = run_with_fault("cstar_lower_coupling", claim_id, name)
    assert res.status == "fail" and "case" in res.reason, (claim_id, name, res.status, res.reason)
