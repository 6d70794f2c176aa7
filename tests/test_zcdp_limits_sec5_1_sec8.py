"""Tests of countdp.zcdp and countdp.limits, and of the checks sec5_1_rate.py / sec8_coefficient.py."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from countdp import limits as L
from countdp import formulas
from countdp import mechanisms as M
from countdp.divergence import zcdp as Z
from countdp.harness.claims import checks_in, run_check
from countdp.harness.results import Settings, holds
from countdp.laws import Gaussian, PointMass

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _precision():
    with mpmath.workdps(30):
        yield


# ============================================================================================
# zcdp: conversions
# ============================================================================================


def test_bun_steinke_formula():
    assert Z.zcdp_to_approx_dp(0, 1e-6) == 0
    rho, delta = mpmath.mpf("0.5"), mpmath.mpf("1e-5")
    assert Z.zcdp_to_approx_dp(rho, delta) == rho + 2 * mpmath.sqrt(rho * mpmath.log(1 / delta))
    # the CLI passes floats
    assert abs(float(Z.zcdp_to_approx_dp(0.01, 1e-6)) - (0.01 + 2 * math.sqrt(0.01 * math.log(1e6)))) < 1e-14


def test_cks_known_value():
    eps = Z.cks_eps(mpmath.mpf(1) / 32, mpmath.mpf("1e-3"))
    assert abs(eps - mpmath.mpf("0.6880024554878086")) < 1e-15


def test_cks_alpha_is_stationary():
    rho, eps = mpmath.mpf("0.1"), mpmath.mpf("1.3")
    a = Z.cks_alpha(rho, eps)
    g = lambda x: (x - 1) * (x * rho - eps) - mpmath.log(x - 1) + x * mpmath.log(1 - 1 / x)  # noqa: E731
    assert abs(mpmath.diff(g, a)) < 1e-20
    assert g(a) <= g(a * 1.01) and g(a) <= g(1 + (a - 1) * 0.99)


@settings(max_examples=25, deadline=None)
@given(st.floats(1e-8, 5.0), st.floats(1e-12, 0.5))
def test_cks_never_above_bun_steinke_and_inverts(rho, delta):
    eps = Z.cks_eps(rho, delta)
    assert eps <= Z.zcdp_to_approx_dp(rho, delta) * (1 + 1e-20)
    if eps > 0:
        assert abs(Z.cks_log_delta(rho, eps) - mpmath.log(delta)) < 1e-15


@pytest.mark.parametrize("bad", [
    lambda: Z.zcdp_to_approx_dp(-1, 0.1), lambda: Z.zcdp_to_approx_dp(1, 0), lambda: Z.zcdp_to_approx_dp(1, 1),
    lambda: Z.zcdp_to_approx_dp(float("nan"), 0.1), lambda: Z.zcdp_to_approx_dp(True, 0.1),
    lambda: Z.cks_eps(1, 1.5), lambda: Z.cks_delta(1, -0.1), lambda: Z.cks_alpha(0, 1),
    lambda: Z.gaussian_hockey_stick(-1, 0), lambda: Z.gaussian_eps_of_delta(1, 0),
    lambda: Z.hockey_stick(Gaussian(0, 1), Gaussian(1, 1), -0.5),
    lambda: Z.hockey_stick(Gaussian(0, 1), Gaussian(1, 1), 0.5, method="magic"),
    lambda: Z.hockey_stick("P", Gaussian(1, 1), 0.5),
    lambda: Z.hockey_stick(Gaussian(0, 1), Gaussian(1, 2), 0.5, method="closed"),
    lambda: Z.eps_of_delta(Gaussian(0, 1), Gaussian(1, 1), 2),
    lambda: Z.compose_budgets(), lambda: Z.compose_budgets(3.0),
    lambda: Z.compose_budgets(lambda n: n)(-1), lambda: Z.composed_budget([], 3),
    lambda: Z.joint_renyi_2d([Gaussian(0, 1)], [Gaussian(1, 1)], 2),
    lambda: Z.joint_renyi_2d([Gaussian(0, 1)] * 2, [Gaussian(1, 1)] * 2, 1),
])
def test_bad_input_raises_value_error(bad):
    with pytest.raises(ValueError):
        bad()


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="delta"):
        Z.zcdp_to_approx_dp(0.1, 2)
    with pytest.raises(ValueError, match="rho"):
        Z.cks_eps(-0.1, 0.1)
    with pytest.raises(ValueError, match="eps"):
        Z.hockey_stick(Gaussian(0, 1), Gaussian(1, 1), -1)


# ============================================================================================
# zcdp: the exact privacy profile
# ============================================================================================


def test_gaussian_profile_at_zero_is_total_variation():
    mu = mpmath.mpf("0.7")
    assert abs(Z.gaussian_hockey_stick(mu, 0) - (2 * mpmath.ncdf(mu / 2) - 1)) < 1e-28


@pytest.mark.parametrize("mu,eps", [(0.3, 0.0), (0.3, 0.2), (1.5, 1.0), (4.0, 9.0)])
def test_profile_quadrature_matches_closed_form(mu, eps):
    P, Q = Gaussian(0, 1), Gaussian(mu, 1)
    for A, B in ((P, Q), (Q, P)):
        q = Z.hockey_stick(A, B, eps, method="quadrature")
        closed = Z.hockey_stick(A, B, eps)
        assert closed.method.startswith("closed form")
        assert abs(q.value - closed.value) <= q.error + 1e-25


def test_released_profile_below_unclipped_and_rounded_below_released():
    mech = M.ShiftedLogGaussian(0.45, 1.0)
    n = 1
    U = Z.hockey_stick(mech.unclipped_law(n - 1), mech.unclipped_law(n), 3.0)
    R = Z.hockey_stick(mech.released_law(n - 1), mech.released_law(n), 3.0)
    K = Z.hockey_stick(mech.rounded_law(n - 1), mech.rounded_law(n), 3.0)
    assert R.value <= U.value + R.error
    assert K.value <= R.value + K.error + R.error
    assert R.value < U.value  # at eps = 3 the crossing lies below log c: clipping strictly helps


@settings(max_examples=15, deadline=None)
@given(st.floats(0.05, 3.0), st.floats(0.0, 3.0), st.floats(0.01, 1.0))
def test_profile_decreases_in_eps(mu, eps, step):
    a = Z.gaussian_hockey_stick(mu, eps)
    b = Z.gaussian_hockey_stick(mu, eps + step)
    assert 0 <= b <= a <= 1


def test_point_masses_and_support_mismatch():
    assert Z.hockey_stick(PointMass(0.5), PointMass(0.5), 0).value == 0
    assert Z.hockey_stick(PointMass(0), PointMass(1), 3).value == 1
    e = Z.eps_of_delta(PointMass(0), Gaussian(0, 1), 1e-3)
    assert mpmath.isinf(e.value) and e.reason


def test_eps_of_delta_quadrature_matches_closed_form_both_orderings():
    mech = M.ShiftedLogGaussian(0.3, 1.0)
    n = 100
    delta = mpmath.mpf("1e-6")
    e = Z.eps_of_delta(mech.unclipped_law(n), mech.unclipped_law(n - 1), delta, method="quadrature")
    g = Z.gaussian_eps_of_delta(formulas.log_gap(n, 1.0) / mech.mp_sigma(), delta)
    assert abs(e.value - g) <= e.error + 1e-20
    a, b = e.by_ordering.values()
    assert abs(a - b) <= e.error + 1e-20  # equal-variance Gaussians: symmetric


def test_conversions_bound_the_exact_eps():
    mech = M.ShiftedLogGaussian(0.2, 0.5)
    delta = mpmath.mpf("1e-6")
    for n in (1, 10, 1000):
        v = mech.mp_v(n)
        exact = Z.gaussian_eps_of_delta(formulas.log_gap(n, 0.5) / mech.mp_sigma(), delta)
        assert exact <= Z.cks_eps(v, delta) <= Z.zcdp_to_approx_dp(v, delta)


def test_control_factor_two_dropped_is_rejected_directly():
    """The perturbed conversion rho + sqrt(rho log(1/delta)) falls below the exact eps."""
    mech = M.ShiftedLogGaussian(0.45, 1.0)
    delta = mpmath.mpf("1e-6")
    n = 1000
    v = mech.mp_v(n)
    exact = Z.eps_of_delta(mech.released_law(n), mech.released_law(n - 1), delta)
    half = v + mpmath.sqrt(v * mpmath.log(1 / delta))
    assert not holds(exact.value, "<=", half, exact.error)
    assert holds(exact.value, "<=", Z.zcdp_to_approx_dp(v, delta), exact.error)


# ============================================================================================
# zcdp: composition
# ============================================================================================


def test_compose_budgets_adds_pointwise():
    mechs = [M.ShiftedLogGaussian(r0, 1.0) for r0 in (0.1, 0.3)]
    v = Z.compose_budgets(*(m.mp_v for m in mechs))
    for n in (0, 1, 7, 10**5):
        assert v(n) == mechs[0].mp_v(n) + mechs[1].mp_v(n) == Z.composed_budget(mechs, n)


def test_joint_2d_of_unclipped_pair_is_the_sum_of_budgets():
    m1, m2 = M.ShiftedLogGaussian(0.2, 1.0), M.ShiftedLogGaussian(0.45, 2.0)
    n, alpha = 5, 3
    J, err = Z.joint_renyi_2d([m1.unclipped_law(n), m2.unclipped_law(n)],
                              [m1.unclipped_law(n - 1), m2.unclipped_law(n - 1)], alpha)
    target = float(alpha * (m1.mp_v(n) + m2.mp_v(n)))
    assert abs(J - target) <= err + 1e-12 * target


def test_log_likelihood_ratio_gaussian_and_atoms():
    P, Q = Gaussian(0, 1), Gaussian(1, 1)
    y = np.array([-1.0, 0.0, 2.5])
    np.testing.assert_allclose(Z.log_likelihood_ratio(P, Q, y), 0.5 - y, rtol=1e-12, atol=1e-12)
    mech = M.ShiftedLogGaussian(0.45, 1.0)
    P, Q = mech.released_law(1), mech.released_law(0)
    out = Z.log_likelihood_ratio(P, Q, np.array([0.0, 0.7]))
    assert out[0] == pytest.approx(float(mpmath.log(P.atom_mass / Q.atom_mass)))
    assert out[1] == pytest.approx(float(P.density.logpdf(0.7) - Q.density.logpdf(0.7)))


# ============================================================================================
# limits
# ============================================================================================


def test_richardson_exact_on_polynomials_and_error():
    hs = [mpmath.mpf(10) ** -k for k in range(1, 5)]
    vals = [3 + 2 * h - 5 * h ** 2 + h ** 3 for h in hs]
    e = L.richardson(hs, vals)
    # through all four points the cubic is exact; the error estimate is the change from dropping
    # the coarsest point (the error of the three-point estimate): conservative, ~|a_3| h1 h2 h3
    assert abs(e.value - 3) < 1e-25 and abs(e.value - 3) <= e.error < 1e-8
    e = L.richardson(hs, vals, errors=[1e-10] * 4)
    assert e.error >= 1e-10


def test_richardson_spread_decades_bad_input():
    for bad in (lambda: L.richardson([1], [1]), lambda: L.richardson([1, 1], [1, 2]),
                lambda: L.richardson([0, 1], [1, 2]), lambda: L.spread([]), lambda: L.spread([1, -1]),
                lambda: L.decades(3, 1)):
        with pytest.raises(ValueError):
            bad()
    assert L.spread([2, 4, 3]) == 2
    assert L.decades(1, 3) == [10, 100, 1000]


def test_series_reversion():
    exp_m1 = [mpmath.mpf(0)] + [1 / mpmath.factorial(k) for k in range(1, 8)]
    log1p = L.reverse_series(exp_m1, 7)
    for k in range(1, 8):
        assert abs(log1p[k] - mpmath.mpf((-1) ** (k + 1)) / k) < 1e-25
    s = L.inverse_half_series(5)
    assert abs(s[3] - mpmath.sqrt(mpmath.pi / 2) * mpmath.pi / 12) < 1e-25
    taylor = mpmath.taylor(lambda x: mpmath.sqrt(2) * mpmath.erfinv(x), 0, 5)
    for k in range(6):
        assert abs(s[k] - taylor[k]) < 1e-10
    with pytest.raises(ValueError):
        L.reverse_series([1, 1], 3)


@pytest.mark.parametrize("r", ["0.1", "1e-4", "1e-7"])
def test_inverse_half_remainder_against_series(r):
    r = mpmath.mpf(r)
    s = L.inverse_half_series(9)
    series_rem = mpmath.fsum(s[k] * r ** k for k in range(3, 10))
    assert abs(L.inverse_half_remainder(r) - series_rem) < abs(series_rem) * 1e-6 + mpmath.mpf(10) ** -25 * r ** 3


def test_limits_of_section_5_1():
    e = L.iterated_limit(lambda r: (r * (1 - r), 1), [mpmath.mpf(10) ** -k for k in range(2, 6)])
    assert abs(e.value - 4 / mpmath.pi) <= e.error
    e = L.iterated_limit(L.upper_family, [mpmath.mpf(10) ** -k for k in range(2, 6)])
    assert abs(e.value - 1 / mpmath.pi) <= e.error
    mech = M.ShiftedLogGaussian(0.3, 1.0)
    lim = L.large_count_limit(mech)
    assert abs(lim.value - 1 / (2 * mech.mp_sigma() ** 2)) <= lim.error
    assert abs(L.large_count_coefficient(0.3, 1.0, 1) - 1 / (2 * mech.mp_sigma() ** 2)) < 1e-25


def test_table2_constants_and_ordering():
    vals = list(L.table2_constants().values())
    assert vals == sorted(vals)
    assert abs(vals[0] - mpmath.mpf(1) / 128) == 0
    assert abs(L.constant_ratio() - vals[3] / vals[2]) < 1e-25
    assert abs(L.uniform_prior_template(2 * mpmath.e ** 1.5) - L.uniform_prior_constant()) < 1e-25


@settings(max_examples=60, deadline=None)
@given(st.floats(0.01, 500.0), st.floats(0.001, 0.999))
def test_two_count_template_properties(a, theta):
    v = L.two_count_template(a, theta)
    assert 0 <= v <= mpmath.mpf(1) / 128 + 1e-30
    assert abs(v - L.two_count_template(a, 1 - mpmath.mpf(theta))) < 1e-25
    if a * theta * (1 - theta) <= 1:
        assert v == 0


def test_maximisers():
    two = L.maximise_two_count()
    assert abs(two.argmax[0] - 8) < 1e-15 and abs(two.argmax[1] - 0.5) < 1e-15
    gau = L.maximise_gaussian_prior()
    assert abs(gau.value - L.truncated_gaussian_constant()) <= gau.error


def test_small_r_remainder_and_limit():
    s = mpmath.mpf("0.3")
    v, e = L.small_r_remainder(s)
    # an independent route: adaptive QUADPACK in float64, the kinks of |.| not located in advance
    from scipy import integrate

    sf = float(s)
    direct, derr = integrate.quad(lambda z: abs(math.expm1(sf * z - sf * sf) - sf * z)
                                  * math.exp(-z * z / 2) / math.sqrt(2 * math.pi), -40, 40,
                                  points=[-2, -1, 0, 1, 2], limit=400, epsabs=1e-14, epsrel=1e-12)
    assert abs(float(v) - direct) < 1e-11 + derr and e < 1e-20
    ref = mpmath.quad(lambda z: abs(z * z / 2 - 1) * mpmath.npdf(z), [-mpmath.inf, -mpmath.sqrt(2), 0,
                                                                       mpmath.sqrt(2), mpmath.inf])
    assert abs(L.small_r_remainder_limit() - ref) < 1e-25


@settings(max_examples=20, deadline=None)
@given(st.floats(0.01, 0.95), st.floats(0.05, 5.0), st.integers(0, 10**6))
def test_unclipped_bias_negative_and_clipping_raises_mean(r0, c, n):
    mech = M.ShiftedLogGaussian(r0, c)
    ub = L.unclipped_bias(mech, n)
    assert ub < 0
    assert L.released_bias(mech, n) >= ub


def test_released_bias_against_quadrature():
    from countdp.laws.expectation import quad_expectation

    mech = M.ShiftedLogGaussian(0.45, 0.5)
    for n in (0, 3, 100):
        q, qe = quad_expectation(mech.released_law(n), lambda y: y)
        assert abs(q - n - L.released_bias(mech, n)) <= qe + 1e-20 * (1 + n)


def test_limits_bad_input():
    for bad in (lambda: L.lower_bound_constant(1), lambda: L.lower_bound_constant(0), lambda: L.upper_family(1),
                lambda: L.two_count_template(0, 0.5), lambda: L.two_count_template(8, 1),
                lambda: L.fixed_c_constant(0), lambda: L.boundary_asymptote(0.1, -1),
                lambda: L.inverse_half(1), lambda: L.small_r_remainder(0), lambda: L.constant_release_error(-1),
                lambda: L.scaled_budget(M.ShiftedLogGaussian(0.1, 1), 0)):
        with pytest.raises(ValueError):
            bad()


# ============================================================================================
# the checks, in quick mode
# ============================================================================================


def _load(name):
    path = ROOT / "paper_checks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"_test_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


SCRIPTS = {"sec5_1_rate": ["sec5.1.conv", "sec5.1.limit_c", "sec5.1.c_equals_r", "eq13"],
           "sec8_coefficient": ["eq32", "table2", "sec8.two_count", "sec8.small_r", "sec8.composition",
                                "sec8.bias", "thm1.1"]}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_checks_pass_in_quick_mode(name):
    mod = _load(name)
    specs = checks_in(mod)
    assert [s.id for s in specs] == SCRIPTS[name]
    for spec in specs:
        res = run_check(spec, Settings(quick=True))
        assert res.status == "pass", (spec.id, res.reason, res.error)
        assert res.controls and all(ctl.rejected for ctl in res.controls), spec.id
        assert len(res.routes) >= 2


def test_table2_control_rejected_directly():
    two = L.maximise_two_count()
    assert not holds(two.value, "==", mpmath.mpf(1) / 64, two.error)
    assert holds(two.value, "==", mpmath.mpf(1) / 128, two.error)
