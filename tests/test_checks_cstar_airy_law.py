"""Tests of paper_checks/cstar_airy_law.py: the claims it declares and the records of its
certificates.  That every claim passes in quick mode is tested once, in test_checks_all_claims.py."""

from __future__ import annotations

import pytest

from countdp import formulas
from countdp.harness.claims import checks_in

CLAIMS = ["cstar.airy.constants", "cstar.airy.subgaussian"]

pytestmark = pytest.mark.mp_dps(30)


def test_all_claims_declared(check_script):
    assert [s.id for s in checks_in(check_script("cstar_airy_law"))] == CLAIMS


def test_constants_certificate(check_spec, certify):
    assert len(check_spec("cstar.airy.constants").certificates) == 1
    cert = certify("cstar.airy.constants")
    assert not cert.errors and cert.certified and len(cert.records) == 2
    assert [r.name for r in cert.records] == ["a1' (first zero of Ai')", "8|a1'|^3/27 < 1/pi"]


NAMED_FAULTS = {
    "cstar.airy.constants": ["8|a1'|^3/9 for 8|a1'|^3/27", "8|a1'|^2/27 for 8|a1'|^3/27",
                             "a1 (first zero of Ai) for a1' (first zero of Ai')",
                             "Fisher information I = 4|a1'|/3 off by 1 %",
                             "mean absolute value m = 2|a1'|/3 off by 1 %"],
    "cstar.airy.subgaussian": ["K_s(u) <= I u^2/4 (I/4 for I/2)"],
}


@pytest.mark.slow
def test_named_transcription_faults_are_caught(named_faults_caught_by_a_case):
    named_faults_caught_by_a_case("cstar_airy_law", NAMED_FAULTS)


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
