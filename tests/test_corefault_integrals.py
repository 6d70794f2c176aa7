"""countdp.arb.integrals: the proven tail bounds far out in the tails, where each is within a
fraction of a per cent of the true tail (closed forms in erfc at 50 digits): a bound that is
1 % too small is then below the tail, and a certificate built on it would be unsound."""

from __future__ import annotations

import mpmath
import pytest

from _ball_reference import exact
from countdp.arb.integrals import (gauss_tail_lower, gauss_tail_upper, normal_moment_tail,
                                   quad_exp_tail_lower, quad_exp_tail_upper)

pytestmark = pytest.mark.mp_dps(50)


def _gauss_tail(L, b):
    """int_L^inf exp(-x^2/2 + b x) dx = e^{b^2/2} sqrt(pi/2) erfc((L - b)/sqrt 2)."""
    L, b = mpmath.mpf(L), mpmath.mpf(b)
    return mpmath.exp(b * b / 2) * mpmath.sqrt(mpmath.pi / 2) * mpmath.erfc((L - b) / mpmath.sqrt(2))


def _tight(bound, true, within="0.005"):
    """true <= bound <= (1 + within) true, decided on exact balls."""
    return bound >= exact(true) and bound <= exact(true * (1 + mpmath.mpf(within)))


@pytest.mark.parametrize("L, b", [(40, 0), (45, 5), (30, -10)])
def test_gaussian_tail_bounds_hold_and_are_tight_far_out(L, b):
    assert _tight(gauss_tail_upper(L, b), _gauss_tail(L, b))
    # int_-inf^-L exp(-x^2/2 + b x) dx is the upper tail at L with -b
    assert _tight(gauss_tail_lower(-L, b), _gauss_tail(L, -b))


@pytest.mark.parametrize("A2, B, L", [(2, 1, 25), ("0.5", -3, 60)])
def test_quadratic_tail_bounds_hold_and_are_tight_far_out(A2, B, L):
    a = mpmath.mpf(mpmath.mpmathify(A2))
    # int_L^inf exp(-a x^2/2 + B x) dx = (1/sqrt a) int_{L sqrt a}^inf exp(-y^2/2 + (B/sqrt a) y) dy
    true = _gauss_tail(L * mpmath.sqrt(a), B / mpmath.sqrt(a)) / mpmath.sqrt(a)
    assert _tight(quad_exp_tail_upper(A2, B, L), true)
    assert _tight(quad_exp_tail_lower(A2, -B, -L), true)


@pytest.mark.parametrize("k", [0, 1, 2])
def test_moment_tail_bounds_hold_and_are_tight_far_out(k):
    T = mpmath.mpf(40)
    g = mpmath.exp(-T * T / 2)
    tail0 = 2 * _gauss_tail(T, 0)
    true = {0: tail0, 1: 2 * g, 2: 2 * T * g + tail0}[k]  # k = 2 by parts
    assert _tight(normal_moment_tail(40, k), true)
