"""countdp.formulas.limits: the limits, rates and constants of Section 5.1, eq (13), eq (32) and
Section 8 -- agreement of the three number systems, and each closed form against an independent
computation of what it claims to be."""

from __future__ import annotations

import math

import mpmath
import pytest

from _number_systems import assert_fp_mp_ball_agree
from countdp import formulas
from countdp.numerics.series import inverse_half_series

CASES = [
    (formulas.large_count_coefficient, ("0.01", "0.0099", "0.01")),
    (formulas.large_count_coefficient, ("0.3", "0.15", "1")),
    (formulas.fixed_shift_constant, ("0.5",)),
    (formulas.small_r_sigma, ("0.001", "2")),
    (formulas.boundary_budget_asymptote, ("0.01", "0.01")),
    (formulas.diagonal_boundary_order, ("0.01",)),
    (formulas.small_error_budget, ("1000", "0.05")),
    (formulas.inverse_half_remainder, ("0.25",)),
    (formulas.inverse_half_cubic_coefficient, ()),
    (formulas.log_gaussian_upper_constant, ()),
    (formulas.upper_to_lower_ratio, ()),
    (formulas.small_noise_remainder_limit, ()),
    (formulas.small_noise_remainder_piece, ("-1.5", "2.25", "0.3")),
]


@pytest.mark.parametrize("f, args", CASES, ids=[f"{f.__name__}{args}" for f, args in CASES])
def test_fp_mp_ball_agree(f, args):
    assert_fp_mp_ball_agree(f, args, scale="0.1")  # the remainder of Phi^{-1} cancels in float64


def test_large_count_coefficient_is_the_limit_of_the_budget():
    """n^2 v(n) at n = 10^12 (eq 6) against r^2/(2 sigma^2) with r = 1 (Theorem 3.1(iii))."""
    with mpmath.workdps(40):
        s = formulas.sigma("0.3", 1)
        n = mpmath.mpf(10) ** 12
        assert abs(n * n * formulas.budget(n, s, 1) - formulas.large_count_coefficient(1, "0.3", 1)) < 1e-10


def test_second_regime_is_the_coefficient_at_zero_shift():
    """r0 = r, c = 0: sigma = Phi^{-1}((1+r)/2), so the coefficient is r^2/(2 Phi^{-1}((1+r)/2)^2)."""
    with mpmath.workdps(30):
        r = mpmath.mpf("0.2")
        x = mpmath.sqrt(2) * mpmath.erfinv(r)
        assert abs(formulas.large_count_coefficient(r, r, 0) - r * r / (2 * x * x)) < 1e-28
        assert abs(formulas.fixed_shift_constant(0) - 1 / mpmath.pi) < 1e-29


@pytest.mark.parametrize("r", ["0.1", "1e-4", "1e-7"])
def test_inverse_half_remainder_against_series(r):
    with mpmath.workdps(30):
        r = mpmath.mpf(r)
        s = inverse_half_series(9)
        series_rem = mpmath.fsum(s[k] * r ** k for k in range(3, 10))
        guard = 10 + 3 * int(max(0, -mpmath.log10(r)))
        with mpmath.workdps(30 + guard):
            rem = formulas.inverse_half_remainder(r)
        assert abs(rem - series_rem) < abs(series_rem) * 1e-6 + mpmath.mpf(10) ** -25 * r ** 3
        assert abs(s[3] - formulas.inverse_half_cubic_coefficient()) < 1e-25


def test_constants_of_eq_32():
    with mpmath.workdps(30):
        upper, lower = formulas.log_gaussian_upper_constant(), formulas.gaussian_prior_constant()
        assert abs(formulas.upper_to_lower_ratio() - upper / lower) < 1e-25
        assert abs(upper - formulas.fixed_shift_constant(0)) < 1e-29


def test_small_noise_remainder_limit_by_quadrature():
    with mpmath.workdps(30):
        ref = mpmath.quad(lambda z: abs(z * z / 2 - 1) * mpmath.npdf(z),
                          [-mpmath.inf, -mpmath.sqrt(2), 0, mpmath.sqrt(2), mpmath.inf])
        assert abs(formulas.small_noise_remainder_limit() - ref) < 1e-25


def test_small_noise_remainder_piece_by_quadrature():
    with mpmath.workdps(30):
        s, a, b = mpmath.mpf("0.3"), mpmath.mpf("-1.5"), mpmath.mpf("2.25")
        ref = mpmath.quad(lambda z: (mpmath.exp(s * z - s * s) - 1 - s * z) * mpmath.npdf(z), [a, b])
        assert abs(formulas.small_noise_remainder_piece(a, b, s) - ref) < 1e-25


def test_small_r_limits_of_section_5_1():
    """sigma/(r/(1+c) sqrt(pi/2)) -> 1 and v(1)/asymptote -> 1 as r -> 0 (r0 = r): the ratios
    approach 1 at rate O(r)."""
    with mpmath.workdps(30):
        for c in (mpmath.mpf("0.5"), mpmath.mpf(2)):
            for r in (mpmath.mpf("1e-4"), mpmath.mpf("1e-6")):
                s = formulas.sigma(r, c)
                assert abs(s / formulas.small_r_sigma(r, c) - 1) < 10 * r
                v1 = formulas.budget(1, s, c)
                assert abs(v1 / formulas.boundary_budget_asymptote(r, c) - 1) < 10 * r
                assert abs(r * r / (2 * s * s) - formulas.fixed_shift_constant(c)) < 10 * r * (1 + c) ** 2
    assert math.isclose(float(formulas.fixed_shift_constant(1)), 4 / math.pi)


def test_diagonal_boundary_order_is_the_asymptote_at_c_equal_r():
    """(1+r)^2/(pi r^2) log^2((1+r)/r) over r^-2 log^2(1/r) tends to 1/pi as r -> 0."""
    with mpmath.workdps(30):
        for r in (mpmath.mpf("1e-6"), mpmath.mpf("1e-9")):
            ratio = formulas.boundary_budget_asymptote(r, r) / formulas.diagonal_boundary_order(r)
            assert abs(ratio * mpmath.pi - 1) < 10 * r


def test_small_error_budget_is_the_limit_of_the_second_regime():
    """r^2 n^2 (1/(pi r^2 n^2)) = 1/pi, the r -> 0 limit of r^2/(2 Phi^{-1}((1+r)/2)^2)."""
    with mpmath.workdps(30):
        for r in (mpmath.mpf("1e-3"), mpmath.mpf("1e-5")):
            n = 10**6
            k = formulas.large_count_coefficient(r, r, 0)
            assert abs(k / (r * r * n * n * formulas.small_error_budget(n, r)) - 1) < r * r
