"""Every ordered pair of the reference laws on [-1, 1] (uniform, triangular, raised cosine,
truncated Laplace, truncated Gaussian: bounded, vanishing linearly or quadratically at the ends,
kinked at 0 or smooth) against a 30-digit quadrature written here in u, the distance to the nearer
end (all five are symmetric: int p^alpha q^(1 - alpha) = 2 int_0^1 p(u)^alpha q(u)^(1 - alpha) du,
nothing cancels next to an end).  With p ~ u^kp and q ~ u^kq at the end the integrand is
~ u^(kp alpha + kq (1 - alpha)): not integrable when that exponent is <= -1 (D_alpha = inf).
Each route either covers the reference within its error bar, gives inf where the truth is inf,
or (the sup-over-alpha engine's two routes only) says Unresolved."""

from __future__ import annotations

import itertools
import math

import mpmath
import pytest

from _three_routes import assert_routes_cover
from countdp.laws.reference import RaisedCosine, Triangular, TruncatedGaussian, TruncatedLaplace, Uniform

B = mpmath.mpf(1) / 2


def _by_distance(name):
    """(density at distance u from the nearer end, its power at the end) of a reference law."""
    return {
        "uniform": (lambda u: mpmath.mpf(1) / 2, 0),
        "triangular": (lambda u: u, 1),
        "raised cosine": (lambda u: mpmath.sin(mpmath.pi * u / 2) ** 2, 2),
        "truncated Laplace": (lambda u: mpmath.exp(-(1 - u) / B) / (2 * B * -mpmath.expm1(-1 / B)), 0),
        "truncated Gaussian": (lambda u: mpmath.npdf(1 - u) / (mpmath.ncdf(1) - mpmath.ncdf(-1)), 0),
    }[name]


LAWS = {"uniform": lambda: Uniform(-1, 1), "triangular": lambda: Triangular(0, 1),
        "raised cosine": lambda: RaisedCosine(1.0), "truncated Laplace": lambda: TruncatedLaplace(1, 0.5),
        "truncated Gaussian": lambda: TruncatedGaussian(-1, 1)}


def _reference(p_name, q_name, alpha):
    (p, kp), (q, kq) = _by_distance(p_name), _by_distance(q_name)
    if kp * alpha + kq * (1 - alpha) <= -1:
        return math.inf
    a = mpmath.mpf(alpha)
    with mpmath.workdps(30):
        v = 2 * mpmath.quad(lambda u: p(u) ** a * q(u) ** (1 - a), [0, mpmath.mpf(1) / 1000, mpmath.mpf(1) / 10, 1])
        return mpmath.log(v) / (a - 1)


@pytest.mark.parametrize("p_name, q_name", list(itertools.permutations(LAWS, 2)))
def test_every_route_covers_or_refuses_at_finite_ends(p_name, q_name):
    P, Q = LAWS[p_name](), LAWS[q_name]()
    for alpha in (1.5, 2.0, 3.0, 5.0):
        exact = _reference(p_name, q_name, alpha)
        assert_routes_cover(P, Q, alpha, exact)
