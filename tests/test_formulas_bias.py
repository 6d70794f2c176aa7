"""countdp.formulas.bias: the bias of the shifted log-Gaussian release (Section 8), unclipped and
released -- three number systems, and against quadrature."""

from __future__ import annotations

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from _number_systems import assert_fp_mp_ball_agree
from countdp import formulas
from countdp.mechanisms import ShiftedLogGaussian
from countdp.laws.expectation import quad_expectation

CASES = [
    (formulas.unclipped_bias, ("3", "0.5", "0.2")),
    (formulas.unclipped_bias, ("3", "0.5", "0.2", "-0.02")),
    (formulas.released_bias, ("0", "1", "0.15")),
    (formulas.released_bias, ("2", "0.1", "0.7", "-0.3")),
]


@pytest.mark.parametrize("f, args", CASES, ids=[f"{f.__name__}{args}" for f, args in CASES])
def test_fp_mp_ball_agree(f, args):
    assert_fp_mp_ball_agree(f, args, scale="0.1")  # the mean-one drift's bias is exactly 0


@settings(max_examples=20, deadline=None)
@given(st.floats(0.01, 0.95), st.floats(0.05, 5.0), st.integers(0, 10**6))
def test_unclipped_bias_negative_and_clipping_raises_mean(r0, c, n):
    with mpmath.workdps(30):
        mech = ShiftedLogGaussian(r0, c)
        s, d = mech.mp_sigma(), mech.mp_drift()
        ub = formulas.unclipped_bias(n, c, s, d)
        assert ub < 0
        assert formulas.released_bias(n, c, s, d) >= ub


def test_mean_one_drift_is_unbiased():
    with mpmath.workdps(30):
        s = mpmath.mpf("0.4")
        assert abs(formulas.unclipped_bias(100, 1, s, -s * s / 2)) < 1e-25


def test_released_bias_against_quadrature():
    with mpmath.workdps(30):
        mech = ShiftedLogGaussian(0.45, 0.5)
        for n in (0, 3, 100):
            q, qe = quad_expectation(mech.released_law(n), lambda y: y)
            closed = formulas.released_bias(n, 0.5, mech.mp_sigma(), mech.mp_drift())
            assert abs(q - n - closed) <= qe + 1e-20 * (1 + n)
