"""The base classes of the laws: what a law gets when it writes only ``mp_logpdf`` (or only a
pmf, or only ``sample``), and the user-facing wrappers ``CallableDensity``, ``ContinuousLaw``,
``MixedLaw`` and ``PointMass``.  Every law of the library is built on these defaults, so each
is pinned here by its value, not only by the laws that override it."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from countdp.laws import CallableDensity, ContinuousLaw, Density, IntegerLaw, Law, MixedLaw, PointMass
from countdp.laws.base import _exact
from countdp.numerics.validate import ParameterTypeError


class Logistic(Density):
    """A density with only ``mp_logpdf`` written: every other value is the base class's."""

    def mp_logpdf(self, x):
        x = mpmath.mpf(x)
        return -x - 2 * mpmath.log1p(mpmath.exp(-x))


def test_a_density_written_in_mpmath_alone_gets_its_float_values_from_it():
    d = Logistic()
    xs = np.array([-3.0, -0.5, 0.0, 0.25, 4.0])
    want = np.array([float(d.mp_logpdf(x)) for x in xs])
    assert d.logpdf(xs).shape == xs.shape
    assert np.array_equal(d.logpdf(xs), want)
    assert d.logpdf(0.0) == pytest.approx(-2 * np.log(2), rel=1e-15, abs=0)
    assert np.array_equal(d.pdf(xs), np.exp(want))
    with mpmath.workdps(40):
        assert d.mp_pdf(1) == mpmath.exp(d.mp_logpdf(1))
        assert abs(d.mp_pdf(0) - mpmath.mpf(1) / 4) < mpmath.mpf(10) ** -39


def test_the_default_coordinate_is_the_identity_on_the_real_line():
    d = Logistic()
    assert d.mass() == 1
    assert (d.lo, d.hi) == (-np.inf, np.inf) and d.t_range() == (-np.inf, np.inf)
    assert d.breakpoints == ()
    for t in (-2.5, 0, 3):
        assert d.to_x(t) == t and d.to_t(t) == t
        assert d.mp_log_dx_dt(t) == 0
        assert d.mp_log_integrand_t(t) == d.mp_logpdf(t)
    assert d.coordinate_key() == ("identity",)
    assert d.same_coordinate(CallableDensity(lambda x: -x * x / 2))
    with pytest.raises(NotImplementedError):
        d.t_center_scale()
    with pytest.raises(NotImplementedError):
        Density().mp_logpdf(0)


def test_a_callable_density_is_minus_infinity_outside_its_interval_in_both_number_systems():
    log_half = float(np.log(0.5))
    with_np = CallableDensity(lambda x: mpmath.log(mpmath.mpf(1) / 2), lo=-1, hi=1,
                              np_logpdf=lambda x: np.full_like(x, log_half), center=0.5, scale=2)
    without_np = CallableDensity(lambda x: mpmath.log(mpmath.mpf(1) / 2), lo=-1, hi=1)
    xs = np.array([-2.0, -1.0, -0.5, 0.0, 0.999, 1.0, 3.0])
    inside = np.array([False, False, True, True, True, False, False])
    for d in (with_np, without_np):
        got = d.logpdf(xs)
        assert np.array_equal(got[inside], np.full(3, log_half))
        assert np.all(got[~inside] == -np.inf)
        assert d.mp_logpdf(1) == -mpmath.inf and d.mp_logpdf(-1) == -mpmath.inf
        assert d.mp_logpdf(0) == mpmath.log(mpmath.mpf(1) / 2)
    assert with_np.t_center_scale() == (mpmath.mpf("0.5"), 2)
    assert without_np.t_center_scale() == (0, 1)


def test_a_callable_density_reports_its_mass_and_its_breakpoints():
    d = CallableDensity(lambda x: -x, lo=0, mass="0.25", breakpoints=(1, 2.5))
    assert d.mass() == mpmath.mpf("0.25")
    assert d.breakpoints == (1.0, 2.5)
    assert CallableDensity(lambda x: -x).mass() == 1
    with pytest.raises(ValueError, match="breakpoints"):
        CallableDensity(lambda x: -x, breakpoints=(float("nan"),))


def _uniform_cdf(x):
    return np.clip(np.asarray(x, dtype=float), 0, 1)


def test_a_continuous_law_answers_with_the_functions_it_was_given():
    d = CallableDensity(lambda x: mpmath.mpf(0), lo=0, hi=1, np_logpdf=lambda x: np.zeros_like(x))
    law = ContinuousLaw(d, sampler=lambda rng, size: rng.uniform(0, 1, size), cdf=_uniform_cdf,
                        name="U(0, 1)")
    assert law.density is d and law.atoms() == {} and law.integer is False
    assert np.array_equal(law.cdf([-1, 0.25, 2]), [0, 0.25, 1])
    assert np.array_equal(law.pdf([0.5, 2.0]), [1.0, 0.0])
    assert np.array_equal(law.logpdf([0.5]), [0.0])
    assert law.describe() == "U(0, 1)"
    # the sampler gets a Generator from a seed, and the same seed gives the same draws
    a, b = law.sample(7, 5), law.sample(np.random.default_rng(7), 5)
    assert a.shape == (5,) and np.array_equal(a, b)
    with pytest.raises(ValueError, match="size"):
        law.sample(7, -1)


def test_a_continuous_law_without_a_cdf_or_a_sampler_says_so():
    law = ContinuousLaw(Logistic())
    assert law.describe() == "ContinuousLaw"
    with pytest.raises(NotImplementedError, match="no cdf"):
        law.cdf(0)
    with pytest.raises(NotImplementedError, match="no sampler"):
        law.sample(0, 3)
    with pytest.raises(ParameterTypeError, match="name must be a string"):
        ContinuousLaw(Logistic(), name=3)
    with pytest.raises(ParameterTypeError, match="density must be a countdp.laws.Density, got int"):
        ContinuousLaw(3)


def test_a_mixed_law_keeps_its_nonzero_atoms_exactly():
    law = MixedLaw({0: mpmath.mpf("0.25"), 1.5: 0, -2: 0.75}, None, name="two atoms")
    assert law.atoms() == {mpmath.mpf(0): mpmath.mpf("0.25"), mpmath.mpf(-2): mpmath.mpf("0.75")}
    law.atoms()[mpmath.mpf(7)] = 1  # a copy: the law's own atoms do not change
    assert len(law.atoms()) == 2
    assert law.describe() == "two atoms" and law.density is None
    assert MixedLaw({0: 1}, None).describe() == "mixed law"
    with pytest.raises(NotImplementedError, match="no sampler"):
        law.sample(0, 2)
    s = MixedLaw({0: 1}, None, sampler=lambda rng, size: np.zeros(size))
    assert np.array_equal(s.sample(1, 3), np.zeros(3))
    for bad in ({0: -0.1}, {0: 1.5}):
        with pytest.raises(ValueError, match="atoms"):
            MixedLaw(bad, None)
    with pytest.raises(ParameterTypeError, match="density must be a countdp.laws.Density or None"):
        MixedLaw({0: 1}, "a density")


def test_a_point_mass():
    law = PointMass(2.5)
    assert law.atoms() == {mpmath.mpf("2.5"): 1} and law.density is None
    assert np.array_equal(law.sample(0, (2, 2)), np.full((2, 2), 2.5))
    assert law.describe() == "delta_2.5"
    assert PointMass().atoms() == {0: 1}


class Coin(Law):
    """A law that writes only ``sample``: the base class validates its arguments."""

    def sample(self, rng, size):
        assert isinstance(rng, np.random.Generator)
        return rng.integers(0, 2, size)


def test_every_law_s_sampler_gets_its_arguments_checked():
    assert np.array_equal(Coin().sample(3, 4), np.random.default_rng(3).integers(0, 2, 4))
    assert Coin().sample(None, 2).shape == (2,)
    with pytest.raises(ValueError, match="size"):
        Coin().sample(3, -2)
    with pytest.raises((ValueError, TypeError), match="rng"):
        Coin().sample("seed", 2)
    assert Coin().atoms() == {} and Coin().describe() == "Coin"
    with pytest.raises(NotImplementedError, match="Law has no sampler"):
        Law().sample(0, 1)


class TwoPoint(IntegerLaw):
    """An integer law with only its pmf written."""

    def mp_pmf(self, k):
        return {0: mpmath.mpf(1) / 3, 1: mpmath.mpf(2) / 3}.get(int(k), mpmath.mpf(0))


def test_an_integer_law_s_log_pmf_and_range_come_from_its_pmf():
    law = TwoPoint()
    assert law.integer is True
    assert law.mp_pmf_range(-1, 2) == [0, mpmath.mpf(1) / 3, mpmath.mpf(2) / 3, 0]
    assert law.mp_logpmf(1) == mpmath.log(mpmath.mpf(2) / 3)
    assert law.mp_logpmf(5) == -mpmath.inf
    with pytest.raises(NotImplementedError):
        law.window(1e-10)
    with pytest.raises(NotImplementedError):
        IntegerLaw().mp_pmf(0)


@pytest.mark.parametrize("value, exact", [
    (0.1, Fraction(1, 10)),                 # a float by its shortest decimal, not its binary value
    (np.float64(0.3), Fraction(3, 10)),
    ("0.7", Fraction(7, 10)),
    ("1/3", Fraction(1, 3)),
    (np.int64(2), Fraction(2)),
    (Fraction(2, 7), Fraction(2, 7)),
    (mpmath.mpf(0.1), Fraction(3602879701896397, 2 ** 55)),  # an mpf by its binary value
])
def test_pmf_values_are_read_as_exact_rationals(value, exact):
    assert _exact(value) == exact


@pytest.mark.parametrize("value, error, words", [
    ("a third", ValueError, "numbers or decimal strings, got 'a third'"),
    ("1/0", ValueError, "numbers or decimal strings"),
    (float("inf"), ValueError, "finite, got inf"),
    (mpmath.mpf("nan"), ValueError, "finite"),
    (1j, ParameterTypeError, "real numbers, got 1j"),
])
def test_a_pmf_value_that_is_not_a_real_number_is_refused(value, error, words):
    with pytest.raises(error, match=words):
        _exact(value)
