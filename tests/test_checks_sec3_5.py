"""The Section 3-5 checks in quick mode: every claim passes and every negative control is
rejected; the key controls are also exercised directly through the comparison code."""

import importlib.util
import pathlib

import mpmath
import pytest

from countdp import formulas
from countdp import mechanisms as M
from countdp.harness.claims import checks_in, run_check
from countdp.harness.results import Settings, holds
from countdp.divergence.renyi import renyi

CHECKS = pathlib.Path(__file__).resolve().parent.parent / "paper_checks"
SCRIPTS = ("sec3_mechanism", "sec4_utility", "sec5_divergence")


def load(name):
    spec = importlib.util.spec_from_file_location(f"countdp_checks_test.{name}", CHECKS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


SPECS = [(name, spec) for name in SCRIPTS for spec in checks_in(load(name))]


@pytest.mark.parametrize("name, spec", SPECS, ids=[s.id for _, s in SPECS])
def test_claim_passes_quick_with_controls_rejected(name, spec):
    res = run_check(spec, Settings(quick=True, certify=False))
    assert res.status == "pass", (res.reason, res.error)
    assert res.controls and all(c.rejected for c in res.controls)
    assert len(res.routes) >= 2 and res.cases


def test_section_3_5_ids_all_covered():
    ids = {spec.id for _, spec in SPECS}
    assert ids == {"eq3", "eq4", "thm3.1.i", "thm3.1.ii", "thm3.1.iii", "cor3.2", "cor3.2.round", "lem4.1",
                   "eq8", "eq9", "eq10", "eq11", "eq12", "sec5.post", "sec5.mono", "sec5.product"}


def test_half_drift_is_rejected_by_the_lemma_4_1_comparison():
    sec4 = load("sec4_utility")
    with mpmath.workdps(30):
        for sigma in (0.05, 0.5, 2.0):
            good, gerr = sec4.quad_multiplicative_error(sigma)
            bad, berr = sec4.quad_multiplicative_error(sigma, drift_factor=mpmath.mpf(1) / 2)
            closed = formulas.multiplicative_error(sigma)
            assert holds(good, "==", closed, gerr + mpmath.mpf(10) ** -25)
            assert not holds(bad, "==", closed, berr + mpmath.mpf(10) ** -25)


def test_099_budget_is_rejected_on_the_unclipped_edge():
    mech = M.ShiftedLogGaussian(0.05, 1.0, r=0.1)
    with mpmath.workdps(30):
        for n, alpha in ((1, 2), (10, 1.01), (1000, 20)):
            d = renyi(mech.unclipped_law(n - 1), mech.unclipped_law(n), alpha, method="quadrature")
            assert holds(d.value, "<=", alpha * mech.mp_v(n), d.error)
            assert not holds(d.value, "<=", alpha * mpmath.mpf("0.99") * mech.mp_v(n), d.error)


def test_a_failing_claim_is_reported_as_fail(monkeypatch):
    """Break the library's budget formula (a 0.9 factor): thm3.1.ii's released divergences now
    exceed alpha v(n) on tight edges, so the same check must fail."""
    sec3 = load("sec3_mechanism")
    spec = next(s for s in checks_in(sec3) if s.id == "thm3.1.ii")
    original = formulas.budget.body
    monkeypatch.setattr(formulas.budget, "body", lambda ctx, n, sigma, c: original(ctx, n, sigma, c) * ctx.convert("0.9"))
    res = run_check(spec, Settings(quick=True, certify=False))
    assert res.status == "fail"
