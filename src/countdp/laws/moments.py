"""Moments and probabilities of a law by mpmath quadrature of its densities and atoms (through
:func:`countdp.laws.expectation.quad_expectation`): the quadrature routes the checks compare
closed forms with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mpmath

from ..numerics import validate
from ..numerics.estimate import Estimate
from .base import Law
from .expectation import quad_expectation

__all__ = ["expected_abs", "LawMoments", "law_moments", "probability_at_most"]


def expected_abs(law: Law, about=0, breaks=()) -> Estimate:
    """E|X - about| by quadrature, split at ``about`` and at ``breaks`` (kinks)."""
    a = mpmath.mpf(validate.real("about", about))
    return Estimate(*quad_expectation(law, lambda x: abs(x - a), (a, *breaks)))


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
