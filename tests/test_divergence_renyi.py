"""countdp.divergence.renyi: the Renyi engine -- closed forms, quadrature, atoms and integer laws,
infinite divergences with reasons, and bad-input handling."""

import math
import random
import re

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from _densities import UnplacedNormal, normal_part
from _designs import cs, design, fracs, rs
from countdp.divergence.renyi import gaussian_renyi, kl, locate_peak, log_integrand, renyi
from countdp.laws import (ContinuousLaw, FinitePmf, Gaussian, IntegerLaw, LogShiftedGaussian, MixedLaw,
                          PointMass)
from countdp.mechanisms import ShiftedLogGaussian

alphas = st.floats(1.01, 50.0)  # orders


@settings(max_examples=25, deadline=None)
@given(rs, fracs, cs, st.integers(0, 10**6), st.integers(0, 10**6), alphas)
def test_eq12_symmetric_closed_form(r, frac, c, n, m, alpha):
    mech = design(r, frac, c)
    with mpmath.workdps(30):
        a = renyi(mech.unclipped_law(n), mech.unclipped_law(m), alpha)
        b = renyi(mech.unclipped_law(m), mech.unclipped_law(n), alpha)
        expected = alpha * mpmath.log((n + mpmath.mpf(c)) / (m + mpmath.mpf(c))) ** 2 / (2 * mech.mp_sigma() ** 2)
        assert abs(a.value - b.value) <= mpmath.mpf(10) ** -25 * (1 + expected)
        assert abs(a.value - expected) <= mpmath.mpf(10) ** -25 * (1 + expected)


@settings(max_examples=12, deadline=None)
@given(rs, fracs, cs, st.integers(1, 1000), st.sampled_from([1.01, 2.0, 7.0]))
@pytest.mark.slow
def test_quadrature_matches_closed_form_and_is_nonnegative(r, frac, c, n, alpha):
    mech = design(r, frac, c)
    with mpmath.workdps(25):
        P, Q = mech.unclipped_law(n - 1), mech.unclipped_law(n)
        q = renyi(P, Q, alpha, method="quadrature")
        closed = renyi(P, Q, alpha, method="closed")
        assert abs(q.value - closed.value) <= q.error + closed.value * mpmath.mpf(10) ** -18
        rel = renyi(mech.released_law(n - 1), mech.released_law(n), alpha)
        assert 0 <= rel.value <= closed.value * (1 + mpmath.mpf(10) ** -18) + rel.error


@pytest.mark.parametrize("law", [Gaussian(0.3, 2.0), LogShiftedGaussian(0.1, 0.4, 1.0), FinitePmf({0: 0.3, 2: 0.7}),
                                 ShiftedLogGaussian(0.45, 1.0).released_law(2)])
def test_divergence_of_identical_laws_is_zero(law):
    with mpmath.workdps(25):
        for alpha in (1.5, 10):
            d = renyi(law, law, alpha, method="quadrature")
            assert abs(d.value) <= d.error + mpmath.mpf(10) ** -18
        assert abs(kl(law, law, method="quadrature").value) < mpmath.mpf(10) ** -18


def test_kl_is_the_alpha_to_one_limit():
    mech = ShiftedLogGaussian(0.45, 0.1)
    P, Q = mech.released_law(0), mech.released_law(1)
    with mpmath.workdps(30):
        k = kl(P, Q).value
        gaps = [abs(renyi(P, Q, 1 + mpmath.mpf(10) ** -j).value - k) for j in (2, 3, 4)]
        assert gaps[0] > gaps[1] > gaps[2]
        assert gaps[2] < gaps[0] / 50


def test_gaussian_kl_closed_vs_quadrature():
    with mpmath.workdps(25):
        P, Q = Gaussian(0, 1), Gaussian(1, 2)
        assert abs(kl(P, Q, method="quadrature").value - kl(P, Q).value) < mpmath.mpf(10) ** -18


def test_infinite_divergences_have_reasons():
    with mpmath.workdps(20):
        d = renyi(ShiftedLogGaussian(0.45, 1.0).released_law(1), PointMass(0), 2)
        assert not d.finite and "support mismatch" in d.reason
        d = renyi(Gaussian(0, 1), PointMass(0), 2)
        assert not d.finite and "continuous part" in d.reason
        # unequal variances above the threshold (eq 34): closed form and quadrature both infinite
        d = gaussian_renyi(3, 0, 2, 0, 1)
        assert not d.finite and "eq 34" in d.reason
        d = renyi(Gaussian(0, 2), Gaussian(0, 1), 3, method="quadrature")
        assert not d.finite and "tail" in d.reason
        d = renyi(FinitePmf({0: 0.5, 1: 0.5}), FinitePmf({0: 1}), 2)
        assert not d.finite


def test_unequal_variance_closed_form_vs_quadrature_where_finite():
    with mpmath.workdps(25):
        P, Q = Gaussian(0.2, 1.0), Gaussian(0.0, 1.3)
        for alpha in (1.5, 2.0, 2.5):
            a = renyi(P, Q, alpha, method="closed")
            b = renyi(P, Q, alpha, method="quadrature")
            assert abs(a.value - b.value) <= b.error + mpmath.mpf(10) ** -18


def test_integer_law_divergence_relabelling_and_closed_sum():
    P = FinitePmf({0: 0.2, 1: 0.5, 2: 0.3})
    Q = FinitePmf({0: 0.4, 1: 0.4, 2: 0.2})
    with mpmath.workdps(30):
        d = renyi(P, Q, 3).value
        pairs = [(mpmath.mpf(p), mpmath.mpf(q)) for p, q in (("0.2", "0.4"), ("0.5", "0.4"), ("0.3", "0.2"))]
        direct = mpmath.log(mpmath.fsum(p ** 3 * q ** -2 for p, q in pairs)) / 2
        assert abs(d - direct) < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("alpha", [1, 0.5, -2, float("nan"), float("inf")])
def test_bad_orders(alpha):
    with pytest.raises(ValueError, match="alpha must"):
        renyi(Gaussian(0, 1), Gaussian(1, 1), alpha)


def test_bad_method():
    with pytest.raises(ValueError, match="method must be"):
        renyi(Gaussian(0, 1), Gaussian(1, 1), 2, method="guess")


# --------------------------------------------------------------------------------------------
# The rigorous Arb routes (method="ball", "ball-closed") against the mpmath route, on a subset
# of the thm3.1.ii grid (benchmarks/renyi_grid.py sweeps the whole grid)
# --------------------------------------------------------------------------------------------

GRID_SUBSET = [(r0, c, n, alpha) for r0, c in ((0.025, 0.1), (0.45, 2.0), (0.225, 1.0))
               for n in (1, 10, 10**6) for alpha in (1.01, 20, 100)]


@pytest.mark.parametrize("r0,c,n,alpha", GRID_SUBSET)
@pytest.mark.slow
def test_ball_routes_agree_with_quadrature_within_both_error_bars(r0, c, n, alpha):
    mech = ShiftedLogGaussian(r0, c)
    with mpmath.workdps(30):
        P, Q = mech.released_law(n - 1), mech.released_law(n)
        for A, B in ((P, Q), (Q, P)):
            quad = renyi(A, B, alpha, method="quadrature")
            ball = renyi(A, B, alpha, method="ball")
            closed = renyi(A, B, alpha, method="ball-closed")
            assert abs(quad.value - ball.value) <= quad.error + ball.error
            assert abs(closed.value - ball.value) <= closed.error + ball.error
            # the rigorous bars are no wider than the quadrature's estimate, and near 30 digits
            assert ball.error <= quad.error and closed.error <= quad.error
            assert ball.error <= abs(ball.value) * mpmath.mpf(10) ** -29
            # a released divergence stays below the unclipped one, alpha v(n) (Theorem 3.1(ii));
            # equal to 30 digits where clipping is negligible (the stored sigma is rounded)
            assert ball.value - ball.error <= alpha * mech.mp_v(n) * (1 + mpmath.mpf(10) ** -28)


@pytest.mark.parametrize("r0,c,n,alpha", [(0.025, 0.1, 1, 100), (0.45, 1.0, 10, 20), (0.225, 2.0, 10**6, 1.01)])
def test_ball_error_bars_at_50_digits(r0, c, n, alpha):
    mech = ShiftedLogGaussian(r0, c)
    with mpmath.workdps(50):
        P, Q = mech.released_law(n - 1), mech.released_law(n)
        quad = renyi(P, Q, alpha, method="quadrature")
        ball = renyi(P, Q, alpha, method="ball")
        assert abs(quad.value - ball.value) <= quad.error + ball.error
        assert ball.error <= quad.error
        assert ball.error <= abs(ball.value) * mpmath.mpf(10) ** -49


@pytest.mark.parametrize("alpha", [1, 2])
def test_quadrature_error_bars_cover_the_gap_and_stay_near_the_working_precision(alpha):
    """The quadrature route's error bar is honest (it covers the gap to the closed form) and tight
    (a few hundred ulps at 30 digits, not the size of the value): an inflated bar would let a
    wrong value pass a comparison."""
    mech = ShiftedLogGaussian(0.45, 1.0)
    with mpmath.workdps(30):
        P, Q = mech.unclipped_law(3), mech.unclipped_law(2)
        if alpha == 1:
            q, closed = kl(P, Q, method="quadrature"), kl(P, Q)
        else:
            q, closed = renyi(P, Q, alpha, method="quadrature"), renyi(P, Q, alpha)
        assert abs(q.value - closed.value) <= q.error + closed.error
        assert q.error <= abs(q.value) * mpmath.mpf(10) ** -25


def test_the_summation_error_bar_grows_like_one_over_alpha_minus_one():
    """D_alpha = log(sum p^alpha q^(1-alpha))/(alpha - 1) at alpha = 1 + 1e-20: the sum is 1 up to
    1e-20, its rounding (~1e-30) is divided by alpha - 1, so D at 30 digits is only good to
    ~1e-10 -- and its error bar must say so (the value at 60 digits is the reference)."""
    from countdp.laws import FinitePmf

    P = FinitePmf({0: mpmath.mpf(1) / 3, 1: mpmath.mpf(2) / 3})
    Q = FinitePmf({0: mpmath.mpf(1) / 2, 1: mpmath.mpf(1) / 2})
    with mpmath.workdps(60):
        alpha = 1 + mpmath.mpf(10) ** -20
        ref = renyi(P, Q, alpha).value
    with mpmath.workdps(30):
        d = renyi(P, Q, 1 + mpmath.mpf(10) ** -20)
        assert abs(d.value - ref) <= d.error
        assert d.error < 1e-6


def test_the_summation_tail_allowance_covers_a_slowly_decaying_pmf():
    """Discrete Laplace (a = 0.05, ratio e^-0.05 per integer) at shift 1: the sum is cut where the
    edge terms fall below e^-60 of the largest, and what is left beyond is about 1/(1 - r) = 20
    edge terms per side; the allowance (2 e^-60 x the window's length) must cover it.  Reference:
    the geometric series in closed form,
    S = tanh(a/2) (e^{-a(1-alpha)} + e^{a(1-alpha) - a}) / (1 - e^{-a})."""
    from countdp.mechanisms.epsilon_dp import DiscreteLaplace

    with mpmath.workdps(40):
        a, alpha = mpmath.mpf(1) / 20, mpmath.mpf(2)
        S = mpmath.tanh(a / 2) * (mpmath.exp(-a * (1 - alpha)) + mpmath.exp(a * (1 - alpha) - a)) / (1 - mpmath.exp(-a))
        exact = mpmath.log(S) / (alpha - 1)
        d = renyi(DiscreteLaplace(0, a), DiscreteLaplace(1, a), alpha)
        assert abs(d.value - exact) <= d.error


@pytest.mark.parametrize("r0, c, n, alpha", [(0.9, 1, 1, 5), (0.5, 1, 3, 2)])
@pytest.mark.slow
def test_the_summation_tail_allowance_covers_the_log_convex_tail_of_a_rounded_release(r0, c, n, alpha):
    """The rounded log-shifted Gaussian's terms are log-convex far out (a lognormal in k), not
    geometric: at 40 digits the sum cut at e^-60 leaves ~1e-31 of D beyond its window (far above
    the rounding, ~1e-37), which the tail allowance must cover.  Reference: the same pmf summed at
    50 digits until a term is below 1e-48 of the sum (1 600 integers at alpha = 5)."""
    mech = ShiftedLogGaussian(r0, c)
    with mpmath.workdps(40):
        d = renyi(mech.rounded_law(n), mech.rounded_law(n + 1), alpha)
    with mpmath.workdps(50):
        P, Q = mech.rounded_law(n), mech.rounded_law(n + 1)
        total, k = mpmath.mpf(0), 0
        while True:
            term = P.mp_pmf(k) ** alpha * Q.mp_pmf(k) ** (1 - alpha)
            total += term
            if k > 50 and term < total * mpmath.mpf(10) ** -48:
                break
            k += 1
        ref = mpmath.log(total) / (alpha - 1)
    assert abs(d.value - ref) > 1e-35  # the part beyond the window is far above the rounding
    assert abs(d.value - ref) <= d.error


def test_location_rounding_enters_only_between_laws_of_one_coordinate():
    """The conditioning term 4 eps max|mu| / |mu_P - mu_Q| widens the bar of a shift between two
    laws of one coordinate; log-shift laws with different c live in different coordinates, where
    their locations are not comparable: locations 1e-25 apart there must not widen the bar
    (measured 2e-28 at 30 digits), while the same gap in one coordinate does (4e-5 relative)."""
    with mpmath.workdps(30):
        P = LogShiftedGaussian(0, 0.5, 1)
        apart = renyi(P, LogShiftedGaussian(mpmath.mpf("1e-25"), 0.5, 2), 2)
        assert apart.error < mpmath.mpf("1e-26") * apart.value
        near = renyi(P, LogShiftedGaussian(mpmath.mpf("1e-25"), 0.5, 1), 2)
        assert near.error > mpmath.mpf("1e-6") * abs(near.value)


@pytest.mark.slow
def test_a_density_vanishing_inside_its_support():
    """P = N(0, 1) conditioned on |x| > 1, Q = N(0, 1): KL(P || Q) = D_2(P || Q) = -log P(|Z| > 1)
    exactly.  P's log-density is -inf on (-1, 1), between quadrature nodes; its jumps at +-1 are
    declared as breakpoints."""
    with mpmath.workdps(30):
        m = 2 * mpmath.ncdf(-1)
        P = ContinuousLaw(normal_part(1 / m, hole=True))
        for d in (kl(P, Gaussian(0, 1)), renyi(P, Gaussian(0, 1), 2)):
            assert abs(d.value + mpmath.log(m)) <= d.error < mpmath.mpf("1e-25")


def test_atoms_beside_a_density():
    """P = 1/2 delta_{1/2} + 1/2 N(0, 1), Q = 1/4 delta_{1/2} + 3/4 N(0, 1): the atom and the
    density parts add, D_alpha = log(2^-alpha 4^(alpha-1) + 2^-alpha (3/4)^(1-alpha)) / (alpha - 1);
    with Q's atom gone, P's atom has no mass under Q and D is infinite, saying why."""
    with mpmath.workdps(30):
        half = mpmath.mpf(1) / 2
        P = MixedLaw({half: half}, normal_part(half))
        Q = MixedLaw({half: mpmath.mpf(1) / 4}, normal_part(mpmath.mpf(3) / 4))
        for alpha in (2, mpmath.mpf("1.5")):
            exact = mpmath.log(half ** alpha * mpmath.mpf(4) ** (alpha - 1)
                               + half ** alpha * (mpmath.mpf(3) / 4) ** (1 - alpha)) / (alpha - 1)
            d = renyi(P, Q, alpha)
            assert abs(d.value - exact) <= d.error < mpmath.mpf("1e-20")
        gone = renyi(P, ContinuousLaw(normal_part(1)), 2)
        assert gone.value == mpmath.inf and "P has an atom at 0.5" in gone.reason


def test_a_q_density_without_centre_and_scale_is_integrated_where_p_lives():
    """D_alpha(N(0, 1) || N(1, 1)) = alpha / 2, the second law placing no quadrature itself."""
    with mpmath.workdps(25):
        Q = ContinuousLaw(UnplacedNormal())
        for alpha in (mpmath.mpf("1.5"), mpmath.mpf(3)):
            d = renyi(Gaussian(0, 1), Q, alpha)
            assert abs(d.value - alpha / 2) <= d.error < mpmath.mpf("1e-18")
        k = kl(Gaussian(0, 1), Q)
        assert abs(k.value - mpmath.mpf(1) / 2) <= k.error < mpmath.mpf("1e-18")


@pytest.mark.parametrize("alpha", [1, 2])
def test_a_hole_in_q_where_p_has_mass_makes_d_infinite(alpha):
    """Also for the KL divergence, whose integrand p log(p/q) reads log q only through the ratio."""
    P, Q = Gaussian(0, 1), ContinuousLaw(normal_part(1 / (2 * mpmath.ncdf(-1)), hole=True))
    d = kl(P, Q, method="quadrature") if alpha == 1 else renyi(P, Q, alpha, method="quadrature")
    assert d.value == mpmath.inf and d.reason == "support mismatch: Q's density vanishes where P's does not"


def test_an_integer_law_against_a_density_is_infinite_both_ways():
    P, Q = FinitePmf({0: 0.5, 1: 0.5}), Gaussian(0, 1)
    assert "P is an integer law, Q has a continuous part" in renyi(P, Q, 2).reason
    assert "P has a continuous part, Q is an integer law" in renyi(Q, P, 2).reason
    assert kl(Q, P).value == mpmath.inf


class _Geometric(IntegerLaw):
    """P(k) = 2^-(k+1) on k >= 0 (mirrored: on k <= 0), its window the exact tail 2^-(k+1)."""

    def __init__(self, mirrored=False):
        self.sign = -1 if mirrored else 1
        self.support_lo, self.support_hi = (None, 0) if mirrored else (0, None)

    def mp_pmf(self, k):
        j = self.sign * int(k)
        return mpmath.mpf(2) ** -(j + 1) if j >= 0 else mpmath.mpf(0)

    def window(self, tail):
        n = int(mpmath.ceil(-mpmath.log(tail, 2)))
        return (-n, 0) if self.sign < 0 else (0, n)


@pytest.mark.parametrize("mirrored", [False, True])
def test_the_widened_window_finds_where_q_has_no_mass(mirrored):
    """P geometric on the integers past 0, Q the same law stopped at |k| = 60: both windows end
    within 60, and only the widening past them meets the mass of P where Q has none."""
    P = _Geometric(mirrored)
    s = -1 if mirrored else 1
    table = {s * k: mpmath.mpf(2) ** -(k + 1) for k in range(60)}
    table[s * 60] = mpmath.mpf(2) ** -60  # the rest of P's mass on the last point
    d = renyi(P, FinitePmf(table), 2)
    assert d.value == mpmath.inf
    k = int(re.search(r"at (-?\d+) where Q has none", d.reason).group(1))
    assert s * k > 60
    assert renyi(FinitePmf(table), P, 2).finite


def test_atoms_against_an_integer_law_are_summed_exactly():
    P = MixedLaw({0: 0.5, 3: 0.5}, None)
    Q = FinitePmf({0: "0.25", 1: "0.25", 3: "0.5"})
    with mpmath.workdps(30):
        want = mpmath.log(mpmath.mpf(1) / 4 / (mpmath.mpf(1) / 4) + mpmath.mpf(1) / 4 / (mpmath.mpf(1) / 2))
        d = renyi(P, Q, 2)
        assert abs(d.value - want) <= d.error < mpmath.mpf("1e-28")


class _Flat(IntegerLaw):
    """Uniform on 0..60000: more integers than a divergence sum enumerates."""

    support_lo, support_hi = 0, 60000

    def mp_pmf(self, k):
        return mpmath.mpf(1) / 60001 if 0 <= k <= 60000 else mpmath.mpf(0)

    def window(self, tail):
        return 0, 60000


def test_a_sum_over_more_integers_than_the_limit_is_refused():
    with pytest.raises(ValueError, match="has not converged within 50000 integers"):
        renyi(_Flat(), _Flat(), 2)


@pytest.mark.parametrize("sp, sq, mu, alpha", [(1.0, 1.0, 1.0, 2.0), (2.0, 3.0, 1.0, 1.5), (3.0, 2.0, -2.0, 1.5),
                                               (0.5, 0.7, 0.3, 1.1), (4.0, 4.0, 3.0, 1.0)])
def test_the_integrands_peak_is_the_vertex_and_its_width_the_curvature(sp, sq, mu, alpha):
    """For P = N(0, sp^2), Q = N(mu, sq^2) the log-integrand is a parabola with
    g'' = -alpha/sp^2 + (alpha - 1)/sq^2 < 0 and vertex x* = (alpha - 1) mu/sq^2 / g'': the peak
    that places the quadrature's nodes and the tail probes sits there, and its width is
    1/sqrt(-g'') (above and below the laws' own scale as well as equal to it)."""
    pd, qd = Gaussian(0, sp).density, Gaussian(mu, sq).density
    gpp = -alpha / sp ** 2 + (alpha - 1) / sq ** 2
    peak = locate_peak(log_integrand(pd, qd, mpmath.mpf(alpha)), pd, qd, mpmath.mpf(alpha))
    assert peak.t == pytest.approx((alpha - 1) * mu / sq ** 2 / gpp, rel=0, abs=1e-6 * sp)
    assert peak.width == pytest.approx(1 / math.sqrt(-gpp), rel=1e-6, abs=0)


# Uniform against triangular on one interval: q^(1 - alpha) is unbounded at both ends, integrable
# for alpha < 2 with D_alpha = -log 2 - log(2 - alpha)/(alpha - 1), not integrable from 2 on; the
# reverse pair vanishes at the ends, D_alpha = log(2^alpha / (alpha + 1))/(alpha - 1).

@pytest.mark.slow
def test_an_integrand_unbounded_at_a_finite_end_is_covered_or_infinite():
    """The quadrature's nodes stop short of a finite end: the mass they do not reach (at 1.9 it
    moved D by 0.01, 230 of the old bar) is estimated from the local power and carried in the
    error; from alpha = 2 on the integral is not integrable at the end and D = inf, with why."""
    from countdp.laws.reference import Triangular, Uniform
    for P, Q in ((Uniform(0, 1), Triangular(0.5, 0.5)), (Uniform(-1, 1), Triangular(0, 1))):
        for alpha in (1.1, 1.5, 1.9):
            exact = -mpmath.log(2) - mpmath.log(2 - mpmath.mpf(alpha)) / (alpha - 1)
            d = renyi(P, Q, alpha)
            assert abs(d.value - exact) <= d.error
        for alpha in (2, 2.5, 4):
            d = renyi(P, Q, alpha)
            assert d.value == mpmath.inf and "not integrable" in d.reason
        d = renyi(Q, P, 3)
        assert abs(d.value - mpmath.log(mpmath.mpf(8) / 4) / 2) <= d.error < 1e-12


@pytest.mark.slow
def test_a_kinked_reference_law_declares_its_kink_and_every_route_covers_the_closed_form():
    """The truncated Laplace law has a kink at 0 and the triangular law at its mode; without them
    as quadrature breakpoints uniform against truncated Laplace came out 2.2e-7 off under a bar
    of 1.6e-7 (renyi) and 3.7e-6 under 1.8e-6 (the engine's mpmath route).  Closed form on
    [-1, 1], b = 1/2: int p^alpha q^(1 - alpha) = 2^(1 - alpha) Z^(alpha - 1) b (e^((alpha - 1)/b) - 1)/(alpha - 1),
    Z = 2b (1 - e^(-1/b))."""
    from countdp.divergence.tight_rho import mp_renyi, renyi_curve
    from countdp.laws.reference import Triangular, TruncatedLaplace, Uniform
    assert TruncatedLaplace(1, 0.5).density.breakpoints == (0.0,)
    assert Triangular(0.25, 1).density.breakpoints == (0.25,)
    P, Q = Uniform(-1, 1), TruncatedLaplace(1, 0.5)
    with mpmath.workdps(40):
        b = mpmath.mpf(1) / 2
        Z = 2 * b * -mpmath.expm1(-1 / b)
        for alpha in (1.5, 2, 5):
            a = mpmath.mpf(alpha)
            exact = mpmath.log(2 ** (1 - a) * Z ** (a - 1) * b * mpmath.expm1((a - 1) / b) / (a - 1)) / (a - 1)
            for est in (renyi(P, Q, alpha), mp_renyi(P, Q, alpha)):
                assert abs(est.value - exact) <= est.error
            fl = renyi_curve(P, Q, [alpha])
            assert abs(fl.value[0] - float(exact)) <= fl.error[0]


@pytest.mark.parametrize("seed", range(3))
def test_gaussian_closed_forms_that_cancel_past_their_guard_digits_are_covered(seed):
    """Gaussians whose scales differ in the last bits of a double, at 15-30 digits: the closed
    form's terms cancel by more than the 20 guard digits of its first evaluation (the KL of
    N(3803.8, 0.0339^2) against the same mean and a scale 1e-13 smaller is 3e-12 off there at
    15 digits); the second evaluation, 20 digits finer, and the two's difference in the bar
    cover it.  Reference: the same formula at 300 digits on the same binary parameters."""
    rng = random.Random(seed)
    for _ in range(40):
        dps = rng.choice([15, 20, 30])
        a = rng.choice([1, 1 + 10 ** rng.uniform(-6, 2)])
        s1 = 10 ** rng.uniform(-3, 3)
        s2 = s1 * (1 + rng.choice([1, -1]) * rng.randint(1, 1000) * 2.0 ** -52)
        m1 = rng.uniform(-1, 1) * 10 ** rng.uniform(-3, 6)
        m2 = m1 + rng.choice([0, s1 * 10 ** rng.uniform(-16, 1)])
        with mpmath.workdps(dps):
            d = gaussian_renyi(a, m1, s1, m2, s2)
        if not d.finite:
            continue
        with mpmath.workdps(300):
            A, M1, S1, M2, S2 = (mpmath.mpf(v) for v in (a, m1, s1, m2, s2))
            var = A * S2 ** 2 + (1 - A) * S1 ** 2
            exact = (mpmath.log(S2 / S1) + (S1 ** 2 + (M1 - M2) ** 2) / (2 * S2 ** 2) - mpmath.mpf(1) / 2 if a == 1
                     else mpmath.log(S2 / S1) + mpmath.log(S2 ** 2 / var) / (2 * (A - 1)) + A * (M1 - M2) ** 2 / (2 * var))
            assert abs(d.value - exact) <= d.error, (dps, a, m1, s1, m2, s2, d, exact)


@pytest.mark.parametrize("dps", [30, 31, 32])
@pytest.mark.slow
def test_the_quadrature_bar_covers_where_mpmaths_estimate_is_short(dps):
    """Generalised Gaussians (p = 1.69) 0.11 apart at alpha = 1.0016: mpmath's tanh-sinh came
    out 1.5e-25 off at 30, 31 and 32 digits while estimating 1e-26 .. 1e-27 (right at 35); the
    quadrature now runs at two precisions.  Reference: the sup-over-alpha engine's precise
    route (other nodes, other code) at 60 digits."""
    from countdp.divergence.tight_rho import mp_renyi
    from countdp.laws.generalised_gaussian import GeneralisedGaussian
    P, Q = GeneralisedGaussian(1.69312, 5.3933), GeneralisedGaussian(1.69312, 5.5028)
    a = 1.0015955574115158
    with mpmath.workdps(60):
        ref = mp_renyi(P, Q, a)
    with mpmath.workdps(dps):
        got = renyi(P, Q, a)
    with mpmath.workdps(60):
        assert ref.error < mpmath.mpf(10) ** -45
        assert abs(got.value - ref.value) <= got.error
