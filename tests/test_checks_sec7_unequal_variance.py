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


# --- the fault catalogue -------------------------------------------------------------------


@pytest.mark.parametrize("claim_id,name", [
    ("lem7.1", "eq (34) with s_P and s_Q swapped: alpha s_P^2 + (1-alpha) s_Q^2"),
    ("lem7.1", "finite iff the margin of eq (34) is >= 0 (the equality case taken as finite)"),
    ("lem7.1", "D without its log(s_Q^2/s_a^2)/(2(alpha-1)) term"),
    ("lem7.1", "D with log(s_Q^2/s_a^2)/2: the 1/(alpha-1) factor dropped"),
    ("sec7.boundary", "X_0 = delta_1 (the edge's other end) for delta_0"),
    ("sec7.boundary", "P(X_1 > 0) taken as 0 (X_1 read as the point mass at 0)"),
    ("eq35", "(n+1)^2/(2n-1) for (n+1)^2/(2n+1)"),
    ("eq35", "finite iff alpha <= (n+1)^2/(2n+1) (the threshold itself taken as finite)"),
])
def test_named_faults_are_caught_by_the_cases(run_with_fault, claim_id, name):
    """The claim (quick, no certificates) fails with the fault applied."""
    assert run_with_fault("sec7_unequal_variance", claim_id, name).status != "pass"


@pytest.mark.slow
def test_engine_just_above_and_densities_just_beside_the_threshold(run_claim):
    """lem7.1's exact cases at alpha* and 2^-40 beside it are there (and hold)."""
    res = run_claim("lem7.1", quick=True)
    routes = [c.route for c in res.cases]
    assert sum("2^-40 below alpha*" in r for r in routes) == 1
    assert sum("2^-40 above alpha*" in r for r in routes) == 2  # densities and the engine
    assert res.status == "pass"


def test_certificate_scopes(check_spec):
    scopes = {cid: [f.__countdp_certificate__.scope for f in check_spec(cid).certificates] for cid in IDS}
    assert scopes == {"lem7.1": ["instance", "instance"], "sec7.boundary": ["instance"], "eq35": ["claim"]}
