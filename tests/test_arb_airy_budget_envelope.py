"""countdp.arb.airy_budget_envelope: the Airy budget below its certified finite bound and
nonincreasing at scanned counts; a non-monotone sequence is detected, and its envelope repairs it."""

from __future__ import annotations

import pytest
from flint import arb, ctx

from countdp.arb.airy import certified_prime_zero
from countdp.arb.airy_budget_envelope import (budget_bound, decide_below_bound, decide_nonincreasing,
                                              decide_shifts_decreasing, running_envelope, standard_shift)
from countdp.arb.verdicts import Verdict
from countdp.mechanisms.airy import AiryLogMechanism

NS = (1, 2, 3, 5, 10, 30, 100, 1000, 10**6)


@pytest.fixture(scope="module")
def mech():
    return AiryLogMechanism(r0=0.05, c=1, r=0.1)


def test_scanned_budget_is_below_the_bound_and_nonincreasing(mech):
    with ctx.workprec(96):
        a, b = certified_prime_zero(), arb(str(mech.b))
        values = [mech.v(n) for n in NS]
        assert decide_below_bound(NS, values, b, mech.c, a) is Verdict.PROVED_TRUE
        assert decide_shifts_decreasing(NS, b, mech.c) is Verdict.PROVED_TRUE
        assert decide_nonincreasing(values) is Verdict.PROVED_TRUE
        # the boundary edge: Delta_0 = Delta_1, so v(0) = v(1)
        assert standard_shift(0, b, mech.c).overlaps(standard_shift(1, b, mech.c))
        # n^2 times the bound stays bounded: <= 2 I (n Delta_n)^2 -> 2 I/b^2
        assert float(budget_bound(10**6, b, mech.c, a).upper()) * 1e12 < 4.1 * 4 * 1.0188 / 3 / mech.b ** 2


def test_a_dropped_envelope_is_detected():
    wobbly = [1.0, 0.5, 0.52, 0.25, 0.1]          # a scan that is not nonincreasing
    assert decide_nonincreasing(wobbly) is Verdict.PROVED_FALSE
    env = running_envelope(wobbly)
    assert decide_nonincreasing(env) is Verdict.PROVED_TRUE
    assert all(e >= arb(v) for e, v in zip(env, wobbly))
    assert [float(e) for e in env] == [1.0, 0.52, 0.52, 0.25, 0.1]


def test_a_budget_above_the_bound_is_rejected(mech):
    with ctx.workprec(96):
        a, b = certified_prime_zero(), arb(str(mech.b))
        too_big = [3 * float(budget_bound(n, b, mech.c, a).upper()) for n in NS]
        assert decide_below_bound(NS, too_big, b, mech.c, a) is Verdict.PROVED_FALSE


def test_bad_counts_raise():
    with pytest.raises(ValueError, match="ns must"):
        decide_shifts_decreasing([3, 2], arb(1), 1)
    for n in (-1, 2.5, 0.5):
        with pytest.raises(ValueError, match="n must be a count >= 0"):
            standard_shift(n, arb(1), 1)
