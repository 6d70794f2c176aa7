"""countdp.numerics.roots: the root of a decreasing function on a bracket, and the tolerance."""

from __future__ import annotations

import mpmath
import pytest

from types import SimpleNamespace

from countdp.numerics.roots import newton_decreasing, root_tolerance, solve_decreasing


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


# ---- newton_decreasing: safeguarded Newton on [lo, inf) -----------------------------------------


def _log_target(c, slope=True):
    """g(x) = c - log(1 + x), root e^c - 1, with its exact slope -1/(1 + x) or none."""
    return lambda x: SimpleNamespace(g=c - mpmath.log(1 + x), slope=-1 / (1 + x) if slope else None)


@pytest.mark.parametrize("c, most", [(0.5, 7), (3, 9), (20, 16)])
def test_newton_with_the_slope_converges_quadratically_to_the_working_precision(c, most):
    """With the exact slope the root is found to 10^-28 relative, in at most ``most`` evaluations
    (measured: 7, 9, 16 including g(lo); bisection alone would need about 90), and the last step
    bounds the error."""
    root = newton_decreasing(_log_target(c), 0, mpmath.mpf("1e-25"))
    exact = mpmath.exp(c) - 1
    assert abs(root.x - exact) <= mpmath.mpf("1e-28") * (1 + exact)
    assert abs(root.x - exact) <= root.last_step  # (an exact zero of g at 30 digits ends these)
    assert root.evaluations <= most and root.hi is not None and root.lo < exact


def test_without_a_slope_it_doubles_to_a_bracket_then_bisects():
    """c = 3 (root 19.09): doublings 1, 3, 7, 15, 31 find [15, 31], then each evaluation halves
    the bracket until it is within tol = 1e-12 (1 + x): exactly 1 + 5 + ceil(log2(16 / tol))
    evaluations, and the root within the final bracket."""
    root = newton_decreasing(_log_target(3, slope=False), 0, mpmath.mpf("1e-12"))
    exact = mpmath.exp(3) - 1
    tol = mpmath.mpf("1e-12") * (1 + exact)
    assert root.evaluations == 1 + 5 + int(mpmath.ceil(mpmath.log(16 / tol, 2)))
    assert root.lo <= exact <= root.hi and root.hi - root.lo <= tol
    assert root.lo <= root.x <= root.hi


def test_a_g_positive_up_to_the_cap_gives_an_infinite_root_after_exactly_the_doublings():
    """The doublings lo = 2^k - 1 for k = 1..70 stay below the cap 2^70; the next one passes it:
    x = inf after 70 evaluations beyond g(lo), and no upper end."""
    root = newton_decreasing(lambda x: SimpleNamespace(g=mpmath.mpf(1), slope=None), 0, 1e-10)
    assert root.x == mpmath.inf and root.hi is None and root.evaluations == 71
    assert root.lo == mpmath.mpf(2) ** 70 - 1


def test_an_exact_zero_stops_the_search_and_a_far_newton_jump_is_replaced_by_doublings():
    one = newton_decreasing(lambda x: SimpleNamespace(g=1 - x, slope=mpmath.mpf(-1)), 0, 1e-10)
    assert one.x == 1 and one.evaluations == 2 and one.point.g == 0
    # Newton from 0 would jump to 1e9 > 10^6 (1 + lo): doublings first, then Newton inside
    k = mpmath.mpf("1e-9")
    far = newton_decreasing(lambda x: SimpleNamespace(g=1 - k * x, slope=-k), 0, 1e-20)
    assert abs(far.x - 10 ** 9) <= mpmath.mpf("1e-20") * 10 ** 9
    assert far.lo == 2 ** 10 - 1 and far.evaluations == 1 + 10 + 1  # ten doublings, one Newton step


def test_a_g_of_minus_infinity_beyond_a_support_end_bisects_back():
    """g = log(2 (1 - x/0.9)), -inf from x = 0.9 on (no slope there): the root 0.45 is found with
    the slope to 10^-25 and without it by bisection, never taking a Newton step from -inf."""
    def F(x, slope=True):
        if x >= mpmath.mpf("0.9"):
            return SimpleNamespace(g=-mpmath.inf, slope=None)
        return SimpleNamespace(g=mpmath.log(2 * (1 - x / mpmath.mpf("0.9"))),
                               slope=-1 / (mpmath.mpf("0.9") - x) if slope else None)
    with_slope = newton_decreasing(F, 0, mpmath.mpf("1e-25"))
    assert abs(with_slope.x - mpmath.mpf("0.45")) <= mpmath.mpf("1e-25") and with_slope.evaluations <= 9
    bisected = newton_decreasing(lambda x: F(x, slope=False), 0, mpmath.mpf("1e-12"))
    assert bisected.lo <= mpmath.mpf("0.45") <= bisected.hi
    assert bisected.evaluations == 2 + int(mpmath.ceil(mpmath.log(1 / mpmath.mpf("1.45e-12"), 2)))


def test_newton_needs_g_positive_at_lo():
    with pytest.raises(ValueError, match="g\\(lo\\) must be > 0"):
        newton_decreasing(lambda x: SimpleNamespace(g=-1 - x, slope=None), 0, 1e-10)
