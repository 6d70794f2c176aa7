"""Tests of paper_checks/cstar_airy.py: the claims it declares, the records of its certificate,
and the comparisons its negative controls rely on.  That every claim passes in quick mode is
tested once, in test_checks_all_claims.py."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from countdp import formulas
from countdp.divergence.tight_rho import tight_rho
from countdp.harness import results
from countdp.harness.claims import checks_in
from countdp.laws import airy
from countdp.laws.generalised_gaussian import GeneralisedGaussian
from countdp.mechanisms.airy import AiryLogMechanism
from countdp.numerics.sequences import richardson

CLAIMS = ["cstar.airy.constants", "cstar.airy.subgaussian", "cstar.airy.utility", "cstar.airy.budget",
          "cstar.airy.limit", "cstar.airy.vs_gaussian"]


pytestmark = pytest.mark.mp_dps(30)


def test_all_claims_declared(check_script):
    assert [s.id for s in checks_in(check_script("cstar_airy"))] == CLAIMS


def test_constants_certificate(check_spec, certify):
    assert len(check_spec("cstar.airy.constants").certificates) == 1
    cert = certify("cstar.airy.constants")
    assert not cert.errors and cert.certified and len(cert.records) == 2
    assert [r.name for r in cert.records] == ["a1' (first zero of Ai')", "8|a1'|^3/27 < 1/pi"]


def test_perturbed_limit_is_rejected_directly():
    # the limit claim's comparison: the extrapolated r-sequence against 1/pi must fail
    I = airy.airy_constants(30).fisher
    rs = [mpmath.mpf(10) ** -k for k in (3, 4, 5, 6)]
    Ls = []
    for r in rs:
        b = AiryLogMechanism(r * (1 - r), r, r=r).mp_b()
        Ls.append(r ** 2 * I / (2 * b ** 2))
    ext = richardson(rs, Ls, [1, 2, 3])
    assert results.holds(ext.value, "==", formulas.airy_limit_constant(), ext.error + mpmath.mpf("1e-20"))
    assert not results.holds(ext.value, "==", 1 / mpmath.pi, ext.error + mpmath.mpf("1e-20"))


def test_super_gaussian_law_is_caught_by_the_scan_comparison():
    res = tight_rho((GeneralisedGaussian(4), GeneralisedGaussian(4, 0.5)), alpha_max=100, points_per_decade=4)
    mx = max(float(np.max(d.ratios)) for d in res.directions)
    assert not results.holds(mx, "<=", res.kl_max, 1e-12)


# ---- fault catalogue -----------------------------------------------------------------------

NAMED_FAULTS = {
    "cstar.airy.constants": ["8|a1'|^3/9 for 8|a1'|^3/27", "8|a1'|^2/27 for 8|a1'|^3/27",
                             "a1 (first zero of Ai) for a1' (first zero of Ai')",
                             "Fisher information I = 4|a1'|/3 off by 1 %",
                             "mean absolute value m = 2|a1'|/3 off by 1 %"],
    "cstar.airy.subgaussian": ["K_s(u) <= I u^2/4 (I/4 for I/2)"],
    "cstar.airy.utility": ["utility bound r0 n (c dropped from r0 (n+c)/(1+c))",
                           "drift t = +b q (the tilted-median condition with the wrong sign)"],
    "cstar.airy.budget": ["log gap log((n+c)/(n+c-1)) read as log((n+1+c)/(n+c)) (n+c for n-1+c)"],
    "cstar.airy.vs_gaussian": ["8 |a1'|^3/27 for 8 pi |a1'|^3/27 (pi dropped)"],
}


def _fault_outcomes(module, names):
    """Each named fault of ``module`` run on its claim (quick mode, in a forked process, as
    ``countdp faults`` runs it): name -> FaultOutcome."""
    from countdp.harness import fault_runs
    from countdp.harness.faults import faults_in

    settings = results.Settings(quick=True, stop_at_first_failure=True)
    found = {f.name: i for i, f in enumerate(faults_in(module))}
    assert set(names) <= set(found), set(names) - set(found)
    return {n: fault_runs._fault_task(module.__file__, found[n], settings) for n in names}


def test_the_named_faults_are_caught(check_script):
    names = [n for ns in NAMED_FAULTS.values() for n in ns]
    for name, o in _fault_outcomes(check_script("cstar_airy"), names).items():
        assert o.caught and o.how == "case", (name, o.how, o.detail)


def test_constants_certificate_is_an_instance(check_spec):
    # the certificate encloses a1' and the value of 8|a1'|^3/27, not the identities m^2 I/2 = ...
    specs = [c.__countdp_certificate__ for c in check_spec("cstar.airy.constants").certificates]
    assert [c.scope for c in specs] == ["instance"]


def test_subgaussian_certificate_proves_the_claim(check_spec, certify):
    specs = [c.__countdp_certificate__ for c in check_spec("cstar.airy.subgaussian").certificates]
    assert [c.scope for c in specs] == ["claim"]
    cert = certify("cstar.airy.subgaussian")
    assert not cert.errors and cert.certified and cert.proof
    names = [r.name for r in cert.records]
    assert names[1:3] == ["score moment k = 1", "score moment k = 2"] and "score moments k >= 7" in names
    assert sum(n.startswith("K_s(") for n in names) == 4


def test_subgaussian_certificate_disproves_a_weaker_bound_formula(check_script, certify, monkeypatch):
    # the library's bound formula I u^2/2 halved: the certified lower end of K_s(u) lies above it
    monkeypatch.setattr(formulas.airy_score_cgf_bound, "body",
                        lambda ctx, u, a1p=None: formulas.airy_fisher(ctx, a1p) * ctx.convert(u) ** 2 / 4)
    cert = certify("cstar.airy.subgaussian")
    assert [r.name for r in cert.disproved][:1] == ["K_s(0.5) < airy_score_cgf_bound(0.5)"]
