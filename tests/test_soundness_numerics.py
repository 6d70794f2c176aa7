"""Soundness of the tolerance helpers, Estimate and the Monte Carlo intervals, pinned by exact
values; the 5-standard-error interval's coverage by a seeded simulation; the documented range of
the relative tolerances (a tolerance of 1 or more would accept anything); Phi(b) - Phi(a) of
countdp.numerics.normal on each side of 0 and across it."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from countdp.divergence.tight_rho import tight_rho
from countdp.laws import Gaussian
from countdp.numerics.double_exponential import MACH, node_rounding, piece_nodes
from countdp.numerics.estimate import Z_BAR, Estimate, at_two_precisions
from countdp.numerics.montecarlo import MCEstimate, mc_mean
from countdp.numerics.normal import mp_Phi_diff
from countdp.numerics.tolerance import working_precision


def test_working_precision_exact_values():
    assert working_precision(6, dps=30) == mpmath.mpf(10) ** -24
    assert working_precision(0, dps=15) == mpmath.mpf(10) ** -15
    assert working_precision(0, 20) == mpmath.mpf(10) ** -20
    with mpmath.workdps(40):
        assert working_precision() == mpmath.mpf(10) ** -34
        assert working_precision(10) == mpmath.mpf(10) ** -30
        assert working_precision(3) == mpmath.mpf(10) ** -37
    with pytest.raises(ValueError, match="digits_lost"):
        working_precision(-1)


def test_estimate_interval_exact():
    e = Estimate(mpmath.mpf(3), mpmath.mpf("0.25"))
    assert e.interval == (mpmath.mpf("2.75"), mpmath.mpf("3.25"))
    assert float(e) == 3.0
    assert Estimate(2.0).interval == (2.0, 2.0)
    assert Estimate(3, 0.5).interval == (2.5, 3.5)
    lo, hi = Estimate(mpmath.mpf(-1), mpmath.mpf("0.25")).interval
    assert (lo, hi) == (mpmath.mpf("-1.25"), mpmath.mpf("-0.75"))


def test_interval_is_five_standard_errors():
    assert Z_BAR == 5.0
    est = mc_mean(lambda g, m: g.standard_normal(m), np.random.default_rng(3), 10_000, chunk=999)
    assert est.error == pytest.approx(5 * est.se, rel=1e-15, abs=0)
    assert est.se == pytest.approx(0.01, rel=0.05, abs=0)


def _replay(values):
    """A draw that hands out ``values`` in order, chunk after chunk."""
    it = iter(values)
    return lambda rng, m: np.array([next(it) for _ in range(m)], dtype=float)


#: (draws, chunk, their mean, their unbiased variance, relative error allowed in the mean, in the s.e.)
SAMPLES = [
    (range(8), 3, 3.5, 6.0, 0, 1e-15),
    ([1, 2, 4, 7, 11], 1, 5.0, 16.5, 1e-15, 1e-14),
    ([1, 2, 4, 7, 11], 2, 5.0, 16.5, 1e-15, 1e-14),
    ([1, 2, 4, 7, 11], 5, 5.0, 16.5, 1e-15, 1e-14),
]


@pytest.mark.parametrize("sample,chunk,mean,var,mean_rel,se_rel", SAMPLES)
def test_mc_mean_exact_values(sample, chunk, mean, var, mean_rel, se_rel):
    n = len(sample)
    e = mc_mean(_replay(sample), 0, draws=n, chunk=chunk)
    assert isinstance(e, MCEstimate)
    assert abs(e.value - mean) <= mean_rel * mean and e.mean == e.value and e.draws == n
    assert e.se == pytest.approx(math.sqrt(var / n), rel=se_rel, abs=0)
    assert e.error == pytest.approx(5 * math.sqrt(var / n), rel=se_rel, abs=0) and e.halfwidth == e.error


def test_mc_mean_draws_a_million_by_default_in_chunks_of_2_to_the_17():
    # the documented defaults: a caller that passes no size gets 10^6 draws, streamed in
    # chunks of 2^17 (the last one shorter)
    sizes = []

    def draw(rng, m):
        sizes.append(m)
        return rng.standard_normal(m)

    e = mc_mean(draw, 0)
    assert e.draws == 10**6 == sum(sizes)
    assert sizes[:-1] == [2**17] * (len(sizes) - 1) and 0 < sizes[-1] <= 2**17


def test_mc_mean_constant_draw_has_zero_error():
    e = mc_mean(lambda rng, m: np.full(m, 1e6 + 0.5), 1, draws=1000, chunk=7)
    assert e.value == 1e6 + 0.5 and e.error == 0


def test_mc_mean_refuses_a_non_finite_draw():
    with pytest.raises(ValueError, match="NaN or infinite"):
        mc_mean(lambda rng, m: np.full(m, np.nan), 1, draws=10)


def test_the_five_se_interval_covers_and_one_se_covers_68_percent():
    """2000 seeded replications of a 400-draw mean of N(1, 4): the 5-s.e.
    interval misses with probability ~6e-7 (none of 2000 may miss); one fifth of it is the 1-s.e.
    interval, whose coverage must be 68.3 % within four binomial standard deviations."""
    rng = np.random.default_rng(20260715)
    reps, inside5, inside1 = 2000, 0, 0
    for _ in range(reps):
        e = mc_mean(lambda r, m: r.normal(1.0, 2.0, m), rng, draws=400, chunk=400)
        inside5 += abs(e.value - 1.0) <= e.error
        inside1 += abs(e.value - 1.0) <= e.error / Z_BAR
    assert inside5 == reps
    p = math.erf(1 / math.sqrt(2))
    assert abs(inside1 / reps - p) <= 4 * math.sqrt(p * (1 - p) / reps)


@pytest.mark.parametrize("rel_tol", [0, -1e-8, 1, 1.5, 2, float("nan"), float("inf")])
def test_tight_rho_refuses_a_relative_tolerance_outside_0_1(rel_tol):
    with pytest.raises(ValueError, match="rel_tol"):
        tight_rho((Gaussian(0, 1), Gaussian(1, 1)), rel_tol=rel_tol, refine=False)


@pytest.mark.parametrize("a, b", [(-3, -1), (-40, -39), ("-0.5", 2), (1, 3), (0, 0), (-2, 0)])
def test_phi_diff_on_both_sides(a, b):
    """Against the plain difference of mpmath's ncdf at 150 digits (no cancellation left at 50)."""
    with mpmath.workdps(50):
        a, b = mpmath.mpf(a), mpmath.mpf(b)
        with mpmath.workdps(150):
            ref = mpmath.ncdf(b) - mpmath.ncdf(a)
        got = mp_Phi_diff(a, b)
        assert got >= 0 and abs(got - ref) <= mpmath.mpf(10) ** -45 * max(ref, mpmath.mpf(10) ** -300)


# ---------------------------------------------------------------------------------------------
# double-exponential nodes
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("a, b, scale, f, exact", [
    (0.0, 1.0, 1.0, lambda x: x * x, 1 / 3),
    (-2.0, 3.0, 1.0, lambda x: np.exp(-x * x / 2), math.sqrt(2 * math.pi) * (0.5 * math.erf(3 / math.sqrt(2))
                                                                          + 0.5 * math.erf(2 / math.sqrt(2)))),
    (1.0, np.inf, 1.0, lambda x: np.exp(-x), math.exp(-1)),
    (-np.inf, 0.5, 2.0, lambda x: np.exp(x / 2), 2 * math.exp(0.25)),
])
def test_the_nodes_of_a_piece_integrate_it_and_the_two_levels_bound_the_error(a, b, scale, f, exact):
    x, w, coarse = piece_nodes(a, b, scale)
    assert np.all((x >= a) & (x <= b)) and np.all(w > 0)   # the outermost nodes round onto the ends
    fine = float(np.sum(f(x) * w))
    rough = 2.0 * float(np.sum((f(x) * w)[coarse]))
    assert abs(fine - exact) <= abs(fine - rough) + 64 * MACH * abs(exact)
    assert abs(fine - exact) < 1e-12 * abs(exact)
    assert np.count_nonzero(coarse) == (len(x) + 1) // 2


def test_an_end_singularity_shows_in_the_outermost_terms():
    """For 1/sqrt(x) on (0, 1) the sum stops short (8e-9 off) and the h / 2h difference does not
    cover it (2e-9): only the outermost terms show it (above 1e-12 of the sum, where a smooth
    integrand's are far below).  The density evaluator reads them on its infinite pieces only:
    a density must stay bounded at a finite end of its support (see ``Density``)."""
    x, w, _ = piece_nodes(0.0, 1.0, 1.0)
    terms = w / np.sqrt(x)
    outer = max(terms[0], terms[-1])
    assert abs(float(np.sum(terms)) - 2) > 1e-9 and outer > 1e-12 * float(np.sum(terms))
    x, w, _ = piece_nodes(0.0, 1.0, 1.0)
    smooth = w * x * x
    assert max(smooth[0], smooth[-1]) < 1e-12 / 3


def test_the_nodes_are_symmetric_in_t_about_the_middle_node():
    """Both rules sum over t = k h for k = -N .. N: on a finite piece the nodes mirror about its
    midpoint with equal weights (so an odd integrand about the midpoint sums to 0), on a
    half-infinite one the middle node (t = 0) sits one scale from the end; the coarse level is
    every second node from t = 0 outward, so it is symmetric as well."""
    x, w, coarse = piece_nodes(-1.0, 1.0, 1.0)
    assert len(x) % 2 == 1 and x[len(x) // 2] == 0.0
    assert np.array_equal(x[::-1], -x) and np.array_equal(w[::-1], w)
    assert np.array_equal(coarse[::-1], coarse) and coarse[len(x) // 2]
    assert float(np.sum(w * x ** 3)) == pytest.approx(0.0, abs=1e-16)
    y, v, coarse = piece_nodes(2.0, np.inf, 3.0)
    assert len(y) % 2 == 1 and y[len(y) // 2] == 5.0 and coarse[len(y) // 2]
    z, u, _ = piece_nodes(-np.inf, 2.0, 3.0)
    assert np.allclose(z, 4.0 - y, rtol=4 * MACH, atol=4 * MACH) and np.array_equal(u, v)


def test_a_piece_needs_a_finite_end():
    with pytest.raises(ValueError, match="a piece needs at least one finite end"):
        piece_nodes(-np.inf, np.inf, 1.0)


def test_node_rounding_bounds_the_move_of_a_sum_far_from_the_origin():
    """The nodes of a piece 1e8 wide from the origin moved by the largest rounding each may
    carry (MACH |x| / 2, the sign against the slope): the sum moves by less than the bound; near
    0 the bound is at the level of one rounding of the sum."""
    f = lambda x: np.exp(-(x - 1e8) ** 2 / 2)  # noqa: E731
    x, w, _ = piece_nodes(1e8 - 40, 1e8 + 40, 1.0)
    worst = x - np.sign(-(x - 1e8)) * MACH * np.abs(x) / 2
    moved = abs(float(np.sum((f(worst) - f(x)) * w)))
    bound = node_rounding(x, f(x))
    assert moved <= bound and bound < 1e-6
    near_x, _, _ = piece_nodes(-40, 40, 1.0)
    assert node_rounding(near_x, np.exp(-near_x ** 2 / 2)) < 1e-14
    assert node_rounding(np.array([1.0]), np.array([2.0])) == 0.0
    assert node_rounding(np.array([3.0, 1.0, 2.0]), np.array([1.0, 0.0, np.inf])) == 0.5 * MACH * 3.0
    # read at c + s x (a standardised pair, |c|/s = origin): 3 MACH (|x| + origin) per unit of |df|
    assert node_rounding(np.array([1.0, 2.0]), np.array([0.0, 1.0]), 1e6) == 3 * MACH * (2.0 + 1e6)


# --------------------------------------------------------------------------------------------
# at_two_precisions: the guard of every mpmath route whose own estimate may be short
# --------------------------------------------------------------------------------------------

def test_an_error_the_estimate_does_not_see_is_covered_when_it_falls_with_precision():
    # a route off by sqrt(eps) at every precision (a rule stalled short of its convergence, a
    # cancellation) whose estimate says 0: the two precisions' difference covers the finer
    # value's error; the rounding floor alone (eps |value|) does not
    third = mpmath.mpf(1) / 3
    with mpmath.workdps(30):
        got = at_two_precisions(lambda: Estimate(third + mpmath.sqrt(mpmath.eps), 0))
        assert abs(got.value - third) <= got.error <= 2 * mpmath.sqrt(mpmath.eps)
        assert abs(got.value - third) > 1e6 * mpmath.eps * third  # not within rounding alone


def test_a_true_estimate_at_the_coarser_precision_is_kept():
    # a route off by 1e-25 at every precision, whose estimate says so at the coarser precision
    # only: the larger of the two estimates covers the finer value
    third = mpmath.mpf(1) / 3
    with mpmath.workdps(30):
        working = mpmath.mp.prec

        def constant_error():
            honest = mpmath.mp.prec == working
            return third + mpmath.mpf(10) ** -25, mpmath.mpf(10) ** -24 if honest else 0

        got = at_two_precisions(constant_error)
        assert abs(got.value - third) <= got.error


def test_a_true_estimate_at_the_finer_precision_is_kept():
    third = mpmath.mpf(1) / 3
    with mpmath.workdps(30):
        working = mpmath.mp.prec

        def constant_error():
            return third + mpmath.mpf(10) ** -25, mpmath.mpf(10) ** -24 if mpmath.mp.prec > working else 0

        got = at_two_precisions(constant_error)
        assert abs(got.value - third) <= got.error


@pytest.mark.parametrize("guard, apart", [(0, 32), (67, 67), (20, 10)])
def test_the_value_is_the_finer_one_rounded_and_the_bar_carries_its_rounding(guard, apart):
    # an exact route (error 0, no cancellation): the value is 1/3 to the working precision
    # and the bar is at least its rounding, eps / 3, and at most a few of them
    with mpmath.workdps(30):
        seen = []

        def third():
            seen.append(mpmath.mp.prec)
            return mpmath.mpf(1) / 3, 0

        got = at_two_precisions(third, guard_bits=guard, apart_bits=apart)
        assert seen == [mpmath.mp.prec + guard, mpmath.mp.prec + guard + apart]
        eps = +mpmath.eps  # a number at 30 digits (mpmath.eps follows the precision)
        assert got.value == mpmath.mpf(1) / 3          # rounded to the working precision
        assert got.error >= eps / 4
        with mpmath.workdps(60):
            exact = mpmath.mpf(1) / 3
            assert abs(got.value - exact) <= got.error <= 2 * eps * exact


def test_a_cancellation_the_guard_bits_do_not_cover_shows_in_the_difference():
    # a closed form (error 0) that loses 60 digits to cancellation: (1 + x) - 1 at x = 1e-60
    # is 0 at 30 + 20 digits and 1e-60 to 10 digits at 30 + 40: the bar covers the finer
    # value's error only through the two values' difference
    x = mpmath.mpf(10) ** -60
    with mpmath.workdps(30):
        got = at_two_precisions(lambda: ((1 + x) - 1, 0), guard_bits=67, apart_bits=67)
        assert abs(got.value - x) <= got.error
        assert got.error >= x / 2


def test_an_infinite_value_is_kept_infinite():
    with mpmath.workdps(30):
        got = at_two_precisions(lambda: (mpmath.inf, 0))
        assert got.value == mpmath.inf
