"""Certified statements about the drift of the log-space noise (Section 4.1).

For the factor exp(sigma Z - a): enclosed integrals of E|exp(sigma Z - a) - 1|, of its
derivative in a (differentiated under the integral) and of E exp(sigma Z - a), each from the
integrand as written with the tail bounds (G+), (G-) of :mod:`countdp.arb.integrals`; and a
branch and bound on a-boxes that locates the minimiser a = sigma^2 through the sign of the
closed-form derivative ``formulas.drift_error_derivative``.
"""

from __future__ import annotations

import time

from flint import arb, ctx

from .. import formulas
from .integrals import gauss_tail_lower, gauss_tail_upper, integrate, sqrt_2pi, tail_width, upper_point
from .ranges import RangeResult, bisect, merge, split_at_midpoint, tally
from .verdicts import (Undecided, ball_str, decide_gt, decide_lt, interval, nonneg_interval,
                       sym_interval, to_arb)

__all__ = ["drift_error_integral", "drift_derivative_integral", "drift_mean_integral",
           "certify_drift_argmin"]


def drift_error_integral(sigma, a) -> arb:
    """Certified E|exp(sigma Z - a) - 1| (Section 4.1) split at z0 = a/sigma; tails:
    left <= e^{-T^2/2}/T (G-, b = 0), right <= e^{-a} e^{-T^2/2 + sigma T}/(T - sigma) (G+).
    Needs -T < z0 < T (T = |z0| + sigma + t0)."""
    a, s = to_arb(a), to_arb(sigma)
    z0 = a / s
    T = upper_point(abs(z0) + s + tail_width())
    left = integrate(lambda z: (1 - (s * z - a).exp()) * (-z * z / 2).exp(), -T, z0)
    right = integrate(lambda z: ((s * z - a).exp() - 1) * (-z * z / 2).exp(), z0, T)
    tails = gauss_tail_lower(-T, 0) + (-a).exp() * gauss_tail_upper(T, s)
    return (left + right + nonneg_interval(tails)) / sqrt_2pi()


def drift_derivative_integral(sigma, a) -> arb:
    """Certified d/da E|e^{sigma Z - a} - 1| = E[e^{sigma Z - a} (1{Z < a/sigma} - 1{Z > a/sigma})]
    (differentiation under the integral; dominated by e^{sigma Z}). Split at z0 = a/sigma;
    tails: |integrand| <= e^{-a} e^{-z^2/2 + sigma z}/sqrt(2 pi), (G-)/(G+) with b = sigma;
    the signed tails enter as [-tail, tail]."""
    a, s = to_arb(a), to_arb(sigma)
    z0 = a / s
    T = upper_point(abs(z0) + s + tail_width())

    def f(z):
        return (s * z - a - z * z / 2).exp()

    core = integrate(f, -T, z0) - integrate(f, z0, T)
    tails = (-a).exp() * (gauss_tail_lower(-T, s) + gauss_tail_upper(T, s))
    return (core + sym_interval(tails)) / sqrt_2pi()


def drift_mean_integral(sigma, a) -> arb:
    """Certified E exp(sigma Z - a) = int e^{-z^2/2 + sigma z - a} dz / sqrt(2 pi) on [-T, T]
    (T = sigma + t0); tails e^{-a} ((G-) at -T + (G+) at T, b = sigma)."""
    a, s = to_arb(a), to_arb(sigma)
    T = upper_point(s + tail_width())
    core = integrate(lambda z: (s * z - a - z * z / 2).exp(), -T, T)
    tails = (-a).exp() * (gauss_tail_lower(-T, s) + gauss_tail_upper(T, s))
    return (core + nonneg_interval(tails)) / sqrt_2pi()


def certify_drift_argmin(sigma, eps=None, prec: int = 53, max_boxes: int = 20000) -> RangeResult:
    """At one sigma: the derivative exp(sigma^2/2 - a)(2 Phi(a/sigma - sigma) - 1) is < 0 on
    [0, sigma^2 - eps] and > 0 on [sigma^2 + eps, 4 sigma^2] (sigma^2 and sigma^2/2 are the
    formulas ``drift_argmin`` and ``mean_one_drift``; branch and bound, each box
    decided), so on [0, 4 sigma^2] the minimiser lies within eps of sigma^2 (default
    eps = 1e-6 sigma^2); and the value at a = sigma^2/2 (certified integral) is
    > 2 Phi(sigma) - 1 (decided)."""
    t = time.perf_counter()
    with ctx.workprec(prec):
        s = to_arb(sigma)
        s2 = formulas.drift_argmin.ball(s)
        e = arb(float(s2.mid()) * 1e-6) if eps is None else to_arb(eps)
        lo_end, hi_end = arb((s2 - e).lower()), arb((s2 + e).upper())
        top = arb((4 * s * s).upper())
        if not (lo_end < s2 < hi_end):
            raise Undecided("sigma^2 not separated from the excluded interval")

        def decide(bx):
            d = formulas.drift_error_derivative.ball(s, interval(bx[0], bx[1]))
            return decide_lt(d, 0) if bx[2] < 0 else decide_gt(d, 0)

        below = bisect((arb(0), lo_end, -1), decide, split_at_midpoint, max_boxes)
        above = bisect((hi_end, top, +1), decide, split_at_midpoint, max_boxes)
        half = drift_error_integral(s, formulas.mean_one_drift.ball(s))
        at_min = formulas.multiplicative_error.ball(s)
        worse = decide_gt(half, at_min)
        res = merge([below, above, tally([("a = sigma^2/2 strictly worse", worse)])])
        res.extra = {"E at sigma^2/2 (integral)": ball_str(half), "2Phi(sigma)-1": ball_str(at_min)}
    res.seconds = time.perf_counter() - t
    return res
