"""countdp.numerics.montecarlo, estimate and tolerance pinned by exact values: the mean and
standard error of a known sample, the 5-s.e. half-width, the interval of an Estimate, the
working precision's error bar; and the 5-s.e. interval's coverage by a seeded simulation."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from countdp.numerics.estimate import Z_BAR, Estimate
from countdp.numerics.montecarlo import mc_mean
from countdp.numerics.tolerance import working_precision

SAMPLE = np.array([1.0, 2.0, 4.0, 7.0, 11.0])  # mean 5, sample variance (Bessel) 16.5


def _replay(values):
    """A draw that hands out ``values`` in order, chunk after chunk."""
    it = iter(values)
    return lambda rng, m: np.array([next(it) for _ in range(m)])


@pytest.mark.parametrize("chunk", [1, 2, 5])
def test_mean_and_error_pinned_on_a_small_sample(chunk):
    est = mc_mean(_replay(SAMPLE), 0, draws=5, chunk=chunk)
    assert est.draws == 5
    assert est.value == pytest.approx(5.0, rel=1e-15)
    assert est.se == pytest.approx(math.sqrt(16.5 / 5), rel=1e-14)
    assert est.error == pytest.approx(5 * math.sqrt(16.5 / 5), rel=1e-14)


def test_interval_is_five_standard_errors():
    assert Z_BAR == 5.0
    est = mc_mean(lambda g, m: g.standard_normal(m), np.random.default_rng(3), 10_000, chunk=999)
    assert est.error == pytest.approx(5 * est.se, rel=1e-15)
    assert est.se == pytest.approx(0.01, rel=0.05)


def test_five_standard_errors_cover_the_mean():
    """400 seeded means of 500 exponential draws each: a 5-s.e. interval misses the true mean
    1 with probability about 6e-7 (and a 2-s.e. interval about 5 % of the time)."""
    rng = np.random.default_rng(20260715)
    misses_5 = misses_2 = 0
    for _ in range(400):
        est = mc_mean(lambda g, m: g.exponential(1.0, m), rng, 500)
        misses_5 += abs(est.value - 1) > est.error
        misses_2 += abs(est.value - 1) > 2 * est.se
    assert misses_5 == 0 and 5 <= misses_2 <= 40


def test_estimate_interval_contains_value_plus_minus_error():
    assert Estimate(3, 0.5).interval == (2.5, 3.5)
    lo, hi = Estimate(mpmath.mpf(-1), mpmath.mpf("0.25")).interval
    assert (lo, hi) == (mpmath.mpf("-1.25"), mpmath.mpf("-0.75"))


def test_working_precision_pinned():
    assert working_precision(6, 30) == mpmath.mpf(10) ** -24
    assert working_precision(0, 20) == mpmath.mpf(10) ** -20
    with mpmath.workdps(40):
        assert working_precision(3) == mpmath.mpf(10) ** -37
    with pytest.raises(ValueError, match="digits_lost"):
        working_precision(-1)
