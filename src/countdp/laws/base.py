"""Output laws as objects: continuous, integer, mixed (atoms + density), point masses.

Every law answers the same questions the divergence engine and the checks ask:

* ``atoms()``         -> ``{x: mass}`` of its point masses (mpmath numbers), possibly empty;
* ``density``         -> a :class:`Density` for its absolutely continuous part, or ``None``;
* ``integer``         -> ``True`` for laws on the integers given by a pmf (:class:`IntegerLaw`);
* ``sample(rng, size)`` with ``rng`` a ``numpy.random.Generator``, an integer seed or None, and
  ``size`` an integer or a tuple (every subclass's ``sample`` is checked the same way, see
  :meth:`Law.__init_subclass__`).

A :class:`Density` may be a sub-probability density (the part of a mixed law off its atoms).
It carries an *integration coordinate* ``x = to_x(t)`` in which it is smooth and unimodal-ish,
so quadrature can be done in ``t`` (``integral f(x) dx = integral f(to_x(t)) x'(t) dt``); the
identity map is the default.  The released mechanism is mixed (clipping puts an atom at 0) and
becomes an integer law after stochastic rounding, so both are first-class here.

Number systems.  A law's or a mechanism's quantity has one name, and the number system is a
mark on it: ``logpdf`` / ``sigma`` in float64 (numpy arrays where it makes sense), ``mp_logpdf`` /
``mp_sigma()`` in mpmath at the ambient precision, ``sigma_ball()`` / ``drift_ball()`` in Arb at
the ambient ``flint.ctx.prec``.  A closed form is written once against a context
(:mod:`countdp.numerics.contexts`); the methods of laws and mechanisms are these marked views of
it, so that the engines, which work in one number system each, ask for the one they need.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import mpmath
import numpy as np

from ..numerics import validate
from ..numerics.messages import quoted


class Density:
    """A (sub-)probability density on an interval, known in float64 and in mpmath.

    Subclasses implement ``mp_logpdf`` (and ``logpdf`` for numpy).  The interval is
    ``(lo, hi)`` in x; the quadrature coordinate ``t`` runs over ``(t_lo, t_hi)``.
    """

    lo: float = -np.inf
    hi: float = np.inf
    #: x-values where the density has a kink or a jump: quadrature splits there.  Every one must
    #: be declared -- across an undeclared jump mpmath's error estimate does not hold (a density
    #: vanishing on (-1, 1), undeclared, gives a KL 5e-2 off with a bar of 8e-5).  The density
    #: must also stay bounded at a finite end of its support: at an integrable singularity
    #: (x^-1/2 at 0) neither quadrature's estimate holds (D_1.5 six bars off, measured)
    breakpoints: tuple = ()

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

class CallableDensity(Density):
    """A density given by an mpmath log-density callable (for laws built in checks), with the
    points where it has a kink or a jump (``breakpoints``, see :class:`Density`)."""

    def __init__(self, mp_logpdf: Callable, lo=-np.inf, hi=np.inf, center=0.0, scale=1.0,
                 mass=None, np_logpdf: Callable | None = None, breakpoints=()):
        self.breakpoints = tuple(float(validate.real("breakpoints", b)) for b in breakpoints)
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

def _checked_sample(f: Callable) -> Callable:
    """``sample(rng, size)`` with its two arguments validated (rng: Generator, seed or None)."""
    @functools.wraps(f)
    def sample(self, rng, size):
        return f(self, validate.rng(rng), validate.size(size))

    sample.validated = True
    return sample


def _optional_callable(name: str, f):
    return None if f is None else validate.function(name, f)


def _optional_name(name):
    if name is not None and not isinstance(name, str):
        raise validate.ParameterTypeError(f"name must be a string or None, got {type(name).__name__}")
    return name


class Law:
    """Base class: a probability law on the real line."""

    integer = False
    density: Density | None = None

    def __init_subclass__(cls, **kwargs):
        # every law's sampler gets the same argument checks, whoever writes it
        super().__init_subclass__(**kwargs)
        f = cls.__dict__.get("sample")
        if f is not None and not getattr(f, "validated", False):
            cls.sample = _checked_sample(f)

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
        if not isinstance(density, Density):
            raise validate.ParameterTypeError(f"density must be a countdp.laws.Density, got "
                                              f"{type(density).__name__}")
        self.density = density
        self._sampler = _optional_callable("sampler", sampler)
        self._cdf = _optional_callable("cdf", cdf)
        self.name = _optional_name(name)

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

class MixedLaw(Law):
    """Point masses plus a sub-probability density; masses and density mass add to one."""

    def __init__(self, atoms: dict, density: Density | None, sampler: Callable | None = None,
                 name: str | None = None):
        if not isinstance(atoms, Mapping):
            raise validate.ParameterTypeError(f"atoms must be a dict {{x: mass}}, got {type(atoms).__name__}")
        if density is not None and not isinstance(density, Density):
            raise validate.ParameterTypeError(f"density must be a countdp.laws.Density or None, got "
                                              f"{type(density).__name__}")
        self._atoms = {mpmath.mpf(validate.real("atoms (a location)", k)):
                       mpmath.mpf(validate.real("atoms (a mass)", v, lo=0, hi=1, lo_open=False, hi_open=False))
                       for k, v in atoms.items() if v != 0}
        self.density = density
        self._sampler = _optional_callable("sampler", sampler)
        self.name = _optional_name(name)

    def atoms(self):
        return dict(self._atoms)

    def sample(self, rng, size):
        if self._sampler is None:
            raise NotImplementedError("no sampler given for this law")
        return self._sampler(rng, size)

    def describe(self):
        return self.name or "mixed law"

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
        if not isinstance(table, Mapping) or not table:
            raise validate.ParameterTypeError(f"table must be a non-empty dict {{k: p_k}} (the pmf), got "
                                              f"{type(table).__name__}")
        items = {validate.count("table key (an outcome k)", k, lo=-validate.INT64_MAX): _exact(v)
                 for k, v in table.items()}
        if any(v < 0 for v in items.values()):
            raise ValueError("table values (the pmf) must be >= 0")
        total = sum(items.values())
        if total == 0 or abs(total - 1) > Fraction(1, 10**9):
            raise ValueError(f"table values (the pmf) must sum to 1, got {float(total)!r}")
        name = _optional_name(name)
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
        try:
            return Fraction(v)
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"table values (the pmf) must be numbers or decimal strings, got {quoted(v)}") from None
    if isinstance(v, (float, np.floating)):
        if not np.isfinite(v):
            raise ValueError(f"table values (the pmf) must be finite, got {v!r}")
        return Fraction(repr(float(v)))
    if isinstance(v, mpmath.mpf):
        if not mpmath.isfinite(v):
            raise ValueError(f"table values (the pmf) must be finite, got {v!r}")
        man, exp = mpmath.mpf(v).man_exp
        return Fraction(int(man)) * (Fraction(2) ** int(exp))
    raise validate.ParameterTypeError(f"table values (the pmf) must be real numbers, got {quoted(v)}")


def check_law(name: str, x) -> "Law":
    """``x`` after checking it is a :class:`Law` (ParameterTypeError naming ``name`` otherwise)."""
    return validate.instance(name, x, Law, "a countdp.laws.Law")
