"""Tests of paper_checks/sec4_utility.py (Section 4): the claims it declares, and the half drift is
rejected directly by the Lemma 4.1 comparison.  That every claim passes in quick mode with its
certificates proved is tested once, in test_checks_all_claims.py."""

from __future__ import annotations

import mpmath
import pytest

from countdp import formulas
from countdp.harness.claims import checks_in
from countdp.harness.results import holds

CLAIMS = ["lem4.1", "eq8", "eq9"]


def test_claim_ids_are_the_assigned_ones(check_script):
    assert [s.id for s in checks_in(check_script("sec4_utility"))] == CLAIMS


@pytest.mark.slow
def test_half_drift_is_rejected_by_the_lemma_4_1_comparison(check_script):
    sec4 = check_script("sec4_utility")
    with mpmath.workdps(30):
        for sigma in (0.05, 0.5, 2.0):
            good, gerr = sec4.quad_multiplicative_error(sigma)
            bad, berr = sec4.quad_multiplicative_error(sigma, drift_factor=mpmath.mpf(1) / 2)
            closed = formulas.multiplicative_error(sigma)
            assert holds(good, "==", closed, gerr + mpmath.mpf(10) ** -25)
            assert not holds(bad, "==", closed, berr + mpmath.mpf(10) ** -25)


# ---- the fault catalogue -------------------------------------------------------------------

NAMED = [("lem4.1", "2 Phi(sigma/2) - 1 for 2 Phi(sigma) - 1"),
         ("eq8", "eq (8) without its /2"),
         ("eq9", "(n+c) -> n in eq (9)")]


@pytest.mark.parametrize("claim_id, name", NAMED)
def test_named_transcription_faults_are_caught(run_with_fault, claim_id, name):
    res = run_with_fault("sec4_utility", claim_id, name)
    assert res.status == "fail", (claim_id, name, res.status, res.reason)
