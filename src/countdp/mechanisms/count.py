"""What every count mechanism of the form ``[(n+c) exp(noise) - c]_+`` shares: the design
parameters and their ranges, the utility bound of Theorem 3.1(i) and the target of eq (2)."""

from __future__ import annotations

import mpmath
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


class LogScaleBudget(CountMechanism):
    """A count mechanism whose noise is a location family in w = log(y + c) with scale s and
    whose budget is eqs (5)-(6): v(n) = log^2((n+c)/(n-1+c)) / (2 s^2) (the log-Gaussian with
    s = sigma, log-Laplace with s = b).  Subclasses give the scale as :meth:`mp_noise_scale`."""

    def mp_noise_scale(self):
        raise NotImplementedError

    def mp_v(self, n):
        """The budget v(n) of eqs (5)-(6) at the working precision, for every count n >= 0 (an
        mpmath number: no range limit)."""
        return formulas.budget(validate.count("n", n), self.mp_noise_scale(), self.c)

    def v(self, n) -> float:
        """v(n) as a float (correctly rounded from 30 digits).  Refused (ValueError) when float64
        cannot hold it -- above ~1.8e308 (a tiny scale: v ~ 1/s^2) or below ~2.2e-308 (n beyond
        ~1e154: v ~ 1/(2 s^2 n^2)); :meth:`mp_v` returns it at full precision."""
        n = validate.count("n", n)
        with mpmath.workdps(30):
            return validate.to_float(f"v({n}) for r0 = {self.r0}, c = {self.c}", self.mp_v(n),
                                     "mp_v(n) returns it at full precision")

    def v_array(self, ns) -> np.ndarray:
        """v(n) over an integer array in float64 (log1p keeps it accurate for large n); refused
        like :meth:`v` when an entry leaves float64 range."""
        ns = validate.counts("n", ns)
        s = self.mp_noise_scale()
        if s < 1e-150:  # 2 s^2 would underflow inside the float64 formula: round each exactly
            return np.array([self.v(int(k)) for k in ns.ravel()], dtype=float).reshape(ns.shape)
        return validate.floats(f"v_array(n) for r0 = {self.r0}, c = {self.c}",
                               formulas.budget.fp(ns, float(s), float(self.c)),
                               "mp_v(n) returns it at full precision", zero_ok=False)


def stochastic_round(y, rng: np.random.Generator):
    """Round y >= 0 to floor(y) + 1 with probability y - floor(y) (``formulas.round_up_probability``),
    to floor(y) otherwise: conditional mean y.  ``y``: finite reals >= 0 (NaN, inf and negative
    values are refused, naming y); ``rng``: a Generator, an integer seed or None."""
    y = validate.reals("y", y, lo=0, lo_open=False)
    rng = validate.rng(rng)
    up = rng.random(y.shape) < formulas.round_up_probability.fp(y)
    return np.floor(y) + up

