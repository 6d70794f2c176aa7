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

def _faults(check_script):
    from countdp.harness.faults import faults_in

    return faults_in(check_script("sec4_utility"))


def test_every_claim_has_three_catchable_faults_of_two_kinds(check_script):
    faults = _faults(check_script)
    assert {f.claim for f in faults} == set(CLAIMS)
    for claim_id in CLAIMS:
        catchable = [f for f in faults if f.claim == claim_id and f.catchable]
        assert len(catchable) >= 3 and len({f.kind for f in catchable}) >= 2, claim_id
    assert all(f.reason for f in faults if not f.catchable)


NAMED = [("lem4.1", "2 Phi(sigma/2) - 1 for 2 Phi(sigma) - 1"),
         ("eq8", "eq (8) without its /2"),
         ("eq9", "(n+c) -> n in eq (9)")]


@pytest.mark.parametrize("claim_id, name", NAMED)
def test_the_faults_the_issue_names_are_caught(check_script, run_claim, claim_id, name):
    flt = next(f for f in _faults(check_script) if f.claim == claim_id and f.name == name)
    with flt.applied():
        res = run_claim(claim_id, quick=True, certify=False, stop_at_first_failure=True)
    assert res.status == "fail", (claim_id, name, res.status, res.reason)
