"""countdp.mechanisms.large_count: lim r^2 n^2 v(n) of the shifted log-Gaussian by extrapolation."""

from __future__ import annotations

import mpmath
import pytest

from countdp import formulas
from countdp.mechanisms import ShiftedLogGaussian
from countdp.mechanisms.large_count import iterated_limit, large_count_limit, scaled_budget


pytestmark = pytest.mark.mp_dps(30)


def test_limits_of_section_5_1():
    rs = [mpmath.mpf(10) ** -k for k in range(2, 6)]
    e = iterated_limit(lambda r: ShiftedLogGaussian(r * (1 - r), 1), rs)
    assert abs(e.value - 4 / mpmath.pi) <= e.error
    assert len(e.values) == len(rs) and e.hs == rs
    e = iterated_limit(lambda r: ShiftedLogGaussian(r * (1 - r), r, r=r), rs)
    assert abs(e.value - 1 / mpmath.pi) <= e.error
    mech = ShiftedLogGaussian(0.3, 1.0)
    lim = large_count_limit(mech)
    assert abs(lim.value - 1 / (2 * mech.mp_sigma() ** 2)) <= lim.error
    assert abs(formulas.large_count_coefficient(1, 0.3, 1.0) - 1 / (2 * mech.mp_sigma() ** 2)) < 1e-25


def test_fixed_r_family():
    """r fixed, r0 = r(1-h), c = h -> 0: the coefficient tends to r^2/(2 Phi^{-1}((1+r)/2)^2)."""
    r = mpmath.mpf("0.5")
    hs = [mpmath.mpf(10) ** -k for k in range(2, 6)]
    e = iterated_limit(lambda h: ShiftedLogGaussian(r * (1 - h), h), hs, r=r)
    assert abs(e.value - formulas.large_count_coefficient(r, r, 0)) <= e.error


def test_scaled_budget_and_bad_input():
    mech = ShiftedLogGaussian(0.1, 1)
    assert scaled_budget(mech, 10, 2) == 4 * 100 * mech.mp_v(10)
    for bad in (lambda: scaled_budget(mech, 0), lambda: scaled_budget(mech, 5, -1),
                lambda: iterated_limit(lambda h: mech, [mpmath.mpf("0.1")])):
        with pytest.raises(ValueError):
            bad()
