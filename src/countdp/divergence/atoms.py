"""Renyi divergence of finitely supported laws straight from the definition, and the
pushforward of a law to the indicator 1{X != x} (data processing).

    D_alpha(P || Q) = 1/(alpha - 1) log sum_x p(x)^alpha q(x)^(1-alpha),

infinite as soon as P has mass where Q has none.  By data processing, the divergence between
the two-point laws of 1{X != x} under P and Q is a lower bound on D_alpha(P || Q): a point mass
at x against a law with mass off x is infinitely far apart at every order.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np

from ..laws import Law
from ..laws.moments import mass_off
from ..numerics import validate
from ..numerics.rational import to_fraction
from .renyi import INF, Divergence

__all__ = ["renyi_atoms", "IndicatorLaw", "indicator_pushforward"]

_METHOD = "definition on atoms"


def renyi_atoms(p: dict, q: dict, alpha) -> Divergence:
    """D_alpha(P || Q) of two finitely supported laws (tables {point: mass}) from the definition,
    with the convention that a point where ``p > 0 = q`` makes the sum infinite (the reason is
    reported).  Masses may be Fractions: for an integer order the sum is then exact and only the
    final logarithm is rounded.  The error field is 0 (rounding only)."""
    alpha_v = validate.order(alpha)
    for name, d in (("p", p), ("q", q)):
        if not isinstance(d, dict) or not d or any(to_fraction(name, m) < 0 for m in d.values()):
            raise ValueError(f"{name} must be a nonempty table of masses >= 0")
    for x, px in p.items():
        if px > 0 and q.get(x, 0) == 0:
            return Divergence(INF, mpmath.mpf(0), _METHOD, alpha_v,
                              f"support mismatch: P has mass {px} at {x} where Q has none")
    integer_order = isinstance(alpha_v, (int, np.integer)) or (
        isinstance(alpha_v, Fraction) and alpha_v.denominator == 1)
    if integer_order and all(isinstance(m, (int, Fraction)) for m in [*p.values(), *q.values()]):
        return Divergence(_exact_sum_log(p, q, int(alpha_v)), mpmath.mpf(0), _METHOD, alpha_v)
    a = _mp(alpha_v)
    total = mpmath.fsum(_mp(px) ** a * _mp(q[x]) ** (1 - a) for x, px in p.items() if px > 0)
    return Divergence(mpmath.log(total) / (a - 1), mpmath.mpf(0), _METHOD, alpha_v)


def _exact_sum_log(p: dict, q: dict, a: int) -> mpmath.mpf:
    """log(sum p^a q^(1-a)) / (a - 1) with the sum in exact rational arithmetic."""
    total = sum((Fraction(px) ** a * Fraction(q[x]) ** (1 - a) for x, px in p.items() if px > 0),
                Fraction(0))
    if total == 1:
        return mpmath.mpf(0)
    return mpmath.log(mpmath.mpf(total.numerator) / total.denominator) / (a - 1)


def _mp(v) -> mpmath.mpf:
    if isinstance(v, mpmath.mpf):
        return v
    f = to_fraction("mass", v)
    return mpmath.mpf(f.numerator) / f.denominator


@dataclass(frozen=True)
class IndicatorLaw:
    """The law of 1{X != x} as the table ``{0: P(X = x), 1: P(X != x)}`` (mpf masses) and the
    quadrature error of P(X != x)."""

    masses: dict
    error: mpmath.mpf


def indicator_pushforward(law: Law, x=0) -> IndicatorLaw:
    """The law of ``1{X != x}`` from :func:`countdp.laws.moments.mass_off`.  A Renyi divergence
    between two such pushforwards lower-bounds the divergence between the laws."""
    off = mass_off(law, x)
    return IndicatorLaw({0: 1 - off.value, 1: off.value}, off.error)
