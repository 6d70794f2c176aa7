"""countdp.divergence.shift_coupling: the error density G(e) = sum_n pi(n) h_n(e), h_n the density
of n - U_n, has the signed mean of eq (4)'s error, E[n - U_n] = (n + c)(1 - e^{t + s^2/2}) for the
log-Gaussian noise -- a moment that the mass and the mean |e| (even in e) do not see, so a density
of n + e (the mirrored error) fails here."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.integrate import trapezoid

from countdp.divergence import shift_coupling
from countdp.mechanisms import ShiftedLogGaussian


@pytest.mark.parametrize("n", [3, 30])
def test_error_density_has_the_signed_mean_of_the_error(n):
    noise = shift_coupling.log_noise(ShiftedLogGaussian(0.05, 1.0, r=0.1), 30)
    nc = n + noise.c
    # y = n + c - e = (n + c) e^{s X + t}: cover |X| <= 12
    lo, hi = nc - nc * math.exp(noise.t + 12 * noise.s), nc - nc * math.exp(noise.t - 12 * noise.s)
    e = np.linspace(lo, hi, 200_001)
    G = shift_coupling.error_density(noise, [n], [1.0], e)
    assert trapezoid(G, e) == pytest.approx(1, abs=1e-9)
    mean = nc * (1 - math.exp(noise.t + noise.s ** 2 / 2))
    assert trapezoid(e * G, e) == pytest.approx(mean, rel=1e-6)
    assert mean > 0
