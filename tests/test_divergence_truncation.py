"""Tests of countdp.divergence.truncation: the quadratic coefficient of log(p^alpha q^(1-alpha))
from the densities, the order where it changes sign, and truncated Renyi integrals."""

from __future__ import annotations

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from countdp import formulas
from countdp.divergence import truncation
from countdp.divergence.renyi import gaussian_renyi
from countdp.laws import Gaussian, PointMass
from countdp.mechanisms.unequal_variance import UnequalVarianceGaussian
from countdp.numerics.rational import mpf_at_least
from countdp.harness.results import holds


pytestmark = pytest.mark.mp_dps(30)


def _mp(q):
    return mpmath.mpf(q.numerator) / q.denominator


@given(st.integers(1, 10**4))
@settings(max_examples=40, deadline=None)
def test_threshold_formula_is_where_the_quadratic_coefficient_changes_sign(n):
    with mpmath.workdps(30):
        X = UnequalVarianceGaussian(0.5)
        P, Q = X.law(n + 1), X.law(n)
        thr = X.order_threshold(n)
        below = _mp(thr) * (1 - mpmath.mpf("1e-12"))
        quad = truncation.quadratic_coefficient(P, Q, below)
        assert quad.k > quad.noise and quad.integrable
        at = truncation.quadratic_coefficient(P, Q, mpf_at_least(thr))
        assert at.k <= at.noise and not at.integrable
        margin = formulas.gaussian_renyi_margin(below, P.s, Q.s)
        assert (abs(2 * quad.k * P.s ** 2 * Q.s ** 2 - margin)
                <= 2 * quad.noise * P.s ** 2 * Q.s ** 2 + 1e-20 * abs(margin))


def test_bisection_locates_eq35_and_rejects_the_wrong_formulas():
    X = UnequalVarianceGaussian(0.5)
    for n in (1, 10, 1000):
        bracket = truncation.locate_order_threshold(X.law(n + 1), X.law(n), rtol=mpmath.mpf("1e-20"))
        mid, tol = bracket.mid, bracket.half_width + 10 * mpmath.eps * bracket.hi
        assert holds(mid, "==", _mp(X.order_threshold(n)), tol)
        # the negative controls of eq35, directly
        assert not holds(mid, "==", mpmath.mpf((n + 1) ** 2) / (2 * n), tol)
        assert not holds(mid, "==", mpmath.mpf(n ** 2) / (2 * n + 1), tol)
        # the tolerance above is the bracket's own: its centre and half-width, to rtol
        assert bracket.mid == (bracket.lo + bracket.hi) / 2
        assert bracket.half_width == (bracket.hi - bracket.lo) / 2 <= mpmath.mpf("1e-20") * bracket.hi


def test_locate_without_sign_change_is_refused():
    with pytest.raises(ValueError, match="sign change"):
        truncation.locate_order_threshold(Gaussian(0, 1), Gaussian(0, 2))


def test_truncated_integrals_finite_side_converge_to_the_closed_form():
    P, Q = Gaussian(0, 5), Gaussian(1, 3)
    alpha = mpmath.mpf("1.25")
    est = truncation.renyi_from_truncation(P, Q, alpha, 400)
    closed = gaussian_renyi(alpha, 0, 5, 1, 3).value
    assert abs(est.value - closed) <= est.error + 1e-25
    assert truncation.tail_remainder(P, Q, alpha, 400) < 1e-100


def test_truncated_integrals_at_and_above_the_threshold_grow_inside_the_sandwich():
    P, Q = Gaussian(0, 5), Gaussian(1, 3)
    for alpha in (mpmath.mpf(25) / 16, mpmath.mpf(4)):
        assert mpmath.isinf(truncation.tail_remainder(P, Q, alpha, 100))
        assert mpmath.isinf(truncation.renyi_from_truncation(P, Q, alpha, 100).value)
        prev = None
        for T in (40, 160, 640):
            logI = truncation.truncated_renyi_integral(P, Q, alpha, T)
            s = truncation.truncated_bounds_convex(P, Q, alpha, T)
            assert s.lower - logI.error - s.rounding <= logI.value <= s.upper + logI.error + s.rounding
            if prev is not None:
                assert logI.value > prev + 5
            prev = logI.value
    with pytest.raises(ValueError, match="threshold"):
        truncation.truncated_bounds_convex(P, Q, mpmath.mpf("1.2"), 10)


@pytest.mark.parametrize("call,name", [
    (lambda: truncation.quadratic_coefficient(PointMass(0), Gaussian(0, 1), 2), "P"),
    (lambda: truncation.quadratic_coefficient(Gaussian(0, 1), Gaussian(0, 2), 2, h=0), "h"),
    (lambda: truncation.truncated_renyi_integral(Gaussian(0, 1), Gaussian(0, 2), 2, -1), "T"),
    (lambda: truncation.locate_order_threshold(Gaussian(0, 2), Gaussian(0, 1), lo=3), "lo"),
    (lambda: truncation.locate_order_threshold(Gaussian(0, 2), Gaussian(0, 1), hi=1.1), "hi"),
    (lambda: truncation.locate_order_threshold(Gaussian(0, 2), Gaussian(0, 1), rtol=-0.1), "rtol"),
    (lambda: truncation.locate_order_threshold(Gaussian(0, 2), Gaussian(0, 1), rtol=0), "rtol"),
])
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_the_rounding_bound_sees_the_end_where_the_log_densities_are_largest():
    """Q centred at 5: |alpha log p| + |(1 - alpha) log q| is largest at x = -T (215 at T = 10,
    against 115 at x = T); the bound is 64 ulps of that size, whichever end it sits at."""
    from countdp.divergence.truncation import log_integrand_rounding
    from countdp.laws import Gaussian

    P, Q, a, T = Gaussian(0, 1), Gaussian(5, 1), 2, mpmath.mpf(10)
    half_log_2pi = mpmath.log(2 * mpmath.pi) / 2

    def size(x):
        return abs(a * (-x * x / 2 - half_log_2pi)) + abs((1 - a) * (-(x - 5) ** 2 / 2 - half_log_2pi))

    assert size(-T) > 1.8 * size(T)
    assert log_integrand_rounding(P, Q, a, T) >= 64 * mpmath.eps * (size(-T) + 1) * (1 - 1e-12)


def test_the_truncated_integrals_error_bar_stays_at_the_working_precision():
    """log I(T)'s error is mpmath's estimate plus the rounding bound: near 10^-dps relative, not
    a quotient of the two (which would make a tolerance that accepts anything)."""
    P, Q = Gaussian(0, 1), Gaussian(1, 1)
    with mpmath.workdps(30):
        est = truncation.truncated_renyi_integral(P, Q, 2, 12)
        # int_{-12}^{12} p^2 q^{-1} = e^{1} P(|N(-1, 1)| <= 12): the closed form, to 1e-30
        closed = 1 + mpmath.log(mpmath.ncdf(13) - mpmath.ncdf(-11))
        assert est.error < 1e-24
        assert abs(est.value - closed) <= est.error


def test_the_convex_sandwich_holds_when_the_upper_end_dominates():
    """The mirror image of the sandwich test above (Q centred at -1): the integral is carried by
    x near T, where the tangent lower bound e^{g(T)} (1 - e^{-2 T g'(T)})/g'(T) is the binding
    one; it must stay below log I(T)."""
    P, Q = Gaussian(0, 5), Gaussian(-1, 3)
    for alpha in (mpmath.mpf(25) / 16, mpmath.mpf(4)):
        for T in (40, 160):
            logI = truncation.truncated_renyi_integral(P, Q, alpha, T)
            s = truncation.truncated_bounds_convex(P, Q, alpha, T)
            assert s.lower - logI.error - s.rounding <= logI.value <= s.upper + logI.error + s.rounding


@pytest.mark.parametrize("T", [1, 2, 4])
def test_a_short_window_keeps_the_divergence_between_its_ends(T):
    """At a cut-off of 1 to 4 the tail remainder R(T) is a large part of the integral: the
    interval [log I(T), log(I(T) + R(T))] / (alpha - 1) must still hold the closed form."""
    P, Q = Gaussian(0, 1), Gaussian(1, mpmath.mpf("1.2"))
    alpha = 2
    est = truncation.renyi_from_truncation(P, Q, alpha, T)
    exact = gaussian_renyi(alpha, 0, 1, 1, mpmath.mpf("1.2")).value
    assert est.value - est.error <= exact <= est.value + est.error
    assert est.error > 0


@pytest.mark.parametrize("x0,h", [(0, None), ("0.7", "0.25"), ("-3", 2)])
def test_both_coefficients_of_the_quadratic_are_the_gaussians_exact_ones(x0, h):
    """For N(m1, s1^2), N(m2, s2^2): alpha log p + (1 - alpha) log q = -k x^2 + b x + const with
    k = alpha/(2 s1^2) + (1-alpha)/(2 s2^2) and b = alpha m1/s1^2 + (1-alpha) m2/s2^2, whatever
    the point and step of the differences (a quadratic's are exact up to the stated noise)."""
    m1, s1, m2, s2 = mpmath.mpf("0.4"), mpmath.mpf("0.8"), mpmath.mpf("-1.1"), mpmath.mpf("1.5")
    for alpha in (mpmath.mpf("1.5"), mpmath.mpf(3)):
        c = truncation.quadratic_coefficient(Gaussian(m1, s1), Gaussian(m2, s2), alpha,
                                             x0=mpmath.mpf(x0), h=None if h is None else mpmath.mpf(h))
        k = alpha / (2 * s1 ** 2) + (1 - alpha) / (2 * s2 ** 2)
        b = alpha * m1 / s1 ** 2 + (1 - alpha) * m2 / s2 ** 2
        assert abs(c.k - k) <= c.noise and c.noise < mpmath.mpf(10) ** (10 - mpmath.mp.dps)
        assert abs(c.b - b) <= 2 * c.noise * (1 + abs(mpmath.mpf(x0)))


@pytest.mark.parametrize("T", [0.5, 1.5, 3, 40])
def test_the_convex_sandwich_is_tight_on_a_nearly_flat_integrand(T):
    """N(0, 2) against N(0, 1) just above the threshold alpha = 4/3 (eq 34): g is nearly constant,
    I(T) ~ 2T e^{g(0)}, and both ends of the sandwich come within 1e-5 of log I(T) at any window,
    short or long: the upper end log(2T) + max g(+-T) is not only an upper bound there but the
    value, so a smaller one (2^T for 2T is 6 % smaller at T = 1.5) is caught."""
    P, Q = Gaussian(0, 2), Gaussian(0, 1)
    alpha = mpmath.mpf(4) / 3 + mpmath.mpf(10) ** -9
    logI = truncation.truncated_renyi_integral(P, Q, alpha, T)
    s = truncation.truncated_bounds_convex(P, Q, alpha, T)
    bar = logI.error + s.rounding
    assert s.lower - bar <= logI.value <= s.upper + bar
    assert s.upper - s.lower <= 1e-5


@pytest.mark.parametrize("side", [1, -1])
def test_nodes_pile_up_geometrically_towards_an_end_where_the_integrand_grows_only(side):
    # N(0, 1) vs N(side, 1) at alpha = 50: the integrand's peak sits at (1 - alpha) side = -49 side,
    # outside [-10, 10]; it grows towards the end -10 side with |g'| = 39 there and decays
    # towards the other end
    P, Q, alpha, T = Gaussian(0, 1), Gaussian(side, 1), 50, mpmath.mpf(10)
    g = truncation.log_renyi_integrand(P, Q, alpha)
    nodes = truncation._quadrature_nodes(P, Q, g, truncation.quadratic_coefficient(P, Q, alpha), T)
    assert nodes == sorted(nodes) and nodes[0] == -T and nodes[-1] == T
    near_grow = sorted(side * x + T for x in nodes if 0 < side * x + T < 1)
    assert min(near_grow) <= 1 / mpmath.mpf(39) and len(near_grow) >= 3
    assert all(b / a >= 4 for a, b in zip(near_grow, near_grow[1:]))   # a geometric pile
    assert [x for x in nodes if T - mpmath.mpf("0.5") < side * x < T] == []   # none at the other end


def test_the_convex_sandwich_carries_the_rounding_of_both_of_its_logs():
    """The sandwich's allowance is the rounding bound of g at each of its two ends, added:
    2 x log_integrand_rounding, exactly (an allowance shrunk below it would let a rounded log
    pass for a bound)."""
    P, Q = Gaussian(0, 5), Gaussian(-1, 3)
    for alpha, T in ((mpmath.mpf(25) / 16, 40), (mpmath.mpf(4), 160)):
        s = truncation.truncated_bounds_convex(P, Q, alpha, T)
        r = truncation.log_integrand_rounding(P, Q, alpha, T)
        assert r > 0 and s.rounding == 2 * r


@pytest.mark.parametrize("fn", [truncation.renyi_from_truncation, truncation.tail_remainder,
                                truncation.truncated_bounds_convex,
                                lambda P, Q, alpha, T: truncation.locate_order_threshold(P, Q)])
def test_the_whole_line_bounds_refuse_a_pair_whose_log_integrand_is_not_quadratic(fn):
    """Laplace(0, 1) || Laplace(2, 1) at alpha = 2: the second difference at 0 (the kink) reads
    k = 2, and the concave remainder beyond T = 1 then gave D in 1.42 +- 0.17 for 1.596 (g bends
    up at the second centre); a truncated Gaussian is quadratic on its support only."""
    from countdp.laws import Laplace, TruncatedGaussian
    with pytest.raises(ValueError, match="P must be a Gaussian law on the whole line"):
        fn(Laplace(0, 1), Laplace(2, 1), 2, 1)
    with pytest.raises(ValueError, match="Q must be a Gaussian law on the whole line"):
        fn(Gaussian(0, 1), TruncatedGaussian(-3, 3), 2, 1)
