"""The Section 4.1 checks (paper_checks/sec4_1_drift.py): quick mode passes with every control
rejected, the controls are rejected by the comparison itself, and the certificates are proved."""

from __future__ import annotations

import mpmath
import pytest

from countdp import formulas
from countdp.arb.verdicts import Verdict
from countdp.harness.certificates import run_certificates
from countdp.harness.results import holds
from countdp.mechanisms import drift

CLAIMS = ["sec4.1.deriv", "sec4.1.argmin"]


def test_claim_ids_are_the_assigned_ones(check_script):
    from countdp.harness.claims import checks_in

    assert [s.id for s in checks_in(check_script("sec4_1_drift"))] == CLAIMS


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_check_passes_in_quick_mode_with_every_control_rejected(claim_id, run_claim):
    res = run_claim(claim_id)
    assert res.status == "pass", (res.reason, res.error)
    assert res.controls and all(ctl.rejected for ctl in res.controls)
    assert len(res.routes) >= 2


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_certificates_are_proved_in_quick_mode(claim_id, check_spec):
    spec = check_spec(claim_id)
    cert = run_certificates(claim_id, spec.certificates, quick=True)
    assert spec.certificates and not cert.errors, cert.errors
    assert all(r.verdict is Verdict.PROVED_TRUE for r in cert.records)


def test_drift_control_formula_is_rejected(check_script):
    """The perturbed derivative (kink of the mean-one drift) fails the check's comparison."""
    mod = check_script("sec4_1_drift")
    with mpmath.workdps(30):
        s = mpmath.mpf(1)
        a = mpmath.mpf(2)
        d = drift.drift_derivative_numeric(s, a)
        assert holds(d.value, "==", formulas.drift_error_derivative(s, a), d.error)
        assert not holds(d.value, "==", mod._wrong_mean_one(s, a), d.error)
        assert not holds(d.value, "==", mod._wrong_no_two(s, a), d.error)
