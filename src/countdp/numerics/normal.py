"""The standard normal law: Phi, its inverse, phi and log-tails, in float64 and in mpmath.

Float64 versions take numpy arrays; ``mp_*`` versions compute at the current mpmath precision
(``mpmath.mp.dps``), so a check can raise the precision with ``mpmath.workdps``.
"""

from __future__ import annotations

import mpmath
import numpy as np
from scipy import special

LOG_SQRT_2PI = 0.5 * np.log(2 * np.pi)


# ---- float64 ------------------------------------------------------------------------------

def Phi(x):
    """Standard normal cdf."""
    return special.ndtr(x)


def log_Phi(x):
    """log Phi(x), accurate far in the lower tail."""
    return special.log_ndtr(x)


def phi(x):
    """Standard normal density."""
    x = np.asarray(x, dtype=float)
    return np.exp(-0.5 * x * x - LOG_SQRT_2PI)


def log_phi(x):
    """log phi(x) = -x^2/2 - log sqrt(2 pi) in float64 (numpy arrays)."""
    x = np.asarray(x, dtype=float)
    return -0.5 * x * x - LOG_SQRT_2PI


# ---- mpmath, any precision ----------------------------------------------------------------

def mp_Phi(x):
    """Phi(x) at the current mpmath precision."""
    return mpmath.ncdf(x)


def mp_Phi_sf(x):
    """1 - Phi(x) without cancellation."""
    return mpmath.ncdf(-x)


def mp_Phi_diff(a, b):
    """Phi(b) - Phi(a) for a <= b, computed on the side of 0 that avoids cancellation."""
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    if a >= 0:
        return mpmath.ncdf(-a) - mpmath.ncdf(-b)
    if b <= 0:
        return mpmath.ncdf(b) - mpmath.ncdf(a)
    return 1 - mpmath.ncdf(a) - mpmath.ncdf(-b)


_HALF_LOG_2PI: dict = {}


def half_log_2pi():
    key = mpmath.mp.prec
    if key not in _HALF_LOG_2PI:
        _HALF_LOG_2PI[key] = mpmath.log(2 * mpmath.pi) / 2
    return _HALF_LOG_2PI[key]


def mp_log_phi(x):
    x = mpmath.mpf(x)
    return -x * x / 2 - half_log_2pi()


def mp_Phi_inv(p):
    """Inverse of Phi at the current precision: erfinv start, Newton steps on the tail-safe cdf."""
    p = mpmath.mpf(p)
    if not 0 < p < 1:
        raise ValueError(f"p must lie in (0, 1), got {p}")
    x = mpmath.sqrt(2) * mpmath.erfinv(2 * p - 1)
    if not mpmath.isfinite(x):
        x = mpmath.mpf(special.ndtri(float(p)))
    for _ in range(60):
        # Newton on F(x) = Phi(x) - p, with the residual computed on the accurate side.
        resid = (mpmath.ncdf(x) - p) if x <= 0 else ((1 - p) - mpmath.ncdf(-x)) * -1
        step = resid / mpmath.npdf(x)
        x -= step
        if abs(step) <= abs(x) * mpmath.eps * 4 + mpmath.eps ** 2:
            break
    return x


def mp_Phi_inv_half(q):
    """Phi^{-1}((1 + q)/2) = sqrt(2) erfinv(q) for 0 < q < 1, without forming (1 + q)/2.

    Near q = 0 the argument (1+q)/2 is close to 1/2 and Phi^{-1} of it would lose relative
    accuracy; erfinv keeps it.  Newton steps on erf(x/sqrt 2) = q polish the result."""
    q = mpmath.mpf(q)
    if not 0 < q < 1:
        raise ValueError(f"q must lie in (0, 1), got {q}")
    x = mpmath.sqrt(2) * mpmath.erfinv(q)
    for _ in range(8):
        resid = mpmath.erf(x / mpmath.sqrt(2)) - q
        step = resid / (2 * mpmath.npdf(x))
        x -= step
        if abs(step) <= abs(x) * mpmath.eps * 4:
            break
    return x
