"""The sup-over-alpha engine's fallback evaluator: F(alpha) = (alpha - 1) D_alpha from the library's
own :func:`countdp.divergence.renyi.renyi` and ``kl`` at every order, for any pair of laws the
library handles that no faster evaluator of :mod:`countdp.divergence.loss_cgf` takes."""

from __future__ import annotations

import math

import mpmath
import numpy as np

from ..laws import Law
from ..numerics.double_exponential import MACH
from ..numerics.estimate import Estimate
from . import renyi
from .loss_cgf import INF, DInfinity, LossCgf
from .tail_growth import Unresolved

__all__ = ["LibraryLossCgf"]


class LibraryLossCgf(LossCgf):
    """Fallback: :func:`countdp.divergence.renyi.renyi` / ``kl`` at every alpha (any laws the
    library handles)."""

    default_ppd = 3
    max_evals = 120

    def __init__(self, P: Law, Q: Law):
        self.P, self.Q = P, Q
        self.route = "the library's Renyi divergence (quadrature/summation) at every alpha"
        k = renyi.kl(P, Q)
        if not k.finite:
            self.infinite_reason = k.reason
        self._kl = k

    def _renyi(self, alpha):
        """renyi.renyi; a pmf sum it can neither finish nor show divergent is :class:`Unresolved`."""
        try:
            return renyi.renyi(self.P, self.Q, alpha)
        except renyi.SumNotConverged as e:
            raise Unresolved(float(alpha), str(e)) from e

    def F(self, alphas):
        out, err = [], []
        for a in np.asarray(alphas, dtype=float):
            d = self._renyi(a)
            if not d.finite:
                out.append(math.inf)
                err.append(0.0)
            else:
                out.append(float(d.value) * (a - 1))
                err.append(float(d.error) * (a - 1) + 8 * MACH * abs(float(d.value)) * (a - 1))
        return Estimate(np.array(out), np.array(err))

    def mp_F(self, alpha):
        d = self._renyi(alpha)
        a1 = mpmath.mpf(alpha) - 1
        return Estimate(d.value * a1, d.error * a1)

    def kl(self):
        return Estimate(self._kl.value, self._kl.error)

    def d_inf(self):
        return DInfinity(INF, "not computed by the library fallback (the large-alpha end is left unbounded)")
