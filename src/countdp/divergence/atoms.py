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
from ..numerics.precision import guard_digits
from ..numerics.rational import to_fraction
from .renyi import INF, Divergence

__all__ = ["renyi_atoms", "IndicatorLaw", "indicator_pushforward"]

_METHOD = "definition on atoms"


def renyi_atoms(p: dict, q: dict, alpha) -> Divergence:
    """D_alpha(P || Q) of two finitely supported laws (tables {point: mass}) from the definition,
    with the convention that a point where ``p > 0 = q`` makes the sum infinite (the reason is
    reported).  Masses may be Fractions: for an integer order the sum is then exact and only the
    final logarithm is rounded.  The error bounds the rounding (a few ulps of the value, or the
    terms' rounding for float masses)."""
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
        value = _exact_sum_log(p, q, int(alpha_v))
        return Divergence(value, 2 * mpmath.eps * abs(value), _METHOD, alpha_v)
    value, err = _guarded_sum_log(p, q, _mp(alpha_v))
    return Divergence(value, err, _METHOD, alpha_v)


def _exact_sum_log(p: dict, q: dict, a: int) -> mpmath.mpf:
    """log(sum p^a q^(1-a)) / (a - 1) with the sum in exact rational arithmetic, its excess over 1
    taken exactly (log1p: the divergence of two close laws keeps its digits), then rounded once."""
    total = sum((Fraction(px) ** a * Fraction(q[x]) ** (1 - a) for x, px in p.items() if px > 0),
                Fraction(0))
    excess = total - 1
    with guard_digits(20):
        value = mpmath.log1p(mpmath.mpf(excess.numerator) / excess.denominator) / (a - 1)
    return +value


def _guarded_sum_log(p: dict, q: dict, a) -> tuple:
    """(value, error) of log(sum p^a q^(1-a)) / (a - 1) for a non-integer order or float masses:
    the terms and their sum with 20 guard digits (two close laws: a sum 1 + 4e-24 must not round to
    1 at the working precision), each term's rounding (a |log p| + |1 - a| |log q| + 4 units of
    the guard precision, relative) summed into the error, then rounded once."""
    with guard_digits(20):
        pairs = [(_mp(px), _mp(q[x])) for x, px in p.items() if px > 0]
        terms = [pp ** a * qq ** (1 - a) for pp, qq in pairs]
        total = mpmath.fsum(terms)
        spread = mpmath.eps * mpmath.fsum(t * (abs(a * mpmath.log(pp)) + abs((1 - a) * mpmath.log(qq)) + 4)
                                          for t, (pp, qq) in zip(terms, pairs))
        value = mpmath.log(total) / (a - 1)
        err = spread / total / (a - 1)
    value = +value
    return value, +(err + mpmath.eps * abs(value))


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
