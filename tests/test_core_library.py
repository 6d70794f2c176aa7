"""Unit and property tests of the core library: normal functions, laws, the mechanism, the
Renyi engine, Monte Carlo helpers, and bad-input handling."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from countdp import formulas
from countdp import mechanisms as M
from countdp.numerics import normal
from countdp.laws import FinitePmf, Gaussian, LogShiftedGaussian, PointMass
from countdp.divergence.renyi import gaussian_renyi, kl, renyi
from countdp.numerics.montecarlo import mc_mean
from countdp.laws.expectation import mc_abs_error, quad_expectation

# ---------------------------------------------------------------------------------------------
# strategies: admissible designs (r, r0, c), counts, orders
# ---------------------------------------------------------------------------------------------

rs = st.floats(0.01, 1.0)
fracs = st.floats(0.05, 0.95)
cs = st.floats(0.05, 5.0)
ns = st.integers(0, 10**6)
alphas = st.floats(1.01, 50.0)


def design(r, frac, c):
    return M.ShiftedLogGaussian(r * frac, c, r=r)


# ---------------------------------------------------------------------------------------------
# normal
# ---------------------------------------------------------------------------------------------

def test_normal_float_vs_mpmath():
    xs = np.array([-30.0, -5.0, -1.0, 0.0, 0.3, 2.0, 8.0])
    for x in xs:
        assert normal.Phi(x) == pytest.approx(float(mpmath.ncdf(x)), rel=1e-12, abs=1e-300)
        assert normal.log_Phi(x) == pytest.approx(float(mpmath.log(mpmath.ncdf(x))), rel=1e-13)
        assert normal.phi(x) == pytest.approx(float(mpmath.npdf(x)), rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("p", ["1e-30", "0.001", "0.4", "0.5", "0.50625", "0.9", "0.999999"])
def test_mp_phi_inv_roundtrip(p):
    with mpmath.workdps(40):
        x = normal.mp_Phi_inv(mpmath.mpf(p))
        assert abs(mpmath.ncdf(x) - mpmath.mpf(p)) <= mpmath.mpf(p) * mpmath.mpf(10) ** -35


def test_phi_diff_no_cancellation():
    with mpmath.workdps(30):
        d = normal.mp_Phi_diff(40, 41)
    with mpmath.workdps(80):
        ref = (mpmath.erfc(40 / mpmath.sqrt(2)) - mpmath.erfc(41 / mpmath.sqrt(2))) / 2
        assert abs(d - ref) / ref < mpmath.mpf(10) ** -25


# ---------------------------------------------------------------------------------------------
# mechanism: calibration, budget, errors
# ---------------------------------------------------------------------------------------------

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
def test_error_formula_matches_quadrature(r, frac, c, n):
    mech = design(r, frac, c)
    with mpmath.workdps(25):
        closed = mech.expected_abs_error_unclipped(n)
        assert abs(closed - mpmath.mpf(mech.r0) * (n + mpmath.mpf(c)) / (1 + mpmath.mpf(c))) < 1e-18 * (n + 1)
        q, err = quad_expectation(mech.released_law(n), lambda y: abs(y - n), breaks=[n] if n else [])
        assert abs(q - mech.expected_abs_error_released(n)) <= err + mpmath.mpf(10) ** -15 * (n + 1)
        assert q <= closed * (1 + mpmath.mpf(10) ** -15)


def test_drift_error_closed_form_against_quadrature():
    with mpmath.workdps(30):
        for s, a in [(0.3, 0.09), (0.3, 0.045), (1.5, 0.2), (0.01, 0.0)]:
            q, err = quad_expectation(Gaussian(-a, s), lambda w: abs(mpmath.exp(w) - 1), breaks=[0])
            assert abs(q - formulas.drift_error(s, a)) <= err + mpmath.mpf(10) ** -25
        assert abs(formulas.drift_error(0.7, mpmath.mpf(0.49)) - formulas.multiplicative_error(0.7)) < mpmath.mpf(10) ** -25


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
    mech = M.ShiftedLogGaussian(0.45, 0.1, r=0.9)
    y = mech.release(np.zeros(400_000, dtype=int), np.random.default_rng(3))
    atom = float(mech.released_law(0).atom_mass)
    se = math.sqrt(atom * (1 - atom) / y.size)
    assert abs(np.mean(y == 0) - atom) < 5 * se


def test_rounded_law_is_a_probability_law():
    mech = M.ShiftedLogGaussian(0.45, 1.0, r=0.9)
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
    mech = M.ShiftedLogGaussian(0.45, 1.0, r=0.9)
    law = mech.rounded_law(3)
    ks = law.sample(np.random.default_rng(5), 300_000)
    for k in (0, 2, 3, 5):
        p = float(law.mp_pmf(k))
        assert abs(np.mean(ks == k) - p) < 5 * math.sqrt(p * (1 - p) / ks.size)


# ---------------------------------------------------------------------------------------------
# Renyi engine
# ---------------------------------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(rs, fracs, cs, st.integers(0, 10**6), st.integers(0, 10**6), alphas)
def test_eq12_symmetric_closed_form(r, frac, c, n, m, alpha):
    mech = design(r, frac, c)
    with mpmath.workdps(30):
        a = renyi(mech.unclipped_law(n), mech.unclipped_law(m), alpha)
        b = renyi(mech.unclipped_law(m), mech.unclipped_law(n), alpha)
        expected = alpha * mpmath.log((n + mpmath.mpf(c)) / (m + mpmath.mpf(c))) ** 2 / (2 * mech.mp_sigma() ** 2)
        assert abs(a.value - b.value) <= mpmath.mpf(10) ** -25 * (1 + expected)
        assert abs(a.value - expected) <= mpmath.mpf(10) ** -25 * (1 + expected)


@settings(max_examples=12, deadline=None)
@given(rs, fracs, cs, st.integers(1, 1000), st.sampled_from([1.01, 2.0, 7.0]))
def test_quadrature_matches_closed_form_and_is_nonnegative(r, frac, c, n, alpha):
    mech = design(r, frac, c)
    with mpmath.workdps(25):
        P, Q = mech.unclipped_law(n - 1), mech.unclipped_law(n)
        q = renyi(P, Q, alpha, method="quadrature")
        closed = renyi(P, Q, alpha, method="closed")
        assert abs(q.value - closed.value) <= q.error + closed.value * mpmath.mpf(10) ** -18
        rel = renyi(mech.released_law(n - 1), mech.released_law(n), alpha)
        assert 0 <= rel.value <= closed.value * (1 + mpmath.mpf(10) ** -18) + rel.error


@pytest.mark.parametrize("law", [Gaussian(0.3, 2.0), LogShiftedGaussian(0.1, 0.4, 1.0), FinitePmf({0: 0.3, 2: 0.7}),
                                 M.ShiftedLogGaussian(0.45, 1.0).released_law(2)])
def test_divergence_of_identical_laws_is_zero(law):
    with mpmath.workdps(25):
        for alpha in (1.5, 10):
            d = renyi(law, law, alpha, method="quadrature")
            assert abs(d.value) <= d.error + mpmath.mpf(10) ** -18
        assert abs(kl(law, law, method="quadrature").value) < mpmath.mpf(10) ** -18


def test_kl_is_the_alpha_to_one_limit():
    mech = M.ShiftedLogGaussian(0.45, 0.1)
    P, Q = mech.released_law(0), mech.released_law(1)
    with mpmath.workdps(30):
        k = kl(P, Q).value
        gaps = [abs(renyi(P, Q, 1 + mpmath.mpf(10) ** -j).value - k) for j in (2, 3, 4)]
        assert gaps[0] > gaps[1] > gaps[2]
        assert gaps[2] < gaps[0] / 50


def test_gaussian_kl_closed_vs_quadrature():
    with mpmath.workdps(25):
        P, Q = Gaussian(0, 1), Gaussian(1, 2)
        assert abs(kl(P, Q, method="quadrature").value - kl(P, Q).value) < mpmath.mpf(10) ** -18


def test_infinite_divergences_have_reasons():
    with mpmath.workdps(20):
        d = renyi(M.ShiftedLogGaussian(0.45, 1.0).released_law(1), PointMass(0), 2)
        assert not d.finite and "support mismatch" in d.reason
        d = renyi(Gaussian(0, 1), PointMass(0), 2)
        assert not d.finite and "continuous part" in d.reason
        # unequal variances above the threshold (eq 34): closed form and quadrature both infinite
        d = gaussian_renyi(3, 0, 2, 0, 1)
        assert not d.finite and "eq 34" in d.reason
        d = renyi(Gaussian(0, 2), Gaussian(0, 1), 3, method="quadrature")
        assert not d.finite and "tail" in d.reason
        d = renyi(FinitePmf({0: 0.5, 1: 0.5}), FinitePmf({0: 1}), 2)
        assert not d.finite


def test_unequal_variance_closed_form_vs_quadrature_where_finite():
    with mpmath.workdps(25):
        P, Q = Gaussian(0.2, 1.0), Gaussian(0.0, 1.3)
        for alpha in (1.5, 2.0, 2.5):
            a = renyi(P, Q, alpha, method="closed")
            b = renyi(P, Q, alpha, method="quadrature")
            assert abs(a.value - b.value) <= b.error + mpmath.mpf(10) ** -18


def test_integer_law_divergence_relabelling_and_closed_sum():
    P = FinitePmf({0: 0.2, 1: 0.5, 2: 0.3})
    Q = FinitePmf({0: 0.4, 1: 0.4, 2: 0.2})
    with mpmath.workdps(30):
        d = renyi(P, Q, 3).value
        pairs = [(mpmath.mpf(p), mpmath.mpf(q)) for p, q in (("0.2", "0.4"), ("0.5", "0.4"), ("0.3", "0.2"))]
        direct = mpmath.log(mpmath.fsum(p ** 3 * q ** -2 for p, q in pairs)) / 2
        assert abs(d - direct) < mpmath.mpf(10) ** -25


# ---------------------------------------------------------------------------------------------
# Monte Carlo helper
# ---------------------------------------------------------------------------------------------

def test_mc_mean_streams_and_is_deterministic():
    f = (lambda g, m: g.standard_normal(m) + 3.0)
    a = mc_mean(f, np.random.default_rng(1), 100_000, chunk=7_000)
    b = mc_mean(f, np.random.default_rng(1), 100_000, chunk=7_000)
    assert a == b and a.draws == 100_000
    assert abs(a.mean - 3.0) < a.halfwidth and a.se == pytest.approx(1 / math.sqrt(100_000), rel=0.05)


def test_mc_abs_error_interval_covers_exact():
    mech = M.ShiftedLogGaussian(0.45, 1.0, r=0.9)
    est = mc_abs_error(mech.released_law(5), 5, np.random.default_rng(11), 200_000)
    lo, hi = est.interval
    assert lo <= float(mech.expected_abs_error_released(5)) <= hi


# ---------------------------------------------------------------------------------------------
# bad inputs: ValueError naming the parameter and its range
# ---------------------------------------------------------------------------------------------

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
        M.ShiftedLogGaussian(**kwargs)


@pytest.mark.parametrize("n", [-1, 2.5, float("nan"), "3", None, True])
def test_bad_counts(n):
    mech = M.ShiftedLogGaussian(0.05, 1.0, r=0.1)
    with pytest.raises(ValueError, match="^n must be an integer >= 0"):
        mech.mp_v(n)


def test_bad_histograms():
    mech = M.ShiftedLogGaussian(0.05, 1.0, r=0.1)
    rng = np.random.default_rng(0)
    for bad in ([1, -2], [1.5, 2], [np.nan, 1], ["a"]):
        with pytest.raises(ValueError, match="counts must hold integers"):
            mech.release(np.array(bad), rng)


@pytest.mark.parametrize("alpha", [1, 0.5, -2, float("nan"), float("inf")])
def test_bad_orders(alpha):
    with pytest.raises(ValueError, match="alpha must"):
        renyi(Gaussian(0, 1), Gaussian(1, 1), alpha)


def test_bad_method():
    with pytest.raises(ValueError, match="method must be"):
        renyi(Gaussian(0, 1), Gaussian(1, 1), 2, method="guess")
