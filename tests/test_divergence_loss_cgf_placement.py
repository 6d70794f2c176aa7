"""How the density evaluator of ``divergence.loss_cgf`` places its work, read against closed
forms: where the integrand p^alpha q^(1-alpha) peaks and how wide it is, the splits of the
quadrature, which of the two forms of F keeps its relative accuracy as alpha -> 1, the supremum
of the log-ratio, and error bars that are not only upper bounds but tight (a bar many orders
wider than the error would let a wrong value through a comparison with it).

For P = N(0, 1) and Q = N(mu, s^2) the log-integrand g = lp + a1 (lp - lq) is a parabola:
g'' = a1 / s^2 - (1 + a1) and its vertex is x* = -a1 mu / (s^2 (1 + a1) - a1); for s = 1,
F(alpha) = (alpha - 1) alpha mu^2 / 2."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from _densities import logistic
from countdp.divergence.fallback_loss_cgf import LibraryLossCgf
from countdp.divergence.loss_cgf import DensityLossCgf
from countdp.laws import CallableDensity, ContinuousLaw, Gaussian


def vertex_and_width(a1: float, mu: float, s: float) -> tuple[float, float]:
    return -a1 * mu / (s * s * (1 + a1) - a1), 1 / math.sqrt((1 + a1) - a1 / (s * s))


def location_F(alpha, mu):
    """(alpha - 1) D_alpha(N(0, 1) || N(mu, 1)) = (alpha - 1) alpha mu^2 / 2, exactly."""
    return (alpha - 1) * alpha * mu * mu / 2


@pytest.mark.parametrize("a1, mu, s", [(0.5, 1.0, 1.0), (3.0, 1.0, 1.0), (0.5, 1.0, 2.0),
                                       (3.0, 1.0, 2.0), (100.0, 2.0, 2.0)])
def test_the_peak_is_the_vertex_of_the_parabola_to_a_grid_step_and_its_width_the_curvature(a1, mu, s):
    ev = DensityLossCgf(Gaussian(0, 1), Gaussian(mu, s))
    x, width = ev._peak(a1)
    want_x, want_w = vertex_and_width(a1, mu, s)
    step = float(np.max(np.diff(ev.X)))
    assert abs(x - want_x) <= step
    assert width == pytest.approx(want_w, rel=1e-6, abs=0)


@pytest.mark.parametrize("mu", [1.0, -1.0])
def test_a_peak_beyond_the_window_is_followed_outward_and_refined(mu):
    # a1 = 100, s = 1: the vertex at -100 mu, outside the window of +-61 scales the grid covers
    ev = DensityLossCgf(Gaussian(0, 1), Gaussian(mu, 1))
    assert not (ev.X[0] <= -100 * mu <= ev.X[-1])
    x, width = ev._peak(100.0)
    assert x == pytest.approx(-100 * mu, rel=1e-6, abs=0)
    assert width == pytest.approx(1.0, rel=1e-6, abs=0)


def test_splits_are_increasing_distinct_and_hold_the_peak_the_kinks_and_the_factors():
    # kinks declared 1e-14 and 0.5e-12 (relative) beside the splits x* and x* + width: the first
    # pair is merged, the second kept
    x_star, width = 0.25, 0.5
    kinks = (x_star + 1e-14, x_star + width + 0.5e-12, x_star + width + 2e-12, -3.0)
    ev = DensityLossCgf(Gaussian(0, 1), Gaussian(0.5, 1), breakpoints=kinks)
    ends = ev._splits(x_star, width)
    assert ends[0] == -math.inf and ends[-1] == math.inf
    inner = ends[1:-1]
    gaps = np.diff(inner)
    assert np.all(gaps > 1e-12 * np.maximum(1.0, np.abs(inner[1:])))
    for want in (x_star, -3.0, *(x_star + d * f * width for f in (1, 4, 16, 64) for d in (-1, 1))):
        assert min(abs(p - want) for p in inner) <= 1e-12 * max(1.0, abs(want))
    assert len(inner) == 4 * 2 + 1 + 2  # x*, the 8 factors, -3 and the one kink 2e-12 away
    # a window with finite ends keeps them as its outer splits
    half = ContinuousLaw(CallableDensity(lambda x: mpmath.log(2), lo=0.0, hi=0.5,
                                         np_logpdf=lambda x: np.full(np.shape(x), math.log(2))))
    ends = DensityLossCgf(half, half)._splits(0.25, 0.01)
    assert ends[0] == 0.0 and ends[-1] == 0.5 and all(0 < p < 0.5 for p in ends[1:-1])


@pytest.mark.parametrize("alpha", [1 + 1e-9, 1 + 1e-6, 1 + 1e-3, 2.0, 50.0])
def test_both_routes_keep_their_relative_accuracy_from_alpha_near_one_to_large_alpha(alpha):
    """The expm1 form of F where (alpha - 1) |L| <= 1, the log-sum-exp form beyond: taking the
    log-sum-exp form at alpha = 1 + 1e-9 loses six digits of F ~ 5e-12 in float, two in mpmath."""
    ev = DensityLossCgf(Gaussian(0, 1), Gaussian(0.1, 1))
    est = ev.F(np.array([alpha]))
    want = location_F(alpha, 0.1)
    assert abs(est.value[0] - want) <= est.error[0] <= 1e-11 * want
    with mpmath.workdps(30):
        a = mpmath.mpf(alpha)
        exact = location_F(a, mpmath.mpf(0.1))
        m = ev.mp_F(a)
        assert abs(m.value - exact) <= m.error <= mpmath.mpf(10) ** -20 * exact


@pytest.mark.parametrize("mu, s", [(0.1, 1.0), (1.0, 2.0), (-3.0, 0.5)])
def test_the_kl_of_both_routes_is_the_gaussians_closed_form_within_a_tight_bar(mu, s):
    """KL(N(0, 1) || N(mu, s^2)) = log s + (1 + mu^2)/(2 s^2) - 1/2: the float route's E_P[L]
    (the quadrature of p L) and the mpmath one's hold it within bars of 1e-12 and 1e-25 of it."""
    ev = DensityLossCgf(Gaussian(0, 1), Gaussian(mu, s))
    with mpmath.workdps(30):
        mu_, s_ = mpmath.mpf(mu), mpmath.mpf(s)
        exact = mpmath.log(s_) + (1 + mu_ * mu_) / (2 * s_ * s_) - mpmath.mpf(1) / 2
        k = ev.kl_float()
        assert abs(k.value - float(exact)) <= k.error <= 1e-12 * float(exact)
        m = ev.kl()
        assert abs(m.value - exact) <= m.error <= mpmath.mpf(10) ** -25 * exact


def test_the_location_guard_adds_a_relative_rounding_floor_only():
    # 1e6 scales from the origin the nodes are rounded with more bits; the bar the guard adds is
    # eps |F|, not eps / |F| (which is 1e-18 of F = 1e-6 at 30 digits)
    ev = DensityLossCgf(Gaussian(1e6, 1), Gaussian(1e6 + 1e-3, 1))
    assert ev._location_bits() > 0
    with mpmath.workdps(30):
        mu = mpmath.mpf(1e6 + 1e-3) - mpmath.mpf(1e6)
        exact = location_F(mpmath.mpf(2), mu)
        m = ev.mp_F(2)
        assert abs(m.value - exact) <= m.error <= mpmath.mpf(10) ** -25 * exact


@pytest.mark.parametrize("m", [0.1, 0.2, 0.3])
def test_d_inf_is_the_interior_maximum_of_a_bounded_log_ratio(m):
    """N(0, 1) against a logistic law: L = log p/q falls to -inf in both tails, its maximum
    (0.47 .. 0.51) lies between grid points and is refined by the optimiser; the maximiser found
    by mpmath's root of L' at 40 digits."""
    P, Q = Gaussian(0, 1), logistic(m)
    with mpmath.workdps(40):
        def L(x):
            return P.density.mp_logpdf(x) - Q.density.mp_logpdf(x)
        top = L(mpmath.findroot(lambda x: mpmath.diff(L, x), 0.0))
    got = DensityLossCgf(P, Q).d_inf().value
    assert abs(got - top) <= 1e-12


def test_a_constant_log_ratio_on_half_the_line_has_that_constant_as_d_inf():
    """P = 2 phi on (0, inf) against Q = N(0, 1): L = log 2 wherever P lives, so D_alpha = log 2
    for every alpha.  Far out the two log-densities are ~ -x^2/2 with rounding far above log 2
    (at x = 2^25, 2^-6): the tail probes must not read that rounding as the log-ratio."""
    std = Gaussian(0, 1).density
    half = ContinuousLaw(CallableDensity(lambda x: std.mp_logpdf(x) + mpmath.log(2), lo=0.0,
                                         np_logpdf=lambda x: std.logpdf(x) + math.log(2)))
    ev = DensityLossCgf(half, Gaussian(0, 1))
    assert ev.infinite_reason is None
    assert abs(ev.d_inf().value - mpmath.log(2)) <= 1e-11
    est = ev.F(np.array([1.5, 3.0]))
    for alpha, v, e in zip((1.5, 3.0), est.value, est.error):
        assert abs(v - (alpha - 1) * math.log(2)) <= e <= 1e-11
    with mpmath.workdps(30):
        m = ev.mp_F(3)
        assert abs(m.value - 2 * mpmath.log(2)) <= m.error <= mpmath.mpf(10) ** -25


def test_the_library_fallback_is_alpha_minus_one_times_d_with_a_bar_of_its_rounding():
    ev = LibraryLossCgf(Gaussian(0, 1), Gaussian(0.5, 1))
    est = ev.F(np.array([2.0, 3.0]))
    for alpha, v, e in zip((2.0, 3.0), est.value, est.error):
        want = location_F(alpha, 0.5)
        assert abs(v - want) <= e <= 1e-13 * want
    m = ev.mp_F(3)
    assert abs(m.value - location_F(mpmath.mpf(3), mpmath.mpf(0.5))) <= m.error


@pytest.mark.parametrize("alpha", [1.5, 3.0, 41.0])
def test_the_library_fallback_carries_d_s_whole_interval_through_the_factor_alpha_minus_one(monkeypatch, alpha):
    """F = (alpha - 1) D with alpha - 1 exact: F's interval is D's interval times alpha - 1 (both
    ends), the float route's contains it.  D is given a wide bar here (1e-3), so a bar scaled by any
    other factor shows."""
    from countdp.divergence import fallback_loss_cgf
    from countdp.divergence.value import Divergence
    v, e = mpmath.mpf("0.75"), mpmath.mpf("1e-3")
    monkeypatch.setattr(fallback_loss_cgf.renyi, "renyi", lambda P, Q, a: Divergence(v, e, alpha=a))
    ev = LibraryLossCgf(Gaussian(0, 1), Gaussian(0.5, 1))
    a1 = mpmath.mpf(alpha) - 1
    m = ev.mp_F(alpha)
    assert m.value - m.error == pytest.approx((v - e) * a1, rel=1e-12, abs=0)
    assert m.value + m.error == pytest.approx((v + e) * a1, rel=1e-12, abs=0)
    f = ev.F(np.array([alpha]))
    assert f.value[0] - f.error[0] <= (v - e) * a1 and (v + e) * a1 <= f.value[0] + f.error[0]
