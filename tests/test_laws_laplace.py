"""Tests of countdp.laws.laplace: the Laplace law Lap(mu, b)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from countdp.laws.laplace import Laplace, LaplaceDensity


def test_density_float_and_mpmath():
    d = LaplaceDensity(1, 2)
    x = np.array([-3.0, 1.0, 4.5])
    assert np.allclose(d.logpdf(x), -np.abs(x - 1) / 2 - math.log(4), rtol=1e-15)
    with mpmath.workdps(30):
        assert abs(d.mp_logpdf(mpmath.mpf("4.5")) - (-mpmath.mpf("3.5") / 2 - mpmath.log(4))) < mpmath.mpf("1e-28")
        total = mpmath.quad(lambda t: mpmath.exp(d.mp_logpdf(t)), [-mpmath.inf, 1, mpmath.inf])
        assert abs(total - 1) < mpmath.mpf("1e-25")
    assert d.breakpoints == (1.0,) and d.t_center_scale() == (1, 2)


def test_sampler_and_cdf():
    rng = np.random.default_rng(7)
    law = Laplace(1, 2)
    assert abs(np.mean(law.sample(rng, 100_000)) - 1) < 0.05
    assert law.cdf(1.0) == 0.5
    assert law.cdf(-1.0) == pytest.approx(0.5 * math.exp(-1), rel=1e-15)
    assert law.cdf(3.0) == pytest.approx(1 - 0.5 * math.exp(-1), rel=1e-15)


def test_bad_parameters():
    with pytest.raises(ValueError, match="^b "):
        Laplace(0, 0)
    with pytest.raises(ValueError, match="^mu "):
        Laplace(float("nan"), 1)
