"""Certified statements about the budget v(n) of eqs (5)-(6) over a range of counts.

Each count n is decided on balls of ``formulas.budget`` and ``formulas.log_gap``
(:mod:`countdp.formulas.mechanism`); a range is proved only when every n is.
"""

from __future__ import annotations

import time

from flint import arb, ctx, fmpq

from .. import formulas
from .ranges import RangeResult, tally
from .verdicts import decide_gt, decide_le, to_fmpq, verdict_all

__all__ = ["certify_budget_decreasing", "certify_budget_asymptotics"]


def certify_budget_decreasing(N: int, r0="1/4", c=1, prec: int = 53) -> RangeResult:
    """v(n) > v(n+1) for n = 1..N (strict, each n decided), sigma of eq (3) at (r0, c).
    Incremental: each v(n) is computed once."""
    t = time.perf_counter()
    with ctx.workprec(prec):
        s = formulas.sigma.ball(r0, c)

        def gen():
            prev = formulas.budget.ball(1, s, c)
            for n in range(1, N + 1):
                cur = formulas.budget.ball(n + 1, s, c)
                yield n, decide_gt(prev, cur)
                prev = cur
        res = tally(gen(), "v(n) > v(n+1), n = 1..N")
    res.seconds = time.perf_counter() - t
    return res


def certify_budget_asymptotics(N: int, r0="1/4", c=1, prec: int = 53) -> RangeResult:
    """For n = 1..N, with L(n) = log(1 + 1/(n-1+c)), M = max(1, 1/c), K = M^2/2 + |1-c| M:
    n^2 |L(n) - 1/n| <= K  and  n^3 |v(n) - 1/(2 sigma^2 n^2)| <= K (M+1)/(2 sigma^2).

    These bounds hold for all n >= 1 (so they prove the O(.) statements of Section 5 and
    Theorem 3.1(iii)): |log(1+x) - x| <= x^2/2 for x = 1/(n-1+c) > 0, |x - 1/n| =
    |1-c|/(n(n-1+c)), n x <= M, and L + 1/n <= (M+1)/n.  The range check decides them on balls
    for each n as a consistency test.
    """
    t = time.perf_counter()
    cq = to_fmpq(c)
    M = max(fmpq(1), 1 / cq)
    K = M * M / 2 + abs(1 - cq) * M
    with ctx.workprec(prec):
        s = formulas.sigma.ball(r0, c)
        Ka = arb(K)
        K3 = arb(K * (M + 1)) / (2 * s * s)

        def gen():
            for n in range(1, N + 1):
                e1 = abs(formulas.log_gap.ball(n, c) - arb(fmpq(1, n))) * n * n
                e3 = abs(formulas.budget.ball(n, s, c) - 1 / (2 * s * s * n * n)) * n ** 3
                yield n, verdict_all([decide_le(e1, Ka), decide_le(e3, K3)])
        res = tally(gen())
    res.seconds = time.perf_counter() - t
    res.note = f"K = {K}, K3 = K(M+1)/(2 sigma^2)"
    return res
