"""numerics.quadrature.smooth_quad: Gauss-Legendre for smooth panels, tanh-sinh where better."""

import math

import mpmath
import numpy as np
import pytest

from countdp.numerics.quadrature import log_window_integral, smooth_quad


def test_gauss_legendre_on_a_smooth_integrand_matches_the_exact_value():
    with mpmath.workdps(30):
        val, err, rule = smooth_quad(lambda t: mpmath.npdf(t), [-mpmath.inf, -2, 0, 2, mpmath.inf],
                                     rel_enough=(working := mpmath.mpf(10) ** -24))
        assert rule == "gauss-legendre"
        assert abs(val - 1) < 1e-25
        assert err <= working * abs(val)


def test_tanh_sinh_is_kept_where_gauss_legendre_does_not_converge():
    # an endpoint singularity: Gauss-Legendre stalls, tanh-sinh converges
    with mpmath.workdps(30):
        val, err, rule = smooth_quad(lambda t: 1 / mpmath.sqrt(t), [0, 1], rel_enough=mpmath.mpf(10) ** -24)
        assert rule == "tanh-sinh"
        assert abs(val - 2) < 1e-15


@pytest.mark.parametrize("rule", ["tanh-sinh", "gauss-legendre"])
def test_both_rules_agree_on_a_kinked_integrand_split_at_its_kink(rule):
    with mpmath.workdps(30):
        val, err, _ = smooth_quad(lambda t: abs(t - 1) * mpmath.npdf(t), [-mpmath.inf, 0, 1, mpmath.inf],
                                  rel_enough=mpmath.mpf(10) ** -24, rule=rule)
        # E|Z - 1| = 2 phi(1) + 1 (2 Phi(1) - 1)
        exact = 2 * mpmath.npdf(1) + (2 * mpmath.ncdf(1) - 1)
        assert abs(val - exact) < 1e-24 + err


@pytest.mark.slow
def test_two_dimensional_gauss_legendre_on_a_product_of_normal_densities():
    with mpmath.workdps(20):
        axis = [-mpmath.inf, -3, 0, 3, mpmath.inf]
        val, err, rule = smooth_quad(lambda x, y: mpmath.npdf(x) * mpmath.npdf(y, 1, 2), axis, [-20, 1, 20],
                                     rel_enough=mpmath.mpf(10) ** -15, maxdegree=5, gl_maxdegree=5)
        assert rule == "gauss-legendre"
        assert abs(val - (mpmath.ncdf(10) - mpmath.ncdf(-10.5))) < 1e-15


# --------------------------------------------------------------------------------------------
# log_window_integral: float Gauss-Legendre 16 vs 10 on the window of a unimodal log-integrand
# --------------------------------------------------------------------------------------------

def _log_kinked(k):
    """log int exp(-|y - k| - y^2/2) dy = log sqrt(2 pi) + log(e^{k+1/2} Q(k+1) + e^{1/2-k} Phi(k-1))."""
    k = mpmath.mpf(k)
    return mpmath.log(mpmath.sqrt(2 * mpmath.pi) * (mpmath.exp(k + 0.5) * mpmath.ncdf(-k - 1)
                                                    + mpmath.exp(0.5 - k) * mpmath.ncdf(k - 1)))


@pytest.mark.parametrize("s", [1e-3, 1.0, 250.0])
def test_log_window_integral_of_a_gaussian_is_exact_within_its_error(s):
    est = log_window_integral(lambda y: -0.5 * (y / s) ** 2 + 700.0, 0.0, s)
    exact = 700 + math.log(math.sqrt(2 * math.pi) * s)
    assert abs(est.value - exact) <= est.error and est.error < 1e-12


@pytest.mark.parametrize("k", [0.3137, -1.71, 2.05])
def test_log_window_integral_with_a_kink_as_anchor_keeps_its_accuracy(k):
    """A kink of ell off the 96 uniform panels' edges: given as an anchor it becomes a panel edge,
    and the value is exact to near float precision; inside a panel the 16- and 10-point rules
    would both lose ten digits (the value 1e-5 off, and the error bar with it)."""
    ell = lambda y: -np.abs(y - k) - 0.5 * y * y
    est = log_window_integral(ell, 0.0, 1.0, anchors=(k,))
    exact = float(_log_kinked(k))
    assert abs(est.value - exact) <= est.error and est.error < 1e-12
    bare = log_window_integral(ell, 0.0, 1.0)          # the control: no anchor
    assert bare.error > 1e3 * est.error and abs(bare.value - exact) > 1e-12


def test_log_window_integral_on_a_half_line_and_an_undecaying_integrand():
    est = log_window_integral(lambda y: -y, 1.0, 1.0, lo=0.0, anchors=(0.0,))
    assert abs(est.value) <= est.error and est.error < 1e-12          # int_0^inf e^-y dy = 1
    with pytest.raises(RuntimeError, match="does not decay"):
        log_window_integral(lambda y: np.zeros_like(y), 0.0, 1.0)


@pytest.mark.parametrize("degree", [2, 3, 4])
def test_a_two_dimensional_integral_carries_its_inner_integrals_error(degree):
    """int_0^1 int_-1^1 (1 + x)/(1 + 100 y^2) dy dx = 3 atan(10)/10: the outer integrand is linear
    (its rule exact at once), the inner one hard.  mpmath's own 2-D estimate is the outer's alone:
    3.7e-22 at degree 2 for an error of 2.8e-3."""
    exact = mpmath.mpf(3) / 2 * mpmath.atan(10) / 5
    val, err, _ = smooth_quad(lambda x, y: (1 + x) / (1 + 100 * y * y), [0, 1], [-1, 0, 1], rel_enough=1,
                              gl_maxdegree=degree)
    assert abs(val - exact) <= err
    assert err <= 1000 * abs(val - exact)  # a bar of the error's size, within mpmath's own pessimism


def test_a_two_dimensional_estimate_weighs_each_inner_error_by_where_it_sits():
    """A narrow outer peak (width 0.05) over a hard inner integral: the inner errors enter as
    integrated over x (far inner integrals, 1e-170 in size, stop at 0.4 % of themselves, which
    is nothing of the total), so the bar stays of the error's size."""
    def f(x, y):
        return mpmath.exp(-(x * x) * 200) / (1 + 100 * y * y)
    exact = mpmath.sqrt(mpmath.pi / 200) * mpmath.atan(10) / 5
    for degree in (3, 6):
        val, err, _ = smooth_quad(f, [-mpmath.inf, -1, 0, 1, mpmath.inf], [-1, 0, 1], rel_enough=1, gl_maxdegree=degree)
        assert abs(val - exact) <= err + 4 * mpmath.eps * abs(val)  # (the rounding is the caller's to add)
        assert err <= 1000 * abs(val - exact) + 1e-15 * val
