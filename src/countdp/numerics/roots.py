"""Roots of monotone functions in mpmath, to an absolute tolerance.

* :func:`solve_decreasing`: a root of a decreasing function on a bracket (Illinois-modified regula
  falsi, bisecting when an end value is infinite or a step does not halve the bracket);
* :func:`root_tolerance`: the tolerance ``rel (1 + |x|)`` at a point of scale x, with
  ``rel = 10^-(dps-5)`` by default (:func:`countdp.numerics.tolerance.working_precision`).
"""

from __future__ import annotations

from typing import Callable

import mpmath

from .tolerance import working_precision

__all__ = ["solve_decreasing", "root_tolerance"]


def solve_decreasing(f: Callable, lo, hi, xtol, max_iter: int = 400):
    """A root of a decreasing function on [lo, hi] with f(lo) > 0 > f(hi) (values may be +-inf).

    Illinois-modified regula falsi, with a bisection step whenever an end value is infinite or
    the previous step did not halve the bracket; stops when the bracket is narrower than ``xtol``
    (absolute) and returns its midpoint (or an exact zero when one is hit)."""
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    flo, fhi = f(lo), f(hi)
    side, bisect = 0, False
    for _ in range(max_iter):
        width = hi - lo
        if width <= xtol:
            break
        if bisect or mpmath.isinf(flo) or mpmath.isinf(fhi) or flo == fhi:
            x = (lo + hi) / 2
        else:
            x = (lo * fhi - hi * flo) / (fhi - flo)
            if not (lo < x < hi):
                x = (lo + hi) / 2
        fx = f(x)
        if fx == 0:
            return x
        if fx > 0:
            lo, flo = x, fx
            if side == 1 and not mpmath.isinf(fhi):
                fhi /= 2
            side = 1
        else:
            hi, fhi = x, fx
            if side == -1 and not mpmath.isinf(flo):
                flo /= 2
            side = -1
        bisect = (hi - lo) > width / 2
    return (lo + hi) / 2


def root_tolerance(x_scale, rel=None):
    """The absolute tolerance ``rel (1 + |x_scale|)`` (``rel`` defaults to 10^-(dps-5))."""
    rel = working_precision(5) if rel is None else mpmath.mpf(rel)
    return rel * (1 + abs(mpmath.mpf(x_scale)))
