"""Tests of paper_checks/sec6_many_count.py: its claims pass in quick mode with their negative
controls rejected, and the certified ones prove every record."""

import mpmath
import pytest

from countdp import formulas
from countdp.divergence.information import differential_entropy
from countdp.harness.claims import checks_in
from countdp.harness.results import holds
from countdp.laws.moments import law_moments
from countdp.laws.reference import Uniform

IDS = ["lem6.3", "thm6.4", "cor6.5", "lem6.6", "cor6.7"]
CERTIFIED = {"lem6.3", "cor6.5", "cor6.7"}


def test_script_declares_its_claims_and_certificates(check_script):
    specs = checks_in(check_script("sec6_many_count"))
    assert [s.id for s in specs] == IDS
    assert {s.id for s in specs if s.certificates} == CERTIFIED
    assert all(len(s.routes) >= 2 for s in specs)


@pytest.mark.parametrize("claim_id", IDS)
def test_claim_passes_in_quick_mode(run_claim, claim_id):
    res = run_claim(claim_id, quick=True, certify=claim_id in CERTIFIED)
    assert res.status == "pass", (claim_id, res.reason, res.error, [c.to_json() for c in res.cases if not c.ok])
    assert res.controls and all(ctl.rejected for ctl in res.controls), claim_id
    if claim_id in CERTIFIED:
        assert res.certified["certified"] and res.certified["records"] == res.certified["proved"] > 0


def test_control_uniform_prior_does_not_reach_pi_over_4e2():
    with mpmath.workdps(30):
        h = differential_entropy(Uniform(-1, 1))
        m = law_moments(Uniform(-1, 1))
        q = formulas.prior_coefficient(h.value, m.variance)
        assert abs(q - formulas.uniform_prior_constant()) < 1e-20
        assert not holds(q, "==", formulas.gaussian_prior_constant(), mpmath.mpf(10) ** -20)
