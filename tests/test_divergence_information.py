"""Tests of countdp.divergence.information: entropies, prior moments, total variation, mutual
information and the estimator error D, against closed forms and direct mpmath integrals."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

from countdp import formulas
from countdp.divergence.information import (Information, differential_entropy, estimator_error,
                                            many_count_bound_for_prior, mutual_information,
                                            mutual_information_mc, prior_moments, shannon_entropy,
                                            squared_deviation, total_variation)
from countdp.divergence.renyi import gaussian_renyi, kl
from countdp.harness.results import Settings, holds
from countdp.laws import Gaussian, PointMass
from countdp.laws.moments import expected_distance, law_moments
from countdp.laws.priors import binomial_prior, uniform_prior
from countdp.laws.reference import Laplace, Logistic, Triangular, Uniform
from countdp.mechanisms import ShiftedLogGaussian


pytestmark = pytest.mark.mp_dps(30)


# ------------------------------------------------------------------------------------------
# Priors
# ------------------------------------------------------------------------------------------


def test_entropy_and_moments_of_uniform_and_binomial():
    m = prior_moments(uniform_prior(11), 5)
    assert abs(m.entropy - mpmath.log(11)) < 1e-27 and abs(m.mean - 5) < 1e-27 and abs(m.second_moment - 10) < 1e-27
    m = prior_moments(binomial_prior(10, 0.25), 2)
    assert abs(m.mean - 2.5) < 1e-25 and abs(m.second_moment - 2.125) < 1e-25
    assert abs(float(m.entropy) - stats.binom(10, 0.25).entropy()) < 1e-12
    assert abs(shannon_entropy(np.array([0.5, 0.25, 0.25])) - 1.5 * math.log(2)) < 1e-15
    ks, ps = np.arange(4), np.full(4, 0.25)
    assert abs(shannon_entropy((ks, ps)) - math.log(4)) < 1e-15


def test_squared_deviation_about_any_point():
    from countdp.laws.priors import as_pmf
    pmf = as_pmf(uniform_prior(5))
    assert abs(squared_deviation(pmf, 0) - 6) < 1e-27     # (0 + 1 + 4 + 9 + 16)/5
    assert abs(squared_deviation(pmf, 2) - 2) < 1e-27     # Var J
    assert squared_deviation(as_pmf(([0, 4], np.array([0.5, 0.5]))), 1) == 5.0
    assert prior_moments(uniform_prior(5), 0).second_moment == squared_deviation(pmf, 0)


def test_many_count_bound_for_prior_is_eq19_of_the_moments():
    prior = binomial_prior(8, 0.4)
    m = prior_moments(prior, 3)
    assert many_count_bound_for_prior(prior, 3, 5, 0.01) == \
        formulas.many_count_bound(m.entropy, m.mean, m.second_moment, 5, 0.01)


# ------------------------------------------------------------------------------------------
# Single laws: differential entropy (Lemma 6.3's maximum entropy at a given E|W|)
# ------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_entropy_closed_forms_and_max_entropy():
    h = differential_entropy(Laplace(0, 0.8), (0,))
    assert abs(h.value - (1 + mpmath.log(1.6))) < 1e-25
    a = expected_distance(Laplace(0, 0.8), 0)
    assert abs(formulas.laplace_entropy(a.value) - h.value) < 1e-25
    h = differential_entropy(Gaussian(0, 1.25))
    assert abs(h.value - mpmath.log(2 * mpmath.pi * mpmath.e * mpmath.mpf(1.5625)) / 2) < 1e-25
    h = differential_entropy(Triangular(0, 2), (0,))
    assert abs(h.value - (mpmath.mpf(1) / 2 + mpmath.log(2))) < 1e-25
    h = differential_entropy(Logistic(0, 0.7), (0,))
    assert abs(float(h.value) - stats.logistic(scale=0.7).entropy()) < 1e-12


@settings(max_examples=4, deadline=None)
@given(s=st.floats(0.1, 10))
@pytest.mark.slow
def test_property_max_entropy_gaussian_and_uniform(s):
    for law, closed in ((Gaussian(0, s), formulas.gaussian_entropy_at_abs_mean),
                        (Uniform(-s, s), formulas.uniform_entropy_at_abs_mean)):
        h = differential_entropy(law)
        a = expected_distance(law, 0)
        assert h.value < formulas.laplace_entropy(a.value)
        assert abs(h.value - closed(a.value)) < 1e-20  # the comparison entropies of Lemma 6.3


def test_law_moments_of_a_uniform():
    m = law_moments(Uniform(-1, 2))
    assert abs(m.mean - mpmath.mpf(1) / 2) < 1e-25 and abs(m.variance - mpmath.mpf(9) / 12) < 1e-25


# ------------------------------------------------------------------------------------------
# Two laws: total variation (and the KL the Section 6 chain uses)
# ------------------------------------------------------------------------------------------


def test_total_variation_against_closed_forms():
    tv = total_variation(Gaussian(0, 1), Gaussian(0.7, 1))
    assert abs(tv.value - formulas.gaussian_shift_total_variation(0.7, 1)) < 1e-25
    tv = total_variation(Laplace(0, 0.5), Laplace(0.4, 0.5))
    assert abs(tv.value - formulas.laplace_shift_total_variation(0.4, 0.5)) < 1e-25
    assert abs(total_variation(Gaussian(0, 1), Gaussian(0, 1)).value) < 1e-25
    assert total_variation(PointMass(0), PointMass(1)).value == 1
    mech = ShiftedLogGaussian(0.45, 0.25, r=0.5)
    tv = total_variation(mech.released_law(1), mech.released_law(2))
    assert abs(tv.value - formulas.gaussian_shift_total_variation(mpmath.log(mpmath.mpf(9) / 5),
                                                                  mech.mp_sigma())) < 1e-25


@settings(max_examples=4, deadline=None)
@given(d=st.floats(0.01, 3), s1=st.floats(0.3, 3), s2=st.floats(0.3, 3))
@pytest.mark.slow
def test_property_tv_symmetric_bounded_and_pinsker(d, s1, s2):
    P, Q = Gaussian(0, s1), Gaussian(d, s2)
    tv = total_variation(P, Q).value
    tv2 = total_variation(Q, P).value
    assert 0 <= tv <= 1 and abs(tv - tv2) < 1e-20
    assert gaussian_renyi(1, 0, s1, d, s2).value >= formulas.pinsker_kl_floor(tv) - 1e-20


def test_kl_quadrature_against_closed_forms():
    """The KL of the chain is countdp.divergence.renyi.kl (the duplicate KL quadrature of the old
    module is gone): its quadrature route against the Gaussian and Laplace closed forms."""
    d = kl(Gaussian(0, 1), Gaussian(0.5, 2), method="quadrature")
    assert abs(d.value - gaussian_renyi(1, 0, 1, 0.5, 2).value) < 1e-25
    d = kl(Laplace(0, 0.5), Laplace(0.3, 0.5), method="quadrature")
    assert abs(d.value - formulas.laplace_kl(0.6)) < 1e-25  # |D| - 1 + e^{-|D|}, D = 0.3/0.5 (binary doubles)
    assert kl(PointMass(0), PointMass(1)).value == mpmath.inf


# ------------------------------------------------------------------------------------------
# A channel: mutual information and the estimator error
# ------------------------------------------------------------------------------------------


def test_mutual_information_limits_and_direct_quadrature():
    prior = uniform_prior(4)
    info = mutual_information(prior, lambda j: Gaussian(0, 1))  # independent channel: I = 0
    assert isinstance(info, Information) and abs(info.value) < 1e-12
    info = mutual_information(prior, lambda j: Gaussian(100 * j, 1))  # separated: I = H(J)
    assert abs(info.value - math.log(4)) < 1e-10
    prior2 = {0: mpmath.mpf(1) / 2, 1: mpmath.mpf(1) / 2}
    info = mutual_information(prior2, lambda j: Gaussian(j, 1))

    def integrand(y):
        f0, f1 = mpmath.npdf(y, 0, 1), mpmath.npdf(y, 1, 1)
        m = (f0 + f1) / 2
        return (f0 * mpmath.log(f0 / m) + f1 * mpmath.log(f1 / m)) / 2

    direct = mpmath.quad(integrand, [-mpmath.inf, 0, 0.5, 1, mpmath.inf])
    assert abs(info.value - float(direct)) < 1e-12
    assert info.error < 1e-10


def test_mutual_information_mc_agrees():
    prior = binomial_prior(6, 0.5)

    def channel(j):
        return Laplace(j, 0.7)

    info = mutual_information(prior, channel)
    mc = mutual_information_mc(prior, channel, Settings().rng("test-mi"), 100_000)
    assert abs(info.value - mc.mean) <= mc.halfwidth


def test_mutual_information_with_atoms():
    mech = ShiftedLogGaussian(0.9, 1, r=0.95)
    prior = uniform_prior(3)
    info = mutual_information(prior, lambda j: mech.released_law(j))  # counts 0, 1, 2: big atoms
    mc = mutual_information_mc(prior, lambda j: mech.released_law(j), Settings().rng("atoms"), 100_000)
    assert abs(info.value - mc.mean) <= mc.halfwidth + info.error


def test_estimator_error_by_quadrature_and_by_closed_form():
    prior = uniform_prior(3)
    quad = estimator_error(prior, lambda j: Gaussian(j, 0.5))
    closed = estimator_error(prior, lambda j: Gaussian(j, 0.5), per_count=lambda j: 0.5 * mpmath.sqrt(2 / mpmath.pi))
    assert abs(quad.value - closed.value) <= quad.error + closed.error


def test_control_dropping_the_dither_is_rejected():
    prior = uniform_prior(5)
    info = mutual_information(prior, lambda j: Gaussian(j, 0.1))
    H = shannon_entropy(prior)
    D = mpmath.mpf(0.1) * mpmath.sqrt(2 / mpmath.pi)
    assert holds(info.value, ">=", formulas.information_floor(H, D), info.error)
    assert not holds(info.value, ">=", H - mpmath.log(2 * mpmath.e * D), info.error)


@pytest.mark.parametrize("call", [
    lambda: shannon_entropy({0: -0.5, 1: 1.5}),
    lambda: many_count_bound_for_prior({3: 1.0}, 3, 5, 0.1),
    lambda: many_count_bound_for_prior({3: 0.5, 4: 0.5}, 3, 0, 0.1),
    lambda: many_count_bound_for_prior({3: 0.5, 4: 0.5}, 3, 5, 1.5),
    lambda: differential_entropy(ShiftedLogGaussian(0.1, 1).released_law(3)),
    lambda: mutual_information({0: 0.5, 1: 0.6}, lambda j: Gaussian(j, 1)),
    lambda: mutual_information({0: 0.5, 1: 0.5},
                               lambda j: Gaussian(j, 1) if j == 0 else ShiftedLogGaussian(0.1, 1).released_law(3)),
    lambda: total_variation(Gaussian(0, 1), ShiftedLogGaussian(0.1, 1).released_law(3))])
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


def test_the_variance_error_bar_covers_every_corner_of_the_two_moment_boxes(monkeypatch):
    """Var = m2 - m1^2 from two quadratures with errors e1, e2: the bar must be at least
    max |(m2 +- e2) - (m1 +- e1)^2 - Var| = e2 + 2|m1| e1 + e1^2 (pinned with fixed inputs)."""
    from countdp.laws import moments

    answers = iter([(mpmath.mpf(3), mpmath.mpf("0.1")), (mpmath.mpf(10), mpmath.mpf("0.2"))])
    monkeypatch.setattr(moments, "quad_expectation", lambda law, f, breaks=(): next(answers))
    m = moments.law_moments(Gaussian(0, 1))
    corners = [(10 + s2 * mpmath.mpf("0.2")) - (3 + s1 * mpmath.mpf("0.1")) ** 2 - m.variance
               for s1 in (-1, 1) for s2 in (-1, 1)]
    assert m.variance == 1 and m.error >= max(abs(c) for c in corners)
    assert abs(m.error - mpmath.mpf("0.81")) < 1e-25


def test_total_variation_of_an_atom_and_a_density_is_one():
    """Mutually singular parts: (sum of the atoms + the density's mass)/2 = 1, in either order, its
    bar the rounding of those sums (a few ulps)."""
    from countdp.divergence.information import total_variation

    for P, Q in ((PointMass(0), Gaussian(0, 1)), (Gaussian(3, 2), PointMass(1))):
        tv = total_variation(P, Q)
        assert tv.value == 1 and 0 < tv.error <= 4 * mpmath.eps


def _tv_gaussians(m, s):
    """d_TV(N(0, 1), N(m, s^2)) for s != 1: P(A) - Q(A) on A = {p > q}, between the two roots
    of log p = log q (a quadratic) when s > 1, outside them when s < 1."""
    m, s = mpmath.mpf(m), mpmath.mpf(s)
    # x^2 (1 - 1/s^2) + 2 m x / s^2 - m^2 / s^2 - 2 log s = 0 ... from -x^2/2 = -(x-m)^2/(2s^2) - log s
    a, b, c = 1 - 1 / s ** 2, 2 * m / s ** 2, -m ** 2 / s ** 2 - 2 * mpmath.log(s)
    r1, r2 = sorted([(-b - mpmath.sqrt(b * b - 4 * a * c)) / (2 * a), (-b + mpmath.sqrt(b * b - 4 * a * c)) / (2 * a)])
    inside = (mpmath.ncdf(r2) - mpmath.ncdf(r1)) - (mpmath.ncdf((r2 - m) / s) - mpmath.ncdf((r1 - m) / s))
    return inside if s > 1 else -inside


@pytest.mark.parametrize("m,s", [(0.7, 1.6), (-2.0, 0.3), (5.0, 20.0), (3.0, 0.01), (-30.0, 7.0)])
@pytest.mark.slow
def test_total_variation_of_gaussians_with_two_crossings(m, s):
    """Unequal scales: |p - q| has two kinks, found by the crossing search (one can lie many of
    the narrow law's scales away); the value matches the closed form to 1e-20."""
    tv = total_variation(Gaussian(0, 1), Gaussian(m, s))
    exact = _tv_gaussians(m, s)
    assert 0 < exact < 1
    assert abs(tv.value - exact) <= tv.error + mpmath.mpf(10) ** -20 and tv.error < 1e-20


def _tv_gaussian_laplace(s):
    """d_TV(N(0, s^2), Lap(0, 1)) for s > 1 from the crossings 0 < c1 < c2 of the densities
    (p > q exactly on c1 < |t| < c2): 2 (Phi(c2/s) - Phi(c1/s)) - (e^-c1 - e^-c2)."""
    s = mpmath.mpf(s)
    g = lambda t: t - t * t / (2 * s * s) - mpmath.log(s * mpmath.sqrt(2 * mpmath.pi) / 2)
    c1, c2 = mpmath.findroot(g, 1), mpmath.findroot(g, 2 * s * s)
    return 2 * (mpmath.ncdf(c2 / s) - mpmath.ncdf(c1 / s)) - (mpmath.exp(-c1) - mpmath.exp(-c2))


@pytest.mark.mp_dps(40)
@pytest.mark.parametrize("s", [5, 6])
def test_total_variation_finds_a_crossing_in_the_wide_law_s_window_only(s):
    """N(0, s^2) against Lap(0, 1): the outer crossings (|t| = 48.1 for s = 5, 69.9 for s = 6)
    lie beyond the Laplace law's 40 scales but within the Gaussian's, where both densities are
    about 1e-22 and 1e-31. At 40 digits such a kink left inside a panel is far above the bar:
    the value must match the closed form within its bar, and the bar stay at the working
    precision (about 2.5e-38 here)."""
    tv = total_variation(Gaussian(0, s), Laplace(0, 1))
    with mpmath.workdps(70):
        exact = _tv_gaussian_laplace(s)
    assert abs(tv.value - exact) <= tv.error < mpmath.mpf(10) ** -37


@pytest.mark.mp_dps(30)
def test_total_variation_of_densities_on_overlapping_intervals():
    """U(0, 2) and U(-2, 1) overlap on (0, 1): 2 d_TV = 1/6 + 1/2 (P alone) + 2/3 (Q alone), so
    d_TV = 2/3; where one density is zero (its log -inf) it counts as 0."""
    for P, Q in ((Uniform(0, 2), Uniform(-2, 1)), (Uniform(-2, 1), Uniform(0, 2))):
        tv = total_variation(P, Q)
        assert abs(tv.value - mpmath.mpf(2) / 3) <= tv.error + mpmath.mpf(10) ** -25
    tv = total_variation(Uniform(-1, 1), Uniform(-0.5, 0.5))   # nested: 1 - 1/2 = 1/2
    assert abs(tv.value - mpmath.mpf(1) / 2) <= tv.error + mpmath.mpf(10) ** -25


@pytest.mark.mp_dps(30)
def test_total_variation_with_kinks_given():
    """The Laplace shift's kinks at 0 and 0.4 given as breaks: the same closed form."""
    want = formulas.laplace_shift_total_variation(0.4, 0.5)
    tv = total_variation(Laplace(0, 0.5), Laplace(0.4, 0.5), breaks=(0, 0.4))
    assert abs(tv.value - want) <= tv.error + mpmath.mpf(10) ** -25 and tv.error < mpmath.mpf(10) ** -20


@pytest.mark.parametrize("pair", ["gaussian", "laplace"])
def test_the_total_variation_bar_covers_its_distance_to_the_closed_form(pair):
    """At 30 digits, against the closed form at 60 (of the laws' stored parameters): within the
    stated error, which carries the rounding of the summed nodes (mpmath's own estimate can be
    0 for a converged sum)."""
    with mpmath.workdps(30):
        d = mpmath.mpf("0.7") if pair == "gaussian" else mpmath.mpf("0.4")
        P, Q = (Gaussian(0, 1), Gaussian(d, 1)) if pair == "gaussian" else (Laplace(0, 0.5), Laplace(d, 0.5))
        tv = total_variation(P, Q)
    with mpmath.workdps(60):
        exact = (2 * mpmath.ncdf(d / 2) - 1 if pair == "gaussian"
                 else 1 - mpmath.exp(-d / (2 * mpmath.mpf("0.5"))))
        assert abs(tv.value - exact) <= tv.error


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.floats(-50, 50), st.floats(0.01, 20)), min_size=1, max_size=3),
       st.floats(1e-15, 1e-11), st.booleans())
def test_panels_cover_the_window_exactly(laws, gap, at_top):
    """The panels run from the window's first end to its last, even when a split lies within the
    merge threshold (1e-12 of the largest |t|) of an end."""
    from countdp.divergence.information import _panels
    from countdp.laws import Gaussian
    span = 40.0
    dens = [Gaussian(c, s).density for c, s in laws]
    A = min(c - span * s for c, s in laws)
    B = max(c + span * s for c, s in laws)
    near = B - gap * max(1.0, abs(B)) if at_top else A + gap * max(1.0, abs(A))
    pts = _panels(dens, [near], span)
    assert pts[0] == pytest.approx(A, rel=1e-15, abs=1e-15) and pts[-1] == pytest.approx(B, rel=1e-15, abs=1e-15)
    assert np.all(np.diff(pts) > 0)


def test_total_variation_of_atoms_carries_the_rounding_of_their_differences():
    """Two laws on atoms whose masses are not binary numbers (1/3 and 1/7 stored at the working
    precision): the bar covers the value at 60 digits of the same stored masses."""
    from countdp.divergence.information import total_variation
    from countdp.laws import FinitePmf

    third, seventh = mpmath.mpf(1) / 3, mpmath.mpf(1) / 7
    P = FinitePmf({0: third, 1: 1 - third})
    Q = FinitePmf({0: seventh, 2: 1 - seventh})
    tv = total_variation(P, Q)
    with mpmath.workdps(60):
        ref = (abs(third - seventh) + abs(1 - third) + abs(1 - seventh)) / 2
    assert abs(tv.value - ref) <= tv.error <= 4 * mpmath.eps
