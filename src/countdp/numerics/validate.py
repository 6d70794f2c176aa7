"""Parameter checks shared by the library: a bad input raises ValueError naming the parameter
and its allowed range."""

from __future__ import annotations

import math
import numbers

import mpmath
import numpy as np


def _is_nan(x) -> bool:
    try:
        return bool(mpmath.isnan(x)) if isinstance(x, mpmath.mpf) else math.isnan(float(x))
    except (TypeError, ValueError):
        return True


def real(name: str, x, lo=None, hi=None, lo_open=True, hi_open=True, allow_inf=False):
    """Return ``x`` after checking it is a real number in the stated interval."""
    if isinstance(x, bool) or not isinstance(x, (numbers.Real, mpmath.mpf, np.floating, np.integer)):
        raise ValueError(f"{name} must be a real number{_range(lo, hi, lo_open, hi_open)}, got {x!r}")
    if _is_nan(x):
        raise ValueError(f"{name} must be a real number{_range(lo, hi, lo_open, hi_open)}, got NaN")
    if not allow_inf and mpmath.isinf(x):
        raise ValueError(f"{name} must be finite{_range(lo, hi, lo_open, hi_open)}, got {x!r}")
    bad = False
    if lo is not None:
        bad |= (x <= lo) if lo_open else (x < lo)
    if hi is not None:
        bad |= (x >= hi) if hi_open else (x > hi)
    if bad:
        raise ValueError(f"{name} must lie in {_interval(lo, hi, lo_open, hi_open)}, got {x!r}")
    return x


def count(name: str, n, lo: int = 0):
    """Return ``n`` as a Python int after checking it is an integer >= lo."""
    if isinstance(n, bool):
        raise ValueError(f"{name} must be an integer >= {lo}, got {n!r}")
    if isinstance(n, (numbers.Integral, np.integer)):
        n = int(n)
    elif isinstance(n, (numbers.Real, mpmath.mpf, np.floating)) and not _is_nan(n) and \
            not mpmath.isinf(n) and float(n) == int(n):
        n = int(n)
    else:
        raise ValueError(f"{name} must be an integer >= {lo}, got {n!r}")
    if n < lo:
        raise ValueError(f"{name} must be an integer >= {lo}, got {n!r}")
    return n


def counts(name: str, arr) -> np.ndarray:
    """An array of nonnegative integer counts (a histogram)."""
    a = np.asarray(arr)
    if a.dtype.kind == "f":
        if not np.all(np.isfinite(a)) or not np.all(a == np.floor(a)):
            raise ValueError(f"{name} must hold integers >= 0 (finite, no fractions, no NaN)")
        a = a.astype(np.int64)
    elif a.dtype.kind not in "iu":
        raise ValueError(f"{name} must hold integers >= 0, got dtype {a.dtype}")
    if np.any(a < 0):
        raise ValueError(f"{name} must hold integers >= 0, got a negative count")
    return a.astype(np.int64)


def order(alpha, allow_inf: bool = False):
    """A Renyi order: alpha > 1 (the range the definition uses)."""
    return real("alpha", alpha, lo=1, lo_open=True, allow_inf=allow_inf)


def _interval(lo, hi, lo_open, hi_open) -> str:
    a = "(" if lo_open or lo is None else "["
    b = ")" if hi_open or hi is None else "]"
    return f"{a}{'-inf' if lo is None else lo}, {'inf' if hi is None else hi}{b}"


def _range(lo, hi, lo_open, hi_open) -> str:
    if lo is None and hi is None:
        return ""
    return " in " + _interval(lo, hi, lo_open, hi_open)
