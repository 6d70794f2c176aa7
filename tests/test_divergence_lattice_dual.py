"""Tests of countdp.divergence.lattice_dual's root finders on every branch: the start of the
shooting solves W(u, u) = -g on the negative root for each kind (the one-sided equation
e^u - 1 - u = g has a positive root too), and the symmetric step u - e^{-u} = c is solved by
Newton from a close guess, from a far one, through the Lambert W fallback and for c < -600."""

from __future__ import annotations

import math

import pytest

from countdp.divergence.lattice_dual import _symmetric_next, next_ratio, start_ratio

GS = [1e-8, 1e-3, 0.1, 0.5, 1.0, 3.0, 5.0, 40.0, 1e3, 1e6]


@pytest.mark.parametrize("g", GS)
def test_start_ratio_is_the_negative_root(g):
    u = start_ratio("one-sided", g)
    assert u < 0
    assert math.expm1(u) - u == pytest.approx(g, rel=1e-12, abs=0)
    assert abs(math.expm1(u) - u - g) <= 1e-12 * (1 + g)
    u = start_ratio("symmetric", g)
    assert u < 0 and -2 * math.sinh(u / 2) ** 2 == pytest.approx(-g, rel=1e-12, abs=0)  # 1 - cosh u
    assert abs(1 - math.cosh(u) + g) <= 1e-12 * (1 + g)
    u = start_ratio("dirichlet", g)
    assert u < 0 and -4 * math.sinh(u / 4) ** 2 == pytest.approx(-g, rel=1e-12, abs=0)  # 2 - 2 cosh(u/2)
    assert abs(2 - 2 * math.cosh(u / 2) + g) <= 1e-12 * (1 + g)


def test_start_ratio_refuses_a_start_where_the_shooting_cannot_begin():
    with pytest.raises(ValueError, match="lam"):
        start_ratio("one-sided", 0.0)


@pytest.mark.parametrize("c,guess", [
    (0.5, 0.6), (0.5, -3.0), (-5.0, 0.0), (20.0, -1.0), (-50.0, 10.0), (-300.0, -1.0),
    (-650.0, -1.0), (-1e4, 0.0),
])
def test_symmetric_next_solves_its_equation(c, guess):
    u = _symmetric_next(c, guess)
    assert u - math.exp(-u) == pytest.approx(c, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("u,target", [(-0.5, 0.2), (0.3, -0.4), (-2.0, 1.5)])
def test_next_ratio_solves_its_step(u, target):
    one = next_ratio("one-sided", u, target)
    assert one - math.exp(u) + 1 == pytest.approx(target, abs=1e-14)      # e^u - 1 + target = u'
    sym = next_ratio("symmetric", u, target)
    assert sym - math.exp(-sym) == pytest.approx(2 * target + u - 2 + math.exp(u), abs=1e-12)
    dir_ = next_ratio("dirichlet", u, target)
    c = 2 - math.exp(u / 2) - target
    assert (dir_ == math.inf) if c <= 0 else math.exp(-dir_ / 2) == pytest.approx(c, rel=1e-14, abs=0)


class _NoLambertW:
    """scipy.special without Lambert W: the fallback is not to be reached."""

    def __getattr__(self, name):
        raise AssertionError(f"special.{name} called: Newton did not settle")


@pytest.mark.parametrize("c,guess", [(0.5, 0.6), (-5.0, -1.2), (20.0, 19.5), (3.0, 0.0), (-50.0, -3.0), (-300.7, -5.4)])
def test_symmetric_next_settles_by_newton_from_a_guess_near_the_root(monkeypatch, c, guess):
    """The shooting's guess is the previous log-ratio, close to the root: Newton's step falls
    below 1e-16 (1 + |u|) well within its 40 steps, and the Lambert W fallback is not reached."""
    import countdp.divergence.lattice_dual as module
    monkeypatch.setattr(module, "special", _NoLambertW())
    u = _symmetric_next(c, guess)
    assert u - math.exp(-u) == pytest.approx(c, rel=1e-14, abs=1e-14)
