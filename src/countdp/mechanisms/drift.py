"""The drift of the log-space noise (Section 4.1), by numerical routes only.

For the factor exp(sigma Z - a), ``E|exp(sigma Z - a) - 1|`` and ``E exp(sigma Z - a)`` by mpmath
quadrature against the normal density (independent of the closed forms ``formulas.drift_error``
and ``formulas.drift_error_derivative``), the derivative in a by central differences of that
quadrature with an error bar, and the minimiser in a by a root-finder on that derivative.

Every public function validates its input (``ValueError`` naming the parameter and range).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import mpmath

from ..numerics import validate
from ..numerics.estimate import Estimate

__all__ = ["DerivativeEstimate", "MinimiserEstimate", "drift_error_quad", "drift_mean_quad",
           "central_difference", "drift_step", "drift_derivative_numeric", "drift_argmin_numeric"]


@dataclass(frozen=True)
class DerivativeEstimate(Estimate):
    """A central difference ``value`` with ``error`` = 2 x truncation + noise; the step ``h``,
    the Richardson truncation estimate, the evaluation noise / h, and the coarser D_2h."""

    h: Any = None
    truncation: Any = None
    noise: Any = None
    coarse: Any = None


@dataclass(frozen=True)
class MinimiserEstimate(Estimate):
    """A located minimiser with its error bar; the root-finder's ``iterations``, the derivative
    ``derivative`` at the minimiser with its error ``derivative_error``, the secant ``slope``
    of the derivative and the difference step ``h``."""

    iterations: int = 0
    derivative: Any = None
    derivative_error: Any = None
    slope: Any = None
    h: Any = None


def _sigma_a(sigma, a):
    s = mpmath.mpf(validate.real("sigma", sigma, lo=0))
    a = mpmath.mpf(validate.real("a", a))
    return s, a


_INV_SQRT_2PI: dict = {}


def _inv_sqrt_2pi():
    key = mpmath.mp.prec
    if key not in _INV_SQRT_2PI:
        _INV_SQRT_2PI[key] = 1 / mpmath.sqrt(2 * mpmath.pi)
    return _INV_SQRT_2PI[key]


def _gauss_quad(f: Callable, s, points) -> Estimate:
    """integral of f(z) dz over R for an integrand that already carries the standard normal
    density (Gaussian decay in both tails): mpmath tanh-sinh on (-inf, inf) split at +-6, at
    sigma (the peak of e^{sigma z} phi(z)) and at ``points`` (kinks).  Infinite end intervals
    are used on purpose: on a long finite end piece carrying little mass near one end,
    mpmath's error estimate was seen to miss errors of 1e-15 relative to that piece.
    The error is mpmath's estimate + rounding of ~10^3 summed nodes."""
    pts = {mpmath.mpf(p) for p in (-6, 6)} | {s} | set(points)
    inner = sorted(p for p in pts if mpmath.isfinite(p))
    val, err = mpmath.quad(f, [-mpmath.inf] + inner + [mpmath.inf], error=True)
    return Estimate(val, abs(err) + 1000 * mpmath.eps * abs(val))


def drift_error_quad(sigma, a) -> Estimate:
    """E|exp(sigma Z - a) - 1| by mpmath quadrature of |e^{sigma z - a} - 1| phi(z), split at the
    kink z = a/sigma (error: mpmath's estimate + rounding)."""
    s, a = _sigma_a(sigma, a)
    k = _inv_sqrt_2pi()
    return _gauss_quad(lambda z: abs(mpmath.exp(s * z - a - z * z / 2) - mpmath.exp(-z * z / 2)) * k,
                       s, [a / s])


def drift_mean_quad(sigma, a) -> Estimate:
    """E exp(sigma Z - a) by mpmath quadrature of e^{sigma z - a} phi(z)."""
    s, a = _sigma_a(sigma, a)
    k = _inv_sqrt_2pi()
    return _gauss_quad(lambda z: mpmath.exp(s * z - a - z * z / 2) * k, s, [])


def central_difference(f: Callable[[Any], Estimate], x, h) -> DerivativeEstimate:
    """Derivative of ``f`` (returning an :class:`Estimate`) at x by the central difference with
    step h.  The error bar is twice the Richardson estimate ``|D_h - D_2h| / 3`` of the O(h^2)
    truncation term plus the propagated evaluation error ``(e(x+h) + e(x-h)) / (2h)``."""
    x = mpmath.mpf(validate.real("x", x))
    h = mpmath.mpf(validate.real("h", h, lo=0))
    plus, minus = f(x + h), f(x - h)
    plus2, minus2 = f(x + 2 * h), f(x - 2 * h)
    d1 = (plus.value - minus.value) / (2 * h)
    d2 = (plus2.value - minus2.value) / (4 * h)
    trunc = abs(d1 - d2) / 3
    noise = (plus.error + minus.error) / (2 * h)
    return DerivativeEstimate(d1, 2 * trunc + noise, h=h, truncation=trunc, noise=noise, coarse=d2)


def drift_step(sigma) -> mpmath.mpf:
    """The difference step used for d/da: 10^(-dps/3) sigma (the derivative varies on the scale
    sigma in a; this balances the O(h^2) truncation against quadrature noise / h)."""
    s = mpmath.mpf(validate.real("sigma", sigma, lo=0))
    return mpmath.mpf(10) ** (-(mpmath.mp.dps // 3)) * s


def drift_derivative_numeric(sigma, a, h=None) -> DerivativeEstimate:
    """d/da E|exp(sigma Z - a) - 1| by central differences of :func:`drift_error_quad`."""
    s, a = _sigma_a(sigma, a)
    h = drift_step(s) if h is None else h
    return central_difference(lambda x: drift_error_quad(s, x), a, h)


def drift_argmin_numeric(sigma, lo, hi, h=None, maxiter=60) -> MinimiserEstimate:
    """The minimiser of a -> E|exp(sigma Z - a) - 1| inside a bracket [lo, hi] on which the
    numerical derivative D(a) (central differences of :func:`drift_error_quad`) changes sign
    from - to +, by the Illinois variant of regula falsi on D.  It stops when |D(a)| is within
    D's own error bar (the quadrature error over the step) or the bracket has collapsed.

    The error bar is ``2 (|D(a_hat)| + e_D) / slope`` with ``e_D`` the propagated quadrature
    error of D and ``slope`` the smaller secant slope of D from a_hat to the two final bracket
    ends (a lower estimate of f'' near a_hat), plus 4 ulps."""
    s = mpmath.mpf(validate.real("sigma", sigma, lo=0))
    lo, hi = mpmath.mpf(validate.real("lo", lo)), mpmath.mpf(validate.real("hi", hi))
    if not lo < hi:
        raise ValueError(f"lo must be < hi, got lo={lo}, hi={hi}")
    h = drift_step(s) if h is None else mpmath.mpf(validate.real("h", h, lo=0))
    maxiter = validate.count("maxiter", maxiter, lo=1)

    def D(a):
        plus, minus = drift_error_quad(s, a + h), drift_error_quad(s, a - h)
        return (plus.value - minus.value) / (2 * h), (plus.error + minus.error) / (2 * h)

    d_lo, _ = D(lo)
    d_hi, _ = D(hi)
    if not (d_lo < 0 < d_hi):
        raise ValueError("lo and hi must bracket a sign change (D(lo) < 0 < D(hi))")
    w_lo, w_hi = d_lo, d_hi  # Illinois-weighted end values
    side, it = 0, 0
    a_hat, d_hat, e_hat = lo, d_lo, mpmath.mpf(0)
    for it in range(1, maxiter + 1):
        a_hat = (lo * w_hi - hi * w_lo) / (w_hi - w_lo)
        d_hat, e_hat = D(a_hat)
        if abs(d_hat) <= e_hat or hi - lo <= 4 * mpmath.eps * abs(a_hat):
            break
        if d_hat < 0:
            lo, d_lo, w_lo = a_hat, d_hat, d_hat
            w_hi = w_hi / 2 if side == -1 else d_hi
            side = -1
        else:
            hi, d_hi, w_hi = a_hat, d_hat, d_hat
            w_lo = w_lo / 2 if side == 1 else d_lo
            side = 1
    slopes = [(d_hat - d_lo) / (a_hat - lo) if a_hat != lo else None,
              (d_hi - d_hat) / (hi - a_hat) if a_hat != hi else None]
    slopes = [x for x in slopes if x is not None]
    slope = min(slopes) if slopes else mpmath.mpf(0)
    if not slope > 0:
        raise ValueError("the derivative is not increasing across the bracket")
    err = 2 * (abs(d_hat) + e_hat) / slope + 4 * mpmath.eps * abs(a_hat)
    return MinimiserEstimate(a_hat, err, iterations=it, derivative=d_hat, derivative_error=e_hat,
                             slope=slope, h=h)
