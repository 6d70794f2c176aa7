"""Moments and masses of a law from its atoms and density (mpmath quadrature).

What the weak version of eq (1) at count 0 constrains: ``E|X - center|``, the mass off a point
and the mass of the two tails ``|X| > t``.  Each is an :class:`Estimate` (value and the
quadrature's error estimate).
"""

from __future__ import annotations

import mpmath

from ..numerics import validate
from ..numerics.estimate import Estimate
from .base import Law
from .expectation import quad_expectation

__all__ = ["expected_distance", "mass_off", "tail_mass"]


def _no_table(law: Law) -> bool:
    """An integer law given only by its pmf (no finite atom table): quad_expectation would see
    neither atoms nor a density there and return 0."""
    return bool(law.integer) and not law.atoms()


def expected_distance(law: Law, center=0) -> Estimate:
    """E|X - center| from the law's atoms and density (quadrature split at ``center``).
    Integer laws need a finite atom table (e.g. FinitePmf)."""
    c = mpmath.mpf(validate.real("center", center))
    if _no_table(law):
        raise ValueError("law must have atoms or a density (an integer law given only by its pmf "
                         "has no finite table to sum)")
    return Estimate(*quad_expectation(law, lambda x: abs(x - c), breaks=(c,)))


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
