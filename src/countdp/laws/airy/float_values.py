"""The Airy law's density, score, tails and quantile in float64 (vectorised, any argument).

``log f = 2 log Ai(|x| + a1') - log Z``, the score ``s = 2 sign(x) R(|x| + a1')`` and the
survival function come from :mod:`countdp.laws.airy.asymptotics` (scipy's Airy functions below
z = 12, the asymptotic series above), stable for |x| up to ~1e200; the quantile by Newton's
method on log sf.
"""

from __future__ import annotations

import numpy as np

from .asymptotics import A1P_FLOAT, LOG_Z_FLOAT, log_ai_and_ratio, logsf_nonneg

__all__ = ["pdf", "logpdf", "score", "score_prime", "cdf", "sf", "logsf", "ppf"]


def _float_args(x) -> np.ndarray:
    """``x`` as a float64 array, refusing NaN."""
    x = np.asarray(x, dtype=float)
    if np.isnan(x).any():
        raise ValueError("x must be real numbers (not NaN); got NaN")
    return x


def logpdf(x):
    """log f(x) = 2 log Ai(|x| + a1') - log Z, float64, stable for |x| up to ~1e200."""
    x = _float_args(x)
    la, _ = log_ai_and_ratio(np.abs(x).ravel(), False)
    out = (2 * la - LOG_Z_FLOAT).reshape(x.shape)
    return out[()] if out.ndim == 0 else out


def pdf(x):
    """f(x) = exp(logpdf(x))."""
    return np.exp(logpdf(x))


def score(x):
    """s(x) = -(log f)'(x) = 2 sign(x) R(|x| + a1'), R = -Ai'/Ai; s ~ 2 sqrt|x| for large |x|."""
    x = _float_args(x)
    _, r = log_ai_and_ratio(np.abs(x).ravel(), True)
    out = (2 * np.sign(x.ravel()) * r).reshape(x.shape)
    out = np.where(x == 0, 0.0, out)
    return out[()] if out.ndim == 0 else out


def score_prime(x):
    """s'(x) = s(x)^2/2 - 2(|x| + a1') (the Riccati equation R' = R^2 - z with s = 2 sign(x) R):
    the curvature of -log f, positive (f is log-concave)."""
    s = score(x)
    return 0.5 * s * s - 2.0 * (np.abs(x) + A1P_FLOAT)


def logsf(x):
    """log P(X > x); for x >= 0 from sf = (Ai'^2 - z Ai^2)/Z = Ai(z)^2 R'(z)/Z (see module
    docstring), for x < 0 as log1p(-sf(-x))."""
    x = _float_args(x)
    xf = x.ravel()
    out = np.empty_like(xf)
    pos = xf >= 0
    out[pos] = logsf_nonneg(xf[pos])
    neg = ~pos
    if neg.any():
        out[neg] = np.log1p(-np.exp(logsf_nonneg(-xf[neg])))
    out = out.reshape(x.shape)
    return out[()] if out.ndim == 0 else out


def sf(x):
    """P(X > x) (survival function), accurate in relative terms in the far right tail."""
    x = _float_args(x)
    xf = x.ravel()
    out = np.empty_like(xf)
    pos = xf >= 0
    out[pos] = np.exp(logsf_nonneg(xf[pos]))
    neg = ~pos
    out[neg] = -np.expm1(logsf_nonneg(-xf[neg]))
    out = out.reshape(x.shape)
    return out[()] if out.ndim == 0 else out


def cdf(x):
    """P(X <= x) = sf(-x) (symmetry), accurate in relative terms in the far left tail."""
    x = _float_args(x)
    return sf(-x)


def ppf(p):
    """Quantile: the x with cdf(x) = p.  With q = min(p, 1-p), solves log sf(x) = log q for
    x >= 0 by Newton's method from x = 0; log sf is concave and decreasing (f log-concave), so
    the iterates decrease monotonically to the root after the first step.  Stops at a step
    below 4 ulp (relative); p = 0 -> -inf, p = 1 -> inf."""
    p = np.asarray(p, dtype=float)
    if np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise ValueError("p must lie in [0, 1] (no NaN)")
    pf = p.ravel()
    q = np.where(pf < 0.5, pf, 1.0 - pf)
    x = np.zeros_like(q)
    active = q < 0.5
    zero_q = q == 0
    active &= ~zero_q
    with np.errstate(divide="ignore"):
        logq = np.log(q)
    for _ in range(200):
        if not active.any():
            break
        xa = x[active]
        ls = logsf_nonneg(xa)
        lp = logpdf(xa)
        step = (ls - logq[active]) / np.exp(lp - ls)  # h / |h'|, h = logsf - log q
        xn = xa + step
        done = np.abs(step) <= 4 * np.finfo(float).eps * np.maximum(xn, 1e-300)
        x[active] = xn
        idx = np.flatnonzero(active)
        active[idx[done]] = False
    x = np.where(zero_q, np.inf, x)
    out = np.where(pf < 0.5, -x, x).reshape(p.shape)
    return out[()] if out.ndim == 0 else out
