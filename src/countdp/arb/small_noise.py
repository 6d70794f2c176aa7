"""Certified E|g(Z)| / sigma^2 for g(z) = exp(sigma z - sigma^2) - 1 - sigma z (Section 8).

g is convex (g'' = sigma^2 e^{sigma z - sigma^2} > 0) with g(sigma) = -sigma^2 < 0 and g -> +inf
at both ends, so it has exactly two zeros z1 < sigma < z2; each is certified by a decided sign
change of g on a bracket.  Two enclosures of the ratio:

* the integral of g phi split at the certified zeros (sign-definite pieces; ball endpoints by the
  mean value theorem in :func:`countdp.arb.integrals.integrate`) on [-T, T] plus the tails
  |g| <= e^{sigma z - sigma^2} + 1 + sigma |z| by (G+)/(G-) (b = sigma) and (N) with k = 0, 1;
* the semi-closed form E g - 2 int_{z1}^{z2} g phi with E g = e^{-sigma^2/2} - 1 and the piece
  in closed form (:func:`countdp.formulas.small_noise_remainder_piece`).

g ~ sigma^2 is a difference of O(sigma) terms: the work precision is raised by
2 log2(1/sigma) + 20 bits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from flint import arb, ctx

from .. import formulas
from .integrals import gauss_tail_lower, gauss_tail_upper, integrate, normal_moment_tail, sqrt_2pi
from .integrals import tail_width, upper_point
from .ranges import sign_change_bracket
from .verdicts import Undecided, interval, nonneg_interval, to_arb


@dataclass(frozen=True)
class RemainderZeros:
    """Certified enclosures of the zeros z1 < sigma < z2 of g."""

    lower: arb
    upper: arb


@dataclass(frozen=True)
class RemainderRatio:
    """Two enclosures of E|g(Z)| / sigma^2: by integration and by the semi-closed form."""

    integral: arb
    semi_closed: arb


def _remainder(s):
    ss = s * s
    return lambda z: (s * z - ss).expm1() - s * z


def _newton_midpoints(g, gp, start: arb) -> arb:
    x = arb(start.mid())
    for _ in range(200):
        nx = arb((x - g(x) / gp(x)).mid())
        if abs(float((nx - x).mid())) <= 2.0 ** (-ctx.prec) * 4:
            return nx
        x = nx
    return x


def _bracket(g, x: arb, sign: int) -> arb:
    """A ball around x on whose ends g changes sign (decided): - to + for sign > 0."""
    return interval(*sign_change_bracket(g, x, "root bracket of the small-noise remainder", sign,
                                         guard_bits=8, tries=60))


def remainder_zeros(s: arb) -> RemainderZeros:
    """The two zeros of g, each a certified bracket (Newton on midpoints from sigma -+ 3, where
    g > 0, for the approximation)."""
    g = _remainder(s)
    gp = lambda z: s * ((s * z - s * s).exp() - 1)  # noqa: E731
    z1 = _bracket(g, _newton_midpoints(g, gp, s - 3), -1)
    z2 = _bracket(g, _newton_midpoints(g, gp, s + 3), +1)
    return RemainderZeros(z1, z2)


def remainder_ratio(sig) -> RemainderRatio:
    """Certified E|e^{sigma Z - sigma^2} - 1 - sigma Z| / sigma^2 (sigma > 0), two ways (see the
    module docstring); T = sigma + t0 + 2 + 2 sqrt(log2(1/sigma)) since the tails are divided by
    sigma^2."""
    s0 = to_arb(sig)
    if not (s0 > 0):
        raise Undecided("sigma > 0 required")
    lg = max(0.0, -math.log2(float(s0.mid())))
    with ctx.workprec(ctx.prec + 20 + 2 * int(math.ceil(lg))):
        s = s0
        zeros = remainder_zeros(s)
        z1, z2 = zeros.lower, zeros.upper
        g = _remainder(s)
        T = upper_point(s + tail_width() + 2 + 2 * math.sqrt(lg))
        w = lambda z: g(z) * (-z * z / 2).exp()  # noqa: E731
        core = integrate(w, -T, z1) - integrate(w, z1, z2) + integrate(w, z2, T)
        tails = ((-s * s).exp() * (gauss_tail_upper(T, s) + gauss_tail_lower(-T, s))
                 + normal_moment_tail(T, 0) + s * normal_moment_tail(T, 1))
        ratio = (core + nonneg_interval(tails)) / sqrt_2pi() / (s * s)
        piece = formulas.small_noise_remainder_piece.ball(z1, z2, s)
        closed = (((-s * s / 2).exp() - 1) - 2 * piece) / (s * s)
    return RemainderRatio(ratio, closed)
