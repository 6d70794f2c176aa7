"""numerics.quadrature.smooth_quad: Gauss-Legendre for smooth panels, tanh-sinh where better."""

import mpmath
import pytest

from countdp.numerics.quadrature import smooth_quad


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


def test_two_dimensional_gauss_legendre_on_a_product_of_normal_densities():
    with mpmath.workdps(20):
        axis = [-mpmath.inf, -3, 0, 3, mpmath.inf]
        val, err, rule = smooth_quad(lambda x, y: mpmath.npdf(x) * mpmath.npdf(y, 1, 2), axis, [-20, 1, 20],
                                     rel_enough=mpmath.mpf(10) ** -15, maxdegree=5, gl_maxdegree=5)
        assert rule == "gauss-legendre"
        assert abs(val - (mpmath.ncdf(10) - mpmath.ncdf(-10.5))) < 1e-15
