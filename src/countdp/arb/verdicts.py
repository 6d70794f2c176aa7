"""Tri-state verdicts on Arb balls: an inequality is proved only when the balls separate.

Every ball provably contains the exact value it stands for.  A comparison is
``PROVED_TRUE`` / ``PROVED_FALSE`` only when the balls separate (or the numbers are exact and
the relation holds exactly); otherwise it is ``UNDECIDED``, and nothing undecided is ever
reported as true.  Inputs may be ``int``, ``fmpq``, ``fractions.Fraction``, a decimal ``str``
(exact), a ``float`` (its exact binary value) or an ``arb``.
"""

from __future__ import annotations

import enum
from typing import Iterable

from flint import arb, fmpq

from ..numerics.contexts import Undecided, to_arb, to_fmpq

__all__ = ["Verdict", "Undecided", "verdict_all", "to_arb", "to_fmpq", "interval", "nonneg_interval",
           "sym_interval", "ball_str", "radius_str", "decide_lt", "decide_le", "decide_gt",
           "decide_ge", "decided_sign", "decide_eq_enclosure", "decide_contains", "decide_decimal",
           "control_verdict", "enclosure"]


class Verdict(str, enum.Enum):
    """Tri-state outcome of a certified comparison. Has no truth value (use ``is``)."""

    PROVED_TRUE = "proved_true"
    PROVED_FALSE = "proved_false"
    UNDECIDED = "undecided"

    def __bool__(self) -> bool:  # guard against `if verdict:` treating UNDECIDED as true
        raise TypeError("Verdict has no truth value; compare with Verdict.PROVED_TRUE")

    def __str__(self) -> str:
        return self.value


def verdict_all(verdicts: Iterable[Verdict]) -> Verdict:
    """Conjunction: TRUE iff all TRUE; FALSE if any FALSE; else UNDECIDED."""
    vs = list(verdicts)
    if any(x is Verdict.PROVED_FALSE for x in vs):
        return Verdict.PROVED_FALSE
    if vs and all(x is Verdict.PROVED_TRUE for x in vs):
        return Verdict.PROVED_TRUE
    return Verdict.UNDECIDED


def interval(lo, hi) -> arb:
    """A ball containing the whole real interval [lo, hi] (endpoints may themselves be balls)."""
    lo, hi = to_arb(lo), to_arb(hi)
    return lo.union(hi)


def nonneg_interval(u) -> arb:
    """A ball containing [0, u] for every value of the ball ``u`` (an upper bound)."""
    return arb(0).union(to_arb(u).upper())


def sym_interval(u) -> arb:
    """A ball containing [-u, u] for every value of the ball ``u``."""
    up = to_arb(u).upper()
    return (-up).union(up)


def ball_str(ball, digits: int = 20) -> str:
    """Decimal ``[mid +/- rad]`` string (``arb.str(more=True)``)."""
    b = to_arb(ball)
    return b.str(digits, more=True)


def radius_str(ball) -> str:
    r = to_arb(ball).rad()
    return r.str(4, radius=False) if r != 0 else "0"


def _cmp(a, b, strict: bool) -> Verdict:
    a, b = to_arb(a), to_arb(b)
    if strict:
        if a < b:
            return Verdict.PROVED_TRUE
        if a >= b:
            return Verdict.PROVED_FALSE
    else:
        if a <= b:
            return Verdict.PROVED_TRUE
        if a > b:
            return Verdict.PROVED_FALSE
    return Verdict.UNDECIDED


def decide_lt(a, b) -> Verdict:
    """Claim ``a < b``: TRUE iff every point of ``a`` is below every point of ``b``."""
    return _cmp(a, b, True)


def decide_le(a, b) -> Verdict:
    """Claim ``a <= b``: TRUE iff upper(a) <= lower(b); FALSE iff lower(a) > upper(b)."""
    return _cmp(a, b, False)


def decide_gt(a, b) -> Verdict:
    """Claim ``a > b``."""
    return _cmp(b, a, True)


def decide_ge(a, b) -> Verdict:
    """Claim ``a >= b``."""
    return _cmp(b, a, False)


def decided_sign(x) -> int:
    """+1 when every point of the ball ``x`` is > 0, -1 when every point is < 0, 0 otherwise (the
    ball reaches 0, or is NaN): the sign as a three-way decision."""
    x = to_arb(x)
    return 1 if x > 0 else -1 if x < 0 else 0


def decide_eq_enclosure(ball, value) -> Verdict:
    """Claim "the exact number enclosed by ``ball`` equals ``value``".

    PROVED_FALSE if the balls are disjoint; PROVED_TRUE only if both are exact and equal (an
    equality between irrational quantities can never be proved by balls); else UNDECIDED.
    Use :func:`decide_contains` for the (provable) statement that ``value`` lies in ``ball``.
    """
    a, b = to_arb(ball), to_arb(value)
    if not a.overlaps(b):
        return Verdict.PROVED_FALSE
    if a.is_exact() and b.is_exact() and a == b:
        return Verdict.PROVED_TRUE
    return Verdict.UNDECIDED


def decide_contains(ball, value) -> Verdict:
    """Claim "the exact ``value`` lies in ``ball``" (``value`` may be a ball around an exact
    number): TRUE if ``ball`` contains the whole ball ``value``; FALSE if disjoint."""
    a, b = to_arb(ball), to_arb(value)
    if a.contains(b):
        return Verdict.PROVED_TRUE
    if not a.overlaps(b):
        return Verdict.PROVED_FALSE
    return Verdict.UNDECIDED


def decide_decimal(ball, decimal: str) -> Verdict:
    """Claim "value ~ decimal" read as |value - decimal| <= half a unit in the last place."""
    d = to_fmpq(decimal)
    k = len(decimal.split(".")[1]) if "." in decimal else 0
    h = fmpq(1, 2 * 10**k)
    return verdict_all([decide_ge(ball, arb(d - h)), decide_le(ball, arb(d + h))])


def control_verdict(control: Verdict) -> Verdict:
    """A record's negative control must be PROVED_FALSE for the record to be PROVED_TRUE."""
    if control is Verdict.PROVED_FALSE:
        return Verdict.PROVED_TRUE
    return Verdict.UNDECIDED if control is Verdict.UNDECIDED else Verdict.PROVED_FALSE


def enclosure(ball):
    """(midpoint, radius) of a ball as mpmath numbers at the current mpmath precision, the radius
    rounded up so that [mid - rad, mid + rad] still contains the ball: lets a check compare a
    numerical route with a certified enclosure through the ordinary ``==`` with tolerance."""
    import mpmath

    b = to_arb(ball)
    if not b.is_finite():
        raise Undecided("the ball is not finite")
    mid = mpmath.mpf(b.mid().str(mpmath.mp.dps + 10, radius=False))
    rad = mpmath.mpf(b.rad().str(5, radius=False)) * (1 + mpmath.mpf(10) ** -3)
    # cover the midpoint's two roundings: to dps + 10 decimal digits, then to the binary working
    # precision (up to one ulp, |mid| eps: the larger of the two)
    return mid, rad + abs(mid) * (2 * mpmath.eps + mpmath.mpf(10) ** (-mpmath.mp.dps - 5))
