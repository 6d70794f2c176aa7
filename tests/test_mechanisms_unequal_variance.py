"""Tests of countdp.mechanisms.unequal_variance: X_n ~ N(n, r^2 n^2) of eq (33)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from countdp.laws import PointMass
from countdp.laws.moments import expected_distance
from countdp.mechanisms.unequal_variance import UnequalVarianceGaussian


def test_unequal_variance_mechanism():
    with mpmath.workdps(30):
        X = UnequalVarianceGaussian(0.5)
        assert isinstance(X.law(0), PointMass) and X.law(0).x == 0
        law = X.law(4)
        assert law.mu == 4 and law.s == 2
        e = expected_distance(law, center=4)
        assert abs(e.value - X.expected_abs_error(4)) <= e.error + 1e-25
        assert X.sample(3, np.random.default_rng(1), 5).shape == (5,)


def test_order_threshold_is_eq35_exactly():
    X = UnequalVarianceGaussian(0.5)
    assert X.order_threshold(1) == Fraction(4, 3)
    assert X.order_threshold(3) == Fraction(16, 7)
    assert all(X.order_threshold(n) > 1 for n in (1, 10, 10**6))


@pytest.mark.parametrize("call,name", [
    (lambda: UnequalVarianceGaussian(0), "r"),
    (lambda: UnequalVarianceGaussian(0.5).law(-1), "n"),
    (lambda: UnequalVarianceGaussian(0.5).order_threshold(0), "n"),
    (lambda: UnequalVarianceGaussian(0.5).expected_abs_error(1.5), "n"),
])
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.parametrize("r,n", [(Fraction(1, 2), 5), (Fraction(3, 2), 1), (Fraction(1, 4), 40)])
def test_the_mechanism_s_draws_follow_its_law(r, n):
    """X_n drawn by the mechanism itself (not by its law's sampler) against the law's cdf:
    Kolmogorov-Smirnov over 200,000 seeded draws at the level p > 1e-6; at n = 0 every draw is 0."""
    from scipy import stats
    mech = UnequalVarianceGaussian(r)
    x = mech.sample(n, np.random.default_rng(20261204), 200_000)
    assert stats.kstest(x, lambda t: mech.law(n).cdf(np.asarray(t))).pvalue > 1e-6
    assert np.all(mech.sample(0, np.random.default_rng(1), 100) == 0)
