"""Tests of countdp.laws.reference: the reference laws are probability laws, with the stated
cdf, samplers and parameter checks."""

import math

import mpmath
import numpy as np
import pytest

from countdp.harness.results import Settings
from countdp.laws.expectation import quad_expectation
from countdp.laws.reference import (Laplace, LaplaceDensity, Logistic, RaisedCosine, Triangular,
                                    TruncatedGaussian,
                                    TruncatedLaplace, Uniform, standard_laplace_cdf, standard_laplace_sf)


pytestmark = pytest.mark.mp_dps(30)


@pytest.mark.parametrize("law,br", [
    (Laplace(0.3, 0.7), (0.3,)), (Uniform(-1, 2), ()), (Logistic(0, 0.7), (0,)),
    (Triangular(1, 2), (1,)), (RaisedCosine(1.5), ()), (TruncatedLaplace(2, 0.5), (0,)),
    (TruncatedGaussian(-1, 2.5), ())])
def test_reference_laws_are_probability_densities(law, br):
    total, err = quad_expectation(law, lambda x: mpmath.mpf(1), br)
    assert abs(total - 1) < 1e-20 + err


@pytest.mark.parametrize("law, own", [
    (Uniform(-1, 2), None), (Uniform(2, 5), None), (Triangular(1, 2), None), (RaisedCosine(1.5), None),
    (TruncatedLaplace(2, 0.25), 0.25), (TruncatedLaplace(2, 10), None), (TruncatedGaussian(-4, 5), 1.0),
    (TruncatedGaussian(-0.1, 0.3), None)], ids=lambda v: getattr(v, "name", str(v)))
def test_the_scale_of_a_law_on_an_interval_is_at_most_a_quarter_of_it(law, own):
    """The centre lies in the support and the scale that places quadrature nodes fits the
    support four times; where the law is narrower than that, it is the law's own scale (b of a
    truncated Laplace, 1 of a truncated N(0, 1))."""
    d = law.density
    centre, scale = (float(v) for v in d.t_center_scale())
    assert d.lo <= centre <= d.hi and 0 < scale <= (d.hi - d.lo) / 4
    if own is not None:
        assert scale == own


def test_laplace_cdf_sampler_and_kink():
    law = Laplace(1, 2)
    assert law.density.breakpoints == (1.0,)
    for x in (-3, 0.5, 1, 4):
        assert abs(float(law.mp_cdf(x)) - float(law.cdf(x))) < 1e-15
        p, _ = quad_expectation(law, lambda y: mpmath.mpf(1) if y <= x else mpmath.mpf(0), (x,))
        assert abs(p - law.mp_cdf(x)) < 1e-20
    x = law.sample(Settings().rng("laplace"), 100_000)
    assert abs(np.mean(x) - 1) < 0.05
    for z in (-40, -1, 0, 0.5, 40):
        assert abs(standard_laplace_cdf(z) + standard_laplace_sf(z) - 1) < 1e-28
    assert standard_laplace_cdf(-40) > 0 and standard_laplace_sf(40) > 0  # no cancellation


@pytest.mark.parametrize("call,name", [
    (lambda: Laplace(0, 0), "b must"), (lambda: Uniform(1, 1), "lo must"), (lambda: Logistic(0, -1), "s must"),
    (lambda: Triangular(0, 0), "w must"), (lambda: Triangular(1e6, 1e-12), r"w must exceed the rounding of mu = 1000000.0 \(w > 2.22e-10\)"),
    (lambda: RaisedCosine(-1), "w must"),
    (lambda: TruncatedLaplace(0, 1), "L must"), (lambda: TruncatedGaussian(2, 1), "a must")])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()



def test_laplace_density_float_and_mpmath():
    d = LaplaceDensity(1, 2)
    x = np.array([-3.0, 1.0, 4.5])
    assert np.allclose(d.logpdf(x), -np.abs(x - 1) / 2 - math.log(4), rtol=1e-15, atol=0)
    with mpmath.workdps(30):
        assert abs(d.mp_logpdf(mpmath.mpf("4.5")) - (-mpmath.mpf("3.5") / 2 - mpmath.log(4))) < mpmath.mpf("1e-28")
        total = mpmath.quad(lambda t: mpmath.exp(d.mp_logpdf(t)), [-mpmath.inf, 1, mpmath.inf])
        assert abs(total - 1) < mpmath.mpf("1e-25")
    assert d.breakpoints == (1.0,) and d.t_center_scale() == (1, 2)


def test_laplace_sampler_and_cdf():
    rng = np.random.default_rng(7)
    law = Laplace(1, 2)
    assert abs(np.mean(law.sample(rng, 100_000)) - 1) < 0.05
    assert law.cdf(1.0) == 0.5
    assert law.cdf(-1.0) == pytest.approx(0.5 * math.exp(-1), rel=1e-15, abs=0)
    assert law.cdf(3.0) == pytest.approx(1 - 0.5 * math.exp(-1), rel=1e-15, abs=0)


def test_laplace_bad_parameters():
    with pytest.raises(ValueError, match="^b "):
        Laplace(0, 0)
    with pytest.raises(ValueError, match="^mu "):
        Laplace(float("nan"), 1)
