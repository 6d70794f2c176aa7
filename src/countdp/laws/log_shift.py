"""Laws of ``exp(mu + s X) - c`` for a standard noise X (eq 10's coordinate), and clipping at 0 (eq 4)."""

from __future__ import annotations

import mpmath
import numpy as np

from ..numerics import normal, validate
from .base import ContinuousLaw, Density, MixedLaw, check_law


class LogShiftDensity(Density):
    """Density of ``U = exp(W) - c`` with ``W = mu + s X`` for a standard noise law X, restricted to
    ``U > lo`` (``lo = -c``: the whole law; ``lo = 0``: the part clipping leaves, eq 4).

    ``f(u) = g((log(u + c) - mu)/s) / (s (u + c))`` with g the density of X.  Quadrature runs in
    ``t = log(u + c)`` (eq 10's coordinate), where U is the location-scale law of W restricted to
    ``t > log(lo + c)``; two such densities with the same c share it, so neighbouring counts are
    exact translates there.  Subclasses give the noise: ``mp_noise_logpdf(z)``,
    ``noise_logpdf(z)`` (numpy) and ``mp_noise_sf(z)``; ``noise_kinks`` lists standardised points
    where g has a kink (quadrature nodes).  ``origin``: how a mechanism made (mu, s, c), for
    engines that recompute them exactly in balls (a :class:`LogShiftOrigin`); None: the stored
    binary parameters are the law.

    The protocol of a new noise law (what the divergence engines need; see
    :mod:`countdp.divergence.noise_pair`): the four methods ``mp_noise_logpdf``,
    ``noise_logpdf``, ``mp_noise_sf``, ``mp_noise_cdf`` (the cdf where 1 - sf would cancel),
    ``noise_kinks``, ``noise_parameters`` (a tuple of any shape parameters of the noise: two laws
    are one noise at two locations only when their classes and parameters agree), and, to close
    the large-alpha end of the tight-rho bracket, one of two proven constants:
    ``noise_log_lipschitz = Lip`` when |(log g)'| <= Lip (a bounded privacy loss: Laplace,
    logistic, Lip = 1), or ``noise_score_subgaussian = S`` when g is log-concave and its score
    s = -(log g)' has E exp(u s(X)) <= exp(S u^2/2) (the Gaussian: S = 1).  None: not declared
    (the end then rests on a numerical sup of the log-ratio)."""

    noise_kinks: tuple = ()
    noise_parameters: tuple = ()
    noise_log_lipschitz: float | None = None
    noise_score_subgaussian: float | None = None
    origin: "LogShiftOrigin | None"

    def __init__(self, mu, s, c, lo=None, scale_name="s", origin: "LogShiftOrigin | None" = None):
        self.mu = mpmath.mpf(validate.real("mu", mu))
        self.s = mpmath.mpf(validate.real(scale_name, s, lo=0))
        self.c = mpmath.mpf(validate.real("c", c, lo=0))
        self.lo = -float(c) if lo is None else float(lo)
        self.lo_mp = -self.c if lo is None else mpmath.mpf(lo)
        self.hi = np.inf
        self.origin = origin
        self._const_prec = None

    # -- the noise law (standardised) --
    def mp_noise_logpdf(self, z):
        raise NotImplementedError

    def noise_logpdf(self, z):
        return np.vectorize(lambda v: float(self.mp_noise_logpdf(v)))(np.asarray(z, dtype=float))

    def mp_noise_sf(self, z):
        raise NotImplementedError

    def mp_noise_cdf(self, z):
        """P(X <= z); subclasses override where 1 - sf would cancel."""
        return 1 - self.mp_noise_sf(z)

    def restricted_to_positive(self) -> "LogShiftDensity":
        """The same density on U > 0 only: the part of [U]_+ off its atom at 0 (eq 4)."""
        return type(self)(self.mu, self.s, self.c, lo=0, origin=self.origin)

    def mp_mass_at_or_below_zero(self):
        """P(U <= 0) = P(X <= (log c - mu)/s): the atom that clipping puts at 0."""
        return self.mp_noise_cdf((mpmath.log(self.c) - self.mu) / self.s)

    # -- constants cached per precision --
    def _consts(self):
        if self._const_prec != mpmath.mp.prec:
            self._const_prec = mpmath.mp.prec
            self._t_lo = None if self.lo_mp == -self.c else mpmath.log(self.lo_mp + self.c)
            self._log_s = mpmath.log(self.s)
        return self._t_lo, self._log_s

    @property
    def breakpoints(self):
        return tuple(float(mpmath.exp(self.mu + self.s * z) - self.c) for z in self.noise_kinks)

    def t_breakpoints(self) -> tuple:
        """The kinks in the quadrature coordinate t = log(x + c): mu + s z for each noise kink,
        exact where their x-values (``breakpoints``) round onto -c (mu = -50: x = -1 + 2e-22)."""
        return tuple(self.mu + self.s * z for z in self.noise_kinks)

    # -- values --
    def mp_log_integrand_t(self, t):
        t = mpmath.mpf(t)
        t_lo, log_s = self._consts()
        if t_lo is not None and not t > t_lo:
            return mpmath.mpf("-inf")
        return self.mp_noise_logpdf((t - self.mu) / self.s) - log_s

    def mp_logpdf(self, x):
        x = mpmath.mpf(x)
        if not x > self.lo_mp:
            return mpmath.mpf("-inf")
        t = mpmath.log(x + self.c)
        return self.mp_log_integrand_t(t) - t

    def logpdf(self, x):
        x = np.asarray(x, dtype=float)
        ok = x > self.lo
        y = np.where(ok, x + float(self.c), 1.0)
        t = np.log(y)
        out = self.noise_logpdf((t - float(self.mu)) / float(self.s)) - np.log(float(self.s)) - t
        return np.where(ok, out, -np.inf)

    def mass(self):
        t_lo, _ = self._consts()
        return mpmath.mpf(1) if t_lo is None else self.mp_noise_sf((t_lo - self.mu) / self.s)

    # -- integration coordinate t = log(x + c) --
    def to_x(self, t):
        return mpmath.exp(t) - self.c

    def to_t(self, x):
        return mpmath.log(mpmath.mpf(x) + self.c)

    def mp_log_dx_dt(self, t):
        return mpmath.mpf(t)

    def t_range(self):
        t_lo, _ = self._consts()
        return (-np.inf if t_lo is None else float(t_lo)), np.inf

    def mp_t_lo(self):
        return self._consts()[0]

    def t_center_scale(self):
        return self.mu, self.s

    def coordinate_key(self):
        return ("log-shift", float(self.c))

class LogShiftOrigin:
    """The exact construction of a log-shift law made by a count mechanism:
    ``mu = log(k + c) + drift``, scale ``s``, shift ``c``, where ``drift`` and ``s`` are functions
    of the mechanism's exact inputs (its r0, c as given: a float by its binary value).

    The stored ``mu``, ``s`` of the law are these rounded to the working precision; an engine
    that works in balls recomputes them at any precision with :meth:`mu`, :meth:`scale`,
    :meth:`shift`, and computes the location difference of two laws of one ``family`` without
    cancellation, ``mu_q - mu_p = log1p((k_q - k_p)/(k_p + c))`` (:meth:`location_gap`).
    ``scale_ball()`` / ``drift_ball()`` return balls at the current ``flint.ctx.prec``."""

    def __init__(self, family: tuple, k: int, c, scale_ball, drift_ball):
        self.family, self.k, self.c = family, int(k), c
        self._scale_ball, self._drift_ball = scale_ball, drift_ball

    def scale(self):
        return self._scale_ball()

    def shift(self):
        from ..numerics.contexts import to_arb

        return to_arb(self.c)

    def mu(self):
        return (self.k + self.shift()).log() + self._drift_ball()

    def location_gap(self, other: "LogShiftOrigin"):
        """mu_other - mu_self as a ball (same family: the drifts cancel exactly)."""
        if other.family != self.family:
            return other.mu() - self.mu()
        return ((other.k - self.k) / (self.k + self.shift())).log1p()

    def __repr__(self) -> str:
        return f"LogShiftOrigin({self.family!r}, k={self.k})"


class LogShiftedGaussianDensity(LogShiftDensity):
    """eq (10): W ~ N(mu, s^2), i.e. ``f(u) = phi((log(u + c) - mu)/s) / (s (u + c))``.  The score
    of the standard normal is z itself, with E exp(u Z) = exp(u^2/2): sub-Gaussian with S = 1."""

    noise_score_subgaussian = 1

    def __init__(self, mu, s, c, lo=None, origin: LogShiftOrigin | None = None):
        super().__init__(mu, s, c, lo, scale_name="sigma", origin=origin)

    def mp_noise_logpdf(self, z):
        return -z * z / 2 - normal.half_log_2pi()

    def noise_logpdf(self, z):
        return normal.log_phi(z)

    def mp_noise_sf(self, z):
        return normal.mp_Phi_sf(z)

    def mp_noise_cdf(self, z):
        return normal.mp_Phi(z)

class LogShiftedGaussian(ContinuousLaw):
    """The law of ``exp(W) - c`` with ``W ~ N(mu, s^2)``; the unclipped output U_n (eqs 4, 10).
    ``origin``: the mechanism's exact construction of (mu, s, c), kept by the density
    (:class:`LogShiftOrigin`; None when the stored parameters are the law)."""

    def __init__(self, mu, s, c, origin: LogShiftOrigin | None = None):
        mu, s, c = validate.real("mu", mu), validate.real("s", s, lo=0), validate.real("c", c, lo=0)
        self.mu, self.s, self.c = mpmath.mpf(mu), mpmath.mpf(s), mpmath.mpf(c)
        super().__init__(LogShiftedGaussianDensity(mu, s, c, origin=origin), name="exp(N(mu, s^2)) - c")

    def cdf(self, x):
        x = np.asarray(x, dtype=float)
        y = np.where(x > -float(self.c), x + float(self.c), 1.0)
        v = normal.Phi((np.log(y) - float(self.mu)) / float(self.s))
        return np.where(x > -float(self.c), v, 0.0)

    def mp_cdf(self, x):
        x = mpmath.mpf(x)
        if x <= -self.c:
            return mpmath.mpf(0)
        return normal.mp_Phi((mpmath.log(x + self.c) - self.mu) / self.s)

    def sample(self, rng, size):
        return np.exp(float(self.mu) + float(self.s) * rng.standard_normal(size)) - float(self.c)

class ClippedAtZero(MixedLaw):
    """``[U]_+`` for a continuous law U whose density is a :class:`LogShiftDensity` (any noise):
    atom ``P(U <= 0)`` at 0 plus U's density on ``(0, inf)`` (eq 4)."""

    def __init__(self, base: ContinuousLaw, name: str = "[exp(N(mu, s^2)) - c]_+"):
        check_law("base", base)
        if not isinstance(base.density, LogShiftDensity):
            raise ValueError("base must be a law of exp(mu + s X) - c (a LogShiftDensity)")
        self.base = base
        d = base.density
        super().__init__({0: d.mp_mass_at_or_below_zero()}, d.restricted_to_positive(),
                         sampler=lambda rng, size: np.maximum(base.sample(rng, size), 0.0), name=name)

    @property
    def atom_mass(self):
        return self._atoms.get(mpmath.mpf(0), mpmath.mpf(0))
