"""Certified maximum of the two-count template (Section 8):
``T(a, theta) = (2/a^2) (1 - 1/(a theta (1 - theta)))_+^2 <= 1/128``, attained at (8, 1/2).

Near the maximiser no ball evaluation can separate T from 1/128; there the exact polynomial
identity of :func:`template_identity` decides a box instead: with x = theta(1 - theta),

    1/128 - T = (a-8)^2 (a^2+16a-64)/(128 a^4) + 2 (1-2 theta)^2 (2ax - 4x - 1)/(a^4 x^2),

a sum of nonnegative terms wherever T > 0, provided a > 4, x > 0 and a^2 + 16a - 64 > 0
(2ax - 4x - 1 = x(a - 4) + (ax - 1) > 0 where the bracket 1 - 1/(ax) is positive).
"""

from __future__ import annotations

from fractions import Fraction

from flint import arb, ctx, fmpq, fmpq_mpoly_ctx

from .. import formulas
from .ranges import RangeResult, bisect
from .verdicts import Verdict, decide_gt, decide_le, interval, to_fmpq, verdict_all


def template_identity() -> Verdict:
    """The identity above, proved exactly in fmpq_mpoly: 128 a^4 x^2 (1/128 - T) =
    x^2 (a-8)^2 (a^2+16a-64) + 256 (1-4x)(2ax - 4x - 1) (where T > 0), and 1 - 4x = (1-2 theta)^2."""
    A = fmpq_mpoly_ctx.get(("a", "th"))
    a, th = A.gens()
    x = th * (1 - th)
    lhs = a ** 4 * x ** 2 - 256 * (a * x - 1) ** 2
    rhs = (x ** 2 * (a - 8) ** 2 * (a ** 2 + 16 * a - 64)
           + 256 * (1 - 4 * x) * (2 * a * x - 4 * x - 1))
    square = (1 - 4 * x) == (1 - 2 * th) ** 2
    return Verdict.PROVED_TRUE if (lhs == rhs and square) else Verdict.PROVED_FALSE


def _split(bx):
    """Split the relatively wider side (a is measured relative to its size)."""
    t0, t1, a0, a1 = bx
    if (t1 - t0) * 8 >= (a1 - a0) / a1 * 4:
        tm = (t0 + t1) / 2
        return [(t0, tm, a0, a1), (tm, t1, a0, a1)]
    am = (a0 + a1) / 2
    return [(t0, t1, a0, am), (t0, t1, am, a1)]


def certify_template_bound(theta_lo="0.05", theta_hi="0.95", a_lo="4.5", a_hi=64,
                           nbhd=("7/16", "9/16", 7, 10), prec: int = 53,
                           max_boxes: int = 200000, bound=fmpq(1, 128)) -> RangeResult:
    """T(a, theta) <= ``bound`` on [theta_lo, theta_hi] x [a_lo, a_hi] by branch and bound over
    rational boxes, and T(8, 1/2) <= bound exactly (T(8, 1/2) = 1/128).  Inside the neighbourhood
    ``nbhd`` = (theta_lo, theta_hi, a_lo, a_hi) of the maximiser a box is decided by the identity
    (only for bound = 1/128); elsewhere by ball evaluation of T.  With another ``bound`` only
    ball evaluation is used (negative controls)."""
    bq = to_fmpq(bound)
    use_identity = bq == fmpq(1, 128)
    ident = template_identity() if use_identity else Verdict.UNDECIDED
    nb = tuple(to_fmpq(x) for x in nbhd)
    exact_max = formulas.two_count_template.exact(8, Fraction(1, 2))
    at_max = Verdict.PROVED_TRUE if exact_max <= Fraction(int(bq.p), int(bq.q)) else Verdict.PROVED_FALSE
    counts = {"identity": 0, "evaluation": 0}
    with ctx.workprec(prec):
        B = arb(bq)

        def decide(bx):
            t0, t1, a0, a1 = bx
            A, X = interval(arb(a0), arb(a1)), interval(arb(t0), arb(t1))
            if use_identity and nb[0] <= t0 and t1 <= nb[1] and nb[2] <= a0 and a1 <= nb[3]:
                X = X * (1 - X)
                vd = verdict_all([ident, decide_gt(A, 4), decide_gt(X, 0),
                                  decide_gt(A * A + 16 * A - 64, 0)])
                counts["identity"] += vd is Verdict.PROVED_TRUE
                return vd
            vd = decide_le(formulas.two_count_template.ball(A, X), B)
            counts["evaluation"] += vd is Verdict.PROVED_TRUE
            return vd

        res = bisect((to_fmpq(theta_lo), to_fmpq(theta_hi), to_fmpq(a_lo), to_fmpq(a_hi)),
                     decide, _split, max_boxes)
    res.verdict = verdict_all([res.verdict, at_max])
    res.extra.update({"T(1/2,8)": str(exact_max), "boxes_by_identity": counts["identity"],
                      "boxes_by_evaluation": counts["evaluation"]})
    return res
