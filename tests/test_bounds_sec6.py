"""Tests of countdp.bounds (Section 6) and of the Section 6 check scripts."""

import importlib.util
import math
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

from countdp import bounds as B
from countdp import formulas
from countdp import mechanisms as M
from countdp.harness.claims import checks_in, run_check
from countdp.harness.results import Settings, holds
from countdp.laws import Gaussian, PointMass
from countdp.divergence.renyi import gaussian_renyi, renyi
from countdp.laws.expectation import quad_expectation

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _precision():
    with mpmath.workdps(30):
        yield


# ------------------------------------------------------------------------------------------
# Proposition 6.2
# ------------------------------------------------------------------------------------------


def test_C_r_identity_exact_and_mp():
    for r in (Fraction(1, 10), Fraction(1, 2), Fraction(37, 100), Fraction(0.3)):
        assert B.C_r_exact(r) - 1 == 8 * r * (1 + r) / (1 - r) ** 2
        assert abs(B.C_r(r) - 1 - B.C_r_minus_one(r)) < mpmath.mpf(10) ** -27
    assert B.C_r_exact("1/10") == Fraction(169, 81)


def test_two_count_m_exact_ceil_and_binary_double():
    # C_r n = 169 exactly at n = 81 for r = 1/10; the double 0.1 is slightly larger than 1/10
    assert B.two_count_m(81, "1/10") == 169
    assert B.two_count_m(81, Fraction(1, 10)) == 169
    assert B.two_count_m(81, 0.1) == 170
    assert B.two_count_m(1, "1/10") == 3
    ns = np.arange(1, 500)
    arr = B.two_count_m_array(ns, "1/10")
    assert all(int(arr[i]) == B.two_count_m(int(n), "1/10") for i, n in enumerate(ns))


def test_two_count_bound_array_relative_error():
    ns = np.arange(1, 3000)
    arr = B.two_count_bound_array(ns, "1/10")
    for i in range(0, len(ns), 37):
        exact = B.two_count_bound_exact(int(ns[i]), "1/10")
        assert abs(Fraction(float(arr[i])) - exact) / exact <= B.TWO_COUNT_ARRAY_RTOL


def test_two_count_values():
    # n = 1, r = 1/10: m = 3, bound = 0.81 / (2 * 4)
    assert B.two_count_bound(1, "1/10") == mpmath.mpf("0.10125")
    lim = B.two_count_limit("1/10")
    assert abs(lim - mpmath.mpf("0.9") ** 6 / (128 * mpmath.mpf("0.01") * mpmath.mpf("1.21"))) < 1e-25
    for n in (1, 10, 1000, 10 ** 6):
        gap = lim - mpmath.mpf(n) ** 2 * B.two_count_bound(n, "1/10")
        assert -1e-25 <= gap <= B.two_count_limit_remainder(n, "1/10") + 1e-25


def test_markov_sum_tight_where_C_r_n_integer():
    s = B.markov_sum(81, "1/10")
    assert abs(s - mpmath.mpf("0.55")) < mpmath.mpf(10) ** -27
    t, b1, b2 = B.markov_bounds(81, 169, "1/10")
    assert abs(b1 + b2 - s) < mpmath.mpf(10) ** -26
    assert abs(t - mpmath.sqrt(81 * 169)) < 1e-25


@settings(max_examples=60, deadline=None)
@given(p=st.integers(1, 999), n=st.integers(1, 10 ** 6))
def test_property_markov_sum_at_most_half_one_plus_r(p, n):
    r = Fraction(p, 1000)
    m = B.two_count_m(n, r)
    assert Fraction(m, n) >= B.C_r_exact(r)  # the exact content of the inequality
    assert m - 1 < B.C_r_exact(r) * n
    assert B.markov_sum(n, r, m) <= (1 + mpmath.mpf(p) / 1000) / 2 + mpmath.mpf(10) ** -25


def test_smaller_C_r_breaks_the_markov_sum():
    shrunk = B.C_r_exact("1/10") * Fraction(999, 1000)
    n = 81 * 13
    m = B.two_count_m(n, "1/10", C=shrunk)
    assert m == 2195  # C_r n = 2197 exactly; 0.999 C_r n = 2194.8...
    assert not holds(B.markov_sum(n, "1/10", m), "<=", mpmath.mpf("0.55"), mpmath.mpf(10) ** -25)


# ------------------------------------------------------------------------------------------
# Many counts
# ------------------------------------------------------------------------------------------


def test_entropy_and_moments_of_uniform_and_binomial():
    H, EJ, sec = B.prior_moments(B.uniform_prior(11), 5)
    assert abs(H - mpmath.log(11)) < 1e-27 and abs(EJ - 5) < 1e-27 and abs(sec - 10) < 1e-27
    H, EJ, sec = B.prior_moments(B.binomial_prior(10, 0.25), 2)
    assert abs(EJ - 2.5) < 1e-25 and abs(sec - 2.125) < 1e-25
    assert abs(float(H) - stats.binom(10, 0.25).entropy()) < 1e-12
    assert abs(B.shannon_entropy(np.array([0.5, 0.25, 0.25])) - 1.5 * math.log(2)) < 1e-15
    ks, ps = np.arange(4), np.full(4, 0.25)
    assert abs(B.shannon_entropy((ks, ps)) - math.log(4)) < 1e-15


def test_uniform_bound_is_the_general_bound_for_the_uniform_prior():
    for n, K, r in [(1, 3, "1/10"), (10, 15, "1/10"), (1000, 1187, "1/10"), (5, 101, "1/1000")]:
        a = B.uniform_bound(n, K, r)
        b = B.many_count_bound_for_prior(B.uniform_prior(K), (K - 1) // 2, n, r)
        assert abs(a - b) <= mpmath.mpf(10) ** -25 * (1 + abs(a))


def test_best_odd_K_matches_brute_force():
    for n in (1, 3, 10, 57):
        K, val = B.best_odd_K(n, "1/10")
        brute = max(range(3, 2001, 2), key=lambda k: B.uniform_bound(n, k, "1/10"))
        assert K == brute
        assert val == B.uniform_bound(n, brute, "1/10")


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 10 ** 5), K=st.integers(1, 500), p=st.integers(1, 99))
def test_property_uniform_bound_nonnegative_and_decreasing_in_n(n, K, p):
    K = 2 * K + 1
    r = Fraction(p, 100)
    a, b = B.uniform_bound(n, K, r), B.uniform_bound(n + 1, K, r)
    assert a >= 0 and b <= a


def test_odd_K_near():
    for a, n in [(8.96, 1), (8.96, 1000), (15, 33)]:
        K = B.odd_K_near(a, "1/10", n)
        assert K % 2 == 1 and K >= 3
        if n == 1000:
            assert abs(K - a * 0.1 * n) <= 1


def test_maximiser_and_eq25():
    x, val, err = B.maximise(lambda t: -(t - mpmath.mpf(2) / 3) ** 2 + 1, 0, 5)
    assert abs(x - mpmath.mpf(2) / 3) < 1e-20 and abs(val - 1) < 1e-25
    a, v, e = B.maximise_uniform_limit(0)
    assert abs(a - 2 * mpmath.exp(1.5)) < 1e-20
    assert abs(v - 3 / (2 * mpmath.e ** 3)) < 1e-25
    assert abs(B.uniform_over_two_count_factor() - B.uniform_opt_value() * 128) < 1e-25


def test_information_lower_bound_formula():
    assert abs(B.information_lower_bound(mpmath.log(5), 0) - (mpmath.log(5) - mpmath.log(mpmath.e / 2))) < 1e-27
    v = B.many_count_bound(mpmath.log(3), 1, 2 / 3, 1000, "1/10")
    assert v == 0  # vacuous: the positive part


# ------------------------------------------------------------------------------------------
# Truncated Gaussian, quantization, Corollary 6.7
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("a,b", [(-3, 3), (-1, 2.5), (0.5, 4)])
def test_truncated_gaussian_stats_against_scipy(a, b):
    Z, mean, var, h = B.truncated_gaussian_stats(a, b)
    d = stats.truncnorm(a, b)
    assert abs(float(mean) - d.mean()) < 1e-12
    assert abs(float(var) - d.var()) < 1e-12
    assert abs(float(h) - d.entropy()) < 1e-10


def test_cor67_closed_forms_and_limit():
    assert abs(B.h_L(40) - mpmath.log(2 * mpmath.pi * mpmath.e) / 2) < 1e-25
    assert abs(B.tau2_L(40) - 1) < 1e-25
    assert abs(B.cor67_value(40) - mpmath.pi / (4 * mpmath.e ** 2)) < 1e-25
    for L in (1, 2, 3, 5):
        assert abs(B.bound30_bracket(B.x_L(L), L) - mpmath.mpf(1) / 2) < 1e-27
        assert abs(B.bound30(B.x_L(L), L, 0) - B.cor67_value(L)) < 1e-27
        assert abs(B.cor67_value(L) - B.cor67_limit()) <= B.cor67_remainder(L)
    x, v, e = B.maximise_bound30(3, 0)
    assert abs(x - B.x_L(3)) < 1e-18


@pytest.mark.parametrize("S,a,b", [(1, -3, 3), (7.5, -3, 3), (40, -1, 2.5), (3.3, 0.2, 1.7)])
def test_quantized_pmf_routes_agree_and_sum_to_one(S, a, b):
    ks, pm = B.quantized_truncated_gaussian(S, a, b, "mp")
    ks2, pf = B.quantized_truncated_gaussian(S, a, b, "float")
    assert np.array_equal(ks, ks2)
    assert abs(mpmath.fsum(pm) - 1) < 1e-25
    assert abs(math.fsum(pf) - 1) < 1e-13
    assert max(abs(float(x) - y) / float(x) for x, y in zip(pm, pf) if x > 0) < 1e-14


def test_quantized_pmf_symmetric_and_prior_shift():
    ks, ps = B.quantized_truncated_gaussian(10, -3, 3)
    assert np.allclose(ps, ps[::-1], rtol=1e-14)
    kj, pj, Bq = B.quantized_truncated_gaussian_prior(10, 3)
    assert Bq == 31 and kj.min() >= 1


@settings(max_examples=25, deadline=None)
@given(S=st.floats(0.5, 300), a=st.floats(-4, 1), w=st.floats(0.2, 5))
def test_property_quantized_pmf(S, a, w):
    ks, ps = B.quantized_truncated_gaussian(S, a, a + w)
    assert np.all(ps >= 0) and abs(math.fsum(ps) - 1) < 1e-12
    Z, mean, var, h = B.truncated_gaussian_stats(a, a + w)
    H, EQ, EQ2 = B.prior_moments((ks, ps), 0)
    assert abs(EQ - S * float(mean)) <= 0.5 + 1e-9  # eq (27), pointwise |Q - SZ| <= 1/2


# ------------------------------------------------------------------------------------------
# Laws, entropy, divergences, mutual information
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("law,br", [
    (B.laplace_law(0.3, 0.7), (0.3,)), (B.uniform_law(-1, 2), ()), (B.logistic_law(0, 0.7), (0,)),
    (B.triangular_law(1, 2), (1,)), (B.cosine_law(1.5), ()), (B.truncated_laplace_law(2, 0.5), (0,)),
    (B.truncated_gaussian_law(-1, 2.5), ())])
def test_reference_laws_are_probability_densities(law, br):
    total, err = quad_expectation(law, lambda x: mpmath.mpf(1), br)
    assert abs(total - 1) < 1e-20 + err


def test_entropy_closed_forms_and_max_entropy():
    h, e = B.differential_entropy(B.laplace_law(0, 0.8), (0,))
    assert abs(h - (1 + mpmath.log(1.6))) < 1e-25
    a, _ = B.expected_abs(B.laplace_law(0, 0.8), 0)
    assert abs(B.max_entropy_at_abs_mean(a) - h) < 1e-25
    h, e = B.differential_entropy(Gaussian(0, 1.25))
    assert abs(h - mpmath.log(2 * mpmath.pi * mpmath.e * mpmath.mpf(1.5625)) / 2) < 1e-25
    h, e = B.differential_entropy(B.triangular_law(0, 2), (0,))
    assert abs(h - (mpmath.mpf(1) / 2 + mpmath.log(2))) < 1e-25
    h, e = B.differential_entropy(B.logistic_law(0, 0.7), (0,))
    assert abs(float(h) - stats.logistic(scale=0.7).entropy()) < 1e-12


@settings(max_examples=4, deadline=None)
@given(s=st.floats(0.1, 10))
def test_property_max_entropy_gaussian_and_uniform(s):
    for law in (Gaussian(0, s), B.uniform_law(-s, s)):
        h, he = B.differential_entropy(law)
        a, ae = B.expected_abs(law, 0)
        assert h < B.max_entropy_at_abs_mean(a)


def test_total_variation_against_closed_forms():
    tv, e = B.total_variation(Gaussian(0, 1), Gaussian(0.7, 1))
    assert abs(tv - B.tv_gaussian_equal_variance(0.7, 1)) < 1e-25
    tv, e = B.total_variation(B.laplace_law(0, 0.5), B.laplace_law(0.4, 0.5))
    assert abs(tv - B.tv_laplace_equal_scale(0.4, 0.5)) < 1e-25
    tv, e = B.total_variation(Gaussian(0, 1), Gaussian(0, 1))
    assert abs(tv) < 1e-25
    assert B.total_variation(PointMass(0), PointMass(1))[0] == 1
    mech = M.ShiftedLogGaussian(0.45, 0.25, r=0.5)
    tv, e = B.total_variation(mech.released_law(1), mech.released_law(2))
    assert abs(tv - B.tv_gaussian_equal_variance(mpmath.log(mpmath.mpf(9) / 5), mech.mp_sigma())) < 1e-25


@settings(max_examples=4, deadline=None)
@given(d=st.floats(0.01, 3), s1=st.floats(0.3, 3), s2=st.floats(0.3, 3))
def test_property_tv_symmetric_bounded_and_pinsker(d, s1, s2):
    P, Q = Gaussian(0, s1), Gaussian(d, s2)
    tv, e = B.total_variation(P, Q)
    tv2, _ = B.total_variation(Q, P)
    assert 0 <= tv <= 1 and abs(tv - tv2) < 1e-20
    kl = gaussian_renyi(1, 0, s1, d, s2).value
    assert kl >= B.pinsker_lower(tv) - 1e-20


def test_kl_divergence_against_closed_forms():
    v, e = B.kl_divergence(Gaussian(0, 1), Gaussian(0.5, 2))
    assert abs(v - gaussian_renyi(1, 0, 1, 0.5, 2).value) < 1e-25
    v, e = B.kl_divergence(B.laplace_law(0, 0.5), B.laplace_law(0.3, 0.5))
    assert abs(v - B.laplace_kl(0.6)) < 1e-25
    assert B.kl_divergence(PointMass(0), PointMass(1))[0] == mpmath.inf


def test_laplace_renyi_against_quadrature():
    for alpha, d in [(1.5, 0.3), (4, 1.2)]:
        f = lambda x: mpmath.exp(alpha * (-abs(x)) + (1 - alpha) * (-abs(x - d))) / 2
        direct = mpmath.log(mpmath.quad(f, [-mpmath.inf, 0, d, mpmath.inf])) / (alpha - 1)
        assert abs(B.laplace_renyi(alpha, d) - direct) < 1e-25
        assert B.laplace_renyi(alpha, d) <= alpha * d ** 2 / 2  # eps-DP gives eps^2/2-zCDP


def test_mutual_information_limits_and_direct_quadrature():
    prior = B.uniform_prior(4)
    # independent channel: I = 0
    info = B.mutual_information(prior, lambda j: Gaussian(0, 1))
    assert abs(info.value) < 1e-12
    # separated channel: I = H(J) up to the Gaussian overlap
    info = B.mutual_information(prior, lambda j: Gaussian(100 * j, 1))
    assert abs(info.value - math.log(4)) < 1e-10
    # two-point prior through N(j, 1): direct mpmath integral
    prior2 = {0: mpmath.mpf(1) / 2, 1: mpmath.mpf(1) / 2}
    info = B.mutual_information(prior2, lambda j: Gaussian(j, 1))

    def integrand(y):
        f0, f1 = mpmath.npdf(y, 0, 1), mpmath.npdf(y, 1, 1)
        m = (f0 + f1) / 2
        return (f0 * mpmath.log(f0 / m) + f1 * mpmath.log(f1 / m)) / 2

    direct = mpmath.quad(integrand, [-mpmath.inf, 0, 0.5, 1, mpmath.inf])
    assert abs(info.value - float(direct)) < 1e-12
    assert info.error < 1e-10


def test_mutual_information_mc_agrees():
    prior = B.binomial_prior(6, 0.5)
    ch = lambda j: B.laplace_law(j, 0.7)
    info = B.mutual_information(prior, ch)
    mc = B.mutual_information_mc(prior, ch, Settings().rng("test-mi"), 100_000)
    assert abs(info.value - mc.mean) <= mc.halfwidth


def test_mutual_information_with_atoms():
    mech = M.ShiftedLogGaussian(0.9, 1, r=0.95)
    prior = B.uniform_prior(3)
    info = B.mutual_information(prior, lambda j: mech.released_law(j))  # counts 0, 1, 2: big atoms
    mc = B.mutual_information_mc(prior, lambda j: mech.released_law(j), Settings().rng("atoms"), 100_000)
    assert abs(info.value - mc.mean) <= mc.halfwidth + info.error


# ------------------------------------------------------------------------------------------
# The log-Laplace mechanism
# ------------------------------------------------------------------------------------------


def test_log_laplace_mechanism_calibration_and_budget():
    m = B.LogLaplaceMechanism(0.05, 1, r=0.1)
    b = m.mp_b()
    assert abs((1 + 1) * b / (1 - b * b) - mpmath.mpf(0.05)) < 1e-27
    # E|e^{bL} - 1| by quadrature of the Laplace law (of scale float(b): agreement to ~1e-16)
    g, ge = quad_expectation(B.laplace_law(0, float(b)), lambda l: abs(mpmath.exp(l) - 1), (0,))
    assert abs(g - m.abs_multiplicative_error()) < 1e-15
    v = m.v_array(np.arange(0, 200))
    assert np.all(np.diff(v) <= 0)
    # zCDP of the unclipped edge n-1 <-> n: D_alpha <= alpha v(n), both directions
    for n in (1, 2, 30):
        d = mpmath.log((n + 1) / mpmath.mpf(n)) / b
        for alpha in (1.5, 3, 20):
            assert B.laplace_renyi(alpha, d) <= alpha * m.mp_v(n)
    # utility: quadrature of the released law's error <= r0 n
    for n in (1, 5):
        e, ee = B.expected_abs(m.released_law(n), n)
        assert e <= 0.05 * n


def test_log_laplace_released_law_masses_and_cdf():
    m = B.LogLaplaceMechanism(0.45, 0.25, r=0.5)
    law = m.released_law(2)
    total, err = quad_expectation(law, lambda x: mpmath.mpf(1), ())
    assert abs(total - 1) < 1e-20
    p, e = B.probability_at_most(law, 1.7)
    assert abs(p - m.mp_cdf_released(2, 1.7)) < 1e-20
    # far-left atom without cancellation
    tiny = B.LogLaplaceMechanism(0.05, 1, r=0.1).released_law(5).atoms()
    assert tiny and list(tiny.values())[0] > 0


# ------------------------------------------------------------------------------------------
# Bad inputs
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: B.C_r(0), lambda: B.C_r(1), lambda: B.C_r(-0.1), lambda: B.C_r("abc"),
    lambda: B.C_r(float("nan")), lambda: B.exact_r(True), lambda: B.two_count_m(0, "1/10"),
    lambda: B.two_count_m(1.5, "1/10"), lambda: B.two_count_bound(3, 1.0),
    lambda: B.two_count_m_array([0, 1], "1/10"), lambda: B.markov_bounds(5, 5, "1/10"),
    lambda: B.uniform_bound(3, 4, "1/10"), lambda: B.uniform_bound(3, 1, "1/10"),
    lambda: B.best_odd_K(0, "1/10"), lambda: B.uniform_limit(-1, 0.1), lambda: B.uniform_limit(5, 1.5),
    lambda: B.truncated_gaussian_stats(2, 1), lambda: B.h_L(0), lambda: B.x_L(-1),
    lambda: B.quantized_truncated_gaussian(0, -1, 1), lambda: B.quantized_truncated_gaussian(2, 1, -1),
    lambda: B.quantized_truncated_gaussian(2, -1, 1, "fast"), lambda: B.prior_coefficient(1, 0),
    lambda: B.laplace_law(0, 0), lambda: B.uniform_law(1, 1), lambda: B.information_lower_bound(1, -0.1),
    lambda: B.many_count_bound(1, 1, 0, 5, 0.1), lambda: B.many_count_bound_for_prior({3: 1.0}, 3, 5, 0.1),
    lambda: B.shannon_entropy({0: -0.5, 1: 1.5}), lambda: B.maximise(lambda x: x, 2, 1),
    lambda: B.LogLaplaceMechanism(0.2, 1, r=0.1), lambda: B.LogLaplaceMechanism(0.05, 0, r=0.1),
    lambda: B.laplace_renyi(1, 0.5), lambda: B.binomial_prior(0, 0.5), lambda: B.binomial_prior(3, 1),
    lambda: B.two_count_m(3, "1/10", C=0), lambda: B.released_cdf(M.ShiftedLogGaussian(0.05, 1), 3, -1.0),
    lambda: B.mutual_information({0: 0.5, 1: 0.6}, lambda j: Gaussian(j, 1)),
    lambda: B.mutual_information({0: 0.5, 1: 0.5},
                                 lambda j: Gaussian(j, 1) if j == 0 else M.ShiftedLogGaussian(0.1, 1).released_law(3)),
])
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="r must"):
        B.C_r(2)
    with pytest.raises(ValueError, match="n must"):
        B.two_count_bound(0, "1/10")
    with pytest.raises(ValueError, match="K must be odd"):
        B.uniform_bound(3, 4, "1/10")


# ------------------------------------------------------------------------------------------
# The check scripts
# ------------------------------------------------------------------------------------------


def _load(name):
    path = ROOT / "paper_checks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"test_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


CHECK_IDS = {"sec6_two_count": ["lem6.1", "prop6.2", "prop6.2.steps"],
             "sec6_many_count": ["lem6.3", "thm6.4", "cor6.5", "lem6.6", "cor6.7"]}


@pytest.mark.parametrize("script", sorted(CHECK_IDS))
def test_checks_pass_in_quick_mode(script):
    mod = _load(script)
    specs = checks_in(mod)
    assert [s.id for s in specs] == CHECK_IDS[script]
    for spec in specs:
        res = run_check(spec, Settings(quick=True))
        assert res.status == "pass", (spec.id, res.reason, res.error,
                                      [c.to_json() for c in res.cases if not c.ok])
        assert res.controls and all(ctl.rejected for ctl in res.controls), spec.id
        assert len(res.routes) >= 2


def test_control_linear_group_privacy_is_rejected():
    rho = formulas.renyi_equal_variance(1, 0, 0.25, 1.0)
    d = renyi(Gaussian(0, 1.0), Gaussian(0.75, 1.0), 2.0, method="quadrature")
    assert holds(d.value, "<=", 2 * 9 * rho, d.error)       # the lemma: alpha k^2 rho
    assert not holds(d.value, "<=", 2 * 3 * rho, d.error)   # the perturbed claim: alpha k rho


def test_control_dropping_the_dither_is_rejected():
    prior = B.uniform_prior(5)
    info = B.mutual_information(prior, lambda j: Gaussian(j, 0.1))
    H = B.shannon_entropy(prior)
    D = mpmath.mpf(0.1) * mpmath.sqrt(2 / mpmath.pi)
    assert holds(info.value, ">=", B.information_lower_bound(H, D), info.error)
    assert not holds(info.value, ">=", H - mpmath.log(2 * mpmath.e * D), info.error)


def test_control_uniform_prior_does_not_reach_pi_over_4e2():
    h, he = B.differential_entropy(B.uniform_law(-1, 1))
    _, var, ve = B.law_moments(B.uniform_law(-1, 1))
    q = B.prior_coefficient(h, var)
    assert abs(q - B.uniform_opt_value()) < 1e-20
    assert not holds(q, "==", B.cor67_limit(), mpmath.mpf(10) ** -20)
