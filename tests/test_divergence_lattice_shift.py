"""Tests of countdp.divergence.lattice_shift and lattice_dual (and their Arb enclosures in
countdp.arb.lattice_shift): the minimisers reach the requested M, primal and dual values meet,
the mirror theta <-> 1 - theta gives the same minimum, the minima lie above the interpolation
bound and tend to c0/M^2."""

from __future__ import annotations

import math
import re

import mpmath
import numpy as np
import pytest

from countdp import formulas
from countdp.arb import lattice_shift as lattice_balls
from countdp.divergence.lattice_dual import dual_certificate
from countdp.divergence.lattice_shift import KINDS, continuum_guess, lattice_minimum, tail_sums

C0 = float(formulas.airy_limit_constant.fp())


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("theta", [0.0, 0.25, 0.5])
def test_minimum_reaches_M_and_meets_its_dual(kind, theta):
    sol = lattice_minimum(kind, theta, 10)
    assert sol.M == pytest.approx(10, rel=1e-10, abs=0)
    seq = dual_certificate(kind, theta, sol.lam)
    assert seq.dual_value(sol.M) <= sol.value * (1 + 1e-12)
    assert seq.dual_value(sol.M) == pytest.approx(sol.value, rel=1e-10, abs=0)


@pytest.mark.parametrize("kind", ["symmetric", "dirichlet"])   # the one-sided KL is not mirror-symmetric
def test_mirror_lattice_has_the_same_minimum(kind):
    a, b = lattice_minimum(kind, 0.25, 7), lattice_minimum(kind, 0.75, 7)
    assert a.value == pytest.approx(b.value, rel=1e-10, abs=0)


def test_small_M_and_the_least_distance():
    sol = lattice_minimum("dirichlet", 0.0, 0.56)
    assert sol.M == pytest.approx(0.56, rel=1e-10, abs=0)
    with pytest.raises(ValueError):
        lattice_minimum("dirichlet", 0.5, 0.5)


@pytest.mark.parametrize("theta", [0.0, 0.1, 0.5])
def test_minima_above_the_interpolation_bound_and_tending_to_c0(theta):
    for M in (1, 10, 100):
        e = lattice_minimum("dirichlet", theta, M)
        assert 2 * e.value >= formulas.interpolation_bound.fp(e.value, e.M)
        assert 2 * e.value >= formulas.lattice_dirichlet_bound.fp(e.M)
        assert lattice_minimum("symmetric", theta, M).value >= 2 * e.value
    phi = lattice_minimum("symmetric", theta, 300).value
    assert abs(300 ** 2 * phi - C0) < 0.05 / 300 ** 2


def test_tail_sums_of_a_geometric_law():
    # p_k = e^{-|k|} on Z: mass coth(1/2), and the window sums with closed-form tails agree with a long sum
    from countdp.laws.lattice import LatticeLaw
    law = LatticeLaw(0.0, -5, np.abs(np.arange(-5, 6)).astype(float))
    mass, first, F = tail_sums("dirichlet", law)
    assert mass == pytest.approx(1 / math.tanh(0.5), rel=1e-14, abs=0)
    k = np.arange(-400, 401)
    p = np.exp(-np.abs(k))
    assert first == pytest.approx(np.sum(np.abs(k) * p), rel=1e-13, abs=0)
    assert F == pytest.approx(np.sum((np.sqrt(p[1:]) - np.sqrt(p[:-1])) ** 2), rel=1e-13, abs=0)


def test_enclosure_brackets_the_float_minimum():
    sol = lattice_minimum("one-sided", 0.5, 5)
    enc = lattice_balls.minimum_enclosure("one-sided", sol.law, dual_certificate("one-sided", 0.5, sol.lam))
    assert enc.lower.lower() <= sol.value <= enc.upper.upper()
    assert float(enc.upper.upper() - enc.lower.lower()) < 1e-12


def _short_window_and_long_sums(kind):
    """p_k = e^{-|k|}: the window |k| <= 5 (p at its ends e^-5) as a LatticeLaw, and sum p,
    sum |k| p and F(p) over |k| <= 400 (whose remainder, e^-400, is far below 1e-13)."""
    from countdp.laws.lattice import LatticeLaw

    law = LatticeLaw(0.0, -5, np.abs(np.arange(-5, 6)).astype(float))
    k = np.arange(-400, 401)
    V = np.abs(k).astype(float)
    p = np.exp(-V)
    a, b = p[:-1], p[1:]
    F = {"symmetric": np.sum(0.5 * (a - b) * np.diff(V)),
         "one-sided": np.sum(formulas.one_sided_summand.fp(a, b)),
         "dirichlet": np.sum((np.sqrt(b) - np.sqrt(a)) ** 2)}[kind]
    return law, (np.sum(p), np.sum(np.abs(k) * p), F)


@pytest.mark.parametrize("kind", ["symmetric", "one-sided", "dirichlet"])
def test_the_geometric_tails_of_every_kind_match_a_long_sum(kind):
    """The short window with its closed-form tails against the same summand over |k| <= 400, for
    each kind (a tail term wrong by a factor (1 - r)^2 changes F by 1e-3 relative here)."""
    law, (_, _, long) = _short_window_and_long_sums(kind)
    _, _, F = tail_sums(kind, law)
    assert F == pytest.approx(long, rel=1e-13, abs=0)


@pytest.mark.parametrize("kind", ["symmetric", "one-sided", "dirichlet"])
def test_the_ball_tails_of_every_kind_match_a_long_sum(kind):
    """The same window through the certified primal (countdp.arb.lattice_shift): its balls of
    sum p, sum |x| p and F(p), with closed-form geometric tails, hold the long sums to 1e-13."""
    law, sums = _short_window_and_long_sums(kind)
    balls = lattice_balls.primal_value(kind, law)
    for ball, exact in zip((balls.mass, balls.first, balls.objective), sums):
        assert float(ball.rad()) < 1e-14 * exact
        assert abs(float(ball.mid()) - exact) <= 1e-13 * exact


@pytest.mark.parametrize("c", [0, 3, 6])
def test_the_bordered_solve_is_the_dense_solve(c):
    """Newton's linear step: T' z = rhs with T' the tridiagonal T whose column c is replaced by -1
    (the mu column), by Sherman-Morrison on two banded solves -- against numpy's dense solve of T'
    itself, for a diagonally dominant T of size 7 (both ends and the middle)."""
    from countdp.divergence.lattice_shift import _bordered_solve

    rng = np.random.default_rng(5)
    n = 7
    diag = 4 + rng.random(n)
    up, lo = rng.random(n - 1) - 0.5, rng.random(n - 1) - 0.5
    T = np.diag(diag) + np.diag(up, 1) + np.diag(lo, -1)
    Tc = T.copy()
    Tc[:, c] = -1.0
    rhs = rng.random(n)
    np.testing.assert_allclose(_bordered_solve(diag, up, lo, rhs, c), np.linalg.solve(Tc, rhs),
                               rtol=1e-12, atol=0)


@pytest.mark.parametrize("kind", KINDS)
def test_the_site_gradient_derivatives_are_those_of_the_site_gradient(kind):
    """Newton's Jacobian rows come from (dW/du_k, dW/du_{k+1}): against central differences of
    W itself (a wrong row still converges, slowly, so only this reads it)."""
    from countdp.divergence.lattice_shift import _site_gradient_derivatives, site_gradient

    u0, u1 = np.array([-1.5, -0.2, 0.3, 2.0]), np.array([-0.7, 0.4, 1.1, 2.5])
    h = 1e-6
    d0, d1 = _site_gradient_derivatives(kind, u0, u1)
    fd0 = (site_gradient(kind, u0 + h, u1) - site_gradient(kind, u0 - h, u1)) / (2 * h)
    fd1 = (site_gradient(kind, u0, u1 + h) - site_gradient(kind, u0, u1 - h)) / (2 * h)
    assert np.allclose(d0, fd0, rtol=1e-7, atol=1e-9) and np.allclose(d1, fd1, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("kind", ["symmetric", "one-sided"])
def test_the_kkt_constant_gives_the_dual_value(kind):
    """mu - lam M is the dual value: a lower bound of the primal value, equal at the optimum."""
    sol = lattice_minimum(kind, 0.25, 10)
    assert sol.dual_value == sol.mu - sol.lam * sol.M
    assert sol.dual_value <= sol.value * (1 + 1e-12)
    assert sol.dual_value == pytest.approx(sol.value, rel=1e-9, abs=0)


def test_refusals_of_the_lattice_routines():
    from countdp.divergence.lattice_shift import kkt_solution, site_gradient

    with pytest.raises(ValueError, match="kind must be one of"):
        site_gradient("two-sided", 0.0, 0.0)
    with pytest.raises(ValueError, match="the Dirichlet problem is linear"):
        kkt_solution("dirichlet", 0.0, 0.1)
    law = lattice_minimum("symmetric", 0.0, 5).law
    rising = type(law)(law.theta, law.k0, -law.V)   # increasing at both ends: not a decaying law
    with pytest.raises(ValueError, match="tail_sums needs a law decaying at both ends"):
        tail_sums("symmetric", rising)


@pytest.mark.parametrize("kind", KINDS)
def test_the_continuum_guess_is_minus_log_of_the_squared_airy_ground_state(kind):
    """V_k = -2 log Ai(|k + theta|/l + a1') with l = lam^(-1/3) (Dirichlet) or (2/lam)^(1/3),
    against mpmath's Ai at 30 digits on both sides of the zero a1' (the scaled branch beyond it)."""
    theta, lam, K = 0.25, 0.05, 60
    law = continuum_guess(kind, theta, lam, K)
    ell = lam ** (-1 / 3) if kind == "dirichlet" else (2 / lam) ** (1 / 3)
    with mpmath.workdps(30):
        a1p = mpmath.airyaizero(1, derivative=1)
        for k in (-K, -17, -1, 0, 3, 40, K):
            z = abs(mpmath.mpf(k) + theta) / mpmath.mpf(ell) + a1p
            ref = float(-2 * mpmath.log(mpmath.airyai(z)))
            assert law.V[k + K] == pytest.approx(ref, rel=1e-12, abs=1e-12), k
    assert law.k0 == -K and len(law.V) == 2 * K + 1 and law.theta == theta


@pytest.mark.parametrize("kind", ["symmetric", "one-sided"])
def test_newton_stops_once_converged_and_theta_is_a_fraction(kind):
    """Newton from the continuum guess converges quadratically: it stops after a handful of
    steps, far below its limit of 60 (a loop that ran on past convergence would report 60);
    theta, the lattice's offset, must lie in [0, 1)."""
    from countdp.divergence.lattice_shift import kkt_solution

    sol = kkt_solution(kind, 0.25, 0.05)
    assert 1 <= sol.iterations <= 15
    for theta in (1.0, 1.5, -0.25):
        with pytest.raises(ValueError, match="theta must lie in"):
            lattice_minimum(kind, theta, 5)


def test_the_dual_bound_needs_its_sites_on_both_sides_of_zero():
    """u_L .. u_F with F = L + len(u) - 1: the sites x_{L-1} .. x_F must straddle 0, so a sequence
    whose last site x_F = -0.75 lies below 0 is refused (one site more would reach 0.25 > 0)."""
    from countdp.laws.lattice import DualSequence

    seq = DualSequence("symmetric", 0.25, 1.0, 0.0, -3, np.array([-0.1, -0.1, -0.1]), 0.0)
    assert seq.F == -1
    with pytest.raises(ValueError, match=re.escape("x_{L-1} < 0 < x_F")):
        lattice_balls.dual_bound(seq)
    longer = DualSequence("symmetric", 0.25, 1.0, 0.0, -3, np.array([-0.1, -0.1, -0.1, -0.1]), 0.0)
    assert longer.F == 0 and lattice_balls.dual_bound(longer).is_finite()
