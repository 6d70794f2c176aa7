"""Laws' methods against each other: the density is exp of the log-density (float and mpmath)
and has mass one, the cdf's derivative is the density and the cdf is the integral of the density,
and the sampler matches the cdf (a seeded Kolmogorov-Smirnov test at level 1e-6)."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from scipy import stats

from countdp.laws import Gaussian, LogShiftedGaussian
from countdp.laws.generalised_gaussian import GeneralisedGaussian
from countdp.laws.reference import Laplace

pytestmark = pytest.mark.mp_dps(30)

LAWS = {
    "gaussian": (lambda: Gaussian(0.3, 1.7), [-2.0, 0.3, 1.1, 4.0], [0.3]),
    "log_shifted_gaussian": (lambda: LogShiftedGaussian(0.2, 0.5, 1), [-0.5, 0.2, 1.0, 3.0],
                             [-1.0, float(mpmath.exp(0.2)) - 1]),
    "laplace": (lambda: Laplace(0.1, 0.8), [-1.5, 0.05, 0.6, 2.0], [0.1]),
    "generalised_gaussian_p3": (lambda: GeneralisedGaussian(3, 0.5), [-0.7, 0.4, 1.3], [0.5]),
}


def _mass(law, breaks):
    lo = [-mpmath.inf] if not isinstance(law, LogShiftedGaussian) else []
    return mpmath.quad(lambda x: mpmath.exp(law.density.mp_logpdf(x)), lo + breaks + [mpmath.inf])


@pytest.mark.parametrize("name", LAWS)
def test_density_is_exp_logpdf_and_normalised(name):
    make, xs, breaks = LAWS[name]
    law = make()
    assert abs(_mass(law, breaks) - 1) < 1e-20
    for x in xs:
        mp = law.density.mp_logpdf(x)
        assert float(law.logpdf(np.array([x]))[0]) == pytest.approx(float(mp), rel=1e-12, abs=1e-12)
        assert float(law.pdf(np.array([x]))[0]) == pytest.approx(float(mpmath.exp(mp)), rel=1e-12)


@pytest.mark.parametrize("name", [n for n in LAWS if n != "generalised_gaussian_p3"])
def test_cdf_is_the_integral_of_the_density(name):
    make, xs, breaks = LAWS[name]
    law = make()
    lo = -1.0 if isinstance(law, LogShiftedGaussian) else -mpmath.inf
    for x in xs:
        pts = [lo] + [b for b in breaks if lo < b < x] + [x]
        F = mpmath.quad(lambda t: mpmath.exp(law.density.mp_logpdf(t)), pts)
        assert float(law.cdf(np.array([x]))[0]) == pytest.approx(float(F), rel=1e-10, abs=1e-14)
        h = 1e-5
        slope = (law.cdf(np.array([x + h]))[0] - law.cdf(np.array([x - h]))[0]) / (2 * h)
        assert slope == pytest.approx(float(law.pdf(np.array([x]))[0]), rel=1e-5)


@pytest.mark.parametrize("name", [n for n in LAWS if n != "generalised_gaussian_p3"])
def test_sampler_matches_the_cdf(name):
    law = LAWS[name][0]()
    x = law.sample(np.random.default_rng(7), 20_000)
    assert stats.kstest(x, lambda t: law.cdf(np.asarray(t))).pvalue > 1e-6
