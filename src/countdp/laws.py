"""Output laws as objects: continuous, integer, mixed (atoms + density), point masses.

Every law answers the same questions the divergence engine and the checks ask:

* ``atoms()``         -> ``{x: mass}`` of its point masses (mpmath numbers), possibly empty;
* ``density``         -> a :class:`Density` for its absolutely continuous part, or ``None``;
* ``integer``         -> ``True`` for laws on the integers given by a pmf (:class:`IntegerLaw`);
* ``sample(rng, size)`` with a ``numpy.random.Generator``.

A :class:`Density` may be a sub-probability density (the part of a mixed law off its atoms).
It carries an *integration coordinate* ``x = to_x(t)`` in which it is smooth and unimodal-ish,
so quadrature can be done in ``t`` (``integral f(x) dx = integral f(to_x(t)) x'(t) dt``); the
identity map is the default.  The released mechanism is mixed (clipping puts an atom at 0) and
becomes an integer law after stochastic rounding, so both are first-class here.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import mpmath
import numpy as np

from . import normal
from . import validate

# ============================================================================================
# Densities (the absolutely continuous part of a law)
# ============================================================================================


class Density:
    """A (sub-)probability density on an interval, known in float64 and in mpmath.

    Subclasses implement ``mp_logpdf`` (and ``logpdf`` for numpy).  The interval is
    ``(lo, hi)`` in x; the quadrature coordinate ``t`` runs over ``(t_lo, t_hi)``.
    """

    lo: float = -np.inf
    hi: float = np.inf
    breakpoints: tuple = ()  # x-values where the density has a kink: quadrature splits there

    # -- values --
    def mp_logpdf(self, x):
        raise NotImplementedError

    def logpdf(self, x):
        x = np.asarray(x, dtype=float)
        return np.vectorize(lambda v: float(self.mp_logpdf(v)))(x)

    def pdf(self, x):
        return np.exp(self.logpdf(x))

    def mp_pdf(self, x):
        return mpmath.exp(self.mp_logpdf(x))

    def mass(self):
        """Total mass of this density part (1 for a probability density)."""
        return mpmath.mpf(1)

    # -- integration coordinate --
    def to_x(self, t):
        return t

    def to_t(self, x):
        """Inverse of ``to_x``."""
        return x

    def mp_log_dx_dt(self, t):
        return mpmath.mpf(0)

    def t_range(self):
        return self.lo, self.hi

    def mp_log_integrand_t(self, t):
        """log of pdf(x(t)) * x'(t): the density of t."""
        return self.mp_logpdf(self.to_x(t)) + self.mp_log_dx_dt(t)

    def t_center_scale(self):
        """A location and a scale of the law of t (for placing quadrature breakpoints)."""
        raise NotImplementedError

    def same_coordinate(self, other: "Density") -> bool:
        return type(self).coordinate_key(self) == type(other).coordinate_key(other)

    def coordinate_key(self):
        return ("identity",)


class GaussianDensity(Density):
    """N(mu, s^2) restricted to ``(lo, hi)`` (the restriction keeps its mass < 1)."""

    def __init__(self, mu, s, lo=-np.inf, hi=np.inf):
        self.mu = mpmath.mpf(mu)
        self.s = mpmath.mpf(validate.real("s", s, lo=0))
        self.lo, self.hi = lo, hi

    def mp_logpdf(self, x):
        x = mpmath.mpf(x)
        if not (self.lo < x < self.hi):
            return mpmath.mpf("-inf")
        return normal.mp_log_phi((x - self.mu) / self.s) - mpmath.log(self.s)

    def logpdf(self, x):
        x = np.asarray(x, dtype=float)
        out = normal.log_phi((x - float(self.mu)) / float(self.s)) - np.log(float(self.s))
        return np.where((x > self.lo) & (x < self.hi), out, -np.inf)

    def mass(self):
        a = (mpmath.mpf(self.lo) - self.mu) / self.s if np.isfinite(self.lo) else mpmath.mpf("-inf")
        b = (mpmath.mpf(self.hi) - self.mu) / self.s if np.isfinite(self.hi) else mpmath.mpf("inf")
        return normal.mp_Phi_diff(a, b)

    def t_center_scale(self):
        return self.mu, self.s


class LogShiftDensity(Density):
    """Density of ``U = exp(W) - c`` with ``W = mu + s X`` for a standard noise law X, restricted to
    ``U > lo`` (``lo = -c``: the whole law; ``lo = 0``: the part clipping leaves, eq 4).

    ``f(u) = g((log(u + c) - mu)/s) / (s (u + c))`` with g the density of X.  Quadrature runs in
    ``t = log(u + c)`` (eq 10's coordinate), where U is the location-scale law of W restricted to
    ``t > log(lo + c)``; two such densities with the same c share it, so neighbouring counts are
    exact translates there.  Subclasses give the noise: ``mp_noise_logpdf(z)``,
    ``noise_logpdf(z)`` (numpy) and ``mp_noise_sf(z)``; ``noise_kinks`` lists standardised points
    where g has a kink (quadrature nodes)."""

    noise_kinks: tuple = ()

    def __init__(self, mu, s, c, lo=None, scale_name="s"):
        self.mu = mpmath.mpf(validate.real("mu", mu))
        self.s = mpmath.mpf(validate.real(scale_name, s, lo=0))
        self.c = mpmath.mpf(validate.real("c", c, lo=0))
        self.lo = -float(c) if lo is None else float(lo)
        self.lo_mp = -self.c if lo is None else mpmath.mpf(lo)
        self.hi = np.inf
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
        return type(self)(self.mu, self.s, self.c, lo=0)

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


class LogShiftedGaussianDensity(LogShiftDensity):
    """eq (10): W ~ N(mu, s^2), i.e. ``f(u) = phi((log(u + c) - mu)/s) / (s (u + c))``."""

    def __init__(self, mu, s, c, lo=None):
        super().__init__(mu, s, c, lo, scale_name="sigma")

    def mp_noise_logpdf(self, z):
        return -z * z / 2 - normal._half_log_2pi()

    def noise_logpdf(self, z):
        return normal.log_phi(z)

    def mp_noise_sf(self, z):
        return normal.mp_Phi_sf(z)

    def mp_noise_cdf(self, z):
        return normal.mp_Phi(z)


class CallableDensity(Density):
    """A density given by an mpmath log-density callable (for laws built in checks)."""

    def __init__(self, mp_logpdf: Callable, lo=-np.inf, hi=np.inf, center=0.0, scale=1.0,
                 mass=None, np_logpdf: Callable | None = None):
        self._mp = mp_logpdf
        self._np = np_logpdf
        self.lo, self.hi = lo, hi
        self._center, self._scale = center, scale
        self._mass = mass

    def mp_logpdf(self, x):
        x = mpmath.mpf(x)
        if not (self.lo < x < self.hi):
            return mpmath.mpf("-inf")
        return self._mp(x)

    def logpdf(self, x):
        if self._np is None:
            return super().logpdf(x)
        x = np.asarray(x, dtype=float)
        return np.where((x > self.lo) & (x < self.hi), self._np(x), -np.inf)

    def mass(self):
        return mpmath.mpf(1) if self._mass is None else mpmath.mpf(self._mass)

    def t_center_scale(self):
        return mpmath.mpf(self._center), mpmath.mpf(self._scale)


# ============================================================================================
# Laws
# ============================================================================================


class Law:
    """Base class: a probability law on the real line."""

    integer = False
    density: Density | None = None

    def atoms(self) -> dict:
        return {}

    def sample(self, rng: np.random.Generator, size) -> np.ndarray:
        raise NotImplementedError(f"{type(self).__name__} has no sampler")

    def describe(self) -> str:
        return type(self).__name__


class PointMass(Law):
    """The degenerate law delta_x."""

    def __init__(self, x=0):
        self.x = mpmath.mpf(validate.real("x", x))

    def atoms(self):
        return {self.x: mpmath.mpf(1)}

    def sample(self, rng, size):
        return np.full(size, float(self.x))

    def describe(self):
        return f"delta_{mpmath.nstr(self.x, 6)}"


class ContinuousLaw(Law):
    """A law with a density and no atoms."""

    def __init__(self, density: Density, sampler: Callable | None = None, cdf: Callable | None = None,
                 name: str | None = None):
        self.density = density
        self._sampler = sampler
        self._cdf = cdf
        self.name = name

    def pdf(self, x):
        return self.density.pdf(x)

    def logpdf(self, x):
        return self.density.logpdf(x)

    def cdf(self, x):
        if self._cdf is None:
            raise NotImplementedError("no cdf given for this law")
        return self._cdf(x)

    def sample(self, rng, size):
        if self._sampler is None:
            raise NotImplementedError("no sampler given for this law")
        return self._sampler(rng, size)

    def describe(self):
        return self.name or type(self).__name__


class Gaussian(ContinuousLaw):
    """N(mu, s^2)."""

    def __init__(self, mu, s):
        mu = validate.real("mu", mu)
        s = validate.real("s", s, lo=0)
        self.mu, self.s = mpmath.mpf(mu), mpmath.mpf(s)
        super().__init__(GaussianDensity(mu, s), name=f"N({mpmath.nstr(self.mu, 6)}, {mpmath.nstr(self.s, 6)}^2)")

    def cdf(self, x):
        return normal.Phi((np.asarray(x, dtype=float) - float(self.mu)) / float(self.s))

    def sample(self, rng, size):
        return float(self.mu) + float(self.s) * rng.standard_normal(size)


class LogShiftedGaussian(ContinuousLaw):
    """The law of ``exp(W) - c`` with ``W ~ N(mu, s^2)``; the unclipped output U_n (eqs 4, 10)."""

    def __init__(self, mu, s, c):
        self.mu, self.s, self.c = mpmath.mpf(mu), mpmath.mpf(s), mpmath.mpf(c)
        super().__init__(LogShiftedGaussianDensity(mu, s, c), name="exp(N(mu, s^2)) - c")

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


class MixedLaw(Law):
    """Point masses plus a sub-probability density; masses and density mass add to one."""

    def __init__(self, atoms: dict, density: Density | None, sampler: Callable | None = None,
                 name: str | None = None):
        self._atoms = {mpmath.mpf(k): mpmath.mpf(v) for k, v in atoms.items() if v != 0}
        self.density = density
        self._sampler = sampler
        self.name = name

    def atoms(self):
        return dict(self._atoms)

    def sample(self, rng, size):
        if self._sampler is None:
            raise NotImplementedError("no sampler given for this law")
        return self._sampler(rng, size)

    def describe(self):
        return self.name or "mixed law"


class ClippedAtZero(MixedLaw):
    """``[U]_+`` for a continuous law U whose density is a :class:`LogShiftDensity` (any noise):
    atom ``P(U <= 0)`` at 0 plus U's density on ``(0, inf)`` (eq 4)."""

    def __init__(self, base: ContinuousLaw, name: str = "[exp(N(mu, s^2)) - c]_+"):
        if not isinstance(base.density, LogShiftDensity):
            raise ValueError("base must be a law of exp(mu + s X) - c (a LogShiftDensity)")
        self.base = base
        d = base.density
        super().__init__({0: d.mp_mass_at_or_below_zero()}, d.restricted_to_positive(),
                         sampler=lambda rng, size: np.maximum(base.sample(rng, size), 0.0), name=name)

    @property
    def atom_mass(self):
        return self._atoms.get(mpmath.mpf(0), mpmath.mpf(0))


class IntegerLaw(Law):
    """A law on the integers given by its pmf.

    ``mp_pmf(k)`` at any precision; ``window(tail)`` returns integers ``lo..hi`` outside of which
    the mass is at most ``tail`` (a proven bound supplied by the subclass); ``support_lo`` /
    ``support_hi`` are the true support ends (``None`` for unbounded).
    """

    integer = True
    support_lo: int | None = None
    support_hi: int | None = None

    def mp_pmf(self, k):
        raise NotImplementedError

    def mp_pmf_range(self, lo: int, hi: int) -> list:
        return [self.mp_pmf(k) for k in range(lo, hi + 1)]

    def window(self, tail) -> tuple[int, int]:
        raise NotImplementedError

    def mp_logpmf(self, k):
        p = self.mp_pmf(k)
        return mpmath.log(p) if p > 0 else mpmath.mpf("-inf")


class FinitePmf(IntegerLaw):
    """A finitely supported integer law given by a table ``{k: p_k}``."""

    def __init__(self, table: dict, name: str | None = None):
        items = {int(k): _exact(v) for k, v in table.items()}
        if any(v < 0 for v in items.values()):
            raise ValueError("pmf values must be >= 0")
        total = sum(items.values())
        if total == 0 or abs(total - 1) > Fraction(1, 10**9):
            raise ValueError(f"pmf values must sum to 1, got {float(total)!r}")
        # kept as exact rationals, normalised exactly (0.3 + 0.7 is not 1 in binary), so the pmf
        # sums to one at whatever precision it is later evaluated
        self._exact = {k: v / total for k, v in sorted(items.items()) if v > 0}
        self.support_lo, self.support_hi = min(self._exact), max(self._exact)
        self.name = name

    @property
    def table(self) -> dict:
        return {k: mpmath.mpf(v.numerator) / v.denominator for k, v in self._exact.items()}

    def mp_pmf(self, k):
        v = self._exact.get(int(k))
        return mpmath.mpf(0) if v is None else mpmath.mpf(v.numerator) / v.denominator

    def window(self, tail):
        return self.support_lo, self.support_hi

    def atoms(self):
        return {mpmath.mpf(k): v for k, v in self.table.items()}

    def sample(self, rng, size):
        ks = np.array(list(self.table), dtype=np.int64)
        ps = np.array([float(v) for v in self.table.values()])
        return rng.choice(ks, size=size, p=ps / ps.sum())

    def describe(self):
        return self.name or "finite pmf"


@dataclass(frozen=True)
class Summary:
    """Mean and variance of a law (used for quadrature placement and sanity checks)."""

    mean: float
    sd: float


def _exact(v) -> Fraction:
    """An exact rational for a pmf value: decimal strings and floats by their shortest decimal,
    mpmath numbers by their binary value."""
    if isinstance(v, Fraction):
        return v
    if isinstance(v, (int, np.integer)):
        return Fraction(int(v))
    if isinstance(v, str):
        return Fraction(v)
    if isinstance(v, (float, np.floating)):
        if not np.isfinite(v):
            raise ValueError(f"pmf values must be finite, got {v!r}")
        return Fraction(repr(float(v)))
    if isinstance(v, mpmath.mpf):
        if not mpmath.isfinite(v):
            raise ValueError(f"pmf values must be finite, got {v!r}")
        man, exp = mpmath.mpf(v).man_exp
        return Fraction(int(man)) * (Fraction(2) ** int(exp))
    raise ValueError(f"pmf values must be real numbers, got {v!r}")
