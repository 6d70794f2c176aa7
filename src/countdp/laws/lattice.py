"""Sequences on the shifted lattice x_k = k + theta (k in Z, 0 <= theta < 1): the primal and dual
objects of the least unit-shift divergence problems (:mod:`countdp.divergence.lattice_shift`).

* :class:`LatticeLaw`: a positive sequence (a law up to its mass) given on a window by
  V_k = -log p_k and continued outside with its end log-ratios (geometric tails);
* :class:`DualSequence`: log-ratios u_k = log(p_{k-1}/p_k) on the sites L .. F, constant outside,
  with the float64 dual bound they give (a certificate once decided in balls by
  :mod:`countdp.arb.lattice_shift`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["LatticeLaw", "DualSequence"]


@dataclass(frozen=True)
class LatticeLaw:
    """A positive sequence on x_k = k + theta, k = k0 .. k0 + len(V) - 1, as V_k = -log p_k (up to
    a constant), continued outside the window with its end log-ratios (geometric tails)."""

    theta: float
    k0: int
    V: np.ndarray

    @property
    def k(self) -> np.ndarray:
        return self.k0 + np.arange(len(self.V))

    @property
    def x(self) -> np.ndarray:
        return self.k + self.theta

    @property
    def end_ratios(self) -> tuple[float, float]:
        """(u at the left end, u at the right end): p_{k-1}/p_k = e^u beyond the window."""
        return float(self.V[1] - self.V[0]), float(self.V[-1] - self.V[-2])


@dataclass(frozen=True)
class DualSequence:
    """u_k for k = L .. F (``u[0]`` = u_L); u_k = u_L for k < L and u_k = u_F for k > F.
    ``bound`` (float64) = min over the sites L-1 .. F of W(k) + lam |x_k| (the sites beyond add
    nothing, see :mod:`countdp.divergence.lattice_dual`); the dual value at M is bound - lam M."""

    kind: str
    theta: float
    lam: float
    mu: float
    L: int
    u: np.ndarray
    bound: float

    @property
    def F(self) -> int:
        return self.L + len(self.u) - 1

    def dual_value(self, M) -> float:
        return self.bound - self.lam * float(M)
