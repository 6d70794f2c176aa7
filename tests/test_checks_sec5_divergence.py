"""The Section 5 checks (paper_checks/sec5_divergence.py): every claim passes in quick mode with its
controls rejected, and the certificates are proved."""

from __future__ import annotations

import pytest

from countdp.arb.verdicts import Verdict
from countdp.harness.certificates import run_certificates
from countdp.harness.claims import checks_in

CLAIMS = ["eq10", "eq11", "eq12", "sec5.post", "sec5.mono", "sec5.product"]


def test_claim_ids_are_the_assigned_ones(check_script):
    assert [s.id for s in checks_in(check_script("sec5_divergence"))] == CLAIMS


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
