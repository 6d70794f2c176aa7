"""The error bar that the working precision allows.

A closed form evaluated in mpmath at ``dps`` decimal digits carries a relative rounding error of
a few units in the last place of each operation.  :func:`working_precision` is the one place
that says how many digits a comparison of two such evaluations may lose.
"""

from __future__ import annotations

import mpmath


def working_precision(digits_lost: int = 6, dps: int | None = None) -> mpmath.mpf:
    """``10^-(dps - digits_lost)``: the relative error bar of a chain of mpmath operations at
    ``dps`` digits (default: the current ``mpmath.mp.dps``), allowing ``digits_lost`` digits of
    cancellation and rounding."""
    if digits_lost < 0:
        raise ValueError(f"digits_lost must be >= 0, got {digits_lost}")
    d = mpmath.mp.dps if dps is None else int(dps)
    return mpmath.mpf(10) ** (-(d - digits_lost))
