"""Numerical maximisation of a smooth function: Nelder-Mead from several starts (float64, scipy),
then Newton on the gradient at the working precision from the best start.

The starts are kept with what each found, so that a check can show that every start reaches the
same maximiser; the value's error bar is that of the working precision (the polished argmax is
a stationary point to ~10^-dps, so the value is off by its square plus rounding).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import mpmath
import numpy as np

from .estimate import Estimate
from .tolerance import working_precision


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
