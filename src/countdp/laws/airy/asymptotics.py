"""log Ai, the ratio R = -Ai'/Ai and the log tail of the Airy law in float64, for any argument.

For ``z < 12`` the values come from ``scipy.special.airy``; for ``z >= 12`` from the large-z
asymptotic series (DLMF 9.7.5-9.7.6, ``zeta = 2/3 z^{3/2}``)::

    Ai(z)  = exp(-zeta) / (2 sqrt(pi) z^{1/4}) * U,   U = sum_k (-1)^k u_k zeta^{-k}
    Ai'(z) = -z^{1/4} exp(-zeta) / (2 sqrt(pi)) * V,  V = sum_k (-1)^k v_k zeta^{-k}

with 22 terms (the first omitted term is < 1e-19 at z = 12, and for real z the error is below
it), so ``log Ai``, ``R = sqrt(z) V/U`` and the survival function
``sf = (Ai'^2 - z Ai^2)/Z = exp(-2 zeta) sqrt(z) (V - U)(V + U) / (4 pi Z)`` are computed without
overflow, underflow or cancellation for any z up to ~1e200 (``scipy.special.airye`` itself
returns NaN beyond z = 2^20 ~ 1.05e6).  Below z = 12 the survival function is the difference
``Ai'^2 - z Ai^2``, which loses about ``log10(2 z^{3/2})`` (<= 2) digits: relative error
< ~1e-13 there (5e-14 observed).  Near z = a1' (|x| < 0.1) R comes from its Taylor series about
a1', which keeps relative accuracy that rounding z = |x| + a1' would lose.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special as _sc

from .constants import float_constants

A1P_FLOAT = float_constants().a1p
LOG_Z_FLOAT = math.log(float_constants().Z)
_SERIES_FROM_Z = 12.0     # z from which the asymptotic series replaces scipy.special.airy
_SERIES_TERMS = 22
_LOG_2SQRTPI = math.log(2 * math.sqrt(math.pi))
_TAYLOR_BELOW = 0.1       # t = |x| below which R(a1' + t) comes from its Taylor series
_TAYLOR_TERMS = 16


def series_coefficients(n):
    """Signed coefficients of U, V - U, V + U as polynomials in w = 1/zeta.
    u_0 = 1, u_k = u_{k-1} (6k-5)(6k-3)(6k-1) / (216 k (2k-1)), v_k = -u_k (6k+1)/(6k-1)."""
    u = [1.0]
    for k in range(1, n):
        u.append(u[-1] * (6 * k - 5) * (6 * k - 3) * (6 * k - 1) / (216 * k * (2 * k - 1)))
    u_coeffs = np.array([(-1) ** k * u[k] for k in range(n)])
    v_minus_u = np.array([0.0] + [(-1) ** k * (-u[k] * 12 * k / (6 * k - 1)) for k in range(1, n)])
    v_plus_u = np.array([2.0] + [(-1) ** k * (-2 * u[k] / (6 * k - 1)) for k in range(1, n)])
    return u_coeffs, v_minus_u, v_plus_u


_U_COEFFS, _V_MINUS_U_COEFFS, _V_PLUS_U_COEFFS = series_coefficients(_SERIES_TERMS)


def ratio_taylor_coefficients(n):
    """Taylor coefficients r_k of R(a1' + t) = sum r_k t^k from the Riccati equation
    R' = R^2 - z, R(a1') = 0:  (k+1) r_{k+1} = [R^2]_k - a1' [k=0] - [k=1].  Radius of
    convergence 1.32 (the pole at the first zero of Ai, -2.338); used for t < 0.1, where 16 terms
    give < 1e-17 relative and the rounding of z = t + a1' (which costs relative accuracy ~1e-16/t
    in the direct route) is avoided."""
    r = [0.0] * (n + 1)
    for k in range(n):
        sq = sum(r[i] * r[k - i] for i in range(k + 1))
        r[k + 1] = (sq - (A1P_FLOAT if k == 0 else 0.0) - (1.0 if k == 1 else 0.0)) / (k + 1)
    return np.array(r)


_RATIO_TAYLOR_COEFFS = ratio_taylor_coefficients(_TAYLOR_TERMS)


def _series_at(zb: np.ndarray):
    """(sqrt z, zeta, w = 1/zeta, U) of the asymptotic series at z >= 12 (inf allowed)."""
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        rz = np.sqrt(zb)
        zeta = (2.0 / 3.0) * zb * rz
        w = 1.0 / zeta
        return rz, zeta, w, np.polynomial.polynomial.polyval(w, _U_COEFFS)


def _series_log_ai_and_ratio(zb: np.ndarray, want_ratio: bool):
    """log Ai(z) and (if ``want_ratio``) R(z) from the series, z >= 12; -inf and inf at z = inf."""
    rz, zeta, w, U = _series_at(zb)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        logai = -zeta - _LOG_2SQRTPI - 0.25 * np.log(zb) + np.log(U)
        ratio = rz * (U + np.polynomial.polynomial.polyval(w, _V_MINUS_U_COEFFS)) / U if want_ratio else None
    inf = np.isinf(zb)
    if inf.any():
        logai[inf] = -np.inf
        if want_ratio:
            ratio[inf] = np.inf
    return logai, ratio


def log_ai_and_ratio(t: np.ndarray, want_ratio: bool):
    """For t = |x| >= 0 (array): log Ai(z) and R(z) = -Ai'(z)/Ai(z) with z = t + a1'."""
    z = t + A1P_FLOAT
    logai = np.empty_like(z)
    ratio = np.empty_like(z) if want_ratio else None
    small = z < _SERIES_FROM_Z
    if small.any():
        ai, aip, _, _ = _sc.airy(z[small])
        logai[small] = np.log(ai)
        if want_ratio:
            ratio[small] = -aip / ai
            near = t < _TAYLOR_BELOW
            if near.any():
                ratio[near] = np.polynomial.polynomial.polyval(t[near], _RATIO_TAYLOR_COEFFS)
    big = ~small
    if big.any():
        logai[big], r = _series_log_ai_and_ratio(z[big], want_ratio)
        if want_ratio:
            ratio[big] = r
    return logai, ratio


def logsf_nonneg(t: np.ndarray) -> np.ndarray:
    """log P(X > t) for t >= 0 (array)."""
    z = t + A1P_FLOAT
    out = np.empty_like(z)
    small = z < _SERIES_FROM_Z
    if small.any():
        zs = z[small]
        ai, aip, _, _ = _sc.airy(zs)
        out[small] = np.log(aip * aip - zs * ai * ai) - LOG_Z_FLOAT
    big = ~small
    if big.any():
        zb = z[big]
        _, zeta, w, _ = _series_at(zb)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            vmu = np.polynomial.polynomial.polyval(w, _V_MINUS_U_COEFFS)
            vpu = np.polynomial.polynomial.polyval(w, _V_PLUS_U_COEFFS)
            v = (-2 * zeta + 0.5 * np.log(zb) + np.log(vmu * vpu) - math.log(4 * math.pi)) - LOG_Z_FLOAT
        out[big] = np.where(np.isinf(zb), -np.inf, v)
    return out
