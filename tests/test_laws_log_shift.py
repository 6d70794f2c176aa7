"""countdp.laws.log_shift: the density of U = exp(mu + s X) - c for a noise X written by its
log density and survival function alone -- the defaults every noise law inherits, by value."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from countdp.laws.log_shift import LogShiftDensity


class LogisticNoise(LogShiftDensity):
    """X logistic: g(z) = e^-z / (1 + e^-z)^2, P(X > z) = 1 / (1 + e^z); nothing else written."""

    def mp_noise_logpdf(self, z):
        z = mpmath.mpf(z)
        return -z - 2 * mpmath.log1p(mpmath.exp(-z))

    def mp_noise_sf(self, z):
        return 1 / (1 + mpmath.exp(mpmath.mpf(z)))


MU, S, C = mpmath.mpf("0.5"), mpmath.mpf("0.25"), mpmath.mpf(2)


def test_the_float_noise_density_defaults_to_the_mpmath_one():
    d = LogisticNoise(MU, S, C)
    zs = np.array([-3.0, 0.0, 1.5])
    assert np.array_equal(d.noise_logpdf(zs), [float(d.mp_noise_logpdf(z)) for z in zs])
    assert d.noise_logpdf(zs).shape == zs.shape


def test_the_default_cdf_is_one_minus_the_survival_function():
    d = LogisticNoise(MU, S, C)
    with mpmath.workdps(30):
        for z in (-2, 0, mpmath.mpf("0.75")):
            assert d.mp_noise_cdf(z) == 1 - d.mp_noise_sf(z)
        # the atom clipping puts at 0: P(X <= (log c - mu)/s) = 1 - 1/(1 + e^z)
        z0 = (mpmath.log(C) - MU) / S
        assert abs(d.mp_mass_at_or_below_zero() - mpmath.exp(z0) / (1 + mpmath.exp(z0))) < mpmath.mpf(10) ** -29


def test_the_density_is_the_noise_density_changed_to_u():
    """f(u) = g((log(u + c) - mu)/s) / (s (u + c)) on u > -c (or u > 0 restricted), -inf below."""
    d = LogisticNoise(MU, S, C)
    with mpmath.workdps(30):
        for u in (mpmath.mpf("-1.5"), mpmath.mpf(0), mpmath.mpf(3)):
            t = mpmath.log(u + C)
            want = d.mp_noise_logpdf((t - MU) / S) - mpmath.log(S) - t
            assert abs(d.mp_logpdf(u) - want) < mpmath.mpf(10) ** -28
            assert abs(float(d.logpdf(float(u))) - float(want)) < 1e-13 * (1 + abs(float(want)))
        assert d.mp_logpdf(-C) == -mpmath.inf and d.mp_logpdf(-3) == -mpmath.inf
        assert np.all(d.logpdf(np.array([-2.0, -5.0])) == -np.inf)
        assert abs(mpmath.quad(d.mp_pdf, [-C, 0, mpmath.inf]) - 1) < mpmath.mpf(10) ** -20
    pos = d.restricted_to_positive()
    assert type(pos) is LogisticNoise and pos.lo == 0
    assert pos.mp_logpdf(mpmath.mpf("-0.5")) == -mpmath.inf
    assert pos.mp_logpdf(1) == d.mp_logpdf(1)
    with mpmath.workdps(30):
        z0 = (mpmath.log(C) - MU) / S
        assert abs(pos.mass() - 1 / (1 + mpmath.exp(z0))) < mpmath.mpf(10) ** -29
        assert abs(pos.mass() + d.mp_mass_at_or_below_zero() - 1) < mpmath.mpf(10) ** -29
    assert d.mass() == 1


def test_the_coordinate_is_log_u_plus_c():
    d = LogisticNoise(MU, S, C)
    with mpmath.workdps(30):
        u = mpmath.mpf("1.25")
        t = d.to_t(u)
        assert t == mpmath.log(u + C) and abs(d.to_x(t) - u) < mpmath.mpf(10) ** -29
        assert d.mp_log_dx_dt(t) == t
        assert abs(d.mp_log_integrand_t(t) - (d.mp_logpdf(u) + t)) < mpmath.mpf(10) ** -28
    assert d.t_range() == (-np.inf, np.inf) and d.mp_t_lo() is None
    pos = d.restricted_to_positive()
    assert pos.t_range()[0] == pytest.approx(float(mpmath.log(C)), rel=1e-15, abs=0)
    assert pos.mp_log_integrand_t(mpmath.log(C)) == -mpmath.inf
    assert d.t_center_scale() == (MU, S)
    assert d.coordinate_key() == ("log-shift", 2.0) and d.same_coordinate(pos)
    assert not d.same_coordinate(LogisticNoise(MU, S, 3))
    assert d.breakpoints == ()


def test_a_noise_without_its_values_says_so():
    d = LogShiftDensity(0, 1, 1)
    with pytest.raises(NotImplementedError):
        d.mp_noise_logpdf(0)
    with pytest.raises(NotImplementedError):
        d.mp_noise_sf(0)


def test_the_float_density_off_its_support_is_minus_infinity_without_warnings():
    d = LogisticNoise(MU, S, C).restricted_to_positive()
    with np.errstate(all="raise"):
        out = d.logpdf(np.array([-3.0, -2.0, 0.0, 1.0]))
    assert out[0] == out[1] == out[2] == -np.inf and np.isfinite(out[3])
