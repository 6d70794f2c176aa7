"""The precise (mpmath) routes of the sup-over-alpha engine, F(alpha) = (alpha - 1) D_alpha and the
KL of a pair with densities, against closed forms at 120 digits: its bar must cover the truth at
30 and at 40 digits.  Before the route was taken at two precisions, its bar was mpmath's estimate
plus 1000 ulps of the integral, and missed in three ways (all found by the seeded sweep below):

* N(-0.51, 0.012^2) against N(-0.52, 0.0085^2), F = 651000 at alpha = 88: the bar was 2e-28 at
  30 digits, below the value's own rounding (the rounding of M + log s was not in it);
* Laplace(0.536, 0.118) against Laplace(0.537, 0.118) at alpha = 31, F = 0.0187: 7.6e-39 off
  under a bar of 4.3e-40 at 40 digits -- the cancellation in L = lp - lq, and mpmath's tanh-sinh
  on each infinite tail stalling 4.5e-38 off while estimating 1e-43;
* the engine's own choice of evaluator (``mp_renyi``) inherited both.

The released pairs of the count mechanism go by the noise-pair route, in the noise's coordinate:
there the standardised shift and clip point were rounded once at the working precision, which no
second precision sees (a KL 6.5e-32 off under 1.2e-32); they now carry 64 guard bits.
"""

from __future__ import annotations

import math
import random

import mpmath
import pytest
from _gaussian_reference import gaussian_F, gaussian_kl

from countdp.divergence import renyi
from countdp.divergence.loss_cgf import DensityLossCgf
from countdp.divergence.tight_rho import mp_renyi
from countdp.laws import Gaussian
from countdp.laws.log_shift import ClippedAtZero, LogShiftedGaussian
from countdp.laws.reference import Laplace


def laplace_F(a, m1, b, m2):
    """(alpha - 1) D_alpha between Laplace laws of one scale b, d = |m1 - m2| / b apart."""
    a, d = mpmath.mpf(a), abs(mpmath.mpf(m1) - mpmath.mpf(m2)) / mpmath.mpf(b)
    return mpmath.log(a / (2 * a - 1) * mpmath.exp((a - 1) * d) + (a - 1) / (2 * a - 1) * mpmath.exp(-a * d))


def laplace_kl(m1, b, m2):
    d = abs(mpmath.mpf(m1) - mpmath.mpf(m2)) / mpmath.mpf(b)
    return d + mpmath.exp(-d) - 1


def _pair(rng: random.Random):
    """A seeded random pair: Gaussians of two scales, or Laplace laws of one, at a random location."""
    m1 = rng.uniform(-5, 5) * 10 ** rng.uniform(-1, 2)
    s1 = 10 ** rng.uniform(-2, 2)
    if rng.random() < 0.5:
        m2, s2 = m1 + rng.choice([-1, 1]) * 10 ** rng.uniform(-3, 1.5), s1 * 10 ** rng.uniform(-0.3, 0.3)
        return (Gaussian(m1, s1), Gaussian(m2, s2), lambda a: gaussian_F(a, m1, s1, m2, s2),
                lambda: gaussian_kl(m1, s1, m2, s2))
    m2 = m1 + rng.choice([-1, 1]) * s1 * 10 ** rng.uniform(-3, 1)
    return (Laplace(m1, s1), Laplace(m2, s1), lambda a: laplace_F(a, m1, s1, m2), lambda: laplace_kl(m1, s1, m2))


def _covers(est, exact) -> bool:
    if exact == mpmath.inf:
        return est.value == mpmath.inf
    return abs(est.value - exact) <= est.error


def test_the_laplace_pair_whose_tails_stalled_is_covered_at_40_digits():
    P, Q = Laplace(0.5359679967650273, 0.11813389870644848), Laplace(0.5367176688900083, 0.11813389870644848)
    a = 31.096567713197615
    with mpmath.workdps(120):
        exact = laplace_F(a, 0.5359679967650273, 0.11813389870644848, 0.5367176688900083)
    with mpmath.workdps(40):
        F = DensityLossCgf(P, Q).mp_F(a)
        assert _covers(F, exact)
        assert F.error <= mpmath.mpf(10) ** -36 * abs(exact)  # and stays a 40-digit bar


def test_a_large_cgf_is_covered_with_its_own_rounding_at_30_digits():
    m1, s1, m2, s2 = -0.5720593999650027, 0.011048242514542254, -1.8555789658503024, 0.015149486503223526
    a = 87.01099338046244
    with mpmath.workdps(120):
        exact = gaussian_F(a, m1, s1, m2, s2)
    with mpmath.workdps(30):
        F = DensityLossCgf(Gaussian(m1, s1), Gaussian(m2, s2)).mp_F(a)
        assert _covers(F, exact)
        assert F.error <= mpmath.mpf(10) ** -26 * abs(exact)


@pytest.mark.parametrize("seed", range(4))
def test_seeded_pairs_are_covered_by_the_engine_at_30_and_40_digits(seed):
    rng = random.Random(seed)
    for _ in range(3):
        P, Q, F_exact, kl_exact = _pair(rng)
        alphas = sorted(1 + 10 ** rng.uniform(-5, 2.5) for _ in range(2))
        dps = rng.choice([30, 40])
        for a in alphas:
            with mpmath.workdps(120):
                exact = F_exact(a) / (mpmath.mpf(a) - 1) if F_exact(a) != mpmath.inf else mpmath.inf
            with mpmath.workdps(dps):
                D = mp_renyi(P, Q, a)
                assert _covers(D, exact), (P.describe(), Q.describe(), a, dps, D, exact)
        with mpmath.workdps(120):
            exact = kl_exact()
        with mpmath.workdps(dps):
            assert _covers(mp_renyi(P, Q, 1), exact)


# --------------------------------------------------------------------------------------------
# Released pairs (the noise-pair route): log-shifted Gaussians of one scale clipped at 0
# --------------------------------------------------------------------------------------------

def released_F(a, m1, m2, s, c):
    """(alpha - 1) D_alpha of [exp(N(m1, s^2)) - c]_+ against [exp(N(m2, s^2)) - c]_+: the atoms
    Phi((log c - m)/s) at 0, and p^alpha q^(1 - alpha) = e^{alpha (alpha - 1) (m1 - m2)^2 / (2 s^2)}
    times the N(alpha m1 + (1 - alpha) m2, s^2) density in t = log(y + c), above log c."""
    a, m1, m2, s, c = (mpmath.mpf(v) for v in (a, m1, m2, s, c))
    L = mpmath.log(c)
    p0, q0 = mpmath.ncdf((L - m1) / s), mpmath.ncdf((L - m2) / s)
    tilted = mpmath.exp(a * (a - 1) * (m1 - m2) ** 2 / (2 * s * s)) * mpmath.ncdf((a * m1 + (1 - a) * m2 - L) / s)
    return mpmath.log(p0 ** a * q0 ** (1 - a) + tilted)


def released_kl(m1, m2, s, c):
    """The KL of the same pair: the atom's p0 log(p0/q0), and E_P[(A t + B); t > log c] for the
    log-ratio A t + B of the two Gaussians in t."""
    m1, m2, s, c = (mpmath.mpf(v) for v in (m1, m2, s, c))
    L = mpmath.log(c)
    p0, q0 = mpmath.ncdf((L - m1) / s), mpmath.ncdf((L - m2) / s)
    A, B, u = (m1 - m2) / s ** 2, -(m1 ** 2 - m2 ** 2) / (2 * s ** 2), (m1 - L) / s
    return p0 * mpmath.log(p0 / q0) + A * (m1 * mpmath.ncdf(u) + s * mpmath.npdf(u)) + B * mpmath.ncdf(u)


def _released(m, s, c):
    return ClippedAtZero(LogShiftedGaussian(m, s, c))


def test_a_released_pair_close_together_is_covered_at_30_digits():
    # the standardised shift d = (m2 - m1)/s and clip point z0 = (log c - m1)/s were rounded
    # at the working precision once, a rounding no second precision sees: the KL came out
    # 6.5e-32 off under a bar of 1.2e-32
    m1, m2, s, c = -3.232804652092824, -3.233284554626457, 0.03934416629762099, 0.04329074692866822
    with mpmath.workdps(120):
        exact = released_kl(m1, m2, s, c)
    with mpmath.workdps(30):
        got = mp_renyi(_released(m1, s, c), _released(m2, s, c), 1)
        assert _covers(got, exact)
        assert got.error <= mpmath.mpf(10) ** -26 * exact


@pytest.mark.parametrize("seed", range(3))
def test_seeded_released_pairs_are_covered_at_30_and_40_digits(seed):
    rng = random.Random(100 + seed)
    for _ in range(3):
        c, s = 10 ** rng.uniform(-2, 1), 10 ** rng.uniform(-1.5, 0.5)
        m1 = math.log(c) + s * rng.uniform(-3, 6)
        m2 = m1 + rng.choice([-1, 1]) * s * 10 ** rng.uniform(-3, 0.5)
        P, Q = _released(m1, s, c), _released(m2, s, c)
        dps = rng.choice([30, 40])
        for a in sorted(1 + 10 ** rng.uniform(-4, 2) for _ in range(2)):
            with mpmath.workdps(120):
                exact = released_F(a, m1, m2, s, c) / (mpmath.mpf(a) - 1)
            with mpmath.workdps(dps):
                assert _covers(mp_renyi(P, Q, a), exact), (m1, m2, s, c, a, dps)
        with mpmath.workdps(120):
            exact = released_kl(m1, m2, s, c)
        with mpmath.workdps(dps):
            assert _covers(mp_renyi(P, Q, 1), exact), (m1, m2, s, c, dps)


@pytest.mark.parametrize("method", ["quadrature", "auto"])
def test_the_renyi_route_carries_the_rounding_of_a_released_pairs_atoms(method):
    """The library's own route (``renyi.kl``, not the engine's): the atom's term p log(p/q) is
    rounded by ~eps p, which the bar did not hold.  A pair with 99.75 % of its mass in the atom,
    whose KL (1e-7) is what is left of the atom's 2.2e-5 and the density's -2.2e-5, came out
    1.4e-41 off under 5.4e-43 at 40 digits; p^alpha q^(1 - alpha) the same, by ~(alpha + 1) eps."""
    m1, m2, s, c = -6.9857745123582475, -6.983227083968927, 0.9095928018948742, 0.011913356678375097
    with mpmath.workdps(120):
        exact = released_kl(m1, m2, s, c)
    with mpmath.workdps(40):
        assert _covers(renyi.kl(_released(m1, s, c), _released(m2, s, c), method=method), exact)
    # and p^alpha q^(1 - alpha): D_13.1 of this pair was 9.4e-42 off under 6.4e-42
    m1, m2, s, c, a = 0.5525848855433422, 0.7463843977612942, 0.5578663596425125, 6.3454595122499065, 13.146224228927379
    with mpmath.workdps(120):
        exact = released_F(a, m1, m2, s, c) / (mpmath.mpf(a) - 1)
    with mpmath.workdps(40):
        assert _covers(renyi.renyi(_released(m1, s, c), _released(m2, s, c), a, method=method), exact)
