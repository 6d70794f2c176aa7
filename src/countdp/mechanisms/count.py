"""What every count mechanism of the form ``[(n+c) exp(noise) - c]_+`` shares: the design
parameters and their ranges, the utility bound of Theorem 3.1(i) and the target of eq (2)."""

from __future__ import annotations

import numpy as np

from .. import formulas
from ..numerics import validate


class CountMechanism:
    """What every count mechanism of the form [(n+c) exp(noise) - c]_+ shares: the design
    (``0 < r0 < r <= 1``, ``c > 0``; without ``r``, ``0 < r0 < 1`` so some admissible r exists),
    the utility bound ``r0 (n+c)/(1+c)`` of Theorem 3.1(i) and the target ``r max(n, 1)`` (eq 2)."""

    def __init__(self, r0, c, r=None):
        c = validate.real("c", c, lo=0)
        if r is not None:
            r = validate.real("r", r, lo=0, hi=1, hi_open=False)
            r0 = validate.real("r0", r0, lo=0, hi=r)
        else:
            r0 = validate.real("r0", r0, lo=0, hi=1)
        self.r0, self.c, self.r = r0, c, r

    def error_bound(self, n):
        """Theorem 3.1(i): the bound r0 (n+c)/(1+c) on the expected absolute error."""
        return formulas.error_bound(validate.count("n", n), self.r0, self.c)

    def target(self, n):
        """The repaired utility target r max(n, 1) (eq 2)."""
        if self.r is None:
            raise ValueError("r is needed for the utility target: construct with r=...")
        return formulas.target(validate.count("n", n), self.r)


def stochastic_round(y, rng: np.random.Generator):
    """Round y >= 0 to floor(y) + 1 with probability y - floor(y) (``formulas.round_up_probability``),
    to floor(y) otherwise: conditional mean y."""
    y = np.asarray(y, dtype=float)
    up = rng.random(y.shape) < formulas.round_up_probability.fp(y)
    return np.floor(y) + up

