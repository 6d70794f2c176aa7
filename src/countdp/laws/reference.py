"""Reference laws on the real line: the Laplace law, and the laws the many-count argument
compares (Lemma 6.3: additive noises and the maximum-entropy law at a given E|W|; Corollary 6.7:
priors on a bounded interval).

Each is a :class:`countdp.laws.ContinuousLaw` with an mpmath and a numpy log-density (for the
quadrature and Monte Carlo routes), a centre and scale for placing quadrature nodes and, where
numpy has one, a sampler.  Parameters are validated here (ValueError naming the parameter).

* :class:`Laplace` ``(mu, b)``: density exp(-|x - mu|/b)/(2b); entropy 1 + log(2b) = log(2e E|W - mu|).
* :class:`Uniform` ``(lo, hi)``; :class:`Logistic` ``(mu, s)``; :class:`Triangular` ``(mu, w)``
  on [mu - w, mu + w]; :class:`RaisedCosine` ``(w)`` on [-w, w];
  :class:`TruncatedLaplace` ``(L, b)`` and :class:`TruncatedGaussian` ``(a, b)`` (N(0,1)
  conditioned on [a, b]).
"""

from __future__ import annotations

import math
from typing import Callable

import mpmath
import numpy as np

from .. import formulas
from ..numerics import normal, validate
from .base import CallableDensity, ContinuousLaw, Density

__all__ = ["LaplaceDensity", "Laplace", "standard_laplace_cdf", "standard_laplace_sf", "Uniform",
           "Logistic", "Triangular", "RaisedCosine", "TruncatedLaplace", "TruncatedGaussian"]


# ---------------------------------------------------------------------------------------------
# The Laplace law
# ---------------------------------------------------------------------------------------------


def standard_laplace_sf(z):
    """P(L > z) for L standard Laplace (density e^{-|l|}/2), each side without cancellation."""
    z = mpmath.mpf(z)
    return mpmath.exp(-z) / 2 if z >= 0 else 1 - mpmath.exp(z) / 2


def standard_laplace_cdf(z):
    """P(L <= z) for L standard Laplace, each side without cancellation."""
    z = mpmath.mpf(z)
    return mpmath.exp(z) / 2 if z < 0 else 1 - mpmath.exp(-z) / 2


class LaplaceDensity(Density):
    """Lap(mu, b): ``exp(-|x - mu|/b) / (2b)``; a kink at mu (``breakpoints``)."""

    def __init__(self, mu, b):
        self.mu = mpmath.mpf(validate.real("mu", mu))
        self.b = mpmath.mpf(validate.real("b", b, lo=0))
        self._mu, self._b = float(self.mu), float(self.b)
        self.breakpoints = (self._mu,)
        self._cache = {}

    def mp_logpdf(self, x):
        prec = mpmath.mp.prec
        c = self._cache.get(prec)
        if c is None:
            c = self._cache[prec] = (mpmath.log(2 * self.b), 1 / self.b)
        return -abs(mpmath.mpf(x) - self.mu) * c[1] - c[0]

    def logpdf(self, x):
        x = np.asarray(x, dtype=float)
        return -np.abs(x - self._mu) / self._b - math.log(2 * self._b)

    def t_center_scale(self):
        return self.mu, self.b


class Laplace(ContinuousLaw):
    """The Laplace law Lap(mu, b), with its sampler and cdf (float64 and mpmath)."""

    def __init__(self, mu, b):
        d = LaplaceDensity(mu, b)
        self.mu, self.b = d.mu, d.b
        super().__init__(d, name=f"Laplace({mpmath.nstr(d.mu, 6)}, {mpmath.nstr(d.b, 6)})")

    def sample(self, rng, size):
        return rng.laplace(float(self.mu), float(self.b), size)

    def cdf(self, x):
        z = (np.asarray(x, dtype=float) - float(self.mu)) / float(self.b)
        return np.where(z < 0, 0.5 * np.exp(np.minimum(z, 0)), 1 - 0.5 * np.exp(-np.maximum(z, 0)))

    def mp_cdf(self, x):
        return standard_laplace_cdf((mpmath.mpf(x) - self.mu) / self.b)


# ---------------------------------------------------------------------------------------------
# Laws given by a log-density
# ---------------------------------------------------------------------------------------------


def _per_precision(fn: Callable) -> Callable:
    """fn() evaluated once per mpmath working precision (a law's constants stay exact when a law
    built at one precision is used at another)."""
    cache: dict = {}

    def get():
        key = mpmath.mp.prec
        if key not in cache:
            cache[key] = fn()
        return cache[key]

    return get


class _LogDensityLaw(ContinuousLaw):
    """A continuous law given by an mpmath and a numpy log-density on (lo, hi)."""

    def __init__(self, mp_logpdf: Callable, np_logpdf: Callable, lo, hi, center, scale,
                 sampler: Callable | None, name: str, breakpoints=()):
        d = CallableDensity(mp_logpdf, lo=lo, hi=hi, center=center, scale=scale, np_logpdf=np_logpdf,
                            breakpoints=breakpoints)
        super().__init__(d, sampler=sampler, name=name)


class Uniform(_LogDensityLaw):
    """Uniform on (lo, hi)."""

    def __init__(self, lo, hi):
        lo = float(validate.real("lo", lo))
        hi = float(validate.real("hi", hi))
        if not lo < hi:
            raise ValueError(f"lo must be < hi, got ({lo}, {hi})")
        lw = -math.log(hi - lo)
        lwm = _per_precision(lambda: -mpmath.log(mpmath.mpf(hi) - mpmath.mpf(lo)))
        super().__init__(lambda x: lwm(), lambda x: np.full(np.shape(x), lw), lo, hi, (lo + hi) / 2,
                         (hi - lo) / 4, lambda g, s: g.uniform(lo, hi, s), f"Uniform({lo}, {hi})")


class Logistic(_LogDensityLaw):
    """Logistic(mu, s): density e^{-z}/(s (1 + e^{-z})^2), z = (x - mu)/s."""

    def __init__(self, mu, s):
        mu = float(validate.real("mu", mu))
        s = float(validate.real("s", s, lo=0))
        mm, sm = mpmath.mpf(mu), mpmath.mpf(s)

        def mp_lp(x):
            z = abs(x - mm) / sm
            return -z - 2 * mpmath.log1p(mpmath.exp(-z)) - mpmath.log(sm)

        def np_lp(x):
            z = np.abs(np.asarray(x, dtype=float) - mu) / s
            return -z - 2 * np.log1p(np.exp(-z)) - math.log(s)

        super().__init__(mp_lp, np_lp, -np.inf, np.inf, mu, s, lambda g, n: g.logistic(mu, s, n),
                         f"Logistic({mu}, {s})")


class Triangular(_LogDensityLaw):
    """Triangular law on [lo, hi] = [mu - w, mu + w] with mode mu (a kink: ``breakpoints``), the
    ends rounded to float64 as the sampler's are: density 2 (x - lo) / ((hi - lo)(mu - lo)) left of
    mu and 2 (hi - x) / ((hi - lo)(hi - mu)) right of it, which has mass 1 exactly for the rounded
    ends (the symmetric (w - |x - mu|) / w^2 has mass 1 - 4e-14 for mu = 5, w = 0.01, where
    5 -+ 0.01 round asymmetrically).  The distance to the end is taken directly, so the
    log-density keeps its digits next to an end (w - |x - mu| loses them all within an ulp of mu
    of the end)."""

    def __init__(self, mu, w):
        mu = float(validate.real("mu", mu))
        w = float(validate.real("w", w, lo=0))
        lo, hi = mu - w, mu + w
        if not lo < mu < hi:
            raise ValueError(f"w must exceed the rounding of mu = {mu} (w > {abs(mu) * 2 ** -52:.3g}), got {w}")
        lom, him, mum = mpmath.mpf(lo), mpmath.mpf(hi), mpmath.mpf(mu)
        # log of the two halves' normalisers (hi - lo)(mu - lo) / 2 and (hi - lo)(hi - mu) / 2
        left_m = _per_precision(lambda: mpmath.log((him - lom) * (mum - lom) / 2))
        right_m = _per_precision(lambda: mpmath.log((him - lom) * (him - mum) / 2))
        left_f = math.log((hi - lo) * (mu - lo) / 2)
        right_f = math.log((hi - lo) * (hi - mu) / 2)

        def np_lp(x):
            x = np.asarray(x, dtype=float)
            with np.errstate(divide="ignore", invalid="ignore"):
                d = np.where(x <= mu, x - lo, hi - x)
                norm = np.where(x <= mu, left_f, right_f)
                return np.where(d > 0, np.log(np.where(d > 0, d, 1.0)) - norm, -np.inf)

        def mp_lp(x):
            d, norm = (x - lom, left_m) if x <= mum else (him - x, right_m)
            return mpmath.log(d) - norm() if d > 0 else mpmath.ninf

        super().__init__(mp_lp, np_lp, lo, hi, mu, w / 4, lambda g, n: g.triangular(lo, mu, hi, n),
                         f"Triangular({mu}, {w})", breakpoints=(mu,))


class RaisedCosine(_LogDensityLaw):
    """Raised cosine on [-w, w]: density (1 + cos(pi x / w)) / (2w) = sin^2(pi d / (2w)) / w with
    d = w - |x| the distance to the nearer end, the form used (1 + cos loses every digit next to
    an end, where cos is -1 to within its rounding)."""

    def __init__(self, w):
        w = float(validate.real("w", w, lo=0))
        wm = mpmath.mpf(w)

        def np_lp(x):
            d = w - np.abs(np.asarray(x, dtype=float))
            with np.errstate(divide="ignore", invalid="ignore"):
                s = np.sin(np.pi * np.where(d > 0, d, 0.0) / (2 * w))
                return np.where(d > 0, 2 * np.log(s), -np.inf) - math.log(w)

        def mp_lp(x):
            d = wm - abs(x)
            return 2 * mpmath.log(mpmath.sin(mpmath.pi * d / (2 * wm))) - mpmath.log(wm) if d > 0 else mpmath.ninf

        super().__init__(mp_lp, np_lp, -w, w, 0.0, w / 4, None, f"RaisedCosine({w})")


class TruncatedLaplace(_LogDensityLaw):
    """Laplace(0, b) conditioned on [-L, L]: density e^{-|x|/b} / (2b (1 - e^{-L/b})), a kink at 0
    (``breakpoints``)."""

    def __init__(self, L, b):
        L = float(validate.real("L", L, lo=0))
        b = float(validate.real("b", b, lo=0))
        Lm, bm = mpmath.mpf(L), mpmath.mpf(b)
        lz = _per_precision(lambda: mpmath.log(2 * bm * (-mpmath.expm1(-Lm / bm))))
        lzf = math.log(2 * b * (-math.expm1(-L / b)))
        super().__init__(lambda x: -abs(x) / bm - lz(),
                         lambda x: -np.abs(np.asarray(x, dtype=float)) / b - lzf,
                         -L, L, 0.0, min(b, L / 4), None, f"TruncatedLaplace({L}, {b})", breakpoints=(0.0,))


class TruncatedGaussian(_LogDensityLaw):
    """N(0,1) conditioned on [a, b] (normalised by the closed form Phi(b) - Phi(a))."""

    def __init__(self, a, b):
        a = float(validate.real("a", a))
        b = float(validate.real("b", b))
        if not a < b:
            raise ValueError(f"a must be < b, got [{a}, {b}]")
        lz = _per_precision(lambda: mpmath.log(formulas.truncated_normal_mass(a, b)))
        with mpmath.workdps(30):
            lzf = float(lz())
        center = min(max(0.0, a), b)
        super().__init__(lambda x: normal.mp_log_phi(x) - lz(), lambda x: normal.log_phi(x) - lzf,
                         a, b, center, min(1.0, (b - a) / 4), None, f"TruncatedGaussian({a}, {b})")
