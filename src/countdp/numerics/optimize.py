"""Numerical maximisers of smooth functions, in mpmath: numerical routes (estimates with error
estimates) compared in the checks with the closed-form maximisers they are meant to confirm.

* :func:`maximise`, one real variable on an interval: a grid scan locates the top, a
  golden-section search narrows it, and ``mpmath.findroot`` on the numerical derivative
  (``mpmath.diff``) polishes it;
* :func:`maximise_from_starts`, several variables in a box: Nelder-Mead from several starts
  (float64, scipy), then Newton on the gradient at the working precision from the best start.
  The starts are kept with what each found, so that a check can show that every start reaches
  the same maximiser; the value's error bar is that of the working precision (the polished
  argmax is a stationary point to ~10^-dps, so the value is off by its square plus rounding).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import mpmath
import numpy as np

from .estimate import Estimate
from .tolerance import working_precision

__all__ = ["Maximum", "maximise", "LocalMaximum", "Optimum", "maximise_from_starts"]

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


@dataclass(frozen=True)
class LocalMaximum:
    """What Nelder-Mead found from one start (float64)."""

    start: tuple
    argmax: tuple
    value: float


@dataclass(frozen=True)
class Optimum(Estimate):
    """A numerically located maximum: ``value`` +/- ``error`` at the polished ``argmax``, and
    the float64 maximum found from each start."""

    argmax: tuple = ()
    found: list = field(default_factory=list)


def nelder_mead_starts(fun: Callable, starts: Sequence, bounds: Sequence) -> list[LocalMaximum]:
    """Nelder-Mead (scipy) on -fun from each start, confined to the open box ``bounds``."""
    from scipy import optimize

    lo = np.array([b[0] for b in bounds], dtype=float)
    hi = np.array([b[1] for b in bounds], dtype=float)

    def neg(x):
        x = np.asarray(x, dtype=float)
        if np.any(x <= lo) or np.any(x >= hi):
            return 1e3
        return -float(fun(*x))

    out = []
    for s in starts:
        res = optimize.minimize(neg, np.asarray(s, dtype=float), method="Nelder-Mead",
                                options={"xatol": 1e-10, "fatol": 1e-16, "maxiter": 20000})
        out.append(LocalMaximum(tuple(float(v) for v in s), tuple(float(v) for v in res.x),
                                -float(res.fun)))
    return out


def newton_polish(f: Callable, x0: Sequence) -> tuple:
    """A stationary point of ``f`` near ``x0`` by Newton on the gradient (mpmath.diff) at the
    working precision."""
    k = len(x0)
    if k == 1:
        x = mpmath.findroot(lambda x: mpmath.diff(f, x), mpmath.mpf(x0[0]), tol=working_precision(4))
        return (x,)

    def grad(*xs):
        return [mpmath.diff(lambda *ys: f(*ys), xs, tuple(1 if j == i else 0 for j in range(k)))
                for i in range(k)]

    x = mpmath.findroot(grad, [mpmath.mpf(v) for v in x0], tol=working_precision(8))
    return tuple(x[i] for i in range(k))


def maximise_from_starts(f: Callable, starts: Sequence, bounds: Sequence, digits_lost: int = 6) -> Optimum:
    """Maximise ``f`` (mpmath arguments) over the box ``bounds``: Nelder-Mead from every start,
    Newton polish from the best; the value's error bar is ``working_precision(digits_lost)``."""
    found = nelder_mead_starts(f, starts, bounds)
    best = max(found, key=lambda p: p.value)
    x = newton_polish(f, best.argmax)
    return Optimum(f(*x), working_precision(digits_lost), x, found)
