"""Tests of countdp.airy_mechanism (the Airy log-mechanism) and of paper_checks/cstar_airy.py.

Tolerances: mpmath routes at dps 30 agree to ~1e-25 (quadrature error estimates ~1e-30);
the float64 divergence engine is compared with mpmath at 1e-13 relative (its stated floor is
2e-13: scipy's Airy functions); Monte Carlo at 5 standard errors with fixed seeds.
"""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from mpmath import mp

from countdp.laws import airy
from countdp.mechanisms import airy as AM
from countdp.harness import claims, results
from countdp.divergence import renyi
from countdp.harness.results import Settings

ROOT = Path(__file__).resolve().parents[1]
I_HALF = float(airy.airy_constants().fisher) / 2


@pytest.fixture(autouse=True)
def _dps30():
    old = mp.prec
    mp.dps = 30
    yield
    mp.prec = old


@pytest.fixture(scope="module")
def mech():
    with mp.workdps(30):
        m = AM.AiryLogMechanism(mpmath.mpf("0.05"), mpmath.mpf(1), r=mpmath.mpf("0.1"))
        m.calibration()
    return m


# ---------------------------------------------------------------------------------------------
# calibration
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rho", ["0.025", "0.4"])
def test_calibration_error_equals_target_and_drift_is_the_root(rho):
    rho = mpmath.mpf(rho)
    cal = AM.calibrate(rho)
    assert cal.b > 0 and cal.t < 0
    assert abs(cal.residual) < mpmath.mpf("1e-28")
    # independent route: Newton on the t-derivative, then the error by quadrature
    t, step, D, eD = AM.optimal_drift(cal.b)
    assert abs(t - cal.t) < mpmath.mpf("1e-26") * max(1, abs(cal.t) * 1e4)
    err, e = AM.drift_error(cal.b, t)
    assert abs(err - rho) < mpmath.mpf("1e-26")
    # the minimal error is 2 F(q) - 1 with q = -t/b
    assert abs(2 * airy.mp_cdf(-cal.t / cal.b) - 1 - rho) < mpmath.mpf("1e-26")


def test_drift_is_a_minimum():
    cal = AM.calibrate(mpmath.mpf("0.2"))
    b, t = cal.b, cal.t
    e0, _ = AM.drift_error(b, t)
    for h in (mpmath.mpf("1e-3"), mpmath.mpf("1e-2")):
        for s in (-1, 1):
            e1, _ = AM.drift_error(b, t + s * h * abs(t))
            assert e1 > e0
    Dm, _ = AM.drift_error_derivative(b, t * mpmath.mpf("1.01"))
    Dp, _ = AM.drift_error_derivative(b, t * mpmath.mpf("0.99"))
    assert Dm < 0 < Dp          # derivative changes sign at t (t < 0: 1.01 t is to the left)
    e_zero, _ = AM.drift_error(b, 0)
    assert e_zero > e0


def test_small_rho_scale():
    cal = AM.calibrate(mpmath.mpf("1e-6"))
    m = airy.airy_constants(30).mean_abs
    assert abs(cal.b * m / cal.rho - 1) < mpmath.mpf("1e-10")
    f0 = airy.mp_pdf(0)
    assert abs(cal.t / (-cal.b ** 2 * m / (2 * f0)) - 1) < mpmath.mpf("1e-5")


def test_error_quantile():
    for rho in ("1e-8", "0.3", "0.9"):
        q = AM.error_quantile(mpmath.mpf(rho))
        assert abs(2 * airy.mp_cdf(q) - 1 - mpmath.mpf(rho)) < mpmath.mpf("1e-27")


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


def test_error_scaling_and_clipping(mech):
    for n in (0, 1, 10**4):
        Eu, eu = mech.expected_abs_error_unclipped(n)
        Er, er = mech.expected_abs_error_released(n)
        assert abs(Eu - mech.error_bound(n)) < mpmath.mpf("1e-24") * (n + 1)
        assert Er <= Eu + eu + er
        assert Er < mech.target(n)


def test_sampler_matches_exact_law():
    m = AM.AiryLogMechanism(mpmath.mpf("0.45"), mpmath.mpf("0.1"), r=mpmath.mpf("0.5"))
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
    E, _ = m.expected_abs_error_released(3)
    assert abs(err.mean() - float(E)) < 5 * err.std() / math.sqrt(err.size)


@settings(max_examples=20, deadline=None)
@given(counts=st.lists(st.integers(0, 10**6), min_size=1, max_size=30), rounding=st.booleans())
def test_release_properties(counts, rounding):
    m = AM.AiryLogMechanism(0.05, 1.0, r=0.1)
    y = m.release(np.array(counts), np.random.default_rng(1), rounding=rounding)
    assert y.shape == (len(counts),)
    assert np.all(y >= 0)
    if rounding:
        assert np.all(y == np.floor(y))


# ---------------------------------------------------------------------------------------------
# divergences
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("delta", [1e-5, 0.01, 1.0, 30.0])
def test_float_kl_vs_mpmath(delta):
    kl, e = AM.shift_kl(delta)
    kl_mp, e_mp = AM.mp_kl_shift(delta)
    assert abs(kl - float(kl_mp)) <= 1e-13 * kl
    assert e >= abs(kl - float(kl_mp)) * 0.5 or abs(kl - float(kl_mp)) < 1e-15 * kl


@pytest.mark.parametrize("delta,alpha", [(0.01, 30.0), (1.0, 3.0), (1.0, 1.001)])
def test_float_renyi_vs_mpmath(delta, alpha):
    D, e = AM.shift_renyi(delta, alpha)
    Dm, em = AM.mp_shift_renyi(delta, alpha)
    assert abs(D - float(Dm)) <= 1e-12 * D + e


def test_reverse_direction_on_mechanism_laws(mech):
    # the forward direction is compared in the quick run of cstar.airy.budget
    n = 10
    P, Q = mech.unclipped_law(n), mech.unclipped_law(n - 1)
    rev = renyi.kl(Q, P)
    v = mech.v(n)
    assert abs(float(rev.value) - v) < 1e-13 * v


@settings(max_examples=8, deadline=None)
@given(delta=st.floats(min_value=1e-4, max_value=20.0))
def test_sup_at_kl_end_and_below_fisher_bound(delta):
    s = AM.shift_sup(delta, points_per_decade=4)
    assert s.attained_at_one
    assert float(np.max(s.ratios)) <= s.kl * (1 + 1e-12)
    assert s.tail_bound < s.kl
    assert s.kl / delta ** 2 <= I_HALF * (1 + 1e-12)


def test_budget_limit_and_v0(mech):
    assert mech.v(0) == mech.v(1)
    n = 10**6
    assert abs(n * n * mech.v(n) / float(mech.limit_n2v()) - 1) < 2e-6
    assert mech.v(5) > mech.v(6) > mech.v(7)


def test_score_cgf_float_matches_mpmath():
    for u in (1e-3, 0.7, 5.0, 300.0):
        K, e = AM.score_cgf_float(u)
        Km = airy.score_cgf(u, 30)
        assert abs(K - float(Km)) <= 1e-13 * abs(K) + e


def test_tail_bound_is_a_bound():
    # (alpha - 1) D_alpha <= K_s(alpha delta) at a few orders
    for delta, alpha in ((0.3, 5.0), (1.0, 2.0), (0.01, 200.0)):
        D, _ = AM.shift_renyi(delta, alpha)
        K, _ = AM.score_cgf_float(alpha * delta)
        assert (alpha - 1) * D <= K * (1 + 1e-12)


def test_richardson():
    hs = [10.0 ** -k for k in range(1, 6)]
    vals = [2 + 3 * h - h * h + 0.5 * h ** 3 for h in hs]
    est, err = AM.richardson(hs, vals, [1, 2, 3])
    assert abs(est - 2) < 1e-12 and err < 1e-10
    with pytest.raises(ValueError):
        AM.richardson([1.0], [1.0], [1])


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
])
def test_bad_parameters(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        AM.AiryLogMechanism(**kwargs)


@pytest.mark.parametrize("n", [-1, 2.5, float("nan"), "3", None])
def test_bad_counts(mech, n):
    with pytest.raises(ValueError, match=r"^n "):
        mech.v(n)
    with pytest.raises(ValueError, match=r"^n "):
        mech.released_law(n)


def test_bad_other_inputs(mech):
    with pytest.raises(ValueError, match=r"^rho "):
        AM.calibrate(0)
    with pytest.raises(ValueError, match=r"^rho "):
        AM.calibrate(float("nan"))
    with pytest.raises(ValueError, match=r"^delta "):
        AM.shift_sup(-1.0)
    with pytest.raises(ValueError, match=r"^alpha "):
        AM.shift_renyi(0.1, 1.0)
    with pytest.raises(ValueError, match=r"^counts "):
        mech.release(np.array([1, -2]), np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"^b "):
        AM.drift_error(0, 0)


# ---------------------------------------------------------------------------------------------
# the check script
# ---------------------------------------------------------------------------------------------


def _script():
    spec = importlib.util.spec_from_file_location("_test_cstar_airy", ROOT / "paper_checks" / "cstar_airy.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def quick_results():
    mod = _script()
    return {s.id: claims.run_check(s, Settings(quick=True)) for s in claims.checks_in(mod)}


def test_all_claims_declared(quick_results):
    assert set(quick_results) == {"cstar.airy.constants", "cstar.airy.subgaussian", "cstar.airy.utility",
                                  "cstar.airy.budget", "cstar.airy.limit", "cstar.airy.vs_gaussian"}


@pytest.mark.parametrize("cid", ["cstar.airy.constants", "cstar.airy.subgaussian", "cstar.airy.utility",
                                 "cstar.airy.budget", "cstar.airy.limit", "cstar.airy.vs_gaussian"])
def test_quick_check_passes_and_controls_rejected(quick_results, cid):
    res = quick_results[cid]
    assert res.status == "pass", (res.reason, res.error)
    assert res.controls and all(ctl.rejected for ctl in res.controls)
    assert all(case.ok for case in res.cases)


def test_perturbed_limit_is_rejected_directly():
    # the limit claim's comparison: the extrapolated r-sequence against 1/pi must fail
    I = airy.airy_constants(30).fisher
    rs = [mpmath.mpf(10) ** -k for k in (3, 4, 5, 6)]
    Ls = []
    for r in rs:
        b = AM.AiryLogMechanism(r * (1 - r), r, r=r).mp_b()
        Ls.append(r ** 2 * I / (2 * b ** 2))
    est, err = AM.richardson(rs, Ls, [1, 2, 3])
    assert results.holds(est, "==", AM.airy_limit_constant(30), err + mpmath.mpf("1e-20"))
    assert not results.holds(est, "==", 1 / mpmath.pi, err + mpmath.mpf("1e-20"))


def test_super_gaussian_law_is_caught_by_the_scan_comparison():
    from countdp.divergence.tight_rho import tight_rho

    P, Q = AM.generalised_gaussian_shift_pair(4, 0.5)
    res = tight_rho((P, Q), alpha_max=100, points_per_decade=4)
    mx = max(float(np.max(d.ratios)) for d in res.directions)
    assert not results.holds(mx, "<=", res.kl_max, 1e-12)
