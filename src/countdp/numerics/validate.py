"""The validation layer: every public entry point of the library (mechanisms, laws, the divergence
engines, Monte Carlo helpers) and every option of the command line checks its parameters here.

Rules, the same everywhere:

* a bad value raises ``ValueError`` whose message names the parameter and states its range,
  e.g. ``r0 must lie in (0, 1), got 2.0``;
* a value of the wrong type (a string, None, a complex number, a bool where a number is meant, a
  non-law where a law is meant) raises :class:`ParameterTypeError`, which is a ``TypeError`` and
  also a ``ValueError`` (so ``except ValueError`` keeps catching every refusal);
* numpy scalars (``np.float32(0.05)``, ``np.int64(3)``) are accepted and returned as Python
  numbers, so nothing downstream (mpmath) sees a numpy type;
* ``rng`` is None (fresh entropy), an integer seed >= 0, or a ``numpy.random.Generator``;
* counts (histograms) are int64: a value outside int64 is refused as too large, never wrapped;
* a float result that cannot be represented in float64 (it would overflow to inf or underflow to 0
  or a subnormal) is refused by :func:`to_float` with a message pointing to the full-precision
  (mpmath) accessor -- an inf, 0.0 or NaN never stands in for a finite number.

The closed forms of :mod:`countdp.formulas` are plain mathematics and do not validate.
"""

from __future__ import annotations

import math
import numbers
import sys
from fractions import Fraction

import mpmath
import numpy as np

from .messages import QUOTE_LIMIT, quoted

INT64_MAX = 2 ** 63 - 1
#: the most draws a Monte Carlo helper streams, and the most entries one sample call returns
MAX_DRAWS = 10 ** 10
MAX_SAMPLE = 10 ** 8
#: the precision range the engines support (measured: a quick check at dps 100 costs about 4.5x
#: the default dps 30; dps 10000 does not finish)
DPS_MIN, DPS_MAX = 5, 100
_FLOAT_TINY = sys.float_info.min  # the smallest normal float64
_FLOAT_MAX = sys.float_info.max


class ParameterTypeError(TypeError, ValueError):
    """A parameter of the wrong type.  A ``TypeError`` and, so that every refusal of the library
    is caught by ``except ValueError``, also a ``ValueError``."""


def _type_name(x) -> str:
    return "None" if x is None else type(x).__name__


def _is_nan(x) -> bool:
    try:
        return bool(mpmath.isnan(x)) if isinstance(x, mpmath.mpf) else math.isnan(float(x))
    except (TypeError, ValueError, OverflowError):
        return False


def _is_real_type(x) -> bool:
    return not isinstance(x, (bool, np.bool_)) and \
        isinstance(x, (numbers.Real, mpmath.mpf, np.floating, np.integer))


def _plain(x):
    """numpy scalars as Python numbers (mpmath cannot take ``np.float32``)."""
    if isinstance(x, np.integer):
        return int(x)
    if isinstance(x, np.floating):
        return float(x)
    return x


def real(name: str, x, lo=None, hi=None, lo_open=True, hi_open=True, allow_inf=False,
         big_ok=False):
    """Return ``x`` (numpy scalars as Python numbers) after checking it is a real number in the
    stated interval: ValueError naming ``name`` and the interval otherwise (ParameterTypeError for
    a non-number).  A finite value beyond the float64 range (a Python int or mpmath number above
    1.8e308) is refused too, unless ``big_ok`` (an entry point that works in mpmath only): the
    library converts parameters to float64 in places, where it would become inf."""
    rng_txt = _range(lo, hi, lo_open, hi_open)
    if not _is_real_type(x):
        raise ParameterTypeError(f"{name} must be a real number{rng_txt}, got {_type_name(x)} {quoted(x)}")
    x = _plain(x)
    if _is_nan(x):
        raise ValueError(f"{name} must be a real number{rng_txt}, got NaN")
    if not allow_inf and mpmath.isinf(x):
        raise ValueError(f"{name} must be finite{rng_txt}, got {x!r}")
    if not big_ok and not mpmath.isinf(x) and abs(x) > _FLOAT_MAX:
        raise ValueError(f"{name} must be finite and within the float64 range (|{name}| <= 1.8e308)"
                         f"{rng_txt}, got {_show(x)}")
    bad = False
    if lo is not None:
        bad |= (x <= lo) if lo_open else (x < lo)
    if hi is not None:
        bad |= (x >= hi) if hi_open else (x > hi)
    if bad:
        raise ValueError(f"{name} must lie in {_interval(lo, hi, lo_open, hi_open)}, got {_show(x)}")
    return x


def count(name: str, n, lo: int = 0, hi: int | None = None):
    """Return ``n`` as a Python int after checking it is an integer in [lo, hi] (an integral float
    such as ``3.0`` is accepted)."""
    what = f"an integer >= {lo}" if hi is None else f"an integer in [{lo}, {_show(hi)}]"
    if not _is_real_type(n):
        raise ParameterTypeError(f"{name} must be {what}, got {_type_name(n)} {quoted(n)}")
    n = _plain(n)
    if isinstance(n, numbers.Integral):
        n = int(n)
    elif _is_nan(n) or mpmath.isinf(n) or n != int(n):
        raise ValueError(f"{name} must be {what}, got {_show(n)}")
    else:
        n = int(n)
    if n < lo or (hi is not None and n > hi):
        raise ValueError(f"{name} must be {what}, got {_show(n)}")
    return n


def _array(arr, type_message: str, shape_message: str) -> np.ndarray:
    """``np.asarray(arr)``, refusing None, text and mappings (ParameterTypeError with
    ``type_message``) and ragged nesting (ValueError with ``shape_message``)."""
    if arr is None or isinstance(arr, (str, bytes, dict)):
        raise ParameterTypeError(f"{type_message}, got {_type_name(arr)}")
    try:
        return np.asarray(arr)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{shape_message}: {exc}") from None


def counts(name: str, arr) -> np.ndarray:
    """An int64 array of nonnegative integer counts (a histogram) of any shape.  Refused: None and
    non-numeric entries (ParameterTypeError), ragged nesting, NaN/inf, fractions, negative counts,
    and counts beyond int64 (named as too large, not wrapped)."""
    what = f"{name} must hold integers in [0, 2^63 - 1] (counts)"
    a = _array(arr, f"{what} (an array)", f"{what} in a rectangular array")
    kind = a.dtype.kind
    if kind == "O":  # Python integers beyond int64, or mixed entries
        flat = a.ravel().tolist()
        for v in flat:
            if not _is_real_type(v):
                raise ParameterTypeError(f"{what}, got an entry {_type_name(v)} {quoted(v)}")
        if all(isinstance(v, (int, np.integer)) for v in flat):
            ints = [int(v) for v in flat]
            if ints and min(ints) < 0:
                raise ValueError(f"{what}, got a negative count {_show(min(ints))}")
            if ints and max(ints) > INT64_MAX:
                raise ValueError(f"{what}: {_show(max(ints))} is too large for int64 (overflow)")
            return np.array(ints, dtype=np.int64).reshape(a.shape)
        try:
            a = np.array([float(v) for v in flat], dtype=float).reshape(a.shape)
        except OverflowError:
            raise ValueError(f"{what}: an entry is too large for int64 (overflow)") from None
        kind = "f"
    if kind == "f":
        if np.any(np.isnan(a)):
            raise ValueError(f"{what}, got NaN")
        if np.any(np.isinf(a)):
            raise ValueError(f"{what}, got {_show(a[np.isinf(a)].flat[0])} (too large for int64)")
        if not np.all(a == np.floor(a)):
            raise ValueError(f"{what}, got a fraction {_show(a[a != np.floor(a)].flat[0])}")
        if a.size and np.min(a) < 0:
            raise ValueError(f"{what}, got a negative count {_show(np.min(a))}")
        if a.size and float(np.max(a)) >= 2.0 ** 63:
            raise ValueError(f"{what}: {_show(np.max(a))} is too large for int64 (overflow)")
        return a.astype(np.int64)
    if kind == "u":
        if a.size and int(np.max(a)) > INT64_MAX:
            raise ValueError(f"{what}: {int(np.max(a))} is too large for int64 (overflow)")
        return a.astype(np.int64)
    if kind == "i":
        if a.size and int(np.min(a)) < 0:
            raise ValueError(f"{what}, got a negative count {int(np.min(a))}")
        return a.astype(np.int64)
    raise ParameterTypeError(f"{what}, got an array of dtype {a.dtype}")


def reals(name: str, arr, lo=None, hi=None, lo_open=True, hi_open=True) -> np.ndarray:
    """A float64 array of finite real numbers in the stated interval."""
    rng_txt = _range(lo, hi, lo_open, hi_open)
    a = _array(arr, f"{name} must be an array of real numbers{rng_txt}",
               f"{name} must be a rectangular array of real numbers")
    if a.dtype.kind == "O":
        for v in a.ravel().tolist():
            real(name, v)
    elif a.dtype.kind not in "iuf":
        raise ParameterTypeError(f"{name} must be an array of real numbers{rng_txt}, got dtype {a.dtype}")
    try:
        a = a.astype(float)
    except (ValueError, TypeError, OverflowError) as exc:
        raise ValueError(f"{name} must be an array of real numbers{rng_txt}: {exc}") from None
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must hold finite real numbers{rng_txt}, got NaN or inf")
    bad = np.zeros(a.shape, dtype=bool)
    if lo is not None:
        bad |= (a <= lo) if lo_open else (a < lo)
    if hi is not None:
        bad |= (a >= hi) if hi_open else (a > hi)
    if np.any(bad):
        raise ValueError(f"{name} must lie in {_interval(lo, hi, lo_open, hi_open)}, "
                         f"got {_show(a[bad].flat[0])}")
    return a


def order(alpha, allow_inf: bool = False, name: str = "alpha"):
    """A Renyi order: alpha > 1 (the range the definition uses)."""
    return real(name, alpha, lo=1, lo_open=True, allow_inf=allow_inf)


def rng(x, name: str = "rng") -> np.random.Generator:
    """A numpy Generator from None (fresh entropy), an integer seed >= 0, or a Generator."""
    if x is None:
        return np.random.default_rng()
    if isinstance(x, np.random.Generator):
        return x
    if isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_)):
        if int(x) < 0:
            raise ValueError(f"{name} must be a numpy.random.Generator, an integer seed >= 0 or "
                             f"None, got the seed {int(x)}")
        return np.random.default_rng(int(x))
    raise ParameterTypeError(f"{name} must be a numpy.random.Generator, an integer seed >= 0 or "
                             f"None, got {_type_name(x)}")


def size(x, name: str = "size"):
    """A sample size: an integer >= 0 or a tuple of them, at most ``MAX_SAMPLE`` entries in all
    (returned as int or tuple)."""
    if isinstance(x, (tuple, list)):
        shape = tuple(count(name, s) for s in x)
        total = math.prod(shape)
    else:
        if x is None:
            raise ParameterTypeError(f"{name} must be an integer >= 0 or a tuple of them, got None")
        shape = total = count(name, x)
    if total > MAX_SAMPLE:
        raise ValueError(f"{name} must be an integer >= 0 with at most {MAX_SAMPLE:.0e} entries in "
                         f"all (stream larger samples in chunks), got {_show(total)}")
    return shape


def instance(name: str, x, cls: type, what: str):
    """``x`` after checking it is an instance of ``cls`` (described as ``what``)."""
    if not isinstance(x, cls):
        raise ParameterTypeError(f"{name} must be {what}, got {_type_name(x)} {quoted(x)}")
    return x


def function(name: str, f):
    """``f`` after checking it is callable."""
    if not callable(f):
        raise ParameterTypeError(f"{name} must be a callable, got {_type_name(f)} {quoted(f)}")
    return f


def choice(name: str, x, options):
    """``x`` after checking it is one of ``options``."""
    if not isinstance(x, str) or x not in options:
        opts = ", ".join(repr(o) for o in options)
        raise ValueError(f"{name} must be one of {opts}, got {quoted(x)}")
    return x


def dps(x, name: str = "dps") -> int:
    """A working precision in decimal digits, in [DPS_MIN, DPS_MAX]: the one rule for every ``dps``
    argument of the library (:func:`countdp.numerics.precision.at_dps`) and for ``--dps``."""
    return count(name, x, lo=DPS_MIN, hi=DPS_MAX)


def to_float(what: str, x, hint: str) -> float:
    """``float(x)`` when float64 holds it to full relative precision (a finite, normal float, or an
    exact 0); otherwise ValueError naming ``what``, its value and ``hint`` (where the
    full-precision value is).  Never an inf, 0.0 or subnormal standing in for a finite number."""
    if isinstance(x, mpmath.mpf) and not mpmath.isfinite(x):
        raise ValueError(f"{what} is {x}; {hint}")
    f = float(x)
    if f == 0.0 and x == 0:
        return 0.0
    if math.isfinite(f) and abs(f) >= _FLOAT_TINY:
        return f
    shown = mpmath.nstr(mpmath.mpf(x), 6) if isinstance(x, (mpmath.mpf, int, Fraction)) else repr(x)
    side = "above" if (math.isinf(f) or abs(f) >= 1) else "below"
    raise ValueError(f"{what} = {shown} is {side} the float64 range; {hint}")


def floats(what: str, a: np.ndarray, hint: str, zero_ok: bool = True) -> np.ndarray:
    """A float64 array of values that are all finite and either 0 or normal (a subnormal has lost
    relative precision, an inf or 0 may stand for a finite value out of range); otherwise
    ValueError naming ``what``, the first bad index and ``hint``.  ``zero_ok=False``: the exact
    values are known to be nonzero, so a 0 is an underflow."""
    a = np.asarray(a, dtype=float)
    bad = ~np.isfinite(a) | ((a != 0) & (np.abs(a) < _FLOAT_TINY))
    if not zero_ok:
        bad |= a == 0
    if np.any(bad):
        i = tuple(int(k) for k in np.argwhere(bad)[0])
        raise ValueError(f"{what} at index {i if len(i) > 1 else i[0] if i else ()} is outside the "
                         f"float64 range ({float(a[bad].flat[0])!r}); {hint}")
    return a


def _show(x) -> str:
    if isinstance(x, (int, np.integer)) and abs(int(x)) > 10 ** 15:
        return f"{mpmath.nstr(mpmath.mpf(x), 6)}"
    if isinstance(x, (float, np.floating)):
        return repr(float(x))
    if isinstance(x, mpmath.mpf):
        return mpmath.nstr(x, 15)
    if isinstance(x, Fraction):
        text = str(x)
        return text if len(text) <= QUOTE_LIMIT else mpmath.nstr(mpmath.mpf(x.numerator) / x.denominator, 6)
    return str(x) if isinstance(x, (int, np.integer)) else repr(x)


def _interval(lo, hi, lo_open, hi_open) -> str:
    a = "(" if lo_open or lo is None else "["
    b = ")" if hi_open or hi is None else "]"
    return f"{a}{'-inf' if lo is None else _show(lo)}, {'inf' if hi is None else _show(hi)}{b}"


def _range(lo, hi, lo_open, hi_open) -> str:
    if lo is None and hi is None:
        return ""
    return " in " + _interval(lo, hi, lo_open, hi_open)


__all__ = ["ParameterTypeError", "real", "count", "counts", "reals", "order", "rng", "size", "instance",
           "function", "choice", "dps", "to_float", "floats", "INT64_MAX",
           "MAX_DRAWS", "MAX_SAMPLE", "DPS_MIN", "DPS_MAX"]
