"""Shared by the Airy checks (cstar_airy_law.py, cstar_airy.py): the rounding allowance and the
Richardson error bar their comparisons use, and the mistaken constants both catalogues inject."""

from __future__ import annotations

import flint
import mpmath
from scipy import special

from countdp import formulas

from countdp.numerics.estimate import Estimate
from countdp.numerics.sequences import richardson
from countdp.numerics.tolerance import working_precision

def _mp(x):
    return mpmath.mpf(x)


def _rounding(x=1):
    """Rounding allowance at the working precision (5 digits lost), relative to x."""
    return working_precision(5) * max(abs(mpmath.mpf(x)), mpmath.mpf("1e-300"))


def _extrapolate(hs, values, powers) -> Estimate:
    """Richardson extrapolation to h = 0 (numerics.sequences.richardson) with the error bar these
    checks use: when every point is used (no spare point), the bar also holds the change from
    the same extrapolation one order lower on all but the finest point -- the coarsest points
    carry the truncation error, and without it the bar can fall below the actual error."""
    ext = richardson(hs, values, powers)
    k = min(len(powers), len(hs) - 1)
    if len(hs) > k + 1 or k < 2:
        return Estimate(ext.value, ext.error)
    order = sorted(range(len(hs)), key=lambda i: -abs(mpmath.mpf(hs[i])))[:-1]  # drop the finest
    coarse = richardson([hs[i] for i in order], [values[i] for i in order], powers[:k - 1])
    return Estimate(ext.value, max(ext.error, abs(ext.value - coarse.value)))


# ---- mistaken constants of the fault catalogues ---------------------------------------------


def _first_zero_of_ai(ctx):
    """a1 ~ -2.3381, the first zero of Ai: the mistake of taking Ai's zero for Ai''s."""
    if ctx.name == "ball":
        return flint.arb.airy_ai_zero(1)
    if ctx.name == "fp":
        return float(special.ai_zeros(1)[0][0])
    return mpmath.airyaizero(1)


def _abs_a1p(ctx, a1p):
    return abs(formulas.airy_prime_zero(ctx) if a1p is None else ctx.convert(a1p))


def _limit_constant_squared(ctx, a1p=None):
    a = _abs_a1p(ctx, a1p)
    return 8 * a * a / 27                                    # |a1'|^2 for |a1'|^3
