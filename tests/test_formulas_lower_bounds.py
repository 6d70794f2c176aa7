"""Tests of countdp.formulas.lower_bounds: the Section 6 and 8 closed forms in their number
systems (fp / mp / ball / exact) and against independent computations."""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from flint import arb, ctx
from hypothesis import given, settings, strategies as st
from scipy import stats

from _number_systems import assert_fp_mp_ball_agree
from countdp import formulas
from countdp.divergence.information import many_count_bound_for_prior
from countdp.formulas.lower_bounds import TWO_COUNT_BOUND_FP_RTOL, exact_partner
from countdp.harness.results import holds
from countdp.laws.priors import uniform_prior
from countdp.numerics.contexts import Undecided, ball, exact, to_arb


pytestmark = pytest.mark.mp_dps(30)


# ------------------------------------------------------------------------------------------
# One formula, four number systems
# ------------------------------------------------------------------------------------------

H, V = "1.3", "0.8"  # an entropy and a variance
CASES = [
    ("two_count_ratio_root", ("0.1",)), ("two_count_ratio", ("0.37",)),
    ("two_count_ratio_excess", ("0.37",)), ("two_count_bound", (7, "0.1")),
    ("two_count_threshold", (7, 15)), ("two_count_limit", ("0.1",)),
    ("two_count_limit_remainder", (1000, "0.1")), ("markov_sum", ("0.1", "1.5")),
    ("markov_exceedance", (7, "10.2", "0.1")), ("markov_shortfall", (15, "10.2", "0.1")),
    ("markov_sum_limit", ("0.1",)), ("total_variation_floor", ("0.1",)), ("pinsker_kl_floor", ("0.45",)),
    ("gaussian_shift_total_variation", ("0.7", "1.3")), ("laplace_shift_total_variation", ("0.7", "0.5")),
    ("information_floor", ("2.3", "0.4")), ("utility_information_floor", ("2.3", 5, 20, "0.01")),
    ("many_count_bound", ("2.3", 5, "8.25", 20, "0.01")), ("laplace_entropy", ("0.8",)),
    ("gaussian_entropy_at_abs_mean", ("0.8",)), ("uniform_entropy_at_abs_mean", ("0.8",)),
    ("dither_abs_mean", ()), ("uniform_prior_bound", (10, 15, "0.1")), ("uniform_prior_tail", (15, "0.1")),
    ("uniform_prior_limit", ("8.96", "0.1")), ("uniform_prior_limit", ("8.96", 0)),
    ("uniform_prior_limit_slope", ("7.5",)), ("uniform_prior_best_scale", ()), ("uniform_prior_constant", ()),
    ("uniform_over_two_count", ()), ("truncated_normal_mass", ("-1", "2.5")),
    ("truncated_normal_mass", ("0.5", "4")), ("truncated_normal_mean", ("-1", "2.5")),
    ("truncated_normal_variance", ("-3", "3")), ("truncated_normal_entropy", ("-1", "2.5")),
    ("standard_normal_entropy", ()), ("gaussian_prior_bracket", ("3.1", H)),
    ("gaussian_prior_bound", ("3.1", H, V, 3, "0.05")), ("gaussian_prior_best_scale", (H,)),
    ("prior_coefficient", (H, V)), ("gaussian_prior_constant", ()),
    ("gaussian_prior_constant_remainder", (3,)), ("two_count_template", (8, "0.5")),
    ("two_count_template", ("6.5", "0.3")), ("two_count_constant", ()),
    ("group_privacy_bound", ("1.5", 3, "0.25")), ("quantized_entropy", ("13.7", H)),
    ("quantized_mean", ("13.7", "0.27")), ("quantized_second_moment", ("13.7", V)),
    ("quantized_mean_remainder", ()), ("quantized_second_moment_remainder", ("13.7", "2.5")),
]


@pytest.mark.parametrize("name,args", CASES, ids=[f"{n}{a}" for n, a in CASES])
def test_fp_mp_ball_agree(name, args):
    # the remainder of the two-count limit cancels in float64
    assert_fp_mp_ball_agree(getattr(formulas, name), args, scale="0.1")


@pytest.mark.parametrize("name,args", [
    ("two_count_ratio_root", ("1/10",)), ("two_count_ratio", ("1/10",)), ("two_count_ratio_excess", ("1/10",)),
    ("two_count_bound", (81, "1/10")), ("two_count_limit", ("1/10",)),
    ("markov_sum", ("1/10", "13/9")), ("markov_sum_limit", ("1/10",)), ("total_variation_floor", ("1/10",)),
    ("two_count_template", (8, "1/2")), ("two_count_constant", ()), ("group_privacy_bound", (2, 3, "1/8")),
    ("quantized_mean", (10, "1/4")), ("quantized_second_moment", (10, "3/8")), ("quantized_mean_remainder", ()),
    ("quantized_second_moment_remainder", (10, "1/20"))])
def test_rational_formulas_are_exact(name, args):
    f = getattr(formulas, name)
    value = f.exact(*args)
    assert isinstance(value, (Fraction, int))
    with ctx.workprec(200):
        assert f.ball(*args).contains(to_arb(Fraction(value)))


# ------------------------------------------------------------------------------------------
# Proposition 6.2
# ------------------------------------------------------------------------------------------


def test_group_privacy_bound_values():
    assert formulas.group_privacy_bound.exact(2, 3, "1/8") == Fraction(9, 4)
    assert formulas.group_privacy_bound.exact(5, 1, "1/2") == Fraction(5, 2)


def test_partner_of_an_array_runs_the_partner_formula():
    # the array route evaluates the one body of two_count_partner (so a patched body reaches it)
    ns = np.arange(1, 400)
    for r in (Fraction(1, 10), 0.1, "1/100", Fraction(1, 2)):
        m = exact_partner(exact, ns, r)
        assert m.dtype == np.int64
        assert list(m) == [formulas.two_count_partner.exact(int(n), r) for n in ns]
    from countdp.harness.faults import replace_body
    with replace_body(formulas.two_count_partner, lambda c, n, r: c.floor(formulas.two_count_ratio(c, r) * n)):
        m = exact_partner(exact, ns, Fraction(1, 10))
        assert list(m) == [math.floor(Fraction(169, 81) * int(n)) for n in ns]
    assert list(exact_partner(exact, ns, Fraction(1, 10))) == [math.ceil(Fraction(169, 81) * int(n)) for n in ns]


def test_quantization_main_terms_and_remainders():
    assert formulas.quantized_mean.exact(10, "1/4") == Fraction(5, 2)
    assert formulas.quantized_second_moment.exact(10, "1/3") == Fraction(100, 3)
    assert formulas.quantized_mean_remainder.exact() == Fraction(1, 2)
    assert formulas.quantized_second_moment_remainder.exact(10, "1/20") == Fraction(3, 4)
    assert abs(formulas.quantized_entropy(100, "1.3") - (mpmath.log(100) + mpmath.mpf("1.3"))) < 1e-28


def test_C_r_identity_exact_and_mp():
    for r in (Fraction(1, 10), Fraction(1, 2), Fraction(37, 100), Fraction(0.3)):
        assert formulas.two_count_ratio.exact(r) - 1 == 8 * r * (1 + r) / (1 - r) ** 2
        assert formulas.two_count_ratio_excess.exact(r) == 8 * r * (1 + r) / (1 - r) ** 2
        assert abs(formulas.two_count_ratio(r) - 1 - formulas.two_count_ratio_excess(r)) < mpmath.mpf(10) ** -27
    assert formulas.two_count_ratio.exact("1/10") == Fraction(169, 81)


def test_two_count_partner_exact_ceil_and_binary_double():
    # C_r n = 169 exactly at n = 81 for r = 1/10; the double 0.1 is slightly larger than 1/10
    assert formulas.two_count_partner.exact(81, "1/10") == 169
    assert formulas.two_count_partner.exact(81, Fraction(1, 10)) == 169
    assert formulas.two_count_partner.exact(81, 0.1) == 170
    assert formulas.two_count_partner.exact(1, "1/10") == 3
    ns = np.arange(1, 500)
    arr = exact_partner(exact, ns, "1/10")
    assert arr.dtype == np.int64
    assert all(int(arr[i]) == formulas.two_count_partner.exact(int(n), "1/10") for i, n in enumerate(ns))


def test_two_count_partner_of_a_ball_is_decided_or_undecided():
    with ctx.workprec(53):
        assert exact_partner(ball, 3, arb("0.5")) == 75
        # r = 1/3 as a ball: C_r n = 9n exactly, so the ball straddles an integer -> undecided
        with pytest.raises(Undecided):
            formulas.two_count_bound.ball(2, arb(1) / 3)
        assert formulas.two_count_bound.ball(2, Fraction(1, 3)).contains(arb(4) / 9 / (2 * 16 ** 2))
        assert formulas.two_count_bound.ball(3, arb("0.5")).contains(arb(1) / 4 / (2 * 72 ** 2))


def test_two_count_bound_fp_relative_error():
    ns = np.arange(1, 3000)
    arr = formulas.two_count_bound.fp(ns, "1/10")
    for i in range(0, len(ns), 37):
        value = formulas.two_count_bound.exact(int(ns[i]), "1/10")
        assert abs(Fraction(float(arr[i])) - value) / value <= TWO_COUNT_BOUND_FP_RTOL


def test_two_count_values():
    # n = 1, r = 1/10: m = 3, bound = 0.81 / (2 * 4)
    assert formulas.two_count_bound(1, "1/10") == mpmath.mpf("0.10125")
    assert formulas.two_count_bound.exact(1, "1/10") == Fraction(81, 800)
    lim = formulas.two_count_limit("0.1")
    assert abs(lim - mpmath.mpf("0.9") ** 6 / (128 * mpmath.mpf("0.01") * mpmath.mpf("1.21"))) < 1e-25
    for n in (1, 10, 1000, 10 ** 6):
        gap = lim - mpmath.mpf(n) ** 2 * formulas.two_count_bound(n, "1/10")
        assert -1e-25 <= gap <= formulas.two_count_limit_remainder(n, Fraction(1, 10)) + 1e-25


def test_markov_sum_tight_where_C_r_n_integer():
    r = Fraction(1, 10)
    s = formulas.markov_sum(r, mpmath.sqrt(mpmath.mpf(169) / 81))
    assert abs(s - mpmath.mpf("0.55")) < mpmath.mpf(10) ** -27
    t = formulas.two_count_threshold(81, 169)
    b1, b2 = formulas.markov_exceedance(81, t, r), formulas.markov_shortfall(169, t, r)
    assert abs(b1 + b2 - s) < mpmath.mpf(10) ** -26
    assert abs(t - mpmath.sqrt(81 * 169)) < 1e-25
    assert formulas.markov_sum.exact(r, formulas.two_count_ratio_root.exact(r)) == formulas.markov_sum_limit.exact(r)


@settings(max_examples=60, deadline=None)
@given(p=st.integers(1, 999), n=st.integers(1, 10 ** 6))
def test_property_markov_sum_at_most_half_one_plus_r(p, n):
    r = Fraction(p, 1000)
    m = formulas.two_count_partner.exact(n, r)
    assert Fraction(m, n) >= formulas.two_count_ratio.exact(r)  # the exact content of the inequality
    assert m - 1 < formulas.two_count_ratio.exact(r) * n
    s = formulas.markov_sum(r, mpmath.sqrt(mpmath.mpf(m) / n))
    assert s <= (1 + mpmath.mpf(p) / 1000) / 2 + mpmath.mpf(10) ** -25


def test_smaller_C_r_breaks_the_markov_sum():
    shrunk = formulas.two_count_ratio.exact("1/10") * Fraction(999, 1000)
    n = 81 * 13
    m = math.ceil(shrunk * n)
    assert m == 2195  # C_r n = 2197 exactly; 0.999 C_r n = 2194.8...
    s = formulas.markov_sum(Fraction(1, 10), mpmath.sqrt(mpmath.mpf(m) / n))
    assert not holds(s, "<=", mpmath.mpf("0.55"), mpmath.mpf(10) ** -25)


def test_shift_total_variations_and_pinsker():
    assert abs(formulas.gaussian_shift_total_variation(0.7, 1) - (2 * mpmath.ncdf(0.35) - 1)) < 1e-28
    assert abs(formulas.laplace_shift_total_variation(-0.4, 0.5) - (1 - mpmath.exp(-0.4))) < 1e-28
    assert formulas.pinsker_kl_floor(mpmath.mpf("0.5")) == mpmath.mpf("0.5")
    assert formulas.total_variation_floor("0.1") + formulas.markov_sum_limit("0.1") == 1


# ------------------------------------------------------------------------------------------
# Many counts
# ------------------------------------------------------------------------------------------


def test_information_floor_and_many_count_bound():
    assert abs(formulas.information_floor(mpmath.log(5), 0) - (mpmath.log(5) - mpmath.log(mpmath.e / 2))) < 1e-27
    assert formulas.many_count_bound(mpmath.log(3), 1, mpmath.mpf(2) / 3, 1000, "0.1") == 0  # vacuous: [.]_+
    assert formulas.dither_abs_mean.exact() == Fraction(1, 4)


def test_uniform_bound_is_the_general_bound_for_the_uniform_prior():
    for n, K, r in [(1, 3, Fraction(1, 10)), (10, 15, Fraction(1, 10)), (1000, 1187, Fraction(1, 10)),
                    (5, 101, Fraction(1, 1000))]:
        a = formulas.uniform_prior_bound(n, K, r)
        b = many_count_bound_for_prior(uniform_prior(K), (K - 1) // 2, n, r)
        assert abs(a - b) <= mpmath.mpf(10) ** -25 * (1 + abs(a))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 10 ** 5), K=st.integers(1, 500), p=st.integers(1, 99))
def test_property_uniform_bound_nonnegative_and_decreasing_in_n(n, K, p):
    K = 2 * K + 1
    r = Fraction(p, 100)
    a, b = formulas.uniform_prior_bound(n, K, r), formulas.uniform_prior_bound(n + 1, K, r)
    assert a >= 0 and b <= a


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 10 ** 4), K=st.integers(1, 300), p=st.integers(1, 99), j=st.integers(0, 50))
def test_property_uniform_tail_bounds_every_larger_size(n, K, p, j):
    K = 2 * K + 1
    r = Fraction(p, 100)
    assert formulas.uniform_prior_bound(n, K + 2 * j, r) <= formulas.uniform_prior_tail(K, r) + 1e-25


def test_uniform_prior_constants():
    a = formulas.uniform_prior_best_scale()
    assert abs(formulas.uniform_prior_limit(a, 0) - formulas.uniform_prior_constant()) < 1e-27
    assert abs(formulas.uniform_prior_limit_slope(a)) < 1e-27
    assert abs(formulas.uniform_over_two_count() - formulas.uniform_prior_constant() * 128) < 1e-25
    assert formulas.two_count_constant.exact() == Fraction(1, 128)


# ------------------------------------------------------------------------------------------
# Corollary 6.7
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("a,b", [(-3, 3), (-1, 2.5), (0.5, 4)])
def test_truncated_normal_against_scipy(a, b):
    d = stats.truncnorm(a, b)
    assert abs(float(formulas.truncated_normal_mass(a, b)) - (stats.norm.cdf(b) - stats.norm.cdf(a))) < 1e-15
    assert abs(float(formulas.truncated_normal_mean(a, b)) - d.mean()) < 1e-12
    assert abs(float(formulas.truncated_normal_variance(a, b)) - d.var()) < 1e-12
    assert abs(float(formulas.truncated_normal_entropy(a, b)) - d.entropy()) < 1e-10


def _h_tau(L):
    return formulas.truncated_normal_entropy(-L, L), formulas.truncated_normal_variance(-L, L)


def test_gaussian_prior_closed_forms_and_limit():
    h, var = _h_tau(40)
    assert abs(h - formulas.standard_normal_entropy()) < 1e-25
    assert abs(var - 1) < 1e-25
    assert abs(formulas.prior_coefficient(h, var) - mpmath.pi / (4 * mpmath.e ** 2)) < 1e-25
    for L in (1, 2, 3, 5):
        h, var = _h_tau(L)
        x = formulas.gaussian_prior_best_scale(h)
        assert abs(formulas.gaussian_prior_bracket(x, h) - mpmath.mpf(1) / 2) < 1e-27
        assert abs(formulas.gaussian_prior_bound(x, h, var, L, 0) - formulas.prior_coefficient(h, var)) < 1e-27
        gap = abs(formulas.prior_coefficient(h, var) - formulas.gaussian_prior_constant())
        assert gap <= formulas.gaussian_prior_constant_remainder(L)
        # ... and is tight: at most 1.5 times the gap from L = 2 on (measured 4.1, 1.46, 1.07,
        # 1.0001 at L = 1, 2, 3, 5), so a check against it can fail
        if L >= 2:
            assert formulas.gaussian_prior_constant_remainder(L) <= mpmath.mpf("1.5") * gap
