"""Tests of countdp.laws.moments: E|X - c|, P(X != x) and P(|X| > t) from atoms and densities."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest

from countdp import mechanisms
from countdp.laws import FinitePmf, Gaussian, PointMass
from countdp.laws.moments import expected_distance, mass_off, tail_mass


pytestmark = pytest.mark.mp_dps(30)


def test_moments_from_laws():
    e = expected_distance(Gaussian(0, 2))
    assert abs(e.value - 2 * mpmath.sqrt(2 / mpmath.pi)) <= e.error + 1e-25
    e = expected_distance(FinitePmf({-2: Fraction(1, 4), 0: Fraction(1, 2), 3: Fraction(1, 4)}))
    assert abs(e.value - mpmath.mpf(5) / 4) < 1e-28
    assert mass_off(PointMass(0)).value == 0
    assert abs(mass_off(Gaussian(1, 1)).value - 1) < 1e-25
    mech = mechanisms.ShiftedLogGaussian(0.25, 1.0, r=0.5)
    rounded = mech.rounded_law(1)
    assert abs(mass_off(rounded).value - (1 - rounded.mp_pmf(0))) < 1e-28
    # an integer law puts no mass at a non-integer point: all of it is off there
    assert mass_off(rounded, x=0.5).value == 1 and mass_off(rounded, x=-2.25).value == 1
    t = tail_mass(Gaussian(0, 1), 1)
    assert abs(t.value - 2 * mpmath.ncdf(-1)) < 1e-25


def test_abs_moment_about_a_center():
    e = expected_distance(PointMass(0), center=1)
    assert e.value == 1
    e = expected_distance(Gaussian(4, 2), center=4)
    assert abs(e.value - 2 * mpmath.sqrt(2 / mpmath.pi)) <= e.error + 1e-25


def test_pmf_only_integer_law_is_refused_where_it_cannot_be_summed():
    mech = mechanisms.ShiftedLogGaussian(0.25, 1.0, r=0.5)
    with pytest.raises(ValueError, match="law"):
        expected_distance(mech.rounded_law(2))
    with pytest.raises(ValueError, match="law"):
        tail_mass(mech.rounded_law(2), 1)


@pytest.mark.parametrize("call,name", [
    (lambda: tail_mass(Gaussian(0, 1), 0), "t"),
    (lambda: expected_distance(Gaussian(0, 1), center=float("nan")), "center"),
    (lambda: mass_off(Gaussian(0, 1), x=float("inf")), "x"),
])
def test_bad_input_raises_value_error_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
