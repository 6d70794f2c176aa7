"""Baselines and boundary mathematics: Sections 2 and 7 of the paper.

* Section 2 -- the data-independent release of Proposition 2.3 (``xhat = 1/2`` at every count)
  with its exact error, the utility targets of eqs (1)-(2) in exact rational arithmetic, the
  Renyi divergence of finitely supported laws straight from the definition, and the moments a
  weak version of eq (1) at count 0 constrains (``E|X|``, the mass off 0, tail masses).
* Section 7 -- the unequal-variance Gaussian mechanism ``X_n ~ N(n, r^2 n^2)`` of eq (33) with
  ``X_0 = delta_0``; the order threshold ``(n+1)^2/(2n+1)`` of eq (35) as a formula; and the
  density-level tools that locate it without that formula: the quadratic coefficient of
  ``log(p^alpha q^(1-alpha))`` computed from the two log-densities, truncated Renyi integrals
  over ``[-T, T]`` with rigorous bounds (a convex sandwich that grows with ``T`` at and above
  the threshold; a concave tail remainder below it).

Every public function validates its input (``ValueError`` naming the parameter and range).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable

import mpmath
import numpy as np

from ..numerics import validate
from ..laws import Gaussian, Law, PointMass
from ..laws.expectation import quad_expectation

INF = mpmath.mpf("inf")

# ============================================================================================
# Exact rationals and mpmath numbers
# ============================================================================================


def to_fraction(name: str, x) -> Fraction:
    """An exact rational from an int, a Fraction, a decimal string, a float (its exact binary
    value) or an mpf (its exact binary value); ValueError otherwise."""
    if isinstance(x, bool):
        raise ValueError(f"{name} must be a real number, got {x!r}")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, str):
        try:
            return Fraction(x)
        except ValueError:
            raise ValueError(f"{name} must be a rational number, got {x!r}") from None
    if isinstance(x, mpmath.mpf):
        if not mpmath.isfinite(x):
            raise ValueError(f"{name} must be finite, got {x!r}")
        man, exp = x.man_exp  # man is the magnitude; the sign is separate
        val = Fraction(int(man)) * (Fraction(2) ** int(exp))
        return -val if x < 0 else val
    if isinstance(x, (float, np.floating)):
        if not np.isfinite(x):
            raise ValueError(f"{name} must be finite, got {x!r}")
        return Fraction(float(x))
    raise ValueError(f"{name} must be a real number, got {x!r}")


def _directed(q: Fraction, rnd) -> mpmath.mpf:
    """The rational q rounded at the current precision in direction ``rnd`` (libmp rounding)."""
    return mpmath.mpf(mpmath.libmp.from_rational(q.numerator, q.denominator, mpmath.mp.prec, rnd))


def mpf_at_least(x) -> mpmath.mpf:
    """The smallest mpf >= the rational x at the current precision (rounding upwards)."""
    return _directed(to_fraction("x", x), mpmath.libmp.round_ceiling)


def mpf_below(x) -> mpmath.mpf:
    """The largest mpf < the rational x at the current precision (strictly below)."""
    q = to_fraction("x", x)
    y = _directed(q, mpmath.libmp.round_floor)
    if to_fraction("y", y) == q:  # q is representable: step just below it
        tiny = (abs(q) if q != 0 else Fraction(1)) / Fraction(2) ** (mpmath.mp.prec + 10)
        y = _directed(q - tiny, mpmath.libmp.round_floor)
    return y


# ============================================================================================
# Section 2: utility targets, the data-independent release, divergence on atoms
# ============================================================================================


def literal_target(r, n) -> Fraction:
    """The right-hand side of eq (1): ``r n`` (exact)."""
    r = to_fraction("r", r)
    validate.real("r", r, lo=0)
    return r * validate.count("n", n)


def repaired_target(r, n) -> Fraction:
    """The right-hand side of eq (2): ``r max(n, 1)`` (exact)."""
    r = to_fraction("r", r)
    validate.real("r", r, lo=0)
    return r * max(validate.count("n", n), 1)


class DataIndependentRelease:
    """Proposition 2.3: release the constant ``value`` (default 1/2) whatever the data.

    The output law is the point mass at ``value`` at every count, so every Renyi divergence
    between neighbours is 0 and the budget is ``v == 0``; the error at count n is
    ``|value - n|`` exactly."""

    def __init__(self, value=Fraction(1, 2)):
        self.value = to_fraction("value", value)

    def __repr__(self):
        return f"DataIndependentRelease(value={self.value})"

    def released_law(self, n) -> PointMass:
        """The law of the release at count n: delta_value (the same law for every n)."""
        validate.count("n", n)
        return PointMass(mpmath.mpf(self.value.numerator) / self.value.denominator)

    def exact_error(self, n) -> Fraction:
        """E|xhat - n| = |value - n| exactly."""
        return abs(self.value - validate.count("n", n))

    def v(self, n) -> int:
        """The count-dependent budget: identically 0 (the law does not depend on the data)."""
        validate.count("n", n)
        return 0

    def release(self, counts, rng: np.random.Generator | None = None) -> np.ndarray:
        """Release a histogram: the constant at every coordinate (``rng`` is not used)."""
        x = validate.counts("counts", counts)
        return np.full(x.shape, float(self.value))

    def margins(self, r, n_max: int, literal: bool = False) -> dict:
        """Exact margins ``target(n) - |value - n|`` for every n = 0..n_max, vectorised.

        ``target`` is ``r max(n,1)`` (eq 2), or ``r n`` (eq 1) with ``literal=True``.  With
        ``value = p/q`` and ``r = u/w`` the margin is ``(u q m(n) - w |p - q n|) / (w q)``; the
        numerators are int64 (Python integers when int64 could overflow), so the sweep is exact.  Returns the
        minimum margin (Fraction), the first n attaining it, the number of counts where the
        strict inequality fails (margin <= 0) and the first such count (or None)."""
        r = to_fraction("r", r)
        validate.real("r", r, lo=0)
        n_max = validate.count("n_max", n_max)
        if n_max > 10**8:
            raise ValueError(f"n_max must be an integer in [0, 10^8] (one array entry per count), got {n_max}")
        p, q = self.value.numerator, self.value.denominator
        u, w = r.numerator, r.denominator
        bound = max(abs(u * q) * max(n_max, 1), abs(w) * (abs(p) + q * n_max))
        dtype = np.int64 if bound < 2 ** 62 else object  # Python integers when int64 could overflow
        n = np.arange(n_max + 1, dtype=np.int64).astype(dtype)
        m = n if literal else np.maximum(n, 1)
        num = u * q * m - w * np.abs(p - q * n)
        i = int(np.argmin(num))
        bad = np.nonzero(num <= 0)[0]
        return {
            "min_margin": Fraction(int(num[i]), w * q),
            "argmin": i,
            "violations": int(bad.size),
            "first_violation": int(bad[0]) if bad.size else None,
            "counts": n_max + 1,
        }


def renyi_atoms(p: dict, q: dict, alpha) -> tuple:
    """D_alpha(P || Q) of two finitely supported laws straight from the definition:
    ``1/(alpha-1) log sum_x p(x)^alpha q(x)^(1-alpha)``, with the convention that a point where
    ``p > 0 = q`` makes the sum infinite.  Masses may be Fractions (exact for integer alpha).

    Returns ``(value, reason)``: ``(inf, reason)`` on a support mismatch, else ``(mpf, None)``."""
    alpha_v = validate.order(alpha)
    for name, d in (("p", p), ("q", q)):
        if not d or any(to_fraction(name, m) < 0 for m in d.values()):
            raise ValueError(f"{name} must be a nonempty table of masses >= 0")
    for x, px in p.items():
        if px > 0 and q.get(x, 0) == 0:
            return INF, f"support mismatch: P has mass {px} at {x} where Q has none"
    integer_order = isinstance(alpha_v, (int, np.integer)) or (
        isinstance(alpha_v, Fraction) and alpha_v.denominator == 1)
    if integer_order and all(isinstance(m, (int, Fraction)) for m in [*p.values(), *q.values()]):
        a = int(alpha_v)
        total = sum((Fraction(px) ** a * Fraction(q[x]) ** (1 - a) for x, px in p.items() if px > 0),
                    Fraction(0))
        if total == 1:
            return mpmath.mpf(0), None
        return mpmath.log(mpmath.mpf(total.numerator) / total.denominator) / (a - 1), None
    a = mpmath.mpf(alpha_v) if not isinstance(alpha_v, Fraction) else \
        mpmath.mpf(alpha_v.numerator) / alpha_v.denominator

    def mp(v):
        if isinstance(v, mpmath.mpf):
            return v
        f = to_fraction("mass", v)
        return mpmath.mpf(f.numerator) / f.denominator

    total = mpmath.fsum(mp(px) ** a * mp(q[x]) ** (1 - a) for x, px in p.items() if px > 0)
    return mpmath.log(total) / (a - 1), None


def _no_table(law: Law) -> bool:
    """An integer law given only by its pmf (no finite atom table): quad_expectation would see
    neither atoms nor a density there and return 0."""
    return bool(law.integer) and not law.atoms()


def abs_moment(law: Law, center=0) -> tuple:
    """E|X - center| from the law's atoms and density (quadrature split at ``center``):
    ``(value, error estimate)``.  Integer laws need a finite atom table (e.g. FinitePmf)."""
    c = mpmath.mpf(validate.real("center", center))
    if _no_table(law):
        raise ValueError("law must have atoms or a density (an integer law given only by its pmf "
                         "has no finite table to sum)")
    return quad_expectation(law, lambda x: abs(x - c), breaks=(c,))


def mass_off(law: Law, x=0) -> tuple:
    """P(X != x): the atoms away from x plus the mass of the density part (by quadrature of 1);
    for an integer law given by its pmf, ``1 - pmf(x)`` exactly."""
    x = mpmath.mpf(validate.real("x", x))
    if _no_table(law):
        at = law.mp_pmf(int(x)) if x == mpmath.floor(x) else mpmath.mpf(0)
        return 1 - at, 4 * mpmath.eps
    return quad_expectation(law, lambda y: mpmath.mpf(0) if y == x else mpmath.mpf(1), breaks=(x,))


def tail_mass(law: Law, t) -> tuple:
    """P(|X| > t) for t > 0, from atoms and density (quadrature split at +-t)."""
    t = mpmath.mpf(validate.real("t", t, lo=0))
    if _no_table(law):
        raise ValueError("law must have atoms or a density (pmf-only integer laws are not summed here)")
    return quad_expectation(law, lambda y: mpmath.mpf(1) if abs(y) > t else mpmath.mpf(0), breaks=(-t, t))


def indicator_pushforward(law: Law, x=0) -> tuple:
    """The law of ``1{X != x}`` as a two-point table ``{0: P(X = x), 1: P(X != x)}`` (masses as
    mpf, from :func:`mass_off`), and the quadrature error.  By data processing, a Renyi
    divergence between pushforwards lower-bounds the divergence between the laws."""
    off, err = mass_off(law, x)
    return {0: 1 - off, 1: off}, err


# ============================================================================================
# Section 7: the unequal-variance Gaussian mechanism
# ============================================================================================


class UnequalVarianceGaussian:
    """eq (33): ``X_n ~ N(n, r^2 n^2)`` for n >= 1 and ``X_0 = N(0, 0) = delta_0``."""

    def __init__(self, r):
        self.r = validate.real("r", r, lo=0)

    def __repr__(self):
        return f"UnequalVarianceGaussian(r={self.r!r})"

    def law(self, n) -> Law:
        """The output law at count n (delta_0 at n = 0)."""
        n = validate.count("n", n)
        if n == 0:
            return PointMass(0)
        return Gaussian(n, mpmath.mpf(self.r) * n)

    def expected_abs_error(self, n):
        """E|X_n - n| = r n sqrt(2/pi) (the scale of eq 2 at positive counts)."""
        n = validate.count("n", n)
        return mpmath.mpf(self.r) * n * mpmath.sqrt(2 / mpmath.pi)

    def sample(self, n, rng: np.random.Generator, size) -> np.ndarray:
        n = validate.count("n", n)
        return n + float(self.r) * n * rng.standard_normal(size)


def unequal_variance_threshold(n) -> Fraction:
    """eq (35): the reverse divergence D_alpha(X_{n+1} || X_n) is finite iff
    ``alpha < (n+1)^2 / (2n+1)`` (n >= 1); returned exactly."""
    n = validate.count("n", n, lo=1)
    return Fraction((n + 1) ** 2, 2 * n + 1)


def eq34_margin(alpha, s_p, s_q):
    """The quantity of eq (34): ``alpha s_Q^2 + (1 - alpha) s_P^2`` (finite iff > 0)."""
    a = mpmath.mpf(validate.order(alpha))
    s_p = mpmath.mpf(validate.real("s_p", s_p, lo=0))
    s_q = mpmath.mpf(validate.real("s_q", s_q, lo=0))
    return a * s_q ** 2 + (1 - a) * s_p ** 2


def _density_pair(P: Law, Q: Law):
    for name, L in (("P", P), ("Q", Q)):
        if L.density is None or L.atoms():
            raise ValueError(f"{name} must be a law with a density and no atoms, got {L.describe()}")
    return P.density, Q.density


def log_renyi_integrand(P: Law, Q: Law, alpha) -> Callable:
    """x -> alpha log p(x) + (1 - alpha) log q(x), from the laws' mpmath log-densities."""
    pd, qd = _density_pair(P, Q)
    a = mpmath.mpf(validate.order(alpha))
    return lambda x: a * pd.mp_logpdf(x) + (1 - a) * qd.mp_logpdf(x)


def quadratic_coefficient(P: Law, Q: Law, alpha, x0=0, h=None) -> tuple:
    """``k`` with ``log(p^alpha q^(1-alpha)) = -k x^2 + b x + const`` for two Gaussian laws,
    measured from the log-densities by second and first differences at x0 with step h (exact
    for a quadratic up to rounding; h defaults to the larger of the two scales).

    Returns ``(k, b, noise)``: ``noise`` bounds the rounding in k (64 ulps of the two terms
    alpha log p and (1 - alpha) log q at the three nodes, over h^2), so ``|k| <= noise`` means
    the sign is unresolved at this precision.  The Renyi integral converges iff k > 0 (the
    criterion Lemma 7.1 rests on)."""
    pd, qd = _density_pair(P, Q)
    a = mpmath.mpf(validate.order(alpha))
    x0 = mpmath.mpf(validate.real("x0", x0))
    if h is None:
        h = max(pd.t_center_scale()[1], qd.t_center_scale()[1])
    h = mpmath.mpf(validate.real("h", h, lo=0))
    g, size = [], mpmath.mpf(0)
    for x in (x0 - h, x0, x0 + h):
        tp, tq = a * pd.mp_logpdf(x), (1 - a) * qd.mp_logpdf(x)
        g.append(tp + tq)
        size += abs(tp) + abs(tq)
    k = -(g[2] - 2 * g[1] + g[0]) / (2 * h * h)
    b = (g[2] - g[0]) / (2 * h) + 2 * k * x0
    noise = 64 * mpmath.eps * (size + 1) / (h * h)
    return k, b, noise


def locate_order_threshold(P: Law, Q: Law, lo=None, hi=None, rtol=None, maxiter=400) -> tuple:
    """Bisection on alpha for the order where the quadratic coefficient of
    ``log(p^alpha q^(1-alpha))`` (from the densities) changes sign from positive to <= 0.

    Uses no formula for the threshold: only the two log-densities.  ``lo`` defaults to
    1 + 2^-20 (must be integrable), ``hi`` to the first of 2, 4, 8, ... that is not (``lo`` then
    moves up to the last integrable power of two).  Returns
    ``(a_lo, a_hi, iterations)`` with k(a_lo) > noise and k(a_hi) <= noise; stops when
    ``a_hi - a_lo <= rtol * a_hi`` (default 10^-(dps - 8)).  Raises ValueError when no sign
    change is found below 2^60 (e.g. s_P <= s_Q: integrable at every order)."""
    lo = 1 + mpmath.mpf(2) ** -20 if lo is None else mpmath.mpf(validate.order(lo))
    rtol = mpmath.mpf(10) ** (-(mpmath.mp.dps - 8)) if rtol is None else \
        mpmath.mpf(validate.real("rtol", rtol, lo=0))

    def positive(a):
        k, _, noise = quadratic_coefficient(P, Q, a)
        return k > noise

    if not positive(lo):
        raise ValueError("lo must lie on the integrable side (positive quadratic coefficient)")
    if hi is None:
        hi = mpmath.mpf(2)
        while positive(hi):
            lo, hi = hi, 2 * hi
            if hi > mpmath.mpf(2) ** 60:
                raise ValueError("no sign change of the quadratic coefficient below alpha = 2^60")
    else:
        hi = mpmath.mpf(validate.order(hi))
        if positive(hi):
            raise ValueError("hi must lie on the non-integrable side (quadratic coefficient <= 0)")
    if not lo < hi:
        raise ValueError(f"lo must be < hi, got lo={lo}, hi={hi}")
    it = 0
    while hi - lo > rtol * hi and it < maxiter:
        mid = (lo + hi) / 2
        if positive(mid):
            lo = mid
        else:
            hi = mid
        it += 1
    return lo, hi, it


def _g_and_slope(g: Callable, x):
    return g(x), mpmath.diff(g, x)


def log_integrand_rounding(P: Law, Q: Law, alpha, T) -> mpmath.mpf:
    """An absolute bound on the rounding of g(x) = alpha log p(x) + (1-alpha) log q(x) for |x| <= T:
    64 ulps of the larger of |alpha log p| + |(1-alpha) log q| at x = -T, 0, T (the two terms are
    quadratics in x, largest in size at an end, and cancel heavily near the threshold).  Quadrature
    error estimates do not see this; it enters log I(T) and the bounds as an absolute error."""
    pd, qd = _density_pair(P, Q)
    a = mpmath.mpf(validate.order(alpha))
    T = mpmath.mpf(validate.real("T", T, lo=0))
    size = max(abs(a * pd.mp_logpdf(x)) + abs((1 - a) * qd.mp_logpdf(x)) for x in (-T, mpmath.mpf(0), T))
    return 64 * mpmath.eps * (size + 1)


def truncated_renyi_integral(P: Law, Q: Law, alpha, T) -> tuple:
    """``log I(T)`` with ``I(T) = integral_{-T}^{T} p^alpha q^(1-alpha) dx`` by mpmath tanh-sinh
    quadrature of the densities (nodes at the peak of the integrand when inside the window and
    geometrically towards both ends, the integrand scaled by its largest value).

    Returns ``(log I, absolute error of log I)``: mpmath's estimate and the rounding of ~10^3
    summed nodes (relative to I), plus :func:`log_integrand_rounding` (the rounding of the
    log-integrand itself, which shifts every node's value)."""
    T = mpmath.mpf(validate.real("T", T, lo=0))
    g = log_renyi_integrand(P, Q, alpha)
    k, b, noise = quadratic_coefficient(P, Q, alpha)
    pts = {-T, T, mpmath.mpf(0)}
    for L in (P, Q):
        c, s = L.density.t_center_scale()
        pts |= {c + j * s for j in (-8, -2, 0, 2, 8)}
    cands = [g(-T), g(T)]
    if k > noise:
        xs = b / (2 * k)
        w = 1 / mpmath.sqrt(2 * k)
        pts |= {xs + j * w for j in (-24, -8, -3, -1, 0, 1, 3, 8, 24)}
        if -T < xs < T:
            cands.append(g(xs))
    for end, sgn in ((T, -1), (-T, 1)):
        slope = mpmath.diff(g, end)
        if slope * sgn < 0:  # the integrand grows towards this end: nodes piling up there
            pts |= {end + sgn * 2 ** j / abs(slope) for j in range(-1, 48, 3)}
    nodes = sorted(p for p in pts if -T <= p <= T)
    gref = max(cands)
    val, err = mpmath.quad(lambda x: mpmath.exp(g(x) - gref), nodes, error=True)
    err = abs(err) + 1000 * mpmath.eps * abs(val)
    return gref + mpmath.log(val), err / val + log_integrand_rounding(P, Q, alpha, T)


def truncated_bounds_convex(P: Law, Q: Law, alpha, T) -> tuple:
    """Rigorous bounds on ``log I(T)`` when ``g = log(p^alpha q^(1-alpha))`` is convex (the
    quadratic coefficient is <= 0: at and above the finiteness threshold).

    lower: a tangent line at either end lies below g, so
        I(T) >= max(e^{g(T)} (1 - e^{-2T g'(T)}) / g'(T), e^{g(-T)} (e^{2T g'(-T)} - 1) / g'(-T));
    upper: a convex g is largest at an end, so I(T) <= 2T max(e^{g(T)}, e^{g(-T)}).
    Both grow like max(g(T), g(-T)); returns (log lower, log upper, g(T), g(-T), rounding) with
    ``rounding`` the absolute error of the two logs from :func:`log_integrand_rounding`."""
    T = mpmath.mpf(validate.real("T", T, lo=0))
    g = log_renyi_integrand(P, Q, alpha)
    k, _, noise = quadratic_coefficient(P, Q, alpha)
    if k > noise:
        raise ValueError("alpha must lie at or above the threshold (g convex) for these bounds")
    gT, dT = _g_and_slope(g, T)
    gmT, dmT = _g_and_slope(g, -T)

    def log_phi(b, sign):
        # log of (1 - e^{-2Tb})/b (sign=+1, tangent at T) or (e^{2Tb} - 1)/b (tangent at -T)
        if b == 0:
            return mpmath.log(2 * T)
        if sign > 0:
            return mpmath.log(-mpmath.expm1(-2 * T * b) / b)
        return mpmath.log(mpmath.expm1(2 * T * b) / b)

    lower = max(gT + log_phi(dT, 1), gmT + log_phi(dmT, -1))
    upper = mpmath.log(2 * T) + max(gT, gmT)
    return lower, upper, gT, gmT, 2 * log_integrand_rounding(P, Q, alpha, T)


def tail_remainder(P: Law, Q: Law, alpha, T) -> mpmath.mpf:
    """A bound on ``integral_{|x| > T} p^alpha q^(1-alpha)`` when g is concave (quadratic
    coefficient >= 0) and decreasing outward at both ends: by concavity
    ``int_T^inf e^g <= e^{g(T)} / |g'(T)|`` (and the same at -T).  Returns ``inf`` when g is
    not concave or does not decrease outward at an end (no such bound: the tail may diverge)."""
    T = mpmath.mpf(validate.real("T", T, lo=0))
    g = log_renyi_integrand(P, Q, alpha)
    k, _, noise = quadratic_coefficient(P, Q, alpha)
    if k < -noise:
        return INF
    gT, dT = _g_and_slope(g, T)
    gmT, dmT = _g_and_slope(g, -T)
    if not (dT < 0 and dmT > 0):
        return INF
    return mpmath.exp(gT) / (-dT) + mpmath.exp(gmT) / dmT


def renyi_from_truncation(P: Law, Q: Law, alpha, T) -> tuple:
    """D_alpha from the truncated integral and the concave tail remainder:
    ``D in [log I(T), log(I(T) + R(T))] / (alpha - 1)`` widened by the error of log I(T).
    Returns ``(midpoint, half-width)``; ``(inf, inf)`` when no remainder bound exists."""
    a = mpmath.mpf(validate.order(alpha))
    logI, e = truncated_renyi_integral(P, Q, a, T)
    R = tail_remainder(P, Q, a, T)
    if mpmath.isinf(R):
        return INF, INF
    lo = (logI - e) / (a - 1)
    hi = (logI + e + mpmath.log1p(R * mpmath.exp(-(logI + e)))) / (a - 1)
    return (lo + hi) / 2, (hi - lo) / 2


__all__ = [
    "to_fraction", "mpf_at_least", "mpf_below", "literal_target", "repaired_target",
    "DataIndependentRelease", "renyi_atoms", "abs_moment", "mass_off", "tail_mass",
    "indicator_pushforward", "UnequalVarianceGaussian",
    "unequal_variance_threshold", "eq34_margin", "log_renyi_integrand", "quadratic_coefficient",
    "locate_order_threshold", "log_integrand_rounding", "truncated_renyi_integral", "truncated_bounds_convex",
    "tail_remainder", "renyi_from_truncation", "INF",
]
