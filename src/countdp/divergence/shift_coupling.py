"""The shift coupling of the C* lower bound (experiments/cstar/lower-bound.md), computed for the
count mechanisms ``U_n = (n + c) exp(s X + t) - c`` (the unclipped release; clipping and rounding
only post-process it).

Draw n from a prior pi on {N, N+1, ...}, U_n from the mechanism and an independent integer U from
a discrete Laplace law K_q; the error e = n - U_n + U has a law G (a density: a mixture over n of
the densities h_n of n - U_n, convolved with K_q).  Moving the count up by one and keeping the
release moves e up by one, so data processing and the chain rule give

    KL(G(. - 1) || G) <= KL(pi(. - 1) || pi) + sum_n pi(n) KL(P_n || P_{n+1})
                      <= KL(pi(. - 1) || pi) + v(N + 1).

Here: the law of e on a fibre grid (x = k + theta_i, all integer k where G matters), on which the unit shift is an index shift, convolution with K_q runs along k and
KL(G(. - 1)||G) = int_0^1 sum_k phi(G(k-1+theta), G(k+theta)) dtheta (Gauss-Legendre in theta:
the kinks of these laws sit at integer x; :class:`FibreGrid`); independently, the line integral by Gauss-Legendre panels
with G evaluated at x and x - 1 (:func:`line_shift_kl`); the edge divergences KL(P_n || P_{n+1})
by quadrature of the standard noise density (:func:`location_kl`); the stochastically rounded
log-Gaussian release (integer errors, fibre theta = 0) in closed form (:func:`rounded_error_pmf`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np
from scipy import special

from .. import formulas
from ..laws.count_prior import CountPrior
from ..numerics import validate

__all__ = ["LogNoise", "TabulatedLogDensity", "log_noise", "error_density", "FibreGrid", "error_fibres", "line_shift_kl",
           "location_kl", "discrete_laplace", "rounded_error_pmf", "DENSITY_FLOOR"]

DENSITY_FLOOR = 1e-22   # the noise range: where the standard density is above this times its peak
_GL = np.polynomial.legendre.leggauss(20)


@dataclass(frozen=True)
class LogNoise:
    """U = (n + c) exp(s X + t) - c with X of standard log-density ``logpdf`` (float64, numpy;
    a :class:`TabulatedLogDensity` of the mechanism's own density), ``exact`` that density
    itself, and the range [lo, hi] of X outside which it is negligible (DENSITY_FLOOR)."""

    logpdf: Callable
    exact: Callable
    s: float
    t: float
    c: float
    lo: float
    hi: float
    kinks: tuple = ()


def _noise_range(logpdf) -> tuple[float, float]:
    z = np.linspace(-200, 200, 40001)
    lp = logpdf(z)
    keep = np.nonzero(lp > np.max(lp) + math.log(DENSITY_FLOOR))[0]
    return float(z[keep[0]] - 0.01), float(z[keep[-1]] + 0.01)


class TabulatedLogDensity:
    """A log-density on [lo, hi] by cubic Hermite interpolation on a uniform grid of spacing h
    with a node at 0, each half-line on its own (a kink at 0, as the Laplace and Airy laws have,
    is not interpolated across); node derivatives by fourth-order finite differences (one-sided
    at 0 and at the ends).  Error O(h^4) (~1e-13 at h = 1e-3 for the noises here, tested); outside
    [lo, hi], -inf."""

    def __init__(self, logpdf: Callable, lo: float, hi: float, h: float = 1e-3):
        self.h = h
        zl = -h * np.arange(int(math.ceil(-lo / h)) + 1)
        zr = h * np.arange(int(math.ceil(hi / h)) + 1)
        self.tables = [self._table(logpdf, zl, -1), self._table(logpdf, zr, +1)]

    @staticmethod
    def _table(logpdf, z, direction):
        f = logpdf(z)
        d = np.empty_like(f)
        h = abs(z[1] - z[0])
        d[2:-2] = (f[:-4] - 8 * f[1:-3] + 8 * f[3:-1] - f[4:]) / (12 * h)
        for i in (0, 1):                             # one-sided, forward from the node at 0
            d[i] = (-25 * f[i] + 48 * f[i + 1] - 36 * f[i + 2] + 16 * f[i + 3] - 3 * f[i + 4]) / (12 * h)
        for i in (-1, -2):
            j = len(f) + i
            d[i] = (25 * f[j] - 48 * f[j - 1] + 36 * f[j - 2] - 16 * f[j - 3] + 3 * f[j - 4]) / (12 * h)
        return f, d * 1.0                            # derivative along |z| on this side

    def __call__(self, z):
        z = np.asarray(z, dtype=float)
        out = np.full(z.shape, -np.inf)
        for side, (f, d) in enumerate(self.tables):
            sel = (z <= 0) if side == 0 else (z > 0)
            a = np.abs(z[sel]) / self.h
            i = np.minimum(a.astype(np.int64), len(f) - 2)
            t = a - i
            ok = a <= len(f) - 1
            i, t = np.where(ok, i, 0), np.where(ok, t, 0.0)
            t2, t3 = t * t, t * t * t
            val = ((2 * t3 - 3 * t2 + 1) * f[i] + (t3 - 2 * t2 + t) * self.h * d[i]
                   + (-2 * t3 + 3 * t2) * f[i + 1] + (t3 - t2) * self.h * d[i + 1])
            out[sel] = np.where(ok, val, -np.inf)
        return out


def log_noise(mech, N: int) -> LogNoise:
    """The noise of a log-mechanism (``unclipped_law(n)`` of location log(n + c) + t, scale s)."""
    d = mech.unclipped_law(validate.count("N", N, lo=1)).density
    c = float(d.c)
    lo, hi = _noise_range(d.noise_logpdf)
    pad = 2.0                                     # room for the edge shifts Delta_n <= 1/(s N) of location_kl
    return LogNoise(TabulatedLogDensity(d.noise_logpdf, lo - pad, hi + pad), d.noise_logpdf, float(d.s),
                    float(d.mu) - math.log(N + c), c, lo, hi, tuple(getattr(d, "noise_kinks", ())))


def error_density(noise: LogNoise, ns, ps, e, exact: bool = False) -> np.ndarray:
    """G(e) = sum_n pi(n) h_n(e), h_n the density of n - U_n (zero for e >= n + c); the noise's
    tabulated log-density, or with ``exact`` its own."""
    logpdf = noise.exact if exact else noise.logpdf
    e = np.asarray(e, dtype=float)
    out = np.zeros(e.shape)
    flat = e.reshape(-1)
    acc = out.reshape(-1)
    step = max(1, 4_000_000 // max(flat.size, 1))
    for i in range(0, len(ns), step):
        n = np.asarray(ns[i:i + step], dtype=float)[None, :] + noise.c
        y = n - flat[:, None]                          # (n + c) exp(s X + t) = n + c - e
        ok = y > 0
        ys = np.where(ok, y, 1.0)
        z = (np.log(ys / n) - noise.t) / noise.s
        dens = np.where(ok, np.exp(logpdf(z)) / (noise.s * ys), 0.0)
        acc += dens @ np.asarray(ps[i:i + step], dtype=float)
    return out


def discrete_laplace(q: float, tail: float = 1e-18) -> tuple[np.ndarray, np.ndarray]:
    """(j, K_q(j)) for |j| <= J, K_q(j) = (1-q)/(1+q) q^|j|, J where q^J < ``tail``."""
    q = validate.real("q", q, lo=0, hi=1)
    J = int(math.ceil(math.log(tail) / math.log(q)))
    j = np.arange(-J, J + 1)
    return j, (1 - q) / (1 + q) * q ** np.abs(j)


@dataclass(frozen=True)
class FibreGrid:
    """G on x = k + theta_i: ``G[i, k - k0]``, with quadrature weights ``weights`` on the theta_i
    (Gauss-Legendre on [0, 1]: the kinks of these error laws sit at integers, i.e. at the ends)."""

    k0: int
    theta: np.ndarray
    weights: np.ndarray
    G: np.ndarray

    @property
    def x(self) -> np.ndarray:
        return self.k0 + np.arange(self.G.shape[1])[None, :] + self.theta[:, None]

    def fibre_masses(self) -> np.ndarray:
        """nu(theta_i) = sum_k G(k + theta_i) (the density of frac(e))."""
        return self.G.sum(axis=1)

    def fibre_means(self) -> np.ndarray:
        """M_theta = sum_k |k + theta| G / nu(theta)."""
        return np.sum(np.abs(self.x) * self.G, axis=1) / self.fibre_masses()

    def fibre_kls(self) -> np.ndarray:
        """KL(G_theta(. - 1) || G_theta) of each normalised fibre (a summand with a = 0 is b)."""
        return _fibre_sums(self.G, formulas.one_sided_summand) / self.fibre_masses()

    def fibre_js(self) -> np.ndarray:
        """J(G_theta) = KL(G_theta(. - 1) || G_theta) + KL(G_theta || G_theta(. - 1)) of each
        normalised fibre (finite: the fibre grid is closed under the shift, both ends negligible)."""
        return _fibre_sums(self.G, formulas.symmetric_summand) / self.fibre_masses()

    def mass(self) -> float:
        return float(np.sum(self.weights * self.fibre_masses()))

    def mean_abs(self) -> float:
        return float(np.sum(self.weights * np.sum(np.abs(self.x) * self.G, axis=1)))

    def shift_kl(self) -> float:
        """int_0^1 nu(theta) KL(G_theta(.-1) || G_theta) dtheta."""
        return float(np.sum(self.weights * self.fibre_kls() * self.fibre_masses()))

    def shift_j(self) -> float:
        """int_0^1 nu(theta) J(G_theta) dtheta."""
        return float(np.sum(self.weights * self.fibre_js() * self.fibre_masses()))

    def smoothed(self, q: float) -> "FibreGrid":
        """G * K_q along k on every fibre."""
        j, K = discrete_laplace(q)
        J = int(j[-1])
        G = np.array([np.convolve(row, K) for row in self.G])
        return replace(self, k0=self.k0 - J, G=G)

    def ratio_range(self, floor: float = 1e-250) -> tuple[float, float]:
        """min and max of G(k - 1 + theta)/G(k + theta) over the sites where both exceed ``floor``."""
        a, b = self.G[:, :-1], self.G[:, 1:]
        ok = (a > floor) & (b > floor)
        r = a[ok] / b[ok]
        return float(r.min()), float(r.max())


def _fibre_sums(G: np.ndarray, summand) -> np.ndarray:
    """sum_k summand(G(k - 1 + theta), G(k + theta)) on every fibre.  A site where one of the two
    values is 0 lies beyond the noise range (DENSITY_FLOOR) or the prior's tail: the one-sided term
    at a = 0 is its limit b, the others are dropped (a truncation of the same order as the tails)."""
    a, b = G[:, :-1], G[:, 1:]
    both = (a > 0) & (b > 0)
    terms = np.where(both, summand.fp(np.where(both, a, 1.0), np.where(both, b, 1.0)), 0.0)
    if summand is formulas.one_sided_summand:
        terms = terms + np.where(a > 0, 0.0, b)
    return terms.sum(axis=1)


def error_fibres(noise: LogNoise, prior: CountPrior, m: int = 8, tail: float = 1e-17) -> FibreGrid:
    """G of the unsmoothed error on the fibre grid with m Gauss-Legendre fibres."""
    ns, ps = prior.table(tail)
    nmax = float(ns[-1]) + noise.c
    k_lo = int(math.floor(-nmax * math.expm1(noise.s * noise.hi + noise.t))) - 2
    k_hi = int(math.ceil(-nmax * math.expm1(noise.s * noise.lo + noise.t))) + 2
    k = np.arange(k_lo, k_hi + 1)
    nodes, weights = np.polynomial.legendre.leggauss(m)
    theta, weights = (nodes + 1) / 2, weights / 2
    return FibreGrid(k_lo, theta, weights, error_density(noise, ns, ps, k[None, :] + theta[:, None]))


def line_shift_kl(noise: LogNoise, prior: CountPrior, width: float = 1.0, tail: float = 1e-17,
                  exact: bool = True, symmetric: bool = False) -> float:
    """KL(G(. - 1) || G) (or, with ``symmetric``, J(G) = KL(G(.-1)||G) + KL(G||G(.-1))) as a line
    integral: Gauss-Legendre (20 points) on panels of ``width`` (unit panels put the integer kinks
    at panel edges), G evaluated at x and at x - 1 (with the noise's own density unless ``exact`` is
    False).  The integrand is scipy's ``kl_div`` / ``rel_entr`` (not the library's summands: an
    independent evaluation of the same divergence)."""
    ns, ps = prior.table(tail)
    nmax = float(ns[-1]) + noise.c
    lo = -nmax * math.expm1(noise.s * noise.hi + noise.t) - 2
    hi = -nmax * math.expm1(noise.s * noise.lo + noise.t) + 2
    edges = np.arange(math.floor(lo), math.ceil(hi) + width, width)
    half = np.diff(edges) / 2
    x = ((edges[:-1] + edges[1:]) / 2)[:, None] + half[:, None] * _GL[0][None, :]
    w = half[:, None] * _GL[1][None, :]
    g0, g1 = error_density(noise, ns, ps, x, exact), error_density(noise, ns, ps, x - 1, exact)
    if symmetric:
        both = (g0 > 0) & (g1 > 0)
        terms = np.where(both, special.rel_entr(g1, g0) + special.rel_entr(g0, g1), 0.0)
    else:
        terms = np.where(g0 > 0, special.kl_div(g1, g0), 0.0)
    return float(np.sum(w * terms))


def location_kl(noise: LogNoise, ns) -> np.ndarray:
    """KL(P_n || P_{n+1}) = KL(f || f(. - Delta_n)), Delta_n = log((n+1+c)/(n+c))/s, by
    Gauss-Legendre on panels of the standard noise range (the kinks of f and of f(. - Delta_n)
    as panel edges, so that both integrands are smooth on every panel)."""
    ns = np.asarray(ns, dtype=float)
    delta = np.log1p(1 / (ns + noise.c)) / noise.s
    out = np.empty(len(ns))
    for i, d in enumerate(delta):
        cuts = sorted({noise.lo, noise.hi, *noise.kinks, *[k + float(d) for k in noise.kinks]})
        edges = np.concatenate([np.linspace(a, b, 400)[:-1] for a, b in zip(cuts[:-1], cuts[1:])] + [[cuts[-1]]])
        half = np.diff(edges) / 2
        z = (((edges[:-1] + edges[1:]) / 2)[:, None] + half[:, None] * _GL[0][None, :]).ravel()
        w = (half[:, None] * _GL[1][None, :]).ravel()
        lf = noise.logpdf(z)
        out[i] = np.sum(w * np.exp(lf) * (lf - noise.logpdf(z - d)))
    return out


def rounded_error_pmf(sigma: float, t: float, c: float, ns, ps) -> tuple[np.ndarray, np.ndarray]:
    """(k, P(e = k)) for e = n - Y', n ~ (ns, ps), Y' the stochastic rounding of
    U_n = (n + c) exp(sigma Z + t) - c (Z standard normal): P(Y' = m) = E (1 - |U_n - m|)_+ from
    F(u) = P(U_n <= u) and A(u) = E[U_n; U_n <= u] (closed forms in Phi)."""
    out: dict[int, float] = {}
    for n, p in zip(np.asarray(ns, dtype=int), np.asarray(ps, dtype=float)):
        a = (n + c) * math.exp(t)
        lo = max(int(math.floor(a * math.exp(-12 * sigma) - c)) - 1, -int(math.ceil(c)) - 1)
        hi = int(math.ceil(a * math.exp(12 * sigma) - c)) + 1
        u = np.arange(lo, hi + 2, dtype=float)
        xi = np.where(u > -c, (np.log(np.maximum(u + c, 1e-300)) - math.log(a)) / sigma, -np.inf)
        F = special.ndtr(xi)
        A = a * math.exp(sigma * sigma / 2) * special.ndtr(xi - sigma) - c * F
        m = u[1:-1]
        pm = ((A[1:-1] - A[:-2]) - (m - 1) * (F[1:-1] - F[:-2])
              + (m + 1) * (F[2:] - F[1:-1]) - (A[2:] - A[1:-1]))
        for mm, q in zip(m.astype(int), pm):
            out[n - mm] = out.get(n - mm, 0.0) + p * q
    ks = np.array(sorted(out))
    return ks, np.array([out[k] for k in ks])
