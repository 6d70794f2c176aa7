"""Tests of paper_checks/sec4_1_drift.py (Section 4.1): the claims it declares, and the perturbed
derivatives of its controls are rejected by the check's comparison itself.  That every claim
passes in quick mode with its certificates proved is tested once, in test_checks_all_claims.py."""

from __future__ import annotations

import mpmath
import pytest

from countdp import formulas
from countdp.harness.results import holds
from countdp.mechanisms import drift

CLAIMS = ["sec4.1.deriv", "sec4.1.argmin"]


def test_claim_ids_are_the_assigned_ones(check_script):
    from countdp.harness.claims import checks_in

    assert [s.id for s in checks_in(check_script("sec4_1_drift"))] == CLAIMS


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


# ---- the fault catalogue -------------------------------------------------------------------

@pytest.mark.parametrize("claim_id, name", [("sec4.1.deriv", "the derivative with a flipped sign"),
                                            ("sec4.1.argmin", "minimiser sigma^2/2 (the mean-one drift)")])
def test_named_transcription_faults_are_caught(run_with_fault, claim_id, name):
    res = run_with_fault("sec4_1_drift", claim_id, name)
    assert res.status == "fail", (claim_id, name, res.status, res.reason)
