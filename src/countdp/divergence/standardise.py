"""A pair of laws in the coordinate of P's own location and scale, u = (x - c)/s.

Every divergence is invariant under one bijection applied to both laws, and the quadratures of
:mod:`countdp.divergence.renyi` and :mod:`countdp.divergence.loss_cgf` place their nodes in
float64 relative to the densities' centre and scale: a scale of 1e-15 or 1e20 leaves them too
few digits (nodes and widths underflow, a peak's curvature is lost).  In the coordinate u the
pair has scale 1 whatever the scale it came with, so both engines see the pair they handle
best.  Used when P's scale is outside [1e-3, 1e3] and both laws have identity-coordinate
densities (integer laws and other coordinates are left as they are).
"""

from __future__ import annotations

import mpmath
import numpy as np

from ..laws import ContinuousLaw, Density, Law, MixedLaw

__all__ = ["AffineDensity", "standardised"]

_SCALE_RANGE = (1e-3, 1e3)   # scales the float64 node placement handles without rescaling


class AffineDensity(Density):
    """The density of (X - c)/s for X with density ``base`` (s > 0): base(c + s u) s."""

    def __init__(self, base: Density, c, s):
        self.base, self.c, self.s = base, mpmath.mpf(c), mpmath.mpf(s)
        self.lo = self._to_u(base.lo)
        self.hi = self._to_u(base.hi)
        self.breakpoints = tuple(float(self._to_u(b)) for b in getattr(base, "breakpoints", ()))

    def _to_u(self, x):
        if not np.isfinite(float(x)):
            return float(x)
        return float((mpmath.mpf(x) - self.c) / self.s)

    def mp_logpdf(self, u):
        return self.base.mp_logpdf(self.c + self.s * mpmath.mpf(u)) + mpmath.log(self.s)

    def logpdf(self, u):
        with np.errstate(over="ignore", invalid="ignore"):  # x = +-inf far out: the density is 0 there
            x = float(self.c) + float(self.s) * np.asarray(u, dtype=float)
            return np.asarray(self.base.logpdf(x), dtype=float) + float(mpmath.log(self.s))

    @property
    def float_origin(self) -> float:
        """|c|/s: the float64 logpdf reads the base at c + s u, rounded to MACH (|c| + s |u|)."""
        return float(abs(self.c) / self.s)

    def mass(self):
        return self.base.mass()

    def t_center_scale(self):
        c, s = self.base.t_center_scale()
        return (mpmath.mpf(c) - self.c) / self.s, mpmath.mpf(s) / self.s


def _identity(L: Law) -> bool:
    return not L.integer and L.density is not None and L.density.coordinate_key() == ("identity",)


def _mapped(L: Law, c, s) -> Law:
    dens = AffineDensity(L.density, c, s)
    atoms = {(x - c) / s: m for x, m in L.atoms().items()}
    return MixedLaw(atoms, dens, name=L.describe()) if atoms else ContinuousLaw(dens, name=L.describe())


def standardised(P: Law, Q: Law) -> tuple[Law, Law, object, object] | None:
    """(P, Q, c, s): the pair in u = (x - c)/s, c and s P's centre and scale, when s is outside
    [1e-3, 1e3] and both laws have identity-coordinate densities, else None (the pair is handled
    as it is)."""
    if not (_identity(P) and _identity(Q)):
        return None
    try:
        c, s = (mpmath.mpf(v) for v in P.density.t_center_scale())
    except NotImplementedError:
        return None
    if not s > 0 or _SCALE_RANGE[0] <= s <= _SCALE_RANGE[1]:
        return None
    return _mapped(P, c, s), _mapped(Q, c, s), c, s
