"""Stochastic rounding (Corollary 3.2) in exact arithmetic: polynomial identities and rationals."""

from __future__ import annotations

import time
from fractions import Fraction

from flint import fmpq, fmpq_mpoly_ctx

from .. import formulas
from .ranges import RangeResult, tally
from .verdicts import Verdict, to_fmpq

__all__ = ["certify_rounding_identity"]


def certify_rounding_identity(grid: int = 40, n_max: int = 6) -> RangeResult:
    """Stochastic rounding R(y) in {floor y, floor y + 1} with P(R = floor y + 1) = t, y = f + t
    (f = floor y, 0 <= t < 1). Exact polynomial identities (fmpq_mpoly in f, t, n): mean
    (1-t) f + t (f+1) = f + t = y; for an integer n <= f every value is >= n, so
    E|R - n| = (1-t)(f-n) + t(f+1-n) = y - n; for n >= f + 1 every value is <= n, so
    E|R - n| = (1-t)(n-f) + t(n-f-1) = n - y; together E|R - n| = |y - n|. Also checked with
    exact rationals on a grid of y in [0, n_max] (step 1/grid) and n = 0..n_max, with the up-probability
    of ``formulas.round_up_probability``. (That rounding
    is postprocessing, so divergences cannot grow, is the data-processing inequality, not
    certified here.)"""
    t0 = time.perf_counter()
    R = fmpq_mpoly_ctx.get(("f", "t", "n"))
    f, t, n = R.gens()
    ids = [(1 - t) * f + t * (f + 1) == f + t,
           (1 - t) * (f - n) + t * (f + 1 - n) == f + t - n,
           (1 - t) * (n - f) + t * (n - f - 1) == n - f - t]

    def gen():
        yield "identities", Verdict.PROVED_TRUE if all(ids) else Verdict.PROVED_FALSE
        for i in range(grid * n_max + 1):
            y = fmpq(i, grid)
            fl = y.floor()
            tt = to_fmpq(formulas.round_up_probability.exact(Fraction(int(y.p), int(y.q))))
            for nn in range(n_max + 1):
                err = (1 - tt) * abs(fmpq(fl) - nn) + tt * abs(fmpq(fl) + 1 - nn)
                mean = (1 - tt) * fl + tt * (fl + 1)
                ok = err == abs(y - nn) and mean == y
                yield (y, nn), Verdict.PROVED_TRUE if ok else Verdict.PROVED_FALSE
    res = tally(gen(), "exact")
    res.seconds = time.perf_counter() - t0
    return res
