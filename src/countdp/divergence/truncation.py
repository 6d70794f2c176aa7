"""Renyi integrals of two densities truncated to [-T, T], and where they stop converging.

For laws P, Q with densities p, q and alpha > 1, write ``g = alpha log p + (1 - alpha) log q``,
so that ``D_alpha(P || Q) = log(int e^g) / (alpha - 1)`` and ``I(T) = int_{-T}^{T} e^g``.  For two
Gaussians g is a quadratic ``-k x^2 + b x + const``; the integral over R converges iff k > 0
(the criterion of Lemma 7.1).  Everything here is measured from the two mpmath log-densities,
never from a closed form of the divergence or of the threshold:

* :func:`quadratic_coefficient` reads k (and b) off second and first differences of g;
* :func:`locate_order_threshold` bisects on alpha for the sign change of k;
* :func:`truncated_renyi_integral` is log I(T) by tanh-sinh quadrature;
* :func:`truncated_bounds_convex` sandwiches log I(T) rigorously when g is convex (at and above
  the threshold: both bounds grow with T), :func:`tail_remainder` bounds the omitted tails when g
  is concave (below it), and :func:`renyi_from_truncation` turns the two into an interval for D.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import mpmath

from ..laws import GaussianDensity, Law
from ..numerics import validate
from ..numerics.estimate import Estimate
from ..numerics.tolerance import working_precision
from .renyi import INF

__all__ = ["QuadraticCoefficient", "OrderBracket", "ConvexSandwich", "log_renyi_integrand",
           "quadratic_coefficient", "locate_order_threshold", "log_integrand_rounding",
           "truncated_renyi_integral", "truncated_bounds_convex", "tail_remainder",
           "renyi_from_truncation"]


@dataclass(frozen=True)
class QuadraticCoefficient:
    """``log(p^alpha q^(1-alpha)) = -k x^2 + b x + const``: ``k``, ``b`` and ``noise``, a bound on
    the rounding in k (``|k| <= noise`` leaves the sign unresolved at this precision)."""

    k: mpmath.mpf
    b: mpmath.mpf
    noise: mpmath.mpf

    @property
    def integrable(self) -> bool:
        """k > noise: the integrand decays like a Gaussian in both tails."""
        return self.k > self.noise


@dataclass(frozen=True)
class OrderBracket:
    """A bracket [lo, hi] of the order where the quadratic coefficient changes sign:
    k(lo) > noise and k(hi) <= noise, after ``iterations`` halvings."""

    lo: mpmath.mpf
    hi: mpmath.mpf
    iterations: int

    @property
    def mid(self) -> mpmath.mpf:
        return (self.lo + self.hi) / 2

    @property
    def half_width(self) -> mpmath.mpf:
        return (self.hi - self.lo) / 2


@dataclass(frozen=True)
class ConvexSandwich:
    """Rigorous bounds ``lower <= log I(T) <= upper`` for a convex g, with ``g(T)``, ``g(-T)`` and
    ``rounding``, the absolute error of both logs from the rounding of g."""

    lower: mpmath.mpf
    upper: mpmath.mpf
    g_right: mpmath.mpf
    g_left: mpmath.mpf
    rounding: mpmath.mpf


def _density_pair(P: Law, Q: Law):
    for name, L in (("P", P), ("Q", Q)):
        if L.density is None or L.atoms():
            raise ValueError(f"{name} must be a law with a density and no atoms, got {L.describe()}")
    return P.density, Q.density


def _quadratic_pair(P: Law, Q: Law):
    """The threshold, the sandwich and the tail remainder read g's shape off differences at one
    point and use it on the whole line: that holds for a quadratic g, two Gaussian densities on R (for a Laplace
    pair, whose g bends at both centres, the 'remainder' fell 0.35 short of the tails)."""
    for name, d in zip(("P", "Q"), _density_pair(P, Q)):
        if not (isinstance(d, GaussianDensity) and d.lo == -mpmath.inf and d.hi == mpmath.inf):
            raise ValueError(f"{name} must be a Gaussian law on the whole line (log p^alpha q^(1-alpha) "
                             f"quadratic), got {(P if name == 'P' else Q).describe()}")


def log_renyi_integrand(P: Law, Q: Law, alpha) -> Callable:
    """x -> alpha log p(x) + (1 - alpha) log q(x), from the laws' mpmath log-densities."""
    pd, qd = _density_pair(P, Q)
    a = mpmath.mpf(validate.order(alpha))
    return lambda x: a * pd.mp_logpdf(x) + (1 - a) * qd.mp_logpdf(x)


def quadratic_coefficient(P: Law, Q: Law, alpha, x0=0, h=None) -> QuadraticCoefficient:
    """``k`` with ``log(p^alpha q^(1-alpha)) = -k x^2 + b x + const`` for two Gaussian laws,
    measured from the log-densities by second and first differences at x0 with step h (exact
    for a quadratic up to rounding; h defaults to the larger of the two scales).

    ``noise`` bounds the rounding in k (64 ulps of the two terms alpha log p and
    (1 - alpha) log q at the three nodes, over h^2).  The Renyi integral converges iff k > 0
    (the criterion Lemma 7.1 rests on)."""
    a = mpmath.mpf(validate.order(alpha))
    return _difference_nodes(P, Q, x0, h).coefficient(a)


@dataclass(frozen=True)
class _DifferenceNodes:
    """log p and log q at x0 - h, x0, x0 + h: they do not depend on alpha, so one set serves
    every order (a bisection on alpha reads them at each step)."""

    x0: mpmath.mpf
    h: mpmath.mpf
    logs: tuple  # ((log p, log q) at x0 - h, x0, x0 + h)

    def coefficient(self, a) -> QuadraticCoefficient:
        g, size = [], mpmath.mpf(0)
        for lp, lq in self.logs:
            tp, tq = a * lp, (1 - a) * lq
            g.append(tp + tq)
            size += abs(tp) + abs(tq)
        h, x0 = self.h, self.x0
        k = -(g[2] - 2 * g[1] + g[0]) / (2 * h * h)
        b = (g[2] - g[0]) / (2 * h) + 2 * k * x0
        noise = 64 * mpmath.eps * (size + 1) / (h * h)
        return QuadraticCoefficient(k, b, noise)


def _difference_nodes(P: Law, Q: Law, x0=0, h=None) -> _DifferenceNodes:
    pd, qd = _density_pair(P, Q)
    x0 = mpmath.mpf(validate.real("x0", x0))
    if h is None:
        h = max(pd.t_center_scale()[1], qd.t_center_scale()[1])
    h = mpmath.mpf(validate.real("h", h, lo=0))
    return _DifferenceNodes(x0, h, tuple((pd.mp_logpdf(x), qd.mp_logpdf(x)) for x in (x0 - h, x0, x0 + h)))


def locate_order_threshold(P: Law, Q: Law, lo=None, hi=None, rtol=None, maxiter=400) -> OrderBracket:
    """Bisection on alpha for the order where the quadratic coefficient of
    ``log(p^alpha q^(1-alpha))`` (from the densities) changes sign from positive to <= 0.

    Uses no formula for the threshold: only the two log-densities.  ``lo`` defaults to
    1 + 2^-20 (must be integrable), ``hi`` to the first of 2, 4, 8, ... that is not (``lo`` then
    moves up to the last integrable power of two).  Stops when ``hi - lo <= rtol * hi`` (default
    ``working_precision(8)`` = 10^-(dps - 8)).  Raises ValueError when no sign change is found
    below 2^60 (e.g. s_P <= s_Q: integrable at every order)."""
    _quadratic_pair(P, Q)
    lo = 1 + mpmath.mpf(2) ** -20 if lo is None else mpmath.mpf(validate.order(lo))
    rtol = working_precision(8) if rtol is None else mpmath.mpf(validate.real("rtol", rtol, lo=0))

    nodes = _difference_nodes(P, Q)

    def positive(a):
        return nodes.coefficient(a).integrable

    if not positive(lo):
        raise ValueError("lo must lie on the integrable side (positive quadratic coefficient)")
    if hi is None:
        hi = mpmath.mpf(2)
        while positive(hi):
            lo, hi = hi, 2 * hi
            if hi > mpmath.mpf(2) ** 60:
                raise ValueError("no sign change of the quadratic coefficient below alpha = 2^60")
    else:
        hi = mpmath.mpf(validate.order(hi))
        if positive(hi):
            raise ValueError("hi must lie on the non-integrable side (quadratic coefficient <= 0)")
    if not lo < hi:
        raise ValueError(f"lo must be < hi, got lo={lo}, hi={hi}")
    it = 0
    while hi - lo > rtol * hi and it < maxiter:
        mid = (lo + hi) / 2
        if positive(mid):
            lo = mid
        else:
            hi = mid
        it += 1
    return OrderBracket(lo, hi, it)


def _g_and_slope(g: Callable, x):
    return g(x), mpmath.diff(g, x)


def log_integrand_rounding(P: Law, Q: Law, alpha, T) -> mpmath.mpf:
    """An absolute bound on the rounding of g(x) = alpha log p(x) + (1-alpha) log q(x) for |x| <= T:
    64 ulps of the larger of |alpha log p| + |(1-alpha) log q| at x = -T, 0, T (the two terms are
    quadratics in x, largest in size at an end, and cancel heavily near the threshold).  Quadrature
    error estimates do not see this; it enters log I(T) and the bounds as an absolute error."""
    pd, qd = _density_pair(P, Q)
    a = mpmath.mpf(validate.order(alpha))
    T = mpmath.mpf(validate.real("T", T, lo=0))
    size = max(abs(a * pd.mp_logpdf(x)) + abs((1 - a) * qd.mp_logpdf(x)) for x in (-T, mpmath.mpf(0), T))
    return 64 * mpmath.eps * (size + 1)


def _quadrature_nodes(P: Law, Q: Law, g: Callable, quad: QuadraticCoefficient, T) -> list:
    """Nodes for tanh-sinh on [-T, T]: the ends, 0, each law's centre +- multiples of its scale,
    the integrand's peak +- multiples of its width (when g is concave), and a geometric pile of
    nodes towards an end where the integrand grows."""
    pts = {-T, T, mpmath.mpf(0)}
    for L in (P, Q):
        c, s = L.density.t_center_scale()
        pts |= {c + j * s for j in (-8, -2, 0, 2, 8)}
    if quad.integrable:
        xs = quad.b / (2 * quad.k)
        w = 1 / mpmath.sqrt(2 * quad.k)
        pts |= {xs + j * w for j in (-24, -8, -3, -1, 0, 1, 3, 8, 24)}
    for end, sgn in ((T, -1), (-T, 1)):
        slope = mpmath.diff(g, end)
        if slope * sgn < 0:  # the integrand grows towards this end: nodes piling up there
            pts |= {end + sgn * 2 ** j / abs(slope) for j in range(-1, 48, 3)}
    return sorted(p for p in pts if -T <= p <= T)


def truncated_renyi_integral(P: Law, Q: Law, alpha, T) -> Estimate:
    """``log I(T)`` with ``I(T) = integral_{-T}^{T} p^alpha q^(1-alpha) dx`` by mpmath tanh-sinh
    quadrature of the densities (the integrand scaled by its largest value).

    The error of log I is mpmath's estimate and the rounding of ~10^3 summed nodes (relative to
    I), plus :func:`log_integrand_rounding` (the rounding of the log-integrand itself, which
    shifts every node's value)."""
    T = mpmath.mpf(validate.real("T", T, lo=0))
    g = log_renyi_integrand(P, Q, alpha)
    quad = quadratic_coefficient(P, Q, alpha)
    cands = [g(-T), g(T)]
    if quad.integrable:
        xs = quad.b / (2 * quad.k)
        if -T < xs < T:
            cands.append(g(xs))
    gref = max(cands)
    val, err = mpmath.quad(lambda x: mpmath.exp(g(x) - gref), _quadrature_nodes(P, Q, g, quad, T),
                           error=True)
    err = abs(err) + 1000 * mpmath.eps * abs(val)
    return Estimate(gref + mpmath.log(val), err / val + log_integrand_rounding(P, Q, alpha, T))


def truncated_bounds_convex(P: Law, Q: Law, alpha, T) -> ConvexSandwich:
    """Rigorous bounds on ``log I(T)`` when ``g = log(p^alpha q^(1-alpha))`` is convex (the
    quadratic coefficient is <= 0: at and above the finiteness threshold).

    lower: a tangent line at either end lies below g, so
        I(T) >= max(e^{g(T)} (1 - e^{-2T g'(T)}) / g'(T), e^{g(-T)} (e^{2T g'(-T)} - 1) / g'(-T));
    upper: a convex g is largest at an end, so I(T) <= 2T max(e^{g(T)}, e^{g(-T)}).
    Both grow like max(g(T), g(-T)); ``rounding`` is the absolute error of the two logs from
    :func:`log_integrand_rounding`."""
    T = mpmath.mpf(validate.real("T", T, lo=0))
    _quadratic_pair(P, Q)
    g = log_renyi_integrand(P, Q, alpha)
    quad = quadratic_coefficient(P, Q, alpha)
    if quad.integrable:
        raise ValueError("alpha must lie at or above the threshold (g convex) for these bounds")
    gT, dT = _g_and_slope(g, T)
    gmT, dmT = _g_and_slope(g, -T)

    def log_phi(b, sign):
        # log of (1 - e^{-2Tb})/b (sign=+1, tangent at T) or (e^{2Tb} - 1)/b (tangent at -T)
        if b == 0:
            return mpmath.log(2 * T)
        if sign > 0:
            return mpmath.log(-mpmath.expm1(-2 * T * b) / b)
        return mpmath.log(mpmath.expm1(2 * T * b) / b)

    lower = max(gT + log_phi(dT, 1), gmT + log_phi(dmT, -1))
    upper = mpmath.log(2 * T) + max(gT, gmT)
    return ConvexSandwich(lower, upper, gT, gmT, 2 * log_integrand_rounding(P, Q, alpha, T))


def tail_remainder(P: Law, Q: Law, alpha, T) -> mpmath.mpf:
    """A bound on ``integral_{|x| > T} p^alpha q^(1-alpha)`` when g is concave (quadratic
    coefficient >= 0) and decreasing outward at both ends: by concavity
    ``int_T^inf e^g <= e^{g(T)} / |g'(T)|`` (and the same at -T).  Returns ``inf`` when g is
    not concave or does not decrease outward at an end (no such bound: the tail may diverge)."""
    T = mpmath.mpf(validate.real("T", T, lo=0))
    _quadratic_pair(P, Q)
    g = log_renyi_integrand(P, Q, alpha)
    quad = quadratic_coefficient(P, Q, alpha)
    if quad.k < -quad.noise:
        return INF
    gT, dT = _g_and_slope(g, T)
    gmT, dmT = _g_and_slope(g, -T)
    if not (dT < 0 and dmT > 0):
        return INF
    return mpmath.exp(gT) / (-dT) + mpmath.exp(gmT) / dmT


def renyi_from_truncation(P: Law, Q: Law, alpha, T) -> Estimate:
    """D_alpha from the truncated integral and the concave tail remainder:
    ``D in [log I(T), log(I(T) + R(T))] / (alpha - 1)`` widened by the error of log I(T), as
    midpoint +/- half-width; ``inf +/- inf`` when no remainder bound exists."""
    a = mpmath.mpf(validate.order(alpha))
    logI = truncated_renyi_integral(P, Q, a, T)
    R = tail_remainder(P, Q, a, T)
    if mpmath.isinf(R):
        return Estimate(INF, INF)
    lo = (logI.value - logI.error) / (a - 1)
    hi = (logI.value + logI.error + mpmath.log1p(R * mpmath.exp(-(logI.value + logI.error)))) / (a - 1)
    return Estimate((lo + hi) / 2, (hi - lo) / 2)
