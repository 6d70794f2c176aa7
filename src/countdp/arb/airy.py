"""The first zero a1' of Ai', certified independently of the library that computed it.

Arb's ``airy_ai_zero(1, derivative=1)`` gives a ball; it is re-certified here: Ai' changes sign
on a bracket [lo, hi] around the ball (so a zero lies there), Ai' < 0 on [hi, 0] (branch and
bound, every box decided) and on [0, inf) (Ai'' = x Ai > 0 there and Ai'(x) -> 0, so Ai'
increases to 0).  Hence the bracket holds the largest zero of Ai'.  The Airy constants are then
the closed forms of :mod:`countdp.formulas.airy` evaluated at that bracket.
"""

from __future__ import annotations

from flint import arb

from .. import formulas
from .ranges import bisect, sign_change_bracket, split_at_midpoint
from .verdicts import Undecided, Verdict, decide_lt, interval

__all__ = ["ai_prime_negative", "certified_prime_zero", "certified_limit_constant"]


def ai_prime_negative(box) -> Verdict:
    """Whether Ai' < 0 on the interval ``box`` = (lo, hi), decided on its ball."""
    return decide_lt(interval(box[0], box[1]).airy_ai(derivative=1), 0)


def certified_prime_zero() -> arb:
    """A ball holding a1', the first (largest) zero of Ai', certified as described in the module
    docstring at the current Arb precision.  Raises :class:`Undecided` if a step is not decided."""
    lo, hi = sign_change_bracket(lambda x: x.airy_ai(derivative=1), arb.airy_ai_zero(1, derivative=1),
                                 "sign change of Ai'")
    neg = bisect((hi, arb(0)), ai_prime_negative, split_at_midpoint, 4000)
    if neg.verdict is not Verdict.PROVED_TRUE:
        raise Undecided("Ai' < 0 on [a1' + d, 0] not certified")
    return interval(lo, hi)


def certified_limit_constant() -> arb:
    """8|a1'|^3/27 (formulas.airy_limit_constant) at the certified a1'."""
    return formulas.airy_limit_constant.ball(certified_prime_zero())
