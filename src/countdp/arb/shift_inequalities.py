"""The pointwise inequalities of the C* lower bound, certified over their whole domains.

With a, b > 0 write s = sqrt(a/b) = e^v and y = log(a/b)/4 = v/2.

* Symmetric: (a - b) log(a/b) = 4 (sqrt a - sqrt b)^2 * y coth(y), so the inequality
  (a - b) log(a/b) >= 4 (sqrt a - sqrt b)^2 is ``y coth y - 1 > 0`` for y != 0 (y coth y is
  :func:`countdp.formulas.symmetric_ratio`).
* One-sided: a log(a/b) - a + b = 2 (sqrt a - sqrt b)^2 * R(s) (:func:`countdp.formulas.one_sided_ratio`),
  and R'(e^v) = e^{-v/2} T(v)/4 with ``T(v) = (sinh v - v) / sinh(v/2)^3``; T > 0 for v != 0
  makes R increasing, so R(s) >= R(sqrt q) = kappa(q) on [sqrt q, 1/sqrt q].

Both functions are even; each is certified on (0, inf) in three pieces:

* (0, delta]: by Taylor series with nonnegative coefficients (exact rationals):
  y cosh y - sinh y = sum_{j>=1} 2j y^{2j+1}/(2j+1)!  >= y^3/3 and sinh y <= y sinh(delta)/delta,
  so y coth y - 1 >= (y^2/3) delta/sinh(delta) > 0;  sinh v - v = sum_{j>=1} v^{2j+1}/(2j+1)! >= v^3/6
  and sinh(v/2) <= (v/2) sinh(delta/2)/(delta/2), so T(v) >= (4/3) ((delta/2)/sinh(delta/2))^3 > 0;
  the balls decide the constants;
* [delta, Y]: branch and bound, each box's ball enclosure decided > 0;
* [Y, inf): y coth y - 1 > y - 1 >= Y - 1 (coth > 1), and sinh v - v >= sinh Y - Y (it increases),
  sinh(v/2) > 0; the balls decide Y - 1 > 0 and sinh Y - Y > 0.

The d = 2 step of the interpolation bound: ``(1 - c0 y^2/12)^3 - (1 - y)^2 = y Q(y)`` with
``Q(y) = 2 - (1 + c0/4) y + c0^2 y^3/48 - c0^3 y^5/1728`` (:func:`countdp.formulas.interpolation_margin_slope`);
Q > 0 on [0, 1/2] by branch and bound.
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import arb, fmpq

from .. import formulas
from .ranges import RangeResult, bisect, merge, split_at_midpoint
from .verdicts import Verdict, decide_gt, interval

__all__ = ["Piece", "symmetric_excess", "one_sided_slope", "certify_symmetric", "certify_one_sided",
           "certify_interpolation_margin"]


@dataclass(frozen=True)
class Piece:
    """One certified piece of a statement over a range: what, its verdict, the boxes it took and
    the ball that decided it (for a single comparison)."""

    name: str
    statement: str
    verdict: Verdict
    boxes: int
    ball: arb | None = None


def symmetric_excess(y) -> arb:
    """y coth(y) - 1 on a ball y not containing 0 (formulas.symmetric_ratio in balls)."""
    return formulas.symmetric_ratio.ball(y) - 1


def one_sided_slope(v) -> arb:
    """T(v) = (sinh v - v)/sinh(v/2)^3 on a ball v not containing 0: 4 e^{v/2} R'(e^v), R the
    one-sided ratio (R'(s) = (s^2 - 1 - 2 s log s)/(s - 1)^3)."""
    v = arb(v) if not isinstance(v, arb) else v
    sh = (v / 2).sinh()
    return (v.sinh() - v) / (sh * sh * sh)


def _middle(f, delta, Y, max_boxes) -> RangeResult:
    return bisect((arb(delta), arb(Y)), lambda bx: decide_gt(f(interval(bx[0], bx[1])), 0),
                  split_at_midpoint, max_boxes)


def certify_symmetric(delta=fmpq(1, 16), Y=16, max_boxes: int = 20000) -> list[Piece]:
    """y coth y - 1 > 0 on (0, inf) (hence on R \\ {0}: the function is even)."""
    d, Yb = arb(delta), arb(Y)
    near = (d / d.sinh()) / 3                      # (y coth y - 1)/y^2 >= this on (0, delta]
    mid = _middle(symmetric_excess, delta, Y, max_boxes)
    return [Piece("symmetric (0, delta]", "y coth y - 1 >= (y^2/3) delta/sinh(delta) > 0: the series of "
                  "y cosh y - sinh y has nonnegative coefficients 2j/(2j+1)!", decide_gt(near, 0), 1, near),
            Piece("symmetric [delta, Y]", "y coth y - 1 > 0 on every box (branch and bound)", mid.verdict,
                  mid.boxes),
            Piece("symmetric [Y, inf)", "y coth y - 1 > y - 1 >= Y - 1 > 0 (coth y > 1)",
                  decide_gt(Yb - 1, 0), 1, Yb - 1)]


def certify_one_sided(delta=fmpq(1, 16), Y=16, max_boxes: int = 20000) -> list[Piece]:
    """T(v) > 0 on (0, inf) (T is even), so R is increasing on (0, inf)."""
    h = arb(delta) / 2
    near = arb(4) / 3 * (h / h.sinh()) ** 3       # T(v) >= this on (0, delta]
    mid = _middle(one_sided_slope, delta, Y, max_boxes)
    Yb = arb(Y)
    tail = Yb.sinh() - Yb
    return [Piece("one-sided (0, delta]", "T(v) >= (4/3) ((delta/2)/sinh(delta/2))^3 > 0: sinh v - v >= v^3/6 "
                  "(nonnegative series) and sinh(v/2) <= (v/2) sinh(delta/2)/(delta/2)", decide_gt(near, 0), 1, near),
            Piece("one-sided [delta, Y]", "T(v) > 0 on every box (branch and bound)", mid.verdict, mid.boxes),
            Piece("one-sided [Y, inf)", "sinh v - v >= sinh Y - Y > 0 (increasing) and sinh(v/2) > 0",
                  decide_gt(tail, 0), 1, tail)]


def certify_interpolation_margin(a1p=None, max_boxes: int = 4000) -> RangeResult:
    """Q(y) > 0 on [0, 1/2] (c0 at ``a1p``, default Arb's a1'): the margin (1 - c0 y^2/12)^3 -
    (1 - y)^2 = y Q(y) is >= 0 there, i.e. c0/(M+2)^2 meets the interpolation bound at every
    M >= 0."""
    res = bisect((arb(0), arb(fmpq(1, 2))),
                 lambda bx: decide_gt(formulas.interpolation_margin_slope.ball(interval(bx[0], bx[1]), a1p), 0),
                 split_at_midpoint, max_boxes)
    return merge([res], note="Q > 0 on [0, 1/2]")
