"""Finitely supported priors J for the many-count bound (Theorem 6.4, eq 19) and the choice of
their size or scale.

* :func:`uniform_prior` (Corollary 6.5), :func:`binomial_prior`, the discrete Laplace law
  :func:`discrete_laplace_prior` (the near-extremal law of Lemma 6.3), and the quantized truncated
  Gaussian ``Q_S = round(S Z)`` of Lemma 6.6 (:func:`quantized_truncated_gaussian`) with its
  shifted version ``J = B + Q_S`` of Corollary 6.7 (:func:`quantized_truncated_gaussian_prior`).
* :func:`as_pmf` reads any of the accepted forms of a prior: a dict ``{k: p}``, a
  :class:`Pmf`, a :class:`countdp.laws.FinitePmf`, a pair ``(ks, ps)`` or a bare sequence of
  probabilities on 0, 1, ...
* The best parameters: the odd K maximising eq (23) (:func:`best_uniform_size`), the odd K
  nearest a r n (:func:`uniform_size_near`), and the numerical maximisers over the scale of the
  limits (24) and (30) (:func:`best_uniform_scale`, :func:`best_gaussian_prior_scale`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import mpmath
import numpy as np

from .. import formulas
from ..numerics import contexts, normal, validate
from ..numerics.optimize import Maximum, maximise

__all__ = ["Pmf", "as_pmf", "uniform_prior", "binomial_prior", "discrete_laplace_prior",
           "quantized_truncated_gaussian",
           "QuantizedPrior", "quantized_truncated_gaussian_prior", "UniformSize",
           "best_uniform_size", "uniform_size_near", "best_uniform_scale",
           "best_gaussian_prior_scale"]


@dataclass(frozen=True)
class Pmf:
    """A finitely supported law on the integers: support points ``ks`` and probabilities ``ps``
    (mpf numbers, or a float64 array)."""

    ks: Any
    ps: Any


def as_pmf(prior) -> Pmf:
    """The prior as a :class:`Pmf` with lists ``ks`` (ints) and ``ps`` (kept as given: mpf stay
    mpf).  Accepts a dict, a Pmf, a FinitePmf, a pair (ks, ps) or a 1-D sequence of
    probabilities (support 0, 1, ...)."""
    if hasattr(prior, "table"):
        prior = prior.table
    if isinstance(prior, Pmf):
        prior = (prior.ks, prior.ps)
    if isinstance(prior, dict):
        ks, ps = [int(k) for k in prior], list(prior.values())
    elif isinstance(prior, tuple) and len(prior) == 2 and all(
            np.ndim(x) == 1 or isinstance(x, list) for x in prior):
        ks = [int(k) for k in np.asarray(prior[0]).ravel()]
        ps = list(prior[1])
    else:
        ps = list(prior)
        if any(np.ndim(p) != 0 for p in ps):
            raise ValueError("prior must be a dict, a pair (ks, ps) or a 1-D sequence of probabilities")
        ks = list(range(len(ps)))
    if len(ks) != len(ps) or not ks:
        raise ValueError("prior must be a nonempty pmf (ks and ps of equal length)")
    if not all(0 <= p < math.inf for p in ps):  # NaN fails both comparisons
        raise ValueError("prior must have finite nonnegative probabilities")
    return Pmf(ks, ps)


def uniform_prior(K) -> dict:
    """J uniform on {0, ..., K-1}, as {k: 1/K} in mpmath (Corollary 6.5)."""
    K = validate.count("K", K, lo=1)
    p = mpmath.mpf(1) / K
    return {k: p for k in range(K)}


def binomial_prior(N, p) -> dict:
    """J ~ Binomial(N, p), as {k: C(N,k) p^k (1-p)^(N-k)} in mpmath."""
    N = validate.count("N", N, lo=1)
    p = mpmath.mpf(validate.real("p", p, lo=0, hi=1))
    return {k: mpmath.binomial(N, k) * p ** k * (1 - p) ** (N - k) for k in range(N + 1)}


def discrete_laplace_prior(b, T) -> dict:
    """J on {0, ..., 2T} with P(J = k) proportional to exp(-|k - T|/b): a two-sided geometric law
    centred at T, truncated at distance T (a finitely supported law in its own right), as
    {k: p_k} in mpmath.  For large b its dithered version J + U is close to a Laplace law, the
    maximum-entropy law at a given E|X - T| (Lemma 6.3)."""
    b = mpmath.mpf(validate.real("b", b, lo=0))
    T = validate.count("T", T, lo=0)
    w = {k: mpmath.exp(-abs(k - T) / b) for k in range(2 * T + 1)}
    Z = mpmath.fsum(w.values())
    return {k: v / Z for k, v in w.items()}


# ---------------------------------------------------------------------------------------------
# Lemma 6.6 and Corollary 6.7: the quantized truncated Gaussian
# ---------------------------------------------------------------------------------------------


def quantized_truncated_gaussian(S, a, b, method: str = "float") -> Pmf:
    """The pmf of Q_S = round(S Z), Z = N(0,1) conditioned on [a, b] (Lemma 6.6):
    p_k = P(max(a, (k - 1/2)/S) <= Z < min(b, (k + 1/2)/S)) for round(S a) <= k <= round(S b).

    ``method="mp"``: Phi differences in mpmath (cancellation-free side, current precision),
    ``ps`` a list of mpf.  ``method="float"``: each full cell's Gaussian integral by 20-point
    Gauss-Legendre around its midpoint k/S, phi(k/S) int_{|u|<1/(2S)} exp(-u k/S - u^2/2) du
    (no cancellation: relative error ~ 1e-15 per cell), the partial end cells in mpmath; ``ps``
    a float64 array.  ``ks`` is an int64 array."""
    S = validate.real("S", S, lo=0)
    a = validate.real("a", a)
    b = validate.real("b", b)
    if not a < b:
        raise ValueError(f"a must be < b, got [{a}, {b}]")
    if method not in ("mp", "float"):
        raise ValueError(f"method must be 'mp' or 'float', got {method!r}")
    Sm, am, bm = mpmath.mpf(S), mpmath.mpf(a), mpmath.mpf(b)
    k_lo = int(mpmath.floor(Sm * am + mpmath.mpf(1) / 2))
    k_hi = int(mpmath.ceil(Sm * bm - mpmath.mpf(1) / 2))
    ks = np.arange(k_lo, k_hi + 1, dtype=np.int64)
    if method == "mp":
        Z = formulas.truncated_normal_mass(am, bm)
        return Pmf(ks, [_cell_mass(k, Sm, am, bm) / Z for k in range(k_lo, k_hi + 1)])
    return Pmf(ks, _cell_masses_float(ks, S, a, b))


def _cell_mass(k: int, S, a, b):
    """P(max(a, (k - 1/2)/S) <= N(0,1) < min(b, (k + 1/2)/S)) in mpmath (0 for an empty cell)."""
    lo = max(a, (k - mpmath.mpf(1) / 2) / S)
    hi = min(b, (k + mpmath.mpf(1) / 2) / S)
    return formulas.truncated_normal_mass(lo, hi) if hi > lo else mpmath.mpf(0)


def _cell_masses_float(ks: np.ndarray, S, a, b) -> np.ndarray:
    """The float route of :func:`quantized_truncated_gaussian`."""
    with mpmath.workdps(30):
        Z = float(formulas.truncated_normal_mass(a, b))
    kf = ks.astype(float)
    Sf, af, bf = float(S), float(a), float(b)
    # interior cells have width exactly 1/S and midpoint k/S (no cancellation in their width);
    # the partial cells at the ends are recomputed below
    interior = ((kf - 0.5) / Sf >= af) & ((kf + 0.5) / Sf <= bf)
    w, mid = 1.0 / Sf, kf / Sf
    nodes, weights = np.polynomial.legendre.leggauss(20)
    u = (w / 2) * nodes  # offsets from the midpoint
    integ = np.exp(-mid[:, None] * u[None, :] - u * u / 2) @ weights * (w / 2)
    ps = normal.phi(mid) * integ / Z
    # the (at most two) partial cells at the ends: their widths would cancel in float, so mpmath
    with mpmath.workdps(30):
        Sm, am, bm = mpmath.mpf(S), mpmath.mpf(a), mpmath.mpf(b)
        Zm = formulas.truncated_normal_mass(am, bm)
        for i in np.flatnonzero(~interior):
            ps[i] = float(_cell_mass(int(ks[i]), Sm, am, bm) / Zm)
    return ps


@dataclass(frozen=True)
class QuantizedPrior:
    """Corollary 6.7's prior J = B + Q_S: its pmf and the offset B = ceil(L S) + 1 (also j*)."""

    pmf: Pmf
    offset: int


def quantized_truncated_gaussian_prior(S, L, method: str = "float") -> QuantizedPrior:
    """Corollary 6.7's prior J = B + Q_S with B = ceil(L S) + 1 (so J >= 1) and Z = Z_L on
    [-L, L]; j* = B."""
    validate.real("L", L, lo=0)
    q = quantized_truncated_gaussian(S, -L, L, method)
    B = int(mpmath.ceil(mpmath.mpf(L) * mpmath.mpf(S))) + 1
    return QuantizedPrior(Pmf(q.ks + B, q.ps), B)


# ---------------------------------------------------------------------------------------------
# The best uniform prior (Corollary 6.5) and the best scales of the limits (24) and (30)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UniformSize:
    """The odd size K of the uniform prior and its eq (23) value."""

    K: int
    bound: Any


def best_uniform_size(n, r, K_max=3) -> UniformSize:
    """The odd K >= 3 maximising eq (23) at (n, r): exhaustive float64 search over odd K <= K_max,
    doubling K_max until the proven tail bound (``formulas.uniform_prior_tail`` at K_max + 2) is
    below the best value found; the winner and its odd neighbours are re-evaluated in mpmath.
    ``K_max`` is only where the doubling starts: the K found does not depend on it."""
    n = validate.count("n", n, lo=1)
    r = _read_r(r)
    rf = float(r)
    K_max = validate.count("K_max", K_max, lo=3)
    for _ in range(60):
        Ks = np.arange(3, K_max + 1, 2)
        vals = formulas.uniform_prior_bound.fp(n, Ks, rf)
        i = int(np.argmax(vals))
        tail = float(formulas.uniform_prior_tail.fp(K_max + 2, rf))
        if vals[i] > tail * (1 + 1e-9) or vals[i] == 0 == tail:
            K = int(Ks[i])
            # ties within float rounding: decide among the neighbours in mpmath
            cands = [k for k in (K - 2, K, K + 2) if 3 <= k <= K_max]
            best = max(cands, key=lambda k: formulas.uniform_prior_bound(n, k, r))
            return UniformSize(best, formulas.uniform_prior_bound(n, best, r))
        K_max = 2 * K_max + 1
    raise ValueError("best_uniform_size: the search did not terminate (r too close to 0?)")


def _read_r(r):
    """r in (0, 1): a string ("1/10", "0.1") is read as an exact Fraction, other numbers kept."""
    if isinstance(r, str):
        try:
            r = Fraction(r)
        except ValueError:
            raise ValueError(f"r must be a real number in (0, 1), got {r!r}") from None
    validate.real("r", float(r), lo=0, hi=1)
    return r


def uniform_size_near(a, r, n) -> int:
    """The odd integer K >= 3 nearest to a r n (the sequence K_n with K_n/(rn) -> a of eq 24)."""
    a = validate.real("a", a, lo=0)
    n = validate.count("n", n, lo=1)
    x = float(mpmath.mpf(a) * contexts.mp.convert(_read_r(r)) * n)
    K = 2 * int(math.floor((x - 1) / 2 + 0.5)) + 1
    return max(K, 3)


def best_uniform_scale(r=0) -> Maximum:
    """The numerical maximiser of eq (24) over a > 0 at a fixed r (r = 0: the small-r limit)."""
    r = validate.real("r", r, lo=0, hi=1, lo_open=False)
    return maximise(lambda a: formulas.uniform_prior_limit(a, r), mpmath.mpf("0.5"), mpmath.mpf(60))


def _bracket_zero(h):
    """The x > 0 where the bracket log x + h - log(2e) of eq (30) at r = 0 vanishes (2 e^{1-h}),
    found from the bracket's formula itself (it increases in x) by a bracketing root search, so
    that the search window of the maximiser follows the formula it maximises."""
    def g(x):
        return formulas.gaussian_prior_bracket(x, h)

    lo, hi = mpmath.mpf(1), mpmath.mpf(1)
    while g(lo) > 0:
        lo /= 2
    while g(hi) < 0:
        hi *= 2
    return mpmath.findroot(g, (lo, hi), solver="anderson")


def best_gaussian_prior_scale(L, r=0) -> Maximum:
    """The numerical maximiser of eq (30) over x > 0 at fixed (L, r), searched on [x0, 20 x0]
    with x0 just above the zero of the bracket of (30) at r = 0 (2 e^{1 - h_L})."""
    L = validate.real("L", L, lo=0)
    r = validate.real("r", r, lo=0, hi=1, lo_open=False)
    h = formulas.truncated_normal_entropy(-L, L)
    var = formulas.truncated_normal_variance(-L, L)
    lo = _bracket_zero(h) * (1 + mpmath.mpf(10) ** -6)
    return maximise(lambda x: formulas.gaussian_prior_bound(x, h, var, L, r), lo, lo * 20)
