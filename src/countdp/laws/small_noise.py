"""The second-order remainder of the multiplicative noise exp(sigma Z - sigma^2) (Section 8).

``g(z) = exp(sigma z - sigma^2) - 1 - sigma z`` is what remains of the noise after its
first-order term; Section 8 uses ``E|g(Z)| = O(sigma^2)``.  Two numerical routes:
:func:`small_noise_remainder` (mpmath quadrature of ``|g| phi``, split at the two zeros of g)
and :func:`small_noise_remainder_draws` (a sampler for Monte Carlo).  The closed-form limit
``E|g(Z)|/sigma^2 -> E|Z^2/2 - 1|`` is :func:`countdp.formulas.small_noise_remainder_limit`.
"""

from __future__ import annotations

from typing import Callable

import mpmath
import numpy as np

from ..numerics import validate
from ..numerics.estimate import Estimate
from ..numerics.tolerance import working_precision


def _remainder(s) -> Callable:
    return lambda z: mpmath.expm1(s * z - s * s) - s * z


def _remainder_zeros(g: Callable, s, tol) -> tuple:
    """The two zeros z1 < sigma < z2 of g: g is convex with minimum -sigma^2 < 0 at z = sigma
    and tends to +inf on both sides, so each side has exactly one; brackets by doubling, then
    root-finding."""
    lo = s - 1
    while g(lo) <= 0:
        lo = s - 2 * (s - lo)
    hi = s + 1
    while g(hi) <= 0:
        hi = s + 2 * (hi - s)
    z1 = mpmath.findroot(g, (lo, s), solver="anderson", tol=tol)
    z2 = mpmath.findroot(g, (s, hi), solver="anderson", tol=tol)
    return z1, z2


def small_noise_remainder(sigma) -> Estimate:
    """``E|exp(sigma Z - sigma^2) - 1 - sigma Z|`` by mpmath quadrature against phi on the three
    pieces between the zeros of g (each sign-definite and smooth).  g ~ sigma^2 is a difference
    of terms ~ sigma, so the work is done with 10 + log10(1/sigma) guard digits; the error bar is
    the quadrature's estimate plus the working precision."""
    s = mpmath.mpf(validate.real("sigma", sigma, lo=0))
    dps = mpmath.mp.dps
    guard = 10 + max(0, int(-mpmath.log10(s)))
    with mpmath.workdps(dps + guard):
        g = _remainder(s)
        z1, z2 = _remainder_zeros(g, s, working_precision(3))
        f = lambda z: abs(g(z)) * mpmath.npdf(z)  # noqa: E731
        pieces = [[-mpmath.inf, z1 - 8, z1 - 2, z1], [z1, s, z2], [z2, z2 + 2, z2 + 8, mpmath.inf]]
        total, err = mpmath.mpf(0), mpmath.mpf(0)
        for p in pieces:
            v, e = mpmath.quad(f, p, error=True)
            total += v
            err += abs(e)
    err += working_precision(3, dps) * total
    return Estimate(+total, +err)


def small_noise_remainder_draws(sigma) -> Callable:
    """A sampler ``draw(rng, m)`` of ``|exp(sigma Z - sigma^2) - 1 - sigma Z| / sigma^2`` (float64,
    expm1 against cancellation) for Monte Carlo with :func:`countdp.numerics.montecarlo.mc_mean`."""
    s = float(validate.real("sigma", sigma, lo=0))

    def draw(rng, m):
        z = rng.standard_normal(m)
        return np.abs(np.expm1(s * z - s * s) - s * z) / (s * s)

    return draw
