"""Dual certificates for the lattice problems of :mod:`countdp.divergence.lattice_shift`: a sequence
u (log-ratios) with W_u(k) + lam |x_k| >= m for *every* k in Z gives

    min F at mean absolute value M  >=  m - lam M        for every M.

Construction (shooting).  Fix lam and a trial constant mu.  Far on the left (x_{L-1} < 0 with
lam |x_{L-1}| > mu) start from a constant log-ratio u_L chosen so that W(u_L, u_L) + lam|x_{L-1}| =
mu; for k <= L - 1 the sequence is constant (W constant, lam |x_k| grows to the left, so every
site k < L has W + lam|x_k| >= mu).  Then solve W(u_k, u_{k+1}) = mu - lam |x_k| for u_{k+1}
(W increases in its second argument: a unique solution, :func:`next_ratio`) going right.  Past
x = 0 one of two things happens:

* ``"low"``: the sequence stops increasing (u_{k+1} < u_k at some k = F with x_F > 0); freeze it,
  u_j = u_F for j > F: W(F) with u_{F+1} = u_F is then >= the recursion's, and for j > F W is
  constant while lam |x_j| grows.  So the frozen sequence is a certificate of mu itself;
* ``"high"``: the sequence blows up (u above ``U_BLOWUP``, or the Dirichlet ratio would need a
  negative psi): mu is above the minimum's KKT constant.

Bisection on mu between the two outcomes gives the KKT constant from below (the last "low" mu and
its frozen sequence, a certificate) and from above.  The certificate is decided in balls by
:mod:`countdp.arb.lattice_shift`; here it is float64.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from ..laws.lattice import DualSequence
from ..numerics import validate
from .lattice_shift import KINDS, site_gradient, window_for

__all__ = ["start_ratio", "next_ratio", "shoot", "dual_certificate", "U_BLOWUP"]

U_BLOWUP = 30.0   # a log-ratio above this (a factor e^30 between neighbours) is a blow-up


def _acosh1p(g: float) -> float:
    """acosh(1 + g) = log1p(g + sqrt(g (g + 2))) for g >= 0, without rounding 1 + g first (which
    would cost half the digits at g ~ 1e-8)."""
    return math.log1p(g + math.sqrt(g * (g + 2)))


def start_ratio(kind: str, g: float) -> float:
    """The constant log-ratio u < 0 with W(u, u) = -g (g = lam |x_{L-1}| - mu > 0)."""
    if g <= 0:
        raise ValueError("the shooting must start where lam |x| > mu")
    if kind == "symmetric":                      # 1 - cosh u = -g
        return -_acosh1p(g)
    if kind == "dirichlet":                      # 2 - 2 cosh(u/2) = -g
        return -2 * _acosh1p(g / 2)
    u = -g - 1.0                                 # one-sided: e^u - 1 - u = g, the root u < 0
    for _ in range(200):
        step = (math.expm1(u) - u - g) / math.expm1(u)
        u -= step
        if abs(step) < 1e-16 * (1 + abs(u)):
            break
    return u


def _symmetric_next(c: float, guess: float) -> float:
    """The u with u - e^{-u} = c: Newton from ``guess`` (the previous log-ratio, close by; the
    function is concave and increasing, so after one step the iterates rise monotonically to the
    root), Lambert W when that does not settle."""
    u = guess
    for _ in range(40):
        if u < -700:
            break
        e = math.exp(-u)
        step = (u - e - c) / (1 + e)
        u -= step
        if abs(step) <= 1e-16 * (1 + abs(u)):
            return u
    if c > -600:
        return c + float(np.real(special.lambertw(math.exp(-c))))
    u = -math.log(-c)
    for _ in range(60):
        u = -math.log(u - c)
    return u


def next_ratio(kind: str, u: float, target: float) -> float:
    """u_{k+1} with W(u, u_{k+1}) = ``target`` (= mu - lam |x_k|); +inf when none exists (the
    Dirichlet recursion would make psi_{k+1} <= 0)."""
    if kind == "one-sided":
        return target - 1 + math.exp(u)
    if kind == "symmetric":
        return _symmetric_next(2 * target + u - 2 + math.exp(u), u)
    c = 2 - math.exp(u / 2) - target            # dirichlet: e^{-u'/2} = c
    return -2 * math.log(c) if c > 0 else math.inf


def shoot(kind: str, theta: float, lam: float, mu: float, K: int):
    """One shot at constant ``mu`` from x_{L-1} = -K - 1 + theta: ("low", sequence), ("high", None)
    or ("undecided", None) when neither happened by x = K."""
    L = -K
    u = start_ratio(kind, lam * abs(L - 1 + theta) - mu)
    us = [u]
    k = L
    while k <= K:
        un = next_ratio(kind, u, mu - lam * abs(k + theta))
        if k + theta > 0 and un < u:
            return "low", np.array(us)
        if not un < U_BLOWUP:
            return "high", None
        us.append(un)
        u, k = un, k + 1
    return "undecided", None


def _bound(kind, theta, lam, L, u) -> float:
    ue = np.concatenate(([u[0]], u, [u[-1]]))    # u_{L-1} = u_L, u_{F+1} = u_F
    k = np.arange(L - 1, L + len(u))
    return float(np.min(site_gradient(kind, ue[:-1], ue[1:]) + lam * np.abs(k + theta)))


def dual_certificate(kind: str, theta, lam, mu_hi: float | None = None,
                     K: int | None = None, max_iter: int = 200) -> DualSequence:
    """Bisection on mu (from [0, mu_hi]) to the float resolution; the last "low" sequence, frozen,
    with its float64 bound.  ``mu_hi`` defaults to 4 times the continuum KKT constant."""
    kind = validate.choice("kind", kind, KINDS)
    theta = validate.real("theta", theta, lo=0, hi=1, lo_open=False)
    lam = validate.real("lam", lam, lo=0)
    K = 2 * window_for(kind, lam) if K is None else K
    if mu_hi is None:
        ell = lam ** (-1 / 3) if kind == "dirichlet" else (2 / lam) ** (1 / 3)
        mu_hi = 4 * 1.0188 * (1 if kind == "dirichlet" else 2) / ell ** 2
    lo, hi, best = 0.0, float(mu_hi), None
    for _ in range(max_iter):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        outcome, u = shoot(kind, theta, lam, mid, K)
        if outcome == "undecided":
            raise ArithmeticError(f"shooting at mu = {mid!r} decided nothing within |x| <= {K}")
        if outcome == "low":
            lo, best = mid, u
        else:
            hi = mid
    if best is None:
        raise ArithmeticError("no certificate: every trial mu blew up")
    return DualSequence(kind, float(theta), float(lam), lo, -K, best, _bound(kind, theta, lam, -K, best))
