"""Enclosed integrals: ``acb.integral`` on a finite interval plus proven tail bounds.

Tail bounds (proved here, cited elsewhere as (G+), (G-), (Q+), (N)).  For real ``b`` and ``L``::

    (G+)  int_L^inf  exp(-x^2/2 + b x) dx <= exp(-L^2/2 + b L) / (L - b)     if L > b,
    (G-)  int_-inf^L exp(-x^2/2 + b x) dx <= exp(-L^2/2 + b L) / (b - L)     if L < b.

Proof of (G+): for ``x >= L``, ``-x^2/2 + b x = -L^2/2 + b L + (x - L)(b - (x + L)/2)`` and
``(x + L)/2 >= L``, so the exponent is ``<= -L^2/2 + b L - (x - L)(L - b)``; integrating the
exponential ``exp(-(x - L)(L - b))`` over ``x >= L`` gives ``1/(L - b)``. (G-) is (G+) after
``x -> -x``, ``b -> -b``, ``L -> -L``.

    (Q+)  int_L^inf exp(-A2 x^2/2 + B x) dx <= exp(-A2 L^2/2 + B L)/(A2 L - B)   if A2 >= 0,
          A2 L > B  (the same argument with the exponent's slope A2 L - B at L);
    (N)   int_{|z|>T} |z|^k e^{-z^2/2} dz <= 2 e^{-T^2/2}/T, 2 e^{-T^2/2}, 2(T + 1/T) e^{-T^2/2}
          for k = 0, 1, 2 and T > 0 (k = 1 exactly; k = 0 by (G+) with b = 0; k = 2 by parts).

A finite ``acb.integral`` ball plus ``[0, tail]`` (or ``[-tail, tail]`` for signed integrands)
is then a rigorous enclosure of the whole integral.
"""

from __future__ import annotations

import math
from typing import Callable

from flint import acb, arb, ctx

from .verdicts import Undecided, to_arb

__all__ = ["gauss_tail_upper", "gauss_tail_lower", "quad_exp_tail_upper", "quad_exp_tail_lower",
           "normal_moment_tail", "tail_width", "upper_point", "integrate", "sqrt_2pi"]


def gauss_tail_upper(L, b) -> arb:
    """(G+): upper bound (exact ball) of int_L^inf exp(-x^2/2 + b x) dx; needs L > b decided."""
    L, b = to_arb(L), to_arb(b)
    if not (L > b):
        raise Undecided("tail bound (G+) needs L > b")
    return arb(((-L * L / 2 + b * L).exp() / (L - b)).upper())


def gauss_tail_lower(L, b) -> arb:
    """(G-): upper bound (exact ball) of int_-inf^L exp(-x^2/2 + b x) dx; needs L < b decided."""
    L, b = to_arb(L), to_arb(b)
    if not (L < b):
        raise Undecided("tail bound (G-) needs L < b")
    return arb(((-L * L / 2 + b * L).exp() / (b - L)).upper())


def quad_exp_tail_upper(A2, B, L) -> arb:
    """(Q+): upper bound (exact ball) of int_L^inf exp(-A2 x^2/2 + B x) dx; needs A2 >= 0 and
    A2 L > B decided."""
    A2, B, L = to_arb(A2), to_arb(B), to_arb(L)
    if not (A2 >= 0 and A2 * L > B):
        raise Undecided("tail bound (Q+) needs A2 >= 0 and A2 L > B")
    return arb(((-A2 * L * L / 2 + B * L).exp() / (A2 * L - B)).upper())


def quad_exp_tail_lower(A2, B, L) -> arb:
    """(Q+) mirrored: upper bound of int_-inf^L exp(-A2 x^2/2 + B x) dx; needs B > A2 L."""
    return quad_exp_tail_upper(A2, -to_arb(B), -to_arb(L))


def normal_moment_tail(T, k: int) -> arb:
    """(N): upper bound (exact ball) of int_{|z|>T} |z|^k e^{-z^2/2} dz for k in {0, 1, 2}."""
    T = to_arb(T)
    if not (T > 0):
        raise Undecided("(N) needs T > 0")
    g = (-T * T / 2).exp()
    if k == 0:
        val = 2 * g / T
    elif k == 1:
        val = 2 * g
    elif k == 2:
        val = 2 * (T + 1 / T) * g
    else:
        raise ValueError(f"k must be 0, 1 or 2, got {k}")
    return arb(val.upper())


def tail_width() -> arb:
    """Tail width: exp(-t0^2/2) <= 2^-(prec+20)."""
    return arb(math.ceil(math.sqrt(2 * (ctx.prec + 20) * math.log(2))) + 1)


def upper_point(x) -> arb:
    """An exact number >= every point of the ball ``x`` (used for cut-off points T, L)."""
    return arb(to_arb(x).upper())


def integrate(f: Callable, a, b, analytic_aware: bool = False, rel_tol=None) -> arb:
    """Certified int_a^b f via ``acb.integral`` (real result). ``f`` must be entire unless
    ``analytic_aware`` (then ``f(z, analytic)`` honours the analytic flag).

    ``acb.integral`` is only run between exact endpoints (the midpoints of ``a``, ``b``); when an
    endpoint is a ball (e.g. the kink z = sigma), the missing piece int_{mid(b)}^{b'} f for
    b' in b is enclosed by the mean value theorem as f(ball b) * (b - mid(b)) (f real and
    continuous on the real line), likewise at ``a``. Parameters captured by ``f`` may be balls:
    the Gauss-Legendre error bound then holds uniformly over them.  ``rel_tol`` (default
    ``2^-prec``) is acb.integral's relative goal; a looser goal only widens the returned ball.
    """
    a, b = to_arb(a), to_arb(b)
    am, bm = arb(a.mid()), arb(b.mid())
    g = f if analytic_aware else (lambda z, _an: f(z))
    res = acb.integral(g, am, bm) if rel_tol is None else acb.integral(g, am, bm, rel_tol=rel_tol)
    if not res.is_finite() or not res.imag.contains(0):
        raise Undecided("acb.integral did not return a finite real enclosure")
    out = res.real
    for end, mid, sign in ((b, bm, 1), (a, am, -1)):
        if not end.is_exact():
            fe = g(acb(end), False)
            if not fe.is_finite():
                raise Undecided("integrand not finite at a ball endpoint")
            out = out + sign * fe.real * (end - mid)
    return out


def sqrt_2pi() -> arb:
    return (2 * arb.pi()).sqrt()
