"""Tests of countdp.laws.priors: the priors of the many-count bound and their best parameters."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from countdp import formulas
from countdp.divergence.information import prior_moments
from countdp.laws import FinitePmf
from countdp.laws.priors import (Pmf, _bracket_zero, as_pmf, best_gaussian_prior_scale, best_uniform_scale,
                                 best_uniform_size, binomial_prior, discrete_laplace_prior,
                                 quantized_truncated_gaussian,
                                 quantized_truncated_gaussian_prior, uniform_prior, uniform_size_near)


pytestmark = pytest.mark.mp_dps(30)


def test_as_pmf_reads_every_form():
    for prior in ({0: 0.5, 2: 0.5}, Pmf(np.array([0, 2]), [0.5, 0.5]), ([0, 2], [0.5, 0.5]),
                  FinitePmf({0: "0.5", 2: "0.5"})):
        pmf = as_pmf(prior)
        assert list(pmf.ks) == [0, 2] and [float(p) for p in pmf.ps] == [0.5, 0.5]
    assert list(as_pmf([0.25, 0.75]).ks) == [0, 1]


def test_discrete_laplace_prior():
    p = discrete_laplace_prior(2, 10)
    assert list(p) == list(range(21))
    assert abs(mpmath.fsum(p.values()) - 1) < 1e-28
    assert all(abs(p[10 - k] - p[10 + k]) < 1e-30 for k in range(11))
    assert abs(p[11] / p[10] - mpmath.exp(-0.5)) < 1e-28
    m = prior_moments(p, 10)
    assert abs(m.mean - 10) < 1e-27


def test_bracket_zero_is_where_the_bracket_of_eq30_vanishes():
    for L in (0.5, 3, 8):
        h = formulas.truncated_normal_entropy(-L, L)
        x0 = _bracket_zero(h)
        assert abs(x0 - 2 * mpmath.exp(1 - h)) < 1e-25
        assert abs(formulas.gaussian_prior_bracket(x0, h)) < 1e-25


def test_best_uniform_size_matches_brute_force():
    for n in (1, 3, 10, 57):
        size = best_uniform_size(n, "1/10")
        brute = max(range(3, 2001, 2), key=lambda k: formulas.uniform_prior_bound(n, k, "0.1"))
        assert size.K == brute
        assert size.bound == formulas.uniform_prior_bound(n, brute, "0.1")
        # a first window far beyond the winner: the same K (the start only sets the cost)
        assert best_uniform_size(n, "1/10", K_max=4001).K == brute


def test_uniform_size_near():
    for a, n in [(8.96, 1), (8.96, 1000), (15, 33)]:
        K = uniform_size_near(a, "1/10", n)
        assert K % 2 == 1 and K >= 3
        if n == 1000:
            assert abs(K - a * 0.1 * n) <= 1


@pytest.mark.parametrize("x", [3.0, 3.9, 4.1, 9.2, 9.9, 10.2, 100.9, 101.1, 1000.5])
def test_uniform_size_near_is_the_nearest_odd_integer(x):
    # a r n = x with r = 1/2, n = 2: the odd K nearest to x is within 1 of it (9 for 9.2, not 11)
    K = uniform_size_near(x, "1/2", 2)
    assert K % 2 == 1 and K >= 3 and abs(K - x) <= 1, (x, K)


def test_best_scales_and_eq25():
    best = best_uniform_scale(0)
    assert abs(best.argmax - 2 * mpmath.exp(1.5)) < 1e-20
    assert abs(best.value - 3 / (2 * mpmath.e ** 3)) < 1e-25
    best = best_gaussian_prior_scale(3, 0)
    assert abs(best.argmax - formulas.gaussian_prior_best_scale(formulas.truncated_normal_entropy(-3, 3))) < 1e-18


@pytest.mark.parametrize("S,a,b", [(1, -3, 3), (7.5, -3, 3), (40, -1, 2.5), (3.3, 0.2, 1.7)])
def test_quantized_pmf_routes_agree_and_sum_to_one(S, a, b):
    pm = quantized_truncated_gaussian(S, a, b, "mp")
    pf = quantized_truncated_gaussian(S, a, b, "float")
    assert np.array_equal(pm.ks, pf.ks)
    assert abs(mpmath.fsum(pm.ps) - 1) < 1e-25
    assert abs(math.fsum(pf.ps) - 1) < 1e-13
    assert max(abs(float(x) - y) / float(x) for x, y in zip(pm.ps, pf.ps) if x > 0) < 1e-14


def test_quantized_pmf_symmetric_and_prior_shift():
    ps = quantized_truncated_gaussian(10, -3, 3).ps
    assert np.allclose(ps, ps[::-1], rtol=1e-14, atol=0)
    prior = quantized_truncated_gaussian_prior(10, 3)
    assert prior.offset == 31 and prior.pmf.ks.min() >= 1


@settings(max_examples=25, deadline=None)
@given(S=st.floats(0.5, 300), a=st.floats(-4, 1), w=st.floats(0.2, 5))
def test_property_quantized_pmf(S, a, w):
    q = quantized_truncated_gaussian(S, a, a + w)
    assert np.all(q.ps >= 0) and abs(math.fsum(q.ps) - 1) < 1e-12
    mean = formulas.truncated_normal_mean(a, a + w)
    m = prior_moments(q, 0)
    assert abs(m.mean - S * float(mean)) <= 0.5 + 1e-9  # eq (27), pointwise |Q - SZ| <= 1/2


@pytest.mark.parametrize("call", [
    lambda: uniform_prior(0), lambda: binomial_prior(0, 0.5), lambda: binomial_prior(3, 1),
    lambda: best_uniform_size(0, "1/10"), lambda: best_uniform_size(3, 1.5), lambda: best_uniform_size(3, "abc"),
    lambda: best_uniform_scale(-1), lambda: best_uniform_scale(1.5), lambda: best_gaussian_prior_scale(0),
    lambda: uniform_size_near(-1, "1/10", 3),
    lambda: quantized_truncated_gaussian(0, -1, 1), lambda: quantized_truncated_gaussian(2, 1, -1),
    lambda: quantized_truncated_gaussian(2, -1, 1, "fast"), lambda: as_pmf({0: -0.5, 1: 1.5}),
    lambda: as_pmf(([0, 1], [1.0])), lambda: as_pmf([[0.5], [0.5]]),
    lambda: as_pmf([0.5, float("nan"), 0.5]), lambda: as_pmf({0: math.inf, 1: 0.5})])
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="K must"):
        uniform_prior(0)
    with pytest.raises(ValueError, match="n must"):
        best_uniform_size(0, "1/10")
    with pytest.raises(ValueError, match="S must"):
        quantized_truncated_gaussian(0, -1, 1)


def test_the_gaussian_prior_search_refuses_a_negative_r():
    """r is a probability-like weight in [0, 1] of eq (30): a negative r is refused by name."""
    with pytest.raises(ValueError, match="r"):
        best_gaussian_prior_scale(1, r=-0.5)


def test_the_uniform_prior_search_refuses_a_negative_r():
    with pytest.raises(ValueError, match="r"):
        best_uniform_scale(r=-0.5)
