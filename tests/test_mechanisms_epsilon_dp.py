"""Tests of countdp.mechanisms.epsilon_dp: the companion paper's eps-DP mechanisms as neighbouring
pairs of laws, their samplers and the bounded-range searches."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from countdp import formulas
from countdp.divergence.tight_rho import mp_renyi
from countdp.mechanisms import epsilon_dp


pytestmark = pytest.mark.mp_dps(30)


def test_discrete_laplace_window_and_pmf():
    law = epsilon_dp.DiscreteLaplace(0, 0.3)
    lo, hi = law.window(mpmath.mpf(10) ** -20)
    assert law.tail_mass(hi) <= mpmath.mpf(10) ** -20 < law.tail_mass(hi - 1)
    total = mpmath.fsum(law.mp_pmf(k) for k in range(lo, hi + 1))
    assert abs(total - 1) <= mpmath.mpf(10) ** -20
    P, Q = epsilon_dp.discrete_laplace_loss_classes(1.3, 4)
    Pi, Qi = epsilon_dp.discrete_laplace_pair(1.3, 4)
    # merging by likelihood-ratio class keeps D_alpha (sufficiency)
    for alpha in (1.5, 3, 30):
        a = mp_renyi(P, Q, alpha)
        b = mp_renyi(Pi, Qi, alpha)
        assert abs(a.value - b.value) <= a.error + b.error + mpmath.mpf(10) ** -25


def test_the_discrete_laplace_pair_is_for_sensitivity_one_by_default():
    """Without Delta, the neighbours of a counting query: DLap(0, eps) and DLap(1, eps), whose
    D_alpha the class merge (two classes, Delta = 1 by default too) gives as well."""
    P, Q = epsilon_dp.discrete_laplace_pair(0.7)
    assert (P.m, Q.m) == (0, 1) and P.a == Q.a == mpmath.mpf(0.7)
    Pc, Qc = epsilon_dp.discrete_laplace_loss_classes(0.7)
    assert len(Pc.table) == 2
    a, b = mp_renyi(P, Q, 2), mp_renyi(Pc, Qc, 2)
    assert abs(a.value - b.value) <= a.error + b.error + mpmath.mpf(10) ** -25


def test_samplers_frequencies():
    rng = np.random.default_rng(7)
    y = epsilon_dp.krr_release(np.zeros(200_000, dtype=int), 1.0, 5, rng)
    pt = float(formulas.krr_true_prob(1.0, 5))
    assert abs(np.mean(y == 0) - pt) < 5 * math.sqrt(pt * (1 - pt) / len(y))
    bits = epsilon_dp.rappor_release(np.array([0, 1, 2]), 1.0, 3, rng)
    assert bits.shape == (3, 3) and set(np.unique(bits)) <= {0, 1}
    x = epsilon_dp.DiscreteLaplace(2, 0.5).sample(rng, 100_000)
    assert abs(np.mean(x) - 2) < 0.05
    P, _ = epsilon_dp.laplace_pair(1.0, 2)
    assert abs(np.mean(P.sample(rng, 100_000))) < 0.05


def test_the_discrete_laplace_location_is_refused_beyond_what_its_sampler_holds():
    """m + noise is drawn in int64: m in [-2^62, 2^62] is taken (and sampled), one past either end
    is refused with the range named."""
    rng = np.random.default_rng(3)
    for m in (-(2 ** 62), 2 ** 62):
        assert abs(int(np.median(epsilon_dp.DiscreteLaplace(m, 0.5).sample(rng, 101))) - m) < 50
    for m in (-(2 ** 62) - 1, 2 ** 62 + 1):
        with pytest.raises(ValueError, match=r"^m must be an integer in \[-4611686018427387904, "):
            epsilon_dp.DiscreteLaplace(m, 0.5)


def test_laws_use_the_closed_form_probabilities():
    law = epsilon_dp.krr_law(2, 1.5, 4)
    assert abs(law.mp_pmf(2) - formulas.krr_true_prob(1.5, 4)) < mpmath.mpf("1e-28")
    assert abs(law.mp_pmf(0) - formulas.krr_other_prob(1.5, 4)) < mpmath.mpf("1e-28")
    f = formulas.rappor_flip_prob(2.0)
    P = epsilon_dp.rappor_law(0, 2.0, 2)
    assert abs(P.mp_pmf(0b01) - (1 - f) ** 2) < mpmath.mpf("1e-28")


def test_rappor_product_law_is_two_binary_rr():
    # D_alpha of the product law equals twice that of binary RR at eps/2 (independent bits)
    for eps, alpha in ((1.0, 2.0), (3.0, 7.0)):
        a = mp_renyi(*epsilon_dp.rappor_pair(eps, 3), alpha)
        b = mp_renyi(*epsilon_dp.krr_pair(eps / 2, 2), alpha)
        assert abs(a.value - 2 * b.value) <= a.error + 2 * b.error + mpmath.mpf(10) ** -25


def test_worst_bounded_range_pair_is_asymmetric():
    w = epsilon_dp.worst_bounded_range_pair(2.0)
    assert w.r == 2.0      # the worst range is the largest: an optimum within 1e-6 of eta snaps to it
    assert abs(w.r_optimum - 2.0) <= 1e-9 * 2.0   # ...and the optimiser's own point is there too
    assert abs(w.value - formulas.bounded_range_rho(2.0)) < 1e-14
    assert abs(w.p + w.q - 1) > 1e-2     # not the symmetric (binary RR) pair
    assert w.search_error is not None and abs(w.pair[0].mp_pmf(0) - w.p) < 1e-15


def test_the_polish_is_a_full_newton_step_on_the_precise_value():
    # started 1e-2 from the float search's optimum in logit q, one Newton step (central
    # differences at h = 1e-4) lands within ~3e-6 of it, quadratic convergence; a damped or
    # lengthened step (2/3 or 4/3 of it) stays ~3e-3 away
    w = epsilon_dp.worst_bounded_range_pair(2.0, polish=False)
    for d in (1e-2, -1e-2):
        x1, f1, moved = epsilon_dp._polish(w.logit_q + d, w.r)
        assert abs(x1 - w.logit_q) < 1e-4
        assert f1 >= w.value - 1e-12 and moved > 0


def test_random_bounded_range_pairs():
    found = epsilon_dp.random_bounded_range_pairs(1.0, 50, np.random.default_rng(3))
    assert 0 < found.value <= float(formulas.bounded_range_rho(1.0)) * (1 + 1e-12)
    assert found.q.shape == found.p.shape == (3,) and abs(found.p.sum() - 1) < 1e-12


# --------------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------------


NAN = float("nan")


@pytest.mark.parametrize("call,name", [
    (lambda: epsilon_dp.laplace_pair(0), "eps"), (lambda: epsilon_dp.laplace_pair(-1), "eps"),
    (lambda: epsilon_dp.laplace_pair(NAN), "eps"), (lambda: epsilon_dp.laplace_pair(1, 0), "Delta"),
    (lambda: epsilon_dp.discrete_laplace_pair(0, 1), "eps"), (lambda: epsilon_dp.discrete_laplace_pair(1, 0), "Delta"),
    (lambda: epsilon_dp.discrete_laplace_pair(1, 0.5), "Delta"),
    (lambda: epsilon_dp.discrete_laplace_loss_classes(1, 2.5), "Delta"),
    (lambda: epsilon_dp.discrete_laplace_loss_classes(NAN, 2), "eps"),
    (lambda: epsilon_dp.krr_pair(0, 3), "eps"), (lambda: epsilon_dp.krr_pair(1, 1), "k"),
    (lambda: epsilon_dp.krr_pair(1, 2.5), "k"), (lambda: epsilon_dp.krr_pair(NAN, 3), "eps"),
    (lambda: epsilon_dp.krr_pair(1, NAN), "k"), (lambda: epsilon_dp.krr_law(3, 1, 3), r"value must lie in \{0, ..., k-1\} = \{0, ..., 2\}, got 3"),
    (lambda: epsilon_dp.rappor_pair(-0.5, 4), "eps"), (lambda: epsilon_dp.rappor_pair(1, 1), "k"),
    (lambda: epsilon_dp.rappor_pair(0, 4), "eps"),
    (lambda: epsilon_dp.worst_bounded_range_pair(0), "eta"), (lambda: epsilon_dp.worst_bounded_range_pair(-1), "eta"),
    (lambda: epsilon_dp.worst_bounded_range_pair(NAN), "eta"),
    (lambda: epsilon_dp.worst_bounded_range_pair(2, r_fractions=(0.25, -0.5)), "r_fractions"),
    (lambda: epsilon_dp.worst_bounded_range_pair(2, r_fractions=(1.5,)), "r_fractions"),
    (lambda: epsilon_dp.worst_bounded_range_pair(2, r_fractions=()), "r_fractions"),
    (lambda: epsilon_dp.worst_bounded_range_pair(2, grid=2), "grid"),
    (lambda: epsilon_dp.random_bounded_range_pairs(0, 3, np.random.default_rng(0)), "eta"),
    (lambda: epsilon_dp.two_point_pair(1.5, 1), "q"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_the_discrete_laplace_normalisation_follows_the_working_precision():
    """A law built at 15 digits and summed at 50: tanh(a/2) is recomputed, so the masses add to
    one to 50 digits (with the exact geometric tail), not to 15."""
    import mpmath

    from countdp.mechanisms.epsilon_dp import DiscreteLaplace

    with mpmath.workdps(15):
        law = DiscreteLaplace(0, mpmath.mpf(1) / 3)
    with mpmath.workdps(50):
        t = 400
        total = mpmath.fsum(law.mp_pmf(k) for k in range(-t, t + 1)) + law.tail_mass(t)
        assert abs(total - 1) < mpmath.mpf(10) ** -45


def test_privacy_loss_of_outputs_for_each_kind_of_pair():
    """L(y) = log dP/dQ(y): from the pmf tables (+inf where only P has mass, -inf where only Q
    has), for discrete Laplace laws a (|y - m_Q| - |y - m_P|), and from two densities."""
    from countdp.laws import FinitePmf, Gaussian

    P = FinitePmf({0: mpmath.mpf(1) / 2, 1: mpmath.mpf(1) / 4, 2: mpmath.mpf(1) / 4})
    Q = FinitePmf({0: mpmath.mpf(1) / 4, 1: mpmath.mpf(1) / 2, 3: mpmath.mpf(1) / 4})
    L = epsilon_dp.privacy_loss(P, Q, np.array([0, 1, 2, 3]))
    assert L[0] == pytest.approx(math.log(2), rel=1e-15, abs=0)
    assert L[1] == pytest.approx(math.log(1 / 2), rel=1e-15, abs=0)
    assert L[2] == np.inf and L[3] == -np.inf
    a, b = epsilon_dp.DiscreteLaplace(0, 0.7), epsilon_dp.DiscreteLaplace(1, 0.7)
    y = np.array([-3, 0, 1, 5])
    assert np.array_equal(epsilon_dp.privacy_loss(a, b, y), float(a.a) * (np.abs(y - 1) - np.abs(y)))
    g = epsilon_dp.privacy_loss(Gaussian(0, 1), Gaussian(1, 1), np.array([-1.0, 0.5, 2.0]))
    assert np.allclose(g, 0.5 - np.array([-1.0, 0.5, 2.0]), rtol=1e-14, atol=1e-15)
    with pytest.raises(ValueError, match="privacy_loss needs"):
        epsilon_dp.privacy_loss(P, Gaussian(0, 1), np.array([0]))


@pytest.mark.parametrize("a, tail", [(0.05, "1e-20"), (1.0, "1e-3"), (3.0, "0.5"), (0.7, "0.999")])
def test_the_discrete_laplace_window_is_the_smallest_with_the_tail(a, tail):
    law = epsilon_dp.DiscreteLaplace(2, a)
    tail = mpmath.mpf(tail)
    lo, hi = law.window(tail)
    t = hi - 2
    assert lo == 2 - t and t >= 0
    assert law.tail_mass(t) <= tail and (t == 0 or law.tail_mass(t - 1) > tail)
    with pytest.raises(ValueError, match="tail must lie in"):
        law.window(0)
    assert law.describe() == f"DLap(2, a={mpmath.nstr(mpmath.mpf(a), 6)})"


@pytest.mark.parametrize("a", ["0.05", "0.7", "3"])
def test_the_discrete_laplace_tail_mass_is_one_minus_the_central_sum(a):
    """P(|X - m| > t) in closed form against 1 - sum_{|k - m| <= t} p_k at 40 digits."""
    with mpmath.workdps(40):
        law = epsilon_dp.DiscreteLaplace(2, mpmath.mpf(a))
        for t in (0, 1, 5, 30):
            central = mpmath.fsum(law.mp_pmf(k) for k in range(2 - t, 2 + t + 1))
            assert abs(law.tail_mass(t) - (1 - central)) < mpmath.mpf(10) ** -35
