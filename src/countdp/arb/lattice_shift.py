"""Certified enclosures of the lattice minima of :mod:`countdp.divergence.lattice_shift`.

* Lower bound (:func:`dual_bound`): a :class:`countdp.laws.lattice.DualSequence` u is
  read exactly (its float64 values are rationals) and ``m = min_k W_u(k) + lam |x_k|`` over the
  sites L-1 .. F is enclosed in balls, with W the closed forms of
  :mod:`countdp.formulas.lower_bound_cstar`; the sites outside need no evaluation (W is constant
  there and lam |x_k| grows away from the window; the sequence's construction guarantees
  x_{L-1} < 0 < x_F, checked here exactly).  Then min F at mean absolute value M >= m - lam M.
* Upper bound (:func:`primal_value`): the law of a :class:`countdp.laws.lattice.LatticeLaw` (window
  read exactly, geometric tails), its mass, first absolute moment and objective enclosed in
  balls; F(p)/sum p is an upper bound on the minimum at the mean absolute value
  M_p = sum |x| p / sum p.

:func:`minimum_enclosure` combines both at the primal's M_p: [m - lam upper(M_p), F/sum p].
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from flint import arb

from .. import formulas
from ..laws.lattice import DualSequence, LatticeLaw
from .verdicts import Verdict, decide_le, to_arb

__all__ = ["dual_bound", "primal_value", "PrimalBalls", "Enclosure", "minimum_enclosure"]

_GRADIENT = {"symmetric": formulas.symmetric_site_gradient, "one-sided": formulas.one_sided_site_gradient,
             "dirichlet": formulas.dirichlet_site_gradient}
_SUMMAND = {"symmetric": lambda a, b: formulas.symmetric_summand.ball(a, b) / 2,
            "one-sided": formulas.one_sided_summand.ball, "dirichlet": formulas.hellinger_summand.ball}


def _x(k: int, theta) -> arb:
    return arb(k) + to_arb(theta)


def dual_bound(seq: DualSequence) -> arb:
    """A ball containing min over k in Z of W_u(k) + lam |x_k| (equal to the min over the sites
    L-1 .. F, which it evaluates)."""
    theta, lam = to_arb(seq.theta), to_arb(seq.lam)
    if not (Fraction(seq.L - 1) + Fraction(seq.theta) < 0 < Fraction(seq.F) + Fraction(seq.theta)):
        raise ValueError("the certificate needs x_{L-1} < 0 < x_F")
    grad = _GRADIENT[seq.kind].ball
    u = [arb(float(v)) for v in seq.u]
    ue = [u[0]] + u + [u[-1]]
    best = None
    for i in range(len(ue) - 1):
        k = seq.L - 1 + i
        val = grad(ue[i], ue[i + 1]) + lam * abs(arb(k) + theta)
        best = val if best is None else best.min(val)
    return best


@dataclass(frozen=True)
class PrimalBalls:
    mass: arb
    first: arb
    objective: arb

    @property
    def M(self) -> arb:
        return self.first / self.mass

    @property
    def value(self) -> arb:
        return self.objective / self.mass


def _tails(kind: str, p0, pn, x0, xn, rl, rr):
    """Closed-form tails: mass, first moment and objective beyond both ends of the window
    (ratios rl, rr < 1 moving away from it; x0 < 0 < xn)."""
    mass = p0 * rl / (1 - rl) + pn * rr / (1 - rr)
    first = (p0 * (abs(x0) * rl / (1 - rl) + rl / (1 - rl) ** 2)
             + pn * (xn * rr / (1 - rr) + rr / (1 - rr) ** 2))
    if kind == "symmetric":
        obj = (-p0 * rl.log() - pn * rr.log()) / 2
    elif kind == "one-sided":
        obj = p0 * (rl * rl.log() - rl + 1) / (1 - rl) + pn * (-rr.log() - 1 + rr) / (1 - rr)
    else:
        sl, sr = rl.sqrt(), rr.sqrt()
        obj = p0 * (1 - sl) / (1 + sl) + pn * (1 - sr) / (1 + sr)
    return mass, first, obj


def primal_value(kind: str, law: LatticeLaw) -> PrimalBalls:
    """Balls for sum p, sum |x| p and F(p) of the law p = exp(-(V - min V)) with geometric tails."""
    V = np.asarray(law.V, dtype=float)
    V = V - V.min()
    p = [(-arb(float(v))).exp() for v in V]
    x = [_x(int(k), law.theta) for k in law.k]
    uL, uR = arb(float(V[1])) - arb(float(V[0])), arb(float(V[-1])) - arb(float(V[-2]))
    if not (uL < 0 and uR > 0 and x[0] < 0 and x[-1] > 0):
        raise ValueError("primal_value needs a law decaying at both ends of a window around 0")
    mass, first, obj = _tails(kind, p[0], p[-1], x[0], x[-1], uL.exp(), (-uR).exp())
    summand = _SUMMAND[kind]
    for i, pi in enumerate(p):
        mass += pi
        first += abs(x[i]) * pi
        if i:
            obj += summand(p[i - 1], pi)
    return PrimalBalls(mass, first, obj)


@dataclass(frozen=True)
class Enclosure:
    """The minimum at the (ball-enclosed) mean absolute value M of a primal law lies in
    [lower, upper]; ``verdict`` decides lower <= upper (weak duality, a consistency check)."""

    M: arb
    lower: arb
    upper: arb
    verdict: Verdict

    @property
    def ball(self) -> arb:
        return self.lower.union(self.upper)


def minimum_enclosure(kind: str, law: LatticeLaw, seq: DualSequence) -> Enclosure:
    """[m - lam upper(M_p), F(p)/sum p] at M_p (``seq`` and ``law`` of the same lam and theta)."""
    if seq.kind != kind or seq.theta != law.theta:
        raise ValueError("the dual sequence and the law must be of the same problem and lattice")
    primal = primal_value(kind, law)
    M = primal.M
    lower = dual_bound(seq) - to_arb(seq.lam) * arb(M.upper())
    upper = primal.value
    return Enclosure(M, lower, upper, decide_le(arb(lower.lower()), arb(upper.upper())))
