"""countdp.mechanisms.log_gaussian: the shifted log-Gaussian mechanism -- calibration, budget,
exact errors, samplers, the rounded law, and bad-input handling."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from _designs import cs, design, fracs, rs
from countdp.laws.expectation import quad_expectation
from countdp.mechanisms import ShiftedLogGaussian


@settings(max_examples=40, deadline=None)
@given(rs, fracs, cs)
def test_sigma_calibration_property(r, frac, c):
    mech = design(r, frac, c)
    with mpmath.workdps(30):
        s = mech.mp_sigma()
        assert s > 0 and mpmath.isfinite(s)
        assert abs((2 * mpmath.ncdf(s) - 1) - mpmath.mpf(mech.r0) / (1 + mpmath.mpf(c))) < mpmath.mpf(10) ** -25


@settings(max_examples=40, deadline=None)
@given(rs, fracs, cs, st.integers(1, 10**6))
def test_v_nonincreasing_property(r, frac, c, n):
    mech = design(r, frac, c)
    with mpmath.workdps(30):
        assert mech.mp_v(n + 1) < mech.mp_v(n)
        assert mech.mp_v(0) == mech.mp_v(1)


@settings(max_examples=15, deadline=None)
@given(rs, fracs, cs, st.integers(0, 10**5))
@pytest.mark.slow
def test_error_formula_matches_quadrature(r, frac, c, n):
    mech = design(r, frac, c)
    with mpmath.workdps(25):
        closed = mech.expected_abs_error_unclipped(n)
        assert abs(closed - mpmath.mpf(mech.r0) * (n + mpmath.mpf(c)) / (1 + mpmath.mpf(c))) < 1e-18 * (n + 1)
        q, err = quad_expectation(mech.released_law(n), lambda y: abs(y - n), breaks=[n] if n else [])
        assert abs(q - mech.expected_abs_error_released(n)) <= err + mpmath.mpf(10) ** -15 * (n + 1)
        assert q <= closed * (1 + mpmath.mpf(10) ** -15)


@settings(max_examples=20, deadline=None)
@given(rs, fracs, cs, st.integers(0, 50), st.integers(0, 2**32 - 1))
def test_sampler_shape_and_seed_determinism(r, frac, c, n, seed):
    mech = design(r, frac, c)
    counts = np.array([[n, 0, 3], [1, 2, n]])
    a = mech.release(counts, np.random.default_rng(seed))
    b = mech.release(counts, np.random.default_rng(seed))
    assert a.shape == counts.shape and np.array_equal(a, b) and np.all(a >= 0)
    k = mech.release(counts, np.random.default_rng(seed), rounding=True)
    assert np.all(k == np.floor(k))


def test_release_law_matches_sampler_atom():
    mech = ShiftedLogGaussian(0.45, 0.1, r=0.9)
    y = mech.release(np.zeros(400_000, dtype=int), np.random.default_rng(3))
    atom = float(mech.released_law(0).atom_mass)
    se = math.sqrt(atom * (1 - atom) / y.size)
    assert abs(np.mean(y == 0) - atom) < 5 * se


def test_rounded_law_is_a_probability_law():
    mech = ShiftedLogGaussian(0.45, 1.0, r=0.9)
    with mpmath.workdps(30):
        for n in (0, 1, 7):
            law = mech.rounded_law(n)
            lo, hi = law.window(mpmath.mpf(10) ** -25)
            total = mpmath.fsum(law.mp_pmf(k) for k in range(lo, hi + 1))
            mean = mpmath.fsum(k * law.mp_pmf(k) for k in range(lo, hi + 1))
            assert abs(total - 1) < mpmath.mpf(10) ** -20
            # rounding keeps the mean of the released value
            q, _ = quad_expectation(mech.released_law(n), lambda y: y)
            assert abs(mean - q) < mpmath.mpf(10) ** -15


def test_rounded_sampler_matches_pmf():
    mech = ShiftedLogGaussian(0.45, 1.0, r=0.9)
    law = mech.rounded_law(3)
    ks = law.sample(np.random.default_rng(5), 300_000)
    for k in (0, 2, 3, 5):
        p = float(law.mp_pmf(k))
        assert abs(np.mean(ks == k) - p) < 5 * math.sqrt(p * (1 - p) / ks.size)


@pytest.mark.parametrize("kwargs, name", [
    (dict(r0=0.1, c=1.0, r=0.1), "r0"),
    (dict(r0=0.2, c=1.0, r=0.1), "r0"),
    (dict(r0=0.1, c=1.0, r=1.5), "r"),
    (dict(r0=0.1, c=0.0, r=0.5), "c"),
    (dict(r0=0.1, c=-1.0, r=0.5), "c"),
    (dict(r0=float("nan"), c=1.0, r=0.5), "r0"),
    (dict(r0=0.1, c=float("nan"), r=0.5), "c"),
    (dict(r0=0.1, c=1.0, r=float("nan")), "r"),
    (dict(r0=1.0, c=1.0), "r0"),
])
def test_bad_design_parameters(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} must"):
        ShiftedLogGaussian(**kwargs)


@pytest.mark.parametrize("n", [-1, 2.5, float("nan"), "3", None, True])
def test_bad_counts(n):
    mech = ShiftedLogGaussian(0.05, 1.0, r=0.1)
    with pytest.raises(ValueError, match="^n must be an integer >= 0"):
        mech.mp_v(n)


def test_bad_histograms():
    mech = ShiftedLogGaussian(0.05, 1.0, r=0.1)
    rng = np.random.default_rng(0)
    for bad in ([1, -2], [1.5, 2], [np.nan, 1], ["a"]):
        with pytest.raises(ValueError, match="counts must hold integers"):
            mech.release(np.array(bad), rng)


@pytest.mark.mp_dps(30)
@pytest.mark.parametrize("drift_factor", [1, 0.5, 0])
def test_the_unclipped_error_for_any_drift_against_quadrature(drift_factor):
    """E|U_n - n| = (n + c) E|exp(sigma Z + drift) - 1| with drift = -f sigma^2: the closed form
    (eq 9 for f = 1, Section 4.1's drift error otherwise) against quadrature over Z, split at
    the kink Z = -drift/sigma."""
    mech = ShiftedLogGaussian(0.2, 1.0, drift_factor=drift_factor)
    n = 7
    s, a = mech.mp_sigma(), mech.mp_drift()
    kink = -a / s
    quad = (n + 1) * mpmath.quad(lambda z: abs(mpmath.expm1(s * z + a)) * mpmath.npdf(z),
                                 [-mpmath.inf, kink, mpmath.inf])
    got = mech.expected_abs_error_unclipped(n)
    assert abs(got - quad) < mpmath.mpf(10) ** -25 * quad


def test_every_mechanism_s_repr_builds_it_again():
    """repr names the parameters; evaluated, it gives a mechanism with the same parameters (and
    hence the same sigma and budget)."""
    from fractions import Fraction

    from countdp.mechanisms.airy import AiryLogMechanism
    from countdp.mechanisms.constant_release import DataIndependentRelease
    from countdp.mechanisms.log_laplace import LogLaplaceMechanism
    from countdp.mechanisms.unequal_variance import UnequalVarianceGaussian

    names = {"ShiftedLogGaussian": ShiftedLogGaussian, "LogLaplaceMechanism": LogLaplaceMechanism,
             "AiryLogMechanism": AiryLogMechanism, "UnequalVarianceGaussian": UnequalVarianceGaussian,
             "DataIndependentRelease": DataIndependentRelease, "Fraction": Fraction}
    for m in (ShiftedLogGaussian(0.45, 1.0), ShiftedLogGaussian(0.1, 2.0, r=0.5, drift_factor=0.5),
              LogLaplaceMechanism(0.2, 1.0, r=0.3), AiryLogMechanism(0.2, 1.0), UnequalVarianceGaussian(0.3),
              DataIndependentRelease(Fraction(1, 3))):
        again = eval(repr(m), names)  # noqa: S307 - our own repr
        assert type(again) is type(m) and repr(again) == repr(m)
        for attr in ("r0", "c", "r", "drift_factor", "value"):
            assert getattr(again, attr, None) == getattr(m, attr, None)
    assert "drift_factor" not in repr(ShiftedLogGaussian(0.45, 1.0))
