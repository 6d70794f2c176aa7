"""Limits, rates and constants of Sections 5.1, 6.5 (eq 32) and 8 of the paper.

Three kinds of object live here:

* sequence tools: polynomial (Richardson / Neville) extrapolation to h -> 0 with an error
  estimate and propagation of the inputs' own errors (:func:`richardson`), and the spread
  max/min of a sequence (:func:`spread`) used to show that a scaled quantity stays bounded over
  decades;
* the quantities whose limits the paper states, computed from the mechanism numerically
  (:func:`large_count_limit`, :func:`iterated_limit`, :func:`inverse_half_remainder`,
  :func:`small_r_remainder`, :func:`released_bias`, ...), next to the paper's closed-form limits
  (:func:`fixed_c_constant`, :func:`boundary_asymptote`, the Table 2 constants);
* the optimisation templates that produce the Table 2 constants (the two-count template of
  Section 8, eq 24 at r -> 0, eq 30 at r -> 0) and numerical maximisers for them, so that every
  constant can be reached by a second route.

All functions raise ValueError naming a bad parameter and its range.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

import mpmath
import numpy as np

from .numerics import normal
from .numerics import validate
from .mechanisms import ShiftedLogGaussian

# ============================================================================================
# Sequence tools
# ============================================================================================


@dataclass
class Extrapolation:
    """A limit estimate: ``value`` with an absolute ``error`` (Richardson difference plus the
    propagated errors of the inputs), and the sequence it came from."""

    value: mpmath.mpf
    error: mpmath.mpf
    hs: list = field(default_factory=list)
    values: list = field(default_factory=list)

    def __float__(self) -> float:
        return float(self.value)


def _neville_at_zero(xs, ys):
    """Value at x = 0 of the interpolating polynomial through (xs, ys) (Neville's scheme)."""
    p = list(ys)
    n = len(xs)
    for k in range(1, n):
        for i in range(n - k):
            p[i] = (xs[i + k] * p[i] - xs[i] * p[i + 1]) / (xs[i + k] - xs[i])
    return p[0]


def _lagrange_weights_at_zero(xs):
    w = []
    for i, xi in enumerate(xs):
        prod = mpmath.mpf(1)
        for j, xj in enumerate(xs):
            if j != i:
                prod *= xj / (xj - xi)
        w.append(prod)
    return w


def richardson(hs: Sequence, values: Sequence, errors: Sequence | None = None) -> Extrapolation:
    """Extrapolate ``values[k] = L + a_1 h_k + a_2 h_k^2 + ...`` to h = 0 (polynomial
    extrapolation through all points; for an expansion in h^2 pass ``hs`` squared).

    The error estimate is ``|T_all - T_without_the_coarsest_point|`` (the change from dropping
    the point farthest from 0) plus ``sum_i |l_i(0)| errors[i]`` (the inputs' errors carried
    through the Lagrange weights)."""
    if len(hs) != len(values) or len(hs) < 2:
        raise ValueError("hs and values must have the same length >= 2")
    xs = [mpmath.mpf(h) for h in hs]
    if len(set(xs)) != len(xs) or any(x == 0 for x in xs):
        raise ValueError("hs must be distinct and nonzero")
    ys = [mpmath.mpf(v) for v in values]
    order = sorted(range(len(xs)), key=lambda i: -abs(xs[i]))  # coarsest first
    xs = [xs[i] for i in order]
    ys = [ys[i] for i in order]
    errs = [mpmath.mpf(0)] * len(xs) if errors is None else [mpmath.mpf(errors[i]) for i in order]
    full = _neville_at_zero(xs, ys)
    fewer = _neville_at_zero(xs[1:], ys[1:])
    w = _lagrange_weights_at_zero(xs)
    carried = mpmath.fsum(abs(wi) * ei for wi, ei in zip(w, errs))
    floor = mpmath.mpf(10) ** (-(mpmath.mp.dps - 3)) * (1 + abs(full)) * mpmath.fsum(abs(wi) for wi in w)
    return Extrapolation(full, abs(full - fewer) + carried + floor, list(xs), list(ys))


def spread(values: Sequence):
    """max/min of a sequence of positive numbers: a scaled quantity that is Theta(1) over the
    decades sampled has a spread of a few units; a wrong power of the variable makes it grow by a
    factor 10^(error in the power) per decade."""
    vals = [mpmath.mpf(v) for v in values]
    if not vals:
        raise ValueError("values must not be empty")
    if any(not v > 0 for v in vals):
        raise ValueError("values must all be > 0 for a spread (ratio max/min)")
    return max(vals) / min(vals)


def decades(lo_exp: int, hi_exp: int, base: int = 10) -> list[int]:
    """base^k for k = lo_exp..hi_exp (integers), e.g. counts n = 10, ..., 10^8."""
    if hi_exp < lo_exp:
        raise ValueError("hi_exp must be >= lo_exp")
    return [base ** k for k in range(lo_exp, hi_exp + 1)]


# ============================================================================================
# Section 5.1: the large-count coefficient and its limits
# ============================================================================================


def _guard_digits(mech: ShiftedLogGaussian) -> int:
    x = mpmath.mpf(mech.r0) / (2 * (1 + mpmath.mpf(mech.c)))
    return 10 + max(0, int(-mpmath.log10(x)))


def sigma_accurate(mech: ShiftedLogGaussian):
    """sigma of eq (3) to the working precision *relative* to sigma.

    ``normal.mp_Phi_inv`` is accurate to ~10^-dps in absolute terms near p = 1/2, so for small
    r0/(1+c) the mechanism's ``mp_sigma`` carries a relative error ~10^-dps / sigma; here it is
    evaluated with guard digits (the mechanism caches sigma per precision)."""
    with mpmath.workdps(mpmath.mp.dps + _guard_digits(mech)):
        s = mech.mp_sigma()
    return +s


def budget_accurate(mech: ShiftedLogGaussian, n):
    """v(n) of eqs (5)-(6) with sigma from :func:`sigma_accurate` (relative working precision)."""
    n = validate.count("n", n)
    with mpmath.workdps(mpmath.mp.dps + _guard_digits(mech)):
        v = mech.mp_v(n)
    return +v


def scaled_budget(mech: ShiftedLogGaussian, n, r=1):
    """``r^2 n^2 v(n)`` from the mechanism's budget (eq 6), via :func:`budget_accurate`."""
    n = validate.count("n", n, lo=1)
    r = mpmath.mpf(validate.real("r", r, lo=0))
    return r * r * mpmath.mpf(n) ** 2 * budget_accurate(mech, n)


def large_count_limit(mech: ShiftedLogGaussian, r=1, exps=(2, 3, 4, 5, 6, 7, 8)) -> Extrapolation:
    """``lim_{n->inf} r^2 n^2 v(n)`` by Richardson extrapolation in h = 1/n of the sequence at
    n = 10^k, k in ``exps`` (n^2 log^2(1 + 1/(n-1+c)) is a power series in 1/n)."""
    ns = [10 ** int(k) for k in exps]
    vals = [scaled_budget(mech, n, r) for n in ns]
    return richardson([mpmath.mpf(1) / n for n in ns], vals)


def iterated_limit(family: Callable, hs: Sequence, exps=(2, 3, 4, 5, 6, 7, 8), r=None) -> Extrapolation:
    """``lim_{h->0} lim_{n->inf} r^2 n^2 v_h(n)`` for a family ``family(h) -> (r0, c)``: the inner
    limit per h by :func:`large_count_limit`, the outer by Richardson in h (the inner errors are
    carried through).  With ``r=None`` the tolerance is r = h (the r -> 0 limits of Section 5.1
    and eq 32); with a fixed r, h is another parameter (e.g. r0 = r(1-h), c = h: eq 13's regime)."""
    if len(hs) < 2:
        raise ValueError("hs must hold at least two values")
    inner = []
    for h in hs:
        r0, c = family(h)
        inner.append(large_count_limit(ShiftedLogGaussian(r0, c), h if r is None else r, exps))
    out = richardson(list(hs), [e.value for e in inner], [e.error for e in inner])
    out.values = [e.value for e in inner]
    return out


def large_count_coefficient(r0, c, r):
    """Theorem 3.1(iii): ``lim_n r^2 n^2 v(n) = r^2 / (2 sigma^2)`` with sigma of eq (3)."""
    r = mpmath.mpf(validate.real("r", r, lo=0, hi=1, hi_open=False))
    sigma = sigma_accurate(ShiftedLogGaussian(r0, c))
    return r * r / (2 * sigma * sigma)


def fixed_c_constant(c):
    """Section 5.1: fixed c, n -> inf then r -> 0 with r0/r -> 1: ``lim r^2 n^2 v(n) = (1+c)^2/pi``
    (c = 1: 4/pi)."""
    c = mpmath.mpf(validate.real("c", c, lo=0))
    return (1 + c) ** 2 / mpmath.pi


def sigma_small_r(r, c):
    """Section 5.1: ``sigma ~ (r/(1+c)) sqrt(pi/2)`` as r -> 0 with r0/r -> 1."""
    r = mpmath.mpf(validate.real("r", r, lo=0, hi=1, hi_open=False))
    c = mpmath.mpf(validate.real("c", c, lo=0))
    return r / (1 + c) * mpmath.sqrt(mpmath.pi / 2)


def boundary_asymptote(r, c):
    """Section 5.1: the boundary cost ``v(1) ~ (1+c)^2/(pi r^2) log^2((1+c)/c)`` as r -> 0."""
    r = mpmath.mpf(validate.real("r", r, lo=0, hi=1, hi_open=False))
    c = mpmath.mpf(validate.real("c", c, lo=0))
    return (1 + c) ** 2 / (mpmath.pi * r * r) * mpmath.log((1 + c) / c) ** 2


def inverse_half(r):
    """``Phi^{-1}((1+r)/2)`` to the working precision *relative* to its size (Newton on the normal
    cdf, normal.mp_Phi_inv).  normal.mp_Phi_inv is accurate to ~10^-dps in absolute terms near
    p = 1/2 (its residual Phi(x) - p cancels), so it is run with guard digits for small r."""
    r = mpmath.mpf(validate.real("r", r, lo=0, hi=1))
    guard = 10 + int(max(0, -mpmath.log10(r)))
    with mpmath.workdps(mpmath.mp.dps + guard):
        x = normal.mp_Phi_inv((1 + r) / 2)
    return +x


def inverse_half_remainder(r):
    """eq (13): the remainder ``Phi^{-1}((1+r)/2) - r sqrt(pi/2)`` (claimed O(r^3)), to the working
    precision relative to r^3 (the subtraction cancels ~2 log10(1/r) digits: guard digits)."""
    r = mpmath.mpf(validate.real("r", r, lo=0, hi=1))
    guard = 10 + 3 * int(max(0, -mpmath.log10(r)))
    with mpmath.workdps(mpmath.mp.dps + guard):
        rem = inverse_half(r) - r * mpmath.sqrt(mpmath.pi / 2)
    return +rem


def regime_two_coefficient(r):
    """Section 5.1, second regime (fixed r, r0 -> r, c -> 0): the large-count coefficient of
    ``r^2 n^2 v(n)`` tends to ``r^2 / (2 Phi^{-1}((1+r)/2)^2)``."""
    r = mpmath.mpf(validate.real("r", r, lo=0, hi=1))
    return r * r / (2 * inverse_half(r) ** 2)


# -- power series (for the Maclaurin coefficients of erfinv) --------------------------------

def _series_mul(a, b, order):
    out = [mpmath.mpf(0)] * (order + 1)
    for i, ai in enumerate(a[: order + 1]):
        if ai == 0:
            continue
        for j, bj in enumerate(b[: order + 1 - i]):
            out[i + j] += ai * bj
    return out


def _series_reciprocal(a, order):
    if a[0] == 0:
        raise ValueError("series must have a nonzero constant term to be inverted")
    out = [mpmath.mpf(0)] * (order + 1)
    out[0] = 1 / a[0]
    for k in range(1, order + 1):
        s = mpmath.fsum(a[j] * out[k - j] for j in range(1, min(k, len(a) - 1) + 1))
        out[k] = -s / a[0]
    return out


def erf_series(order: int) -> list:
    """Maclaurin coefficients of erf: ``erf(y) = (2/sqrt(pi)) sum_k (-1)^k y^(2k+1) / (k! (2k+1))``."""
    order = validate.count("order", order, lo=1)
    b = [mpmath.mpf(0)] * (order + 1)
    for k in range((order - 1) // 2 + 1):
        b[2 * k + 1] = 2 / mpmath.sqrt(mpmath.pi) * (-1) ** k / (mpmath.factorial(k) * (2 * k + 1))
    return b


def reverse_series(b: Sequence, order: int) -> list:
    """Coefficients of the compositional inverse g of ``f(y) = sum_{k>=1} b_k y^k`` (b_0 = 0,
    b_1 != 0), by Lagrange inversion: ``[x^m] g = (1/m) [y^(m-1)] (y / f(y))^m``."""
    order = validate.count("order", order, lo=1)
    b = [mpmath.mpf(v) for v in b]
    if len(b) < 2 or b[0] != 0 or b[1] == 0:
        raise ValueError("b must have b_0 = 0 and b_1 != 0")
    f_over_y = b[1:] + [mpmath.mpf(0)] * (order + 1)
    base = _series_reciprocal(f_over_y[: order + 1], order)  # y / f(y)
    a = [mpmath.mpf(0)] * (order + 1)
    power = [mpmath.mpf(1)] + [mpmath.mpf(0)] * order
    for m in range(1, order + 1):
        power = _series_mul(power, base, order)
        a[m] = power[m - 1] / m
    return a


def inverse_half_series(order: int = 7) -> list:
    """Maclaurin coefficients of ``Phi^{-1}((1+r)/2) = sqrt(2) erfinv(r)``, with erfinv's series
    obtained by reversing erf's (so ``[r^1] = sqrt(pi/2)``, ``[r^3] = sqrt(pi/2) pi/12``)."""
    a = reverse_series(erf_series(order), order)
    return [mpmath.sqrt(2) * x for x in a]


# ============================================================================================
# Section 6.5 / Table 2: the constants and the templates that produce them
# ============================================================================================


def two_count_constant():
    """Table 2 / Section 8: the two-count (Markov + Pinsker) constant 1/128 (Proposition 6.2, eq 15
    at r -> 0)."""
    return mpmath.mpf(1) / 128


def uniform_prior_constant():
    """Table 2 / Corollary 6.5, eq (25): the uniform many-count constant 3/(2 e^3)."""
    return 3 / (2 * mpmath.e ** 3)


def truncated_gaussian_constant():
    """Table 2 / Corollary 6.7, eq (29): the truncated-Gaussian-prior constant pi/(4 e^2)."""
    return mpmath.pi / (4 * mpmath.e ** 2)


def upper_constant():
    """Table 2 / eq (32): the shifted log-Gaussian upper constant 1/pi (family r0 = r(1-r), c = r)."""
    return 1 / mpmath.pi


def constant_ratio():
    """eq (32): the ratio of the bounds (1/pi) / (pi/(4 e^2)) = 4 e^2 / pi^2 (about 2.995)."""
    return 4 * mpmath.e ** 2 / mpmath.pi ** 2


def table2_constants() -> dict:
    """Table 2: the four small-r coefficients, smallest first."""
    return {"two-count": two_count_constant(), "uniform prior": uniform_prior_constant(),
            "truncated Gaussian prior": truncated_gaussian_constant(),
            "shifted log-Gaussian (upper)": upper_constant()}


def upper_family(r):
    """eq (32): the admissible family r0(r) = r(1 - r), c(r) = r."""
    r = validate.real("r", r, lo=0, hi=1)
    return r * (1 - r), r


def two_count_template(a, theta):
    """Section 8: the two-count template ``(2/a^2) (1 - 1/(a theta (1-theta)))_+^2``
    (m - n = a r n, threshold t = n + theta (m - n), small-r limit of Markov + Pinsker)."""
    a = mpmath.mpf(validate.real("a", a, lo=0))
    theta = mpmath.mpf(validate.real("theta", theta, lo=0, hi=1))
    inner = 1 - 1 / (a * theta * (1 - theta))
    return 2 / (a * a) * (inner ** 2 if inner > 0 else mpmath.mpf(0))


def uniform_prior_template(a):
    """eq (24) at r -> 0: ``(12/a^2) [log(a/(2e))]_+`` (its maximum is eq 25)."""
    a = mpmath.mpf(validate.real("a", a, lo=0))
    br = mpmath.log(a / (2 * mpmath.e))
    return 12 / (a * a) * (br if br > 0 else mpmath.mpf(0))


def gaussian_prior_template(x, h, tau2):
    """eq (30) at r -> 0: ``[log x + h - log(2e)]_+ / (x^2 tau^2)`` for a limiting prior of entropy h
    and variance tau^2."""
    x = mpmath.mpf(validate.real("x", x, lo=0))
    tau2 = mpmath.mpf(validate.real("tau2", tau2, lo=0))
    br = mpmath.log(x) + mpmath.mpf(h) - mpmath.log(2 * mpmath.e)
    return (br if br > 0 else mpmath.mpf(0)) / (x * x * tau2)


def normal_entropy_and_variance():
    """(h(Z), Var Z) of the standard normal by mpmath quadrature of -phi log phi and z^2 phi
    (not the closed forms), with an error estimate: the limit prior of Corollary 6.7."""
    h, eh = mpmath.quad(lambda z: -mpmath.npdf(z) * normal.mp_log_phi(z), [-mpmath.inf, -4, 0, 4, mpmath.inf],
                        error=True)
    v, ev = mpmath.quad(lambda z: z * z * mpmath.npdf(z), [-mpmath.inf, -4, 0, 4, mpmath.inf], error=True)
    return h, v, abs(eh) + abs(ev)


@dataclass
class Optimum:
    """A numerically located maximum: the argmax, the value, and the spread over the starts."""

    argmax: tuple
    value: mpmath.mpf
    error: mpmath.mpf
    starts: list = field(default_factory=list)
    found: list = field(default_factory=list)


def _polish(f: Callable, x0: Sequence):
    """Polish a float optimum by Newton on the gradient (mpmath.diff) at the working precision."""
    k = len(x0)
    if k == 1:
        g = lambda x: mpmath.diff(f, x)  # noqa: E731
        x = mpmath.findroot(g, mpmath.mpf(x0[0]), tol=mpmath.mpf(10) ** (-(mpmath.mp.dps - 4)))
        return (x,)

    def grad(*xs):
        return [mpmath.diff(lambda *ys: f(*ys), xs, tuple(1 if j == i else 0 for j in range(k)))
                for i in range(k)]

    x = mpmath.findroot(grad, [mpmath.mpf(v) for v in x0], tol=mpmath.mpf(10) ** (-(mpmath.mp.dps - 8)))
    return tuple(x[i] for i in range(k))


def _multistart(fun: Callable, starts: Sequence, bounds: Sequence):
    """Nelder-Mead (scipy) on -fun from each start, clipped to the box; returns the float optima."""
    from scipy import optimize

    lo = np.array([b[0] for b in bounds], dtype=float)
    hi = np.array([b[1] for b in bounds], dtype=float)

    def neg(x):
        x = np.asarray(x, dtype=float)
        if np.any(x <= lo) or np.any(x >= hi):
            return 1e3
        return -float(fun(*x))

    out = []
    for s in starts:
        res = optimize.minimize(neg, np.asarray(s, dtype=float), method="Nelder-Mead",
                                options={"xatol": 1e-10, "fatol": 1e-16, "maxiter": 20000})
        out.append((tuple(float(v) for v in res.x), -float(res.fun)))
    return out


def maximise_two_count(starts=((5.0, 0.3), (20.0, 0.6), (10.0, 0.45), (40.0, 0.2), (6.5, 0.75))) -> Optimum:
    """Maximise :func:`two_count_template` over (a, theta) numerically: Nelder-Mead from several
    starts (inside the region a theta (1-theta) > 1 where it is positive), then Newton on the
    gradient at the working precision from the best start."""
    found = _multistart(lambda a, t: two_count_template(a, t), starts, [(0, 1e4), (0, 1)])
    best = max(found, key=lambda p: p[1])
    a, t = _polish(lambda a, t: two_count_template(a, t), best[0])
    val = two_count_template(a, t)
    spread_vals = max(abs(v - float(val)) for _, v in found)
    return Optimum((a, t), val, mpmath.mpf(10) ** (-(mpmath.mp.dps - 8)), list(starts),
                   [(x, v, spread_vals) for x, v in found])


def maximise_uniform_prior(starts=(6.0, 12.0, 30.0)) -> Optimum:
    """Maximise :func:`uniform_prior_template` over a (eq 25): Nelder-Mead from several starts, then
    Newton on the derivative."""
    found = _multistart(lambda a: uniform_prior_template(a), [(s,) for s in starts], [(2 * float(mpmath.e), 1e4)])
    best = max(found, key=lambda p: p[1])
    (a,) = _polish(uniform_prior_template, best[0])
    return Optimum((a,), uniform_prior_template(a), mpmath.mpf(10) ** (-(mpmath.mp.dps - 6)),
                   list(starts), found)


def maximise_gaussian_prior(starts=(3.0, 6.0, 15.0)) -> Optimum:
    """Maximise :func:`gaussian_prior_template` over x with h(Z), Var Z of the standard normal from
    quadrature (Corollary 6.7's L -> inf limit): the optimum is the constant pi/(4e^2) if eq (31)
    and the entropy step are right."""
    h, tau2, qerr = normal_entropy_and_variance()
    f = lambda x: gaussian_prior_template(x, h, tau2)  # noqa: E731
    found = _multistart(f, [(s,) for s in starts], [(float(2 * mpmath.e / mpmath.exp(h)), 1e4)])
    best = max(found, key=lambda p: p[1])
    (x,) = _polish(f, best[0])
    val = f(x)
    # the value's sensitivity to h and tau2: d/dh = 1/(x^2 tau2) at the optimum, d/dtau2 = -val/tau2
    err = qerr * (1 / (x * x * tau2) + val / tau2) + mpmath.mpf(10) ** (-(mpmath.mp.dps - 6))
    return Optimum((x,), val, err, list(starts), found)


def lower_bound_constant(r):
    """Theorem 1.1 / eq (15): ``liminf n^2 v(n) >= (1-r)^6 / (128 r^2 (1+r)^2)``."""
    r = mpmath.mpf(validate.real("r", r, lo=0, hi=1))
    return (1 - r) ** 6 / (128 * r * r * (1 + r) ** 2)


def constant_release_error(n):
    """Proposition 2.3: the error of the data-independent release 1/2 at count n: |n - 1/2|."""
    n = validate.count("n", n)
    return abs(mpmath.mpf(n) - mpmath.mpf(1) / 2)


# ============================================================================================
# Section 8: small r, bias
# ============================================================================================


def _remainder_fn(sigma):
    s = mpmath.mpf(sigma)
    return lambda z: mpmath.expm1(s * z - s * s) - s * z


def small_r_remainder(sigma):
    """``E|exp(sigma Z - sigma^2) - 1 - sigma Z|`` by mpmath quadrature against phi.

    The function g(z) = exp(sigma z - sigma^2) - 1 - sigma z is convex with minimum -sigma^2 at
    z = sigma, so it has two roots; both are found by root-finding and |g| phi is integrated on
    the three pieces.  g ~ sigma^2 is the difference of terms ~ sigma, so the work is done with
    10 + log10(1/sigma) guard digits.  Returns (value, error) at the working precision."""
    s = mpmath.mpf(validate.real("sigma", sigma, lo=0))
    dps = mpmath.mp.dps
    guard = 10 + max(0, int(-mpmath.log10(s)))
    with mpmath.workdps(dps + guard):
        g = _remainder_fn(s)
        # roots: g(sigma) < 0, g -> +inf on both sides
        lo = s - 1
        while g(lo) <= 0:
            lo = s - 2 * (s - lo)
        hi = s + 1
        while g(hi) <= 0:
            hi = s + 2 * (hi - s)
        tol = mpmath.mpf(10) ** (-(dps + guard - 3))
        z1 = mpmath.findroot(g, (lo, s), solver="anderson", tol=tol)
        z2 = mpmath.findroot(g, (s, hi), solver="anderson", tol=tol)
        f = lambda z: abs(g(z)) * mpmath.npdf(z)  # noqa: E731
        pieces = [[-mpmath.inf, z1 - 8, z1 - 2, z1], [z1, s, z2], [z2, z2 + 2, z2 + 8, mpmath.inf]]
        total, err = mpmath.mpf(0), mpmath.mpf(0)
        for p in pieces:
            v, e = mpmath.quad(f, p, error=True)
            total += v
            err += abs(e)
    err += mpmath.mpf(10) ** (-(dps - 3)) * total
    return +total, +err


def small_r_remainder_limit():
    """The sigma -> 0 limit of ``E|exp(sigma Z - sigma^2) - 1 - sigma Z| / sigma^2``: the second-order
    term is sigma^2 (Z^2/2 - 1), so the limit is ``E|Z^2/2 - 1| = 1/2 + 2 (sqrt(2) phi(sqrt(2)) - Phi(-sqrt(2)))``."""
    a = mpmath.sqrt(2)
    return mpmath.mpf(1) / 2 + 2 * (a * mpmath.npdf(a) - mpmath.ncdf(-a))


def small_r_remainder_draws(sigma) -> Callable:
    """A sampler ``draw(rng, m)`` of ``|exp(sigma Z - sigma^2) - 1 - sigma Z| / sigma^2`` (float64,
    expm1 against cancellation) for Monte Carlo with :func:`countdp.utility.mc_mean`."""
    s = float(validate.real("sigma", sigma, lo=0))

    def draw(rng, m):
        z = rng.standard_normal(m)
        return np.abs(np.expm1(s * z - s * s) - s * z) / (s * s)

    return draw


def unclipped_bias(mech: ShiftedLogGaussian, n):
    """Section 8: ``E U_n - n = (n+c) E exp(sigma Z + drift) - c - n``; for the paper's drift
    -sigma^2 this is ``(n+c)(exp(-sigma^2/2) - 1) < 0``."""
    n = validate.count("n", n)
    s, d, c = mech.mp_sigma(), mech.mp_drift(), mpmath.mpf(mech.c)
    return (n + c) * mpmath.exp(d + s * s / 2) - c - n


def released_bias(mech: ShiftedLogGaussian, n):
    """``E[U_n]_+ - n`` in closed form: the unclipped bias minus ``E[U_n 1{U_n < 0}]``, where with
    W = sigma Z + drift ~ N(m, sigma^2) and w0 = log(c/(n+c)),
    ``E[U_n 1{U_n<0}] = (n+c) e^{m + sigma^2/2} Phi((w0 - m - sigma^2)/sigma) - c Phi((w0 - m)/sigma)``."""
    n = validate.count("n", n)
    s, m, c = mech.mp_sigma(), mech.mp_drift(), mpmath.mpf(mech.c)
    w0 = mpmath.log(c / (n + c))
    neg = (n + c) * mpmath.exp(m + s * s / 2) * normal.mp_Phi((w0 - m - s * s) / s) \
        - c * normal.mp_Phi((w0 - m) / s)
    return unclipped_bias(mech, n) - neg


__all__ = [
    "Extrapolation", "richardson", "spread", "decades",
    "sigma_accurate", "budget_accurate", "scaled_budget", "large_count_limit", "iterated_limit", "large_count_coefficient",
    "fixed_c_constant", "sigma_small_r", "boundary_asymptote", "inverse_half",
    "inverse_half_remainder", "regime_two_coefficient", "erf_series", "reverse_series",
    "inverse_half_series",
    "two_count_constant", "uniform_prior_constant", "truncated_gaussian_constant", "upper_constant",
    "constant_ratio", "table2_constants", "upper_family", "two_count_template",
    "uniform_prior_template", "gaussian_prior_template", "normal_entropy_and_variance", "Optimum",
    "maximise_two_count", "maximise_uniform_prior", "maximise_gaussian_prior",
    "lower_bound_constant", "constant_release_error",
    "small_r_remainder", "small_r_remainder_limit", "small_r_remainder_draws",
    "unclipped_bias", "released_bias",
]
