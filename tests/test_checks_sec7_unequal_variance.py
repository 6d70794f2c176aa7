"""Tests of paper_checks/sec7_unequal_variance.py: the claims pass in quick mode with every
control rejected, and the figure is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from countdp.harness.claims import checks_in
from countdp.harness.results import Settings

IDS = ["lem7.1", "sec7.boundary", "eq35"]


def test_claim_ids_are_the_assigned_ones(check_script):
    assert [s.id for s in checks_in(check_script("sec7_unequal_variance"))] == IDS


@pytest.mark.parametrize("claim_id", IDS)
def test_checks_pass_in_quick_mode_with_every_control_rejected(run_claim, claim_id):
    res = run_claim(claim_id)
    assert res.status == "pass", (claim_id, res.reason, res.error)
    assert res.controls and all(ctl.rejected for ctl in res.controls), claim_id
    assert len(res.routes) >= 2


def test_figures_are_written(check_script, tmp_path):
    s = Settings(quick=True, figures_dir=str(tmp_path))
    paths = check_script("sec7_unequal_variance").figures(s)
    assert all(Path(p).is_file() for p in paths)
    assert Path(paths[0]).stat().st_size > 0
