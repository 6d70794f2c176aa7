"""The standard normal quantile as a certified ball, by monotone bracketing.

The closed forms Phi, phi and Phi^{-1} (through ``arb.erfinv``) are the ball context's
``ncdf``, ``npdf`` and ``ncdf_inv`` (:mod:`countdp.numerics.contexts`).  :func:`normal_quantile`
is a second, independent enclosure of Phi^{-1}: it uses only the forward Phi and its
monotonicity, so a certificate can compare it with the erfinv evaluation.
"""

from __future__ import annotations

from flint import arb, ctx

from ..numerics.contexts import ball
from .verdicts import Undecided, interval, to_arb

__all__ = ["normal_quantile"]


def normal_quantile(p, prec: int | None = None) -> arb:
    """A ball provably containing Phi^{-1}(p') for every p' in the ball ``p`` (0 < p < 1).

    Method: Newton iteration on midpoints for an approximation x, then a certified bracket:
    since Phi is strictly increasing, ``Phi(x - d) < p < Phi(x + d)`` (decided by ball
    separation) proves the root lies in [x - d, x + d]; d is enlarged until both separate.
    Accuracy ~2^-prec relative to max(|x|, 1) plus the propagated radius of ``p``.
    """
    wp = ctx.prec if prec is None else int(prec)
    p = to_arb(p)
    if not (p > 0 and p < 1):
        raise Undecided("the normal quantile needs 0 < p < 1 decided")
    with ctx.workprec(wp + 40):
        x_lo = _approximate_quantile(arb(p.lower()))
        x_hi = _approximate_quantile(arb(p.upper()))
        delta = arb(2) ** (-wp) * max(abs(float(x_lo.mid())), abs(float(x_hi.mid())), 1.0)
        for _ in range(200):
            lo = arb((x_lo - delta).lower())
            hi = arb((x_hi + delta).upper())
            if ball.ncdf(lo) < p and ball.ncdf(hi) > p:
                break
            delta = delta * 4
        else:
            raise Undecided("the normal quantile bracket is not certified")
    with ctx.workprec(wp):
        return interval(lo, hi)


def _approximate_quantile(pm: arb) -> arb:
    """Approximate (not certified) Phi^{-1} of an exact ``pm``: erfinv guess (bisection on
    midpoints if that fails), then Newton steps on midpoints."""
    guess = (2 * pm - 1).erfinv() * arb(2).sqrt()
    if guess.is_finite():
        x = arb(guess.mid())
    else:
        lo, hi = arb(-60), arb(60)
        for _ in range(ctx.prec + 10):
            m = arb(((lo + hi) / 2).mid())
            if ball.ncdf(m).mid() < pm.mid():
                lo = m
            else:
                hi = m
        x = arb(((lo + hi) / 2).mid())
    for _ in range(4):
        d = ball.npdf(x)
        if not (d > 0):
            break
        nx = x - (ball.ncdf(x) - pm) / d
        if not nx.is_finite():
            break
        x = arb(nx.mid())
    return x
