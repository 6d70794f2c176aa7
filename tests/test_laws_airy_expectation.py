"""Tests of countdp.laws.airy.expectation and .gauss_legendre: E g(X) by tanh-sinh and on the
Gauss-Legendre grid (1e-25 at dps 30), the fold edges, the float64 score CGF against mpmath and
the Arb pass of the grid.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from mpmath import mp

from countdp.laws import airy
from countdp.laws.airy import expectation


@pytest.mark.mp_dps(30)
def test_mp_expect_and_gauss_legendre_grid():
    one = airy.mp_expect(lambda x: 1)
    assert abs(one.value - 1) < mp.mpf("1e-27") and one.error < mp.mpf("1e-25")
    half = airy.mp_expect(lambda x: 1, half=True)
    assert abs(half.value - mp.mpf(1) / 2) < mp.mpf("1e-27")
    grid = airy.mp_gauss_legendre(mp.prec)
    assert grid is airy.mp_gauss_legendre(mp.prec) and grid.tail_ok(1)
    m, sq = grid.expect(lambda x: (abs(x), x * x))
    c = airy.airy_constants(30)
    assert abs(m.value - c.mean_abs) < mp.mpf("1e-25") and abs(sq.value - c.second_moment) < mp.mpf("1e-25")


@pytest.mark.parametrize("dps", [30, 31, 40])
@pytest.mark.slow
def test_mp_expect_covers_the_mean_of_a_linear_function_exactly(dps):
    """E[b X + t] = t exactly (the law is symmetric).  mpmath's tanh-sinh on the panel
    [-1, -1/2] of (b x + t) f(x) at b = 0.0025 stopped 1.1e-27 off at 30 and 31 digits while
    estimating 1e-33 (right at 32): without the second precision the bar was 5e-33.  The rest
    are seeded (b, t) of the sizes the drift calibration visits."""
    import random
    rng = random.Random(dps)
    cases = [(0.002476364592933688, -0.002064434111278577)]
    cases += [(10 ** rng.uniform(-3, 1), rng.uniform(-3, 3) * 10 ** rng.uniform(-3, 0)) for _ in range(6)]
    for b, t in cases:
        with mpmath.workdps(dps):
            est = airy.mp_expect(lambda x: b * x + t, [-t / b])
            assert abs(est.value - mpmath.mpf(t)) <= est.error, (b, t, est)


def test_fold_edges():
    e = airy.fold_edges()
    assert e[0] == 0 and e[-1] == expectation.FOLD_WINDOW and np.all(np.diff(e) > 0)
    assert 0.3 in airy.fold_edges(0.3) and 0.3 not in e


@pytest.mark.slow
def test_score_cgf_float_matches_mpmath():
    for u in (1e-3, 0.7, 5.0, 300.0):
        K = airy.score_cgf_float(u)
        Km = airy.score_cgf(u, 30)
        assert abs(K.value - float(Km)) <= 1e-13 * abs(K.value) + K.error
    # the folded route (u <= 1) keeps a float rounding floor of 1e-15 K in its error bar: the
    # value is that far from mpmath's (3e-16 to 7e-16 relative measured), whatever J - J10 says
    for u in (1e-6, 1e-3, 0.5, 1.0):
        K = airy.score_cgf_float(u)
        assert K.error >= 1e-15 * K.value * (1 - 1e-12)
        assert abs(K.value - float(airy.score_cgf(u, 30))) <= 1e-13 * abs(K.value)


@pytest.mark.parametrize("b, q", [("0.0368", "0.05"), ("1.24", "1.3"), ("1e-7", "1e-7"), ("0.6", "-0.2")])
def test_tilted_sign_moments_in_balls_equal_the_mpmath_pass(b, q):
    """The Arb pass over the grid gives the mpmath pass's values (same rule) to the precision."""
    with mpmath.workdps(40):
        grid = airy.mp_gauss_legendre(mpmath.mp.prec)
        b, q = mpmath.mpf(b), mpmath.mpf(q)

        def g(x):
            e = mpmath.expm1(b * x)
            return (e, x * (e + 1)) if x > q else (-e, -x * (e + 1))

        for ref, new in zip(grid.expect(g, split=q), grid.tilted_sign_moments(b, q)):
            assert abs(ref.value - new.value) <= 1e-38 * abs(ref.value)
            assert abs(ref.error - new.error) <= 1e-3 * ref.error


def test_the_gauss_legendre_grid_refuses_tilts_whose_tails_it_leaves_out():
    """tail_ok(b): f(32) e^{32|b|} below the precision.  f(32) ~ e^{-241}, so b = 1 is fine and
    b = 10 is not (e^{320 - 241}: the left-out tails dominate E e^{bX})."""
    grid = airy.mp_gauss_legendre(mp.prec)
    assert grid.tail_ok(1) and grid.tail_ok(-1)
    assert not grid.tail_ok(10) and not grid.tail_ok(-10)
