"""Exact rationals and the mpmath numbers next to them.

:func:`to_fraction` takes an input at its exact value (a float or an mpf at its exact binary
value, a decimal string exactly) and names the parameter when it refuses one;
:func:`mpf_at_least` and :func:`mpf_below` give the working-precision numbers on either side of
a rational, so that "at a threshold" and "just below it" are decided exactly.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np

from .messages import quoted
from .validate import ParameterTypeError

__all__ = ["to_fraction", "mpf_at_least", "mpf_below"]


def to_fraction(name: str, x) -> Fraction:
    """An exact rational from an int, a Fraction, a decimal string, a float (its exact binary
    value) or an mpf (its exact binary value); ValueError naming ``name`` otherwise."""
    if isinstance(x, (bool, np.bool_)):
        raise ParameterTypeError(f"{name} must be a real number, got {x!r}")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, str):
        try:
            return Fraction(x)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"{name} must be a rational number, got {quoted(x)}") from None
    if isinstance(x, mpmath.mpf):
        if not mpmath.isfinite(x):
            raise ValueError(f"{name} must be finite, got {x!r}")
        man, exp = x.man_exp  # man is the magnitude; the sign is separate
        val = Fraction(int(man)) * (Fraction(2) ** int(exp))
        return -val if x < 0 else val
    if isinstance(x, (float, np.floating)):
        if not np.isfinite(x):
            raise ValueError(f"{name} must be finite, got {x!r}")
        return Fraction(float(x))
    raise ParameterTypeError(f"{name} must be a real number, got {type(x).__name__} {quoted(x)}")


def _directed(q: Fraction, rnd) -> mpmath.mpf:
    """The rational q rounded at the current precision in direction ``rnd`` (libmp rounding)."""
    return mpmath.mpf(mpmath.libmp.from_rational(q.numerator, q.denominator, mpmath.mp.prec, rnd))


def mpf_at_least(x) -> mpmath.mpf:
    """The smallest mpf >= the rational x at the current precision (rounding upwards)."""
    return _directed(to_fraction("x", x), mpmath.libmp.round_ceiling)


def mpf_below(x) -> mpmath.mpf:
    """The largest mpf < the rational x at the current precision (strictly below)."""
    q = to_fraction("x", x)
    y = _directed(q, mpmath.libmp.round_floor)
    if to_fraction("y", y) == q:  # q is representable: step just below it
        tiny = (abs(q) if q != 0 else Fraction(1)) / Fraction(2) ** (mpmath.mp.prec + 10)
        y = _directed(q - tiny, mpmath.libmp.round_floor)
    return y
