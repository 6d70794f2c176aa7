"""Tests of countdp.laws.airy.mp_values, .asymptotics and .float_values: the density, score and tails
in float64 against mpmath at 1e-14 relative (1e-13 for the survival function below z = 12, where
Ai'^2 - z Ai^2 cancels ~2 digits), symmetry, the quantile, derivatives and log-concavity.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from mpmath import mp

from countdp.laws import airy

TAIL_POINTS = [0.0, 0.5, 2.0, 10.0, 12.9, 13.02, 13.1, 100.0, 1e4, 1e6]


@pytest.mark.parametrize("x", TAIL_POINTS)
@pytest.mark.mp_dps(40)
def test_logpdf_score_tail_stability(x):
    lf = airy.logpdf(x)
    assert np.isfinite(lf)
    ref = airy.mp_logpdf(x)
    assert abs(lf - float(ref)) <= 1e-14 * max(1.0, abs(float(ref)))
    for xx in (x, -x):
        s, ms = airy.score(xx), airy.mp_score(xx)
        assert abs(s - float(ms)) <= 1e-14 * max(abs(float(ms)), 1e-300)
    ls, mls = airy.logsf(x), mp.log(airy.mp_sf(x))
    assert abs(ls - float(mls)) <= 2e-13 * max(1.0, abs(float(mls)))
    if x < 30:
        assert airy.sf(x) == pytest.approx(float(airy.mp_sf(x)), rel=2e-13, abs=0)


@pytest.mark.mp_dps(40)
def test_tiny_x_score_keeps_relative_accuracy():
    for x in (1e-300, 1e-12, 1e-3, 0.07):
        assert airy.score(x) == pytest.approx(float(airy.mp_score(x)), rel=1e-14, abs=0)
    assert airy.score(0.0) == 0.0
    assert airy.score(1e-300) == pytest.approx(2 * -airy.float_constants().a1p * 1e-300, rel=1e-14, abs=0)


def test_extreme_arguments():
    assert airy.logpdf(np.inf) == -np.inf and airy.pdf(-np.inf) == 0.0
    assert airy.cdf(np.inf) == 1.0 and airy.cdf(-np.inf) == 0.0
    assert airy.score(np.inf) == np.inf and airy.score(-np.inf) == -np.inf
    # far beyond scipy.special.airye's range (NaN there for z > 2^20)
    x = 1e12
    assert np.isfinite(airy.logpdf(x)) and airy.logpdf(x) == pytest.approx(-(4 / 3) * x**1.5, rel=1e-5, abs=0)
    assert airy.score(x) == pytest.approx(2 * math.sqrt(x + airy.float_constants().a1p), rel=1e-12, abs=0)


@pytest.mark.mp_dps(30)
def test_cdf_against_quadrature():
    for x in (-6.0, -2.5, -0.4, 0.0, 0.3, 1.7, 4.0, 9.0):
        q = mp.quad(airy.mp_pdf, [-mp.inf, min(x, 0), x] if x > 0 else [-mp.inf, x])
        assert abs(airy.mp_cdf(x) - q) < mp.mpf("1e-25"), x
        assert airy.cdf(x) == pytest.approx(float(q), rel=2e-13, abs=0)
    assert airy.cdf(0.0) == 0.5 and airy.sf(0.0) == 0.5
    assert abs(airy.mp_cdf(0) - mp.mpf(1) / 2) < mp.mpf("1e-28")
    # the tail mass beyond 5 by quadrature vs the antiderivative route in float
    q = mp.quad(lambda x: airy.mp_pdf(x), [5, 10, mp.inf])
    assert airy.sf(5.0) == pytest.approx(float(q), rel=1e-13, abs=0)


@given(st.floats(min_value=-60, max_value=60, allow_nan=False))
@settings(max_examples=200, deadline=None)
def test_symmetry_and_monotonicity(x):
    assert airy.pdf(x) == airy.pdf(-x)
    assert airy.score(-x) == -airy.score(x)
    c = airy.cdf(x)
    assert 0.0 <= c <= 1.0
    assert c + airy.cdf(-x) == pytest.approx(1.0, abs=1e-15)
    assert airy.cdf(x + 0.01) >= c


@given(st.floats(min_value=0, max_value=25, allow_nan=False))
@settings(max_examples=200, deadline=None)
def test_ppf_inverts_cdf(x):
    # use the lower tail, where p = cdf(-x) carries full relative precision (1 - p would not)
    p = airy.cdf(-x)
    if p > 1e-300:
        assert airy.ppf(p) == pytest.approx(-x, rel=1e-11, abs=1e-13)
        # upper tail: 1 - p carries an absolute rounding error <= 2^-53, i.e. dx <~ 2^-53 / f(x)
        if 1 - p < 1:
            assert abs(airy.ppf(1 - p) - x) <= 1e-11 * x + 1e-13 + 2.0**-52 / airy.pdf(x)


def test_ppf_edges():
    assert airy.ppf(0.5) == 0.0
    assert airy.ppf(0.0) == -np.inf and airy.ppf(1.0) == np.inf
    x = airy.ppf(np.array([1e-300, 1e-20, 0.25]))
    assert np.allclose(airy.cdf(x) / np.array([1e-300, 1e-20, 0.25]), 1.0, rtol=1e-12, atol=0)
    with pytest.raises(ValueError, match="p must lie in"):
        airy.ppf(1.5)
    with pytest.raises(ValueError, match="p must lie in"):
        airy.ppf(np.nan)


@pytest.mark.mp_dps(30)
def test_score_is_derivative_of_logpdf():
    for x in (0.2, 1.0, 3.0, 11.0, 14.0, 50.0):
        d = mp.diff(airy.mp_logpdf, mp.mpf(x))
        assert abs(airy.mp_score(x) + d) < mp.mpf("1e-20") * max(1, abs(d))
    # float: central differences with h = 1e-5 (error ~ h^2 |s''| + eps/h ~ 1e-9)
    xs = np.array([-7.0, -1.3, 0.4, 2.2, 12.5, 13.5, 40.0])
    h = 1e-5
    fd = -(airy.logpdf(xs + h) - airy.logpdf(xs - h)) / (2 * h)
    assert np.allclose(airy.score(xs), fd, rtol=1e-7, atol=1e-7)


@pytest.mark.mp_dps(25)
def test_log_concavity_on_grid():
    x = np.concatenate([np.linspace(0, 40, 40001), np.geomspace(40, 1e8, 2000)[1:]])
    s = airy.score(x)
    assert np.all(np.diff(s) > 0)
    for x in (0.0, 0.5, 3.0, 30.0):  # s'(x) = 2 R'(z) = 2 (R^2 - z) > 0
        assert mp.diff(airy.mp_score, mp.mpf(x) + mp.mpf("1e-3")) > 0


@pytest.mark.mp_dps(30)
def test_score_prime_is_the_derivative_of_the_score():
    for x in (0.05, 0.7, 3.0, 20.0, -2.0):
        d = mp.diff(airy.mp_score, mp.mpf(x))
        assert airy.score_prime(x) == pytest.approx(float(d), rel=1e-12, abs=0)


def test_logsf_on_both_sides_of_zero_in_one_array():
    """An array with negative and positive x: each entry is log P(X > x) (the negative ones from
    log1p(-sf(-x))), against mpmath."""
    xs = np.array([-3.0, -0.5, 0.0, 0.5, 3.0])
    got = airy.logsf(xs)
    with mp.workdps(30):
        want = [float(mp.log(airy.mp_sf(x))) for x in xs]
    assert np.allclose(got, want, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name", ["pdf", "logpdf", "score", "score_prime", "cdf", "sf", "logsf"])
def test_a_scalar_gives_a_scalar_and_an_array_its_shape(name):
    f = getattr(airy, name)
    v = f(0.75)
    assert isinstance(v, float) and not isinstance(v, np.ndarray)
    assert f(np.array([0.75])).shape == (1,) and f(np.array([[0.75, -1.0]])).shape == (1, 2)
    assert f(np.array([0.75]))[0] == v


@pytest.mark.mp_dps(30)
@pytest.mark.parametrize("x", ["100", "1e6", "1e12", "1e20"])
def test_mp_sf_keeps_its_digits_far_out(x):
    """sf = (Ai'^2 - z Ai^2)/Z cancels about 1.5 log2 z bits, which the guard bits absorb: at
    30 digits it agrees with an 80-digit evaluation to 1e-29 even at x = 1e20."""
    v = airy.mp_sf(mp.mpf(x))
    with mp.workdps(80):
        ref = airy.mp_sf(mp.mpf(x))
    assert abs(v / ref - 1) < mp.mpf("1e-29")


@pytest.mark.parametrize("z", ["-2.3", "0.5", "7", "-2.338107410459767038489197252446735440638",
                               "-1.018792971647471089017324783399743824218"])
def test_the_airy_pair_is_mpmath_s_with_or_without_arb(z, monkeypatch):
    """(Ai, Ai') certified by Arb and rounded equal mpmath's airyai to the last bit but one, also
    1e-40 from the zero a1 of Ai and from the zero a1' of Ai' (where 20 guard bits leave the
    vanishing one about 21 correct bits); the mpmath fallback (no python-flint) is airyai
    itself; a full cache is emptied, not trusted."""
    from countdp.laws.airy import mp_values

    with mp.workdps(40):
        zz = mp.mpf(z)
        want = (mp.airyai(zz), mp.airyai(zz, derivative=1))
        got = mp_values._certified_airy_pair(zz)
        for g, w in zip(got, want):
            assert abs(g - w) <= 2 * mp.eps * abs(w)
        monkeypatch.setattr(mp_values, "_flint", None)
        assert mp_values._certified_airy_pair(zz) == want
        monkeypatch.undo()
        monkeypatch.setattr(mp_values, "_AIRY_PAIR_CACHE_MAX", 2)
        mp_values._AIRY_PAIR_CACHE.clear()
        for k in range(5):
            mp_values.airy_pair(zz + k)
        assert len(mp_values._AIRY_PAIR_CACHE) <= 3
        assert mp_values.airy_pair(zz) == got
