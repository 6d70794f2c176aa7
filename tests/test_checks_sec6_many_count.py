"""Tests of paper_checks/sec6_many_count.py (Section 6, many counts): the claims it declares and
which carry certificates, and the uniform prior of the control does not reach pi/(4e^2).  That
every claim passes in quick mode with its certificates proved is tested once, in
test_checks_all_claims.py."""

import mpmath

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


def test_control_uniform_prior_does_not_reach_pi_over_4e2():
    with mpmath.workdps(30):
        h = differential_entropy(Uniform(-1, 1))
        m = law_moments(Uniform(-1, 1))
        q = formulas.prior_coefficient(h.value, m.variance)
        assert abs(q - formulas.uniform_prior_constant()) < 1e-20
        assert not holds(q, "==", formulas.gaussian_prior_constant(), mpmath.mpf(10) ** -20)
