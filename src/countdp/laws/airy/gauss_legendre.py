"""Expectations under the Airy law for many integrands on one set of nodes: composite
Gauss-Legendre rules with the density folded into the weights, at one binary precision."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from mpmath import mp

from ...numerics.contexts import to_arb
from ...numerics.estimate import Estimate
from .mp_values import mp_pdf

try:  # the Arb pass of MpGaussLegendre.tilted_sign_moments
    import flint as _flint
except ImportError:  # pragma: no cover
    _flint = None

__all__ = ["MpGaussLegendre", "mp_gauss_legendre"]


class MpGaussLegendre:
    """Composite Gauss-Legendre rules (24 and 12 points per panel, mpmath's nodes) on panels of
    [-32, 32] (width 1/2 up to |x| = 8, then 1; a break at 0, where f is only C^2), with
    w_i f(x_i) precomputed at one binary precision: E g(X) for many g (e.g. e^{bX} for many b)
    then costs one pass over the nodes.  The tails |x| > 32 (mass ~ e^-241) are left out; callers
    check ``f(32) e^{32 b}`` against the precision (:meth:`tail_ok`).  Get one with
    :func:`mp_gauss_legendre` (cached per precision)."""

    X_MAX = 32

    def __init__(self, prec: int):
        from mpmath.calculus.quadrature import GaussLegendre

        self.prec = prec
        with mp.workprec(prec):
            gl = GaussLegendre(mp)
            self.base = {24: gl.calc_nodes(4, prec), 12: gl.calc_nodes(3, prec)}
            pos = [mp.mpf(k) / 2 for k in range(0, 17)] + [mp.mpf(k) for k in range(9, self.X_MAX + 1)]
            self.edges = sorted({-p for p in pos} | set(pos))
            self.panels = {n: [self._panel(a, b, n) for a, b in zip(self.edges[:-1], self.edges[1:])]
                           for n in self.base}

    def _panel(self, a, b, n):
        half, mid = (b - a) / 2, (b + a) / 2
        xs = [mid + half * x for x, _ in self.base[n]]
        ws = [half * w * mp_pdf(x) for x, (_, w) in zip(xs, self.base[n])]
        return a, b, xs, ws

    def tail_ok(self, b) -> bool:
        """Whether f(32) e^{32 |b|} is below the precision (the left-out tails of E e^{bX})."""
        with mp.workprec(self.prec):
            return bool(mp_pdf(self.X_MAX) * mp.exp(abs(mp.mpf(b)) * self.X_MAX)
                        < mp.mpf(2) ** (-self.prec - 10))

    @lru_cache(maxsize=64)
    def nodes(self, n: int, split=None):
        """Flattened (xs, ws) of the n-point rule, the panel holding ``split`` split there."""
        xs, ws = [], []
        with mp.workprec(self.prec):
            for a, b, px, pw in self.panels[n]:
                if split is not None and a < split < b:
                    for _, _, qx, qw in (self._panel(a, split, n), self._panel(split, b, n)):
                        xs += qx
                        ws += qw
                else:
                    xs += px
                    ws += pw
        return xs, ws

    def expect(self, g: Callable, split=None, error: bool = True) -> list[Estimate]:
        """E g(X) for a function g of one mpf returning a tuple of values (several expectations
        in one pass), by the 24-point rule, with error |24-point - 12-point| + rounding when
        ``error`` (else 0); ``split``: a point where g jumps (its panel is split there)."""
        with mp.workprec(self.prec):
            xs, ws = self.nodes(24, split)
            v24 = [mp.fdot(ws, col) for col in zip(*[g(x) for x in xs])]
            if not error:
                return [Estimate(v, mp.zero) for v in v24]
            xs, ws = self.nodes(12, split)
            v12 = [mp.fdot(ws, col) for col in zip(*[g(x) for x in xs])]
            return [Estimate(a, abs(a - b) + 100 * mp.eps * abs(a)) for a, b in zip(v24, v12)]

    def tilted_sign_moments(self, b, split, error: bool = True) -> tuple[Estimate, Estimate]:
        """E[expm1(bX) sign(X - split)] and E[X e^{bX} sign(X - split)] by the 24-point rule
        (error |24-point - 12-point| + rounding when ``error``, else 0), the sums in Arb balls
        at this grid's precision + 20 bits: the same rule as :meth:`expect` with g = (sign *
        expm1(bx), sign * x e^{bx}), about 15x faster than mpmath's scalar arithmetic."""
        if _flint is None:  # pragma: no cover - python-flint is a dependency
            raise RuntimeError("python-flint is needed for tilted_sign_moments")
        with mp.workprec(self.prec):
            b = mp.mpf(b)
            if split is not None:
                split = mp.mpf(split)
            v24 = _tilted_sign_sums(self, 24, b, split)
            if not error:
                return tuple(Estimate(v, mp.zero) for v in v24)
            v12 = _tilted_sign_sums(self, 12, b, split)
            return tuple(Estimate(a, abs(a - c) + 100 * mp.eps * abs(a)) for a, c in zip(v24, v12))


@lru_cache(maxsize=64)
def _ball_nodes(grid: MpGaussLegendre, n: int, split=None) -> tuple[list, list, list]:
    """The grid's n-point nodes and weights as Arb balls (exact: the grid's binary numbers) and
    the sign of x - split at each node."""
    xs, ws = grid.nodes(n, split)
    with _flint.ctx.workprec(grid.prec + 32):
        xa, wa = [to_arb(x) for x in xs], [to_arb(w) for w in ws]
    signs = [1 if split is None or x > split else -1 for x in xs]
    return xa, wa, signs


def _tilted_sign_sums(grid: MpGaussLegendre, n: int, b, split) -> tuple:
    """The n-point sums of sign(x - split) (expm1(b x), x e^{b x}) w(x), in Arb balls at the
    grid's precision + 20 bits, their midpoints as mpf."""
    xa, wa, signs = _ball_nodes(grid, n, split)
    digits = int(grid.prec / 3.32) + 12
    with _flint.ctx.workprec(grid.prec + 20):
        bb = to_arb(b)
        h, d = _flint.arb(0), _flint.arb(0)
        for x, w, sg in zip(xa, wa, signs):
            e = (bb * x).expm1()
            t, u = w * e, w * x * (e + 1)
            if sg > 0:
                h, d = h + t, d + u
            else:
                h, d = h - t, d - u
        return (mp.mpf(h.mid().str(digits, radius=False)), mp.mpf(d.mid().str(digits, radius=False)))


@lru_cache(maxsize=8)
def mp_gauss_legendre(prec: int) -> MpGaussLegendre:
    """The :class:`MpGaussLegendre` grid at binary precision ``prec`` (built once)."""
    return MpGaussLegendre(prec)
