"""Information measures against closed forms written here from mpmath's special functions alone:
the differential entropy of every reference law (each at an awkward scale as well), and the total
variation between a Laplace and a Gaussian law, whose densities cross where two quadratics
vanish -- including pairs nearly tangent, two crossings 10^-5 apart, which the crossing search's
grid cannot separate."""

from __future__ import annotations

import mpmath
import pytest

from countdp.divergence.information import differential_entropy, total_variation
from countdp.laws import Gaussian, Laplace
from countdp.laws.generalised_gaussian import GeneralisedGaussian
from countdp.laws.reference import (Logistic, RaisedCosine, Triangular, TruncatedGaussian, TruncatedLaplace,
                                    Uniform)

M = mpmath.mpf


def _truncated_gaussian(a, b):
    a, b = M(a), M(b)
    Z = mpmath.ncdf(b) - mpmath.ncdf(a) if a < 0 else mpmath.ncdf(-a) - mpmath.ncdf(-b)
    return mpmath.log(mpmath.sqrt(2 * mpmath.pi * mpmath.e) * Z) + (a * mpmath.npdf(a) - b * mpmath.npdf(b)) / (2 * Z)


def _truncated_laplace(L, b):
    L, b = M(L), M(b)
    Z = 2 * b * -mpmath.expm1(-L / b)
    mean_abs = 2 * b ** 2 * (1 - mpmath.exp(-L / b) * (1 + L / b)) / Z
    return mpmath.log(Z) + mean_abs / b


ENTROPIES = [  # (law, its entropy); a triangular law's ends are those stored (mu -+ w in float64)
    *[(lambda s=s: Gaussian(0, s), lambda s=s: mpmath.log(mpmath.sqrt(2 * mpmath.pi * mpmath.e) * s))
      for s in (0.01, 1, 1e3)],
    *[(lambda b=b: Laplace(3, b), lambda b=b: 1 + mpmath.log(2 * M(b))) for b in (0.01, 50)],
    *[(lambda s=s: Logistic(-1, s), lambda s=s: mpmath.log(M(s)) + 2) for s in (0.1, 7)],
    *[(lambda lo=lo, hi=hi: Uniform(lo, hi), lambda lo=lo, hi=hi: mpmath.log(M(hi) - M(lo)))
      for lo, hi in ((-3, 100), (1e-3, 2e-3))],
    *[(lambda mu=mu, w=w: Triangular(mu, w), lambda mu=mu, w=w: M(1) / 2 + mpmath.log((M(mu + w) - M(mu - w)) / 2))
      for mu, w in ((0, 1), (5, 0.01), (1.5, 0.7))],
    *[(lambda w=w: RaisedCosine(w), lambda w=w: mpmath.log(4 * M(w)) - 1) for w in (0.1, 20)],
    *[(lambda L=L, b=b: TruncatedLaplace(L, b), lambda L=L, b=b: _truncated_laplace(L, b))
      for L, b in ((5, 0.1), (0.1, 5))],
    *[(lambda a=a, b=b: TruncatedGaussian(a, b), lambda a=a, b=b: _truncated_gaussian(a, b))
      for a, b in ((-10, 0.5), (5, 40))],
    *[(lambda p=p: GeneralisedGaussian(p), lambda p=p: 1 / M(p) + mpmath.log(2 * mpmath.gamma(1 / M(p)) / M(p)))
      for p in (1.5, 4)],
]


@pytest.mark.parametrize("law, entropy", ENTROPIES, ids=[law().describe() for law, _ in ENTROPIES])
def test_differential_entropy_against_the_closed_form(law, entropy):
    with mpmath.workdps(40):
        L, h = law(), entropy()
        got = differential_entropy(L)
        assert abs(got.value - h) <= got.error + M(10) ** -35 * (1 + abs(h)), (L.describe(), got, h)


@pytest.mark.parametrize("mu", [0, -50])
@pytest.mark.parametrize("noise", ["laplace", "gaussian"])
def test_the_entropy_of_a_log_shifted_law_against_the_closed_form(mu, noise):
    """Y = exp(T) - c has h(Y) = h(T) + E T = h(T) + mu.  Integrated as -log f(x(t)), x(t) = e^t - c
    rounds to -c below the centre (at every t for mu = -50) and log f(-c) = -inf: the entropy came
    out inf +- inf for every such law; log f is now read in t."""
    from countdp.laws import ContinuousLaw, LogShiftedGaussian
    from countdp.mechanisms.log_laplace import LogShiftedLaplaceDensity

    with mpmath.workdps(40):
        if noise == "laplace":
            law, h_T = ContinuousLaw(LogShiftedLaplaceDensity(mu, 1, 1)), 1 + mpmath.log(2)
        else:
            law, h_T = LogShiftedGaussian(mu, 0.5, 1), mpmath.log(mpmath.sqrt(2 * mpmath.pi * mpmath.e) / 2)
        got = differential_entropy(law)
        assert abs(got.value - (h_T + mu)) <= got.error < M(10) ** -30, (got, h_T + mu)


def test_the_entropy_test_rejects_the_symmetric_normaliser_of_a_rounded_triangle():
    """The control: the triangle on 5 -+ 0.01 with its ends as stored has h = 1/2 + log(0.0099999999999998);
    with w = 0.01 in place of the stored half-width h moves by 2e-14, 10^23 bars."""
    with mpmath.workdps(40):
        got = differential_entropy(Triangular(5, 0.01))
        assert abs(got.value - (M(1) / 2 + mpmath.log(M(0.01)))) > 10 ** 20 * got.error


def _laplace_cdf(x, mu, b):
    z = (x - mu) / b
    return mpmath.exp(z) / 2 if z < 0 else 1 - mpmath.exp(-z) / 2


def _crossings(mu, b, s):
    """Where Laplace(mu, b) and N(0, s^2) have equal densities: on each side of mu the log-ratio
    -|x - mu|/b - log 2b + x^2/(2 s^2) + log(s sqrt(2 pi)) is a quadratic."""
    c0 = mpmath.log(s * mpmath.sqrt(2 * mpmath.pi) / (2 * b))
    out = []
    for side in (1, -1):
        A, B, C = 1 / (2 * s ** 2), -side / b, side * mu / b + c0
        disc = B ** 2 - 4 * A * C
        if disc > 0:
            out += [r for r in ((-B - mpmath.sqrt(disc)) / (2 * A), (-B + mpmath.sqrt(disc)) / (2 * A))
                    if side * (r - mu) > 0]
    return sorted(out)


def _tv_laplace_gaussian(mu, b, s):
    xs = [-mpmath.inf, *_crossings(mu, b, s), mpmath.inf]
    F = lambda x: (_laplace_cdf(x, mu, b) if abs(x) < mpmath.inf else (x > 0) * M(1),  # noqa: E731
                   mpmath.ncdf(x / s))
    return sum(abs((F(hi)[0] - F(lo)[0]) - (F(hi)[1] - F(lo)[1])) for lo, hi in zip(xs, xs[1:])) / 2


def _near_tangent(gap):
    """Laplace(mu, 1) against N(0, 1) with the two crossings right of mu ``gap`` apart."""
    return (1 - M(gap) ** 2 / 4) / 2 - mpmath.log(mpmath.sqrt(2 * mpmath.pi) / 2), 1, 1


TV_PAIRS = [(0, 1, 1), (0.3, 0.5, 2), (2, 3, 0.5), (-5, 1, 1), (0, 0.5, 0.5)] + [("gap", g) for g in (1e-1, 1e-3, 1e-5)]


@pytest.mark.parametrize("pair", TV_PAIRS, ids=str)
def test_total_variation_of_laplace_and_gaussian_against_the_closed_form(pair):
    with mpmath.workdps(40):
        mu, b, s = (M(v) for v in (_near_tangent(pair[1]) if pair[0] == "gap" else pair))
        exact = _tv_laplace_gaussian(mu, b, s)
        got = total_variation(Laplace(mu, b), Gaussian(0, s))
        assert abs(got.value - exact) <= got.error + M(10) ** -35, (pair, got, exact)


def test_the_total_variation_reference_sees_a_pair_of_crossings_dropped():
    """The control: with the two crossings 0.1 apart left out (|p - q| integrated as p - q between
    them) the reference moves by far more than the engine's bar."""
    with mpmath.workdps(40):
        mu, b, s = _near_tangent(M("0.1"))
        xs = _crossings(mu, b, s)
        assert len(xs) == 4 and xs[3] - xs[2] < M("0.11")
        p = lambda x: mpmath.exp(-abs(x - mu) / b) / (2 * b)  # noqa: E731
        between = mpmath.quad(lambda x: mpmath.npdf(x, 0, s) - p(x), [xs[2], xs[3]])
        got = total_variation(Laplace(mu, b), Gaussian(0, s))
        assert abs(between) > 10 ** 10 * got.error
