"""countdp.divergence.zcdp: the zCDP -> approximate-DP conversions (against the exact eps of
countdp.divergence.profile) and composition."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from _densities import normal_part
from countdp import formulas
from countdp.mechanisms import ShiftedLogGaussian
from countdp.divergence import profile, zcdp
from countdp.harness.results import holds
from countdp.laws import Gaussian


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
@example(1.0, 1e-6).via("a round rho")
@example(2.0, 0.5).via("a round rho")
@pytest.mark.slow
def test_cks_never_above_bun_steinke_and_inverts(rho, delta):
    """eps = 0 exactly when delta is met at eps = 0 already; otherwise the bound is delta at eps."""
    eps = zcdp.cks_eps(rho, delta)
    assert eps <= zcdp.zcdp_to_approx_dp(rho, delta) * (1 + 1e-20)
    if zcdp.cks_log_delta(rho, 0) > mpmath.log(delta):
        assert eps > 0 and abs(zcdp.cks_log_delta(rho, eps) - mpmath.log(delta)) < 1e-15
    else:
        assert eps == 0

@pytest.mark.parametrize("bad", [
    lambda: zcdp.zcdp_to_approx_dp(-1, 0.1), lambda: zcdp.zcdp_to_approx_dp(1, 0),
    lambda: zcdp.zcdp_to_approx_dp(1, 1), lambda: zcdp.zcdp_to_approx_dp(float("nan"), 0.1),
    lambda: zcdp.zcdp_to_approx_dp(True, 0.1),
    lambda: zcdp.cks_eps(1, 1.5), lambda: zcdp.cks_delta(1, -0.1), lambda: zcdp.cks_alpha(0, 1),
    lambda: zcdp.compose_budgets(), lambda: zcdp.compose_budgets(3.0),
    lambda: zcdp.compose_budgets(lambda n: n)(-1), lambda: zcdp.composed_budget([], 3),
])
def test_bad_input_raises_value_error(bad):
    with pytest.raises(ValueError):
        bad()


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="delta"):
        zcdp.zcdp_to_approx_dp(0.1, 2)
    with pytest.raises(ValueError, match="rho"):
        zcdp.cks_eps(-0.1, 0.1)


def test_conversions_bound_the_exact_eps():
    mech = ShiftedLogGaussian(0.2, 0.5)
    delta = mpmath.mpf("1e-6")
    for n in (1, 10, 1000):
        v = mech.mp_v(n)
        exact = profile.gaussian_eps_of_delta(formulas.log_gap(n, 0.5) / mech.mp_sigma(), delta)
        assert exact <= zcdp.cks_eps(v, delta) <= zcdp.zcdp_to_approx_dp(v, delta)


def test_control_factor_two_dropped_is_rejected_directly():
    """The perturbed conversion rho + sqrt(rho log(1/delta)) falls below the exact eps."""
    mech = ShiftedLogGaussian(0.45, 1.0)
    delta = mpmath.mpf("1e-6")
    n = 1000
    v = mech.mp_v(n)
    exact = profile.eps_of_delta(mech.released_law(n), mech.released_law(n - 1), delta)
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

def test_log_likelihood_ratio_gaussian_and_atoms():
    P, Q = Gaussian(0, 1), Gaussian(1, 1)
    y = np.array([-1.0, 0.0, 2.5])
    np.testing.assert_allclose(zcdp.log_likelihood_ratio(P, Q, y), 0.5 - y, rtol=1e-12, atol=1e-12)
    mech = ShiftedLogGaussian(0.45, 1.0)
    P, Q = mech.released_law(1), mech.released_law(0)
    out = zcdp.log_likelihood_ratio(P, Q, np.array([0.0, 0.7]))
    assert out[0] == pytest.approx(float(mpmath.log(P.atom_mass / Q.atom_mass)), rel=1e-6, abs=0)
    assert out[1] == pytest.approx(float(P.density.logpdf(0.7) - Q.density.logpdf(0.7)), rel=1e-6, abs=0)


def test_the_privacy_loss_of_atoms_and_densities_point_by_point():
    """log dP/dQ: the atom masses on an atom (+inf where only P has one, -inf where only Q has
    one), the densities elsewhere (+inf where only P has a density part, -inf where only Q)."""
    from countdp.laws import MixedLaw, PointMass

    half = mpmath.mpf(1) / 2
    mixed = MixedLaw({0: half}, normal_part(half))
    y = np.array([0.0, 1.0, -2.0])
    # P mixed, Q the normal: +inf on P's atom, the log of (1/2 phi)/phi = -log 2 elsewhere
    assert _same(zcdp.log_likelihood_ratio(mixed, Gaussian(0, 1), y), [np.inf, -math.log(2), -math.log(2)])
    assert _same(zcdp.log_likelihood_ratio(Gaussian(0, 1), mixed, y), [-np.inf, math.log(2), math.log(2)])
    # atoms only against a density: -inf off the atom, +inf on it
    assert np.array_equal(zcdp.log_likelihood_ratio(PointMass(1), Gaussian(0, 1), y), [-np.inf, np.inf, -np.inf])
    assert np.array_equal(zcdp.log_likelihood_ratio(Gaussian(0, 1), PointMass(1), y), [np.inf, -np.inf, np.inf])
    # two atom tables: the log-ratio of the masses
    P, Q = MixedLaw({0: 0.25, 1: 0.75}, None), MixedLaw({0: 0.5, 1: 0.5}, None)
    assert np.allclose(zcdp.log_likelihood_ratio(P, Q, [0, 1]), [-math.log(2), math.log(1.5)], rtol=1e-15, atol=0)


def _same(got, want):
    """Equal infinities, finite values within 2 ulps of a log-ratio of order 1."""
    got, want = np.asarray(got), np.asarray(want)
    inf = np.isinf(want)
    return np.array_equal(got[inf], want[inf]) and np.allclose(got[~inf], want[~inf], rtol=0, atol=5e-16)


def test_the_privacy_loss_of_integer_laws_is_refused():
    from countdp.laws import FinitePmf

    with pytest.raises(ValueError, match="not integer laws"):
        zcdp.log_likelihood_ratio(FinitePmf({0: 1}), Gaussian(0, 1), [0.0])
