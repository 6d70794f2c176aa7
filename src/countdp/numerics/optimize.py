"""A derivative-free maximiser of a smooth function of one real variable, in mpmath.

:func:`maximise` needs no derivative formula: a grid scan locates the top, a golden-section
search narrows it, and ``mpmath.findroot`` on the numerical derivative (``mpmath.diff``) polishes
it.  It is a numerical route (an estimate with an error estimate), compared in the checks with
the closed-form maximisers it is meant to confirm.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import mpmath

__all__ = ["Maximum", "maximise"]

_GOLDEN_STEPS = 60


@dataclass(frozen=True)
class Maximum:
    """The numerical maximiser ``argmax`` of f, the value ``f(argmax)`` and an error estimate of
    the maximiser (the value is f evaluated at ``argmax``)."""

    argmax: Any
    value: Any
    argmax_error: Any


def maximise(f: Callable, lo, hi, grid: int = 400) -> Maximum:
    """The maximiser of a smooth f on [lo, hi] that is unimodal near its top: grid scan with
    ``grid`` cells, golden-section refinement of the best cell pair, then a root of the numerical
    derivative.  The error estimate is |f'/f''| at the root (at least 10 eps |x|), capped by the
    Newton step from the golden-section midpoint; when the polish fails it is the final bracket."""
    lo, hi = mpmath.mpf(lo), mpmath.mpf(hi)
    if not lo < hi:
        raise ValueError(f"lo must be < hi, got [{lo}, {hi}]")
    a, b = _grid_bracket(f, lo, hi, grid)
    a, b = _golden_section(f, a, b)
    x0 = (a + b) / 2
    polished = _derivative_root(f, x0, lo, hi)
    if polished is None:
        return Maximum(x0, f(x0), b - a)
    x, err = polished
    return Maximum(x, f(x), err)


def _grid_bracket(f: Callable, lo, hi, grid: int) -> tuple:
    """The two grid cells around the best of ``grid + 1`` equally spaced points."""
    xs = [lo + (hi - lo) * k / grid for k in range(grid + 1)]
    vals = [f(x) for x in xs]
    i = max(range(len(xs)), key=lambda k: vals[k])
    return xs[max(i - 1, 0)], xs[min(i + 1, grid)]


def _golden_section(f: Callable, a, b) -> tuple:
    """Golden-section search for the maximum of f on [a, b]; returns the final bracket."""
    g = (mpmath.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(_GOLDEN_STEPS):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return a, b


def _derivative_root(f: Callable, x0, lo, hi):
    """(x, error estimate) for the root of the numerical derivative near x0, or None when the
    root leaves [lo, hi], lowers f, or cannot be found."""
    try:
        x = mpmath.findroot(lambda y: mpmath.diff(f, y), x0, tol=mpmath.eps ** 1.5)
        if not (lo <= x <= hi) or f(x) < f(x0):
            return None
        step = abs(x - x0)
        err = max(abs(mpmath.diff(f, x) / mpmath.diff(f, x, 2)), mpmath.eps * abs(x)) * 10
        return x, (min(err, step + mpmath.eps * abs(x)) if step > 0 else err)
    except (ValueError, ZeroDivisionError):
        return None
