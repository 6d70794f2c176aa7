"""countdp.divergence.zcdp: the zCDP -> approximate-DP conversions, the exact privacy profile
(hockey-stick divergence) and eps from delta, and composition."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from countdp import formulas
from countdp.mechanisms import ShiftedLogGaussian
from countdp.divergence import zcdp
from countdp.harness.results import holds
from countdp.laws import Gaussian, PointMass


pytestmark = pytest.mark.mp_dps(30)


# ============================================================================================
# conversions
# ============================================================================================


def test_bun_steinke_formula():
    assert zcdp.zcdp_to_approx_dp(0, 1e-6) == 0
    rho, delta = mpmath.mpf("0.5"), mpmath.mpf("1e-5")
    assert zcdp.zcdp_to_approx_dp(rho, delta) == rho + 2 * mpmath.sqrt(rho * mpmath.log(1 / delta))
    # the CLI passes floats
    assert abs(float(zcdp.zcdp_to_approx_dp(0.01, 1e-6)) - (0.01 + 2 * math.sqrt(0.01 * math.log(1e6)))) < 1e-14


@pytest.mark.parametrize("rho, k", [("1e-4", 3), ("0.01", 100), ("1", 10_000)])
def test_chernoff_route_equals_bun_steinke(rho, k):
    """The proof's Chernoff bound, optimised over alpha numerically and inverted in eps, is the
    closed form rho + 2 sqrt(rho log(1/delta)) (the optimum alpha = (eps + rho)/(2 rho))."""
    rho, delta = mpmath.mpf(rho), mpmath.mpf(10) ** -k
    eps = zcdp.chernoff_epsilon(rho, delta)
    assert abs(eps - zcdp.zcdp_to_approx_dp(rho, delta)) < 1e-22 * (1 + eps)
    assert abs(zcdp.chernoff_log_tail(rho, eps) - mpmath.log(delta)) < 1e-20 * k
    assert zcdp.chernoff_log_tail(rho, rho) == 0


def test_cks_known_value():
    eps = zcdp.cks_eps(mpmath.mpf(1) / 32, mpmath.mpf("1e-3"))
    assert abs(eps - mpmath.mpf("0.6880024554878086")) < 1e-15


def test_cks_alpha_is_stationary():
    rho, eps = mpmath.mpf("0.1"), mpmath.mpf("1.3")
    a = zcdp.cks_alpha(rho, eps)
    g = lambda x: (x - 1) * (x * rho - eps) - mpmath.log(x - 1) + x * mpmath.log(1 - 1 / x)  # noqa: E731
    assert abs(mpmath.diff(g, a)) < 1e-20
    assert g(a) <= g(a * 1.01) and g(a) <= g(1 + (a - 1) * 0.99)


@settings(max_examples=25, deadline=None)
@given(st.floats(1e-8, 5.0), st.floats(1e-12, 0.5))
def test_cks_never_above_bun_steinke_and_inverts(rho, delta):
    eps = zcdp.cks_eps(rho, delta)
    assert eps <= zcdp.zcdp_to_approx_dp(rho, delta) * (1 + 1e-20)
    if eps > 0:
        assert abs(zcdp.cks_log_delta(rho, eps) - mpmath.log(delta)) < 1e-15


@pytest.mark.parametrize("bad", [
    lambda: zcdp.zcdp_to_approx_dp(-1, 0.1), lambda: zcdp.zcdp_to_approx_dp(1, 0),
    lambda: zcdp.zcdp_to_approx_dp(1, 1), lambda: zcdp.zcdp_to_approx_dp(float("nan"), 0.1),
    lambda: zcdp.zcdp_to_approx_dp(True, 0.1),
    lambda: zcdp.cks_eps(1, 1.5), lambda: zcdp.cks_delta(1, -0.1), lambda: zcdp.cks_alpha(0, 1),
    lambda: zcdp.gaussian_hockey_stick(-1, 0), lambda: zcdp.gaussian_eps_of_delta(1, 0),
    lambda: zcdp.hockey_stick(Gaussian(0, 1), Gaussian(1, 1), -0.5),
    lambda: zcdp.hockey_stick(Gaussian(0, 1), Gaussian(1, 1), 0.5, method="magic"),
    lambda: zcdp.hockey_stick("P", Gaussian(1, 1), 0.5),
    lambda: zcdp.hockey_stick(Gaussian(0, 1), Gaussian(1, 2), 0.5, method="closed"),
    lambda: zcdp.eps_of_delta(Gaussian(0, 1), Gaussian(1, 1), 2),
    lambda: zcdp.compose_budgets(), lambda: zcdp.compose_budgets(3.0),
    lambda: zcdp.compose_budgets(lambda n: n)(-1), lambda: zcdp.composed_budget([], 3),
    lambda: zcdp.joint_renyi_2d([Gaussian(0, 1)], [Gaussian(1, 1)], 2),
    lambda: zcdp.joint_renyi_2d([Gaussian(0, 1)] * 2, [Gaussian(1, 1)] * 2, 1),
])
def test_bad_input_raises_value_error(bad):
    with pytest.raises(ValueError):
        bad()


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="delta"):
        zcdp.zcdp_to_approx_dp(0.1, 2)
    with pytest.raises(ValueError, match="rho"):
        zcdp.cks_eps(-0.1, 0.1)
    with pytest.raises(ValueError, match="eps"):
        zcdp.hockey_stick(Gaussian(0, 1), Gaussian(1, 1), -1)


# ============================================================================================
# the exact privacy profile
# ============================================================================================


def test_gaussian_profile_at_zero_is_total_variation():
    mu = mpmath.mpf("0.7")
    assert abs(zcdp.gaussian_hockey_stick(mu, 0) - (2 * mpmath.ncdf(mu / 2) - 1)) < 1e-28


@pytest.mark.parametrize("mu,eps", [(0.3, 0.0), (0.3, 0.2), (1.5, 1.0), (4.0, 9.0)])
def test_profile_quadrature_matches_closed_form(mu, eps):
    P, Q = Gaussian(0, 1), Gaussian(mu, 1)
    for A, B in ((P, Q), (Q, P)):
        q = zcdp.hockey_stick(A, B, eps, method="quadrature")
        closed = zcdp.hockey_stick(A, B, eps)
        assert closed.method.startswith("closed form")
        assert abs(q.value - closed.value) <= q.error + 1e-25


def test_released_profile_below_unclipped_and_rounded_below_released():
    mech = ShiftedLogGaussian(0.45, 1.0)
    n = 1
    U = zcdp.hockey_stick(mech.unclipped_law(n - 1), mech.unclipped_law(n), 3.0)
    R = zcdp.hockey_stick(mech.released_law(n - 1), mech.released_law(n), 3.0)
    K = zcdp.hockey_stick(mech.rounded_law(n - 1), mech.rounded_law(n), 3.0)
    assert R.value <= U.value + R.error
    assert K.value <= R.value + K.error + R.error
    assert R.value < U.value  # at eps = 3 the crossing lies below log c: clipping strictly helps


def test_profile_with_mass_gives_the_slope_in_eps():
    """d delta/d eps = -(P(A) - delta) (envelope theorem): a finite difference agrees."""
    P, Q = Gaussian(0, 1), Gaussian(1, 1)
    eps, h = mpmath.mpf("0.4"), mpmath.mpf("1e-8")
    pr = zcdp.hockey_stick(P, Q, eps, method="quadrature", with_mass=True)
    fd = (zcdp.gaussian_hockey_stick(1, eps + h) - zcdp.gaussian_hockey_stick(1, eps - h)) / (2 * h)
    assert abs(fd + (pr.p_mass - pr.value)) < 1e-12
    assert pr.crossings and abs(pr.crossings[0] - (mpmath.mpf(1) / 2 - eps)) < 1e-20


@settings(max_examples=15, deadline=None)
@given(st.floats(0.05, 3.0), st.floats(0.0, 3.0), st.floats(0.01, 1.0))
def test_profile_decreases_in_eps(mu, eps, step):
    a = zcdp.gaussian_hockey_stick(mu, eps)
    b = zcdp.gaussian_hockey_stick(mu, eps + step)
    assert 0 <= b <= a <= 1


def test_point_masses_and_support_mismatch():
    assert zcdp.hockey_stick(PointMass(0.5), PointMass(0.5), 0).value == 0
    assert zcdp.hockey_stick(PointMass(0), PointMass(1), 3).value == 1
    e = zcdp.eps_of_delta(PointMass(0), Gaussian(0, 1), 1e-3)
    assert mpmath.isinf(e.value) and e.reason


def test_eps_of_delta_quadrature_matches_closed_form_both_orderings():
    mech = ShiftedLogGaussian(0.3, 1.0)
    n = 100
    delta = mpmath.mpf("1e-6")
    e = zcdp.eps_of_delta(mech.unclipped_law(n), mech.unclipped_law(n - 1), delta, method="quadrature")
    g = zcdp.gaussian_eps_of_delta(formulas.log_gap(n, 1.0) / mech.mp_sigma(), delta)
    assert abs(e.value - g) <= e.error + 1e-20
    a, b = e.by_ordering.values()
    assert abs(a - b) <= e.error + 1e-20  # equal-variance Gaussians: symmetric


def test_conversions_bound_the_exact_eps():
    mech = ShiftedLogGaussian(0.2, 0.5)
    delta = mpmath.mpf("1e-6")
    for n in (1, 10, 1000):
        v = mech.mp_v(n)
        exact = zcdp.gaussian_eps_of_delta(formulas.log_gap(n, 0.5) / mech.mp_sigma(), delta)
        assert exact <= zcdp.cks_eps(v, delta) <= zcdp.zcdp_to_approx_dp(v, delta)


def test_control_factor_two_dropped_is_rejected_directly():
    """The perturbed conversion rho + sqrt(rho log(1/delta)) falls below the exact eps."""
    mech = ShiftedLogGaussian(0.45, 1.0)
    delta = mpmath.mpf("1e-6")
    n = 1000
    v = mech.mp_v(n)
    exact = zcdp.eps_of_delta(mech.released_law(n), mech.released_law(n - 1), delta)
    half = v + mpmath.sqrt(v * mpmath.log(1 / delta))
    assert not holds(exact.value, "<=", half, exact.error)
    assert holds(exact.value, "<=", zcdp.zcdp_to_approx_dp(v, delta), exact.error)


# ============================================================================================
# composition
# ============================================================================================


def test_compose_budgets_adds_pointwise():
    mechs = [ShiftedLogGaussian(r0, 1.0) for r0 in (0.1, 0.3)]
    v = zcdp.compose_budgets(*(m.mp_v for m in mechs))
    for n in (0, 1, 7, 10**5):
        assert v(n) == mechs[0].mp_v(n) + mechs[1].mp_v(n) == zcdp.composed_budget(mechs, n)


def test_joint_2d_of_unclipped_pair_is_the_sum_of_budgets():
    m1, m2 = ShiftedLogGaussian(0.2, 1.0), ShiftedLogGaussian(0.45, 2.0)
    n, alpha = 5, 3
    J = zcdp.joint_renyi_2d([m1.unclipped_law(n), m2.unclipped_law(n)],
                            [m1.unclipped_law(n - 1), m2.unclipped_law(n - 1)], alpha)
    target = float(alpha * (m1.mp_v(n) + m2.mp_v(n)))
    assert abs(J.value - target) <= J.error + 1e-12 * target


def test_joint_2d_of_released_pair_is_the_sum_of_1d_divergences():
    """Atoms x atoms, atom lines and the plane together: additivity over independent coordinates."""
    from countdp.divergence.renyi import renyi

    m1, m2 = ShiftedLogGaussian(0.2, 1.0), ShiftedLogGaussian(0.45, 1.0)
    n, alpha = 3, 2
    J = zcdp.joint_renyi_2d([m1.released_law(n), m2.released_law(n)],
                            [m1.released_law(n - 1), m2.released_law(n - 1)], alpha)
    d1 = renyi(m1.released_law(n), m1.released_law(n - 1), alpha, method="quadrature")
    d2 = renyi(m2.released_law(n), m2.released_law(n - 1), alpha, method="quadrature")
    assert abs(J.value - float(d1.value + d2.value)) <= J.error + float(d1.error + d2.error) + 1e-12


def test_joint_2d_with_an_atom_missing_from_q_is_infinite():
    J = zcdp.joint_renyi_2d([PointMass(0), Gaussian(0, 1)], [PointMass(1), Gaussian(0, 1)], 2)
    assert math.isinf(J.value)


def test_log_likelihood_ratio_gaussian_and_atoms():
    P, Q = Gaussian(0, 1), Gaussian(1, 1)
    y = np.array([-1.0, 0.0, 2.5])
    np.testing.assert_allclose(zcdp.log_likelihood_ratio(P, Q, y), 0.5 - y, rtol=1e-12, atol=1e-12)
    mech = ShiftedLogGaussian(0.45, 1.0)
    P, Q = mech.released_law(1), mech.released_law(0)
    out = zcdp.log_likelihood_ratio(P, Q, np.array([0.0, 0.7]))
    assert out[0] == pytest.approx(float(mpmath.log(P.atom_mass / Q.atom_mass)))
    assert out[1] == pytest.approx(float(P.density.logpdf(0.7) - Q.density.logpdf(0.7)))
