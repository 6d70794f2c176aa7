"""Expectations under a law: quadrature from its densities and atoms, and Monte Carlo of its
sampler (the routes checks compare closed forms with)."""

from __future__ import annotations

from typing import Callable

import mpmath
import numpy as np

from ..numerics import validate
from ..numerics.estimate import at_two_precisions
from ..numerics.quadrature import smooth_quad
from ..numerics.montecarlo import MCEstimate, mc_mean
from .base import Law, check_law


def mc_abs_error(law: Law, n, rng: np.random.Generator, draws: int = 10**6) -> MCEstimate:
    """Monte Carlo of E|Y - n| for Y drawn from ``law`` (the mechanism's own sampler); ``rng``: a
    Generator, an integer seed or None; ``draws``: 2 .. 10^10."""
    check_law("law", law)
    n = validate.count("n", n, hi=2 ** 53)  # |Y - n| in float64: n exact
    return mc_mean(lambda g, m: np.abs(law.sample(g, m) - n), rng, draws)


def quad_expectation(law: Law, g: Callable, breaks=(), rule: str = "tanh-sinh",
                     g_of_t: bool = False) -> tuple[mpmath.mpf, mpmath.mpf]:
    """E g(Y) = sum_atoms g(x) p(x) + integral g(x) f(x) dx by mpmath quadrature in the law's
    integration coordinate, split at ``breaks`` (x-values, e.g. kinks of g).  ``rule``:
    ``"tanh-sinh"``, or ``"gauss-legendre"`` when g is smooth between its breaks (used only if the
    density declares no kink; tanh-sinh is kept where its estimate is smaller).  ``g_of_t``: g
    takes the integration coordinate t instead of x(t), for a g that x(t) would round away (of a
    law without atoms).  Returns (value, error estimate)."""
    check_law("law", law)
    validate.function("g", g)
    if isinstance(breaks, (str, bytes)) or not hasattr(breaks, "__iter__"):
        raise validate.ParameterTypeError(f"breaks must be an iterable of real numbers, got "
                                          f"{type(breaks).__name__}")
    breaks = [validate.real("breaks", b) for b in breaks]
    validate.choice("rule", rule, ("tanh-sinh", "gauss-legendre"))
    if law.integer and not law.atoms():
        # an integer law known by its pmf: sum over a window holding all but 1e-(dps-5) of the
        # mass; g is assumed to grow at most polynomially, the omitted tail is in the error
        tail = mpmath.mpf(10) ** (-mpmath.mp.dps + 5)
        lo, hi = law.window(tail)
        terms = [g(mpmath.mpf(k)) * law.mp_pmf(k) for k in range(lo, hi + 1)]
        bound = max(abs(g(mpmath.mpf(lo))), abs(g(mpmath.mpf(hi))), 1)
        return mpmath.fsum(terms), tail * bound * 10 + mpmath.eps * len(terms)
    if g_of_t and law.atoms():
        raise ValueError("g_of_t: g of the integration coordinate needs a law without atoms")
    total = mpmath.fsum(g(x) * p for x, p in law.atoms().items())
    err = mpmath.mpf(0)
    d = law.density
    if d is not None:
        t_lo, t_hi = d.t_range()
        c, s = d.t_center_scale()
        pts = {c + k * s for k in (-12, -8, -5, -3, -2, -1, 0, 1, 2, 3, 5, 8, 12)}
        for b in (*breaks, *getattr(d, "breakpoints", ())):
            tb = _t_of_x(d, mpmath.mpf(b))
            if tb is not None:
                pts.add(tb)
        lo_mp = getattr(d, "mp_t_lo", lambda: None)()
        lo = lo_mp if lo_mp is not None else (mpmath.mpf(t_lo) if np.isfinite(t_lo) else -mpmath.inf)
        hi = mpmath.mpf(t_hi) if np.isfinite(t_hi) else mpmath.inf
        inner = sorted(p for p in pts if lo < p < hi)

        def f(t):
            lf = d.mp_log_integrand_t(t)
            return mpmath.mpf(0) if lf == -mpmath.inf else g(t if g_of_t else d.to_x(t)) * mpmath.exp(lf)

        nodes = [lo] + sorted(set(inner) | _beyond(f, mpmath.mpf(c), mpmath.mpf(s), lo, hi)) + [hi]

        def route():
            val, e = _integral(f, nodes, rule if not getattr(d, "breakpoints", ()) else "tanh-sinh")
            return val, abs(e) + 1000 * mpmath.eps * abs(val)
        # mpmath's own estimate can be short: E (Y - a)^2 of a Laplace law came out 1e-27 off at
        # 31 digits under a bar of 3e-32 (right at 30 and at 32)
        est = at_two_precisions(route)
        total += est.value
        err += est.error
    return total, err


def _beyond(f, c, s, lo, hi) -> set:
    """Nodes where g f has its mass beyond the 12 scales of the fixed nodes (g = e^{kx} tilts a
    Gaussian's mass k s^2 out: at k s = 100 it gave a value 5e-13 off under a bar of 2e-28): where
    |g f| still grows from 8 to 12 scales out, it is followed out, the step doubling, while it
    grows, and the bracket of its peak gets 16 nodes.  Empty when the integrand falls there."""
    extra = set()
    for out in (1, -1):
        t, prev = c + out * 12 * s, c + out * 8 * s
        if not (lo < t < hi and lo < prev < hi):
            continue
        v, step = abs(f(t)), 4 * s
        if not v > abs(f(prev)):
            continue
        for _ in range(64):
            step *= 2
            nxt = t + out * step
            v_nxt = abs(f(nxt)) if lo < nxt < hi else 0
            if not v_nxt > v:
                break
            prev, t, v = t, nxt, v_nxt
        end = min(max(t + out * step, lo), hi)
        a, b = sorted((prev, end if mpmath.isfinite(end) else t + out * step))
        extra |= {a + (b - a) * k / 16 for k in range(17) if lo < a + (b - a) * k / 16 < hi}
    return extra


def _integral(f, nodes, rule):
    """mpmath quadrature over the nodes: tanh-sinh, or by :func:`smooth_quad` (Gauss-Legendre,
    tanh-sinh kept where its estimate is smaller) when the caller declares ``rule="gauss-legendre"``
    (g smooth between its ``breaks``) and the density declares no kink."""
    if rule == "tanh-sinh":
        return mpmath.quad(f, nodes, error=True, maxdegree=10)
    val, err, _ = smooth_quad(f, nodes, rel_enough=1000 * mpmath.eps, rule=rule)
    return val, err


def _t_of_x(d, x):
    """The integration coordinate of x, or None when x is outside the density's support."""
    if not (d.lo < x < d.hi):
        return None
    return d.to_t(x)
