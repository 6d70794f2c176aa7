"""Certified integrals of Gaussian densities: the Renyi integral of two Gaussians with any
variances, its truncations, and the mass of a Gaussian above a point.

For P = N(mu_P, s_P^2), Q = N(mu_Q, s_Q^2) and alpha > 1 the integrand is
``p^alpha q^(1-alpha) = K f(x)`` with ``f(x) = exp(-A2 x^2/2 + B x + C)``,
``A2 = alpha/s_P^2 + (1-alpha)/s_Q^2`` (= s_a^2/(s_P^2 s_Q^2), s_a^2 the margin of eq (34)) and
``K = s_P^-alpha s_Q^(alpha-1)/sqrt(2 pi)``.  The densities are integrated as written by
``acb.integral`` on a finite window; the tails are bounded by (Q+) of
:mod:`countdp.arb.integrals`.  Where the margin is <= 0, f >= exp(B x + C) and the integral over R
is infinite: :func:`divergence_growth` then certifies truncations that exceed every level asked.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from flint import arb, fmpq

from .. import formulas
from .integrals import integrate, quad_exp_tail_lower, quad_exp_tail_upper, sqrt_2pi, tail_width, upper_point
from .ranges import RangeResult, tally
from .verdicts import Undecided, Verdict, ball_str, nonneg_interval, to_arb

__all__ = ["RenyiIntegrand", "RenyiEnclosure", "MassBounds", "renyi_integrand",
           "gaussian_renyi_enclosure", "truncated_renyi_lower_bound", "divergence_growth",
           "gaussian_mass_above"]


@dataclass(frozen=True)
class RenyiIntegrand:
    """``p^alpha q^(1-alpha) = K f(x)``, ``f = exp(-A2 x^2/2 + B x + C)`` (balls), and ``f``
    itself, evaluated from the two exponents as written (so that the certified integral does not
    rest on the completed square)."""

    alpha: arb
    a2: arb
    b: arb
    c: arb
    k: arb
    f: Callable


@dataclass(frozen=True)
class RenyiEnclosure:
    """Certified ``integral = int p^alpha q^(1-alpha) dx`` and ``divergence = log(integral)/(alpha-1)``."""

    integral: arb
    divergence: arb


@dataclass(frozen=True)
class MassBounds:
    """A certified ``lower`` bound and an ``enclosure`` of a probability."""

    lower: arb
    enclosure: arb


def renyi_integrand(alpha, mu_p, s_p, mu_q, s_q) -> RenyiIntegrand:
    """The parts of p^alpha q^(1-alpha) for P = N(mu_p, s_p^2), Q = N(mu_q, s_q^2); raises
    Undecided unless alpha > 1, s_p > 0 and s_q > 0 are decided."""
    al, mp_, sp, mq, sq = map(to_arb, (alpha, mu_p, s_p, mu_q, s_q))
    if not (al > 1 and sp > 0 and sq > 0):
        raise Undecided("alpha > 1, s_P > 0, s_Q > 0 required")
    a2 = al / (sp * sp) + (1 - al) / (sq * sq)
    b = al * mp_ / (sp * sp) + (1 - al) * mq / (sq * sq)
    c = -(al * mp_ * mp_ / (2 * sp * sp) + (1 - al) * mq * mq / (2 * sq * sq))
    k = sp ** (-al) * sq ** (al - 1) / sqrt_2pi()

    def f(x):
        return (-al * (x - mp_) ** 2 / (2 * sp * sp)
                - (1 - al) * (x - mq) ** 2 / (2 * sq * sq)).exp()
    return RenyiIntegrand(al, a2, b, c, k, f)


def gaussian_renyi_enclosure(alpha, mu_p, s_p, mu_q, s_q) -> RenyiEnclosure:
    """Certified I = int p^alpha q^(1-alpha) dx and D_alpha(P || Q) for Gaussians with any
    variances, when A2 > 0 (the margin of eq 34 positive) is decided.  The densities are
    integrated on [m - W, m + W] (m = B/A2, W = (t0 + 2)/sqrt(A2), exact endpoints); the tails
    by (Q+) and its mirror, times e^C."""
    parts = renyi_integrand(alpha, mu_p, s_p, mu_q, s_q)
    if not (parts.a2 > 0):
        raise Undecided("alpha s_Q^2 + (1-alpha) s_P^2 > 0 not decided")
    m = parts.b / parts.a2
    w = (tail_width() + 2) / parts.a2.sqrt()
    lo, hi = arb((m - w).lower()), upper_point(m + w)
    tails = parts.c.exp() * (quad_exp_tail_upper(parts.a2, parts.b, hi)
                             + quad_exp_tail_lower(parts.a2, parts.b, lo))
    integral = parts.k * (integrate(parts.f, lo, hi) + nonneg_interval(tails))
    return RenyiEnclosure(integral, integral.log() / (parts.alpha - 1))


def truncated_renyi_lower_bound(alpha, mu_p, s_p, mu_q, s_q, T) -> arb:
    """Certified int_{-T}^{T} p^alpha q^(1-alpha) dx (T exact) for any Gaussians: a lower bound
    of the full integral (the integrand is positive)."""
    parts = renyi_integrand(alpha, mu_p, s_p, mu_q, s_q)
    T = to_arb(T)
    return parts.k * integrate(parts.f, -T, T)


def divergence_growth(alpha, mu_p, s_p, mu_q, s_q, levels: int = 4, max_steps: int = 200) -> RangeResult:
    """For rational parameters, the statement "for every j = 1..levels some T_j has
    int_{-T_j}^{T_j} p^alpha q^(1-alpha) dx > 10^j", decided level by level.

    If the exact margin alpha s_Q^2 + (1-alpha) s_P^2 of eq (34) is <= 0 then A2 <= 0, so the
    integrand K exp(-A2 x^2/2 + B x + C) >= K exp(B x + C), whose integral over R is infinite
    for every B: D_alpha = inf (this is the proof).  The certified lower bounds (found by
    increasing T by factors 3/2) are evidence of the growth.  If the margin is > 0 the full
    integral I is finite and level j is PROVED_FALSE as soon as I < 10^j (certified):
    truncations are <= I.  ``extra`` holds the margin, the (T_j, lower bound) pairs and the last
    lower bound."""
    t = time.perf_counter()
    margin = formulas.gaussian_renyi_margin.exact(alpha, s_p, s_q)
    whole = gaussian_renyi_enclosure(alpha, mu_p, s_p, mu_q, s_q).integral if margin > 0 else None
    steps, T, last = [], fmpq(1), [None]

    def gen():
        nonlocal T
        for j in range(1, levels + 1):
            target = arb(10) ** j
            if whole is not None and whole < target:
                yield j, Verdict.PROVED_FALSE
                continue
            vd = Verdict.UNDECIDED
            for _ in range(max_steps):
                low = truncated_renyi_lower_bound(alpha, mu_p, s_p, mu_q, s_q, arb(T))
                if low > target:
                    vd = Verdict.PROVED_TRUE
                    steps.append((str(T), ball_str(low, 8)))
                    last[0] = low
                    break
                T = T * fmpq(3, 2)
            yield j, vd
    res = tally(gen(), "lower bounds of truncated integrals")
    res.seconds = time.perf_counter() - t
    res.extra = {"margin": str(margin), "T_j, lower bound": steps, "last": last[0]}
    return res


def gaussian_mass_above(mu, s, x0=0) -> MassBounds:
    """Certified bounds on P(N(mu, s^2) > x0), x0 < mu decided.  Lower bound: the integral of
    the density over [x0, X], X = mu + s (t0 + 1) exact (positive integrand).  Enclosure: plus the
    tail beyond X by (Q+) (A2 = 1/s^2, B = mu/s^2, times exp(-mu^2/(2 s^2))/(s sqrt(2 pi)))."""
    mu, s, x0 = to_arb(mu), to_arb(s), to_arb(x0)
    if not (s > 0 and x0 < mu):
        raise Undecided("s > 0 and x0 < mu required")
    X = upper_point(mu + s * (tail_width() + 1))
    k = 1 / (s * sqrt_2pi())
    low = k * integrate(lambda x: (-(x - mu) ** 2 / (2 * s * s)).exp(), x0, X)
    tail = k * (-mu * mu / (2 * s * s)).exp() * quad_exp_tail_upper(1 / (s * s), mu / (s * s), X)
    return MassBounds(low, low + nonneg_interval(tail))
