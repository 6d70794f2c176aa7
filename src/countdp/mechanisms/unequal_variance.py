"""The unequal-variance Gaussian mechanism of Section 7: ``X_n ~ N(n, r^2 n^2)`` (eq 33), with
``X_0 = N(0, 0) = delta_0``.

It has the right scale of error (:func:`countdp.formulas.unequal_variance_error`) but its
neighbouring laws have unequal variances: by Lemma 7.1 the reverse divergence
D_alpha(X_{n+1} || X_n) is infinite from the order (n+1)^2/(2n+1) of eq (35) on, and the
boundary edge 0 <-> 1 is infinite at every order (X_1 has mass where delta_0 has none).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np

from .. import formulas
from ..laws import Gaussian, Law, PointMass
from ..numerics import validate

__all__ = ["UnequalVarianceGaussian"]


class UnequalVarianceGaussian:
    """eq (33): ``X_n ~ N(n, r^2 n^2)`` for n >= 1 and ``X_0 = N(0, 0) = delta_0``."""

    def __init__(self, r):
        self.r = validate.real("r", r, lo=0)

    def __repr__(self):
        return f"UnequalVarianceGaussian(r={self.r!r})"

    def law(self, n) -> Law:
        """The output law at count n: N(n, s^2) with s = r n (eq 33), the point mass delta_0
        at n = 0 where s = 0."""
        n = validate.count("n", n)
        s = formulas.unequal_variance_scale(n, mpmath.mpf(self.r))
        if s == 0:
            return PointMass(n)
        return Gaussian(n, s)

    def expected_abs_error(self, n):
        """E|X_n - n| = r n sqrt(2/pi) (the scale of eq 2 at positive counts)."""
        return formulas.unequal_variance_error(validate.count("n", n), self.r)

    def order_threshold(self, n) -> Fraction:
        """eq (35): the reverse divergence D_alpha(X_{n+1} || X_n), n >= 1, is finite iff
        ``alpha < (n+1)^2 / (2n+1)`` (whatever r); returned exactly."""
        return formulas.unequal_variance_threshold.exact(validate.count("n", n, lo=1))

    def sample(self, n, rng: np.random.Generator, size) -> np.ndarray:
        """Draws of X_n; ``rng``: a Generator, an integer seed or None."""
        n = validate.count("n", n)
        rng, size = validate.rng(rng), validate.size(size)
        return n + formulas.unequal_variance_scale.fp(n, float(self.r)) * rng.standard_normal(size)
