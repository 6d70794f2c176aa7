"""The working precision: one convention for the whole library.

Every mpmath computation works at the ambient precision (``mpmath.mp``), as mpmath's own
functions do; the caller sets it with ``mpmath.workdps`` (the command line's ``--dps`` sets it
around each claim).  A function that takes a ``dps`` argument reads None as "the ambient
precision" and a number as "this many decimal digits for this call", checked against the one
supported range :func:`countdp.numerics.validate.dps`; :func:`at_dps` is that rule.

Guard digits.  Where the mathematics loses digits (cancellation, a long accumulation of
roundings, a Newton iteration that must converge past the target), a computation raises the
precision by a fixed number of digits *relative to the ambient one* with :func:`guard_digits`,
and rounds its results back (unary ``+``) once the block has closed.  Each call site says why it
needs its guard.  (The exact Airy evaluation adds guard *bits* to the binary precision it is
cached at; see :mod:`countdp.laws.airy.mp_values`.)

Float64 results do not depend on the ambient precision: a float that comes from an mpmath value
is rounded from :data:`FLOAT_DPS` digits.
"""

from __future__ import annotations

from contextlib import contextmanager, nullcontext

from mpmath import mp

from . import validate

#: the decimal digits a float64 result is rounded from, whatever the ambient precision (53 bits
#: need 17; 30 leave the rounding of the mpmath route far below the last bit)
FLOAT_DPS = 30


def at_dps(dps=None):
    """The context of a call with a ``dps`` argument: the ambient precision when ``dps`` is None,
    else ``dps`` decimal digits (ValueError outside :func:`countdp.numerics.validate.dps`)."""
    return nullcontext() if dps is None else mp.workdps(validate.dps(dps))


@contextmanager
def guard_digits(digits: int):
    """The block at the ambient precision plus ``digits`` decimal guard digits."""
    with mp.workdps(mp.dps + digits):
        yield


__all__ = ["FLOAT_DPS", "at_dps", "guard_digits"]
