"""Tests of countdp.laws.airy.law: AiryLaw (b X + t) against the standard law, as a location law,
and input validation.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from mpmath import mp

from countdp.laws import airy


@pytest.mark.mp_dps(30)
def test_airylaw_scale_location():
    law = airy.AiryLaw(b=0.3, t=-1.2)
    y = np.array([-3.0, -1.2, -1.0, 0.5])
    x = (y + 1.2) / 0.3
    assert np.allclose(law.pdf(y), airy.pdf(x) / 0.3, rtol=1e-15, atol=0)
    assert np.allclose(law.logpdf(y), airy.logpdf(x) - math.log(0.3), rtol=1e-15, atol=0)
    assert np.allclose(law.cdf(y), airy.cdf(x), rtol=1e-15, atol=0)
    assert np.allclose(law.sf(y), airy.sf(x), rtol=1e-15, atol=0)
    assert np.allclose(law.score(y), airy.score(x) / 0.3, rtol=1e-15, atol=0)
    # the round trip through a cdf rounded to one ulp of F moves y by up to ulp(F) / pdf(y)
    room = 2 * np.spacing(law.cdf(y)) / law.pdf(y) + 1e-15 * np.abs(y)
    assert np.all(np.abs(law.ppf(law.cdf(y)) - y) <= room)
    x_mp = (mp.mpf(0.5) - mp.mpf(-1.2)) / mp.mpf(0.3)
    assert abs(law.mp_logpdf(0.5) - (airy.mp_logpdf(x_mp) - mp.log(mp.mpf(0.3)))) < mp.mpf("1e-25")
    c = airy.float_constants()
    assert law.mean == -1.2
    assert law.var == pytest.approx(0.09 * c.second_moment, rel=1e-6, abs=0)
    assert law.mean_abs == pytest.approx(0.3 * c.mean_abs, rel=1e-6, abs=0)
    assert law.fisher == pytest.approx(c.fisher / 0.09, rel=1e-6, abs=0)
    assert law.mean_abs**2 * law.fisher / 2 == pytest.approx(c.m2I_half, rel=1e-14, abs=0)
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
    with pytest.raises(ValueError, match=r"^dps must be an integer in \[5, 100\]"):
        airy.airy_constants(2)
    with pytest.raises(ValueError, match="^u must"):
        airy.score_cgf(-1.0, 20)
    with pytest.raises(ValueError, match="^k must"):
        airy.score_moment(0, 20)


# ---------------------------------------------------------------------------------------------
# the law as a countdp.laws object, expectations, the float64 score CGF
# ---------------------------------------------------------------------------------------------


@pytest.mark.mp_dps(30)
def test_airylaw_is_a_location_law():
    law = airy.AiryLaw(b=0.5, t=2.0)
    d = law.density
    assert d.location_family is airy.STANDARD and d.loc == 2.0 and d.scale == 0.5
    assert d.breakpoints == (2.0,)
    y = np.array([1.0, 2.0, 3.5])
    assert np.allclose(d.logpdf(y), law.logpdf(y), rtol=1e-15, atol=0)
    assert abs(d.mp_logpdf(mp.mpf(3)) - law.mp_logpdf(3)) < mp.mpf("1e-28")
    # an exact location stays exact for the mpmath routes
    exact = airy.AiryLaw(t=mp.mpf("1e-20"))
    assert exact.density.loc == mp.mpf("1e-20") and exact.t == 1e-20


def test_the_default_density_is_the_standard_law():
    """AiryDensity() is f itself (b = 1, t = 0): its kink at 0, its values the standard law's."""
    d = airy.AiryDensity()
    assert (d.b, d.t, d.breakpoints) == (1.0, 0.0, (0.0,))
    with mp.workdps(30):
        for y in (-2, -0.5, 0, 0.75, 3):
            assert d.mp_logpdf(y) == airy.mp_logpdf(y)


@pytest.mark.mp_dps(30)
def test_airylaw_mpmath_views_are_the_standard_law_rescaled():
    """The mpmath pdf, score and survival function of b X + t, and the float log survival
    function, against the standard law's at (y - t)/b; mp_pdf = exp(mp_logpdf)."""
    b, t = mp.mpf("0.25"), mp.mpf("-1.25")  # exact in binary: the law keeps them as floats
    law = airy.AiryLaw(b=b, t=t)
    for y in (mp.mpf(-3), mp.mpf("-1.5"), mp.mpf("0.5")):
        x = (y - t) / b
        assert abs(law.mp_pdf(y) - airy.mp_pdf(x) / b) < mp.mpf(10) ** -28 * law.mp_pdf(y)
        assert abs(law.mp_pdf(y) - mp.exp(law.mp_logpdf(y))) < mp.mpf(10) ** -28 * law.mp_pdf(y)
        assert abs(law.mp_score(y) - airy.mp_score(x) / b) < mp.mpf(10) ** -27 * abs(law.mp_score(y))
        # the score is -(log p)': against a central difference of the mpmath log density
        h = mp.mpf(10) ** -10
        fd = -(law.mp_logpdf(y + h) - law.mp_logpdf(y - h)) / (2 * h)
        assert abs(law.mp_score(y) - fd) < mp.mpf(10) ** -15 * (1 + abs(fd))
        assert abs(law.mp_sf(y) - airy.mp_sf(x)) < mp.mpf(10) ** -28
        assert abs(law.mp_sf(y) + law.mp_cdf(y) - 1) < mp.mpf(10) ** -28
    ys = np.array([-3.0, -1.5, 0.5])
    want = np.array([float(mp.log(law.mp_sf(y))) for y in ys])
    assert np.allclose(law.logsf(ys), want, rtol=1e-12, atol=0)
    assert law.constants == airy.float_constants()
    assert repr(law) == "AiryLaw(b=0.25, t=-1.25)"


def test_the_mpmath_values_at_the_ends_of_the_line():
    with mp.workdps(30):
        assert airy.mp_logpdf(mp.inf) == mp.ninf and airy.mp_logpdf(-mp.inf) == mp.ninf
        assert airy.mp_pdf(mp.inf) == 0 and airy.mp_pdf(-mp.inf) == 0
        assert airy.mp_score(mp.inf) == mp.inf and airy.mp_score(-mp.inf) == mp.ninf
        assert airy.mp_score(0) == 0
        assert airy.mp_sf(mp.inf) == 0 and airy.mp_sf(-mp.inf) == 1
