"""Tests of paper_checks/cstar_lower_lattice.py (the C* lower bound, steps 4-7, and C*): the
certificates have the scope they state, and the named transcription faults are caught by a case.
That every claim passes in quick mode with its controls rejected is tested once, in
test_checks_all_claims.py."""

from __future__ import annotations

import pytest

from countdp.harness.claims import checks_in

CLAIMS = ["cstar.lower.lattice", "cstar.lower.jensen", "cstar.lower.assembled", "cstar.value"]

pytestmark = pytest.mark.mp_dps(30)


def test_all_claims_declared(check_script):
    assert [s.id for s in checks_in(check_script("cstar_lower_lattice"))] == CLAIMS


SCOPES = {"cstar.lower.lattice": ["instance", "claim", "claim"], "cstar.lower.jensen": ["claim"],
          "cstar.lower.assembled": ["instance"], "cstar.value": ["instance", "claim"]}


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_certificate_scopes(claim_id, check_spec):
    assert [c.__countdp_certificate__.scope for c in check_spec(claim_id).certificates] == SCOPES[claim_id]


def test_lattice_certificate_rejects_the_bound_without_its_shift(certify):
    cert = certify("cstar.lower.lattice")
    assert not cert.errors and cert.certified
    first = cert.records[0]
    assert first.name == "dirichlet minimum, theta = 0, M = 10" and first.detail["control"] == "proved_false"


NAMED = [("cstar.lower.lattice", "interpolation bound over M^2 (its + 1 dropped)"),
         ("cstar.lower.lattice", "(1 - E/6) for (1 - E/6)^3 in the interpolation bound"),
         ("cstar.lower.lattice", "8|a1'|^3/27 off by 0.1 %")]


@pytest.mark.parametrize("claim_id, name", NAMED)
def test_named_transcription_faults_are_caught(run_with_fault, claim_id, name):
    res = run_with_fault("cstar_lower_lattice", claim_id, name)
    assert res.status == "fail" and "case" in res.reason, (claim_id, name, res.status, res.reason)


@pytest.mark.parametrize("theta", [0.0, 0.25])
def test_the_interpolant_of_one_site_is_a_tent(check_script, theta):
    """psi = 1 at the single site x = theta, 0 beyond: the tent 1 - |x - theta| on [theta - 1, theta + 1],
    with int psi'^2 = 2, int psi^2 = 2/3 and int |x| psi^2 = 1/6 at theta = 0 (the cubic integrand
    on both sides of 0); at theta = 1/4 the part left of 0 is integrated apart:
    int |x| (1 - |x - 1/4|)^2 over [-3/4, 5/4] = 337/1536 (exact, piece by piece)."""
    import numpy as np
    from countdp.laws.lattice import LatticeLaw

    energy, mass, first = check_script("cstar_lower_lattice").interpolant_moments(LatticeLaw(theta, 0, np.zeros(1)))
    assert energy == pytest.approx(2, rel=1e-15, abs=0) and mass == pytest.approx(2 / 3, rel=1e-15, abs=0)
    assert first == pytest.approx(1 / 6 if theta == 0 else 337 / 1536, rel=1e-14, abs=0)
