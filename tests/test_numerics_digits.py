"""countdp.numerics.digits: the one formatter of the reports and the budget calculator."""

from __future__ import annotations

import doctest

import mpmath
import numpy as np

from countdp.numerics import digits
from countdp.numerics.digits import significant


def test_doctests():
    res = doctest.testmod(digits)
    assert res.attempted >= 1 and res.failed == 0


def test_full_range_and_the_fixed_window():
    with mpmath.workdps(30):
        assert significant(mpmath.mpf("1.15661466981758e598"), 6) == "1.15661e+598"
        assert significant(mpmath.mpf(10) ** -800 * 3, 3) == "3.0e-800"
        assert significant(mpmath.mpf("0.000123456"), 3) == "1.23e-4"  # below 10^-4: scientific
        assert significant(mpmath.mpf("0.000123456"), 3, min_fixed=-5) == "0.000123"
        assert significant(mpmath.mpf("1234567.5"), 6) == "1.23457e+6"
        assert significant(mpmath.mpf("1234567.5"), 8) == "1234567.5"
        assert significant(mpmath.mpf("1234567.5"), 15, max_fixed=6) == "1.2345675e+6"
    assert significant(mpmath.inf, 6) == "inf" and significant(-mpmath.inf, 6) == "-inf"
    assert significant(np.float64(0.25), 6) == "0.25" and significant(0, 6) == "0"


def test_an_mpf_is_not_rounded_first():
    with mpmath.workdps(50):
        x = mpmath.mpf(1) / 3
    with mpmath.workdps(15):
        assert significant(x, 40) == "0." + "3" * 40
