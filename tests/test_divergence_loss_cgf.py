"""The evaluators of F(alpha) = (alpha - 1) D_alpha(P||Q) (``divergence.loss_cgf``), read
directly: the finite-support sums against the defining sum written out, and the density
evaluator's routes that the sup-over-alpha engine rarely takes -- a pair whose support does not
match, a law whose density is all mass 0, a Q that places no quadrature itself.  Each value is
compared with a closed form and its stated error bar."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from _densities import UnplacedNormal, logistic, normal_part
from countdp.divergence.finite_support import finite_support_pmfs
from countdp.divergence.loss_cgf import DensityLossCgf, FiniteLossCgf
from countdp.laws import CallableDensity, ContinuousLaw, FinitePmf, Gaussian, IntegerLaw, MixedLaw, PointMass
from countdp.laws.gaussian import GaussianDensity

P2 = [mpmath.mpf(1) / 2, mpmath.mpf(1) / 2]
Q2 = [mpmath.mpf(1) / 4, mpmath.mpf(3) / 4]


def defining_sum(ps, qs, alpha):
    """log sum p^alpha q^(1 - alpha), term by term at 50 digits."""
    with mpmath.workdps(50):
        return mpmath.log(mpmath.fsum(p ** alpha * q ** (1 - alpha) for p, q in zip(ps, qs)))


@pytest.mark.parametrize("alpha", [1.0001, 1.5, 2.0, 3.0, 40.0, 400.0])
def test_finite_sums_are_the_defining_sum_within_their_bar(alpha):
    F = FiniteLossCgf(P2, Q2)
    exact = defining_sum(P2, Q2, mpmath.mpf(alpha))
    est = F.F(np.array([alpha]))
    assert abs(est.value[0] - float(exact)) <= est.error[0]
    assert est.error[0] < 1e-13 * max(1.0, abs(float(exact)))
    with mpmath.workdps(30):
        m = F.mp_F(alpha)
        assert abs(m.value - exact) <= m.error < mpmath.mpf(10) ** -27 * max(1, abs(exact))


def test_a_density_pairs_loss_range_is_d_inf_plus_the_sup_of_minus_the_loss():
    """The range of L = log p/q over P's support is sup L + sup(-L) (read by the tight-rho cells
    as R): Laplace(0, 1) against Laplace(d, 1) has L = |x - d| - |x| in [-d, d], so D_inf = d and
    the range 2d."""
    from countdp.laws.reference import Laplace
    for d in (0.5, 1.0, 3.0):
        F = DensityLossCgf(Laplace(0, 1), Laplace(d, 1))
        assert abs(F.d_inf().value - d) < 1e-9 * d
        assert abs(F.loss_range() - 2 * d) < 1e-9 * d


def test_finite_ends_kl_d_inf_and_the_loss_range():
    F = FiniteLossCgf(P2, Q2)
    with mpmath.workdps(30):
        want = (mpmath.log(2) + mpmath.log(mpmath.mpf(2) / 3)) / 2
        k = F.kl()
        assert abs(k.value - want) <= k.error < mpmath.mpf(10) ** -28
    assert F.d_inf().value == mpmath.log(2) and "exact" in F.d_inf().how
    assert abs(F.loss_range() - (mpmath.log(2) - mpmath.log(mpmath.mpf(2) / 3))) < mpmath.mpf(10) ** -14
    assert F.infinite_reason is None


def test_a_tail_outside_the_window_widens_every_bar_by_its_largest_ratio():
    tail = mpmath.mpf(10) ** -8
    plain, cut = FiniteLossCgf(P2, Q2), FiniteLossCgf(P2, Q2, tail_p=tail, tail_q=tail)
    for alpha in (1.5, 40.0):
        e0, e1 = plain.F(np.array([alpha])).error[0], cut.F(np.array([alpha])).error[0]
        # relative error of E_P[.]: tail * (max ratio)^(alpha - 1) / E_P[.]
        extra = float(tail) * 2 ** (alpha - 1) / math.exp(float(defining_sum(P2, Q2, alpha)))
        assert e1 - e0 == pytest.approx(extra, rel=1e-6, abs=0)
        assert cut.mp_F(alpha).error - plain.mp_F(alpha).error == pytest.approx(extra, rel=1e-6, abs=0)
    assert cut.kl().error - plain.kl().error == pytest.approx(float(tail * (mpmath.log(2) + 1)), rel=1e-9, abs=0)
    assert "proven window" in cut.d_inf().how


def test_finite_sums_refuse_an_empty_p_and_find_a_support_mismatch():
    with pytest.raises(ValueError, match="P has no mass"):
        FiniteLossCgf([0, 0], [0.5, 0.5])
    F = FiniteLossCgf([0.5, 0.5], [1, 0])
    assert "P puts mass 0.5 where Q has none" in F.infinite_reason
    # an atom of Q where P has none changes nothing
    assert FiniteLossCgf([1, 0], [0.5, 0.5]).d_inf().value == mpmath.log(2)


def test_a_density_against_a_law_without_one_is_infinite_saying_why():
    F = DensityLossCgf(Gaussian(0, 1), PointMass(0))
    assert F.infinite_reason == "support mismatch: P has a density part, Q has none"


def test_a_q_density_with_a_hole_where_p_has_mass_is_infinite():
    log2phi = lambda x: mpmath.log(2) - x * x / 2 - mpmath.log(2 * mpmath.pi) / 2  # noqa: E731
    holed = CallableDensity(lambda x: log2phi(x) if abs(x) > 1 else -mpmath.inf,
                            np_logpdf=lambda x: np.where(np.abs(x) > 1, float(mpmath.log(2)) - x * x / 2
                                                         - 0.5 * math.log(2 * math.pi), -np.inf),
                            breakpoints=(-1, 1))
    F = DensityLossCgf(Gaussian(0, 1), ContinuousLaw(holed))
    assert F.infinite_reason == "support mismatch: Q's density vanishes where P's does not"
    # the other way round the divergence is finite: D_2 = log E_P[p/q] = log P(|Z| > 1) ... of 2 phi
    G = DensityLossCgf(ContinuousLaw(holed), Gaussian(0, 1))
    assert G.infinite_reason is None


@pytest.mark.parametrize("alpha", [1.5, 2.0, 4.0])
@pytest.mark.slow
def test_a_q_without_centre_and_scale_is_integrated_where_p_lives(alpha):
    # D_alpha(N(0, 1) || N(1, 1)) = alpha / 2: F = (alpha - 1) alpha / 2
    F = DensityLossCgf(Gaussian(0, 1), ContinuousLaw(UnplacedNormal()))
    want = (alpha - 1) * alpha / 2
    est = F.F(np.array([alpha]))
    assert abs(est.value[0] - want) <= est.error[0] + 4e-16 * want
    assert est.error[0] < 1e-10
    with mpmath.workdps(25):
        m = F.mp_F(alpha)
        assert abs(m.value - want) <= m.error < mpmath.mpf(10) ** -18
    assert abs(F.kl().value - mpmath.mpf(1) / 2) <= F.kl().error


def test_atoms_beside_a_density_of_mass_zero_are_summed_exactly():
    zero = GaussianDensity(0, 1)
    zero.mass = lambda: mpmath.mpf(0)  # a density part that carries nothing
    P = MixedLaw({0: P2[0], 1: P2[1]}, zero)
    Q = MixedLaw({0: Q2[0], 1: Q2[1]}, None)
    F = DensityLossCgf(P, Q)
    assert F.has_density is False and F.infinite_reason is None
    for alpha in (1.5, 3.0, 40.0):
        exact = defining_sum(P2, Q2, mpmath.mpf(alpha))
        est = F.F(np.array([alpha]))
        assert abs(est.value[0] - float(exact)) <= est.error[0]
        assert abs(F.mp_F(alpha).value - exact) <= F.mp_F(alpha).error
    assert F.d_inf().value == mpmath.log(2)
    assert abs(F.kl().value - (mpmath.log(2) + mpmath.log(mpmath.mpf(2) / 3)) / 2) <= F.kl().error
    assert F.kl_float().value == pytest.approx(float(F.kl().value), rel=1e-15, abs=0)
    assert abs(F.loss_range() - (mpmath.log(2) - mpmath.log(mpmath.mpf(2) / 3))) < 1e-15


def test_an_atom_of_p_beside_a_density_where_q_has_none_is_infinite():
    P = MixedLaw({3: 0.5}, normal_part(mpmath.mpf(1) / 2))
    Q = MixedLaw({0: 0.5}, normal_part(mpmath.mpf(1) / 2))
    assert "P has an atom at 3.0 where Q has none" in DensityLossCgf(P, Q).infinite_reason


class Wide(IntegerLaw):
    """An integer law whose proven window is wider than the finite sums take."""

    def mp_pmf(self, k):
        return mpmath.mpf(1) / 500001 if 0 <= k <= 500000 else mpmath.mpf(0)

    def window(self, tail):
        return 0, 500000


def test_which_pairs_are_summed_as_finite_pmfs():
    assert finite_support_pmfs(Gaussian(0, 1), PointMass(0), 1e-20) is None
    assert finite_support_pmfs(Wide(), Wide(), 1e-20) is None   # a window over 400000 integers
    # atoms of P against atoms of Q: Q read at P's atoms
    ps, qs, tp, tq = finite_support_pmfs(MixedLaw({0: 0.5, 2.5: 0.5}, None),
                                          MixedLaw({0: 0.25, 2.5: 0.75}, None), 1e-20)
    assert (ps, qs, tp, tq) == ([0.5, 0.5], [0.25, 0.75], 0, 0)
    # atoms of P against an integer Q: Q's pmf at the integers, nothing at 2.5
    ps, qs, _, _ = finite_support_pmfs(MixedLaw({1: 0.5, 2.5: 0.5}, None),
                                        FinitePmf({1: "0.5", 2: "0.5"}), 1e-20)
    assert qs == [mpmath.mpf(1) / 2, 0]
    # an integer P against atoms of Q: Q read at P's support
    ps, qs, _, _ = finite_support_pmfs(FinitePmf({0: "0.5", 2: "0.5"}),
                                        MixedLaw({0: 0.75, 1: 0.25}, None), 1e-20)
    assert ps == [0.5, 0, 0.5] and qs == [0.75, 0.25, 0]


@pytest.mark.parametrize("alpha", [1.5, 3.0])
def test_values_built_at_one_precision_are_read_at_the_working_one(alpha):
    """Built at 15 digits, read at 30: the atoms' log-ratios are not those of 15 digits (an
    error bar of 1e-30 on values rounded at 1e-16 would be false)."""
    quarter, half = mpmath.mpf(1) / 4, mpmath.mpf(1) / 2
    P = MixedLaw({5: quarter}, normal_part(1 - quarter))
    Q = MixedLaw({5: half}, normal_part(half))
    F, G = DensityLossCgf(P, Q), FiniteLossCgf(P2, Q2)
    with mpmath.workdps(30):
        a = mpmath.mpf(alpha)
        # the densities are proportional: D is that of the two-point laws (1/4, 3/4), (1/2, 1/2)
        # (the references at 60 digits: the route's bar is tighter than their 30-digit rounding)
        with mpmath.workdps(60):
            want = mpmath.log(quarter ** a * half ** (1 - a) + (1 - quarter) ** a * half ** (1 - a))
            kl = quarter * mpmath.log(quarter / half) + (1 - quarter) * mpmath.log((1 - quarter) / half)
        m = F.mp_F(alpha)
        assert abs(m.value - want) <= m.error < mpmath.mpf(10) ** -20
        k = F.kl()
        assert abs(k.value - kl) <= k.error
        assert abs(G.d_inf().value - mpmath.log(2)) < mpmath.mpf(10) ** -29


@pytest.mark.parametrize("loc", [10 ** 4, 10 ** 8, 10 ** 12])
@pytest.mark.slow
def test_a_pair_far_from_the_origin_has_the_divergence_of_its_translate_within_the_bars(loc):
    """D is invariant under translation: a logistic shift pair at 10^12 scales from 0 against the
    same pair at 0.  Rounding the quadrature nodes to float64 (or to the working precision) moves
    them by eps |x|: without a term for it the float bar was exceeded 1.4-fold at 1e8, the
    mpmath one 8-fold at 1e12."""
    from countdp.divergence.tight_rho import mp_renyi, renyi_curve

    with mpmath.workdps(30):
        half = mpmath.mpf(1) / 2
        far = (logistic(loc), logistic(mpmath.mpf(loc) + half))
        near = (logistic(0), logistic(half))
        for alpha in (1.5, 4.0):
            ref = mp_renyi(*near, alpha)
            f = renyi_curve(*far, [alpha])
            assert abs(f.value[0] - float(ref.value)) <= f.error[0] + float(ref.error)
            m = mp_renyi(*far, alpha)
            assert abs(m.value - ref.value) <= m.error + ref.error
            assert m.error < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("shift", [1, -1])
def test_a_log_ratio_growing_in_one_tail_only_makes_d_inf_infinite(shift):
    """N(shift, 1) against N(0, 1): L = shift x - shift^2/2 grows without bound in one tail only
    (the upper for shift > 0, the lower for shift < 0) and falls in the other; the outward search
    past the grid must find it on its side, saying which."""
    cgf = DensityLossCgf(Gaussian(shift, 1), Gaussian(0, 1))
    d = cgf.d_inf()
    assert d.value == mpmath.inf
    assert ("upper" if shift > 0 else "lower") in d.how and "growing" in d.how
    assert cgf.loss_range() == mpmath.inf


def test_rounding_within_its_stated_bound_is_not_read_as_a_growing_log_ratio():
    """Far out the float log-densities are huge and L = log p - log q is resolved only to
    4 eps (|log p| + |log q| + 1).  Q below is N(0, 1) at log-mass -1/2 (L = 1/2 exactly, as its
    mpmath log-density says), its float log-density off by 0.3 of that rounding bound, always
    upwards in L, so the float L creeps up by far more than 1e-6 of itself in the tails.  The
    outward search must use only probes resolved to 1e-6 and find D_inf = 1/2, not infinity."""
    eps = np.finfo(float).eps
    def lq(x):
        lp = np.asarray(GaussianDensity(0, 1).logpdf(x), dtype=float)
        return lp - 0.5 - 0.3 * 4 * eps * (2 * np.abs(lp) + 1.5)
    Q = ContinuousLaw(CallableDensity(lambda x: GaussianDensity(0, 1).mp_logpdf(x) - mpmath.mpf(1) / 2,
                                      mass=mpmath.exp(mpmath.mpf(-1) / 2), np_logpdf=lq), name="noisy")
    d = DensityLossCgf(Gaussian(0, 1), Q).d_inf()
    assert d.value == pytest.approx(0.5, abs=1e-9)


def test_the_summed_window_pairs_every_integer_and_keeps_a_one_sided_tail_of_q():
    """An integer P without support ends against an integer Q bounded below only: p and q are
    read at the same integers (the window's last one included), and Q's mass beyond the window
    is the same proven tail as P's (Q is unbounded above)."""
    from countdp.mechanisms import ShiftedLogGaussian
    from countdp.mechanisms.epsilon_dp import DiscreteLaplace

    P = DiscreteLaplace(3, 0.7)
    Q = ShiftedLogGaussian(0.05, 1.0, r=0.1).rounded_law(3)
    assert Q.support_lo == 0 and Q.support_hi is None
    tail = mpmath.mpf(10) ** -20
    ps, qs, tp, tq = finite_support_pmfs(P, Q, tail)
    lo, hi = P.window(tail)
    assert len(ps) == len(qs) == hi - lo + 1
    assert ps[-1] == P.mp_pmf(hi) and qs[-1] == Q.mp_pmf(hi)
    assert tp == tail and tq == tail
