"""Densities written out for the tests of the divergence engines: laws that no closed form and
no special route of the library knows, built on the library's normal density where one is
needed (never a formula of their own)."""

from __future__ import annotations

import math

import mpmath
import numpy as np

from countdp.laws import CallableDensity, ContinuousLaw, Density, Gaussian


def normal_part(weight, hole: bool = False) -> CallableDensity:
    """``weight`` times the N(0, 1) density, a density part of that mass; with ``hole`` zero on
    [-1, 1] (its mass then P(|Z| > 1) times ``weight``), the jumps at +-1 declared as breakpoints."""
    std = Gaussian(0, 1).density
    weight = mpmath.mpf(weight)
    lwf = math.log(weight)

    def logp(x):  # the weight's log at the precision the density is read at
        return -mpmath.inf if hole and abs(x) <= 1 else std.mp_logpdf(x) + mpmath.log(weight)

    def np_logp(x):
        x = np.asarray(x, dtype=float)
        out = std.logpdf(x) + lwf
        return np.where(np.abs(x) <= 1, -np.inf, out) if hole else out

    return CallableDensity(logp, np_logpdf=np_logp, mass=weight * 2 * mpmath.ncdf(-1) if hole else weight,
                           breakpoints=(-1, 1) if hole else ())


class UnplacedNormal(Density):
    """N(1, 1) by its log-density alone: it gives the quadrature no centre and scale."""

    def mp_logpdf(self, x):
        return Gaussian(1, 1).density.mp_logpdf(x)


def logistic(m) -> ContinuousLaw:
    """The logistic law at location ``m``, scale 1, its log-density written out in both number
    systems."""
    m = mpmath.mpf(m)
    fm = float(m)
    return ContinuousLaw(CallableDensity(lambda x: -(x - m) - 2 * mpmath.log1p(mpmath.exp(-(x - m))),
                                         center=fm, scale=1.0,
                                         np_logpdf=lambda x: -(x - fm) - 2 * np.log1p(np.exp(-(x - fm)))))
