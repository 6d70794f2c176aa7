"""Tests of countdp.divergence.noise_pair (one noise at two locations, in the noise's coordinate)
and countdp.divergence.standardise (pairs at any scale): the route is recognised only where it
applies, its numbers agree with independent routes, and the large-alpha ends it declares are
upper bounds that a bound 1 % too small would break."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from _gaussian_reference import gaussian_F

from countdp import formulas
from countdp.divergence import profile, renyi
from countdp.divergence.noise_pair import NoisePairLossCgf, noise_pair
from countdp.divergence.standardise import standardised
from countdp.divergence.tight_rho import d_infinity, mp_renyi, renyi_curve, tight_rho
from countdp.laws import ClippedAtZero, ContinuousLaw, Gaussian
from countdp.laws.log_shift import LogShiftedGaussianDensity
from countdp.laws.reference import Laplace
from countdp.mechanisms.log_laplace import LogLaplaceMechanism, LogShiftedLaplaceDensity
from countdp.mechanisms import ShiftedLogGaussian

pytestmark = pytest.mark.mp_dps(30)


def _laplace_log_law(mu, b, c=1, clipped=False):
    law = ContinuousLaw(LogShiftedLaplaceDensity(mu, b, c))
    return ClippedAtZero(law) if clipped else law


# --------------------------------------------------------------------------------------------
# Where the route applies
# --------------------------------------------------------------------------------------------


def test_the_route_takes_one_noise_at_two_locations_and_nothing_else():
    m, g = LogLaplaceMechanism(0.05, 1), ShiftedLogGaussian(0.05, 1.0)
    assert noise_pair(m.released_law(3), m.released_law(4)) is not None
    assert noise_pair(m.unclipped_law(3), m.unclipped_law(4)) is not None
    assert noise_pair(Gaussian(0, 2), Gaussian(1, 2)) is not None
    # different noises, scales, shifts c, or one clipped and one not: not a noise pair
    assert noise_pair(m.released_law(3), g.released_law(4)) is None
    assert noise_pair(_laplace_log_law(0, 0.1), _laplace_log_law(0.1, 0.2)) is None
    assert noise_pair(_laplace_log_law(0, 0.1, c=1), _laplace_log_law(0.1, 0.1, c=2)) is None
    assert noise_pair(m.released_law(3), m.unclipped_law(4)) is None
    assert noise_pair(Gaussian(0, 1), Gaussian(0, 2)) is None
    # two noises with the same location, scale and shift: still two laws
    lap, gau = _laplace_log_law(0, 0.1), ContinuousLaw(LogShiftedGaussianDensity(0.1, 0.1, 1))
    assert noise_pair(lap, gau) is None and noise_pair(gau, lap) is None
    assert noise_pair(ClippedAtZero(lap), ClippedAtZero(gau)) is None


def test_a_noise_with_an_undeclared_parameter_is_not_taken_for_one_noise():
    class Scaled(LogShiftedLaplaceDensity):   # log g = -k|z| - log(2/k): k not declared
        def __init__(self, mu, b, c, k, lo=None, origin=None):
            super().__init__(mu, b, c, lo, origin)
            self.k = k

        def mp_noise_logpdf(self, z):
            return -self.k * abs(z) - mpmath.log(2 / mpmath.mpf(self.k))

    P, Q = ContinuousLaw(Scaled(0, 0.1, 1, 1)), ContinuousLaw(Scaled(0.1, 0.1, 1, 2))
    assert noise_pair(P, Q) is None


# --------------------------------------------------------------------------------------------
# Its numbers against independent routes
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("clipped", [False, True])
@pytest.mark.parametrize("mech", [LogLaplaceMechanism(0.2, 1), ShiftedLogGaussian(0.2, 1.0)],
                         ids=["log-Laplace", "log-Gaussian"])
@pytest.mark.slow
def test_the_noise_coordinate_agrees_with_the_quadrature_in_log_space(mech, clipped):
    """F(alpha)/(alpha - 1) in the noise coordinate vs renyi's mpmath quadrature in t = log(y + c)
    on the laws as the mechanism gives them (atoms included), within both error bars."""
    law = mech.released_law if clipped else (mech.unclipped_law if hasattr(mech, "unclipped_law")
                                             else (lambda n: mech.released_law(n).base))
    for n in (1, 4):
        P, Q = law(n - 1), law(n)
        d = NoisePairLossCgf(noise_pair(P, Q))
        for alpha in (1.5, 4.0):
            F = d.mp_F(alpha)
            ref = renyi.renyi(P, Q, alpha)
            assert abs(F.value / (alpha - 1) - ref.value) <= F.error / (alpha - 1) + ref.error + 1e-25
        k, ref = d.kl(), renyi.kl(P, Q)
        assert abs(k.value - ref.value) <= k.error + ref.error + 1e-25


@pytest.mark.slow
def test_log_laplace_rho_is_the_laplace_mechanisms_exact_zcdp():
    """The unclipped edge is the eps_n-DP Laplace mechanism: rho* = eps + e^{-eps} - 1 inside a
    closed bracket (the closed form is the companion theorem's).  Its relative width is ~1e-12
    at moderate shifts and grows like MACH/d^2 at small ones (the float route's log-ratio
    lp - lq rounds to MACH |lp| while the KL is ~d^2/2): 5e-6 at n = 10^6, d = 4e-5."""
    m = LogLaplaceMechanism(0.05, 1)
    for n, width in ((1, 1e-9), (30, 1e-9), (10 ** 6, 1e-5)):
        t = tight_rho((m.unclipped_law(n - 1), m.unclipped_law(n)))
        exact = formulas.laplace_kl(m.mp_eps(n))
        assert t.bounded and t.lo <= exact <= t.hi and t.hi - t.lo <= width * exact


# --------------------------------------------------------------------------------------------
# The declared ends are upper bounds, tight enough that a bound 1 % too small is wrong
# --------------------------------------------------------------------------------------------


def test_the_lipschitz_end_bounds_the_laplace_curve_and_is_tight_for_a_large_shift():
    P, Q = _laplace_log_law(0, 0.05), _laplace_log_law(1, 0.05)   # d = 20
    d = NoisePairLossCgf(noise_pair(P, Q))
    for A in (2.0, 50.0, 1e3):
        end = d.large_alpha_end(A)
        truth = formulas.laplace_renyi(A, 20) / A       # D_A/A (Mironov's closed form)
        assert truth <= end.bound
        if A >= 50:
            assert 0.99 * end.bound < truth               # a bound 1 % smaller would be false
    assert float(d.loss_range()) >= 40 and float(d.loss_range()) < 40 * (1 + 1e-12)


def test_the_subgaussian_end_bounds_the_gaussian_curve_and_is_tight_at_large_orders():
    d = NoisePairLossCgf(noise_pair(Gaussian(0, 1), Gaussian(1.5, 1)))
    for A in (1.5, 10.0, 1e3):
        end = d.large_alpha_end(A)
        assert 1.5 ** 2 / 2 <= end.bound                 # D_alpha/alpha = d^2/2 at every order
        if A >= 1e3:
            assert 0.99 * end.bound < 1.5 ** 2 / 2


def test_a_noise_without_a_constant_keeps_the_numerical_end_and_says_so():
    class Plain(LogShiftedLaplaceDensity):
        noise_log_lipschitz = None

    P, Q = ContinuousLaw(Plain(0, 0.1, 1)), ContinuousLaw(Plain(0.1, 0.1, 1))
    end = NoisePairLossCgf(noise_pair(P, Q)).large_alpha_end(100.0)
    assert "grid" in end.how or "D_inf" in end.how
    assert end.bounded and end.bound >= 1.0 / 100 * (1 - 1e-9)   # D_inf = d = 1


# --------------------------------------------------------------------------------------------
# Extreme scales through every divergence entry point, against the closed forms
# --------------------------------------------------------------------------------------------

scales = st.integers(min_value=-300, max_value=300).map(lambda k: mpmath.mpf(10) ** k)
shifts = st.sampled_from(["0.25", "1", "2.5"]).map(mpmath.mpf)


@settings(max_examples=12, deadline=None)
@given(scale=scales, d=shifts, offset=st.integers(min_value=-3, max_value=3))
@pytest.mark.slow
def test_gaussian_pairs_at_any_scale(scale, d, offset):
    P, Q = Gaussian(offset * scale, scale), Gaussian((offset + d) * scale, scale)
    rho = d * d / 2
    assert abs(renyi.renyi(P, Q, 3).value - 3 * rho) < 1e-20
    assert abs(renyi.kl(P, Q).value - rho) < 1e-20
    m = mp_renyi(P, Q, 2)
    assert abs(m.value - 2 * rho) <= m.error + 1e-20
    c = renyi_curve(P, Q, [1.5, 7.0])
    assert np.all(np.abs(c.value - np.array([1.5, 7.0]) * float(rho)) <= c.error + 1e-12 * float(rho))
    assert mpmath.isinf(d_infinity(P, Q).value)
    t = tight_rho((P, Q))
    assert t.bounded and t.lo <= rho <= t.hi and t.hi <= rho * (1 + 1e-3)
    hs = profile.hockey_stick(P, Q, 0.5)
    assert abs(hs.value - profile.gaussian_hockey_stick(d, 0.5)) <= hs.error + 1e-15


@settings(max_examples=12, deadline=None)
@given(scale=scales, d=shifts)
@pytest.mark.slow
def test_laplace_pairs_at_any_scale(scale, d):
    P, Q = Laplace(0, scale), Laplace(d * scale, scale)
    r2 = renyi.renyi(P, Q, 2)
    assert abs(r2.value - formulas.laplace_renyi(2, d)) <= r2.error + 1e-12
    k = renyi.kl(P, Q)
    assert abs(k.value - formulas.laplace_kl(d)) <= k.error + 1e-12
    t = tight_rho((P, Q))
    exact = formulas.laplace_kl(d)                       # the Laplace mechanism's tight zCDP
    assert t.bounded and t.lo - 1e-12 <= exact <= t.hi + 1e-12
    assert abs(d_infinity(P, Q).value - d) < 1e-6 * d
    hs = profile.hockey_stick(P, Q, d / 2)               # 1 - e^{(eps - d)/2} for 0 <= eps <= d
    assert abs(hs.value - (1 - mpmath.exp(-d / 4))) <= hs.error + 1e-12


def test_the_standardised_coordinate_is_used_only_far_from_scale_one():
    assert standardised(Gaussian(0, 1), Gaussian(1, 1)) is None
    assert standardised(Laplace(0, 10), Laplace(1, 10)) is None
    P, Q, c, s = standardised(Laplace(5e-20, 1e-20), Laplace(6e-20, 1e-20))
    assert float(s) == 1e-20 and float(c) == 5e-20
    assert math.isclose(float(Q.density.t_center_scale()[0]), 1.0)
    # atoms move with the density: x -> (x - c)/s (N(3e-4, 1e-8) clipped to [0, inf), its
    # mass below 0 an atom there)
    from countdp.laws import MixedLaw
    from countdp.laws.gaussian import GaussianDensity
    law = MixedLaw({0.0: mpmath.ncdf(-3)}, GaussianDensity(3e-4, 1e-4, 0.0, math.inf))
    P, Q, c, s = standardised(law, law)
    (u0,) = P.atoms()
    assert u0 == (0 - c) / s and abs(float(u0) + 3) < 1e-12
    # mapped back: the crossing of the profile sits where it sits for the original pair
    hs = profile.hockey_stick(Laplace(0, 1e-20), Laplace(1e-20, 1e-20), 0.5)
    assert all(abs(x - 0.25e-20) < 1e-30 for x in hs.crossings)


def _gaussian_D(a, m1, s1, m2, s2):
    """D_alpha(N(m1, s1^2) || N(m2, s2^2)) for alpha > 1, at 80 digits."""
    with mpmath.workdps(80):
        return gaussian_F(a, m1, s1, m2, s2) / (mpmath.mpf(a) - 1)


@pytest.mark.parametrize("m, s, d, r", [(1, 1e-12, 2e-12, 1.2), (1e3, 1e-9, 1e-9, 1.5),
                                        (22.17, 1.44e-12, -7.8e-14, 1.12), (5, 1e-6, 1e-6, 1.3)])
def test_the_float_route_of_a_standardised_pair_far_from_its_origin_covers_the_closed_form(m, s, d, r):
    """Gaussians of two scales far from 1 (no noise pair: the standardised route), located
    |c|/s = 1e6 .. 1.5e13 scales from 0: the float64 logpdf reads the base at c + s u, which
    rounds to MACH |c| -- 1e-4 of a scale at 1e12.  Without that rounding in the bar
    (``float_origin``) D_30 of the first pair was 1.4e-7 off under 4.7e-8 (relative), the third
    pair's D_3 2e-3 off under 1.2e-3."""
    P, Q = Gaussian(m, s), Gaussian(m + d, s * r)
    assert standardised(P, Q) is not None and noise_pair(P, Q) is None
    alphas = np.array([1.5, 3.0, 30.0, 300.0])
    c = renyi_curve(P, Q, alphas)
    for a, v, e in zip(alphas, c.value, c.error):
        exact = _gaussian_D(a, m, s, m + d, s * r)
        assert abs(v - exact) <= e, (a, v, float(exact), e)


@pytest.mark.slow
def test_an_unevaluable_order_stops_the_tail_instead_of_opening_the_bracket():
    """Gaussians: F at alpha ~ 1e7 overflows the float route; before, the bracket's upper end was
    inf.  Now the push stops and the end is the (valid) bound at the last order evaluated."""
    t = tight_rho((Gaussian(0, 1), Gaussian(1, 1)))
    assert t.bounded and math.isfinite(float(t.hi))
    assert "cannot evaluate" in t.tail or float(t.best().alphas[-1]) < 1e7


@pytest.mark.slow
def test_the_airy_release_gets_a_closed_bracket_below_the_airy_budget():
    """The Airy noise declares its certified sub-Gaussian score (S = 4|a1'|/3, rounded up) and its
    kink at 0: the released pair's rho* is the KL end, at most v(n) (the location engine's tight
    budget of the unclipped edge) within the error bars, in a closed bracket.  Without the kink
    the mpmath quadrature was 2.4e-10 above v(10), beyond its own error estimate of 1e-10."""
    from countdp.mechanisms.airy import AiryLogMechanism

    m = AiryLogMechanism(0.1, 1.0)
    P, Q = m.released_law(9), m.released_law(10)
    t = tight_rho((P, Q))
    v = m.mp_v(10)
    assert t.bounded and t.lo <= v.value + v.error
    assert abs(t.value - v.value) < 1e-20
    assert noise_pair(P, Q).noise.noise_score_subgaussian >= formulas.airy_fisher()


def test_a_noise_pair_read_at_more_bits_than_it_was_built_at_is_refused():
    """Built at 15 digits its shift is rounded there: at 30 digits the precise route was 8e-16
    off with a bar of 4e-28.  Refused; at the precision it was built at (or below) it answers."""
    mech = ShiftedLogGaussian(0.45, 1.0)
    with mpmath.workdps(15):
        F = NoisePairLossCgf(noise_pair(mech.released_law(3), mech.released_law(4)))
    with mpmath.workdps(30):
        with pytest.raises(ValueError, match="built at 53 bits and is read at 103"):
            F.mp_F(2)
        with pytest.raises(ValueError, match="build it again"):
            F.kl()
    with mpmath.workdps(15):
        assert F.mp_F(2).value > 0
    with mpmath.workdps(10):
        assert F.kl().value > 0
