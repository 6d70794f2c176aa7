"""countdp.laws.small_noise: E|exp(sigma Z - sigma^2) - 1 - sigma Z| by quadrature and by sampling."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from countdp import formulas
from countdp.laws.small_noise import small_noise_remainder, small_noise_remainder_draws
from countdp.numerics.montecarlo import mc_mean


pytestmark = pytest.mark.mp_dps(30)


def test_small_noise_remainder_by_quadpack():
    s = mpmath.mpf("0.3")
    est = small_noise_remainder(s)
    # an independent route: adaptive QUADPACK in float64, the kinks of |.| not located in advance
    from scipy import integrate

    sf = float(s)
    direct, derr = integrate.quad(lambda z: abs(math.expm1(sf * z - sf * sf) - sf * z)
                                  * math.exp(-z * z / 2) / math.sqrt(2 * math.pi), -40, 40,
                                  points=[-2, -1, 0, 1, 2], limit=400, epsabs=1e-14, epsrel=1e-12)
    assert abs(float(est.value) - direct) < 1e-11 + derr and est.error < 1e-20


def test_small_noise_remainder_tends_to_its_limit():
    s = mpmath.mpf("1e-4")
    est = small_noise_remainder(s)
    assert abs(est.value / s ** 2 - formulas.small_noise_remainder_limit()) < s
    mc = mc_mean(small_noise_remainder_draws(s), np.random.default_rng(3), 200_000)
    assert abs(mc.mean - float(est.value / s ** 2)) <= mc.halfwidth


@pytest.mark.parametrize("sigma", ["1e-8", "1e-6", "1e-3", "0.1", "2"])
@pytest.mark.slow
def test_the_error_bar_at_15_digits_covers_the_60_digit_value(sigma):
    """g ~ sigma^2 is a difference of terms ~ sigma: without its guard digits the value at 15
    digits was 5 of its error bars from the 60-digit one at sigma = 1e-6."""
    with mpmath.workdps(60):
        ref = small_noise_remainder(mpmath.mpf(sigma)).value
    with mpmath.workdps(15):
        est = small_noise_remainder(mpmath.mpf(sigma))
    assert abs(est.value - ref) <= est.error, (est.value, ref, est.error)
    assert est.error <= mpmath.mpf(10) ** -11 * ref


def test_bad_input():
    for bad in (lambda: small_noise_remainder(0), lambda: small_noise_remainder_draws(-1)):
        with pytest.raises(ValueError):
            bad()
