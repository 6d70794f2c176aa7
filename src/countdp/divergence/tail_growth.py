"""Does int exp(g) diverge, g = log p + (alpha - 1) log(p/q) the log-integrand of a Renyi
integral?  The float route of F(alpha) (:mod:`countdp.divergence.loss_cgf`) reports F = inf only
where this module shows the integral diverging; an order it can neither evaluate nor show
divergent is :class:`Unresolved` -- never an infinite value."""

from __future__ import annotations

from typing import Callable

import mpmath
import numpy as np

from ..numerics.double_exponential import MACH

__all__ = ["Unresolved", "growing_tail", "grows_in_mpmath", "tail_side"]

PROBES = 7          # resolved probes of a tail that decide it
RESOLVED = 0.1      # the largest rounding of g at a probe that counts


class Unresolved(ArithmeticError):
    """The float route could not evaluate F at ``alpha``, and the integral is not shown to
    diverge there: no value (never an infinite one) is known at that order."""

    def __init__(self, alpha: float, why: str):
        super().__init__(f"F at alpha = {alpha:.6g} is not resolved by the float quadrature: {why}")
        self.alpha = alpha


def growing_tail(logs: Callable, a1: float, centre: float, scale: float, lo: float, hi: float) -> str | None:
    """The tail of (lo, hi) in which int exp(g), g = lp + a1 (lp - lq) with ``logs(x) = (lp, lq)``,
    is shown to diverge, else None.  Probes move out from ``centre`` c geometrically (c +- s 2^k
    to an infinite end, e -+ |e - c| 2^-k to a finite end e, each distinct as rounded and more
    than 1e-280 from e); h_k = g(x_k) + log(the probe's distance from c, or from e) is the log
    of one shell's contribution, resolved where both
    log-densities are finite (far out they overflow, which is no evidence) and the rounding
    a1 4 MACH (|lp| + |lq| + 1) + 4 MACH (|lp| + 1) is below 0.1.  Divergence: over the last seven
    resolved probes h_k rises, each step beyond the rounding (the shells grow), and the slope of g
    between probes does not fall beyond it (g at least linear: a peak further out bends g down
    first, e.g. -x^2/2 - a1 x for a Gaussian location pair at a large order, whose peak at
    x = -a1 the float probes cannot reach)."""
    k = np.arange(0, 1100, dtype=float)
    for out, end in ((1, hi), (-1, lo)):
        with np.errstate(all="ignore"):
            if np.isfinite(end):
                xs = end - out * (abs(end - centre) * 2.0 ** -k)
                dist = np.abs(end - xs)            # as rounded: next to the end x stops at its ulp
            else:
                dist = scale * 2.0 ** k
                xs = centre + out * dist
            inside = np.isfinite(xs) & (xs > lo) & (xs < hi) & (dist > 1e-280)
            inside &= np.r_[True, np.diff(xs) != 0]
            xs, dist = xs[inside], dist[inside]
            lp, lq = logs(xs)
            noise = a1 * 4 * MACH * (np.abs(lp) + np.abs(lq) + 1) + 4 * MACH * (np.abs(lp) + 1)
            g = lp + a1 * (lp - lq)
            ok = np.isfinite(g) & np.isfinite(lq) & (noise <= RESOLVED)
            grows = _shells_grow(xs[ok], g[ok], (g + np.log(dist))[ok], noise[ok])
        if grows:
            return f"the integrand grows in the {'upper' if out > 0 else 'lower'} tail"
    return None


def _shells_grow(xs, gs, hs, ns) -> bool:
    """The criterion of :func:`growing_tail` on the resolved probes (x, g, h, the rounding of g),
    in float64 arrays or lists of mpmath numbers: over the last seven, h rises at every step
    beyond the rounding, and the slope of g between probes does not fall beyond it."""
    if len(hs) < PROBES:
        return False
    xs, gs, hs, ns = (list(v[-PROBES:]) for v in (xs, gs, hs, ns))
    slack = [ns[j] + ns[j + 1] for j in range(PROBES - 1)]
    dx = [abs(xs[j + 1] - xs[j]) for j in range(PROBES - 1)]
    slopes = [(gs[j + 1] - gs[j]) / dx[j] for j in range(PROBES - 1)]
    rising = all(hs[j + 1] - hs[j] - slack[j] > 0 for j in range(PROBES - 1))
    convex = all(slopes[j + 1] - slopes[j] + slack[j + 1] / dx[j + 1] + slack[j] / dx[j] >= 0
                 for j in range(PROBES - 2))
    return rising and convex


def tail_side(why: str) -> int:
    """+1 for the upper tail, -1 for the lower, in a reason of :func:`growing_tail`."""
    return 1 if "upper tail" in why else -1


def grows_in_mpmath(mp_logs: Callable, a1, centre, scale, side: int, extra_bits: int = 256) -> bool:
    """:func:`growing_tail`'s test on one infinite tail again, the log-densities
    ``mp_logs(x) = (lp, lq)`` and g read in mpmath at ``extra_bits`` more bits: the probes
    c + side s 2^k resolve for as long as a1 eps (|lp| + |lq| + 1) + eps (|lp| + 1), times 4, stays
    below 0.1 (eps of the raised precision), some 10^70 times further out than in float64.  A rise
    toward a peak beyond float64's reach then shows its fall (GG_4(0) against GG_4(1) at
    alpha = 1000: g rises, convex, to x = -15000, where a1 |log p| rounds by 3e3 in float64)."""
    with mpmath.workprec(mpmath.mp.prec + extra_bits):
        a1, eps = mpmath.mpf(a1), mpmath.eps
        xs, gs, hs, ns = [], [], [], []
        for k in range(1100):
            dist = mpmath.mpf(scale) * mpmath.mpf(2) ** k
            x = mpmath.mpf(centre) + side * dist
            lp, lq = mp_logs(x)
            if not (mpmath.isfinite(lp) and mpmath.isfinite(lq)):
                continue
            noise = a1 * 4 * eps * (abs(lp) + abs(lq) + 1) + 4 * eps * (abs(lp) + 1)
            if noise > RESOLVED:
                break
            g = lp + a1 * (lp - lq)
            xs, gs, hs, ns = xs + [x], gs + [g], hs + [g + mpmath.log(dist)], ns + [noise]
        return _shells_grow(xs, gs, hs, ns)
