"""A computed number with its error bar.

Every numerical route of the library returns an :class:`Estimate` (or a subclass that adds what
the route knows besides): ``value`` and an absolute ``error`` such that the exact quantity lies
in ``[value - error, value + error]`` -- proven for ball arithmetic, the integrator's estimate
for quadrature, a confidence interval of ``Z_BAR`` standard errors for Monte Carlo.
:func:`at_two_precisions` is the one guard against an mpmath route whose own estimate is short.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import mpmath

Z_BAR = 5.0  # the half-width of every Monte Carlo interval, in standard errors


@dataclass(frozen=True)
class Estimate:
    """``value`` +/- ``error`` (absolute)."""

    value: Any
    error: Any = 0

    def __float__(self) -> float:
        return float(self.value)

    @property
    def interval(self) -> tuple:
        return self.value - self.error, self.value + self.error

    def __repr__(self) -> str:
        def show(x):
            return mpmath.nstr(x, 12) if isinstance(x, mpmath.mpf) else repr(x)
        return f"{type(self).__name__}({show(self.value)} +/- {show(self.error)})"


def at_two_precisions(route: Callable[[], Any], guard_bits: int = 0, apart_bits: int = 32) -> Estimate:
    """``route()`` (an mpmath computation returning ``(value, error)``, an Estimate or a pair)
    at the working precision plus ``guard_bits``, and again ``apart_bits`` finer: the finer value
    rounded to the working precision; as its error the larger of the two estimates, the two
    values' difference and the final rounding eps |value|.  That covers the finer value if either
    estimate is true, and else wherever the route's error at least halves over the extra bits: a
    cancellation among a closed form's terms (error 0 from the route), a tanh-sinh sum that stops
    converging on an infinite panel while its estimate says 10^-dps (int_0^inf e^{-x/0.118} dx at
    40 digits is 4.5e-38 off under an estimate of 1e-43).  A non-finite finer value keeps a
    non-finite error (no gap is read from it)."""
    with mpmath.workprec(mpmath.mp.prec + guard_bits):
        coarse, coarse_err = _pair(route())
    with mpmath.workprec(mpmath.mp.prec + guard_bits + apart_bits):
        fine, fine_err = _pair(route())
        gap = abs(fine - coarse) if mpmath.isfinite(fine) else mpmath.mpf(0)
    value = +fine
    return Estimate(value, +(max(coarse_err, fine_err) + gap + mpmath.eps * abs(value)))


def _pair(result) -> tuple:
    if isinstance(result, Estimate):
        return mpmath.mpf(result.value), mpmath.mpf(result.error)
    value, error = result
    return mpmath.mpf(value), mpmath.mpf(error)
