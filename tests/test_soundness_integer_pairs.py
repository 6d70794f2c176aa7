"""Integer laws with infinite support against closed forms: discrete Laplace laws
p_k = tanh(a/2) e^{-a |k - m|}, of one scale and of two.

For DLap(m1, a1) || DLap(m2, a2) the terms p^alpha q^(1-alpha) are geometric beyond both
locations, with ratio e^{-g}, g = alpha a1 + (1 - alpha) a2: D_alpha is a finite sum plus two
geometric tails where g > 0 and infinite where g <= 0 (for a narrower Q, a2 > a1, at every
alpha >= a2 / (a2 - a1)).  The engine used to sum the pmfs over P's proven window and
charge the mass beyond it at the window's largest ratio p/q, which beyond the window keeps
growing for a narrower Q: DLap(0, 1) || DLap(0, 2) at alpha = 2, inf, came out 3.26 +- 0.02."""

from __future__ import annotations

import math

import mpmath
import pytest

from _three_routes import assert_routes_cover
from countdp.divergence.finite_support import ratio_stays_within
from countdp.divergence.profile import hockey_stick
from countdp.divergence.renyi import SumNotConverged, renyi
from countdp.mechanisms.epsilon_dp import DiscreteLaplace
from countdp.laws.base import IntegerLaw

M = mpmath.mpf


def renyi_closed(m1, a1, m2, a2, alpha):
    a1, a2, alpha = M(a1), M(a2), M(alpha)
    g = alpha * a1 + (1 - alpha) * a2
    if g <= 0:
        return math.inf
    c1, c2 = mpmath.tanh(a1 / 2), mpmath.tanh(a2 / 2)

    def term(k):
        return c1 ** alpha * c2 ** (1 - alpha) * mpmath.exp(-alpha * a1 * abs(k - m1) - (1 - alpha) * a2 * abs(k - m2))

    lo, hi = min(m1, m2), max(m1, m2)
    r = mpmath.exp(-g)
    total = mpmath.fsum(term(k) for k in range(lo, hi + 1)) + (term(lo) + term(hi)) * r / (1 - r)
    return mpmath.log(total) / (alpha - 1)


def profile_closed(m1, a1, m2, a2, eps):
    """sum_k (p_k - e^eps q_k)_+ over |k| <= W, the rest of either law below 10^-80."""
    a1, a2, E = M(a1), M(a2), mpmath.exp(eps)
    c1, c2 = mpmath.tanh(a1 / 2), mpmath.tanh(a2 / 2)
    W = int(200 / min(a1, a2)) + abs(m1) + abs(m2)
    return mpmath.fsum(max(0, c1 * mpmath.exp(-a1 * abs(k - m1)) - E * c2 * mpmath.exp(-a2 * abs(k - m2)))
                       for k in range(-W, W + 1))


# one scale, shifted (log p/q bounded); a narrower Q (D_alpha inf from a2 / (a2 - a1)); a wider Q
PAIRS = [(0, 1, 1, 1), (0, 0.1, 3, 0.1), (2, 3, 0, 3), (0, 1, 0, 2), (5, 0.5, -5, 0.7), (0, 2, 0, 1)]


@pytest.mark.parametrize("m1, a1, m2, a2", PAIRS)
@pytest.mark.parametrize("alpha", [1.01, 1.5, 2, 5])
def test_discrete_laplace_renyi_against_the_closed_form(m1, a1, m2, a2, alpha):
    with mpmath.workdps(40):
        exact = renyi_closed(m1, a1, m2, a2, alpha)
        assert_routes_cover(DiscreteLaplace(m1, a1), DiscreteLaplace(m2, a2), alpha, exact, rounding=1e-14)


@pytest.mark.parametrize("m1, a1, m2, a2", PAIRS)
@pytest.mark.parametrize("eps", [0, 0.3, 3])
def test_discrete_laplace_profile_against_the_closed_form(m1, a1, m2, a2, eps):
    with mpmath.workdps(40):
        exact = profile_closed(m1, a1, m2, a2, eps)
        got = hockey_stick(DiscreteLaplace(m1, a1), DiscreteLaplace(m2, a2), eps)
        assert abs(got.value - exact) <= got.error + M(10) ** -35, (got, exact)


def test_the_window_is_trusted_only_where_the_ratio_beyond_it_stays_within_its_maximum():
    """The engine's window check: a shifted pair of one scale (log p/q constant beyond both
    locations) passes, a narrower Q (log p/q = |k| + const) does not."""
    with mpmath.workdps(30):
        # (a = 0.1: log p and log q near -4.6e17 at the farthest probe, each rounded by 1e-13,
        # their difference exact: the ratio there must count as within, or every wide pair of
        # one scale would lose its window, and its large-alpha end with it)
        for P, Q, within in ((DiscreteLaplace(0, 1), DiscreteLaplace(3, 1), True),
                             (DiscreteLaplace(0, 0.1), DiscreteLaplace(2, 0.1), True),
                             (DiscreteLaplace(0, 2), DiscreteLaplace(0, 1), True),
                             (DiscreteLaplace(0, 1), DiscreteLaplace(0, 2), False)):
            ks = range(-40, 41)
            ps, qs = [P.mp_pmf(k) for k in ks], [Q.mp_pmf(k) for k in ks]
            assert ratio_stays_within(P, Q, -40, 40, ps, qs) is within, (P.describe(), Q.describe())


class _TwoRates(IntegerLaw):
    """p_k proportional to e^{-left |k|} for k < 0 and e^{-right k} for k >= 0 (not normalised:
    ratio_stays_within reads log-ratios, where the constant cancels)."""

    def __init__(self, left, right):
        self.left, self.right = mpmath.mpf(left), mpmath.mpf(right)

    def mp_pmf(self, k):
        return mpmath.exp(-(self.left * -k if k < 0 else self.right * k))


@pytest.mark.parametrize("side", ["left", "right"])
def test_a_ratio_growing_beyond_one_end_of_the_window_only_is_seen(side):
    """Q lighter than P on one side only: log p/q = k (2 - 1) grows beyond that end of the window
    and is flat beyond the other, so the probes on both sides are needed (probes below lo taken
    as lo mod 2^j, inside the window, passed the left case)."""
    with mpmath.workdps(30):
        P, Q = _TwoRates(1, 1), (_TwoRates(2, 1) if side == "left" else _TwoRates(1, 2))
        ks = range(-40, 41)
        ps, qs = [P.mp_pmf(k) for k in ks], [Q.mp_pmf(k) for k in ks]
        assert ratio_stays_within(P, Q, -40, 40, ps, qs) is False
        assert ratio_stays_within(P, P, -40, 40, ps, ps) is True  # the control: one law against itself


def test_a_sum_that_neither_converges_nor_grows_is_refused_not_valued():
    """At alpha = 1.999 the terms of DLap(0, 1) || DLap(0, 2) fall by e^-0.001 a step: 60,000 of
    them are needed, more than a sum enumerates, and the series is not divergent -- a refusal
    (SumNotConverged), never inf and never a value."""
    with mpmath.workdps(20), pytest.raises(SumNotConverged):
        renyi(DiscreteLaplace(0, 1), DiscreteLaplace(0, 2), 1.999)


def test_the_engine_leaves_out_an_order_whose_sum_it_cannot_finish():
    """The sup-over-alpha engine's fallback (which takes this pair, the window check having
    failed) turns that refusal into Unresolved -- an order the scan leaves out -- and gives inf
    where the sum is shown divergent."""
    from countdp.divergence.fallback_loss_cgf import LibraryLossCgf
    from countdp.divergence.tail_growth import Unresolved
    from countdp.divergence.tight_rho import _direction, _default_tail

    P, Q = DiscreteLaplace(0, 1), DiscreteLaplace(0, 2)
    with mpmath.workdps(20):
        d = _direction(P, Q, [], _default_tail())
        assert isinstance(d, LibraryLossCgf)
        F = d.F([1.5, 2.5])
        assert abs(F.value[0] - 0.5 * float(renyi_closed(0, 1, 0, 2, 1.5))) <= F.error[0] + 1e-14
        assert F.value[1] == math.inf
        with pytest.raises(Unresolved):
            d.F([1.999])


@pytest.mark.parametrize("a, d", [(1, 1), (0.1, 2), (0.5, 4)])
def test_the_sup_bracket_of_a_shifted_discrete_laplace_pair_holds_its_closed_form(a, d):
    """For DLap(0, a) and DLap(d, a) the supremum of D_alpha / alpha sits at alpha -> 1 (the
    KL, read off the closed form at alpha - 1 = 10^-40 with 70 digits); the bracket must hold
    it and stay finite (the window of P is trusted: the ratio beyond it is constant)."""
    from countdp.divergence.tight_rho import tight_rho

    with mpmath.workdps(70):
        kl = renyi_closed(0, a, d, a, 1 + M(10) ** -40)
    r = tight_rho((DiscreteLaplace(0, a), DiscreteLaplace(d, a)))
    assert r.lo - 1e-15 * kl <= kl <= r.hi + 1e-15 * kl < math.inf, (r.lo, kl, r.hi)


def test_the_window_of_a_rounded_release_is_trusted_in_the_direction_where_the_ratio_falls():
    """Stochastically rounded log-Gaussian releases at n = 3 and 4: log(p_3/p_4) falls beyond the
    window (to -286 at k = 2^48), so the window serves that direction; log(p_4/p_3) grows like
    log k without bound (the heavier lognormal tail), D_inf is infinite and the reverse pair goes
    to the fallback.  Far out the pmf needs its guard digits: without them it turned negative
    near k = 2^51 at 30 digits, and both directions were refused."""
    from fractions import Fraction

    from countdp.divergence.finite_support import finite_support_pmfs
    from countdp.mechanisms.log_gaussian import ShiftedLogGaussian

    mech = ShiftedLogGaussian(Fraction(1, 4), 1)
    P, Q = mech.rounded_law(3), mech.rounded_law(4)
    with mpmath.workdps(30):
        tail = M(10) ** -35
        assert finite_support_pmfs(P, Q, tail) is not None
        assert finite_support_pmfs(Q, P, tail) is None
