"""Numbers as decimal text: ``digits`` significant digits at full range (a value beyond float64
is written as it is, never as inf or 0.0), the one formatter of the reports and the budget
calculator."""

from __future__ import annotations

import mpmath

__all__ = ["significant"]


def significant(x, digits: int, max_fixed: int | None = None, min_fixed: int = -4) -> str:
    """``x`` at ``digits`` significant digits: fixed-point while the leading digit's position lies
    strictly between ``min_fixed`` and ``max_fixed`` (default ``digits``), ``1.5e-7`` beyond;
    ``0`` for 0, ``inf`` / ``-inf``.  An mpf is written as it is (converting it would round it to
    the working precision); other reals go through mpmath.

    >>> significant(mpmath.mpf(2) / 3, 4), significant(1e-300, 3), significant(0, 5)
    ('0.6667', '1.0e-300', '0')
    """
    if not isinstance(x, mpmath.mpf):
        x = mpmath.mpf(x)
    if mpmath.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "0"
    return mpmath.nstr(x, digits, min_fixed=min_fixed,
                       max_fixed=digits if max_fixed is None else max_fixed)
