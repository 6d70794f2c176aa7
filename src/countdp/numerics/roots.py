"""Roots of monotone functions in mpmath, to an absolute tolerance.

* :func:`solve_decreasing`: a root of a decreasing function on a bracket (Illinois-modified regula
  falsi, bisecting when an end value is infinite or a step does not halve the bracket);
* :func:`newton_decreasing`: a root of a decreasing function on [lo, inf) whose slope comes with
  its value (safeguarded Newton: doubling until a bracket is found, bisection whenever a Newton
  step leaves it), and how many evaluations it took;
* :func:`root_tolerance`: the tolerance ``rel (1 + |x|)`` at a point of scale x, with
  ``rel = 10^-(dps-5)`` by default (:func:`countdp.numerics.tolerance.working_precision`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import mpmath

from .tolerance import working_precision

__all__ = ["solve_decreasing", "newton_decreasing", "NewtonRoot", "root_tolerance"]

INF = mpmath.mpf("inf")


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


@dataclass(frozen=True)
class NewtonRoot:
    """What :func:`newton_decreasing` found: the root ``x`` (inf when g stays positive up to the
    cap), the size of the last step (an error bound once Newton converges quadratically), the
    last point evaluated (its ``g`` and ``slope``), the bracket [lo, hi] (hi None when no upper
    end was found) and the number of evaluations."""

    x: Any
    last_step: Any
    point: Any
    lo: Any
    hi: Any
    evaluations: int


def _next_candidate(x, gx, dx, lo, hi):
    """A Newton step from x, or a doubling (no upper end yet) or bisection step instead."""
    cand = None
    if dx is not None and dx < 0 and not mpmath.isinf(gx):
        cand = x - gx / dx
    if hi is None:
        if cand is None or not cand > lo:
            cand = 2 * lo + 1
        if cand > 1e6 * (1 + lo):
            cand = 2 * lo + 1
    elif cand is None or not (lo < cand < hi):
        cand = (lo + hi) / 2
    return cand


def newton_decreasing(F: Callable, lo, rel_tol, start=None, cap=mpmath.mpf(2) ** 70,
                      max_iter: int = 200) -> NewtonRoot:
    """A root of a decreasing g on [lo, inf) with g(lo) > 0.

    ``F(x)`` returns a point with ``g`` (may be -inf) and ``slope`` (g'(x), or None when not
    known); ``start`` is F(lo) when the caller has it (not counted in ``evaluations``).  Each step is Newton's from the last point when it stays inside
    the bracket; before an upper end is found, a doubling 2 lo + 1 instead when Newton does not
    move right or jumps beyond 10^6 (1 + lo); inside the bracket, bisection instead.  It stops at
    an exact zero, when a step or the bracket is within ``tol = rel_tol (1 + |x|)``, or when the
    Newton step from the last point is below tol / 4 (that step is then taken without evaluating
    again); ``x`` is inf when a doubling passes ``cap`` with g still positive."""
    lo, hi, evaluations = mpmath.mpf(lo), None, 0
    if start is None:
        start, evaluations = F(lo), 1
    if not start.g > 0:
        raise ValueError(f"g(lo) must be > 0 at lo = {mpmath.nstr(lo, 8)}, got {start.g}")
    x, point, last_step = lo, start, INF
    for _ in range(max_iter):
        cand = _next_candidate(x, point.g, point.slope, lo, hi)
        if hi is None and cand > cap:
            return NewtonRoot(INF, mpmath.mpf(0), point, lo, None, evaluations)
        point = F(cand)
        evaluations += 1
        last_step, x = abs(cand - x), cand
        if point.g > 0:
            lo = cand
        else:
            hi = cand
        if point.g == 0:
            break
        tol = mpmath.mpf(rel_tol) * (1 + abs(x))
        if last_step <= tol or (hi is not None and hi - lo <= tol):
            break
        gc, dc = point.g, point.slope
        if dc is not None and dc < 0 and not mpmath.isinf(gc) and abs(gc / dc) <= tol / 4:
            x, last_step = x - gc / dc, abs(gc / dc)
            break
    return NewtonRoot(x, last_step, point, lo, hi, evaluations)
