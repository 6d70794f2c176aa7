"""Tests of countdp.laws.generalised_gaussian: f_p(x - loc) = exp(-|x - loc|^p) / (2 Gamma(1 + 1/p))."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from countdp.laws.generalised_gaussian import GeneralisedGaussian, GeneralisedGaussianDensity


@pytest.mark.parametrize("p", [1.5, 2, 3, 4])
def test_normalised_and_float_matches_mpmath(p):
    with mpmath.workdps(30):
        d = GeneralisedGaussianDensity(p, 0.25)
        total = mpmath.quad(lambda x: mpmath.exp(d.mp_logpdf(x)), [-mpmath.inf, 0.25, mpmath.inf])
        assert abs(total - 1) < mpmath.mpf("1e-25")
        for x in (-1.0, 0.25, 0.9, 3.0):
            assert float(d.logpdf(np.array([x]))[0]) == pytest.approx(float(d.mp_logpdf(x)), rel=1e-14, abs=1e-14)


def test_p2_is_the_gaussian_with_variance_one_half():
    d = GeneralisedGaussianDensity(2)
    x = np.array([-2.0, 0.0, 1.3])
    assert np.allclose(d.logpdf(x), -x ** 2 - 0.5 * math.log(math.pi), rtol=1e-14, atol=0)


def test_score_is_minus_the_log_derivative():
    with mpmath.workdps(30):
        d = GeneralisedGaussianDensity(3, 0.5)
        for x in (-1.0, 0.7, 2.0):
            assert abs(d.mp_score(x) + mpmath.diff(d.mp_logpdf, mpmath.mpf(x))) < mpmath.mpf("1e-20")


def test_law_and_bad_parameters():
    law = GeneralisedGaussian(4, 0.5)
    assert law.density.breakpoints == (0.5,) and "shift 0.5" in law.describe()
    for bad in (1, 0.5, float("nan")):
        with pytest.raises(ValueError, match="^p "):
            GeneralisedGaussianDensity(bad)
    with pytest.raises(ValueError, match="^loc "):
        GeneralisedGaussian(3, float("nan"))
