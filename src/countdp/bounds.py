"""Section 6: the mechanism-independent lower bounds, their limits, and the information
quantities the many-count argument uses.

Two counts (Proposition 6.2)::

    C_r = ((1+3r)/(1-r))^2,          C_r - 1 = 8 r (1+r)/(1-r)^2
    m = ceil(C_r n),  q = sqrt(m/n),  t = n q:   Markov sum  r(q+1)/(q-1) <= (1+r)/2
    v(n) >= (1-r)^2 / (2 (m - n)^2)                                          (eq 14)
    liminf n^2 v(n) >= (1-r)^6 / (128 r^2 (1+r)^2)                           (eq 15)

Many counts (Lemma 6.3, Theorem 6.4, Corollaries 6.5 and 6.7)::

    I(J;Y) >= H(J) - log(2e(D + 1/4))                                        (eq 17)
    v(n) >= [H(J) - log(2e(r(n + EJ) + 1/4))]_+ / E(J - j*)^2                 (eq 19)
    v(n) >= 12/(K^2-1) [log(K / (2e(r(n + (K-1)/2) + 1/4)))]_+                (eq 23)
    liminf r^2 n^2 v(n) >= (12/a^2)[log(a/(2e(1 + a r/2)))]_+                (eq 24)
    r -> 0: maximiser a = 2 e^{3/2}, value 3/(2e^3)                          (eq 25)
    (30): [log x + h_L - log(2e) - log(1 + L x r)]_+ / (x^2 tau_L^2)
    x_L = 2 e^{3/2 - h_L},  value e^{2 h_L} / (8 e^3 tau_L^2) -> pi/(4e^2)    (eqs 29, 31)

Exact arithmetic: the two-count bound takes ``r`` as a rational (a ``Fraction``, an ``int``, a
string such as ``"1/10"``, or a float, which is taken at its exact binary value), so that
``ceil(C_r n)`` is exact; every other formula is evaluated in mpmath at the current precision.

Information quantities: Shannon entropy of a pmf, differential entropy and moments of a law by
mpmath quadrature (through :func:`countdp.utility.quad_expectation`), mutual information
``I(J;Y)`` for finitely supported J by composite Gauss-Legendre quadrature in float64 (error from
doubling the rule plus a proven tail bound), a Monte Carlo estimate of the same, and the total
variation distance between two laws (atoms plus an mpmath quadrature of ``|p - q|/2`` split at the
density crossings).

Also here: reference laws (Laplace, uniform, logistic, triangular, raised cosine, truncated
Laplace, truncated Gaussian), the quantized truncated-Gaussian prior ``Q_S = round(S Z)`` of
Lemma 6.6 / Corollary 6.7, and a second admissible mechanism for the two-count chain, the
log-Laplace mechanism ``[(n+c) exp(b L) - c]_+`` (:class:`LogLaplaceMechanism`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import mpmath
import numpy as np

from . import formulas
from .numerics import normal
from .numerics import validate
from .laws import CallableDensity, ContinuousLaw, Density, Law, LogShiftDensity, MixedLaw
from .laws.expectation import quad_expectation
from .numerics.montecarlo import MCEstimate, mc_mean

E = math.e

# ============================================================================================
# Exact rationals and small helpers
# ============================================================================================


def exact_r(r, name: str = "r") -> Fraction:
    """``r`` as an exact rational in (0, 1): Fractions and ints as they are, strings parsed
    (``"1/10"``, ``"0.1"``), floats at their exact binary value, mpf at its exact value."""
    if isinstance(r, bool):
        raise ValueError(f"{name} must be a real number in (0, 1), got {r!r}")
    try:
        if isinstance(r, Fraction):
            f = r
        elif isinstance(r, (int, np.integer)):
            f = Fraction(int(r))
        elif isinstance(r, str):
            f = Fraction(r)
        elif isinstance(r, mpmath.mpf):
            if not mpmath.isfinite(r):
                raise ValueError
            man, exp = r.man_exp
            f = Fraction(int(man)) * (Fraction(2) ** int(exp))
        elif isinstance(r, (float, np.floating)):
            if not math.isfinite(float(r)):
                raise ValueError
            f = Fraction(float(r))
        else:
            raise ValueError
    except (ValueError, ZeroDivisionError, TypeError):
        raise ValueError(f"{name} must be a real number in (0, 1), got {r!r}") from None
    if not 0 < f < 1:
        raise ValueError(f"{name} must lie in (0, 1), got {r!r}")
    return f


def _mp(x) -> mpmath.mpf:
    """An mpf from an int, float, Fraction, string or mpf (Fractions exactly rounded)."""
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    if isinstance(x, (np.floating, np.integer)):
        x = x.item()
    return mpmath.mpf(x)


def _r_mp(r) -> mpmath.mpf:
    """r in mpmath after checking 0 < r < 1 (floats and mpf as given, Fractions rounded)."""
    if isinstance(r, (Fraction, str)):
        return _mp(exact_r(r))
    validate.real("r", r, lo=0, hi=1)
    return _mp(r)


# ============================================================================================
# Proposition 6.2: the two-count bound
# ============================================================================================


def C_r(r) -> mpmath.mpf:
    """Proposition 6.2: C_r = ((1 + 3r)/(1 - r))^2."""
    r = _r_mp(r)
    return ((1 + 3 * r) / (1 - r)) ** 2


def C_r_minus_one(r) -> mpmath.mpf:
    """The closed form in the proof of Proposition 6.2: C_r - 1 = 8 r (1 + r)/(1 - r)^2."""
    r = _r_mp(r)
    return 8 * r * (1 + r) / (1 - r) ** 2


def C_r_exact(r) -> Fraction:
    """C_r as an exact rational (r taken exactly, see :func:`exact_r`)."""
    f = exact_r(r)
    return ((1 + 3 * f) / (1 - f)) ** 2


def two_count_m(n, r, C=None) -> int:
    """m = ceil(C_r n), exactly (integer arithmetic on the rational r = p/q:
    C_r n = n (q + 3p)^2 / (q - p)^2).  ``C`` (a positive rational) replaces C_r, e.g. to build
    the negative control of a smaller constant."""
    n = validate.count("n", n, lo=1)
    if C is not None:
        C = Fraction(C)
        if C <= 0:
            raise ValueError(f"C must be a positive rational, got {C}")
        return -(-C.numerator * n // C.denominator)
    f = exact_r(r)
    p, q = f.numerator, f.denominator
    return -(-(q + 3 * p) ** 2 * n // (q - p) ** 2)


def two_count_m_array(ns, r) -> np.ndarray:
    """ceil(C_r n) for an array of counts n >= 1, exactly (Python integers, returned as int64)."""
    ns = validate.counts("n", ns)
    if ns.size and ns.min() < 1:
        raise ValueError("n must hold integers >= 1")
    f = exact_r(r)
    p, q = f.numerator, f.denominator
    a, b = (q + 3 * p) ** 2, (q - p) ** 2
    out = [-(-a * int(n) // b) for n in ns.ravel()]
    return np.array(out, dtype=np.int64).reshape(ns.shape)


def two_count_bound(n, r) -> mpmath.mpf:
    """eq (14): (1 - r)^2 / (2 (ceil(C_r n) - n)^2), from the exact rational, rounded once to mpf."""
    n = validate.count("n", n, lo=1)
    f = exact_r(r)
    m = two_count_m(n, f)
    return _mp((1 - f) ** 2 / (2 * (m - n) ** 2))


def two_count_bound_exact(n, r) -> Fraction:
    """eq (14) as an exact rational."""
    n = validate.count("n", n, lo=1)
    f = exact_r(r)
    return (1 - f) ** 2 / (2 * (two_count_m(n, f) - n) ** 2)


#: relative error bound of :func:`two_count_bound_array`: (1-r)^2 rounded once, (m-n)^2 exact
#: below 2^53, one division: at most 3 roundings of 2^-53 each.
TWO_COUNT_ARRAY_RTOL = 3 * 2.0 ** -53


def two_count_bound_array(ns, r) -> np.ndarray:
    """eq (14) over an array of counts in float64, with m = ceil(C_r n) exact; relative error
    at most :data:`TWO_COUNT_ARRAY_RTOL` (for m - n < 2^26)."""
    ns = validate.counts("n", ns)
    ms = two_count_m_array(ns, r)
    gap = (ms - ns).astype(np.float64)
    if gap.size and gap.max() >= 2.0 ** 26:
        raise ValueError("n must be small enough that ceil(C_r n) - n < 2^26 (exact squares)")
    one_minus_r_sq = float((1 - exact_r(r)) ** 2)
    return one_minus_r_sq / (2.0 * gap * gap)


def two_count_limit(r) -> mpmath.mpf:
    """eq (15): (1 - r)^6 / (128 r^2 (1 + r)^2)."""
    r = _r_mp(r)
    return (1 - r) ** 6 / (128 * r ** 2 * (1 + r) ** 2)


def two_count_limit_remainder(n, r) -> mpmath.mpf:
    """An explicit bound on limit(15) - n^2 * bound(14) >= 0: since m - n = (C_r - 1) n + theta
    with 0 <= theta < 1, n^2 bound(14) lies in ((1-r)^2 / (2 (C_r - 1 + 1/n)^2), limit(15)]."""
    n = validate.count("n", n, lo=1)
    r = _r_mp(r)
    lo = (1 - r) ** 2 / (2 * (C_r_minus_one(r) + mpmath.mpf(1) / n) ** 2)
    return two_count_limit(r) - lo


def two_count_threshold(n, m) -> mpmath.mpf:
    """The test threshold of the proof: t = sqrt(m n) = n q."""
    n = validate.count("n", n, lo=1)
    m = validate.count("m", m, lo=n + 1)
    return mpmath.sqrt(mpmath.mpf(m) * n)


def markov_bounds(n, m, r) -> tuple:
    """The two Markov bounds of the proof at t = sqrt(mn):
    (t, r n/(t - n) >= P_n(Y > t), r m/(m - t) >= P_m(Y <= t))."""
    n = validate.count("n", n, lo=1)
    m = validate.count("m", m, lo=n + 1)
    r = _r_mp(r)
    t = two_count_threshold(n, m)
    return t, r * n / (t - n), r * m / (m - t)


def markov_sum(n, r, m=None) -> mpmath.mpf:
    """The sum of the two Markov bounds in closed form, r (q + 1)/(q - 1) with q = sqrt(m/n)
    (m = ceil(C_r n) unless given); Proposition 6.2 shows it is <= (1 + r)/2."""
    n = validate.count("n", n, lo=1)
    if m is None:
        m = two_count_m(n, r)
    m = validate.count("m", m, lo=n + 1)
    r = _r_mp(r)
    q = mpmath.sqrt(mpmath.mpf(m) / n)
    return r * (q + 1) / (q - 1)


# ============================================================================================
# Lemma 6.3 and Theorem 6.4: the many-count bound
# ============================================================================================


def information_lower_bound(H, D) -> mpmath.mpf:
    """eq (17): H(J) - log(2e(D + 1/4)), a lower bound on I(J;Y) for any estimator with
    expected absolute error D."""
    D = validate.real("D", D, lo=0, lo_open=False)
    return _mp(H) - mpmath.log(2 * mpmath.e * (_mp(D) + mpmath.mpf(1) / 4))


def utility_information_bound(H, EJ, n, r) -> mpmath.mpf:
    """eq (22): H(J) - log(2e(r(n + EJ) + 1/4)) (eq 17 with D <= r(n + EJ))."""
    n = validate.count("n", n, lo=1)
    r = _r_mp(r)
    EJ = validate.real("EJ", EJ, lo=0, lo_open=False)
    return _mp(H) - mpmath.log(2 * mpmath.e * (r * (n + _mp(EJ)) + mpmath.mpf(1) / 4))


def many_count_bound(H, EJ, second, n, r) -> mpmath.mpf:
    """eq (19): [H(J) - log(2e(r(n + EJ) + 1/4))]_+ / E(J - j*)^2 (``second`` = E(J - j*)^2 > 0)."""
    second = validate.real("second", second, lo=0)
    num = utility_information_bound(H, EJ, n, r)
    return max(num, mpmath.mpf(0)) / _mp(second)


def _pmf_arrays(prior):
    """(ks, ps) from a dict {k: p}, a FinitePmf, a pair (ks, ps) of sequences, or a bare 1-D
    sequence of probabilities (support 0, 1, ...); ps stay mpf if given so."""
    if hasattr(prior, "table"):
        prior = prior.table
    if isinstance(prior, dict):
        ks = [int(k) for k in prior]
        ps = list(prior.values())
    elif isinstance(prior, tuple) and len(prior) == 2 and all(np.ndim(x) == 1 or isinstance(x, list) for x in prior):
        ks, ps = prior
        ks = [int(k) for k in np.asarray(ks).ravel()]
        ps = list(ps)
    else:
        ps = list(prior)
        if any(np.ndim(p) != 0 for p in ps):
            raise ValueError("prior must be a dict, a pair (ks, ps) or a 1-D sequence of probabilities")
        ks = list(range(len(ps)))
    if len(ks) != len(ps) or not ks:
        raise ValueError("prior must be a nonempty pmf (ks and ps of equal length)")
    if any(p < 0 for p in ps):
        raise ValueError("prior must have nonnegative probabilities")
    return ks, ps


def shannon_entropy(prior) -> mpmath.mpf | float:
    """H(J) = -sum p log p (natural log). mpf inputs give an mpf at the current precision;
    float inputs a float summed exactly-rounded (math.fsum)."""
    ks, ps = _pmf_arrays(prior)
    if any(isinstance(p, mpmath.mpf) for p in ps):
        return -mpmath.fsum(p * mpmath.log(p) for p in ps if p > 0)
    ps = np.asarray(ps, dtype=float)
    ps = ps[ps > 0]
    return -math.fsum((ps * np.log(ps)).tolist())


def prior_moments(prior, j_star=None) -> tuple:
    """(H(J), E J, E(J - j*)^2) of a finitely supported J (j* defaults to 0)."""
    ks, ps = _pmf_arrays(prior)
    j = 0 if j_star is None else validate.count("j_star", j_star, lo=0)
    H = shannon_entropy((ks, ps))
    if any(isinstance(p, mpmath.mpf) for p in ps):
        EJ = mpmath.fsum(p * k for k, p in zip(ks, ps))
        sec = mpmath.fsum(p * (k - j) ** 2 for k, p in zip(ks, ps))
        return H, EJ, sec
    ka = np.asarray(ks, dtype=float)
    pa = np.asarray(ps, dtype=float)
    EJ = math.fsum((pa * ka).tolist())
    sec = math.fsum((pa * (ka - j) ** 2).tolist())
    return H, EJ, sec


def many_count_bound_for_prior(prior, j_star, n, r) -> mpmath.mpf:
    """eq (19) for a prior given as a pmf (H, EJ, E(J - j*)^2 summed from the pmf)."""
    H, EJ, sec = prior_moments(prior, j_star)
    if sec <= 0:
        raise ValueError("j_star must give E(J - j*)^2 > 0")
    return many_count_bound(H, EJ, sec, n, r)


def uniform_prior(K) -> dict:
    """J uniform on {0, ..., K-1}, as {k: 1/K} in mpmath."""
    K = validate.count("K", K, lo=1)
    p = mpmath.mpf(1) / K
    return {k: p for k in range(K)}


def binomial_prior(N, p) -> dict:
    """J ~ Binomial(N, p), as {k: C(N,k) p^k (1-p)^(N-k)} in mpmath."""
    N = validate.count("N", N, lo=1)
    p = validate.real("p", p, lo=0, hi=1)
    pm = _mp(p)
    return {k: mpmath.binomial(N, k) * pm ** k * (1 - pm) ** (N - k) for k in range(N + 1)}


# ============================================================================================
# Corollary 6.5: the uniform prior
# ============================================================================================


def uniform_bound(n, K, r) -> mpmath.mpf:
    """eq (23): 12/(K^2 - 1) [log(K / (2e(r(n + (K-1)/2) + 1/4)))]_+ for odd K >= 3."""
    n = validate.count("n", n, lo=1)
    K = validate.count("K", K, lo=3)
    if K % 2 == 0:
        raise ValueError(f"K must be odd and >= 3, got {K}")
    r = _r_mp(r)
    inner = mpmath.log(K / (2 * mpmath.e * (r * (n + mpmath.mpf(K - 1) / 2) + mpmath.mpf(1) / 4)))
    return 12 * max(inner, mpmath.mpf(0)) / (mpmath.mpf(K) ** 2 - 1)


def _uniform_bound_np(n, Ks, r):
    Ks = np.asarray(Ks, dtype=float)
    inner = np.log(Ks / (2 * E * (r * (n + (Ks - 1) / 2) + 0.25)))
    return 12 * np.maximum(inner, 0.0) / (Ks * Ks - 1)


def best_odd_K(n, r, K_max=None) -> tuple:
    """The odd K >= 3 maximising eq (23) at (n, r): exhaustive float64 search over odd K <= K_max,
    doubling K_max until the proven tail bound for K > K_max,
    12/((K_max+2)^2 - 1) [log((K_max+2)/((K_max+1) e r))]_+, is below the best value found;
    the winner is re-evaluated in mpmath.  Returns (K, eq-23 value)."""
    n = validate.count("n", n, lo=1)
    rf = float(_r_mp(r))
    if K_max is None:
        K_max = max(101, int(6 * 2 * math.exp(1.5) * (rf * n + 1)))
    K_max = validate.count("K_max", K_max, lo=3)
    for _ in range(60):
        Ks = np.arange(3, K_max + 1, 2)
        vals = _uniform_bound_np(n, Ks, rf)
        i = int(np.argmax(vals))
        tail = 12 / ((K_max + 2) ** 2 - 1) * max(math.log((K_max + 2) / ((K_max + 1) * E * rf)), 0.0)
        if vals[i] > tail * (1 + 1e-9) or vals[i] == 0 == tail:
            K = int(Ks[i])
            # ties within float rounding: decide among the neighbours in mpmath
            cands = [k for k in (K - 2, K, K + 2) if 3 <= k <= K_max]
            best = max(cands, key=lambda k: uniform_bound(n, k, r))
            return best, uniform_bound(n, best, r)
        K_max = 2 * K_max + 1
    raise ValueError("best_odd_K: the search did not terminate (r too close to 0?)")


def odd_K_near(a, r, n) -> int:
    """The odd integer K >= 3 nearest to a r n (the sequence K_n with K_n/(rn) -> a of eq 24)."""
    a = validate.real("a", a, lo=0)
    n = validate.count("n", n, lo=1)
    x = float(_mp(a) * _r_mp(r) * n)
    K = 2 * int(math.floor((x - 1) / 2 + 0.5)) + 1
    return max(K, 3)


def uniform_limit(a, r) -> mpmath.mpf:
    """eq (24): (12/a^2)[log(a / (2e(1 + a r/2)))]_+ (r = 0 allowed: the small-r limit)."""
    a = _mp(validate.real("a", a, lo=0))
    r = _mp(validate.real("r", r, lo=0, hi=1, lo_open=False))
    inner = mpmath.log(a / (2 * mpmath.e * (1 + a * r / 2)))
    return 12 * max(inner, mpmath.mpf(0)) / a ** 2


def uniform_opt_a() -> mpmath.mpf:
    """eq (25): the maximiser of (12/a^2) log(a/(2e)), a = 2 e^{3/2}."""
    return 2 * mpmath.exp(mpmath.mpf(3) / 2)


def uniform_opt_value() -> mpmath.mpf:
    """eq (25): the maximum value 3/(2e^3)."""
    return mpmath.mpf(3) / (2 * mpmath.e ** 3)


def uniform_over_two_count_factor() -> mpmath.mpf:
    """Section 6.4: (3/(2e^3)) / (1/128) = 192/e^3."""
    return 192 / mpmath.e ** 3


def maximise(f: Callable, lo, hi, grid: int = 400) -> tuple:
    """Numerical maximiser of a smooth unimodal-near-the-top f on [lo, hi], without derivative
    formulas: a grid scan, a golden-section refinement, then mpmath.findroot on the numerical
    derivative (mpmath.diff).  Returns (x*, f(x*), error estimate of x*)."""
    lo, hi = _mp(lo), _mp(hi)
    if not lo < hi:
        raise ValueError(f"lo must be < hi, got [{lo}, {hi}]")
    xs = [lo + (hi - lo) * k / grid for k in range(grid + 1)]
    vals = [f(x) for x in xs]
    i = max(range(len(xs)), key=lambda k: vals[k])
    a, b = xs[max(i - 1, 0)], xs[min(i + 1, grid)]
    g = (mpmath.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(60):
        if fc > fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    x0 = (a + b) / 2
    try:
        x = mpmath.findroot(lambda y: mpmath.diff(f, y), x0, tol=mpmath.eps ** 1.5)
        if not (lo <= x <= hi) or f(x) < f(x0):
            raise ValueError
        step = abs(x - x0)
        err = max(abs(mpmath.diff(f, x) / mpmath.diff(f, x, 2)), mpmath.eps * abs(x)) * 10
        err = min(err, step + mpmath.eps * abs(x)) if step > 0 else err
    except (ValueError, ZeroDivisionError):
        x, err = x0, (b - a)
    return x, f(x), err


def maximise_uniform_limit(r=0) -> tuple:
    """The numerical maximiser of eq (24) over a > 0 at a fixed r (r = 0: the small-r limit).
    Returns (a*, value, error estimate of a*)."""
    r = validate.real("r", r, lo=0, hi=1, lo_open=False)
    return maximise(lambda a: uniform_limit(a, r), mpmath.mpf("0.5"), mpmath.mpf(60))


# ============================================================================================
# Lemma 6.6 and Corollary 6.7: truncated Gaussian priors and their quantization
# ============================================================================================


def truncated_gaussian_stats(a, b) -> tuple:
    """Closed forms for Z = N(0,1) conditioned on [a, b]: (P(a <= N <= b), E Z, Var Z, h(Z)).
    With Zab = Phi(b) - Phi(a): E Z = (phi(a) - phi(b))/Zab,
    E Z^2 = 1 + (a phi(a) - b phi(b))/Zab, h = log(sqrt(2 pi e) Zab) + (a phi(a) - b phi(b))/(2 Zab)."""
    a = validate.real("a", a)
    b = validate.real("b", b)
    if not a < b:
        raise ValueError(f"a must be < b, got [{a}, {b}]")
    a, b = _mp(a), _mp(b)
    Z = normal.mp_Phi_diff(a, b)
    pa, pb = normal.mp_phi(a), normal.mp_phi(b)
    mean = (pa - pb) / Z
    second = 1 + (a * pa - b * pb) / Z
    h = mpmath.log(mpmath.sqrt(2 * mpmath.pi * mpmath.e) * Z) + (a * pa - b * pb) / (2 * Z)
    return Z, mean, second - mean ** 2, h


def h_L(L) -> mpmath.mpf:
    """h_L = h(Z_L), Z_L = N(0,1) conditioned on [-L, L]: log(sqrt(2 pi e) Z) - L phi(L)/Z."""
    L = validate.real("L", L, lo=0)
    return truncated_gaussian_stats(-L, L)[3]


def tau2_L(L) -> mpmath.mpf:
    """tau_L^2 = Var(Z_L) = 1 - 2 L phi(L) / (2 Phi(L) - 1)."""
    L = validate.real("L", L, lo=0)
    return truncated_gaussian_stats(-L, L)[2]


def x_L(L) -> mpmath.mpf:
    """Corollary 6.7: the optimal scale x_L = 2 e^{3/2 - h_L} (the bracket of (30) equals 1/2)."""
    return 2 * mpmath.exp(mpmath.mpf(3) / 2 - h_L(L))


def prior_coefficient(h, var) -> mpmath.mpf:
    """Corollary 6.7: e^{2h} / (8 e^3 Var) of a limiting prior with entropy h and variance var."""
    var = validate.real("var", var, lo=0)
    return mpmath.exp(2 * _mp(h)) / (8 * mpmath.e ** 3 * _mp(var))


def cor67_value(L) -> mpmath.mpf:
    """eq (31): e^{2 h_L} / (8 e^3 tau_L^2)."""
    _, _, var, h = truncated_gaussian_stats(-validate.real("L", L, lo=0), L)
    return prior_coefficient(h, var)


def cor67_limit() -> mpmath.mpf:
    """eq (29): pi / (4 e^2) = 2 pi e / (8 e^3)."""
    return mpmath.pi / (4 * mpmath.e ** 2)


def cor67_remainder(L) -> mpmath.mpf:
    """An explicit bound on |cor67_value(L) - pi/(4e^2)|.  With Z = 2 Phi(L) - 1 and
    u = 2 L phi(L)/Z < 1: value/limit = Z^2 e^{-u}/(1-u), and 1 <= e^{-u}/(1-u) <= 1 + u^2/(2(1-u)),
    so value/limit - 1 lies in [Z^2 - 1, u^2/(2(1-u))]."""
    L = _mp(validate.real("L", L, lo=0))
    Z = 2 * normal.mp_Phi(L) - 1
    u = 2 * L * normal.mp_phi(L) / Z
    if u >= 1:
        raise ValueError("L too small for the remainder bound (u = 2 L phi(L)/Z >= 1)")
    return cor67_limit() * max(1 - Z ** 2, u ** 2 / (2 * (1 - u)))


def bound30(x, L, r) -> mpmath.mpf:
    """eq (30): [log x + h_L - log(2e) - log(1 + L x r)]_+ / (x^2 tau_L^2) (r = 0 allowed)."""
    x = _mp(validate.real("x", x, lo=0))
    L = validate.real("L", L, lo=0)
    r = _mp(validate.real("r", r, lo=0, hi=1, lo_open=False))
    _, _, var, h = truncated_gaussian_stats(-L, L)
    inner = mpmath.log(x) + h - mpmath.log(2 * mpmath.e) - mpmath.log(1 + _mp(L) * x * r)
    return max(inner, mpmath.mpf(0)) / (x ** 2 * var)


def bound30_bracket(x, L) -> mpmath.mpf:
    """The bracket of eq (30) at r = 0: log x + h_L - log(2e)."""
    x = _mp(validate.real("x", x, lo=0))
    return mpmath.log(x) + h_L(L) - mpmath.log(2 * mpmath.e)


def maximise_bound30(L, r=0) -> tuple:
    """The numerical maximiser of eq (30) over x > 0 at fixed (L, r): (x*, value, error of x*)."""
    validate.real("L", L, lo=0)
    r = validate.real("r", r, lo=0, hi=1, lo_open=False)
    lo = 2 * mpmath.exp(1 - h_L(L)) * (1 + mpmath.mpf(10) ** -6)  # the bracket vanishes at 2e^{1-h}
    return maximise(lambda x: bound30(x, L, r), lo, lo * 20)


def quantized_truncated_gaussian(S, a, b, method: str = "float") -> tuple:
    """The pmf of Q_S = round(S Z), Z = N(0,1) conditioned on [a, b] (Lemma 6.6):
    p_k = P(max(a, (k - 1/2)/S) <= Z < min(b, (k + 1/2)/S)) for round(S a) <= k <= round(S b).

    ``method="mp"``: Phi differences in mpmath (cancellation-free side, current precision),
    returns (ks, [mpf]).  ``method="float"``: each full cell's Gaussian integral by 20-point
    Gauss-Legendre around its midpoint k/S, phi(k/S) * int_{|u|<1/(2S)} exp(-u k/S - u^2/2) du
    (no cancellation: relative error ~ 1e-15 per cell), the partial end cells in mpmath;
    returns (ks int64 array, float64 array)."""
    S = validate.real("S", S, lo=0)
    a = validate.real("a", a)
    b = validate.real("b", b)
    if not a < b:
        raise ValueError(f"a must be < b, got [{a}, {b}]")
    if method not in ("mp", "float"):
        raise ValueError(f"method must be 'mp' or 'float', got {method!r}")
    Sm, am, bm = _mp(S), _mp(a), _mp(b)
    k_lo = int(mpmath.floor(Sm * am + mpmath.mpf(1) / 2))
    k_hi = int(mpmath.ceil(Sm * bm - mpmath.mpf(1) / 2))
    ks = np.arange(k_lo, k_hi + 1, dtype=np.int64)
    if method == "mp":
        Z = normal.mp_Phi_diff(am, bm)
        ps = []
        for k in range(k_lo, k_hi + 1):
            lo = max(am, (k - mpmath.mpf(1) / 2) / Sm)
            hi = min(bm, (k + mpmath.mpf(1) / 2) / Sm)
            ps.append(normal.mp_Phi_diff(lo, hi) / Z if hi > lo else mpmath.mpf(0))
        return ks, ps
    with mpmath.workdps(30):
        Z = float(normal.mp_Phi_diff(am, bm))
    kf = ks.astype(float)
    Sf = float(S)
    lo = np.maximum(float(a), (kf - 0.5) / Sf)
    hi = np.minimum(float(b), (kf + 0.5) / Sf)
    # interior cells have width exactly 1/S and midpoint k/S (no cancellation in hi - lo)
    interior = ((kf - 0.5) / Sf >= float(a)) & ((kf + 0.5) / Sf <= float(b))
    w = np.where(interior, 1.0 / Sf, np.maximum(hi - lo, 0.0))
    mid = np.where(interior, kf / Sf, (lo + hi) / 2)
    nodes, weights = np.polynomial.legendre.leggauss(20)
    u = np.outer(w / 2, nodes)  # offsets from the midpoint
    integ = np.exp(-mid[:, None] * u - u * u / 2) @ weights * (w / 2)
    ps = normal.phi(mid) * integ / Z
    # the (at most two) partial cells at the ends: their widths would cancel in float, so mpmath
    with mpmath.workdps(30):
        Zm = normal.mp_Phi_diff(am, bm)
        for i in np.flatnonzero(~interior):
            k = int(ks[i])
            lo_m = max(am, (k - mpmath.mpf(1) / 2) / Sm)
            hi_m = min(bm, (k + mpmath.mpf(1) / 2) / Sm)
            ps[i] = float(normal.mp_Phi_diff(lo_m, hi_m) / Zm) if hi_m > lo_m else 0.0
    return ks, ps


def quantized_truncated_gaussian_prior(S, L, method: str = "float") -> tuple:
    """Corollary 6.7's prior J = B + Q_S with B = ceil(L S) + 1 (so J >= 1) and Z = Z_L on
    [-L, L].  Returns (ks, ps, B); j* = B."""
    validate.real("L", L, lo=0)
    ks, ps = quantized_truncated_gaussian(S, -L, L, method)
    B = int(mpmath.ceil(_mp(L) * _mp(S))) + 1
    return ks + B, ps, B


# ============================================================================================
# Reference laws (ingredients of Lemma 6.3, priors of Corollary 6.7, additive-noise channels)
# ============================================================================================


def _per_precision(fn: Callable) -> Callable:
    """fn() evaluated once per mpmath working precision (law constants stay exact when a law built
    at one precision is used at another)."""
    cache: dict = {}

    def get():
        key = mpmath.mp.prec
        if key not in cache:
            cache[key] = fn()
        return cache[key]

    return get


def _law(mp_logpdf, np_logpdf, lo, hi, center, scale, sampler, name, cdf=None) -> ContinuousLaw:
    d = CallableDensity(mp_logpdf, lo=lo, hi=hi, center=center, scale=scale, np_logpdf=np_logpdf)
    return ContinuousLaw(d, sampler=sampler, cdf=cdf, name=name)


def laplace_law(mu, b) -> ContinuousLaw:
    """Laplace(mu, b): density exp(-|x - mu|/b)/(2b); h = 1 + log(2b) = log(2e E|W - mu|)."""
    mu = float(validate.real("mu", mu))
    b = float(validate.real("b", b, lo=0))
    mm, bm = _mp(mu), _mp(b)
    return _law(lambda x: -abs(x - mm) / bm - mpmath.log(2 * bm),
                lambda x: -np.abs(x - mu) / b - np.log(2 * b),
                -np.inf, np.inf, mu, b, lambda g, s: g.laplace(mu, b, s), f"Laplace({mu}, {b})",
                cdf=lambda x: np.where(np.asarray(x) < mu, 0.5 * np.exp((np.asarray(x) - mu) / b),
                                       1 - 0.5 * np.exp(-(np.asarray(x) - mu) / b)))


def uniform_law(lo, hi) -> ContinuousLaw:
    """Uniform on (lo, hi)."""
    lo = float(validate.real("lo", lo))
    hi = float(validate.real("hi", hi))
    if not lo < hi:
        raise ValueError(f"lo must be < hi, got ({lo}, {hi})")
    lw = -math.log(hi - lo)
    lwm = _per_precision(lambda: -mpmath.log(_mp(hi) - _mp(lo)))
    return _law(lambda x: lwm(), lambda x: np.full(np.shape(x), lw), lo, hi, (lo + hi) / 2,
                (hi - lo) / 4, lambda g, s: g.uniform(lo, hi, s), f"Uniform({lo}, {hi})")


def logistic_law(mu, s) -> ContinuousLaw:
    """Logistic(mu, s): density e^{-z}/(s (1 + e^{-z})^2), z = (x - mu)/s."""
    mu = float(validate.real("mu", mu))
    s = float(validate.real("s", s, lo=0))
    mm, sm = _mp(mu), _mp(s)

    def mp_lp(x):
        z = abs(x - mm) / sm
        return -z - 2 * mpmath.log1p(mpmath.exp(-z)) - mpmath.log(sm)

    def np_lp(x):
        z = np.abs(np.asarray(x, dtype=float) - mu) / s
        return -z - 2 * np.log1p(np.exp(-z)) - math.log(s)

    return _law(mp_lp, np_lp, -np.inf, np.inf, mu, s, lambda g, n: g.logistic(mu, s, n),
                f"Logistic({mu}, {s})")


def triangular_law(mu, w) -> ContinuousLaw:
    """Symmetric triangular on [mu - w, mu + w] (mode mu): density (w - |x - mu|)/w^2."""
    mu = float(validate.real("mu", mu))
    w = float(validate.real("w", w, lo=0))
    mm, wm = _mp(mu), _mp(w)
    return _law(lambda x: mpmath.log(wm - abs(x - mm)) - 2 * mpmath.log(wm),
                lambda x: np.log(np.maximum(w - np.abs(np.asarray(x, dtype=float) - mu), 1e-300)) - 2 * math.log(w),
                mu - w, mu + w, mu, w / 4, lambda g, n: g.triangular(mu - w, mu, mu + w, n),
                f"Triangular({mu}, {w})")


def cosine_law(w) -> ContinuousLaw:
    """Raised cosine on [-w, w]: density (1 + cos(pi x / w)) / (2w)."""
    w = float(validate.real("w", w, lo=0))
    wm = _mp(w)
    return _law(lambda x: mpmath.log1p(mpmath.cos(mpmath.pi * x / wm)) - mpmath.log(2 * wm),
                lambda x: np.log1p(np.cos(np.pi * np.asarray(x, dtype=float) / w)) - math.log(2 * w),
                -w, w, 0.0, w / 4, None, f"RaisedCosine({w})")


def truncated_laplace_law(L, b) -> ContinuousLaw:
    """Laplace(0, b) conditioned on [-L, L]: density e^{-|x|/b} / (2b (1 - e^{-L/b}))."""
    L = float(validate.real("L", L, lo=0))
    b = float(validate.real("b", b, lo=0))
    Lm, bm = _mp(L), _mp(b)
    lz = _per_precision(lambda: mpmath.log(2 * bm * (-mpmath.expm1(-Lm / bm))))
    lzf = math.log(2 * b * (-math.expm1(-L / b)))
    return _law(lambda x: -abs(x) / bm - lz(), lambda x: -np.abs(np.asarray(x, dtype=float)) / b - lzf,
                -L, L, 0.0, min(b, L / 4), None, f"TruncatedLaplace({L}, {b})")


def truncated_gaussian_law(a, b) -> ContinuousLaw:
    """N(0,1) conditioned on [a, b]."""
    a = float(validate.real("a", a))
    b = float(validate.real("b", b))
    if not a < b:
        raise ValueError(f"a must be < b, got [{a}, {b}]")
    lz = _per_precision(lambda: mpmath.log(normal.mp_Phi_diff(a, b)))
    with mpmath.workdps(30):
        lzf = float(lz())
    center = min(max(0.0, a), b)
    return _law(lambda x: normal.mp_log_phi(x) - lz(), lambda x: normal.log_phi(x) - lzf,
                a, b, center, min(1.0, (b - a) / 4), None, f"TruncatedGaussian({a}, {b})")


# ============================================================================================
# Information quantities of single laws
# ============================================================================================


def differential_entropy(law: Law, breaks=()) -> tuple:
    """h = -int f log f of a continuous law by mpmath quadrature (utility.quad_expectation),
    split at ``breaks`` (kinks).  Returns (value, error estimate)."""
    d = law.density
    if d is None or law.atoms():
        raise ValueError("law must be continuous (a density and no atoms)")
    return quad_expectation(law, lambda x: -d.mp_logpdf(x), breaks)


def law_moments(law: Law, breaks=()) -> tuple:
    """(E X, Var X, error estimate) by mpmath quadrature."""
    m1, e1 = quad_expectation(law, lambda x: x, breaks)
    m2, e2 = quad_expectation(law, lambda x: x * x, breaks)
    return m1, m2 - m1 ** 2, e2 + 2 * abs(m1) * e1 + e1 ** 2


def expected_abs(law: Law, about=0, breaks=()) -> tuple:
    """E|X - about| by mpmath quadrature, split at ``about``.  Returns (value, error)."""
    a = _mp(validate.real("about", about))
    return quad_expectation(law, lambda x: abs(x - a), (a, *breaks))


def probability_at_most(law: Law, t) -> tuple:
    """P(X <= t) from the law's atoms and a quadrature of its density up to t."""
    tm = _mp(validate.real("t", t))
    return quad_expectation(law, lambda x: mpmath.mpf(1) if x <= tm else mpmath.mpf(0), (tm,))


def max_entropy_at_abs_mean(d) -> mpmath.mpf:
    """Lemma 6.3 ingredient: the largest differential entropy with E|W| <= d, log(2 e d)
    (attained by the Laplace law of scale d)."""
    d = validate.real("d", d, lo=0)
    return mpmath.log(2 * mpmath.e * _mp(d))


def uniform_dither_abs_mean() -> mpmath.mpf:
    """Lemma 6.3 ingredient: E|U| = 1/4 for U uniform on [-1/2, 1/2]."""
    return mpmath.mpf(1) / 4


# ============================================================================================
# Two laws: total variation and closed forms
# ============================================================================================


def tv_gaussian_equal_variance(delta, s) -> mpmath.mpf:
    """d_TV(N(mu, s^2), N(mu + delta, s^2)) = 2 Phi(|delta|/(2s)) - 1 (densities cross at the
    midpoint).  Also the released shifted log-Gaussian pair when the crossing lies above the clip."""
    s = validate.real("s", s, lo=0)
    return 2 * normal.mp_Phi(abs(_mp(delta)) / (2 * _mp(s))) - 1


def tv_laplace_equal_scale(delta, b) -> mpmath.mpf:
    """d_TV(Laplace(mu, b), Laplace(mu + delta, b)) = 1 - exp(-|delta|/(2b))."""
    b = validate.real("b", b, lo=0)
    return -mpmath.expm1(-abs(_mp(delta)) / (2 * _mp(b)))


def laplace_renyi(alpha, delta) -> mpmath.mpf:
    """D_alpha(Laplace(0,1) || Laplace(delta,1)) for alpha > 1:
    log( alpha/(2 alpha - 1) e^{(alpha-1)|delta|} + (alpha-1)/(2 alpha - 1) e^{-alpha |delta|} ) / (alpha - 1)."""
    return formulas.laplace_renyi(validate.order(alpha), abs(_mp(delta)))


def laplace_kl(delta) -> mpmath.mpf:
    """KL(Laplace(0,1) || Laplace(delta,1)) = |delta| - 1 + e^{-|delta|}."""
    return formulas.laplace_kl(abs(_mp(delta)))


def pinsker_lower(tv) -> mpmath.mpf:
    """Pinsker: KL >= 2 d_TV^2."""
    return 2 * _mp(tv) ** 2


def _coordinate(pd: Density, qd: Density):
    if not pd.same_coordinate(qd):
        raise ValueError("both densities must share an integration coordinate")


def _t_lo(d: Density):
    lo = getattr(d, "mp_t_lo", lambda: None)()
    if lo is not None:
        return lo
    t = d.t_range()[0]
    return mpmath.mpf(t) if np.isfinite(t) else -mpmath.inf


def _t_hi(d: Density):
    t = d.t_range()[1]
    return mpmath.mpf(t) if np.isfinite(t) else mpmath.inf


def _pair_nodes(pd: Density, qd: Density, breaks=(), crossings: bool = True) -> tuple:
    """Quadrature nodes (in the shared coordinate t) for an integral over two densities: the
    support ends, each centre +- (0, 1, 2, 4, ..., 32) scales, ``breaks`` (x-values: kinks) and,
    if asked, every crossing of the densities (sign changes of log p - log q on an 800-point
    grid, refined by bisection to ~16 eps x scale).  Returns (nodes, lp, lq)."""
    _coordinate(pd, qd)
    lo, hi = min(_t_lo(pd), _t_lo(qd)), max(_t_hi(pd), _t_hi(qd))
    cp, sp = (_mp(v) for v in pd.t_center_scale())
    cq, sq = (_mp(v) for v in qd.t_center_scale())
    scale = min(sp, sq)

    def lp(t):
        return pd.mp_log_integrand_t(t)

    def lq(t):
        return qd.mp_log_integrand_t(t)

    pts = {_t_lo(pd), _t_lo(qd), _t_hi(pd), _t_hi(qd)}
    for c0, s0 in ((cp, sp), (cq, sq)):
        for k in (0, 1, 2, 4, 8, 16, 32):
            pts |= {c0 + k * s0, c0 - k * s0}
    for b in breaks:
        pts.add(pd.to_t(_mp(b)))
    if crossings:
        g_lo = max(lo, min(cp - 40 * sp, cq - 40 * sq))
        g_hi = min(hi, max(cp + 40 * sp, cq + 40 * sq))
        grid = [g_lo + (g_hi - g_lo) * k / 800 for k in range(1, 800)]

        def diff(t):
            a, b = lp(t), lq(t)
            if mpmath.isinf(a) or mpmath.isinf(b):
                return None
            return a - b

        prev_t, prev_v = None, None
        for t in grid:
            v = diff(t)
            if v is None:
                prev_t, prev_v = None, None
                continue
            if prev_v is not None and (v > 0) != (prev_v > 0):
                a, b, va = prev_t, t, prev_v
                for _ in range(300):
                    mid = (a + b) / 2
                    vm = diff(mid)
                    if (vm > 0) == (va > 0):
                        a, va = mid, vm
                    else:
                        b = mid
                    if b - a < scale * mpmath.eps * 16:
                        break
                pts.add((a + b) / 2)
            prev_t, prev_v = t, v
    inner = sorted(p for p in pts if lo < p < hi)
    return [lo] + inner + [hi], lp, lq


def total_variation(P: Law, Q: Law, breaks=()) -> tuple:
    """d_TV(P, Q) = (sum over atoms |p_a - q_a| + int |p - q|) / 2, exactly up to quadrature:
    mpmath tanh-sinh in the laws' shared integration coordinate, split at the support ends, at
    the laws' centres +- (1, 2, 4, ..., 32) scales, at ``breaks`` (x-values: kinks), and at every
    crossing of the two densities.  Returns (value, error estimate)."""
    pa, qa = P.atoms(), Q.atoms()
    s = mpmath.fsum(abs(pa.get(x, 0) - qa.get(x, 0)) for x in set(pa) | set(qa))
    pd, qd = P.density, Q.density
    if pd is None and qd is None:
        return s / 2, mpmath.mpf(0)
    if pd is None or qd is None:
        d = pd if pd is not None else qd
        return (s + d.mass()) / 2, mpmath.mpf(0)
    nodes, lp, lq = _pair_nodes(pd, qd, breaks, crossings=True)

    def f(t):
        a, b = lp(t), lq(t)
        ea = mpmath.exp(a) if a != -mpmath.inf else mpmath.mpf(0)
        eb = mpmath.exp(b) if b != -mpmath.inf else mpmath.mpf(0)
        return abs(ea - eb)

    val, e = mpmath.quad(f, nodes, error=True, maxdegree=10)
    err = abs(e) + 1000 * mpmath.eps * (abs(val) + 1)
    return (s + val) / 2, err / 2


def kl_divergence(P: Law, Q: Law, breaks=()) -> tuple:
    """KL(P || Q) = sum_atoms p_a log(p_a/q_a) + int p log(p/q) by mpmath quadrature on the nodes
    of :func:`_pair_nodes` (support ends, centres +- scales, ``breaks``; kinks of Laplace-type
    densities sit at their centres).  ``inf`` when P charges a point or a set where Q has no mass.
    Returns (value, error estimate)."""
    pa, qa = P.atoms(), Q.atoms()
    s = mpmath.mpf(0)
    for x, p in pa.items():
        q = qa.get(x, mpmath.mpf(0))
        if p > 0 and q == 0:
            return mpmath.inf, mpmath.mpf(0)
        if p > 0:
            s += p * mpmath.log(p / q)
    pd, qd = P.density, Q.density
    if pd is None or pd.mass() == 0:
        return s, 100 * mpmath.eps * (1 + abs(s))
    if qd is None:
        return mpmath.inf, mpmath.mpf(0)
    nodes, lp, lq = _pair_nodes(pd, qd, breaks, crossings=False)
    bad = []

    def f(t):
        a = lp(t)
        if a == -mpmath.inf:
            return mpmath.mpf(0)
        b = lq(t)
        if b == -mpmath.inf:
            bad.append(t)
            return mpmath.mpf(0)
        return mpmath.exp(a) * (a - b)

    val, e = mpmath.quad(f, nodes, error=True, maxdegree=10)
    if bad:
        return mpmath.inf, mpmath.mpf(0)
    return s + val, abs(e) + 1000 * mpmath.eps * (abs(val) + 1)


# ============================================================================================
# Mutual information I(J;Y)
# ============================================================================================


@dataclass
class Information:
    """I(J;Y) with an error bound: |I_n - I_2n| of the composite Gauss-Legendre rule, plus the
    tail beyond the integration window (<= log(1/min p_j) times the mixture mass outside), plus
    float64 rounding."""

    value: float
    error: float
    method: str
    tail_mass: float = 0.0

    def __float__(self):
        return float(self.value)


def _np_coord(key):
    """(x(t), log dx/dt) in numpy for a coordinate key of countdp.laws."""
    if key == ("identity",):
        return (lambda t: t), (lambda t: np.zeros_like(t))
    if key[0] == "log-shift":
        c = float(key[1])
        return (lambda t: np.exp(t) - c), (lambda t: t)
    raise ValueError(f"unsupported integration coordinate {key!r}")


def _channel_laws(prior, channel):
    ks, ps = _pmf_arrays(prior)
    keep = [(k, p) for k, p in zip(ks, ps) if p > 0]
    ks = [k for k, _ in keep]
    ps = [p for _, p in keep]
    laws = [channel(k) for k in ks]
    return ks, ps, laws


def mutual_information(prior, channel: Callable, breaks=(), span: float = 40.0,
                       order: int = 24) -> Information:
    """I(J;Y) = sum_j p_j [ sum_atoms a_j log(a_j/a_mix) + int f_j log(f_j/f_mix) ] for a finitely
    supported prior {j: p_j} and ``channel(j)`` -> the law of Y given J = j (continuous or mixed:
    atoms plus a density; all densities in one integration coordinate).

    The density part is integrated in float64 over [min_j(c_j - span s_j), max_j(c_j + span s_j)]
    (c_j, s_j: centre and scale of each component) with Gauss-Legendre of ``order`` and
    2 ``order`` nodes on panels split at every component's centre +- (0.5, 1, 2, 3, 5, 8, 13, 21)
    scales, support ends and ``breaks`` (x-values).  The integrand sum_j p_j f_j log(f_j/f_mix)
    is pointwise in [0, f_mix log(1/min p_j)], so the part outside the window is bounded by the
    missing mixture mass times log(1/min p_j)."""
    ks, ps, laws = _channel_laws(prior, channel)
    pf = np.array([float(p) for p in ps])
    if abs(pf.sum() - 1) > 1e-9:
        raise ValueError(f"prior must sum to 1, got {pf.sum()}")
    # atoms, exactly
    atom_locs = set()
    for law in laws:
        atom_locs |= set(law.atoms())
    atom_part = mpmath.mpf(0)
    atom_mass = mpmath.mpf(0)
    for x in atom_locs:
        a = [law.atoms().get(x, mpmath.mpf(0)) for law in laws]
        mix = mpmath.fsum(_mp(p) * aj for p, aj in zip(ps, a))
        atom_mass += mix
        atom_part += mpmath.fsum(_mp(p) * aj * mpmath.log(aj / mix) for p, aj in zip(ps, a) if aj > 0)
    dens = [law.density for law in laws]
    idx = [i for i, d in enumerate(dens) if d is not None and d.mass() > 0]
    if not idx:
        return Information(float(atom_part), 1e-15, "exact sum over atoms")
    keys = {dens[i].coordinate_key() for i in idx}
    if len(keys) != 1:
        raise ValueError("all component densities must share one integration coordinate")
    to_x, log_jac = _np_coord(keys.pop())
    d0 = dens[idx[0]]
    cs = np.array([float(dens[i].t_center_scale()[0]) for i in idx])
    ss = np.array([float(dens[i].t_center_scale()[1]) for i in idx])
    t_lo = min(float(_t_lo(dens[i])) for i in idx)
    t_hi = max(float(_t_hi(dens[i])) for i in idx)
    A = max(t_lo, float(np.min(cs - span * ss)))
    B = min(t_hi, float(np.max(cs + span * ss)))
    pts = [A, B]
    for k in (0, 0.5, 1, 2, 3, 5, 8, 13, 21):
        pts.extend(cs + k * ss)
        pts.extend(cs - k * ss)
    for i in idx:
        for end in (float(_t_lo(dens[i])), float(_t_hi(dens[i]))):
            if np.isfinite(end):
                pts.append(end)
    for b in breaks:
        pts.append(float(d0.to_t(_mp(b))))
    pts = np.unique(np.clip(np.array(pts, dtype=float), A, B))
    pts = pts[np.concatenate([[True], np.diff(pts) > 1e-12 * max(1.0, float(np.max(np.abs(pts))))])]
    if pts[-1] < B:
        pts = np.append(pts, B)
    logp = np.log(pf[idx])

    def rule(nq):
        xg, wg = np.polynomial.legendre.leggauss(nq)
        lo_, hi_ = pts[:-1], pts[1:]
        half = (hi_ - lo_) / 2
        t = ((lo_ + hi_) / 2)[:, None] + half[:, None] * xg[None, :]
        w = (half[:, None] * wg[None, :]).ravel()
        t = t.ravel()
        x = to_x(t)
        lj = log_jac(t)
        with np.errstate(divide="ignore", invalid="ignore"):
            lf = np.array([dens[i].logpdf(x) for i in idx]) + lj[None, :]
        lf = np.where(np.isnan(lf), -np.inf, lf)
        lw = lf + logp[:, None]
        mx = np.max(lw, axis=0)
        mxs = np.where(np.isfinite(mx), mx, 0.0)
        lmix = mxs + np.log(np.sum(np.exp(lw - mxs[None, :]), axis=0))
        with np.errstate(invalid="ignore"):
            terms = np.where(np.isfinite(lf), np.exp(lw) * (lf - lmix[None, :]), 0.0)
        integrand = np.sum(terms, axis=0)
        mix = np.where(np.isfinite(mx), np.exp(lmix), 0.0)
        return float(np.dot(w, integrand)), float(np.dot(w, mix))

    i1, _ = rule(order)
    i2, mass_in = rule(2 * order)
    total_mass = float(atom_mass) + mass_in
    tail = max(0.0, 1.0 - total_mass)
    val = float(atom_part) + i2
    err = abs(i1 - i2) + tail * math.log(1 / pf.min()) + 1e-14 * (1 + abs(val))
    return Information(val, err, f"Gauss-Legendre {order}/{2 * order} on {len(pts) - 1} panels"
                       + (" plus atoms" if atom_locs else ""), tail)


def mutual_information_mc(prior, channel: Callable, rng: np.random.Generator,
                          draws: int = 200_000) -> MCEstimate:
    """Monte Carlo of I(J;Y) = E log(p(Y|J)/p_mix(Y)): J from the prior, Y from
    ``channel(J).sample`` (the laws' own samplers); atoms are recognised by exact equality."""
    ks, ps, laws = _channel_laws(prior, channel)
    pf = np.array([float(p) for p in ps])
    pf = pf / pf.sum()
    atom_locs = sorted(set().union(*[set(law.atoms()) for law in laws]))
    atom_f = [float(x) for x in atom_locs]
    A = np.array([[float(law.atoms().get(x, 0)) for x in atom_locs] for law in laws]) \
        if atom_locs else np.zeros((len(laws), 0))

    def draw(g, m):
        js = g.choice(len(laws), size=m, p=pf)
        y = np.empty(m)
        for i in range(len(laws)):
            sel = js == i
            if sel.any():
                y[sel] = laws[i].sample(g, int(sel.sum()))
        lf = np.full((len(laws), m), -np.inf)
        at_atom = np.zeros(m, dtype=bool)
        for a_i, xa in enumerate(atom_f):
            hit = y == xa
            if hit.any():
                with np.errstate(divide="ignore"):
                    lf[:, hit] = np.log(A[:, a_i])[:, None]
                at_atom |= hit
        cont = ~at_atom
        if cont.any():
            for i, law in enumerate(laws):
                if law.density is not None:
                    lf[i, cont] = law.density.logpdf(y[cont])
        lw = lf + np.log(pf)[:, None]
        mx = np.max(lw, axis=0)
        lmix = mx + np.log(np.sum(np.exp(lw - mx[None, :]), axis=0))
        return lf[js, np.arange(m)] - lmix

    return mc_mean(draw, rng, draws)


def estimator_error(prior, channel: Callable, offset=0, per_count: Callable | None = None) -> tuple:
    """D = E|J - Jt(Y)| for the estimator Jt(Y) = Y - offset: sum_j p_j E|Y_j - (offset + j)|,
    by mpmath quadrature of each law (or ``per_count(j)`` = E|Y_j - (offset + j)| when given, e.g.
    a closed form).  Returns (D, error)."""
    ks, ps, laws = _channel_laws(prior, channel)
    off = _mp(offset)
    total, err = mpmath.mpf(0), mpmath.mpf(0)
    for k, p, law in zip(ks, ps, laws):
        if per_count is not None:
            v, e = _mp(per_count(k)), mpmath.mpf(0)
        else:
            v, e = expected_abs(law, off + k)
        total += _mp(p) * v
        err += _mp(p) * e
    return total, err + mpmath.eps * 100 * (1 + total)


# ============================================================================================
# Closed forms for pairs of a log-space translation mechanism (Proposition 6.2's chain)
# ============================================================================================


def _log_distance(mech, n, m):
    cc = _mp(mech.c)
    return mpmath.log((validate.count("m", m) + cc) / (validate.count("n", n) + cc))


def unclipped_pair_tv(mech, n, m) -> mpmath.mpf:
    """d_TV(U_n, U_m) in closed form for a mechanism that translates log(U + c) by log(n + c):
    equal-variance Gaussians (shifted log-Gaussian, eq 10) or equal-scale Laplace laws
    (:class:`LogLaplaceMechanism`).  The released (clipped) pair has the same value whenever the
    densities cross above the clip point (the clipped region lies where the lower count's law
    dominates)."""
    delta = _log_distance(mech, n, m)
    if isinstance(mech, LogLaplaceMechanism):
        return tv_laplace_equal_scale(delta, mech.mp_b())
    return tv_gaussian_equal_variance(delta, mech.mp_sigma())


def unclipped_pair_kl(mech, n, m) -> mpmath.mpf:
    """KL(U_n || U_m) in closed form: log^2((m+c)/(n+c))/(2 sigma^2) (eq 12 at alpha -> 1) or the
    Laplace KL |Delta| - 1 + e^{-|Delta|}, Delta = log((m+c)/(n+c))/b.  An upper bound for the
    released pair (clipping is postprocessing)."""
    delta = _log_distance(mech, n, m)
    if isinstance(mech, LogLaplaceMechanism):
        return laplace_kl(delta / mech.mp_b())
    return delta ** 2 / (2 * mech.mp_sigma() ** 2)


def released_cdf(mech, n, y) -> mpmath.mpf:
    """P_n(Y <= y), y >= 0, from the mechanism's closed-form cdf (shifted log-Gaussian or
    log-Laplace)."""
    if isinstance(mech, LogLaplaceMechanism):
        return mech.mp_cdf_released(n, y)
    validate.real("y", y, lo=0, lo_open=False)
    return mech.released_law(n).base.mp_cdf(y)


# ============================================================================================
# A second admissible mechanism: log-Laplace noise
# ============================================================================================


class LogShiftedLaplaceDensity(LogShiftDensity):
    """Density of U = exp(T) - c with T ~ Laplace(mu, b), restricted to U > lo:
    f(u) = exp(-|log(u + c) - mu|/b) / (2 b (u + c)).  Quadrature coordinate t = log(u + c) (the
    bookkeeping of countdp.laws.LogShiftDensity); the kink of the Laplace law is a node."""

    noise_kinks = (0,)

    def __init__(self, mu, b, c, lo=None):
        super().__init__(mu, b, c, lo, scale_name="b")

    @property
    def b(self):
        return self.s

    def mp_noise_logpdf(self, z):
        return -abs(z) - mpmath.log(2)

    def noise_logpdf(self, z):
        return -np.abs(z) - math.log(2)

    def mp_noise_sf(self, z):
        return _laplace_sf(z)

    def mp_noise_cdf(self, z):
        return _laplace_sf(-z)  # the Laplace law is symmetric: no 1 - sf cancellation


def _laplace_sf(z):
    """P(L > z) for L standard Laplace."""
    z = _mp(z)
    return mpmath.exp(-z) / 2 if z >= 0 else 1 - mpmath.exp(z) / 2


def _laplace_cdf(z):
    """P(L <= z) for L standard Laplace (each side without cancellation)."""
    z = _mp(z)
    return mpmath.exp(z) / 2 if z < 0 else 1 - mpmath.exp(-z) / 2


class LogLaplaceMechanism:
    """Y = [(n + c) exp(b L) - c]_+ with L standard Laplace (density e^{-|l|}/2), ``0 < r0 < r < 1``,
    ``c > 0``: a second admissible mechanism for the two-count chain of Proposition 6.2.

    * Before clipping, log(U_n + c) ~ Laplace(log(n + c), b): a translation family, so every
      D_alpha is finite in both directions.
    * Utility: E|e^{bL} - 1| = b/(1 - b^2) (for b < 1); b solves (1 + c) b/(1 - b^2) = r0, so
      E|Y - n| <= E|U_n - n| = (n + c) r0/(1 + c) <= r0 n < r n for n >= 1 (clipping cannot increase
      the distance to n >= 0).
    * Privacy: on edge n-1 <-> n the log-likelihood ratio is bounded by eps_n = log((n+c)/(n-1+c))/b,
      so the edge is eps_n-DP, hence (eps_n^2/2)-zCDP (Bun and Steinke 2016, Prop. 3.3), in both
      directions; clipping is postprocessing.  Budget v(n) = eps_n^2 / 2, nonincreasing, v(0) = v(1).
    """

    def __init__(self, r0, c, r=None):
        c = validate.real("c", c, lo=0)
        if r is not None:
            r = validate.real("r", r, lo=0, hi=1)
            r0 = validate.real("r0", r0, lo=0, hi=r)
        else:
            r0 = validate.real("r0", r0, lo=0, hi=1)
        self.r0, self.c, self.r = r0, c, r

    def __repr__(self):
        return f"LogLaplaceMechanism(r0={self.r0!r}, c={self.c!r}, r={self.r!r})"

    def mp_b(self):
        """The Laplace scale: the root in (0, 1) of (1 + c) b/(1 - b^2) = r0,
        b = 2 kappa / (1 + sqrt(1 + 4 kappa^2)) with kappa = r0/(1 + c)."""
        kappa = _mp(self.r0) / (1 + _mp(self.c))
        return 2 * kappa / (1 + mpmath.sqrt(1 + 4 * kappa ** 2))

    @property
    def b(self) -> float:
        with mpmath.workdps(30):
            return float(self.mp_b())

    def mp_eps(self, n):
        """eps_n = log((n + c)/(n - 1 + c)) / b (n = 0 uses n = 1)."""
        n = validate.count("n", n)
        n = max(n, 1)
        return mpmath.log1p(1 / (n - 1 + _mp(self.c))) / self.mp_b()

    def mp_v(self, n):
        """v(n) = eps_n^2 / 2."""
        return self.mp_eps(n) ** 2 / 2

    def v(self, n) -> float:
        with mpmath.workdps(30):
            return float(self.mp_v(n))

    def v_array(self, ns) -> np.ndarray:
        ns = validate.counts("n", ns)
        eps = np.log1p(1.0 / (np.maximum(ns, 1) - 1 + float(self.c))) / self.b
        return eps * eps / 2

    def abs_multiplicative_error(self):
        """E|e^{bL} - 1| = b/(1 - b^2)."""
        b = self.mp_b()
        return b / (1 - b * b)

    def expected_abs_error_unclipped(self, n):
        """E|U_n - n| = (n + c) b/(1 - b^2) = (n + c) r0/(1 + c)."""
        n = validate.count("n", n)
        return (n + _mp(self.c)) * self.abs_multiplicative_error()

    def log_mean(self, n):
        return mpmath.log(validate.count("n", n) + _mp(self.c))

    def unclipped_law(self, n) -> ContinuousLaw:
        mu, b, c = self.log_mean(n), self.mp_b(), _mp(self.c)
        muf, bf, cf = float(mu), float(b), float(c)
        d = LogShiftedLaplaceDensity(mu, b, c)
        return ContinuousLaw(d, sampler=lambda g, s: np.exp(g.laplace(muf, bf, s)) - cf,
                             name="exp(Laplace(mu, b)) - c")

    def released_law(self, n) -> MixedLaw:
        """[U_n]_+: atom at 0 of mass P(L <= log(c/(n+c))/b) plus the density on (0, inf)."""
        mu, b, c = self.log_mean(n), self.mp_b(), _mp(self.c)
        atom = _laplace_cdf((mpmath.log(c) - mu) / b)
        muf, bf, cf = float(mu), float(b), float(c)
        return MixedLaw({0: atom}, LogShiftedLaplaceDensity(mu, b, c, lo=0),
                        sampler=lambda g, s: np.maximum(np.exp(g.laplace(muf, bf, s)) - cf, 0.0),
                        name="[exp(Laplace(mu, b)) - c]_+")

    def mp_cdf_released(self, n, y):
        """P(Y_n <= y) in closed form (y >= 0)."""
        y = _mp(validate.real("y", y, lo=0, lo_open=False))
        return _laplace_cdf((mpmath.log(y + _mp(self.c)) - self.log_mean(n)) / self.mp_b())


__all__ = [
    "exact_r", "C_r", "C_r_minus_one", "C_r_exact", "two_count_m", "two_count_m_array",
    "two_count_bound", "two_count_bound_exact", "two_count_bound_array", "TWO_COUNT_ARRAY_RTOL",
    "two_count_limit", "two_count_limit_remainder", "two_count_threshold", "markov_bounds",
    "markov_sum", "information_lower_bound", "utility_information_bound", "many_count_bound",
    "shannon_entropy", "prior_moments", "many_count_bound_for_prior", "uniform_prior",
    "binomial_prior", "uniform_bound", "best_odd_K", "odd_K_near", "uniform_limit",
    "uniform_opt_a", "uniform_opt_value", "uniform_over_two_count_factor", "maximise",
    "maximise_uniform_limit", "truncated_gaussian_stats", "h_L", "tau2_L", "x_L",
    "prior_coefficient", "cor67_value", "cor67_limit", "cor67_remainder", "bound30",
    "bound30_bracket", "maximise_bound30", "quantized_truncated_gaussian",
    "quantized_truncated_gaussian_prior", "laplace_law", "uniform_law", "logistic_law",
    "triangular_law", "cosine_law", "truncated_laplace_law", "truncated_gaussian_law",
    "differential_entropy", "law_moments", "expected_abs", "probability_at_most",
    "max_entropy_at_abs_mean", "uniform_dither_abs_mean", "tv_gaussian_equal_variance",
    "tv_laplace_equal_scale", "laplace_renyi", "laplace_kl", "pinsker_lower", "total_variation",
    "kl_divergence",
    "Information", "mutual_information", "mutual_information_mc", "estimator_error",
    "unclipped_pair_tv", "unclipped_pair_kl", "released_cdf",
    "LogShiftedLaplaceDensity", "LogLaplaceMechanism",
]
