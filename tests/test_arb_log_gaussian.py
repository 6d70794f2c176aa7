"""countdp.arb.log_gaussian: certified expectations under the mechanism's laws, against mpmath
quadrature at 50 digits, with negative controls that must never be proved."""

from __future__ import annotations

import mpmath
import pytest
from flint import arb, fmpq

from _ball_reference import CC, DPS, FALSE, MP_S, R0, TRUE, contains, sigma_ball
from countdp import formulas
from countdp.arb.log_gaussian import (decide_released_error, half_expectation_integrals, log_count_law,
                                      multiplicative_error_integral, released_error_integral,
                                      unclipped_error_integral)
from countdp.arb.verdicts import decide_contains, decide_le, to_arb


pytestmark = pytest.mark.mp_dps(DPS)


def mp_E_abs(sig, a):
    f = lambda z: abs(mpmath.exp(sig * z - a) - 1) * mpmath.npdf(z)  # noqa: E731
    return mpmath.quad(f, [-mpmath.inf, -10, a / sig, 10 + 2 * sig, mpmath.inf])


@pytest.mark.parametrize("sg", ["s", 1, 3])
def test_multiplicative_error_integral(sg):
    s = sigma_ball() if sg == "s" else arb(sg)
    ms = MP_S if sg == "s" else mpmath.mpf(sg)
    integral = multiplicative_error_integral(s)
    assert integral.rad() < 1e-12
    assert contains(integral, mp_E_abs(ms, ms**2))
    assert decide_contains(integral, formulas.multiplicative_error.ball(s)) is TRUE
    # negative control: the mean-one drift's error 2(2Phi(s/2)-1) is not enclosed
    assert decide_contains(integral, 2 * formulas.multiplicative_error.ball(s / 2)) is FALSE


def test_multiplicative_error_integral_abs_route():
    integral = multiplicative_error_integral(sigma_ball(), method="abs")
    assert contains(integral, mp_E_abs(MP_S, MP_S**2))
    with pytest.raises(ValueError, match="method"):
        multiplicative_error_integral(sigma_ball(), method="guess")


def test_half_expectation_integrals():
    for s, ms in ((sigma_ball(), MP_S), (arb(2), mpmath.mpf(2))):
        halves = half_expectation_integrals(s)
        g = lambda z: mpmath.exp(ms * z - ms**2) * mpmath.npdf(z)  # noqa: E731
        assert contains(halves.below, mpmath.quad(g, [-mpmath.inf, ms]))
        assert contains(halves.above, mpmath.quad(g, [ms, mpmath.inf]))
        assert decide_contains(halves.below, formulas.half_expectation.ball(s)) is TRUE
        assert decide_contains(halves.above, formulas.half_expectation.ball(s)) is TRUE


@pytest.mark.parametrize("n", [0, 3, 200])
def test_unclipped_error_integral(n):
    integral = unclipped_error_integral(n, CC, sigma_ball())
    f = lambda z: abs((n + 1) * mpmath.exp(MP_S * z - MP_S**2) - 1 - n) * mpmath.npdf(z)  # noqa: E731
    assert contains(integral, mpmath.quad(f, [-mpmath.inf, -10, MP_S, 10, mpmath.inf]))
    assert decide_contains(integral, arb(R0 * (n + 1) / 2)) is TRUE


@pytest.mark.parametrize("n", [0, 1, 2])
def test_released_error_integral(n):
    E = released_error_integral(n, CC, sigma_ball())
    f = lambda z: abs(max((n + 1) * mpmath.exp(MP_S * z - MP_S**2) - 1, 0) - n) * mpmath.npdf(z)  # noqa: E731
    zc = (mpmath.log(mpmath.mpf(1) / (n + 1)) + MP_S**2) / MP_S
    assert contains(E, mpmath.quad(f, [-mpmath.inf, -10, zc, MP_S, 10, mpmath.inf]))
    assert decide_released_error(n, R0, CC).verdict is TRUE
    # negative control: claim E|xhat-n| <= 0.9 r0 (n+c)/(1+c) at n = 2 (clipping negligible)
    if n == 2:
        assert decide_le(E, arb(fmpq(9, 10) * R0 * 3 / 2)) is FALSE


def mp_U(n, c, sig):
    return lambda z: (n + c) * mpmath.exp(sig * z - sig**2) - c


@pytest.mark.parametrize("n,sg", [(0, "s"), (10, "s"), (3, 1)])
@pytest.mark.slow
def test_log_count_law(n, sg):
    s = sigma_ball() if sg == "s" else arb(sg)
    ms = MP_S if sg == "s" else mpmath.mpf(sg)
    law = log_count_law(n, 1, s)
    # independent route: mpmath quadrature of the count-space density of U_n
    f = lambda y: mpmath.npdf((mpmath.log((y + 1) / (n + 1)) + ms**2) / ms) / (ms * (y + 1))  # noqa: E731
    U = mp_U(n, 1, ms)
    # breakpoints at U_n(z), z = -16..16 (the density is below e^-128 beyond)
    pts = [U(z) for z in range(-16, 17, 2)]
    mean = mpmath.quad(lambda y: mpmath.log(y + 1) * f(y), pts)
    var = mpmath.quad(lambda y: (mpmath.log(y + 1) - mean) ** 2 * f(y), pts)
    cdf1 = mpmath.quad(f, pts[:9] + [U(1)])
    assert contains(law.mean, mean)
    assert contains(law.var, var)
    assert contains(law.cdf[1], cdf1)
    assert contains(law.mass, mpmath.quad(f, pts))
    # and narrow (radii ~1e-14 at 53 bits): a tail allowance many orders too wide still contains
    for ball in (law.mass, law.mean, law.var, *law.cdf.values()):
        assert ball.rad() < 1e-12
    assert contains(formulas.log_mean.ball(n, 1, s), mpmath.log(n + 1) - ms**2)
    # negative control: the mean-one drift's centre log(n+c) - sigma^2/2 is excluded
    assert decide_contains(law.mean, arb(n + 1).log() - to_arb(s) ** 2 / 2) is FALSE
    assert decide_contains(law.var, to_arb(s) ** 2 * fmpq(101, 100)) is FALSE


def test_an_undecided_precision_moves_on_to_the_next():
    """At 8 bits the enclosure of E|xhat - n| is too wide to decide; the decision must go on to
    128 bits and prove it there (stopping at the first undecided precision loses the proof)."""
    first = decide_released_error(2, R0, CC, precs=(8,))
    assert first.verdict is not TRUE
    d = decide_released_error(2, R0, CC, precs=(8, 128))
    assert d.verdict is TRUE and d.info["prec"] == 128
    # and a decided precision is the last: the record names the precision that proved it
    d = decide_released_error(2, R0, CC, precs=(8, 128, 256))
    assert d.verdict is TRUE and d.info["prec"] == 128
