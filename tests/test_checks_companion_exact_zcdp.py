"""Tests of paper_checks/companion_exact_zcdp.py: the claims it declares, the k-RR finding (the
maximiser leaves alpha -> 1 beyond k = 6), and the comparisons its negative controls rely on.
That every claim passes in quick mode is tested once, in test_checks_all_claims.py."""

from __future__ import annotations

import mpmath
import pytest

from countdp import formulas
from countdp.divergence.tight_rho import tight_rho
from countdp.harness.results import holds
from countdp.mechanisms import epsilon_dp

CLAIMS = ["hm.laplace", "hm.discrete_laplace", "hm.krr", "hm.rappor", "hm.bounded_range"]


pytestmark = pytest.mark.mp_dps(30)


def test_controls_are_rejected_directly():
    # the perturbed claims rho* = eps^2/2 and (Laplace) eps^2/8 fail the very comparison used
    r = tight_rho(epsilon_dp.laplace_pair(1.0))
    assert holds(r.value, "==", formulas.laplace_kl(1.0), r.width)
    assert not holds(r.value, "==", mpmath.mpf(1) / 2, r.width)
    assert not holds(r.value, "==", mpmath.mpf(1) / 8, r.width)
    k = tight_rho(epsilon_dp.krr_pair(0.5, 10))
    assert not holds(k.value, "==", formulas.krr_kl(0.5, 10), k.width)   # KL not tight beyond k = 6


def test_the_script_declares_every_claim(check_script):
    from countdp.harness.claims import checks_in

    assert [s.id for s in checks_in(check_script("companion_exact_zcdp"))] == CLAIMS


@pytest.mark.slow
def test_krr_maximiser_moves_off_alpha_one_from_k_7(run_claim):
    # the k-RR findings report a finite maximiser beyond k = 6
    res = run_claim("hm.krr")
    moved = [f for f in res.findings if f.get("alpha_star") not in (None, "alpha -> 1") and "k" in f]
    assert moved and min(f["k"] for f in moved) == 7


# ---- fault catalogue -----------------------------------------------------------------------

NAMED_FAULTS = {
    "hm.laplace": ["eps + e^-eps (the - 1 dropped)", "eps - e^-eps + 1 (signs of the last two terms flipped)",
                   "Mironov's D_alpha divided by alpha instead of alpha - 1"],
    "hm.discrete_laplace": ["cosh(a) for sinh(a) in the KL"],
    "hm.krr": ["P(true value) = e^eps/(e^eps + k) (k for k - 1)", "the claim's range stated as k <= 7"],
    "hm.rappor": ["eps tanh(eps/2) for eps tanh(eps/4)"],
    "hm.bounded_range": ["eta/2 for eta in the closed form"],
}


@pytest.mark.slow
def test_the_named_faults_are_caught(named_faults_caught_by_a_case):
    outcomes = named_faults_caught_by_a_case("companion_exact_zcdp", NAMED_FAULTS)
    # the extended range is caught by the engine's finding that k = 7 moves the sup off alpha -> 1
    assert "where the sup sits" in outcomes["the claim's range stated as k <= 7"].detail


# ---- certificates ----------------------------------------------------------------------------

SCOPES = {"hm.laplace": ["claim"], "hm.discrete_laplace": ["instance"], "hm.krr": ["claim"],
          "hm.rappor": ["claim"], "hm.bounded_range": ["instance"]}


def test_certificate_scopes(check_spec):
    for cid, scopes in SCOPES.items():
        assert [c.__countdp_certificate__.scope for c in check_spec(cid).certificates] == scopes, cid


@pytest.mark.parametrize("cid", ["hm.laplace", "hm.krr", "hm.rappor"])
def test_the_certificates_prove_the_claims(cid, certify):
    cert = certify(cid)
    assert not cert.errors and cert.certified and cert.proof, cert.summary()
    assert "nonincreasing" in cert.records[0].name


def test_the_discrete_laplace_certificate_covers_every_delta_of_the_grid(certify, check_script):
    cert = certify("hm.discrete_laplace")
    assert cert.certified and not cert.proof
    deltas = [r.detail["N1"] for r in cert.records if "N1" in r.detail]
    assert len(deltas) == len(check_script("companion_exact_zcdp").DELTAS)


def test_a_krr_range_beyond_six_is_disproved_by_the_certificate(check_script, certify, monkeypatch):
    monkeypatch.setattr(check_script("companion_exact_zcdp"), "KRR_K_MAX", 7)
    cert = certify("hm.krr")
    assert [r.name for r in cert.disproved] == ["k = 7: the KL is the tight rho for every eps > 0"]
    assert cert.disproved[0].detail["eps"] == "0.01"


def test_a_miscopied_kl_is_disproved_by_the_certificate(certify, monkeypatch):
    monkeypatch.setattr(formulas.laplace_kl, "body", lambda ctx, eps: ctx.convert(eps) + ctx.exp(-ctx.convert(eps)))
    cert = certify("hm.laplace")
    assert cert.disproved and all(r.name.startswith("Laplace eps =") for r in cert.disproved)
