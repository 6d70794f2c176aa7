"""The Laplace law Lap(mu, b): density exp(-|x - mu|/b) / (2b)."""

from __future__ import annotations

import math

import mpmath
import numpy as np

from ..numerics import validate
from .base import ContinuousLaw, Density

__all__ = ["LaplaceDensity", "Laplace"]


class LaplaceDensity(Density):
    """Lap(mu, b): ``exp(-|x - mu|/b) / (2b)``; a kink at mu (``breakpoints``)."""

    def __init__(self, mu, b):
        self.mu = mpmath.mpf(validate.real("mu", mu))
        self.b = mpmath.mpf(validate.real("b", b, lo=0))
        self._mu, self._b = float(self.mu), float(self.b)
        self.breakpoints = (self._mu,)
        self._cache = {}

    def mp_logpdf(self, x):
        prec = mpmath.mp.prec
        c = self._cache.get(prec)
        if c is None:
            c = self._cache[prec] = (mpmath.log(2 * self.b), 1 / self.b)
        return -abs(mpmath.mpf(x) - self.mu) * c[1] - c[0]

    def logpdf(self, x):
        x = np.asarray(x, dtype=float)
        return -np.abs(x - self._mu) / self._b - math.log(2 * self._b)

    def t_center_scale(self):
        return self.mu, self.b


class Laplace(ContinuousLaw):
    """The Laplace law Lap(mu, b) with sampler and cdf."""

    def __init__(self, mu, b):
        d = LaplaceDensity(mu, b)
        self.mu, self.b = d.mu, d.b
        super().__init__(d, name=f"Lap({mpmath.nstr(d.mu, 6)}, {mpmath.nstr(d.b, 6)})")

    def sample(self, rng, size):
        return rng.laplace(float(self.mu), float(self.b), size)

    def cdf(self, x):
        z = (np.asarray(x, dtype=float) - float(self.mu)) / float(self.b)
        return np.where(z < 0, 0.5 * np.exp(np.minimum(z, 0)), 1 - 0.5 * np.exp(-np.maximum(z, 0)))
