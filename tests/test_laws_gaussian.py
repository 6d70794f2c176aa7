"""countdp.laws.gaussian: N(mu, s^2) restricted to an interval -- its mass, its values inside
and outside, in both number systems."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from countdp.laws import Gaussian
from countdp.laws.gaussian import GaussianDensity


@pytest.mark.parametrize("lo, hi, a, b", [
    (-np.inf, 3, None, 1),          # hi only: Phi((3 - 1)/2) = Phi(1)
    (-1, np.inf, -1, None),         # lo only: 1 - Phi((-1 - 1)/2) = 1 - Phi(-1)
    (-1, 5, -1, 2),                 # both ends
    (-np.inf, np.inf, None, None),  # the whole line: mass 1
])
def test_the_mass_of_a_restriction_is_the_normal_probability_of_its_interval(lo, hi, a, b):
    d = GaussianDensity(1, 2, lo=lo, hi=hi)
    with mpmath.workdps(30):
        want = (mpmath.ncdf(b) if b is not None else 1) - (mpmath.ncdf(a) if a is not None else 0)
        assert abs(d.mass() - want) < mpmath.mpf(10) ** -29
        # the same mass by quadrature of the density over the interval
        quad = mpmath.quad(d.mp_pdf, [max(lo, -mpmath.inf), 1, min(hi, mpmath.inf)])
        assert abs(quad - want) < mpmath.mpf(10) ** -25


def test_a_restricted_density_is_the_normal_inside_and_zero_outside():
    d = GaussianDensity(1, 2, lo=-1, hi=3)
    xs = np.array([-2.0, -1.0, 0.0, 2.5, 3.0, 7.0])
    inside = (xs > -1) & (xs < 3)
    normal = -0.5 * ((xs - 1) / 2) ** 2 - 0.5 * np.log(2 * np.pi) - np.log(2)
    got = d.logpdf(xs)
    assert np.allclose(got[inside], normal[inside], rtol=1e-15, atol=0)
    assert np.all(got[~inside] == -np.inf)
    for x, v in zip(xs, got):
        m = d.mp_logpdf(x)
        assert (m == -mpmath.inf) if not np.isfinite(v) else abs(float(m) - v) < 1e-14
    assert d.t_center_scale() == (1, 2)
    assert Gaussian(1, 2).density.mass() == 1


def test_an_interval_must_be_ordered():
    with pytest.raises(ValueError, match="hi"):
        GaussianDensity(0, 1, lo=2, hi=1)
