"""The large-count coefficient of the shifted log-Gaussian budget, computed from the budget.

Theorem 3.1(iii) and Section 5.1 state limits of ``r^2 n^2 v(n)``: as n -> inf at fixed
parameters, and then as the parameters move along a family (e.g. r -> 0 with r0 = r(1-r)).
Here they are computed numerically from the mechanism's budget (eqs 5-6, sigma of eq 3, both
relatively accurate at the working precision) by Richardson extrapolation
(:func:`countdp.numerics.sequences.richardson`), so that the closed forms of
:mod:`countdp.formulas.limits` can be compared with an independent route.
"""

from __future__ import annotations

from typing import Callable, Sequence

import mpmath

from ..numerics import validate
from ..numerics.sequences import Extrapolation, richardson
from .log_gaussian import ShiftedLogGaussian

DEFAULT_EXPONENTS = (2, 3, 4, 5, 6, 7, 8)  # n = 10^2 .. 10^8


def scaled_budget(mech: ShiftedLogGaussian, n, r=1):
    """``r^2 n^2 v(n)`` from the mechanism's budget (eq 6)."""
    n = validate.count("n", n, lo=1)
    r = mpmath.mpf(validate.real("r", r, lo=0))
    return r * r * mpmath.mpf(n) ** 2 * mech.mp_v(n)


def large_count_limit(mech: ShiftedLogGaussian, r=1, exps: Sequence[int] = DEFAULT_EXPONENTS) -> Extrapolation:
    """``lim_{n->inf} r^2 n^2 v(n)`` by Richardson extrapolation in h = 1/n of the sequence at
    n = 10^k, k in ``exps`` (n^2 log^2(1 + 1/(n-1+c)) is a power series in 1/n)."""
    ns = [10 ** int(k) for k in exps]
    vals = [scaled_budget(mech, n, r) for n in ns]
    return richardson([mpmath.mpf(1) / n for n in ns], vals)


def iterated_limit(family: Callable[[object], ShiftedLogGaussian], hs: Sequence,
                   exps: Sequence[int] = DEFAULT_EXPONENTS, r=None) -> Extrapolation:
    """``lim_{h->0} lim_{n->inf} r^2 n^2 v_h(n)`` for a family ``family(h)`` of mechanisms: the
    inner limit per h by :func:`large_count_limit`, the outer by Richardson in h (the inner
    errors are carried through).  With ``r=None`` the tolerance is r = h (the r -> 0 limits of
    Section 5.1 and eq 32); with a fixed r, h is another parameter (e.g. r0 = r(1-h), c = h)."""
    if len(hs) < 2:
        raise ValueError("hs must hold at least two values")
    inner = [large_count_limit(family(h), h if r is None else r, exps) for h in hs]
    out = richardson(list(hs), [e.value for e in inner], errors=[e.error for e in inner])
    return Extrapolation(out.value, out.error, list(hs), [e.value for e in inner])
