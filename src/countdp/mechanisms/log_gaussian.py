"""The shifted log-Gaussian mechanism (Section 3) and its exact output laws.

    sigma = Phi^{-1}(1/2 + r0 / (2(1+c)))                                  (eq 3)
    xhat  = [(n+c) exp(sigma Z - sigma^2) - c]_+                           (eq 4)
    v(0) = v(1) = log^2((1+c)/c) / (2 sigma^2),                            (eq 5)
    v(n) = log^2((n+c)/(n-1+c)) / (2 sigma^2)   (n >= 1)                   (eq 6)

The formulas live in :mod:`countdp.formulas.mechanism`; this module builds the laws: unclipped
``U_n`` (a log-shifted Gaussian, eq 10), released ``[U_n]_+`` (an atom at 0 plus a density),
and the stochastically rounded release (an integer law whose pmf is exact in closed form
through lognormal partial expectations).
"""

from __future__ import annotations

import mpmath
import numpy as np

from .. import formulas
from ..laws import ClippedAtZero, IntegerLaw, LogShiftedGaussian
from ..laws.log_shift import LogShiftOrigin
from ..numerics import normal, validate
from .count import LogScaleBudget, stochastic_round

#: a standardised clip point below -this: the clipped mass is below Phi(-1e50), beyond any precision
_Z_NEGLIGIBLE = mpmath.mpf("1e50")


class ShiftedLogGaussian(LogScaleBudget):
    """The shifted log-Gaussian mechanism for parameters ``0 < r0 < r <= 1`` and ``c > 0``.

    ``r`` (the user's tolerance) is optional; without it ``0 < r0 < 1`` is required so that some
    admissible ``r`` exists.  ``drift`` defaults to the paper's ``-sigma^2``; other drifts (e.g.
    ``-sigma^2/2``) are allowed only to build negative controls and are labelled as such.
    """

    def __init__(self, r0, c, r=None, drift_factor=1):
        super().__init__(r0, c, r)
        self.drift_factor = mpmath.mpf(validate.real("drift_factor", drift_factor))
        self._sigma_cache: dict[int, mpmath.mpf] = {}
        self._sigma_balls: dict = {}

    def __repr__(self):
        drift = "" if self.drift_factor == 1 else f", drift_factor={float(self.drift_factor)!r}"
        return f"ShiftedLogGaussian(r0={self.r0!r}, c={self.c!r}, r={self.r!r}{drift})"

    # ---- calibration and budget ------------------------------------------------------------
    def mp_sigma(self):
        """sigma of eq (3) at the current precision."""
        key = mpmath.mp.prec
        if key not in self._sigma_cache:
            self._sigma_cache[key] = formulas.sigma(self.r0, self.c)
        return self._sigma_cache[key]

    def sigma_ball(self):
        """sigma of eq (3) as an Arb ball at the current ``flint.ctx.prec`` (cached)."""
        from flint import ctx

        key = ctx.prec
        if key not in self._sigma_balls:
            self._sigma_balls[key] = formulas.sigma.ball(self.r0, self.c)
        return self._sigma_balls[key]

    def drift_ball(self):
        """The drift -drift_factor sigma^2 as a ball at the current ``flint.ctx.prec``."""
        from ..numerics.contexts import to_arb

        s = self.sigma_ball()
        return -to_arb(self.drift_factor) * s * s

    @property
    def sigma(self) -> float:
        """sigma of eq (3) as a float; refused (ValueError) when float64 cannot hold it (r0 below
        about 1e-308 (1 + c)): :meth:`mp_sigma` has it at full precision."""
        with mpmath.workdps(30):
            return validate.to_float(f"sigma for r0 = {self.r0}, c = {self.c}", self.mp_sigma(),
                                     "mp_sigma() returns it at full precision")

    def mp_drift(self):
        return -self.drift_factor * self.mp_sigma() ** 2

    def mp_noise_scale(self):
        """The budget's scale (eqs 5-6): sigma."""
        return self.mp_sigma()

    # ---- laws ------------------------------------------------------------------------------
    def log_mean(self, n):
        """Mean of log(U_n + c): log(n+c) - sigma^2 (eq 10)."""
        n = validate.count("n", n)
        return mpmath.log(n + mpmath.mpf(self.c)) + self.mp_drift()

    def unclipped_law(self, n) -> LogShiftedGaussian:
        """U_n = (n+c) exp(sigma Z - sigma^2) - c (eq 4 before clipping)."""
        n = validate.count("n", n)
        origin = LogShiftOrigin(("shifted log-Gaussian", self.r0, self.c, self.drift_factor), n, self.c,
                                self.sigma_ball, self.drift_ball)
        return LogShiftedGaussian(self.log_mean(n), self.mp_sigma(), self.c, origin)

    def released_law(self, n) -> ClippedAtZero:
        """The released [U_n]_+: atom at 0 of mass Phi((log(c/(n+c)) + sigma^2)/sigma) plus density."""
        return ClippedAtZero(self.unclipped_law(n))

    def rounded_law(self, n) -> "RoundedLogGaussian":
        """The release after stochastic rounding (Corollary 3.2): an integer law, exact pmf."""
        return RoundedLogGaussian(self, validate.count("n", n))

    # ---- exact errors ----------------------------------------------------------------------
    def expected_abs_error_unclipped(self, n):
        """eq (9): E|U_n - n| = (n+c)(2 Phi(sigma) - 1) (for the paper's drift)."""
        n = validate.count("n", n)
        if self.drift_factor != 1:
            return (n + mpmath.mpf(self.c)) * formulas.drift_error(self.mp_sigma(), -self.mp_drift())
        return formulas.unclipped_error(n, self.c, self.mp_sigma())

    def expected_abs_error_released(self, n):
        """E|[U_n]_+ - n| exactly: E|U_n - n| plus E[U_n 1{U_n < 0}] (clipping moves U < 0 to 0);
        see :func:`countdp.formulas.mechanism.negative_part`.  When the clip point is more than
        1e50 standard deviations below the mean (sigma tiny: r0 ~ 1e-300), that term is below
        Phi(-1e50) (n + c), nothing at any working precision, and the unclipped error is the value."""
        n = validate.count("n", n)
        s, drift = self.mp_sigma(), self.mp_drift()
        z = (-mpmath.log1p(n / mpmath.mpf(self.c)) - drift) / s  # the larger normal-cdf argument
        if z < -_Z_NEGLIGIBLE:
            return self.expected_abs_error_unclipped(n)
        return self.expected_abs_error_unclipped(n) + formulas.negative_part(n, self.c, s, drift)

    # ---- dp_accounting (the optional extra countdp[accounting]) ------------------------------
    def dp_event(self, n, releases: int = 1):
        """dp_accounting's ``GaussianDpEvent`` of the edge at n: a Gaussian mechanism in log(y + c)
        with noise multiplier ``sigma / log((n+c)/(n-1+c))`` (eq 6's gap; eq 5's at n = 0; the
        drift moves both means alike), an upper bound on the released mechanism (clipping is
        post-processing); ``releases`` > 1 wraps it in a ``SelfComposedDpEvent``.  See :mod:`countdp.mechanisms.accounting`."""
        from .accounting import gaussian_event

        return gaussian_event(self.mp_sigma(), self.c, n, releases)

    def pld(self, n, releases: int = 1, value_discretization_interval: float = 1e-4):
        """dp_accounting's ``PrivacyLossDistribution`` of the *released* laws on the edge at n (the
        atom at 0 included, both orders), rounded pessimistically on a grid of that interval;
        self-composed ``releases`` times.  See :mod:`countdp.mechanisms.accounting`."""
        from .accounting import released_pld

        return released_pld(self.mp_sigma(), self.c, n, releases, value_discretization_interval,
                            self.mp_drift())

    # ---- sampling --------------------------------------------------------------------------
    def release(self, counts, rng: np.random.Generator, clip: bool = True, rounding: bool = False):
        """Release a whole histogram at once: eq (4) per coordinate, independently.

        ``counts`` is an array of nonnegative integers of any shape; the unclipped values are
        eq (4)'s map of the standard normal draws (``formulas.unclipped_release``), whereas the
        laws above are built from :meth:`mp_drift`.  ``rounding`` applies stochastic rounding
        (floor or ceil with conditional mean y).  ``rng``: a Generator, an integer seed or None."""
        x = validate.counts("counts", counts).astype(float)
        rng = validate.rng(rng)
        drift = None if self.drift_factor == 1 else float(self.mp_drift())
        z = rng.standard_normal(x.shape)
        y = formulas.unclipped_release.fp(x, float(self.c), float(self.mp_sigma()), z, drift)
        if clip or rounding:
            y = np.maximum(y, 0.0)
        if rounding:
            y = stochastic_round(y, rng)
        return y


def _tails(z):
    """(z, Phi(z), Phi(-z)) where only the tail on z's side is ever read (see ``_diff``: a cdf
    at z <= 0, a survival function at z >= 0); the other entry is its complement, not a second
    normal-cdf evaluation."""
    if z >= 0:
        sf = mpmath.ncdf(-z)
        return z, 1 - sf, sf
    cdf = mpmath.ncdf(z)
    return z, cdf, 1 - cdf


class RoundedLogGaussian(IntegerLaw):
    """Stochastic rounding of the released [U_n]_+.

    ``P(K = k) = E[(1 - |Y - k|)_+]`` (the tent), so with Y's atom a0 at 0 and its density on
    (0, inf): ``p_k = 1{k=0} a0 + E[(Y-k+1) 1{k-1<Y<=k}] + E[(k+1-Y) 1{k<Y<=k+1}]`` (Y > 0 parts).
    The partial expectations are lognormal closed forms: for 0 <= a < b, with
    ``w_x = log((x+c)/(n+c))`` and W = sigma Z - sigma^2,
    ``P(a<Y<=b) = Phi_diff((w_a+sigma^2)/sigma, (w_b+sigma^2)/sigma)`` and
    ``E[(Y+c) 1{a<Y<=b}] = (n+c) e^{-sigma^2/2} Phi_diff(w_a/sigma, w_b/sigma)``.
    """

    support_lo = 0

    def __init__(self, mech: ShiftedLogGaussian, n: int):
        if mech.drift_factor != 1:
            raise ValueError("the closed-form rounded pmf is for the paper's drift -sigma^2")
        self.mech, self.n = mech, n
        self.released = mech.released_law(n)
        self._cache: dict = {}

    def _edge(self, j):
        """Normal cdf and sf at the two standardised coordinates of the boundary y = j >= 0:
        the mass coordinate (w_j + sigma^2)/sigma and the mean coordinate w_j/sigma (cached)."""
        key = (int(j), mpmath.mp.prec)
        if key not in self._cache:
            s = self.mech.mp_sigma()
            c = mpmath.mpf(self.mech.c)
            w = mpmath.log((j + c) / (self.n + c))
            zs = ((w + s * s) / s, w / s)
            self._cache[key] = tuple(_tails(z) for z in zs)
        return self._cache[key]

    @staticmethod
    def _diff(a, b):
        """Phi(z_b) - Phi(z_a) from cached (z, cdf, sf) triples, on the side avoiding cancellation."""
        za, ca, sa = a
        zb, cb, sb = b
        if za >= 0:
            return sa - sb
        if zb <= 0:
            return cb - ca
        return 1 - ca - sb

    def _piece(self, a, b):
        """(P(a<Y<=b), E[Y 1{a<Y<=b}]) for integers 0 <= a < b."""
        s = self.mech.mp_sigma()
        c = mpmath.mpf(self.mech.c)
        (pa, ma), (pb, mb) = self._edge(a), self._edge(b)
        prob = self._diff(pa, pb)
        mean_plus_c = (self.n + c) * mpmath.exp(-s * s / 2) * self._diff(ma, mb)
        return prob, mean_plus_c - c * prob

    def mp_pmf(self, k):
        k = int(k)
        if k < 0:
            return mpmath.mpf(0)
        key = ("pmf", k, mpmath.mp.prec)
        if key not in self._cache:
            self._cache[key] = self._pmf(k)
        return self._cache[key]

    def _pmf(self, k):
        # the tent's terms, k times the pmf in size, cancel, and the normal cdfs across one count
        # differ in their last log10(k) digits: 2 log2(k + 2) + 10 guard bits keep the working
        # precision (without them 30 digits gave the pmf at n = 10^6 to 1e-20, at 10^9 to 2e-15)
        with mpmath.workprec(mpmath.mp.prec + 2 * (k + 2).bit_length() + 10):
            total = self._tent(k)
        return +total

    def _tent(self, k):
        """The pmf at k from the tent's pieces, at the working precision (no guard)."""
        total = mpmath.mpf(0)
        if k == 0:
            total += self.released.atom_mass
        if k >= 1:
            prob, mean = self._piece(k - 1, k)
            total += mean - (k - 1) * prob
        prob, mean = self._piece(k, k + 1)
        return total + (k + 1) * prob - mean

    def log_center_scale(self):
        """Mean and sd of log(Y + c) before clipping: (log(n+c) - sigma^2, sigma) (eq 10)."""
        base = self.released.base
        return base.mu, base.s

    def mp_cdf_y(self, y):
        """P(Y <= y) for the unrounded release."""
        return self.released.base.mp_cdf(y) if y >= 0 else mpmath.mpf(0)

    def window(self, tail):
        """Integers lo..hi with P(K < lo) + P(K > hi) <= tail: K > hi needs Y > hi, K < lo needs
        Y < lo (each a proven tail mass of the continuous release)."""
        tail = mpmath.mpf(tail)
        base = self.released.base
        mu, s = base.mu, base.s
        zq = -normal.mp_Phi_inv(tail / 2)
        hi = int(mpmath.ceil(mpmath.exp(mu + zq * s) - base.c)) + 1
        lo_y = mpmath.exp(mu - zq * s) - base.c
        lo = max(0, int(mpmath.floor(lo_y)) - 1)
        return lo, hi

    def sample(self, rng, size):
        return stochastic_round(self.released.sample(rng, size), rng)

    def describe(self):
        return "stochastically rounded [exp(N(mu, s^2)) - c]_+"

