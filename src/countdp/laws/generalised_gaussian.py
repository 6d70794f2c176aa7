"""The generalised Gaussian law f_p(x) = exp(-|x|^p) / (2 Gamma(1 + 1/p)), shifted by ``loc``.

p = 2 is a Gaussian with variance 1/2.  The score is ``s(x) = p |x|^{p-1} sign(x)``; for p > 2
it is not sub-Gaussian (its cumulant generating function grows like u^p), which makes these
laws the comparison laws of the negative controls of the Airy law's claims.
"""

from __future__ import annotations

import math

import mpmath
from mpmath import mp
import numpy as np

from ..numerics import validate
from .base import ContinuousLaw, Density

__all__ = ["GeneralisedGaussianDensity", "GeneralisedGaussian"]


class GeneralisedGaussianDensity(Density):
    """f_p(x - loc) with f_p(x) = exp(-|x|^p) / (2 Gamma(1 + 1/p)), p > 1; a kink at loc."""

    def __init__(self, p, loc=0.0):
        self.p = mpmath.mpf(validate.real("p", p, lo=1))
        self.loc = float(validate.real("loc", loc))
        self._p = float(self.p)
        self._log_norm = math.log(2 * math.gamma(1 + 1 / self._p))
        self.breakpoints = (self.loc,)

    def mp_logpdf(self, x):
        with mp.workprec(mp.prec + 10):
            log_norm = mpmath.log(2 * mpmath.gamma(1 + 1 / self.p))
            return -abs(mpmath.mpf(x) - mpmath.mpf(self.loc)) ** self.p - log_norm

    def logpdf(self, x):
        return -np.abs(np.asarray(x, dtype=float) - self.loc) ** self._p - self._log_norm

    def mp_score(self, x):
        """s(x) = -(log f)'(x) = p |x - loc|^{p-1} sign(x - loc)."""
        z = mpmath.mpf(x) - mpmath.mpf(self.loc)
        return self.p * abs(z) ** (self.p - 1) * mpmath.sign(z)

    def t_center_scale(self):
        return mpmath.mpf(self.loc), mpmath.mpf(1)


class GeneralisedGaussian(ContinuousLaw):
    """The law with density f_p(x - loc) (see :class:`GeneralisedGaussianDensity`)."""

    def __init__(self, p, loc=0.0):
        density = GeneralisedGaussianDensity(p, loc)
        self.p, self.loc = density.p, density.loc
        super().__init__(density, name=f"exp(-|x|^{float(self.p):g}) (shift {self.loc:g})")
