"""Ordered pairs of laws on the whole line with Gaussian, Laplace and logistic tails, each
against a 30-digit quadrature of log-densities written here, and a divergence decided by the
tails alone: with log p ~ -c_p |x|^k_p and log q ~ -c_q |x|^k_q far out, the log-integrand
alpha log p + (1 - alpha) log q tends to +inf (D_alpha = inf) when k_q > k_p, or when k_q = k_p
and alpha c_p < (alpha - 1) c_q.  Each route covers the reference within its error bar, gives
inf where the truth is inf, or (the sup-over-alpha engine's two routes only) says Unresolved;
a heavier P against a Gaussian Q once came out D = 5.2e120 (+- 4e-13 by mpmath) from a 'peak'
placed 1e60 out."""

from __future__ import annotations

import itertools
import math

import mpmath
import pytest

from _three_routes import assert_routes_cover
from countdp.laws import Gaussian
from countdp.laws.reference import Laplace, Logistic


def _gauss(mu, s):
    return lambda x: -((x - mu) / s) ** 2 / 2 - mpmath.log(s) - mpmath.log(2 * mpmath.pi) / 2


def _laplace(mu, b):
    return lambda x: -abs(x - mu) / b - mpmath.log(2 * b)


def _logistic(mu, s):
    return lambda x: -abs(x - mu) / s - 2 * mpmath.log1p(mpmath.exp(-abs(x - mu) / s)) - mpmath.log(s)


# name: (law, log-density, tail power k, tail rate c, kink)
LAWS = {
    "N(0, 1)": (lambda: Gaussian(0, 1), _gauss(0, 1), 2, 0.5, None),
    "N(0.7, 1)": (lambda: Gaussian(0.7, 1), _gauss(0.7, 1), 2, 0.5, None),
    "N(0, 1.5^2)": (lambda: Gaussian(0, 1.5), _gauss(0, 1.5), 2, 0.5 / 1.5 ** 2, None),
    "Laplace(0, 1)": (lambda: Laplace(0, 1), _laplace(0, 1), 1, 1.0, 0),
    "Laplace(0.7, 1.4)": (lambda: Laplace(0.7, 1.4), _laplace(0.7, 1.4), 1, 1 / 1.4, 0.7),
    "Logistic(0, 1)": (lambda: Logistic(0, 1), _logistic(0, 1), 1, 1.0, 0),
}


def _reference(p, q, alpha):
    (_, lp, kp, cp, bp), (_, lq, kq, cq, bq) = LAWS[p], LAWS[q]
    if kq > kp or (kq == kp and alpha * cp < (alpha - 1) * cq):
        return math.inf
    a = mpmath.mpf(alpha)
    with mpmath.workdps(30):
        kinks = [mpmath.mpf(b) for b in (bp, bq) if b is not None]
        nodes = sorted(set([-mpmath.inf, mpmath.mpf(-20), mpmath.mpf(-5), mpmath.mpf(0), mpmath.mpf(5),
                            mpmath.mpf(20), mpmath.inf] + kinks))
        v = mpmath.quad(lambda x: mpmath.exp(a * lp(x) + (1 - a) * lq(x)), nodes)
        return mpmath.log(v) / (a - 1)


@pytest.mark.parametrize("p, q", list(itertools.permutations(LAWS, 2)))
def test_every_route_covers_or_refuses_on_the_whole_line(p, q):
    P, Q = LAWS[p][0](), LAWS[q][0]()
    for alpha in (1.5, 3.0):
        exact = _reference(p, q, alpha)
        # the closed forms carry error 0: their rounding, 4 ulps, is allowed beside the bar
        assert_routes_cover(P, Q, alpha, exact, rounding=4 * mpmath.eps)


@pytest.mark.parametrize("p, d, alpha", [(4, 5, 10), (4, 5, 2), (3, 5, 10), (1.5, 1, 10), (4, 1, 1000)])
def test_a_tilted_peak_far_beyond_both_centres_is_found(p, d, alpha):
    """GG_p(0) against GG_p(d), f_p(x) = exp(-|x|^p) / (2 Gamma(1 + 1/p)): the log-integrand
    -alpha |x|^p + (alpha - 1) |x - d|^p - log norm peaks at x* = -r d / (1 - r), r =
    ((alpha - 1)/alpha)^(1/(p - 1)), for p = 4, d = 5, alpha = 10 at -139.9, far beyond the 60
    scales about the centres (0, 5 and the Gaussian tilt -45) where renyi's peak search stopped:
    it integrated around -105 and gave D 0.018 too large under a bar of 2e-33.  At alpha = 1000
    (d = 1) the peak is at -15000, past float64's reach (a1 |log p| rounds by 3e3 there): the
    engine read the convex rise before it as divergence and gave D = inf on both routes; its
    divergence test is now confirmed in mpmath, and the float route says Unresolved.  The
    reference is mpmath's quadrature split about x*, at 50 digits."""
    from countdp.laws.generalised_gaussian import GeneralisedGaussian

    with mpmath.workdps(50):
        P, D, A = (mpmath.mpf(v) for v in (p, d, alpha))
        log_norm = mpmath.log(2 * mpmath.gamma(1 + 1 / P))
        g = lambda x: -A * abs(x) ** P + (A - 1) * abs(x - D) ** P - log_norm  # noqa: E731
        r = ((A - 1) / A) ** (1 / (P - 1))
        peak = -r * D / (1 - r)
        width = 1 / mpmath.sqrt(-mpmath.diff(g, peak, 2))
        g0 = g(peak)
        nodes = sorted({mpmath.mpf(0), D} | {peak + s * k * width for k in (1, 2, 4, 8, 16, 32, 64, 128) for s in (1, -1)})
        total = mpmath.quad(lambda x: mpmath.exp(g(x) - g0), [-mpmath.inf, *nodes, mpmath.inf])
        exact = (mpmath.log(total) + g0) / (A - 1)
    with mpmath.workdps(40):
        assert_routes_cover(GeneralisedGaussian(p, 0), GeneralisedGaussian(p, d), alpha, exact, rounding=1e-14)


@pytest.mark.parametrize("s, eps", [(0.999, 1), (0.999, 3), (0.9999, 3)])
def test_a_profile_whose_crossings_lie_beyond_the_window_keeps_them_in_its_bar(s, eps):
    """delta(eps) of N(0, 1) against N(0, s), s < 1: p > e^eps q beyond +-x, x^2 = 2 (eps - log s)
    / (1/s^2 - 1), so delta = 2 (Q(x) - e^eps Q(x/s)).  For s = 0.999 at eps = 3, x = 54.7 lies
    past the 40 scales the crossing search covers: delta = 6e-656 came out 0 +- 0; the masses
    beyond the window now enter the bar."""
    from countdp.divergence.profile import hockey_stick

    with mpmath.workdps(40):
        s, eps = mpmath.mpf(s), mpmath.mpf(eps)
        x = mpmath.sqrt(2 * (eps - mpmath.log(s)) / (1 / s ** 2 - 1))
        exact = 2 * (mpmath.ncdf(-x) - mpmath.exp(eps) * mpmath.ncdf(-x / s))
        got = hockey_stick(Gaussian(0, 1), Gaussian(0, s), eps, method="quadrature")
        assert abs(got.value - exact) <= got.error, (got, exact)
