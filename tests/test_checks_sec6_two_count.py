"""Tests of paper_checks/sec6_two_count.py (Section 6, two counts): the claims it declares, each
with a certificate, the linear group privacy of the control is rejected directly, and its
mechanisms are admissible.  That every claim passes in quick mode with its certificates proved
is tested once, in test_checks_all_claims.py."""


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
