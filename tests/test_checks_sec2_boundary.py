"""Tests of paper_checks/sec2_boundary.py: the claims pass in quick mode with every control
rejected."""

from __future__ import annotations

import pytest

from countdp.harness.claims import checks_in

IDS = ["prop2.2a", "prop2.2b", "prop2.3"]


def test_claim_ids_are_the_assigned_ones(check_script):
    assert [s.id for s in checks_in(check_script("sec2_boundary"))] == IDS


@pytest.mark.parametrize("claim_id", IDS)
def test_checks_pass_in_quick_mode_with_every_control_rejected(run_claim, claim_id):
    res = run_claim(claim_id)
    assert res.status == "pass", (claim_id, res.reason, res.error)
    assert res.controls and all(ctl.rejected for ctl in res.controls), claim_id
    assert len(res.routes) >= 2
