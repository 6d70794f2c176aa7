"""Composite Gauss-Legendre quadrature in float64, with the error taken as the difference of two
rules on the same panels.

* :func:`panel_nodes`: the nodes and weights of a rule on consecutive panels;
* :func:`log_window_integral`: ``log int exp(ell(y)) dy`` for a unimodal log-integrand ``ell``
  (e.g. the integrand of a Renyi divergence or of a cumulant generating function, far too
  large or small to exponentiate directly), over the window where ``ell`` is within
  :data:`WINDOW_DROP` of its maximum;
* :func:`smooth_quad`: mpmath's Gauss-Legendre (tanh-sinh as a fallback) for an integrand smooth
  between given nodes.
"""

from __future__ import annotations

import math

import numpy as np

from .estimate import Estimate

__all__ = ["GL16", "GL10", "WINDOW_DROP", "panel_nodes", "log_window_integral", "smooth_quad"]

GL16 = np.polynomial.legendre.leggauss(16)
GL10 = np.polynomial.legendre.leggauss(10)
WINDOW_DROP = 110.0  # log-drop defining a window's ends: e^-110 ~ 1e-48 relative


def panel_nodes(edges, rule) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of a Gauss-Legendre ``rule`` (nodes, weights on [-1, 1]) on the
    consecutive panels given by ``edges``."""
    e = np.asarray(edges, dtype=float)
    a, b = e[:-1], e[1:]
    x0, w0 = rule
    half = 0.5 * (b - a)
    mid = 0.5 * (b + a)
    x = (mid[:, None] + half[:, None] * x0[None, :]).ravel()
    w = (half[:, None] * w0[None, :]).ravel()
    return x, w


def _window_end(ell, y0: float, width: float, top: float, sign: int, lim: float) -> tuple[float, float]:
    """Outward doubling from y0 until ell has dropped by WINDOW_DROP below the running top (or
    the limit ``lim`` is reached): (end, running top)."""
    step = width
    for _ in range(200):
        cand = y0 + sign * step
        if (sign < 0 and cand <= lim) or (sign > 0 and cand >= lim):
            return lim, top
        v = float(ell(np.array([cand]))[0])
        top = max(top, v)
        if v < top - WINDOW_DROP:
            return cand, top
        step *= 2
    raise RuntimeError("log-integrand does not decay: window not found")


def log_window_integral(ell, y0: float, width: float, lo: float = -np.inf, hi: float = np.inf,
                        anchors=()) -> Estimate:
    """``log int_lo^hi exp(ell(y)) dy`` for a unimodal float ``ell`` (vectorised) peaking near
    ``y0`` with curvature width ``width``: the window where ell is within WINDOW_DROP of its max
    is found by outward doubling, then Gauss-Legendre 16 vs 10 points on 96 panels (plus the
    ``anchors``, kinks of ell, as panel edges).  The error is that of the log."""
    top = float(ell(np.array([y0]))[0])
    a, top = _window_end(ell, y0, width, top, -1, lo)
    b, top = _window_end(ell, y0, width, top, 1, hi)
    if not (np.isfinite(a) and np.isfinite(b)):
        raise RuntimeError("log-integrand window reaches an infinite end")
    edges = list(np.linspace(a, b, 97)) + [p for p in anchors if a < p < b]
    edges = np.array(sorted(set(edges)))
    vals = []
    for rule in (GL16, GL10):
        x, w = panel_nodes(edges, rule)
        lv = ell(x)
        M = float(np.max(lv))
        vals.append((M, float(np.exp(lv - M) @ w)))
    (M, s16), (M10, s10) = vals
    s10 = s10 * math.exp(M10 - M)
    return Estimate(M + math.log(s16), abs(s16 - s10) / s16 + 1e-15 * (abs(M) + 1))


def smooth_quad(f, *axes, rel_enough, rule: str = "gauss-legendre", maxdegree: int = 10, gl_maxdegree: int = 6):
    """``(value, error estimate, rule used)`` of mpmath's ``quad(f, *axes)`` (one node list per
    dimension, one or two dimensions) for an integrand smooth on every panel between the nodes
    (kinks must be nodes).  ``rule`` first (Gauss-Legendre, up to ``gl_maxdegree``: far fewer nodes
    than tanh-sinh for a smooth integrand); when its estimate is above ``rel_enough`` times the
    value (e.g. the rounding term the caller adds anyway), tanh-sinh (up to ``maxdegree``) as well,
    keeping the smaller estimate with its own value (a narrow peak in a long or infinite panel, or
    an endpoint singularity, suits tanh-sinh better).  In two dimensions the integrand must keep
    one sign (:func:`_quad_with_error`)."""
    if rule == "tanh-sinh":
        val, err = _quad_with_error(f, axes, maxdegree, rule)
        return val, err, rule
    val, err = _quad_with_error(f, axes, gl_maxdegree, rule)
    if err <= rel_enough * abs(val):
        return val, err, rule
    val2, err2 = _quad_with_error(f, axes, maxdegree, "tanh-sinh")
    return (val2, err2, "tanh-sinh") if err2 < err else (val, err, rule)


def _quad_with_error(f, axes, maxdegree: int, method: str):
    """mpmath's quad over one or two axes with its error estimate.  In two dimensions mpmath's
    own estimate is the outer integral's alone (it drops every inner integral's), so the inner
    integrals are taken here, each kept with its estimate, and the outer rule integrates those
    estimates too (on the nodes of its first two degrees, all of them already taken): twice that
    enters the error."""
    import mpmath

    if len(axes) == 1:
        val, err = mpmath.quad(f, axes[0], error=True, maxdegree=maxdegree, method=method)
        return val, abs(err)
    if len(axes) != 2:
        raise ValueError(f"smooth_quad integrates over one or two axes, got {len(axes)}")
    inner_at = {}

    def inner(x):
        if x not in inner_at:
            v, e = mpmath.quad(lambda y: f(x, y), axes[1], error=True, maxdegree=maxdegree, method=method)
            inner_at[x] = (v, abs(e))
        return inner_at[x]

    val, err = mpmath.quad(lambda x: inner(x)[0], axes[0], error=True, maxdegree=maxdegree, method=method)
    inner_err = mpmath.quad(lambda x: inner(x)[1], axes[0], maxdegree=2, method=method)
    return val, abs(err) + 2 * abs(inner_err)
