"""Tests of paper_checks/sec6_group_privacy.py (Section 6, Lemma 6.1): the claim it declares, with
a certificate, the linear group privacy of the control is rejected directly, and the named
transcription fault is caught (it makes its claim fail by a case, in quick mode).  That the claim
passes in quick mode with its certificates proved is tested once, in test_checks_all_claims.py."""

import pytest

from countdp import formulas
from countdp.divergence.renyi import renyi
from countdp.harness.claims import checks_in
from countdp.harness.results import holds
from countdp.laws import Gaussian


def test_script_declares_its_claim_and_certificate(check_script):
    specs = checks_in(check_script("sec6_group_privacy"))
    assert [s.id for s in specs] == ["lem6.1"]
    assert all(s.certificates for s in specs)
    assert all(len(s.routes) >= 2 for s in specs)


def test_control_linear_group_privacy_is_rejected():
    rho = formulas.renyi_equal_variance(1, 0, 0.25, 1.0)
    d = renyi(Gaussian(0, 1.0), Gaussian(0.75, 1.0), 2.0, method="quadrature")
    assert holds(d.value, "<=", 2 * 9 * rho, d.error)       # the lemma: alpha k^2 rho
    assert not holds(d.value, "<=", 2 * 3 * rho, d.error)   # the perturbed claim: alpha k rho


#: the named transcription fault of this claim
NAMED = [("lem6.1", "alpha k rho for alpha k^2 rho (linear group privacy)")]


@pytest.mark.parametrize("claim_id,name", NAMED, ids=[n for _, n in NAMED])
def test_named_fault_is_caught_by_a_case(claim_id, name, run_with_fault):
    res = run_with_fault("sec6_group_privacy", claim_id, name)
    assert res.status == "fail", (res.status, res.reason, res.error)
    assert "case" in res.reason
