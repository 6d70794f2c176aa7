"""The Gaussian law N(mu, s^2) (possibly restricted to an interval)."""

from __future__ import annotations

import mpmath
import numpy as np

from ..numerics import normal, validate
from .base import ContinuousLaw, Density


class GaussianDensity(Density):
    """N(mu, s^2) restricted to ``(lo, hi)`` (the restriction keeps its mass < 1)."""

    def __init__(self, mu, s, lo=-np.inf, hi=np.inf):
        self.mu = mpmath.mpf(validate.real("mu", mu))
        self.s = mpmath.mpf(validate.real("s", s, lo=0))
        lo = validate.real("lo", lo, allow_inf=True)
        hi = validate.real("hi", hi, lo=lo, allow_inf=True)
        self.lo, self.hi = lo, hi

    def mp_logpdf(self, x):
        x = mpmath.mpf(x)
        if not (self.lo < x < self.hi):
            return mpmath.mpf("-inf")
        return normal.mp_log_phi((x - self.mu) / self.s) - mpmath.log(self.s)

    def logpdf(self, x):
        x = np.asarray(x, dtype=float)
        out = normal.log_phi((x - float(self.mu)) / float(self.s)) - np.log(float(self.s))
        return np.where((x > self.lo) & (x < self.hi), out, -np.inf)

    def mass(self):
        a = (mpmath.mpf(self.lo) - self.mu) / self.s if np.isfinite(self.lo) else mpmath.mpf("-inf")
        b = (mpmath.mpf(self.hi) - self.mu) / self.s if np.isfinite(self.hi) else mpmath.mpf("inf")
        return normal.mp_Phi_diff(a, b)

    def t_center_scale(self):
        return self.mu, self.s

class Gaussian(ContinuousLaw):
    """N(mu, s^2)."""

    def __init__(self, mu, s):
        mu = validate.real("mu", mu)
        s = validate.real("s", s, lo=0)
        self.mu, self.s = mpmath.mpf(mu), mpmath.mpf(s)
        super().__init__(GaussianDensity(mu, s), name=f"N({mpmath.nstr(self.mu, 6)}, {mpmath.nstr(self.s, 6)}^2)")

    def cdf(self, x):
        return normal.Phi((np.asarray(x, dtype=float) - float(self.mu)) / float(self.s))

    def sample(self, rng, size):
        return float(self.mu) + float(self.s) * rng.standard_normal(size)
