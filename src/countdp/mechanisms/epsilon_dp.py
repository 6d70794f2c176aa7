"""Fundamental eps-DP mechanisms as neighbouring pairs of output laws (the companion paper:
Harrison and Manurangsi, 2025, "Exact zCDP Characterizations for Fundamental Differentially
Private Mechanisms").

Each mechanism gives a neighbouring pair of output laws (:mod:`countdp.laws` objects) that
:func:`countdp.divergence.tight_rho.tight_rho` scans, and a sampler; the closed forms (the KLs
of the pairs and the claimed tight rhos) are in :mod:`countdp.formulas.companion`.

* Laplace: ``Lap(x, Delta/eps)``, neighbours x = 0 vs x = Delta (the law: :class:`countdp.laws.reference.Laplace`).
* Discrete Laplace: pmf ``tanh(a/2) e^{-a|k - x|}`` on the integers, ``a = eps/Delta`` for an
  integer query of sensitivity Delta; neighbours x = 0 vs Delta.
* k-ary randomized response: the true value w.p. ``e^eps/(e^eps + k - 1)``, each other value
  w.p. ``1/(e^eps + k - 1)``; neighbours 0 vs 1.
* One-hot RAPPOR: k bits, bit j = 1{value = j} flipped independently w.p. ``1/(1 + e^{eps/2})``;
  neighbours 0 vs 1 (two bits differ).
* eta-bounded range: pairs whose log-likelihood ratio lies in an interval of length eta; the
  worst two-point pair is found by numerical search.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import mpmath
import numpy as np
from scipy import optimize

from .. import formulas
from ..divergence.tight_rho import pmf_sup_ratio, tight_rho
from ..laws import FinitePmf, IntegerLaw
from ..laws.reference import Laplace
from ..numerics import validate

# ============================================================================================
# Parameter checks
# ============================================================================================


def _eps(eps, name="eps"):
    return mpmath.mpf(validate.real(name, eps, lo=0))


def _k(k):
    return validate.count("k", k, lo=2)


def _delta_int(Delta):
    return validate.count("Delta", Delta, lo=1)


def _delta_real(Delta):
    return mpmath.mpf(validate.real("Delta", Delta, lo=0))


# ============================================================================================
# Laplace
# ============================================================================================


def laplace_pair(eps, Delta=1):
    """Neighbouring outputs of the eps-DP Laplace mechanism: (Lap(0, Delta/eps), Lap(Delta, Delta/eps))."""
    eps, Delta = _eps(eps), _delta_real(Delta)
    b = Delta / eps
    return Laplace(0, b), Laplace(Delta, b)


def laplace_release(x, eps, Delta, rng):
    """x + Lap(Delta/eps) noise (float64); ``rng``: a Generator, an integer seed or None."""
    eps, Delta = _eps(eps), _delta_real(Delta)
    x = validate.reals("x", x)
    rng = validate.rng(rng)
    return x + rng.laplace(0.0, float(Delta / eps), x.shape)


# ============================================================================================
# Discrete Laplace
# ============================================================================================


class DiscreteLaplace(IntegerLaw):
    """``P(X = k) = tanh(a/2) exp(-a|k - m|)`` on the integers (infinite support)."""

    def __init__(self, m, a):
        self.m = validate.count("m", m, lo=-(2 ** 62), hi=2 ** 62)   # m + noise in int64
        self.a = mpmath.mpf(validate.real("a", a, lo=0))
        self._norm: tuple[int, object] | None = None   # (precision, tanh(a/2)) at the last use
        self.support_lo = None
        self.support_hi = None

    def _c(self):
        """tanh(a/2) at the working precision (not the one the law was built at)."""
        if self._norm is None or self._norm[0] != mpmath.mp.prec:
            self._norm = (mpmath.mp.prec, mpmath.tanh(self.a / 2))
        return self._norm[1]

    def mp_pmf(self, k):
        return self._c() * mpmath.exp(-self.a * abs(int(k) - self.m))

    def tail_mass(self, t):
        """P(|X - m| > t) = 2 e^{-a(t+1)} / (1 + e^{-a}) for an integer t >= 0 (geometric series)."""
        t = validate.count("t", t, lo=0)
        return 2 * mpmath.exp(-self.a * (t + 1)) / (1 + mpmath.exp(-self.a))

    def window(self, tail):
        """Integers m - t .. m + t with P(|X - m| > t) <= tail (the exact tail mass above)."""
        tail = mpmath.mpf(tail)
        if not tail > 0:
            raise ValueError(f"tail must lie in (0, 1), got {tail}")
        t = max(0, int(mpmath.ceil(mpmath.log(2 / (tail * (1 + mpmath.exp(-self.a)))) / self.a)) - 1)
        while self.tail_mass(t) > tail:
            t += 1
        return self.m - t, self.m + t

    def sample(self, rng, size):
        p = float(-mpmath.expm1(-self.a))
        return self.m + rng.geometric(p, size) - rng.geometric(p, size)

    def describe(self):
        return f"DLap({self.m}, a={mpmath.nstr(self.a, 6)})"


def discrete_laplace_pair(eps, Delta=1):
    """Neighbouring outputs for an integer query of sensitivity Delta: DLap(0, a), DLap(Delta, a),
    a = eps/Delta."""
    eps, Delta = _eps(eps), _delta_int(Delta)
    a = eps / Delta
    return DiscreteLaplace(0, a), DiscreteLaplace(Delta, a)


def discrete_laplace_loss_classes(eps, Delta=1):
    """The same pair merged by likelihood-ratio class (an exact sufficient reduction: every
    f-divergence, D_alpha included, is unchanged): class 0 = {k <= 0} (ratio e^eps),
    class Delta = {k >= Delta} (ratio e^-eps), classes 1..Delta-1 the points in between.
    Masses by geometric series: P(X <= 0) = 1/(1 + e^-a), P(X >= Delta) = e^{-a Delta}/(1 + e^-a)."""
    eps, Delta = _eps(eps), _delta_int(Delta)
    a = eps / Delta
    c = mpmath.tanh(a / 2)
    big = 1 / (1 + mpmath.exp(-a))
    small = mpmath.exp(-a * Delta) / (1 + mpmath.exp(-a))
    p = {0: big, Delta: small}
    q = {0: small, Delta: big}
    for k in range(1, Delta):
        p[k] = c * mpmath.exp(-a * k)
        q[k] = c * mpmath.exp(-a * (Delta - k))
    return (FinitePmf(p, name=f"DLap(0) by ratio class, eps={mpmath.nstr(eps, 4)}, Delta={Delta}"),
            FinitePmf(q, name=f"DLap(Delta) by ratio class, eps={mpmath.nstr(eps, 4)}, Delta={Delta}"))


# ============================================================================================
# k-ary randomized response
# ============================================================================================


def krr_law(value, eps, k):
    """Output law of k-RR on true value ``value`` in {0..k-1}."""
    eps, k = _eps(eps), _k(k)
    value = validate.count("value", value, lo=0)
    if value >= k:
        raise ValueError(f"value must lie in {{0, ..., k-1}} = {{0, ..., {k - 1}}}, got {value}")
    pt, po = formulas.krr_true_prob(eps, k), formulas.krr_other_prob(eps, k)
    return FinitePmf({j: (pt if j == value else po) for j in range(k)},
                     name=f"{k}-RR({value}), eps={mpmath.nstr(eps, 4)}")


def krr_pair(eps, k):
    """Neighbouring outputs of k-RR: true value 0 vs 1."""
    return krr_law(0, eps, k), krr_law(1, eps, k)


def _categories(values, k: int) -> np.ndarray:
    """``values`` as an int64 array after checking every entry is an integer in 0..k-1."""
    try:
        v = validate.counts("values", values)
    except ValueError as exc:
        raise type(exc)(f"{exc} (categories in {{0, ..., {k - 1}}})") from None
    if np.any(v >= k):
        raise ValueError(f"values must lie in {{0, ..., {k - 1}}}, got {int(np.max(v))}")
    return v


def krr_release(values, eps, k, rng):
    """Apply k-RR independently to each entry of ``values`` (integers in 0..k-1)."""
    eps, k = _eps(eps), _k(k)
    v = _categories(values, k)
    rng = validate.rng(rng)
    pt = float(formulas.krr_true_prob.fp(eps, k))
    keep = rng.random(v.shape) < pt
    other = (v + rng.integers(1, k, v.shape)) % k   # uniform over the k - 1 other values
    return np.where(keep, v, other)


# ============================================================================================
# One-hot RAPPOR
# ============================================================================================


def rappor_law(value, eps, k):
    """Output law of one-hot RAPPOR on value ``value``: the product of k Bernoulli bits, as a pmf
    over bit patterns y (encoded as the integer sum_j y_j 2^j)."""
    eps, k = _eps(eps), _k(k)
    value = validate.count("value", value, lo=0)
    if value >= k:
        raise ValueError(f"value must lie in {{0, ..., k-1}} = {{0, ..., {k - 1}}}, got {value}")
    if k > 16:
        raise ValueError(f"k must be <= 16 for the explicit product law (2^k outcomes), got {k}")
    f = formulas.rappor_flip_prob(eps)
    table = {}
    for bits in itertools.product((0, 1), repeat=k):
        prob = mpmath.mpf(1)
        for j, y in enumerate(bits):
            prob *= (1 - f) if y == (1 if j == value else 0) else f
        table[sum(y << j for j, y in enumerate(bits))] = prob
    return FinitePmf(table, name=f"RAPPOR({value}), k={k}, eps={mpmath.nstr(eps, 4)}")


def rappor_pair(eps, k):
    """Neighbouring outputs of one-hot RAPPOR: value 0 vs 1 (bits 0 and 1 differ)."""
    return rappor_law(0, eps, k), rappor_law(1, eps, k)


def rappor_release(values, eps, k, rng):
    """One-hot encode each value and flip each bit w.p. 1/(1 + e^{eps/2}); returns 0/1 array (n, k)."""
    eps, k = _eps(eps), _k(k)
    v = _categories(values, k)
    rng = validate.rng(rng)
    onehot = (v[..., None] == np.arange(k)).astype(np.int8)
    flips = rng.random(onehot.shape) < float(formulas.rappor_flip_prob.fp(eps))
    return onehot ^ flips.astype(np.int8)


def rappor_encode(bits):
    """Bit patterns (..., k) of 0/1 to the integer labels sum_j y_j 2^j used by :func:`rappor_law`."""
    b = np.asarray(bits, dtype=np.int64)
    return (b << np.arange(b.shape[-1])).sum(axis=-1)


# ============================================================================================
# Privacy loss of an output (for Monte Carlo through the samplers)
# ============================================================================================


def privacy_loss(P, Q, y):
    """L(y) = log dP/dQ (y) in float64, for outputs ``y`` (an array): from the pmf tables of
    finite laws or from the densities of continuous laws."""
    y = np.asarray(y)
    if isinstance(P, FinitePmf) and isinstance(Q, FinitePmf):
        keys = sorted(set(P.table) | set(Q.table))
        lp = {k: (math.log(float(P.table[k])) if k in P.table else -math.inf) for k in keys}
        lq = {k: (math.log(float(Q.table[k])) if k in Q.table else -math.inf) for k in keys}
        table = np.array([lp[k] - lq[k] for k in keys])
        idx = np.searchsorted(np.array(keys), y.astype(np.int64))
        return table[idx]
    if isinstance(P, DiscreteLaplace) and isinstance(Q, DiscreteLaplace) and P.a == Q.a:
        a = float(P.a)
        return a * (np.abs(y - Q.m) - np.abs(y - P.m))
    if P.density is not None and Q.density is not None and not P.atoms() and not Q.atoms():
        return P.density.logpdf(y) - Q.density.logpdf(y)
    raise ValueError("privacy_loss needs two finite pmfs, two discrete Laplace laws or two densities")


# ============================================================================================
# eta-bounded range
# ============================================================================================


def two_point_pair(q, r):
    """Two-point pair P = (p, 1-p), Q = (q, 1-q) on {0, 1} with logit p - logit q = r: its
    log-likelihood ratio takes two values r apart, so the pair is |r|-bounded-range."""
    q = mpmath.mpf(validate.real("q", q, lo=0, hi=1))
    r = mpmath.mpf(validate.real("r", r))
    p = 1 / (1 + (1 - q) / q * mpmath.exp(-r))
    return FinitePmf({0: p, 1: 1 - p}, name="P two-point"), FinitePmf({0: q, 1: 1 - q}, name="Q two-point")


def _two_point_float(x, r):
    """(p, q) arrays of the pair with logit q = x, logit p = x + r, in float64."""
    q = 1 / (1 + math.exp(-x))
    p = 1 / (1 + math.exp(-(x + r)))
    return np.array([p, 1 - p]), np.array([q, 1 - q])


@dataclass(frozen=True)
class BoundedRangeSearch:
    """The worst two-point eta-bounded-range pair found by :func:`worst_bounded_range_pair`.

    ``logit_q``, ``r``: the pair (logit p = logit q + r); ``r_optimum``: the range optimiser's
    point before a point within 1e-6 eta of eta is taken as eta (the evidence that the largest
    range is the worst); ``q``, ``p``: its first masses;
    ``value``: its tight rho (float scan, or the precise value after the polish); ``alpha``: the
    maximiser of the float scan (1.0 for alpha -> 1); ``per_r``: {r: (best value, logit q)} of
    the grid for each scanned range; ``search_error``: the size of the polishing step's
    improvement (None without polish); ``pair``: (P, Q) as laws."""

    logit_q: float
    r: float
    r_optimum: float
    q: float
    p: float
    value: object
    alpha: float
    per_r: dict
    search_error: object
    pair: tuple


@dataclass(frozen=True)
class RandomPairSearch:
    """The largest sup_alpha D_alpha/alpha over random bounded-range pairs, and its pair (q, p)."""

    value: float
    q: np.ndarray
    p: np.ndarray


def _two_point_sup(x, r, points_per_decade=8, refine=False):
    p, q = _two_point_float(x, r)
    return pmf_sup_ratio(p, q, points_per_decade=points_per_decade, refine=refine)


def _grid_search(eta_f: float, grid: int, r_fractions) -> tuple:
    """The best (value, logit q, r) over a logit-q grid for each range r = fraction * eta, the
    per-r maxima, and the grid step."""
    span = 12.0 + 2 * eta_f
    xs = np.linspace(-span, span - eta_f, grid)
    per_r = {}
    best = (-math.inf, None, None)
    for fr in r_fractions:
        r = fr * eta_f
        vs = [_two_point_sup(x, r).value for x in xs]
        i = int(np.argmax(vs))
        per_r[r] = (vs[i], float(xs[i]))
        if vs[i] > best[0]:
            best = (vs[i], float(xs[i]), r)
    return best, per_r, float(xs[1] - xs[0])


def _refine(eta_f: float, best: tuple, step: float) -> tuple[float, float, float]:
    """Bounded optimisers around the grid's best: logit q at its r, then r in [r/2, eta] (is the
    largest range the worst?), then logit q again at that r.  Returns (logit q, r, the range
    optimiser's r before the snap to eta)."""
    def val(x, r):
        return _two_point_sup(x, r).value

    v0, x0, r0 = best
    res = optimize.minimize_scalar(lambda x: -val(x, r0), bounds=(x0 - step, x0 + step), method="bounded",
                                   options={"xatol": 1e-9})
    x_star = float(res.x) if -res.fun >= v0 else x0
    res_r = optimize.minimize_scalar(lambda r: -val(x_star, r), bounds=(0.5 * r0, eta_f), method="bounded",
                                     options={"xatol": 1e-12 * eta_f})
    r_found = float(res_r.x) if -res_r.fun > -res.fun else r0
    r_star = eta_f if eta_f - r_found < 1e-6 * eta_f else r_found
    res = optimize.minimize_scalar(lambda x: -val(x, r_star), bounds=(x_star - step, x_star + step),
                                   method="bounded", options={"xatol": 1e-10})
    return float(res.x), r_star, r_found


def _polish(x_star: float, r_star: float) -> tuple:
    """One Newton step on the precise (mpmath) tight rho in logit q: the float search's optimum
    is good to ~sqrt(float noise); the step's size bounds what is left.  Returns (logit q,
    value, |improvement|)."""
    def precise(x):
        return tight_rho(two_point_pair(1 / (1 + mpmath.exp(-x)), r_star)).value

    x0 = mpmath.mpf(x_star)
    h = mpmath.mpf("1e-4")
    fm, f0, fp = precise(x0 - h), precise(x0), precise(x0 + h)
    curv = fp - 2 * f0 + fm
    x1 = x0 - h * (fp - fm) / (2 * curv) if curv < 0 else x0
    f1 = precise(x1)
    if f1 >= f0:
        return float(x1), f1, abs(f1 - f0)
    return x_star, f0, abs(f1 - f0)


def worst_bounded_range_pair(eta, grid: int = 161, r_fractions=(0.25, 0.5, 0.75, 1.0),
                             polish=True) -> BoundedRangeSearch:
    """Numerical search over two-point eta-bounded-range pairs for the largest tight rho.

    Scans logit q over a grid for each range r = fraction * eta (the light float scan of
    :func:`countdp.divergence.tight_rho.pmf_sup_ratio`, both directions, every alpha), then
    refines the best (q, r) with bounded scalar optimisers in logit q and in r.  ``polish``: a
    final Newton step on the precise tight rho (mpmath), with ``search_error`` the size of its
    improvement."""
    eta_f = float(_eps(eta, "eta"))
    grid = validate.count("grid", grid, lo=3)
    r_fractions = validate.reals("r_fractions", r_fractions, lo=0, hi=1, hi_open=False).ravel().tolist()
    if not r_fractions:
        raise ValueError("r_fractions must hold at least one fraction of eta in (0, 1]")
    best, per_r, step = _grid_search(eta_f, grid, r_fractions)
    x_star, r_star, r_found = _refine(eta_f, best, step)
    found = _two_point_sup(x_star, r_star, points_per_decade=16, refine=True)
    value, search_error = found.value, None
    if polish:
        x_star, value, search_error = _polish(x_star, r_star)
    q_mp = 1 / (1 + mpmath.exp(-mpmath.mpf(x_star)))
    P, Q = two_point_pair(q_mp, r_star)
    return BoundedRangeSearch(logit_q=x_star, r=r_star, r_optimum=r_found, q=float(q_mp), p=float(P.mp_pmf(0)),
                              value=value, alpha=found.alpha, per_r=per_r, search_error=search_error, pair=(P, Q))


def random_bounded_range_pairs(eta, n: int, rng, m: int = 3) -> RandomPairSearch:
    """Largest sup_alpha D_alpha/alpha (light float scan) over ``n`` random m-point
    eta-bounded-range pairs: Q uniform on the simplex, log-ratios t + eta u_i with u uniform on
    [0, 1] (one u set to 0 and one to 1), t fixed by normalisation of P."""
    eta_f = float(_eps(eta, "eta"))
    n = validate.count("n", n, lo=1)
    m = validate.count("m", m, lo=2)
    rng = validate.rng(rng)
    best = RandomPairSearch(-math.inf, np.array([]), np.array([]))
    for _ in range(n):
        q = rng.dirichlet(np.ones(m))
        u = rng.random(m)
        u[0], u[1] = 0.0, 1.0
        logp = np.log(q) + eta_f * u
        logp -= np.logaddexp.reduce(logp)
        p = np.exp(logp)
        v = pmf_sup_ratio(p, q, points_per_decade=8, refine=False).value
        if v > best.value:
            best = RandomPairSearch(v, q, p)
    return best


__all__ = [
    "laplace_pair", "laplace_release",
    "DiscreteLaplace", "discrete_laplace_pair", "discrete_laplace_loss_classes",
    "krr_law", "krr_pair", "krr_release",
    "rappor_law", "rappor_pair", "rappor_release", "rappor_encode",
    "privacy_loss",
    "two_point_pair", "BoundedRangeSearch", "RandomPairSearch", "worst_bounded_range_pair",
    "random_bounded_range_pairs",
]
