"""Tests of paper_checks/sec3_mechanism.py (Section 3): the claims it declares, the 0.99 budget
the controls use is rejected on the unclipped edge, and a broken budget formula makes a claim
fail.  That every claim passes in quick mode with its certificates proved is tested once, in
test_checks_all_claims.py."""

from __future__ import annotations

import mpmath
import pytest

from countdp import formulas
from countdp.divergence.renyi import renyi
from countdp.harness.claims import checks_in
from countdp.harness.results import holds
from countdp.mechanisms import ShiftedLogGaussian

CLAIMS = ["eq3", "eq4", "thm3.1.i", "thm3.1.ii", "thm3.1.iii", "cor3.2", "cor3.2.round"]


def test_claim_ids_are_the_assigned_ones(check_script):
    assert [s.id for s in checks_in(check_script("sec3_mechanism"))] == CLAIMS


def test_099_budget_is_rejected_on_the_unclipped_edge():
    mech = ShiftedLogGaussian(0.05, 1.0, r=0.1)
    with mpmath.workdps(30):
        for n, alpha in ((1, 2), (10, 1.01), (1000, 20)):
            d = renyi(mech.unclipped_law(n - 1), mech.unclipped_law(n), alpha, method="quadrature")
            assert holds(d.value, "<=", alpha * mech.mp_v(n), d.error)
            assert not holds(d.value, "<=", alpha * mpmath.mpf("0.99") * mech.mp_v(n), d.error)


@pytest.mark.slow
def test_a_failing_claim_is_reported_as_fail(monkeypatch, run_claim):
    """Break the library's budget formula (a 0.9 factor): thm3.1.ii's released divergences now
    exceed alpha v(n) on tight edges, so the same check must fail."""
    original = formulas.budget.body
    monkeypatch.setattr(formulas.budget, "body", lambda ctx, n, sigma, c: original(ctx, n, sigma, c) * ctx.convert("0.9"))
    res = run_claim("thm3.1.ii")
    assert res.status == "fail"


# ---- the fault catalogue -------------------------------------------------------------------

NAMED = [("eq3", "2(1+c) -> (1+c) in eq (3)"),
         ("eq4", "drift -sigma^2/2 in eq (4) (the mean-one drift)"),
         ("thm3.1.ii", "eq (5) off by a factor 2 (as stated)"),
         ("thm3.1.ii", "v(0) = v(1) of the budget twice too strong"),
         ("thm3.1.ii", "eq (6) with n-1+c -> n+c"),
         ("cor3.2.round", "conditional mean y + 0.01"),
         ("cor3.2.round", "floor and ceil probabilities swapped")]


@pytest.mark.parametrize("claim_id, name", NAMED)
def test_named_transcription_faults_are_caught(run_with_fault, claim_id, name):
    res = run_with_fault("sec3_mechanism", claim_id, name)
    assert res.status == "fail", (claim_id, name, res.status, res.reason)


def test_the_pathwise_route_alone_rejects_the_mean_one_drift(check_script):
    """eq (4)'s pathwise comparison separates the drift -sigma^2/2 from the law at the smallest
    sigma of the grid by 10^8 times its tolerance (no Monte Carlo margin involved)."""
    from countdp.harness.results import Settings

    sec3 = check_script("sec3_mechanism")

    class Check:
        rng = Settings().rng
    mech = ShiftedLogGaussian(0.05, 1.0, r=0.1)
    wrong = ShiftedLogGaussian(0.05, 1.0, r=0.1, drift_factor=0.5)
    with mpmath.workdps(30):
        assert sec3._pathwise_gap(Check, mech, mech.released_law(10), 10) <= sec3.PATHWISE_TOL
        assert sec3._pathwise_gap(Check, wrong, mech.released_law(10), 10) > 1e8 * sec3.PATHWISE_TOL
