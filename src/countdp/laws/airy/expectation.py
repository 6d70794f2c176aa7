"""Expectations under the Airy law: E g(X) by mpmath tanh-sinh, and the score's cumulant
generating function K_s(u) = log E exp(u s(X)) in float64 by folded Gauss-Legendre panels.
(Many g on one set of nodes: :mod:`countdp.laws.airy.gauss_legendre`.)"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Callable

from mpmath import mp
import numpy as np

from ...numerics import validate
from ...numerics.estimate import Estimate, at_two_precisions
from ...numerics.quadrature import GL10, GL16, log_window_integral, panel_nodes
from .float_values import logpdf, score
from .mp_values import mp_pdf

__all__ = ["mp_expect", "fold_edges", "score_cgf_float", "FOLD_WINDOW", "FOLD_FLOOR"]

_EXPECT_BREAKS = (0.5, 1, 2, 4, 8, 16, 32, 64)


def mp_expect(g: Callable, extra_breaks=(), half: bool = False) -> Estimate:
    """E g(X) = int g(x) f(x) dx by mpmath tanh-sinh on the line split at 0, +-0.5, +-1, ...,
    +-64 and ``extra_breaks`` (kinks of g); ``half``: integrate over x >= 0 only; at two
    precisions (:func:`at_two_precisions`): mpmath's estimate can be short (E[(bX + t)] over
    [-1, -1/2] at b = 0.0025 came out 1.1e-27 off at 30 and 31 digits under an estimate of
    1e-33, right at 32).  The Airy values are memoised, so integrands sharing the breaks reuse
    them."""
    pts = {mp.mpf(0)}
    for d in _EXPECT_BREAKS:
        pts.add(mp.mpf(d))
        if not half:
            pts.add(mp.mpf(-d))
    for b in extra_breaks:
        b = mp.mpf(b)
        if (not half or b > 0) and abs(b) < 64:
            pts.add(b)
    nodes = ([] if half else [-mp.inf]) + sorted(pts) + [mp.inf]

    def route():
        v, e = mp.quad(lambda x: g(x) * mp_pdf(x), nodes, error=True)
        return v, abs(e) + 10 * mp.eps * abs(v)
    return at_two_precisions(route)


FOLD_WINDOW = 24.0  # f(24) ~ e^-157: the folded float64 integrals stop there
# relative error floor of float64 quantities built on the score: scipy's Ai, Ai' carry ~1e-15
# relative error, which s' = s^2/2 - 2z amplifies to < 1e-13 (7.9e-14 observed at x = 3)
FOLD_FLOOR = 2e-13


def fold_edges(delta: float = 0.0) -> np.ndarray:
    """Panel edges on [0, FOLD_WINDOW] for folded integrals over x >= 0 (width 1/4 below 4, then
    1/2), with ``delta`` added as an edge (the kink of f(x - delta))."""
    e = list(np.arange(0.0, 4.0, 0.25)) + list(np.arange(4.0, FOLD_WINDOW + 1e-9, 0.5))
    if 0 < delta < FOLD_WINDOW:
        e.append(delta)
    return np.array(sorted(set(round(v, 15) for v in e)))


@lru_cache(maxsize=512)
def score_cgf_float(u: float) -> Estimate:
    """K_s(u) = log E exp(u s(X)) in float64.  u <= 1: folded
    ``log1p(int_0^inf f (e^{us} + e^{-us} - 2))`` on [0, FOLD_WINDOW]; u > 1: the log-window
    integral around the peak x ~ u/2 of f e^{us}.  Cross-checked against :func:`score_cgf`."""
    u = float(validate.real("u", u, lo=0))
    if u <= 1.0:
        vals = []
        for rule in (GL16, GL10):
            x, w = panel_nodes(fold_edges(0.0), rule)
            g = 4.0 * np.sinh(u * score(x) / 2) ** 2 * np.exp(logpdf(x))
            vals.append(float(g @ w))
        J, J10 = vals
        return Estimate(math.log1p(J), abs(J - J10) / (1 + J) + 1e-15 * math.log1p(J))

    def ell(x):
        s = score(x)
        return logpdf(x) + u * s + np.log1p(np.exp(-2 * u * s))

    y0 = max(u / 2, 0.5)
    return log_window_integral(ell, y0, max(1.0, y0 ** 0.25), lo=0.0)
