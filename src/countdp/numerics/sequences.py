"""Limits and rates from sequences: extrapolation to h -> 0, and the spread of a scaled sequence.

A limit claim is shown by evaluating along a sequence and extrapolating (:func:`richardson`,
with an error estimate); a claimed rate by the scaled sequence staying bounded over decades
(:func:`spread`, :func:`decades`) or its fitted exponent (:func:`fitted_exponent`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import mpmath

from .estimate import Estimate


@dataclass(frozen=True)
class Extrapolation(Estimate):
    """A limit estimate, with the sequence (``hs``, ``values``) it came from."""

    hs: list = field(default_factory=list)
    values: list = field(default_factory=list)


def _weights_at_zero(xs: list, powers: list) -> list:
    """w with sum_i w_i y_i = L for y_i = L + sum_j a_j x_i^{p_j} (exact through len(xs) points,
    len(powers) = len(xs) - 1): the solution of V^T w = e_0, V_ij = x_i^{p_j} with p_0 = 0."""
    n = len(xs)
    V = mpmath.matrix(n, n)
    for i, x in enumerate(xs):
        V[i, 0] = 1
        for j, p in enumerate(powers, start=1):
            V[i, j] = x ** p
    e0 = mpmath.matrix([1] + [0] * (n - 1))
    w = mpmath.lu_solve(V.T, e0)
    return [w[i] for i in range(n)]


def _at_zero(xs: list, ys: list, powers: list) -> mpmath.mpf:
    return mpmath.fsum(w * y for w, y in zip(_weights_at_zero(xs, powers), ys))


def richardson(hs: Sequence, values: Sequence, powers: Sequence | None = None,
               errors: Sequence | None = None) -> Extrapolation:
    """Extrapolate ``values[k] = L + a_1 h_k^{p_1} + a_2 h_k^{p_2} + ...`` to h = 0.

    ``powers`` are the known exponents of the expansion (default 1, 2, 3, ...: polynomial
    extrapolation through all points); with fewer powers than points - 1 the finest
    ``len(powers) + 1`` points are used.  The error estimate is the larger of the change from
    dropping the last power (same finest points) and the change from shifting the point set one
    step coarser (when there is a spare point), plus the inputs' ``errors`` carried through the
    weights, plus the rounding of the working precision."""
    if len(hs) != len(values) or len(hs) < 2:
        raise ValueError("hs and values must have the same length >= 2")
    xs = [mpmath.mpf(h) for h in hs]
    if len(set(xs)) != len(xs) or any(x == 0 for x in xs):
        raise ValueError("hs must be distinct and nonzero")
    order = sorted(range(len(xs)), key=lambda i: -abs(xs[i]))  # coarsest first
    xs = [xs[i] for i in order]
    ys = [mpmath.mpf(values[i]) for i in order]
    errs = [mpmath.mpf(0)] * len(xs) if errors is None else [mpmath.mpf(errors[i]) for i in order]
    pw = [mpmath.mpf(p) for p in (powers if powers is not None else range(1, len(xs)))]
    if not pw:
        raise ValueError("at least one power is needed")
    k = min(len(pw), len(xs) - 1)  # powers used
    use = slice(len(xs) - (k + 1), len(xs))  # the finest k + 1 points
    x_used, y_used = xs[use], ys[use]
    w = _weights_at_zero(x_used, pw[:k])
    full = mpmath.fsum(wi * yi for wi, yi in zip(w, y_used))
    lower = _at_zero(x_used[1:], y_used[1:], pw[:k - 1])
    change = abs(full - lower)
    if len(xs) > k + 1:  # one spare coarser point: the same order one step coarser
        shifted = _at_zero(xs[len(xs) - k - 2:len(xs) - 1], ys[len(xs) - k - 2:len(xs) - 1], pw[:k])
        change = max(change, abs(full - shifted))
    carried = mpmath.fsum(abs(wi) * ei for wi, ei in zip(w, errs[use]))
    floor = mpmath.mpf(10) ** (-(mpmath.mp.dps - 3)) * (1 + abs(full)) * mpmath.fsum(abs(wi) for wi in w)
    return Extrapolation(full, change + carried + floor, list(xs), list(ys))


def spread(values: Sequence):
    """max/min of a sequence of positive numbers: a scaled quantity that is Theta(1) over the
    decades sampled has a spread of a few units; a wrong power of the variable makes it grow by a
    factor 10^(error in the power) per decade."""
    vals = [mpmath.mpf(v) for v in values]
    if not vals:
        raise ValueError("values must not be empty")
    if any(not v > 0 for v in vals):
        raise ValueError("values must all be > 0 for a spread (ratio max/min)")
    return max(vals) / min(vals)


def decades(lo_exp: int, hi_exp: int, base: int = 10) -> list[int]:
    """base^k for k = lo_exp..hi_exp (integers), e.g. counts n = 10, ..., 10^8."""
    if hi_exp < lo_exp:
        raise ValueError("hi_exp must be >= lo_exp")
    return [base ** k for k in range(lo_exp, hi_exp + 1)]


def fitted_exponent(xs: Sequence, values: Sequence):
    """The exponent p of a power law ``values ~ K xs^p``: the least-squares slope of
    log(values) against log(xs) (both positive).  A rate claimed over decades is compared through
    p with a stated tolerance, so that a wrong power is seen as a wrong number, not a spread."""
    if len(xs) != len(values) or len(xs) < 2:
        raise ValueError("xs and values must have the same length >= 2")
    X = [mpmath.log(mpmath.mpf(x)) for x in xs]
    Y = []
    for v in values:
        v = mpmath.mpf(v)
        if not v > 0:
            raise ValueError("values must all be > 0 for a fitted exponent")
        Y.append(mpmath.log(v))
    if len(set(X)) < 2:
        raise ValueError("xs must hold at least two distinct values")
    mx, my = mpmath.fsum(X) / len(X), mpmath.fsum(Y) / len(Y)
    return mpmath.fsum((x - mx) * (y - my) for x, y in zip(X, Y)) / mpmath.fsum((x - mx) ** 2 for x in X)
