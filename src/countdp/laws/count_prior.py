"""A prior on the counts {N, N+1, ...} with a finite one-sided shift divergence (the coupling of the
C* lower bound, experiments/cstar/lower-bound.md).

``pi(N + j) = C(j+2, 2) (1 - rho)^3 rho^j`` (negative binomial of shape 3).  Its support is closed
under +1, so KL(pi(. - 1) || pi) (the law of n + 1 against that of n) is finite:

    KL(pi(. - 1) || pi) = sum_j pi_j log(pi_j/pi_{j+1}) = -log rho - E log(1 + 2/(J + 1)),

bounded above by :func:`countdp.formulas.prior_shift_kl_bound`.  The other direction,
KL(pi || pi(. - 1)), is infinite: pi(N) > 0 while pi(N - 1) = 0 -- and so it is for *every*
prior on the counts, whose support has a least element.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
import numpy as np
from scipy import special

from .. import formulas
from ..numerics import validate

__all__ = ["CountPrior", "count_prior_for_excess"]


def _last_excess(rho: float, tail: float) -> int:
    """The least j with P(J > j) <= tail for J ~ NB(3, 1 - rho): doubling, then bisection."""
    def above(j):
        return special.nbdtrc(j, 3, 1 - rho) > tail     # P(J > j) > tail
    hi = 1
    while above(hi):
        hi *= 2
    lo = -1                                              # P(J > -1) = 1 > tail
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if above(mid) else (lo, mid)
    return hi


@dataclass(frozen=True)
class CountPrior:
    """The shape-3 negative binomial on N + j (j >= 0)."""

    N: int
    rho: float

    def __post_init__(self):
        validate.count("N", self.N, lo=1)
        validate.real("rho", self.rho, lo=0, hi=1)

    @property
    def mean(self) -> float:
        return self.N + float(formulas.prior_mean_excess.fp(self.rho))

    def table(self, tail: float = 1e-17) -> tuple[np.ndarray, np.ndarray]:
        """(counts, probabilities) up to the j where the remaining mass is below ``tail``."""
        rho = self.rho
        j = np.arange(_last_excess(rho, tail) + 1)
        logp = (special.gammaln(j + 3) - special.gammaln(j + 1) - math.log(2)
                + 3 * math.log1p(-rho) + j * math.log(rho))
        return self.N + j, np.exp(logp)

    def shift_kl(self, tail: float = 1e-17) -> float:
        """KL(pi(. - 1) || pi) = -log rho - sum_j pi_j log((j+3)/(j+1)) (the series, float64)."""
        ns, ps = self.table(tail)
        j = ns - self.N
        return float(-math.log(self.rho) - np.sum(ps * np.log1p(2 / (j + 1))))

    def mp_shift_kl(self):
        """The same series in mpmath (mpmath.nsum) at the working precision."""
        rho = mpmath.mpf(self.rho)

        def term(j):
            return (j + 1) * (j + 2) / 2 * (1 - rho) ** 3 * rho ** j * mpmath.log1p(2 / (j + 1))
        return -mpmath.log(rho) - mpmath.nsum(term, [0, mpmath.inf])

    def reverse_shift_kl(self) -> float:
        """KL(pi || pi(. - 1)) = inf: the term at the least count N has pi(N - 1) = 0."""
        return math.inf


def count_prior_for_excess(N: int, excess) -> CountPrior:
    """The prior with mean N + ``excess`` (rho = excess/(excess + 3))."""
    excess = validate.real("excess", excess, lo=0)
    return CountPrior(int(N), float(excess / (excess + 3)))
