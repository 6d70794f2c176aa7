"""Fundamental eps-DP mechanisms as output laws, and the companion paper's closed forms.

Harrison and Manurangsi (2025), "Exact zCDP Characterizations for Fundamental Differentially
Private Mechanisms" (claims hm.* of CLAIMS.md).  Each mechanism gives a neighbouring pair of
output laws (countdp.laws objects) that :func:`countdp.tight_rho.tight_rho` scans; the closed
forms below are the claims the checks compare the scan with.

* Laplace: ``Lap(x, Delta/eps)``, neighbours x = 0 vs x = Delta.  Claimed tight rho
  ``eps + e^{-eps} - 1`` (= the KL); Mironov's Renyi curve (Renyi DP, 2017, Prop. 6)
  ``D_alpha = log(alpha/(2alpha-1) e^{(alpha-1)eps} + (alpha-1)/(2alpha-1) e^{-alpha eps})/(alpha-1)``.
* Discrete Laplace: pmf ``tanh(a/2) e^{-a|k - x|}`` on the integers, ``a = eps/Delta`` for an
  integer query of sensitivity Delta; neighbours x = 0 vs Delta.  Candidate tight rho (its KL)
  ``eps - a (1 - e^{-eps}) / sinh(a)``.
* k-ary randomized response: the true value w.p. ``e^eps/(e^eps + k - 1)``, each other value
  w.p. ``1/(e^eps + k - 1)``; neighbours 0 vs 1.  Candidate (its KL) ``eps (e^eps - 1)/(e^eps + k - 1)``.
* One-hot RAPPOR: k bits, bit j = 1{value = j} flipped independently w.p. ``1/(1 + e^{eps/2})``;
  neighbours 0 vs 1 (two bits differ).  Claimed tight rho ``eps tanh(eps/4)``.
* eta-bounded range: pairs whose log-likelihood ratio lies in an interval of length eta; the
  worst two-point pair is found by numerical search.  Claimed tight rho
  ``eta/(e^eta - 1) + log((e^eta - 1)/eta) - 1`` (< eta^2/8).
"""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
from scipy import optimize

from ..numerics import validate
from ..laws import ContinuousLaw, Density, FinitePmf, IntegerLaw

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
    """The Laplace law Lap(mu, b) with sampler and cdf."""

    def __init__(self, mu, b):
        d = LaplaceDensity(mu, b)
        self.mu, self.b = d.mu, d.b
        super().__init__(d, name=f"Lap({mpmath.nstr(d.mu, 6)}, {mpmath.nstr(d.b, 6)})")

    def sample(self, rng, size):
        return rng.laplace(float(self.mu), float(self.b), size)

    def cdf(self, x):
        z = (np.asarray(x, dtype=float) - float(self.mu)) / float(self.b)
        return np.where(z < 0, 0.5 * np.exp(np.minimum(z, 0)), 1 - 0.5 * np.exp(-np.maximum(z, 0)))


def laplace_pair(eps, Delta=1):
    """Neighbouring outputs of the eps-DP Laplace mechanism: (Lap(0, Delta/eps), Lap(Delta, Delta/eps))."""
    eps, Delta = _eps(eps), _delta_real(Delta)
    b = Delta / eps
    return Laplace(0, b), Laplace(Delta, b)


def laplace_rho(eps):
    """hm.laplace: the tight zCDP parameter eps + e^{-eps} - 1 (= KL(Lap(0,b) || Lap(Delta,b)))."""
    eps = _eps(eps)
    return eps + mpmath.expm1(-eps)


def laplace_renyi_mironov(alpha, eps):
    """Mironov's closed form of D_alpha(Lap(0, 1) || Lap(eps, 1)) for alpha > 1."""
    alpha = mpmath.mpf(validate.order(alpha))
    eps = _eps(eps)
    a1 = alpha - 1
    # log(alpha/(2a-1) e^{a1 eps} + a1/(2a-1) e^{-alpha eps}) / a1, written as eps + log(...)/a1
    inner = alpha / (2 * alpha - 1) + a1 / (2 * alpha - 1) * mpmath.exp(-(2 * alpha - 1) * eps)
    return eps + mpmath.log(inner) / a1


def laplace_release(x, eps, Delta, rng):
    """x + Lap(Delta/eps) noise (float64)."""
    eps, Delta = _eps(eps), _delta_real(Delta)
    x = np.asarray(x, dtype=float)
    return x + rng.laplace(0.0, float(Delta / eps), x.shape)


# ============================================================================================
# Discrete Laplace
# ============================================================================================


class DiscreteLaplace(IntegerLaw):
    """``P(X = k) = tanh(a/2) exp(-a|k - m|)`` on the integers (infinite support)."""

    def __init__(self, m, a):
        self.m = validate.count("m", m, lo=-(2 ** 62))
        self.a = mpmath.mpf(validate.real("a", a, lo=0))
        self._c = mpmath.tanh(self.a / 2)
        self.support_lo = None
        self.support_hi = None

    def mp_pmf(self, k):
        return self._c * mpmath.exp(-self.a * abs(int(k) - self.m))

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


def discrete_laplace_kl(eps, Delta=1):
    """hm.discrete_laplace candidate (the KL of the pair): eps - a (1 - e^{-eps}) / sinh(a), a = eps/Delta."""
    eps, Delta = _eps(eps), _delta_int(Delta)
    a = eps / Delta
    return eps + a * mpmath.expm1(-eps) / mpmath.sinh(a)


# ============================================================================================
# k-ary randomized response
# ============================================================================================


def krr_probs(eps, k):
    """(p_true, p_other) = (e^eps, 1)/(e^eps + k - 1)."""
    eps, k = _eps(eps), _k(k)
    den = mpmath.exp(eps) + k - 1
    return mpmath.exp(eps) / den, 1 / den


def krr_law(value, eps, k):
    """Output law of k-RR on true value ``value`` in {0..k-1}."""
    eps, k = _eps(eps), _k(k)
    value = validate.count("value", value, lo=0)
    if value >= k:
        raise ValueError(f"value must lie in {{0, ..., k-1}} = {{0, ..., {k - 1}}}, got {value}")
    pt, po = krr_probs(eps, k)
    return FinitePmf({j: (pt if j == value else po) for j in range(k)},
                     name=f"{k}-RR({value}), eps={mpmath.nstr(eps, 4)}")


def krr_pair(eps, k):
    """Neighbouring outputs of k-RR: true value 0 vs 1."""
    return krr_law(0, eps, k), krr_law(1, eps, k)


def krr_kl(eps, k):
    """hm.krr candidate (the KL of the pair): eps (e^eps - 1) / (e^eps + k - 1)."""
    eps, k = _eps(eps), _k(k)
    return eps * mpmath.expm1(eps) / (mpmath.exp(eps) + k - 1)


def krr_release(values, eps, k, rng):
    """Apply k-RR independently to each entry of ``values`` (integers in 0..k-1)."""
    eps, k = _eps(eps), _k(k)
    v = np.asarray(values, dtype=np.int64)
    if np.any((v < 0) | (v >= k)):
        raise ValueError(f"values must lie in {{0, ..., {k - 1}}}")
    pt = float(krr_probs(eps, k)[0])
    keep = rng.random(v.shape) < pt
    other = (v + rng.integers(1, k, v.shape)) % k   # uniform over the k - 1 other values
    return np.where(keep, v, other)


# ============================================================================================
# One-hot RAPPOR
# ============================================================================================


def rappor_flip(eps):
    """Per-bit flip probability 1/(1 + e^{eps/2})."""
    return 1 / (1 + mpmath.exp(_eps(eps) / 2))


def rappor_law(value, eps, k):
    """Output law of one-hot RAPPOR on value ``value``: the product of k Bernoulli bits, as a pmf
    over bit patterns y (encoded as the integer sum_j y_j 2^j)."""
    eps, k = _eps(eps), _k(k)
    value = validate.count("value", value, lo=0)
    if value >= k:
        raise ValueError(f"value must lie in {{0, ..., k-1}} = {{0, ..., {k - 1}}}, got {value}")
    if k > 16:
        raise ValueError(f"k must be <= 16 for the explicit product law (2^k outcomes), got {k}")
    f = rappor_flip(eps)
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


def rappor_rho(eps):
    """hm.rappor: the tight zCDP parameter eps tanh(eps/4)."""
    eps = _eps(eps)
    return eps * mpmath.tanh(eps / 4)


def rappor_release(values, eps, k, rng):
    """One-hot encode each value and flip each bit w.p. 1/(1 + e^{eps/2}); returns 0/1 array (n, k)."""
    eps, k = _eps(eps), _k(k)
    v = np.asarray(values, dtype=np.int64)
    if np.any((v < 0) | (v >= k)):
        raise ValueError(f"values must lie in {{0, ..., {k - 1}}}")
    onehot = (v[..., None] == np.arange(k)).astype(np.int8)
    flips = rng.random(onehot.shape) < float(rappor_flip(eps))
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


def bounded_range_rho(eta):
    """hm.bounded_range: eta/(e^eta - 1) + log((e^eta - 1)/eta) - 1."""
    eta = _eps(eta, "eta")
    e1 = mpmath.expm1(eta)
    return eta / e1 + mpmath.log(e1 / eta) - 1


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


def worst_bounded_range_pair(eta, grid: int = 161, r_fractions=(0.25, 0.5, 0.75, 1.0), polish=True):
    """Numerical search over two-point eta-bounded-range pairs for the largest tight rho.

    Scans logit q over a grid for each range r = fraction * eta (the light float scan of
    :func:`countdp.tight_rho.pmf_sup_ratio`, both directions, every alpha), then refines the best
    (q, r) with a bounded scalar optimiser in logit q at the best r and a bounded optimiser in r.
    Returns a dict: q, r, logit_q, value (float scan), alpha (1.0 = alpha -> 1), the per-r maxima,
    and the pair as laws.  ``polish``: a final Newton step on the precise tight rho (mpmath),
    with ``search_error`` the size of its improvement."""
    from ..divergence.tight_rho import pmf_sup_ratio

    eta_f = float(_eps(eta, "eta"))
    span = 12.0 + 2 * eta_f
    xs = np.linspace(-span, span - eta_f, grid)

    def val(x, r):
        p, q = _two_point_float(x, r)
        return pmf_sup_ratio(p, q, points_per_decade=8, refine=False)[0]

    per_r = {}
    best = (-math.inf, None, None)
    for fr in r_fractions:
        r = fr * eta_f
        vs = [val(x, r) for x in xs]
        i = int(np.argmax(vs))
        per_r[r] = (vs[i], float(xs[i]))
        if vs[i] > best[0]:
            best = (vs[i], float(xs[i]), r)
    _, x0, r0 = best
    step = xs[1] - xs[0]
    res = optimize.minimize_scalar(lambda x: -val(x, r0), bounds=(x0 - step, x0 + step), method="bounded",
                                   options={"xatol": 1e-9})
    x_star = float(res.x) if -res.fun >= best[0] else x0
    # is the best range the largest allowed?  optimise r in [r0/2, eta] at x_star
    res_r = optimize.minimize_scalar(lambda r: -val(x_star, r), bounds=(0.5 * r0, eta_f), method="bounded",
                                     options={"xatol": 1e-12 * eta_f})
    r_star = float(res_r.x) if -res_r.fun > -res.fun else r0
    if eta_f - r_star < 1e-6 * eta_f:
        r_star = eta_f
    # re-optimise q at r_star
    res = optimize.minimize_scalar(lambda x: -val(x, r_star), bounds=(x_star - step, x_star + step),
                                   method="bounded", options={"xatol": 1e-10})
    x_star = float(res.x)
    p_f, q_f = _two_point_float(x_star, r_star)
    value, alpha = pmf_sup_ratio(p_f, q_f, points_per_decade=16, refine=True)
    out = {"logit_q": x_star, "r": r_star, "value": value, "alpha": alpha, "per_r": per_r,
           "search_error": None}
    if polish:
        # one Newton step on the precise (mpmath) tight rho in logit q: the float search's
        # optimum is good to ~sqrt(float noise); the step's size bounds what is left
        from ..divergence.tight_rho import tight_rho

        def prec(x):
            return tight_rho(two_point_pair(1 / (1 + mpmath.exp(-x)), r_star)).value

        x0 = mpmath.mpf(x_star)
        h = mpmath.mpf("1e-4")
        fm, f0, fp = prec(x0 - h), prec(x0), prec(x0 + h)
        curv = fp - 2 * f0 + fm
        x1 = x0 - h * (fp - fm) / (2 * curv) if curv < 0 else x0
        f1 = prec(x1)
        if f1 >= f0:
            x_star, value = float(x1), f1
        else:
            value = f0
        out["logit_q"] = x_star
        out["value"] = value
        out["search_error"] = abs(f1 - f0)
    q_mp = 1 / (1 + mpmath.exp(-mpmath.mpf(out["logit_q"])))
    P, Q = two_point_pair(q_mp, r_star)
    out.update(q=float(q_mp), p=float(P.mp_pmf(0)), pair=(P, Q))
    return out


def random_bounded_range_pairs(eta, n: int, rng, m: int = 3):
    """Largest sup_alpha D_alpha/alpha (light float scan) over ``n`` random m-point
    eta-bounded-range pairs: Q uniform on the simplex, log-ratios t + eta u_i with u uniform on
    [0, 1] (one u set to 0 and one to 1), t fixed by normalisation of P.  Returns (max, q, p)."""
    from ..divergence.tight_rho import pmf_sup_ratio

    eta_f = float(_eps(eta, "eta"))
    n = validate.count("n", n, lo=1)
    m = validate.count("m", m, lo=2)
    best = (-math.inf, None, None)
    for _ in range(n):
        q = rng.dirichlet(np.ones(m))
        u = rng.random(m)
        u[0], u[1] = 0.0, 1.0
        logp = np.log(q) + eta_f * u
        logp -= np.logaddexp.reduce(logp)
        p = np.exp(logp)
        v = pmf_sup_ratio(p, q, points_per_decade=8, refine=False)[0]
        if v > best[0]:
            best = (v, q, p)
    return best


__all__ = [
    "LaplaceDensity", "Laplace", "laplace_pair", "laplace_rho", "laplace_renyi_mironov", "laplace_release",
    "DiscreteLaplace", "discrete_laplace_pair", "discrete_laplace_loss_classes", "discrete_laplace_kl",
    "krr_probs", "krr_law", "krr_pair", "krr_kl", "krr_release",
    "rappor_flip", "rappor_law", "rappor_pair", "rappor_rho", "rappor_release", "rappor_encode",
    "privacy_loss",
    "bounded_range_rho", "two_point_pair", "worst_bounded_range_pair", "random_bounded_range_pairs",
]
