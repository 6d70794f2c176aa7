"""countdp.numerics.roots: the root of a decreasing function on a bracket, and the tolerance."""

from __future__ import annotations

import mpmath
import pytest

from countdp.numerics.roots import root_tolerance, solve_decreasing


pytestmark = pytest.mark.mp_dps(30)


def test_root_of_a_decreasing_function_to_the_tolerance():
    tol = root_tolerance(2)
    x = solve_decreasing(lambda t: 2 - t * t, 0, 3, tol)
    assert abs(x - mpmath.sqrt(2)) <= tol


def test_infinite_end_values_bisect():
    """log(1/t) - 1 is +inf at t = 0: the steps bisect until both ends are finite; root 1/e."""
    f = lambda t: (mpmath.inf if t == 0 else -mpmath.log(t)) - 1  # noqa: E731
    x = solve_decreasing(f, 0, 4, root_tolerance(1))
    assert abs(x - mpmath.exp(-1)) <= root_tolerance(1)


def test_an_exact_zero_is_returned():
    assert solve_decreasing(lambda t: 1 - t, 0, 2, mpmath.mpf(10) ** -25) == 1


def test_tolerance_scales_with_the_point():
    assert root_tolerance(0, "1e-10") == mpmath.mpf("1e-10")
    assert root_tolerance(-3, "1e-10") == 4 * mpmath.mpf("1e-10")
    assert root_tolerance(0) == mpmath.mpf(10) ** -25
