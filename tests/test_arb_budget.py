"""countdp.arb.budget: the budget decreasing and its explicit remainders, decided for every n."""

from __future__ import annotations

import math

import mpmath
from flint import ctx

from _ball_reference import CC, DPS, FALSE, MP_S, R0, TRUE, contains
from countdp import formulas
from countdp.arb.budget import certify_budget_asymptotics, certify_budget_decreasing
from countdp.arb.verdicts import decide_le


def test_range_certificates_small():
    assert certify_budget_decreasing(2000).verdict is TRUE
    assert certify_budget_asymptotics(500).verdict is TRUE
    assert certify_budget_decreasing(300, "1/10", "1/2").verdict is TRUE
    assert certify_budget_asymptotics(300, "1/10", 2).verdict is TRUE


def test_budget_ball_contains_mpmath():
    s = formulas.sigma.ball(R0, CC)
    with mpmath.workdps(DPS):
        for n in (0, 1, 2, 17, 10**6):
            m = max(n, 1)
            assert contains(formulas.budget.ball(n, s, CC), mpmath.log(mpmath.mpf(m + 1) / m) ** 2 / (2 * MP_S**2))


def test_budget_one_ulp_below_is_not_proved():
    """Claim v(n) <= x - 1 ulp with x = the double nearest to v(n): never PROVED_TRUE (at 53
    bits the ball is wider than an ulp), and PROVED_FALSE at 200 bits."""
    with mpmath.workdps(DPS):
        for n in (1, 7, 1000):
            x = float(mpmath.log(mpmath.mpf(n + 1) / n) ** 2 / (2 * MP_S**2))
            below = math.nextafter(x, -math.inf)
            s = formulas.sigma.ball(R0, CC)
            assert decide_le(formulas.budget.ball(n, s, CC), below) is not TRUE
            with ctx.workprec(200):
                s2 = formulas.sigma.ball(R0, CC)
                assert decide_le(formulas.budget.ball(n, s2, CC), below) is FALSE
