"""Tests of paper_checks/sec5_divergence.py (Section 5): the claims it declares.  That every
claim passes in quick mode with its certificates proved is tested once, in
test_checks_all_claims.py."""

from __future__ import annotations

from countdp.harness.claims import checks_in

CLAIMS = ["eq10", "eq11", "eq12", "sec5.post", "sec5.mono", "sec5.product"]


def test_claim_ids_are_the_assigned_ones(check_script):
    assert [s.id for s in checks_in(check_script("sec5_divergence"))] == CLAIMS
