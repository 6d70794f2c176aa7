"""Tests of paper_checks/sec7_unequal_variance.py: the claims it declares, the number of records
its certificates prove, the exact eq (35) helpers (they reject a wrong threshold), and the figure.
That every claim passes in quick mode with its certificates proved is tested once, in
test_checks_all_claims.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from countdp import formulas
from countdp.arb.verdicts import Verdict
from countdp.harness.claims import checks_in
from countdp.harness.results import Settings

IDS = ["lem7.1", "sec7.boundary", "eq35"]


def test_claim_ids_are_the_assigned_ones(check_script):
    assert [s.id for s in checks_in(check_script("sec7_unequal_variance"))] == IDS


@pytest.mark.parametrize("claim_id,records", [("lem7.1", 7), ("sec7.boundary", 2), ("eq35", 1)])
def test_certificates_prove_every_record(certify, claim_id, records):
    cert = certify(claim_id)
    assert not cert.errors and cert.certified and len(cert.records) == records


def test_eq35_exact_helpers(check_script):
    mod = check_script("sec7_unequal_variance")
    assert mod.margin_vanishes_at_threshold(500).verdict is Verdict.PROVED_TRUE
    assert mod.threshold_identity() is Verdict.PROVED_TRUE


def test_rational_functions_tell_an_identity_from_a_wrong_threshold(check_script):
    """The symbolic number system of the identity: the margin at the wrong (n+1)^2/(2n) is not 0."""
    mod = check_script("sec7_unequal_variance")
    ctx = mod._RationalFunctionsOfN()
    n = ctx.variable()
    right = formulas.gaussian_renyi_margin(ctx, formulas.unequal_variance_threshold(ctx, n), n + 1, n)
    wrong = formulas.gaussian_renyi_margin(ctx, (n + 1) ** 2 / (2 * n), n + 1, n)
    assert right.is_zero() and not wrong.is_zero()
    with pytest.raises(ZeroDivisionError):
        n / (n - n)


def test_figures_are_written(check_script, tmp_path):
    s = Settings(quick=True, figures_dir=str(tmp_path))
    paths = check_script("sec7_unequal_variance").figures(s)
    assert all(Path(p).is_file() for p in paths)
    assert Path(paths[0]).stat().st_size > 0
