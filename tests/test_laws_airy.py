"""Tests of countdp.laws.airy: the Airy law f(x) = Ai(|x| + a1')^2 / Z.

Tolerances: mpmath routes at dps 30 agree to 1e-20 (quadrature error estimates are ~1e-30);
float64 routes are compared with mpmath at 1e-14 relative (1e-13 for the survival function
below z = 12, where Ai'^2 - z Ai^2 cancels ~2 digits); Monte Carlo at 5 standard errors or a
KS p-value > 1e-3 with a fixed seed.
"""

from __future__ import annotations

import math

import mpmath

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from mpmath import mp
from scipy import stats

from countdp.laws import airy

A1P_LITERAL = "-1.01879297164747108901732478339974382"  # DLMF 9.9 / A&S table 10.13
C_LITERAL = 0.3133170606


@pytest.fixture(autouse=True)
def _restore_mp_precision():
    old = mp.prec
    yield
    mp.prec = old


# ---------------------------------------------------------------------------------------------
# constants
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def routes30():
    return airy.airy_constants(30), airy.airy_constants_by_quadrature(30)


def test_closed_form_vs_quadrature_dps30(routes30):
    cf, q = routes30
    assert q.error < mp.mpf("1e-25")
    for name in ("a1p", "ai_a1p", "Z", "mean_abs", "fisher", "second_moment", "m2I_half"):
        diff = abs(getattr(cf, name) - getattr(q, name))
        assert diff < mp.mpf("1e-20"), (name, diff)


def test_constants_literals_and_identities(routes30):
    cf, _ = routes30
    with mp.workdps(30):
        A = -cf.a1p
        assert abs(cf.a1p - mp.mpf(A1P_LITERAL)) < mp.mpf("1e-28")
        assert abs(cf.m2I_half - 8 * A**3 / 27) < mp.mpf("1e-28")
        assert abs(cf.m2I_half - cf.mean_abs**2 * cf.fisher / 2) < mp.mpf("1e-28")
        assert abs(float(cf.m2I_half) - C_LITERAL) < 1e-10
        gap = 1 - cf.m2I_half * mp.pi  # relative gap below the Gaussian's 1/pi
        assert mp.mpf("0.0156") < gap < mp.mpf("0.0158")
    fl = airy.airy_constants()
    assert fl.dps is None and isinstance(fl.Z, float)
    for name in ("a1p", "Z", "mean_abs", "fisher", "second_moment", "m2I_half"):
        assert getattr(fl, name) == pytest.approx(float(getattr(cf, name)), rel=1e-15)


def test_constants_other_precision():
    c50 = airy.airy_constants(50)
    with mp.workdps(50):
        assert abs(c50.a1p - mp.airyaizero(1, derivative=1)) < mp.mpf("1e-48")
        assert abs(c50.second_moment - airy.second_moment(50)) < mp.mpf("1e-40")


def test_normalisation_and_moments_by_quadrature():
    c = airy.airy_constants(30)
    one = airy.abs_moment(0, 30, error=True)
    assert abs(one.value - 1) < mp.mpf("1e-25") and one.error < mp.mpf("1e-25")
    assert abs(airy.abs_moment(1, 30) - c.mean_abs) < mp.mpf("1e-25")
    assert abs(airy.second_moment(30) - c.second_moment) < mp.mpf("1e-25")
    assert abs(airy.score_moment(1, 30) - c.fisher) < mp.mpf("1e-25")


# ---------------------------------------------------------------------------------------------
# density, score, cdf in float64 vs mpmath
# ---------------------------------------------------------------------------------------------

TAIL_POINTS = [0.0, 0.5, 2.0, 10.0, 12.9, 13.02, 13.1, 100.0, 1e4, 1e6]


@pytest.mark.parametrize("x", TAIL_POINTS)
def test_logpdf_score_tail_stability(x):
    mp.dps = 40
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
        assert airy.sf(x) == pytest.approx(float(airy.mp_sf(x)), rel=2e-13)


def test_tiny_x_score_keeps_relative_accuracy():
    mp.dps = 40
    for x in (1e-300, 1e-12, 1e-3, 0.07):
        assert airy.score(x) == pytest.approx(float(airy.mp_score(x)), rel=1e-14)
    assert airy.score(0.0) == 0.0
    assert airy.score(1e-300) == pytest.approx(2 * -airy.airy_constants().a1p * 1e-300, rel=1e-14)


def test_extreme_arguments():
    assert airy.logpdf(np.inf) == -np.inf and airy.pdf(-np.inf) == 0.0
    assert airy.cdf(np.inf) == 1.0 and airy.cdf(-np.inf) == 0.0
    assert airy.score(np.inf) == np.inf and airy.score(-np.inf) == -np.inf
    # far beyond scipy.special.airye's range (NaN there for z > 2^20)
    x = 1e12
    assert np.isfinite(airy.logpdf(x)) and airy.logpdf(x) == pytest.approx(-(4 / 3) * x**1.5, rel=1e-5)
    assert airy.score(x) == pytest.approx(2 * math.sqrt(x + airy.airy_constants().a1p), rel=1e-12)


def test_cdf_against_quadrature():
    mp.dps = 30
    for x in (-6.0, -2.5, -0.4, 0.0, 0.3, 1.7, 4.0, 9.0):
        q = mp.quad(airy.mp_pdf, [-mp.inf, min(x, 0), x] if x > 0 else [-mp.inf, x])
        assert abs(airy.mp_cdf(x) - q) < mp.mpf("1e-25"), x
        assert airy.cdf(x) == pytest.approx(float(q), rel=2e-13, abs=0)
    assert airy.cdf(0.0) == 0.5 and airy.sf(0.0) == 0.5
    assert abs(airy.mp_cdf(0) - mp.mpf(1) / 2) < mp.mpf("1e-28")
    # the tail mass beyond 5 by quadrature vs the antiderivative route in float
    q = mp.quad(lambda x: airy.mp_pdf(x), [5, 10, mp.inf])
    assert airy.sf(5.0) == pytest.approx(float(q), rel=1e-13)


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
    assert np.allclose(airy.cdf(x) / np.array([1e-300, 1e-20, 0.25]), 1.0, rtol=1e-12)
    with pytest.raises(ValueError, match="p must lie in"):
        airy.ppf(1.5)
    with pytest.raises(ValueError, match="p must lie in"):
        airy.ppf(np.nan)


def test_score_is_derivative_of_logpdf():
    mp.dps = 30
    for x in (0.2, 1.0, 3.0, 11.0, 14.0, 50.0):
        d = mp.diff(airy.mp_logpdf, mp.mpf(x))
        assert abs(airy.mp_score(x) + d) < mp.mpf("1e-20") * max(1, abs(d))
    # float: central differences with h = 1e-5 (error ~ h^2 |s''| + eps/h ~ 1e-9)
    xs = np.array([-7.0, -1.3, 0.4, 2.2, 12.5, 13.5, 40.0])
    h = 1e-5
    fd = -(airy.logpdf(xs + h) - airy.logpdf(xs - h)) / (2 * h)
    assert np.allclose(airy.score(xs), fd, rtol=1e-7, atol=1e-7)


def test_log_concavity_on_grid():
    x = np.concatenate([np.linspace(0, 40, 40001), np.geomspace(40, 1e8, 2000)[1:]])
    s = airy.score(x)
    assert np.all(np.diff(s) > 0)
    mp.dps = 25
    for x in (0.0, 0.5, 3.0, 30.0):  # s'(x) = 2 R'(z) = 2 (R^2 - z) > 0
        assert mp.diff(airy.mp_score, mp.mpf(x) + mp.mpf("1e-3")) > 0


# ---------------------------------------------------------------------------------------------
# sampler
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def draws():
    return airy.sample(np.random.default_rng(20240607), 10**6)


def test_sampler_ks(draws):
    assert draws.shape == (10**6,)
    res = stats.kstest(draws, airy.cdf)
    assert res.pvalue > 1e-3


def test_sampler_moments(draws):
    c = airy.airy_constants()
    n = draws.size
    for values, target in ((np.abs(draws), c.mean_abs), (draws**2, c.second_moment), (draws, 0.0)):
        se = values.std(ddof=1) / math.sqrt(n)
        assert abs(values.mean() - target) < 5 * se


def test_sampler_determinism_and_shape():
    a = airy.sample(np.random.default_rng(7), (3, 5))
    b = airy.sample(np.random.default_rng(7), (3, 5))
    assert a.shape == (3, 5) and np.array_equal(a, b)
    assert airy.sample(np.random.default_rng(7), 0).shape == (0,)
    assert not np.array_equal(a, airy.sample(np.random.default_rng(8), (3, 5)))


def test_sampler_envelope_and_acceptance():
    y = np.concatenate([np.linspace(0, 60, 600001), np.geomspace(60, 1e6, 1000)])
    assert np.all(airy._log_envelope(y) >= math.log(2) + airy.logpdf(y))
    rate = airy.sampler_acceptance_rate()
    assert 0.98 < rate < 1
    _, _, ok = airy._propose_abs(np.random.default_rng(3), 10**6)
    se = math.sqrt(rate * (1 - rate) / ok.size)
    assert abs(ok.mean() - rate) < 5 * se


# ---------------------------------------------------------------------------------------------
# score moments and CGF (strict sub-Gaussianity)
# ---------------------------------------------------------------------------------------------


def test_score_moment_ratios_below_one_and_decreasing():
    ratios = []
    for k in range(2, 31):
        r = airy.score_moment_ratio(k, 20, error=True)
        assert r.value + r.error < 1
        ratios.append(r.value)
    assert all(b < a for a, b in zip(ratios, ratios[1:]))
    assert abs(airy.score_moment_ratio(1, 20) - 1) < mp.mpf("1e-18")
    # small-u expansion: K/u^2 = I/2 + kappa4 u^2 / 24, kappa4 = E s^4 - 3 I^2 < 0
    c = airy.airy_constants(20)
    with mp.workdps(20):
        kappa4 = (ratios[0] - 1) * 3 * c.fisher**2
        u = mp.mpf("1e-3")
        K = airy.score_cgf(u, 20)
        assert abs((K / u**2 - c.fisher / 2) / (kappa4 * u**2 / 24) - 1) < mp.mpf("1e-4")


# ---------------------------------------------------------------------------------------------
# AiryLaw and input validation
# ---------------------------------------------------------------------------------------------


def test_airylaw_scale_location():
    law = airy.AiryLaw(b=0.3, t=-1.2)
    y = np.array([-3.0, -1.2, -1.0, 0.5])
    x = (y + 1.2) / 0.3
    assert np.allclose(law.pdf(y), airy.pdf(x) / 0.3, rtol=1e-15)
    assert np.allclose(law.logpdf(y), airy.logpdf(x) - math.log(0.3), rtol=1e-15)
    assert np.allclose(law.cdf(y), airy.cdf(x), rtol=1e-15)
    assert np.allclose(law.sf(y), airy.sf(x), rtol=1e-15)
    assert np.allclose(law.score(y), airy.score(x) / 0.3, rtol=1e-15)
    assert np.allclose(law.ppf(law.cdf(y)), y, rtol=1e-10)
    mp.dps = 30
    x_mp = (mp.mpf(0.5) - mp.mpf(-1.2)) / mp.mpf(0.3)
    assert abs(law.mp_logpdf(0.5) - (airy.mp_logpdf(x_mp) - mp.log(mp.mpf(0.3)))) < mp.mpf("1e-25")
    c = airy.airy_constants()
    assert law.mean == -1.2
    assert law.var == pytest.approx(0.09 * c.second_moment)
    assert law.mean_abs == pytest.approx(0.3 * c.mean_abs)
    assert law.fisher == pytest.approx(c.fisher / 0.09)
    assert law.mean_abs**2 * law.fisher / 2 == pytest.approx(c.m2I_half, rel=1e-14)
    s = law.sample(np.random.default_rng(1), 20000)
    assert abs(np.mean(np.abs(s + 1.2)) - law.mean_abs) < 5 * np.std(np.abs(s + 1.2)) / math.sqrt(s.size)


@given(st.floats(min_value=1e-3, max_value=1e3), st.floats(min_value=-1e3, max_value=1e3),
       st.floats(min_value=-5, max_value=5))
@settings(max_examples=100, deadline=None)
def test_airylaw_change_of_variables(b, t, x):
    law = airy.AiryLaw(b, t)
    y = t + b * x
    assert law.logpdf(y) == pytest.approx(airy.logpdf((y - t) / b) - math.log(b), rel=1e-12, abs=1e-12)
    assert law.cdf(y) == pytest.approx(airy.cdf((y - t) / b), rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("b", [0.0, -1.0, float("nan"), float("inf")])
def test_airylaw_rejects_bad_scale(b):
    with pytest.raises(ValueError, match="^b must"):
        airy.AiryLaw(b=b)


def test_bad_inputs_raise():
    with pytest.raises(ValueError, match="^t must"):
        airy.AiryLaw(t=float("nan"))
    law = airy.AiryLaw()
    with pytest.raises(ValueError, match="size must be an integer >= 0"):
        law.sample(np.random.default_rng(0), -1)
    with pytest.raises(ValueError, match="size must be an integer >= 0"):
        airy.sample(np.random.default_rng(0), (2, -3))
    with pytest.raises(ValueError, match="rng must be a numpy.random.Generator"):
        airy.sample(np.random.RandomState(0), 3)
    with pytest.raises(ValueError, match="y must be real"):
        law.pdf([0.0, np.nan])
    with pytest.raises(ValueError, match="x must be real"):
        airy.logpdf(np.nan)
    with pytest.raises(ValueError, match="x must be a real"):
        airy.mp_logpdf(mp.nan)
    with pytest.raises(ValueError, match="dps must be an integer >= 5"):
        airy.airy_constants(2)
    with pytest.raises(ValueError, match="^u must"):
        airy.score_cgf(-1.0, 20)
    with pytest.raises(ValueError, match="^k must"):
        airy.score_moment(0, 20)


# ---------------------------------------------------------------------------------------------
# the law as a countdp.laws object, expectations, the float64 score CGF
# ---------------------------------------------------------------------------------------------


def test_airylaw_is_a_location_law():
    law = airy.AiryLaw(b=0.5, t=2.0)
    d = law.density
    assert d.location_family is airy.STANDARD and d.loc == 2.0 and d.scale == 0.5
    assert d.breakpoints == (2.0,)
    y = np.array([1.0, 2.0, 3.5])
    assert np.allclose(d.logpdf(y), law.logpdf(y), rtol=1e-15)
    mp.dps = 30
    assert abs(d.mp_logpdf(mp.mpf(3)) - law.mp_logpdf(3)) < mp.mpf("1e-28")
    # an exact location stays exact for the mpmath routes
    exact = airy.AiryLaw(t=mp.mpf("1e-20"))
    assert exact.density.loc == mp.mpf("1e-20") and exact.t == 1e-20


def test_score_prime_is_the_derivative_of_the_score():
    mp.dps = 30
    for x in (0.05, 0.7, 3.0, 20.0, -2.0):
        d = mp.diff(airy.mp_score, mp.mpf(x))
        assert airy.score_prime(x) == pytest.approx(float(d), rel=1e-12)


def test_mp_expect_and_gauss_legendre_grid():
    mp.dps = 30
    one = airy.mp_expect(lambda x: 1)
    assert abs(one.value - 1) < mp.mpf("1e-27") and one.error < mp.mpf("1e-25")
    half = airy.mp_expect(lambda x: 1, half=True)
    assert abs(half.value - mp.mpf(1) / 2) < mp.mpf("1e-27")
    grid = airy.mp_gauss_legendre(mp.prec)
    assert grid is airy.mp_gauss_legendre(mp.prec) and grid.tail_ok(1)
    m, sq = grid.expect(lambda x: (abs(x), x * x))
    c = airy.airy_constants(30)
    assert abs(m.value - c.mean_abs) < mp.mpf("1e-25") and abs(sq.value - c.second_moment) < mp.mpf("1e-25")


def test_fold_edges():
    e = airy.fold_edges()
    assert e[0] == 0 and e[-1] == airy.FOLD_WINDOW and np.all(np.diff(e) > 0)
    assert 0.3 in airy.fold_edges(0.3) and 0.3 not in e


def test_score_cgf_float_matches_mpmath():
    for u in (1e-3, 0.7, 5.0, 300.0):
        K = airy.score_cgf_float(u)
        Km = airy.score_cgf(u, 30)
        assert abs(K.value - float(Km)) <= 1e-13 * abs(K.value) + K.error


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
