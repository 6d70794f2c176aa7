"""countdp.numerics.sequences: Richardson extrapolation, the spread of a sequence, decades."""

from __future__ import annotations

import mpmath
import pytest

from countdp.numerics.sequences import decades, fitted_exponent, richardson, spread


pytestmark = pytest.mark.mp_dps(30)


def test_richardson_exact_on_polynomials_and_error():
    hs = [mpmath.mpf(10) ** -k for k in range(1, 5)]
    vals = [3 + 2 * h - 5 * h ** 2 + h ** 3 for h in hs]
    e = richardson(hs, vals)
    # through all four points the cubic is exact; the error estimate is the change from dropping
    # the coarsest point (the error of the three-point estimate): conservative, ~|a_3| h1 h2 h3
    assert abs(e.value - 3) < 1e-25 and abs(e.value - 3) <= e.error < 1e-8
    e = richardson(hs, vals, errors=[1e-10] * 4)
    assert e.error >= 1e-10


def test_the_error_of_a_constant_sequence_is_the_rounding_alone():
    """Nothing to extrapolate: the error bar is the working precision's rounding of a value of
    size 1e6 through weights of size ~10, positive and far below the value (30 digits)."""
    L = mpmath.mpf(10) ** 6 / 3
    e = richardson([mpmath.mpf(2) ** -k for k in range(1, 6)], [L] * 5)
    assert abs(e.value - L) <= e.error
    assert 0 < e.error < mpmath.mpf("1e-21") * L


def test_richardson_with_known_powers():
    """An expansion in h^2 only: powers (2, 4) use the finest three points and are exact."""
    hs = [mpmath.mpf(2) ** -k for k in range(1, 6)]
    vals = [1 + 7 * h ** 2 - 3 * h ** 4 for h in hs]
    e = richardson(hs, vals, powers=[2, 4])
    assert abs(e.value - 1) < 1e-25
    assert e.hs[0] == max(hs)  # stored coarsest first


def test_richardson_agrees_with_neville_through_all_points():
    """Default powers 1, 2, ...: the value at 0 of the interpolating polynomial (Neville's scheme),
    and the error term is the change from dropping the coarsest point."""
    hs = [mpmath.mpf(1) / 10 ** k for k in range(2, 9)]
    vals = [mpmath.log1p(h) / h + mpmath.sin(h) for h in hs]

    def neville(xs, ys):
        p = list(ys)
        for k in range(1, len(xs)):
            for i in range(len(xs) - k):
                p[i] = (xs[i + k] * p[i] - xs[i] * p[i + 1]) / (xs[i + k] - xs[i])
        return p[0]

    e = richardson(hs, vals)
    assert abs(e.value - neville(hs, vals)) < 1e-27
    assert abs(e.value - 1) <= e.error
    assert e.error >= abs(neville(hs, vals) - neville(hs[1:], vals[1:]))


def test_richardson_spread_decades_bad_input():
    for bad in (lambda: richardson([1], [1]), lambda: richardson([1, 1], [1, 2]),
                lambda: richardson([0, 1], [1, 2]), lambda: spread([]), lambda: spread([1, -1]),
                lambda: decades(3, 1)):
        with pytest.raises(ValueError):
            bad()
    assert spread([2, 4, 3]) == 2
    assert decades(1, 3) == [10, 100, 1000]


def test_fitted_exponent_of_a_power_law():
    xs = [10 ** k for k in range(1, 7)]
    assert abs(fitted_exponent(xs, [3 * mpmath.mpf(x) ** -2 for x in xs]) + 2) < 1e-25
    assert abs(fitted_exponent(xs, [mpmath.mpf(x) ** -1 * (1 + mpmath.mpf(1) / x) for x in xs]) + 1) < 0.05
    for bad in (lambda: fitted_exponent([1, 2], [1, 0]), lambda: fitted_exponent([2, 2], [1, 3])):
        with pytest.raises(ValueError):
            bad()
    # one point, or lengths that differ (zip would drop the extra x silently)
    for xs, values in (([1], [1]), ([1, 10, 100], [1, 0.1]), ([1, 10], [1, 0.1, 0.01])):
        with pytest.raises(ValueError, match="xs and values must have the same length >= 2"):
            fitted_exponent(xs, values)
