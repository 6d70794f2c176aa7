"""The log-Laplace mechanism Y = [(n + c) exp(b L) - c]_+ (L standard Laplace): a second
admissible mechanism for the two-count chain of Proposition 6.2, beside the shifted
log-Gaussian one.

* Before clipping, log(U_n + c) ~ Laplace(log(n + c), b): a translation family, so every
  D_alpha is finite in both directions.
* Utility: E|e^{bL} - 1| = b/(1 - b^2) (for b < 1); b solves (1 + c) b/(1 - b^2) = r0, so
  E|Y - n| <= E|U_n - n| = (n + c) r0/(1 + c) <= r0 n < r n for n >= 1 (clipping cannot increase
  the distance to n >= 0).
* Privacy: on edge n-1 <-> n the log-likelihood ratio is bounded by eps_n = log((n+c)/(n-1+c))/b,
  so the edge is eps_n-DP; before clipping it is exactly the eps_n-DP Laplace mechanism (a
  translate by eps_n of a standard Laplace law in w = log(y + c), in units of b), whose tight
  zCDP parameter is eps_n + e^{-eps_n} - 1 (Harrison and Manurangsi 2025: the supremum over the
  orders is the KL end).  Clipping is postprocessing.  Budget v(n) = eps_n + e^{-eps_n} - 1, below
  the eps_n^2/2 of Bun and Steinke (2016, Prop. 3.3), nonincreasing, v(0) = v(1).

The closed forms are in :mod:`countdp.formulas.log_laplace`.
"""

from __future__ import annotations

import mpmath
import numpy as np

from .. import formulas
from ..laws import ClippedAtZero, ContinuousLaw, LogShiftDensity
from ..laws.reference import standard_laplace_cdf, standard_laplace_sf
from ..numerics import validate
from .count import LogScaleBudget

__all__ = ["LogShiftedLaplaceDensity", "LogLaplaceMechanism"]


class LogShiftedLaplaceDensity(LogShiftDensity):
    """Density of U = exp(T) - c with T ~ Laplace(mu, b), restricted to U > lo:
    f(u) = exp(-|log(u + c) - mu|/b) / (2 b (u + c)).  Quadrature coordinate t = log(u + c) (the
    bookkeeping of countdp.laws.LogShiftDensity); the kink of the Laplace law is a node."""

    noise_kinks = (0,)
    noise_log_lipschitz = 1   # log g(z) = -|z| - log 2

    def __init__(self, mu, b, c, lo=None, origin=None):
        super().__init__(mu, b, c, lo, scale_name="b", origin=origin)

    @property
    def b(self):
        return self.s

    def mp_noise_logpdf(self, z):
        return -abs(z) - mpmath.log(2)

    def noise_logpdf(self, z):
        return -np.abs(z) - np.log(2)

    def mp_noise_sf(self, z):
        return standard_laplace_sf(z)

    def mp_noise_cdf(self, z):
        return standard_laplace_cdf(z)


class LogLaplaceMechanism(LogScaleBudget):
    """Y = [(n + c) exp(b L) - c]_+ with L standard Laplace (density e^{-|l|}/2), ``0 < r0 < r``,
    ``c > 0``; see the module docstring for why it is admissible."""

    def __repr__(self):
        return f"LogLaplaceMechanism(r0={self.r0!r}, c={self.c!r}, r={self.r!r})"

    def mp_b(self):
        """The Laplace scale b in (0, 1) with (1 + c) b/(1 - b^2) = r0."""
        return formulas.log_laplace_scale(self.r0, self.c)

    @property
    def b(self) -> float:
        """The scale as a float; refused when float64 cannot hold it (mp_b() has it)."""
        with mpmath.workdps(30):
            return validate.to_float(f"b for r0 = {self.r0}, c = {self.c}", self.mp_b(),
                                     "mp_b() returns it at full precision")

    def mp_eps(self, n):
        """eps_n = log((n + c)/(n - 1 + c)) / b (n = 0 uses n = 1)."""
        return formulas.log_gap(validate.count("n", n), self.c) / self.mp_b()

    def mp_noise_scale(self):
        """The noise scale b in w = log(y + c)."""
        return self.mp_b()

    def mp_v(self, n):
        """The tight budget v(n) = eps_n + e^{-eps_n} - 1 (the exact zCDP parameter of the
        unclipped edge; see the module docstring), at the working precision: the sum loses
        about 2 log2(1/eps_n) bits to cancellation, which are added as guard bits."""
        eps = self.mp_eps(n)
        guard = 2 * max(0, -int(mpmath.floor(mpmath.log(eps, 2)))) + 16
        with mpmath.workprec(mpmath.mp.prec + guard):
            v = formulas.laplace_kl(eps)
        return +v

    def v_array(self, ns) -> np.ndarray:
        """v(n) over an integer array in float64 (each distinct count rounded from :meth:`v`);
        refused like :meth:`v` when an entry leaves float64 range."""
        ns = validate.counts("n", ns)
        distinct, where = np.unique(ns, return_inverse=True)
        values = np.array([self.v(int(k)) for k in distinct], dtype=float)
        return values[where].reshape(ns.shape)

    def bun_steinke_v(self, n):
        """eps_n^2/2: the budget eps_n-DP alone gives (Bun and Steinke 2016, Prop. 3.3), above v(n)."""
        return formulas.budget(validate.count("n", n), self.mp_b(), self.c)

    def abs_multiplicative_error(self):
        """E|e^{bL} - 1| = b/(1 - b^2)."""
        return formulas.laplace_multiplicative_error(self.mp_b())

    def expected_abs_error_unclipped(self, n):
        """E|U_n - n| = (n + c) b/(1 - b^2) = (n + c) r0/(1 + c)."""
        n = validate.count("n", n)
        return (n + mpmath.mpf(self.c)) * self.abs_multiplicative_error()

    def log_mean(self, n):
        """The centre log(n + c) of the Laplace law of log(U_n + c)."""
        return mpmath.log(validate.count("n", n) + mpmath.mpf(self.c))

    def unclipped_law(self, n) -> ContinuousLaw:
        """U_n = (n + c) exp(b L) - c."""
        mu, b, c = self.log_mean(n), self.mp_b(), mpmath.mpf(self.c)
        muf, bf, cf = float(mu), float(b), float(c)
        return ContinuousLaw(LogShiftedLaplaceDensity(mu, b, c),
                             sampler=lambda g, s: np.exp(g.laplace(muf, bf, s)) - cf,
                             name="exp(Laplace(mu, b)) - c")

    def released_law(self, n) -> ClippedAtZero:
        """[U_n]_+: atom at 0 of mass P(L <= log(c/(n+c))/b) plus the density on (0, inf)."""
        return ClippedAtZero(self.unclipped_law(n), name="[exp(Laplace(mu, b)) - c]_+")

    def mp_cdf_released(self, n, y):
        """P(Y_n <= y) in closed form (y >= 0)."""
        y = mpmath.mpf(validate.real("y", y, lo=0, lo_open=False))
        return standard_laplace_cdf((mpmath.log(y + mpmath.mpf(self.c)) - self.log_mean(n)) / self.mp_b())
