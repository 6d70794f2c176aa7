"""Power series at the working precision: products, reciprocals and compositional inverses
(Lagrange inversion), and the Maclaurin coefficients of erf and of its inverse.

The inverse's coefficients give a route to eq (13) that never evaluates erfinv:
``Phi^{-1}((1+r)/2) = sqrt(2) erfinv(r)`` with erfinv's series obtained by reversing erf's.
"""

from __future__ import annotations

from typing import Sequence

import mpmath

from . import validate


def series_product(a: Sequence, b: Sequence, order: int) -> list:
    """Coefficients 0..order of the product of two power series."""
    out = [mpmath.mpf(0)] * (order + 1)
    for i, ai in enumerate(a[: order + 1]):
        if ai == 0:
            continue
        for j, bj in enumerate(b[: order + 1 - i]):
            out[i + j] += ai * bj
    return out


def series_reciprocal(a: Sequence, order: int) -> list:
    """Coefficients 0..order of 1 / (sum_k a_k x^k), a_0 != 0."""
    if a[0] == 0:
        raise ValueError("series must have a nonzero constant term to be inverted")
    out = [mpmath.mpf(0)] * (order + 1)
    out[0] = 1 / mpmath.mpf(a[0])
    for k in range(1, order + 1):
        s = mpmath.fsum(a[j] * out[k - j] for j in range(1, min(k, len(a) - 1) + 1))
        out[k] = -s / a[0]
    return out


def erf_series(order: int) -> list:
    """Maclaurin coefficients of erf: ``erf(y) = (2/sqrt(pi)) sum_k (-1)^k y^(2k+1) / (k! (2k+1))``."""
    order = validate.count("order", order, lo=1)
    b = [mpmath.mpf(0)] * (order + 1)
    for k in range((order - 1) // 2 + 1):
        b[2 * k + 1] = 2 / mpmath.sqrt(mpmath.pi) * (-1) ** k / (mpmath.factorial(k) * (2 * k + 1))
    return b


def reverse_series(b: Sequence, order: int) -> list:
    """Coefficients of the compositional inverse g of ``f(y) = sum_{k>=1} b_k y^k`` (b_0 = 0,
    b_1 != 0), by Lagrange inversion: ``[x^m] g = (1/m) [y^(m-1)] (y / f(y))^m``."""
    order = validate.count("order", order, lo=1)
    b = [mpmath.mpf(v) for v in b]
    if len(b) < 2 or b[0] != 0 or b[1] == 0:
        raise ValueError("b must have b_0 = 0 and b_1 != 0")
    f_over_y = b[1:] + [mpmath.mpf(0)] * (order + 1)
    base = series_reciprocal(f_over_y[: order + 1], order)  # y / f(y)
    a = [mpmath.mpf(0)] * (order + 1)
    power = [mpmath.mpf(1)] + [mpmath.mpf(0)] * order
    for m in range(1, order + 1):
        power = series_product(power, base, order)
        a[m] = power[m - 1] / m
    return a


def inverse_half_series(order: int = 7) -> list:
    """Maclaurin coefficients of ``Phi^{-1}((1+r)/2) = sqrt(2) erfinv(r)``, with erfinv's series
    obtained by reversing erf's (so ``[r^1] = sqrt(pi/2)``, ``[r^3] = sqrt(pi/2) pi/12``)."""
    a = reverse_series(erf_series(order), order)
    return [mpmath.sqrt(2) * x for x in a]
