"""Gaussian Renyi divergences written out independently of the library, at the caller's
precision: the references of the sweeps that hold the engine's bars against closed forms."""

from __future__ import annotations

import mpmath


def gaussian_F(a, m1, s1, m2, s2):
    """(alpha - 1) D_alpha(N(m1, s1^2) || N(m2, s2^2)); inf where alpha s2^2 + (1 - alpha) s1^2 <= 0."""
    a, m1, s1, m2, s2 = (mpmath.mpf(v) for v in (a, m1, s1, m2, s2))
    var = a * s2 ** 2 + (1 - a) * s1 ** 2
    if var <= 0:
        return mpmath.inf
    return (a - 1) * (mpmath.log(s2 / s1) + a * (m1 - m2) ** 2 / (2 * var)) + mpmath.log(s2 ** 2 / var) / 2


def gaussian_kl(m1, s1, m2, s2):
    """KL(N(m1, s1^2) || N(m2, s2^2))."""
    m1, s1, m2, s2 = (mpmath.mpf(v) for v in (m1, s1, m2, s2))
    return mpmath.log(s2 / s1) + (s1 ** 2 + (m1 - m2) ** 2) / (2 * s2 ** 2) - mpmath.mpf(1) / 2
