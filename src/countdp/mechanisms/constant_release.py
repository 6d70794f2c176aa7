"""The data-independent release of Proposition 2.3: a constant whatever the data.

Its output law is the same point mass at every count, so every Renyi divergence between
neighbours is 0 and the budget is ``v == 0``; its error at count n is ``|value - n|`` exactly
(:func:`countdp.formulas.constant_release_error`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np

from .. import formulas
from ..laws import PointMass
from ..numerics import validate
from ..numerics.rational import to_fraction

__all__ = ["DataIndependentRelease", "ReleaseMargins"]


@dataclass(frozen=True)
class ReleaseMargins:
    """Exact margins ``target(n) - |value - n|`` over the counts 0..n_max: their minimum, the
    first count attaining it, how many counts fail the strict inequality (margin <= 0) and the
    first of them (None when none does)."""

    min_margin: Fraction
    argmin: int
    violations: int
    first_violation: int | None
    counts: int


class DataIndependentRelease:
    """Proposition 2.3: release the constant ``value`` (default 1/2) whatever the data."""

    def __init__(self, value=Fraction(1, 2)):
        self.value = to_fraction("value", value)

    def __repr__(self):
        return f"DataIndependentRelease(value={self.value!r})"

    def released_law(self, n) -> PointMass:
        """The law of the release at count n: delta_value (the same law for every n)."""
        validate.count("n", n)
        return PointMass(mpmath.mpf(self.value.numerator) / self.value.denominator)

    def exact_error(self, n) -> Fraction:
        """E|xhat - n| = |value - n| exactly."""
        return formulas.constant_release_error.exact(validate.count("n", n), self.value)

    def v(self, n) -> int:
        """The count-dependent budget: identically 0 (the law does not depend on the data)."""
        validate.count("n", n)
        return 0

    def release(self, counts, rng: np.random.Generator | None = None) -> np.ndarray:
        """Release a histogram: the constant at every coordinate (``rng`` is not used)."""
        x = validate.counts("counts", counts)
        return np.full(x.shape, float(self.value))

    def margins(self, r, n_max: int, literal: bool = False) -> ReleaseMargins:
        """Exact margins ``target(n) - |value - n|`` for every n = 0..n_max, vectorised.

        ``target`` is ``r max(n,1)`` (eq 2), or ``r n`` (eq 1) with ``literal=True``.  With
        ``value = p/q`` and ``r = u/w`` the margin is ``(u q m(n) - w |p - q n|) / (w q)`` with
        m(n) = max(n, 1) or n: the numerators are int64 (Python integers when int64 could
        overflow), so the sweep is exact integer arithmetic over all counts at once."""
        r = to_fraction("r", r)
        validate.real("r", r, lo=0)
        n_max = validate.count("n_max", n_max)
        if n_max > 10**8:
            raise ValueError(f"n_max must be an integer in [0, 10^8] (one array entry per count), got {n_max}")
        p, q = self.value.numerator, self.value.denominator
        u, w = r.numerator, r.denominator
        bound = max(abs(u * q) * max(n_max, 1), abs(w) * (abs(p) + q * n_max))
        dtype = np.int64 if bound < 2 ** 62 else object  # Python integers when int64 could overflow
        n = np.arange(n_max + 1, dtype=np.int64).astype(dtype)
        m = n if literal else np.maximum(n, 1)
        num = u * q * m - w * np.abs(p - q * n)
        i = int(np.argmin(num))
        bad = np.nonzero(num <= 0)[0]
        return ReleaseMargins(min_margin=Fraction(int(num[i]), w * q), argmin=i,
                              violations=int(bad.size),
                              first_violation=int(bad[0]) if bad.size else None,
                              counts=n_max + 1)
