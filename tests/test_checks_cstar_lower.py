"""Tests of paper_checks/cstar_lower.py: each claim passes in quick mode, each negative control is
rejected, the fault catalogue covers every claim (three catchable faults of two kinds) and the named
faults are caught, and the certificates have the scope they state."""

from __future__ import annotations

import pytest

from countdp.harness import results
from countdp.harness.claims import checks_in

CLAIMS = ["cstar.lower.coupling", "cstar.lower.fibres", "cstar.lower.dirichlet", "cstar.lower.lattice",
          "cstar.lower.jensen", "cstar.lower.assembled", "cstar.value"]

pytestmark = pytest.mark.mp_dps(30)


def test_all_claims_declared(check_script):
    assert [s.id for s in checks_in(check_script("cstar_lower"))] == CLAIMS


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_claim_passes_and_its_controls_are_rejected(claim_id, run_claim):
    res = run_claim(claim_id, quick=True)
    assert res.status == "pass", (res.reason, res.error)
    assert res.controls and all(c.rejected for c in res.controls)
    assert len(res.routes) >= 2


SCOPES = {"cstar.lower.coupling": ["instance"], "cstar.lower.fibres": [], "cstar.lower.dirichlet": ["claim"],
          "cstar.lower.lattice": ["instance", "claim"], "cstar.lower.jensen": ["claim"],
          "cstar.lower.assembled": ["instance"], "cstar.value": ["instance"]}


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_certificate_scopes(claim_id, check_spec):
    assert [c.__countdp_certificate__.scope for c in check_spec(claim_id).certificates] == SCOPES[claim_id]


def test_pointwise_inequalities_are_proved(certify):
    cert = certify("cstar.lower.dirichlet")
    assert not cert.errors and cert.certified and cert.proof and len(cert.records) == 6


def test_lattice_certificate_rejects_the_bound_without_its_shift(certify):
    cert = certify("cstar.lower.lattice")
    assert not cert.errors and cert.certified
    first = cert.records[0]
    assert first.name == "dirichlet minimum, theta = 0, M = 10" and first.detail["control"] == "proved_false"


NAMED_FAULTS = ["interpolation bound over M^2 (its + 1 dropped)", "the constant 4 of the Dirichlet form off by 1 % (4.04)",
                "8|a1'|^3/27 off by 0.1 %"]


def test_the_named_faults_are_caught(check_script):
    from countdp.harness import fault_runs
    from countdp.harness.faults import faults_in

    module = check_script("cstar_lower")
    settings = results.Settings(quick=True, stop_at_first_failure=True)
    found = {}
    for i, f in enumerate(faults_in(module)):
        if f.name in NAMED_FAULTS and f.claim in ("cstar.lower.lattice", "cstar.lower.dirichlet"):
            found.setdefault(f.name, i)
    assert set(found) == set(NAMED_FAULTS)
    for name, i in found.items():
        o = fault_runs._fault_task(module.__file__, i, settings)
        assert o.caught and o.how == "case", (name, o.how, o.detail)
