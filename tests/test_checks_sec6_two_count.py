"""Tests of paper_checks/sec6_two_count.py: its claims pass in quick mode with their negative
controls rejected, and their certificates are declared beside them and prove every record."""

import pytest

from countdp import formulas
from countdp.divergence.renyi import renyi
from countdp.harness.claims import checks_in
from countdp.harness.results import holds
from countdp.laws import Gaussian

IDS = ["lem6.1", "prop6.2", "prop6.2.steps"]


def test_script_declares_its_claims_and_certificates(check_script):
    specs = checks_in(check_script("sec6_two_count"))
    assert [s.id for s in specs] == IDS
    assert all(s.certificates for s in specs)
    assert all(len(s.routes) >= 2 for s in specs)


@pytest.mark.parametrize("claim_id", IDS)
def test_claim_passes_and_certifies_in_quick_mode(run_claim, claim_id):
    res = run_claim(claim_id, quick=True, certify=True)
    assert res.status == "pass", (claim_id, res.reason, res.error, [c.to_json() for c in res.cases if not c.ok])
    assert res.controls and all(ctl.rejected for ctl in res.controls), claim_id
    assert res.certified["certified"] and res.certified["records"] == res.certified["proved"] > 0


def test_control_linear_group_privacy_is_rejected():
    rho = formulas.renyi_equal_variance(1, 0, 0.25, 1.0)
    d = renyi(Gaussian(0, 1.0), Gaussian(0.75, 1.0), 2.0, method="quadrature")
    assert holds(d.value, "<=", 2 * 9 * rho, d.error)       # the lemma: alpha k^2 rho
    assert not holds(d.value, "<=", 2 * 3 * rho, d.error)   # the perturbed claim: alpha k rho


def test_mechanisms_are_admissible_and_distinct(check_script):
    mechs = check_script("sec6_two_count").mechanisms(0.1)
    assert len(mechs) == 3
    for mech in mechs.values():
        assert mech.r0 < 0.1
