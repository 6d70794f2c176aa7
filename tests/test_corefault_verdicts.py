"""countdp.arb.verdicts by truth tables the existing tests leave open: containment of overlapping
balls, the intervals that carry tail allowances, the enclosure handed to the numerical routes,
and the ceiling of a ball that straddles an integer."""

from __future__ import annotations

import mpmath
import pytest
from flint import arb, ctx, fmpq

from countdp.arb.verdicts import (Undecided, Verdict, decide_contains, decided_ceil, enclosure,
                                  interval, nonneg_interval, sym_interval)

TRUE, FALSE, UND = Verdict.PROVED_TRUE, Verdict.PROVED_FALSE, Verdict.UNDECIDED


@pytest.mark.parametrize("ball, value, verdict", [
    (arb("1 +/- 0.1"), arb("1.05 +/- 0.01"), TRUE),      # contained
    (arb("1 +/- 0.1"), arb("1.05 +/- 0.1"), UND),        # overlapping, not contained
    (arb("1 +/- 0.1"), arb("1.1"), TRUE),                # an exact endpoint lies in the ball
    (arb("1 +/- 0.1"), arb("1.2 +/- 0.05"), FALSE),      # disjoint
    (arb(1), arb(1), TRUE),                              # exact and equal
    (arb(1), arb("1 +/- 1e-30"), UND),                   # an exact ball cannot contain a wider one
])
def test_contains_truth_table(ball, value, verdict):
    assert decide_contains(ball, value) is verdict


def test_intervals_cover_every_point():
    u = arb("2 +/- 0.5")                                 # u ranges over [1.5, 2.5]
    for lo, hi, got in ((0, 2.5, nonneg_interval(u)), (-2.5, 2.5, sym_interval(u)),
                        (-1, 2.5, interval(-1, u))):
        for x in (lo, hi, (lo + hi) / 2):
            assert got.contains(arb(x)), (lo, hi, got)


def test_enclosure_is_no_narrower_than_the_ball():
    for ball in (arb.pi() + arb(0, 1e-10), arb(fmpq(1, 3)) + arb(0, 1e-25), arb("-7 +/- 0.001")):
        with mpmath.workdps(30):
            mid, rad = enclosure(ball)
        with mpmath.workdps(80), ctx.workprec(300):
            lower = mpmath.mpf(arb(ball.lower()).str(70, radius=False))
            upper = mpmath.mpf(arb(ball.upper()).str(70, radius=False))
            slack = abs(mid) * mpmath.mpf(10) ** -60
            assert mid - rad <= lower + slack and mid + rad >= upper - slack


def test_ceil_of_a_straddling_ball_is_undecided():
    assert decided_ceil(arb("2.5 +/- 0.1")) == 3
    with pytest.raises(Undecided):
        decided_ceil(arb("3 +/- 0.1"))
    with pytest.raises(Undecided):
        decided_ceil(arb("2.95 +/- 0.1"))
    assert decided_ceil(fmpq(7, 2)) == 4
