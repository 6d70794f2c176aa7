"""Strict sub-Gaussianity of the Airy score, certified in ball arithmetic.

The Airy law ``f(x) = Ai(|x| + a)^2 / Z`` (``a = a1'`` the first zero of Ai', ``Z = 2|a| Ai(a)^2``)
has the score ``s(x) = -(log f)'(x) = 2 sign(x) R(|x| + a)`` with ``R = -Ai'/Ai``, and ``R' = R^2 - z``
(Riccati, from ``Ai'' = z Ai``).  The statement certified here is

    K_s(u) = log E exp(u s(X)) < I u^2 / 2   for every real u != 0,   I = E s^2 = 4|a|/3,

(equality at u = 0), the strict sub-Gaussianity the Airy mechanism's coefficient ``m^2 I/2`` needs.

**The moment route.**  s is odd and f even, so ``E e^{us} = sum_k m_k u^{2k}/(2k)!`` with
``m_k = E s^{2k}``, while ``e^{I u^2/2} = sum_k (2k-1)!! I^k u^{2k}/(2k)!``.  ``m_1 = I`` (the closed
form of the Fisher information, :func:`countdp.formulas.airy_fisher`); if ``m_k < (2k-1)!! I^k``
for every k >= 2, the series compare termwise and the inequality is strict for u != 0.  For
``k < K`` the moment is an enclosed integral (:func:`score_moment_enclosure`); for all ``k >= K`` at once
a proven bound (R5) is decided.

**Facts used (proved here; cited as (R1)-(R5)).**

(R1) ``Ai > 0`` on ``[a, inf)`` and ``Ai' < 0`` on ``(a, inf)``, so ``R`` is finite and positive
there.  Ai' < 0: :func:`countdp.arb.airy.certified_prime_zero` (Ai' < 0 from its bracket to 0,
and ``Ai'' = z Ai > 0`` on ``[0, inf)`` with ``Ai' -> 0``; inside the bracket ``Ai'' = z Ai < 0``,
so the zero there is simple).  Ai > 0: decided on boxes of ``[a, 0]`` (:func:`ai_positive_from`),
and on ``[0, inf)`` Ai is positive (``Ai(x) = sqrt(x/3) K_{1/3}(2x^{3/2}/3)/pi``, DLMF 9.6.1).

(R2) ``sqrt(z) < R(z) <= sqrt(z) + 1/(4z)`` for ``z > 0``.  Upper: ``g = sqrt(z) + 1/(4z)`` has
``g' - (g^2 - z) = -5/(16 z^2) < 0``.  If ``e = R - g > 0`` at some ``z1 > 0`` then, while
``e > 0``, ``e' = R^2 - z - g' > R^2 - g^2 = e (e + 2g) > e^2``, so ``(1/e)' < -1`` and ``e``
blows up before ``z1 + 1/e(z1)``, contradicting (R1).  Lower: ``g = sqrt z`` has ``g' > 0 = g^2 - z``.
If ``e = g - R >= 0`` at ``z1 > 0`` then ``e' > e (g + R) >= 0`` (strictly positive where e = 0),
so ``e >= e(z2) > 0`` beyond some ``z2 > z1`` and ``R' = -(g - R)(g + R) <= -e(z2) sqrt(z2)``
there: R reaches 0 in finite z, contradicting (R1).

(R3) f is log-concave: ``R' = R^2 - z > 0`` on ``(a, inf)`` (``z <= 0``: ``-z >= 0`` and ``R > 0``;
``z > 0``: (R2)), so s is nondecreasing.  Hence ``|s| <= s(x1)`` on ``[-x1, x1]`` and
``f(x) <= f(x1) exp(-s(x1)(x - x1))`` for ``x >= x1`` (tangent line of the concave ``log f``).

(R4) Quadrature tail.  For ``T > 0`` and ``z >= T``: ``R <= c sqrt(z)`` with ``c = 1 + T^{-3/2}/4``
(R2), ``Ai(z) <= Ai(T) exp(-(2/3)(z^{3/2} - T^{3/2}))`` (integrate ``R > sqrt z``), and with
``w = z^{3/2}``, ``W = T^{3/2}``, ``p = (2k - 1)/3`` and ``w^p <= W^p e^{p(w - W)/W}``::

    int_T^inf R^{2k} Ai^2 dz <= Ai(T)^2 c^{2k} (2/3) W^p / (4/3 - p/W)      (p/W < 4/3).

(R5) All k >= K at once.  Take ``x1 > 0`` with ``z1 = x1 + a > 0`` and
``1/(2 sqrt z1) + 1/(16 z1^2) <= |a|``; then for ``x >= x1``, squaring (R2) gives
``s(x)^2 <= 4x`` (the left side decreases in z).  With ``s1 = s(x1)`` and (R3)::

    m_k <= s1^{2k} + 2 int_{x1}^inf (4x)^k f(x1) e^{-s1 (x - x1)} dx
        <= s1^{2k} + 2 f(x1) e^{s1 x1} 4^k k! / s1^{k+1}

(``int_0^inf (y + x1)^k e^{-s1 y} dy = k!/s1^{k+1} sum_j (s1 x1)^j/j! <= e^{s1 x1} k!/s1^{k+1}``).
So ``m_k/((2k-1)!! I^k) <= T1_k + T2_k``, ``T1_k = (s1^2/I)^k/(2k-1)!!``,
``T2_k = (2 f(x1) e^{s1 x1}/s1) (4/(s1 I))^k k!/(2k-1)!!``, whose step ratios ``s1^2/(I(2k+1))``
and ``4(k+1)/(s1 I (2k+1))`` decrease in k: if both are <= 1 at ``k = K`` and
``T1_K + T2_K < 1``, every ratio with ``k >= K`` is below 1.

**What follows (proved, given the certificate).**  For a symmetric log-concave f, ``log f(x) -
log f(x - Delta) <= -Delta s(x - Delta)``, so ``(alpha - 1) D_alpha(f || f(. - Delta)) <=
K_s(alpha Delta)`` (docstring of :mod:`countdp.divergence.location`); with the certificate
``sup_{alpha >= A} D_alpha/alpha <= (I/2) Delta^2 A/(A - 1)`` for every Delta (:func:`large_alpha_bound`),
without any monotonicity of ``K_s(u)/u^2``.  For ``1 < alpha <= A``, ``Z(alpha) = (alpha-1) D_alpha``
is convex with ``Z(1) = 0``, ``Z'(1) = KL`` and ``Z''(t) = Var_t(L) <= E_f[L^2 e^{(t-1)L}]``
(``Z(t) >= 0``), so ``D_alpha/alpha <= max(KL, sup_{[1,A]} Z''/2)``.  With ``A = Delta^{-1/2}``,
``|L| <= Delta(|s| + S' Delta)`` (``S' = sup |s'| < inf``: ``s' = 2(R^2 - z)`` is continuous and tends
to 0 by (R2))
and ``E e^{|s|} < inf``, dominated convergence gives ``sup_{[1,A]} Z''/Delta^2 -> I`` and
``KL/Delta^2 -> I/2``.  Hence ``sup_alpha D_alpha(f || f(. - Delta))/alpha = (I/2) Delta^2 (1 + o(1))``
as ``Delta -> 0``: the uniform small-shift bound behind ``n^2 v(n) -> I/(2 b^2)``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from flint import arb, ctx

from .. import formulas
from .airy import certified_prime_zero
from .integrals import integrate
from .ranges import bisect, split_at_midpoint
from .verdicts import (Undecided, Verdict, decide_contains, decide_le, decide_lt, interval,
                       nonneg_interval, to_arb, verdict_all)

__all__ = ["ai_positive_from", "quadrature_tail", "score_moment_enclosure", "MomentTail", "moment_tail",
           "ScoreMoment", "SubGaussianCertificate", "certify_score_subgaussian", "large_alpha_bound"]

QUAD_CUTOFF = 8          # the enclosed integral runs over [a1', T]; (R4) beyond
TAIL_POINT = 2           # x1 of (R5): T1 + T2 < 1 from K = 7 on
REL_TOL_BITS = 40        # acb.integral's relative goal: the ratios need a few digits only


def _double_factorial(k: int) -> arb:
    out = arb(1)
    for j in range(1, k + 1):
        out *= 2 * j - 1
    return out


def ai_positive_from(a, max_boxes: int = 2000) -> Verdict:
    """Ai > 0 on [lower(a), 0], every box decided (R1)."""
    lo = arb(to_arb(a).lower())
    res = bisect((lo, arb(0)), lambda bx: decide_lt(0, interval(bx[0], bx[1]).airy_ai()),
                 split_at_midpoint, max_boxes)
    return res.verdict


def quadrature_tail(k: int, cutoff) -> arb:
    """(R4): an exact upper bound of int_T^inf R^{2k} Ai^2 dz, T = ``cutoff`` > 0."""
    T = to_arb(cutoff)
    W = T * T.sqrt()
    p = arb(2 * k - 1) / 3
    gap = arb(4) / 3 - p / W
    if not (T > 0 and gap > 0):
        raise Undecided(f"(R4) needs T > 0 and p/W < 4/3 (k = {k}, T = {T})")
    c = 1 + 1 / (4 * W)
    return arb((T.airy_ai() ** 2 * c ** (2 * k) * 2 * W ** p / (3 * gap)).upper())


def score_moment_enclosure(k: int, a1p, cutoff=QUAD_CUTOFF) -> arb:
    """An enclosure of m_k = E s(X)^{2k} = (2 * 4^k / Z) int_a^inf Ai'^{2k} Ai^{2-2k} dz: acb.integral
    on [a1', T] (the integrand is meromorphic: its poles are the zeros of Ai, all below a1') plus
    the tail (R4), T = ``cutoff`` raised when k needs it; Z is the closed form
    :func:`countdp.formulas.airy_normaliser` at ``a1p``."""
    if k < 1:
        raise ValueError(f"k must be >= 1, got {k}")
    a = to_arb(a1p)
    T = arb(max(int(cutoff), math.ceil((k / 2 + 2) ** (2 / 3))))

    def g(z):
        ai, aip, _, _ = z.airy()
        return aip ** (2 * k) / ai ** (2 * k - 2)

    core = integrate(g, a, T, rel_tol=arb(2) ** -REL_TOL_BITS)
    return 2 * arb(4) ** k * (core + nonneg_interval(quadrature_tail(k, T))) / formulas.airy_normaliser.ball(a)


@dataclass
class MomentTail:
    """(R5) at k = K: the bound T1_K + T2_K of every moment ratio with k >= K."""

    K: int
    x1: int
    s1: arb                # s(x1)
    T1: arb
    T2: arb
    verdict: Verdict       # the conditions of (R5) and T1 + T2 < 1 all decided (never PROVED_FALSE)
    conditions: dict = field(default_factory=dict)   # each condition's own verdict, by name

    @property
    def bound(self) -> arb:
        return self.T1 + self.T2


#: the conditions of (R5), in the order moment_tail decides them
TAIL_CONDITIONS = ("x1 + a1' > 0", "s^2 <= 4x beyond x1", "T1 nonincreasing from K", "T2 nonincreasing from K",
                   "T1 + T2 < 1")


def moment_tail(K: int, a1p, x1: int = TAIL_POINT) -> MomentTail:
    """(R5): decide that every ratio m_k / ((2k-1)!! I^k), k >= K, is below T1_K + T2_K < 1."""
    a = to_arb(a1p)
    I = formulas.airy_fisher.ball(a)
    z1 = x1 + a
    ai, aip, _, _ = z1.airy()
    s1 = -2 * aip / ai
    f1 = ai * ai / formulas.airy_normaliser.ball(a)
    df = _double_factorial(K)
    T1 = (s1 * s1 / I) ** K / df
    T2 = 2 * f1 * (s1 * x1).exp() / s1 * (4 / (s1 * I)) ** K * arb(math.factorial(K)) / df
    conditions = [
        decide_lt(0, z1),
        decide_le(1 / (2 * z1.sqrt()) + 1 / (16 * z1 * z1), -a),    # s^2 <= 4x beyond x1
        decide_le(s1 * s1 / (I * (2 * K + 1)), 1),                  # T1 nonincreasing from K
        decide_le(4 * (K + 1) / (s1 * I * (2 * K + 1)), 1),         # T2 nonincreasing from K
        decide_lt(T1 + T2, 1),
    ]
    # the conditions are those of a sufficient argument: failing one disproves nothing
    vd = verdict_all(conditions)
    return MomentTail(K, x1, s1, T1, T2, Verdict.UNDECIDED if vd is Verdict.PROVED_FALSE else vd,
                      dict(zip(TAIL_CONDITIONS, conditions)))


@dataclass
class ScoreMoment:
    """One enclosed moment m_k = E s^{2k} and its ratio to the Gaussian's (2k-1)!! I^k."""

    k: int
    moment: arb
    ratio: arb
    verdict: Verdict       # k = 1: the enclosure contains I (closed form); k >= 2: ratio < 1


@dataclass
class SubGaussianCertificate:
    """The outcome of :func:`certify_score_subgaussian`: ``verdict`` is PROVED_TRUE iff
    K_s(u) < I u^2/2 for every u != 0 is certified (every item below decided true)."""

    verdict: Verdict
    prec: int
    a1p: arb
    fisher: arb                              # I = 4|a1'|/3 (closed form)
    positivity: Verdict                      # (R1): Ai > 0 on [a1', 0]
    moments: list[ScoreMoment]               # k = 1 .. K - 1
    tail: MomentTail                         # (R5) at k = K
    seconds: float
    detail: dict = field(default_factory=dict)

    def cgf_bracket(self, u) -> tuple[arb, arb]:
        """Certified lower and upper bounds of K_s(u): the lower from the enclosed moments
        (every term of E cosh(us) is positive), the upper from the moments and (R5)."""
        u2 = to_arb(u) ** 2
        x = self.fisher * u2 / 2
        lo = hi = arb(0)         # E cosh(us) - 1, bounded below and above
        term = arb(1)            # u^{2k}/(2k)!
        xk = partial = arb(1)    # x^k/k!, sum_{k < K} x^k/k!
        for m in self.moments:
            term = term * u2 / ((2 * m.k - 1) * (2 * m.k))
            xk = xk * x / m.k
            partial += xk
            lo += arb(m.moment.lower()) * term
            hi += arb(m.moment.upper()) * term if m.k > 1 else x
        K = self.tail.K          # sum_{k >= K} x^k/k! <= x^K e^x/K!, or e^x - sum_{k < K} x^k/k!
        small, large = xk * x / K * x.exp(), nonneg_interval(x.exp() - partial)
        rest = small if small.upper() < large.upper() else large
        hi += arb(self.tail.bound.upper()) * rest
        return lo.log1p(), arb(hi.upper()).log1p()

    def items(self) -> list[dict]:
        """The certified items as keyword arguments of ``CertificateBuilder.record``."""
        out = [dict(name="a1' and Ai > 0 on [a1', inf)", ball=self.a1p, verdict=self.positivity,
                    statement="a1' certified (countdp.arb.airy); Ai > 0 on [a1', 0] on boxes and on [0, inf) "
                              "(DLMF 9.6.1): the score s = 2 sign(x) R(|x| + a1') is finite (R1)")]
        for m in self.moments:
            what = ("E s^2 encloses I = 4|a1'|/3 (the k = 1 term is the Fisher information)" if m.k == 1 else
                    f"E s^{2 * m.k} < {2 * m.k - 1}!! I^{m.k}: ratio below 1 (balls separate)")
            out.append(dict(name=f"score moment k = {m.k}", statement=what + "; acb.integral on [a1', T] "
                            "plus the proven tail (R4)", ball=m.ratio, verdict=m.verdict, moment=m.moment))
        t = self.tail
        out.append(dict(name=f"score moments k >= {t.K}", ball=t.bound, verdict=t.verdict,
                        statement=f"(R5) at x1 = {t.x1}: every ratio with k >= {t.K} is <= T1 + T2 < 1 "
                                  "(s^2 <= 4x beyond x1, both step ratios <= 1 at K)", T1=t.T1, T2=t.T2, s1=t.s1))
        return out


def certify_score_subgaussian(k_quad: int = 6, prec: int = 64, x1: int = TAIL_POINT,
                              cutoff=QUAD_CUTOFF) -> SubGaussianCertificate:
    """Certify K_s(u) < I u^2/2 for all u != 0 (module docstring): the moments k = 1..k_quad by
    enclosed integrals, all k > k_quad by (R5) at K = k_quad + 1.  Runs at ``prec`` bits
    (64: ~1 s for k_quad = 6).  A step not decided leaves the verdict UNDECIDED."""
    t0 = time.perf_counter()
    with ctx.workprec(int(prec)):
        a = certified_prime_zero()
        I = formulas.airy_fisher.ball(a)
        moments = []
        for k in range(1, k_quad + 1):
            m = score_moment_enclosure(k, a, cutoff)
            ratio = m / formulas.airy_score_moment_bound.ball(k, a)
            vd = decide_contains(m, I) if k == 1 else decide_lt(ratio, 1)
            moments.append(ScoreMoment(k, m, ratio, vd))
        positivity = verdict_all([ai_positive_from(a), decide_lt(arb.airy_ai_zero(1), a)])
        tail = moment_tail(k_quad + 1, a, x1)
        verdict = verdict_all([positivity, tail.verdict] + [m.verdict for m in moments])
        return SubGaussianCertificate(verdict, int(prec), a, I, positivity, moments, tail,
                                      time.perf_counter() - t0)


def large_alpha_bound(delta, A, a1p=None) -> arb:
    """(I/2) Delta^2 A/(A - 1): given the certificate, an upper bound of D_alpha(f || f(. - Delta))/alpha
    for every alpha >= A > 1 (module docstring), at the current precision."""
    A = to_arb(A)
    if not A > 1:
        raise Undecided("the large-alpha bound needs A > 1")
    a = certified_prime_zero() if a1p is None else to_arb(a1p)
    return formulas.airy_score_cgf_bound.ball(delta, a) * A / (A - 1)
