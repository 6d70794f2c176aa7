"""The calibration lemma of the Airy log-mechanism, b(rho)/rho -> 1/m, with its remainder certified.

The mechanism (:mod:`countdp.mechanisms.airy`) calibrates b so that the minimal error
``e(b) = min_t E|exp(bX + t) - 1|`` equals ``rho = r0/(1 + c)``; X is the standard Airy law,
``m = E|X| = 2|a1'|/3``.  Write ``S(b) = E sinh(b|X|)`` and ``C(b) = E cosh(bX)``.

**Lemma.**  For every b > 0,

    S(b) (1 - S(b)) / C(b)  <=  e(b)  <=  S(b),       b m <= S(b) <= b m + b^3 E[|X|^3 cosh(bX)]/6.

*Proof.*  Upper: at t = 0, pairing x with -x gives ``|e^{bx} - 1| + |e^{-bx} - 1| = 2 sinh(b|x|)``,
so ``E|e^{bX} - 1| = S(b)``.  Lower: ``|y| >= y sign(X)`` gives, for every t,
``E|e^{bX+t} - 1| >= e^t E[e^{bX} sign X] = e^t S(b)`` (E sign X = 0); at the optimal drift t*,
``|e^{t*} C(b) - 1| <= E|e^{bX+t*} - 1| = e(b) <= S(b)``, so ``e^{t*} >= (1 - S(b))/C(b)``.
The bounds on S are ``y <= sinh y <= y + y^3 cosh(y)/6``.

*Monotonicity.*  At the optimum ``e(b) = 2F(k_b) - 1`` with ``k_b`` the median of the tilted law
``e^{bx} f(x)`` (module docstring of :mod:`countdp.mechanisms.airy`); the tilted laws have
increasing likelihood ratios in b, so ``k_b`` and ``e`` increase strictly from ``e(0) = 0``.
Hence ``S(b_lo) <= rho`` gives ``b_lo <= b(rho)`` and ``S(b_hi)(1 - S(b_hi))/C(b_hi) >= rho``
gives ``b(rho) <= b_hi``: the *calibration bracket*, decided here in balls.  As rho -> 0 both
ends are ``(rho/m)(1 + O(rho))`` (``S(b) = bm + O(b^3)``, ``C(b) = 1 + O(b^2)``), so
``b(rho)/rho -> 1/m`` and ``r^2 I/(2 b^2) = c0 (r/rho)^2 (rho/(b m))^2 -> c0`` along
``r0 = r(1 - r)``, ``c = r`` (``rho = r(1 - r)/(1 + r)``, ``I m^2/2 = c0``).

**Enclosures.**  ``S`` and ``C - 1`` are ``(2/Z) int_0^inf g(bx) Ai(x + a1')^2 dx`` with
``g = sinh`` and ``g(y) = cosh y - 1 = 2 sinh(y/2)^2``: acb.integral on ``[0, X]`` (entire integrands)
plus a tail bound.  For ``y >= 0``, ``sinh y <= y e^y`` and ``cosh y - 1 <= (y^2/2) e^y`` (termwise), and
for ``z0 = X + a1' > 0``, ``lam = 2 sqrt(z0) - b > 0``,

    int_X^inf x^j e^{bx} Ai(x + a1')^2 dx <= Ai(z0)^2 e^{bX} sum_{i<=j} C(j,i) X^{j-i} i!/lam^{i+1},

from ``(log Ai)' = -R < -sqrt z`` ((R2) of :mod:`countdp.arb.airy_score`) and
``z^{3/2} >= z0^{3/2} + (3/2) sqrt(z0) (z - z0)``, so ``Ai(z) <= Ai(z0) e^{-sqrt(z0)(z - z0)}``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from flint import arb, ctx

from .. import formulas
from .airy import certified_prime_zero
from .integrals import integrate
from .verdicts import Undecided, Verdict, decide_ge, decide_le, decide_lt, nonneg_interval, to_arb, verdict_all

__all__ = ["sinh_cosh_moments", "error_bounds", "CalibrationBracket", "calibration_bracket",
           "certify_calibration", "error_target"]

CUTOFF = 12           # acb.integral on [0, CUTOFF]; the tail bound beyond
REL_TOL_BITS = 60     # acb.integral's relative goal
SEARCH_STEPS = 24     # bisection steps towards the ends of the bracket (each halves the slack)


def error_target(r0, c) -> arb:
    """rho = r0/(1 + c) in balls (the family of the upper end: r0 = r(1 - r), c = r or r^2)."""
    r0, c = to_arb(r0), to_arb(c)
    if not (r0 > 0 and c > 0):
        raise ValueError(f"r0 and c must be > 0, got r0 = {r0}, c = {c}")
    return r0 / (1 + c)


def _tail(j: int, b: arb, a: arb) -> arb:
    """The tail bound of int_X^inf x^j e^{bx} Ai(x + a1')^2 dx (module docstring), X = CUTOFF."""
    X = arb(CUTOFF)
    z0 = X + a
    lam = 2 * z0.sqrt() - b
    if not (z0 > 0 and lam > 0):
        raise Undecided(f"the tail bound needs 2 sqrt(X + a1') > b (b = {b})")
    poly = sum(math.comb(j, i) * X ** (j - i) * math.factorial(i) / lam ** (i + 1) for i in range(j + 1))
    return nonneg_interval(z0.airy_ai() ** 2 * (b * X).exp() * poly)


def sinh_cosh_moments(b, a1p) -> tuple[arb, arb]:
    """Enclosures of S(b) = E sinh(b|X|) and C(b) = E cosh(bX) (module docstring, "Enclosures")."""
    b, a = to_arb(b), to_arb(a1p)
    if not b > 0:
        raise ValueError(f"b must be > 0, got {b}")
    goal = arb(2) ** -REL_TOL_BITS

    def half_line(g):
        return integrate(lambda x: g(b * x) * (x + a).airy_ai() ** 2, 0, CUTOFF, rel_tol=goal)

    Z = formulas.airy_normaliser.ball(a)
    S = 2 * (half_line(lambda y: y.sinh()) + b * _tail(1, b, a)) / Z
    C = 1 + 2 * (half_line(lambda y: 2 * (y / 2).sinh() ** 2) + b * b / 2 * _tail(2, b, a)) / Z
    return S, C


def error_bounds(b, a1p) -> tuple[arb, arb]:
    """Balls whose lower/upper ends bound e(b): (S(1 - S)/C, S) of the lemma."""
    S, C = sinh_cosh_moments(b, a1p)
    return S * (1 - S) / C, S


@dataclass
class CalibrationBracket:
    """b(rho) in [b_lo, b_hi], certified: ``lower`` is S(b_lo) <= rho, ``upper`` is
    S(1 - S)/C at b_hi >= rho.  ``remainder`` is max(1 - m b_lo/rho, m b_hi/rho - 1): the explicit
    bound of |b(rho) m/rho - 1|."""

    rho: arb
    b_lo: arb
    b_hi: arb
    lower: Verdict
    upper: Verdict
    remainder: arb
    verdict: Verdict       # both ends decided (a failing sufficient condition disproves nothing)

    def coefficient(self, r) -> tuple[arb, arb]:
        """Certified bounds of r^2 I/(2 b(rho)^2), I = 4|a1'|/3, from the bracket."""
        I = formulas.airy_fisher.ball(certified_prime_zero())
        r2 = to_arb(r) ** 2
        return arb((r2 * I / (2 * self.b_hi ** 2)).lower()), arb((r2 * I / (2 * self.b_lo ** 2)).upper())


def _bracket_verdict(rho, b_lo, b_hi, a1p) -> tuple[Verdict, Verdict]:
    S_lo, _ = sinh_cosh_moments(b_lo, a1p)
    low_hi, _ = error_bounds(b_hi, a1p)
    return decide_le(S_lo, rho), decide_ge(low_hi, rho)


def _toward(good, bad, holds) -> arb:
    """Bisect between a point where ``holds`` is known (good) and one where it fails (bad), keeping
    the last exact point where it holds: the end of the bracket as close to b(rho) as the steps allow."""
    for _ in range(SEARCH_STEPS):
        mid = arb(((good + bad) / 2).mid())
        if holds(mid):
            good = mid
        else:
            bad = mid
    return good


def calibration_bracket(rho, a1p=None, remainder=None) -> CalibrationBracket:
    """The certified calibration bracket at ``rho``.  ``remainder`` (optional, a number): claim
    |b m/rho - 1| <= remainder instead of searching for the tightest ends, i.e. test
    b_lo = (rho/m)(1 - remainder), b_hi = (rho/m)(1 + remainder)."""
    rho = to_arb(rho)
    if not (rho > 0 and rho < 1):
        raise ValueError(f"rho must be in (0, 1), got {rho}")
    a = certified_prime_zero() if a1p is None else to_arb(a1p)
    m = formulas.airy_mean_abs.ball(a)
    b0 = arb((rho / m).mid())
    if remainder is not None:
        eps = to_arb(remainder)
        b_lo, b_hi = arb((b0 * (1 - eps)).lower()), arb((b0 * (1 + eps)).upper())
    else:
        def low_ok(b):
            return decide_le(sinh_cosh_moments(b, a)[0], rho) is Verdict.PROVED_TRUE

        def high_ok(b):
            return decide_ge(error_bounds(b, a)[0], rho) is Verdict.PROVED_TRUE

        lo_far = arb((b0 * (1 - rho)).lower())
        hi_far = arb((b0 * (1 + 4 * rho + 4 * b0)).upper())
        if not (low_ok(lo_far) and high_ok(hi_far)):
            raise Undecided(f"the calibration bracket's outer ends are not decided at rho = {rho}")
        b_lo = _toward(lo_far, b0, low_ok)
        b_hi = _toward(hi_far, b0, high_ok)
    lower, upper = _bracket_verdict(rho, b_lo, b_hi, a)
    rem = arb(max((1 - m * b_lo / rho).upper(), (m * b_hi / rho - 1).upper()))
    vd = verdict_all([lower, upper, decide_lt(b_lo, b_hi)])
    return CalibrationBracket(rho, b_lo, b_hi, lower, upper, rem,
                              Verdict.UNDECIDED if vd is Verdict.PROVED_FALSE else vd)


def certify_calibration(rhos, prec: int = 96) -> tuple[list[CalibrationBracket], float]:
    """The calibration brackets at each rho of ``rhos`` (exact decimals or balls) at ``prec`` bits,
    and the seconds taken.  Every bracket's verdict must be PROVED_TRUE for the lemma's remainder
    to be certified at those parameters."""
    t0 = time.perf_counter()
    with ctx.workprec(int(prec)):
        a = certified_prime_zero()
        out = [calibration_bracket(rho, a) for rho in rhos]
    return out, time.perf_counter() - t0
