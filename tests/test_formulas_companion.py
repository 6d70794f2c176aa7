"""Tests of countdp.formulas.companion: each closed form agrees in fp / mp / ball to rounding at a
few points, and the identities between them hold (discrete Laplace at Delta = 1 is
eps tanh(eps/2), Mironov's curve tends to the KL and to eps, bounded range is below eta^2/8)."""

from __future__ import annotations

import mpmath
import pytest
from hypothesis import given, settings, strategies as st

from _number_systems import assert_fp_mp_ball_agree
from countdp import formulas

CASES = [
    (formulas.laplace_kl, (0.01,)), (formulas.laplace_kl, (2,)),
    (formulas.laplace_renyi, (2, 0.5)), (formulas.laplace_renyi, ("1.001", 5)),
    (formulas.discrete_laplace_kl, (0.1, 3)), (formulas.discrete_laplace_kl, (5, 1)),
    (formulas.krr_true_prob, (1, 4)), (formulas.krr_other_prob, (0.5, 10)),
    (formulas.krr_kl, (0.01, 6)), (formulas.krr_kl, (10, 2)),
    (formulas.rappor_flip_prob, (1,)), (formulas.rappor_rho, (0.01,)), (formulas.rappor_rho, (10,)),
    (formulas.bounded_range_rho, (0.01,)), (formulas.bounded_range_rho, (5,)),
    (formulas.krr_chord_weight, (0.5, 7)), (formulas.laplace_chord_weight, (3,)),
    (formulas.discrete_laplace_chord_weight, (0.01, 100)), (formulas.discrete_laplace_chord_weight, (5, 2)),
    (formulas.bounded_range_worst_q, (0.5,)), (formulas.bounded_range_worst_p, (3,)),
]


pytestmark = pytest.mark.mp_dps(30)


@pytest.mark.parametrize("f,args", CASES, ids=lambda v: getattr(v, "__name__", str(v)))
def test_fp_mp_ball_agree(f, args):
    assert_fp_mp_ball_agree(f, args, scale="0.1")  # bounded range at eta = 0.01 cancels in float64


@settings(max_examples=30, deadline=None)
@given(st.floats(min_value=1e-3, max_value=20))
def test_discrete_laplace_delta_one_is_eps_tanh(eps):
    e = mpmath.mpf(eps)
    assert abs(formulas.discrete_laplace_kl(eps, 1) - e * mpmath.tanh(e / 2)) < mpmath.mpf(10) ** -25 * (1 + e)
    assert abs(formulas.krr_kl(eps, 2) - e * mpmath.tanh(e / 2)) < mpmath.mpf(10) ** -25 * (1 + e)


@settings(max_examples=30, deadline=None)
@given(st.floats(min_value=1e-3, max_value=30))
def test_bounded_range_below_eta_squared_over_8(eta):
    assert formulas.bounded_range_rho(eta) < mpmath.mpf(eta) ** 2 / 8


def test_laplace_closed_forms():
    # Mironov's curve tends to the KL (= the claimed rho) as alpha -> 1, and to eps as alpha -> inf
    for eps in (0.1, 1, 5):
        assert abs(formulas.laplace_renyi(1 + mpmath.mpf(10) ** -15, eps) - formulas.laplace_kl(eps)) < 1e-13
        assert abs(formulas.laplace_renyi(1e8, eps) - eps) < 1e-6


def test_rappor_is_twice_binary_rr_at_half_eps_and_probabilities():
    for eps in (0.3, 4):
        assert abs(formulas.rappor_rho(eps) - 2 * formulas.krr_kl(mpmath.mpf(eps) / 2, 2)) < mpmath.mpf("1e-28")
        k = 5
        total = formulas.krr_true_prob(eps, k) + (k - 1) * formulas.krr_other_prob(eps, k)
        assert abs(total - 1) < mpmath.mpf("1e-28")
        assert abs(formulas.rappor_flip_prob(eps) - formulas.krr_other_prob(mpmath.mpf(eps) / 2, 2)) < mpmath.mpf("1e-28")


def test_the_chord_weights_are_those_of_the_pairs():
    # k-RR: b = (k-2) q / (2 sqrt(p q)); discrete Laplace: sqrt(pq) inside over sqrt(pq) at an end
    for eps, k in ((0.3, 7), (2, 3)):
        p, q = formulas.krr_true_prob(eps, k), formulas.krr_other_prob(eps, k)
        assert abs(formulas.krr_chord_weight(eps, k) - (k - 2) * q / (2 * mpmath.sqrt(p * q))) < mpmath.mpf(10) ** -25
    eps, D = mpmath.mpf("0.7"), 4
    a = eps / D
    end = mpmath.exp(-a * D / 2) / (1 + mpmath.exp(-a))          # sqrt(P(X <= 0) P(X >= Delta))
    inside = mpmath.tanh(a / 2) * mpmath.exp(-a * D / 2)         # sqrt(p_k q_k), 0 < k < Delta
    assert abs(formulas.discrete_laplace_chord_weight(eps, D) - inside / end) < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("eta", [0.05, 1, 7])
def test_the_worst_two_point_pair_maximises_the_kl_at_the_closed_form(eta):
    h = mpmath.mpf(eta)

    def kl(q):
        c = -mpmath.log(1 - q + q * mpmath.exp(h))
        p = q * mpmath.exp(c + h)
        return p * mpmath.log(p / q) + (1 - p) * mpmath.log((1 - p) / (1 - q))

    q, p = formulas.bounded_range_worst_q(eta), formulas.bounded_range_worst_p(eta)
    assert abs(mpmath.log(p / q) - mpmath.log((1 - p) / (1 - q)) - h) < mpmath.mpf(10) ** -25
    assert abs(kl(q) - formulas.bounded_range_rho(eta)) < mpmath.mpf(10) ** -25 * (1 + h)
    assert kl(q * mpmath.mpf("0.99")) < kl(q) and kl(q * mpmath.mpf("1.01")) < kl(q)
