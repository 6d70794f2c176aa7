"""Tests of paper_checks/sec5_divergence.py (Section 5): the claims it declares.  That every
claim passes in quick mode with its certificates proved is tested once, in
test_checks_all_claims.py."""

from __future__ import annotations

import pytest

from countdp import formulas
from countdp.harness.claims import checks_in

CLAIMS = ["eq10", "eq11", "eq12", "sec5.post", "sec5.mono", "sec5.product"]


def test_claim_ids_are_the_assigned_ones(check_script):
    assert [s.id for s in checks_in(check_script("sec5_divergence"))] == CLAIMS


# ---- the fault catalogue -------------------------------------------------------------------

NAMED = [("eq10", "drift -sigma^2/2 in eq (10) (the mean-one drift)"),
         ("eq10", "drift -sigma^2/2 in eq (4), which eq (10) transcribes"),
         ("eq11", "alpha - 1 for alpha in eq (11)"),
         ("eq11", "eq (11) without its 2"),
         ("eq12", "alpha - 1 for alpha in eq (12)"),
         ("eq12", "eq (12) without its 2"),
         ("sec5.mono", "log(1 + 1/(n+c)) for log(1 + 1/(n-1+c))")]


@pytest.mark.parametrize("claim_id, name", NAMED)
def test_named_transcription_faults_are_caught(run_with_fault, claim_id, name):
    res = run_with_fault("sec5_divergence", claim_id, name)
    assert res.status == "fail", (claim_id, name, res.status, res.reason)


def test_eq10_monte_carlo_separates_the_two_drifts_at_every_sigma(check_script):
    """The draws of eq (10)'s Monte Carlo put the mean-one drift's mean at least SEPARATION
    standard errors away at every sigma of the full grid (the smallest is about 0.0104)."""
    import numpy as np

    sec5 = check_script("sec5_divergence")
    for quick in (True, False):
        for (_, r0, c) in sec5._grid.designs(quick):
            s = formulas.sigma.fp(r0, c)
            draws = sec5.log_count_draws(quick, s)
            assert (s * s / 2) / (s / np.sqrt(draws)) >= sec5.SEPARATION
