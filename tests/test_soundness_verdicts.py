"""Soundness of countdp.arb.verdicts by truth tables: every decision over balls that are
separated, touching at an exact endpoint, overlapping, nested, exact, or infinite; the intervals
that carry tail allowances, and the enclosure handed to the numerical routes.

A row is (a, b, verdict of a < b, of a <= b, of a > b, of a >= b).  Arb rounds a radius up, so
an exact endpoint of a ball is taken from its ``upper()`` / ``lower()``."""

from __future__ import annotations

import mpmath
import pytest
from flint import arb, ctx, fmpq

from countdp.arb.verdicts import (Verdict, control_verdict, decide_contains, decided_sign,
                                  decide_decimal, decide_eq_enclosure, decide_ge, decide_gt,
                                  decide_le, decide_lt, enclosure, interval, nonneg_interval,
                                  sym_interval, verdict_all)

T, F, U = Verdict.PROVED_TRUE, Verdict.PROVED_FALSE, Verdict.UNDECIDED
INF = arb("inf")


def ball(mid, rad=0):
    return arb(mid, rad)


#: (a, b, a < b, a <= b, a > b, a >= b)
ORDER_TABLE = [
    ("separated", ball(1, 0.5), ball(3, 0.5), T, T, F, F),
    ("separated, reversed", ball(3, 0.5), ball(1, 0.5), F, F, T, T),
    ("overlapping, not containing", ball(1, 1), ball(2, 1), U, U, U, U),
    ("nested", ball(0, 4), ball(1, 1), U, U, U, U),
    ("exact equal", ball(2), ball(2), F, T, F, T),
    ("exact below", ball(1), ball(2), T, T, F, F),
    ("exact vs ball containing it", ball(2), ball(2, 1), U, U, U, U),
    ("exact at the ball's lower end", ball(2, 1).lower(), ball(2, 1), U, T, F, U),
    ("exact at the ball's upper end", ball(2, 1).upper(), ball(2, 1), F, U, U, T),
    ("+inf vs finite", INF, ball(1), F, F, T, T),
    ("-inf vs finite", -INF, ball(1), T, T, F, F),
    ("finite vs +inf", ball(1, 1), INF, T, T, F, F),
    ("whole line vs finite", arb(0, INF), ball(1), U, U, U, U),
]


@pytest.mark.parametrize("name,a,b,lt,le,gt,ge", ORDER_TABLE, ids=[r[0] for r in ORDER_TABLE])
def test_order_truth_table(name, a, b, lt, le, gt, ge):
    assert decide_lt(a, b) is lt
    assert decide_le(a, b) is le
    assert decide_gt(a, b) is gt
    assert decide_ge(a, b) is ge


def test_nan_is_never_decided():
    nan = arb("nan")
    for f in (decide_lt, decide_le, decide_gt, decide_ge):
        assert f(nan, 1) is U and f(1, nan) is U
    assert decide_contains(ball(0, 1), nan) is not T
    assert decide_eq_enclosure(nan, 0) is not T


#: (ball, value, contains, eq_enclosure)
MEMBERSHIP_TABLE = [
    ("inside", ball(0, 1), ball(0.5), T, U),
    ("exact endpoint (closed ball)", ball(0, 1), ball(0, 1).upper(), T, U),
    ("just outside", ball(0, 1), ball(1.0000001), F, F),
    ("overlapping, not containing", ball(0, 1), ball(1, 0.5), U, U),
    ("containing the whole value ball", ball(0, 1), ball(0.25, 0.5), T, U),
    ("value ball wider than the ball", ball(0, 1), ball(0, 2), U, U),
    ("disjoint", ball(0, 1), ball(5, 1), F, F),
    ("exact and equal", ball(2), ball(2), T, T),
    ("exact and different", ball(2), ball(3), F, F),
    ("infinite value", ball(0, 1), INF, F, F),
    ("whole line contains everything", arb(0, INF), ball(7, 1), T, U),
    ("contained, off centre", arb("1 +/- 0.1"), arb("1.05 +/- 0.01"), T, U),
    ("overlapping the upper end", arb("1 +/- 0.1"), arb("1.05 +/- 0.1"), U, U),
    ("a decimal endpoint", arb("1 +/- 0.1"), arb("1.1"), T, U),
    ("disjoint, close", arb("1 +/- 0.1"), arb("1.2 +/- 0.05"), F, F),
    ("exact ball vs a wider one", arb(1), arb("1 +/- 1e-30"), U, U),
]


@pytest.mark.parametrize("name,a,b,contains,eq", MEMBERSHIP_TABLE, ids=[r[0] for r in MEMBERSHIP_TABLE])
def test_membership_truth_table(name, a, b, contains, eq):
    assert decide_contains(a, b) is contains
    assert decide_eq_enclosure(a, b) is eq


CONJUNCTIONS = [
    ([], U), ([T], T), ([F], F), ([U], U), ([T, T, T], T), ([T, U], U), ([U, T], U),
    ([T, F], F), ([U, F], F), ([F, U, T], F), ([T] * 9 + [U], U),
]


@pytest.mark.parametrize("vs,expected", CONJUNCTIONS)
def test_conjunction_truth_table(vs, expected):
    assert verdict_all(vs) is expected
    assert verdict_all(iter(vs)) is expected  # a generator is read once, like a list


def test_control_verdict_truth_table():
    assert control_verdict(F) is T
    assert control_verdict(T) is F
    assert control_verdict(U) is U


@pytest.mark.parametrize("b,decimal,expected", [
    (ball(0.125), "0.1", T),                   # within half a unit (0.05) of the last digit
    (arb(3) / 20, "0.1", U),                   # a ball around the bound 0.15 itself: undecided
    (ball(0.1500001), "0.1", F),               # beyond half a unit
    (ball(0.04), "0.1", F),
    (ball(0.14, 0.02), "0.1", U),              # straddles the half-unit bound
    (ball(2), "2", T),
    (ball(2.5), "2", T),                       # the closed bound |x - 2| <= 1/2
    (ball(2.5, 1e-9), "2", U),
    (ball(1.4999), "2", F),
])
def test_decimal_truth_table(b, decimal, expected):
    assert decide_decimal(b, decimal) is expected


def test_undecided_has_no_truth_value():
    with pytest.raises(TypeError):
        bool(U)
    assert [str(v) for v in (T, F, U)] == ["proved_true", "proved_false", "undecided"]


def test_an_unbounded_ball_has_no_enclosure():
    """A ball with an infinite radius (or NaN) is not turned into an enclosure a numerical
    route could be compared with: Undecided."""
    from countdp.arb.verdicts import Undecided

    for b in (arb(0, float("inf")), INF, arb("nan")):
        with pytest.raises(Undecided, match="the ball is not finite"):
            enclosure(b)


@pytest.mark.parametrize("dps", [15, 30, 50])
def test_enclosure_contains_the_ball(dps):
    """(mid, rad) at the working precision covers the whole ball, also when the ball is far more
    precise than mpmath (its midpoint then rounds twice: to decimal, then to binary)."""
    with ctx.workprec(300):
        balls = [arb(k) / 3 for k in range(1, 30)] + [arb(k).sqrt() for k in range(2, 30)] + \
                [arb.pi() * arb(10) ** 40, arb(1) / 7 + arb(0, 1e-20), arb.pi() + arb(0, 1e-10),
                 arb(fmpq(1, 3)) + arb(0, 1e-25), arb("-7 +/- 0.001")]
    with mpmath.workdps(dps):
        pairs = [(b, enclosure(b)) for b in balls]
    with mpmath.workdps(dps + 80), ctx.workprec(600):
        for b, (mid, rad) in pairs:
            for end in (b.lower(), b.upper()):  # exact binary numbers, printed exactly enough
                exact = mpmath.mpf(end.str(dps + 100, radius=False))
                assert abs(exact - mid) <= rad, (b.str(dps + 10, radius=True), dps)
            # ... and not more: the ball's radius (printed to 5 digits, plus 0.1 %) and the
            # midpoint's two roundings; a wider one would let any value compare equal
            rb = mpmath.mpf(b.rad().str(10, radius=False))
            assert rad <= rb * mpmath.mpf("1.002") + 3 * abs(mid) * mpmath.mpf(10) ** -dps, (b, dps)


def test_intervals_cover_every_point():
    u = arb("2 +/- 0.5")                                 # u ranges over [1.5, 2.5]
    for lo, hi, got in ((0, 2.5, nonneg_interval(u)), (-2.5, 2.5, sym_interval(u)),
                        (-1, 2.5, interval(-1, u))):
        for x in (lo, hi, (lo + hi) / 2):
            assert got.contains(arb(x)), (lo, hi, got)



@pytest.mark.parametrize("x, sign", [
    (ball(2, 1), 1), (ball(-2, 1), -1), (ball(0), 0), (ball(0, 1), 0),
    (interval(arb(-1), arb(0)), 0), (interval(arb(0), arb(1)), 0), (ball(1, 2), 0),
    (INF, 1), (-INF, -1), (arb("nan"), 0), (fmpq(-1, 3), -1),
], ids=["positive", "negative", "exact 0", "centred at 0", "[-1, 0]", "[0, 1]", "across 0",
        "+inf", "-inf", "nan", "rational"])
def test_decided_sign(x, sign):
    """The sign is decided only when the whole ball is on one side of 0: a ball that reaches 0
    (an end at exactly 0 included) is undecided, never negative or positive."""
    assert decided_sign(x) == sign
