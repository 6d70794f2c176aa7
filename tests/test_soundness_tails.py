"""Soundness of the proven tail bounds of countdp.arb and of the enclosures that use them.

1. Each bound -- (G+), (G-), (Q+), (Q+) mirrored, (N) for k = 0, 1, 2 (countdp.arb.integrals) and
   (R4) (countdp.arb.airy_score) -- against the same tail by mpmath quadrature at 50 digits, on a
   grid from large tails (cut-off next to the peak, where the bound is what separates a true
   enclosure from a false one) to small ones (where the bound is within 1 % of the tail).  The
   same check applied to the bound times 0.99 must find a violation: a bound 1 % too small is
   detected.  Far out in the tails (closed forms in erfc) each bound is within 0.5 % of its tail.
2. Each enclosure that adds such a tail (log-Gaussian integrals, the means of the release, the
   small-noise remainder, drift integrals, Gaussian Renyi and mass integrals, the integral route of
   the Gaussian-pair Renyi integral) with its cut-off
   moved next to the peak (``tail_width`` / the window patched small), so the tail is a large
   part of the integral: the enclosure must still contain the value by mpmath quadrature.  A
   tail added with the wrong sign, or dropped, excludes it.
"""

from __future__ import annotations

from typing import Callable

import mpmath
import pytest
from flint import arb, ctx

from _ball_reference import exact
from countdp.arb import (airy_score, drift, gaussian_integrals, gaussian_renyi, integrals, log_gaussian, means,
                         small_noise)

DPS = 50


def _mpf(x: arb) -> mpmath.mpf:
    return mpmath.mpf(x.mid().str(DPS + 10, radius=False))


def _quad(f, a, b=mpmath.inf, points=(0.5, 2, 8)):
    """int_a^b f by mpmath at 50 digits, in t = x - a (the tail's scale is set by its start)."""
    if b == mpmath.inf:
        return mpmath.quad(lambda t: f(a + t), [0, *points, mpmath.inf])
    return mpmath.quad(f, mpmath.linspace(a, b, 9))


# --------------------------------------------------------------------------------------------
# 1. the bounds themselves
# --------------------------------------------------------------------------------------------

def _gplus(L, b):
    return _quad(lambda x: mpmath.exp(-x * x / 2 + b * x), mpmath.mpf(L))


def _gminus(L, b):  # int_-inf^L exp(-x^2/2 + b x) dx = int_{-L}^inf exp(-x^2/2 - b x) dx
    return _gplus(-L, -b)


def _qplus(A2, B, L):
    return _quad(lambda x: mpmath.exp(-A2 * x * x / 2 + B * x), mpmath.mpf(L))


def _qminus(A2, B, L):
    return _qplus(A2, -B, -L)


def _normal(T, k):
    return 2 * _quad(lambda z: z ** k * mpmath.exp(-z * z / 2), mpmath.mpf(T))


def _airy(k, T):
    return _quad(lambda z: mpmath.airyai(z, 1) ** (2 * k) / mpmath.airyai(z) ** (2 * k - 2), mpmath.mpf(T),
                 points=(1,))


# (name, bound function, exact tail, grid of arguments); the grids run from a cut-off next to
# the peak (slope 0.05 - 0.5: the tail is most of the integral) to far out (slope >= 20: the bound
# is within 1 % of the tail).  Arguments are exact binary numbers.
GRIDS = [
    ("G+", integrals.gauss_tail_upper, _gplus,
     [(b + d, b) for b in (-3, 0, 2.5) for d in (0.0625, 0.5, 2, 8, 25)]),
    ("G-", integrals.gauss_tail_lower, _gminus,
     [(b - d, b) for b in (-2.5, 0, 3) for d in (0.0625, 0.5, 2, 8, 25)]),
    ("Q+", integrals.quad_exp_tail_upper, _qplus,
     [(A2, B, (B + d) / A2) for A2 in (0.25, 1, 4) for B in (-1, 1.5) for d in (0.0625, 1, 6, 48)]),
    ("Q+ mirrored", integrals.quad_exp_tail_lower, _qminus,
     [(A2, B, (B - d) / A2) for A2 in (0.25, 4) for B in (-1, 1.5) for d in (0.0625, 1, 6, 48)]),
    ("N", integrals.normal_moment_tail, _normal,
     [(T, k) for k in (0, 1, 2) for T in (0.125, 0.5, 2, 6, 30)]),
    ("R4", airy_score.quadrature_tail, _airy,
     [(1, 2), (2, 2), (1, 16)]),
]

_TRUTH: dict = {}


def _true_tail(name, exact, args):
    key = (name, args)
    if key not in _TRUTH:
        with mpmath.workdps(DPS):
            _TRUTH[key] = exact(*args)
    return _TRUTH[key]


def violations(name: str, bound: Callable, exact: Callable, grid) -> list:
    """The grid points where ``bound`` is below the exact tail (at 50 digits)."""
    bad = []
    with ctx.workprec(200), mpmath.workdps(DPS):
        for args in grid:
            b = bound(*[arb(a) if isinstance(a, float) else a for a in args])
            assert b.is_exact(), f"{name}{args}: a bound is an exact number"
            true = _true_tail(name, exact, args)
            assert true > 0
            if _mpf(b) < true * (1 - mpmath.mpf(10) ** -40):
                bad.append((args, _mpf(b) / true))
    return bad


@pytest.mark.parametrize("name,bound,exact,grid", GRIDS, ids=[g[0] for g in GRIDS])
def test_the_bound_is_above_the_tail(name, bound, exact, grid):
    assert violations(name, bound, exact, grid) == []


@pytest.mark.parametrize("name,bound,exact,grid", GRIDS, ids=[g[0] for g in GRIDS])
def test_a_bound_one_percent_too_small_is_detected(name, bound, exact, grid):
    def scaled(*args):
        return arb((bound(*args) * arb(0.99)).mid())

    assert violations(name, scaled, exact, grid), f"{name}: 0.99 x the bound went unnoticed"


@pytest.mark.parametrize("name,bound,exact,grid", GRIDS, ids=[g[0] for g in GRIDS])
def test_the_grid_includes_large_tails(name, bound, exact, grid):
    """Somewhere on the grid the bound exceeds the tail by more than 10 %: there a cut-off this
    close to the peak leaves a tail the enclosure must carry."""
    with ctx.workprec(200), mpmath.workdps(DPS):
        ratios = [_mpf(bound(*[arb(a) if isinstance(a, float) else a for a in args]))
                  / _true_tail(name, exact, args) for args in grid]
    assert max(ratios) > 1.1 and min(ratios) < 1.01


def _gauss_tail(L, b):
    """int_L^inf exp(-x^2/2 + b x) dx = e^{b^2/2} sqrt(pi/2) erfc((L - b)/sqrt 2)."""
    L, b = mpmath.mpf(L), mpmath.mpf(b)
    return mpmath.exp(b * b / 2) * mpmath.sqrt(mpmath.pi / 2) * mpmath.erfc((L - b) / mpmath.sqrt(2))


def _tight(bound, true, within="0.005"):
    """true <= bound <= (1 + within) true, decided on exact balls."""
    return bound >= exact(true) and bound <= exact(true * (1 + mpmath.mpf(within)))


@pytest.mark.mp_dps(DPS)
@pytest.mark.parametrize("L, b", [(40, 0), (45, 5), (30, -10)])
def test_gaussian_tail_bounds_hold_and_are_tight_far_out(L, b):
    assert _tight(integrals.gauss_tail_upper(L, b), _gauss_tail(L, b))
    # int_-inf^-L exp(-x^2/2 + b x) dx is the upper tail at L with -b
    assert _tight(integrals.gauss_tail_lower(-L, b), _gauss_tail(L, -b))


@pytest.mark.mp_dps(DPS)
@pytest.mark.parametrize("A2, B, L", [(2, 1, 25), ("0.5", -3, 60)])
def test_quadratic_tail_bounds_hold_and_are_tight_far_out(A2, B, L):
    a = mpmath.mpf(mpmath.mpmathify(A2))
    # int_L^inf exp(-a x^2/2 + B x) dx = (1/sqrt a) int_{L sqrt a}^inf exp(-y^2/2 + (B/sqrt a) y) dy
    true = _gauss_tail(L * mpmath.sqrt(a), B / mpmath.sqrt(a)) / mpmath.sqrt(a)
    assert _tight(integrals.quad_exp_tail_upper(A2, B, L), true)
    assert _tight(integrals.quad_exp_tail_lower(A2, -B, -L), true)


@pytest.mark.mp_dps(DPS)
@pytest.mark.parametrize("k", [0, 1, 2])
def test_moment_tail_bounds_hold_and_are_tight_far_out(k):
    T = mpmath.mpf(40)
    g = mpmath.exp(-T * T / 2)
    tail0 = 2 * _gauss_tail(T, 0)
    true = {0: tail0, 1: 2 * g, 2: 2 * T * g + tail0}[k]  # k = 2 by parts
    assert _tight(integrals.normal_moment_tail(40, k), true)


# --------------------------------------------------------------------------------------------
# 2. the enclosures that add a tail, with the cut-off next to the peak
# --------------------------------------------------------------------------------------------

# the cut-off t0 patched into tail_width(): at 0.75 the tails hold a good part of the mass (a tail
# dropped or of the wrong sign shows); at 3 the bounds are within a few per cent of the tails
# while these are still far above the balls' radii at 80 bits (a term of a bound left out shows);
# at 12 the Mills-ratio bounds exceed their tails by under 1 % (1/t0^2), the tails (~1e-32) are
# far above the balls' radii at 256 bits, so the dominant tail's bound used 1 % too small leaves
# the value outside (tried: the right tails of log_gaussian and drift); a minor tail (the left one
# beside a right one e^{sigma T} larger, or a part of a triangle-inequality majorant) is hidden
# by the dominant one's slack even at half its size, and the enclosure then still holds
SHORT = (0.75, 3.0, 12.0)
PREC = {0.75: 80, 3.0: 80, 12.0: 256}   # bits: balls far narrower than the tails left out
TRUE_DPS = 90   # digits of the exact values: beyond the radii at 256 bits (about 1e-76)


@pytest.fixture(params=SHORT)
def short_tails(monkeypatch, request):
    for mod in (log_gaussian, drift, gaussian_integrals, means, small_noise):
        monkeypatch.setattr(mod, "tail_width", lambda: arb(request.param))
    monkeypatch.setattr(gaussian_renyi, "_window", lambda bits: request.param)
    with ctx.workprec(PREC[request.param]), mpmath.workdps(TRUE_DPS):
        yield


def _phi(z):
    return mpmath.npdf(z)


def _expect(g, kinks=()):
    """E g(Z), Z standard normal, by mpmath at 50 digits (split at the kinks)."""
    with mpmath.workdps(TRUE_DPS):
        return mpmath.quad(lambda z: g(z) * _phi(z), [-mpmath.inf, *kinks, mpmath.inf])


def _assert_encloses(enclosure: arb, value, what: str):
    v = arb(mpmath.nstr(value, TRUE_DPS - 5, strip_zeros=False))
    assert enclosure.is_finite(), what
    assert enclosure.overlaps(v) and enclosure.contains(arb(v.mid())), \
        f"{what}: {enclosure} does not contain {mpmath.nstr(value, 20)}"


SIGMAS = [0.25, 1.0, 1.5]


@pytest.mark.parametrize("sigma", SIGMAS)
@pytest.mark.parametrize("method", ["split", "abs"])
def test_multiplicative_error_integral(short_tails, sigma, method):
    s = mpmath.mpf(sigma)
    true = _expect(lambda z: abs(mpmath.exp(s * z - s * s) - 1), [s])
    _assert_encloses(log_gaussian.multiplicative_error_integral(arb(sigma), method), true,
                     f"E|exp(sZ - s^2) - 1| ({method})")


@pytest.mark.parametrize("sigma", SIGMAS)
def test_half_expectation_integrals(short_tails, sigma):
    true = mpmath.exp(-mpmath.mpf(sigma) ** 2 / 2) / 2  # both halves, in closed form
    h = log_gaussian.half_expectation_integrals(arb(sigma))
    _assert_encloses(h.below, true, "E[e^(sZ - s^2) 1{Z <= s}]")
    _assert_encloses(h.above, true, "E[e^(sZ - s^2) 1{Z > s}]")


@pytest.mark.parametrize("n,c,sigma", [(3, 1, 0.5), (0, 2, 1.25), (0, 1, 1.0), (3, 1, 1.0)])
def test_unclipped_error_integral(short_tails, n, c, sigma):
    s = mpmath.mpf(sigma)
    true = _expect(lambda z: abs((n + c) * mpmath.exp(s * z - s * s) - c - n), [s])
    _assert_encloses(log_gaussian.unclipped_error_integral(n, c, arb(sigma)), true, "E|U_n - n|")


@pytest.mark.parametrize("n", [0, 3])
def test_released_error_integral(short_tails, n):
    s = mpmath.mpf(1)  # E|[U_n]_+ - n| at sigma = 1, c = 1; kinks where U_n = 0 and U_n = n
    zc = mpmath.log(mpmath.mpf(1) / (n + 1)) + s * s
    true = _expect(lambda z: abs(max((n + 1) * mpmath.exp(s * z - s * s) - 1, 0) - n),
                   [zc, s] if n else [s])
    _assert_encloses(log_gaussian.released_error_integral(n, 1, arb(1)), true, "E|[U_n]_+ - n|")


@pytest.mark.parametrize("n,c,sigma,t0,prec", [
    (3, 1, 0.5, 0.5, 53), (10, 2, 0.25, 0.5, 53),  # tails of the order of the integrals
    (0, 1, 1.0, 3, 80), (4, 1, 1.0, 3, 80),        # tails ~1e-4, far above the radii at 80 bits
    (2, 1, 1.5, 3, 80),                            # sigma > 1: U_n(T) = (n+c) e^{sigma T - sigma^2} - c
])
def test_log_count_law(monkeypatch, n, c, sigma, t0, prec):
    # (N) at a cut-off T = t0 + 1 next to the peak: mass, mean, variance and cdf of
    # W = log(U_n + c) ~ N(log(n + c) - sigma^2, sigma^2) must still be enclosed, each value at
    # 50 digits contained exactly
    monkeypatch.setattr(log_gaussian, "tail_width", lambda: arb(t0))
    with ctx.workprec(prec):
        law = log_gaussian.log_count_law(n, c, arb(sigma))
    with mpmath.workdps(TRUE_DPS):
        s = mpmath.mpf(sigma)
        truth = [(law.mass, mpmath.mpf(1), "mass"), (law.mean, mpmath.log(n + c) - s * s, "E W"),
                 (law.var, s * s, "Var W")]
        truth += [(ball, mpmath.ncdf(k), f"P(W <= a - s^2 + {k} s)") for k, ball in law.cdf.items()]
        for ball, value, what in truth:
            _assert_encloses(ball, value, what)
            assert ball.contains(exact(value)), what


@pytest.mark.parametrize("sigma,a", [(0.5, 0.1), (1.25, -0.5)])
def test_drift_integrals(short_tails, sigma, a):
    s, a_ = mpmath.mpf(sigma), mpmath.mpf(a)
    z0 = a_ / s
    _assert_encloses(drift.drift_error_integral(arb(sigma), arb(a)),
                     _expect(lambda z: abs(mpmath.exp(s * z - a_) - 1), [z0]), "E|e^(sZ - a) - 1|")
    _assert_encloses(drift.drift_derivative_integral(arb(sigma), arb(a)),
                     _expect(lambda z: mpmath.exp(s * z - a_) * mpmath.sign(z0 - z), [z0]), "d/da")
    _assert_encloses(drift.drift_mean_integral(arb(sigma), arb(a)), mpmath.exp(s * s / 2 - a_), "E e^(sZ - a)")


@pytest.mark.parametrize("alpha,mu_p,s_p,mu_q,s_q", [(2, 0, 1, 0.5, 1), (3, 0.25, 1, -0.5, 1.25)])
def test_gaussian_renyi_enclosure(short_tails, alpha, mu_p, s_p, mu_q, s_q):
    with mpmath.workdps(TRUE_DPS):
        def f(x):
            return mpmath.npdf(x, mu_p, s_p) ** alpha * mpmath.npdf(x, mu_q, s_q) ** (1 - alpha)
        true = mpmath.quad(f, [-mpmath.inf, -5, 0, 5, mpmath.inf])
    enc = gaussian_integrals.gaussian_renyi_enclosure(alpha, mu_p, s_p, mu_q, s_q)
    _assert_encloses(enc.integral, true, "int p^alpha q^(1-alpha)")


@pytest.mark.parametrize("mu,s,x0", [(1, 1, 0), (0.5, 0.25, 0.25), (4, 1, 0)])
def test_gaussian_mass_above(short_tails, mu, s, x0):
    """The enclosure holds P(X > x0) and is not loose: it spans the lower bound (the mass up to
    X = mu + s (t0 + 1)) plus the bound of the mass beyond X, within 10 % (30 %) of that mass
    (measured 1.06 at t0 = 3, 1.23 at t0 = 0.75: a Mills-ratio bound)."""
    true = 1 - mpmath.ncdf(x0, mu, s)
    mb = gaussian_integrals.gaussian_mass_above(mu, s, x0)
    _assert_encloses(mb.enclosure, true, "P(X > x0)")
    assert mb.lower.upper() <= arb(mpmath.nstr(true, TRUE_DPS - 5))  # the lower bound is one
    with mpmath.workdps(TRUE_DPS):
        beyond = 1 - mpmath.ncdf(mu + s * (gaussian_integrals.tail_width() + 1), mu, s)
    span = float((mb.enclosure.upper() - mb.lower.lower()).mid())
    assert span <= (1.1 if float(gaussian_integrals.tail_width()) >= 3 else 1.3) * float(beyond)


PAIRS = [  # (alpha, rho, delta, u_c): not clipped, unequal scales, clipped inside the window
    (2, 1, 0.5, None), (3, 0.75, -0.5, None), (2, 1, 0.5, -0.25), (1.5, 1.25, 1, -3),
]


@pytest.mark.parametrize("alpha,rho,delta,uc", PAIRS)
def test_gaussian_pair_density_by_integral(short_tails, alpha, rho, delta, uc):
    pair = gaussian_renyi.GaussianPair(arb(alpha), arb(rho), arb(delta), None if uc is None else arb(uc))
    with mpmath.workdps(TRUE_DPS):
        def f(u):
            return mpmath.npdf(u) ** alpha * (rho * mpmath.npdf(rho * u - delta)) ** (1 - alpha)
        lo = -mpmath.inf if uc is None else mpmath.mpf(uc)
        true = mpmath.quad(f, [lo, -1, 0, 1, 4, mpmath.inf] if uc is None else [lo, 0, 1, 4, mpmath.inf])
    _assert_encloses(gaussian_renyi.density_part(pair, integral=True), true, "integral route")
    _assert_encloses(gaussian_renyi.density_part(pair), true, "closed form")


@pytest.mark.parametrize("n,c,sigma", [(3, 1, 0.5), (0, 2, 1.25), (1, 0.5, 2.0), (0, 5, 0.125), (2, 40, 0.25)])
def test_means_of_the_release(short_tails, n, c, sigma):
    s = mpmath.mpf(sigma)
    with mpmath.workdps(TRUE_DPS):
        unclipped = (n + c) * mpmath.exp(-s * s / 2) - c
        zc = (mpmath.log(mpmath.mpf(c) / (n + c)) + s * s) / s        # U_n > 0 iff Z > zc
        released = (n + c) * mpmath.exp(-s * s / 2) * mpmath.ncdf(s - zc) - c * mpmath.ncdf(-zc)
    _assert_encloses(means.unclipped_mean(n, c, arb(sigma)), unclipped, "E U_n")
    _assert_encloses(means.released_mean(n, c, arb(sigma)), released, "E [U_n]_+")


@pytest.mark.parametrize("sigma", [0.125, 0.75, 1.5])
def test_small_noise_remainder(short_tails, sigma):
    s = mpmath.mpf(sigma)
    with mpmath.workdps(TRUE_DPS):
        def g(z):
            return mpmath.exp(s * z - s * s) - 1 - s * z
        grid = mpmath.linspace(-20, 20, 801)  # g is convex: two sign changes, the kinks of |g|
        zeros = [mpmath.findroot(g, (a, b), solver="illinois") for a, b in zip(grid[:-1], grid[1:])
                 if g(a) * g(b) < 0]
    assert len(zeros) == 2
    true = _expect(lambda z: abs(g(z)), zeros) / (s * s)
    _assert_encloses(small_noise.remainder_ratio(arb(sigma)).integral, true, "E|e^(sZ - s^2) - 1 - sZ| / s^2")
