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

**The tight bracket (tilt balance).**  At the optimal drift ``e(b) = 2F(k_b) - 1``, so with
``q = q(rho) = F^{-1}((1 + rho)/2)``: ``e(b) <= rho`` iff ``k_b <= q`` iff
``E[e^{bX} sign(X - q)] <= 0`` iff ``H_q(b) := E[expm1(bX) sign(X - q)] <= rho``
(``E sign(X - q) = -rho``).  Both ends of ``H_q(b_lo) <= rho <= H_q(b_hi)`` are therefore equivalent to
``b_lo <= b(rho) <= b_hi``: decided in balls (q enclosed first) they enclose the mechanism's b to
the integrals' accuracy, and a claimed remainder below the true ``|b m/rho - 1|`` is refuted.  This
is the certified instance at the checked rho; the lemma is what proves the limit.

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

__all__ = ["error_target", "sinh_cosh_moments", "error_bounds", "CalibrationBracket", "calibration_bracket",
           "error_quantile_ball", "tilt_balance_ball", "scale_bracket", "CalibrationCertificate", "certify_calibration"]

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
    """b(rho) in [b_lo, b_hi], certified by ``route``: "lemma" (``lower``: S(b_lo) <= rho, ``upper``:
    S(1 - S)/C at b_hi >= rho; sufficient conditions, so a failure disproves nothing) or "tilt balance"
    (``lower``: H_q(b_lo) <= rho, ``upper``: H_q(b_hi) >= rho; each equivalent to its end being on
    its side of b(rho), so PROVED_FALSE refutes the bracket).  ``remainder`` is
    max(1 - m b_lo/rho, m b_hi/rho - 1), a bound of |b(rho) m/rho - 1|."""

    route: str
    rho: arb
    b_lo: arb
    b_hi: arb
    lower: Verdict
    upper: Verdict
    remainder: arb
    verdict: Verdict

    def coefficient(self, r) -> tuple[arb, arb]:
        """Certified bounds of r^2 I/(2 b(rho)^2), I = 4|a1'|/3, from the bracket."""
        I = formulas.airy_fisher.ball(certified_prime_zero())
        r2 = to_arb(r) ** 2
        return arb((r2 * I / (2 * self.b_hi ** 2)).lower()), arb((r2 * I / (2 * self.b_lo ** 2)).upper())

    def item(self) -> dict:
        """The bracket as keyword arguments of ``CertificateBuilder.record``."""
        what = ("S(b_lo) <= rho <= S(1-S)/C at b_hi (the lemma)" if self.route == "lemma" else
                "H_q(b_lo) <= rho <= H_q(b_hi), q = F^-1((1+rho)/2) enclosed (the tilt balance)")
        return dict(name=f"calibration bracket ({self.route}), rho = {self.rho.str(6)}", ball=self.remainder,
                    verdict=self.verdict, b_lo=self.b_lo, b_hi=self.b_hi,
                    statement=f"b(rho) in [b_lo, b_hi] and |b m/rho - 1| <= remainder: {what}")


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


def _setup(rho, a1p):
    rho = to_arb(rho)
    if not (rho > 0 and rho < 1):
        raise ValueError(f"rho must be in (0, 1), got {rho}")
    a = certified_prime_zero() if a1p is None else to_arb(a1p)
    m = formulas.airy_mean_abs.ball(a)
    return rho, a, m, arb((rho / m).mid())


def _claimed(b0, remainder) -> tuple[arb, arb]:
    eps = to_arb(remainder)
    return arb((b0 * (1 - eps)).lower()), arb((b0 * (1 + eps)).upper())


def _bracket(route, rho, m, b_lo, b_hi, lower, upper, refutable) -> CalibrationBracket:
    rem = arb(max((1 - m * b_lo / rho).upper(), (m * b_hi / rho - 1).upper()))
    vd = verdict_all([lower, upper, decide_lt(b_lo, b_hi)])
    if vd is Verdict.PROVED_FALSE and not refutable:
        vd = Verdict.UNDECIDED
    return CalibrationBracket(route, rho, b_lo, b_hi, lower, upper, rem, vd)


def calibration_bracket(rho, a1p=None, remainder=None) -> CalibrationBracket:
    """The lemma's bracket at ``rho`` (module docstring; small rho: S(1 - S)/C <= 1/4 caps it).
    ``remainder`` (optional): test b_lo, b_hi = (rho/m)(1 -+ remainder) instead of searching for
    the tightest ends the lemma allows."""
    rho, a, m, b0 = _setup(rho, a1p)

    def low(b):
        return decide_le(sinh_cosh_moments(b, a)[0], rho)

    def high(b):
        return decide_ge(error_bounds(b, a)[0], rho)

    if remainder is not None:
        b_lo, b_hi = _claimed(b0, remainder)
    else:
        lo_far, hi_far = arb((b0 * (1 - rho)).lower()), arb((b0 * (1 + 4 * rho + 4 * b0)).upper())
        if not (low(lo_far) is Verdict.PROVED_TRUE and high(hi_far) is Verdict.PROVED_TRUE):
            raise Undecided(f"the lemma's outer ends are not decided at rho = {rho}")
        b_lo = _toward(lo_far, b0, lambda b: low(b) is Verdict.PROVED_TRUE)
        b_hi = _toward(hi_far, b0, lambda b: high(b) is Verdict.PROVED_TRUE)
    return _bracket("lemma", rho, m, b_lo, b_hi, low(b_lo), high(b_hi), refutable=False)


def _half_mass(q, a) -> arb:
    """2 int_0^q f = P(|X| <= q) (q may be a ball)."""
    core = integrate(lambda x: (x + a).airy_ai() ** 2, 0, q, rel_tol=arb(2) ** -REL_TOL_BITS)
    return 2 * core / formulas.airy_normaliser.ball(a)


def error_quantile_ball(rho, a1p) -> arb:
    """A ball holding q(rho) = F^{-1}((1 + rho)/2), i.e. P(|X| <= q) = rho: Newton on midpoints,
    then P(|X| <= q_lo) < rho < P(|X| <= q_hi) decided (P(|X| <= .) increases)."""
    rho, a = to_arb(rho), to_arb(a1p)
    f0 = 2 * a.airy_ai() ** 2 / formulas.airy_normaliser.ball(a)      # 2 f(0)
    q = arb((rho / f0).mid())
    for _ in range(8):
        density2 = 2 * (q + a).airy_ai() ** 2 / formulas.airy_normaliser.ball(a)    # 2 f(q)
        q = arb((q - (_half_mass(q, a) - rho) / density2).mid())
    d = q * arb(2) ** (6 - REL_TOL_BITS) + 4 * arb(rho.rad()) / density2
    lo, hi = arb((q - d).lower()), arb((q + d).upper())
    if not (_half_mass(lo, a) < rho < _half_mass(hi, a)):
        raise Undecided(f"the error quantile is not enclosed at rho = {rho}")
    return lo.union(hi)


def tilt_balance_ball(b, q, a1p) -> arb:
    """H_q(b) = E[expm1(bX) sign(X - q)] = S(b) - 2 int_0^q expm1(bx) f(x) dx (f even; q >= 0 may be
    a ball).  e(b) <= rho iff H_q(b) <= rho at q = q(rho), since at the optimal drift
    e(b) = 2F(k_b) - 1 and k_b <= q iff E[e^{bX} sign(X - q)] = H_q(b) - rho <= 0."""
    b, a = to_arb(b), to_arb(a1p)
    S, _ = sinh_cosh_moments(b, a)
    core = integrate(lambda x: (b * x).expm1() * (x + a).airy_ai() ** 2, 0, q, rel_tol=arb(2) ** -REL_TOL_BITS)
    return S - 2 * core / formulas.airy_normaliser.ball(a)


def scale_bracket(rho, a1p=None, remainder=None) -> CalibrationBracket:
    """The tight bracket of b(rho) from the tilt balance (:func:`tilt_balance_ball`), a few ulps wide
    at the working precision: Newton on midpoints, then both ends decided.  ``remainder``
    (optional): test b_lo, b_hi = (rho/m)(1 -+ remainder); a remainder below the true
    |b m/rho - 1| is refuted (PROVED_FALSE)."""
    rho, a, m, b0 = _setup(rho, a1p)
    q = error_quantile_ball(rho, a)
    if remainder is not None:
        b_lo, b_hi = _claimed(b0, remainder)
    else:
        b = b0
        for _ in range(8):           # H'(b) = E[X e^{bX} sign(X - q)] ~ m for small b
            b = arb((b - (tilt_balance_ball(b, q.mid(), a) - rho) / m).mid())
        d = b * arb(2) ** (8 - REL_TOL_BITS) + 4 * arb(rho.rad()) / m
        b_lo, b_hi = arb((b - d).lower()), arb((b + d).upper())
    lower, upper = decide_le(tilt_balance_ball(b_lo, q, a), rho), decide_ge(tilt_balance_ball(b_hi, q, a), rho)
    return _bracket("tilt balance", rho, m, b_lo, b_hi, lower, upper, refutable=True)


@dataclass
class CalibrationCertificate:
    """Per rho: the lemma's bracket (its explicit O(rho) remainder, the route of the limit
    b(rho)/rho -> 1/m) and the tight bracket of the tilt balance (b(rho) itself)."""

    lemma: list[CalibrationBracket]
    tight: list[CalibrationBracket]
    seconds: float

    @property
    def verdict(self) -> Verdict:
        return verdict_all([br.verdict for br in self.lemma + self.tight])


def certify_calibration(rhos, prec: int = 96) -> CalibrationCertificate:
    """Both brackets at each rho of ``rhos`` (exact decimals or balls) at ``prec`` bits."""
    t0 = time.perf_counter()
    with ctx.workprec(int(prec)):
        a = certified_prime_zero()
        lemma = [calibration_bracket(rho, a) for rho in rhos]
        tight = [scale_bracket(rho, a) for rho in rhos]
    return CalibrationCertificate(lemma, tight, time.perf_counter() - t0)
