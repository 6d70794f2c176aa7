"""Tests of countdp.mechanisms.airy (the Airy log-mechanism): calibration, output laws, errors,
sampler and the budget through the sup-over-alpha engine.

Tolerances: mpmath routes at dps 30 agree to ~1e-25 (quadrature error estimates ~1e-30); Monte
Carlo at 5 standard errors with fixed seeds.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from mpmath import mp

from countdp import formulas
from countdp.divergence import renyi
from countdp.laws import airy
from countdp.mechanisms.airy import (AiryLogMechanism, LogShiftedAiryDensity, airy_drift_error,
                                    airy_drift_error_derivative, calibrate, error_quantile,
                                    optimal_drift, standard_shift_pair)


pytestmark = pytest.mark.mp_dps(30)


@pytest.fixture(scope="module")
def mech():
    with mp.workdps(30):
        m = AiryLogMechanism(mpmath.mpf("0.05"), mpmath.mpf(1), r=mpmath.mpf("0.1"))
        m.calibration()
    return m


# ---------------------------------------------------------------------------------------------
# calibration
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rho", ["0.025", "0.4"])
@pytest.mark.slow
def test_calibration_error_equals_target_and_drift_is_the_root(rho):
    rho = mpmath.mpf(rho)
    cal = calibrate(rho)
    assert cal.b > 0 and cal.t < 0
    assert abs(cal.residual) < mpmath.mpf("1e-28")
    # independent route: Newton on the t-derivative, then the error by quadrature
    opt = optimal_drift(cal.b)
    assert abs(opt.t - cal.t) < mpmath.mpf("1e-26") * max(1, abs(cal.t) * 1e4)
    err = airy_drift_error(cal.b, opt.t)
    assert abs(err.value - rho) < mpmath.mpf("1e-26")
    # the minimal error is 2 F(q) - 1 with q = -t/b
    assert abs(2 * airy.mp_cdf(-cal.t / cal.b) - 1 - rho) < mpmath.mpf("1e-26")


def test_the_calibration_reaches_the_working_precision():
    """Newton in b stops only 3 digits past the target: at 40 digits b agrees with a calibration
    at 65 digits to 1e-40 relative (measured 2e-42), and its error bar covers the difference."""
    rho = mpmath.mpf("0.1")
    cal, ref = calibrate(rho, 40), calibrate(rho, 65)
    # from the float calibration Newton converges quadratically: 2-3 steps measured at 15 to 40
    # digits for rho = 1e-4 .. 0.9 (the loop allows 59)
    assert cal.dps == 40 and 2 <= cal.iterations <= 6
    with mpmath.workdps(65):
        diff = abs(cal.b - ref.b)
        assert diff < mpmath.mpf("1e-40") * ref.b
        assert diff <= cal.b_error
        # ...and is not loose: the quadrature error over H' (measured 3.8e-34 relative)
        assert cal.b_error < mpmath.mpf("1e-30") * cal.b


@pytest.mark.slow
def test_drift_is_a_minimum():
    cal = calibrate(mpmath.mpf("0.2"))
    b, t = cal.b, cal.t
    e0 = airy_drift_error(b, t).value
    for h in (mpmath.mpf("1e-3"), mpmath.mpf("1e-2")):
        for s in (-1, 1):
            assert airy_drift_error(b, t + s * h * abs(t)).value > e0
    Dm = airy_drift_error_derivative(b, t * mpmath.mpf("1.01")).value
    Dp = airy_drift_error_derivative(b, t * mpmath.mpf("0.99")).value
    assert Dm < 0 < Dp          # derivative changes sign at t (t < 0: 1.01 t is to the left)
    assert airy_drift_error(b, 0).value > e0


def test_small_rho_scale():
    cal = calibrate(mpmath.mpf("1e-6"))
    m = airy.airy_constants(30).mean_abs
    assert abs(cal.b * m / cal.rho - 1) < mpmath.mpf("1e-10")
    f0 = airy.mp_pdf(0)
    assert abs(cal.t / (-cal.b ** 2 * m / (2 * f0)) - 1) < mpmath.mpf("1e-5")


@pytest.mark.parametrize("dps,tol", [(30, "1e-27"), (60, "1e-57")])
def test_error_quantile(dps, tol):
    """2 F(q) - 1 = rho to the working precision (measured 1e-61 at 60 digits)."""
    with mp.workdps(dps):
        for rho in ("1e-8", "0.3", "0.9"):
            q = error_quantile(mpmath.mpf(rho))
            assert abs(2 * airy.mp_cdf(q) - 1 - mpmath.mpf(rho)) < mpmath.mpf(tol)


class _Counting:
    """A module whose functions ``names`` count their calls."""

    def __init__(self, inner, *names):
        self.inner, self.names, self.calls = inner, names, 0

    def __getattr__(self, name):
        f = getattr(self.inner, name)
        if name not in self.names:
            return f

        def counted(*args, **kwargs):
            self.calls += 1
            return f(*args, **kwargs)
        return counted


@pytest.mark.parametrize("dps,most", [(30, 2), (60, 3)])
def test_newton_for_the_error_quantile_starts_at_the_float_quantile(monkeypatch, dps, most):
    """From the float ppf (16 digits) Newton doubles the digits per step and stops once its step
    is at the rounding level: 2 mass evaluations at 30 digits, 3 at 60 (measured; the loop
    allows 60).  One mass evaluation per step: a quadrature below q = 1, the tail above."""
    import countdp.mechanisms.airy as module
    with mp.workdps(dps):
        for rho in ("1e-8", "0.3", "0.9"):
            laws, quad = _Counting(airy, "mp_sf"), _Counting(mpmath, "quad")
            monkeypatch.setattr(module, "airy", laws)
            monkeypatch.setattr(module, "mpmath", quad)
            error_quantile(mpmath.mpf(rho))
            monkeypatch.undo()
            assert laws.calls + quad.calls <= most, rho


@pytest.mark.parametrize("rho,most", [("0.025", 5), ("0.4", 6), ("0.9", 8)])
@pytest.mark.slow
def test_newton_for_the_drift_starts_at_the_small_b_drift(monkeypatch, rho, most):
    """From the small-b drift -b^2 m/(2 f(0)) Newton on D(t) takes 4 to 7 steps at 30 digits for
    rho = 0.025 .. 0.9 (measured: ``most`` derivative evaluations, the last one at the root)."""
    import countdp.mechanisms.airy as module
    b = calibrate(mpmath.mpf(rho)).b
    calls = []

    def derivative(*args):
        calls.append(args)
        return airy_drift_error_derivative(*args)
    monkeypatch.setattr(module, "airy_drift_error_derivative", derivative)
    optimal_drift(b)
    assert len(calls) <= most


@pytest.mark.parametrize("rho", [1e-6, 0.025, 0.4, 0.9, 0.999])
def test_the_float_start_of_the_calibration_is_accurate_and_mostly_newton(monkeypatch, rho):
    """The float64 start is within 4e-15 relative of the calibrated b (measured <= 1.7e-15),
    in at most 12 iterations (measured 2, 3, 4, 8, 7; bisection alone needs ~50).  Newton's last
    step is below an ulp and may land on the bracket's end just set: that is convergence (before,
    it fell back to bisection there and took 11 to 51 iterations, by the machine's rounding)."""
    most = 12
    import countdp.mechanisms.airy as module
    q = float(error_quantile(rho))
    ref = calibrate(rho).b
    counting = _Counting(np, "expm1")  # one expm1 per iteration of the float calibration
    monkeypatch.setattr(module, "np", counting)
    b = module._calibrate_float(rho, q)
    assert abs(b - ref) < 4e-15 * ref
    assert counting.calls <= most


# ---------------------------------------------------------------------------------------------
# laws, errors, sampler
# ---------------------------------------------------------------------------------------------


def test_laws_normalised(mech):
    for n in (0, 3):
        U = mech.unclipped_law(n)
        d = U.density
        mu, b = d.mu, d.b
        tot = mpmath.quad(lambda w: mpmath.exp(d.mp_log_integrand_t(w)),
                          [-mpmath.inf, mu - 4 * b, mu, mu + 4 * b, mpmath.inf])
        assert abs(tot - 1) < mpmath.mpf("1e-25")
        R = mech.released_law(n)
        assert abs(R.atom_mass + R.density.mass() - 1) < mpmath.mpf("1e-25")
        # the x-space log-density matches the w-space one (Jacobian e^w)
        w = mu + b / 3
        x = d.to_x(w)
        assert abs(d.mp_logpdf(x) + w - d.mp_log_integrand_t(w)) < mpmath.mpf("1e-25")
        assert abs(float(d.logpdf(np.array([float(x)]))[0]) - float(d.mp_logpdf(x))) < 1e-12


@pytest.mark.slow
def test_error_scaling_and_clipping(mech):
    for n in (0, 1, 10**4):
        Eu = mech.expected_abs_error_unclipped(n)
        Er = mech.expected_abs_error_released(n)
        assert abs(Eu.value - mech.error_bound(n)) < mpmath.mpf("1e-24") * (n + 1)
        assert Er.value <= Eu.value + Eu.error + Er.error
        assert Er.value < mech.target(n)


@pytest.mark.parametrize("n", [0, 3, 10])
@pytest.mark.slow
def test_the_released_error_is_integrated_to_the_working_precision(n):
    """E|Y - n| of the released law: its panels split at the Airy kink w = mu and at scale
    multiples about it, so the two-precision bar is of the working precision's size (1e-30 at
    30 digits; panels that miss the kink leave 1e-13) and a 45-digit evaluation lies within it."""
    mech = AiryLogMechanism(0.3, 2, r=0.5)
    E = mech.expected_abs_error_released(n)
    assert E.error < mpmath.mpf("1e-26")
    with mpmath.workdps(45):
        ref = mech.expected_abs_error_released(n)
    assert abs(E.value - ref.value) <= E.error + ref.error


def test_sampler_matches_exact_law():
    m = AiryLogMechanism(mpmath.mpf("0.45"), mpmath.mpf("0.1"), r=mpmath.mpf("0.5"))
    rng = np.random.default_rng(20260715)
    # n = 0: the atom at 0 has mass F(q) = (1 + rho)/2
    law = m.released_law(0)
    atom = float(law.atom_mass)
    assert abs(atom - (1 + float(m.rho)) / 2) < 1e-12
    y = m.release(np.zeros(200_000, dtype=int), rng)
    freq = float(np.mean(y == 0))
    assert abs(freq - atom) < 5 * math.sqrt(atom * (1 - atom) / y.size)
    # n = 3: the mean absolute error against the quadrature
    y = m.release(np.full(200_000, 3), rng)
    err = np.abs(y - 3)
    E = m.expected_abs_error_released(3)
    assert abs(err.mean() - float(E.value)) < 5 * err.std() / math.sqrt(err.size)


@settings(max_examples=20, deadline=None)
@given(counts=st.lists(st.integers(0, 10**6), min_size=1, max_size=30), rounding=st.booleans())
def test_release_properties(counts, rounding):
    m = AiryLogMechanism(0.05, 1.0, r=0.1)
    y = m.release(np.array(counts), np.random.default_rng(1), rounding=rounding)
    assert y.shape == (len(counts),)
    assert np.all(y >= 0)
    if rounding:
        assert np.all(y == np.floor(y))


# ---------------------------------------------------------------------------------------------
# divergences
# ---------------------------------------------------------------------------------------------


def test_reverse_direction_on_mechanism_laws(mech):
    # the forward direction is compared in the quick run of cstar.airy.budget
    n = 10
    P, Q = mech.unclipped_law(n), mech.unclipped_law(n - 1)
    rev = renyi.kl(Q, P)
    v = mech.v(n)
    assert abs(float(rev.value) - v) < 1e-13 * v


def test_budget_limit_and_v0(mech):
    assert mech.v(0) == mech.v(1)
    n = 10**6
    assert abs(n * n * mech.v(n) / float(mech.limit_n2v()) - 1) < 2e-6
    assert mech.v(5) > mech.v(6) > mech.v(7)
    assert abs(mech.limit_n2v() - formulas.airy_fisher() / (2 * mech.mp_b() ** 2)) < mpmath.mpf("1e-25")


@pytest.mark.slow
def test_budget_is_the_engine_on_the_standardised_pair(mech):
    s = mech.budget(10)
    assert s.attained_at_one and s.best().end.bound < s.kl
    assert s is mech.budget(10)                     # cached per shift
    assert abs(float(mech.delta(10)) - float(formulas.log_gap(10, mech.c) / mech.mp_b())) == 0
    v = mech.mp_v(10)
    assert abs(v.value - s.value) <= v.error + float(s.value - s.lo) + 1e-15 * s.value
    assert v.error < mpmath.mpf("1e-25")
    assert np.array_equal(mech.v_array([3, 4]), np.array([mech.v(3), mech.v(4)]))


# ---------------------------------------------------------------------------------------------
# bad inputs
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs,name", [
    (dict(r0=0.1, c=1.0, r=0.1), "r0"),
    (dict(r0=0.2, c=1.0, r=0.1), "r0"),
    (dict(r0=0.05, c=0.0, r=0.1), "c"),
    (dict(r0=0.05, c=-1.0, r=0.1), "c"),
    (dict(r0=float("nan"), c=1.0, r=0.1), "r0"),
    (dict(r0=0.05, c=float("nan"), r=0.1), "c"),
    (dict(r0=0.05, c=1.0, r=float("nan")), "r"),
    (dict(r0=1.0, c=1.0), "r0"),
    (dict(r0=0.05, c=1.0, rho_override=0.0), "rho_override"),
    (dict(r0=0.05, c=1.0, rho_override=-0.5), "rho_override"),
    (dict(r0=0.05, c=1.0, rho_override=1.0), "rho_override"),
    (dict(r0=0.05, c=1.0, rho_override=float("nan")), "rho_override"),
])
def test_bad_parameters(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        AiryLogMechanism(**kwargs)


@pytest.mark.parametrize("rho", [1e-9, 0.2, 0.999])
def test_a_rho_override_inside_the_open_unit_interval_is_the_target(rho):
    """The negative controls' error target: any rho in (0, 1) is taken as given."""
    assert AiryLogMechanism(0.05, 1.0, rho_override=rho).rho == mpmath.mpf(rho)
    assert AiryLogMechanism(0.05, 1.0).rho == mpmath.mpf(0.05) / 2


@pytest.mark.parametrize("n", [-1, 2.5, float("nan"), "3", None])
def test_bad_counts(mech, n):
    with pytest.raises(ValueError, match=r"^n "):
        mech.v(n)
    with pytest.raises(ValueError, match=r"^n "):
        mech.released_law(n)


def test_bad_other_inputs(mech):
    with pytest.raises(ValueError, match=r"^rho "):
        calibrate(0)
    with pytest.raises(ValueError, match=r"^rho "):
        calibrate(float("nan"))
    with pytest.raises(ValueError, match=r"^delta "):
        standard_shift_pair(-1.0)
    with pytest.raises(ValueError, match=r"^points_per_decade "):
        mech.budget(3, points_per_decade=1)
    with pytest.raises(ValueError, match=r"^counts "):
        mech.release(np.array([1, -2]), np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"^b "):
        airy_drift_error(0, 0)


@pytest.mark.parametrize("b", ["0.9", "6"])
@pytest.mark.slow
def test_the_tilt_balance_is_its_defining_integral_on_either_route(b):
    """H(b) = E[expm1(bX) sign(X - q)] and H'(b) = E[X e^{bX} sign(X - q)]: the Gauss-Legendre
    grid (b = 0.9) and, where the grid's window would leave out the tails (b = 6), mpmath's
    quadrature -- each against the integrals of the density written out."""
    from countdp.mechanisms.airy import tilt_balance

    with mp.workdps(25):
        b, q = mp.mpf(b), mp.mpf("0.3")
        grid = airy.mp_gauss_legendre(mp.prec)
        assert grid.tail_ok(b) == (b < 1)   # f(32) e^{32 b} below 2^-(prec + 10) only for b < 5.5
        tb = tilt_balance(b, q)
        sgn = lambda x: 1 if x > q else -1  # noqa: E731
        pts = [-mp.inf, 0, q, mp.inf]
        H = mp.quad(lambda x: mp.expm1(b * x) * sgn(x) * airy.mp_pdf(x), pts)
        dH = mp.quad(lambda x: x * mp.exp(b * x) * sgn(x) * airy.mp_pdf(x), pts)
        assert abs(tb.value.value - H) <= tb.value.error + mp.mpf(10) ** -18 * abs(H)
        assert abs(tb.slope.value - dH) <= tb.slope.error + mp.mpf(10) ** -18 * abs(dH)


def test_the_noise_declares_its_score_bound_and_its_kinks():
    """The released laws' noise declares a score-CGF constant at or above the certified Fisher
    information (within 1e-4: measured 9.4e-6 above), and its kinks: log f is C^2 at 0, where
    its third derivative jumps from -2 to 2 (2 (log Ai)''' = 2 at a1'), and smooth elsewhere."""
    fisher = airy.airy_constants(30).fisher
    assert fisher <= LogShiftedAiryDensity.noise_score_subgaussian < fisher + mpmath.mpf("1e-4")
    h = mpmath.mpf("1e-3")

    def jump(z, k):
        z = mpmath.mpf(z)
        return mpmath.diff(airy.mp_logpdf, z + h, k) - mpmath.diff(airy.mp_logpdf, z - h, k)

    assert LogShiftedAiryDensity.noise_kinks
    for z in LogShiftedAiryDensity.noise_kinks:
        assert abs(jump(z, 3) - 4) < mpmath.mpf("0.01")          # measured 3.9917
        assert abs(jump(z, 1)) < mpmath.mpf("0.01") and abs(jump(z, 2)) < mpmath.mpf("0.01")
    for z in ("-1", "0.5", "1", "2.5"):
        assert abs(jump(z, 3)) < mpmath.mpf("0.01")              # measured <= 1e-3


@pytest.mark.slow
def test_the_released_error_bar_covers_the_law_rounded_near_its_clip_point():
    """E|Y - 0| of the Airy mechanism (r0 = 0.175, c = 16.7) at 31 digits: the integrand
    |e^w - c| rounds to eps c where the value is 0.08, and mpmath's estimate does not see it; the
    value was 3.3e-32 off under a bar of 2e-32.  The law and the integral now run at two
    precisions.  Reference: the same quantity at 71 digits (its bar 1e-72)."""
    mech = AiryLogMechanism(0.17529103781623667, 16.671151447111278)
    with mpmath.workdps(31):
        got = mech.expected_abs_error_released(0)
    with mpmath.workdps(71):
        ref = mech.expected_abs_error_released(0)
        assert ref.error < mpmath.mpf(10) ** -60
        assert abs(got.value - ref.value) <= got.error
