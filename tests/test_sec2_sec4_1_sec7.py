"""Tests of countdp.baselines and of the checks of Sections 2, 4.1 and 7."""

from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from countdp.mechanisms import baselines as B
from countdp import formulas
from countdp import mechanisms as M
from countdp.harness.claims import checks_in, run_check
from countdp.harness.results import Settings, holds
from countdp.laws import FinitePmf, Gaussian, PointMass
from countdp.divergence.renyi import gaussian_renyi, renyi

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ["sec2_boundary", "sec4_1_drift", "sec7_unequal_variance"]


@pytest.fixture(autouse=True)
def _precision():
    with mpmath.workdps(30):
        yield


def _load(name):
    spec = importlib.util.spec_from_file_location(f"_test_{name}", ROOT / "paper_checks" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _mp(q: Fraction):
    return mpmath.mpf(q.numerator) / q.denominator


# ============================================================================================
# Section 2
# ============================================================================================


def test_to_fraction_is_exact():
    assert B.to_fraction("x", 0.1) == Fraction(0.1)
    assert B.to_fraction("x", "1/3") == Fraction(1, 3)
    assert B.to_fraction("x", mpmath.mpf("0.5")) == Fraction(1, 2)
    assert B.to_fraction("x", np.int64(7)) == 7


@given(st.fractions(min_value=Fraction(-10**6), max_value=Fraction(10**6)))
@settings(max_examples=60, deadline=None)
def test_mpf_rounding_brackets_the_rational(q):
    with mpmath.workdps(30):
        up, down = B.mpf_at_least(q), B.mpf_below(q)
        assert B.to_fraction("up", up) >= q > B.to_fraction("down", down)
        # adjacent: nothing representable strictly between them except possibly q itself
        assert up - down <= 4 * mpmath.eps * max(abs(up), mpmath.mpf(2) ** -90) + mpmath.mpf(2) ** -95


def test_targets():
    assert B.literal_target(Fraction(1, 2), 0) == 0
    assert B.repaired_target(Fraction(1, 2), 0) == Fraction(1, 2)
    assert B.repaired_target(1, 7) == 7


def test_constant_release_exact_errors_and_zero_budget():
    rel = B.DataIndependentRelease()
    assert rel.exact_error(0) == Fraction(1, 2)
    assert rel.exact_error(5) == Fraction(9, 2)
    assert rel.v(3) == 0
    assert rel.released_law(0).x == rel.released_law(10**6).x == mpmath.mpf("0.5")
    out = rel.release(np.array([[0, 3], [9, 1]]))
    assert out.shape == (2, 2) and np.all(out == 0.5)
    assert renyi(rel.released_law(1), rel.released_law(0), 3).value == 0


def test_constant_release_margins():
    rel = B.DataIndependentRelease()
    m = rel.margins(1, 10**5)
    assert m["min_margin"] == Fraction(1, 2) and m["violations"] == 0
    lit = rel.margins(1, 10, literal=True)
    assert lit["first_violation"] == 0 and lit["min_margin"] == Fraction(-1, 2)
    low = rel.margins(Fraction(99, 100), 1000)
    # r n - (n - 1/2) <= 0 iff n >= 50
    assert low["first_violation"] == 50 and low["violations"] == 1000 - 50 + 1


@given(st.integers(0, 10**4), st.fractions(min_value=Fraction(1, 100), max_value=Fraction(1)))
@settings(max_examples=40, deadline=None)
def test_margins_match_fraction_arithmetic(n_max, r):
    rel = B.DataIndependentRelease(Fraction(1, 2))
    m = rel.margins(r, n_max)
    ns = range(n_max + 1) if n_max < 300 else [0, 1, 2, n_max // 2, n_max]
    margins = {n: r * max(n, 1) - abs(Fraction(1, 2) - n) for n in ns}
    if n_max < 300:
        assert m["min_margin"] == min(margins.values())
    assert all(m["min_margin"] <= v for v in margins.values())
    assert m["counts"] == n_max + 1


@given(st.lists(st.integers(1, 50), min_size=1, max_size=5), st.lists(st.integers(1, 50), min_size=1, max_size=5),
       st.sampled_from([2, 3, Fraction(3, 2)]))
@settings(max_examples=30, deadline=None)
def test_renyi_atoms_matches_engine(pw, qw, alpha):
    k = max(len(pw), len(qw))
    pw = pw + [0] * (k - len(pw))
    qw = qw + [1] * (k - len(qw))
    p = {i: Fraction(w, sum(pw)) for i, w in enumerate(pw)}
    q = {i: Fraction(w, sum(qw)) for i, w in enumerate(qw)}
    val, why = B.renyi_atoms(p, q, alpha)
    eng = renyi(FinitePmf(p), FinitePmf(q), _mp(Fraction(alpha)))
    assert why is None and val >= -1e-25
    assert abs(val - eng.value) <= 1e-20


def test_renyi_atoms_support_mismatch_and_identity():
    v, why = B.renyi_atoms({0: 1}, {0: 1}, 2)
    assert v == 0 and why is None
    v, why = B.renyi_atoms({0: Fraction(1, 2), 1: Fraction(1, 2)}, {0: 1}, 2)
    assert mpmath.isinf(v) and "support mismatch" in why


def test_moments_from_laws():
    e, err = B.abs_moment(Gaussian(0, 2))
    assert abs(e - 2 * mpmath.sqrt(2 / mpmath.pi)) <= err + 1e-25
    e, _ = B.abs_moment(FinitePmf({-2: Fraction(1, 4), 0: Fraction(1, 2), 3: Fraction(1, 4)}))
    assert abs(e - mpmath.mpf(5) / 4) < 1e-28
    assert B.mass_off(PointMass(0))[0] == 0
    assert abs(B.mass_off(Gaussian(1, 1))[0] - 1) < 1e-25
    mech = M.ShiftedLogGaussian(0.25, 1.0, r=0.5)
    rounded = mech.rounded_law(1)
    assert abs(B.mass_off(rounded)[0] - (1 - rounded.mp_pmf(0))) < 1e-28
    t, _ = B.tail_mass(Gaussian(0, 1), 1)
    assert abs(t - 2 * mpmath.ncdf(-1)) < 1e-25
    push, _ = B.indicator_pushforward(Gaussian(1, 1))
    assert abs(push[1] - 1) < 1e-25


def test_pmf_only_integer_law_is_refused_where_it_cannot_be_summed():
    mech = M.ShiftedLogGaussian(0.25, 1.0, r=0.5)
    with pytest.raises(ValueError, match="law"):
        B.abs_moment(mech.rounded_law(2))


# ============================================================================================
# Section 4.1
# ============================================================================================


@given(st.floats(0.01, 3.0), st.floats(-1.0, 10.0))
@settings(max_examples=15, deadline=None)
def test_drift_quadrature_matches_closed_form(sigma, a):
    with mpmath.workdps(30):
        v, e = B.drift_error_quad(sigma, a)
        assert abs(v - formulas.drift_error(sigma, a)) <= e + 100 * mpmath.eps
        m, em = B.drift_mean_quad(sigma, a)
        assert abs(m - mpmath.exp(mpmath.mpf(sigma) ** 2 / 2 - a)) <= em + 100 * mpmath.eps * m


def test_central_difference_on_a_known_function():
    d, err, info = B.central_difference(lambda x: (mpmath.exp(x), mpmath.mpf(0)), 1, mpmath.mpf("1e-6"))
    assert abs(d - mpmath.e) <= err
    assert info["truncation"] > 0


def test_drift_derivative_and_argmin():
    s = mpmath.mpf("0.5")
    d, err, _ = B.drift_derivative_numeric(s, s * s / 2)
    assert abs(d - formulas.drift_error_derivative(s, s * s / 2)) <= err
    a, aerr, info = B.drift_argmin_numeric(s, s * s * mpmath.mpf("0.9"), s * s * mpmath.mpf("1.1"))
    assert abs(a - s * s) <= aerr and aerr < 1e-12
    with pytest.raises(ValueError, match="bracket"):
        B.drift_argmin_numeric(s, s * s * 2, s * s * 3)


def test_drift_control_formula_is_rejected():
    """The perturbed derivative (kink of the mean-one drift) fails the check's comparison."""
    mod = _load("sec4_1_drift")
    s = mpmath.mpf(1)
    a = mpmath.mpf(2)
    d, err, _ = B.drift_derivative_numeric(s, a)
    assert holds(d, "==", formulas.drift_error_derivative(s, a), err)
    assert not holds(d, "==", mod._wrong_mean_one(s, a), err)
    assert not holds(d, "==", mod._wrong_no_two(s, a), err)


# ============================================================================================
# Section 7
# ============================================================================================


def test_unequal_variance_mechanism():
    X = B.UnequalVarianceGaussian(0.5)
    assert isinstance(X.law(0), PointMass)
    law = X.law(4)
    assert law.mu == 4 and law.s == 2
    e, err = B.abs_moment(law, center=4)
    assert abs(e - X.expected_abs_error(4)) <= err + 1e-25
    assert X.sample(3, np.random.default_rng(1), 5).shape == (5,)


@given(st.integers(1, 10**4))
@settings(max_examples=40, deadline=None)
def test_threshold_formula_is_where_the_quadratic_coefficient_changes_sign(n):
    with mpmath.workdps(30):
        X = B.UnequalVarianceGaussian(0.5)
        P, Q = X.law(n + 1), X.law(n)
        thr = B.unequal_variance_threshold(n)
        assert thr == Fraction((n + 1) ** 2, 2 * n + 1)
        below = _mp(thr) * (1 - mpmath.mpf("1e-12"))
        k, _, noise = B.quadratic_coefficient(P, Q, below)
        assert k > noise
        k, _, noise = B.quadratic_coefficient(P, Q, B.mpf_at_least(thr))
        assert k <= noise
        margin = B.eq34_margin(below, P.s, Q.s)
        k, _, noise = B.quadratic_coefficient(P, Q, below)
        assert abs(2 * k * P.s ** 2 * Q.s ** 2 - margin) <= 2 * noise * P.s ** 2 * Q.s ** 2 + 1e-20 * abs(margin)


def test_bisection_locates_eq35_and_rejects_the_wrong_formulas():
    X = B.UnequalVarianceGaussian(0.5)
    for n in (1, 10, 1000):
        lo, hi, _ = B.locate_order_threshold(X.law(n + 1), X.law(n), rtol=mpmath.mpf("1e-20"))
        mid, tol = (lo + hi) / 2, (hi - lo) / 2 + 10 * mpmath.eps * hi
        assert holds(mid, "==", _mp(B.unequal_variance_threshold(n)), tol)
        # the negative controls of eq35, directly
        assert not holds(mid, "==", mpmath.mpf((n + 1) ** 2) / (2 * n), tol)
        assert not holds(mid, "==", mpmath.mpf(n ** 2) / (2 * n + 1), tol)


def test_locate_without_sign_change_is_refused():
    with pytest.raises(ValueError, match="sign change"):
        B.locate_order_threshold(Gaussian(0, 1), Gaussian(0, 2))


def test_truncated_integrals_finite_side_converge_to_the_closed_form():
    P, Q = Gaussian(0, 5), Gaussian(1, 3)
    alpha = mpmath.mpf("1.25")
    mid, hw = B.renyi_from_truncation(P, Q, alpha, 400)
    closed = gaussian_renyi(alpha, 0, 5, 1, 3).value
    assert abs(mid - closed) <= hw + 1e-25
    assert B.tail_remainder(P, Q, alpha, 400) < 1e-100


def test_truncated_integrals_at_and_above_the_threshold_grow_inside_the_sandwich():
    P, Q = Gaussian(0, 5), Gaussian(1, 3)
    for alpha in (mpmath.mpf(25) / 16, mpmath.mpf(4)):
        assert mpmath.isinf(B.tail_remainder(P, Q, alpha, 100))
        assert mpmath.isinf(B.renyi_from_truncation(P, Q, alpha, 100)[0])
        prev = None
        for T in (40, 160, 640):
            logI, e = B.truncated_renyi_integral(P, Q, alpha, T)
            lo, up, _, _, eb = B.truncated_bounds_convex(P, Q, alpha, T)
            assert lo - e - eb <= logI <= up + e + eb
            if prev is not None:
                assert logI > prev + 5
            prev = logI
    with pytest.raises(ValueError, match="threshold"):
        B.truncated_bounds_convex(P, Q, mpmath.mpf("1.2"), 10)


def test_boundary_edge_is_infinite_by_both_routes():
    X = B.UnequalVarianceGaussian(0.5)
    for alpha in (mpmath.mpf("1.01"), 2, 100):
        assert mpmath.isinf(renyi(X.law(1), X.law(0), alpha).value)
        push, _ = B.indicator_pushforward(X.law(1))
        assert mpmath.isinf(B.renyi_atoms(push, {0: 1, 1: 0}, alpha)[0])


# ============================================================================================
# Bad input
# ============================================================================================


BAD = [
    (lambda: B.to_fraction("value", "abc"), "value"),
    (lambda: B.to_fraction("value", float("nan")), "value"),
    (lambda: B.literal_target(-1, 2), "r"),
    (lambda: B.repaired_target(1, -1), "n"),
    (lambda: B.DataIndependentRelease("x"), "value"),
    (lambda: B.DataIndependentRelease().exact_error(1.5), "n"),
    (lambda: B.DataIndependentRelease().margins(0, 10), "r"),
    (lambda: B.DataIndependentRelease().margins(1, -1), "n_max"),
    (lambda: B.DataIndependentRelease().margins(1, 10**19), "n_max"),
    (lambda: B.DataIndependentRelease().release([1, -2]), "counts"),
    (lambda: B.renyi_atoms({0: 1}, {0: 1}, 1), "alpha"),
    (lambda: B.renyi_atoms({}, {0: 1}, 2), "p"),
    (lambda: B.renyi_atoms({0: 1}, {0: -1}, 2), "q"),
    (lambda: B.tail_mass(Gaussian(0, 1), 0), "t"),
    (lambda: B.drift_error_quad(0, 1), "sigma"),
    (lambda: B.drift_error_quad(1, float("inf")), "a"),
    (lambda: B.central_difference(lambda x: (x, 0), 0, 0), "h"),
    (lambda: B.drift_argmin_numeric(1, 2, 1), "lo"),
    (lambda: B.drift_argmin_numeric(1, 0.5, 2, maxiter=0), "maxiter"),
    (lambda: B.UnequalVarianceGaussian(0), "r"),
    (lambda: B.UnequalVarianceGaussian(0.5).law(-1), "n"),
    (lambda: B.unequal_variance_threshold(0), "n"),
    (lambda: B.eq34_margin(1, 1, 1), "alpha"),
    (lambda: B.eq34_margin(2, -1, 1), "s_p"),
    (lambda: B.quadratic_coefficient(PointMass(0), Gaussian(0, 1), 2), "P"),
    (lambda: B.quadratic_coefficient(Gaussian(0, 1), Gaussian(0, 2), 2, h=0), "h"),
    (lambda: B.truncated_renyi_integral(Gaussian(0, 1), Gaussian(0, 2), 2, -1), "T"),
    (lambda: B.locate_order_threshold(Gaussian(0, 2), Gaussian(0, 1), lo=3), "lo"),
    (lambda: B.locate_order_threshold(Gaussian(0, 2), Gaussian(0, 1), hi=1.1), "hi"),
]


@pytest.mark.parametrize("call,name", BAD)
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# ============================================================================================
# The checks themselves, in quick mode
# ============================================================================================


@pytest.mark.parametrize("script", SCRIPTS)
def test_checks_pass_in_quick_mode_with_every_control_rejected(script):
    mod = _load(script)
    specs = checks_in(mod)
    assert specs, f"{script} declares no claims"
    for spec in specs:
        res = run_check(spec, Settings(quick=True))
        assert res.status == "pass", (spec.id, res.reason, res.error)
        assert res.controls and all(ctl.rejected for ctl in res.controls), spec.id
        assert len(res.routes) >= 2


def test_claim_ids_are_the_assigned_ones():
    ids = [s.id for name in SCRIPTS for s in checks_in(_load(name))]
    assert ids == ["prop2.2a", "prop2.2b", "prop2.3", "sec4.1.deriv", "sec4.1.argmin",
                   "lem7.1", "sec7.boundary", "eq35"]


def test_constant_release_control_directly():
    """prop2.3's control: at r = 9999/10000 the same exact sweep finds violations."""
    rel = B.DataIndependentRelease()
    low = rel.margins(Fraction(9999, 10000), 10**6)
    assert not holds(low["min_margin"], ">", 0, 0)
    assert low["first_violation"] == 5000
    assert holds(rel.margins(1, 10**6)["min_margin"], ">", 0, 0)


def test_figures_are_written(tmp_path):
    s = Settings(quick=True, figures_dir=str(tmp_path))
    paths = _load("sec7_unequal_variance").figures(s)
    assert all(Path(p).is_file() for p in paths)
    assert Path(paths[0]).stat().st_size > 0
