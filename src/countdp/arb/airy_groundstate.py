"""The numerical ingredients of inequality (8) of the C* lower bound, certified in ball arithmetic.

(8) (experiments/cstar/lower-bound.md, step 4): every psi in H^1 with ``int psi^2 = 1`` and
``int |x| psi^2 = M`` has ``int psi'^2 >= c0/(2 M^2)``, ``c0 = 8|a1'|^3/27``.  The proof substitutes
the ground state ``phi(x) = Ai(k^{1/3}|x| + a1')`` of ``-d^2/dx^2 + k|x|`` (eigenvalue ``k^{2/3}|a1'|``;
C^2 because ``Ai'(a1') = 0``) into Picone's identity, which needs ``phi > 0``, and then maximises
``h(s) = |a1'| s^2 - M s^3`` over ``s = k^{1/3}``.  Certified here:

* ``a1`` (the largest zero of Ai) enclosed: Ai changes sign on a bracket around Arb's ball, Ai > 0
  from the bracket to 0 (boxes) and on ``[0, inf)`` (DLMF 9.6.1), so no zero lies above it;
* ``a1 < a1'`` with disjoint balls (``a1'`` from :func:`countdp.arb.airy.certified_prime_zero`),
  so ``Ai > 0`` on ``(a1, inf)``, which contains every argument ``k^{1/3}|x| + a1'`` of phi; and,
  independently, Ai > 0 on ``[a1', 0]`` on boxes (:func:`countdp.arb.airy_score.ai_positive_from`);
* the best k: the polynomial identity ``h(s*) - h(s) = M (s - s*)^2 (s + s*/2)`` at
  ``s* = 2|a1'|/(3M)``, ``h(s*) = 4|a1'|^3/(27 M^2)``, in exact rational polynomial arithmetic
  (times ``M^2``, with ``u = M s``), and the maximum ``h(s*)`` at ``M = 1`` against
  ``c0/2`` (:func:`countdp.formulas.airy_limit_constant`) in balls.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

from flint import arb, ctx, fmpq, fmpq_mpoly_ctx

from .. import formulas
from .airy import certified_prime_zero
from .airy_score import ai_positive_from
from .ranges import bisect, sign_change_bracket, split_at_midpoint
from .verdicts import Undecided, Verdict, decide_lt, interval, to_arb, verdict_all

__all__ = ["certified_ai_zero", "certified_zeros", "decide_zero_order", "decide_ground_state_positive", "decide_best_k",
           "GroundStateCertificate", "certify_ground_state"]

#: the maximiser s* = (2/3) |a1'|/M and the maximum h(s*) = (4/27) |a1'|^3/M^2 of step (e)
BEST_K = (Fraction(2, 3), Fraction(4, 27))


def certified_ai_zero() -> arb:
    """A ball holding a1, the largest zero of Ai: a sign change on the ball, Ai > 0 from its upper
    end to 0 (every box decided) and on [0, inf) (DLMF 9.6.1).  Raises :class:`Undecided`."""
    # Ai rises through its largest zero: - to +
    lo, hi = sign_change_bracket(lambda x: x.airy_ai(), arb.airy_ai_zero(1), "sign change of Ai", sign=1)
    pos = bisect((hi, arb(0)), lambda bx: decide_lt(0, interval(bx[0], bx[1]).airy_ai()),
                 split_at_midpoint, 4000)
    if pos.verdict is not Verdict.PROVED_TRUE:
        raise Undecided("Ai > 0 on [a1 + d, 0] not certified")
    return interval(lo, hi)


def certified_zeros() -> tuple[arb, arb]:
    """(a1, a1'): the largest zeros of Ai and of Ai', each certified (the pair the certificate uses)."""
    return certified_ai_zero(), certified_prime_zero()


def decide_zero_order(a1, a1p) -> Verdict:
    """Claim ``a1 < a1' < 0`` (both balls separate): then Ai > 0 on [a1', inf) because a1 is the
    largest zero of Ai."""
    return verdict_all([decide_lt(a1, a1p), decide_lt(a1p, 0)])


def decide_ground_state_positive(a1, a1p) -> Verdict:
    """phi(x) = Ai(k^{1/3}|x| + a1') > 0 for every x and k > 0: the zero order ``a1 < a1'`` and,
    independently, Ai > 0 on [a1', 0] on boxes (the part [0, inf) is DLMF 9.6.1)."""
    return verdict_all([decide_zero_order(a1, a1p), ai_positive_from(a1p)])


def decide_best_k(best=BEST_K) -> Verdict:
    """The identity h(s*) - h(s) = M (s - s*)^2 (s + s*/2) for h(s) = A s^2 - M s^3, with
    ``best = (p, v)``: s* = p A/M, h(s*) = v A^3/M^2.  Times M^2, with u = M s, it reads
    ``v A^3 - (A u^2 - u^3) = (u - p A)^2 (u + p A/2)``, a polynomial identity in (A, u) decided in
    exact rational arithmetic: PROVED_TRUE iff it holds, else PROVED_FALSE."""
    p, v = (fmpq(Fraction(x).numerator, Fraction(x).denominator) for x in best)
    A, u = fmpq_mpoly_ctx.get(("A", "u"), "lex").gens()
    difference = v * A ** 3 - (A * u * u - u ** 3) - (u - p * A) ** 2 * (u + p * A / 2)
    return Verdict.PROVED_TRUE if difference.is_zero() else Verdict.PROVED_FALSE


def _maximum_at_unit_mean(a1p) -> tuple[arb, Verdict]:
    """h(s*) at M = 1 in balls, and whether it overlaps c0/2 (formulas.airy_limit_constant): a
    disjoint pair (PROVED_FALSE) means the library's c0 is not the maximum of step (e)."""
    A = abs(to_arb(a1p))
    s = 2 * A / 3
    h = A * s * s - s ** 3
    half = formulas.airy_limit_constant.ball(a1p) / 2
    return h, (Verdict.UNDECIDED if h.overlaps(half) else Verdict.PROVED_FALSE)


@dataclass
class GroundStateCertificate:
    """The outcome of :func:`certify_ground_state`; ``verdict`` is PROVED_TRUE iff every item is."""

    verdict: Verdict
    prec: int
    a1: arb
    a1p: arb
    zero_order: Verdict            # a1 < a1' < 0
    positivity: Verdict            # phi > 0 on R
    best_k: Verdict                # the identity of step (e)
    maximum: arb                   # h(s*) at M = 1 (= c0/2)
    maximum_matches: Verdict       # UNDECIDED (consistent) or PROVED_FALSE (c0 is not the maximum)
    seconds: float

    def items(self) -> list[dict]:
        """The certified items as keyword arguments of ``CertificateBuilder.record``."""
        match = Verdict.PROVED_TRUE if self.maximum_matches is Verdict.UNDECIDED else Verdict.PROVED_FALSE
        return [
            dict(name="a1 < a1' < 0", ball=self.a1p - self.a1, verdict=self.zero_order, a1=self.a1, a1p=self.a1p,
                 statement="a1 (largest zero of Ai) and a1' (largest zero of Ai') in disjoint balls, a1 < a1'"),
            dict(name="phi > 0 on R", ball=self.a1p, verdict=self.positivity,
                 statement="Ai > 0 on (a1, inf), which contains [a1', inf); also Ai > 0 on [a1', 0] on boxes "
                           "(DLMF 9.6.1 beyond 0): the ground state Ai(k^(1/3)|x| + a1') is positive"),
            dict(name="best k", ball=None, verdict=self.best_k,
                 statement="h(s*) - h(s) = M (s - s*)^2 (s + s*/2), s* = 2|a1'|/(3M), h(s*) = 4|a1'|^3/(27 M^2), "
                           "exact polynomial identity: sup_k of (8a) is c0/(2M^2)"),
            dict(name="maximum = c0/2 at M = 1", ball=self.maximum, verdict=match,
                 statement="h(s*) at M = 1 in balls overlaps airy_limit_constant/2 (equal by the identity)"),
        ]


def certify_ground_state(prec: int = 128) -> GroundStateCertificate:
    """Certify the ingredients of (8) listed in the module docstring at ``prec`` bits."""
    t0 = time.perf_counter()
    with ctx.workprec(int(prec)):
        a1, a1p = certified_zeros()
        order = decide_zero_order(a1, a1p)
        positive = decide_ground_state_positive(a1, a1p)
        best = decide_best_k()
        h, match = _maximum_at_unit_mean(a1p)
        verdict = verdict_all([order, positive, best,
                               Verdict.PROVED_TRUE if match is Verdict.UNDECIDED else Verdict.PROVED_FALSE])
        return GroundStateCertificate(verdict, int(prec), a1, a1p, order, positive, best, h, match,
                                      time.perf_counter() - t0)
