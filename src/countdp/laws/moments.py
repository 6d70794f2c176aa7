"""Moments, masses and probabilities of a law by mpmath quadrature of its densities and atoms
(through :func:`countdp.laws.expectation.quad_expectation`): the quadrature routes the checks
compare closed forms with.  Each value is an :class:`Estimate` (value and the quadrature's error
estimate).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mpmath

from ..numerics import validate
from ..numerics.estimate import Estimate
from .base import Law
from .expectation import quad_expectation

__all__ = ["expected_distance", "mass_off", "tail_mass", "LawMoments", "law_moments",
           "probability_at_most"]


def _no_table(law: Law) -> bool:
    """An integer law given only by its pmf (no finite atom table): quad_expectation would see
    neither atoms nor a density there and return 0."""
    return bool(law.integer) and not law.atoms()


def expected_distance(law: Law, center=0, breaks=()) -> Estimate:
    """E|X - center| from the law's atoms and density (quadrature split at ``center`` and at the
    kinks ``breaks``).  Integer laws need a finite atom table (e.g. FinitePmf)."""
    c = mpmath.mpf(validate.real("center", center))
    if _no_table(law):
        raise ValueError("law must have atoms or a density (an integer law given only by its pmf "
                         "has no finite table to sum)")
    return Estimate(*quad_expectation(law, lambda x: abs(x - c), breaks=(c, *breaks)))


def mass_off(law: Law, x=0) -> Estimate:
    """P(X != x): the atoms away from x plus the mass of the density part (by quadrature of 1);
    for an integer law given by its pmf, ``1 - pmf(x)`` exactly."""
    x = mpmath.mpf(validate.real("x", x))
    if _no_table(law):
        at = law.mp_pmf(int(x)) if x == mpmath.floor(x) else mpmath.mpf(0)
        return Estimate(1 - at, 4 * mpmath.eps)
    return Estimate(*quad_expectation(law, lambda y: mpmath.mpf(0) if y == x else mpmath.mpf(1),
                                      breaks=(x,)))


def tail_mass(law: Law, t) -> Estimate:
    """P(|X| > t) for t > 0, from atoms and density (quadrature split at +-t)."""
    t = mpmath.mpf(validate.real("t", t, lo=0))
    if _no_table(law):
        raise ValueError("law must have atoms or a density (pmf-only integer laws are not summed here)")
    return Estimate(*quad_expectation(law, lambda y: mpmath.mpf(1) if abs(y) > t else mpmath.mpf(0),
                                      breaks=(-t, t)))


@dataclass(frozen=True)
class LawMoments:
    """E X and Var X of a law, with one error estimate for both."""

    mean: Any
    variance: Any
    error: Any


def law_moments(law: Law, breaks=()) -> LawMoments:
    """(E X, Var X) by quadrature of x and x^2, split at ``breaks``."""
    m1, e1 = quad_expectation(law, lambda x: x, breaks)
    m2, e2 = quad_expectation(law, lambda x: x * x, breaks)
    return LawMoments(m1, m2 - m1 ** 2, e2 + 2 * abs(m1) * e1 + e1 ** 2)


def probability_at_most(law: Law, t) -> Estimate:
    """P(X <= t) from the law's atoms and a quadrature of its density up to t."""
    tm = mpmath.mpf(validate.real("t", t))
    return Estimate(*quad_expectation(law, lambda x: mpmath.mpf(1) if x <= tm else mpmath.mpf(0), (tm,)))
