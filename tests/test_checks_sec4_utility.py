"""The Section 4 checks (paper_checks/sec4_utility.py): every claim passes in quick mode with its
controls rejected, the certificates are proved, and the mean-one drift is rejected directly."""

from __future__ import annotations

import mpmath
import pytest

from countdp import formulas
from countdp.arb.verdicts import Verdict
from countdp.harness.certificates import run_certificates
from countdp.harness.claims import checks_in
from countdp.harness.results import holds

CLAIMS = ["lem4.1", "eq8", "eq9"]


def test_claim_ids_are_the_assigned_ones(check_script):
    assert [s.id for s in checks_in(check_script("sec4_utility"))] == CLAIMS


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_claim_passes_quick_with_controls_rejected(claim_id, run_claim):
    res = run_claim(claim_id)
    assert res.status == "pass", (res.reason, res.error)
    assert res.controls and all(c.rejected for c in res.controls)
    assert len(res.routes) >= 2 and res.cases


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_certificates_are_proved_in_quick_mode(claim_id, check_spec):
    spec = check_spec(claim_id)
    cert = run_certificates(claim_id, spec.certificates, quick=True)
    assert spec.certificates and not cert.errors, cert.errors
    assert all(r.verdict is Verdict.PROVED_TRUE for r in cert.records)


def test_half_drift_is_rejected_by_the_lemma_4_1_comparison(check_script):
    sec4 = check_script("sec4_utility")
    with mpmath.workdps(30):
        for sigma in (0.05, 0.5, 2.0):
            good, gerr = sec4.quad_multiplicative_error(sigma)
            bad, berr = sec4.quad_multiplicative_error(sigma, drift_factor=mpmath.mpf(1) / 2)
            closed = formulas.multiplicative_error(sigma)
            assert holds(good, "==", closed, gerr + mpmath.mpf(10) ** -25)
            assert not holds(bad, "==", closed, berr + mpmath.mpf(10) ** -25)
