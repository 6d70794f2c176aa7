"""Tests of countdp.numerics.rational: exact rationals and the mpf on either side of one."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from countdp.numerics.rational import mpf_at_least, mpf_below, to_fraction


def test_to_fraction_is_exact():
    assert to_fraction("x", 0.1) == Fraction(0.1)
    assert to_fraction("x", "1/3") == Fraction(1, 3)
    assert to_fraction("x", mpmath.mpf("0.5")) == Fraction(1, 2)
    assert to_fraction("x", mpmath.mpf("-1.25")) == Fraction(-5, 4)
    assert to_fraction("x", np.int64(7)) == 7


@given(st.fractions(min_value=Fraction(-10**6), max_value=Fraction(10**6)))
@settings(max_examples=60, deadline=None)
def test_mpf_rounding_brackets_the_rational(q):
    with mpmath.workdps(30):
        up, down = mpf_at_least(q), mpf_below(q)
        assert to_fraction("up", up) >= q > to_fraction("down", down)
        # adjacent: nothing representable strictly between them except possibly q itself
        assert up - down <= 4 * mpmath.eps * max(abs(up), mpmath.mpf(2) ** -90) + mpmath.mpf(2) ** -95


@pytest.mark.parametrize("call,name", [
    (lambda: to_fraction("value", "abc"), "value"),
    (lambda: to_fraction("value", float("nan")), "value"),
    (lambda: to_fraction("value", True), "value"),
    (lambda: to_fraction("value", mpmath.inf), "value"),
])
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
