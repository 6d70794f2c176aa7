"""countdp.arb.integrals: the proven tail bounds bound the tails (mpmath at 50 digits), and an
enclosed integral contains the integral."""

from __future__ import annotations

import mpmath
import pytest
from flint import arb, ctx, fmpq

from _ball_reference import exact, mpq
from countdp.arb.integrals import (gauss_tail_lower, gauss_tail_upper, integrate, normal_moment_tail,
                                   quad_exp_tail_lower, quad_exp_tail_upper)
from countdp.arb.verdicts import Undecided, Verdict, decide_ge, to_arb, to_fmpq


pytestmark = pytest.mark.mp_dps(50)


def test_gaussian_tail_bounds_are_bounds():
    for L, b in ((3, 0), (5, 1), (8, -2), (4, "3.5")):
        Lq, bq = mpmath.mpf(L), mpq(b)
        true = mpmath.quad(lambda x: mpmath.exp(-x**2 / 2 + bq * x), [Lq, mpmath.inf])
        assert decide_ge(gauss_tail_upper(L, b), to_arb(0)) is Verdict.PROVED_TRUE
        assert gauss_tail_upper(L, b) > exact(true)
        true_l = mpmath.quad(lambda x: mpmath.exp(-x**2 / 2 + bq * x), [-mpmath.inf, -Lq])
        assert gauss_tail_lower(-L, b) > exact(true_l)
    with pytest.raises(Undecided):
        gauss_tail_upper(1, 2)


def test_quadratic_exponent_tail_bounds_are_bounds():
    for A2, B, L in (("0.5", 1, 4), (2, "-1", 3), ("1.5", 0, 2)):
        a, b, l_ = mpq(A2), mpq(B), mpmath.mpf(L)
        up = mpmath.quad(lambda x: mpmath.exp(-a * x * x / 2 + b * x), [l_, mpmath.inf])
        lo = mpmath.quad(lambda x: mpmath.exp(-a * x * x / 2 - b * x), [-mpmath.inf, -l_])
        assert quad_exp_tail_upper(A2, B, L) > exact(up)
        # int_-inf^-L exp(-A2 x^2/2 - B x) dx, the mirror image of the upper tail
        assert quad_exp_tail_lower(A2, -to_fmpq(B), -L) > exact(lo)
    with pytest.raises(Undecided):
        quad_exp_tail_upper(1, 5, 2)


@pytest.mark.parametrize("k", [0, 1, 2])
def test_normal_moment_tails_are_bounds(k):
    for T in (2, 4, 7):
        true = 2 * mpmath.quad(lambda z: z**k * mpmath.exp(-z * z / 2), [T, mpmath.inf])
        assert normal_moment_tail(T, k) > exact(true)
    with pytest.raises(ValueError):
        normal_moment_tail(3, 3)


def test_integrate_encloses_the_integral_also_to_a_ball_endpoint():
    with ctx.workprec(80):
        full = integrate(lambda z: (-z * z / 2).exp(), -2, arb(fmpq(3, 2)))
        ball_end = integrate(lambda z: (-z * z / 2).exp(), -2, arb(fmpq(3, 2)) + arb(0, 1e-20))
    true = mpmath.quad(lambda z: mpmath.exp(-z * z / 2), [-2, mpmath.mpf(3) / 2])
    assert full.contains(exact(true)) or full.overlaps(exact(true))
    assert ball_end.contains(full) or ball_end.overlaps(full)
    assert float(ball_end.rad()) >= 1e-21


def test_each_tail_bound_refuses_outside_its_hypothesis():
    """Every bound holds only under its condition; an undecided or false one is Undecided, not
    a number: (G-) needs L < b, (Q+) A2 >= 0 and A2 L > B (mirrored: B > A2 L), (N) T > 0; a
    ball straddling the condition is undecided too."""
    for call in (lambda: gauss_tail_lower(2, 1), lambda: gauss_tail_lower(1, 1),
                 lambda: gauss_tail_upper(arb(1, 0.5), 1),
                 lambda: quad_exp_tail_upper(-1, 0, 3), lambda: quad_exp_tail_lower(1, -5, -2),
                 lambda: normal_moment_tail(0, 1), lambda: normal_moment_tail(arb(0, 1), 0)):
        with pytest.raises(Undecided):
            call()


def test_integrate_refuses_an_integrand_it_cannot_enclose():
    """A pole on the path (1/z over [-1, 1]) has no finite enclosure; an integrand finite up to
    an endpoint's midpoint but not on the whole endpoint ball (1/(z - 2) to 1.999 +- 0.01)
    cannot enclose the missing piece: both Undecided, never a number."""
    with pytest.raises(Undecided, match="did not return a finite real enclosure"):
        integrate(lambda z: 1 / z, -1, 1)
    with pytest.raises(Undecided, match="not finite at a ball endpoint"):
        integrate(lambda z: 1 / (z - 2), 0, arb("1.999", "0.01"))


def test_a_ball_endpoint_at_either_end_widens_the_enclosure_by_its_piece():
    """int_a^b f over balls a, b is enclosed for every a' in a and b' in b: the pieces between a
    ball and its midpoint enter at both ends (a piece dropped at the lower end missed the
    integrals to a' != mid(a)).  f = e^z, whose integral e^b' - e^a' is exact."""
    with ctx.workprec(80):
        a, b = arb("-0.5", "0.25"), arb("1.5", "0.125")
        box = integrate(lambda z: z.exp(), a, b)
        for lo in ("-0.75", "-0.5", "-0.25"):
            for hi in ("1.375", "1.5", "1.625"):
                true = mpmath.exp(mpq(hi)) - mpmath.exp(mpq(lo))
                assert box.contains(exact(true)), (lo, hi)
        lower_only = integrate(lambda z: z.exp(), a, arb("1.5"))
        for lo in ("-0.75", "-0.25"):
            assert lower_only.contains(exact(mpmath.exp(mpq("1.5")) - mpmath.exp(mpq(lo)))), lo
