"""Tests of paper_checks/sec6_priors.py (Sections 6.4-6.5, the many-count bound under the
uniform and truncated Gaussian priors): the claims it declares and which carry certificates,
the uniform prior of the control does not reach pi/(4e^2), and the named transcription faults
are caught (each makes its claim fail by a case, in quick mode).  That every claim passes in
quick mode with its certificates proved is tested once, in test_checks_all_claims.py."""

import mpmath
import pytest

from countdp import formulas
from countdp.divergence.information import differential_entropy
from countdp.harness.claims import checks_in
from countdp.harness.results import holds
from countdp.laws.moments import law_moments
from countdp.laws.reference import Uniform

IDS = ["cor6.5", "lem6.6", "cor6.7"]
CERTIFIED = {"cor6.5", "cor6.7"}


def test_script_declares_its_claims_and_certificates(check_script):
    specs = checks_in(check_script("sec6_priors"))
    assert [s.id for s in specs] == IDS
    assert {s.id for s in specs if s.certificates} == CERTIFIED
    assert all(len(s.routes) >= 2 for s in specs)


def test_control_uniform_prior_does_not_reach_pi_over_4e2():
    with mpmath.workdps(30):
        h = differential_entropy(Uniform(-1, 1))
        m = law_moments(Uniform(-1, 1))
        q = formulas.prior_coefficient(h.value, m.variance)
        assert abs(q - formulas.uniform_prior_constant()) < 1e-20
        assert not holds(q, "==", formulas.gaussian_prior_constant(), mpmath.mpf(10) ** -20)


#: the named transcription faults of these claims
NAMED = [
    ("cor6.5", "eq (23) with 12/K^2 for 12/(K^2 - 1)"), ("cor6.5", "eq (23) with K/2 for (K-1)/2"),
    ("cor6.5", "eq (25) a* = 2e^{1/2} for 2e^{3/2}"), ("cor6.5", "eq (25) 3/(2e^2) for 3/(2e^3)"),
    ("cor6.7", "eq (29) pi/(4e) for pi/(4e^2)"), ("cor6.7", "eq (31) with 8e^2 for 8e^3"),
    ("lem6.6", "eq (26) with log(S + 1) for log S"), ("lem6.6", "the O(1) of (27) bounded by 1/4 for 1/2"),
]


@pytest.mark.parametrize("claim_id,name", NAMED, ids=[n for _, n in NAMED])
def test_named_fault_is_caught_by_a_case(claim_id, name, run_with_fault):
    res = run_with_fault("sec6_priors", claim_id, name)
    assert res.status == "fail", (res.status, res.reason, res.error)
    assert "case" in res.reason
