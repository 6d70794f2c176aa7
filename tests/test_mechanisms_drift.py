"""countdp.mechanisms.drift: the Section 4.1 numerical routes -- quadrature of the drift error and
mean, central differences with an error bar, the numerical minimiser, bad-input handling."""

from __future__ import annotations

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from countdp import formulas
from countdp.mechanisms import drift


pytestmark = pytest.mark.mp_dps(30)


@given(st.floats(0.01, 3.0), st.floats(-1.0, 10.0))
@settings(max_examples=15, deadline=None)
def test_drift_quadrature_matches_closed_form(sigma, a):
    with mpmath.workdps(30):
        err = drift.drift_error_quad(sigma, a)
        assert abs(err.value - formulas.drift_error(sigma, a)) <= err.error + 100 * mpmath.eps
        mean = drift.drift_mean_quad(sigma, a)
        assert abs(mean.value - mpmath.exp(mpmath.mpf(sigma) ** 2 / 2 - a)) <= mean.error + 100 * mpmath.eps * mean.value


def test_central_difference_on_a_known_function():
    from countdp.numerics.estimate import Estimate

    d = drift.central_difference(lambda x: Estimate(mpmath.exp(x), mpmath.mpf(0)), 1, mpmath.mpf("1e-6"))
    assert abs(d.value - mpmath.e) <= d.error
    assert d.truncation > 0


def test_drift_derivative_and_argmin():
    s = mpmath.mpf("0.5")
    d = drift.drift_derivative_numeric(s, s * s / 2)
    assert abs(d.value - formulas.drift_error_derivative(s, s * s / 2)) <= d.error
    a = drift.drift_argmin_numeric(s, s * s * mpmath.mpf("0.9"), s * s * mpmath.mpf("1.1"))
    assert abs(a.value - s * s) <= a.error and a.error < 1e-12
    with pytest.raises(ValueError, match="bracket"):
        drift.drift_argmin_numeric(s, s * s * 2, s * s * 3)


BAD = [
    (lambda: drift.drift_error_quad(0, 1), "sigma"),
    (lambda: drift.drift_error_quad(1, float("inf")), "a"),
    (lambda: drift.central_difference(lambda x: (x, 0), 0, 0), "h"),
    (lambda: drift.drift_argmin_numeric(1, 2, 1), "lo"),
    (lambda: drift.drift_argmin_numeric(1, 0.5, 2, maxiter=0), "maxiter"),
]


@pytest.mark.parametrize("call,name", BAD)
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_the_argmin_error_bar_uses_the_secant_slopes_over_the_final_bracket():
    """The bar is 2 (|D| + e_D)/slope with slope the smaller secant slope of D from a_hat to the
    final bracket ends: recomputed here from the returned pieces, on a wide bracket whose lower
    end stays far below a_hat (so a wrong distance a_hat - lo shows)."""
    s = mpmath.mpf("0.5")
    with mpmath.workdps(20):
        est = drift.drift_argmin_numeric(s, mpmath.mpf("0.001"), mpmath.mpf(3), maxiter=3)
        assert est.slope > 0
        bar = 2 * (abs(est.derivative) + est.derivative_error) / est.slope + 4 * mpmath.eps * abs(est.value)
        assert abs(est.error - bar) <= 1e-12 * bar
        # a secant slope of D = f' is a mean of f'' over part of the bracket, f'' <= 2.1 there
        # (1.81 at a = 0.1, 2.0 at a = 0.001): a slope over a wrong distance is far outside
        assert 0 < est.slope < 2.5
